--! boards: mps2-an385 mps2-an386 mps2-an500 lm3s6965evb microbit
-- hw.timer: each timer delivers N events in N periods (virtual time under
-- -icount, busy-waiting: SysTick keeps time while the core runs), in
-- order, through rt.on; stopped, it delivers no more.  Terse enough for
-- the micro:bit's arena.
local hz, got, last = rt.hz(), 0, 0
local function h(v) got = got + 1 assert(v == last + 1) last = v end
for i = 0, 3 do
  got, last = 0, 0
  local ok, t = pcall(hw.timer, i, 1000, h)
  if not ok then assert(i >= 2 and t:find("no such timer"), t) break end
  local c = rt.cycles()
  while rt.cycles() - c < hz // 100 + hz // 2000 do end
  assert(t:count() == 10 and got == 10, t:count())
  t:stop()
  c = rt.cycles()
  while rt.cycles() - c < hz // 100 do end
  assert(t:count() == 10 and got == 10)
end
print("ok")
