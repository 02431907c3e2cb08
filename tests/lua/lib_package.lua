--! medium
-- package library and require: preload everywhere, Lua files on the host
local P = package
local reg = debug.getregistry()
assert(P.loaded == reg._LOADED and P.preload == reg._PRELOAD)
assert(P.loaded.string == string and P.loaded._G == _G and P.loaded.package == P)
assert(P.config == "/\n;\n?\n!\n-\n" and type(P.path) == "string")
assert(type(P.cpath) == "string" and type(P.searchers[1]) == "function")
local function e(...) return select(2, pcall(...)) end
local got
P.preload.pm = function(...) got = {...} return {v = 1} end
local m, d = require("pm")
assert(m.v == 1 and d == ":preload:" and got[1] == "pm" and got[2] == ":preload:")
got = nil
assert(require("pm") == m and not got and select("#", require("pm")) == 1)
P.preload.pn = function() end
assert(require("pn") == true and P.loaded.pn == true)
P.preload.po = function() P.loaded.po = "set" end
assert(require("po") == "set")
P.preload.pe = function() error("boom") end
assert(e(require, "pe"):find("boom") and P.loaded.pe == nil)
P.path = "./?.lua;./?/init.lua"
local msg = e(require, "no.mod")
local want = "module 'no.mod' not found:\n\tno field package.preload['no.mod']\n" ..
  "\tno file './no/mod.lua'\n\tno file './no/mod/init.lua'"
assert(msg:sub(1, #want) == want, msg)
assert(e(require):find("bad argument #1 to 'require' (string expected, got no value)", 1, true))
-- searchpath
local a, b = P.searchpath("a.b", "./?.x;/q/?.y")
assert(a == nil and b == "no file './a/b.x'\n\tno file '/q/a/b.y'")
assert(select(2, P.searchpath("a.b", "?.z", "")) == "no file 'a.b.z'")
assert(select(2, P.searchpath("a_b", "?;;x", "_", "+")) == "no file 'a+b'\n\tno file ''\n\tno file 'x'")
local me = arg and arg[0]
if me and me:find("lib_package%.lua$") then
  local dir = me:sub(1, -#"lib_package.lua" - 1)
  assert(P.searchpath("lib_package", "/no/?.x;" .. dir .. "?.lua") == dir .. "lib_package.lua")
end
local l = {P.loadlib("x.so", "f")}
assert(l[1] == nil and type(l[2]) == "string" and type(l[3]) == "string")
-- module files: host files on every target (semihosting on a board); a
-- file that cannot be made is a failure.  os.tmpname's name (a file of
-- its own) is the base of the names, distinct for runs in parallel.
local base = os.tmpname()
local fh = assert(io.open(base .. ".lua", "w"))
do
  fh:write("local n, f = ...\nreturn {n = n, f = f}\n") fh:close()
  fh = assert(io.open(base .. "x.lua", "w")) fh:write("x = = 1\n") fh:close()
  local dir, name = base:match("^(.*/)([^/.]+)$")
  assert(dir, base)
  P.path = "/no/?.lua;" .. dir .. "?.lua"
  local r, f = require(name)
  assert(f == base .. ".lua" and r.n == name and r.f == f, f)
  assert(P.loaded[name] == r and require(name) == r)
  msg = e(require, name .. "x")
  want = "error loading module '" .. name .. "x' from file '" .. base .. "x.lua':\n\t"
  assert(msg:sub(1, #want) == want, msg)
  assert(os.remove(base .. ".lua") and os.remove(base .. "x.lua"))
  -- a C library is found along package.cpath; it does not load: not a
  -- library for the host's dynamic linker, none at all on a board
  fh = assert(io.open(base .. "c.so", "w")) fh:write("not a library") fh:close()
  P.cpath = "/no/?.so;" .. dir .. "?.so"
  local nodll = "dynamic libraries not enabled; check your Lua installation"
  if rt.stats().clock == "host" then
    nodll = base .. "c.so: file too short"
  end
  msg = e(require, name .. "c")
  want = "error loading module '" .. name .. "c' from file '" .. base .. "c.so':\n\t" .. nodll
  assert(msg:sub(-#want) == want, msg)
  msg = e(require, name .. "c.sub") -- the all-in-one searcher finds the root
  want = "error loading module '" .. name .. "c.sub' from file '" .. base .. "c.so':\n\t" .. nodll
  assert(msg:sub(-#want) == want, msg)
  assert(P.loaded[name .. "c"] == nil and P.loaded[name .. "c.sub"] == nil)
  assert(os.remove(base .. "c.so") and os.remove(base))
end
P.cpath = "./?.so"
msg = e(require, "no.mod")
assert(msg:sub(-#"\tno file './no/mod.so'\n\tno file './no.so'") ==
  "\tno file './no/mod.so'\n\tno file './no.so'", msg)
P.path = {}
assert(e(require, "q"):find("'package.path' must be a string", 1, true))
P.searchers = nil
assert(e(require, "q"):find("'package.searchers' must be a table", 1, true))
print("ok")
