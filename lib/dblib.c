/*
 * dblib.c — the debug library (Lua 5.4 §6.10) on the C debug API of
 * lua.h (lua_getstack, lua_getinfo, locals, upvalues, hooks).
 *
 * Most functions take an optional thread as their first argument and
 * then work on that thread's stack; `target` resolves it and tells how
 * far the other arguments are shifted.  Values that live on the other
 * thread's stack cross with lua_xmove, never by sharing slots.
 *
 * Hooks: the C hook installed in a thread is always `hook_dispatch`; the
 * Lua function it calls is kept in a registry table (HOOK_KEY) keyed by
 * the thread, weak in its keys so that a dead coroutine does not stay
 * alive because it once had a hook.  A hook set by C code is reported
 * by gethook as "external hook", as the reference does.
 */
#include <string.h>

#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"
#include "port/port.h"
#include "romtab.h"
#include "rtlua.h"

/* Registry field holding the table thread -> Lua hook function. */
#define HOOK_KEY "_HOOKKEY"

/* Longest line debug.debug() reads at once (longer ones are cut). */
#define DB_LINE_MAX 250

/* Default options of getinfo: everything the reference gives. */
#define DB_ALL_OPTIONS "flnSrtu"

/* The thread the call works on: the first argument when it is one
 * (then *shift is 1), else the running thread (*shift is 0). */
static lua_State *target(lua_State *L, int *shift)
{
    if (lua_type(L, 1) == LUA_TTHREAD) {
        *shift = 1;
        return lua_tothread(L, 1);
    }
    *shift = 0;
    return L;
}

/* ---- Metatables, registry, user values -------------------------------- */

static int db_getregistry(lua_State *L)
{
    lua_pushvalue(L, LUA_REGISTRYINDEX);
    return 1;
}

static int db_getmetatable(lua_State *L)
{
    luaL_checkany(L, 1);
    if (!lua_getmetatable(L, 1))
        lua_pushnil(L);
    return 1;
}

static int db_setmetatable(lua_State *L)
{
    int t = lua_type(L, 2);
    luaL_argexpected(L, t == LUA_TNIL || t == LUA_TTABLE, 2, "nil or table");
    lua_settop(L, 2);
    lua_setmetatable(L, 1);
    return 1; /* the object itself */
}

static int db_getuservalue(lua_State *L)
{
    int n = (int)luaL_optinteger(L, 2, 1);
    if (lua_type(L, 1) != LUA_TUSERDATA) {
        luaL_pushfail(L);
        return 1;
    }
    if (lua_getiuservalue(L, 1, n) == LUA_TNONE)
        return 1; /* no such value: the nil pushed stands alone */
    lua_pushboolean(L, 1);
    return 2;
}

static int db_setuservalue(lua_State *L)
{
    int n = (int)luaL_optinteger(L, 3, 1);
    luaL_checktype(L, 1, LUA_TUSERDATA);
    luaL_checkany(L, 2);
    lua_settop(L, 2);
    if (!lua_setiuservalue(L, 1, n))
        luaL_pushfail(L);
    return 1;
}

/* ---- getinfo ---------------------------------------------------------- */

static void field_str(lua_State *L, const char *k, const char *v)
{
    lua_pushstring(L, v);
    lua_setfield(L, -2, k);
}

static void field_int(lua_State *L, const char *k, lua_Integer v)
{
    lua_pushinteger(L, v);
    lua_setfield(L, -2, k);
}

static void field_bool(lua_State *L, const char *k, int v)
{
    lua_pushboolean(L, v);
    lua_setfield(L, -2, k);
}

/* lua_getinfo left a value ('f' or 'L') on L1's top; store it in the
 * result table (on L's top) as field k.  When L1 is L the value sits
 * just below the table. */
static void field_from(lua_State *L, lua_State *L1, const char *k)
{
    if (L == L1)
        lua_rotate(L, -2, 1);
    else
        lua_xmove(L1, L, 1);
    lua_setfield(L, -2, k);
}

static int db_getinfo(lua_State *L)
{
    lua_Debug ar;
    int sh;
    lua_State *L1 = target(L, &sh);
    const char *opts = luaL_optstring(L, sh + 2, DB_ALL_OPTIONS);
    luaL_checkstack(L, 3, NULL);
    /* lua_getinfo may push the function and its lines on L1. */
    if (L1 != L && !lua_checkstack(L1, 3))
        return luaL_error(L, "stack overflow");
    luaL_argcheck(L, opts[0] != '>', sh + 2, "invalid option '>'");
    if (lua_isfunction(L, sh + 1)) {
        opts = lua_pushfstring(L, ">%s", opts);
        lua_pushvalue(L, sh + 1);
        lua_xmove(L, L1, 1);
    } else if (!lua_getstack(L1, (int)luaL_checkinteger(L, sh + 1), &ar)) {
        luaL_pushfail(L); /* no such level */
        return 1;
    }
    if (!lua_getinfo(L1, opts, &ar))
        return luaL_argerror(L, sh + 2, "invalid option");
    lua_newtable(L);
    if (strchr(opts, 'S')) {
        lua_pushlstring(L, ar.source, ar.srclen);
        lua_setfield(L, -2, "source");
        field_str(L, "short_src", ar.short_src);
        field_int(L, "linedefined", ar.linedefined);
        field_int(L, "lastlinedefined", ar.lastlinedefined);
        field_str(L, "what", ar.what);
    }
    if (strchr(opts, 'l'))
        field_int(L, "currentline", ar.currentline);
    if (strchr(opts, 'u')) {
        field_int(L, "nups", ar.nups);
        field_int(L, "nparams", ar.nparams);
        field_bool(L, "isvararg", ar.isvararg);
    }
    if (strchr(opts, 'n')) {
        field_str(L, "name", ar.name);
        field_str(L, "namewhat", ar.namewhat);
    }
    if (strchr(opts, 'r')) {
        field_int(L, "ftransfer", ar.ftransfer);
        field_int(L, "ntransfer", ar.ntransfer);
    }
    if (strchr(opts, 't'))
        field_bool(L, "istailcall", ar.istailcall);
    /* lua_getinfo pushed 'f' first and 'L' above it. */
    if (strchr(opts, 'L'))
        field_from(L, L1, "activelines");
    if (strchr(opts, 'f'))
        field_from(L, L1, "func");
    return 1;
}

/* ---- Locals ----------------------------------------------------------- */

static int db_getlocal(lua_State *L)
{
    lua_Debug ar;
    int sh;
    lua_State *L1 = target(L, &sh);
    int n = (int)luaL_checkinteger(L, sh + 2);
    if (lua_isfunction(L, sh + 1)) {
        /* Form getlocal(f, n): only the names of f's parameters. */
        lua_pushvalue(L, sh + 1);
        lua_pushstring(L, lua_getlocal(L, NULL, n));
        return 1;
    }
    if (!lua_getstack(L1, (int)luaL_checkinteger(L, sh + 1), &ar))
        return luaL_argerror(L, sh + 1, "level out of range");
    luaL_checkstack(L1, 1, NULL);
    const char *name = lua_getlocal(L1, &ar, n);
    if (name == NULL) {
        luaL_pushfail(L);
        return 1;
    }
    lua_xmove(L1, L, 1);
    lua_pushstring(L, name);
    lua_rotate(L, -2, 1); /* name, value */
    return 2;
}

static int db_setlocal(lua_State *L)
{
    lua_Debug ar;
    int sh;
    lua_State *L1 = target(L, &sh);
    int level = (int)luaL_checkinteger(L, sh + 1);
    int n = (int)luaL_checkinteger(L, sh + 2);
    if (!lua_getstack(L1, level, &ar))
        return luaL_argerror(L, sh + 1, "level out of range");
    luaL_checkany(L, sh + 3);
    lua_settop(L, sh + 3);
    luaL_checkstack(L1, 1, NULL);
    lua_xmove(L, L1, 1);
    const char *name = lua_setlocal(L1, &ar, n);
    if (name == NULL)
        lua_pop(L1, 1); /* not consumed */
    lua_pushstring(L, name);
    return 1;
}

/* ---- Upvalues --------------------------------------------------------- */

static int db_getupvalue(lua_State *L)
{
    int n = (int)luaL_checkinteger(L, 2);
    luaL_checktype(L, 1, LUA_TFUNCTION);
    const char *name = lua_getupvalue(L, 1, n);
    if (name == NULL)
        return 0;
    lua_pushstring(L, name);
    lua_rotate(L, -2, 1);
    return 2;
}

static int db_setupvalue(lua_State *L)
{
    luaL_checkany(L, 3);
    int n = (int)luaL_checkinteger(L, 2);
    luaL_checktype(L, 1, LUA_TFUNCTION);
    const char *name = lua_setupvalue(L, 1, n);
    if (name == NULL)
        return 0;
    lua_pushstring(L, name);
    return 1;
}

/* The identity of upvalue (argument nup) of function (argument f); with
 * `strict`, a missing upvalue is an argument error. */
static void *upvalue_at(lua_State *L, int f, int nup, int strict, int *pn)
{
    int n = (int)luaL_checkinteger(L, nup);
    luaL_checktype(L, f, LUA_TFUNCTION);
    void *id = lua_upvalueid(L, f, n);
    if (strict)
        luaL_argcheck(L, id != NULL, nup, "invalid upvalue index");
    *pn = n;
    return id;
}

static int db_upvalueid(lua_State *L)
{
    int n;
    void *id = upvalue_at(L, 1, 2, 0, &n);
    if (id == NULL)
        luaL_pushfail(L);
    else
        lua_pushlightuserdata(L, id);
    return 1;
}

static int db_upvaluejoin(lua_State *L)
{
    int n1, n2;
    upvalue_at(L, 1, 2, 1, &n1);
    upvalue_at(L, 3, 4, 1, &n2);
    luaL_argcheck(L, !lua_iscfunction(L, 1), 1, "Lua function expected");
    luaL_argcheck(L, !lua_iscfunction(L, 3), 3, "Lua function expected");
    lua_upvaluejoin(L, 1, n1, 3, n2);
    return 0;
}

/* ---- Hooks ------------------------------------------------------------ */

static const char *const hook_events[] = {"call", "return", "line", "count",
                                          "tail call"};

/* The C hook of every thread with a Lua hook: finds the thread's
 * function in the registry and calls it with (event, line). */
static void hook_dispatch(lua_State *L, lua_Debug *ar)
{
    /* A script may have replaced the hook table or its entry: then
     * there is nothing to call. */
    if (lua_getfield(L, LUA_REGISTRYINDEX, HOOK_KEY) != LUA_TTABLE)
        return;
    lua_pushthread(L);
    if (lua_rawget(L, -2) != LUA_TFUNCTION)
        return;
    lua_pushstring(L, hook_events[ar->event]);
    if (ar->currentline >= 0)
        lua_pushinteger(L, ar->currentline);
    else
        lua_pushnil(L);
    lua_call(L, 2, 0);
}

static int mask_of(const char *s, int count)
{
    int mask = 0;
    if (strchr(s, 'c'))
        mask |= LUA_MASKCALL;
    if (strchr(s, 'r'))
        mask |= LUA_MASKRET;
    if (strchr(s, 'l'))
        mask |= LUA_MASKLINE;
    if (count > 0)
        mask |= LUA_MASKCOUNT;
    return mask;
}

static void push_mask(lua_State *L, int mask)
{
    char s[4];
    int n = 0;
    if (mask & LUA_MASKCALL)
        s[n++] = 'c';
    if (mask & LUA_MASKRET)
        s[n++] = 'r';
    if (mask & LUA_MASKLINE)
        s[n++] = 'l';
    lua_pushlstring(L, s, (size_t)n);
}

static int db_sethook(lua_State *L)
{
    int sh, mask, count;
    lua_Hook func;
    lua_State *L1 = target(L, &sh);
    if (lua_isnoneornil(L, sh + 1)) { /* sethook() turns hooks off */
        lua_settop(L, sh + 1);
        func = NULL;
        mask = 0;
        count = 0;
    } else {
        const char *events = luaL_checkstring(L, sh + 2);
        luaL_checktype(L, sh + 1, LUA_TFUNCTION);
        count = (int)luaL_optinteger(L, sh + 3, 0);
        func = hook_dispatch;
        mask = mask_of(events, count);
    }
    if (!luaL_getsubtable(L, LUA_REGISTRYINDEX, HOOK_KEY)) {
        /* First hook ever: the table is its own weak-keyed metatable. */
        lua_pushliteral(L, "k");
        lua_setfield(L, -2, "__mode");
        lua_pushvalue(L, -1);
        lua_setmetatable(L, -2);
    }
    luaL_checkstack(L1, 1, NULL);
    lua_pushthread(L1);
    lua_xmove(L1, L, 1);
    lua_pushvalue(L, sh + 1);
    lua_rawset(L, -3); /* hooks[thread] = function (or nil) */
    lua_sethook(L1, func, mask, count);
    return 0;
}

static int db_gethook(lua_State *L)
{
    int sh;
    lua_State *L1 = target(L, &sh);
    lua_Hook hook = lua_gethook(L1);
    int mask = lua_gethookmask(L1);
    if (hook == NULL) {
        luaL_pushfail(L);
        return 1;
    }
    if (hook != hook_dispatch) {
        lua_pushliteral(L, "external hook");
    } else if (lua_getfield(L, LUA_REGISTRYINDEX, HOOK_KEY) != LUA_TTABLE) {
        lua_pushnil(L); /* the hook table was replaced by a script */
    } else {
        luaL_checkstack(L1, 1, NULL);
        lua_pushthread(L1);
        lua_xmove(L1, L, 1);
        lua_rawget(L, -2);
        lua_remove(L, -2);
    }
    push_mask(L, mask);
    lua_pushinteger(L, lua_gethookcount(L1));
    return 3;
}

/* ---- traceback, debug, setcstacklimit --------------------------------- */

static int db_traceback(lua_State *L)
{
    int sh;
    lua_State *L1 = target(L, &sh);
    const char *msg = lua_tostring(L, sh + 1);
    if (msg == NULL && !lua_isnoneornil(L, sh + 1)) {
        lua_pushvalue(L, sh + 1); /* a non-string message passes through */
        return 1;
    }
    int level = (int)luaL_optinteger(L, sh + 2, L == L1 ? 1 : 0);
    luaL_traceback(L, L1, msg, level);
    return 1;
}

/* Reads one console line into buf (without its newline); 0 at end of
 * input with nothing read. */
static int read_line(char *buf, size_t cap)
{
    size_t n = 0;
    int c = port_getc();
    if (c < 0)
        return 0;
    while (c >= 0 && c != '\n') {
        if (n + 1 < cap)
            buf[n++] = (char)c;
        c = port_getc();
    }
    buf[n] = '\0';
    return 1;
}

static int db_debug(lua_State *L)
{
    static const char prompt[] = "lua_debug> ";
    char line[DB_LINE_MAX];
    for (;;) {
        port_write_err(prompt, sizeof prompt - 1);
        if (!read_line(line, sizeof line) || strcmp(line, "cont") == 0)
            return 0;
        if (luaL_loadbuffer(L, line, strlen(line), "=(debug command)") ||
            lua_pcall(L, 0, 0, 0)) {
            const char *m = luaL_tolstring(L, -1, NULL);
            port_write_err(m, strlen(m));
            port_write_err("\n", 1);
        }
        lua_settop(L, 0);
    }
}

static int db_setcstacklimit(lua_State *L)
{
    int limit = (int)luaL_checkinteger(L, 1);
    lua_pushinteger(L, lua_setcstacklimit(L, (unsigned int)limit));
    return 1;
}

int luaopen_debug(lua_State *L)
{
    rtlua_pushrom(L, &romtab_debug);
    return 1;
}

#define ROMTAB_FILE_dblib
#include "romtab.inc"
