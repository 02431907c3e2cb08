/*
 * entropy.c — port_entropy() on Cortex-M (see port.h).
 *
 * A reset leaves a few things unknown, and cm_entropy_init reads them
 * before anything else sets them: SysTick's current value (UNKNOWN at
 * reset, before cm_tick_init writes it), DWT CYCCNT (UNKNOWN at
 * power-on, and still counting after a system reset once a previous run
 * started it: it is in the debug domain; ARMv7-M only), the first
 * ENTROPY_RAM_WORDS words of the arena (SRAM's power-up state, or what
 * the previous run left after a warm reset: nothing has written the
 * arena yet), and the board's RNG (board_entropy, weak default 0).  They
 * are folded into a pool, which each port_entropy() stirs with the cycle
 * counter.
 *
 * How much this is worth depends on the silicon: SRAM power-up state and
 * an RNG are real entropy; the timers are a few bits at most after a
 * cold reset.  Under QEMU every source but an emulated RNG (microbit's)
 * is deterministic: RAM starts zeroed and -icount time is exact, so a
 * given image gets the same seed at every boot there.
 */
#include "board.h"
#include "port/cortex-m/cm.h"
#include "port/port.h"

/* Arena words read at start-up (1 KiB: about 1,300 instructions once;
 * the smallest arena, microbit's, is 7.5 KiB). */
#define ENTROPY_RAM_WORDS 256u

extern uint32_t _heap_start[], _heap_end[];

static uint32_t pool;

/* One multiply-xorshift round, a bijection of h for a given v. */
static uint32_t mix(uint32_t h, uint32_t v)
{
    h = (h ^ v) * 0x9E3779B1u;
    return h ^ (h >> 15);
}

__attribute__((weak)) uint32_t board_entropy(void)
{
    return 0;
}

void cm_entropy_init(void)
{
    uint32_t h = mix(0, SYST_CVR);
#if !CM_V6M
    h = mix(h, DWT_CYCCNT);
#endif
    const volatile uint32_t *ram = _heap_start;
    for (uint32_t i = 0; i < ENTROPY_RAM_WORDS && ram + i < _heap_end; i++)
        h = mix(h, ram[i]);
    pool = mix(h, board_entropy());
}

uint32_t port_entropy(void)
{
    /* The step keeps the pool moving when the counter has not (two
     * calls within one cycle of a SysTick-derived counter). */
    pool = mix(pool + 0x6A09E667u, port_cycles());
    uint32_t x = pool * 0x85EBCA77u;
    return x ^ (x >> 13);
}
