-- a traceback deep enough to be cut in the middle
local function rec(n) if n == 0 then error("bottom") end rec(n - 1) end
rec(40)
