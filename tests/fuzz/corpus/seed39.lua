local mt = {} mt.__index = mt setmetatable(mt, mt) return mt.nothing
