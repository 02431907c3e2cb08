--! medium64
-- coroutine: create resume yield status wrap isyieldable running close
local function err(f, ...)
  local ok, m = pcall(f, ...)
  assert(not ok, "expected an error")
  return m
end
local function has(m, s) assert(string.find(m, s, 1, true), m) end

local co = coroutine.create(function(a, b)
  assert(coroutine.isyieldable())
  local c = coroutine.yield(a + b)
  local d, e = coroutine.yield(c * 2)
  return d + e, "end"
end)
assert(coroutine.status(co) == "suspended")
local ok, v = coroutine.resume(co, 1, 2)
assert(ok and v == 3)
ok, v = coroutine.resume(co, 10)
assert(ok and v == 20)
local ok2, s, tag = coroutine.resume(co, 3, 4)
assert(ok2 and s == 7 and tag == "end")
assert(coroutine.status(co) == "dead")
ok, v = coroutine.resume(co)
assert(not ok and v == "cannot resume dead coroutine")

local main, ismain = coroutine.running()
assert(type(main) == "thread" and ismain)
assert(not coroutine.isyieldable())
ok, v = coroutine.resume(main)
assert(not ok and v == "cannot resume non-suspended coroutine")
has(err(coroutine.yield, 1), "attempt to yield from outside a coroutine")
has(err(coroutine.status, 1), "status' (thread expected, got number)")
has(err(coroutine.create, 1), "create' (function expected")

-- status seen from inside and from a nested coroutine
local outer
outer = coroutine.create(function()
  assert(coroutine.status(outer) == "running")
  local inner = coroutine.create(function()
    assert(coroutine.status(outer) == "normal")
    local me, im = coroutine.running()
    assert(not im and coroutine.status(me) == "running")
  end)
  assert(coroutine.resume(inner))
end)
assert(coroutine.resume(outer))

-- errors inside a coroutine
co = coroutine.create(function() error("oops") end)
ok, v = coroutine.resume(co)
assert(not ok and v:find(":%d+: oops$") and coroutine.status(co) == "dead")
co = coroutine.create(function() error({code = 7}) end)
ok, v = coroutine.resume(co)
assert(not ok and v.code == 7)

-- wrap
local gen = coroutine.wrap(function(n)
  for i = 1, n do coroutine.yield(i) end
  return "done"
end)
assert(gen(3) == 1 and gen() == 2 and gen() == 3 and gen() == "done")
has(err(gen), "cannot resume dead coroutine")
local w = coroutine.wrap(function() error("inwrap") end)
local m = err(w)
assert(m:find(":%d+: inwrap$"), m)
w = coroutine.wrap(function() error({}) end)
assert(type(err(w)) == "table")

-- yield across pcall, xpcall, metamethods and iterators
co = coroutine.create(function()
  local ok3, r = pcall(function()
    local x = coroutine.yield("in pcall")
    error("after " .. x)
  end)
  assert(not ok3 and r:find("after resumed"))
  local ok4, r2 = xpcall(function() return coroutine.yield("in xpcall") end,
                         function(e) return e end)
  assert(ok4 and r2 == "again")
  local t = setmetatable({}, {__index = function(_, k) return coroutine.yield(k) end})
  assert(t.key == "mm")
  for k in pairs(setmetatable({}, {__pairs = function()
    return function(_, c) if not c then return coroutine.yield("it") end end
  end})) do assert(k == "kk") end
  return "finished"
end)
local function step(...) local r = {coroutine.resume(co, ...)}; assert(r[1], r[2]); return r[2] end
assert(step() == "in pcall")
assert(step("resumed") == "in xpcall")
assert(step("again") == "key")
assert(step("mm") == "it")
assert(step("kk") == "finished")

-- close
co = coroutine.create(function() coroutine.yield() end)
coroutine.resume(co)
assert(coroutine.close(co) == true and coroutine.status(co) == "dead")
co = coroutine.create(function() error("E") end)
coroutine.resume(co)
local c1, c2 = coroutine.close(co)
assert(c1 == false and c2:find("E$"))
assert(coroutine.close(coroutine.create(print)))
has(err(coroutine.close, coroutine.running()), "cannot close a running coroutine")
co = coroutine.wrap(function()
  local me = coroutine.running()
  local cc = coroutine.create(function() return coroutine.close(me) end)
  local okc, mc = coroutine.resume(cc)
  assert(not okc and mc:find("cannot close a normal coroutine"))
end)
co()
print("lib_coro ok")
