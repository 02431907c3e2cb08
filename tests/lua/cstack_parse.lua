-- (microbit, 4.5 KiB of stack, nests 26 blocks in its 32-bit model, the
-- board's own, and 22 in its 64-bit test model, from source as from the
-- script's flash image; 18 there before, when it was off that model.)
-- The compiler nests 20 blocks or more on every board (issue 17).
local function d(o, c)
  for n = 1, 99 do if not load(o:rep(n) .. c:rep(n)) then return n - 1 end end
  return 99
end
local b = d("do ", "end ")
print("blocks " .. b .. ", functions " .. d("f(function() ", "end) "))
assert(b >= 20)
print("ok")
