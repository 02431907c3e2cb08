/* netduinoplus2: Netduino Plus 2, ST STM32F405RG (Cortex-M4F). */
#ifndef RTLUA_BOARD_H
#define RTLUA_BOARD_H

#define BOARD_NAME "netduinoplus2"
#define BOARD_CORE "Cortex-M4F"
/* QEMU's model runs the core (and SysTick) at the chip's 168 MHz maximum. */
#define BOARD_CLOCK_HZ 168000000u
/* STM32F405 vector table: 82 interrupt lines. */
#define BOARD_IRQ_COUNT 82
#define BOARD_HAS_MPU 1
#define BOARD_UART0_BASE 0x40011000u /* USART1, QEMU's first serial port */
#define BOARD_RCC_APB2ENR 0x40023844u
#define BOARD_APB2ENR_USART1 (1u << 4)
/* 115200 baud from an 84 MHz APB2 clock. */
#define BOARD_USART_BRR 0x2D9u

#endif
