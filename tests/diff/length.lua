-- the length operator on sequences, strings and __len
print(#{}, #{1}, #{1, 2, 3}, #{n = 1}, #"", #"abc", #"\0\0")
local t = {}
for i = 1, 100 do t[i] = i end
print(#t)
for i = 100, 51, -1 do t[i] = nil end
print(#t)
print(#setmetatable({}, {__len = function() return 7 end}), #setmetatable({1}, {__len = function() return "x" end}))
print(rawlen({1, 2}), rawlen("abcd"))
print(pcall(rawlen, 5))
