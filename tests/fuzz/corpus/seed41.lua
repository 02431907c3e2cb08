local t = setmetatable({}, {__close = 1}) local x <close> = t
