--! medium
-- rt: time, events (rt.on/rt.post), rt.loop, budget,
-- stats.  rtlua only (no rt in lua5.4).
assert(type(rt) == "table" and package.loaded.rt == rt)
local hz = rt.hz()
assert(math.type(hz) == "integer" and hz > 0)
local c0 = rt.cycles()
local x = 0
for i = 1, 1000 do x = x + i end
assert(rt.cycles() - c0 > 0 and math.type(rt.ticks()) == "integer")
-- what rt.cycles counts: the host's clock there, a board's counter else
local clock = rt.stats().clock
assert(clock == "host" or clock == "systick" or clock == "dwt", clock)
assert((clock == "host") == (hz == 1000000000), clock)

-- events: in order, value and event number passed, delivered at the next
-- safe point (a call here)
local got = {}
assert(rt.on(5, function(v, e) got[#got + 1] = v * 1000 + e end) == nil)
local st0 = rt.stats()
for i = 1, 20 do assert(rt.post(5, i) == true) end
rt.poll()
assert(#got == 20, #got)
for i = 1, 20 do assert(got[i] == i * 1000 + 5) end
local st1 = rt.stats()
assert(st1.events_posted - st0.events_posted == 20)
assert(st1.events_delivered - st0.events_delivered == 20)
-- no handler: taken and counted
rt.post(6, 1); rt.poll()
assert(rt.stats().events_unhandled - st1.events_unhandled == 1)
-- a failing handler is reported and the next ones still run
local n = 0
rt.on(7, function() n = n + 1; error("boom") end)
rt.post(7, 1); rt.post(7, 2); rt.poll()
assert(n == 2 and rt.stats().handler_errors - st1.handler_errors == 2)
assert(type(rt.on(7, nil)) == "function" and rt.on(7) == nil)

local function err(f, ...)
  local ok, m = pcall(f, ...)
  assert(not ok)
  return m
end
assert(err(rt.on, 128, print):find("event out of range", 1, true))
assert(err(rt.on, -1, print):find("bad argument #1 to 'rt.on'", 1, true))
assert(err(rt.on, 1, 2):find("function expected", 1, true))
assert(err(rt.loop, 0, print):find("period out of range", 1, true))
assert(err(rt.budget, 2):find("fraction out of", 1, true))

-- rt.loop: count, early stop, result fields, no drift
local calls = 0
local r = rt.loop(1, function() calls = calls + 1 end, 20)
assert(r.iterations == 20 and calls == 20 and math.type(r.misses) == "integer")
assert(r.worst_late_us >= 0)
calls = 0
r = rt.loop(2, function() calls = calls + 1; return calls < 5 end)
assert(r.iterations == 5 and calls == 5)
-- 30 releases, the first at once: the releases are fixed from the start,
-- so the time taken is the 29 periods and how late the last one started
-- (a loaded host that keeps us off the CPU makes the iterations late,
-- but not later than the last one's lateness at the end: 0.5 s of 30 ms
-- failed 3 times in 60 at a load of 13)
local t0, last = rt.cycles(), 0
rt.loop(1, function(late) local t = {}; t[1] = string.rep("x", 10); last = late end, 30)
local el = (rt.cycles() - t0) / hz
assert(el >= 0.029 and el < 0.029 + last / 1e6 + 0.5, el)

-- one iteration overrunning 2.5 periods: the next starts > 1 period late
-- (fn gets its iteration's lateness: the 4th is the late one)
calls = 0
local lates = {}
r = rt.loop(1, function(late)
  calls = calls + 1
  lates[calls] = late
  if calls == 3 then local e = rt.cycles() + hz // 400
    while rt.cycles() - e < 0 do end end
end, 8)
-- (exactly 1 on a board; a loaded host may preempt us for more)
assert(r.misses >= 1 and r.worst_late_us > 1000, r.misses)
local most = 0
for i = 1, 8 do
  assert(type(lates[i]) == "number" and lates[i] >= 0, i)
  most = math.max(most, lates[i])
end
assert(lates[4] > 1000 and most == r.worst_late_us, lates[4])

-- budget
local f, cyc, res = rt.budget()
assert(f >= 0 and f <= 1 and cyc > 0 and res >= 0)
assert(rt.budget(0.5) == 0.5)
local _, c2 = rt.budget{cycles = cyc * 2}
assert(c2 == cyc * 2)
rt.budget{cycles = cyc}
rt.budget(f)

-- stats (after a step at least: from a flash image, with nothing to
-- compile, the script alone need not start a cycle in a big arena,
-- whose pause counts what stock Lua's libraries would hold, gc.h's
-- GC_PAUSE_EXTRA; the figures below are of steps)
collectgarbage("step")
local s = rt.stats()
for _, k in ipairs{"steps", "worst_step_cycles", "cycles_completed",
                   "emergencies", "in_use", "free", "largest_free", "arena"} do
  assert(math.type(s[k]) == "integer", k)
end
assert(type(s.worst_step_us) == "number" and s.in_use + s.free <= s.arena)
-- the log2 histogram of step lengths holds every step; the median and
-- p99.9 of the kept step lengths are ordered and bounded by the worst
-- step (a median may be 0 us where the host clock is coarser than a step)
local steps = 0
for i = 1, 24 do
  assert(math.type(s.hist[i]) == "integer", i)
  steps = steps + s.hist[i]
end
assert(#s.hist == 24 and steps == s.steps, steps)
-- (the torture builds collect at every allocation, in emergencies that
-- are not steps)
assert((s.steps > 0 or s.emergencies > 0) and s.median_step_us >= 0)
assert(type(s.quantiles_sampled) == "boolean" and s.worst_emergency_us >= 0)
assert(s.quantiles_sampled == (s.steps > 128) or s.quantiles_sampled == (s.steps > 16))
assert(s.median_step_us <= s.p999_step_us)
assert(s.p999_step_us <= s.worst_step_us)
-- the longest unit of work of any step (what a step may overrun its
-- budget by), within the worst step, and the phase it ran in
assert(type(s.worst_unit_us) == "number")
assert(s.worst_unit_us <= s.worst_step_us, s.worst_unit_us)
local phases = {pause = 1, propagate = 1, atomic = 1, clearweak = 1,
                sweep_string = 1, sweep_objects = 1}
assert(phases[s.worst_unit_phase] or (s.steps == 0 and
       s.worst_unit_phase == "pause"), s.worst_unit_phase)
-- "reset" returns the figures so far, then starts them afresh
do
  for i = 1, 2000 do local t = {i} end
  collectgarbage()
  -- (stopped, so that a torture build's collection at each allocation
  -- of rt.stats's own tables does not count a cycle after the reset)
  collectgarbage("stop")
  local before = rt.stats("reset")
  local after = rt.stats()
  collectgarbage("restart")
  assert(before.cycles_completed > 0, before.cycles_completed)
  assert(after.cycles_completed == 0 and after.worst_step_cycles == 0,
         after.worst_step_cycles)
  assert(after.steps == 0 and after.hist[1] == 0 and after.finalizers == 0)
  assert(after.in_use == before.in_use or after.in_use > 0)
  assert(not pcall(rt.stats, "nonsense"))
end
-- __gc calls are counted apart from the steps, with their longest batch
do
  collectgarbage() -- (what earlier parts left for their __gc runs first)
  local f0, ran = rt.stats().finalizers, 0
  for _ = 1, 5 do setmetatable({}, {__gc = function() ran = ran + 1 end}) end
  collectgarbage()
  local s2 = rt.stats()
  assert(ran == 5 and s2.finalizers - f0 == 5, s2.finalizers - f0)
  assert(type(s2.worst_finalizer_us) == "number" and s2.worst_finalizer_us >= 0)
end
-- rt.stats(name): that one field, without building the table (a small
-- board's arena cannot always hold the forty fields); the same type as
-- the table's field, the same value for those that cannot have moved.
do
  local t = rt.stats()
  for k, v in pairs(t) do
    local one = rt.stats(k)
    assert(type(one) == type(v) and math.type(one) == math.type(v), k)
  end
  assert(rt.stats("arena") == t.arena and rt.stats("clock") == t.clock)
  assert(rt.stats("ring_size") == t.ring_size and #rt.stats("hist") == 24)
  collectgarbage("stop")
  local c0 = rt.stats("in_use")
  local c1 = rt.stats("in_use")
  assert(c1 == c0, c1 - c0) -- no table, no key made
  collectgarbage("restart")
  local ok, msg = pcall(rt.stats, "no_such_field")
  assert(not ok and msg:find("bad argument #1 to", 1, true) and
         msg:find("no_such_field", 1, true), msg)
  assert(not pcall(rt.stats, 12))
end
-- the program's own longest pauses by cause, collector steps inside them
-- left out: a table's growth work in a store, an interning while the
-- string table resizes
do
  collectgarbage() -- (room on the small boards)
  rt.stats("reset")
  local s0 = rt.stats()
  assert(s0.worst_rehash_us == 0 and s0.worst_intern_us == 0)
  local t = {}
  for i = 1, 100 do t["pause" .. i] = i end
  local s1 = rt.stats()
  assert(s1.worst_rehash_us > 0, s1.worst_rehash_us)
  assert(s1.worst_intern_us > 0, s1.worst_intern_us)
end

-- an rt.loop body is not interrupted by paced collector steps while it
-- is within its period (only assists, when memory is short, may run in
-- it): a body that makes garbage for 5 ms, over several ticks, of a 1 s
-- period (far from its end, even on a loaded host) runs no paced step,
-- while the same work outside the loop does.
-- A body that overruns its whole period has missed its next release
-- anyway: from then on paced steps run in it, so that a loop that
-- overruns every period does not starve the collector.
collectgarbage("collect")
-- (The garbage is at most half the free memory: inside a body an
-- allocation the collector cannot catch up with is "not enough memory",
-- never a full collection, and a small board's arena is small.)
local function busy()
  local s0 = rt.stats().paced_steps
  local cap, n = rt.stats().free // 2 // 64, 0
  local stop = rt.cycles() + hz // 200
  while rt.cycles() - stop < 0 do
    if n < cap then n = n + 1; local g = {} end
  end
  return rt.stats().paced_steps - s0
end
local inside, overrun, upto
local b0 = rt.cycles()
rt.loop(1000, function() inside = busy(); upto = rt.cycles() end, 1)
-- (unless the host kept us off the CPU past the period: the body then
-- overran it, and ran paced steps as it should; b0 is before its start)
assert(inside == 0 or (upto - b0) / hz > 1, inside)
assert(busy() > 0)
rt.loop(1, function() overrun = busy() end, 1)
assert(overrun > 0, overrun)

print("ok")
