# microbit: nRF51822, 256 KiB flash, 16 KiB RAM.
BOARD_CPU := -mcpu=cortex-m0 -mthumb -mfloat-abi=soft
BOARD_LD := linker/nrf51822.ld
BOARD_QEMU := microbit
# Optimised for size, the hot files too: the 64-bit model's test images
# (the whole library and the test) overflowed the 256 KiB of flash at -O2.
BOARD_OPT := -Os
BOARD_HOT_OPT := -Os
# 4 KiB of stack out of 16 KiB RAM (every byte of stack is a byte of
# arena): the compiler and the error path need about 3 KiB.
BOARD_STACK := 4096
# 32-byte canary guard (no MPU on ARMv6-M here).
BOARD_GUARD := 32
# The application image region (docs/images.md): the last 32 KiB of flash,
# at 0x38000 (1 KiB pages); the firmware takes under 200 KiB.
BOARD_APP_IMAGE := 0x8000
BOARD_OPENOCD := -f interface/cmsis-dap.cfg -f target/nrf51.cfg
# The arena tests' big arena: 2 KiB beside the 4 KiB one, in 16 KiB RAM.
BOARD_TEST_DEFS := -DTEST_ARENA_BIG=2048 -DTEST_MODEL_SLOTS=64
# C stack kept for the error path when a level is refused ("C stack
# overflow"): less than the default 1536, or 3 KiB would leave the
# compiler too few levels for ordinary code.
# RT_POST_RING: 16 interrupt events in the ring instead of 64 (8 or 16
# bytes each): every library is linked now, and 16 KiB of RAM leaves the
# 64-bit model's test images less than the 4 KiB minimum arena otherwise.
# GC_STEP_SAMPLES: 16 kept step lengths for rt.stats()'s median, not 128.
# PORT_IRQ_SLOTS: 4 interrupts attached at run time (its 3 timers), not 8.
BOARD_EXTRA := -DLUAI_CSTACK_KEEP=1024 -DRT_POST_RING=16 -DGC_STEP_SAMPLES=16 \
               -DPORT_IRQ_SLOTS=4
# The hw library: nRF51 GPIO and timers.
BOARD_HW := nrf51
