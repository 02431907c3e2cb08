-- C09: debug.getlocal and debug.getinfo(.., "r") inside call and return
-- hooks, for vararg functions above all.  A vararg function's frame sits
-- above its extra arguments while it runs; when it returns, the hook must
-- still see the frame there, so getlocal(2, 1) is its first parameter
-- ("a 10" in Lua 5.4.8 and 5.4.4), getlocal(2, -i) its i-th extra
-- argument, and ftransfer/ntransfer (5.4: in a call hook, the parameters,
-- from 1; in a return hook, the results) index values getlocal reads.
local function show (ev)
  local info = debug.getinfo(3, "nr")
  local out = {ev, info.name or "?", "ft=" .. info.ftransfer, "nt=" .. info.ntransfer}
  for i = 1, 10 do
    local n, v = debug.getlocal(3, i)
    if not n then break end
    if n:sub(1, 1) ~= "(" then out[#out + 1] = n .. "=" .. tostring(v) end
  end
  for i = -1, -10, -1 do
    local n, v = debug.getlocal(3, i)
    if not n then break end
    out[#out + 1] = n .. "[" .. i .. "]=" .. tostring(v)
  end
  local moved = {}
  for i = info.ftransfer, info.ftransfer + info.ntransfer - 1 do
    local _, v = debug.getlocal(3, i)
    moved[#moved + 1] = tostring(v)
  end
  out[#out + 1] = "moved={" .. table.concat(moved, ",") .. "}"
  print(table.concat(out, " "))
end
local targets = {}
local function f (a, ...) local b = 20 return a, b, ... end
local function g (...) return ... end
local function h (x, y) local z = x + y return z end
local function k (a, ...) return g(a, ...) end
local function n0 (a, ...) local b = 20 return end
targets[f], targets[g], targets[h], targets[k], targets[n0] = 1, 1, 1, 1, 1
debug.sethook(function (ev)
  if targets[debug.getinfo(2, "f").func] then show(ev) end
end, "cr")
n0(10)
f(10)
f(10, 11, 12)
g()
g(1, 2, 3)
h(1, 2)
k(5, 6, 7)
debug.sethook()
-- the shared repro: only the return hook, parameter 1
local function v (a, ...) local b = 20 return end
debug.sethook(function ()
  if debug.getinfo(2, "f").func == v then print(debug.getlocal(2, 1)) end
end, "r")
v(10)
v(30, 40)
debug.sethook()
-- setlocal in a return hook changes the frame's own slot: no effect on
-- values already returned, and the varargs are writable
local function w (a, ...) return a, ... end
debug.sethook(function ()
  if debug.getinfo(2, "f").func == w then
    print("set", debug.setlocal(2, 1, "A"), debug.setlocal(2, -1, "V"))
    print("get", select(2, debug.getlocal(2, 1)), select(2, debug.getlocal(2, -1)))
  end
end, "r")
print("results", w(1, 2))
debug.sethook()
