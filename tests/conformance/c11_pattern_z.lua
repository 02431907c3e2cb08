-- C11: the pattern class %z (the NUL character) and its complement %Z.
-- The manual of 5.2 deprecated them in favour of "\0" in patterns, but
-- the matcher of Lua 5.4 (5.4.8 and Debian's 5.4.4 alike) still accepts
-- both, alone, in sets and with quantifiers; rtlua took %z for a literal
-- 'z'.
local s = "a\0b\0\0c"
-- NUL bytes print as <0>, so that the expected output is text
local function v(x) return (x:gsub("\0", "<0>")) end
print(("a\0b"):find("%z"), ("\0a"):find("%Z"))
print(s:find("%z+"), s:find("%z%z"), s:find("%Z", 3))
print(#s:gsub("%z", ""), (s:gsub("%z", "0")), v((s:gsub("%Z", "x"))))
print((s:gsub("[%z]", "N")), v((s:gsub("[^%z]", "-"))), v((s:gsub("[%Z]", "+"))))
print(("zZ\0"):find("%z"), ("zZ\0"):find("z"), ("zZ\0"):find("%Z%Z"))
local parts = {}
for w in s:gmatch("%Z+") do parts[#parts + 1] = w end
print(#parts, table.concat(parts, ","))
print(("x\0\0\0y"):match("^x(%z*)y$") == "\0\0\0", ("xy"):match("x%z?y"))
print(("\0"):match("%z") == "\0", ("abc"):match("%z"), (""):match("%Z"))
print(("a\0"):find("[a%z]+"), ("\0\0a"):find("[%Zb]"))
