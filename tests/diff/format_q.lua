-- %q quotes strings so that Lua can read them back; numbers exactly
local f = string.format
print(f("%q", "plain"))
print(f("%q", 'quote " and \\ backslash'))
print(f("%q", "new\nline and \r cr and \0 zero and \1\2 and \127"))
print(f("%q", "\0001"))
print(f("%q", 42), f("%q", -7), f("%q", math.mininteger))
print(f("%q", 1.5), f("%q", 1/0), f("%q", -1/0), f("%q", 0.1), f("%q", 2^63))
print(f("%q", true), f("%q", nil))
print(pcall(f, "%q", {}))
print(load("return " .. f("%q", "\n\0\"x\200"))() == "\n\0\"x\200")
