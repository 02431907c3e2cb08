/* template: copy this folder to board/<name>/ and fill in the facts
 * (docs/porting.md); then delete the #error. */
#ifndef RTLUA_BOARD_H
#define RTLUA_BOARD_H

#error "board.h: the template's facts are not filled in (docs/porting.md)"

/* The folder's name. */
#define BOARD_NAME "template"
/* The core, for the banner, e.g. "Cortex-M3". */
#define BOARD_CORE ""
/* The core clock after board_clock_init, which SysTick counts. */
#define BOARD_CLOCK_HZ 0u
/* Interrupt lines in the chip's vector table (at most 100). */
#define BOARD_IRQ_COUNT 0
/* 1 where the core has a PMSAv7 MPU (the stack guard and read-only flash
 * use two regions); 0 on ARMv6-M, where the guard is a canary. */
#define BOARD_HAS_MPU 0
/* The console UART's base address (and what its driver in drivers/
 * needs besides: pins, a baud divider). */
#define BOARD_UART0_BASE 0u

#endif
