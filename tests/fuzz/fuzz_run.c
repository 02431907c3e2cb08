/*
 * fuzz_run.c — libFuzzer target for the interpreter and the libraries:
 * every input is compiled and, when it compiles, run under lua_pcall in a
 * fresh state with the standard libraries open (print silenced).  A count
 * hook stops a run after FUZZ_MAX_INSTRUCTIONS instructions (the
 * library's long loops count their iterations as instructions: rtlua_poll),
 * so endless loops end as errors; it also stops a run after
 * FUZZ_MAX_SECONDS of processor time (rt.loop waits for its periods, and
 * the sleeps count).  The input cannot take that bound away: its
 * debug.sethook installs the input's hook behind the run's (guard_hook
 * calls the debug library's for the events the input asked for), and its
 * rt.timeout, whose hook stands in for the run's until its deadline,
 * lasts at most FUZZ_TIMEOUT_MS.  (tests/lua/interrupt.lua with its hook's
 * "calls + 1" made "calls + 0" set a hook that never stops table.move
 * over 2^63 slots: libFuzzer's timeout, a failure of fuzz.run.)  Once a
 * bound is reached the run is interrupted (rtlua_interrupt): every safe
 * point raises from then on, so the input's pcalls cannot catch the end.
 *
 * No hook runs inside a hook function or a __gc metamethod, so a loop
 * there escaped all of that (tests/fuzz/crashers/fuzz_run/hang-*.lua).
 * A watchdog needs no hook: SIGPROF every FUZZ_WATCH_MS of processor
 * time interrupts a run that has not reached the guard hook for
 * FUZZ_SILENT_WATCHES of them in a row, or has run FUZZ_MAX_SECONDS.
 * The run's own pcall then ends, and the collection and lua_close after
 * it run their finalizers under the same watchdog.  Its periods also
 * measure the run's processor time for the guard hook, so no input asks
 * the system for the time (clock() was a system call at every count
 * event, some 200 of them in a run that reaches the bound).  The
 * arena is small
 * (RTLUA_HOST_ARENA, set by tests/fuzz/run), so memory errors are exercised
 * too.  After the run a full collection and the heap checker must succeed.
 */
#define _POSIX_C_SOURCE 200809L /* sigaction, setitimer */
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>

#include "include/lauxlib.h"
#include "include/lua.h"
#include "include/lualib.h"
#include "include/rtlua.h"

#include "gc/gc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Instructions between two calls of the count hook (when the input asks
 * for no count of its own); a power of two. */
#define FUZZ_HOOK_EVERY 1024
/* Instructions before a run is stopped; a hook event of the input's
 * counts as FUZZ_EVENT_COST of them (its function runs some, uncounted:
 * guard_hook). */
#define FUZZ_MAX_INSTRUCTIONS 200000
#define FUZZ_EVENT_COST 16
/* Processor time a run may take (libFuzzer's -timeout is 60 s of wall
 * time: tests/fuzz/run). */
#define FUZZ_MAX_SECONDS 2
/* The longest rt.timeout an input gets, in milliseconds. */
#define FUZZ_TIMEOUT_MS 100
/* The watchdog's period, in milliseconds of processor time, and the
 * periods in a row without a call of the guard hook that interrupt the
 * run: a loop where hooks are off, or a C loop that does not poll.  Such
 * an input runs that long, 40 to 60 ms: at 100 ms periods (0.2 to 0.3 s)
 * the mutations of tests/fuzz/crashers/fuzz_run/hang-*.lua in a
 * campaign's corpus took a fifth of its time.  (A full collection of
 * the whole 8 MiB arena takes a few ms in the campaign's build; a longer
 * one under the sanitizers that this cuts short is an input ended early,
 * no failure.) */
#define FUZZ_WATCH_MS 20
#define FUZZ_SILENT_WATCHES 3
/* The periods of FUZZ_MAX_SECONDS. */
#define FUZZ_MAX_WATCHES (FUZZ_MAX_SECONDS * 1000 / FUZZ_WATCH_MS)

static long instructions;
/* The debug library's own hook (its hook_dispatch), once an input set
 * one: guard_hook passes it the events the input asked for. */
static lua_Hook input_hook;
static lua_CFunction real_sethook, real_timeout;
/* The registry's table of the hook masks the inputs asked for, by thread. */
static const char mask_key = 0;

/* The state of the input that runs (NULL between inputs), for the
 * watchdog; the guard hook raises `heard` at each of its calls. */
static lua_State *volatile watched;
static volatile sig_atomic_t heard, silent, watches;

/* SIGPROF: interrupt the run that has been silent too long or has run
 * too long. */
static void watchdog(int sig)
{
    (void)sig;
    lua_State *L = watched;
    if (L == NULL)
        return;
    silent = heard ? 0 : silent + 1;
    heard = 0;
    watches++;
    if (silent >= FUZZ_SILENT_WATCHES || watches >= FUZZ_MAX_WATCHES)
        rtlua_interrupt(L, 1);
}

static void start_watchdog(void)
{
    static int started_once;
    if (started_once)
        return;
    started_once = 1;
    struct sigaction sa = {0};
    sa.sa_handler = watchdog;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    struct itimerval it = {{0, FUZZ_WATCH_MS * 1000},
                           {0, FUZZ_WATCH_MS * 1000}};
    if (sigaction(SIGPROF, &sa, NULL) != 0 ||
        setitimer(ITIMER_PROF, &it, NULL) != 0)
        abort(); /* no bound for loops where hooks are off */
}

/* A bound reached: the run ends, whatever pcalls it is in. */
static void stop_run(lua_State *L, const char *why)
{
    rtlua_interrupt(L, 1);
    luaL_error(L, "%s", why);
}

/* The watchdog's count of the run's periods. */
static void check_time(lua_State *L)
{
    if (watches >= FUZZ_MAX_WATCHES)
        stop_run(L, "time limit reached");
}

/* The mask the input asked for on L's thread (0: none). */
static int input_mask(lua_State *L)
{
    int mask = 0;
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &mask_key) == LUA_TTABLE) {
        lua_pushthread(L);
        lua_rawget(L, -2);
        mask = (int)lua_tointeger(L, -1);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return mask;
}

/* The run's bound, then the input's hook.  Every event of the input's
 * counts too (FUZZ_EVENT_COST): the instructions of a Lua hook function
 * count down the thread's count (5.4's rule) while no hook can run, so
 * a count that runs out inside it is lost, and a line hook's function
 * of the right length loses every one ("l" with a count of 999 over
 * `while true do end`: no count event at all, in lua5.4 too). */
static void guard_hook(lua_State *L, lua_Debug *ar)
{
    int mask = input_hook != NULL ? input_mask(L) : 0;
    int count = ar->event == LUA_HOOKCOUNT;
    heard = 1;
    instructions += count ? lua_gethookcount(L) : FUZZ_EVENT_COST;
    if (instructions > FUZZ_MAX_INSTRUCTIONS)
        stop_run(L, "instruction limit reached");
    check_time(L);
    if (mask != 0 && (!count || (mask & LUA_MASKCOUNT)))
        input_hook(L, ar);
}

/* debug.sethook([thread,] ...): the debug library's, then guard_hook in
 * front of the hook it set, with a count always. */
static int guarded_sethook(lua_State *L)
{
    lua_State *L1 = lua_type(L, 1) == LUA_TTHREAD ? lua_tothread(L, 1) : L;
    int n = real_sethook(L);
    lua_Hook h = lua_gethook(L1);
    int mask = lua_gethookmask(L1);
    int count = lua_gethookcount(L1);
    if (h != NULL && h != guard_hook)
        input_hook = h;
    if (h == NULL || h == guard_hook)
        mask = 0;
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &mask_key) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushvalue(L, -1);
        lua_rawsetp(L, LUA_REGISTRYINDEX, &mask_key);
    }
    luaL_checkstack(L1, 1, NULL);
    lua_pushthread(L1);
    lua_xmove(L1, L, 1);
    lua_pushinteger(L, mask);
    lua_rawset(L, -3);
    lua_pop(L, 1);
    if (!(mask & LUA_MASKCOUNT) || count <= 0)
        count = FUZZ_HOOK_EVERY;
    lua_sethook(L1, guard_hook, mask | LUA_MASKCOUNT, count);
    return n;
}

/* rt.timeout(ms, fn, ...) with ms at most FUZZ_TIMEOUT_MS. */
static int guarded_timeout(lua_State *L)
{
    if (lua_type(L, 1) == LUA_TNUMBER &&
        lua_tonumber(L, 1) > FUZZ_TIMEOUT_MS) {
        lua_pushinteger(L, FUZZ_TIMEOUT_MS);
        lua_replace(L, 1);
    }
    return real_timeout(L);
}

/* Replace lib.name, a C function, by f; returns the one replaced. */
static lua_CFunction wrap(lua_State *L, const char *lib, const char *name,
                          lua_CFunction f)
{
    lua_CFunction old = NULL;
    if (lua_getglobal(L, lib) == LUA_TTABLE) {
        lua_getfield(L, -1, name);
        old = lua_tocfunction(L, -1);
        lua_pop(L, 1);
        if (old != NULL) {
            lua_pushcfunction(L, f);
            lua_setfield(L, -2, name);
        }
    }
    lua_pop(L, 1);
    return old;
}

/* print without output: fuzz inputs print a lot. */
static int quiet_print(lua_State *L)
{
    (void)L;
    return 0;
}

static void check_heap(lua_State *L, const char *when)
{
    const char *why = NULL;
    int code = gc_check(L, &why);
    if (code != 0) {
        fprintf(stderr, "gc_check %s: %d (%s)\n", when, code,
                why != NULL ? why : "?");
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    lua_State *L = lua_newstate(NULL, NULL);
    if (L == NULL)
        return 0;
    luaL_openlibs(L);
    lua_pushcfunction(L, quiet_print);
    lua_setglobal(L, "print");
    real_sethook = wrap(L, "debug", "sethook", guarded_sethook);
    real_timeout = wrap(L, "rt", "timeout", guarded_timeout);
    if (real_sethook == NULL || real_timeout == NULL)
        abort(); /* the guard would not hold */
    instructions = 0;
    lua_sethook(L, guard_hook, LUA_MASKCOUNT, FUZZ_HOOK_EVERY);
    start_watchdog();
    heard = silent = watches = 0;
    watched = L;
    if (luaL_loadbufferx(L, (const char *)data, size, "=fuzz", "t") == LUA_OK)
        (void)lua_pcall(L, 0, 0, 0);
    lua_settop(L, 0);
    /* The finalizers of the collection and of lua_close run whole, under
     * the watchdog. */
    rtlua_interrupt(L, 0);
    check_heap(L, "after the input");
    lua_gc(L, LUA_GCCOLLECT);
    check_heap(L, "after a full collection");
    lua_close(L);
    watched = NULL;
    return 0;
}
