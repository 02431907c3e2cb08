-- Coroutine switches: a generator pipeline and resume/yield ping-pong.
-- arg[1] = items (default 100000).
local n = tonumber(arg and arg[1]) or N or 100000
local function gen(k)
  return coroutine.wrap(function() for i = 1, k do coroutine.yield(i) end end)
end
local function filter(src)
  return coroutine.wrap(function()
    for v in src do if v % 3 ~= 0 then coroutine.yield(v) end end
  end)
end
local sum = 0
for v in filter(gen(n)) do sum = sum + v end
local co = coroutine.create(function(a)
  while true do a = coroutine.yield(a * 2) end
end)
local x = 0
for i = 1, n // 2 do local _, r = coroutine.resume(co, i); x = x + r end
print("checksum", sum, x)
