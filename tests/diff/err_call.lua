-- messages of call errors
local cases = {
  "x()", "local f; f()", "local t = {} t.m()", "local t = {} t:m()", "local t = {} t[1]()",
  "local t = {a = {}} t.a.b()", "local s = 's' s:nomethod()", "(1)()", "('str')()",
  "local up; (function() up() end)()", "return math.nothing(1)", "local t = setmetatable({}, {__call = 1}) t()",
  "for k in nil do end", "local f = {} f.g.h()",
}
for _, src in ipairs(cases) do print(pcall(load(src, "=c"))) end
