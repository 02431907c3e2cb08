-- C02 (a, b, c): weak tables and ephemerons that the collector first
-- reaches in its atomic phase, from an object about to be finalized
-- (which the collector marks again, "resurrects", so its finalizer can
-- see it), are cleared and converged like any other (manual 2.5.4:
-- resurrected objects are removed from weak values before the finalizers
-- run, and from weak keys at the next collection).  rtlua left them
-- untouched: a finalizer saw entries that had died, an ephemeron's value
-- was freed while its key lived (a use-after-free), and a __gc held only
-- by a weak-valued metatable ran.

-- a: a weak-value table reachable only from an object being finalized
local function weak_values()
  local w = setmetatable({}, {__mode = "v"})
  w[1] = {}                  -- dies: only w holds it
  w[2] = "a string"          -- strings are values: kept
  w[3] = 42
  setmetatable({w}, {__gc = function (o)
    print("a:", o[1][1], o[1][2], o[1][3])
  end})
end
weak_values()
collectgarbage()

-- b: an ephemeron reachable only from an object being finalized, whose
-- key the same object holds: the value lives, and outlives the finalizer
local keep
local function ephemeron()
  local k, e = {}, setmetatable({}, {__mode = "k"})
  e[k] = {"value"}
  local k2 = {}
  e[k2] = {"only for a key that dies"}
  e[{}] = "dead key"
  setmetatable({{k}, e}, {__gc = function (o) keep = o end})
end
ephemeron()
collectgarbage()
for i = 1, 1000 do local t = {"other"} end
collectgarbage()
print("b:", keep[2][keep[1][1]][1])
local n = 0
for _ in pairs(keep[2]) do n = n + 1 end
print("b: entries left", n)

-- a chain of ephemerons reached in atomic: each value is the next key
local last
local function chain()
  local e = setmetatable({}, {__mode = "k"})
  local k = {}
  local first = k
  for i = 1, 50 do local v = {i = i} e[k] = v k = v end
  setmetatable({first, e}, {__gc = function (o) last = o end})
end
chain()
collectgarbage()
for i = 1, 1000 do local t = {i = -1} end
collectgarbage()
local k, steps = last[1], 0
while last[2][k] do k = last[2][k] steps = steps + 1 end
print("b: chain length", steps, k.i)

-- c: the __gc closure, held only by a weak-valued metatable, is
-- collected before it could run
local function weak_metatable()
  local u = setmetatable({}, {__gc = true})
  setmetatable(getmetatable(u), {__mode = "v"})
  getmetatable(u).__gc = function (o) print("c: finalizer ran (should not)") end
end
weak_metatable()
collectgarbage()
collectgarbage()
print("c: end")
