-- string: len sub upper lower rep reverse byte char, the metatable.
local function err(f, ...)
  local ok, m = pcall(f, ...)
  assert(not ok, "expected an error")
  return m
end
local function has(m, s) assert(string.find(m, s, 1, true), m) end

assert(string.len("") == 0 and string.len("a\0b") == 3 and #"abc" == 3)
has(err(string.len), "bad argument #1 to ")
local s = "hello world"
assert(s:sub(1, 5) == "hello" and s:sub(-5) == "world" and s:sub(7) == "world")
assert(s:sub(0) == s and s:sub(5, 4) == "" and s:sub(-100, 2) == "he")
assert(s:sub(3, -3) == "llo wor" and s:sub(20) == "" and s:sub(2, 100) == "ello world")
assert(("x"):sub(math.mininteger, math.maxinteger) == "x")
has(err(string.sub, "x"), "number expected, got no value")
has(err(string.sub, "x", 1.5), "number has no integer representation")
assert(("x"):sub("1") == "x")

assert(string.upper("aBc1!") == "ABC1!" and string.lower("AbC\200") == "abc\200")
assert(string.reverse("abc") == "cba" and string.reverse("") == "")
assert(string.rep("ab", 3) == "ababab" and string.rep("x", 0) == "")
assert(string.rep("x", -5) == "" and string.rep("ab", 3, ",") == "ab,ab,ab")
assert(string.rep("a", 1, "sep") == "a" and string.rep("", 5) == "")
has(err(string.rep, "x", 1 << 30, "y" .. string.rep("z", 1 << 10)), "resulting string too large")

assert(string.byte("A") == 65 and string.byte("abc", 2) == 98)
local a, b, c = string.byte("abc", 1, -1)
assert(a == 97 and b == 98 and c == 99)
assert(select("#", string.byte("abc", 3, 2)) == 0)
assert(select("#", string.byte("", 1)) == 0)
assert(string.byte("abc", -1) == 99 and string.byte("\255") == 255)
assert(string.char() == "" and string.char(72, 105) == "Hi")
assert(string.char(0, 255) == "\0\255")
has(err(string.char, 256), "bad argument #1 to ")
has(err(string.char, 65, -1), "value out of range")
has(err(string.char, "x"), "number expected, got string")

-- the string metatable: methods and arithmetic coercion
assert(("x"):rep(3) == "xxx" and ("%d"):format(5) == "5")
local mt = getmetatable("")
assert(mt.__index == string)
assert("10" + 1 == 11 and "3" * "4" == 12 and "2" ^ 3 == 8.0)
assert("7" // 2 == 3 and "7" % 4 == 3 and -"2" == -2 and "1.5" + 1 == 2.5)
assert(10 - "4" == 6 and "9" / "3" == 3.0 and "0x10" + 0 == 16)
assert(math.type("10" + 1) == "integer" and math.type("1e1" + 0) == "float")
local m = err(function() return "a" + 1 end)
has(m, "attempt to")
m = err(function() return {} + "1" end)
has(m, "attempt to")
local v = setmetatable({}, {__add = function(x, y) return "mm" end})
assert("a" + v == "mm" and v + "a" == "mm")
assert(#string.format("%5s", "ab") == 5)
print("lib_string ok")
