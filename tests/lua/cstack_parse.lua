--! medium64
-- (microbit's 64-bit model, a test configuration, nests 18 blocks (14
-- with 4 KiB of stack); its 32-bit model, the board's own, 24; both have
-- 4.5 KiB of stack.)
-- The compiler nests 20 blocks or more on every board (issue 17).
local function d(o, c)
  for n = 1, 99 do if not load(o:rep(n) .. c:rep(n)) then return n - 1 end end
  return 99
end
local b = d("do ", "end ")
print("blocks " .. b .. ", functions " .. d("f(function() ", "end) "))
assert(b >= 20)
print("ok")
