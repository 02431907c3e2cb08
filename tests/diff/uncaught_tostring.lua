-- an uncaught error with a __tostring metamethod
error(setmetatable({}, {__tostring = function() return "custom error object" end}))
