-- Numeric and generic for: 5.4 semantics (precomputed iteration count for
-- integers, no overflow at the limits, float loops), errors, and
-- iterators with state and closing values.
local maxi, mini = math.maxinteger, math.mininteger
local function count(a, b, c)
  local n = 0
  for _ = a, b, c do n = n + 1 end
  return n
end
assert(count(1, 10, 1) == 10 and count(10, 1, -1) == 10 and count(1, 0, 1) == 0)
assert(count(1, 10, 3) == 4 and count(1, 1, 1) == 1 and count(5, 1, 1) == 0)
-- loops that end at the integer limits must not wrap around
assert(count(maxi - 2, maxi, 1) == 3 and count(mini + 2, mini, -1) == 3)
assert(count(maxi - 1, maxi, 10) == 1 and count(mini, mini + 1, maxi) == 1)
assert(count(mini, maxi, maxi) == 3 and count(maxi, mini, mini) == 2)
-- a float limit is clipped for an integer loop
assert(count(1, 3.5, 1) == 3 and count(1, math.huge, maxi) == 1)
assert(count(1, -math.huge, 1) == 0 and count(3, 0.5, -1) == 3)

-- the control variable's subtype
for k = 1, 1 do assert(math.type(k) == "integer") end
for k = 1.0, 1 do assert(math.type(k) == "float") end
for k = 1, 1.0 do assert(math.type(k) == "integer") end
for k = 1, 2, 0.5 do assert(math.type(k) == "float") end

-- float loops
local acc = {}
for x = 0, 1, 0.25 do acc[#acc + 1] = x end
assert(#acc == 5 and acc[5] == 1.0)
acc = {}
for x = 1, 0, -0.5 do acc[#acc + 1] = x end
assert(#acc == 3 and acc[3] == 0.0)

-- modifying the control variable does not change the iteration
local n = 0
for k = 1, 3 do local kk = k; kk = kk * 10; n = n + 1 end
assert(n == 3)

-- the limit and step are evaluated once
local calls = 0
local function lim() calls = calls + 1; return 3 end
for _ = 1, lim() do end
assert(calls == 1)

-- errors
local function err(src, msg)
  local ok, e = pcall(assert(load(src, "=t")))
  assert(not ok)
  if e ~= msg then error(("got %q want %q"):format(tostring(e), msg), 2) end
end
err("for i = 1, 10, 0 do end", "t:1: 'for' step is zero")
err("for i = 1.0, 10, 0 do end", "t:1: 'for' step is zero")
err("for i = 'a', 2 do end", "t:1: bad 'for' initial value (number expected, got string)")
err("for i = 1, {} do end", "t:1: bad 'for' limit (number expected, got table)")
err("for i = 1, 2, nil do end", "t:1: bad 'for' step (number expected, got nil)")
err("for k in 5 do end", "t:1: attempt to call a number value (for iterator 'for iterator')")

-- generic for: the iterator function, the invariant state and the control
local function range(m)
  return function(st, c) if c < st then return c + 1 end end, m, 0
end
local sum = 0
for v in range(4) do sum = sum + v end
assert(sum == 10)
-- multiple values
local seen = {}
for a, b, c in function(_, x) if x < 2 then return x + 1, "b", "c" end end, nil, 0 do
  seen[#seen + 1] = a .. b .. c
end
assert(table.concat(seen, ",") == "1bc,2bc")
-- the fourth value is a to-be-closed variable
local closed = false
do
  local tbc = setmetatable({}, {__close = function() closed = true end})
  for _ in function(_, c) if not c then return 1 end end, nil, nil, tbc do break end
end
assert(closed)
-- pairs honours __pairs
local mt = {__pairs = function(t) return function(_, k) if not k then return 1, "v" end end, t, nil end}
local got
for k, v in pairs(setmetatable({}, mt)) do got = k .. v end
assert(got == "1v")
print("ok")
