--! big
-- Finalizers while the program runs through a cycle's finalizer stages
-- (separation and resurrection are units of the mark phase, between two
-- atomic points): the program keeps iterating weak-key tables that hold
-- dying finalizable objects, keeps some of the keys it finds, and
-- finalizers resurrect some objects.  Every finalizer runs once, a
-- finalizer finds its object as a weak key, the weak-value side is
-- cleared before it runs, and whatever the program kept stays whole.
local ek = setmetatable({}, {__mode = "k"})   -- ephemeron: obj -> data
local wv = setmetatable({}, {__mode = "v"})   -- weak values: id -> obj
local ran, seen_key, vals_gone, bad = {}, 0, 0, 0
local saved, kept = {}, {}
local mt = {}
mt.__gc = function(o)
  ran[o.id] = (ran[o.id] or 0) + 1
  if ek[o] and ek[o].id == o.id then seen_key = seen_key + 1 end
  if wv[o.id] == nil then vals_gone = vals_gone + 1 end
  if o.id % 7 == 0 then saved[#saved + 1] = o end -- resurrected for good
end
local N = 3000
for i = 1, N do
  local o = setmetatable({id = i, pad = {i}}, mt)
  ek[o] = {id = i}
  wv[i] = o
  if i % 50 == 0 then
    -- walk the weak-key table and keep a few keys found there
    local c = 0
    for k, v in pairs(ek) do
      if k.id ~= v.id then bad = bad + 1 end
      c = c + 1
      if c % 97 == 0 then kept[#kept + 1] = k end
    end
  end
  local g = {i, tostring(i)} -- garbage beside each object
end
kept = nil
collectgarbage()
collectgarbage()
local once, twice = 0, 0
for i = 1, N do
  local r = ran[i] or 0
  if r == 1 then once = once + 1 elseif r > 1 then twice = twice + 1 end
end
assert(bad == 0, bad)
assert(twice == 0, twice)
assert(once == N, once)
assert(seen_key == N, seen_key)
assert(vals_gone == N, vals_gone)
for _, o in ipairs(saved) do
  assert(o.id % 7 == 0 and o.pad[1] == o.id)
end
print("ok")
