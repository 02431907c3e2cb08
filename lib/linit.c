/*
 * linit.c — luaL_openlibs: opens every standard library this build has
 * into a state, each under its global name and in package.loaded
 * (registry._LOADED), as Lua 5.4's does.
 */
#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"
#include "rtlua.h"

/* RTLUA_LIBS_SMALL (microbit: 16 KiB of RAM) opens only the libraries
 * the language's own tests need, until the library tables live in flash
 * and cost no RAM. */
static const luaL_Reg std_libs[] = {{LUA_GNAME, luaopen_base},
#ifndef RTLUA_LIBS_SMALL
                                    {LUA_LOADLIBNAME, luaopen_package},
#endif
                                    {LUA_COLIBNAME, luaopen_coroutine},
                                    {LUA_TABLIBNAME, luaopen_table},
                                    {LUA_STRLIBNAME, luaopen_string},
                                    {LUA_MATHLIBNAME, luaopen_math},
#ifndef RTLUA_LIBS_SMALL
                                    {LUA_UTF8LIBNAME, luaopen_utf8},
                                    {LUA_OSLIBNAME, luaopen_os},
                                    {LUA_IOLIBNAME, luaopen_io},
                                    {LUA_DBLIBNAME, luaopen_debug},
                                    {RTLUA_RTLIBNAME, luaopen_rt},
#endif
                                    {NULL, NULL}};

void luaL_openlibs(lua_State *L)
{
    for (const luaL_Reg *lib = std_libs; lib->func != NULL; lib++) {
        luaL_requiref(L, lib->name, lib->func, 1);
        lua_pop(L, 1);
    }
}
