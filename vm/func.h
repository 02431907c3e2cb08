/*
 * func.h — prototypes, Lua and C closures, upvalues, full userdata.
 *
 * Constructors return NULL on memory failure with nothing changed.  Each
 * makes one object with one allocation (the object's variable parts are
 * inline), except prototypes, whose arrays the compiler sizes later while
 * the prototype is anchored.  Open upvalues sit on their thread's
 * `openupval` list, ordered by stack level, highest first.
 */
#ifndef RTLUA_FUNC_H
#define RTLUA_FUNC_H

#include "vm/state.h"

proto *fn_newproto(lua_State *L);
void fn_freeproto(global_State *g, proto *p);

lclosure *fn_newlclosure(lua_State *L, int nupvals);
cclosure *fn_newcclosure(lua_State *L, rt_cfunction f, int nupvals);
#define fn_lclsize(n)                                                         \
    (offsetof(lclosure, upvals) + sizeof(upval *) * (size_t)(n))
#define fn_cclsize(n)                                                         \
    (offsetof(cclosure, upvalue) + sizeof(tvalue) * (size_t)(n))

/* A closed upvalue holding nil. */
upval *fn_newupval(lua_State *L);
/* The open upvalue for stack slot `level` of L, made when missing. */
upval *fn_findupval(lua_State *L, tvalue *level);
/* Close every open upvalue at or above `level`. */
void fn_closeupvals(lua_State *L, tvalue *level);
/* Close at most `max` of L's open upvalues, the highest first; returns
 * whether some are left (the sweep closes a dead thread's a chunk at a
 * time). */
int fn_closesome(lua_State *L, int max);
void fn_freeupval(global_State *g, upval *uv);

udata *fn_newudata(lua_State *L, size_t size, int nuvalue);
/* Bytes of a userdata's block: a multiple of 8, so that the arena gives
 * it 8-byte alignment (gc/arena.h: ARENA_SLOT_GRAIN) for the user's C
 * types, as malloc would. */
#define fn_udatasize(size, nuv)                                               \
    ((udata_offset(nuv) + (size) + 7u) & ~(size_t)7u)

#endif
