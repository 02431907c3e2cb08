-- deep nesting of expressions, calls and tables that the compiler accepts
local s = "return " .. ("("):rep(100) .. "1" .. (")"):rep(100)
print(load(s)())
s = "return " .. ("{"):rep(50) .. ("}"):rep(50)
print(type(load(s)()))
local src = {"local x = 0"}
for i = 1, 100 do src[#src + 1] = "x = x + " .. i end
src[#src + 1] = "return x"
print(load(table.concat(src, "\n"))())
s = "return 1" .. (" + 1"):rep(500)
print(load(s)())
s = "local a = 'x'" .. (" .. 'x'"):rep(150) .. " return #a"
print(load(s)())
