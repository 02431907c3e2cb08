-- tostring and type of every kind of value (addresses are not printed)
print(tostring(nil), tostring(true), tostring(false), tostring(12), tostring(-1.25), tostring("s"))
for _, v in ipairs({1, 1.5, "s", true, {}, print, function() end, coroutine.create(print)}) do
  print(type(v), math.type(v))
end
print(type(nil))
local named = setmetatable({}, {__name = "MyType"})
print(tostring(named):sub(1, 8))
print(tostring(setmetatable({}, {__tostring = function() return "TS" end})))
print(pcall(tostring, setmetatable({}, {__tostring = function() return {} end})))
print(pcall(tostring))
print(pcall(type))
print(tostring(print):sub(1, 9), tostring({}):sub(1, 6), tostring(coroutine.create(print)):sub(1, 7))
print(select("#", tostring(1, 2)))
