-- bench/gc_adversarial.lua WORKLOAD [N] — a workload written to break the
-- collector's bound, run on a board at the default pacing (100 us steps);
-- prints one line:
--   @adv WORKLOAD N WORST_STEP_CYCLES STEPS EMERGENCIES CYCLES_COMPLETED
-- Workloads (issue 12's list):
--   list      a linked list of N nodes built while garbage is made
--   listloop  rt.loop at 1 kHz for N ms: each body appends 200 nodes to a
--             list, dropped every 15 periods (also prints misses and the
--             worst lateness)
--   weakk     a weak-key table of N entries, kept while garbage is made
--   weakv     a weak-value table of N entries
--   ephchain  a chain of N ephemerons (each value the next key)
--   finlive   N live objects with __gc
--   findie    N objects with __gc dying together
--   deepco    8 coroutines N frames deep, resumed in turn
--   idleco    N idle coroutines
--   deepmain  the main thread N frames deep
--   full      the arena 90% live (small tables each holding a string of
--             arg[4] (200) bytes; 0: no string), then rt.loop at 1 kHz for
--             N ms, each body making arg[3] (300) small tables
--   frag      the arena fragmented by 2 KiB holes between live tables
--             (under half of it live), then rt.loop at 1 kHz for N ms,
--             every 10th body making a 100 KiB string
-- The loop workloads also print
--   @loop WORKLOAD misses M worst_late_us L assists A worst_body_assists B
--         worst_body_assist_us U emergencies E worst_emergency_us X
local W = arg and arg[1] or "list"
local N = tonumber(arg and arg[2] or 0)
local defaults = {list = 20000, listloop = 1000, weakk = 20000, weakv = 20000, ephchain = 2000,
                  finlive = 20000, findie = 20000, deepco = 3000, idleco = 10,
                  deepmain = 3000, full = 1000, frag = 1000}
if N == 0 then N = defaults[W] or 1000 end
local hz = rt.hz()

-- garbage for `ms` milliseconds of the board's time, calling `tick` now
-- and then
local function churn(ms, tick)
  local t0, span, k = rt.cycles(), hz // 1000 * ms, 0
  while rt.cycles() - t0 < span do
    local g = {k, k + 1}
    g.s = "g" .. k
    k = k + 1
    if tick and k % 64 == 0 then tick(k) end
  end
end

local keep

-- rt.loop under pcall: an allocation that fails inside a body ends the
-- loop with "not enough memory", reported as such
local function loop(period, fn, n)
  local done, ok, r = 0, nil, nil
  ok, r = pcall(rt.loop, period, function (...) done = done + 1 return fn(...) end, n)
  if not ok then
    local s = rt.stats()
    print(string.format("@loop %s error after %d bodies: %s (emergencies %d, " ..
                        "failed %d)", W, done, tostring(r), s.emergencies,
                        s.emergencies_failed))
    return {misses = -1, worst_late_us = -1}
  end
  return r
end

local function loop_report(r)
  local s = rt.stats()
  print(string.format("@loop %s misses %d worst_late_us %.1f assists %s " ..
                      "worst_body_assists %s worst_body_assist_us %s " ..
                      "emergencies %d worst_emergency_us %.1f", W, r.misses,
                      r.worst_late_us, tostring(r.assists),
                      tostring(r.worst_body_assists),
                      tostring(r.worst_body_assist_us), s.emergencies,
                      s.worst_emergency_us))
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
  local head, n = nil, 0
  local r = loop(1, function ()
    n = n + 1
    if n % 15 == 0 then head = nil end
    for i = 1, 200 do head = {next = head, v = i} end
  end, N)
  loop_report(r)
elseif W == "full" then
  local per = tonumber(arg and arg[3] or 300)
  local isz = tonumber(arg and arg[4] or 200)
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
  local pad = string.rep("y", 256)
  while rt.stats().free > rt.stats().arena * 0.15 do
    for j = 1, 64 do
      k = k + 1
      live[k] = {k}
      local junk = string.rep(pad, 8) .. k
    end
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
  t = nil
  churn(300)
elseif W == "deepco" then
  local cos = {}
  local function deep(n) if n == 0 then coroutine.yield() return 0 end
    return 1 + deep(n - 1) end
  for i = 1, 8 do
    cos[i] = coroutine.wrap(function () while true do deep(N) end end)
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
else
  error("unknown workload " .. W)
end
local s = rt.stats()
print(string.format("@adv %s %d %d %d %d %d", W, N, s.worst_step_cycles,
                    s.steps, s.emergencies, s.cycles_completed))
