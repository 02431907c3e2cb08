# mps2-an500: ARM MPS2 with AN500, the Cortex-M7 image with double-precision FPU.
# The MPS2 images differ in their core alone: mps2-an385's facts (memory
# map, console, stack, image region, flashing, tests, hw drivers), with
# this core and QEMU machine.
include board/mps2-an385/board.mk
BOARD_CPU := -mcpu=cortex-m7 -mthumb -mfpu=fpv5-d16 -mfloat-abi=hard
BOARD_QEMU := mps2-an500
# The MPS2 images share one hw table.
BOARD_HW_SRCS := board/mps2-an385/hw.c
