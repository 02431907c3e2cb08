--! boards: lm3s6965evb
-- hw.adc returns what QEMU's Stellaris ADC converts: 0x200 plus 3 bits of
-- a pseudo-random sequence.
local a, last, differ = hw.adc(1), nil, false
for _ = 1, 16 do
  local v = a:read()
  assert(v >= 0x200 and v <= 0x207, v)
  differ = differ or (last ~= nil and v ~= last)
  last = v
end
assert(differ and a:bits() == 10)
print("ok")
