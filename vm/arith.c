/*
 * arith.c — Lua 5.4 numbers: conversions, arithmetic, comparisons and
 * raw equality (vm/arith.h).
 *
 * Integer arithmetic wraps around (it is done on rt_uint), `/` and `^`
 * always give floats, `//` and `%` floor, bitwise operations need
 * operands with exact integer values.  Comparisons between integers and
 * floats are exact: no operand is rounded to the other's type.  Both
 * number models are handled by the same code through rt_int/rt_num and
 * the RT_* float helpers below.
 */
#include "vm/arith.h"

#include <math.h>
#include <string.h>

#include "port/libm.h"
#include "vm/debug.h"
#include "vm/num.h"
#include "vm/str.h"
#include "vm/tab.h"
#include "vm/tm.h"

/* arith_arith passes LUA_OPADD .. LUA_OPBNOT on to their metamethods as
 * TM_ADD + (op - LUA_OPADD). */
#define TM_ORDER_(x) (TM_##x - TM_ADD == LUA_OP##x - LUA_OPADD)
_Static_assert(TM_ORDER_(SUB) && TM_ORDER_(MUL) && TM_ORDER_(MOD) &&
                   TM_ORDER_(POW) && TM_ORDER_(DIV) && TM_ORDER_(IDIV) &&
                   TM_ORDER_(BAND) && TM_ORDER_(BOR) && TM_ORDER_(BXOR) &&
                   TM_ORDER_(SHL) && TM_ORDER_(SHR) && TM_ORDER_(UNM) &&
                   TM_ORDER_(BNOT),
               "TM_ADD .. TM_BNOT follow LUA_OPADD .. LUA_OPBNOT");
#undef TM_ORDER_

/* Bits of an integer: shifts by this many or more give 0. */
#define INT_BITS ((rt_int)(sizeof(rt_int) * 8))

#define RT_FLOOR(x) LIBM(floor)(x)
#define RT_FMOD(a, b) LIBM_K(fmod)(a, b)
#define RT_POW(a, b) LIBM_K(pow)(a, b)

/* 2^(INT_BITS-1) as a float: the first float above every integer.  Both
 * it and its negation (the smallest integer) are exact floats. */
#define FLT_INT_LIMIT (-(rt_num)RT_INT_MIN)

/* ---- Conversions -------------------------------------------------------- */

/* A string whose whole content is a numeral (embedded zeros make it
 * not one) converted to a number value. */
static int str2num(const tvalue *o, tvalue *out)
{
    str *s = gco2str(gc_of(o));
    return num_str2number(str_data(s), out) == str_len(s) + 1;
}

/* o as a number value (int or float) with string coercion, in *out. */
static int tonumval(const tvalue *o, tvalue *out)
{
    if (ttype(tt_of(o)) == T_NUMBER) {
        *out = *o;
        return 1;
    }
    return is_str(o) && str2num(o, out);
}

int arith_flttointeger(rt_num n, rt_int *i, int mode)
{
    rt_num f = RT_FLOOR(n);
    if (n != f) {
        if (mode == 0)
            return 0; /* not integral (or NaN) */
        if (mode == 2)
            f += 1;
    }
    /* NaN fails both tests. */
    if (!(f >= (rt_num)RT_INT_MIN && f < FLT_INT_LIMIT))
        return 0;
    *i = (rt_int)f;
    return 1;
}

int arith_tointegerns(const tvalue *o, rt_int *i)
{
    if (is_int(o)) {
        *i = o->v.i;
        return 1;
    }
    if (is_flt(o))
        return arith_flttointeger(o->v.n, i, 0);
    return 0;
}

int arith_tointeger(const tvalue *o, rt_int *i, int mode)
{
    tvalue v;
    if (is_str(o) && str2num(o, &v))
        o = &v;
    if (is_int(o)) {
        *i = o->v.i;
        return 1;
    }
    if (is_flt(o))
        return arith_flttointeger(o->v.n, i, mode);
    return 0;
}

int arith_tonumber(const tvalue *o, rt_num *n)
{
    tvalue v;
    if (is_flt(o)) {
        *n = o->v.n;
        return 1;
    }
    if (is_int(o)) {
        *n = (rt_num)o->v.i;
        return 1;
    }
    if (is_str(o) && str2num(o, &v)) {
        *n = is_int(&v) ? (rt_num)v.v.i : v.v.n;
        return 1;
    }
    return 0;
}

int arith_tostring(lua_State *L, tvalue *o)
{
    char buf[NUM_TOSTRING_MAX];
    str *s;
    int len;
    if (ttype(tt_of(o)) != T_NUMBER)
        return 0;
    len = num_tostring(o, buf, sizeof buf);
    s = str_new(L, buf, (size_t)len);
    if (s == NULL)
        do_memerror(L);
    set_gc(o, s, s->tt);
    return 1;
}

/* ---- Integer and float operations --------------------------------------- */

rt_int arith_idiv(lua_State *L, rt_int a, rt_int b)
{
    rt_int q;
    if (b == 0)
        do_runerror(L, "attempt to divide by zero");
    if (b == -1) /* avoids the overflow trap of RT_INT_MIN / -1 */
        return (rt_int)(0u - (rt_uint)a);
    q = a / b;
    /* C truncates; floor differs when the signs differ and it is inexact */
    if ((a % b != 0) && ((a ^ b) < 0))
        q -= 1;
    return q;
}

rt_int arith_mod(lua_State *L, rt_int a, rt_int b)
{
    rt_int r;
    if (b == 0)
        do_runerror(L, "attempt to perform 'n%%0'");
    if (b == -1)
        return 0;
    r = a % b;
    /* the result takes the divisor's sign */
    if (r != 0 && ((r ^ b) < 0))
        r += b;
    return r;
}

rt_num arith_modf(rt_num a, rt_num b)
{
    rt_num m = RT_FMOD(a, b);
    /* fmod keeps the dividend's sign; the result takes the divisor's */
    if (m > 0 ? b < 0 : (m < 0 && b > 0))
        m += b;
    return m;
}

rt_int arith_shiftl(rt_int a, rt_int b)
{
    if (b < 0) {
        if (b <= -INT_BITS)
            return 0;
        return (rt_int)((rt_uint)a >> (rt_uint)(-b));
    }
    if (b >= INT_BITS)
        return 0;
    return (rt_int)((rt_uint)a << (rt_uint)b);
}

/* Integer op; 0 for division or modulo by zero (rawarith fails there). */
static int intarith(int op, rt_int a, rt_int b, rt_int *r)
{
    rt_uint ua = (rt_uint)a, ub = (rt_uint)b;
    switch (op) {
    case LUA_OPADD:
        *r = (rt_int)(ua + ub);
        return 1;
    case LUA_OPSUB:
        *r = (rt_int)(ua - ub);
        return 1;
    case LUA_OPMUL:
        *r = (rt_int)(ua * ub);
        return 1;
    case LUA_OPMOD:
        if (b == 0)
            return 0;
        *r = arith_mod(NULL, a, b);
        return 1;
    case LUA_OPIDIV:
        if (b == 0)
            return 0;
        *r = arith_idiv(NULL, a, b);
        return 1;
    case LUA_OPBAND:
        *r = (rt_int)(ua & ub);
        return 1;
    case LUA_OPBOR:
        *r = (rt_int)(ua | ub);
        return 1;
    case LUA_OPBXOR:
        *r = (rt_int)(ua ^ ub);
        return 1;
    case LUA_OPSHL:
        *r = arith_shiftl(a, b);
        return 1;
    case LUA_OPSHR:
        *r = arith_shiftl(a, (rt_int)(0u - ub));
        return 1;
    case LUA_OPUNM:
        *r = (rt_int)(0u - ua);
        return 1;
    case LUA_OPBNOT:
        *r = (rt_int)~ua;
        return 1;
    default:
        return 0;
    }
}

static rt_num fltarith(int op, rt_num a, rt_num b)
{
    switch (op) {
    case LUA_OPADD:
        return a + b;
    case LUA_OPSUB:
        return a - b;
    case LUA_OPMUL:
        return a * b;
    case LUA_OPDIV:
        return a / b;
    case LUA_OPPOW:
        return b == 2 ? a * a : RT_POW(a, b);
    case LUA_OPIDIV:
        return RT_FLOOR(a / b);
    case LUA_OPUNM:
        return -a;
    case LUA_OPMOD:
        return arith_modf(a, b);
    default:
        return 0;
    }
}

static int is_bitwise(int op)
{
    return (op >= LUA_OPBAND && op <= LUA_OPSHR) || op == LUA_OPBNOT;
}

int arith_rawarith(lua_State *L, int op, const tvalue *a, const tvalue *b,
                   tvalue *res)
{
    (void)L;
    if (is_bitwise(op)) {
        rt_int i1, i2, r;
        if (!arith_tointegerns(a, &i1) || !arith_tointegerns(b, &i2))
            return 0;
        intarith(op, i1, i2, &r);
        set_int(res, r);
        return 1;
    }
    if (ttype(tt_of(a)) != T_NUMBER || ttype(tt_of(b)) != T_NUMBER)
        return 0;
    if (op != LUA_OPDIV && op != LUA_OPPOW && is_int(a) && is_int(b)) {
        rt_int r;
        if (!intarith(op, a->v.i, b->v.i, &r))
            return 0;
        set_int(res, r);
        return 1;
    } else {
        rt_num x = is_int(a) ? (rt_num)a->v.i : a->v.n;
        rt_num y = is_int(b) ? (rt_num)b->v.i : b->v.n;
        set_flt(res, fltarith(op, x, y));
        return 1;
    }
}

void arith_arith(lua_State *L, int op, const tvalue *a, const tvalue *b,
                 tvalue *res)
{
    tvalue r, x, y;
    if (arith_rawarith(L, op, a, b, &r)) {
        set_obj(res, &r);
        return;
    }
    /* Arithmetic (not bitwise) coerces numeric strings. */
    if (!is_bitwise(op) && tonumval(a, &x) && tonumval(b, &y)) {
        if (is_int(&x) && is_int(&y) && y.v.i == 0 &&
            (op == LUA_OPIDIV || op == LUA_OPMOD)) {
            if (!is_str(a) && !is_str(b)) /* numbers: with the position */
                do_runerror(L, op == LUA_OPMOD ? "attempt to perform 'n%%0'"
                                               : "attempt to divide by zero");
            /* lua5.4 coerces strings inside the string library's
             * metamethods, a C function: its message has no position */
            do_pushfstring(L, op == LUA_OPMOD ? "attempt to perform 'n%%0'"
                                              : "attempt to divide by zero");
            dbg_errormsg(L);
        }
        arith_rawarith(L, op, &x, &y, &r);
        set_obj(res, &r);
        return;
    }
    tm_trybin(L, a, b, res, (tm_event)(op - LUA_OPADD + TM_ADD));
}

/* ---- Comparisons -------------------------------------------------------- */

/* Bytes compared, then lengths: strcoll in the C locale. */
static int strcmp_lua(const str *a, const str *b)
{
    size_t la = str_len(a), lb = str_len(b);
    int c = memcmp(str_data(a), str_data(b), la < lb ? la : lb);
    if (c != 0)
        return c;
    return la < lb ? -1 : (la > lb);
}

/* i < f, exactly. */
static int lt_intflt(rt_int i, rt_num f)
{
    if (f >= FLT_INT_LIMIT)
        return 1;
    if (f > (rt_num)RT_INT_MIN) /* i < f  <=>  i < ceil(f) */
        return i < (rt_int)(-RT_FLOOR(-f));
    return 0; /* f <= minimum integer, or NaN */
}

/* i <= f */
static int le_intflt(rt_int i, rt_num f)
{
    if (f >= FLT_INT_LIMIT)
        return 1;
    if (f >= (rt_num)RT_INT_MIN) /* i <= f  <=>  i <= floor(f) */
        return i <= (rt_int)RT_FLOOR(f);
    return 0;
}

/* f < i */
static int lt_fltint(rt_num f, rt_int i)
{
    if (f >= FLT_INT_LIMIT)
        return 0;
    if (f >= (rt_num)RT_INT_MIN) /* f < i  <=>  floor(f) < i */
        return (rt_int)RT_FLOOR(f) < i;
    return f == f; /* below every integer (NaN is not) */
}

/* f <= i */
static int le_fltint(rt_num f, rt_int i)
{
    if (f >= FLT_INT_LIMIT)
        return 0;
    if (f > (rt_num)RT_INT_MIN) /* f <= i  <=>  ceil(f) <= i */
        return (rt_int)(-RT_FLOOR(-f)) <= i;
    return f == f;
}

static int lt_num(const tvalue *a, const tvalue *b)
{
    if (is_int(a))
        return is_int(b) ? a->v.i < b->v.i : lt_intflt(a->v.i, b->v.n);
    return is_flt(b) ? a->v.n < b->v.n : lt_fltint(a->v.n, b->v.i);
}

static int le_num(const tvalue *a, const tvalue *b)
{
    if (is_int(a))
        return is_int(b) ? a->v.i <= b->v.i : le_intflt(a->v.i, b->v.n);
    return is_flt(b) ? a->v.n <= b->v.n : le_fltint(a->v.n, b->v.i);
}

int arith_lessthan(lua_State *L, const tvalue *a, const tvalue *b)
{
    if (ttype(tt_of(a)) == T_NUMBER && ttype(tt_of(b)) == T_NUMBER)
        return lt_num(a, b);
    if (is_str(a) && is_str(b))
        return strcmp_lua(gco2str(gc_of(a)), gco2str(gc_of(b))) < 0;
    return tm_callorder(L, a, b, TM_LT);
}

int arith_lessequal(lua_State *L, const tvalue *a, const tvalue *b)
{
    if (ttype(tt_of(a)) == T_NUMBER && ttype(tt_of(b)) == T_NUMBER)
        return le_num(a, b);
    if (is_str(a) && is_str(b))
        return strcmp_lua(gco2str(gc_of(a)), gco2str(gc_of(b))) <= 0;
    return tm_callorder(L, a, b, TM_LE);
}

int arith_equalobj(lua_State *L, const tvalue *a, const tvalue *b)
{
    const tvalue *tm = NULL;
    if (tt_of(a) != tt_of(b)) {
        rt_int i;
        if (ttype(tt_of(a)) != ttype(tt_of(b)))
            return 0;
        if (ttype(tt_of(a)) == T_NUMBER) {
            /* one integer, one float: equal only when the float is exactly
             * that integer */
            if (is_int(a))
                return arith_flttointeger(b->v.n, &i, 0) && i == a->v.i;
            return arith_flttointeger(a->v.n, &i, 0) && i == b->v.i;
        }
        if (ttype(tt_of(a)) == T_STRING)
            return str_eq(gco2str(gc_of(a)), gco2str(gc_of(b)));
        /* nil/empty are both nil; other variants never equal */
        return ttype(tt_of(a)) == T_NIL;
    }
    if (tab_rawequal(tt_of(a), &a->v, &b->v))
        return 1;
    if (L == NULL)
        return 0;
    /* Different tables or full userdata: __eq decides. */
    table *ma, *mb;
    if (tt_of(a) == V_TABLE) {
        ma = tab_metatable(gco2tab(gc_of(a)));
        mb = tab_metatable(gco2tab(gc_of(b)));
    } else if (tt_of(a) == V_UDATA) {
        ma = gco2ud(gc_of(a))->metatable;
        mb = gco2ud(gc_of(b))->metatable;
    } else {
        return 0;
    }
    if (ma != NULL)
        tm = tm_fast(G(L), ma, TM_EQ);
    if (tm == NULL && mb != NULL)
        tm = tm_fast(G(L), mb, TM_EQ);
    if (tm == NULL)
        return 0;
    /* The result lands just above the top, where nothing lives. */
    tm_callres(L, tm, a, b, L->top);
    return !is_false(L->top);
}
