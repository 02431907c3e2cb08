/* The console on an ARM PL011 (BOARD_UART := pl011; Stellaris):
 * board.h's BOARD_UART0_BASE at 115200 baud from BOARD_CLOCK_HZ, its
 * clock and pins turned on by the board's board_clock_init. */
#include "board.h"
#include "drivers/uart_drivers.h"
#include "port/cortex-m/cm.h"

void board_uart_init(void)
{
    pl011_init(BOARD_UART0_BASE, BOARD_CLOCK_HZ);
}

void board_uart_putc(int c)
{
    pl011_putc(BOARD_UART0_BASE, c);
}

int board_uart_getc(void)
{
    return pl011_getc(BOARD_UART0_BASE);
}
