-- while and repeat loops
local i, s = 0, 0
while i < 10 do i = i + 1; if i % 2 == 0 then s = s + i end end
print(i, s)
local n = 0
repeat local x = n * 2; n = n + 1 until x >= 10
print(n)
local c = 0
while true do c = c + 1; if c > 5 then break end end
print(c)
repeat c = c - 1 until c < 0 or false
print(c)
local r = {}
for a = 1, 3 do local b = a while b > 0 do r[#r + 1] = b; b = b - 1 end end
print(table.concat(r, ""))
