/*
 * hw.c — the hw library's view of the Netduino Plus 2 (STM32F405RG):
 * GPIO ports A-D, ADC1, USART2, USART3 and USART6, timers 2-5, from the
 * STM32F405 datasheet and reference manual, checked with QEMU's `info
 * mtree`.  The clocks are the board's 168 MHz configuration: APB1 at
 * 42 MHz (its timers at 84), APB2 at 84 MHz.  QEMU leaves the GPIO ports
 * unimplemented and does not map the unique id (0x1FFF7A10), so hw.info
 * has no uid here.  No watchdog: the independent watchdog has no warning
 * interrupt to note the reset cause with.
 */
#include "board.h"
#include "drivers/hw_drivers.h"

#define RCC_AHB1ENR 0x40023830u
#define RCC_APB1ENR 0x40023840u
#define RCC_APB2ENR 0x40023844u
#define APB1_HZ 42000000u
#define APB1_TIMER_HZ 84000000u
#define APB2_HZ 84000000u
#define GATE(reg, bit)                                                        \
    {                                                                         \
        (reg), 1u << (bit)                                                    \
    }

static const hw_port ports[] = {
    {&hw_gpio_stm32, 0x40020000u, GATE(RCC_AHB1ENR, 0), 0, 16, "PA"},
    {&hw_gpio_stm32, 0x40020400u, GATE(RCC_AHB1ENR, 1), 16, 16, "PB"},
    {&hw_gpio_stm32, 0x40020800u, GATE(RCC_AHB1ENR, 2), 32, 16, "PC"},
    {&hw_gpio_stm32, 0x40020C00u, GATE(RCC_AHB1ENR, 3), 48, 16, "PD"},
};

/* The board's blue LED and its button. */
static const hw_alias aliases[] = {{"led", 10}, {"button", 27}};

static const hw_adc adc = {
    &hw_adc_stm32, 0x40012000u, GATE(RCC_APB2ENR, 8), 16, 12, 0, {0, 0}};

static const hw_uart uarts[] = {
    {&hw_uart_stm32, 0x40004400u, GATE(RCC_APB1ENR, 17), APB1_HZ, 38, -1, 2},
    {&hw_uart_stm32, 0x40004800u, GATE(RCC_APB1ENR, 18), APB1_HZ, 39, -1, 3},
    {&hw_uart_stm32, 0x40011400u, GATE(RCC_APB2ENR, 5), APB2_HZ, 71, -1, 6},
};

static const hw_timer timers[] = {
    {&hw_timer_stm32, 0x40000000u, GATE(RCC_APB1ENR, 0), APB1_TIMER_HZ, 28},
    {&hw_timer_stm32, 0x40000400u, GATE(RCC_APB1ENR, 1), APB1_TIMER_HZ, 29},
    {&hw_timer_stm32, 0x40000800u, GATE(RCC_APB1ENR, 2), APB1_TIMER_HZ, 30},
    {&hw_timer_stm32, 0x40000C00u, GATE(RCC_APB1ENR, 3), APB1_TIMER_HZ, 50},
};

/* The reference manual's map, without its reserved holes. */
static const hw_range ranges[] = {
    {0x40000000u, 0x400023FFu}, /* TIM2-7, TIM12-14 */
    {0x40002800u, 0x400033FFu}, /* RTC, WWDG, IWDG */
    {0x40003800u, 0x40005FFFu}, /* SPI2-3, USART2-3, UART4-5, I2C1-3 */
    {0x40006400u, 0x40006BFFu}, /* CAN1-2 */
    {0x40007000u, 0x400077FFu}, /* PWR, DAC */
    {0x40010000u, 0x400107FFu}, /* TIM1, TIM8 */
    {0x40011000u, 0x400117FFu}, /* USART1, USART6 */
    {0x40012000u, 0x400123FFu}, /* ADC1-3 */
    {0x40012C00u, 0x40013FFFu}, /* SDIO, SPI1, SYSCFG, EXTI */
    {0x40014000u, 0x40014BFFu}, /* TIM9-11 */
    {0x40020000u, 0x400223FFu}, /* GPIOA-I */
    {0x40023000u, 0x400233FFu}, /* CRC */
    {0x40023800u, 0x400243FFu}, /* RCC, flash interface, backup SRAM */
    {0x40026000u, 0x400267FFu}, /* DMA1-2 */
    {0x50060800u, 0x50060BFFu}, /* RNG */
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
    .ranges = ranges,
    .nranges = sizeof ranges / sizeof ranges[0],
};

const hw_board *hw_board_get(void)
{
    return &desc;
}
