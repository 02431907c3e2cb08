-- (microbit's 64-bit test model, with 4 KiB of C stack, ran its nested
-- xpcall's handlers short of the call reserve; it has 4.5 KiB now.)
-- Errors: error values of any type, levels, pcall/xpcall nesting,
-- message handlers (and errors inside them), error in tostring/close.
local ok, e = pcall(error, {code = 7})
assert(not ok and type(e) == "table" and e.code == 7)
ok, e = pcall(error, nil)
assert(not ok and e == nil)
ok, e = pcall(error, 42)
assert(not ok and e == 42 and math.type(e) == "integer")
ok, e = pcall(error)
assert(not ok and e == nil)
assert(select("#", pcall(error)) == 2)

-- results of a successful pcall
local r = table.pack(pcall(function(...) return ... end, 1, nil, 3))
assert(r.n == 4 and r[1] == true and r[2] == 1 and r[4] == 3)

-- levels: 1 = where error was called, 2 = its caller, 0 = no position
local f = load([[
local function lvl(n) error("m", n) end
local function caller(n) lvl(n) end
return caller
]], "=t")()
ok, e = pcall(f, 1)
assert(e == "t:1: m")
ok, e = pcall(f, 2)
assert(e == "t:2: m")
ok, e = pcall(f, 0)
assert(e == "m")
-- a string error from a C function called from Lua: position of the caller
local g = load("local s = nil\nreturn ('x'):rep(s)", "=t")
ok, e = pcall(g)
assert(e == "t:2: bad argument #1 to 'rep' (number expected, got nil)")

-- nested pcall: the inner one catches, the outer sees success
ok, e = pcall(function()
  local ok2, e2 = pcall(error, "inner", 0)
  assert(not ok2 and e2 == "inner")
  return "outer fine"
end)
assert(ok and e == "outer fine")
-- rethrow
ok, e = pcall(function()
  local _, e2 = pcall(error, "x", 0)
  error(e2 .. "y", 0)
end)
assert(e == "xy")

-- xpcall: the handler sees the original value and its result is returned
ok, e = xpcall(function() error({1}) end, function(m) return #m + 100 end)
assert(not ok and e == 101)
ok, e = xpcall(function(a, b) return a + b end, print, 2, 3)
assert(ok and e == 5)
-- the handler runs at the error point (before unwinding)
local depth
ok = xpcall(function() local function deep() error("d") end deep() end,
  function(m) depth = m; return m end)
assert(not ok and type(depth) == "string")
-- handler for a runtime error (not error())
ok, e = xpcall(function() local t; return t.x end, function(m) return "H:" .. m end)
assert(e:sub(1, 2) == "H:")
-- nested xpcall with different handlers
ok, e = xpcall(function()
  local ok2, e2 = xpcall(error, function(m) return "in:" .. m end, "v", 0)
  assert(not ok2 and e2 == "in:v")
  error("w", 0)
end, function(m) return "out:" .. m end)
assert(e == "out:w")

-- error objects keep identity through several levels
local obj = {}
ok, e = pcall(function() pcall(nil); (function() error(obj) end)() end)
assert(e == obj)

-- pcall of a non-function
ok, e = pcall(42)
assert(not ok and e == "attempt to call a number value")
ok, e = pcall(pcall)
assert(not ok and e == "bad argument #1 to 'pcall' (value expected)")

-- tostring in error messages of assert
ok, e = pcall(assert, false, "custom")
assert(e == "custom")
ok, e = pcall(assert, nil)
assert(e == "assertion failed!")
ok, e = pcall(assert, false, {1})
assert(type(e) == "table")
assert(select("#", assert(1, 2, 3)) == 3)

-- error messages of calls mention the name
local h = load("local t = {} t.m()", "=t")
ok, e = pcall(h)
assert(e == "t:1: attempt to call a nil value (field 'm')")
h = load("undefinedf()", "=t")
ok, e = pcall(h)
assert(e == "t:1: attempt to call a nil value (global 'undefinedf')")
print("ok")
