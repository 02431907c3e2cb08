/*
 * stack.c — stack overflow detection.
 *
 * Memory below the stack: [_stack_guard, _stack_bottom) is the guard
 * (STACK_GUARD bytes, linker/cortex-m.ld's --defsym from board.mk, a
 * power of two, aligned to its size), at the start of RAM.  Where the core
 * has an MPU the guard is a no-access region (mpu.c), so the first push
 * into it faults (fault.c reports "stack overflow").  Elsewhere (ARMv6-M)
 * the guard holds a canary pattern checked by every SysTick, at exit and in
 * the fault handler; past it the stack leaves the RAM, and that faults.
 */
#include "board.h"
#include "port/cortex-m/cm.h"
#include "port/port.h"

/* The canary word filling the guard. */
#define STACK_CANARY 0xC0DEDEADu

extern uint32_t _stack_guard[], _stack_bottom[];

void cm_stack_init(void)
{
    for (uint32_t *p = _stack_guard; p < _stack_bottom; p++)
        *p = STACK_CANARY;
}

int cm_stack_intact(void)
{
    if (cm_mpu_enabled())
        return 1; /* the guard cannot be written: the MPU would fault */
    for (const uint32_t *p = _stack_guard; p < _stack_bottom; p++)
        if (*p != STACK_CANARY)
            return 0;
    return 1;
}

_Noreturn void cm_stack_overflow(const char *where)
{
    /* (No formatting: this runs in the tick's interrupt too, on what is
     * left of the stack; tools/cstack.lua counts it.) */
    port_puts("\n*** stack overflow (canary clobbered, seen at ");
    port_puts(where);
    port_puts(")\n");
    cm_semihost_exit(PORT_EXIT_FAULT);
}

uintptr_t port_stack_bottom(void)
{
    return (uintptr_t)_stack_bottom;
}

size_t port_stack_left(void)
{
    uintptr_t sp;
    __asm volatile("mov %0, sp" : "=r"(sp));
    uintptr_t bottom = (uintptr_t)_stack_bottom;
    return sp > bottom ? (size_t)(sp - bottom) : 0;
}
