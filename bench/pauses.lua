-- Mutator pauses that are not the collector's: the longest single
-- operation of each workload, in cycles of rt.cycles() (at rt.hz()).
--
--   rtlua bench/pauses.lua [strings [colliding]]
--   qemu/run mps2-an385 bench/pauses.lua [strings [colliding]]
--
-- strings (default 40000): short strings interned and kept, so that the
-- string table grows past 32,768 buckets (the growth allocates and
-- clears a new bucket array).  colliding (default 4000): 8-byte strings
-- built to share one hash under the public hash function and key (the
-- ROM strings' key, from vm/strhash.h), interned and kept: an attacker
-- who knows the firmware can build them.  Each workload prints one line
--   NAME worst=CYCLES ops=N
-- worst being the longest single operation.  The collector is stopped
-- while an operation is timed, so its steps are not counted; memory is
-- collected between workloads.
--
-- Workloads:
--   rep64k      string.rep("x", 65536)
--   rep1m       string.rep("x", 1000000)
--   repsep      string.rep("ab", 100000, ",")
--   intern      worst of `pfx .. i` for i = 1..strings (the table grows)
--   longhash    rawget(t, k) with a fresh 1,000,000-byte k (its hash)
--   collide     worst intern of a colliding string
local clock = rt.cycles
local nstrings = math.tointeger(tonumber(arg and arg[1])) or 40000
local ncollide = math.tointeger(tonumber(arg and arg[2])) or 4000

local function report(name, worst, ops)
  print(string.format("%-9s worst=%d ops=%d", name, worst, ops))
end

-- Time f(i) for i = 1..n, with the collector stopped; the worst one.
local function worst_of(n, f)
  collectgarbage()
  collectgarbage("stop")
  local worst = 0
  for i = 1, n do
    local t0 = clock()
    f(i)
    local d = clock() - t0
    if d > worst then worst = d end
  end
  collectgarbage("restart")
  return worst
end

-- Results are kept in a preallocated array, so storing one never
-- resizes a table (table rehash is another pause, not measured here).
local function array(n)
  local t = {}
  for i = 1, n do t[i] = false end
  return t
end

local keep = array(4)
report("rep64k", worst_of(3, function(i) keep[i] = string.rep("x", 65536) end), 3)
keep = array(4)
local ok = pcall(function()
  report("rep1m", worst_of(1, function(i) keep[i] = string.rep("x", 1000000) end), 1)
end)
if not ok then print("rep1m     skipped (memory)") end
keep = array(4)
report("repsep", worst_of(2, function(i) keep[i] = string.rep("ab", 100000, ",") end), 2)

keep = array(nstrings)
report("intern", worst_of(nstrings, function(i) keep[i] = "k" .. i end), nstrings)
keep = nil

do
  local t = {a = 1, b = 2, c = 3}
  collectgarbage()
  local k = string.rep("k", 1000000)
  report("longhash", worst_of(1, function() local _ = rawget(t, k) end), 1)
end

-- The public hash (vm/strhash.h with STR_SEED), in 32-bit arithmetic
-- that works in both number models, and strings that all reach one
-- internal state before the finaliser: each round is invertible, so the
-- last 4 bytes are solved for.
local M32 = 0xFFFFFFFF
local SEED, MUL = 0x2545F491, 0x9E3779B1
local function round(h, w)
  h = ((h ~ w) * MUL) & M32
  return h ~ (h >> 15)
end
local function inverse(a) -- of an odd a, mod 2^32 (Newton)
  local x = a
  for _ = 1, 5 do x = (x * (2 - a * x)) & M32 end
  return x
end
local MULINV = inverse(MUL)
local function unround(h) -- the w that takes state s to h: s ~ result
  h = h ~ (h >> 15) ~ (h >> 30)
  return (h * MULINV) & M32
end
local function le32(w)
  return string.char(w & 255, (w >> 8) & 255, (w >> 16) & 255, (w >> 24) & 255)
end
local TARGET = 0x12345678
local colliding = {}
for i = 1, ncollide do
  local w0 = (0x41414141 + i * 0x01000193) & M32
  local s = round(SEED ~ 8, w0)
  colliding[i] = le32(w0) .. le32(unround(TARGET) ~ s)
end
-- The pieces are made before timing: only the interning is timed.
local parts = {}
for i = 1, ncollide do
  parts[i] = {colliding[i]:sub(1, 4), colliding[i]:sub(5, 8)}
end
colliding = nil
keep = array(ncollide)
report("collide", worst_of(ncollide, function(i)
  local p = parts[i]
  keep[i] = p[1] .. p[2]
end), ncollide)
keep = nil
print("hz", rt.hz())
