-- how floats print (the %.14g rule, plus ".0" for integral values)
local list = {1e100, -0.0, 0.0, 0.1, 1/3, 2/3, 2^63, -2^63, 2^53, math.huge, -math.huge,
  1e15, 1e16, 123456.789, 1e-5, 1e-310, 5e-324, 3.14159265358979, 100.0, -1.5,
  1.7976931348623157e308, 2^24, 1e14, 12345678901234.5, 0.1 + 0.2}
for _, v in ipairs(list) do print(v, tostring(v), string.format("%.17g", v)) end
print(0/0 ~= 0/0, tostring(-(0/0)) == tostring(0/0) or "nan signs differ")
print(math.pi, -math.pi, math.pi * 1e10)
