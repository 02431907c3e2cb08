/*
 * testmod.c — a C module written against the public headers only
 * (include/lua.h, include/lauxlib.h), as a third-party module would be:
 * it is the C API's client in tests/unit/test_capi.c, driven from Lua.
 *
 * It has a userdata type, testmod.Counter (methods through __index,
 * __gc and __close counted, __tostring, __name, a user value), registry
 * references, a luaL_Buffer that grows far past its inline storage,
 * functions sharing an upvalue (luaL_setfuncs with nup = 1), argument
 * checks whose errors the tests compare with lua5.4's, and calls,
 * protected calls and yields with continuations.
 */
#include "lauxlib.h"
#include "lua.h"

#include <string.h>

#define COUNTER_TNAME "testmod.Counter"

typedef struct counter {
    lua_Integer value;
    int closed;
} counter;

/* Finalized and closed counters since the module was opened. */
static int gc_count;
static int close_count;

static counter *check_counter(lua_State *L, int arg)
{
    return (counter *)luaL_checkudata(L, arg, COUNTER_TNAME);
}

/* testmod.new([n [, name]]) -> a counter starting at n. */
static int counter_new(lua_State *L)
{
    lua_Integer n = luaL_optinteger(L, 1, 0);
    int named = !lua_isnoneornil(L, 2);
    if (named)
        luaL_checkstring(L, 2);
    counter *c = (counter *)lua_newuserdatauv(L, sizeof(counter), 1);
    c->value = n;
    c->closed = 0;
    luaL_setmetatable(L, COUNTER_TNAME);
    if (named) {
        lua_pushvalue(L, 2);
        lua_setiuservalue(L, -2, 1);
    }
    return 1;
}

/* c:inc([by]) -> the new value. */
static int counter_inc(lua_State *L)
{
    counter *c = check_counter(L, 1);
    c->value += luaL_optinteger(L, 2, 1);
    lua_pushinteger(L, c->value);
    return 1;
}

static int counter_get(lua_State *L)
{
    lua_pushinteger(L, check_counter(L, 1)->value);
    return 1;
}

/* c:name() -> the user value (nil when unnamed); c:setname(s). */
static int counter_name(lua_State *L)
{
    check_counter(L, 1);
    lua_getiuservalue(L, 1, 1);
    return 1;
}

static int counter_setname(lua_State *L)
{
    check_counter(L, 1);
    luaL_checkany(L, 2);
    lua_settop(L, 2);
    lua_pushboolean(L, lua_setiuservalue(L, 1, 1));
    return 1;
}

/* c:isclosed() */
static int counter_isclosed(lua_State *L)
{
    lua_pushboolean(L, check_counter(L, 1)->closed);
    return 1;
}

static int counter_gc(lua_State *L)
{
    (void)check_counter(L, 1);
    gc_count++;
    return 0;
}

static int counter_close(lua_State *L)
{
    check_counter(L, 1)->closed = 1;
    close_count++;
    return 0;
}

static int counter_tostring(lua_State *L)
{
    counter *c = check_counter(L, 1);
    lua_pushfstring(L, "Counter(%I)", (LUAI_UACINT)c->value);
    return 1;
}

static const luaL_Reg counter_methods[] = {
    {"inc", counter_inc},           {"get", counter_get},
    {"name", counter_name},         {"setname", counter_setname},
    {"isclosed", counter_isclosed}, {NULL, NULL},
};

static const luaL_Reg counter_meta[] = {
    {"__gc", counter_gc},
    {"__close", counter_close},
    {"__tostring", counter_tostring},
    {"__index", NULL}, /* placeholder, set below */
    {NULL, NULL},
};

/* testmod.counts() -> finalized, closed */
static int counts(lua_State *L)
{
    lua_pushinteger(L, gc_count);
    lua_pushinteger(L, close_count);
    return 2;
}

/* ---- References ------------------------------------------------------ */

static int ref(lua_State *L)
{
    lua_settop(L, 1);
    lua_pushinteger(L, luaL_ref(L, LUA_REGISTRYINDEX));
    return 1;
}

static int deref(lua_State *L)
{
    lua_rawgeti(L, LUA_REGISTRYINDEX, luaL_checkinteger(L, 1));
    return 1;
}

static int unref(lua_State *L)
{
    luaL_unref(L, LUA_REGISTRYINDEX, (int)luaL_checkinteger(L, 1));
    return 0;
}

/* ---- Buffers ---------------------------------------------------------- */

/* testmod.join(s, n [, sep]) -> s repeated n times, separated, built
 * piece by piece (luaL_addlstring, luaL_addchar, luaL_addvalue). */
static int join(lua_State *L)
{
    size_t len, lsep;
    const char *s = luaL_checklstring(L, 1, &len);
    lua_Integer n = luaL_checkinteger(L, 2);
    const char *sep = luaL_optlstring(L, 3, "", &lsep);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (lua_Integer i = 0; i < n; i++) {
        if (i % 2 == 0) {
            luaL_addlstring(&b, s, len);
        } else {
            lua_pushvalue(L, 1);
            luaL_addvalue(&b);
        }
        if (i + 1 < n) {
            if (lsep == 1)
                luaL_addchar(&b, sep[0]);
            else
                luaL_addlstring(&b, sep, lsep);
        }
    }
    luaL_pushresult(&b);
    return 1;
}

/* testmod.gsub(s, pattern, replacement): plain text replacement. */
static int gsub(lua_State *L)
{
    luaL_gsub(L, luaL_checkstring(L, 1), luaL_checkstring(L, 2),
              luaL_checkstring(L, 3));
    return 1;
}

/* ---- Argument checks ------------------------------------------------- */

/* testmod.checks(i, n, s [, oi [, os]]) -> the converted values. */
static int checks(lua_State *L)
{
    lua_Integer i = luaL_checkinteger(L, 1);
    lua_Number n = luaL_checknumber(L, 2);
    const char *s = luaL_checkstring(L, 3);
    lua_Integer oi = luaL_optinteger(L, 4, 42);
    const char *os = luaL_optstring(L, 5, "def");
    lua_pushinteger(L, i);
    lua_pushnumber(L, n);
    lua_pushstring(L, s);
    lua_pushinteger(L, oi);
    lua_pushstring(L, os);
    return 5;
}

static int mode(lua_State *L)
{
    static const char *const modes[] = {"fast", "slow", "off", NULL};
    lua_pushinteger(L, luaL_checkoption(L, 1, "fast", modes));
    return 1;
}

static int needtable(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_pushboolean(L, 1);
    return 1;
}

/* testmod.fail(msg): raises with the caller's position. */
static int fail(lua_State *L)
{
    return luaL_error(L, "failed: %s", luaL_checkstring(L, 1));
}

/* ---- Upvalues ---------------------------------------------------------- */

/* Both functions share upvalue 1: a table holding the count at [1]. */
static int next_id(lua_State *L)
{
    lua_rawgeti(L, lua_upvalueindex(1), 1);
    lua_Integer id = lua_tointeger(L, -1) + 1;
    lua_pushinteger(L, id);
    lua_rawseti(L, lua_upvalueindex(1), 1);
    lua_pushinteger(L, id);
    return 1;
}

static int peek_id(lua_State *L)
{
    lua_rawgeti(L, lua_upvalueindex(1), 1);
    return 1;
}

static const luaL_Reg shared_funcs[] = {
    {"next_id", next_id},
    {"peek_id", peek_id},
    {NULL, NULL},
};

/* ---- Calls with continuations ---------------------------------------- */

/* After the call (directly or after a yield): "k", then the results. */
static int callk_cont(lua_State *L, int status, lua_KContext ctx)
{
    (void)status;
    lua_pushstring(L, "k");
    lua_insert(L, (int)ctx);
    return lua_gettop(L) - (int)ctx + 1;
}

/* testmod.callk(f, ...) -> "k", f(...) */
static int callk(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_callk(L, lua_gettop(L) - 1, LUA_MULTRET, 1, callk_cont);
    return callk_cont(L, LUA_OK, 1);
}

static int pcallk_cont(lua_State *L, int status, lua_KContext ctx)
{
    (void)ctx;
    /* status is LUA_OK, LUA_YIELD (resumed after a yield) or an error */
    int ok = status == LUA_OK || status == LUA_YIELD;
    lua_pushboolean(L, ok);
    lua_insert(L, 1);
    return lua_gettop(L);
}

/* testmod.pcallk(f, ...) -> ok, results or message */
static int pcallk(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TFUNCTION);
    int status =
        lua_pcallk(L, lua_gettop(L) - 1, LUA_MULTRET, 0, 0, pcallk_cont);
    return pcallk_cont(L, status, 0);
}

static int yieldk_cont(lua_State *L, int status, lua_KContext ctx)
{
    (void)status;
    lua_pushinteger(L, (lua_Integer)ctx);
    lua_insert(L, 1);
    return lua_gettop(L); /* ctx, then what resume passed */
}

/* testmod.yieldk(...) yields its arguments; resumed, returns 7 and the
 * resume's values (through the continuation). */
static int yieldk(lua_State *L)
{
    return lua_yieldk(L, lua_gettop(L), 7, yieldk_cont);
}

/* testmod.traceback(msg) -> luaL_traceback of the caller's stack */
static int traceback(lua_State *L)
{
    luaL_traceback(L, L, luaL_optstring(L, 1, NULL), 1);
    return 1;
}

/* testmod.tostr(v) -> luaL_tolstring */
static int tostr(lua_State *L)
{
    luaL_checkany(L, 1);
    luaL_tolstring(L, 1, NULL);
    return 1;
}

static const luaL_Reg funcs[] = {
    {"new", counter_new},     {"counts", counts}, {"ref", ref},
    {"deref", deref},         {"unref", unref},   {"join", join},
    {"gsub", gsub},           {"checks", checks}, {"mode", mode},
    {"needtable", needtable}, {"fail", fail},     {"callk", callk},
    {"pcallk", pcallk},       {"yieldk", yieldk}, {"traceback", traceback},
    {"tostr", tostr},         {NULL, NULL},
};

int luaopen_testmod(lua_State *L);

int luaopen_testmod(lua_State *L)
{
    gc_count = 0;
    close_count = 0;
    if (luaL_newmetatable(L, COUNTER_TNAME)) {
        luaL_setfuncs(L, counter_meta, 0);
        luaL_newlib(L, counter_methods);
        lua_setfield(L, -2, "__index");
    }
    lua_pop(L, 1);
    luaL_newlib(L, funcs);
    lua_newtable(L); /* the shared upvalue */
    luaL_setfuncs(L, shared_funcs, 1);
    return 1;
}
