/*
 * scratch.c — a third-party-style module that keeps its working memory
 * outside Lua, as lua-cjson does: a buffer object is a userdata holding
 * a pointer to a block of malloc, grown with realloc and released with
 * free by __gc (on a board those are the arena's blocks, lib/cmalloc.c).
 * It also calls exit(), as modules that give up on an error do.
 *
 *   local scratch = require "scratch"
 *   local b = scratch.new()
 *   b:add(s) -> b          append s (the block doubles when full)
 *   b:result(), b:size()   the bytes so far, the block's size
 *   scratch.zeroed(n)      true when calloc(n, 1) gave n zero bytes
 *   scratch.try(n)         true if malloc(n) gave a block (freed again),
 *                          else nil, "out of memory"
 *   scratch.exit(status)   exit(status)
 */
#include <stdlib.h>
#include <string.h>

#include "lauxlib.h"
#include "lua.h"

#define SCRATCH_TNAME "scratch.Buffer"

typedef struct buffer {
    char *data; /* malloc's block, or NULL */
    size_t len, size;
} buffer;

static buffer *check_buffer(lua_State *L)
{
    return (buffer *)luaL_checkudata(L, 1, SCRATCH_TNAME);
}

static int sc_new(lua_State *L)
{
    buffer *b = (buffer *)lua_newuserdatauv(L, sizeof(buffer), 0);
    b->data = NULL;
    b->len = b->size = 0;
    luaL_setmetatable(L, SCRATCH_TNAME);
    return 1;
}

static int sc_add(lua_State *L)
{
    buffer *b = check_buffer(L);
    size_t n;
    const char *s = luaL_checklstring(L, 2, &n);
    if (b->len + n > b->size) {
        size_t size = b->size ? b->size : 16;
        while (size < b->len + n)
            size *= 2;
        char *data = (char *)realloc(b->data, size);
        if (data == NULL)
            return luaL_error(L, "out of memory");
        b->data = data;
        b->size = size;
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
    lua_settop(L, 1);
    return 1;
}

static int sc_result(lua_State *L)
{
    buffer *b = check_buffer(L);
    lua_pushlstring(L, b->data ? b->data : "", b->len);
    return 1;
}

static int sc_size(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)check_buffer(L)->size);
    return 1;
}

static int sc_gc(lua_State *L)
{
    buffer *b = check_buffer(L);
    free(b->data);
    b->data = NULL;
    b->len = b->size = 0;
    return 0;
}

static int sc_zeroed(lua_State *L)
{
    size_t n = (size_t)luaL_checkinteger(L, 1);
    unsigned char *p = (unsigned char *)calloc(n, 1);
    int zero = p != NULL;
    for (size_t i = 0; zero && i < n; i++)
        zero = p[i] == 0;
    free(p);
    lua_pushboolean(L, zero);
    return 1;
}

static int sc_try(lua_State *L)
{
    lua_Integer n = luaL_checkinteger(L, 1);
    void *p = n > 0 ? malloc((size_t)n) : NULL;
    if (p == NULL) {
        luaL_pushfail(L);
        lua_pushliteral(L, "out of memory");
        return 2;
    }
    free(p);
    lua_pushboolean(L, 1);
    return 1;
}

static int sc_exit(lua_State *L)
{
    exit((int)luaL_checkinteger(L, 1));
}

static const luaL_Reg methods[] = {
    {"add", sc_add}, {"result", sc_result}, {"size", sc_size}, {NULL, NULL}};

static const luaL_Reg funcs[] = {{"new", sc_new},
                                 {"zeroed", sc_zeroed},
                                 {"try", sc_try},
                                 {"exit", sc_exit},
                                 {NULL, NULL}};

int luaopen_scratch(lua_State *L);

int luaopen_scratch(lua_State *L)
{
    luaL_newlib(L, funcs);
    luaL_newmetatable(L, SCRATCH_TNAME);
    lua_pushcfunction(L, sc_gc);
    lua_setfield(L, -2, "__gc");
    luaL_newlib(L, methods);
    lua_setfield(L, -2, "__index");
    lua_pop(L, 1);
    return 1;
}
