-- Latency as a script sees it: the longest gap between two consecutive
-- iterations of an allocating loop, while a large live set keeps the
-- collector busy.  The same file runs under rtlua and under the reference
-- lua5.4 (bench/run-latency-host runs both).
--
--   lua latency.lua [live [iterations [histfile]]]
--   lua latency.lua --smoke [histfile]     (live 2000, iterations 20000)
--
-- live (default 100000): entries in the live table; each entry is a small
-- table holding a number and a fresh string.  Every iteration replaces
-- one entry chosen by a fixed-seed generator, so the live set keeps its
-- size while every iteration leaves a table and a string as garbage and
-- writes a new object into the big table (the write barrier's case).
-- iterations (default 2000000): timed iterations after the set is built.
--
-- Clock: rt.cycles()/rt.hz() in rtlua, else the hrclock module (a small C
-- module, bench/hrclock.c, with the same two functions) for lua5.4.
--
-- Gaps go into a log-linear histogram (exact below 128 ns, then 64
-- buckets per power of two: a bucket's lower bound is at most 1/64 below
-- any gap in it), set up before timing starts so recording allocates
-- nothing.  A second histogram holds the gaps in CPU time (os.clock:
-- process CPU time, 1 us steps on Linux), which leave out the time the
-- process was not running.  Printed, one line:
--   worst_gap_us=W p999_us=P median_us=M cpu_worst_gap_us=CW
--   cpu_p999_us=CP iterations=N live=L seconds=S
-- W and CW are exact; the others are bucket lower bounds; S is the timed
-- loop's length.  Under rtlua a second line gives the collector's
-- settings (rt.budget) and figures (rt.stats), and the tick rate seen
-- during the loop, which shows that the time pacing ran:
--   rtlua_gc budget=F step_us=U reserve=R tick_hz=H steps=S
--   worst_step_us=W cycles=C assists=A emergencies=E
-- histfile, when given, receives both histograms: a comment line, then
-- one row per non-empty bucket "lower_us upper_us wall_count cpu_count".
local args = {table.unpack(arg or {})}
if args[1] == "--smoke" then args = {2000, 20000, args[2]} end
local live_n = math.tointeger(tonumber(args[1])) or 100000
local iters = math.tointeger(tonumber(args[2])) or 2000000
local histfile = args[3]

local clock = rt or require "hrclock"
local now = clock.cycles
local hz = clock.hz()
local cpu = os.clock

-- Bucket of a gap of ns nanoseconds: exact below 128, then the top seven
-- bits of ns (64..127) and the number of bits shifted out.
local function bucket(ns)
  if ns < 128 then return ns end
  local e = 0
  while ns >= 128 do ns = ns >> 1; e = e + 1 end
  return e * 64 + ns
end
local function lower_ns(b)
  if b < 128 then return b end
  local e = b // 64 - 1
  return (b - e * 64) << e
end

local BUCKETS = 64 * 40 -- covers gaps up to 2^40 ns
local hist, chist = {}, {}
for b = 0, BUCKETS do hist[b], chist[b] = 0, 0 end

-- Fixed-seed linear congruential generator: the same sequence wherever
-- integers have 64 bits (a 32-bit number model wraps to another one).
local seed = 12345
local function nextk()
  seed = (seed * 1103515245 + 12345) & 0x7fffffff
  return seed % live_n + 1
end

local liveset = {}
for i = 1, live_n do liveset[i] = {i, tostring(i)} end
collectgarbage()

local worst, cworst, sum = 0, 0, 0
local ns_scale = 1000000000 // hz -- 1 on the host (a nanosecond clock)
local prev, cprev = now(), cpu()
local start, ticks0 = prev, rt and rt.ticks()
for i = 1, iters do
  local k = nextk()
  local e = {i, tostring(i)}
  sum = sum + #liveset[k][2]
  liveset[k] = e
  local t, c = now(), cpu()
  local gap = (t - prev) * ns_scale
  local cgap = c - cprev
  prev, cprev = t, c
  if gap > worst then worst = gap end
  if cgap > cworst then cworst = cgap end
  local b = bucket(gap)
  hist[b] = hist[b] + 1
  b = bucket(math.floor(cgap * 1e9 + 0.5))
  chist[b] = chist[b] + 1
end

-- The value at rank r (1-based) of the sorted gaps in histogram h, as a
-- bucket's lower bound.
local function at_rank(h, r)
  local seen = 0
  for b = 0, BUCKETS do
    seen = seen + h[b]
    if seen >= r then return lower_ns(b) end
  end
  return 0
end
local function us(ns) return string.format("%.1f", ns / 1000) end
local r999, r50 = iters - iters // 1000, (iters + 1) // 2

local seconds = (prev - start) * ns_scale / 1e9
print(string.format(
  "worst_gap_us=%s p999_us=%s median_us=%s cpu_worst_gap_us=%s cpu_p999_us=%s iterations=%d live=%d seconds=%.2f",
  us(worst), us(at_rank(hist, r999)), us(at_rank(hist, r50)),
  us(cworst * 1e9), us(at_rank(chist, r999)), iters, live_n, seconds))
if rt then
  local s = rt.stats()
  local fraction, cycles, reserve = rt.budget()
  print(string.format(
    "rtlua_gc budget=%.2f step_us=%.0f reserve=%d tick_hz=%.0f steps=%d worst_step_us=%.1f cycles=%d assists=%d emergencies=%d",
    fraction, cycles * 1e6 / hz, reserve, (rt.ticks() - ticks0) / seconds,
    s.steps, s.worst_step_us, s.cycles_completed, s.assists, s.emergencies))
end
if histfile then
  local f = assert(io.open(histfile, "w"))
  f:write("# gap histogram (", iters, " iterations, live ", live_n,
    "): lower_us upper_us wall_count cpu_count\n")
  for b = 0, BUCKETS - 1 do
    if hist[b] > 0 or chist[b] > 0 then
      f:write(string.format("%.3f %.3f %d %d\n", lower_ns(b) / 1000,
        lower_ns(b + 1) / 1000, hist[b], chist[b]))
    end
  end
  f:close()
end
-- The checksum keeps the reads live; it is the same under both.
io.stderr:write("checksum ", sum, "\n")
