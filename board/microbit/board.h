/* microbit: BBC micro:bit v1, Nordic nRF51822 (Cortex-M0). */
#ifndef RTLUA_BOARD_H
#define RTLUA_BOARD_H

#define BOARD_NAME "microbit"
#define BOARD_CORE "Cortex-M0"
/* The nRF51's 16 MHz HFCLK. */
#define BOARD_CLOCK_HZ 16000000u
/* nRF51 peripherals use interrupt lines 0..31. */
#define BOARD_IRQ_COUNT 32
/* ARMv6-M without an MPU: the stack guard is a canary. */
#define BOARD_HAS_MPU 0
#define BOARD_UART0_BASE 0x40002000u
/* micro:bit edge connector: TX on P0.24, RX on P0.25 (to the USB bridge). */
#define BOARD_UART_TXPIN 24u
#define BOARD_UART_RXPIN 25u
/* The nRF51's random number generator (thermal noise, a byte at a time),
 * which seeds the string hash (board_entropy). */
#define BOARD_RNG_BASE 0x4000D000u

#endif
