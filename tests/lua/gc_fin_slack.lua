--! medium
-- __gc calls in rt.loop's slack (gc/pace.c pace_idle_until): every kind
-- runs there, and each once: ones that error (a warning), resurrect
-- their object, step the collector, and slow ones longer than any slack
-- (the slack starts only the calls expected to fit, and lowers what it
-- expects at each slack that had to put all of them off: they still run
-- inside the loop, not only at the full collection after it).
local ran, slowran, res = 0, 0, {}
local function spin(us)
  local t = rt.cycles() + rt.hz() // 1000000 * us
  while rt.cycles() < t do end
end
local slow = {__gc = function() spin(1500) slowran = slowran + 1 end}
local bad = {__gc = function() ran = ran + 1 error("boom") end}
local resur = {__gc = function(o) ran = ran + 1 res[#res + 1] = o end}
local coll = {__gc = function() ran = ran + 1 collectgarbage("step") end}
local made = 0
local r = rt.loop(1, function()
  made = made + 1
  setmetatable({}, bad) setmetatable({}, resur) setmetatable({}, coll)
  if made % 25 == 0 then setmetatable({}, slow) end
  local g = {}
  for i = 1, 20 do g[i] = {i} end
end, 300)
local inloop, quick = slowran, ran
collectgarbage() collectgarbage()
assert(r.iterations == 300 and made == 300)
assert(ran == 3 * made, "every quick __gc ran once")
assert(slowran == made // 25, "every slow __gc ran once")
-- Inside the loop, where time is the program's own (a board under
-- icount; the host's wall clock is shared): most quick calls, and slow
-- ones more than once (without the lowering, one slow call put off all
-- the rest: 1 slow and 99 quick ran inside the loop at shift=0).
if rt.stats().clock ~= "host" then
  assert(inloop >= 2, "slow __gc calls ran inside the loop")
  assert(quick >= made, "most quick __gc calls ran inside the loop")
end
assert(#res == made)
for _, o in ipairs(res) do assert(getmetatable(o) == resur) end
print("ok")
