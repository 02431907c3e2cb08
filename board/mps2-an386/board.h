/* mps2-an386: ARM MPS2 FPGA board, AN386, the Cortex-M4 image with
 * single-precision FPU. */
#ifndef RTLUA_BOARD_H
#define RTLUA_BOARD_H

#define BOARD_NAME "mps2-an386"
#define BOARD_CORE "Cortex-M4F"
/* The FPGA's system clock; QEMU clocks SysTick's processor source at it. */
#define BOARD_CLOCK_HZ 25000000u
/* The CMSDK interrupt lines QEMU wires to the NVIC. */
#define BOARD_IRQ_COUNT 32
#define BOARD_HAS_MPU 1
#define BOARD_UART0_BASE 0x40004000u
/* 16 MiB of PSRAM beside the 4 MiB SSRAM (QEMU's mps.ram, the board's
 * PSRAM): not part of the arena, but benchmarks may use it. */
#define BOARD_PSRAM_BASE 0x21000000u
#define BOARD_PSRAM_BYTES (16u << 20)

#endif
