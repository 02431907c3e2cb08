/*
 * tm.c — metamethod lookup and calls (vm/tm.h).
 *
 * The event names live in g->tmname, interned once by tm_init; they are
 * ROM strings in builds that have them, else fixed RAM strings.  A
 * table's flags cache the absence of the first TM_FAST_N events; the
 * cache is never written into a ROM table (its header is const).
 *
 * Also here (tm_ names too): the operations that fall back on metamethods
 * (indexing, raw stores, length, concatenation).  The interpreter's fast
 * paths are in vm/vm.c and call these when they do not apply.
 */
#include "vm/tm.h"

#include <string.h>

#include "gc/gc.h"
#include "vm/arith.h"
#include "vm/debug.h"
#include "vm/do.h"
#include "vm/str.h"
#include "vm/tab.h"
#include "vm/vm.h"

/* Longest __index/__newindex chain followed before giving up. */
#define VM_MAXTAGLOOP 2000

#define is_function(o) (ttype(tt_of(o)) == T_FUNCTION)

/* A raw lookup with the array part and short strings first. */
static const tvalue *fastget(table *h, const tvalue *key)
{
    if (is_int(key) && tab_inarray(h, key->v.i))
        return &h->array[key->v.i - 1];
    if (tt_of(key) == V_SHRSTR)
        return tab_getshortstr(h, gco2str(gc_of(key)));
    return tab_get(h, key);
}

/* By tm_event; the order is tm.h's. */
static const char *const tm_names[TM_N] = {
    "__index", "__newindex", "__gc",   "__mode",  "__len", "__eq",   "__add",
    "__sub",   "__mul",      "__mod",  "__pow",   "__div", "__idiv", "__band",
    "__bor",   "__bxor",     "__shl",  "__shr",   "__unm", "__bnot", "__lt",
    "__le",    "__concat",   "__call", "__close",
};

/* By LUA_T* + 1 (index 0 is LUA_TNONE). */
static const char *const type_names[] = {
    "no value", "nil",   "boolean",  "userdata", "number",
    "string",   "table", "function", "userdata", "thread",
};

#define TYPE_NAMES_N ((int)(sizeof(type_names) / sizeof(type_names[0])))

int tm_init(lua_State *L)
{
    global_State *g = G(L);
    int e;
    for (e = 0; e < TM_N; e++) {
        str *s = str_newz(L, tm_names[e]);
        if (s == NULL)
            return -1;
        str_fix(s);
        g->tmname[e] = s;
    }
    return 0;
}

const tvalue *tm_fast(global_State *g, table *mt, tm_event e)
{
    const tvalue *v;
    if (e < TM_FAST_N && (mt->flags & (1u << e)))
        return NULL;
    v = tab_getshortstr(mt, g->tmname[e]);
    if (is_nil(v)) {
        if (e < TM_FAST_N && !is_rom(obj2gc(mt)))
            mt->flags = (uint8_t)(mt->flags | (1u << e));
        return NULL;
    }
    return v;
}

table *tm_metatable(lua_State *L, const tvalue *o)
{
    switch (tt_of(o)) {
    case V_TABLE:
        return tab_metatable(gco2tab(gc_of(o)));
    case V_UDATA:
        return gco2ud(gc_of(o))->metatable;
    default:
        return G(L)->mt[ttype(tt_of(o))];
    }
}

const tvalue *tm_byobj(lua_State *L, const tvalue *o, tm_event e)
{
    table *mt = tm_metatable(L, o);
    if (mt == NULL)
        return &G(L)->nilvalue;
    return tab_getshortstr(mt, G(L)->tmname[e]);
}

const char *tm_typename(int t)
{
    if (t + 1 < 0 || t + 1 >= TYPE_NAMES_N)
        return "?";
    return type_names[t + 1];
}

const char *tm_objtypename(lua_State *L, const tvalue *o)
{
    table *mt = NULL;
    if (is_table(o))
        mt = tab_metatable(gco2tab(gc_of(o)));
    else if (tt_of(o) == V_UDATA)
        mt = gco2ud(gc_of(o))->metatable;
    if (mt != NULL) {
        /* "__name" is a ROM string where the build has them, so this
         * usually allocates nothing. */
        str *key = str_newz(L, "__name");
        if (key != NULL) {
            const tvalue *name = tab_getstr(mt, key);
            if (is_str(name))
                return str_data(gco2str(gc_of(name)));
        }
    }
    return tm_typename(ttype(tt_of(o)));
}

/* Call the n values pushed at func (a metamethod and its operands). */
static void call_tm(lua_State *L, tvalue *func, int nresults)
{
    if (ci_isLua(L->ci))
        do_call(L, func, nresults);
    else
        do_callnoyield(L, func, nresults);
}

void tm_callres(lua_State *L, const tvalue *f, const tvalue *p1,
                const tvalue *p2, tvalue *res)
{
    ptrdiff_t r = do_savestack(L, res);
    tvalue *func = L->top;
    /* DO_EXTRA_STACK slots are always free above a frame's top. */
    set_obj(func, f);
    set_obj(func + 1, p1);
    set_obj(func + 2, p2);
    L->top = func + 3;
    call_tm(L, func, 1);
    res = do_restorestack(L, r);
    L->top--;
    set_obj(res, L->top);
}

void tm_call(lua_State *L, const tvalue *f, const tvalue *p1, const tvalue *p2,
             const tvalue *p3)
{
    tvalue *func = L->top;
    set_obj(func, f);
    set_obj(func + 1, p1);
    set_obj(func + 2, p2);
    set_obj(func + 3, p3);
    L->top = func + 4;
    call_tm(L, func, 0);
}

void tm_trybin(lua_State *L, const tvalue *p1, const tvalue *p2, tvalue *res,
               tm_event e)
{
    const tvalue *tm = tm_byobj(L, p1, e);
    if (is_nil(tm))
        tm = tm_byobj(L, p2, e);
    if (!is_nil(tm)) {
        tm_callres(L, tm, p1, p2, res);
        return;
    }
    switch (e) {
    case TM_BAND:
    case TM_BOR:
    case TM_BXOR:
    case TM_SHL:
    case TM_SHR:
    case TM_BNOT:
        if (ttype(tt_of(p1)) == T_NUMBER && ttype(tt_of(p2)) == T_NUMBER)
            dbg_tointerror(L, p1, p2);
        dbg_opinterror(L, p1, p2, "perform bitwise operation on");
    default:
        /* lua5.4 coerces strings in the string library's metamethods,
         * whose failure reads like this */
        if (is_str(p1) || is_str(p2))
            do_runerror(L, "attempt to %s a '%s' with a '%s'", tm_names[e] + 2,
                        tm_typename(ttype(tt_of(p1))),
                        tm_typename(ttype(tt_of(p2))));
        dbg_opinterror(L, p1, p2, "perform arithmetic on");
    }
}

int tm_callorder(lua_State *L, const tvalue *p1, const tvalue *p2, tm_event e)
{
    const tvalue *tm = tm_byobj(L, p1, e);
    if (is_nil(tm))
        tm = tm_byobj(L, p2, e);
    if (is_nil(tm))
        dbg_ordererror(L, p1, p2);
    tm_callres(L, tm, p1, p2, L->top);
    return !is_false(L->top);
}

/* ---- Raw stores --------------------------------------------------------- */

static _Noreturn void seterror(lua_State *L, int rc)
{
    if (rc == TAB_ERR_NILKEY)
        do_runerror(L, "table index is nil");
    if (rc == TAB_ERR_NANKEY)
        do_runerror(L, "table index is NaN");
    do_memerror(L);
}

void tm_rawset(lua_State *L, table *t, const tvalue *key, const tvalue *val)
{
    int rc = tab_set(L, t, key, val); /* does the barriers */
    if (vm_unlikely(rc != TAB_OK))
        seterror(L, rc);
}

void tm_rawsetnew(lua_State *L, table *t, const tvalue *key, const tvalue *val)
{
    int rc = tab_setnew(L, t, key, val);
    if (vm_unlikely(rc != TAB_OK))
        seterror(L, rc);
}

void tm_rawsetint(lua_State *L, table *t, rt_int key, const tvalue *val)
{
    int rc = tab_setint(L, t, key, val);
    if (vm_unlikely(rc != TAB_OK))
        seterror(L, rc);
}

/* ---- Indexing with metamethods ------------------------------------------
 * slot: the raw lookup's result when t is a table (it was nil), NULL
 * when t is not a table. */

/* tm_fast(g, mt, TM_INDEX), NULL mt too, inline: a method found through
 * a class's __index table (bench/oo.lua) made two calls, tm_finishget's
 * and this one's. */
static inline const tvalue *index_tm(global_State *g, table *mt)
{
    if (mt == NULL || (mt->flags & (1u << TM_INDEX)))
        return NULL;
    const tvalue *v = tab_getshortstr(mt, g->tmname[TM_INDEX]);
    if (is_nil(v)) {
        if (!is_rom(obj2gc(mt)))
            mt->flags = (uint8_t)(mt->flags | (1u << TM_INDEX));
        return NULL;
    }
    return v;
}

void tm_finishget(lua_State *L, const tvalue *t, const tvalue *key,
                  tvalue *res, const tvalue *slot)
{
    int loop;
    for (loop = 0; loop < VM_MAXTAGLOOP; loop++) {
        const tvalue *tm;
        if (slot == NULL) {
            tm = tm_byobj(L, t, TM_INDEX);
            if (is_nil(tm))
                dbg_typeerror(L, t, "index");
        } else {
            tm = index_tm(G(L), tab_metatable(gco2tab(gc_of(t))));
            if (tm == NULL) {
                set_nil(res);
                return;
            }
        }
        if (is_function(tm)) {
            tm_callres(L, tm, t, key, res);
            return;
        }
        t = tm;
        if (is_table(t)) {
            table *h = gco2tab(gc_of(t));
            /* (a method's name: the short string lookup, inline) */
            slot = tt_of(key) == V_SHRSTR
                       ? tab_getshortstr(h, gco2str(gc_of(key)))
                       : tab_get(h, key);
            if (!is_nil(slot)) {
                set_obj(res, slot);
                return;
            }
        } else {
            slot = NULL;
        }
    }
    do_runerror(L, "'__index' chain too long; possible loop");
}

/* Store into an existing field: in place, or through tab_set for a ROM
 * table (whose lookup results are read-only). */
static void store_existing(lua_State *L, table *h, const tvalue *slot,
                           const tvalue *key, const tvalue *val)
{
    if (is_rom(h))
        tm_rawset(L, h, key, val);
    else
        vm_storeslot(L, h, slot, val);
}

void tm_finishset(lua_State *L, const tvalue *t, const tvalue *key,
                  const tvalue *val, const tvalue *slot)
{
    int loop;
    for (loop = 0; loop < VM_MAXTAGLOOP; loop++) {
        const tvalue *tm;
        if (slot != NULL && !is_nil(slot)) { /* a ROM table's field */
            store_existing(L, gco2tab(gc_of(t)), slot, key, val);
            return;
        }
        if (slot != NULL) {
            table *h = gco2tab(gc_of(t));
            table *mt = tab_metatable(h);
            tm = mt ? tm_fast(G(L), mt, TM_NEWINDEX) : NULL;
            if (tm == NULL) {
                int rc = slot == &tab_absent ? tab_setnew(L, h, key, val)
                                             : tab_set(L, h, key, val);
                if (vm_unlikely(rc != TAB_OK))
                    seterror(L, rc);
                return;
            }
        } else {
            tm = tm_byobj(L, t, TM_NEWINDEX);
            if (is_nil(tm))
                dbg_typeerror(L, t, "index");
        }
        if (is_function(tm)) {
            tm_call(L, tm, t, key, val);
            return;
        }
        t = tm;
        if (is_table(t)) {
            table *h = gco2tab(gc_of(t));
            slot = tab_get(h, key);
            if (!is_nil(slot)) {
                store_existing(L, h, slot, key, val);
                return;
            }
        } else {
            slot = NULL;
        }
    }
    do_runerror(L, "'__newindex' chain too long; possible loop");
}

/* The general cases of tm_gettable/tm_settable, kept out of line so the
 * array-part fast paths below make no call. */
static vm_noinline void gettable_slow(lua_State *L, const tvalue *t,
                                      const tvalue *key, tvalue *res)
{
    const tvalue *slot = NULL;
    if (is_table(t)) {
        slot = fastget(gco2tab(gc_of(t)), key);
        if (!is_nil(slot)) {
            set_obj(res, slot);
            return;
        }
    }
    tm_finishget(L, t, key, res, slot);
}

static vm_noinline void settable_slow(lua_State *L, const tvalue *t,
                                      const tvalue *key, const tvalue *val)
{
    const tvalue *slot = NULL;
    if (is_table(t)) {
        table *h = gco2tab(gc_of(t));
        slot = fastget(h, key);
        if (!is_nil(slot)) {
            store_existing(L, h, slot, key, val);
            return;
        }
        if (tab_metatable(h) == NULL) {
            tm_rawset(L, h, key, val);
            return;
        }
    }
    tm_finishset(L, t, key, val, slot);
}

void tm_gettable(lua_State *L, const tvalue *t, const tvalue *key, tvalue *res)
{
    if (is_table(t) && is_int(key)) {
        table *h = gco2tab(gc_of(t));
        if (tab_inarray(h, key->v.i) && !is_nil(&h->array[key->v.i - 1])) {
            set_obj(res, &h->array[key->v.i - 1]);
            return;
        }
    }
    gettable_slow(L, t, key, res);
}

void tm_settable(lua_State *L, const tvalue *t, const tvalue *key,
                 const tvalue *val)
{
    if (is_table(t) && is_int(key) && !is_nil(val)) {
        table *h = gco2tab(gc_of(t));
        if ((rt_uint)key->v.i - 1u < (rt_uint)h->asize &&
            !is_nil(&h->array[key->v.i - 1])) {
            set_obj(&h->array[key->v.i - 1], val);
            gc_barrier(L, h, val);
            return;
        }
    }
    settable_slow(L, t, key, val);
}

/* ---- Length and concatenation ------------------------------------------- */

void tm_objlen(lua_State *L, tvalue *res, const tvalue *o)
{
    const tvalue *tm;
    switch (tt_of(o)) {
    case V_TABLE: {
        table *t = gco2tab(gc_of(o));
        table *mt = tab_metatable(t);
        tm = mt ? tm_fast(G(L), mt, TM_LEN) : NULL;
        if (tm == NULL) {
            set_int(res, (rt_int)tab_length(t));
            return;
        }
        break;
    }
    case V_SHRSTR:
    case V_LNGSTR:
        set_int(res, (rt_int)str_len(gco2str(gc_of(o))));
        return;
    default:
        tm = tm_byobj(L, o, TM_LEN);
        if (is_nil(tm))
            dbg_typeerror(L, o, "get length of");
        break;
    }
    tm_callres(L, tm, o, o, res);
}

/* A string, or a number turned into one in place. */
#define tostr(L, o) (is_str(o) || arith_tostring(L, o))
#define slen(o) str_len(gco2str(gc_of(o)))

/* top[-2] .. top[-1] through __concat, result in top[-2]. */
static void concat_tm(lua_State *L)
{
    tvalue *p1 = L->top - 2, *p2 = L->top - 1;
    const tvalue *tm = tm_byobj(L, p1, TM_CONCAT);
    if (is_nil(tm))
        tm = tm_byobj(L, p2, TM_CONCAT);
    if (is_nil(tm))
        dbg_concaterror(L, p1, p2);
    tm_callres(L, tm, p1, p2, p1);
}

/* Copy the n strings at top-n .. top-1 into buf. */
static void copy_strings(tvalue *top, int n, char *buf)
{
    size_t off = 0;
    int j;
    for (j = n; j > 0; j--) {
        str *s = gco2str(gc_of(top - j));
        size_t l = str_len(s);
        memcpy(buf + off, str_data(s), l);
        off += l;
    }
}

void tm_concat(lua_State *L, int total)
{
    if (total == 1)
        return;
    do {
        tvalue *top = L->top;
        int n = 2;
        if (!(is_str(top - 2) || vm_isnumber(top - 2)) || !tostr(L, top - 1)) {
            concat_tm(L);
        } else if (is_str(top - 1) && slen(top - 1) == 0) {
            (void)tostr(L, top - 2);
        } else if (is_str(top - 2) && slen(top - 2) == 0) {
            set_obj(top - 2, top - 1);
        } else {
            size_t tl = slen(top - 1);
            str *s;
            for (n = 1; n < total && tostr(L, L->top - n - 1); n++) {
                size_t l = slen(L->top - n - 1);
                if (l >= ((size_t)-1) / 2 - tl)
                    do_runerror(L, "string length overflow");
                tl += l;
            }
            if (tl <= STR_SHORT_MAX) {
                char buf[STR_SHORT_MAX + 1];
                copy_strings(L->top, n, buf);
                s = str_new(L, buf, tl);
            } else {
                s = str_newlong(L, tl);
                if (s != NULL)
                    copy_strings(L->top, n, str_data(s));
            }
            if (s == NULL)
                do_memerror(L);
            top = L->top;
            set_gc(top - n, s, s->tt);
        }
        total -= n - 1;
        L->top -= n - 1;
    } while (total > 1);
}
