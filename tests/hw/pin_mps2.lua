--! boards: mps2-an385 mps2-an386 mps2-an500
-- hw.pin on the MPS2 boards: what an LED pin drives reads back, through
-- the pin and the FPGA's LED0 register; the buttons are inputs, which QEMU
-- reads as 0.
local function check(p, reg, mask)
  p:on()
  assert(p:value() == 1 and hw.mem32(reg) & mask == mask)
  p:toggle()
  assert(p:value() == 0 and hw.mem32(reg) & mask == 0)
  p:value(1)
  assert(hw.mem32(reg) & mask == mask)
  p:off()
end
check(hw.pin("led0"), 0x40028000, 1)
check(hw.pin("led1"), 0x40028000, 2)
hw.pin("led1"):on()
assert(hw.mem32(0x40028000) == 2 and hw.pin("button0"):value() == 0)
print("ok")
