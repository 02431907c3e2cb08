-- bench/gc_adversarial.lua WORKLOAD [N [MODE [MS]]] | workloads — a workload written
-- to break the collector's bound, run on a board at the default pacing
-- (100 us steps, 25% utilisation); prints JSON lines (runner
-- "gc_adversarial"), at the end one of kind "adv": workload, n, worst
-- (the worst step, cycles), steps, emergencies (but for those reading
-- the collector's trace caused: mmu_exact), cycles (completed).
-- MODE (bench/report runs each):
--   free  (default) the garbage phase (churn) runs at the default pacing,
--         and prints the minimum mutator utilisation over 1 ms windows it
--         saw (the mutator's own time between iterations: an iteration
--         over 5/4 of the fastest one plus 1 us lost the excess to the
--         collector or an interrupt):
--           kind "mmu": workload, n, window_us (1000), permille
--         and, in a build with the collector's trace (RTLUA_GC_TRACE,
--         rt.stats("trace")), the same from the collector's own record
--         of its steps and emergencies, exact to the cycle where the
--         mutator's figure is only as fine as an iteration (90 us at
--         shift=5), over the last steps the ring holds:
--           kind "mmu_exact": workload, permille, steps, ms (covered),
--           gc_pct (the collector's share of that time)
--   loop  the garbage phase runs from rt.loop at 1 kHz, each body busy for
--         850 us of the period (150 us of slack for the collector):
--           kind "loop": workload, misses, worst_late_us
--   live  the workload's largest live set (in_use after full collections
--         at its fullest point), to tell whether it fits in an arena:
--           kind "live": workload, n, live (bytes), arena (bytes)
-- MS caps each garbage phase at MS ms (bench/report --smoke: short runs).
-- `workloads` prints the workloads, one "@workload NAME" line each: every key
-- of `defaults` below (a new workload needs its entry there to be run).
-- Workloads (issue 12's list):
--   list      a linked list of N nodes built while garbage is made
--   listloop  rt.loop at 1 kHz for N ms: each body appends 200 nodes to a
--             list (fewer if 200 take over 500 us), dropped every 15 periods (prints misses and the
--             worst lateness in every mode)
--   weakk     a weak-key table of N entries, kept while garbage is made
--   weakv     a weak-value table of N entries
--   weakkdie  a weak-key table of N entries whose keys die together
--   weakvdie  a weak-value table of N entries whose values die together
--   ephchain  a chain of N ephemerons (each value the next key)
--   finlive   N live objects with __gc
--   findie    N objects with __gc dying together
--   finshort  N short-lived tables with __gc, made one after another
--   fingc     N small tables live while garbage is made, and every 64th
--             iteration an object whose __gc makes 4 small tables (in
--             rt.loop the calls run in the slack)
--   deepco    8 coroutines N frames deep, resumed in turn (each resume
--             unwinds and rebuilds the whole stack; in loop mode the top
--             16 frames)
--   idleco    N idle coroutines
--   deepmain  the main thread N frames deep
--   deepupv   the main thread N frames deep, each with a local captured
--             by a closure (N open upvalues)
--   codie     N coroutines made 100 frames deep every 4,096 iterations, each frame's
--             local captured by a closure that outlives them, dropped
--             at the next round (dead threads with live upvalues)
--   rehash    one table grown to N hash keys and 2N array slots (big
--             rehashes), kept while garbage is made
--   longstr   eight N-byte strings (string.rep) as keys, one built by
--             concatenation, kept while 4 KiB strings are made
--   full      the arena 90% live (small tables each holding a string of
--             arg[6] (200) bytes; 0: no string), then rt.loop at 1 kHz for
--             N ms, each body making arg[5] (300) small tables
--   frag      the arena fragmented by 2 KiB holes between live tables
--             (under half of it live), then rt.loop at 1 kHz for N ms,
--             every 10th body making a 100 KiB string
-- The loop workloads also print a "loop" record with assists,
-- worst_body_assists, worst_body_assist_us, emergencies and
-- worst_emergency_us besides (or, where an allocation failed in a body,
-- with error, bodies, emergencies and emergencies_failed).
-- The figures leave out the script's own loading (on a board it is read
-- over semihosting, whose calls QEMU times by the host's clock).
rt.stats("reset")
local W = arg and arg[1] or "list"
local N = tonumber(arg and arg[2] or 0)
local MODE = arg and arg[3] or "free"
local MS = math.tointeger(tonumber(arg and arg[4] or nil))
local defaults = {list = 20000, listloop = 1000, weakk = 20000, weakv = 20000,
                  weakkdie = 20000, weakvdie = 20000, ephchain = 2000,
                  finlive = 20000, findie = 20000, fingc = 1000, deepco = 3000, idleco = 10,
                  deepmain = 3000, deepupv = 2000, codie = 4, finshort = 200000, rehash = 40000, longstr = 65536,
                  full = 1000, frag = 1000}
if W == "workloads" then
  local names = {}
  for k in pairs(defaults) do names[#names + 1] = k end
  table.sort(names)
  for _, k in ipairs(names) do print("@workload " .. k) end
  return
end
if N == 0 then N = defaults[W] or 1000 end
local hz = rt.hz()

-- live mode: the largest in_use after full collections, at the calls.
local live_max = 0
local function live()
  if MODE ~= "live" then return end
  collectgarbage()
  collectgarbage()
  local u = rt.stats().in_use
  if u > live_max then live_max = u end
end

-- free mode's MMU over 1 ms: the last pauses (time taken from the
-- mutator) in a ring; at each pause's end, the windows ending there and
-- those starting at a pause that are now whole.
local MMU_RING, MMU_W = 64, hz // 1000
local ps, pe = {}, {}
for i = 1, MMU_RING do ps[i] = 0 pe[i] = 0 end
local np, lefts, mmu_min = 0, 1, nil
local function busy_in(a, b) -- paused cycles of the ring inside [a, b]
  local sum = 0
  for j = np, math.max(1, np - MMU_RING + 1), -1 do
    local x, y = ps[(j - 1) % MMU_RING + 1], pe[(j - 1) % MMU_RING + 1]
    if y <= a then break end
    if x < a then x = a end
    if y > b then y = b end
    if y > x then sum = sum + (y - x) end
  end
  return sum
end
local function pause(s, e)
  np = np + 1
  ps[(np - 1) % MMU_RING + 1], pe[(np - 1) % MMU_RING + 1] = s, e
  local b = busy_in(e - MMU_W, e)
  if lefts < np - MMU_RING + 1 then lefts = np - MMU_RING + 1 end
  while lefts <= np and ps[(lefts - 1) % MMU_RING + 1] + MMU_W <= e do
    local a = ps[(lefts - 1) % MMU_RING + 1]
    local b2 = busy_in(a, a + MMU_W)
    if b2 > b then b = b2 end
    lefts = lefts + 1
  end
  local m = 1000 - b * 1000 // MMU_W
  if not mmu_min or m < mmu_min then mmu_min = m end
end

local record -- (below)

-- The exact MMU over 1 ms windows from the collector's trace of the
-- churn that began at cycle c0 (free mode, trace builds only): the
-- windows that start at a step's start or end at a step's end hold the
-- worst.
local own_emergencies = 0 -- those the trace's table caused (below)
local function mmu_exact(c0)
  -- The trace comes as one table of 3 x 4,096 integers (86 KB at 4,096
  -- steps): in a 64 or 256 KiB arena making it may take an emergency,
  -- which is this script's, not the workload's (the "adv" record leaves
  -- it out).
  local e0 = rt.stats().emergencies
  local ok, tr = pcall(rt.stats, "trace")
  own_emergencies = own_emergencies + rt.stats().emergencies - e0
  if not ok then return end
  local w, s, e = hz // 1000, {}, {}
  -- (the trace's clock is port_cycles, 32 bits: times from c0, mod 2^32,
  -- in either number model)
  for i = 1, #tr, 3 do
    local t = (tr[i] - c0) & 0xffffffff
    if tr[i + 2] ~= 0 and t >= 0 and t < 0x7fffffff then
      s[#s + 1], e[#s + 1] = t, t + tr[i + 1]
    end
  end
  tr = nil
  local n = #s
  if n < 2 or e[n] - s[1] < w then return end
  local function busy(a, b, j)
    local sum = 0
    while j <= n and s[j] < b do
      local x, y = s[j], e[j]
      if x < a then x = a end
      if y > b then y = b end
      if y > x then sum = sum + y - x end
      j = j + 1
    end
    return sum
  end
  local worst, lo, total = 0, 1, 0
  for j = 1, n do
    total = total + e[j] - s[j]
    if s[j] + w <= e[n] then worst = math.max(worst, busy(s[j], s[j] + w, j)) end
    local a = e[j] - w
    if a >= s[1] then
      while e[lo] <= a do lo = lo + 1 end
      worst = math.max(worst, busy(a, e[j], lo))
    end
  end
  record("mmu_exact", '"ms": "ms", "gc_pct": "%"',
         {"workload", W, "permille", 1000 - worst * 1000 // w, "steps", n,
          "ms", (e[n] - s[1]) / (hz / 1000), "gc_pct", 100 * total / (e[n] - s[1])})
end

local ARENA = rt.stats().arena
local loop_misses, loop_late, looped = 0, 0, false
-- garbage for `ms` milliseconds of the board's time, calling `tick` now
-- and then (loop mode: from rt.loop at 1 kHz, 850 us of work a period)
local function churn(ms, tick)
  if MS and MS < ms then ms = MS end
  live()
  if MODE == "live" then return end
  local k = 0
  -- Iterations until `span` cycles have passed, the last one started
  -- only if the fastest iteration seen still fits (so an rt.loop body
  -- overruns its span only by what the collector took).
  -- In rt.loop a body makes at most about a 16th of the free memory in
  -- garbage (then it only spins): inside a body the collector takes no
  -- time but a capped assist, and what it cannot catch up with is "not
  -- enough memory", by design.
  local function work(span, watch)
    local t0 = rt.cycles()
    local last, base = t0, 0
    -- (collectgarbage("count"), not rt.stats(), whose table and quantiles
    -- cost 70k cycles at shift=5, 2.8 ms: a body must not measure itself
    -- out of its period)
    local cap = watch and math.huge or
      (ARENA - math.floor(collectgarbage("count") * 1024)) // 2048
    local made = 0
    while last - t0 + base < span do
      if made < cap then
        local g = {k, k + 1}
        g.s = "g" .. k
        made = made + 1
      end
      k = k + 1
      local now = rt.cycles()
      local d = now - last
      if base == 0 or d < base then base = d
      elseif watch and d > base + base // 4 + hz // 1000000 then
        pause(last + base, now)
        now = rt.cycles() -- the bookkeeping is not a pause
      end
      if tick and k % 64 == 0 then tick(k) now = rt.cycles() end
      last = now
    end
  end
  if MODE == "loop" then
    looped = true
    local busy = hz // 1000000 * 850
    local r = rt.loop(1, function () work(busy, false) end, ms)
    loop_misses = loop_misses + r.misses
    if r.worst_late_us > loop_late then loop_late = r.worst_late_us end
  else
    local c0 = rt.cycles()
    work(hz // 1000 * ms, true)
    mmu_exact(c0)
  end
end

local keep

-- One JSON line: runner, kind, units, then the fields (a string that of
-- a Lua string, null that of nil, a float to 0.1).
function record(kind, units, fields)
  local out = {string.format('{"runner": "gc_adversarial", "kind": "%s", ' ..
                             '"units": {%s}', kind, units)}
  for i = 1, #fields, 2 do
    local v = fields[i + 1]
    if type(v) == "string" then
      v = '"' .. v:gsub('[%c"\\]', function (c)
        return string.format("\\u%04x", c:byte())
      end) .. '"'
    elseif v == nil then
      v = "null"
    elseif math.type(v) == "float" then
      v = string.format("%.1f", v)
    end
    out[#out + 1] = string.format('"%s": %s', fields[i], v)
  end
  print(table.concat(out, ", ") .. "}")
end

-- rt.loop under pcall: an allocation that fails inside a body ends the
-- loop with "not enough memory", reported as such
local function loop(period, fn, n)
  local done, ok, r = 0, nil, nil
  ok, r = pcall(rt.loop, period, function (...) done = done + 1 return fn(...) end, n)
  if not ok then
    local s = rt.stats()
    record("loop", "", {"workload", W, "error", tostring(r), "bodies", done,
                        "emergencies", s.emergencies, "emergencies_failed",
                        s.emergencies_failed})
    return {misses = -1, worst_late_us = -1}
  end
  return r
end

local function loop_report(r)
  local s = rt.stats()
  record("loop", '"worst_late_us": "us", "worst_body_assist_us": "us", ' ..
         '"worst_emergency_us": "us"',
         {"workload", W, "misses", r.misses, "worst_late_us",
          r.worst_late_us + 0.0, "assists", r.assists,
          "worst_body_assists", r.worst_body_assists, "worst_body_assist_us",
          r.worst_body_assist_us, "emergencies", s.emergencies,
          "worst_emergency_us", s.worst_emergency_us + 0.0})
end

if W == "list" then
  local head
  for i = 1, N do
    head = {next = head, v = i}
    local g = {i} -- garbage beside each node
  end
  keep = head
  churn(200)
elseif W == "listloop" then
  -- 200 nodes a period, fewer where 200 take over 500 us (shift=5: the
  -- body alone would overrun the period, whatever the collector does)
  local per, t0, h = 200, rt.cycles(), nil
  for i = 1, 200 do h = {next = h, v = i} end
  local t = rt.cycles() - t0
  if t > hz // 2000 then per = math.max(1, 200 * (hz // 2000) // t) end
  local head, n = nil, 0
  local r = loop(1, function ()
    n = n + 1
    if n % 15 == 0 then head = nil end
    for i = 1, per do head = {next = head, v = i} end
    if n % 15 == 14 then live() end
  end, MODE == "live" and 15 or N)
  loop_report(r)
elseif W == "full" then
  local per = tonumber(arg and arg[5] or 300)
  local isz = tonumber(arg and arg[6] or 200)
  -- in chunks of 64: one array growing to thousands of entries would
  -- need a block larger than the holes the strings' temporaries leave
  local live, k = {}, 0
  local function used() local s = rt.stats() return s.in_use / s.arena end
  while used() < 0.9 do
    local chunk = {}
    for j = 1, 64 do
      k = k + 1
      chunk[j] = isz > 0 and {string.rep("x", isz) .. k} or {k}
    end
    live[#live + 1] = chunk
  end
  keep = live
  local r = loop(1, function ()
    for i = 1, per do local t = {i} end
  end, N)
  loop_report(r)
elseif W == "frag" then
  local live, k = {}, 0
  collectgarbage("stop")
  -- 2 KiB of garbage after each live table, until the arena is 85% used:
  -- once swept, the holes between live tables are 2 KiB each
  -- (the free memory is looked at every table: a batch of 64 between
  -- looks made 128 KiB of garbage, past the 85% in arenas of 256 KiB and
  -- less, whose fill then ran out of memory with the collector stopped
  -- and took emergency collections that were not the workload's)
  local pad = string.rep("y", 256)
  while collectgarbage("count") * 1024 < ARENA * 0.85 do
    k = k + 1
    live[k] = {k}
    local junk = string.rep(pad, 8) .. k
  end
  collectgarbage("restart")
  keep = live
  local piece, n = string.rep("z", 1024), 0
  local r = loop(1, function ()
    n = n + 1
    if n % 10 == 0 then local big = string.rep(piece, 100) end
  end, N)
  loop_report(r)
elseif W == "weakk" then
  local t = setmetatable({}, {__mode = "k"})
  local ks = {}
  for i = 1, N do local k = {} ks[i] = k t[k] = i end
  keep = {t, ks}
  churn(300)
elseif W == "weakv" then
  local t = setmetatable({}, {__mode = "v"})
  local vs = {}
  for i = 1, N do local v = {} vs[i] = v t[i] = v end
  keep = {t, vs}
  churn(300)
elseif W == "weakkdie" then
  -- the keys die together while the table lives: atomic finds the whole
  -- table holding dead keys
  local t = setmetatable({}, {__mode = "k"})
  local ks = {}
  for i = 1, N do local k = {} ks[i] = k t[k] = i end
  live()
  ks = nil
  keep = t
  -- garbage until two cycles have ended: the second finds them dead
  local c0 = rt.stats().cycles_completed
  repeat for i = 1, 2000 do local g = {i} end
  until rt.stats().cycles_completed >= c0 + 2
  churn(300)
elseif W == "weakvdie" then
  local t = setmetatable({}, {__mode = "v"})
  local vs = {}
  for i = 1, N do local v = {} vs[i] = v t[i] = v end
  live()
  vs = nil
  keep = t
  -- garbage until two cycles have ended: the second finds them dead
  local c0 = rt.stats().cycles_completed
  repeat for i = 1, 2000 do local g = {i} end
  until rt.stats().cycles_completed >= c0 + 2
  churn(300)
elseif W == "ephchain" then
  local e = setmetatable({}, {__mode = "k"})
  -- inserted so that each value is reached only after many passes
  local chain = {}
  for i = 1, N do chain[i] = {} end
  for i = N, 2, -1 do e[chain[i - 1]] = chain[i] end
  keep = {e, chain[1]}
  churn(300)
elseif W == "finlive" then
  local mt = {__gc = function () end}
  local t = {}
  for i = 1, N do t[i] = setmetatable({}, mt) end
  keep = t
  churn(300)
elseif W == "findie" then
  local mt = {__gc = function () end}
  local t = {}
  for i = 1, N do t[i] = setmetatable({}, mt) end
  live()
  t = nil
  churn(300)
elseif W == "fingc" then
  local mt = {__gc = function ()
    local t = {}
    for i = 1, 4 do t[i] = {i} end
  end}
  local t = {}
  for i = 1, N do t[i] = {i} end
  keep = t
  churn(300, function () setmetatable({}, mt) end)
elseif W == "finshort" then
  local mt = {__gc = function () end}
  for i = 1, N do
    local o = setmetatable({i}, mt)
    if i == 64 then live() end
  end
  churn(100)
elseif W == "deepco" then
  local cos = {}
  local function deep(n) if n == 0 then coroutine.yield() return 0 end
    return 1 + deep(n - 1) end
  -- Free mode: each resume unwinds the whole stack and builds it again
  -- (every frame changed).  Loop mode: only the top 16 frames, since a
  -- whole one is 6,000 calls (20,300 cycles at 3,000 frames: 812 us at
  -- shift=0, 26 ms at shift=5), and even 100 frames are 870 us at
  -- shift=5: the body alone would overrun its period.
  local top = MODE == "loop" and math.min(16, N) or N
  local function base(n) if n == 0 then while true do deep(top) end end
    return 1 + base(n - 1) end
  for i = 1, 8 do
    cos[i] = coroutine.wrap(function () base(N - top) end)
    cos[i]()
  end
  churn(300, function (k) cos[k // 64 % 8 + 1]() end)
elseif W == "idleco" then
  local cos = {}
  for i = 1, N do
    cos[i] = coroutine.create(function () local t = {} coroutine.yield() end)
    coroutine.resume(cos[i])
  end
  keep = cos
  churn(300)
elseif W == "deepmain" then
  local function deep(n) if n == 0 then churn(300) return 0 end
    return 1 + deep(n - 1) end
  deep(N)
elseif W == "deepupv" then
  local fs = {}
  local function deep(n)
    local x = n
    fs[n % 8 + 1] = function () return x end
    if n == 0 then churn(300) return 0 end
    return 1 + deep(n - 1)
  end
  deep(N)
elseif W == "codie" then
  local fs, cos = {}, {}
  local function deep(n)
    local x = n
    fs[#fs + 1] = function () return x end
    if n == 0 then coroutine.yield() return 0 end
    return 1 + deep(n - 1)
  end
  local function round()
    fs, cos = {}, {}
    for i = 1, N do
      cos[i] = coroutine.create(deep)
      coroutine.resume(cos[i], 100)
    end
  end
  -- (live mode: the set of coroutines is what the live set holds at its
  -- fullest, and the garbage phase never makes one there)
  if MODE == "live" then round() end
  churn(300, function (k)
    if k % 4096 ~= 0 then return end
    round()
  end)
elseif W == "rehash" then
  local t = {}
  for i = 1, N do t[-i] = i local g = {i} end
  for i = 1, 2 * N do t[i] = i if i % 2 == 0 then local g = {i} end end
  keep = t
  churn(200)
elseif W == "longstr" then
  local ss, t = {}, {}
  for i = 1, 8 do
    local x = string.rep("x", N - 1) .. (i % 10)
    ss[i] = x
    t[x] = i -- hashes the long key
  end
  local c = ""
  for _ = 1, N // 4096 do c = c .. string.rep("y", 4096) end
  keep = {ss, t, c}
  churn(200, function (k) local _ = string.rep("z", 4096) .. k end)
else
  error("unknown workload " .. W)
end
if MODE == "live" then
  live()
  record("live", '"live": "bytes", "arena": "bytes"',
         {"workload", W, "n", N, "live", live_max, "arena", rt.stats().arena})
end
if looped then
  record("loop", '"worst_late_us": "us"',
         {"workload", W, "misses", loop_misses, "worst_late_us",
          loop_late + 0.0})
end
if mmu_min then
  record("mmu", '"window_us": "us", "permille": "1/1000"',
         {"workload", W, "n", N, "window_us", 1000, "permille", mmu_min})
end
local s = rt.stats()
record("adv", '"worst": "cycles at rt.hz()"',
       {"workload", W, "n", N, "worst", s.worst_step_cycles, "steps", s.steps,
        "emergencies", s.emergencies - own_emergencies,
        "cycles", s.cycles_completed})
