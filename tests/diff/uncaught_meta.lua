-- an error raised inside a metamethod
local t = setmetatable({}, {__add = function(a, b) error("no add") end})
local x = t + 1
