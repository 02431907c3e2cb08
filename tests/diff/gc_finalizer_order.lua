-- The order of finalizers (the reverse of the order objects were marked
-- for finalization, among those that die together), for objects marked
-- long after they were made as well as just made; an object marked again
-- in its own __gc, or after it ran, is finalized again; what is still
-- pending at the end runs at close.
-- The collector is stopped (explicit collections still run): a cycle
-- under way when new1 is made would find it dead before the others,
-- and run its __gc first, in lua5.4 as here, at a point that depends on
-- how much the program allocated before.
collectgarbage()
collectgarbage("stop")
local log = {}
local function mark(o, name)
  return setmetatable(o, {__gc = function () log[#log + 1] = name end})
end
local function flush(title)
  collectgarbage()
  collectgarbage()
  print(title, table.concat(log, " "))
  log = {}
end

-- old objects, then many newer ones on top of them
local old = {}
for i = 1, 10 do old[i] = {} end
local keep = {}
for i = 1, 500 do keep[i] = {i} end
mark(old[3], "old3")
mark({}, "new1")
mark(old[1], "old1")
mark(old[7], "old7")
mark({}, "new2")
mark(old[2], "old2")
old = nil
flush("mixed")

-- marked in a different order from the one they were made in
local a, b, c = {}, {}, {}
for i = 1, 100 do keep[#keep + 1] = {} end
mark(b, "b")
mark(c, "c")
mark(a, "a")
a, b, c = nil, nil, nil
flush("abc")

-- an object that marks itself again in its __gc is finalized twice
local again = 0
local mt = {}
mt.__gc = function (o)
  again = again + 1
  log[#log + 1] = "again" .. again
  if again < 3 then setmetatable(o, mt) end
end
setmetatable({}, mt)
flush("self1")
flush("self2")
flush("self3")
print("again", again)

-- resurrected, then marked again from outside
local saved
local mt2 = {__gc = function (o) saved = o log[#log + 1] = "res" end}
do setmetatable({}, mt2) end
flush("res1")
print("saved", saved ~= nil)
setmetatable(saved, mt2)
saved = nil
flush("res2")

-- without __gc in the metatable when it was set: never finalized
local late = {}
local lmt = {}
setmetatable(late, lmt)
lmt.__gc = function () log[#log + 1] = "late" end
late = nil
flush("late")

-- pending at close, in the reverse order of marking
for i = 1, 300 do keep[#keep + 1] = {} end
local k1, k2 = {}, {}
for i = 1, 100 do keep[#keep + 1] = {} end
local function mark_print(o, name)
  return setmetatable(o, {__gc = function () print("at close", name) end})
end
mark_print(k2, "close2")
mark_print({}, "close3")
mark_print(k1, "close1")
mark_print(keep, "keep")
print("end")
_G.hold = {k1, k2}
