-- concatenation and number-to-string conversion inside it
print(1 .. 2, 1.0 .. "", -0.0 .. "", 1e100 .. "", 2^63 .. "", 10 // 3 .. "")
print("a" .. "b" .. "c" .. 1 .. 2.5)
local t = {}
for i = 1, 20 do t[#t + 1] = i .. "" end
print(table.concat(t, "+"))
print(pcall(function() return "a" .. {} end))
print(pcall(function() return "a" .. nil end))
print(pcall(function() local b = true; return "a" .. b end))
print(("x"):rep(3) .. ("y"):rep(2, "-"))
