--! boards: netduinoplus2
-- hw.adc returns what QEMU's STM32 ADC converts: a count that steps by 7
-- (12 bits) at each conversion.
local a = hw.adc(3)
local v = a:read()
for _ = 1, 10 do
  local w = a:read()
  assert(w == (v + 7) % 4096, w)
  v = w
end
assert(a:bits() == 12)
print("ok")
