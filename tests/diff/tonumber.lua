-- tonumber on many strings and bases
local ss = {"10", " 10 ", "0x10", "0X1p4", "1e2", "1E-2", ".5", "5.", "0x.8", "1e", "e1",
  "", " ", "10a", "0x", "inf", "nan", "  -7  ", "- 7", "+3", "1 2", "0x7fffffffffffffff",
  "9223372036854775808", "1" .. ("0"):rep(30), "0x1" .. ("0"):rep(20), "\t12\n"}
for _, s in ipairs(ss) do
  local v = tonumber(s)
  print(string.format("%q", s), v, math.type(v))
end
print(tonumber("ff", 16), tonumber("FF", 16), tonumber("zz", 36), tonumber("777", 8),
  tonumber("102", 2), tonumber(" 11 ", 2), tonumber("-ff", 16), tonumber("1.5", 10))
print(tonumber(10), tonumber(1.5), tonumber(nil), tonumber({}), tonumber(true))
print(pcall(tonumber, "10", 1), pcall(tonumber, "10", 37))
print(pcall(tonumber, 10, 16))
print(pcall(tonumber))
