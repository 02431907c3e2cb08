--! medium
-- Collector: weak keys/values, ephemerons, finalizers (order, resurrection,
-- __gc set later is ignored), collectgarbage options, count sanity.
local function full() collectgarbage(); collectgarbage() end

-- weak values
local wv = setmetatable({}, {__mode = "v"})
wv[1] = {}
wv[2] = "strings are values, not collected"
local keep = {}
wv[3] = keep
full()
assert(wv[1] == nil and wv[2] ~= nil and wv[3] == keep)

-- weak keys
local wk = setmetatable({}, {__mode = "k"})
wk[{}] = 1
wk[keep] = 2
full()
local n = 0
for _ in pairs(wk) do n = n + 1 end
assert(n == 1 and wk[keep] == 2)

-- ephemeron: the value refers to its own key
local eph = setmetatable({}, {__mode = "k"})
do local k = {}; eph[k] = {ref = k} end
full()
assert(next(eph) == nil)

-- fully weak
local kv = setmetatable({}, {__mode = "kv"})
kv[{}] = {}
kv[1] = {}
full()
assert(next(kv) == nil)

-- finalizers run once, in reverse order of marking (the collector is
-- stopped so that no cycle, not even a torture build's, runs between)
local order = {}
collectgarbage("stop")
for i = 1, 3 do setmetatable({}, {__gc = function() order[#order + 1] = i end}) end
full()
collectgarbage("restart")
assert(table.concat(order, ",") == "3,2,1")

-- a finalizer can resurrect its object
local saved
do setmetatable({name = "r"}, {__gc = function(o) saved = o end}) end
full()
assert(saved and saved.name == "r")
saved = nil
full()

-- __gc added after setmetatable is not honoured
local fired = false
local mt = {}
do setmetatable({}, mt) end
mt.__gc = function() fired = true end
full()
assert(not fired)

-- an error in a finalizer becomes a warning, not an error
do setmetatable({}, {__gc = function() error("in gc") end}) end
full()

-- count and options
local k1 = collectgarbage("count")
assert(type(k1) == "number" and k1 > 0)
local junk = {}
for i = 1, 200 do junk[i] = {i} end
local k2 = collectgarbage("count")
assert(k2 > k1)
junk = nil
full()
local k3 = collectgarbage("count")
assert(k3 < k2)
assert(collectgarbage("isrunning") == true)
collectgarbage("stop")
assert(collectgarbage("isrunning") == false)
collectgarbage("restart")
assert(collectgarbage("isrunning") == true)
assert(type(collectgarbage("step")) == "boolean")
assert(collectgarbage("collect") == 0)
collectgarbage("incremental")
collectgarbage("generational")
collectgarbage("incremental")

-- churn that becomes garbage at once, within a small heap
local before = collectgarbage("count")
for round = 1, 20 do
  local t = {}
  for i = 1, 100 do t[i] = {i, tostring(i)} end
end
full()
assert(collectgarbage("count") < before + 20)

-- strings as garbage
for i = 1, 500 do local s = ("x"):rep(i % 50) .. i end
full()
print("ok")
