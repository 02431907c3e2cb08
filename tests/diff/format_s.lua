-- %s with width and precision; any value through tostring
local f = string.format
print(f("[%s] [%10s] [%-10s] [%.2s] [%10.3s]", "hello", "hello", "hello", "hello", "hello"))
print(f("%s %s %s %s", 1, 1.5, true, nil))
print(f("%s", setmetatable({}, {__tostring = function() return "TOSTR" end})))
print(f("%s|%s", "a\0b", ""), #f("%s", "a\0b"))
print(f("%5s%%%-5s|", "x", "y"))
print(f("no conversions"), f("%%"), f("%c%c%c", 76, 117, 97))
print(pcall(f, "%s"))
print(pcall(f, "%y", 1))
print(pcall(f, "%10.123s", "x"))
