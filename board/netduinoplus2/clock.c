/* The console USART's clock gate (USART1, on APB2). */
#include "board.h"
#include "port/cortex-m/cm.h"

void board_clock_init(void)
{
    REG32(BOARD_RCC_APB2ENR) |= BOARD_APB2ENR_USART1;
}
