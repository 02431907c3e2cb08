-- bench/rehash.lua — the longest single table store while a table grows:
-- the mutator pause a control loop sees when a table's parts grow
-- (issue 12).  rtlua only (rt.cycles).
--
--   rehash.lua [n [per_period [kinds]]]
--
-- n (default 100000): entries each table grows to.  per_period (default
-- 100): stores per iteration of the rt.loop run.  kinds (default
-- "array,hash"): which tables, comma-separated:
--   array  t[i] = i        (the array part doubles)
--   hash   t[-i] = i       (integer keys that never go to the array: the
--                           hash part doubles)
--   field  t["k" .. i] = i (string keys; the strings are made before the
--                           timed store, so interning is not measured)
-- Each kind runs twice:
--   free   a plain loop of stores, each timed by itself;
--   loop   the same stores from an rt.loop at 1 kHz with a 100 us
--          collector budget (rt.budget{cycles=}), per_period stores an
--          iteration, each timed by itself.
-- One JSON line per run (runner "rehash", kind "rehash"):
--   "table" K, "mode" M, "n" N, "worst_store_us" W, "at" I,
--   "mean_store_us" A, "worst_big_us" B [, "misses" X, "worst_late_us" L]
-- W is the longest store (the clock read's own cost taken off), at its
-- entry count I; A the mean; B (worst_big_us) the longest store once the
-- table holds more than BIG entries (past the small tables' rehash at
-- once).  A store here is the VM's whole SETTABLE, including whatever
-- growth it triggers.
local args = {table.unpack(arg or {})}
local N = math.tointeger(tonumber(args[1])) or 100000
local PER = math.tointeger(tonumber(args[2])) or 100
local KINDS = args[3] or "array,hash"
local BIG = 1024
local cycles, hz = rt.cycles, rt.hz()
local US = 1000000 / hz

-- The cost of two clock reads with nothing between them.
local base = math.huge
for _ = 1, 1000 do
  local c0 = cycles()
  local c1 = cycles()
  if c1 - c0 < base then base = c1 - c0 end
end

local keysets = {}
local function keys(kind)
  if keysets[kind] then return keysets[kind] end
  local k = {}
  if kind == "field" then
    for i = 1, N do k[i] = "k" .. i end
  end
  keysets[kind] = k
  return k
end

-- Grow one table by stores i = from..to; returns the worst store's
-- cycles, its index, the sum, and the worst past BIG entries.
local bigworst = 0
local function grow(kind, t, from, to, ks)
  local worst, at, sum = 0, 0, 0
  if kind == "array" then
    for i = from, to do
      local c0 = cycles()
      t[i] = i
      local d = cycles() - c0 - base
      sum = sum + d
      if d > worst then worst, at = d, i end
      if i > BIG and d > bigworst then bigworst = d end
    end
  elseif kind == "hash" then
    for i = from, to do
      local c0 = cycles()
      t[-i] = i
      local d = cycles() - c0 - base
      sum = sum + d
      if d > worst then worst, at = d, i end
      if i > BIG and d > bigworst then bigworst = d end
    end
  else
    for i = from, to do
      local k = ks[i]
      local c0 = cycles()
      t[k] = i
      local d = cycles() - c0 - base
      sum = sum + d
      if d > worst then worst, at = d, i end
      if i > BIG and d > bigworst then bigworst = d end
    end
  end
  return worst, at, sum
end

local function report(kind, mode, worst, at, sum, extra)
  print(string.format('{"runner": "rehash", "kind": "rehash", "units": ' ..
                      '{"worst_store_us": "us", "mean_store_us": "us", ' ..
                      '"worst_big_us": "us", "worst_late_us": "us"}, ' ..
                      '"table": "%s", "mode": "%s", "n": %d, ' ..
                      '"worst_store_us": %.1f, "at": %d, ' ..
                      '"mean_store_us": %.2f, "worst_big_us": %.1f%s}', kind,
                      mode, N, worst * US, at, sum * US / N, bigworst * US,
                      extra or ""))
  bigworst = 0
end

for kind in KINDS:gmatch("[^,]+") do
  local ks = keys(kind)
  collectgarbage()
  local t = {}
  local worst, at, sum = grow(kind, t, 1, N, ks)
  report(kind, "free", worst, at, sum)
  t = nil
  collectgarbage()

  local _, old_cycles = rt.budget()
  rt.budget{cycles = hz // 10000}
  t = {}
  local next_i = 1
  worst, at, sum = 0, 0, 0
  local r = rt.loop(1, function()
    local last = next_i + PER - 1
    if last > N then last = N end
    local w, a, s = grow(kind, t, next_i, last, ks)
    if w > worst then worst, at = w, a end
    sum = sum + s
    next_i = last + 1
    return next_i <= N
  end)
  rt.budget{cycles = old_cycles}
  report(kind, "loop", worst, at, sum,
         string.format(', "misses": %d, "worst_late_us": %.1f', r.misses,
                       r.worst_late_us))
  t = nil
  collectgarbage()
end
