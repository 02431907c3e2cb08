/*
 * arith.h — Lua 5.4's numbers (vm/arith.c): conversions, arithmetic with
 * the integer/float rules, comparisons and raw equality, shared by the
 * interpreter, the C API and the compiler (which folds constants with
 * arith_rawarith).
 *
 * Pointers to tvalues given to these functions may point into the stack;
 * functions that may call a metamethod say so, and then only `res` (a
 * stack slot) is written after the call, through a saved offset.
 */
#ifndef RTLUA_ARITH_H
#define RTLUA_ARITH_H

#include "vm/state.h"

/* ---- Conversions -------------------------------------------------------
 * String coercion as Lua 5.4 does it: "0x10" is 16, " 1e1 " is 10.0. */
int arith_tonumber(const tvalue *o, rt_num *n);
/* mode 0: only exact values (3.0 -> 3), 1: floor, 2: ceiling.  Strings
 * are converted first.  Returns 1 when the result fits. */
int arith_tointeger(const tvalue *o, rt_int *i, int mode);
/* As arith_tointeger with mode 0 but no string coercion. */
int arith_tointegerns(const tvalue *o, rt_int *i);
/* Convert a number in place (a stack slot) to its string (may allocate;
 * raises a memory error).  Returns 0 when o is not a number. */
int arith_tostring(lua_State *L, tvalue *o);
/* Float to integer: exact (mode 0), floor (1) or ceiling (2). */
int arith_flttointeger(rt_num n, rt_int *i, int mode);

/* ---- Arithmetic ---------------------------------------------------------
 * op is a LUA_OP* code.  arith_rawarith computes without metamethods and
 * without raising: returns 1 with *res set, or 0 when the operands do not
 * allow it (not numbers, a bitwise operand without an integer value, an
 * integer division or modulo by zero).  The compiler folds constants with
 * it.  arith_arith adds string coercion, metamethods and the errors. */
int arith_rawarith(lua_State *L, int op, const tvalue *a, const tvalue *b,
                   tvalue *res);
void arith_arith(lua_State *L, int op, const tvalue *a, const tvalue *b,
                 tvalue *res);
rt_int arith_idiv(lua_State *L, rt_int a, rt_int b); /* raises on b == 0 */
rt_int arith_mod(lua_State *L, rt_int a, rt_int b);  /* raises on b == 0 */
rt_num arith_modf(rt_num a, rt_num b);
rt_int arith_shiftl(rt_int a, rt_int b);

/* ---- Comparison --------------------------------------------------------
 * L == NULL: raw equality (no __eq). */
int arith_equalobj(lua_State *L, const tvalue *a, const tvalue *b);
#define arith_rawequalobj(a, b) arith_equalobj(NULL, a, b)
int arith_lessthan(lua_State *L, const tvalue *a, const tvalue *b);
int arith_lessequal(lua_State *L, const tvalue *a, const tvalue *b);

#endif
