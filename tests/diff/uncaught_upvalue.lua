-- traceback through an upvalue-called function and a global function
local up = function(n) local s = nil; return s .. n end
function globalfn(n) return up(n) end
local function caller() globalfn(1); return 1 end
caller()
