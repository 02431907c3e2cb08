/* Console on USART1. */
#include "board.h"
#include "board/drivers/uart_drivers.h"
#include "port/cortex-m/cm.h"

void board_init(void)
{
    REG32(BOARD_RCC_APB2ENR) |= BOARD_APB2ENR_USART1;
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
