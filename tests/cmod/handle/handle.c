/*
 * handle.c — a third-party-style module of resource handles, as a
 * socket or database binding makes them: a full userdata per handle
 * with a metatable (luaL_newmetatable), methods through __index, and
 * the resource released exactly once, by h:close(), by a to-be-closed
 * variable (__close) or by the collector (__gc).  A user value holds a
 * Lua value attached to the handle.
 *
 *   local handle = require "handle"
 *   local h <close> = handle.open("name")
 *   h:name(), h:isopen(), h:close(), h:attach(v), h:attached()
 *   handle.stats() -> opened, closed, by_close, by_gc
 */
#include <string.h>

#include "lauxlib.h"
#include "lua.h"

#define HANDLE_TNAME "handle.Handle"
#define NAME_MAX_LEN 31

typedef struct handle {
    int open;
    char name[NAME_MAX_LEN + 1];
} handle;

/* The module's counters. */
static struct {
    lua_Integer opened, closed, by_close, by_gc;
} counts;

static handle *check_handle(lua_State *L, int arg)
{
    return (handle *)luaL_checkudata(L, arg, HANDLE_TNAME);
}

static handle *check_open(lua_State *L, int arg)
{
    handle *h = check_handle(L, arg);
    if (!h->open)
        luaL_error(L, "handle '%s' is closed", h->name);
    return h;
}

/* Releases the resource once; returns whether it was open. */
static int release(handle *h)
{
    if (!h->open)
        return 0;
    h->open = 0;
    counts.closed++;
    return 1;
}

static int h_open(lua_State *L)
{
    size_t len;
    const char *name = luaL_checklstring(L, 1, &len);
    luaL_argcheck(L, len <= NAME_MAX_LEN, 1, "name too long");
    handle *h = (handle *)lua_newuserdatauv(L, sizeof(handle), 1);
    h->open = 1;
    memcpy(h->name, name, len + 1);
    luaL_setmetatable(L, HANDLE_TNAME);
    counts.opened++;
    return 1;
}

static int h_close(lua_State *L)
{
    lua_pushboolean(L, release(check_handle(L, 1)));
    return 1;
}

static int h_isopen(lua_State *L)
{
    lua_pushboolean(L, check_handle(L, 1)->open);
    return 1;
}

static int h_name(lua_State *L)
{
    lua_pushstring(L, check_open(L, 1)->name);
    return 1;
}

static int h_attach(lua_State *L)
{
    check_open(L, 1);
    luaL_checkany(L, 2);
    lua_settop(L, 2);
    lua_setiuservalue(L, 1, 1);
    return 0;
}

static int h_attached(lua_State *L)
{
    check_handle(L, 1);
    lua_getiuservalue(L, 1, 1);
    return 1;
}

static int h_gc(lua_State *L)
{
    if (release(check_handle(L, 1)))
        counts.by_gc++;
    return 0;
}

/* __close(h, err): err is the error that ends the scope, or nil. */
static int h_toclose(lua_State *L)
{
    if (release(check_handle(L, 1)))
        counts.by_close++;
    return 0;
}

static int h_tostring(lua_State *L)
{
    handle *h = check_handle(L, 1);
    lua_pushfstring(L, "handle %s (%s)", h->name, h->open ? "open" : "closed");
    return 1;
}

static int h_stats(lua_State *L)
{
    lua_pushinteger(L, counts.opened);
    lua_pushinteger(L, counts.closed);
    lua_pushinteger(L, counts.by_close);
    lua_pushinteger(L, counts.by_gc);
    return 4;
}

static const luaL_Reg methods[] = {
    {"close", h_close},   {"isopen", h_isopen},     {"name", h_name},
    {"attach", h_attach}, {"attached", h_attached}, {NULL, NULL}};

static const luaL_Reg meta[] = {{"__gc", h_gc},
                                {"__close", h_toclose},
                                {"__tostring", h_tostring},
                                {"__index", NULL},
                                {NULL, NULL}};

static const luaL_Reg funcs[] = {
    {"open", h_open}, {"stats", h_stats}, {NULL, NULL}};

int luaopen_handle(lua_State *L);

int luaopen_handle(lua_State *L)
{
    luaL_newlib(L, funcs);
    if (luaL_newmetatable(L, HANDLE_TNAME)) {
        luaL_setfuncs(L, meta, 0);
        luaL_newlibtable(L, methods);
        luaL_setfuncs(L, methods, 0);
        lua_setfield(L, -2, "__index");
    }
    lua_pop(L, 1);
    return 1;
}
