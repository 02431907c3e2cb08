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
-- An input's pull resistor: QEMU keeps PUR (0x510) and PDR (0x514), each
-- set clearing the other as on the chip, but pulls no pin with them (PB4
-- reads 0 either way): the registers read back, with DIR (0x400) an
-- input and DEN (0x51C) on.
local PB, m = 0x40005000, 0x10
local function pulls(up, down)
  assert(hw.mem32(PB + 0x510) & m == up and hw.mem32(PB + 0x514) & m == down)
  assert(hw.mem32(PB + 0x400) & m == 0 and hw.mem32(PB + 0x51C) & m == m)
end
local b = hw.pin("PB4", "pullup")
pulls(m, 0)
b:mode("pulldown")
pulls(0, m)
b:mode("in")
pulls(0, 0)
b:mode("pullup")
pulls(m, 0)
print("ok")
