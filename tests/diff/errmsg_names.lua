-- variable names in messages: upvalues, globals through _ENV, constants, fields
local cases = {
  "local u = {} return function() return u.a.b end",
  "local u return function() return u + 1 end",
  "return function() return gl + 1 end",
  "local t = {} return function() return t.f() end",
  "return function() local s <const> = 'x' return s.y.z end",
  "return function(...) local a = ... return a.b end",
  "return function() return string.nope() end",
  "return function() local t = {} return t[1] + 1 end",
  "return function() local t = {x = {}} return t.x.y.z end",
  "return function() return ('a'):upper():nope() end",
  "return function() local n = 1 return n.x end",
  "return function() return _ENV.notthere() end",
  "return function() local _ENV = {} return x() end",
  "return function() return #gl end",
  "return function() return gl .. 'x' end",
  "return function() return -gl end",
  "return function() return gl < 1 end",
  "return function() local a = {} return a.b.c.d end",
  "return function() local a = {} a.b.c = 1 end",
  "return function() return (1)[2] end",
}
for _, src in ipairs(cases) do print(pcall(load(src, "=n")())) end
