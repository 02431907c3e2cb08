local w = setmetatable({}, {__mode = "k"}) w[{}] = 1 collectgarbage() return next(w)
