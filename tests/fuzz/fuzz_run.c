/*
 * fuzz_run.c — libFuzzer target for the interpreter and the libraries:
 * every input is compiled and, when it compiles, run under lua_pcall in a
 * fresh state with the standard libraries open (print silenced).  A count
 * hook stops a run after FUZZ_MAX_HOOKS * FUZZ_HOOK_EVERY instructions (the
 * library's long loops count their iterations as instructions: rtlua_poll),
 * so endless loops end as errors; it also stops a run after
 * FUZZ_MAX_SECONDS of processor time (rt.loop waits for its periods, and
 * the sleeps count); the arena is small
 * (RTLUA_HOST_ARENA, set by tests/fuzz/run), so memory errors are exercised
 * too.  After the run a full collection and the heap checker must succeed.
 *
 * The budget holds whatever hook the program sets: debug.sethook installs
 * the debug library's hook as usual, and the harness then puts its own
 * back in front of it (counting its count events as instructions, the
 * library's hook called behind it for the events asked), and rt.timeout's
 * deadline is cut to the time a run may take (a mutated
 * tests/lua/interrupt.lua whose own count hook never raised ran
 * table.move over 2^63 slots for hours).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "include/lauxlib.h"
#include "include/lua.h"
#include "include/lualib.h"

#include "gc/gc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Instructions between two calls of the count hook. */
#define FUZZ_HOOK_EVERY 1000
/* Hook calls before a run is stopped (~200k instructions; with the
 * program's own count, as many instructions). */
#define FUZZ_MAX_HOOKS 200

/* Processor time a run may take (libFuzzer's -timeout is 10 s). */
#define FUZZ_MAX_SECONDS 2

static clock_t started;

/* Past a limit the hook runs at every instruction from then on: a pcall
 * inside the program that catches the error (an rt.on handler's, which
 * the hook always met in tests/lua/rt_post_frame.lua: its loop and
 * handler take a divisor of FUZZ_HOOK_EVERY instructions) does not let
 * the run go on. */
static void stop(lua_State *L, const char *why)
{
    lua_sethook(L, lua_gethook(L), LUA_MASKCOUNT, 1);
    luaL_error(L, "%s", why);
}

static void check_time(lua_State *L)
{
    if (clock() - started > FUZZ_MAX_SECONDS * CLOCKS_PER_SEC)
        stop(L, "time limit reached");
}

/* The program's hook (the debug library's), its mask and count; the
 * instructions the budget has left. */
static lua_Hook user_hook;
static int user_mask, user_count;
static long budget;

static void count_hook(lua_State *L, lua_Debug *ar)
{
    if (ar->event == LUA_HOOKCOUNT) {
        budget -= user_count > 0 ? user_count : FUZZ_HOOK_EVERY;
        if (budget < 0)
            stop(L, "instruction limit reached");
        check_time(L);
        if (!(user_mask & LUA_MASKCOUNT))
            return;
    }
    if (user_hook != NULL)
        user_hook(L, ar);
}

/* debug.sethook, then the harness's hook in front of what it set (on
 * the thread it set it on; one program hook is kept, the last set). */
static int chained_sethook(lua_State *L)
{
    lua_State *T = lua_type(L, 1) == LUA_TTHREAD ? lua_tothread(L, 1) : L;
    int n = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, n, 0);
    lua_Hook h = lua_gethook(T);
    if (h == count_hook) /* nothing new */
        return 0;
    user_hook = h;
    user_mask = h != NULL ? lua_gethookmask(T) : 0;
    user_count = h != NULL ? lua_gethookcount(T) : 0;
    lua_sethook(T, count_hook, user_mask | LUA_MASKCOUNT,
                user_mask & LUA_MASKCOUNT ? user_count : FUZZ_HOOK_EVERY);
    return 0;
}

/* rt.timeout with its deadline cut to the time a run may take. */
static int clamped_timeout(lua_State *L)
{
    if (lua_type(L, 1) == LUA_TNUMBER &&
        lua_tonumber(L, 1) > FUZZ_MAX_SECONDS * 1000) {
        lua_pushinteger(L, FUZZ_MAX_SECONDS * 1000);
        lua_replace(L, 1);
    }
    int n = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, n, LUA_MULTRET);
    return lua_gettop(L);
}

/* Replace lib.name (when there) by f with the original as upvalue. */
static void wrap(lua_State *L, const char *lib, const char *name,
                 lua_CFunction f)
{
    if (lua_getglobal(L, lib) == LUA_TTABLE &&
        lua_getfield(L, -1, name) == LUA_TFUNCTION) {
        lua_pushcclosure(L, f, 1);
        lua_setfield(L, -2, name);
        lua_pop(L, 1);
    } else {
        lua_pop(L, 2);
    }
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
    wrap(L, "debug", "sethook", chained_sethook);
    wrap(L, "rt", "timeout", clamped_timeout);
    budget = (long)FUZZ_MAX_HOOKS * FUZZ_HOOK_EVERY;
    user_hook = NULL;
    user_mask = user_count = 0;
    started = clock();
    lua_sethook(L, count_hook, LUA_MASKCOUNT, FUZZ_HOOK_EVERY);
    if (luaL_loadbufferx(L, (const char *)data, size, "=fuzz", "t") == LUA_OK)
        (void)lua_pcall(L, 0, 0, 0);
    lua_settop(L, 0);
    check_heap(L, "after the input");
    lua_gc(L, LUA_GCCOLLECT);
    check_heap(L, "after a full collection");
    lua_close(L);
    return 0;
}
