--! medium
-- Finalizers that allocate: each __gc makes garbage, grows its stack by
-- recursion, builds strings, makes new finalizable objects and
-- resurrects some of its objects.  An allocation inside a __gc may run
-- the emergency collection (as lua5.4's may), and in the torture builds
-- every one does: the object whose __gc runs, the objects it made and
-- the ones it resurrected stay whole, every __gc runs to its end, and
-- those made inside a __gc run theirs in turn.
local N = 40
local done, inner, saved = 0, 0, {}
local function depth(n) if n == 0 then return 0 end return 1 + depth(n - 1) end
local inner_mt = {__gc = function (o) inner = inner + o[1] end}
local mt = {}
mt.__gc = function (o)
  local t = {}
  for i = 1, 60 do t[i] = {i, tostring(i) .. "-" .. o.id} end
  assert(depth(60) == 60)
  local s = string.rep("ab", 50 + o.id)
  assert(#s == 2 * (50 + o.id) and t[60][2] == "60-" .. o.id)
  setmetatable({1}, inner_mt)
  if o.id % 5 == 0 then saved[#saved + 1] = o end
  o.note = s:sub(1, 4) .. o.id
  done = done + 1
end
for i = 1, N do setmetatable({id = i, pad = {i, i}}, mt) end
collectgarbage()
collectgarbage()
collectgarbage()
assert(done == N, "every __gc ran to its end: " .. done)
assert(inner == N, "the objects made in a __gc were finalized: " .. inner)
assert(#saved == N // 5)
for _, o in ipairs(saved) do
  assert(o.id % 5 == 0 and o.note == "abab" .. o.id and o.pad[2] == o.id)
end
print("ok")
