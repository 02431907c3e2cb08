-- Lexer and literals: numerals, escapes, long strings, comments.
local big = math.maxinteger > 2 ^ 31

-- integers and floats
assert(0x10 == 16 and 0XfF == 255 and 1e2 == 100.0)
assert(math.type(10) == "integer" and math.type(1e1) == "float")
assert(math.type(0x10) == "integer" and math.type(0x1p4) == "float")
assert(0x1p4 == 16.0 and 0x.8 == 0.5 and 0xA.8p1 == 21.0)
assert(.5 == 0.5 and 5. == 5.0 and 3e-2 == 0.03 and 2E+1 == 20)
if big then
  assert(0xffffffffffffffff == -1) -- hex integers wrap around
  assert(9223372036854775807 == math.maxinteger)
  assert(math.type(9223372036854775808) == "float") -- decimal overflow: float
end

-- short strings and escapes
assert("\65\066\x43" == "ABC")
assert("\u{48}\u{49}" == "HI" and #"\u{7FF}" == 2 and #"\u{10FFFF}" == 4)
assert("a\z
        b" == "ab")
assert("\a\b\f\n\r\t\v\\\"\'" == string.char(7, 8, 12, 10, 13, 9, 11, 92, 34, 39))
assert('\0' ~= "" and #"a\0b" == 3)
assert("x\
y" == "x\ny")

-- long strings
local s = [[
first line skipped]]
assert(s == "first line skipped")
assert([==[a]]b]=]c]==] == "a]]b]=]c")
assert([[
]] == "")

-- comments
local x = 1 --[[ a block comment ]] + 1
assert(x == 2)
--[==[ long
comment ]==]
x = x --[[inline]] * 3
assert(x == 6)

-- lexical errors with positions (chunk "=t")
local function synerr(src, msg)
  local f, e = load(src, "=t")
  assert(f == nil)
  if e ~= msg then error(("got %q want %q"):format(e, msg), 2) end
end
synerr("x = 'abc", "t:1: unfinished string near <eof>")
synerr("x = 'abc\ny", "t:1: unfinished string near ''abc'")
synerr("x = [[abc", "t:1: unfinished long string (starting at line 1) near <eof>")
synerr("x = '\\q'", "t:1: invalid escape sequence near ''\\q'")
synerr("x = 3x", "t:1: malformed number near '3x'")
synerr("x = '\\300'", "t:1: decimal escape too large near ''\\300''")
synerr("x = @", "t:1: unexpected symbol near '@'")
synerr("\n\nx = = 1", "t:3: unexpected symbol near '='")
synerr("x = 1 +", "t:1: unexpected symbol near <eof>")
synerr("local 1", "t:1: <name> expected near '1'")
synerr("for i = 1 do end", "t:1: ',' expected near 'do'")
synerr("f(", "t:1: unexpected symbol near <eof>")
synerr("if x then", "t:1: 'end' expected near <eof>")
synerr("if x then\n\nelse", "t:3: 'end' expected (to close 'if' at line 1) near <eof>")
synerr("x = }", "t:1: unexpected symbol near '}'")
synerr("goto nowhere", "t:1: no visible label 'nowhere' for <goto> at line 1")
synerr("::a:: ::a::", "t:1: label 'a' already defined on line 1")
synerr("break", "t:1: break outside loop at line 1")
synerr("local x <const> = 1; x = 2", "t:1: attempt to assign to const variable 'x'")
synerr("local x <foo> = 1", "t:1: unknown attribute 'foo'")

-- the semicolon and empty statements
;;; local y = 1; ; assert(y == 1)

-- keywords are not names; names may contain digits and underscores
local _a1, A_2 = 1, 2
assert(_a1 + A_2 == 3)

-- shebang-like first line is only skipped by the standalone loader, not load
synerr("#!x\nreturn 1", "t:1: unexpected symbol near '#'")

print("ok")
