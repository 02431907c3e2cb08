--! medium
-- Locals: scoping, shadowing, multiple assignment, <const> and <close>.
local a, b, c = 1, 2
assert(a == 1 and b == 2 and c == nil)
local x = 1
do local x = 2; assert(x == 2) end
assert(x == 1)
local x = x + 1 -- the new x is not in scope in its own initialiser
assert(x == 2)

-- multiple assignment evaluates all expressions before assigning
local i, j = 1, 2
i, j = j, i
assert(i == 2 and j == 1)
local t = {}
i = 1
i, t[i] = i + 1, 20
assert(i == 2 and t[1] == 20 and t[2] == nil)
local function mr() return 1, 2, 3 end
local p, q, r, s = mr()
assert(p == 1 and r == 3 and s == nil)
p, q, r = mr(), 10
assert(p == 1 and q == 10 and r == nil)

-- <const>
local K <const> = 42
local S <const> = "str"
assert(K == 42 and S .. K == "str42")
local function usek() return K * 2 end
assert(usek() == 84)

-- <close>: runs at scope exit, in reverse order, with the error object
local log = {}
local function closer(name)
  return setmetatable({}, {__close = function(_, e) log[#log + 1] = name .. ":" .. tostring(e) end})
end
do
  local c1 <close> = closer("a")
  local c2 <close> = closer("b")
  local c3 <close> = nil -- nil and false are allowed and ignored
  local c4 <close> = false
end
assert(table.concat(log, " ") == "b:nil a:nil")

log = {}
local ok, e = pcall(function()
  local c1 <close> = closer("x")
  error("boom", 0)
end)
assert(not ok and e == "boom" and log[1] == "x:boom")

-- closed on break, return and goto out of the block
log = {}
for k = 1, 3 do
  local c1 <close> = closer("it" .. k)
  if k == 2 then break end
end
assert(table.concat(log, " ") == "it1:nil it2:nil")
log = {}
local function ret()
  local c1 <close> = closer("r")
  return "v"
end
assert(ret() == "v" and log[1] == "r:nil")

-- an error in __close replaces the error
ok, e = pcall(function()
  local c1 <close> = setmetatable({}, {__close = function() error("in close", 0) end})
  error("orig", 0)
end)
assert(not ok and e == "in close")

-- a value without __close is rejected
local function err(src, msg)
  local f = assert(load(src, "=t"))
  local ok2, e2 = pcall(f)
  assert(not ok2)
  if e2 ~= msg then error(("got %q want %q"):format(tostring(e2), msg), 2) end
end
err("local x <close> = {}", "t:1: variable 'x' got a non-closable value")
err("local x <close> = 1", "t:1: variable 'x' got a non-closable value")

-- many locals
local src = {"local v1 = 1"}
for n = 2, 60 do src[#src + 1] = ("local v%d = v%d + 1"):format(n, n - 1) end
src[#src + 1] = "return v60"
assert(load(table.concat(src, "\n"))() == 60)
src = nil
collectgarbage() -- the 64-bit model on a 64 KiB board needs the room
local f, msg = load(("local a;"):rep(201), "=t")
assert(f == nil and msg == "t:1: too many local variables (limit is 200) in main function near ';'")
print("ok")
