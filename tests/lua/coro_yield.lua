--! medium64
-- Yields across pcall, xpcall, metamethods and iterators; errors after a
-- yield inside pcall; yields across C calls without continuations fail.
local Y = coroutine.yield

-- across pcall, with the error caught after resuming
local co = coroutine.wrap(function()
  local ok, e = pcall(function()
    local v = Y("in pcall")
    error("after " .. v, 0)
  end)
  Y(tostring(ok) .. ":" .. e)
  return "end"
end)
assert(co() == "in pcall" and co("resume") == "false:after resume" and co() == "end")

-- across xpcall: the handler runs after the yield
co = coroutine.wrap(function()
  return xpcall(function() Y(1); error("x", 0) end, function(m) return "h" .. m end)
end)
assert(co() == 1)
local ok, e = co()
assert(ok == false and e == "hx")

-- nested pcalls with yields at each level
co = coroutine.wrap(function()
  local r = {}
  r[1] = select(2, pcall(function()
    r[2] = select(2, pcall(function() return Y("deep") end))
    return Y("mid")
  end))
  return r[1] .. r[2]
end)
assert(co() == "deep" and co("A") == "mid" and co("B") == "BA")

-- across metamethods
local mt = {
  __index = function(t, k) return Y("index " .. k) end,
  __add = function(a, b) return Y("add") end,
  __lt = function(a, b) return Y("lt") end,
  __concat = function(a, b) return Y("concat") end,
  __eq = function(a, b) return Y("eq") end,
  __len = function(a) return Y("len") end,
  __newindex = function(t, k, v) Y("newindex") rawset(t, k, v) end,
  __call = function(self, x) return Y("call") end,
}
local o = setmetatable({}, mt)
local o2 = setmetatable({}, mt)
co = coroutine.wrap(function()
  local a = o.key
  local b = o + 1
  local c = o < o2
  local d = o .. "s"
  local e2 = o == o2
  local f = #o
  o.new = 5
  local g = o(1)
  return a, b, c, d, e2, f, rawget(o, "new"), g
end)
assert(co() == "index key" and co("A") == "add" and co("B") == "lt")
assert(co(false) == "concat" and co("D") == "eq" and co(1) == "len")
assert(co(7) == "newindex" and co() == "call")
local a, b, c, d, e3, f, n, g = co("G")
assert(a == "A" and b == "B" and c == false and d == "D" and e3 == true)
assert(f == 7 and n == 5 and g == "G")

-- across a generic for iterator
co = coroutine.wrap(function()
  local s = 0
  for v in function(_, prev) prev = prev + 1; if prev <= 3 then Y(prev); return prev end end, nil, 0 do
    s = s + v
  end
  return s
end)
assert(co() == 1 and co() == 2 and co() == 3 and co() == 6)

-- yield across a C function without a continuation
co = coroutine.create(function()
  table.sort({3, 2, 1}, function(x, y) Y() return x < y end)
end)
ok, e = coroutine.resume(co)
assert(not ok and e == "attempt to yield across a C-call boundary")

-- wrap inside wrap
local outer = coroutine.wrap(function()
  local inner = coroutine.wrap(function() Y(1); Y(2) end)
  Y(inner() + 10)
  Y(inner() + 10)
end)
assert(outer() == 11 and outer() == 12)

-- an error inside a coroutine resumed from inside pcall in another
co = coroutine.wrap(function()
  local ok2, e2 = pcall(coroutine.wrap(function() Y(); error("z", 0) end))
  local w = coroutine.wrap(function() Y(); error("z", 0) end)
  w()
  ok2, e2 = pcall(w)
  return e2
end)
assert(co() == "z")
print("ok")
