--! host heavy
-- Collector under load: big strings, big tables and long lists that become
-- garbage, cycles, many finalizers; memory use returns near its start.
local function full() collectgarbage(); collectgarbage() end
full()
local start = collectgarbage("count")

-- big strings
for i = 1, 20 do
  local s = ("abcdefgh"):rep(100000 + i) -- ~800 KB each
  assert(#s == 8 * (100000 + i))
end
-- a big array and a big hash
do
  local t = {}
  for i = 1, 200000 do t[i] = i end
  assert(#t == 200000)
  local h = {}
  for i = 1, 50000 do h["k" .. i] = i end
  assert(h.k50000 == 50000)
end
-- a long linked list
do
  local list
  for i = 1, 100000 do list = {next = list, v = i} end
  local c = 0
  while list do c = c + 1; list = list.next end
  assert(c == 100000)
end
-- cycles through closures and metatables
for i = 1, 10000 do
  local a, b = {}, {}
  a.b, b.a = b, a
  setmetatable(a, {__index = b})
  a.f = function() return a, b end
end
-- many finalizers
local count = 0
for i = 1, 5000 do setmetatable({}, {__gc = function() count = count + 1 end}) end
full()
assert(count == 5000)
-- weak cache of big values
local cache = setmetatable({}, {__mode = "v"})
for i = 1, 100 do cache[i] = {("y"):rep(10000) .. i} end
full()
assert(next(cache) == nil)

full()
local finish = collectgarbage("count")
assert(finish < start + 256, ("leaked: %g KB -> %g KB"):format(start, finish))
print("ok")
