/*
 * hw_nrf51.c — Nordic nRF51 peripherals: GPIO and the timers, from the
 * nRF51 reference manual.  QEMU's microbit models both.
 */
#include "drivers/hw_drivers.h"

#define REG(base, off) (*(volatile uint32_t *)((base) + (off)))

/* ---- GPIO --------------------------------------------------------------- */

#define GPIO_OUTSET 0x508u
#define GPIO_OUTCLR 0x50Cu
#define GPIO_IN 0x510u
#define GPIO_PIN_CNF(n) (0x700u + 4u * (n))
#define CNF_DIR_OUT (1u << 0)
#define CNF_PULLDOWN (1u << 2)
#define CNF_PULLUP (3u << 2)

/* The input buffer stays connected, so an output reads back. */
static int gpio_mode(uintptr_t base, unsigned bit, int mode)
{
    uint32_t cnf = mode == HW_OUT        ? CNF_DIR_OUT
                   : mode == HW_PULLUP   ? CNF_PULLUP
                   : mode == HW_PULLDOWN ? CNF_PULLDOWN
                                         : 0;
    REG(base, GPIO_PIN_CNF(bit)) = cnf;
    return 0;
}

static void gpio_write(uintptr_t base, unsigned bit, int level)
{
    REG(base, level ? GPIO_OUTSET : GPIO_OUTCLR) = 1u << bit;
}

static int gpio_read(uintptr_t base, unsigned bit)
{
    return (int)((REG(base, GPIO_IN) >> bit) & 1u);
}

const hw_gpio_ops hw_gpio_nrf51 = {gpio_mode, gpio_write, gpio_read};

/* ---- Timers ------------------------------------------------------------- */

#define TIMER_START 0x000u
#define TIMER_STOP 0x004u
#define TIMER_CLEAR 0x00Cu
#define TIMER_COMPARE0 0x140u
#define TIMER_SHORTS 0x200u
#define TIMER_INTENSET 0x304u
#define TIMER_INTENCLR 0x308u
#define TIMER_MODE 0x504u
#define TIMER_BITMODE 0x508u
#define TIMER_PRESCALER 0x510u
#define TIMER_CC0 0x540u
#define TIMER_SHORT_COMPARE0_CLEAR (1u << 0)
#define TIMER_INT_COMPARE0 (1u << 16)
#define TIMER_BITMODE_16 0u
#define TIMER_PRESCALER_MAX 9u
#define TIMER_MAX 0xFFFFu /* 16 bits: every timer has them */

/* The counter runs at clock >> PRESCALER; reaching CC0 raises COMPARE0,
 * which clears it (a short): a period is CC0 ticks. */
static int timer_start(const hw_timer *t, uint32_t hz)
{
    uint32_t p = 0, ticks = t->clk_hz / hz;
    while (ticks > TIMER_MAX && p < TIMER_PRESCALER_MAX)
        ticks = (t->clk_hz >> ++p) / hz;
    if (ticks < 2 || ticks > TIMER_MAX)
        return -1;
    REG(t->base, TIMER_STOP) = 1;
    REG(t->base, TIMER_CLEAR) = 1;
    REG(t->base, TIMER_MODE) = 0;
    REG(t->base, TIMER_BITMODE) = TIMER_BITMODE_16;
    REG(t->base, TIMER_PRESCALER) = p;
    REG(t->base, TIMER_CC0) = ticks;
    REG(t->base, TIMER_SHORTS) = TIMER_SHORT_COMPARE0_CLEAR;
    REG(t->base, TIMER_COMPARE0) = 0;
    REG(t->base, TIMER_INTENSET) = TIMER_INT_COMPARE0;
    REG(t->base, TIMER_START) = 1;
    return 0;
}

static void timer_stop(const hw_timer *t)
{
    REG(t->base, TIMER_STOP) = 1;
    REG(t->base, TIMER_INTENCLR) = TIMER_INT_COMPARE0;
    REG(t->base, TIMER_COMPARE0) = 0;
}

static void timer_ack(const hw_timer *t)
{
    REG(t->base, TIMER_COMPARE0) = 0;
}

const hw_timer_ops hw_timer_nrf51 = {timer_start, timer_stop, timer_ack};
