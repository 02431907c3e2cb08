-- C17: the line of a call is the line where its argument list starts: the
-- '(' (also after a method name, a:m), the string of f"x" / f[[x]] (where
-- the lexer stands after it: a long string's last line) or the '{' of
-- f{...}.  Lua 5.4.7 and 5.4.8 do so; 5.4.4 (Debian's lua5.4) gives the
-- line where the called expression starts, so this expectation follows
-- 5.4.8, not lua5.4.  The same line is the one "(to close '(' at line N)"
-- names, and the current line of the calling frame in a traceback.
local cases = {
  "local a = {}\nreturn a\n(\n1)",            -- 3
  "local a = {}\nreturn a(\n1)",               -- 2
  "local a = {}\nreturn a:\nm()",              -- 3
  "local a = {}\nreturn a\n:m\n()",            -- 4
  "local s = 'x'\nreturn s:\nnomethod\n'arg'", -- 4
  "local a = {}\nreturn a\n'x'",               -- 3
  "local a = {}\nreturn a\n{}",                -- 3
  "local a = {}\nreturn a\n[[\nlong\n]]",      -- 5
  "local a = {}\nreturn a [[\nlong\n]]",       -- 4
  "local a = {}\na\n(1)",                      -- 3 (a call statement)
  "local a = {}\nreturn 1 + a\n()",            -- 3
  "local a = {x = 1}\nreturn a.x\n()",         -- 3
  "local a = {}\nreturn (a)\n()",              -- 3
  "return nil_global\n()",                     -- 2
  "local f = function () return 1 end\nreturn f()\n()", -- 3
  "local a = {}\nlocal x = a\n(1)\nreturn x",  -- 3
}
for i, src in ipairs(cases) do
  print(i, pcall(assert(load(src, "=c17"))))
end
-- the frame calling a function that errors is at the call's line
local function boom () error("boom") end
local function where ()
  local ok, tb = xpcall(function ()
    boom
    (
    )
  end, debug.traceback)
  return tb:match("c17_call_error_line.lua:(%d+): in function <")
end
print("traceback line", where())
print(load("f\n(1\n\n", "=c17"))
print(load("f(1\n\n", "=c17"))
print(load("a:b\n(1\n\n", "=c17"))
