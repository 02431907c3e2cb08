/* The console on an ARM CMSDK APB UART (BOARD_UART := cmsdk; the MPS2
 * images): board.h's BOARD_UART0_BASE. */
#include "board.h"
#include "drivers/uart_drivers.h"
#include "port/cortex-m/cm.h"

void board_uart_init(void)
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
