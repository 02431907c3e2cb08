/*
 * linit.c — luaL_openlibs: opens every standard library this build has
 * into a state, each under its global name and in package.loaded
 * (registry._LOADED), as Lua 5.4's does.
 */
#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"

static const luaL_Reg std_libs[] = {
    {LUA_GNAME, luaopen_base},       {LUA_COLIBNAME, luaopen_coroutine},
    {LUA_TABLIBNAME, luaopen_table}, {LUA_STRLIBNAME, luaopen_string},
    {LUA_MATHLIBNAME, luaopen_math}, {NULL, NULL}};

void luaL_openlibs(lua_State *L)
{
    for (const luaL_Reg *lib = std_libs; lib->func != NULL; lib++) {
        luaL_requiref(L, lib->name, lib->func, 1);
        lua_pop(L, 1);
    }
}
