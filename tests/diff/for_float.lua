-- float for loops
local function show(a, b, c)
  local out = {}
  for i = a, b, c do out[#out + 1] = i; if #out > 12 then break end end
  print(a, b, c, "->", table.concat(out, " "))
end
show(0, 1, 0.25); show(1, 0, -0.5); show(0.1, 1, 0.3); show(1.0, 3, 1); show(1, 3.0, 1)
show(1, 2, 0.1); show(0, -1, -0.125); show(1e308, 1.7e308, 1e307); show(1, 0, 0.5)
for i = 1.0, 2 do print(i, math.type(i)) end
for i = 1, 2.0 do print(i, math.type(i)) end
print(pcall(function() for i = 1.0, 2, 0.0 do end end))
