/*
 * fuzz_compile.c — libFuzzer target for the compiler: every input is
 * compiled as a text chunk (luaL_loadbufferx, mode "t") in a fresh state,
 * the result (function or message) is popped, a full collection runs and
 * the heap checker must find the arena consistent.  Any crash, sanitizer
 * report or heap inconsistency is a bug; syntax errors are not.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "include/lauxlib.h"
#include "include/lua.h"

#include "gc/gc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Abort (so libFuzzer keeps the input) when the heap checker objects. */
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
    (void)luaL_loadbufferx(L, (const char *)data, size, "=fuzz", "t");
    lua_pop(L, 1);
    check_heap(L, "after the input");
    lua_gc(L, LUA_GCCOLLECT);
    check_heap(L, "after a full collection");
    lua_close(L);
    return 0;
}
