/*
 * corolib.c — the coroutine library (Lua 5.4 §6.2) on lua_resume,
 * lua_yieldk, lua_status and lua_closethread.
 *
 * A coroutine's status is derived, never stored: the running thread is
 * "running"; a thread stopped in a yield, or one that has its body but
 * has not started, is "suspended"; one with active frames that resumed
 * another is "normal"; finished or failed ones are "dead".
 */
#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"
#include "romtab.h"
#include "rtlua.h"

enum { CO_RUNNING, CO_SUSPENDED, CO_NORMAL, CO_DEAD };

static const char *const co_names[] = {"running", "suspended", "normal",
                                       "dead"};

static lua_State *check_co(lua_State *L)
{
    lua_State *co = lua_tothread(L, 1);
    luaL_argexpected(L, co != NULL, 1, "thread");
    return co;
}

static int co_state(lua_State *L, lua_State *co)
{
    if (L == co)
        return CO_RUNNING;
    switch (lua_status(co)) {
    case LUA_YIELD:
        return CO_SUSPENDED;
    case LUA_OK: {
        lua_Debug ar;
        if (lua_getstack(co, 0, &ar))
            return CO_NORMAL;
        return lua_gettop(co) == 0 ? CO_DEAD : CO_SUSPENDED;
    }
    default:
        return CO_DEAD;
    }
}

/* Resumes co with narg values from L's top; returns the number of
 * results moved to L, or -1 with an error object on L's top. */
static int resume_with(lua_State *L, lua_State *co, int narg)
{
    /* A coroutine that is not suspended (running, normal or dead) is
     * lua_resume's to refuse: it drops the arguments and leaves "cannot
     * resume dead coroutine" or "cannot resume non-suspended coroutine"
     * in their place, moved to L below; no call to find its state. */
    if (!lua_checkstack(co, narg)) {
        lua_pushliteral(L, "too many arguments to resume");
        return -1;
    }
    lua_xmove(L, co, narg);
    int nres;
    int status = lua_resume(co, L, narg, &nres);
    if (status == LUA_OK || status == LUA_YIELD) {
        if (!lua_checkstack(L, nres + 1)) {
            lua_pop(co, nres);
            lua_pushliteral(L, "too many results to resume");
            return -1;
        }
        lua_xmove(co, L, nres);
        return nres;
    }
    lua_xmove(co, L, 1);
    return -1;
}

static int co_create(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_State *co = lua_newthread(L);
    lua_pushvalue(L, 1);
    lua_xmove(L, co, 1);
    return 1;
}

static int co_resume(lua_State *L)
{
    lua_State *co = check_co(L);
    int r = resume_with(L, co, lua_gettop(L) - 1);
    if (r < 0) {
        lua_pushboolean(L, 0);
        lua_insert(L, -2);
        return 2;
    }
    lua_pushboolean(L, 1);
    lua_insert(L, -(r + 1));
    return r + 1;
}

static int wrap_call(lua_State *L)
{
    lua_State *co = lua_tothread(L, lua_upvalueindex(1));
    int r = resume_with(L, co, lua_gettop(L));
    if (r >= 0)
        return r;
    int status = lua_status(co);
    if (status != LUA_OK && status != LUA_YIELD) {
        /* The body failed: close its pending to-be-closed variables;
         * the (possibly replaced) error object goes to the caller. */
        status = lua_closethread(co, L);
        if (lua_gettop(co) > 0) {
            lua_pop(L, 1);
            lua_xmove(co, L, 1);
        }
    }
    if (status != LUA_ERRMEM && lua_type(L, -1) == LUA_TSTRING) {
        luaL_where(L, 1);
        lua_insert(L, -2);
        lua_concat(L, 2);
    }
    return lua_error(L);
}

static int co_wrap(lua_State *L)
{
    co_create(L);
    lua_pushcclosure(L, wrap_call, 1);
    return 1;
}

static int co_yield (lua_State *L)
{
    return lua_yield(L, lua_gettop(L));
}

static int co_status(lua_State *L)
{
    lua_State *co = check_co(L);
    lua_pushstring(L, co_names[co_state(L, co)]);
    return 1;
}

static int co_running(lua_State *L)
{
    int ismain = lua_pushthread(L);
    lua_pushboolean(L, ismain);
    return 2;
}

static int co_isyieldable(lua_State *L)
{
    lua_State *co = lua_isnone(L, 1) ? L : check_co(L);
    lua_pushboolean(L, lua_isyieldable(co));
    return 1;
}

static int co_close(lua_State *L)
{
    lua_State *co = check_co(L);
    int st = co_state(L, co);
    if (st != CO_DEAD && st != CO_SUSPENDED)
        return luaL_error(L, "cannot close a %s coroutine", co_names[st]);
    int status = lua_closethread(co, L);
    if (status == LUA_OK) {
        lua_pushboolean(L, 1);
        return 1;
    }
    lua_pushboolean(L, 0);
    lua_xmove(co, L, 1);
    return 2;
}

int luaopen_coroutine(lua_State *L)
{
    rtlua_pushrom(L, &romtab_coroutine);
    return 1;
}

#define ROMTAB_FILE_corolib
#include "romtab.inc"
