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
#include "rtlua.h"

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

/* A step of a loop whose length the caller gives (the table library's
 * ranges, rt.loop's iterations, a pattern's backtracking, string.rep):
 * every RTLUA_POLL_EVERY steps (of all such loops) the count hook runs
 * (rtlua_poll), so the REPL's Ctrl-C, a count hook or rt.timeout's
 * deadline interrupts the loop, where lua5.4 would run on. */
extern unsigned lib_loopsteps;
#define LOOP_STEP(L)                                                          \
    do {                                                                      \
        if ((++lib_loopsteps & (RTLUA_POLL_EVERY - 1)) == 0)                  \
            rtlua_poll(L, RTLUA_POLL_EVERY);                                  \
    } while (0)
/* n such steps at once (rtlua_arraymove's): the hook runs as often. */
#define LOOP_STEPS(L, n)                                                      \
    do {                                                                      \
        lua_Unsigned k_ =                                                     \
            (lib_loopsteps & (RTLUA_POLL_EVERY - 1)) + (lua_Unsigned)(n);     \
        lib_loopsteps += (unsigned)(n);                                       \
        if (k_ >= RTLUA_POLL_EVERY)                                           \
            rtlua_poll(L, (int)(k_ & ~(lua_Unsigned)(RTLUA_POLL_EVERY - 1))); \
    } while (0)

/* The REPL's line editor on a board's UART (lib/lineedit.c): shows
 * nothing itself but edits, reading bytes from next (-1: the end of
 * input); EDIT_LINE pushes the line, EDIT_PASTE a block of lines pasted
 * in its paste mode; EDIT_EOF (the end of input) and EDIT_RAW (Ctrl-A:
 * the caller runs the raw mode) push nothing. */
enum { EDIT_EOF, EDIT_LINE, EDIT_PASTE, EDIT_RAW };
int edit_line(lua_State *L, const char *prompt, int (*next)(void));

/* The console's raw mode for tools (lib/rawmode.c): framed scripts in,
 * framed output and status out, until the tool leaves it. */
void rtlua_rawmode(lua_State *L);

/* lib/repl.c, for the raw mode: whether the last rtlua_docall ended by
 * Ctrl-C; the bytes typed ahead forgotten, and from now on kept (keep 1)
 * or dropped (0) while code runs. */
int repl_interrupted(void);
void repl_typeahead(int keep);

#endif
