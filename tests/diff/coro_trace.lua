-- values and statuses through resume/yield
local co
co = coroutine.create(function(a, b)
  print("start", a, b, coroutine.status(co), coroutine.isyieldable())
  local c, d = coroutine.yield(a + b, a - b)
  print("got", c, d)
  local e = coroutine.yield()
  print("got", e)
  return "ret1", "ret2"
end)
print(coroutine.status(co))
print(coroutine.resume(co, 5, 3))
print(coroutine.status(co))
print(coroutine.resume(co, "x", "y"))
print(coroutine.resume(co, nil))
print(coroutine.status(co))
print(coroutine.resume(co))
print(coroutine.isyieldable(), select(2, coroutine.running()))
print(coroutine.resume(coroutine.create(function(...) return select("#", ...), ... end), nil, nil))
