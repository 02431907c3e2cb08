/*
 * load.h — the compiler's entry: source text to a Lua closure.
 *
 * load_chunk compiles a chunk inside a protected call: the whole chunk
 * held in memory (s, len; reader NULL), or what a reader delivers (s
 * NULL), as lua_load (lang/capi.c) does: a text chunk goes to the lexer
 * piece by piece (lex_init_reader); only a binary chunk is gathered
 * first (its loader reads one buffer).  On success it pushes a Lua
 * closure of the main function with one upvalue, _ENV, holding the
 * globals table, and returns LUA_OK.  On failure it pushes the message and
 * returns LUA_ERRSYNTAX (or LUA_ERRMEM, or LUA_ERRRUN for "C stack overflow"
 * from too deep nesting, as lua5.4 does).  Either way every temporary of
 * the compilation (token buffer, variable and label lists) is freed
 * before it returns: they are kept in a C struct that this function owns
 * and releases after the protected call.
 *
 * A chunk whose first byte is the escape byte (0x1B) is binary and goes
 * to the loader of lang/dump.h, whose main closure gets fresh upvalues,
 * the first of them (when there is one) holding the globals table.  A
 * mode without 'b' (or 't') refuses a binary (or text) chunk with
 * lua5.4's message, "attempt to load a binary chunk (mode is 't')".
 */
#ifndef RTLUA_LOAD_H
#define RTLUA_LOAD_H

#include "include/lua.h"
#include "vm/state.h"

#include <stddef.h>

/* mode: "t", "b", "bt" or NULL (= "bt"); chunkname: not NULL. */
int load_chunk(lua_State *L, const char *s, size_t len, lua_Reader reader,
               void *data, const char *chunkname, const char *mode);

#endif
