# template: copy this folder to board/<name>/ (docs/porting.md), then say
# which chip this is and give every number its reason, as the boards do.
# Until each required variable is set, `make BOARD=<name>` stops with the
# first one missing; board.h stops the compiler until it is filled in.
#
# Compiler and linker CPU flags, e.g. -mcpu=cortex-m3 -mthumb -mfloat-abi=soft.
BOARD_CPU :=
# The chip's memory map, linker/<chip>.ld (MEMORY { FLASH RAM } + cortex-m.ld).
BOARD_LD :=
# The QEMU machine (qemu-system-arm -M help), or empty for none: the board
# is then built and checked on the host, and untested on QEMU.
BOARD_QEMU :=
# The console's UART driver, drivers/uart_NAME.c: cmsdk, pl011, stm32 or
# nrf51 (a new one is a new file there).
BOARD_UART :=
# Stack bytes; what is left of RAM after .data/.bss/stack is the arena.
BOARD_STACK :=
# Guard below the stack: a power of two (>= 32), the MPU region's size.
BOARD_GUARD :=
# The no-access null page at address 0 (MPU), in bytes, a power of two
# (>= 256) that the vector table fits under; 0 without an MPU.
BOARD_NULL_GUARD :=
# The application image region's size (docs/images.md): the last bytes of
# flash, whole erase pages, that rtluac's images may fill.
BOARD_APP_IMAGE :=
# The Lua test scripts tests/run gives the board: all of them, or smoke
# (tests/lua/smoke.lua and the C stack's) where the arena compiles no more.
BOARD_TEST_LUA :=
# The scripts' size class the arena holds (tests/lua/run --tag): board
# (4 MiB), small (tens of KiB) or tiny (under 8 KiB).
BOARD_TEST_TAG :=
# How `make flash` programs the board (tools/flash): openocd, dfu,
# drive or sdcard; empty when it cannot.
BOARD_FLASH :=
# openocd arguments for FLASH=openocd, empty when there are none.
BOARD_OPENOCD :=
# The USB DFU boot loader's vendor:product for FLASH=dfu (dfu-util).
BOARD_DFU :=
# Sizes for the unit tests that must fit this board's RAM,
# e.g. -DTEST_ARENA_BIG=32768.
BOARD_TEST_DEFS :=
# The hw library's drivers (drivers/hw_NAME.c) hw.c's tables name.
BOARD_HW :=
