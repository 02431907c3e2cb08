-- string.find, match, gmatch, gsub with Lua patterns.
local function err(f, ...)
  local ok, m = pcall(f, ...)
  assert(not ok, "expected an error")
  return m
end
local function has(m, s) assert(string.find(m, s, 1, true), m) end
local function eq(a, b, ...) assert(a == b, ...) end

local a, b = string.find("hello world", "wor")
assert(a == 7 and b == 9)
assert(string.find("a.b", ".", 1, true) == 2 and string.find("a.b", "%.") == 2)
assert(string.find("abc", "") == 1 and string.find("abc", "", 10) == nil)
assert(string.find("abc", "", 4) == 4 and string.find("abc", "c", -1) == 3)
local s, e, cap = string.find("key = value", "(%w+)%s*=")
assert(s == 1 and e == 5 and cap == "key")
assert(string.find("aaa", "^a") == 1 and string.find("baa", "^a") == nil)
assert(string.find("a+b", "+", 1, true) == 2)

eq(string.match("2024-01-05", "(%d+)-(%d+)-(%d+)"), "2024")
local y, m, d = string.match("2024-01-05", "(%d+)-(%d+)-(%d+)")
assert(y == "2024" and m == "01" and d == "05")
eq(string.match("  trim  ", "^%s*(.-)%s*$"), "trim")
eq(string.match("abc", "()b()"), 2)
eq(select(2, string.match("abc", "()b()")), 3)
eq(string.match("x = 10", "%a+"), "x")
eq(string.match("THE (quick) fox", "%((%a+)%)"), "quick")
eq(string.match("f(a(b)c)d", "%b()"), "(a(b)c)")
eq(string.match("THE (quick) fox", "%f[%a]%a+%f[%A]", 5), "quick")
eq(string.match("hello", ".-l"), "hel")
eq(string.match("hello", ".*l"), "hell")
eq(string.match("hello", "l+"), "ll")
eq(string.match("color colour", "colou?r", 2), "colour")
eq(string.match("abba", "(a)(b)%2%1"), "a")
eq(string.match("[x]", "[%[]"), "[")
eq(string.match("a-b", "[a-]+"), "a-")
eq(string.match("x9_", "[^%d]+$"), "_")
eq(string.match("]", "[]]"), "]")
eq(string.match("end", "d$"), "d")
eq(string.match("a$b", "a$b"), "a$b")
assert(string.match("abc", "x") == nil)
eq(string.match(" \t\n", "^%s+$"), " \t\n")
eq(string.match("AbC", "%u%l%u"), "AbC")
eq(string.match("0xFF", "0x(%x+)"), "FF")
eq(string.match("\1x", "%c"), "\1")

local words = {}
for w in string.gmatch("one two  three", "%a+") do words[#words + 1] = w end
assert(#words == 3 and words[3] == "three")
local kv = {}
for k, v in string.gmatch("a=1, b=2", "(%w+)=(%w+)") do kv[k] = v end
assert(kv.a == "1" and kv.b == "2")
local n = 0
for _ in string.gmatch("abc", "") do n = n + 1 end
assert(n == 4)
n = 0
for w in string.gmatch("abcabc", "b", 3) do n = n + 1 end
assert(n == 1)

eq(string.gsub("hello world", "o", "0"), "hell0 w0rld")
assert(select(2, string.gsub("hello world", "o", "0")) == 2)
eq(string.gsub("hello", "l", "L", 1), "heLlo")
eq(string.gsub("abc", "%w", "%0%0"), "aabbcc")
eq(string.gsub("hello world", "(%w+) (%w+)", "%2 %1"), "world hello")
eq(string.gsub("abc", "", "-"), "-a-b-c-")
eq(string.gsub("$name is $age", "%$(%w+)", {name = "Bob", age = 42}), "Bob is 42")
eq(string.gsub("$x $y", "%$(%w+)", {x = "1"}), "1 $y")
eq(string.gsub("1 2 3", "%d", function(d) return d * 2 end), "2 4 6")
eq(string.gsub("a b", "%w", function() return false end), "a b")
eq(string.gsub("abc", "^a", "X"), "Xbc")
eq(string.gsub("aaa", "^a", "X"), "Xaa")
eq(string.gsub("x", "x", "%%"), "%")
eq(string.gsub("abc", "b", 5), "a5c")

has(err(string.find, "a", "%"), "malformed pattern (ends with '%')")
has(err(string.find, "a", "[a"), "malformed pattern (missing ']')")
has(err(string.match, "a", "(a"), "unfinished capture")
has(err(string.match, "a", "a)"), "invalid pattern capture")
has(err(string.find, "a", "%b"), "missing arguments to '%b'")
has(err(string.find, "a", "%f"), "missing '[' after '%f' in pattern")
has(err(string.find, "a", "%1"), "invalid capture index %1")
has(err(string.gsub, "a", "a", "%2"), "invalid capture index %2")
has(err(string.gsub, "a", "a", "%x"), "invalid use of '%' in replacement string")
has(err(string.gsub, "a", "a", {a = {}}), "invalid replacement value (a table)")
has(err(string.gsub, "a", "a", true), "string/function/table expected, got boolean")
has(err(string.match, string.rep("a", 300), string.rep("a?", 300) .. string.rep("a", 300)), "pattern too complex")
-- Positions where a pattern's first item (after leading captures) cannot
-- match are skipped without an attempt: the results are those of an
-- attempt at each position.
assert(select(2, ("ab 12 cd 345"):gsub("%d+", "#")) == 2)
assert(("ab 12 cd 345"):gsub("%d+", "<%0>", 1) == "ab <12> cd 345")
assert(("ab 12 cd 345"):gsub("(()%d)", "%2") == "ab 45 cd 101112")
assert(("x1y22"):find("((%d)(%d))") == 4)
assert(("  x"):match("()x") == 3 and ("x"):find("%d") == nil)
assert(("a.b.c"):gsub("%.", "/") == "a/b/c" and ("abc"):gsub("%d", "") == "abc")
local seen = {}
for w in ("one two  three"):gmatch("%a+", 5) do seen[#seen + 1] = w end
assert(table.concat(seen, ",") == "two,three")
assert(("ab"):gsub("%d*", "-") == "-a-b-" and ("ab"):gsub("x?", "-") == "-a-b-")
assert(("a%b"):find("%%") == 2 and ("a\0b"):find("%z") == 2)
assert(("a\0b"):find("%z", 3) == nil and ("a\0b"):find("\0") == 2)
print("lib_pattern ok")
