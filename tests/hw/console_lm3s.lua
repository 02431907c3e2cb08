--! boards: lm3s6965evb
-- The console UART0 is set up as a chip needs it (QEMU ignores the rate
-- and the pins; a real board prints garbage or nothing without them):
-- 115200 baud from 50 MHz (27 + 8/64), 8 bits, no parity; and its pins
-- PA0/PA1: the port's clock, the UART's function, digital buffers.
assert(hw.mem32(0x4000C024) == 27, "IBRD")
assert(hw.mem32(0x4000C028) == 8, "FBRD")
assert(hw.mem32(0x4000C02C) & 0x6E == 0x60, "LCRH")
assert(hw.mem32(0x400FE108) & 1 == 1, "RCGC2")
assert(hw.mem32(0x40004420) & 3 == 3, "AFSEL")
assert(hw.mem32(0x4000451C) & 3 == 3, "DEN")
print("ok")
