-- C03: when the state closes (lua_close, at the end of the standalone
-- program), every object marked for finalization has its finalizer
-- called once, in the reverse order of marking; objects that those
-- finalizers create or mark get none (Lua 5.4.8: "fin 1" and nothing
-- more for the repro).  rtlua gave them finalizers too, so a finalizer
-- that makes a new finalizable object ran ~930,000 times, and it rescanned
-- the whole pending list after each call: closing a state with 40,000
-- finalizable objects took 9.6 s against lua5.4's 0.03 s (10,000 here,
-- to fit the boards' arenas).  A finalizer here also runs its code, and
-- the objects it sees are intact.
local mt, n = {}, 0
mt.__gc = function (o)
  n = n + 1
  if n <= 3 or n % 100000 == 0 then io.write("fin ", n, "\n") end
  setmetatable({}, mt) -- too late: no finalizer
end
X = setmetatable({}, mt)
-- many pending finalizers, called in the reverse order of marking
local order = {}
local omt = {__gc = function (o)
  order[#order + 1] = o.i
  if o.i == 1 then
    local ok = true
    for j = 1, #order do ok = ok and order[j] == 10001 - j end
    io.write("order ", #order, " ", tostring(ok), "\n")
  end
end}
ALL = {}
for i = 1, 10000 do ALL[i] = setmetatable({i = i}, omt) end
print("closing")
