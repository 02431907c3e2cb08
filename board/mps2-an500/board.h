/* mps2-an500: ARM MPS2 FPGA board, AN500, the Cortex-M7 image with
 * double-precision FPU. */
#ifndef RTLUA_BOARD_H
#define RTLUA_BOARD_H

#define BOARD_NAME "mps2-an500"
#define BOARD_CORE "Cortex-M7"
/* The FPGA's system clock; QEMU clocks SysTick's processor source at it. */
#define BOARD_CLOCK_HZ 25000000u
/* The CMSDK interrupt lines QEMU wires to the NVIC. */
#define BOARD_IRQ_COUNT 32
#define BOARD_HAS_MPU 1
#define BOARD_UART0_BASE 0x40004000u

#endif
