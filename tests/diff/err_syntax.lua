-- syntax errors from load, printed
local cases = {
  "x = ", "x = 'unfinished", "x = [[long", "for i = 1 do end", "if x then", "function f(", "local 1 = 2",
  "x = 1 +* 2", "return return", "x = }", "f(", "a.b:c = 1", "local x <const> = 1; x = 2",
  "local x <bad> = 1", "goto nope", "break", "::l:: ::l::", "x = '\\q'", "x = '\\xZZ'",
  "x = '\\u{110000000}'", "x = 0x", "x = 1e+", "x = 3..2", "--[[ unfinished", "x = '\\300'",
  "(x) = 1", "x, y() = 1, 2", "local function end", "return ...", "function f() return ... end",
  "x = {1, 2", "while true do", "repeat x = 1", "if x then else elseif y then end", "\n\n\n  ) ",
  "return 1 2", "local a = {} a.", "x = @", "x = $", "x = `", "x = ~= 1", "x = \"abc\ndef\"",
}
for _, src in ipairs(cases) do print((select(2, load(src, "=s")))) end
print((select(2, load("x = ", "chunkname"))))
print((select(2, load("x = ", "@file.lua"))))
print((select(2, load("x = ", "=" .. ("n"):rep(100)))))
print((select(2, load("x = ", ("long source line "):rep(10)))))
print((select(2, load("\n\nx = ", "multi\nline"))))
