-- a non-string error value crossing coroutine.wrap
local f = coroutine.wrap(function() error({}) end)
f()
