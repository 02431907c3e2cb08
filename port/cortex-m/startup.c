/*
 * startup.c — the vector table and the reset handler.
 *
 * Reset: copy .data from flash, zero .bss, enable the FPU on hard-float
 * builds, run constructors (.init_array), bring up the port (console,
 * stack guard, cycle counter, SysTick), then main; main's return value
 * is the exit status.  Every exception and each of the board's
 * BOARD_IRQ_COUNT interrupts has a weak default handler, so a board or an
 * application overrides one by defining a function of the same name.  The
 * default handler first runs what port_irq_attach attached to the line.
 */
#include "board.h"
#include "port/cortex-m/cm.h"
#include "port/port.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

extern uint32_t _sidata[], _sdata[], _edata[], _sbss[], _ebss[];
extern uint32_t _stack_top[];
extern void (*__init_array_start[])(void);
extern void (*__init_array_end[])(void);

int main(void);
void Default_Handler(void);

#define WEAK_DEFAULT __attribute__((weak, alias("Default_Handler")))
void NMI_Handler(void) WEAK_DEFAULT;
void SVC_Handler(void) WEAK_DEFAULT;
void DebugMon_Handler(void) WEAK_DEFAULT;
void PendSV_Handler(void) WEAK_DEFAULT;

/* The most interrupt lines a board here may declare: the handlers of
 * port/cortex-m/irq_*.inc, which tools/gen-irqs writes for this number
 * (it reads it here). */
#define IRQ_MAX 100
_Static_assert(BOARD_IRQ_COUNT <= IRQ_MAX,
               "board has more IRQs than the table");

/* IRQn_Handler for every interrupt line a board may have. */
#include "port/cortex-m/irq_decls.inc"

typedef void (*vector_fn)(void);

struct vector_table {
    uint32_t *initial_sp;
    vector_fn exceptions[15];
    vector_fn irqs[BOARD_IRQ_COUNT];
};

/* The board's IRQ handlers in order, for the start-up check of the
 * table (only the board's lines: the list of all IRQ_MAX is counted, not
 * stored). */
_Static_assert(sizeof((const vector_fn[]){
#include "port/cortex-m/irq_list.inc"
               }) / sizeof(vector_fn) ==
                   IRQ_MAX,
               "irq_list.inc holds IRQ_MAX handlers: run tools/gen-irqs");
static const vector_fn all_irqs[BOARD_IRQ_COUNT] = {
#include "port/cortex-m/irq_table.inc"
};

/* The table proper has exactly the board's BOARD_IRQ_COUNT entries. */
__attribute__((section(".isr_vector"), used))
const struct vector_table vector_table = {
    .initial_sp = _stack_top,
    .exceptions =
        {
            Reset_Handler,
            NMI_Handler,
            HardFault_Handler,
            MemManage_Handler,
            BusFault_Handler,
            UsageFault_Handler,
            0,
            0,
            0,
            0,
            SVC_Handler,
            DebugMon_Handler,
            0,
            PendSV_Handler,
            SysTick_Handler,
        },
    .irqs =
        {
#include "port/cortex-m/irq_table.inc"
        },
};

void Default_Handler(void)
{
    uint32_t ipsr;
    __asm volatile("mrs %0, ipsr" : "=r"(ipsr));
    if (cm_irq_dispatch(ipsr))
        return;
    port_printf("\nunhandled exception %u (irq %d)\n", (unsigned)ipsr,
                (int)ipsr - 16);
    cm_semihost_exit(PORT_EXIT_FAULT);
}

/* Start-up check that the table holds our handlers (a stale or foreign
 * table at VTOR means a broken link, which would fail in obscure ways). */
static int vectors_ok(void)
{
    const struct vector_table *vt = &vector_table;
    if (vt->exceptions[0] != Reset_Handler ||
        vt->exceptions[14] != SysTick_Handler)
        return 0;
    for (int i = 0; i < BOARD_IRQ_COUNT; i++)
        if (vt->irqs[i] != all_irqs[i])
            return 0;
    return 1;
}

__attribute__((noreturn)) void Reset_Handler(void)
{
    uint32_t *src = _sidata;
    for (uint32_t *dst = _sdata; dst < _edata;)
        *dst++ = *src++;
    for (uint32_t *dst = _sbss; dst < _ebss;)
        *dst++ = 0;
#if defined(__ARM_FP)
    SCB_CPACR |= SCB_CPACR_CP10_CP11_FULL;
    cm_dsb_isb();
#endif
#if !CM_V6M
    SCB_VTOR = (uint32_t)(uintptr_t)&vector_table;
#endif
    for (void (**fn)(void) = __init_array_start; fn < __init_array_end; fn++)
        (*fn)();
    /* (Read before port_init turns the MPU on: the table lies in the
     * no-access null page where the flash starts at 0.) */
    int vectors = vectors_ok();
    port_init();
    if (!vectors) {
        port_puts("vector table does not hold rtlua's handlers\n");
        port_exit(PORT_EXIT_FAULT);
    }
    port_exit(main());
}
