/*
 * fault.c — HardFault, MemManage, BusFault and UsageFault: print where and
 * why, then leave QEMU with status PORT_EXIT_FAULT (port.h).
 *
 * The handler's first instructions move SP to a private fault stack before
 * anything is pushed: when the fault is a stack overflow into the guard,
 * the old SP points at memory that faults again.  The stacked frame is read
 * only when it lies wholly inside the stack and stacking did not fail.
 */
#include "board.h"
#include "port/cortex-m/cm.h"
#include "port/port.h"

/* Words of the private stack the fault report runs on (tools/cstack.lua
 * checks that the report fits: build/<board>/cstack.txt). */
#define FAULT_STACK_WORDS 128

extern uint32_t _stack_bottom[], _stack_top[];

uint32_t cm_fault_stack[FAULT_STACK_WORDS];
void cm_fault_report(const uint32_t *sp, uint32_t exc_return);

#define FAULT_ENTRY(name)                                                     \
    __attribute__((naked)) void name(void)                                    \
    {                                                                         \
        __asm volatile("mrs r0, msp\n\t"                                      \
                       "mov r1, lr\n\t"                                       \
                       "ldr r2, =cm_fault_stack + %c0\n\t"                    \
                       "mov sp, r2\n\t"                                       \
                       "ldr r2, =cm_fault_report\n\t"                         \
                       "bx r2\n\t"                                            \
                       ".ltorg" ::"i"(FAULT_STACK_WORDS * 4));                \
    }

FAULT_ENTRY(HardFault_Handler)
FAULT_ENTRY(MemManage_Handler)
FAULT_ENTRY(BusFault_Handler)
FAULT_ENTRY(UsageFault_Handler)

static const char *fault_name(uint32_t ipsr)
{
    switch (ipsr) {
    case 3:
        return "HardFault";
    case 4:
        return "MemManage";
    case 5:
        return "BusFault";
    case 6:
        return "UsageFault";
    default:
        return "fault";
    }
}

__attribute__((noreturn, used)) void cm_fault_report(const uint32_t *sp,
                                                     uint32_t exc_return)
{
    uint32_t ipsr;
    __asm volatile("mrs %0, ipsr" : "=r"(ipsr));
    uint32_t cfsr = 0, hfsr = 0, mmfar = 0, bfar = 0;
#if !CM_V6M
    cfsr = SCB_CFSR;
    hfsr = SCB_HFSR;
    mmfar = SCB_MMFAR;
    bfar = SCB_BFAR;
    MPU_CTRL = 0; /* the report may touch anything now */
    cm_dsb_isb();
#endif
    const uint32_t *lo = _stack_bottom, *hi = _stack_top;
    int frame_ok = sp >= lo && sp + 8 <= hi && !(cfsr & SCB_CFSR_MSTKERR);
    int overflow =
        sp < lo + 8 || (cfsr & SCB_CFSR_MSTKERR) || !cm_stack_intact();
    port_printf("\n*** %s", fault_name(ipsr));
    if (overflow)
        port_printf(": stack overflow (sp=%p, stack %p..%p)", (const void *)sp,
                    (void *)lo, (void *)hi);
    port_puts("\n");
    if (frame_ok)
        port_printf("pc=0x%08x lr=0x%08x xpsr=0x%08x\n", (unsigned)sp[6],
                    (unsigned)sp[5], (unsigned)sp[7]);
    else
        port_puts("pc=unknown (frame not stacked)\n");
    /* The address the access went to, where the core recorded it, and
     * which of the MPU's regions (mpu.c) it fell in. */
    uint32_t addr = 0;
    const char *how = NULL;
    if (cfsr & SCB_CFSR_MMARVALID) {
        addr = mmfar;
        how = "data access";
    } else if (cfsr & SCB_CFSR_BFARVALID) {
        addr = bfar;
        how = "bus error";
    } else if ((cfsr & SCB_CFSR_IACCVIOL) && frame_ok) {
        addr = sp[6];
        how = "instruction fetch";
    }
    if (how != NULL) {
        const char *what = cm_mpu_what(addr);
        port_printf("%s at 0x%08x%s%s\n", how, (unsigned)addr,
                    what ? " in " : "", what ? what : "");
    }
    port_printf("cfsr=0x%08x hfsr=0x%08x mmfar=0x%08x bfar=0x%08x "
                "exc_return=0x%08x\n",
                (unsigned)cfsr, (unsigned)hfsr, (unsigned)mmfar,
                (unsigned)bfar, (unsigned)exc_return);
    cm_semihost_exit(PORT_EXIT_FAULT);
}
