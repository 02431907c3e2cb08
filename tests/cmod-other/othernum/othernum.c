/*
 * othernum.c — an ordinary module, built by tests/cmod/run against the
 * include directory of the other number model than the runtime's: its
 * luaL_newlib (luaL_checkversion) must refuse to open it, with a message
 * that names both configurations.
 */
#include "lauxlib.h"
#include "lua.h"

static int on_add(lua_State *L)
{
    lua_pushinteger(L, luaL_checkinteger(L, 1) + luaL_checkinteger(L, 2));
    return 1;
}

static const luaL_Reg funcs[] = {{"add", on_add}, {NULL, NULL}};

int luaopen_othernum(lua_State *L);

int luaopen_othernum(lua_State *L)
{
    luaL_newlib(L, funcs);
    return 1;
}
