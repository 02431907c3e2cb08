/*
 * base.c — the basic library (luaopen_base): the global functions of
 * Lua 5.4 §6.1, written on the public C API only.
 *
 * Every function that calls back into Lua (pcall, xpcall, pairs through
 * __pairs, dofile) does so with lua_callk/lua_pcallk and a continuation,
 * so a coroutine may yield across it; the continuation finishes the
 * work exactly as the uninterrupted path would.
 */
#include "lauxlib.h"
#include "lib/lib.h"
#include "lua.h"
#include "lualib.h"
#include "romtab.h"
#include "rtlua.h"

/* Slot of load()'s reader-function result, kept on the stack so the
 * collector sees the piece being handed to the compiler. */
#define LOAD_READER_SLOT 5

static int b_print(lua_State *L)
{
    int n = lua_gettop(L);
    for (int i = 1; i <= n; i++) {
        size_t len;
        const char *s = luaL_tolstring(L, i, &len);
        if (i > 1)
            lua_writestring("\t", 1);
        lua_writestring(s, len);
        lua_pop(L, 1);
    }
    lua_writeline();
    return 0;
}

static int b_warn(lua_State *L)
{
    int n = lua_gettop(L);
    luaL_checkstring(L, 1);
    for (int i = 2; i <= n; i++)
        luaL_checkstring(L, i);
    for (int i = 1; i < n; i++)
        lua_warning(L, lua_tostring(L, i), 1);
    lua_warning(L, lua_tostring(L, n), 0);
    return 0;
}

static int digit_value(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'Z')
        return c - 'A' + 10;
    return 99;
}

static int is_blank(int c)
{
    return c == ' ' || (c >= '\t' && c <= '\r');
}

/* s in base `base` (whole string, blanks around, optional '-'); returns
 * 1 and sets *out, or 0.  Overflow wraps, as in Lua 5.4. */
static int str_to_int_base(const char *s, size_t len, int base,
                           lua_Integer *out)
{
    const char *e = s + len;
    lua_Unsigned v = 0;
    int neg = 0, any = 0;
    while (s < e && is_blank((unsigned char)*s))
        s++;
    if (s < e && *s == '-') {
        neg = 1;
        s++;
    } else if (s < e && *s == '+') {
        s++;
    }
    while (s < e) {
        int d = digit_value((unsigned char)*s);
        if (d >= base)
            break;
        v = v * (lua_Unsigned)base + (lua_Unsigned)d;
        any = 1;
        s++;
    }
    while (s < e && is_blank((unsigned char)*s))
        s++;
    if (!any || s != e)
        return 0;
    *out = (lua_Integer)(neg ? 0u - v : v);
    return 1;
}

static int b_tonumber(lua_State *L)
{
    if (lua_isnoneornil(L, 2)) {
        if (lua_type(L, 1) == LUA_TNUMBER) {
            lua_settop(L, 1);
            return 1;
        }
        size_t len;
        const char *s = lua_tolstring(L, 1, &len);
        if (s != NULL && lua_stringtonumber(L, s) == len + 1)
            return 1;
        luaL_checkany(L, 1);
    } else {
        lua_Integer base = luaL_checkinteger(L, 2);
        size_t len;
        luaL_checktype(L, 1, LUA_TSTRING);
        const char *s = lua_tolstring(L, 1, &len);
        luaL_argcheck(L, 2 <= base && base <= 36, 2, "base out of range");
        lua_Integer v;
        if (str_to_int_base(s, len, (int)base, &v)) {
            lua_pushinteger(L, v);
            return 1;
        }
    }
    luaL_pushfail(L);
    return 1;
}

static int b_error(lua_State *L)
{
    int level = (int)luaL_optinteger(L, 2, 1);
    lua_settop(L, 1);
    if (lua_type(L, 1) == LUA_TSTRING && level > 0) {
        luaL_where(L, level);
        lua_pushvalue(L, 1);
        lua_concat(L, 2);
    }
    return lua_error(L);
}

static int b_getmetatable(lua_State *L)
{
    luaL_checkany(L, 1);
    if (!lua_getmetatable(L, 1)) {
        lua_pushnil(L);
        return 1;
    }
    luaL_getmetafield(L, 1, "__metatable");
    return 1;
}

static int b_setmetatable(lua_State *L)
{
    int t = lua_type(L, 2);
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_argexpected(L, t == LUA_TNIL || t == LUA_TTABLE, 2, "nil or table");
    if (luaL_getmetafield(L, 1, "__metatable") != LUA_TNIL)
        return luaL_error(L, "cannot change a protected metatable");
    lua_settop(L, 2);
    lua_setmetatable(L, 1);
    return 1;
}

static int b_rawequal(lua_State *L)
{
    luaL_checkany(L, 1);
    luaL_checkany(L, 2);
    lua_pushboolean(L, lua_rawequal(L, 1, 2));
    return 1;
}

static int b_rawlen(lua_State *L)
{
    int t = lua_type(L, 1);
    luaL_argexpected(L, t == LUA_TTABLE || t == LUA_TSTRING, 1,
                     "table or string");
    lua_pushinteger(L, (lua_Integer)lua_rawlen(L, 1));
    return 1;
}

static int b_rawget(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checkany(L, 2);
    lua_settop(L, 2);
    lua_rawget(L, 1);
    return 1;
}

static int b_rawset(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checkany(L, 2);
    luaL_checkany(L, 3);
    lua_settop(L, 3);
    lua_rawset(L, 1);
    return 1;
}

static const char *const gc_options[] = {
    "stop",         "restart",     "collect",    "count",
    "step",         "setpause",    "setstepmul", "isrunning",
    "generational", "incremental", NULL};
static const int gc_codes[] = {
    LUA_GCSTOP,     LUA_GCRESTART,    LUA_GCCOLLECT,   LUA_GCCOUNT, LUA_GCSTEP,
    LUA_GCSETPAUSE, LUA_GCSETSTEPMUL, LUA_GCISRUNNING, LUA_GCGEN,   LUA_GCINC};

/* collectgarbage(opt, ...): every option of 5.4.8 with its results
 * (lua_gc, vm/api.c).  The collector is incremental only:
 * "generational" is accepted and remembered, so that "incremental" and
 * "generational" return the previous mode's name, but collection stays
 * incremental and time-bounded; in that mode "step" is an incremental
 * step, true when it ended a cycle, not 5.4's minor collection (which
 * returns false).  "setpause", "setstepmul" and "incremental"'s pause and
 * step multiplier keep their values as 5.4 does (multiples of 4, up to
 * 1,020) and return the previous ones; only the pause acts (the pacer's
 * threshold); the step multiplier and size are accepted and unused, a
 * step being bounded by time.  "count" is KiB in use, a float.  Called
 * from a finalizer, every option returns fail. */
static int b_collectgarbage(lua_State *L)
{
    int o = gc_codes[luaL_checkoption(L, 1, "collect", gc_options)];
    int res;
    switch (o) {
    case LUA_GCCOUNT: {
        int k = lua_gc(L, o);
        int b = lua_gc(L, LUA_GCCOUNTB);
        if (k == -1)
            break;
        lua_pushnumber(L, (lua_Number)k + ((lua_Number)b / 1024));
        return 1;
    }
    case LUA_GCSTEP: {
        int step = (int)luaL_optinteger(L, 2, 0);
        res = lua_gc(L, o, step);
        if (res == -1)
            break;
        lua_pushboolean(L, res);
        return 1;
    }
    case LUA_GCSETPAUSE:
    case LUA_GCSETSTEPMUL: {
        int p = (int)luaL_optinteger(L, 2, 0);
        res = lua_gc(L, o, p);
        if (res == -1)
            break;
        lua_pushinteger(L, res);
        return 1;
    }
    case LUA_GCISRUNNING:
        res = lua_gc(L, o);
        if (res == -1)
            break;
        lua_pushboolean(L, res);
        return 1;
    case LUA_GCGEN: {
        int minormul = (int)luaL_optinteger(L, 2, 0);
        int majormul = (int)luaL_optinteger(L, 3, 0);
        res = lua_gc(L, o, minormul, majormul);
        if (res == -1)
            break;
        lua_pushstring(L, res == LUA_GCGEN ? "generational" : "incremental");
        return 1;
    }
    case LUA_GCINC: {
        int pause = (int)luaL_optinteger(L, 2, 0);
        int stepmul = (int)luaL_optinteger(L, 3, 0);
        int stepsize = (int)luaL_optinteger(L, 4, 0);
        res = lua_gc(L, o, pause, stepmul, stepsize);
        if (res == -1)
            break;
        lua_pushstring(L, res == LUA_GCGEN ? "generational" : "incremental");
        return 1;
    }
    default:
        res = lua_gc(L, o);
        if (res == -1)
            break;
        lua_pushinteger(L, res);
        return 1;
    }
    /* -1: the collector refused (called from a finalizer). */
    luaL_pushfail(L);
    return 1;
}

static int b_type(lua_State *L)
{
    int t = lua_type(L, 1);
    luaL_argcheck(L, t != LUA_TNONE, 1, "value expected");
    lua_pushstring(L, lua_typename(L, t));
    return 1;
}

static int b_next(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 2);
    if (lua_next(L, 1))
        return 2;
    lua_pushnil(L);
    return 1;
}

static int pairs_done(lua_State *L, int status, lua_KContext k)
{
    (void)L;
    (void)status;
    (void)k;
    return 3;
}

static int b_pairs(lua_State *L)
{
    luaL_checkany(L, 1);
    if (luaL_getmetafield(L, 1, "__pairs") == LUA_TNIL) {
        lua_pushcfunction(L, b_next);
        lua_pushvalue(L, 1);
        lua_pushnil(L);
    } else {
        lua_pushvalue(L, 1);
        lua_callk(L, 1, 3, 0, pairs_done);
    }
    return 3;
}

static int ipairs_step(lua_State *L)
{
    lua_Integer i = luaL_checkinteger(L, 2);
    i = (lua_Integer)((lua_Unsigned)i + 1u);
    lua_pushinteger(L, i);
    return lua_geti(L, 1, i) == LUA_TNIL ? 1 : 2;
}

static int b_ipairs(lua_State *L)
{
    luaL_checkany(L, 1);
    lua_pushcfunction(L, ipairs_step);
    lua_pushvalue(L, 1);
    lua_pushinteger(L, 0);
    return 3;
}

/* After lua_load: on success, env (when given) becomes the first
 * upvalue; on failure, fail + message. */
static int load_result(lua_State *L, int status, int envidx)
{
    if (status != LUA_OK) {
        luaL_pushfail(L);
        lua_insert(L, -2);
        return 2;
    }
    if (envidx != 0) {
        lua_pushvalue(L, envidx);
        if (!lua_setupvalue(L, -2, 1))
            lua_pop(L, 1);
    }
    return 1;
}

static const char *load_reader(lua_State *L, void *ud, size_t *size)
{
    (void)ud;
    luaL_checkstack(L, 2, "too many nested functions");
    lua_pushvalue(L, 1);
    lua_call(L, 0, 1);
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        *size = 0;
        return NULL;
    }
    if (!lua_isstring(L, -1))
        luaL_error(L, "reader function must return a string");
    lua_replace(L, LOAD_READER_SLOT);
    return lua_tolstring(L, LOAD_READER_SLOT, size);
}

static int b_load(lua_State *L)
{
    size_t len;
    const char *s = lua_tolstring(L, 1, &len);
    const char *mode = luaL_optstring(L, 3, "bt");
    int envidx = !lua_isnone(L, 4) ? 4 : 0;
    int status;
    if (s != NULL) {
        const char *name = luaL_optstring(L, 2, s);
        status = luaL_loadbufferx(L, s, len, name, mode);
    } else {
        const char *name = luaL_optstring(L, 2, "=(load)");
        luaL_checktype(L, 1, LUA_TFUNCTION);
        lua_settop(L, LOAD_READER_SLOT);
        status = lua_load(L, load_reader, NULL, name, mode);
    }
    return load_result(L, status, envidx);
}

static int b_loadfile(lua_State *L)
{
    const char *name = luaL_optstring(L, 1, NULL);
    const char *mode = luaL_optstring(L, 2, NULL);
    int envidx = !lua_isnone(L, 3) ? 3 : 0;
    return load_result(L, luaL_loadfilex(L, name, mode), envidx);
}

#ifdef RTLUA_HOST
static int dofile_done(lua_State *L, int status, lua_KContext k)
{
    (void)status;
    (void)k;
    return lua_gettop(L) - 1;
}

static int b_dofile(lua_State *L)
{
    const char *name = luaL_optstring(L, 1, NULL);
    lua_settop(L, 1);
    if (luaL_loadfile(L, name) != LUA_OK)
        return lua_error(L);
    lua_callk(L, 0, LUA_MULTRET, 0, dofile_done);
    return dofile_done(L, 0, 0);
}
#endif

static int b_assert(lua_State *L)
{
    if (lua_toboolean(L, 1))
        return lua_gettop(L);
    luaL_checkany(L, 1);
    lua_remove(L, 1);
    lua_pushliteral(L, "assertion failed!");
    lua_settop(L, 1);
    return b_error(L);
}

static int b_select(lua_State *L)
{
    int n = lua_gettop(L);
    if (lua_type(L, 1) == LUA_TSTRING && *lua_tostring(L, 1) == '#') {
        lua_pushinteger(L, n - 1);
        return 1;
    }
    lua_Integer i = luaL_checkinteger(L, 1);
    if (i < 0)
        i = n + i;
    else if (i > n)
        i = n;
    luaL_argcheck(L, 1 <= i, 1, "index out of range");
    return n - (int)i;
}

/* Continuation of pcall/xpcall: `extra` slots below the results (the
 * status boolean, and xpcall's handler) are not returned. */
static int pcall_done(lua_State *L, int status, lua_KContext extra)
{
    if (status != LUA_OK && status != LUA_YIELD) {
        lua_pushboolean(L, 0);
        lua_pushvalue(L, -2);
        return 2;
    }
    return lua_gettop(L) - (int)extra;
}

static int b_pcall(lua_State *L)
{
    luaL_checkany(L, 1);
    lua_pushboolean(L, 1);
    lua_insert(L, 1);
    int status =
        lua_pcallk(L, lua_gettop(L) - 2, LUA_MULTRET, 0, 0, pcall_done);
    return pcall_done(L, status, 0);
}

static int b_xpcall(lua_State *L)
{
    int n = lua_gettop(L);
    luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_pushboolean(L, 1);
    lua_pushvalue(L, 1);
    lua_rotate(L, 3, 2);
    /* Stack: f handler true f args... */
    int status = lua_pcallk(L, n - 2, LUA_MULTRET, 2, 2, pcall_done);
    return pcall_done(L, status, 2);
}

static int b_tostring(lua_State *L)
{
    luaL_checkany(L, 1);
    luaL_tolstring(L, 1, NULL);
    return 1;
}

void lib_copyrom(lua_State *L, const void *rom)
{
    rtlua_pushrom(L, rom);
    lua_pushnil(L);
    while (lua_next(L, -2)) { /* target, rom, key, value */
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, -5);
    }
    lua_pop(L, 1);
}

/* Make `rom` the registry's table at key (by index when key is NULL),
 * unless one is there already in RAM: then its entries are copied in. */
static void install(lua_State *L, const char *key, int index, const void *rom)
{
    int t = key ? lua_getfield(L, LUA_REGISTRYINDEX, key)
                : lua_rawgeti(L, LUA_REGISTRYINDEX, index);
    int empty = 1;
    if (t == LUA_TTABLE) {
        lua_pushnil(L);
        empty = lua_next(L, -2) == 0;
        if (!empty)
            lua_pop(L, 2);
    }
    if (t == LUA_TTABLE && !empty) {
        lib_copyrom(L, rom);
    } else {
        lua_pop(L, 1);
        rtlua_pushrom(L, rom);
        lua_pushvalue(L, -1);
        if (key)
            lua_setfield(L, LUA_REGISTRYINDEX, key);
        else
            lua_rawseti(L, LUA_REGISTRYINDEX, index);
    }
}

/* The global table and package.loaded are ROM tables (the libraries in
 * them too), so a fresh state opens every library without allocating:
 * the registry's globals and _LOADED become the ROM ones.  A state whose
 * global table already has entries keeps it and gets the ROM entries
 * copied in. */
int luaopen_base(lua_State *L)
{
    install(L, LUA_LOADED_TABLE, 0, &romtab_loaded);
    lua_pop(L, 1);
    install(L, NULL, LUA_RIDX_GLOBALS, &romtab_G);
    return 1;
}

#define ROMTAB_FILE_base
#include "romtab.inc"
