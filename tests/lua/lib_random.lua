-- math.random and math.randomseed (xoshiro256**, Lua 5.4's sequence).
local function err(f, ...)
  local ok, m = pcall(f, ...)
  assert(not ok, "expected an error")
  return m
end
local function has(m, s) assert(string.find(m, s, 1, true), m) end
local big = math.maxinteger > 2^31

local a, b = math.randomseed(42)
assert(a == 42 and b == 0)
if big then
  -- the reference sequence for seed 42
  assert(math.random(1, 100) == 50)
  assert(string.format("%.14g", math.random()) == "0.54688311243421")
  assert(math.random(0) == -3807604385970496171 and math.random(10) == 6)
end
for _ = 1, 200 do
  local x = math.random()
  assert(x >= 0 and x < 1 and math.type(x) == "float")
  local i = math.random(5)
  assert(i >= 1 and i <= 5 and math.type(i) == "integer")
  local j = math.random(-3, 3)
  assert(j >= -3 and j <= 3)
end
assert(math.random(7, 7) == 7)
local seen = {}
for _ = 1, 200 do seen[math.random(4)] = true end
assert(seen[1] and seen[2] and seen[3] and seen[4])
math.randomseed(123, 4)
local s1 = {math.random(1000), math.random(1000), math.random()}
math.randomseed(123, 4)
local s2 = {math.random(1000), math.random(1000), math.random()}
assert(s1[1] == s2[1] and s1[2] == s2[2] and s1[3] == s2[3])
local r1, r2 = math.randomseed()
assert(math.type(r1) == "integer" and math.type(r2) == "integer")
local v = math.random(math.mininteger, math.maxinteger)
assert(math.type(v) == "integer")
has(err(math.random, 2, 1), "interval is empty")
has(err(math.random, -3), "interval is empty")
has(err(math.random, 1, 2, 3), "wrong number of arguments")
has(err(math.random, 0.5), "number has no integer representation")
has(err(math.randomseed, 1.5), "number has no integer representation")
print("lib_random ok")
