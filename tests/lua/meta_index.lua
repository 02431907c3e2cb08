--! medium64
-- (medium64: its last load() finds microbit's 64-bit test model's arena
-- too small, its number formatter's scratch taking 1 KiB of RAM.)
-- Metatables I: __index and __newindex (tables and functions, chains),
-- __call, __len, __concat, __tostring, __name, __metatable.
local base = {greet = function() return "hi" end, v = 1}
local mid = setmetatable({w = 2}, {__index = base})
local top = setmetatable({}, {__index = mid})
assert(top.v == 1 and top.w == 2 and top.greet() == "hi" and top.none == nil)
assert(rawget(top, "v") == nil)

-- __index function receives the table and the key
local seen
local proxy = setmetatable({}, {__index = function(t, k) seen = k; return k .. "!" end})
assert(proxy.abc == "abc!" and seen == "abc" and proxy[1] == "1!")
-- existing keys do not consult __index
proxy.abc = "own"
assert(proxy.abc == "own")

-- __newindex: table target and function target, only for absent keys
local store = {}
local w = setmetatable({}, {__newindex = store})
w.a = 1
assert(rawget(w, "a") == nil and store.a == 1)
local logk = {}
local w2 = setmetatable({}, {__newindex = function(t, k, v) logk[#logk + 1] = k; rawset(t, k, v * 2) end})
w2.x = 5
w2.x = 7 -- present now: raw assignment
assert(w2.x == 7 and #logk == 1)
-- chain of __newindex tables
local inner = {}
local chain = setmetatable({}, {__newindex = setmetatable({}, {__newindex = inner})})
chain.k = "deep"
assert(inner.k == "deep")

-- __index on non-table values via the string metatable
assert(("abc").len == string.len)

-- __call, with extra arguments and multiple results
local callme = setmetatable({}, {__call = function(self, a, b)
  return self, (type(a) == "number" and a or 0) + b, "x"
end})
local s, sum, x = callme(2, 3)
assert(s == callme and sum == 5 and x == "x")
-- __call chains: a callable whose __call is itself a callable table
local c2 = setmetatable({}, {__call = callme})
local r1, r2 = c2(1, 2)
assert(r1 == callme and r2 == 1)

-- __len
local lenobj = setmetatable({1, 2, 3}, {__len = function() return 42 end})
assert(#lenobj == 42 and rawlen(lenobj) == 3)

-- __concat, for either operand, and in chains
local cc = setmetatable({}, {__concat = function(a, b)
  local av = type(a) == "table" and "T" or a
  local bv = type(b) == "table" and "T" or b
  return av .. bv
end})
assert(cc .. "x" == "Tx" and "x" .. cc == "xT" and 1 .. cc == "1T")
assert("a" .. "b" .. cc .. "c" == "abTc")

-- __tostring and __name
local ts = setmetatable({}, {__tostring = function() return "custom" end})
assert(tostring(ts) == "custom")
local named = setmetatable({}, {__name = "MyType"})
local tn = tostring(named)
assert(tn:sub(1, 8) == "MyType: ")
local ok, e = pcall(tostring, setmetatable({}, {__tostring = function() return {} end}))
assert(not ok and e == "'__tostring' must return a string")

-- __metatable protects the metatable
local prot = setmetatable({}, {__metatable = "locked"})
assert(getmetatable(prot) == "locked")
ok, e = pcall(setmetatable, prot, {})
assert(not ok and e == "cannot change a protected metatable")

-- getmetatable/setmetatable basics
local m = {}
local o = setmetatable({}, m)
assert(getmetatable(o) == m and setmetatable(o, nil) == o and getmetatable(o) == nil)
assert(getmetatable(1) == nil)
ok, e = pcall(setmetatable, 1, {})
assert(not ok and e == "bad argument #1 to 'setmetatable' (table expected, got number)")

-- __index loop depth is bounded
local loop = {}
setmetatable(loop, {__index = loop})
local lf = assert(load("local t = ... return t.x", "=t"))
ok, e = pcall(lf, loop)
assert(not ok and e == "t:1: '__index' chain too long; possible loop")
print("ok")
