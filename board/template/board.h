/* template: copy this folder to board/<name>/ and fill in the facts. */
#ifndef RTLUA_BOARD_H
#define RTLUA_BOARD_H

#define BOARD_NAME "template"
#define BOARD_CORE "Cortex-M3"
/* The core clock after board_init, which SysTick counts. */
#define BOARD_CLOCK_HZ 25000000u
/* Interrupt lines in the chip's vector table (at most 100). */
#define BOARD_IRQ_COUNT 32
/* 1 where the core has a PMSAv7 MPU (the stack guard and read-only flash
 * use two regions); 0 on ARMv6-M, where the guard is a canary. */
#define BOARD_HAS_MPU 1
/* The console UART's base address. */
#define BOARD_UART0_BASE 0x40004000u

#endif
