/*
 * hw_sp805.c — the ARM SP805 watchdog, which is both the CMSDK APB
 * watchdog (MPS2) and the Stellaris one (LM3S6965): same registers, the
 * same two-stage count.  It counts LOAD down at its clock; at 0 it raises
 * its interrupt and reloads; at 0 again with the interrupt still raised
 * it resets the chip.  Writing INTCLR clears the interrupt and reloads
 * (a feed).  Its registers are locked except after the key is written.
 */
#include "drivers/hw_drivers.h"

#define REG(base, off) (*(volatile uint32_t *)((base) + (off)))

#define WDOG_LOAD 0x000u
#define WDOG_CTRL 0x008u
#define WDOG_INTCLR 0x00Cu
#define WDOG_LOCK 0xC00u
#define WDOG_CTRL_INTEN (1u << 0)
#define WDOG_CTRL_RESEN (1u << 1)
#define WDOG_UNLOCK_KEY 0x1ACCE551u
#define WDOG_LOCK_ANY 1u
#define MS_PER_S 1000u

/* Half of `ms` to the warning interrupt, the other half to the reset. */
static int wdog_start(const hw_wdog *w, uint32_t ms)
{
    uint64_t ticks = (uint64_t)w->clk_hz * ms / MS_PER_S / 2u;
    if (ticks < 1 || ticks > UINT32_MAX)
        return -1;
    REG(w->base, WDOG_LOCK) = WDOG_UNLOCK_KEY;
    REG(w->base, WDOG_LOAD) = (uint32_t)ticks;
    REG(w->base, WDOG_INTCLR) = 1;
    REG(w->base, WDOG_CTRL) = WDOG_CTRL_INTEN | WDOG_CTRL_RESEN;
    REG(w->base, WDOG_LOCK) = WDOG_LOCK_ANY;
    return 0;
}

static void wdog_feed(const hw_wdog *w)
{
    REG(w->base, WDOG_LOCK) = WDOG_UNLOCK_KEY;
    REG(w->base, WDOG_INTCLR) = 1;
    REG(w->base, WDOG_LOCK) = WDOG_LOCK_ANY;
}

const hw_wdog_ops hw_wdog_sp805 = {wdog_start, wdog_feed};
