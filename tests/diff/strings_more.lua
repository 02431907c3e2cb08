-- string functions at their limits
local s = "abcdef"
for _, p in ipairs({{1, 0}, {0, 0}, {-1, -1}, {-6, -6}, {-7, 2}, {3, -3}, {7, 7}, {math.mininteger, math.maxinteger}, {2, math.mininteger}}) do
  print(p[1], p[2], "[" .. s:sub(p[1], p[2]) .. "]")
end
print(s:byte(0), s:byte(7), s:byte(-7), s:byte(3, 2), select("#", s:byte(3, 2)))
print(s:byte(1.0), pcall(s.byte, s, 1.5))
print(("x"):rep(3, ""), ("x"):rep(1, "sep"), ("x"):rep(2, "\0"):byte(1, -1))
print(string.char(0, 1, 127, 128, 255):byte(1, -1))
print(("Hello"):upper(), ("ÀB"):lower(), ("abc"):len(), #"\xff\xfe")
print(("%d"):rep(2):format(1, 2))
print(#tostring(12345), tostring(12345):reverse())
print(("a,b,,c"):len(), ("x"):rep(10):sub(3, 5))
