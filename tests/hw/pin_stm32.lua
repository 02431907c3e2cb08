--! boards: netduinoplus2
--! unimp: ^GPIOC: |^RCC: unimplemented device write \(size 4, offset 0x030,
-- hw.pin on netduinoplus2's STM32 GPIO, which QEMU leaves unimplemented
-- (reads 0, writes ignored), so nothing reads back: what is checked is
-- the driver's accesses as QEMU logs them (qemu/run's RTLUA_QEMU_UNIMP),
-- against the reference manual (RM0090, 6.3.10 and 8.4): the port's
-- clock gate, RCC_AHB1ENR bit 2 for port C (bit 1 first: the console's
-- port B); MODER (0x00) and PUPDR (0x0C) two bits a pin, read, changed
-- and written back; BSRR (0x18) setting with bits 0-15 and resetting
-- with 16-31; IDR (0x10) read for a level.  tests/hw/run compares the
-- log's lines matching the "unimp" pattern with the "--=" lines below,
-- one for one, in order.
local p = hw.pin("PC13", "out") -- MODER13 = 01, PUPDR13 = 00
p:on() -- BSRR bit 13
p:off() -- BSRR bit 29 (13 + 16)
p:value(1)
assert(p:value() == 0) -- IDR, which QEMU reads as 0
p:toggle() -- IDR 0: set
local q = hw.pin("PC2", "pullup") -- PUPDR2 = 01, MODER2 = 00
assert(q:value() == 0)
q:mode("pulldown") -- PUPDR2 = 10
hw.pin(32 + 15, "out") -- PC15, by number: MODER15 = 01, the top bits
print("ok")
-- The console (port B) and PC13 out; on, off, value(1), value(), toggle:
--= RCC: unimplemented device write (size 4, offset 0x030, value 0x00000002)
--= RCC: unimplemented device write (size 4, offset 0x030, value 0x00000004)
--= GPIOC: unimplemented device read  (size 4, offset 0x00c)
--= GPIOC: unimplemented device write (size 4, offset 0x00c, value 0x00000000)
--= GPIOC: unimplemented device read  (size 4, offset 0x000)
--= GPIOC: unimplemented device write (size 4, offset 0x000, value 0x04000000)
--= GPIOC: unimplemented device write (size 4, offset 0x018, value 0x00002000)
--= GPIOC: unimplemented device write (size 4, offset 0x018, value 0x20000000)
--= GPIOC: unimplemented device write (size 4, offset 0x018, value 0x00002000)
--= GPIOC: unimplemented device read  (size 4, offset 0x010)
--= GPIOC: unimplemented device read  (size 4, offset 0x010)
--= GPIOC: unimplemented device write (size 4, offset 0x018, value 0x00002000)
-- PC2 pull-up, its value:
--= RCC: unimplemented device write (size 4, offset 0x030, value 0x00000004)
--= GPIOC: unimplemented device read  (size 4, offset 0x00c)
--= GPIOC: unimplemented device write (size 4, offset 0x00c, value 0x00000010)
--= GPIOC: unimplemented device read  (size 4, offset 0x000)
--= GPIOC: unimplemented device write (size 4, offset 0x000, value 0x00000000)
--= GPIOC: unimplemented device read  (size 4, offset 0x010)
-- PC2 pull-down:
--= RCC: unimplemented device write (size 4, offset 0x030, value 0x00000004)
--= GPIOC: unimplemented device read  (size 4, offset 0x00c)
--= GPIOC: unimplemented device write (size 4, offset 0x00c, value 0x00000020)
--= GPIOC: unimplemented device read  (size 4, offset 0x000)
--= GPIOC: unimplemented device write (size 4, offset 0x000, value 0x00000000)
-- PC15 out:
--= RCC: unimplemented device write (size 4, offset 0x030, value 0x00000004)
--= GPIOC: unimplemented device read  (size 4, offset 0x00c)
--= GPIOC: unimplemented device write (size 4, offset 0x00c, value 0x00000000)
--= GPIOC: unimplemented device read  (size 4, offset 0x000)
--= GPIOC: unimplemented device write (size 4, offset 0x000, value 0x40000000)
