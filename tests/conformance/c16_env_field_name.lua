-- C16: how an error names a value read from a table called _ENV.  Lua
-- 5.4.8 says "global 'x'" only when the indexed table is the variable
-- _ENV (the upvalue, or a local or upvalue of that name); a field that is
-- named _ENV (a._ENV.x) or a string "_ENV" (("_ENV").x) makes "field
-- 'x'".  5.4.4 (Debian's lua5.4) looked at the table's name alone and
-- said "global 'x'" for both, so this expectation follows 5.4.8.
local function msg (f, ...)
  local ok, m = pcall(f, ...)
  print(ok, (string.gsub(tostring(m), "^[^:]*:%d+: ", "")))
end
local a = {_ENV = {}}
msg(function () return a._ENV.x + 1 end)
msg(function () return ("_ENV").x + 1 end)
msg(function () return a._ENV.f() end)
msg(function () return a._ENV:m() end)
msg(function () return a._ENV.x.y end)
msg(function () a._ENV.x.y = 1 end)
msg(function () local e = a._ENV; return e.x + 1 end)
msg(function () local t = {}; t._ENV = a; return t._ENV._ENV.x + 1 end)
-- the variable _ENV: still a global
msg(function () return x + 1 end)
msg(function () return _ENV.x + 1 end)
msg(function () return _ENV["x"] + 1 end)
msg(function () local _ENV = {}; return x + 1 end)
msg(function () local _ENV = {}; return (function () return x + 1 end)() end)
msg(function () local _ENV <const> = a._ENV; return x .. "s" end)
msg(function () local e = _ENV; return e.x + 1 end)
msg(function (_ENV) return x + 1 end, {})
msg(function () return undefined_fn() end)
msg(function () return string.nofn() end)
