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

#include "lua.h"

/* require (lib/loadlib.c), a field of _G (lib/base.c). */
int pkg_require(lua_State *L);

/* Copy every entry of the ROM table `rom` into the table at the top of
 * the stack (lib/base.c): opening a library into a state whose table
 * exists already in RAM. */
void lib_copyrom(lua_State *L, const void *rom);

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
