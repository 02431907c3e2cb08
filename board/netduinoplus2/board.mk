# netduinoplus2: STM32F405RG, 1 MiB flash, 128 KiB RAM (QEMU models 192).
BOARD_CPU := -mcpu=cortex-m4 -mthumb -mfpu=fpv4-sp-d16 -mfloat-abi=hard
BOARD_LD := linker/stm32f405.ld
BOARD_QEMU := netduinoplus2
# The console: USART1 (drivers/uart_stm32.c), clocked by clock.c.
BOARD_UART := stm32
# Every Lua test script that fits a 128 KiB RAM (tests/run).
BOARD_TEST_LUA := all
BOARD_TEST_TAG := small
# 8 KiB of stack out of 128 KiB RAM.
BOARD_STACK := 8192
BOARD_GUARD := 256
# The no-access null page at address 0 (MPU), in bytes: flash is at 0x08000000; 0 is its alias.
BOARD_NULL_GUARD := 256
# The application image region (docs/images.md): flash sectors 10 and 11,
# the last 256 KiB at 0x080C0000 (erased apart from the firmware's).
BOARD_APP_IMAGE := 0x40000
# make flash: the STM32's USB DFU boot loader, which the board has no
# probe but its USB port for (hold the button while plugging it in),
# with dfu-util; or FLASH=openocd with an ST-LINK on its SWD pins.
BOARD_FLASH := dfu
BOARD_DFU := 0483:df11
BOARD_OPENOCD := -f interface/stlink.cfg -f target/stm32f4x.cfg
# The arena tests' big arena: half of the 128 KiB RAM.
BOARD_TEST_DEFS := -DTEST_ARENA_BIG=65536
# The hw library: STM32 GPIO, ADC, timers and USARTs.
BOARD_HW := stm32
