/*
 * linit.c — luaL_openlibs: opens every standard library this build has.
 *
 * The library tables, the global table and package.loaded are ROM tables
 * in flash (tools/romtab.txt): luaopen_base makes the state's globals and
 * _LOADED the ROM ones, which already hold every library, so opening
 * costs no RAM beyond what each library keeps at run time (the string
 * metatable's root, io's registry entry, the random state).  Each
 * luaopen_* still runs, for that set-up, and returns its ROM table.
 */
#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"
#include "rtlua.h"

static const lua_CFunction std_libs[] = {
    luaopen_base,  luaopen_package, luaopen_coroutine,
    luaopen_table, luaopen_string,  luaopen_math,
    luaopen_utf8,  luaopen_os,      luaopen_io,
    luaopen_debug, luaopen_rt,      luaopen_hw,
    NULL};

/* The build's user C modules (make USER_C_MODULES=dir) replace this
 * with the generated umod/preload.c's; programs linked without them
 * (the unit tests) have none. */
__attribute__((weak)) void rtlua_openusermods(lua_State *L)
{
    (void)L;
}

void luaL_openlibs(lua_State *L)
{
    for (const lua_CFunction *open = std_libs; *open != NULL; open++) {
        lua_pushcfunction(L, *open);
        lua_call(L, 0, 0);
    }
    rtlua_openusermods(L);
}
