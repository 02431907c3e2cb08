-- classes with methods, inheritance and super calls
local Animal = {}
Animal.__index = Animal
function Animal.new(name, sound) return setmetatable({name = name, sound = sound}, Animal) end
function Animal:speak() return self.name .. " says " .. self.sound end
local Dog = setmetatable({}, {__index = Animal})
Dog.__index = Dog
function Dog.new(name) local d = Animal.new(name, "woof"); return setmetatable(d, Dog) end
function Dog:speak() return Animal.speak(self) .. "!" end
function Dog:fetch(n) local r = {} for i = 1, n do r[i] = self.name end return table.concat(r, ",") end
local things = {Animal.new("cat", "meow"), Dog.new("rex")}
for _, a in ipairs(things) do print(a:speak()) end
print(things[2]:fetch(3), getmetatable(things[2]) == Dog)
local Stack = {}
Stack.__index = Stack
Stack.__len = function(s) return s.n end
Stack.__tostring = function(s) return "Stack(" .. s.n .. ")" end
function Stack.new() return setmetatable({n = 0}, Stack) end
function Stack:push(v) self.n = self.n + 1; self[self.n] = v; return self end
function Stack:pop() local v = self[self.n]; self[self.n] = nil; self.n = self.n - 1; return v end
local s = Stack.new():push(1):push(2):push(3)
print(#s, tostring(s), s:pop(), s:pop(), #s)
