--! boards: microbit
-- hw.pin on the nRF51: an output reads back (through the pin and IN), and
-- an input's pull resistor decides what it reads.
local p = hw.pin("P0.3", "out")
p:on()
assert(p:value() == 1 and hw.mem32(0x50000510) & 8 == 8)
p:toggle()
assert(p:value() == 0 and hw.mem32(0x50000510) & 8 == 0)
p:mode("pullup")
assert(p:value() == 1)
p:mode("pulldown")
assert(p:value() == 0)
print("ok")
