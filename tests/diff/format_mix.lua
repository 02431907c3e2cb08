-- several conversions in one format, and arguments of every type
local f = string.format
print(f("%d apples and %s pears cost %.2f (%x)", 3, "five", 7.5, 255))
print(f("%-6s|%6s|%06.2f|%+5d|%c", "ab", "cd", 3.14159, 42, 65))
print(f("%s=%d; ", "a", 1) .. f("%s=%d", "b", 2))
print(pcall(f, "%d %d", 1))
print(pcall(f))
print(pcall(f, 1))
print(f(12))
print(pcall(f, "%5%"))
print(pcall(string.format, "%", 1))
print(pcall(string.format, "%0100d", 1))
