/* Console on the nRF51 UART, routed to the micro:bit's USB bridge pins. */
#include "board.h"
#include "board/drivers/uart_drivers.h"
#include "port/cortex-m/cm.h"

void board_init(void)
{
    nrf51_uart_init(BOARD_UART0_BASE, BOARD_UART_TXPIN, BOARD_UART_RXPIN);
}

void board_uart_putc(int c)
{
    nrf51_uart_putc(BOARD_UART0_BASE, c);
}

int board_uart_getc(void)
{
    return nrf51_uart_getc(BOARD_UART0_BASE);
}
