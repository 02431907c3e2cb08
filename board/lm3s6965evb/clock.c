/* Clock to 50 MHz, and the console UART0's clock (a PL011) and pins: PA0
 * (U0Rx) and PA1 (U0Tx), which reset as plain GPIO with their digital
 * buffers off (QEMU's model keeps the registers; a chip needs them). */
#include "board.h"
#include "port/cortex-m/cm.h"

/* The datasheet's PLL sequence: bypass, crystal and divider, wait for
 * lock, then switch the system clock to the PLL. */
static void clock_init(void)
{
    uint32_t rcc = REG32(BOARD_SYSCTL_RCC);
    rcc |= BOARD_RCC_BYPASS;
    rcc &= ~BOARD_RCC_USESYSDIV;
    REG32(BOARD_SYSCTL_RCC) = rcc;
    rcc &= ~(BOARD_RCC_XTAL_MASK | BOARD_RCC_OSCSRC_MASK | BOARD_RCC_PWRDN |
             BOARD_RCC_SYSDIV_MASK);
    rcc |= BOARD_RCC_XTAL_8MHZ | BOARD_RCC_SYSDIV_4 | BOARD_RCC_USESYSDIV;
    REG32(BOARD_SYSCTL_RCC) = rcc;
    for (int i = 0; i < BOARD_PLL_LOCK_POLLS; i++)
        if (REG32(BOARD_SYSCTL_RIS) & BOARD_RIS_PLLLRIS)
            break;
    rcc &= ~BOARD_RCC_BYPASS;
    REG32(BOARD_SYSCTL_RCC) = rcc;
}

void board_clock_init(void)
{
    clock_init();
    REG32(BOARD_SYSCTL_RCGC1) |= BOARD_RCGC1_UART0;
    REG32(BOARD_SYSCTL_RCGC2) |= BOARD_RCGC2_GPIOA;
    /* A gated peripheral answers a few clocks after its gate opens. */
    (void)REG32(BOARD_SYSCTL_RCGC2);
    (void)REG32(BOARD_SYSCTL_RCGC2);
    REG32(BOARD_GPIOA_BASE + BOARD_GPIO_AFSEL) |= BOARD_UART0_PINS;
    REG32(BOARD_GPIOA_BASE + BOARD_GPIO_DEN) |= BOARD_UART0_PINS;
}
