--! medium
-- Tables: constructors, keys (integer/float normalisation, nil and NaN
-- keys), the length of sequences, next/pairs/ipairs, raw access and the
-- table library subset.
local t = {1, 2, 3, x = 1, ["y"] = 2, [10] = 3; 4}
assert(#t == 4 and t[4] == 4 and t.x == 1 and t.y == 2 and t[10] == 3)
local function three() return 1, 2, 3 end
assert(#{three()} == 3 and #{three(), three()} == 4 and #{(three())} == 1)
assert(#{} == 0 and #{nil} == 0 and #{1, 2, nil} == 2)

-- key normalisation: 1.0 and 1 are the same key
t = {}
t[1.0] = "a"
assert(t[1] == "a" and math.type(next(t)) == "integer")
t[2 ^ 53] = "big"
assert(t[2 ^ 53] == "big")
t[-0.0] = "z"
assert(t[0] == "z")
t = {}
t[1.5] = 1
assert(t[1.5] == 1 and t[1] == nil)

-- next and pairs visit every key once
t = {10, 20, 30, a = 1, b = 2, c = 3}
local n, sum = 0, 0
for k, v in pairs(t) do n = n + 1; sum = sum + v end
assert(n == 6 and sum == 66)
assert(next({}) == nil)
local k, v = next({5})
assert(k == 1 and v == 5)
-- clearing fields during traversal is allowed
for key in pairs(t) do t[key] = nil end
assert(next(t) == nil)

-- ipairs stops at the first nil
local c = 0
for i, x in ipairs({1, 2, nil, 4}) do c = i end
assert(c == 2)

-- growth and shrinking
t = {}
for i = 1, 400 do t[i] = i end
assert(#t == 400)
for i = 400, 201, -1 do t[i] = nil end
assert(#t == 200)
t = {}
for i = 1, 100 do t["k" .. i] = i end
for i = 1, 100 do assert(t["k" .. i] == i) end

-- raw access
t = setmetatable({}, {__index = function() return "mt" end, __newindex = function() end})
assert(t.x == "mt" and rawget(t, "x") == nil)
t.y = 1
assert(rawget(t, "y") == nil)
rawset(t, "y", 2)
assert(t.y == 2 and rawlen({1, 2}) == 2 and rawlen("abc") == 3)
assert(rawequal(t, t) and not rawequal(t, {}))

-- table library
t = {1, 2, 3}
table.insert(t, 4)
table.insert(t, 1, 0)
assert(table.concat(t, ",") == "0,1,2,3,4")
assert(table.remove(t) == 4 and table.remove(t, 1) == 0 and table.concat(t) == "123")
assert(table.remove({}) == nil)
assert(table.concat({1, "a", 2.5}, "-", 2, 3) == "a-2.5" and table.concat({}, "x") == "")
local p = table.pack(1, nil, 3)
assert(p.n == 3 and p[1] == 1 and p[3] == 3)
local a, b, c2 = table.unpack({1, 2, 3})
assert(a == 1 and b == 2 and c2 == 3 and select("#", table.unpack({}, 1, 3)) == 3)
t = {5, 2, 8, 1, 9, 3}
table.sort(t)
assert(table.concat(t, " ") == "1 2 3 5 8 9")
table.sort(t, function(x, y) return x > y end)
assert(table.concat(t, " ") == "9 8 5 3 2 1")
local words = {"pear", "apple", "fig"}
table.sort(words)
assert(table.concat(words, " ") == "apple fig pear")
assert(table.concat(table.move({1, 2, 3}, 1, 3, 2), ",") == "1,1,2,3")

local function err(src, msg)
  local ok, e = pcall(assert(load(src, "=t")))
  assert(not ok)
  if e ~= msg then error(("got %q want %q"):format(tostring(e), msg), 2) end
end
err("local t = {} t[nil] = 1", "t:1: table index is nil")
err("local t = {} t[0/0] = 1", "t:1: table index is NaN")
err("return next({}, 'nokey')", "invalid key to 'next'")
err("return table.concat({1, {}})", "t:1: invalid value (table) at index 2 in table for 'concat'")
err("return table.insert({}, 5, 1)", "t:1: bad argument #2 to 'insert' (position out of bounds)")
err("local u; u.x = 1", "t:1: attempt to index a nil value (local 'u')")
err("return ipairs()", "t:1: bad argument #1 to 'ipairs' (value expected)")
print("ok")
