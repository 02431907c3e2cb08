--! boards: mps2-an385 lm3s6965evb
-- hw.timer faster than its handler (each call takes 1.5 periods): the
-- script still runs (a delivery takes only the events waiting when it
-- began), ends its loop and stops the timer; the ring fills, and what it
-- cannot hold is dropped and counted.
local hz = rt.hz()
local function spin(c) local s = rt.cycles() while rt.cycles() - s < c do end end
local calls, slow = 0, hz // 10000 * 3 // 2
local d0 = rt.stats().events_dropped
local t = hw.timer(0, 10000, function() calls = calls + 1 spin(slow) end)
local c, iters = rt.cycles(), 0
while rt.cycles() - c < hz // 50 do iters = iters + 1 end
t:stop()
local dropped = rt.stats().events_dropped - d0
print(string.format("calls %d, count %d, dropped %d, loop %d", calls, t:count(), dropped, iters))
assert(calls >= 100 and iters > 0 and dropped > 0)
print("ok")
