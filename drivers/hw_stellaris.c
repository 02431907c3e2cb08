/*
 * hw_stellaris.c — TI Stellaris peripherals (LM3S6965): GPIO (a PL061
 * with TI's additions: pad control and digital enable), the
 * general-purpose timers, the ADC and the UARTs (PL011), from the
 * LM3S6965 datasheet.  QEMU's lm3s6965evb models all four.
 */
#include "drivers/hw_drivers.h"

#define REG(base, off) (*(volatile uint32_t *)((base) + (off)))

/* ---- GPIO --------------------------------------------------------------- */

/* DATA is seen through an address mask: bits 9:2 of the offset select
 * the pins a read returns and a write changes. */
#define GPIO_DATA(mask) ((uint32_t)(mask) << 2)
#define GPIO_DIR 0x400u
#define GPIO_AFSEL 0x420u
#define GPIO_PUR 0x510u
#define GPIO_PDR 0x514u
#define GPIO_DEN 0x51Cu

static void set_bit(uintptr_t base, uint32_t off, uint32_t m, int on)
{
    uint32_t v = REG(base, off);
    REG(base, off) = on ? v | m : v & ~m;
}

static int gpio_mode(uintptr_t base, unsigned bit, int mode)
{
    uint32_t m = 1u << bit;
    set_bit(base, GPIO_AFSEL, m, 0);
    set_bit(base, GPIO_DIR, m, mode == HW_OUT);
    /* PUR and PDR clear each other as either is set. */
    set_bit(base, GPIO_PUR, m, mode == HW_PULLUP);
    set_bit(base, GPIO_PDR, m, mode == HW_PULLDOWN);
    set_bit(base, GPIO_DEN, m, 1);
    return 0;
}

static void gpio_write(uintptr_t base, unsigned bit, int level)
{
    REG(base, GPIO_DATA(1u << bit)) = level ? 0xFFu : 0;
}

static int gpio_read(uintptr_t base, unsigned bit)
{
    return REG(base, GPIO_DATA(1u << bit)) != 0;
}

const hw_gpio_ops hw_gpio_pl061 = {gpio_mode, gpio_write, gpio_read};

/* ---- General-purpose timers --------------------------------------------- */

#define GPTM_CFG 0x000u
#define GPTM_TAMR 0x004u
#define GPTM_CTL 0x00Cu
#define GPTM_IMR 0x018u
#define GPTM_ICR 0x024u
#define GPTM_TAILR 0x028u
#define GPTM_CFG_32BIT 0u
#define GPTM_TAMR_PERIODIC 2u
#define GPTM_CTL_TAEN (1u << 0)
#define GPTM_TATO (1u << 0) /* timer A time-out: IMR, ICR */

/* 32-bit timer A counts TAILR down to 0; a period is TAILR + 1 ticks. */
static int gptm_start(const hw_timer *t, uint32_t hz)
{
    uint32_t ticks = t->clk_hz / hz;
    if (ticks < 2)
        return -1;
    REG(t->base, GPTM_CTL) = 0;
    REG(t->base, GPTM_CFG) = GPTM_CFG_32BIT;
    REG(t->base, GPTM_TAMR) = GPTM_TAMR_PERIODIC;
    REG(t->base, GPTM_TAILR) = ticks - 1u;
    REG(t->base, GPTM_ICR) = GPTM_TATO;
    REG(t->base, GPTM_IMR) = GPTM_TATO;
    REG(t->base, GPTM_CTL) = GPTM_CTL_TAEN;
    return 0;
}

static void gptm_stop(const hw_timer *t)
{
    REG(t->base, GPTM_CTL) = 0;
    REG(t->base, GPTM_IMR) = 0;
    REG(t->base, GPTM_ICR) = GPTM_TATO;
}

static void gptm_ack(const hw_timer *t)
{
    REG(t->base, GPTM_ICR) = GPTM_TATO;
}

const hw_timer_ops hw_timer_gptm = {gptm_start, gptm_stop, gptm_ack};

/* ---- ADC ---------------------------------------------------------------- */

#define ADC_ACTSS 0x000u
#define ADC_RIS 0x004u
#define ADC_ISC 0x00Cu
#define ADC_EMUX 0x014u
#define ADC_SSMUX0 0x040u
#define ADC_SSCTL0 0x044u
#define ADC_SSFIFO0 0x048u
#define ADC_SSFSTAT0 0x04Cu
#define ADC_SS0 (1u << 0)
#define ADC_EMUX_SS0 0xFu
#define ADC_EMUX_TIMER 5u
#define ADC_SSCTL_END0 (1u << 1)
#define ADC_SSCTL_IE0 (1u << 2)
#define ADC_SSFSTAT_EMPTY (1u << 8)
#define ADC_FIFO0_DEPTH 8
#define GPTM_TAMR_ONESHOT 1u
#define GPTM_CTL_TAOTE (1u << 5) /* time-out triggers the ADC */
/* The trigger's one-shot, in timer ticks: long enough to set up. */
#define ADC_TRIGGER_TICKS 16u
/* Polls of RIS for the conversion (1 us at 1 Msample/s, 50 MHz). */
#define ADC_POLLS 10000

/* Sample sequencer 0, one step (the channel), started by a one-shot of
 * the trigger timer: QEMU models only the timer trigger, not the
 * processor's (PSSI), and the chip does both, so the timer's is the one
 * path, tested. */
static int32_t adc_read(const hw_adc *a, unsigned channel)
{
    uintptr_t b = a->base, t = a->trigger;
    REG(b, ADC_ACTSS) &= ~ADC_SS0;
    REG(b, ADC_EMUX) = (REG(b, ADC_EMUX) & ~ADC_EMUX_SS0) | ADC_EMUX_TIMER;
    REG(b, ADC_SSMUX0) = channel;
    REG(b, ADC_SSCTL0) = ADC_SSCTL_END0 | ADC_SSCTL_IE0;
    for (int i = 0; i < ADC_FIFO0_DEPTH; i++)
        if (!(REG(b, ADC_SSFSTAT0) & ADC_SSFSTAT_EMPTY))
            (void)REG(b, ADC_SSFIFO0);
    REG(b, ADC_ISC) = ADC_SS0;
    REG(b, ADC_ACTSS) |= ADC_SS0;
    REG(t, GPTM_CTL) = 0;
    REG(t, GPTM_CFG) = GPTM_CFG_32BIT;
    REG(t, GPTM_TAMR) = GPTM_TAMR_ONESHOT;
    REG(t, GPTM_TAILR) = ADC_TRIGGER_TICKS;
    REG(t, GPTM_CTL) = GPTM_CTL_TAEN | GPTM_CTL_TAOTE;
    for (int i = 0; i < ADC_POLLS; i++) {
        if (REG(b, ADC_RIS) & ADC_SS0) {
            int32_t v = (int32_t)(REG(b, ADC_SSFIFO0) & 0x3FFu);
            REG(b, ADC_ISC) = ADC_SS0;
            REG(t, GPTM_CTL) = 0;
            return v;
        }
    }
    REG(t, GPTM_CTL) = 0;
    return -1;
}

const hw_adc_ops hw_adc_stellaris = {adc_read};

/* ---- UARTs (PL011) ------------------------------------------------------ */

#define UART_DR 0x000u
#define UART_FR 0x018u
#define UART_IBRD 0x024u
#define UART_FBRD 0x028u
#define UART_LCRH 0x02Cu
#define UART_CTL 0x030u
#define UART_IM 0x038u
#define UART_ICR 0x044u
#define UART_FR_RXFE (1u << 4)
#define UART_FR_TXFF (1u << 5)
#define UART_LCRH_8BIT (3u << 5) /* 8 bits, no parity, one stop bit */
#define UART_CTL_EN ((1u << 0) | (1u << 8) | (1u << 9)) /* UART, TX, RX */
#define UART_IM_RX (1u << 4)
#define UART_IM_TX (1u << 5)
#define UART_ICR_ALL 0x7FFu

/* The FIFOs stay off: every byte raises its interrupt. */
static int uart_open(const hw_uart *u, uint32_t baud)
{
    /* The divisor in 64ths: clock / (16 * baud), rounded. */
    uint32_t div64 = (uint32_t)(((uint64_t)u->clk_hz * 4u + baud / 2u) / baud);
    if (div64 < 64u || div64 >= (65536u << 6))
        return -1;
    REG(u->base, UART_CTL) = 0;
    REG(u->base, UART_IBRD) = div64 >> 6;
    REG(u->base, UART_FBRD) = div64 & 63u;
    REG(u->base, UART_LCRH) = UART_LCRH_8BIT;
    REG(u->base, UART_ICR) = UART_ICR_ALL;
    REG(u->base, UART_IM) = UART_IM_RX;
    REG(u->base, UART_CTL) = UART_CTL_EN;
    return 0;
}

static void uart_close(const hw_uart *u)
{
    REG(u->base, UART_IM) = 0;
    REG(u->base, UART_CTL) = 0;
    REG(u->base, UART_ICR) = UART_ICR_ALL;
}

static int uart_getc(const hw_uart *u)
{
    if (REG(u->base, UART_FR) & UART_FR_RXFE)
        return -1;
    return (int)(REG(u->base, UART_DR) & 0xFFu);
}

static int uart_putc(const hw_uart *u, int c)
{
    if (REG(u->base, UART_FR) & UART_FR_TXFF)
        return 0;
    REG(u->base, UART_DR) = (uint8_t)c;
    return 1;
}

static void uart_txirq(const hw_uart *u, int on)
{
    uint32_t im = REG(u->base, UART_IM);
    REG(u->base, UART_IM) = on ? im | UART_IM_TX : im & ~UART_IM_TX;
}

static void uart_ack(const hw_uart *u)
{
    REG(u->base, UART_ICR) = UART_ICR_ALL;
}

const hw_uart_ops hw_uart_pl011 = {uart_open, uart_close, uart_getc,
                                   uart_putc, uart_txirq, uart_ack};
