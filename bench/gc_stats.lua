-- bench/gc_stats.lua [LIVE_KIB [MS]] — the collector seen from Lua, on a
-- board: what rt.stats() reports after a script keeps LIVE_KIB KiB of
-- small tables and strings alive (default 256) and replaces them at
-- random, making garbage, for MS milliseconds (default 1000) of the
-- board's time.  The collector runs at its default pacing (25% of each
-- tick, 100 us steps) at the VM's safe points.
--
-- Prints JSON lines, one a measurement (bench/report.py makes the table):
--   {"runner": "gc_stats", "kind": "stats", "units": {...}, "live_kib",
--    "ms", "iterations", "steps", "worst_us", "p999_us", "median_us",
--    "cycles", "emergencies", "assists", "in_use", "arena"}
--   {"runner": "gc_stats", "kind": "hist", "units": {...}, "live_kib",
--    "bucket", "steps"}   (steps of [2^(bucket-1), 2^bucket) cycles)
-- rt.stats() counts from start-up, so the figures include the steps made
-- while the live set was built.

local LIVE_KIB = tonumber(arg and arg[1] or 256)
local MS = tonumber(arg and arg[2] or 1000)
-- about 80 bytes an entry: a table of two values and a short string
local N = LIVE_KIB * 1024 // 80

-- a deterministic generator, the same in both number models (31 bits)
local seed = 12345
local function rnd(n)
  seed = (seed * 1103515245 + 12345) & 0x7fffffff
  return seed % n + 1
end

local live = {}
for i = 1, N do live[i] = {i, "e" .. i} end

local hz = rt.hz()
local span = hz // 1000 * MS -- (no overflow with 32-bit integers)
local t0 = rt.cycles()
local made = 0
while rt.cycles() - t0 < span do
  local j = rnd(N)
  live[j] = {j, "r" .. rnd(1000000)} -- the old entry dies
  local g = {made, made + 1, made + 2} -- short-lived garbage
  g.s = string.format("%d:%d", j, made)
  made = made + 1
end

local s = rt.stats()
print(string.format('{"runner": "gc_stats", "kind": "stats", "units": ' ..
                    '{"ms": "ms", "worst_us": "us", "p999_us": "us", ' ..
                    '"median_us": "us", "in_use": "bytes", ' ..
                    '"arena": "bytes"}, "live_kib": %d, "ms": %d, ' ..
                    '"iterations": %d, "steps": %d, "worst_us": %.1f, ' ..
                    '"p999_us": %.1f, "median_us": %.1f, "cycles": %d, ' ..
                    '"emergencies": %d, "assists": %d, "in_use": %d, ' ..
                    '"arena": %d}', LIVE_KIB, MS, made, s.steps,
                    s.worst_step_us, s.p999_step_us, s.median_step_us,
                    s.cycles_completed, s.emergencies, s.assists, s.in_use,
                    s.arena))
for i = 1, #s.hist do
  if s.hist[i] > 0 then
    print(string.format('{"runner": "gc_stats", "kind": "hist", "units": ' ..
                        '{"bucket": "log2 cycles"}, "live_kib": %d, ' ..
                        '"bucket": %d, "steps": %d}', LIVE_KIB, i, s.hist[i]))
  end
end
