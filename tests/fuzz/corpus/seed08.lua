local x <const> = 5 do local y <close> = setmetatable({}, {__close = function() end}) end return x
