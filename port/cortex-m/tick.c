/*
 * tick.c — SysTick at a configurable rate, and port_cycles().
 *
 * port_cycles() reads DWT CYCCNT where it counts (probed at start-up: QEMU
 * does not emulate it and it reads 0; ARMv6-M has none).  Otherwise it is
 * derived from SysTick: a 32-bit base the handler advances by one period,
 * plus the elapsed part of the current period.  A wrap that happened while
 * interrupts were masked shows as PENDSTSET and is added by the reader;
 * a second one is lost (see port.h).
 */
#include "board.h"
#include "port/cortex-m/cm.h"
#include "port/port.h"

/* Spin iterations the DWT probe waits for CYCCNT to move. */
#define DWT_PROBE_SPINS 64

static volatile uint32_t tick_count;
static volatile uint32_t cycle_base; /* cycles at the start of this period */
static uint32_t reload;              /* SysTick period in cycles, minus 1 */
static uint32_t tick_hz;
static port_tick_fn tick_fn;
static int use_dwt;

void cm_cycles_init(void)
{
#if !CM_V6M
    DEMCR |= DEMCR_TRCENA;
    DWT_CYCCNT = 0;
    DWT_CTRL |= DWT_CTRL_CYCCNTENA;
    for (volatile int i = 0; i < DWT_PROBE_SPINS; i++)
        ;
    use_dwt = DWT_CYCCNT != 0;
#endif
}

void port_tick_config(uint32_t hz)
{
    SYST_CSR = 0;
    tick_hz = hz;
    port_lap_period = 0;
    if (hz == 0)
        return;
    uint32_t period = BOARD_CLOCK_HZ / hz;
    if (period > SYST_RELOAD_MAX + 1)
        period = SYST_RELOAD_MAX + 1;
    reload = period - 1;
    tick_count = 0;
    cycle_base = 0;
    SYST_RVR = reload;
    SYST_CVR = 0;
    port_lap_period = use_dwt ? 0 : period;
    SYST_CSR = SYST_CSR_CLKSOURCE | SYST_CSR_TICKINT | SYST_CSR_ENABLE;
}

void cm_tick_init(void)
{
    port_tick_config(PORT_TICK_HZ_DEFAULT);
}

void SysTick_Handler(void)
{
    cycle_base += reload + 1;
    tick_count++;
    if (!cm_stack_intact())
        cm_stack_overflow("tick");
    cm_console_tick();
    if (tick_fn)
        tick_fn();
}

uint32_t port_cycles(void)
{
    if (use_dwt)
        return DWT_CYCCNT;
    uint32_t base, now, pend;
    /* PENDSTSET read on both sides of the counter: equal means the wrap
     * (if any) happened before the counter was read; unequal, retry. */
    do {
        base = cycle_base;
        pend = SCB_ICSR & SCB_ICSR_PENDSTSET;
        now = SYST_CVR;
    } while (base != cycle_base || pend != (SCB_ICSR & SCB_ICSR_PENDSTSET));
    /* The counter runs reload..1 then 0, where the interrupt is raised:
     * 0 is the first cycle of the next period, so it counts as elapsed 0. */
    uint32_t elapsed = now == 0 ? 0 : reload + 1 - now;
    if (pend) /* wrapped, not yet counted by the handler */
        elapsed += reload + 1;
    return base + elapsed;
}

uint32_t port_lap_period; /* port.h; 0 with DWT or no tick */

/* SysTick counts down from reload: reload - now counts up, 0..reload. */
uint32_t port_lap(void)
{
    if (use_dwt)
        return DWT_CYCCNT;
    return reload - SYST_CVR;
}

uint64_t port_cycles64(void)
{
    static uint32_t last;
    static uint32_t high;
    port_irqstate s = port_critical_enter();
    uint32_t now = port_cycles();
    if (now < last)
        high++;
    last = now;
    uint64_t v = ((uint64_t)high << 32) | now;
    port_critical_exit(s);
    return v;
}

uint32_t port_cycle_hz(void)
{
    return BOARD_CLOCK_HZ;
}

const char *port_cycle_source(void)
{
    return use_dwt ? "dwt" : "systick";
}

uint32_t port_tick_hz(void)
{
    return tick_hz;
}

uint32_t port_ticks(void)
{
    return tick_count;
}

void port_on_tick(port_tick_fn fn)
{
    tick_fn = fn;
}

port_irqstate port_critical_enter(void)
{
    uint32_t primask;
    __asm volatile("mrs %0, primask\n\tcpsid i" : "=r"(primask)::"memory");
    return primask;
}

void port_critical_exit(port_irqstate s)
{
    __asm volatile("msr primask, %0" ::"r"(s) : "memory");
}

void port_idle(void)
{
    __asm volatile("wfi");
}
