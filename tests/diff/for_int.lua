-- integer for loops at their edges
local M, m = math.maxinteger, math.mininteger
local function show(a, b, c)
  local out = {}
  for i = a, b, c do out[#out + 1] = i; if #out > 6 then out[#out + 1] = "..."; break end end
  print(a, b, c, "->", table.concat(out, " "))
end
show(1, 5, 1); show(5, 1, -1); show(1, 5, 2); show(1, 0, 1); show(0, 0, 1)
show(M - 3, M, 1); show(m + 3, m, -1); show(M - 1, M, 5); show(m, m + 2, M)
show(M, m, m); show(m, M, M); show(1, 3.5, 1); show(1, 3.99, 1); show(3, 0.5, -1)
show(1, math.huge, M); show(1, -math.huge, 1); show(-3, -1, 1)
print(pcall(function() for i = 1, 10, 0 do end end))
print(pcall(function() for i = 1, "x" do end end))
print(pcall(function() for i = {}, 1 do end end))
