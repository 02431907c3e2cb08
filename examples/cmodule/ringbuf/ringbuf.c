/*
 * ringbuf.c — an example C module for rtlua, written as any Lua 5.4
 * module is: only lua.h and lauxlib.h, compiled against a build's
 * include directory (build/<target>/include), nothing else.
 *
 *   local ringbuf = require "ringbuf"
 *   local r = ringbuf.new(4)     -- room for 4 numbers
 *   r:push(x)                    -- the oldest is dropped when full
 *   r:pop()  -> the oldest, or nil when empty
 *   #r, r:sum(), r:mean(), tostring(r)
 *
 * A control loop keeps its last N samples in one; the buffer is one
 * userdata block, so pushing allocates nothing.
 *
 * Its tables can be in flash: linked into an rtlua build (make
 * USER_C_MODULES), ringbuf.romtab (named by module.mk's MODULE_ROMTAB)
 * describes them, and luaopen_ringbuf takes them with rtlua_romtable,
 * so they cost no arena.  The functions those tables name therefore have
 * external linkage.  Loaded as a .so, or by lua5.4, it builds them in
 * RAM as usual.
 */
#include "lauxlib.h"
#include "lua.h"
#ifdef RTLUA_CONFIG /* rtlua's headers */
#include "rtlua.h"
#endif

#define RINGBUF_TNAME "ringbuf"

/* What ringbuf.romtab names. */
int ringbuf_new(lua_State *L);
int ringbuf_push(lua_State *L);
int ringbuf_pop(lua_State *L);
int ringbuf_sum(lua_State *L);
int ringbuf_mean(lua_State *L);
int ringbuf_len(lua_State *L);
int ringbuf_tostring(lua_State *L);
int luaopen_ringbuf(lua_State *L);

typedef struct ringbuf {
    lua_Integer cap;   /* slots */
    lua_Integer head;  /* the oldest sample */
    lua_Integer count; /* samples held */
    lua_Number v[1];   /* cap of them */
} ringbuf;

static ringbuf *check_ringbuf(lua_State *L)
{
    return (ringbuf *)luaL_checkudata(L, 1, RINGBUF_TNAME);
}

int ringbuf_new(lua_State *L)
{
    lua_Integer cap = luaL_checkinteger(L, 1);
    luaL_argcheck(L, cap > 0 && cap <= 1 << 20, 1, "capacity out of range");
    ringbuf *r = (ringbuf *)lua_newuserdatauv(
        L, sizeof(ringbuf) + (size_t)(cap - 1) * sizeof(lua_Number), 0);
    r->cap = cap;
    r->head = r->count = 0;
    luaL_setmetatable(L, RINGBUF_TNAME);
    return 1;
}

int ringbuf_push(lua_State *L)
{
    ringbuf *r = check_ringbuf(L);
    lua_Number x = luaL_checknumber(L, 2);
    if (r->count == r->cap) { /* full: the oldest goes */
        r->v[r->head] = x;
        r->head = (r->head + 1) % r->cap;
    } else {
        r->v[(r->head + r->count) % r->cap] = x;
        r->count++;
    }
    return 0;
}

int ringbuf_pop(lua_State *L)
{
    ringbuf *r = check_ringbuf(L);
    if (r->count == 0) {
        luaL_pushfail(L);
        return 1;
    }
    lua_pushnumber(L, r->v[r->head]);
    r->head = (r->head + 1) % r->cap;
    r->count--;
    return 1;
}

static lua_Number sum(const ringbuf *r)
{
    lua_Number s = 0;
    for (lua_Integer i = 0; i < r->count; i++)
        s += r->v[(r->head + i) % r->cap];
    return s;
}

int ringbuf_sum(lua_State *L)
{
    lua_pushnumber(L, sum(check_ringbuf(L)));
    return 1;
}

int ringbuf_mean(lua_State *L)
{
    ringbuf *r = check_ringbuf(L);
    if (r->count == 0)
        return luaL_error(L, "mean of an empty ring buffer");
    lua_pushnumber(L, sum(r) / (lua_Number)r->count);
    return 1;
}

int ringbuf_len(lua_State *L)
{
    lua_pushinteger(L, check_ringbuf(L)->count);
    return 1;
}

int ringbuf_tostring(lua_State *L)
{
    ringbuf *r = check_ringbuf(L);
    lua_pushfstring(L, "ringbuf(%I/%I)", (LUAI_UACINT)r->count,
                    (LUAI_UACINT)r->cap);
    return 1;
}

static const luaL_Reg methods[] = {{"push", ringbuf_push},
                                   {"pop", ringbuf_pop},
                                   {"sum", ringbuf_sum},
                                   {"mean", ringbuf_mean},
                                   {NULL, NULL}};

static const luaL_Reg meta[] = {
    {"__len", ringbuf_len}, {"__tostring", ringbuf_tostring}, {NULL, NULL}};

static const luaL_Reg funcs[] = {{"new", ringbuf_new}, {NULL, NULL}};

int luaopen_ringbuf(lua_State *L)
{
    luaL_checkversion(L);
#ifdef RTLUA_CONFIG
    if (rtlua_romtable(L, "ringbuf_meta")) { /* the tables are in flash */
        lua_setfield(L, LUA_REGISTRYINDEX, RINGBUF_TNAME);
        rtlua_romtable(L, "ringbuf");
        return 1;
    }
#endif
    luaL_newlib(L, funcs);
    luaL_newmetatable(L, RINGBUF_TNAME);
    luaL_setfuncs(L, meta, 0);
    luaL_newlibtable(L, methods);
    luaL_setfuncs(L, methods, 0);
    lua_setfield(L, -2, "__index");
    lua_pop(L, 1);
    return 1;
}
