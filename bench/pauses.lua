-- Mutator pauses that are not the collector's: the longest single
-- operation of each workload, in cycles of rt.cycles() (at rt.hz()).
--
--   rtlua bench/pauses.lua [strings [colliding]]
--   qemu/run mps2-an385 bench/pauses.lua [strings [colliding]]
--
-- strings (default 40000): short strings interned and kept, so that the
-- string table grows past 32,768 buckets (the growth allocates and
-- clears a new bucket array).  colliding (default 4000): 8-byte strings
-- built to share one hash under a known key (below), interned and kept:
-- with the fixed, public seed the hash had before, an attacker who knew
-- the firmware could build such strings ahead of time.  Each workload prints one JSON line
--   {"runner": "pauses", "kind": "pause", "units": ..., "op": NAME,
--    "worst": CYCLES, "ops": N, "hz": rt.hz()}
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
  print(string.format('{"runner": "pauses", "kind": "pause", "units": ' ..
                      '{"worst": "cycles at hz"}, "op": "%s", "worst": %d, ' ..
                      '"ops": %d, "hz": %d}', name, worst, ops, rt.hz()))
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
if not ok then
  print('{"runner": "pauses", "kind": "skipped", "op": "rep1m", ' ..
        '"why": "memory"}')
end
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

-- Strings built to share one hash under a key the attacker knows: the
-- key vm/strhash.h makes from 0x2545F491, the seed that was fixed and
-- public before RAM strings had a per-boot one.  For 8-byte strings the
-- hash is a function of the length and of NH = (w0 + k0) * (w1 + k1),
-- exact in 64 bits, so every factorization A * B of one number C with
-- both factors below 2^32 gives a string w0 = A - k0, w1 = B - k1 of
-- that hash.  32-bit arithmetic only, so that both number models run it;
-- the factors are kept below 2^32 by their logarithms.
local M32 = 0xFFFFFFFF
local MUL, MIX, FIN = 0x9E3779B1, 0x85EBCA77, 0x85A308D3
local function hash_key(seed)
  local k, x = {}, seed
  for i = 1, 2 do
    x = (x + MUL) & M32
    local z = ((x ~ (x >> 16)) * MIX) & M32
    z = ((z ~ (z >> 13)) * FIN) & M32
    k[i] = z ~ (z >> 16)
  end
  return k
end
local key = hash_key(0x2545F491)
local primes = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31}
local exps = {12, 5, 3, 2, 1, 1, 1, 1, 1, 1, 1}
local logs, total = {}, 0
for i, p in ipairs(primes) do
  logs[i] = math.log(p, 2)
  total = total + logs[i] * exps[i]
end
local function le32(w)
  return string.char(w & 255, (w >> 8) & 255, (w >> 16) & 255, (w >> 24) & 255)
end
local colliding, pick = {}, {}
local function divisors(i, la)
  if #colliding == ncollide then return end
  if i > #primes then
    if la < 31.99 and total - la < 31.99 then
      local a, b = 1, 1
      for j = 1, #primes do
        for _ = 1, pick[j] do a = (a * primes[j]) & M32 end
        for _ = pick[j] + 1, exps[j] do b = (b * primes[j]) & M32 end
      end
      colliding[#colliding + 1] = le32((a - key[1]) & M32) .. le32((b - key[2]) & M32)
    end
    return
  end
  for e = 0, exps[i] do
    pick[i] = e
    divisors(i + 1, la + e * logs[i])
  end
end
divisors(1, 0)
-- The pieces are made before timing: only the interning is timed.
local parts = {}
ncollide = #colliding
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
