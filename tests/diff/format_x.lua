-- %x %X %o with flags
local f = string.format
for _, v in ipairs({0, 1, 255, 4096, 0xdeadbeef, -1, math.mininteger}) do
  print(f("[%x] [%X] [%#x] [%#X] [%o] [%#o] [%08x] [%-8X]", v, v, v, v, v, v, v, v))
end
