# lm3s6965evb: TI Stellaris LM3S6965, 256 KiB flash, 64 KiB RAM.
BOARD_CPU := -mcpu=cortex-m3 -mthumb -mfloat-abi=soft
BOARD_LD := linker/lm3s6965.ld
BOARD_QEMU := lm3s6965evb
# The console: UART0, a PL011 (drivers/uart_pl011.c), clocked by clock.c.
BOARD_UART := pl011
# Every Lua test script that fits a 64 KiB RAM (tests/run).
BOARD_TEST_LUA := all
BOARD_TEST_TAG := small
# 8 KiB of stack out of 64 KiB RAM: the rest is the Lua arena.
BOARD_STACK := 8192
BOARD_GUARD := 256
# The no-access null page at address 0 (MPU), in bytes: the 320-byte vector table at 0 under it.
BOARD_NULL_GUARD := 512
# The application image region (docs/images.md): the last 16 KiB of flash,
# at 0x3C000 (1 KiB pages), in both models: every tests/lua script's
# image fits it (the largest 64-bit one is under 16 KiB; 20 of them were
# over the 8 KiB this model had).  The 64-bit firmware takes 237,116 of
# the 245,760 bytes below it (the link fails if it grows into it).
BOARD_APP_IMAGE := 0x4000
# make flash: the EK-LM3S6965's own debug port (FTDI, USB), through openocd.
BOARD_FLASH := openocd
BOARD_OPENOCD := -f board/ek-lm3s6965.cfg
# The arena tests' big arena: half of the 64 KiB RAM.
BOARD_TEST_DEFS := -DTEST_ARENA_BIG=32768
# The hw library: Stellaris GPIO, ADC, timers and UARTs, the SP805
# watchdog.
BOARD_HW := stellaris sp805
