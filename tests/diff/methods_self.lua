-- obj:m() through every shape of __index (the interpreter looks one
-- class level up inline, and goes the whole way otherwise)
local Base = {}
Base.__index = Base
function Base:who() return "base" end
function Base:deep() return "deep" end
local Mid = setmetatable({}, Base)
Mid.__index = Mid
function Mid:who() return "mid" end
local o = setmetatable({}, Mid)
print(o:who(), o:deep())                 -- one level, then two
Mid.flag = false
print(pcall(function() return o:flag() end))  -- false found: not called
print(pcall(function() return o:nope() end))  -- nil at the end of the chain
rawset(o, "who", function() return "own" end)
print(o:who())                           -- the object's own field first
o.who = nil
Mid.who = nil
print(o:who())                           -- gone from the class: base's
-- __index a function, then a table again, on the same metatable
local mt = {__index = function(t, k) return function() return "fn:" .. k end end}
local p = setmetatable({}, mt)
print(p:hello())
mt.__index = {hello = function() return "table" end}
print(p:hello())
mt.__index = nil
print(pcall(function() return p:hello() end))
mt.__index = Base
print(p:who())
-- a long method name (not a short string)
local long = string.rep("m", 60)
Base[long] = function() return "long" end
print(o[long](o), pcall(function() return o:nope2() end))
-- __index through a table with its own __index function
local Proxy = setmetatable({}, {__index = function(_, k) return function() return "proxy " .. k end end})
local q = setmetatable({}, {__index = Proxy})
print(q:anything())
-- the class's metatable changed between calls
local C1 = {m = function() return 1 end}
local C2 = {m = function() return 2 end}
local r = setmetatable({}, {__index = C1})
local s = 0
for i = 1, 6 do
  s = s * 10 + r:m()
  if i == 3 then setmetatable(r, {__index = C2}) end
end
print(s)
-- methods on strings and a userdata-less non-table value
print(("abc"):upper(), ("x"):rep(3))
print(pcall(function() local n = 5; return n:foo() end))
-- the metatable's own fields are not the class's
local mt2 = {__index = {}, m = function() return "mt field" end}
print(pcall(function() return setmetatable({}, mt2):m() end))
local mt3 = {__index = {m = function() return "class" end},
             m = function() return "mt field" end}
print(setmetatable({}, mt3):m())
