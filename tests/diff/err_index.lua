-- messages of indexing errors, caught and printed
local cases = {
  "local t; t.x = 1", "local t; return t.x", "return undefinedglobal.x", "local t = {} return t.a.b",
  "local t = {a = {}} t.a.b.c = 1", "local up; return (function() return up[1] end)()",
  "return ('x').y.z", "local t = {} return t[1][2]", "local k = 'kk' local t = {} return t[k].z",
  "return (nil)[1]", "return (1).x", "local b = true; return b.x", "local t = setmetatable({}, {__index = 5}) return t.x",
}
for _, src in ipairs(cases) do print(pcall(load(src, "=c"))) end
