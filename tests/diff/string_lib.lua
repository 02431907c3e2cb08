-- string library subset
local s = "Hello, World"
print(s:len(), s:upper(), s:lower(), s:reverse())
print(s:sub(1, 5), s:sub(-5), s:sub(8, -1), s:sub(0), s:sub(5, 1), s:sub(-100, 100))
print(s:byte(), s:byte(-1), s:byte(1, 3), s:byte(100))
print(string.char(72, 105, 33), string.char())
print(("ab"):rep(3), ("ab"):rep(3, "|"), ("x"):rep(0), ("x"):rep(-5))
print(#("\0"):rep(10), ("abc"):sub(2, 2))
print(pcall(string.char, 256))
print(pcall(string.rep))
print(pcall(("x").sub))
print(pcall(string.byte, "abc", {}))
print(string.len(123), string.upper(1.5))
print(("x"):rep(3):upper():reverse())
