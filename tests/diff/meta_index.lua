-- __index/__newindex chains and inheritance
local Base = {}
Base.__index = Base
function Base.new(x) return setmetatable({x = x}, Base) end
function Base:get() return self.x end
function Base:name() return "Base" end
local Derived = setmetatable({}, {__index = Base})
Derived.__index = Derived
function Derived.new(x, y) local o = Base.new(x); o.y = y; return setmetatable(o, Derived) end
function Derived:name() return "Derived" end
function Derived:sum() return self.x + self.y end
local d = Derived.new(3, 4)
print(d:get(), d:name(), d:sum(), Base.new(1):name(), rawget(d, "get"))
local store = {}
local p = setmetatable({}, {__newindex = store, __index = store})
p.a = 1; print(rawget(p, "a"), store.a, p.a)
local chain = setmetatable({}, {__newindex = setmetatable({}, {__newindex = function(t, k, v) print("deep", k, v) end})})
chain.z = 26
local loop = {}
setmetatable(loop, {__index = loop, __newindex = loop})
print(pcall(function() return loop.x end))
print(pcall(function() loop.x = 1 end))
print(getmetatable(setmetatable({}, {__metatable = "locked"})))
print(pcall(setmetatable, setmetatable({}, {__metatable = 1}), {}))
print(getmetatable("abc").__index == string, getmetatable(1), getmetatable(print))
