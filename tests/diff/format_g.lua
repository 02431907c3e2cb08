-- %g in its forms
local f = string.format
for _, v in ipairs({0, 1, 0.5, 100000, 1000000, 1e20, 1e-4, 1e-5, 123.456, -0.0, 1/3, 2^63}) do
  print(f("[%g] [%.3g] [%10g] [%-10g] [%+g] [%#g] [%.0g] [%G]", v, v, v, v, v, v, v, v))
end
print(f("%g %g", 1/0, -1/0))
