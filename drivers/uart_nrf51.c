/* The console on the Nordic nRF51 UART (BOARD_UART := nrf51):
 * board.h's BOARD_UART0_BASE, on the pins BOARD_UART_TXPIN and
 * BOARD_UART_RXPIN. */
#include "board.h"
#include "drivers/uart_drivers.h"
#include "port/cortex-m/cm.h"

void board_uart_init(void)
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
