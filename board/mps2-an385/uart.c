/* Console on CMSDK UART0. */
#include "board.h"
#include "board/drivers/uart_drivers.h"
#include "port/cortex-m/cm.h"

void board_init(void)
{
    cmsdk_uart_init(BOARD_UART0_BASE);
}

void board_uart_putc(int c)
{
    cmsdk_uart_putc(BOARD_UART0_BASE, c);
}

int board_uart_getc(void)
{
    return cmsdk_uart_getc(BOARD_UART0_BASE);
}

void board_uart_rx_off(void)
{
    UART_REG(BOARD_UART0_BASE, CMSDK_CTRL) &= ~CMSDK_CTRL_RXEN;
}
