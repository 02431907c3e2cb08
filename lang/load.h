/*
 * load.h — the compiler's entry: source text to a Lua closure.
 *
 * lang_loadbuffer compiles a whole chunk held in memory inside a
 * protected call.  On success it pushes a Lua closure of the main
 * function with one upvalue, _ENV, holding the globals table, and
 * returns LUA_OK.  On failure it pushes the message and returns
 * LUA_ERRSYNTAX (or LUA_ERRMEM, or LUA_ERRRUN for "C stack overflow"
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

/* mode: "t", "b", "bt" or NULL (= "bt"). */
int lang_loadbuffer(lua_State *L, const char *s, size_t len,
                    const char *chunkname, const char *mode);

#endif
