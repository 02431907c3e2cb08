local mt = {__index = function(t, k) return k end, __add = function(a, b) return 42 end} local o = setmetatable({}, mt) return o.x, o + 1
