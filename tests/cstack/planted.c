/*
 * planted.c — tests/cstack/run's program for tools/cstack.lua: a checked
 * recursion whose deepest segment is known, and, under -DPLANT_..., one
 * thing the tool must refuse.  It follows the runtime's conventions
 * (vm/do.h): a checkpoint calls port_stack_left before anything, compares
 * with rtlua_cstack_keep_KIND, and fails through do_cstackfail.
 */
#include <stddef.h>
#include <stdint.h>

extern const char rtlua_cstack_keep_call[];
size_t port_stack_left(void);
void do_cstackfail(void *L, int isshort);
void do_throw(void *L, int status);

/* The leaf under each level: LEAF_BYTES of frame (the test changes it). */
#ifndef LEAF_BYTES
#define LEAF_BYTES 200
#endif

volatile char sink;

__attribute__((noinline)) size_t port_stack_left(void)
{
    uintptr_t sp;
    __asm volatile("mov %0, sp" : "=r"(sp));
    return sp;
}

__attribute__((noinline)) void do_throw(void *L, int status)
{
    (void)L;
    sink = (char)status;
    for (;;) {
    }
}

__attribute__((noinline)) void do_cstackfail(void *L, int isshort)
{
    do_throw(L, isshort);
}

__attribute__((noinline)) static void leaf(int n)
{
    volatile char buf[LEAF_BYTES];
    buf[n % LEAF_BYTES] = (char)n;
    sink = buf[(n + 1) % LEAF_BYTES];
}

#ifdef PLANT_DYNAMIC
__attribute__((noinline)) static void dynamic(int n)
{
    volatile char buf[n + 1]; /* a frame of dynamic size */
    buf[n] = 1;
    sink = buf[0];
}
#endif

#ifdef PLANT_RECURSION
/* Recursion with no check: the tool must refuse it. */
__attribute__((noinline)) static int unchecked(int n)
{
    return n <= 0 ? 0 : unchecked(n - 1) + unchecked(n - 2) + 1;
}
#endif

/* The checkpoint: checks, then works and recurses. */
__attribute__((noinline)) static int level(void *L, int n)
{
#ifdef PLANT_LATE
    leaf(n); /* a call before the check: the tool must refuse it */
#endif
    if (port_stack_left() < (size_t)(uintptr_t)rtlua_cstack_keep_call)
        do_cstackfail(L, 1);
    leaf(n);
#ifdef PLANT_DYNAMIC
    dynamic(n);
#endif
#ifdef PLANT_RECURSION
    sink = (char)unchecked(n);
#endif
    return n > 0 ? level(L, n - 1) + 1 : 0;
}

int main(void);
int main(void)
{
    return level(NULL, 10);
}

void Reset_Handler(void);
void Reset_Handler(void)
{
    main();
    for (;;) {
    }
}

__attribute__((section(".isr_vector"),
               used)) static void (*const vectors[])(void) = {
    (void (*)(void))0x20001000u, Reset_Handler};
