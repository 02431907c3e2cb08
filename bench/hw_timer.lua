-- hw.timer as a script sees it: at each rate, timer N runs for a fixed
-- span of the core's time while the script busy-waits, and each event's
-- handler notes when it ran.  Printed, a line per rate:
--   hz=H expected=E count=C handled=D dropped=R late_us_min=A late_us_max=B
-- expected: the periods in the span; count: the timer's expiries
-- (timer:count()); handled: the handler's calls; dropped: events the
-- ring had no room for (rt.stats().events_dropped); late_us: how
-- long after expiry k's due time (k periods after hw.timer returned) its
-- handler ran: the interrupt, the post through the ring and the wait for
-- the VM's safe point.  B - A is the delivery jitter.
--
--   qemu/run lm3s6965evb bench/hw_timer.lua [TIMER [MS]]   (0, 200)
--   RTLUA_ICOUNT=shift=5,sleep=off qemu/run ...            (a real board's pace)
--
-- The handler allocates nothing (integers only, kept in upvalues), so the
-- collector does not add to the jitter it measures.
local n = math.tointeger(tonumber(arg and arg[1] or 0))
local ms = math.tointeger(tonumber(arg and arg[2] or 200))
local hz = rt.hz()
local cyc_per_us = hz // 1000000

for _, rate in ipairs({100, 1000, 5000, 10000}) do
  local expected = rate * ms // 1000
  local period = hz // rate -- exact on every board at these rates
  local handled, c0 = 0, 0
  local lo, hi = math.maxinteger, math.mininteger
  local function h(v)
    local late = rt.cycles() - (c0 + v * period)
    handled = handled + 1
    if late < lo then lo = late end
    if late > hi then hi = late end
  end
  local d0 = rt.stats().events_dropped
  local ok, t = pcall(hw.timer, n, rate, h)
  c0 = rt.cycles()
  if not ok then
    print(string.format("hz=%d not run (%s)", rate, t))
  else
    local span = hz // 1000 * ms
    while rt.cycles() - c0 < span do end
    t:stop()
    rt.poll() -- what the ring still holds
    print(string.format("hz=%d expected=%d count=%d handled=%d dropped=%d late_us_min=%.1f late_us_max=%.1f",
      rate, expected, t:count(), handled, rt.stats().events_dropped - d0,
      lo / cyc_per_us, hi / cyc_per_us))
  end
end
