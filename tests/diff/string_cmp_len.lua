-- strings with embedded zeros and bytes above 127
local s = "a\0b\200\255"
print(#s, s:byte(1, -1))
print(s:sub(2, 3) == "\0b", s < "a\0c", s:upper():byte(1, -1))
print(string.format("%q", s))
print(("\0"):rep(3) == "\0\0\0", #("\0"):rep(3, "\0"))
print(("xyz"):reverse(), ("\1\2\3"):reverse():byte(1, -1))
