-- generators, pipelines, yields across pcall and metamethods
local function gen(n) return coroutine.wrap(function() for i = 1, n do coroutine.yield(i) end end) end
local out = {}
for v in gen(10) do out[#out + 1] = v * v end
print(table.concat(out, " "))
local co = coroutine.wrap(function()
  print("pcall returned", pcall(function() print("resumed with", coroutine.yield("y1")); error("e", 0) end))
  local t = setmetatable({}, {__index = function(_, k) return coroutine.yield("index " .. k) end})
  print("index gave", t.key)
  return "end"
end)
print(co()); print(co("r1")); print(co("r2"))
local function perm(a, n)
  n = n or #a
  if n <= 1 then coroutine.yield(a) else
    for i = 1, n do a[n], a[i] = a[i], a[n]; perm(a, n - 1); a[n], a[i] = a[i], a[n] end
  end
end
for p in coroutine.wrap(function() perm({1, 2, 3}) end) do print(table.concat(p, ",")) end
