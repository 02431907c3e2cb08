/*
 * platform.c — the platform test firmware.  The case to run is the first
 * argument on the semihosting command line; tests/board/platform.sh runs
 * each case in QEMU and checks the output and the exit status.
 */
#include "board.h"
#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"
#include "port/cortex-m/cm.h"
#include "port/port.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Instructions in one iteration of spin() (subs + bne). */
#define SPIN_INSNS 2u

static int initialised_data = 0x1234567;
static int zeroed_bss[64];

static void spin(uint32_t n)
{
    __asm volatile(".syntax unified\n1: subs %0, %0, #1\n\tbne 1b"
                   : "+l"(n)::"cc");
}

static int case_console(void)
{
    port_puts("console: hello from ");
    port_printf("%s %d %u %x %s\n", port_board(), -42, 42u, 0xbeefu, "ok");
    return 0;
}

static int case_data(void)
{
    int bad = 0;
    if (initialised_data != 0x1234567) {
        port_puts("data: .data not copied\n");
        bad = 1;
    }
    for (int i = 0; i < 64; i++)
        if (zeroed_bss[i] != 0)
            bad = 1;
    port_puts(bad ? "data: FAILED\n" : "data: .data and .bss initialised\n");
    return bad;
}

/* Ticks in a known stretch of instructions.  Under -icount shift=0 one
 * instruction is 1 ns, so SPIN of n iterations lasts SPIN_INSNS*n ns; the
 * tick count must match the configured rate, and port_cycles() must have
 * advanced at the board clock. */
static int case_ticks(void)
{
    const uint32_t hz = 1000, iters = 25000000; /* 50 ms */
    port_tick_config(hz);
    uint32_t t0 = port_ticks(), c0 = port_cycles();
    spin(iters);
    uint32_t t1 = port_ticks(), c1 = port_cycles();
    uint32_t ticks = t1 - t0;
    uint64_t ns = (uint64_t)iters * SPIN_INSNS;
    uint64_t want_ticks = ns * hz / 1000000000u;
    uint64_t cycles = c1 - c0;
    uint64_t want_cycles = ns * port_cycle_hz() / 1000000000u;
    port_printf("ticks: %u ticks (want %u), %u cycles (want %u) at %u Hz\n",
                (unsigned)ticks, (unsigned)want_ticks, (unsigned)cycles,
                (unsigned)want_cycles, (unsigned)port_cycle_hz());
    int ok = ticks + 2 >= want_ticks && ticks <= want_ticks + 2 &&
             cycles * 100 >= want_cycles * 98 &&
             cycles * 100 <= want_cycles * 102;
    /* A different rate, to see that the rate is configurable. */
    port_tick_config(4000);
    t0 = port_ticks();
    spin(iters / 5);
    t1 = port_ticks();
    want_ticks = (uint64_t)iters / 5 * SPIN_INSNS * 4000 / 1000000000u;
    port_printf("ticks: %u ticks at 4 kHz (want %u)\n", (unsigned)(t1 - t0),
                (unsigned)want_ticks);
    ok = ok && t1 - t0 + 2 >= want_ticks && t1 - t0 <= want_ticks + 2;
    port_tick_config(PORT_TICK_HZ_DEFAULT);
    port_puts(ok ? "ticks: ok\n" : "ticks: FAILED\n");
    return !ok;
}

static int case_malloc(void)
{
    errno = 0;
    void *p = malloc(16);
    port_printf("malloc: %s (errno %s)\n", p == NULL ? "NULL" : "a pointer",
                errno == ENOMEM ? "ENOMEM" : "other");
    return p == NULL ? 0 : 1;
}

static void (*volatile bad_fn)(void) = (void (*)(void))0xFFFFFFF0u;

static int case_fault(void)
{
    port_puts("fault: calling a bad address\n");
    bad_fn();
    return 0;
}

static volatile uint32_t depth;

__attribute__((noinline)) static uint32_t recurse(uint32_t n)
{
    volatile uint32_t frame[16];
    for (int i = 0; i < 16; i++)
        frame[i] = n + (uint32_t)i;
    depth = n;
    return n == 0 ? frame[3] : recurse(n - 1) + frame[n & 15];
}

static int case_stack(void)
{
    port_puts("stack: runaway recursion\n");
    /* Deep enough to pass the stack's bottom on every board; on a board
     * without MPU, shallow enough to stay in the arena below it, where the
     * canary sees it at the next tick or at exit. */
    uint32_t frames = (BOARD_STACK_BYTES + 2048) / 64;
    uint32_t r = recurse(frames);
    port_printf("stack: came back (depth %u, %u)\n", (unsigned)depth,
                (unsigned)r);
    return 0;
}

/* A broken C function: writes into the bytes of the string it is given,
 * which the API hands out as const. */
static int poke(lua_State *L)
{
    char *s = (char *)(uintptr_t)lua_tostring(L, 1);
    port_printf("romwrite: writing to \"%s\" at %p\n", s, (void *)s);
    s[0] = 'X';
    lua_pushstring(L, s);
    return 1;
}

/* The MPU protects the ROM strings: poke works on a string in RAM and
 * faults on one in flash ("print", a library name, is a ROM string). */
static int case_romwrite(void)
{
    lua_State *L = luaL_newstate();
    if (L == NULL)
        return 1;
    luaL_openlibs(L);
    lua_register(L, "poke", poke);
    if (luaL_dostring(L, "local s = poke(('ram'):rep(2)) "
                         "print('romwrite: RAM string written: ' .. s) "
                         "return poke('print')") != LUA_OK) {
        port_printf("romwrite: error %s\n", lua_tostring(L, -1));
        return 1;
    }
    port_printf("romwrite: not caught; the string reads \"%s\"\n",
                lua_tostring(L, -1));
    return 0;
}

/* A null pointer's field, read (the pointer volatile: the compiler may
 * not see that it is null). */
static const volatile uint32_t *volatile null_ptr;

static int case_null(void)
{
    port_puts("null: reading a field of a null pointer\n");
    uint32_t v = null_ptr[3];
    port_printf("null: not caught, read 0x%08x\n", (unsigned)v);
    return 0;
}

static int case_mpu(void)
{
    if (cm_mpu_enabled())
        port_printf("mpu: on, %u regions\n",
                    (unsigned)((MPU_TYPE >> 8) & 0xFFu));
    else
        port_puts("mpu: none\n");
    return 0;
}

int main(void)
{
    char *argv[4];
    int argc = port_args(argv, 4);
    const char *which = argc >= 2 ? argv[1] : "console";
    if (!strcmp(which, "console"))
        return case_console();
    if (!strcmp(which, "data"))
        return case_data();
    if (!strcmp(which, "ticks"))
        return case_ticks();
    if (!strcmp(which, "exit3"))
        return 3;
    if (!strcmp(which, "malloc"))
        return case_malloc();
    if (!strcmp(which, "fault"))
        return case_fault();
    if (!strcmp(which, "stack"))
        return case_stack();
    if (!strcmp(which, "romwrite"))
        return case_romwrite();
    if (!strcmp(which, "null"))
        return case_null();
    if (!strcmp(which, "mpu"))
        return case_mpu();
    if (!strcmp(which, "hang"))
        for (;;)
            port_idle();
    port_printf("platform: unknown case '%s'\n", which);
    return 1;
}
