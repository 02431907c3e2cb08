--! boards: microbit
-- The console's pins as the nRF51 manual asks (QEMU does not need
-- them): TXD, P0.24, an output idle high; RXD, P0.25, an input.
assert(hw.mem32(0x50000760) & 1 == 1)
assert(hw.mem32(0x50000504) >> 24 & 1 == 1)
assert(hw.mem32(0x50000764) & 3 == 0)
print("ok")
