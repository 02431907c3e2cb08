--! host heavy
-- Stack depth: Lua recursion ends in "stack overflow", C-level nesting
-- (metamethods, tostring, pcall chains) in "C stack overflow"; both are
-- caught by pcall, and the state works normally afterwards.
local rec = load("local function r(n) return 1 + r(n + 1) end return r", "=t")()
for _ = 1, 3 do
  local ok, e = pcall(rec, 1)
  assert(not ok and e == "t:1: stack overflow", e)
end
-- the same with many locals per frame and with varargs
local big = load("local function r(...) local a, b, c, d, e, f, g, h = ... return 1 + r(a, b, c, d, e, f, g, h, ...) end return r", "=t")()
local ok, e = pcall(big, 1, 2)
assert(not ok and e == "t:1: stack overflow", e)

-- inside a coroutine
local co = coroutine.create(rec)
ok, e = coroutine.resume(co, 1)
assert(not ok and e == "t:1: stack overflow")
assert(coroutine.status(co) == "dead")

-- a deep but finite recursion still works
local function depth(n) if n == 0 then return 0 end return 1 + depth(n - 1) end
assert(depth(10000) == 10000)

-- C stack: __index functions that index again
local t = setmetatable({}, {})
getmetatable(t).__index = load("local t, k = ... return t[k]", "=m")
ok, e = pcall(function() return t.x end)
assert(not ok and e == "m:1: C stack overflow", e)
-- __tostring recursion through the C function tostring
local mt = {}
mt.__tostring = function(o) return tostring(o) end
ok, e = pcall(tostring, setmetatable({}, mt))
assert(not ok and e == "C stack overflow", e)
-- nested pcall/resume chains below the limit work
local function nest(n) if n == 0 then return "bottom" end return select(2, pcall(nest, n - 1)) end
assert(nest(100) == "bottom")
local function cnest(n)
  if n == 0 then return "cbottom" end
  return select(2, coroutine.resume(coroutine.create(cnest), n - 1))
end
assert(cnest(50) == "cbottom")

-- error handlers that overflow give "error in error handling"-class errors
local function h(m) return 1 + h(m) end
ok, e = xpcall(error, h, "x")
assert(not ok)

-- after all of that, everything still works
local s = 0
for i = 1, 100 do s = s + i end
assert(s == 5050 and select("#", pcall(rec, 1)) == 2)
print("ok")
