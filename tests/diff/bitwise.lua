-- bitwise operators on integers and integral floats
local vals = {0, 1, -1, 0xFF, 0x7FFFFFFF, math.maxinteger, math.mininteger, 3.0}
for _, a in ipairs(vals) do
  print(a & 0xF0F0, a | 0x0F, a ~ 0x55, ~a, a << 3, a >> 3, a << 63, a >> 63, a << -2)
end
print(1 << 64, 1 >> 64, -1 >> 1, 2^31 | 0, "ok" and 5 & 3)
print(pcall(function() return 1.5 | 0 end))
print(pcall(function() return "3" | 0 end))
print(pcall(function() return {} & 1 end))
