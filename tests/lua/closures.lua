--! medium64
-- (medium64: microbit's 64-bit arena, 7,112 bytes, runs out in it; the
-- 32-bit one, 7,864 bytes since newlib's reentrancy structure left the
-- firmware, holds it.)
-- Closures and upvalues: sharing, closing at scope exit, fresh locals per
-- loop iteration, deep nesting, and upvalues that outlive their frame.
local function counter()
  local c = 0
  return function() c = c + 1; return c end, function() return c end
end
local inc, get = counter()
inc(); inc()
assert(get() == 2)
local inc2 = counter()
assert(inc2() == 1 and get() == 2) -- independent instances

-- two closures share one upvalue while it is open and after it closes
local set, read
do
  local v = 1
  set = function(x) v = x end
  read = function() return v end
  v = 5
  assert(read() == 5)
end
set(9)
assert(read() == 9)

-- per-iteration locals in numeric for, generic for and while
local fs = {}
for i = 1, 3 do fs[i] = function() return i end end
assert(fs[1]() == 1 and fs[2]() == 2 and fs[3]() == 3)
fs = {}
for k, v in ipairs({"a", "b"}) do fs[k] = function() return k .. v end end
assert(fs[1]() == "1a" and fs[2]() == "2b")
fs = {}
local j = 0
while j < 3 do
  j = j + 1
  local copy = j
  fs[j] = function() copy = copy + 10; return copy end
end
assert(fs[1]() == 11 and fs[1]() == 21 and fs[2]() == 12)
fs = {}
local r = 0
repeat
  r = r + 1
  local mine = r
  fs[r] = function() return mine end
until mine >= 3
assert(fs[1]() == 1 and fs[3]() == 3)

-- a loop variable shared by two closures of the same iteration
local getters, setters = {}, {}
for i = 1, 2 do
  getters[i] = function() return i end
  setters[i] = function(v) i = v end
end
setters[1](100)
assert(getters[1]() == 100 and getters[2]() == 2)

-- deep nesting: upvalues of upvalues
local function l1()
  local a = 1
  return function()
    local b = 2
    return function()
      local c = 3
      return function() a = a + 1; return a + b + c end
    end
  end
end
local deep = l1()()()
assert(deep() == 7 and deep() == 8)

-- recursive local function sees itself
local function rec(k) if k == 0 then return 0 end return 1 + rec(k - 1) end
assert(rec(50) == 50)

-- closures capturing parameters and varargs
local function bind(f, ...)
  local args = table.pack(...)
  return function() return f(table.unpack(args, 1, args.n)) end
end
assert(bind(function(x, y) return x * y end, 6, 7)() == 42)

-- an upvalue closed by break and by an error
local saved
for i = 1, 10 do
  local z = i * 2
  saved = function() return z end
  if i == 4 then break end
end
assert(saved() == 8)
local ok = pcall(function()
  local w = "kept"
  saved = function() return w end
  error("x")
end)
assert(not ok and saved() == "kept")

-- the _ENV upvalue
local env = {y = 3}
local chunk = load("x = y * 2; return x", "=c", "t", env)
assert(chunk() == 6 and env.x == 6 and x == nil)
do
  local _ENV = {z = 1, assert = assert}
  z = z + 1
  assert(z == 2)
end
print("ok")
