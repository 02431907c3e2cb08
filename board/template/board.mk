# template: say which chip this is and why each number is what it is.
BOARD_CPU := -mcpu=cortex-m3 -mthumb -mfloat-abi=soft
# The chip's memory map, in linker/ (MEMORY { FLASH RAM } + cortex-m.ld).
BOARD_LD := linker/mps2.ld
# The QEMU machine (qemu-system-arm -M help), or empty for none.
BOARD_QEMU := mps2-an385
# Stack bytes; what is left of RAM after .data/.bss/stack is the arena.
BOARD_STACK := 8192
# Guard below the stack: a power of two (>= 32), the MPU region's size.
BOARD_GUARD := 256
# The application image region's size (docs/images.md): the last bytes of
# flash, whole erase pages, that rtluac's images may fill.
BOARD_APP_IMAGE := 0x10000
# openocd arguments for `make flash`, empty when there are none.
BOARD_OPENOCD :=
# Sizes for the unit tests that must fit this board's RAM.
BOARD_TEST_DEFS := -DTEST_ARENA_BIG=32768
# The hw library's drivers (board/drivers/hw_NAME.c) hw.c uses.
BOARD_HW := reg
