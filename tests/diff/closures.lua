-- closures: counters, shared upvalues, per-iteration loop variables
local function counter() local c = 0; return function() c = c + 1; return c end end
local a, b = counter(), counter()
print(a(), a(), b(), a())
local fs = {}
for i = 1, 3 do fs[i] = function() i = i + 10; return i end end
print(fs[1](), fs[1](), fs[2](), fs[3]())
local gs = {}
for k, v in ipairs({"x", "y"}) do gs[k] = function() return k, v end end
print(gs[1]()); print(gs[2]())
local get, set
do local shared = "s"; get = function() return shared end; set = function(v) shared = v end end
set("changed"); print(get())
local function mk(n) return function(m) return n + m end end
print(mk(1)(2), mk(10)(20))
