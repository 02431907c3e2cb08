-- comparisons across subtypes and strings
local nums = {-1, 0, 1, 1.0, 1.5, math.huge, -math.huge, math.maxinteger, 2^63, math.mininteger, -2^63}
for _, a in ipairs(nums) do
  local row = {}
  for _, b in ipairs(nums) do
    row[#row + 1] = (a < b and "<" or "") .. (a <= b and "=" or "") .. (a == b and "e" or "")
  end
  print(table.concat(row, " "))
end
local nan = 0/0
print(nan < 1, nan > 1, nan == nan, nan ~= nan, 1 <= nan)
print("a" < "b", "a" < "A", "" < "a", "abc" < "abd", "a\0" > "a", "10" < "9")
print(1 == "1", "1" == 1, {} == {}, nil == false)
