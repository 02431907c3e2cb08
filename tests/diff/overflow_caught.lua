-- stack overflows caught by pcall (the depth itself is not printed)
local function rec() return 1 + rec() end
print(pcall(rec))
local co = coroutine.create(rec)
print(coroutine.resume(co))
print(pcall(function() local t = setmetatable({}, {}) getmetatable(t).__index = function(s, k) return s[k] end return t.x end))
local mt = {}
mt.__tostring = function(o) return tostring(o) end
print(pcall(tostring, setmetatable({}, mt)))
print(select("#", pcall(rec)), "still running")
