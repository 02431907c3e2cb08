--! boards: lm3s6965evb
-- hw.pin on the LM3S6965 (the user LED on PF0, and PC5): what a pin
-- drives reads back, through the pin and the port's masked DATA register.
local function check(p, reg, mask)
  p:on()
  assert(p:value() == 1 and hw.mem32(reg) & mask == mask)
  p:toggle()
  assert(p:value() == 0 and hw.mem32(reg) & mask == 0)
  p:value(1)
  assert(hw.mem32(reg) & mask == mask)
  p:off()
end
check(hw.pin("led", "out"), 0x40025000 + (1 << 2), 1)
check(hw.pin("PC5", "out"), 0x40006000 + (0x20 << 2), 0x20)
assert(hw.mem32(0x40006000 + 0x400) & 0x20 == 0x20) -- DIR
print("ok")
