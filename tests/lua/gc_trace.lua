-- The collector's trace (rt.stats("trace"), builds with RTLUA_GC_TRACE:
-- tests/run's host-checked): entries of {start, cycles, kind}, oldest
-- first, for the steps, emergencies and ticks.  Elsewhere rt.stats says
-- the build has none.
local ok, tr = pcall(rt.stats, "trace")
if not ok then
  assert(tostring(tr):find("RTLUA_GC_TRACE", 1, true), tr)
  print("gc_trace skipped (no trace in this build: RTLUA_GC_TRACE)")
  return
end
local t0 = rt.cycles()
-- garbage until the trace holds a tick and paced and assist steps
local kinds = {}
local n = 0
repeat
  for i = 1, 20000 do local g = {i, tostring(i)} end
  tr = rt.stats("trace")
  kinds = {}
  for i = 3, #tr, 3 do kinds[tr[i]] = (kinds[tr[i]] or 0) + 1 end
  n = n + 1
until (kinds[0] and kinds[1] and kinds[2]) or n == 200
assert(#tr > 0 and #tr % 3 == 0, #tr)
assert(kinds[0] and kinds[1] and kinds[2], "ticks, paced and assist steps")
for i = 1, #tr, 3 do
  local start, cycles, kind = tr[i], tr[i + 1], tr[i + 2]
  assert(math.type(start) == "integer" and math.type(cycles) == "integer")
  assert(kind >= 0 and kind <= 3, kind)
  assert(cycles >= 0, cycles)
end
-- the newest step began after t0 (the clock is the trace's, mod 2^32)
local last
for i = #tr - 2, 1, -3 do
  if tr[i + 2] == 1 or tr[i + 2] == 2 then last = tr[i] break end
end
local since = (last - t0) & 0xffffffff
assert(since >= 0 and since < 0x7fffffff, "a step logged since the start")
print("ok")
