/*
 * tm.h — metamethods ("tag methods"): the events, their names, and the
 * lookups the interpreter and the API use.
 *
 * A table caches the absence of the first TM_FAST_N events in
 * t->flags (bit set = known absent); any store of a string key into the
 * table clears the cache (vm/tab.c), so a cached absence is never stale.
 * Event names are interned once (ROM strings where the build has them)
 * in g->tmname and are never collected.
 */
#ifndef RTLUA_TM_H
#define RTLUA_TM_H

#include "vm/obj.h"

/* (vm/state.h includes this header for TM_N: the two states are named
 * here without their fields.) */
typedef struct lua_State lua_State;
typedef struct global_State global_State;

/* The order matters: the first TM_FAST_N are cached in table flags, and
 * TM_ADD .. TM_BNOT follow LUA_OPADD .. LUA_OPBNOT. */
typedef enum {
    TM_INDEX,
    TM_NEWINDEX,
    TM_GC,
    TM_MODE,
    TM_LEN,
    TM_EQ,
    TM_ADD,
    TM_SUB,
    TM_MUL,
    TM_MOD,
    TM_POW,
    TM_DIV,
    TM_IDIV,
    TM_BAND,
    TM_BOR,
    TM_BXOR,
    TM_SHL,
    TM_SHR,
    TM_UNM,
    TM_BNOT,
    TM_LT,
    TM_LE,
    TM_CONCAT,
    TM_CALL,
    TM_CLOSE,
    TM_N
} tm_event;

/* Events whose absence a table's flags cache (flags is 8 bits). */
#define TM_FAST_N 6

/* The metamethod of event e in metatable mt, or NULL (fast: uses the
 * absence cache for e < TM_FAST_N). */
const tvalue *tm_fast(global_State *g, table *mt, tm_event e);
/* The metamethod of event e for any value (nil when none: is_nil). */
const tvalue *tm_byobj(lua_State *L, const tvalue *o, tm_event e);
/* The metatable of any value, or NULL. */
table *tm_metatable(lua_State *L, const tvalue *o);
/* Lua's type name of o, or its metatable's __name when that is a
 * string (for messages). */
const char *tm_objtypename(lua_State *L, const tvalue *o);
/* The names of the basic types, "no value" for LUA_TNONE (-1). */
const char *tm_typename(int t);
/* Intern the event names into g->tmname (state_open). 0 ok, -1 memory. */
int tm_init(lua_State *L);

/* Call metamethod f(p1, p2) and store its one result in res (a stack
 * slot, through a saved offset); calls f(p1, p2, p3) with no result
 * when res is NULL. */
void tm_callres(lua_State *L, const tvalue *f, const tvalue *p1,
                const tvalue *p2, tvalue *res);
void tm_call(lua_State *L, const tvalue *f, const tvalue *p1, const tvalue *p2,
             const tvalue *p3);
/* Binary/unary arithmetic metamethod of event e for p1, p2 (raises the
 * right "attempt to perform arithmetic ..." error when none). */
void tm_trybin(lua_State *L, const tvalue *p1, const tvalue *p2, tvalue *res,
               tm_event e);
/* Order metamethod (__lt, __le): returns its truth; raises
 * "attempt to compare ..." when none. */
int tm_callorder(lua_State *L, const tvalue *p1, const tvalue *p2, tm_event e);

/* ---- Indexing, concatenation and length (vm/tm.c) ----------------------
 * Pointers to tvalues given to these functions may point into the stack;
 * functions that may call a metamethod say so, and then only `res` (a
 * stack slot) is written after the call, through a saved offset. */

/* t[key] with __index (may call; writes res, a stack slot). */
void tm_gettable(lua_State *L, const tvalue *t, const tvalue *key,
                 tvalue *res);
/* t[key] = val with __newindex (may call). */
void tm_settable(lua_State *L, const tvalue *t, const tvalue *key,
                 const tvalue *val);
/* The slow paths of the two above, for the interpreter: slot
 * is the raw lookup's result when t is a table (nil, or for
 * tm_finishset a ROM table's existing field, not stored in place), NULL
 * when t is not a table. */
void tm_finishget(lua_State *L, const tvalue *t, const tvalue *key,
                  tvalue *res, const tvalue *slot);
void tm_finishset(lua_State *L, const tvalue *t, const tvalue *key,
                  const tvalue *val, const tvalue *slot);
/* A raw store into a table with the barrier; raises "table index is
 * nil", "table index is NaN" (lua5.4's words) or a memory error. */
void tm_rawset(lua_State *L, table *t, const tvalue *key, const tvalue *val);
void tm_rawsetint(lua_State *L, table *t, rt_int key, const tvalue *val);
/* The same for a key a lookup in t has just found absent (&tab_absent:
 * tab_setnew), so that the store needs no second search. */
void tm_rawsetnew(lua_State *L, table *t, const tvalue *key,
                  const tvalue *val);

/* Concatenate the `total` values at the top, leaving one (may call). */
void tm_concat(lua_State *L, int total);
/* #o with __len (may call; writes res, a stack slot). */
void tm_objlen(lua_State *L, tvalue *res, const tvalue *o);

#endif
