--! boards: netduinoplus2
-- hw.timer on netduinoplus2's TIM2-5.  QEMU models them, but counts at
-- 1 GHz where the board's timers count at 84 MHz, and a timer stopped
-- and started again never interrupts again: no N events in N periods
-- here (tests/hw/timer.lua), those are for hardware.  What is checked:
-- the prescaler and reload for the rate asked, at 84 MHz (a period is
-- (PSC + 1) * (ARR + 1) ticks, ARR within 16 bits), the update interrupt
-- enabled and the counter on; events come through each timer's own
-- interrupt line (28, 29, 30, 50), counted in order; stopped, the counter
-- is off and its interrupt disabled.
local hz = rt.hz()
local rates = {1000, 100, 10, 5000}
for i = 0, 3 do
  local base, rate = 0x40000000 + 0x400 * i, rates[i + 1]
  local got, last = 0, 0
  local t = hw.timer(i, rate, function(v)
    got = got + 1
    assert(v == last + 1)
    last = v
  end)
  local psc, arr = hw.mem32(base + 0x28), hw.mem32(base + 0x2C)
  local ticks = 84000000 // rate
  assert(math.abs((psc + 1) * (arr + 1) - ticks) <= psc + 1 and arr < 0x10000,
    ("TIM%d: PSC %d ARR %d for %d ticks"):format(i + 2, psc, arr, ticks))
  assert(hw.mem32(base + 0x0C) == 1 and hw.mem32(base) & 1 == 1) -- DIER, CR1
  local c = rt.cycles()
  while got < 3 and rt.cycles() - c < hz // 2 do end
  assert(got >= 3 and t:count() >= got, ("TIM%d: %d events"):format(i + 2, got))
  t:stop()
  assert(hw.mem32(base) & 1 == 0 and hw.mem32(base + 0x0C) == 0)
end
print("ok")
