--! medium
-- Coroutines: create/resume/yield/status/wrap/isyieldable/running/close,
-- passing values both ways, errors inside, generators.
local co = coroutine.create(function(a, b)
  assert(coroutine.isyieldable())
  local c = coroutine.yield(a + b)
  local d, e = coroutine.yield(c * 2)
  return d + e, "end"
end)
assert(type(co) == "thread" and coroutine.status(co) == "suspended")
local ok, v = coroutine.resume(co, 1, 2)
assert(ok and v == 3)
ok, v = coroutine.resume(co, 10)
assert(ok and v == 20)
local ok2, s, tag = coroutine.resume(co, 3, 4)
assert(ok2 and s == 7 and tag == "end" and coroutine.status(co) == "dead")
ok, v = coroutine.resume(co)
assert(not ok and v == "cannot resume dead coroutine")

-- running and status from inside
local main, ismain = coroutine.running()
assert(type(main) == "thread" and ismain and not coroutine.isyieldable())
local inner
inner = coroutine.create(function()
  local me, im = coroutine.running()
  assert(me == inner and not im and coroutine.status(inner) == "running")
  coroutine.yield()
end)
coroutine.resume(inner)
-- a coroutine that resumes another is "normal"
local outer
outer = coroutine.create(function()
  local sub = coroutine.create(function() return coroutine.status(outer) end)
  return select(2, coroutine.resume(sub))
end)
assert(select(2, coroutine.resume(outer)) == "normal")

-- errors inside a coroutine
co = coroutine.create(function() error("bad", 0) end)
ok, v = coroutine.resume(co)
assert(not ok and v == "bad" and coroutine.status(co) == "dead")
co = coroutine.create(function() error({1}) end)
ok, v = coroutine.resume(co)
assert(not ok and type(v) == "table")
co = coroutine.create(function() local x; return x.y end)
ok, v = coroutine.resume(co)
assert(not ok and type(v) == "string")
ok, v = coroutine.resume(coroutine.running())
assert(not ok and v == "cannot resume non-suspended coroutine")

-- wrap: errors propagate, values pass through
local gen = coroutine.wrap(function(...)
  local args = {...}
  for i = 1, #args do coroutine.yield(args[i]) end
  return "done"
end)
assert(gen("a", "b") == "a" and gen() == "b" and gen() == "done")
ok, v = pcall(gen)
assert(not ok and v == "cannot resume dead coroutine")
local bad = coroutine.wrap(function() error("inside", 0) end)
ok, v = pcall(bad)
assert(not ok and v == "inside")

-- generators
local function range(n)
  return coroutine.wrap(function() for i = 1, n do coroutine.yield(i) end end)
end
local sum = 0
for i in range(100) do sum = sum + i end
assert(sum == 5050)
-- a producer/consumer pipeline
local function filter(src)
  return coroutine.wrap(function()
    for x in src do if x % 3 == 0 then coroutine.yield(x) end end
  end)
end
local got = {}
for x in filter(range(10)) do got[#got + 1] = x end
assert(table.concat(got, ",") == "3,6,9")

-- close: suspended and dead coroutines, with pending to-be-closed values
local closed = false
co = coroutine.create(function()
  local t <close> = setmetatable({}, {__close = function() closed = true end})
  coroutine.yield()
end)
coroutine.resume(co)
assert(coroutine.close(co) == true and closed and coroutine.status(co) == "dead")
co = coroutine.create(function() error("e", 0) end)
coroutine.resume(co)
ok, v = coroutine.close(co)
assert(ok == false and v == "e")
assert(coroutine.close(coroutine.create(print)) == true)
ok, v = pcall(coroutine.close, coroutine.running())
assert(not ok and v == "cannot close a running coroutine")

-- yield outside a coroutine
ok, v = pcall(coroutine.yield, 1)
assert(not ok and v == "attempt to yield from outside a coroutine")
-- many coroutines alive at once
local cs = {}
for i = 1, 20 do cs[i] = coroutine.wrap(function() coroutine.yield(i); return -i end) end
local t = 0
for i = 1, 20 do t = t + cs[i]() + cs[i]() end
assert(t == 0)
print("ok")
