/*
 * lib.h — what the library sources share with each other (not public).
 *
 * The library tables are ROM tables (tools/romtab.txt): each library
 * source ends by including the generated block of its tables, so the
 * functions they name stay static to it, but for these, which a table of
 * another source names.
 */
#ifndef RTLUA_LIB_H
#define RTLUA_LIB_H

#include "lauxlib.h"
#include "lua.h"
#include "port/port.h"

/* require (lib/loadlib.c), a field of _G (lib/base.c). */
int pkg_require(lua_State *L);

/* Copy every entry of the ROM table `rom` into the table at the top of
 * the stack (lib/base.c): opening a library into a state whose table
 * exists already in RAM. */
void lib_copyrom(lua_State *L, const void *rom);

/* The C stack's check (vm/do.h) at a library level that recurses (the
 * sort's) or calls a C function it does not know (a stream's closef),
 * before it calls anything. */
#define LIB_CSTACKCHECK(L)                                                    \
    do {                                                                      \
        if (port_cstack_short(call))                                          \
            luaL_error(L, "C stack overflow");                                \
    } while (0)

/* Loops whose length the caller gives and that run no count hook (the
 * table library's ranges, rt.loop's iterations) may last as long as the
 * integers allow, as in lua5.4.  The fuzz build (tests/fuzz/run defines
 * RTLUA_FUZZ) charges each iteration to the input's budget, so such
 * inputs end as errors there instead of hanging the fuzzer. */
#ifdef RTLUA_FUZZ
void fuzz_charge(lua_State *L);
#define LOOP_CHARGE(L) fuzz_charge(L)
#else
#define LOOP_CHARGE(L) ((void)0)
#endif

#endif
