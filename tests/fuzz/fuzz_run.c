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
/* Hook calls before a run is stopped (~200k instructions). */
#define FUZZ_MAX_HOOKS 200

/* Processor time a run may take (libFuzzer's -timeout is 10 s). */
#define FUZZ_MAX_SECONDS 2

static int hook_calls;
static clock_t started;

static void check_time(lua_State *L)
{
    if (clock() - started > FUZZ_MAX_SECONDS * CLOCKS_PER_SEC)
        luaL_error(L, "time limit reached");
}

static void count_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    if (++hook_calls > FUZZ_MAX_HOOKS)
        luaL_error(L, "instruction limit reached");
    check_time(L);
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
    hook_calls = 0;
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
