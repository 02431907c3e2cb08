/*
 * vm.h — the interpreter loop and the operations it shares with the C
 * API and the compiler: arithmetic with Lua 5.4's integer/float rules,
 * conversions, comparisons, indexing with metamethods, concatenation and
 * length.
 *
 * Pointers to tvalues given to these functions may point into the stack;
 * functions that may call a metamethod say so, and then only `res` (a
 * stack slot) is written after the call, through a saved offset.
 */
#ifndef RTLUA_VM_H
#define RTLUA_VM_H

#include "vm/do.h"

/* Run the Lua function of ci (and every Lua function it calls without C
 * in between) until the frame marked CIST_FRESH returns. */
void vm_execute(lua_State *L, CallInfo *ci);
/* Resume an interrupted opcode after a yield inside a metamethod or a
 * C function (coroutines). */
void vm_finishop(lua_State *L);

/* ---- Conversions -------------------------------------------------------
 * String coercion as Lua 5.4 does it: "0x10" is 16, " 1e1 " is 10.0. */
int vm_tonumber(const tvalue *o, rt_num *n);
/* mode 0: only exact values (3.0 -> 3), 1: floor, 2: ceiling.  Strings
 * are converted first.  Returns 1 when the result fits. */
int vm_tointeger(const tvalue *o, rt_int *i, int mode);
/* As vm_tointeger with mode 0 but no string coercion. */
int vm_tointegerns(const tvalue *o, rt_int *i);
/* Convert a number in place (a stack slot) to its string (may allocate;
 * raises a memory error).  Returns 0 when o is not a number. */
int vm_tostring(lua_State *L, tvalue *o);
/* Float to integer: exact (mode 0), floor (1) or ceiling (2). */
int vm_flttointeger(rt_num n, rt_int *i, int mode);

/* ---- Arithmetic ---------------------------------------------------------
 * op is a LUA_OP* code.  vm_rawarith computes without metamethods and
 * without raising: returns 1 with *res set, or 0 when the operands do not
 * allow it (not numbers, a bitwise operand without an integer value, an
 * integer division or modulo by zero).  The compiler folds constants with
 * it.  vm_arith adds string coercion, metamethods and the errors. */
int vm_rawarith(lua_State *L, int op, const tvalue *a, const tvalue *b,
                tvalue *res);
void vm_arith(lua_State *L, int op, const tvalue *a, const tvalue *b,
              tvalue *res);
rt_int vm_idiv(lua_State *L, rt_int a, rt_int b); /* raises on b == 0 */
rt_int vm_mod(lua_State *L, rt_int a, rt_int b);  /* raises on b == 0 */
rt_num vm_modf(rt_num a, rt_num b);
rt_int vm_shiftl(rt_int a, rt_int b);

/* ---- Comparison --------------------------------------------------------
 * L == NULL: raw equality (no __eq). */
int vm_equalobj(lua_State *L, const tvalue *a, const tvalue *b);
#define vm_rawequalobj(a, b) vm_equalobj(NULL, a, b)
int vm_lessthan(lua_State *L, const tvalue *a, const tvalue *b);
int vm_lessequal(lua_State *L, const tvalue *a, const tvalue *b);

/* ---- Tables and metamethods --------------------------------------------
 * t[key] with __index (may call; writes res, a stack slot). */
void vm_gettable(lua_State *L, const tvalue *t, const tvalue *key,
                 tvalue *res);
/* t[key] = val with __newindex (may call). */
void vm_settable(lua_State *L, const tvalue *t, const tvalue *key,
                 const tvalue *val);
/* The slow paths of the two above (vm/tm.c), for the interpreter: slot
 * is the raw lookup's result when t is a table (nil, or for
 * vm_finishset a ROM table's existing field, not stored in place), NULL
 * when t is not a table. */
void vm_finishget(lua_State *L, const tvalue *t, const tvalue *key,
                  tvalue *res, const tvalue *slot);
void vm_finishset(lua_State *L, const tvalue *t, const tvalue *key,
                  const tvalue *val, const tvalue *slot);
/* A raw store into a table with the barrier; raises "table index is
 * nil", "table index is NaN" (lua5.4's words) or a memory error. */
void vm_rawset(lua_State *L, table *t, const tvalue *key, const tvalue *val);
void vm_rawsetint(lua_State *L, table *t, rt_int key, const tvalue *val);

/* Concatenate the `total` values at the top, leaving one (may call). */
void vm_concat(lua_State *L, int total);
/* #o with __len (may call; writes res, a stack slot). */
void vm_objlen(lua_State *L, tvalue *res, const tvalue *o);

/* ---- Shared by the interpreter (vm.c) and the metamethod paths (tm.c) */
#if defined(__GNUC__)
#define vm_likely(x) __builtin_expect(((x) != 0), 1)
#define vm_unlikely(x) __builtin_expect(((x) != 0), 0)
#define vm_noinline __attribute__((noinline))
#else
#define vm_likely(x) (x)
#define vm_unlikely(x) (x)
#define vm_noinline
#endif

#define vm_isnumber(o) (ttype(tt_of(o)) == T_NUMBER)

/* Write val into an existing table slot (found non-nil by a lookup), with
 * the barrier; a nil val empties the slot. */
/* A lookup result that may be stored into in place: present, and not in
 * a ROM table (vm/tab.h: stores into those go through tab_set). */
#define vm_instore(t, slot) (!is_nil(slot) && !is_rom(t))
#define vm_storeslot(L, t, slot, val)                                         \
    do {                                                                      \
        tvalue *s_ = (tvalue *)(slot);                                        \
        if (is_nil(val))                                                      \
            set_empty(s_);                                                    \
        else                                                                  \
            set_obj(s_, val);                                                 \
        gc_barrier(L, t, val);                                                \
    } while (0)

#endif
