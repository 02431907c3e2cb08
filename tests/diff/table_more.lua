-- table functions with metamethods and edge arguments
local log = {}
local prox = setmetatable({}, {
  __index = function(t, k) log[#log + 1] = "get" .. k; return rawget(t, "_" .. k) end,
  __newindex = function(t, k, v) log[#log + 1] = "set" .. k; rawset(t, "_" .. k, v) end,
  __len = function() return 3 end,
})
table.insert(prox, "a")
print(table.concat(log, " ")); log = {}
print(table.concat(setmetatable({}, {__index = function(t, i) return "v" .. i end, __len = function() return 3 end}), ","))
print(table.unpack(setmetatable({}, {__index = function(t, i) return i * 10 end}), 1, 3))
print(table.remove({1, 2, 3}, 3), table.remove({1, 2, 3}, 4), #{n = 1})
print(pcall(table.remove, {1, 2, 3}, 5))
local t = {1, 2, 3}
print(table.remove(t, #t + 1), #t)
print(table.move({1, 2, 3}, 2, 1, 1)[1], #table.move({}, 1, 0, 5))
print(pcall(table.move, {}, 1, math.maxinteger, 2))
print(table.pack(table.unpack({1, nil, 3}, 1, 3)).n)
local s = {}
for i = 1, 20 do s[i] = 21 - i end
table.sort(s, function(a, b) return a < b end)
print(table.concat(s, " "))
print(pcall(table.sort, {1, 2, 3}, function(a, b) return true end))
