# mps2-an386: ARM MPS2 with AN386, the Cortex-M4 image with single-precision FPU.
# The MPS2 images differ in their core alone: mps2-an385's facts (memory
# map, console, stack, image region, flashing, tests, hw drivers), with
# this core and QEMU machine.
include board/mps2-an385/board.mk
BOARD_CPU := -mcpu=cortex-m4 -mthumb -mfpu=fpv4-sp-d16 -mfloat-abi=hard
BOARD_QEMU := mps2-an386
# The MPS2 images share one hw table.
BOARD_HW_SRCS := board/mps2-an385/hw.c
