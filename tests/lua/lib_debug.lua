--! medium
local D = debug; local gi, gl, sl = D.getinfo, D.getlocal, D.setlocal -- the debug library
local function f(a, b, ...)
  local x = 10
  local t = gi(1, "Slnutr")
  assert(t.what == "Lua" and t.currentline == 5 and t.linedefined == 3)
  assert(t.lastlinedefined == 15 and t.nparams == 2 and t.isvararg)
  assert(t.name == "f" and t.namewhat == "local" and not t.istailcall)
  assert(t.short_src:find("lib_debug") and t.source:find("^@"))
  local n, v = gl(1, 3) assert(n == "x" and v == 10)
  n, v = gl(1, -2) assert(n == "(vararg)" and v == "vb")
  assert(gl(1, 1) == "a" and gl(1, -3) == nil and gl(1, 40) == nil)
  assert(sl(1, 3, 99) == "x" and x == 99 and sl(1, 30, 1) == nil)
  assert(sl(1, -1, "v") == "(vararg)" and ... == "v")
end
f(1, 2, "va", "vb")
assert(gl(f, 2) == "b" and gl(f, 3) == nil and gl(print, 1) == nil)
local t = gi(print)
assert(t.what == "C" and t.short_src == "[C]" and t.source == "=[C]")
assert(t.currentline == -1 and t.func == print and not t.activelines)
t = gi(f, "L").activelines
assert(t[4] and t[14] and t[15] and not t[3] and not t[16])
assert(gi(0, "n").name == "gi" and gi(100) == nil)
local function e(...) return select(2, pcall(...)) end
local function E(m, ...) assert(e(...):find(m, 1, true), m) end
E("#2 to 'debug.getinfo' (invalid option)", gi, 1, "x")
E("#2 to 'debug.getinfo' (invalid option '>')", gi, 1, ">S")
E("#1 to 'debug.getinfo' (number expected, got table)", gi, {})
E("#1 to 'debug.getlocal' (level out of range)", gl, 99, 1)
-- upvalues
local u1, u2 = 1, 2
local function g() return u1 + u2 end
local function h() return u1 end
local n, v = D.getupvalue(g, 2) assert(n == "u2" and v == 2)
assert(not D.getupvalue(g, 3) and not D.setupvalue(g, 3, 0))
assert(D.setupvalue(g, 1, 5) == "u1" and g() == 7 and u1 == 5)
local id = D.upvalueid
assert(id(g, 1) == id(h, 1) and id(g, 2) ~= id(h, 1))
assert(not id(g, 3) and not id(print, 1))
D.upvaluejoin(h, 1, g, 2) assert(h() == 2)
E("#4 to 'debug.upvaluejoin' (invalid upvalue index)", D.upvaluejoin, h, 1, print, 1)
-- hooks
local ev = {}
local function hk(w, l) ev[#ev + 1] = w .. ":" .. tostring(l) end
local function leaf(x) return x + 1 end
local function tc(x) return leaf(x) end
local L = gi(1, "l").currentline
D.sethook(hk, "crl")
local y = tc(1)
D.sethook()
local want = "return:nil line:%d call:nil line:%d tail call:nil line:%d return:nil line:%d call:nil"
assert(table.concat(ev, " ") == want:format(L + 2, L - 1, L - 2, L + 3))
ev = {} D.sethook(hk, "", 5) for i = 1, 10 do y = y + i end D.sethook()
assert(#ev > 2 and ev[1] == "count:nil")
D.sethook(hk, "l", 3)
local f1, m1, c1 = D.gethook() D.sethook()
assert(f1 == hk and m1 == "l" and c1 == 3 and not D.gethook())
local co = coroutine.create(function(a) local z = a coroutine.yield(z) end)
local cl = gi(1, "l").currentline - 1
D.sethook(co, hk, "cr")
assert(D.gethook(co) == hk and D.gethook() == nil)
D.sethook(co) assert(D.gethook(co) == nil)
local reg = D.getregistry()._HOOKKEY
assert(getmetatable(reg) == reg and reg.__mode == "k")
coroutine.resume(co, 7)
assert(D.traceback(co):find("^stack traceback:\n\t%[C%]: in function 'coroutine.yield'\n"))
local tb = D.traceback(co, "hi", 1)
assert(tb:find("^hi\nstack traceback:\n\t[^\n]*:" .. cl .. ": in function") and not tb:find("yield"))
assert(select(2, gl(co, 1, 2)) == 7 and sl(co, 1, 2, 8) == "z" and select(2, gl(co, 1, 2)) == 8)
t = gi(co, 1, "lf") assert(t.currentline == cl and type(t.func) == "function" and not gi(co, 5))
local tt = {}
assert(D.traceback(tt) == tt and D.traceback(12):find("^12\n") and D.traceback("m", 50) == "m\nstack traceback:")
assert(D.traceback("m"):find("^m\nstack traceback:\n\t[^\n]*:%d+: in main chunk"))
assert(D.getmetatable("").__index == string and not D.getmetatable({}))
assert(D.setmetatable(10, {__index = {k = 3}}) == 10 and (5).k == 3)
D.setmetatable(10, nil)
E("#2 to 'debug.setmetatable' (nil or table expected", D.setmetatable, {}, 1)
assert(D.getregistry()._LOADED == package.loaded)
assert(not D.getuservalue(1))
E("#1 to 'debug.setuservalue' (userdata expected", D.setuservalue, {}, 1)
-- setcstacklimit: the limit of nested C calls, as Lua 5.4's manual gives
-- it: the old limit, or 0 (nothing changed) for one out of bounds
local function cdepth()
  local maxd = 0
  local function rec(d) if d > maxd then maxd = d end pcall(rec, d + 1) end
  rec(1)
  return maxd
end
local full = cdepth()
assert(D.setcstacklimit(40) == 200)
local low = cdepth()
assert(low < 40 and low <= full, low)
assert(D.setcstacklimit(3) == 0 and D.setcstacklimit(100000) == 0)
local deep, msg = load("return " .. string.rep("(", 60) .. "1" .. string.rep(")", 60))
assert(not deep and msg:find("overflow"), msg) -- the parser's levels too
assert(D.setcstacklimit(200) == 40)
assert(cdepth() == full)
print("ok")
