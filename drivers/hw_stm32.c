/*
 * hw_stm32.c — ST STM32F4 peripherals: GPIO, the general-purpose timers
 * 2-5, the ADC and the USARTs, from the reference manual (RM0090).  QEMU's
 * netduinoplus2 models the timers, the ADC and the USARTs; its GPIO ports
 * are unimplemented devices (reads 0, writes ignored).
 */
#include "drivers/hw_drivers.h"
#include "drivers/uart_drivers.h"

#define REG(base, off) (*(volatile uint32_t *)((base) + (off)))

/* ---- GPIO --------------------------------------------------------------- */

#define GPIO_MODER 0x00u
#define GPIO_PUPDR 0x0Cu
#define GPIO_IDR 0x10u
#define GPIO_BSRR 0x18u
#define GPIO_MODE_IN 0u
#define GPIO_MODE_OUT 1u
#define GPIO_PULL_NONE 0u
#define GPIO_PULL_UP 1u
#define GPIO_PULL_DOWN 2u
#define GPIO_FIELD 3u /* two bits a pin */

static void set_field(uintptr_t base, uint32_t off, unsigned bit, uint32_t v)
{
    uint32_t r = REG(base, off) & ~(GPIO_FIELD << (2 * bit));
    REG(base, off) = r | v << (2 * bit);
}

static int gpio_mode(uintptr_t base, unsigned bit, int mode)
{
    uint32_t pull = mode == HW_PULLUP     ? GPIO_PULL_UP
                    : mode == HW_PULLDOWN ? GPIO_PULL_DOWN
                                          : GPIO_PULL_NONE;
    set_field(base, GPIO_PUPDR, bit, pull);
    set_field(base, GPIO_MODER, bit,
              mode == HW_OUT ? GPIO_MODE_OUT : GPIO_MODE_IN);
    return 0;
}

static void gpio_write(uintptr_t base, unsigned bit, int level)
{
    REG(base, GPIO_BSRR) = level ? 1u << bit : 1u << (bit + 16);
}

static int gpio_read(uintptr_t base, unsigned bit)
{
    return (int)((REG(base, GPIO_IDR) >> bit) & 1u);
}

const hw_gpio_ops hw_gpio_stm32 = {gpio_mode, gpio_write, gpio_read};

/* ---- Timers 2-5 --------------------------------------------------------- */

#define TIM_CR1 0x00u
#define TIM_DIER 0x0Cu
#define TIM_SR 0x10u
#define TIM_EGR 0x14u
#define TIM_PSC 0x28u
#define TIM_ARR 0x2Cu
#define TIM_CR1_CEN (1u << 0)
#define TIM_UIF (1u << 0) /* update: DIER's UIE, SR's UIF, EGR's UG */
/* Counts of ARR and PSC: 16 bits on every timer (2 and 5 have 32). */
#define TIM_MAX 0x10000u

/* The counter runs 0..ARR at clock / (PSC + 1): a period is
 * (PSC + 1) * (ARR + 1) ticks of the clock. */
static int tim_start(const hw_timer *t, uint32_t hz)
{
    uint32_t ticks = t->clk_hz / hz;
    uint32_t psc = (ticks - 1u) / TIM_MAX;
    uint32_t arr = ticks / (psc + 1u);
    if (ticks < 2 || psc >= TIM_MAX || arr < 2)
        return -1;
    REG(t->base, TIM_CR1) = 0;
    REG(t->base, TIM_PSC) = psc;
    REG(t->base, TIM_ARR) = arr - 1u;
    REG(t->base, TIM_EGR) = TIM_UIF; /* load PSC now (raises UIF) */
    REG(t->base, TIM_SR) = 0;
    REG(t->base, TIM_DIER) = TIM_UIF;
    REG(t->base, TIM_CR1) = TIM_CR1_CEN;
    return 0;
}

static void tim_stop(const hw_timer *t)
{
    REG(t->base, TIM_CR1) = 0;
    REG(t->base, TIM_DIER) = 0;
    REG(t->base, TIM_SR) = 0;
}

static void tim_ack(const hw_timer *t)
{
    REG(t->base, TIM_SR) = 0;
}

const hw_timer_ops hw_timer_stm32 = {tim_start, tim_stop, tim_ack};

/* ---- ADC ---------------------------------------------------------------- */

#define ADC_SR 0x00u
#define ADC_CR2 0x08u
#define ADC_SQR1 0x2Cu
#define ADC_SQR3 0x34u
#define ADC_DR 0x4Cu
#define ADC_SR_EOC (1u << 1)
#define ADC_CR2_ADON (1u << 0)
#define ADC_CR2_SWSTART (1u << 30)
/* Polls of SR for the end of the conversion: 15 ADC clocks at 21 MHz
 * and the sampling, under 1 us, which is about 25 polls at 168 MHz. */
#define ADC_POLLS 200

/* One regular conversion (SQR1's length 0: one), started by software.
 * QEMU's model never raises EOC: it converts as DR is read after a
 * start.  So DR is read when EOC comes or the polls run out. */
static int32_t adc_read(const hw_adc *a, unsigned channel)
{
    uintptr_t b = a->base;
    REG(b, ADC_CR2) |= ADC_CR2_ADON;
    REG(b, ADC_SQR1) = 0;
    REG(b, ADC_SQR3) = channel;
    REG(b, ADC_SR) = 0;
    REG(b, ADC_CR2) |= ADC_CR2_SWSTART;
    for (int i = 0; i < ADC_POLLS; i++)
        if (REG(b, ADC_SR) & ADC_SR_EOC)
            break;
    return (int32_t)(REG(b, ADC_DR) & 0xFFFu);
}

const hw_adc_ops hw_adc_stm32 = {adc_read};

/* ---- USARTs ------------------------------------------------------------- */

#define USART_CR1_RXNEIE (1u << 5)
#define USART_CR1_TXEIE (1u << 7)
/* The smallest divider (oversampling by 16). */
#define USART_BRR_MIN 16u

static int usart_open(const hw_uart *u, uint32_t baud)
{
    uint32_t brr = (u->clk_hz + baud / 2u) / baud;
    if (brr < USART_BRR_MIN || brr > 0xFFFFu)
        return -1;
    REG(u->base, STM32_CR1) = 0;
    REG(u->base, STM32_BRR) = brr;
    REG(u->base, STM32_CR1) =
        STM32_CR1_UE | STM32_CR1_TE | STM32_CR1_RE | USART_CR1_RXNEIE;
    return 0;
}

static void usart_close(const hw_uart *u)
{
    REG(u->base, STM32_CR1) = 0;
}

static int usart_getc(const hw_uart *u)
{
    return stm32_usart_getc(u->base);
}

static int usart_putc(const hw_uart *u, int c)
{
    if (!(REG(u->base, STM32_SR) & STM32_SR_TXE))
        return 0;
    REG(u->base, STM32_DR) = (uint8_t)c;
    return 1;
}

static void usart_txirq(const hw_uart *u, int on)
{
    uint32_t cr1 = REG(u->base, STM32_CR1);
    REG(u->base, STM32_CR1) =
        on ? cr1 | USART_CR1_TXEIE : cr1 & ~USART_CR1_TXEIE;
}

/* Reading DR (getc) clears what raised the interrupt. */
static void usart_ack(const hw_uart *u)
{
    (void)u;
}

const hw_uart_ops hw_uart_stm32 = {usart_open, usart_close, usart_getc,
                                   usart_putc, usart_txirq, usart_ack};
