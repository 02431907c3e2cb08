-- numbers converted to strings in many contexts
local vals = {0, -0.0, 1, -1, 1.0, 1e15, 1e16, -1e16, 2^53, 2^63, -2^63, 0.1, 1/3, 100, 1e-7, 123e-310, math.maxinteger, math.mininteger}
for _, v in ipairs(vals) do
  print(v, tostring(v), v .. "", string.format("%s|%q|%.14g", v, v, v), math.type(v))
end
print(string.format("%5s|%-8s|", 1.5, 2))
print(table.concat({1, 2.0, -0.0, 1e100}, " "))
