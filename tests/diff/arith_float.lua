-- float arithmetic, including infinities, NaN and negative zero
local vals = {0.0, -0.0, 1.5, -1.5, 0.1, 1e300, -1e300, 1/0, -1/0}
for _, a in ipairs(vals) do
  for _, b in ipairs({2.0, -2.0, 0.5, 1e-300}) do
    print(a, b, a + b, a - b, a * b, a / b, a // b, a % b, a ^ 2)
  end
end
print(0.0 / 0.0 ~= 0.0 / 0.0, -(0/0) ~= -(0/0))
print(1 / 0.0, -1 / 0.0, 0.0 * -1, -0.0 + 0.0, 5 % -0.0 ~= 5 % -0.0)
print(5.0 // 0, -5.0 // 0, 5 % math.huge, -5 % math.huge, 5 % -math.huge)
