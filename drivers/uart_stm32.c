/* The console on an ST STM32F2/F4 USART (BOARD_UART := stm32):
 * board.h's BOARD_UART0_BASE at BOARD_USART_BRR (the divider for 115200
 * baud from the USART's bus clock), its clock turned on by the board's
 * board_clock_init. */
#include "board.h"
#include "drivers/uart_drivers.h"
#include "port/cortex-m/cm.h"

void board_uart_init(void)
{
    stm32_usart_init(BOARD_UART0_BASE, BOARD_USART_BRR);
}

void board_uart_putc(int c)
{
    stm32_usart_putc(BOARD_UART0_BASE, c);
}

int board_uart_getc(void)
{
    return stm32_usart_getc(BOARD_UART0_BASE);
}
