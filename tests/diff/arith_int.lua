-- integer arithmetic and the subtype of each result
local vals = {0, 1, -1, 7, -7, 3, 100, math.maxinteger, math.mininteger}
for _, a in ipairs(vals) do
  for _, b in ipairs({1, -1, 3, -3, 7}) do
    print(a, b, a + b, a - b, a * b, a // b, a % b, math.type(a / b))
  end
end
