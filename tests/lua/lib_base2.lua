-- Base library, part 2: assert, error, pcall/xpcall, load, collectgarbage, warn.
local function err(f, ...)
  local ok, m = pcall(f, ...)
  assert(not ok, "expected an error")
  return m
end
local function has(m, s) assert(string.find(m, s, 1, true), m) end

assert(select("#", assert(1, 2, 3)) == 3)
has(err(assert, false), "assertion failed!")
has(err(assert, nil, "custom"), "custom")
has(err(assert), "bad argument #1 to 'assert' (value expected)")
local ok, e = pcall(assert, false, {1})
assert(not ok and type(e) == "table")

ok, e = pcall(error, "msg")
assert(e == "msg")
ok, e = pcall(function() error("lvl1") end)
assert(e:find("^.-:%d+: lvl1$"), e)
ok, e = pcall(function() error("lvl0", 0) end)
assert(e == "lvl0")
local function inner() error("up", 2) end
ok, e = pcall(function() inner() end)
assert(e:find(":%d+: up$"))
ok, e = pcall(error)
assert(not ok and e == nil)

assert(select("#", pcall(print == nil)) == 2)
ok, e = pcall(function(...) return select("#", ...) end, 1, 2, 3)
assert(ok and e == 3)
local h = function(m) return "handled: " .. tostring(m) end
assert(select(2, xpcall(error, h, "x")) == "handled: x")
assert(select(2, xpcall(function(a) return a * 2 end, h, 21)) == 42)
has(err(xpcall, print), "bad argument #2 to 'xpcall' (function expected, got no value)")

local f = load("return 1 + ...")
assert(f(2) == 3)
local parts = {"return ", "'pi", "eces'"}
local i = 0
f = load(function() i = i + 1; return parts[i] end)
assert(f() == "pieces")
local f2, m = load("x = ")
assert(f2 == nil and m:find("^%[string \"x = \"%]:1:"))
f2, m = load("error('e')", "=mychunk")
assert(select(2, pcall(f2)) == "mychunk:1: e")
local env = {y = 5}
assert(load("return y", "c", "t", env)() == 5)
f2, m = load("return 1", "c", "b")
assert(f2 == nil and m:find("attempt to load a text chunk"))
f2, m = load(function() return {} end)
assert(f2 == nil and m:find("reader function must return a string"))

assert(collectgarbage() == 0 and collectgarbage("collect") == 0)
assert(type(collectgarbage("count")) == "number")
assert(collectgarbage("isrunning") == true)
collectgarbage("stop"); assert(collectgarbage("isrunning") == false)
collectgarbage("restart"); assert(collectgarbage("isrunning") == true)
assert(type(collectgarbage("step")) == "boolean")
local mode = collectgarbage("incremental")
assert(mode == "incremental" or mode == "generational")
assert(collectgarbage("incremental") == "incremental")
has(err(collectgarbage, "bogus"), "bad argument #1 to 'collectgarbage' (invalid option 'bogus')")
warn("@off"); warn("not shown"); warn("@on"); warn("@off")
has(err(warn), "bad argument #1 to 'warn' (string expected, got no value)")
print("lib_base2 ok")
