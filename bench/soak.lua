-- bench/soak.lua — a long soak of the collector under a control loop
-- (issue 17): rt.loop at 1 kHz for SECONDS of virtual time (default 600:
-- 600,000 iterations) with a workload that changes every second, in
-- turn: churn (short-lived tables and closures), a big table built up
-- and dropped, strings (formatting, concatenation, patterns), coroutines
-- (made, resumed, left suspended, dropped), a weak-keyed cache and
-- objects with finalizers.  Each keeps a bounded live set, so that the
-- arena after a full collection must come back to where it was.
--
--   qemu/run mps2-an385 bench/soak.lua [SECONDS]
--   (bench/report runs it at RTLUA_ICOUNT=shift=5,sleep=off: 32 ns an
--   instruction, a real 25 MHz board's pace)
--
-- After the first minute (or the first sixth of a shorter run) and at the
-- end, at the same point of the workloads' round, the live data of the
-- workloads is dropped and two full collections run; the arena in use
-- and its largest free block are measured there.  Prints one JSON line
-- (runner "soak", kind "soak"): iterations, deadline misses, the worst
-- lateness and the worst collector step (rt.stats), the arena at both
-- points, and the growth between them in percent (the target: at most 1).

local SECONDS = tonumber(arg and arg[1]) or 600
local N = SECONDS * 1000
local FIRST = math.max(6000, (N // 10 // 6000) * 6000) -- a whole round
if SECONDS >= 600 then FIRST = 60000 end
local ROUND = 6 -- workloads, one a second each

local k = 0 -- iterations so far
local finalized = 0
local ring, rn = {}, 0 -- recent objects of any workload
local RING = 64
local big -- the big table's workload
local cache = setmetatable({}, {__mode = "k"})
local cos = {} -- suspended coroutines
local keep = function(o)
  rn = rn % RING + 1
  ring[rn] = o
end

local fmeta = {__gc = function() finalized = finalized + 1 end}

local work = {
  function(i) -- churn
    local t = {i, i + 1, x = i * 2}
    local f = function() return t.x end
    keep({t, f})
  end,
  function(i) -- a big table, built over the second and dropped at its end
    if big == nil then big = {} end
    for j = 1, 4 do big["k" .. (i * 4 + j) % 4000] = {j} end
    if i % 1000 == 999 then big = nil end
  end,
  function(i) -- strings
    local s = string.format("%d:%g:%s", i, i / 7, "abc")
    s = s .. s:upper() .. tostring(i % 13)
    keep((s:gsub("%d", "#")))
  end,
  function(i) -- coroutines: a new one each iteration, resumed a few times
    local co = coroutine.wrap(function(a)
      local n = a
      while true do n = n + coroutine.yield(n) end
    end)
    co(i)
    cos[#cos + 1] = co
    if #cos > 20 then
      for j = 1, #cos do cos[j](1) end
      cos = {}
    end
  end,
  function(i) -- a weak-keyed cache: keys live while the ring holds them
    local key = {i}
    cache[key] = {value = i}
    if i % 3 == 0 then keep(key) end
  end,
  function(i) -- objects with finalizers
    keep(setmetatable({i}, fmeta))
  end,
}

local function body()
  local w = (k // 1000) % ROUND + 1
  work[w](k)
  k = k + 1
end

-- The workloads' live data dropped, two full collections (the second
-- frees what the first's finalizers released): the arena's level.
local function level()
  ring, rn, big, cos = {}, 0, nil, {}
  cache = setmetatable({}, {__mode = "k"}) -- (a table keeps its size)
  collectgarbage()
  collectgarbage()
  local s = rt.stats()
  return s.in_use, s.largest_free
end

-- rt.loop's result table is read into numbers and dropped before each
-- level: at the end, two would be live where one was after the first
-- minute (a few hundred bytes that are not the workload's).
local iterations, misses, late = 0, 0, 0
local function run(n)
  local r = rt.loop(1, body, n)
  iterations = iterations + r.iterations
  misses = misses + r.misses
  late = math.max(late, r.worst_late_us)
end
run(FIRST)
local in1, free1 = level()
run(N - FIRST)
local in2, free2 = level()
local s = rt.stats()

print(string.format('{"runner": "soak", "kind": "soak", "units": ' ..
                    '{"worst_late_us": "us", "worst_step_us": "us", ' ..
                    '"arena_first": "bytes", "largest_free_first": ' ..
                    '"bytes", "arena_last": "bytes", "largest_free_last": ' ..
                    '"bytes", "growth_pct": "%%"}, "iterations": %d, ' ..
                    '"misses": %d, "worst_late_us": %.1f, ' ..
                    '"worst_step_us": %.1f, "finalizers": %d, ' ..
                    '"arena_first": %d, "largest_free_first": %d, ' ..
                    '"arena_last": %d, "largest_free_last": %d, ' ..
                    '"growth_pct": %.3f, "emergencies": %d}', iterations,
                    misses, late, s.worst_step_us, finalized, in1, free1, in2,
                    free2, (in2 - in1) * 100 / in1, s.emergencies))
