-- multiple assignment order and local attributes
local a, b, c = 1, 2
print(a, b, c)
a, b = b, a
print(a, b)
local t = {1, 2}
local i = 1
i, t[i] = i + 1, 20
print(i, t[1], t[2])
local function three() return 1, 2, 3 end
local x, y, z, w = three()
print(x, y, z, w)
x, y, z = three(), 10
print(x, y, z)
local K <const>, V = 5, 6
print(K, V)
print(load("local c <const> = 1; c = 2", "=a"))
print(load("local c <close>, d <close> = nil", "=a"))
print(load("local x <what> = 1", "=a"))
