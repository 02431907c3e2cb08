# microbit: nRF51822, 256 KiB flash, 16 KiB RAM.
BOARD_CPU := -mcpu=cortex-m0 -mthumb -mfloat-abi=soft
BOARD_LD := linker/nrf51822.ld
BOARD_QEMU := microbit
# The console: the nRF51 UART on the USB bridge's pins
# (drivers/uart_nrf51.c).
BOARD_UART := nrf51
# The Lua test scripts: from source, only tests/lua/smoke.lua and the C
# stack's two (its 7.5 KiB arena compiles no bigger script); from flash
# images, those of the tiny class (tests/lua/run's --tag tiny), which
# also picks examples/app from its image (tests/run).
BOARD_TEST_LUA := smoke
BOARD_TEST_TAG := tiny
# Optimised for size, the hot files too: the 64-bit model's test images
# (the whole library and the test) overflowed the 256 KiB of flash at -O2.
BOARD_OPT := -Os
BOARD_HOT_OPT := -Os
# 4.5 KiB of stack out of 16 KiB RAM (every byte of stack is a byte of
# arena), in both number models: a C level is refused unless its kind's
# reserve is left (the largest, call's, is 2,280 bytes in the 64-bit
# model: build/microbit-num64/cstack.txt), and the parser takes 80 bytes
# a nested block, 290 a nested function (tests/lua/cstack_parse.lua).
# The 64-bit model, a test configuration here, kept 4 KiB until newlib's
# reentrancy structure (1,064 bytes of .data) left (port/cortex-m/
# syscalls.c): with 4 KiB a metamethod called from table.concat under
# rt.timeout found 1,920 bytes left against the call reserve
# (tests/lua/interrupt.lua); with 4.5 KiB, 2,432.  The unit test image
# with the most .bss (test_arena, 64-bit) leaves 4,152 bytes of arena,
# the minimum being 4 KiB (linker/cortex-m.ld's MIN_ARENA).
BOARD_STACK := 4608
# 32-byte canary guard (no MPU on ARMv6-M here).
BOARD_GUARD := 32
# The no-access null page at address 0 (MPU), in bytes: no MPU.
BOARD_NULL_GUARD := 0
# The application image region (docs/images.md): the last 32 KiB of flash,
# at 0x38000 (1 KiB pages), in the 32-bit model (its firmware takes about
# 210 KiB); in the 64-bit model, a test configuration here, 28 KiB at
# 0x39000: its firmware grew past 224 KiB (229,720 bytes at daacee8; the
# link fails if it grows into the region), and every tests/lua script's
# 64-bit image is under 16 KiB (board/lm3s6965evb/board.mk).
BOARD_APP_IMAGE := $(if $(filter 64,$(RTLUA_NUM)),0x7000,0x8000)
# make flash: the micro:bit's interface chip (DAPLink, CMSIS-DAP over
# USB), through openocd; or FLASH=drive DRIVE=/media/$USER/MICROBIT, the
# firmware as a hex file copied to the drive it shows.
BOARD_FLASH := openocd
BOARD_OPENOCD := -f interface/cmsis-dap.cfg -f target/nrf51.cfg
# The arena tests' big arena: 2 KiB beside the 4 KiB one, in 16 KiB RAM.
BOARD_TEST_DEFS := -DTEST_ARENA_BIG=2048 -DTEST_MODEL_SLOTS=64
# RT_POST_RING: 16 interrupt events in the ring instead of 64 (8 or 16
# bytes each): every library is linked now, and 16 KiB of RAM leaves the
# 64-bit model's test images less than the 4 KiB minimum arena otherwise.
# GC_STEP_SAMPLES: 16 kept step lengths for rt.stats()'s median, not 128.
# PORT_IRQ_SLOTS: 4 interrupts attached at run time (its 3 timers), not 8.
BOARD_EXTRA := -DRT_POST_RING=16 -DGC_STEP_SAMPLES=16 -DPORT_IRQ_SLOTS=4
# The hw library: nRF51 GPIO and timers.
BOARD_HW := nrf51
