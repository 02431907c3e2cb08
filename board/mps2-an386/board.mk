# mps2-an386: ARM MPS2 with AN386, the Cortex-M4 image with single-precision FPU.
BOARD_CPU := -mcpu=cortex-m4 -mthumb -mfpu=fpv4-sp-d16 -mfloat-abi=hard
BOARD_LD := linker/mps2.ld
BOARD_QEMU := mps2-an386
# The console: CMSDK UART0 (drivers/uart_cmsdk.c).
BOARD_UART := cmsdk
# Every Lua test script (tests/run), with the MPS2 images' 4 MiB arena:
# the "--! big" ones too.
BOARD_TEST_LUA := all
BOARD_TEST_TAG := board
# 64 KiB of stack: RAM is plentiful (4 MiB) and deep recursion stays cheap.
BOARD_STACK := 65536
# 256-byte MPU guard: catches frames up to 256 bytes that skip a smaller one.
BOARD_GUARD := 256
# The no-access null page at address 0 (MPU), in bytes: the 192-byte vector table at 0 under it.
BOARD_NULL_GUARD := 256
# The application image region (docs/images.md): the top 1 MiB of the 4 MiB
# of code memory, at 0x300000; the firmware takes about 250 KiB.
BOARD_APP_IMAGE := 0x100000
# An FPGA board that loads its SD card at power-on: make flash copies
# the files there (SDCARD=its mount point) or prints the steps.
BOARD_FLASH := sdcard
BOARD_OPENOCD :=
# The arena tests' big arena: 2 MiB of the 4 MiB RAM.
BOARD_TEST_DEFS := -DTEST_ARENA_BIG=2097152 -DBENCH_MAX_STEPS=60000
# The hw library: CMSDK GPIO, timers and UARTs, the SP805 watchdog, the
# FPGA's LED and button registers.
BOARD_HW := reg cmsdk sp805
# The MPS2 images share one hw table.
BOARD_HW_SRCS := board/mps2-an385/hw.c
