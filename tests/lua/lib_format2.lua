-- string.format: mixed items, embedded zeros, %q round trips, errors.
local function err(f, ...)
  local ok, m = pcall(f, ...)
  assert(not ok, "expected an error")
  return m
end
local function has(m, s) assert(string.find(m, s, 1, true), m) end
assert(string.format("%s|%d|%5.1f", "a", 2, 3.14159) == "a|2|  3.1")
assert(string.format("%c%c", 0, 65) == "\0A" and string.format("%s", "a\0b") == "a\0b")
assert(string.format("%p", 1) == "(null)" and string.format("%p", {}):find("^0x%x+$"))
assert(string.format("%q", "\r\0019") == '"\\13\\0019"')
has(err(string.format, "%d", 1.5), "number has no integer representation")
has(err(string.format, "%d"), "bad argument #2 to ")
has(err(string.format, "%d", "x"), "number expected, got string")
has(err(string.format, "%y", 1), "invalid conversion '%y' to 'format'")
has(err(string.format, "%", 1), "invalid conversion '%' to 'format'")
has(err(string.format, "%123d", 1), "invalid conversion specification: '%123d'")
has(err(string.format, "%#d", 1), "invalid conversion specification: '%#d'")
has(err(string.format, "%.3c", 65), "invalid conversion specification")
has(err(string.format, "%05s", "x"), "invalid conversion specification")
has(err(string.format, "%10q", "x"), "specifier '%q' cannot have modifiers")
has(err(string.format, "%q", {}), "value has no literal form")
has(err(string.format, "%10s", "a\0b"), "string contains zeros")
has(err(string.format, "%" .. string.rep("-", 30) .. "d", 1), "invalid format (too long)")
local s = string.format("%q", "any \0 \1 \255 \n text")
assert(load("return " .. s)() == "any \0 \1 \255 \n text")
assert(load("return " .. string.format("%q", 0.1))() == 0.1)
assert(load("return " .. string.format("%q", math.mininteger))() == math.mininteger)
assert(#string.format("%099d", 1) == 99 and #string.format("%.99f", 1.0) == 101)
-- Items at their widest, after up to 127 bytes already in the buffer
-- (a board's luaL_Buffer starts with 128): each is the same as alone.
local widest = {
  {"%99.99f", 99999999999999.9}, {"%-99.99e", -1.5e30}, {"%#99.99g", 1/3},
  {"%#99.99g", 1e-4 / 3}, {"%99.99a", -1.0}, {"%#99a", -0.1},
  {"%099.99d", -123}, {"%#99.99o", 8}, {"%#99.99x", -1}, {"%99c", 65},
  {"%-99.99s", ("s"):rep(150)}, {"%99s", "x"}, {"%.99s", ("y"):rep(120)},
  {"%+.99e", 0.1}, {"%.99g", 0.1}, {"%99.0f", -0.5}, {"%.99f", 1e14},
  {"%99.99f", 1e30}, {"%q", 0.1}, {"%q", math.mininteger},
  {"%99.99i", math.mininteger}, {"%-99.99u", 7}, {"%#.99X", 255}, {"%99p", {}},
}
for _, it in ipairs(widest) do
  local spec, v = it[1], it[2]
  local one = string.format(spec, v)
  for _, pre in ipairs({"", ("p"):rep(60), ("q"):rep(127)}) do
    assert(string.format(pre .. spec .. "|" .. spec, v, v) == pre .. one .. "|" .. one, spec)
  end
end
-- A format of small items allocates only its result (no buffer box):
-- as much as another string of its length.
do
  local fmt, x = "%10d|%-4x|%.3f|%g|%-6s|%8s|%c|%q", 1.5
  collectgarbage(); collectgarbage("stop")
  local k0 = collectgarbage("count")
  local s = string.format(fmt, 12345, 255, x, x, "ab", "cd", 65, 7)
  local k1 = collectgarbage("count")
  local r = string.rep("z", #s)
  local k2 = collectgarbage("count")
  collectgarbage("restart")
  assert(#s > 40 and k1 - k0 == k2 - k1, (k1 - k0) * 1024 .. " " .. (k2 - k1) * 1024)
end
print("lib_format2 ok")
