-- C06: string.dump(f [, strip]) and binary chunks.  rtlua had no
-- string.dump (lua_dump failed and load refused every binary chunk).
-- Lua 5.4.8 dumps any Lua function; load (mode "b" or "bt") gives back a
-- function with the same behaviour whose upvalues are fresh, the first
-- one holding the global environment (or load's env); stripping drops
-- the source, lines and names; a text/binary mode mismatch and a
-- truncated chunk are load errors; a C function cannot be dumped.  The
-- chunk bytes differ between implementations, so only behaviour is
-- printed.  Debian's lua5.4 (5.4.4) prints the same.
local function roundtrip(f, strip)
  return assert(load(string.dump(f, strip), "=dumped", "b"))
end

-- the shared repro, and a few kinds of functions
print(roundtrip(function () return 1 end)())
local src = [==[
local function fact(n) if n <= 1 then return 1 end return n * fact(n - 1) end
local function sum(...)
  local s = 0
  for _, v in ipairs({...}) do s = s + v end
  return s, select('#', ...)
end
local obj = {n = 0}
function obj:add(k) self.n = self.n + k return self end
return function (a, b)
  local t = {}
  for i = 1, 3 do t[#t + 1] = i * a end
  local s = ("x"):rep(3) .. [[long string constant, longer than forty bytes]]
  goto skip
  s = nil
  ::skip::
  return fact(5), sum(1, 2, 3), obj:add(a):add(b).n, table.concat(t, ","),
         #s, 7 // 2, 7 / 2, 1 << 4, b and "b" or "no b", 0x7fffffff
end
]==]
local maker = load(src, "=src")
local f = maker()
print(f(2, 3))
-- the main chunk dumped: its nested functions come along
local g = roundtrip(maker)()
print(g(2, 3))
print(roundtrip(maker, true)()(2, 3))

-- upvalues: fresh; the first one is the global table, the others nil
local up1, up2 = "one", "two"
local function ups() return up1, up2 end
local u = roundtrip(ups)
print(u() == _G, select(2, u()))
print(debug.getupvalue(u, 1), debug.getupvalue(u, 2))
print(debug.getupvalue(roundtrip(ups, true), 2))
-- load's env replaces the first upvalue
local genv = load("return function () return x end")()
print(load(string.dump(genv), "=e", "b", {x = "from env"})())

-- stripping: no source, no lines, no local names
local errsrc = load("return function (p) local q = p error('boom') end", "=src")()
print(pcall(roundtrip(errsrc), 1))
print(pcall(roundtrip(errsrc, true), 1))
local info = debug.getinfo(roundtrip(errsrc, true), "S")
print(info.source, info.short_src, info.what)
info = debug.getinfo(roundtrip(errsrc), "S")
print(info.source, info.short_src, info.what)
print(debug.getlocal(roundtrip(errsrc), 1), debug.getlocal(roundtrip(errsrc, true), 1))
print(#string.dump(errsrc, true) < #string.dump(errsrc))

-- a dumped function loses its upvalues: f's fact becomes _G
print(pcall(roundtrip(f), 2, 3))

-- modes, and where the chunk comes from
local bin = string.dump(maker)
print(load(bin, "=x", "t"))
print(load("return 1", "=x", "b"))
print(load(bin, "=x", "bt") ~= nil, load(bin, "=x") ~= nil)
local i = 0
local pieces = assert(load(function ()
  i = i + 1
  return bin:sub(i, i) ~= "" and bin:sub(i, i) or nil
end, "=reader", "b"))
print(pieces()(2, 3))

-- truncated chunks, at every length
local truncated = 0
for n = 1, #bin - 1 do
  local ok, e = load(bin:sub(1, n))
  if not ok and e == "binary string: bad binary format (truncated chunk)" then
    truncated = truncated + 1
  end
end
print(truncated == #bin - 1)
print(load(bin:sub(1, 20), "=name"))
print(load(bin:sub(1, 20), "@file.lua"))

-- what cannot be dumped
print(pcall(string.dump, print))
print(pcall(string.dump, 42))
print(pcall(string.dump))
