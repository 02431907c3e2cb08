-- utf8: encoding, decoding (strict and lax), positions, errors.
local function err(f, ...)
  local ok, m = pcall(f, ...)
  assert(not ok, "expected an error")
  return m
end
local function has(m, s) assert(string.find(m, s, 1, true), m) end

assert(utf8.char(72, 0xE9) == "H\xC3\xA9" and utf8.char() == "")
assert(utf8.char(0x7FF) == "\xDF\xBF" and utf8.char(0x800) == "\xE0\xA0\x80")
assert(utf8.char(0xFFFF) == "\xEF\xBF\xBF" and utf8.char(0x10000) == "\xF0\x90\x80\x80")
assert(utf8.char(0x10FFFF) == "\u{10FFFF}" and utf8.char(0x7FFFFFFF) == "\xFD\xBF\xBF\xBF\xBF\xBF")
has(err(utf8.char, -1), "value out of range")
has(err(utf8.char, 65, "x"), "bad argument #2 to ")
assert(utf8.charpattern == "[\0-\x7F\xC2-\xFD][\x80-\xBF]*")

local s = "h\u{E9}llo\u{20AC}\u{1D11E}" -- h, e acute, l, l, o, euro, G clef: 13 bytes
assert(#s == 13 and utf8.len(s) == 7 and utf8.len(s, 3) == nil)
local a, b = utf8.len(s, 3) assert(a == nil and b == 3)
assert(utf8.len(s, -4) == 1 and utf8.len("") == 0 and utf8.len("abc", 4) == 0)
a, b = utf8.len("ab\x80c") assert(a == nil and b == 3)
has(err(utf8.len, "abc", 5), "initial position out of bounds")
has(err(utf8.len, "abc", 1, 4), "final position out of bounds")
assert(utf8.len("\u{D800}") == nil and utf8.len("\u{D800}", 1, -1, true) == 1)
assert(utf8.len("\u{7FFFFFFF}") == nil and utf8.len("\u{7FFFFFFF}", 1, -1, true) == 1)
assert(utf8.len("\xC0\x80", 1, -1, true) == nil) -- overlong, even lax

local cps = {utf8.codepoint(s, 1, -1)}
assert(#cps == 7 and cps[2] == 0xE9 and cps[6] == 0x20AC and cps[7] == 0x1D11E)
assert(utf8.codepoint(s) == 104 and select("#", utf8.codepoint(s, 3, 2)) == 0)
has(err(utf8.codepoint, s, 3), "invalid UTF-8 code")
has(err(utf8.codepoint, s, 0), "bad argument #2 to ")
has(err(utf8.codepoint, s, 1, 100), "out of bounds")
assert(utf8.codepoint("\u{D800}", 1, 1, true) == 0xD800)
has(err(utf8.codepoint, "\u{D800}"), "invalid UTF-8 code")

assert(utf8.offset(s, 1) == 1 and utf8.offset(s, 2) == 2 and utf8.offset(s, 3) == 4)
assert(utf8.offset(s, 7) == 10 and utf8.offset(s, 8) == 14 and utf8.offset(s, 9) == nil)
assert(utf8.offset(s, -1) == 10 and utf8.offset(s, -7) == 1 and utf8.offset(s, -8) == nil)
assert(utf8.offset(s, 0, 3) == 2 and utf8.offset(s, 0, 4) == 4 and utf8.offset(s, 0, 13) == 10)
assert(utf8.offset(s, 2, 4) == 5 and utf8.offset(s, -1, 4) == 2)
has(err(utf8.offset, s, 1, 3), "initial position is a continuation byte")
has(err(utf8.offset, s, 1, 100), "position out of bounds")

local out = {}
for p, c in utf8.codes(s) do out[#out + 1] = p .. ":" .. c end
assert(table.concat(out, " ") == "1:104 2:233 4:108 5:108 6:111 7:8364 10:119070")
has(err(function() for _ in utf8.codes("ab\xff") do end end), "invalid UTF-8 code")
has(err(function() for _ in utf8.codes("\u{D800}") do end end), "invalid UTF-8 code")
for _, c in utf8.codes("\u{D800}", true) do assert(c == 0xD800) end
has(err(function() for _ in utf8.codes("a\xE4\x80") do end end), "invalid UTF-8 code")
has(err(utf8.len), "bad argument #1 to ")

local n = 0
for c in s:gmatch(utf8.charpattern) do n = n + 1 assert(utf8.len(c) == 1) end
assert(n == 7)
print("ok")
