--! boards: mps2-an385 mps2-an386 mps2-an500
--! unimp: ^cmsdk-ahb-gpio: 
-- hw.pin on the MPS2 boards' CMSDK AHB GPIO, which QEMU leaves
-- unimplemented (reads 0, writes ignored), so nothing reads back: what is
-- checked is the driver's accesses as QEMU logs them (qemu/run's
-- RTLUA_QEMU_UNIMP), against the CMSDK reference manual (DDI 0479, 4.3):
-- a mode is ALTFUNCCLR (0x1C), then OUTENSET (0x10) or OUTENCLR (0x14);
-- a level is written through the masked views, no read-modify-write:
-- bits 0-7 at 0x400 + (mask << 2), bits 8-15 at 0x800 + ((mask >> 8) <<
-- 2); DATA (0x000) read for a level.  QEMU's log names the device, not
-- its address, and the four ports share the name: which port a pin is on
-- is not checked here.  tests/hw/run compares the log's lines matching
-- the "unimp" pattern with the "--=" lines below, one for one, in order.
local p = hw.pin("GPIO1_3", "out")
p:on()
p:off()
p:value(1)
assert(p:value() == 0) -- DATA, which QEMU reads as 0
p:toggle() -- DATA 0: set
local q = hw.pin("GPIO2_14", "out") -- an upper-byte pin
q:on()
q:off()
local r = hw.pin(48 + 9, "in") -- GPIO3_9, by number
assert(r:value() == 0)
local ok, e = pcall(hw.pin, "GPIO0_0", "pullup")
assert(not ok and e:find("cannot be 'pullup'"), e) -- no pull resistors
print("ok")
-- GPIO1_3 out; on, off, value(1), value(), toggle:
--= cmsdk-ahb-gpio: unimplemented device write (size 4, offset 0x01c, value 0x00000008)
--= cmsdk-ahb-gpio: unimplemented device write (size 4, offset 0x010, value 0x00000008)
--= cmsdk-ahb-gpio: unimplemented device write (size 4, offset 0x420, value 0x00000008)
--= cmsdk-ahb-gpio: unimplemented device write (size 4, offset 0x420, value 0x00000000)
--= cmsdk-ahb-gpio: unimplemented device write (size 4, offset 0x420, value 0x00000008)
--= cmsdk-ahb-gpio: unimplemented device read  (size 4, offset 0x000)
--= cmsdk-ahb-gpio: unimplemented device read  (size 4, offset 0x000)
--= cmsdk-ahb-gpio: unimplemented device write (size 4, offset 0x420, value 0x00000008)
-- GPIO2_14 out; on, off:
--= cmsdk-ahb-gpio: unimplemented device write (size 4, offset 0x01c, value 0x00004000)
--= cmsdk-ahb-gpio: unimplemented device write (size 4, offset 0x010, value 0x00004000)
--= cmsdk-ahb-gpio: unimplemented device write (size 4, offset 0x900, value 0x00004000)
--= cmsdk-ahb-gpio: unimplemented device write (size 4, offset 0x900, value 0x00000000)
-- GPIO3_9 in, its value (GPIO0_0 pull-up: refused, no access):
--= cmsdk-ahb-gpio: unimplemented device write (size 4, offset 0x01c, value 0x00000200)
--= cmsdk-ahb-gpio: unimplemented device write (size 4, offset 0x014, value 0x00000200)
--= cmsdk-ahb-gpio: unimplemented device read  (size 4, offset 0x000)
