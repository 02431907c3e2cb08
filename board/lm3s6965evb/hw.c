/*
 * hw.c — the hw library's view of the EK-LM3S6965: the Stellaris GPIO
 * ports A-G, the ADC, UART1 and UART2, general-purpose timers 0-2 (3 is the
 * ADC's) and the watchdog, from the LM3S6965 datasheet, checked with QEMU's
 * `info mtree`.  Every peripheral is clock-gated (RCGC0-2): an access to one
 * not clocked is a bus fault on the chip (QEMU does not model the gates),
 * so the library turns an entry's gate on before using it.
 */
#include "board.h"
#include "drivers/hw_drivers.h"

#define RCGC0 0x400FE100u
#define RCGC1 0x400FE104u
#define RCGC2 0x400FE108u
#define GATE(reg, bit)                                                        \
    {                                                                         \
        (reg), 1u << (bit)                                                    \
    }

static const hw_port ports[] = {
    {&hw_gpio_pl061, 0x40004000u, GATE(RCGC2, 0), 0, 8, "PA"},
    {&hw_gpio_pl061, 0x40005000u, GATE(RCGC2, 1), 8, 8, "PB"},
    {&hw_gpio_pl061, 0x40006000u, GATE(RCGC2, 2), 16, 8, "PC"},
    {&hw_gpio_pl061, 0x40007000u, GATE(RCGC2, 3), 24, 8, "PD"},
    {&hw_gpio_pl061, 0x40024000u, GATE(RCGC2, 4), 32, 8, "PE"},
    {&hw_gpio_pl061, 0x40025000u, GATE(RCGC2, 5), 40, 8, "PF"},
    {&hw_gpio_pl061, 0x40026000u, GATE(RCGC2, 6), 48, 8, "PG"},
};

/* The EK board's user LED (PF0), select button (PF1) and navigation
 * switches (PE0-3). */
static const hw_alias aliases[] = {
    {"led", 40},  {"select", 41}, {"up", 32},
    {"down", 33}, {"left", 34},   {"right", 35},
};

/* Conversions start on a one-shot of timer 3 (hw_stellaris.c says why),
 * which hw.timer therefore leaves out. */
static const hw_adc adc = {
    &hw_adc_stellaris, 0x40038000u,    GATE(RCGC0, 16), 4, 10,
    0x40033000u,       GATE(RCGC1, 19)};

static const hw_uart uarts[] = {
    {&hw_uart_pl011, 0x4000D000u, GATE(RCGC1, 1), BOARD_CLOCK_HZ, 6, -1, 1},
    {&hw_uart_pl011, 0x4000E000u, GATE(RCGC1, 2), BOARD_CLOCK_HZ, 33, -1, 2},
};

/* Timer A of timers 0-2 (32-bit, periodic). */
static const hw_timer timers[] = {
    {&hw_timer_gptm, 0x40030000u, GATE(RCGC1, 16), BOARD_CLOCK_HZ, 19},
    {&hw_timer_gptm, 0x40031000u, GATE(RCGC1, 17), BOARD_CLOCK_HZ, 21},
    {&hw_timer_gptm, 0x40032000u, GATE(RCGC1, 18), BOARD_CLOCK_HZ, 23},
};

static const hw_wdog wdog = {&hw_wdog_sp805, 0x40000000u, GATE(RCGC0, 3),
                             BOARD_CLOCK_HZ, 18};

/* The datasheet's memory map, without its reserved holes (which fault). */
static const hw_range ranges[] = {
    {0x40000000u, 0x40000FFFu}, /* watchdog */
    {0x40004000u, 0x40008FFFu}, /* GPIO A-D, SSI0 */
    {0x4000C000u, 0x4000EFFFu}, /* UART0-2 */
    {0x40020000u, 0x40021FFFu}, /* I2C0-1 */
    {0x40024000u, 0x40028FFFu}, /* GPIO E-G, PWM */
    {0x4002C000u, 0x4002DFFFu}, /* QEI0-1 */
    {0x40030000u, 0x40033FFFu}, /* timers 0-3 */
    {0x40038000u, 0x40038FFFu}, /* ADC */
    {0x4003C000u, 0x4003CFFFu}, /* analog comparators */
    {0x40048000u, 0x40048FFFu}, /* Ethernet */
    {0x400FC000u, 0x400FCFFFu}, /* hibernation */
    {0x400FE000u, 0x400FEFFFu}, /* system control */
};

static const hw_board desc = {
    .ports = ports,
    .nports = sizeof ports / sizeof ports[0],
    .aliases = aliases,
    .naliases = sizeof aliases / sizeof aliases[0],
    .adc = &adc,
    .uarts = uarts,
    .nuarts = sizeof uarts / sizeof uarts[0],
    .timers = timers,
    .ntimers = sizeof timers / sizeof timers[0],
    .wdog = &wdog,
    .ranges = ranges,
    .nranges = sizeof ranges / sizeof ranges[0],
};

const hw_board *hw_board_get(void)
{
    return &desc;
}
