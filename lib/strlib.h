/*
 * strlib.h — the string library's parts shared between its files:
 * strlib.c (basic functions, format, the metatable, luaopen_string),
 * strpat.c (patterns) and strpack.c (binary packing).  The functions
 * are the Lua-callable ones the library table holds.
 */
#ifndef RTLUA_STRLIB_H
#define RTLUA_STRLIB_H

#include <stddef.h>

#include "lua.h"

/* A start position: negative counts from the end; 0 and anything before
 * the start become 1. */
size_t strlib_posstart(lua_Integer pos, size_t len);

int strlib_find(lua_State *L);
int strlib_match(lua_State *L);
int strlib_gmatch(lua_State *L);
int strlib_gsub(lua_State *L);
int strlib_pack(lua_State *L);
int strlib_packsize(lua_State *L);
int strlib_unpack(lua_State *L);

#endif
