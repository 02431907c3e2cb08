/*
 * hw_drivers.h — the drivers of drivers/hw_*.c, for the boards'
 * tables (board/<name>/hw.c).  A board links the files its board.mk
 * names in BOARD_HW.
 */
#ifndef RTLUA_HW_DRIVERS_H
#define RTLUA_HW_DRIVERS_H

#include "port/hw.h"

/* hw_reg.c: bits of one register (outputs read back; inputs). */
extern const hw_gpio_ops hw_gpio_reg_out, hw_gpio_reg_in;

/* hw_cmsdk.c: ARM CMSDK GPIO, APB timer and UART (MPS2). */
extern const hw_gpio_ops hw_gpio_cmsdk;
extern const hw_timer_ops hw_timer_cmsdk;
extern const hw_uart_ops hw_uart_cmsdk;

/* hw_sp805.c: the ARM SP805 watchdog (CMSDK's, and the Stellaris one). */
extern const hw_wdog_ops hw_wdog_sp805;

/* hw_stellaris.c: TI Stellaris GPIO (PL061), general-purpose timers,
 * ADC and UARTs (PL011). */
extern const hw_gpio_ops hw_gpio_pl061;
extern const hw_timer_ops hw_timer_gptm;
extern const hw_adc_ops hw_adc_stellaris;
extern const hw_uart_ops hw_uart_pl011;

/* hw_stm32.c: ST STM32F4 GPIO, timers 2-5, ADC and USARTs. */
extern const hw_gpio_ops hw_gpio_stm32;
extern const hw_timer_ops hw_timer_stm32;
extern const hw_adc_ops hw_adc_stm32;
extern const hw_uart_ops hw_uart_stm32;

/* hw_nrf51.c: Nordic nRF51 GPIO and timers. */
extern const hw_gpio_ops hw_gpio_nrf51;
extern const hw_timer_ops hw_timer_nrf51;

#endif
