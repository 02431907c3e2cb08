--! host
-- rt.on's delivery at a loop's back edge (a VM safe point) leaves the
-- running frame as it was.  It raised the frame's top by 4 slots an
-- event (gc/pace.c), so a loop posting and handling events grew its
-- frame until the stack could not grow, and delivery stopped (250,187
-- of 400,000 events handled).
local n = 0
rt.on(5, function () n = n + 1 end)
local i = 0
while i < 400000 do
  rt.post(5, i)
  i = i + 1
end
rt.on(5, nil)
assert(n == 400000, n)
print("ok")
