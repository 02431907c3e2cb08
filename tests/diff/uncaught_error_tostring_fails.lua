-- an uncaught error object whose __tostring returns a non-string
error(setmetatable({}, {__tostring = function() return 42 end}))
