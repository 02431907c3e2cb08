/*
 * api.c — the C API of include/lua.h over the VM's objects: stack
 * indexes, pushes and conversions, tables, metatables, userdata, calls,
 * the collector's controls and upvalues.  The rest of lua.h is defined
 * with what it works on: the debug interface in vm/debug.c, coroutines
 * (lua_resume, lua_yieldk, lua_status, ...) in vm/do.c, lua_load and
 * lua_dump in lang/capi.c, above the compiler they call.  Of
 * include/rtlua.h: the statistics and buffers here, the collector's
 * controls in gc/gcapi.c, rtlua_poll in vm/debug.c, images in
 * lang/image.c, rtlua_loadbuffer in lang/capi.c.
 *
 * Indexes follow the reference manual: positive ones count from the
 * running function's first argument, negative ones from the top,
 * LUA_REGISTRYINDEX is the registry, and lua_upvalueindex(i) names the
 * running C closure's upvalue i (beyond its count, or in a light C
 * function, it is "none", an acceptable answer the manual allows).
 *
 * Invariants kept here:
 *   - every object pushed is on the stack before the next allocation
 *     (the collector scans stack .. L->top, and g->newest keeps the one
 *     object being made);
 *   - every store into an object has its barrier (tables through
 *     tm_rawset/tm_settable, C-closure upvalues, user values and
 *     metatables here);
 *   - an allocation failure is a LUA_ERRMEM error (do_memerror), never a
 *     NULL seen by the caller.
 * API misuse is checked only when RTLUA_APICHECK is defined (cheap tests
 * that stop the program with a message).
 */
#include "gc/gc.h"
#include "gc/pace.h"
#include "include/lua.h"
#include "include/rtlua.h"
#include "port/port.h"
#include "vm/arith.h"
#include "vm/debug.h"
#include "vm/do.h"
#include "vm/func.h"
#include "vm/num.h"
#include "vm/str.h"
#include "vm/tab.h"
#include "vm/tm.h"

#include <string.h>

#ifdef RTLUA_APICHECK
#define api_check(L, e, msg)                                                  \
    do {                                                                      \
        if (!(e)) {                                                           \
            (void)(L);                                                        \
            port_puts("rtlua: API check failed: " msg "\n");                  \
            port_exit(1);                                                     \
        }                                                                     \
    } while (0)
#else
#define api_check(L, e, msg) ((void)0)
#endif

/* A push changes the stack: a thread scanned already is scanned again in
 * atomic (the C API may push onto a thread that is not running). */
#define api_incr_top(L)                                                       \
    do {                                                                      \
        (L)->top++;                                                           \
        gc_thread_ran(L);                                                     \
        api_check(L, (L)->top <= (L)->ci->top, "stack overflow");             \
    } while (0)
#define api_checknelems(L, n)                                                 \
    api_check(L, (n) < ((L)->top - (L)->ci->func), "not enough elements")

/* Lua's default pause (percent of the last cycle's use before a new
 * cycle starts) corresponds to pausepct + API_PAUSE_BASE here. */
#define API_PAUSE_BASE 100
/* lua_gc(LUA_GCSTEP, n) with n > 0 runs at most this many steps per KiB
 * asked (a bound, since our steps are measured in time, not bytes). */
#define API_STEPS_PER_KIB 1
/* Step multiplier reported by LUA_GCSETSTEPMUL before any is set. */
#define API_STEPMUL_DEFAULT 100
/* 5.4 keeps the pause and the step multiplier as a quarter of the value
 * in a byte: what is set comes back a multiple of 4 in 0..1020, larger
 * values wrapped (setpause(2000) then reports 976, and the pause is
 * that).  lua_gc stores them so, and reports them as 5.4 does. */
#define API_PARAM_UNIT 4
#define API_PARAM_MAX_QUARTERS 255

/* The value of an invalid ("none") index: read-only. */
static const tvalue none_value = {{NULL}, V_NIL};
/* What LUA_GCSETSTEPMUL last stored (the pacer is time-driven). */
static int api_stepmul = API_STEPMUL_DEFAULT;
/* The pause as lua_gc reports it: pausepct + API_PAUSE_BASE at the
 * start, then what LUA_GCSETPAUSE or LUA_GCINC stored (a pause under
 * API_PAUSE_BASE is a pausepct of 0: cycles follow each other). */
static int api_pause;
/* The mode last asked for (LUA_GCGEN or LUA_GCINC): the collector is
 * always incremental, but lua_gc reports the previous request as 5.4
 * does, so code switching modes back and forth sees what it set. */
static int api_gcmode = LUA_GCINC;

/* ---- Indexes ------------------------------------------------------------ */

static int is_valid(const tvalue *o)
{
    return o != &none_value;
}

/* Pseudo-index idx (below LUA_REGISTRYINDEX): an upvalue of the running
 * C closure. */
static inline __attribute__((always_inline)) tvalue *upvalue_slot(lua_State *L,
                                                                  int idx)
{
    tvalue *func = L->ci->func;
    int n = LUA_REGISTRYINDEX - idx;
    api_check(L, n <= 256, "upvalue index too large");
    if (tt_of(func) != V_CCL)
        return (tvalue *)&none_value;
    cclosure *cl = gco2ccl(gc_of(func));
    return n <= cl->nupvalues ? &cl->upvalue[n - 1] : (tvalue *)&none_value;
}

static tvalue *index2value(lua_State *L, int idx)
{
    CallInfo *ci = L->ci;
    if (idx > 0) {
        tvalue *o = ci->func + idx;
        api_check(L, idx <= ci->top - (ci->func + 1), "index too large");
        return o >= L->top ? (tvalue *)&none_value : o;
    }
    if (idx > LUA_REGISTRYINDEX) {
        api_check(L, idx != 0 && -idx <= L->top - (ci->func + 1),
                  "invalid index");
        return L->top + idx;
    }
    if (idx == LUA_REGISTRYINDEX)
        return &G(L)->registry;
    return upvalue_slot(L, idx);
}

/* index2value as the API functions use it: a stack index (what the
 * libraries' loops pass) inline, a pseudo-index out of line. */
static inline tvalue *index2value_fast(lua_State *L, int idx)
{
    if (idx > 0) {
        tvalue *o = L->ci->func + idx;
        api_check(L, idx <= L->ci->top - (L->ci->func + 1), "index too large");
        return o >= L->top ? (tvalue *)&none_value : o;
    }
    if (idx > LUA_REGISTRYINDEX) {
        api_check(L, idx != 0 && -idx <= L->top - (L->ci->func + 1),
                  "invalid index");
        return L->top + idx;
    }
    return index2value(L, idx);
}

/* A real stack slot (not a pseudo-index). */
static tvalue *index2stack(lua_State *L, int idx)
{
    CallInfo *ci = L->ci;
    if (idx > 0) {
        api_check(L, ci->func + idx < L->top, "invalid index");
        return ci->func + idx;
    }
    api_check(L, idx != 0 && -idx <= L->top - (ci->func + 1), "invalid index");
    return L->top + idx;
}

static table *index2table(lua_State *L, int idx)
{
    tvalue *o = index2value_fast(L, idx);
    api_check(L, is_table(o), "table expected");
    return gco2tab(gc_of(o));
}

static void push_obj(lua_State *L, const tvalue *o)
{
    if (is_nil(o))
        set_nil(L->top); /* empty table slots read as nil */
    else
        set_obj(L->top, o);
    api_incr_top(L);
}

static void push_gc(lua_State *L, void *o, uint8_t tt)
{
    set_gc(L->top, o, tt);
    api_incr_top(L);
}

/* A new string from the bytes, or a memory error. */
static str *new_string(lua_State *L, const char *s, size_t len)
{
    str *ts = str_new(L, s, len);
    if (ts == NULL)
        do_memerror(L);
    return ts;
}

int lua_absindex(lua_State *L, int idx)
{
    return (idx > 0 || idx <= LUA_REGISTRYINDEX)
               ? idx
               : (int)(L->top - L->ci->func) + idx;
}

int lua_gettop(lua_State *L)
{
    return (int)(L->top - (L->ci->func + 1));
}

void lua_settop(lua_State *L, int idx)
{
    CallInfo *ci = L->ci;
    tvalue *newtop;
    if (idx >= 0) {
        api_check(L, idx <= ci->top - (ci->func + 1), "new top too large");
        newtop = ci->func + 1 + idx;
        while (L->top < newtop)
            set_nil(L->top++);
    } else {
        api_check(L, -(idx + 1) <= L->top - (ci->func + 1), "invalid top");
        newtop = L->top + idx + 1;
    }
    /* Popping a to-be-closed slot closes it (5.4.3 and later). */
    if (L->tbclist != NULL && L->tbclist >= newtop) {
        ptrdiff_t off = do_savestack(L, newtop);
        do_close(L, newtop, LUA_OK);
        newtop = do_restorestack(L, off);
    }
    L->top = newtop;
}

static void reverse(tvalue *from, tvalue *to)
{
    for (; from < to; from++, to--) {
        tvalue t = *from;
        *from = *to;
        *to = t;
    }
}

void lua_rotate(lua_State *L, int idx, int n)
{
    tvalue *t = L->top - 1;
    tvalue *p = index2stack(L, idx);
    api_check(L, (n >= 0 ? n : -n) <= t - p + 1, "invalid 'n'");
    tvalue *m = n >= 0 ? t - n : p - n - 1;
    reverse(p, m);
    reverse(m + 1, t);
    reverse(p, t);
}

rt_cold void lua_copy(lua_State *L, int fromidx, int toidx)
{
    tvalue *fr = index2value(L, fromidx);
    tvalue *to = index2value(L, toidx);
    api_check(L, is_valid(to), "invalid index");
    set_obj(to, fr);
    if (toidx < LUA_REGISTRYINDEX) /* an upvalue of the running closure */
        gc_barrier(L, gc_of(L->ci->func), fr);
}

void lua_pushvalue(lua_State *L, int idx)
{
    push_obj(L, index2value_fast(L, idx));
}

int lua_checkstack(lua_State *L, int n)
{
    CallInfo *ci = L->ci;
    int ok = 1;
    api_check(L, n >= 0, "negative 'n'");
    if (L->stack + L->stacklimit - L->top <= (ptrdiff_t)n + DO_EXTRA_STACK) {
        ptrdiff_t inuse = L->top - L->stack + DO_EXTRA_STACK;
        if (inuse > LUAI_MAXSTACK - n)
            ok = 0;
        else
            ok = do_trygrowstack(L, n);
    }
    if (ok && ci->top < L->top + n)
        ci->top = L->top + n;
    return ok;
}

void lua_xmove(lua_State *from, lua_State *to, int n)
{
    if (from == to)
        return;
    api_check(from, G(from) == G(to), "moving among independent states");
    api_check(from, to->ci->top - to->top >= n, "stack overflow");
    from->top -= n;
    for (int i = 0; i < n; i++) {
        set_obj(to->top, from->top + i);
        to->top++;
    }
    gc_thread_ran(to);
}

/* ---- Access (stack -> C) ------------------------------------------------ */

int lua_type(lua_State *L, int idx)
{
    const tvalue *o = index2value_fast(L, idx);
    return is_valid(o) ? ttype(tt_of(o)) : LUA_TNONE;
}

const char *lua_typename(lua_State *L, int t)
{
    (void)L;
    api_check(L, LUA_TNONE <= t && t < LUA_NUMTYPES, "invalid type");
    return tm_typename(t);
}

int lua_isnumber(lua_State *L, int idx)
{
    rt_num n;
    return arith_tonumber(index2value_fast(L, idx), &n);
}

int lua_isstring(lua_State *L, int idx)
{
    const tvalue *o = index2value_fast(L, idx);
    return is_str(o) || ttype(tt_of(o)) == T_NUMBER;
}

int lua_iscfunction(lua_State *L, int idx)
{
    const tvalue *o = index2value_fast(L, idx);
    return tt_of(o) == V_LCF || tt_of(o) == V_CCL;
}

int lua_isinteger(lua_State *L, int idx)
{
    return is_int(index2value_fast(L, idx));
}

int lua_isuserdata(lua_State *L, int idx)
{
    const tvalue *o = index2value_fast(L, idx);
    return tt_of(o) == V_UDATA || tt_of(o) == V_LIGHTUD;
}

lua_Number lua_tonumberx(lua_State *L, int idx, int *isnum)
{
    rt_num n = 0;
    int ok = arith_tonumber(index2value_fast(L, idx), &n);
    if (isnum)
        *isnum = ok;
    return ok ? n : 0;
}

lua_Integer lua_tointegerx(lua_State *L, int idx, int *isnum)
{
    rt_int i = 0;
    int ok = arith_tointeger(index2value_fast(L, idx), &i, 0);
    if (isnum)
        *isnum = ok;
    return ok ? i : 0;
}

int lua_toboolean(lua_State *L, int idx)
{
    return !is_false(index2value_fast(L, idx));
}

const char *lua_tolstring(lua_State *L, int idx, size_t *len)
{
    tvalue *o = index2value_fast(L, idx);
    if (!is_str(o)) {
        if (ttype(tt_of(o)) != T_NUMBER) {
            if (len)
                *len = 0;
            return NULL;
        }
        /* Converted in place: the slot may move if the stack grows, so
         * find it again by its index afterwards. */
        arith_tostring(L, o);
        if (idx < LUA_REGISTRYINDEX) /* an upvalue: the closure may be black */
            gc_barrier(L, gc_of(L->ci->func), o);
        pace_safepoint(L);
        o = index2value_fast(L, idx);
    }
    str *s = gco2str(gc_of(o));
    if (len)
        *len = str_len(s);
    return str_data(s);
}

lua_Unsigned lua_rawlen(lua_State *L, int idx)
{
    const tvalue *o = index2value_fast(L, idx);
    switch (tt_of(o)) {
    case V_SHRSTR:
    case V_LNGSTR:
        return (lua_Unsigned)str_len(gco2str(gc_of(o)));
    case V_UDATA:
        return (lua_Unsigned)gco2ud(gc_of(o))->len;
    case V_TABLE:
        return (lua_Unsigned)tab_length(gco2tab(gc_of(o)));
    default:
        return 0;
    }
}

lua_CFunction lua_tocfunction(lua_State *L, int idx)
{
    const tvalue *o = index2value_fast(L, idx);
    if (tt_of(o) == V_LCF)
        return o->v.f;
    if (tt_of(o) == V_CCL)
        return gco2ccl(gc_of(o))->f;
    return NULL;
}

static void *touserdata(const tvalue *o)
{
    if (tt_of(o) == V_UDATA)
        return udata_mem(gco2ud(gc_of(o)));
    if (tt_of(o) == V_LIGHTUD)
        return o->v.p;
    return NULL;
}

void *lua_touserdata(lua_State *L, int idx)
{
    return touserdata(index2value_fast(L, idx));
}

lua_State *lua_tothread(lua_State *L, int idx)
{
    /* (coroutine.wrap's function finds its thread in an upvalue: inline) */
    const tvalue *o = idx < LUA_REGISTRYINDEX ? upvalue_slot(L, idx)
                                              : index2value_fast(L, idx);
    return tt_of(o) == V_THREAD ? gco2th(gc_of(o)) : NULL;
}

rt_cold const void *lua_topointer(lua_State *L, int idx)
{
    const tvalue *o = index2value_fast(L, idx);
    switch (tt_of(o)) {
    case V_LCF:
        return (const void *)(uintptr_t)o->v.f;
    case V_UDATA:
    case V_LIGHTUD:
        return touserdata(o);
    default:
        return is_collectable(o) ? (const void *)gc_of(o) : NULL;
    }
}

/* ---- Arithmetic and comparison ------------------------------------------ */

void lua_arith(lua_State *L, int op)
{
    if (op == LUA_OPUNM || op == LUA_OPBNOT) {
        api_checknelems(L, 1);
        set_obj(L->top, L->top - 1); /* a fake second operand */
        api_incr_top(L);
    } else {
        api_checknelems(L, 2);
    }
    arith_arith(L, op, L->top - 2, L->top - 1, L->top - 2);
    L->top--;
}

int lua_rawequal(lua_State *L, int idx1, int idx2)
{
    const tvalue *a = index2value_fast(L, idx1),
                 *b = index2value_fast(L, idx2);
    return is_valid(a) && is_valid(b) && arith_rawequalobj(a, b);
}

int lua_compare(lua_State *L, int idx1, int idx2, int op)
{
    const tvalue *a = index2value_fast(L, idx1),
                 *b = index2value_fast(L, idx2);
    if (!is_valid(a) || !is_valid(b))
        return 0;
    switch (op) {
    case LUA_OPEQ:
        return arith_equalobj(L, a, b);
    case LUA_OPLT:
        return arith_lessthan(L, a, b);
    case LUA_OPLE:
        return arith_lessequal(L, a, b);
    default:
        api_check(L, 0, "invalid option");
        return 0;
    }
}

size_t lua_stringtonumber(lua_State *L, const char *s)
{
    tvalue o;
    size_t n = num_str2number(s, &o);
    if (n != 0)
        push_obj(L, &o);
    return n;
}

/* ---- Push (C -> stack) -------------------------------------------------- */

void lua_pushnil(lua_State *L)
{
    set_nil(L->top);
    api_incr_top(L);
}

void lua_pushnumber(lua_State *L, lua_Number n)
{
    set_flt(L->top, n);
    api_incr_top(L);
}

void lua_pushinteger(lua_State *L, lua_Integer n)
{
    set_int(L->top, n);
    api_incr_top(L);
}

const char *lua_pushlstring(lua_State *L, const char *s, size_t len)
{
    str *ts = new_string(L, len == 0 ? "" : s, len);
    push_gc(L, ts, ts->tt);
    pace_safepoint(L);
    return str_data(ts);
}

char *rtlua_pushbuffer(lua_State *L, size_t size)
{
    str *ts = str_newlong(L, size);
    if (ts == NULL)
        do_memerror(L);
    push_gc(L, ts, V_LNGSTR);
    pace_safepoint(L);
    return ts->data;
}

const char *rtlua_finishbuffer(lua_State *L, int idx, size_t len)
{
    tvalue *o = index2stack(L, idx);
    api_check(L, o->tt == V_LNGSTR, "a buffer expected");
    str *b = gco2str(gc_of(o));
    api_check(L, len <= b->u.lnglen, "a buffer's length past its size");
    if (len > STR_SHORT_MAX) {
        str_shortenlong(L, b, len);
        return b->data;
    }
    /* Interned: a copy (the buffer stays in its slot meanwhile). */
    str *ts = new_string(L, b->data, len);
    set_gc(index2stack(L, idx), ts, ts->tt);
    return str_data(ts);
}

const char *lua_pushstring(lua_State *L, const char *s)
{
    if (s == NULL) {
        lua_pushnil(L);
        return NULL;
    }
    return lua_pushlstring(L, s, strlen(s));
}

const char *lua_pushvfstring(lua_State *L, const char *fmt, va_list argp)
{
    const char *r = do_pushvfstring(L, fmt, argp);
    pace_safepoint(L);
    return r;
}

const char *lua_pushfstring(lua_State *L, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const char *r = do_pushvfstring(L, fmt, ap);
    va_end(ap);
    pace_safepoint(L);
    return r;
}

void lua_pushcclosure(lua_State *L, lua_CFunction fn, int n)
{
    if (n == 0) {
        set_lcf(L->top, fn);
        api_incr_top(L);
        return;
    }
    api_checknelems(L, n);
    api_check(L, n <= UINT8_MAX, "upvalue index too large");
    cclosure *cl = fn_newcclosure(L, fn, n);
    if (cl == NULL)
        do_memerror(L);
    /* The closure may be born black (while marking): barriers. */
    L->top -= n;
    for (int i = 0; i < n; i++) {
        set_obj(&cl->upvalue[i], L->top + i);
        gc_barrier(L, cl, &cl->upvalue[i]);
    }
    push_gc(L, cl, V_CCL);
    pace_safepoint(L);
}

void lua_pushboolean(lua_State *L, int b)
{
    set_bool(L->top, b);
    api_incr_top(L);
}

void lua_pushlightuserdata(lua_State *L, void *p)
{
    set_lightud(L->top, p);
    api_incr_top(L);
}

void rtlua_pushrom(lua_State *L, const void *obj)
{
    const gcobj *o = obj;
    api_check(L, is_rom(o) && (o->tt == V_TABLE || o->tt == V_UDATA),
              "a ROM table or userdata expected");
    set_gc(L->top, (gcobj *)(uintptr_t)o, o->tt);
    api_incr_top(L);
}

int lua_pushthread(lua_State *L)
{
    push_gc(L, L, V_THREAD);
    return L == &G(L)->mainthread;
}

/* ---- Get (Lua -> stack) ------------------------------------------------- */

static void globals_value(lua_State *L, tvalue *gt)
{
    set_obj(gt, tab_getint(state_registry(L), LUA_RIDX_GLOBALS));
}

/* Push the string key, then t[key] replaces it (t is anchored by the
 * caller: the registry or the stack). */
static int get_str(lua_State *L, const tvalue *t, const char *k)
{
    str *ks = new_string(L, k, strlen(k));
    push_gc(L, ks, ks->tt);
    tm_gettable(L, t, L->top - 1, L->top - 1);
    return ttype(tt_of(L->top - 1));
}

int lua_getglobal(lua_State *L, const char *name)
{
    tvalue gt;
    globals_value(L, &gt);
    return get_str(L, &gt, name);
}

int lua_gettable(lua_State *L, int idx)
{
    tvalue *t = index2value_fast(L, idx);
    tm_gettable(L, t, L->top - 1, L->top - 1);
    return ttype(tt_of(L->top - 1));
}

int lua_getfield(lua_State *L, int idx, const char *k)
{
    /* A copy: the object stays anchored in its slot, and the key's
     * allocation cannot move the stack. */
    tvalue t = *index2value_fast(L, idx);
    return get_str(L, &t, k);
}

/* The array slot of t[n] when t is a table and that slot holds a value,
 * else NULL: the fast path of lua_geti and lua_seti (the table library's
 * loops), as the interpreter's own (tm_gettable). */
static inline tvalue *array_slot(const tvalue *t, lua_Integer n)
{
    if (!is_table(t))
        return NULL;
    table *h = gco2tab(gc_of(t));
    if (!tab_inarray(h, n) || is_nil(&h->array[n - 1]))
        return NULL;
    return &h->array[n - 1];
}

int lua_geti(lua_State *L, int idx, lua_Integer n)
{
    const tvalue *o = index2value_fast(L, idx);
    const tvalue *slot = array_slot(o, n);
    if (slot != NULL) {
        set_obj(L->top, slot);
        api_incr_top(L);
        return ttype(tt_of(slot));
    }
    tvalue t = *o;
    set_int(L->top, n);
    api_incr_top(L);
    tm_gettable(L, &t, L->top - 1, L->top - 1);
    return ttype(tt_of(L->top - 1));
}

int lua_rawget(lua_State *L, int idx)
{
    table *t = index2table(L, idx);
    const tvalue *v = tab_get(t, L->top - 1);
    if (is_nil(v))
        set_nil(L->top - 1);
    else
        set_obj(L->top - 1, v);
    return ttype(tt_of(L->top - 1));
}

int lua_rawgeti(lua_State *L, int idx, lua_Integer n)
{
    table *t = index2table(L, idx);
    push_obj(L, tab_getint(t, n));
    return ttype(tt_of(L->top - 1));
}

int lua_rawgetp(lua_State *L, int idx, const void *p)
{
    table *t = index2table(L, idx);
    tvalue k;
    set_lightud(&k, (void *)(uintptr_t)p);
    push_obj(L, tab_get(t, &k));
    return ttype(tt_of(L->top - 1));
}

void lua_createtable(lua_State *L, int narr, int nrec)
{
    table *t = tab_new_sized(L, narr > 0 ? (uint32_t)narr : 0,
                             nrec > 0 ? (uint32_t)nrec : 0);
    if (t == NULL)
        do_memerror(L);
    push_gc(L, t, V_TABLE);
    pace_safepoint(L);
}

int lua_getmetatable(lua_State *L, int objindex)
{
    table *mt = tm_metatable(L, index2value(L, objindex));
    if (mt == NULL)
        return 0;
    push_gc(L, mt, V_TABLE);
    return 1;
}

rt_cold int lua_getiuservalue(lua_State *L, int idx, int n)
{
    const tvalue *o = index2value_fast(L, idx);
    api_check(L, tt_of(o) == V_UDATA, "full userdata expected");
    udata *u = gco2ud(gc_of(o));
    if (n <= 0 || n > u->nuvalue) {
        lua_pushnil(L);
        return LUA_TNONE;
    }
    push_obj(L, &u->uv[n - 1]);
    return ttype(tt_of(L->top - 1));
}

void *lua_newuserdatauv(lua_State *L, size_t size, int nuvalue)
{
    api_check(L, 0 <= nuvalue && nuvalue < UINT16_MAX, "invalid value");
    udata *u = fn_newudata(L, size, nuvalue);
    if (u == NULL)
        do_memerror(L);
    push_gc(L, u, V_UDATA);
    pace_safepoint(L);
    return udata_mem(u);
}

/* ---- Set (stack -> Lua) ------------------------------------------------- */

/* t[k] = top - 1 (popped), with __newindex. */
static void set_str(lua_State *L, const tvalue *t, const char *k)
{
    str *ks = new_string(L, k, strlen(k));
    push_gc(L, ks, ks->tt);
    tm_settable(L, t, L->top - 1, L->top - 2);
    L->top -= 2;
}

void lua_setglobal(lua_State *L, const char *name)
{
    api_checknelems(L, 1);
    tvalue gt;
    globals_value(L, &gt);
    set_str(L, &gt, name);
}

void lua_settable(lua_State *L, int idx)
{
    api_checknelems(L, 2);
    tvalue t = *index2value_fast(L, idx);
    tm_settable(L, &t, L->top - 2, L->top - 1);
    L->top -= 2;
}

void lua_setfield(lua_State *L, int idx, const char *k)
{
    api_checknelems(L, 1);
    tvalue t = *index2value_fast(L, idx);
    set_str(L, &t, k);
}

int rtlua_arraymove(lua_State *L, int idx, lua_Integer from, lua_Integer to,
                    lua_Integer n)
{
    const tvalue *o = index2value_fast(L, idx);
    if (!is_table(o) || n <= 0)
        return 0;
    table *h = gco2tab(gc_of(o));
    lua_Integer lo = from < to ? from : to;
    lua_Unsigned span = from < to ? (lua_Unsigned)to - (lua_Unsigned)from
                                  : (lua_Unsigned)from - (lua_Unsigned)to;
    /* [lo, lo + span + n - 1] within 1..asize, without overflow */
    if (!tab_inarray(h, lo) || span >= h->asize ||
        (lua_Unsigned)n > h->asize - span ||
        (lua_Unsigned)(lo - 1) + span + (lua_Unsigned)n > h->asize)
        return 0;
    tvalue *a = h->array + (lo - 1), *e = a + span + n;
    for (tvalue *p = a; p < e; p++)
        if (is_nil(p))
            return 0;
    if (is_black(obj2gc(h))) /* the stores' barrier, as lua_seti's */
        for (tvalue *p = &h->array[from - 1], *pe = p + n; p < pe; p++)
            gc_barrier(L, h, p);
    /* a value at a time (newlib's memmove went a byte at a time) */
    tvalue *d = &h->array[to - 1], *src = &h->array[from - 1];
    if (d < src)
        for (lua_Integer j = 0; j < n; j++)
            set_obj(d + j, src + j);
    else
        for (lua_Integer j = n; j-- > 0;)
            set_obj(d + j, src + j);
    return 1;
}

void lua_seti(lua_State *L, int idx, lua_Integer n)
{
    api_checknelems(L, 1);
    const tvalue *o = index2value_fast(L, idx);
    tvalue *slot = array_slot(o, n);
    if (slot != NULL && !is_nil(L->top - 1)) {
        set_obj(slot, L->top - 1);
        gc_barrier(L, gc_of(o), L->top - 1);
        L->top--;
        return;
    }
    tvalue t = *o;
    set_int(L->top, n);
    api_incr_top(L);
    tm_settable(L, &t, L->top - 1, L->top - 2);
    L->top -= 2;
}

void lua_rawset(lua_State *L, int idx)
{
    api_checknelems(L, 2);
    table *t = index2table(L, idx);
    tm_rawset(L, t, L->top - 2, L->top - 1);
    L->top -= 2;
    pace_safepoint(L);
}

void lua_rawseti(lua_State *L, int idx, lua_Integer n)
{
    api_checknelems(L, 1);
    table *t = index2table(L, idx);
    tm_rawsetint(L, t, n, L->top - 1);
    L->top--;
    pace_safepoint(L);
}

void lua_rawsetp(lua_State *L, int idx, const void *p)
{
    api_checknelems(L, 1);
    table *t = index2table(L, idx);
    tvalue k;
    set_lightud(&k, (void *)(uintptr_t)p);
    tm_rawset(L, t, &k, L->top - 1);
    L->top--;
    pace_safepoint(L);
}

int lua_setmetatable(lua_State *L, int objindex)
{
    api_checknelems(L, 1);
    tvalue *obj = index2value(L, objindex);
    table *mt = NULL;
    if (!is_nil(L->top - 1)) {
        api_check(L, is_table(L->top - 1), "table expected");
        mt = gco2tab(gc_of(L->top - 1));
    }
    switch (tt_of(obj)) {
    case V_TABLE: {
        table *t = gco2tab(gc_of(obj));
        tab_setmetatable(L, t, mt);
        if (mt) {
            gc_objbarrier(L, t, mt);
            gc_checkfinalizer(L, obj2gc(t), mt);
        }
        break;
    }
    case V_UDATA: {
        udata *u = gco2ud(gc_of(obj));
        if (is_rom(u)) /* its header is in flash */
            do_runerror(L, "cannot change the metatable of a ROM userdata");
        u->metatable = mt;
        if (mt) {
            gc_objbarrier(L, u, mt);
            gc_checkfinalizer(L, obj2gc(u), mt);
        }
        break;
    }
    default:
        /* Basic-type metatables are roots (marked with the registry). */
        G(L)->mt[ttype(tt_of(obj))] = mt;
        break;
    }
    L->top--;
    return 1;
}

rt_cold int lua_setiuservalue(lua_State *L, int idx, int n)
{
    api_checknelems(L, 1);
    tvalue *o = index2value_fast(L, idx);
    api_check(L, tt_of(o) == V_UDATA, "full userdata expected");
    udata *u = gco2ud(gc_of(o));
    int ok = 0;
    if (n > 0 && n <= u->nuvalue) {
        set_obj(&u->uv[n - 1], L->top - 1);
        gc_barrier(L, u, L->top - 1);
        ok = 1;
    }
    L->top--;
    return ok;
}

/* ---- Calls -------------------------------------------------------------- */

/* After a call with LUA_MULTRET the frame's top must cover the results. */
static void adjust_results(lua_State *L, int nres)
{
    if (nres <= LUA_MULTRET && L->ci->top < L->top)
        L->ci->top = L->top;
}

void lua_callk(lua_State *L, int nargs, int nresults, lua_KContext ctx,
               lua_KFunction k)
{
    api_check(L, k == NULL || !ci_isLua(L->ci),
              "cannot use continuations inside hooks");
    api_checknelems(L, nargs + 1);
    api_check(L, L->status == LUA_OK, "cannot do calls on non-normal thread");
    gc_thread_enter(L);
    tvalue *func = L->top - (nargs + 1);
    if (k != NULL && do_isyieldable(L)) {
        L->ci->u.c.k = k;
        L->ci->u.c.ctx = ctx;
        do_call(L, func, nresults);
    } else {
        do_callnoyield(L, func, nresults);
    }
    adjust_results(L, nresults);
}

struct call_args {
    tvalue *func;
    int nresults;
};

static void f_call(lua_State *L, void *ud)
{
    struct call_args *c = ud;
    do_callnoyield(L, c->func, c->nresults);
}

int lua_pcallk(lua_State *L, int nargs, int nresults, int errfunc,
               lua_KContext ctx, lua_KFunction k)
{
    api_check(L, k == NULL || !ci_isLua(L->ci),
              "cannot use continuations inside hooks");
    api_checknelems(L, nargs + 1);
    api_check(L, L->status == LUA_OK, "cannot do calls on non-normal thread");
    gc_thread_enter(L);
    ptrdiff_t ef = 0;
    if (errfunc != 0)
        ef = do_savestack(L, index2stack(L, errfunc));
    struct call_args c;
    c.func = L->top - (nargs + 1);
    int status;
    if (k == NULL || !do_isyieldable(L)) {
        c.nresults = nresults;
        status = do_pcall(L, f_call, &c, do_savestack(L, c.func), ef);
    } else {
        /* Yieldable: no setjmp here; do.c recovers at this frame
         * (CIST_YPCALL) when an error unwinds a resumed coroutine. */
        CallInfo *ci = L->ci;
        ci->u.c.k = k;
        ci->u.c.ctx = ctx;
        ci->u2.funcidx = (int)do_savestack(L, c.func);
        ci->u.c.old_errfunc = L->errfunc;
        L->errfunc = ef;
        ci->callstatus |= CIST_YPCALL;
        do_call(L, c.func, nresults);
        ci->callstatus &= (uint16_t)~CIST_YPCALL;
        L->errfunc = ci->u.c.old_errfunc;
        status = LUA_OK;
    }
    adjust_results(L, nresults);
    return status;
}

/* ---- Miscellaneous ------------------------------------------------------ */

int lua_error(lua_State *L)
{
    api_checknelems(L, 1);
    const tvalue *e = L->top - 1;
    /* The pre-made memory message keeps its status (no handler runs). */
    if (is_str(e) && gco2str(gc_of(e)) == G(L)->memerrmsg)
        do_throw(L, LUA_ERRMEM);
    dbg_errormsg(L);
}

int lua_next(lua_State *L, int idx)
{
    api_checknelems(L, 1);
    table *t = index2table(L, idx);
    int more = tab_next(t, L->top - 1, L->top);
    if (more < 0)
        do_runerror(L, "invalid key to 'next'");
    if (more) {
        api_incr_top(L);
        return 1;
    }
    L->top--;
    return 0;
}

void lua_toclose(lua_State *L, int idx)
{
    tvalue *o = index2stack(L, idx);
    do_newtbcupval(L, o);
}

void lua_closeslot(lua_State *L, int idx)
{
    tvalue *level = index2stack(L, idx);
    ptrdiff_t off = do_savestack(L, level);
    do_close(L, level, LUA_OK);
    set_nil(do_restorestack(L, off));
}

void lua_concat(lua_State *L, int n)
{
    api_checknelems(L, n);
    if (n > 0) {
        tm_concat(L, n);
    } else {
        str *e = new_string(L, "", 0);
        push_gc(L, e, e->tt);
    }
    pace_safepoint(L);
}

void lua_len(lua_State *L, int idx)
{
    tvalue t = *index2value_fast(L, idx);
    tm_objlen(L, L->top, &t);
    api_incr_top(L);
}

static size_t block_cost(global_State *g, const void *p)
{
    return p ? arena_cost(g->arena, p) : 0;
}

/* The arena's own allocation function, what lua_getallocf gives while
 * no other is installed (ud is the global state): blocks of the arena,
 * with no collection (a function wrapping it is called from inside the
 * collector's allocations, which collect themselves when it fails).
 * Called by C code (not through the runtime's own allocations, which
 * set g->inallocf), it counts the blocks that C code holds. */
static void *arena_allocf(void *ud, void *ptr, size_t osize, size_t nsize)
{
    global_State *g = ud;
    size_t was = g->inallocf ? 0 : block_cost(g, ptr);
    void *p = NULL;
    (void)osize;
    if (nsize == 0) {
        if (ptr != NULL)
            arena_free(g->arena, ptr);
    } else {
        /* C code's blocks are aligned for any type, as malloc's (a page's
         * slot of a size not a multiple of ARENA_ALIGN is 4-aligned). */
        if (!g->inallocf && nsize <= SIZE_MAX - ARENA_ALIGN)
            nsize = (nsize + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
        p = ptr ? arena_realloc(g->arena, ptr, nsize)
                : arena_alloc(g->arena, nsize);
        if (p == NULL)
            return NULL; /* ptr is as it was */
    }
    if (!g->inallocf)
        g->cblockbytes += block_cost(g, p) - was;
    return p;
}

lua_Alloc lua_getallocf(lua_State *L, void **ud)
{
    global_State *g = G(L);
    if (ud)
        *ud = g->allocf ? g->allocud : (void *)g;
    return g->allocf ? g->allocf : arena_allocf;
}

void lua_setallocf(lua_State *L, lua_Alloc f, void *ud)
{
    global_State *g = G(L);
    if (f == arena_allocf && ud == (void *)g)
        f = NULL; /* the arena itself again */
    g->allocf = f;
    g->allocud = f ? ud : NULL;
}

void lua_setwarnf(lua_State *L, lua_WarnFunction f, void *ud)
{
    G(L)->warnf = f;
    G(L)->warnud = ud;
}

void lua_warning(lua_State *L, const char *msg, int tocont)
{
    global_State *g = G(L);
    if (g->warnf != NULL)
        g->warnf(g->warnud, msg, tocont);
}

/* ---- State -------------------------------------------------------------- */

lua_State *lua_newstate(lua_Alloc f, void *ud)
{
    (void)f; /* the arena is the only allocator */
    (void)ud;
    lua_State *L = state_open();
    if (L != NULL) {
        api_stepmul = API_STEPMUL_DEFAULT;
        api_pause = (int)G(L)->pausepct + API_PAUSE_BASE;
        api_gcmode = LUA_GCINC;
        pace_init(L);
    }
    return L;
}

static void close_all(lua_State *L, void *ud)
{
    (void)ud;
    do_close(L, L->stack, LUA_OK);
}

void lua_close(lua_State *L)
{
    L = &G(L)->mainthread; /* only the main thread closes the state */
    if (L->base_ci != NULL) {
        L->ci = L->base_ci;
        /* Pending __close handlers run; their errors are dropped. */
        (void)do_rawrunprotected(L, close_all, NULL);
    }
    pace_stop(L);
    state_close(L);
}

lua_State *lua_newthread(lua_State *L)
{
    lua_State *L1 = state_newthread(L);
    if (L1 == NULL)
        do_memerror(L);
    push_gc(L, L1, V_THREAD); /* hooks are inherited by do_initthread */
    pace_safepoint(L);
    return L1;
}

lua_CFunction lua_atpanic(lua_State *L, lua_CFunction panicf)
{
    lua_CFunction old = G(L)->panic;
    G(L)->panic = panicf;
    return old;
}

const char lua_ident[] = "$LuaVersion: " LUA_COPYRIGHT " $"
                         "$LuaAuthors: " LUA_AUTHORS " $";

void *rtlua_getextraspace_(lua_State *L)
{
    return L->extraspace;
}

lua_Number lua_version(lua_State *L)
{
    (void)L;
    return LUA_VERSION_NUM;
}

/* ---- The collector ------------------------------------------------------ */

static uint32_t step_budget(global_State *g)
{
    return g->stepbudget ? g->stepbudget : UINT32_MAX / 2;
}

/* One explicit step (or up to n steps for n KiB): returns 1 when a cycle
 * ended during them.  An explicit step starts a cycle even when none is
 * due, and runs while the collector is stopped, as Lua's does; a
 * negative size adds nothing to do (5.4 lowers its debt: no step). */
static int explicit_step(lua_State *L, int kib)
{
    global_State *g = G(L);
    if (kib < 0)
        return 0;
    uint32_t done = g->stats.cycles_completed;
    int steps = kib > 0 ? kib * API_STEPS_PER_KIB : 1;
    for (int i = 0; i < steps && g->stats.cycles_completed == done; i++) {
        if (g->gcphase == GC_PAUSE)
            g->gcestimate = 0; /* "due": the next unit starts a cycle */
        gc_step(L, step_budget(g));
        gc_finalize(L, GC_FINALIZE_MAX);
    }
    return g->stats.cycles_completed != done;
}

/* v as 5.4 stores a collector parameter (API_PARAM_UNIT). */
static int gc_param(int v)
{
    return (int)((unsigned)(v / API_PARAM_UNIT) & API_PARAM_MAX_QUARTERS) *
           API_PARAM_UNIT;
}

static int set_pause(global_State *g, int pause)
{
    int old = api_pause;
    api_pause = gc_param(pause);
    g->pausepct = api_pause > API_PAUSE_BASE
                      ? (uint32_t)(api_pause - API_PAUSE_BASE)
                      : 0;
    return old;
}

static int set_stepmul(int stepmul)
{
    int old = api_stepmul;
    api_stepmul = gc_param(stepmul);
    return old;
}

rt_cold int lua_gc(lua_State *L, int what, ...)
{
    global_State *g = G(L);
    if (g->fnzrunning) /* no collector control from inside a __gc */
        return -1;
    int res = 0;
    va_list ap;
    va_start(ap, what);
    switch (what) {
    case LUA_GCSTOP:
        g->gcrunning = 0;
        g->gcstopped = 1;
        break;
    case LUA_GCRESTART:
        g->gcrunning = 1;
        g->gcstopped = 0;
        break;
    case LUA_GCCOLLECT:
        /* Between API calls every object is anchored (or garbage): the
         * newest one needs no protection from this collection. */
        g->newest = NULL;
        gc_fullgc(L);
        break;
    case LUA_GCCOUNT:
        res = (int)(arena_in_use(g->arena) >> 10);
        break;
    case LUA_GCCOUNTB:
        res = (int)(arena_in_use(g->arena) & 0x3FF);
        break;
    case LUA_GCSTEP:
        res = explicit_step(L, va_arg(ap, int));
        break;
    case LUA_GCSETPAUSE:
        res = set_pause(g, va_arg(ap, int));
        break;
    case LUA_GCSETSTEPMUL:
        res = set_stepmul(va_arg(ap, int));
        break;
    case LUA_GCISRUNNING:
        res = g->gcrunning;
        break;
    case LUA_GCGEN:
        /* Generational mode is not offered: stay incremental (its two
         * multipliers have nothing to set). */
        res = api_gcmode;
        api_gcmode = LUA_GCGEN;
        break;
    case LUA_GCINC: {
        int pause = va_arg(ap, int);
        int stepmul = va_arg(ap, int);
        (void)va_arg(ap, int); /* step size: steps are time-budgeted */
        if (pause != 0)        /* 0 keeps the value */
            set_pause(g, pause);
        if (stepmul != 0)
            set_stepmul(stepmul);
        res = api_gcmode;
        api_gcmode = LUA_GCINC;
        break;
    }
    default:
        res = -1;
        break;
    }
    va_end(ap);
    return res;
}

/* ---- Upvalues ----------------------------------------------------------- */

/* Upvalue n of the function at fi: its value, name and owner (for the
 * barrier), or NULL when there is none. */
rt_cold static const char *aux_upvalue(const tvalue *fi, int n, tvalue **val,
                                       gcobj **owner)
{
    switch (tt_of(fi)) {
    case V_CCL: {
        cclosure *f = gco2ccl(gc_of(fi));
        if (n < 1 || n > f->nupvalues)
            return NULL;
        *val = &f->upvalue[n - 1];
        if (owner)
            *owner = obj2gc(f);
        return "";
    }
    case V_LCL: {
        lclosure *f = gco2lcl(gc_of(fi));
        proto *p = f->p;
        if (n < 1 || n > f->nupvalues || f->upvals[n - 1] == NULL)
            return NULL;
        *val = f->upvals[n - 1]->v;
        if (owner)
            *owner = obj2gc(f->upvals[n - 1]);
        str *name = n <= p->sizeupvalues ? p->upvalues[n - 1].name : NULL;
        return name == NULL ? "(no name)" : str_data(name);
    }
    default:
        return NULL;
    }
}

const char *lua_getupvalue(lua_State *L, int funcindex, int n)
{
    tvalue *val = NULL;
    const char *name = aux_upvalue(index2value(L, funcindex), n, &val, NULL);
    if (name != NULL)
        push_obj(L, val);
    return name;
}

const char *lua_setupvalue(lua_State *L, int funcindex, int n)
{
    api_checknelems(L, 1);
    tvalue *val = NULL;
    gcobj *owner = NULL;
    const char *name = aux_upvalue(index2value(L, funcindex), n, &val, &owner);
    if (name != NULL) {
        L->top--;
        set_obj(val, L->top);
        gc_barrier(L, owner, val);
    }
    return name;
}

static upval **upvalref(lua_State *L, int fidx, int n)
{
    const tvalue *fi = index2value(L, fidx);
    api_check(L, tt_of(fi) == V_LCL, "Lua function expected");
    lclosure *f = gco2lcl(gc_of(fi));
    if (n < 1 || n > f->nupvalues)
        return NULL;
    return &f->upvals[n - 1];
}

rt_cold void *lua_upvalueid(lua_State *L, int fidx, int n)
{
    const tvalue *fi = index2value(L, fidx);
    switch (tt_of(fi)) {
    case V_LCL: {
        upval **up = upvalref(L, fidx, n);
        return up != NULL ? (void *)*up : NULL;
    }
    case V_CCL: {
        cclosure *f = gco2ccl(gc_of(fi));
        if (n >= 1 && n <= f->nupvalues)
            return &f->upvalue[n - 1];
        return NULL;
    }
    default:
        return NULL;
    }
}

rt_cold void lua_upvaluejoin(lua_State *L, int fidx1, int n1, int fidx2,
                             int n2)
{
    upval **up1 = upvalref(L, fidx1, n1);
    upval **up2 = upvalref(L, fidx2, n2);
    api_check(L, up1 != NULL && up2 != NULL, "invalid upvalue index");
    if (up1 == NULL || up2 == NULL)
        return;
    *up1 = *up2;
    gc_objbarrier(L, gc_of(index2value(L, fidx1)), *up1);
}

/* ---- rtlua extensions (include/rtlua.h) --------------------------------- */

/* The k-th smallest (from 0) of v[0..n), k < n, by selection with a
 * three-way partition (equal samples are common): v is reordered,
 * expected O(n). */
static uint32_t kth_smallest(uint32_t *v, uint32_t n, uint32_t k)
{
    int lo = 0, hi = (int)n - 1, want = (int)k;
    while (lo < hi) {
        uint32_t p = v[lo + (hi - lo) / 2];
        int lt = lo, i = lo, gt = hi;
        while (i <= gt) {
            uint32_t x = v[i];
            if (x < p) {
                v[i++] = v[lt];
                v[lt++] = x;
            } else if (x > p) {
                v[i] = v[gt];
                v[gt--] = x;
            } else {
                i++;
            }
        }
        /* [lo, lt) < p, [lt, gt] == p, (gt, hi] > p */
        if (want < lt)
            hi = lt - 1;
        else if (want > gt)
            lo = gt + 1;
        else
            return p;
    }
    return v[want];
}

_Static_assert(RTLUA_GCPHASE_PAUSE == GC_PAUSE &&
                   RTLUA_GCPHASE_PROPAGATE == GC_PROPAGATE &&
                   RTLUA_GCPHASE_ATOMIC == GC_ATOMIC &&
                   RTLUA_GCPHASE_CLEARWEAK == GC_CLEARWEAK &&
                   RTLUA_GCPHASE_SWEEPSTRING == GC_SWEEP_STRING &&
                   RTLUA_GCPHASE_SWEEPOBJ == GC_SWEEP_OBJ,
               "rtlua.h's phase numbers are the collector's");

_Static_assert(RTLUA_GCTRACE_TICK == GC_TRACE_TICK &&
                   RTLUA_GCTRACE_PACED == GC_TRACE_PACED &&
                   RTLUA_GCTRACE_ASSIST == GC_TRACE_ASSIST &&
                   RTLUA_GCTRACE_EMERGENCY == GC_TRACE_EMERGENCY,
               "rtlua.h's trace kinds are the collector's");

int rtlua_pushgctrace(lua_State *L)
{
#ifdef RTLUA_GC_TRACE
    /* The table first (its allocation may step and log), then the copy:
     * the oldest eighth is left out, which the tick (it logs from its
     * interrupt) or a step may overwrite meanwhile. */
    enum { KEEP = GC_TRACE_N - GC_TRACE_N / 8 };
    lua_createtable(L, 3 * KEEP, 0);
    uint32_t n = gc_tracen, m = n < KEEP ? n : KEEP;
    for (uint32_t i = 0; i < m; i++) {
        const uint32_t *e = gc_tracering[(n - m + i) & (GC_TRACE_N - 1)];
        for (int k = 0; k < 3; k++) {
            lua_pushinteger(L, (lua_Integer)e[k]);
            lua_rawseti(L, -2, (lua_Integer)(3 * i) + k + 1);
        }
    }
    return 1;
#else
    (void)L;
    return 0;
#endif
}

void rtlua_gcstats_reset(lua_State *L)
{
    global_State *g = G(L);
    memset(&g->stats, 0, sizeof g->stats);
    arena_reset_peak(g->arena);
}

void rtlua_gcstats(lua_State *L, rtlua_GCStats *out)
{
    global_State *g = G(L);
    const gc_stats *s = &g->stats;
    out->steps = s->steps;
    out->worst_step_cycles = s->worst_step_cycles;
    for (int i = 0; i < RTLUA_GC_HIST_BUCKETS; i++)
        out->hist[i] = i < GC_HIST_BUCKETS ? s->hist[i] : 0;
    out->cycles_completed = s->cycles_completed;
    out->emergencies = s->emergencies;
    out->assists = s->assists;
    out->paced = s->paced;
    out->bytes_freed = s->bytes_freed;
    out->step_cycles_total = s->step_cycles_total;
    out->bytes_in_use = arena_in_use(g->arena);
    out->bytes_free = arena_free_bytes(g->arena);
    out->largest_free = arena_largest_free(g->arena);
    out->capacity = arena_capacity(g->arena);
    out->peak_in_use = arena_peak(g->arena);
    out->worst_emergency_cycles = s->worst_emergency_cycles;
    out->finalizers = s->finalizers;
    out->worst_finalizer_cycles = s->worst_finalizer_cycles;
    out->emergencies_failed = s->emergencies_failed;
    out->assists_deferred = s->assists_deferred;
    out->worst_body_assists = s->worst_body_assists;
    out->worst_body_assist_cycles = s->worst_body_assist_cycles;
    out->assist_units = s->assist_units;
    out->worst_unit_cycles = s->worst_unit_cycles;
    out->worst_unit_phase = s->worst_unit_phase;
    out->protos_traversed = s->protos_traversed;
    out->worst_rehash_cycles = s->worst_rehash_cycles;
    out->worst_intern_cycles = s->worst_intern_cycles;
    /* Quantiles from the samples, selected in a copy (a sort of the
     * GC_STEP_SAMPLES words took 70k cycles at a board's pace: a program
     * that reads its figures in a control loop would be late for it). */
    uint32_t v[GC_STEP_SAMPLES];
    uint32_t n = s->steps < GC_STEP_SAMPLES ? s->steps : GC_STEP_SAMPLES;
    memcpy(v, s->sample, n * sizeof v[0]);
    out->quantiles_sampled = s->steps > GC_STEP_SAMPLES;
    out->median_step_cycles = n ? kth_smallest(v, n, (n - 1) / 2) : 0;
    if (!out->quantiles_sampled) {
        /* the ceil(0.999 n)-th smallest */
        uint32_t k = (uint32_t)(((uint64_t)n * 999 + 999) / 1000);
        out->p999_step_cycles = n ? kth_smallest(v, n, k - 1) : 0;
    } else {
        uint32_t below = 0, total = s->steps, q = s->worst_step_cycles;
        for (int i = 0; i < GC_HIST_BUCKETS; i++) {
            below += s->hist[i];
            if (below >= total - total / 1000) {
                uint32_t top =
                    i + 1 < 32 ? (uint32_t)1 << (i + 1) : UINT32_MAX;
                q = top < q ? top : q;
                break;
            }
        }
        out->p999_step_cycles = q;
    }
}
