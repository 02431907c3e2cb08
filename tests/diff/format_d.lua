-- %d %i %u with flags, width and precision
local f = string.format
for _, v in ipairs({0, 1, -1, 42, -42, 123456, math.maxinteger, math.mininteger, 3.0}) do
  print(f("[%d] [%5d] [%-5d] [%05d] [%+d] [% d] [%.3d] [%8.3d] [%i]", v, v, v, v, v, v, v, v, v))
end
print(pcall(f, "%d", 1.5))
print(pcall(f, "%d", "12"))
print(pcall(f, "%d", "x"))
print(pcall(f, "%d"))
