-- Errors inside message handlers: the handler is called again for its
-- own error until the C-call limit, and the result is "error in error
-- handling" (LUA_ERRERR).  This needs the C stack to hold LUAI_MAXCCALLS
-- nested handler calls, a separate file so that a board that cannot is
-- reported on its own.
local ok, e = xpcall(error, function() error("again") end, "first")
assert(not ok and e == "error in error handling")
-- a handler that fails at runtime (not through error)
ok, e = xpcall(function() local x; x() end, function(m) local t; return t.x end)
assert(not ok and e == "error in error handling")
-- a handler that works on the second error still reports the first
local calls = 0
ok, e = xpcall(error, function(m) calls = calls + 1; return "handled " .. tostring(m) end, "v")
assert(not ok and e == "handled v" and calls == 1)
-- the state works afterwards
ok, e = pcall(error, "after", 0)
assert(not ok and e == "after")
print("ok")
