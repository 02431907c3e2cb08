--! medium64
-- (medium64: microbit's 64-bit arena, 7,112 bytes, runs out in it; the
-- 32-bit one, 7,864 bytes, holds it.)
-- string.format reserves room in its buffer per item, as much as the item
-- may take: a board's luaL_Buffer holds 128 bytes before it needs a box.
-- Items at their widest, after up to 127 bytes already in the buffer:
-- each is the same as alone.
-- (One flat list of spec, value pairs: 24 small tables would be 1.4 KB of
-- microbit's 7.7 KB arena, and the widest items' boxes need room.)
local widest = {
  "%99.99f", 99999999999999.9, "%-99.99e", -1.5e30, "%#99.99g", 1/3,
  "%#99.99g", 1e-4 / 3, "%99.99a", -1.0, "%#99a", -0.1,
  "%099.99d", -123, "%#99.99o", 8, "%#99.99x", -1, "%99c", 65,
  "%-99.99s", ("s"):rep(150), "%99s", "x", "%.99s", ("y"):rep(120),
  "%+.99e", 0.1, "%.99g", 0.1, "%99.0f", -0.5, "%.99f", 1e14,
  "%99.99f", 1e30, "%q", 0.1, "%q", math.mininteger,
  "%99.99i", math.mininteger, "%-99.99u", 7, "%#.99X", 255, "%99p", {},
}
for i = 1, #widest, 2 do
  local spec, v = widest[i], widest[i + 1]
  local one = string.format(spec, v)
  for _, pre in ipairs({"", ("p"):rep(60), ("q"):rep(127)}) do
    assert(string.format(pre .. spec .. "|" .. spec, v, v) == pre .. one .. "|" .. one, spec)
  end
end
-- A format of small items allocates only its result, no box for the
-- buffer (a box is 192 bytes or more): about as much as another string
-- of its length (the allocator may round either up).  Both calls run
-- once first, so that the stack and call records they need are there.
do
  local fmt, x = "%10d|%-4x|%.3f|%g|%-6s|%8s|%c|%q", 1.5
  local function f() return string.format(fmt, 12345, 255, x, x, "ab", "cd", 65, 7) end
  local function g(n) return string.rep("z", n) end
  collectgarbage(); collectgarbage("stop")
  assert(#f() > 40 and #g(1) == 1)
  local k0 = collectgarbage("count")
  local s = f()
  local k1 = collectgarbage("count")
  local r = g(#s)
  local k2 = collectgarbage("count")
  collectgarbage("restart")
  local fb, rb = (k1 - k0) * 1024, (k2 - k1) * 1024
  assert(#r == #s and fb < rb + 96, fb .. " " .. rb)
end
print("lib_format_room ok")
