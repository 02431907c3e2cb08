/*
 * timer.c — mps2-an385's demo event source: CMSDK APB timer 0
 * (BOARD_TIMER0_BASE, interrupt BOARD_TIMER0_IRQ) posting rt events.
 *
 * rtlua_timer_start (include/rtlua.h) programs the timer to expire every
 * period_us at the board clock (QEMU clocks the CMSDK timers from the
 * 25 MHz system clock, like the FPGA); each expiry's interrupt posts
 * `burst` events numbered 1, 2, 3... through rt_post, and after `count`
 * expiries the timer stops itself.  The handler only touches the timer,
 * its own volatile counters and the lock-free ring: the Lua handlers run
 * later, at the VM's safe points.
 */
#include "board.h"
#include "port/cortex-m/cm.h"
#include "rtlua.h"
#include "vm/state.h"

/* CMSDK APB timer registers. */
#define TIMER_CTRL REG32(BOARD_TIMER0_BASE + 0x00u)
#define TIMER_VALUE REG32(BOARD_TIMER0_BASE + 0x04u)
#define TIMER_RELOAD REG32(BOARD_TIMER0_BASE + 0x08u)
#define TIMER_INTCLEAR REG32(BOARD_TIMER0_BASE + 0x0Cu)
#define TIMER_CTRL_ENABLE (1u << 0)
#define TIMER_CTRL_IRQEN (1u << 3)

/* NVIC set/clear-enable and clear-pending, for lines 0..31 (the timer's
 * line is below 32 on this board).  cm.h has no NVIC block yet. */
#define NVIC_ISER0 REG32(0xE000E100u)
#define NVIC_ICER0 REG32(0xE000E180u)
#define NVIC_ICPR0 REG32(0xE000E280u)
_Static_assert(BOARD_TIMER0_IRQ < 32, "the timer's line is in ISER0");
#define TIMER_LINE (1u << BOARD_TIMER0_IRQ)

#define US_PER_S 1000000u
/* Shortest period: the handler must finish before the next expiry. */
#define TIMER_MIN_CYCLES 200u

static lua_State *target; /* the main thread of the state posted to */
static volatile uint32_t remaining; /* expiries still to post */
static uint32_t per_expiry;         /* events per expiry */
static lua_Integer seq;             /* the last event value posted */

void rtlua_timer_stop(void)
{
    TIMER_CTRL = 0;
    NVIC_ICER0 = TIMER_LINE;
    TIMER_INTCLEAR = 1;
    NVIC_ICPR0 = TIMER_LINE;
    remaining = 0;
}

int rtlua_timer_start(lua_State *L, uint32_t period_us, uint32_t count,
                      uint32_t burst)
{
    rtlua_timer_stop();
    uint64_t cycles = (uint64_t)period_us * BOARD_CLOCK_HZ / US_PER_S;
    if (cycles < TIMER_MIN_CYCLES)
        cycles = TIMER_MIN_CYCLES;
    if (cycles > UINT32_MAX)
        cycles = UINT32_MAX;
    if (count == 0)
        return BOARD_TIMER0_IRQ;
    target = &G(L)->mainthread;
    per_expiry = burst;
    seq = 0;
    remaining = count;
    TIMER_RELOAD = (uint32_t)cycles - 1u;
    TIMER_VALUE = (uint32_t)cycles - 1u;
    NVIC_ISER0 = TIMER_LINE;
    TIMER_CTRL = TIMER_CTRL_ENABLE | TIMER_CTRL_IRQEN;
    return BOARD_TIMER0_IRQ;
}

/* Overrides the weak default of port/cortex-m/startup.c. */
void IRQ8_Handler(void);
_Static_assert(BOARD_TIMER0_IRQ == 8, "the handler's name is IRQ8_Handler");

void IRQ8_Handler(void)
{
    TIMER_INTCLEAR = 1;
    if (remaining == 0) { /* a stale expiry after a stop */
        TIMER_CTRL = 0;
        return;
    }
    for (uint32_t i = 0; i < per_expiry; i++)
        rt_post(target, BOARD_TIMER0_IRQ, ++seq);
    if (--remaining == 0) {
        TIMER_CTRL = 0;
        NVIC_ICER0 = TIMER_LINE;
    }
}
