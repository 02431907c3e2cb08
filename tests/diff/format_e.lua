-- %e
local f = string.format
for _, v in ipairs({0, 1, -1, 12345.6789, 1e100, 1e-100, 0.1, 2^63, 5e-324}) do
  print(f("[%e] [%.2e] [%15.3e] [%-15e] [%E] [%.0e] [%#.0e]", v, v, v, v, v, v, v))
end
