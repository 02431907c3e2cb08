--! medium64
-- Strings: concatenation and its coercions, length, the string library
-- subset (sub, rep, byte, char, upper, lower, reverse, format) and methods.
assert("a" .. "b" .. "c" == "abc" and "" .. "" == "")
assert(1 .. "" == "1" and 1.0 .. "" == "1.0" and "x" .. 2 .. 3 == "x23")
assert(#"" == 0 and #"abc" == 3 and #"\0\0" == 2)
local parts = {}
for i = 1, 100 do parts[i] = "ab" end
local long = table.concat(parts)
assert(#long == 200 and long:sub(199) == "ab")
local s = ""
for i = 1, 50 do s = s .. i % 10 end
assert(#s == 50 and s:sub(1, 10) == "1234567890")

-- sub with negative and out-of-range indices
local h = "hello"
assert(h:sub(2, 3) == "el" and h:sub(-3) == "llo" and h:sub(-100, 2) == "he")
assert(h:sub(4, 2) == "" and h:sub(0) == "hello" and h:sub(6) == "")
assert(h:sub(2, -2) == "ell" and string.sub(h, 5, 100) == "o")

-- rep, reverse, upper, lower, len
assert(("ab"):rep(3) == "ababab" and ("x"):rep(0) == "" and ("x"):rep(-1) == "")
assert(("ab"):rep(3, ",") == "ab,ab,ab" and ("a"):rep(1, ",") == "a")
assert(("abc"):reverse() == "cba" and (""):reverse() == "")
assert(("MiXeD 1"):upper() == "MIXED 1" and ("MiXeD 1"):lower() == "mixed 1")
assert(string.len("abc\0") == 4)

-- byte and char
assert(("A"):byte() == 65 and ("ABC"):byte(-1) == 67)
local a, b, c = ("ABC"):byte(1, -1)
assert(a == 65 and b == 66 and c == 67 and ("x"):byte(10) == nil)
assert(string.char() == "" and string.char(104, 105) == "hi")
assert(string.char(0, 255):byte(2) == 255)

-- format
local f = string.format
assert(f("%d|%5d|%-5d|%05d", 42, 42, 42, 42) == "42|   42|42   |00042")
assert(f("%x %X %o", 255, 255, 8) == "ff FF 10" and f("%#x", 255) == "0xff")
assert(f("%s %s %s", 1, 1.5, true) == "1 1.5 true" and f("%10s|", "hi") == "        hi|")
assert(f("%-4s|%.2s", "a", "xyz") == "a   |xy" and f("%%") == "%")
assert(f("%5.1f", 3.25) == "  3.2" or f("%5.1f", 3.25) == "  3.3")
assert(f("%.3f", 0.5) == "0.500" and f("%g", 100000) == "100000" and f("%g", 1e20) == "1e+20")
assert(f("%e", 1) == "1.000000e+00" and f("%.0e", 12345) == "1e+04")
assert(f("%c%c", 72, 105) == "Hi" and f("%i", 7) == "7")
assert(f("%q", "a\nb\"c\0") == '"a\\\nb\\"c\\0"')
assert(f("%q", 1 / 0) == "1e9999" and f("%q", 255) == "255")
assert(f("%d", 3.0) == "3" and f("[%s]", nil) == "[nil]")
assert(f("%+d % d", 5, 5) == "+5  5")

-- tostring, tonumber round trips on strings
assert(tostring("x") == "x" and tostring(12) == "12" and tostring(-0.5) == "-0.5")
assert(tostring(nil) == "nil" and tostring(false) == "false")

-- the string metatable
assert(getmetatable("").__index == string)
assert(("%d"):format(7) == "7" and #("x"):rep(10) == 10)

-- errors
local function err(src, msg)
  local ok, e = pcall(assert(load(src, "=t")))
  assert(not ok)
  if e ~= msg then error(("got %q want %q"):format(tostring(e), msg), 2) end
end
err("return 'a' .. {}", "t:1: attempt to concatenate a table value")
err("local t = {} return 'a' .. t", "t:1: attempt to concatenate a table value (local 't')")
err("return 1 .. nil", "t:1: attempt to concatenate a nil value")
err("return ('x'):bad()", "t:1: attempt to call a nil value (method 'bad')")
err("return #5", "t:1: attempt to get length of a number value")
err("local n return #n", "t:1: attempt to get length of a nil value (local 'n')")
err("return string.rep()", "t:1: bad argument #1 to 'rep' (string expected, got no value)")
err("return string.format('%d', 1.5)", "t:1: bad argument #2 to 'format' (number has no integer representation)")
err("return string.format('%d', 'x')", "t:1: bad argument #2 to 'format' (number expected, got string)")
err("return string.char(256)", "t:1: bad argument #1 to 'char' (value out of range)")
print("ok")
