local t = setmetatable({}, {__gc = function(o) _G.saved = o end}) t = nil collectgarbage() return saved
