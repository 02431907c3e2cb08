-- A finalizer that never returns: __gc runs with hooks off, so the
-- harness's count hook never sees the loop.
local spins = 0
setmetatable({}, {__gc = function()
  while true do spins = spins + 1 end
end})
collectgarbage()
print(spins)
