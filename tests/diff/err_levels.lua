-- error levels and positions
local function lvl(n) error("msg", n) end
local function mid(n) lvl(n) end
local function top(n) mid(n) end
for n = 0, 4 do print(n, pcall(top, n)) end
local function bad() local x = nil; return x.y end
print(pcall(bad))
print(pcall(function() error("in anon") end))
print(pcall(string.rep))
print(pcall(function() string.rep() end))
print(pcall(function() return ("x"):rep({}) end))
print(pcall(setmetatable, 1))
print(pcall(function() local t = setmetatable({}, {__index = function() error("from index") end}) return t.x end))
print(pcall(function() local t = setmetatable({}, {__index = function() error("lvl2", 2) end}) return t.x end))
