/* lm3s6965evb: TI Stellaris LM3S6965 evaluation board (Cortex-M3). */
#ifndef RTLUA_BOARD_H
#define RTLUA_BOARD_H

#define BOARD_NAME "lm3s6965evb"
#define BOARD_CORE "Cortex-M3"
/* board_clock_init runs the PLL (200 MHz) divided by 4: the chip's 50 MHz
 * maximum, which QEMU's model also derives from RCC. */
#define BOARD_CLOCK_HZ 50000000u
/* LM3S6965 has 43 interrupt sources; the NVIC decodes 64. */
#define BOARD_IRQ_COUNT 64
#define BOARD_HAS_MPU 1
#define BOARD_UART0_BASE 0x4000C000u
#define BOARD_SYSCTL_RIS 0x400FE050u
#define BOARD_SYSCTL_RCC 0x400FE060u
#define BOARD_SYSCTL_RCGC1 0x400FE104u
#define BOARD_RIS_PLLLRIS (1u << 6)
#define BOARD_RCC_XTAL_MASK (0xFu << 6)
#define BOARD_RCC_XTAL_8MHZ (0xEu << 6) /* the EK board's crystal */
#define BOARD_RCC_OSCSRC_MASK (3u << 4)
#define BOARD_RCC_BYPASS (1u << 11)
#define BOARD_RCC_PWRDN (1u << 13)
#define BOARD_RCC_USESYSDIV (1u << 22)
#define BOARD_RCC_SYSDIV_MASK (0xFu << 23)
#define BOARD_RCC_SYSDIV_4 (3u << 23) /* 200 MHz / 4 = 50 MHz */
/* Polls of RIS waiting for the PLL to lock before giving up. */
#define BOARD_PLL_LOCK_POLLS 100000
#define BOARD_RCGC1_UART0 (1u << 0)
#define BOARD_SYSCTL_RCGC2 0x400FE108u
#define BOARD_RCGC2_GPIOA (1u << 0)
#define BOARD_GPIOA_BASE 0x40004000u
#define BOARD_GPIO_AFSEL 0x420u
#define BOARD_GPIO_DEN 0x51Cu
#define BOARD_UART0_PINS 3u /* PA0 U0Rx, PA1 U0Tx */

#endif
