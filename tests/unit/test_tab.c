/*
 * test_tab.c — tables (vm/tab.c) against Lua 5.4's semantics and tab.h's
 * invariants.
 *
 * Every case opens a state in the port's arena (port_heap) and closes it,
 * checking that every byte comes back.  Sizes follow from the arena's
 * size, capped by TEST_TAB_INTKEYS and TEST_TAB_STRKEYS, so the suite
 * runs on a 16 KiB board too.  Tables under test are anchored on the main
 * thread's stack so the collector (which may run inside any allocation)
 * keeps them.
 */
#include "gc/gc.h"
#include "tests/unit/check.h"
#include "vm/str.h"
#include "vm/tab.h"
#include "vm/tabint.h"

#include <string.h>

/* Integer keys of the growth case (the brief: 100k on the host, 2k on the
 * boards); fewer when the arena is small. */
#ifndef TEST_TAB_INTKEYS
#ifdef RTLUA_HOST
#define TEST_TAB_INTKEYS 100000u
#else
#define TEST_TAB_INTKEYS 2000u
#endif
#endif
/* String keys of the growth case. */
#ifndef TEST_TAB_STRKEYS
#define TEST_TAB_STRKEYS 20000u
#endif
/* Keys of the small mixed tables (bounds the `seen` array below). */
#define MIXED_MAX 96u

static lua_State *cur;
static arena_t *cur_arena;
static size_t heap_bytes;
static unsigned char seen[MIXED_MAX];

/* ---- Helpers ------------------------------------------------------------ */

static lua_State *open_state(void)
{
    void *mem;
    if (cur != NULL) /* a failed case left its state open */
        state_close(cur);
    port_heap(&mem, &heap_bytes);
    cur = state_open_in(mem, heap_bytes);
    cur_arena = cur ? G(cur)->arena : NULL;
    return cur;
}

/* Close the state: the arena must be empty again. */
static void close_state(void)
{
    state_close(cur);
    cur = NULL;
    CHECK_EQ(arena_in_use(cur_arena), 0);
    CHECK_EQ(arena_check(cur_arena), ARENA_OK);
}

static uint32_t scaled(uint32_t want, size_t per_key)
{
    size_t fit = heap_bytes / per_key;
    return want < fit ? want : (uint32_t)fit;
}

/* Keep a value reachable: push it on the main thread's stack. */
static void anchor(lua_State *L, const tvalue *v)
{
    set_obj(L->top, v);
    L->top++;
}

static table *new_anchored(lua_State *L, uint32_t na, uint32_t nh)
{
    table *t = tab_new_sized(L, na, nh);
    if (t != NULL) {
        tvalue v;
        set_gc(&v, t, V_TABLE);
        anchor(L, &v);
    }
    return t;
}

static tvalue ival(rt_int i)
{
    tvalue v;
    set_int(&v, i);
    return v;
}

static tvalue fval(rt_num n)
{
    tvalue v;
    set_flt(&v, n);
    return v;
}

static tvalue nilval(void)
{
    tvalue v;
    v.v.i = 0;
    set_nil(&v);
    return v;
}

static tvalue sval(str *s)
{
    tvalue v;
    set_gc(&v, s, s->tt);
    return v;
}

/* Raw equality of two values. */
static int same(const tvalue *a, const tvalue *b)
{
    if (is_nil(a) || is_nil(b))
        return is_nil(a) && is_nil(b);
    if (a->tt != b->tt)
        return 0;
    switch (a->tt) {
    case V_FALSE:
    case V_TRUE:
        return 1;
    case V_INT:
        return a->v.i == b->v.i;
    case V_FLT:
        return a->v.n == b->v.n;
    case V_LIGHTUD:
        return a->v.p == b->v.p;
    case V_LCF:
        return a->v.f == b->v.f;
    case V_LNGSTR:
        return str_eq(gco2str(a->v.gc), gco2str(b->v.gc));
    default:
        return a->v.gc == b->v.gc;
    }
}

/* A string key "<prefix><n>", padded to a long string every 7th key. */
static str *key_string(lua_State *L, const char *prefix, uint32_t n)
{
    char b[80];
    int len = port_snprintf(b, sizeof b, "%s%u", prefix, (unsigned)n);
    if (n % 7 == 3)
        len = port_snprintf(b, sizeof b,
                            "%s%u-padded-beyond-the-short-string-limit-%u",
                            prefix, (unsigned)n, (unsigned)n);
    return str_new(L, b, (size_t)len);
}

static int traversal_count(table *t)
{
    tvalue k = nilval(), v;
    int n = 0, rc;
    while ((rc = tab_next(t, &k, &v)) == 1)
        n++;
    return rc == 0 ? n : -1;
}

/* Every structural invariant of tab.h, plus: each live entry is found by
 * a lookup of its own key at its own slot, and `next` sees `expect`
 * entries (skip with -1).  While entries move, the old parts too (every
 * range of tab_view).  Runs gc_check when `gc` is set. */
static void check_table(lua_State *L, table *t, int expect, int gc)
{
    int live = 0;
    tabview tv;
    tab_view(t, &tv);
    if (!t->moving)
        CHECK(tv.alen[1] == 0 && tv.alen[2] == 0 && tv.nlen[1] == 0);
    for (int r = 0; r < TAB_VIEW_ARRAYS; r++)
        for (uint32_t i = 0; i < tv.alen[r]; i++) {
            if (is_nil(&tv.arr[r][i]))
                continue;
            live++;
            CHECK(tab_getint(t, (rt_int)(tv.afirst[r] + i) + 1) ==
                  &tv.arr[r][i]);
        }
    uint32_t ns = tab_sizenode(t);
    if (ns == 0) {
        CHECK(t->lastfree == NULL);
        CHECK(t->lsizenode == 0);
    } else {
        CHECK(ns == 1u << t->lsizenode);
        CHECK(t->lastfree >= t->node && t->lastfree <= t->node + ns);
    }
    CHECK_EQ(tv.nlen[0], ns);
    for (int r = 0; r < TAB_VIEW_NODES; r++) {
        uint32_t size = tv.nlen[r];
        CHECK((size & (size - 1)) == 0);
        for (uint32_t i = 0; i < size; i++) {
            const node *n = &tv.nodes[r][i];
            int64_t to = (int64_t)i + node_next(n);
            CHECK(to >= 0 && to < (int64_t)size);
            if (node_keytt(n) == V_NIL) {
                CHECK(node_next(n) == 0);
                CHECK(is_nil(&n->val));
            }
            if (is_nil(&n->val))
                continue;
            tvalue k;
            CHECK(tab_node_key(n, &k) == 1);
            CHECK(k.tt != V_DEADKEY);
            CHECK(!(is_int(&k) && (rt_uint)k.v.i - 1u < t->asize));
            if (is_flt(&k))
                CHECK((rt_num)(rt_int)k.v.n != k.v.n);
            CHECK(tab_get(t, &k) == &n->val);
            live++;
        }
    }
    CHECK_EQ(traversal_count(t), live);
    if (expect >= 0)
        CHECK_EQ(live, expect);
    if (gc) {
        const char *why = "";
        int rc = gc_check(L, &why);
        if (rc != 0)
            port_printf("  gc_check: %s\n", why);
        CHECK_EQ(rc, 0);
    }
}

/* The border property of Lua 5.4's `#`. */
static void check_border(table *t)
{
    rt_uint b = tab_length(t);
    if (b != 0)
        CHECK(!is_nil(tab_getint(t, (rt_int)b)));
    if (b != (rt_uint)RT_INT_MAX)
        CHECK(is_nil(tab_getint(t, (rt_int)(b + 1))));
}

static int dummy_cfunction(struct lua_State *L)
{
    (void)L;
    return 0;
}

/* ---- Keys and values ---------------------------------------------------- */

static void test_every_key_type_stores_and_finds_its_value(void)
{
    lua_State *L = open_state();
    CHECK(L != NULL);
    table *t = new_anchored(L, 0, 0);
    table *other = new_anchored(L, 0, 0);
    CHECK(t != NULL && other != NULL);
    str *shrt = str_newz(L, "short key");
    tvalue sv = sval(shrt);
    anchor(L, &sv);
    str *lng = str_newz(L, "a long string key, longer than the forty bytes "
                           "of a short string");
    tvalue lv = sval(lng);
    anchor(L, &lv);
    CHECK(shrt->tt == V_SHRSTR && lng->tt == V_LNGSTR);

    enum { NK = 13 };
    tvalue keys[NK];
    keys[0] = ival(1);
    keys[1] = ival(-5);
    keys[2] = ival(RT_INT_MAX);
    keys[3] = ival(RT_INT_MIN);
    keys[4] = fval((rt_num)0.5);
    keys[5] = fval((rt_num)-1e30);
    set_bool(&keys[6], 1);
    set_bool(&keys[7], 0);
    set_lightud(&keys[8], &seen[3]);
    set_lcf(&keys[9], dummy_cfunction);
    keys[10] = sv;
    keys[11] = lv;
    set_lightud(&keys[12], &seen[5]);
    for (int i = 0; i < NK; i++) {
        tvalue v = ival(100 + i);
        CHECK_EQ(tab_set(L, t, &keys[i], &v), TAB_OK);
    }
    tvalue tk;
    set_gc(&tk, other, V_TABLE);
    tvalue tv = ival(99);
    CHECK_EQ(tab_set(L, t, &tk, &tv), TAB_OK);
    for (int i = 0; i < NK; i++) {
        tvalue v = ival(100 + i);
        CHECK(same(tab_get(t, &keys[i]), &v));
    }
    CHECK(same(tab_get(t, &tk), &tv));
    /* Many keys of one kind share chains: each still finds its own. */
    for (uint32_t i = 0; i < 32; i++) {
        tvalue k, v = ival((rt_int)i);
        set_lightud(&k, &seen[16 + i]);
        CHECK_EQ(tab_set(L, t, &k, &v), TAB_OK);
    }
    for (uint32_t i = 0; i < 32; i++) {
        tvalue k;
        set_lightud(&k, &seen[16 + i]);
        CHECK_EQ(tab_get(t, &k)->v.i, (rt_int)i);
    }
    CHECK_EQ(tab_getint(t, RT_INT_MAX)->v.i, 102);
    CHECK_EQ(tab_getshortstr(t, shrt)->v.i, 110);
    CHECK_EQ(tab_getstr(t, shrt)->v.i, 110);
    CHECK_EQ(tab_getstr(t, lng)->v.i, 111);
    /* An equal long string, another object: raw equality by contents. */
    str *lng2 = str_newz(L, "a long string key, longer than the forty "
                            "bytes of a short string");
    CHECK(lng2 != lng);
    CHECK_EQ(tab_getstr(t, lng2)->v.i, 111);
    /* Keys that are not there. */
    tvalue miss[5];
    miss[0] = ival(2);
    miss[1] = fval((rt_num)0.25);
    set_lightud(&miss[2], &seen[4]);
    miss[3] = nilval();
    set_gc(&miss[4], t, V_TABLE);
    for (int i = 0; i < 5; i++)
        CHECK(is_nil(tab_get(t, &miss[i])));
    CHECK(is_nil(tab_getstr(t, str_newz(L, "short kez"))));
    CALL(check_table(L, t, NK + 1 + 32, 1));
    L->top = L->stack;
    CALL(close_state());
}

static void test_integer_valued_float_keys_are_integer_keys(void)
{
    lua_State *L = open_state();
    CHECK(L != NULL);
    table *t = new_anchored(L, 0, 0);
    CHECK(t != NULL);
    tvalue one_f = fval((rt_num)1.0), a = ival(7), b = ival(8);
    CHECK_EQ(tab_set(L, t, &one_f, &a), TAB_OK);
    CHECK(same(tab_getint(t, 1), &a));
    tvalue one_i = ival(1);
    CHECK_EQ(tab_set(L, t, &one_i, &b), TAB_OK);
    CHECK(same(tab_get(t, &one_f), &b));
    /* -0.0 is the integer 0. */
    tvalue mz = fval((rt_num)-0.0), z = ival(0);
    CHECK_EQ(tab_set(L, t, &mz, &a), TAB_OK);
    CHECK(same(tab_get(t, &z), &a));
    /* A big exact float: 2^53 is an integer in the 64-bit model; in the
     * 32-bit one it is out of range and stays a float, while 2^24 is an
     * integer. */
    rt_num big = (rt_num)9007199254740992.0;
    tvalue bigf = fval(big), c = ival(9);
    CHECK_EQ(tab_set(L, t, &bigf, &c), TAB_OK);
    CHECK(same(tab_get(t, &bigf), &c));
#if RTLUA_NUM == 64
    CHECK(same(tab_getint(t, (rt_int)1 << 53), &c));
    tvalue bigi = ival((rt_int)1 << 53), d = ival(10);
    CHECK_EQ(tab_set(L, t, &bigi, &d), TAB_OK);
    CHECK(same(tab_get(t, &bigf), &d));
#else
    tvalue e24 = fval((rt_num)16777216.0), d = ival(10);
    CHECK_EQ(tab_set(L, t, &e24, &d), TAB_OK);
    CHECK(same(tab_getint(t, 16777216), &d));
#endif
    tvalue half = fval((rt_num)2.5);
    CHECK_EQ(tab_set(L, t, &half, &a), TAB_OK);
    CHECK(is_nil(tab_getint(t, 2)));
    /* Integer keys 0, 1 and 2^53 (2^24 on num32, where 2^53 stays a
     * float), and the float 2.5; check_table also checks that every key
     * `next` gives back is in normal form. */
    tvalue k = nilval(), v;
    int ints = 0;
    while (tab_next(t, &k, &v) == 1)
        ints += is_int(&k);
    CHECK_EQ(ints, 3);
    CALL(check_table(L, t, RTLUA_NUM == 64 ? 4 : 5, 1));
    L->top = L->stack;
    CALL(close_state());
}

static void test_nil_and_nan_keys_are_rejected_leaving_all_unchanged(void)
{
    lua_State *L = open_state();
    CHECK(L != NULL);
    table *t = new_anchored(L, 0, 0);
    CHECK(t != NULL);
    for (rt_int i = 1; i <= 5; i++) {
        tvalue v = ival(i * 10), k = ival(i * 1000);
        CHECK_EQ(tab_set(L, t, &k, &v), TAB_OK);
    }
    size_t mem = tab_memsize(t), used = arena_in_use(cur_arena);
    rt_num zero = (rt_num)0;
    tvalue nan = fval(zero / zero), nil = nilval(), v = ival(1);
    CHECK(nan.v.n != nan.v.n);
    CHECK_EQ(tab_set(L, t, &nil, &v), TAB_ERR_NILKEY);
    CHECK_EQ(tab_set(L, t, &nan, &v), TAB_ERR_NANKEY);
    CHECK_EQ(tab_set(L, t, &nil, &nil), TAB_ERR_NILKEY);
    CHECK_EQ(tab_set(L, t, &nan, &nil), TAB_ERR_NANKEY);
    CHECK(is_nil(tab_get(t, &nil)));
    CHECK(is_nil(tab_get(t, &nan)));
    CHECK_EQ(tab_memsize(t), mem);
    CHECK_EQ(arena_in_use(cur_arena), used);
    CALL(check_table(L, t, 5, 1));
    L->top = L->stack;
    CALL(close_state());
}

static void test_overwrite_and_removal(void)
{
    lua_State *L = open_state();
    CHECK(L != NULL);
    table *t = new_anchored(L, 0, 0);
    CHECK(t != NULL);
    str *s = str_newz(L, "field");
    tvalue sk = sval(s), nil = nilval();
    anchor(L, &sk);
    for (rt_int i = 1; i <= 20; i++) {
        tvalue v = ival(i), k = ival(i * 3);
        CHECK_EQ(tab_set(L, t, &k, &v), TAB_OK);
        CHECK_EQ(tab_setint(L, t, i, &v), TAB_OK);
    }
    tvalue one = ival(1), two = ival(2);
    CHECK_EQ(tab_setstr(L, t, s, &one), TAB_OK);
    CHECK_EQ(tab_setstr(L, t, s, &two), TAB_OK);
    CHECK(same(tab_getstr(t, s), &two));
    tvalue k30 = ival(30), big = ival(-7);
    CHECK_EQ(tab_set(L, t, &k30, &big), TAB_OK);
    CHECK(same(tab_getint(t, 30), &big));
    /* Removal: from the array part, the hash part, and a string key. */
    size_t mem = tab_memsize(t), used = arena_in_use(cur_arena);
    int live = traversal_count(t);
    CHECK_EQ(tab_setint(L, t, 2, &nil), TAB_OK);
    CHECK_EQ(tab_set(L, t, &k30, &nil), TAB_OK);
    CHECK_EQ(tab_set(L, t, &sk, &nil), TAB_OK);
    CHECK(is_nil(tab_getint(t, 2)));
    CHECK(is_nil(tab_getint(t, 30)));
    CHECK(is_nil(tab_getstr(t, s)));
    CHECK_EQ(traversal_count(t), live - 3);
    /* Removing keys that are absent changes nothing and allocates
     * nothing. */
    tvalue absent = ival(123457);
    CHECK_EQ(tab_set(L, t, &absent, &nil), TAB_OK);
    CHECK(is_nil(tab_get(t, &absent)));
    CHECK_EQ(tab_memsize(t), mem);
    CHECK_EQ(arena_in_use(cur_arena), used);
    CHECK_EQ(traversal_count(t), live - 3);
    /* ... and takes no node: a hash part with one free node still holds
     * one more key after many such removals. */
    table *u = new_anchored(L, 0, 8);
    CHECK(u != NULL);
    for (rt_int i = 1; i <= 7; i++)
        CHECK_EQ(tab_setint(L, u, i * 100, &one), TAB_OK);
    size_t umem = tab_memsize(u);
    arena_reset_peak(cur_arena);
    for (rt_int i = 1; i <= 20; i++)
        CHECK_EQ(tab_setint(L, u, i * 100 + 1, &nil), TAB_OK);
    CHECK_EQ(tab_setint(L, u, 800, &one), TAB_OK);
    CHECK_EQ(tab_memsize(u), umem);
    CHECK_EQ(arena_peak(cur_arena), arena_in_use(cur_arena));
    CALL(check_table(L, u, 8, 0));
    /* Removed keys come back. */
    CHECK_EQ(tab_set(L, t, &k30, &one), TAB_OK);
    CHECK_EQ(tab_setstr(L, t, s, &one), TAB_OK);
    CHECK(same(tab_getint(t, 30), &one));
    CHECK(same(tab_getstr(t, s), &one));
    CALL(check_table(L, t, live - 1, 1));
    L->top = L->stack;
    CALL(close_state());
}

/* ---- Length ------------------------------------------------------------- */

static void test_length_of_sequences_and_empty_tables(void)
{
    lua_State *L = open_state();
    CHECK(L != NULL);
    table *t = new_anchored(L, 0, 0);
    CHECK(t != NULL);
    CHECK_EQ(tab_length(t), 0);
    uint32_t n = scaled(1000, 64);
    for (uint32_t i = 1; i <= n; i++) {
        tvalue v = ival((rt_int)i);
        CHECK_EQ(tab_setint(L, t, (rt_int)i, &v), TAB_OK);
        CHECK_EQ(tab_length(t), i); /* a sequence has one border */
    }
    /* Emptied again, key by key from the top. */
    tvalue nil = nilval();
    for (uint32_t i = n; i >= 1; i--) {
        CHECK_EQ(tab_setint(L, t, (rt_int)i, &nil), TAB_OK);
        CHECK_EQ(tab_length(t), i - 1);
    }
    /* A table with only non-integer keys. */
    table *u = new_anchored(L, 0, 4);
    CHECK(u != NULL);
    tvalue k = fval((rt_num)0.5);
    CHECK_EQ(tab_set(L, u, &k, &k), TAB_OK);
    CHECK_EQ(tab_length(u), 0);
    L->top = L->stack;
    CALL(close_state());
}

static uint32_t rng_state;

static uint32_t rng(void)
{
    uint32_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return rng_state = x;
}

static void test_length_is_a_border_with_holes(void)
{
    lua_State *L = open_state();
    CHECK(L != NULL);
    uint32_t n = scaled(512, 128);
    tvalue nil = nilval();
    rng_state = 12345;
    for (int round = 0; round < 40; round++) {
        table *t = new_anchored(L, 0, 0);
        CHECK(t != NULL);
        for (uint32_t i = 1; i <= n; i++) {
            tvalue v = ival((rt_int)i);
            CHECK_EQ(tab_setint(L, t, (rt_int)i, &v), TAB_OK);
        }
        /* Holes at random: few in early rounds, many in late ones. */
        uint32_t holes = 1 + (uint32_t)round * n / 40;
        for (uint32_t h = 0; h < holes; h++) {
            CHECK_EQ(tab_setint(L, t, (rt_int)(1 + rng() % n), &nil), TAB_OK);
            CALL(check_border(t));
        }
        /* Keys above the array part, some adjacent to its end. */
        for (uint32_t i = 0; i < 8; i++) {
            tvalue v = ival(1);
            rt_int k = (rt_int)(n + 1 + rng() % (n + 1));
            CHECK_EQ(tab_setint(L, t, k, &v), TAB_OK);
            CALL(check_border(t));
        }
        L->top--;
    }
    L->top = L->stack;
    CALL(close_state());
}

static void test_length_probes_hash_only_integer_keys(void)
{
    lua_State *L = open_state();
    CHECK(L != NULL);
    uint32_t n = scaled(300, 256);
    /* Presized hash part: the keys 1..n all go to it. */
    table *t = new_anchored(L, 0, n);
    CHECK(t != NULL);
    for (uint32_t i = 1; i <= n; i++) {
        tvalue v = ival((rt_int)i);
        CHECK_EQ(tab_setint(L, t, (rt_int)i, &v), TAB_OK);
    }
    CHECK_EQ(t->asize, 0);
    CHECK_EQ(tab_length(t), n);
    tvalue nil = nilval();
    rng_state = 777;
    for (uint32_t h = 0; h < n / 2; h++) {
        CHECK_EQ(tab_setint(L, t, (rt_int)(1 + rng() % n), &nil), TAB_OK);
        CALL(check_border(t));
    }
    /* The largest integer key: a border by definition. */
    table *u = new_anchored(L, 0, 4);
    CHECK(u != NULL);
    tvalue v = ival(1);
    CHECK_EQ(tab_setint(L, u, 1, &v), TAB_OK);
    CHECK_EQ(tab_setint(L, u, 2, &v), TAB_OK);
    CHECK_EQ(tab_setint(L, u, RT_INT_MAX, &v), TAB_OK);
    CALL(check_border(u));
    CHECK_EQ(tab_length(u), 2);
    CALL(check_table(L, t, -1, 1));
    L->top = L->stack;
    CALL(close_state());
}

/* ---- Traversal ---------------------------------------------------------- */

/* A table of `n` keys of mixed kinds (array ints, sparse ints, floats,
 * strings), key i mapped to the value i. */
static table *mixed_table(lua_State *L, uint32_t n)
{
    table *t = new_anchored(L, 0, 0);
    if (t == NULL)
        return NULL;
    for (uint32_t i = 0; i < n; i++) {
        tvalue k, v = ival((rt_int)i);
        switch (i % 4) {
        case 0:
            k = ival((rt_int)(i / 4 + 1));
            break;
        case 1:
            k = ival((rt_int)i * 1009 + 100000);
            break;
        case 2:
            k = fval((rt_num)i + (rt_num)0.5);
            break;
        default:
            k = sval(key_string(L, "m", i));
            break;
        }
        anchor(L, &k); /* until the table holds it */
        int rc = tab_set(L, t, &k, &v);
        L->top--;
        if (rc != TAB_OK)
            return NULL;
    }
    return t;
}

static void test_next_visits_every_key_exactly_once(void)
{
    lua_State *L = open_state();
    CHECK(L != NULL);
    /* Keys cost about 200 bytes each at their peak (a rehash holds old
     * and new parts): fewer on a 16 KiB board. */
    uint32_t n = scaled(MIXED_MAX, 200);
    table *t = mixed_table(L, n);
    CHECK(t != NULL);
    CHECK(t->asize > 0 && tab_sizenode(t) > 0);
    memset(seen, 0, sizeof seen);
    tvalue k = nilval(), v;
    int rc;
    while ((rc = tab_next(t, &k, &v)) == 1) {
        CHECK(is_int(&v) && v.v.i >= 0 && (uint32_t)v.v.i < n);
        CHECK(!seen[v.v.i]);
        seen[v.v.i] = 1;
        CHECK(same(tab_get(t, &k), &v));
    }
    CHECK_EQ(rc, 0);
    for (uint32_t i = 0; i < n; i++)
        CHECK(seen[i]);
    /* The empty table ends at once. */
    table *e = new_anchored(L, 0, 0);
    CHECK(e != NULL);
    k = nilval();
    CHECK_EQ(tab_next(e, &k, &v), 0);
    L->top = L->stack;
    CALL(close_state());
}

static void test_next_survives_assignment_and_removal_during_traversal(void)
{
    lua_State *L = open_state();
    CHECK(L != NULL);
    uint32_t n = scaled(MIXED_MAX, 200);
    table *t = mixed_table(L, n);
    CHECK(t != NULL);
    size_t mem = tab_memsize(t);
    memset(seen, 0, sizeof seen);
    tvalue k = nilval(), v, prev = nilval(), nil = nilval();
    int rc, removed = 0;
    const rt_int bump = 1000;
    while ((rc = tab_next(t, &k, &v)) == 1) {
        CHECK(is_int(&v));
        rt_int idx = v.v.i % bump;
        CHECK(idx >= 0 && (uint32_t)idx < n);
        CHECK(!seen[idx]);
        seen[idx] = 1;
        if (idx % 3 == 0) { /* remove the current key */
            CHECK_EQ(tab_set(L, t, &k, &nil), TAB_OK);
            removed++;
        } else { /* assign it a new value */
            tvalue nv = ival(idx + bump);
            CHECK_EQ(tab_set(L, t, &k, &nv), TAB_OK);
        }
        /* And remove the key visited before, if it is still there. */
        if (!is_nil(&prev) && !is_nil(tab_get(t, &prev))) {
            CHECK_EQ(tab_set(L, t, &prev, &nil), TAB_OK);
            removed++;
        }
        prev = k;
    }
    CHECK_EQ(rc, 0);
    for (uint32_t i = 0; i < n; i++)
        CHECK(seen[i]);
    CHECK_EQ(tab_memsize(t), mem); /* nothing moved */
    CALL(check_table(L, t, (int)n - removed, 1));
    L->top = L->stack;
    CALL(close_state());
}

/* The key `next` gives after `k`, written to *after (nil at the end). */
static int successor(table *t, const tvalue *k, tvalue *after)
{
    tvalue v;
    *after = *k;
    int rc = tab_next(t, after, &v);
    if (rc == 0)
        *after = nilval();
    return rc;
}

static void test_next_continues_from_a_removed_key(void)
{
    lua_State *L = open_state();
    CHECK(L != NULL);
    tvalue *base = L->top; /* the table is anchored here */
    table *t = mixed_table(L, 40);
    CHECK(t != NULL);
    tvalue nil = nilval(), k = nilval(), v;
    /* Remove every third key and the first string key (the order follows
     * the per-boot string hash), remembering the successors first; keep
     * the removed keys reachable. */
    int checked = 0, strings = 0, i = 0;
    while (tab_next(t, &k, &v) == 1) {
        if (i++ % 3 != 1 && !(is_str(&k) && strings == 0))
            continue;
        tvalue after, after2;
        CHECK(successor(t, &k, &after) >= 0);
        anchor(L, &k);
        CHECK_EQ(tab_set(L, t, &k, &nil), TAB_OK);
        CHECK(successor(t, &k, &after2) >= 0);
        CHECK(same(&after, &after2));
        checked++;
        strings += is_str(&k);
    }
    CHECK(checked > 5 && strings > 0);
    /* A full collection turns the removed string keys into dead keys;
     * next still finds them by identity. */
    gc_fullgc(L);
    int dead = 0;
    for (uint32_t j = 0; j < tab_sizenode(t); j++)
        dead += node_keytt(&t->node[j]) == V_DEADKEY;
    CHECK(dead > 0);
    for (tvalue *s = base + 1; s < L->top; s++) {
        tvalue after;
        CHECK(is_nil(tab_get(t, s)));
        CHECK(successor(t, s, &after) >= 0);
    }
    CALL(check_table(L, t, 40 - checked, 1));
    L->top = L->stack;
    CALL(close_state());
}

static void test_next_with_a_foreign_key_fails(void)
{
    lua_State *L = open_state();
    CHECK(L != NULL);
    table *t = mixed_table(L, 24);
    table *e = new_anchored(L, 0, 0);
    CHECK(t != NULL && e != NULL);
    tvalue keys[4], v;
    keys[0] = ival(987654);
    keys[1] = fval((rt_num)0.125);
    keys[2] = sval(str_newz(L, "not a key"));
    set_bool(&keys[3], 1);
    for (int i = 0; i < 4; i++) {
        tvalue k = keys[i];
        CHECK_EQ(tab_next(t, &k, &v), -1);
        k = keys[i];
        CHECK_EQ(tab_next(e, &k, &v), -1);
    }
    L->top = L->stack;
    CALL(close_state());
}

/* ---- Growth ------------------------------------------------------------- */

static void test_growth_to_many_integer_keys(void)
{
    lua_State *L = open_state();
    CHECK(L != NULL);
    uint32_t n = scaled(TEST_TAB_INTKEYS, 8 * sizeof(node));
    CHECK(n > 0);
    /* Ascending: the array part doubles. */
    table *t = new_anchored(L, 0, 0);
    CHECK(t != NULL);
    for (uint32_t i = 1; i <= n; i++) {
        tvalue v = ival((rt_int)i * 3);
        CHECK_EQ(tab_setint(L, t, (rt_int)i, &v), TAB_OK);
    }
    for (uint32_t i = 1; i <= n; i++)
        CHECK_EQ(tab_getint(t, (rt_int)i)->v.i, (rt_int)i * 3);
    CHECK_EQ(tab_length(t), n);
    CHECK(t->asize >= n && t->asize < 2 * n + 2);
    CALL(check_table(L, t, (int)n, 1));
    L->top--;
    gc_fullgc(L);
    /* In a scattered order (a step coprime to n): keys land in the hash
     * part first and migrate to the array part as it fills. */
    t = new_anchored(L, 0, 0);
    CHECK(t != NULL);
    uint32_t step = 7919; /* prime: coprime to n unless it divides n */
    if (n % step == 0)
        step = 7907;
    for (uint32_t j = 0, i = 0; j < n; j++, i = (i + step) % n) {
        tvalue v = ival((rt_int)i + 1);
        CHECK_EQ(tab_setint(L, t, (rt_int)i + 1, &v), TAB_OK);
    }
    for (uint32_t i = 1; i <= n; i++)
        CHECK_EQ(tab_getint(t, (rt_int)i)->v.i, (rt_int)i);
    CHECK_EQ(tab_length(t), n);
    CALL(check_table(L, t, (int)n, 1));
    L->top = L->stack;
    CALL(close_state());
}

static void test_growth_to_many_string_keys(void)
{
    lua_State *L = open_state();
    CHECK(L != NULL);
    uint32_t n = scaled(TEST_TAB_STRKEYS, 256);
    table *t = new_anchored(L, 0, 0);
    CHECK(t != NULL);
    for (uint32_t i = 0; i < n; i++) {
        str *s = key_string(L, "key", i);
        CHECK(s != NULL);
        tvalue sv = sval(s), v = ival((rt_int)i);
        anchor(L, &sv); /* until the table holds it */
        CHECK_EQ(tab_setstr(L, t, s, &v), TAB_OK);
        L->top--;
    }
    for (uint32_t i = 0; i < n; i++) {
        str *s = key_string(L, "key", i); /* long ones: a new object */
        CHECK(s != NULL);
        CHECK_EQ(tab_getstr(t, s)->v.i, (rt_int)i);
    }
    CHECK(is_nil(tab_getstr(t, key_string(L, "key", n))));
    CHECK_EQ(t->asize, 0);
    CALL(check_table(L, t, (int)n, 1));
    L->top = L->stack;
    CALL(close_state());
}

/* A store of asize + 1 into a full array with no hash part (a list that
 * grows by appending) doubles the array to the power of two that holds
 * it, as counting every key would; a hole in the array leaves the
 * choice to the count (keys 1, 2, 4 and 5 fill no 8 slots more than
 * half: the array stays at 4 and 5 goes to the hash part). */
static void test_append_grows_the_array_as_the_count_does(void)
{
    lua_State *L = open_state();
    CHECK(L != NULL);
    for (uint32_t n = 0; n <= 20; n++) {
        table *t = new_anchored(L, n, 0);
        CHECK(t != NULL);
        for (uint32_t i = 1; i <= n + 1; i++) {
            tvalue v = ival((rt_int)i);
            CHECK_EQ(tab_setint(L, t, (rt_int)i, &v), TAB_OK);
        }
        uint32_t want = 1;
        while (want < n + 1)
            want *= 2;
        CHECK_EQ(t->asize, want);
        CHECK_EQ(tab_sizenode(t), 0);
        CALL(check_table(L, t, (int)n + 1, 1));
        L->top = L->stack;
    }
    table *t = new_anchored(L, 4, 0);
    CHECK(t != NULL);
    for (rt_int i = 1; i <= 5; i++) {
        tvalue v = ival(i);
        if (i != 3)
            CHECK_EQ(tab_setint(L, t, i, &v), TAB_OK);
    }
    CHECK_EQ(t->asize, 4);
    CHECK_EQ(tab_sizenode(t), 1);
    CHECK(is_nil(tab_getint(t, 3)));
    CHECK_EQ(tab_getint(t, 5)->v.i, 5);
    CALL(check_table(L, t, 4, 1));
    L->top = L->stack;
    CALL(close_state());
}

static void test_presized_table_fills_without_allocating(void)
{
    lua_State *L = open_state();
    CHECK(L != NULL);
    uint32_t na = scaled(600, 64), nh = scaled(300, 128);
    table *t = new_anchored(L, na, nh);
    CHECK(t != NULL);
    CHECK_EQ(t->asize, na);
    CHECK(tab_sizenode(t) >= nh);
    gc_fullgc(L);
    size_t used = arena_in_use(cur_arena), mem = tab_memsize(t);
    for (uint32_t i = 1; i <= na; i++) {
        tvalue v = ival((rt_int)i);
        CHECK_EQ(tab_setint(L, t, (rt_int)i, &v), TAB_OK);
    }
    /* Keys that allocate nothing themselves. */
    for (uint32_t i = 0; i < nh; i++) {
        tvalue k, v = ival(-(rt_int)i);
        if (i % 3 == 0)
            k = ival(-(rt_int)i - 1);
        else if (i % 3 == 1)
            k = fval((rt_num)i + (rt_num)0.25);
        else
            set_lightud(&k, (void *)(uintptr_t)(0x1000u + 8u * i));
        CHECK_EQ(tab_set(L, t, &k, &v), TAB_OK);
    }
    CHECK_EQ(arena_in_use(cur_arena), used);
    CHECK_EQ(tab_memsize(t), mem);
    CALL(check_table(L, t, (int)(na + nh), 1));
    L->top = L->stack;
    CALL(close_state());
}

static void test_resize_keeps_every_entry(void)
{
    lua_State *L = open_state();
    CHECK(L != NULL);
    table *t = mixed_table(L, 64);
    CHECK(t != NULL);
    CHECK_EQ(tab_resize(L, t, 64, 0), TAB_OK); /* hash raised to fit */
    CHECK_EQ(t->asize, 64);
    CALL(check_table(L, t, 64, 1));
    CHECK_EQ(tab_resize(L, t, 0, 0), TAB_OK); /* array moves to hash */
    CHECK_EQ(t->asize, 0);
    CALL(check_table(L, t, 64, 1));
    /* 256 nodes where they fit (8 KiB with 16-byte values), else 128, or
     * just the 64 the entries need in microbit's few KiB. */
    uint32_t hn = heap_bytes >= 32768 ? 256 : heap_bytes >= 12288 ? 128 : 64;
    CHECK_EQ(tab_resize(L, t, 4, hn), TAB_OK);
    CHECK_EQ(t->asize, 4);
    CHECK_EQ(tab_sizenode(t), hn);
    CALL(check_table(L, t, 64, 1));
    for (uint32_t i = 1; i <= 16; i++)
        CHECK_EQ(tab_getint(t, (rt_int)i)->v.i, (rt_int)(i - 1) * 4);
    L->top = L->stack;
    CALL(close_state());
}

/* ---- Memory failure ----------------------------------------------------- */

/* Take every free block of the arena with arena_alloc; the blocks are
 * chained through their first word. */
static void *fill_arena(void)
{
    void *head = NULL;
    size_t sz = arena_largest_alloc(cur_arena);
    while (sz >= sizeof(void *)) {
        void *p = arena_alloc(cur_arena, sz);
        if (p == NULL) {
            sz /= 2;
            continue;
        }
        *(void **)p = head;
        head = p;
    }
    return head;
}

static void free_filler(void *head)
{
    while (head != NULL) {
        void *next = *(void **)head;
        arena_free(cur_arena, head);
        head = next;
    }
}

static rt_int sparse_key(uint32_t i)
{
    return (rt_int)i * 7919 + 1000003;
}

static void test_rehash_failure_keeps_the_table_intact(void)
{
    lua_State *L = open_state();
    CHECK(L != NULL);
    table *t = mixed_table(L, 40);
    CHECK(t != NULL);
    void *filler = fill_arena();
    CHECK(filler != NULL);
    uint32_t added = 0;
    int rc = TAB_OK;
    size_t mem = 0;
    while (added < 10000) {
        tvalue k = ival(sparse_key(added)), v = ival((rt_int)added);
        mem = tab_memsize(t);
        rc = tab_set(L, t, &k, &v);
        if (rc != TAB_OK)
            break;
        added++;
    }
    CHECK_EQ(rc, TAB_ERR_MEM);
    CHECK_EQ(tab_memsize(t), mem);
    tvalue failed = ival(sparse_key(added));
    CHECK(is_nil(tab_get(t, &failed)));
    for (uint32_t i = 0; i < added; i++)
        CHECK_EQ(tab_getint(t, sparse_key(i))->v.i, (rt_int)i);
    CALL(check_table(L, t, 40 + (int)added, 0));
    free_filler(filler);
    CHECK_EQ(arena_check(cur_arena), ARENA_OK);
    tvalue fv = ival((rt_int)added);
    CHECK_EQ(tab_set(L, t, &failed, &fv), TAB_OK);
    CHECK_EQ(tab_get(t, &failed)->v.i, (rt_int)added);
    CALL(check_table(L, t, 40 + (int)added + 1, 1));
    L->top = L->stack;
    CALL(close_state());
}

/* The shapes of test_injected_failure_at_each_rehash_allocation: presized
 * parts, keys 1..8 (values 1..8) filling the hash part, and a 9th key
 * that makes the rehash:
 *   0  hash part grows (sparse keys)
 *   1  an array part appears beside a hash part (1..7, one sparse, 9)
 *   2  the array part shrinks and a hash part appears (1..8 in 64 slots)
 *   3  the array part grows in place or moves (1..4 array, sparse hash, 5)
 */
#define SHAPES 4
static const uint8_t shape_asize[SHAPES] = {0, 0, 64, 4};
static const uint8_t shape_hsize[SHAPES] = {8, 8, 0, 4};

static rt_int shape_key(int shape, uint32_t i)
{
    switch (shape) {
    case 0:
        return sparse_key(i);
    case 1:
        return i <= 7 || i == 9 ? (rt_int)i : sparse_key(i);
    case 2:
        return i <= 8 ? (rt_int)i : sparse_key(i);
    default:
        return i == 9 ? 5 : i <= 4 ? (rt_int)i : sparse_key(i);
    }
}

/* Fail each allocation of a rehash in turn (g->failafter): each failure
 * leaves contents, size and bytes in use as they were. */
static void test_injected_failure_at_each_rehash_allocation(void)
{
    lua_State *L = open_state();
    CHECK(L != NULL);
    global_State *g = G(L);
    for (int shape = 0; shape < SHAPES; shape++) {
        for (uint32_t fail = 1;; fail++) {
            table *t = new_anchored(L, shape_asize[shape], shape_hsize[shape]);
            CHECK(t != NULL);
            for (uint32_t i = 1; i <= 8; i++) {
                tvalue v = ival((rt_int)i);
                CHECK_EQ(tab_setint(L, t, shape_key(shape, i), &v), TAB_OK);
            }
            gc_fullgc(L);
            size_t used = arena_in_use(cur_arena), mem = tab_memsize(t);
            tvalue k = ival(shape_key(shape, 9)), v = ival(9);
            g->failafter = fail;
            int rc = tab_set(L, t, &k, &v);
            uint32_t left = g->failafter;
            g->failafter = 0;
            if (rc == TAB_OK) {
                CHECK(left != 0); /* every allocation has been failed */
                CHECK(fail > 1);
                CHECK(tab_memsize(t) != mem);
                CHECK_EQ(tab_get(t, &k)->v.i, 9);
                CALL(check_table(L, t, 9, 1));
                L->top--;
                break;
            }
            CHECK_EQ(rc, TAB_ERR_MEM);
            CHECK_EQ(tab_memsize(t), mem);
            CHECK_EQ(arena_in_use(cur_arena), used);
            CHECK(is_nil(tab_get(t, &k)));
            CALL(check_table(L, t, 8, 1));
            for (uint32_t i = 1; i <= 8; i++)
                CHECK_EQ(tab_getint(t, shape_key(shape, i))->v.i, (rt_int)i);
            L->top--;
            CHECK(fail < 4);
        }
    }
    L->top = L->stack;
    CALL(close_state());
}

/* ---- Incremental growth ------------------------------------------------- */

/* Keys of the incremental-growth cases: past tab_small many times over
 * (several growths of a big table), few enough for checks that look at
 * every key after every store on a board. */
#ifndef TEST_TAB_GROWKEYS
#if defined(TEST_ARENA_BIG) && TEST_ARENA_BIG < 65536
/* A board that runs none of them (growth_fits): no room for the arrays
 * below either (microbit has 16 KiB of RAM). */
#define TEST_TAB_GROWKEYS 16u
#else
#define TEST_TAB_GROWKEYS 1200u
#endif
#endif
/* Entries one store into a big table may move: the array slots of a step,
 * the drained nodes, and an intruder moved by each insertion (tab.h). */
#define BIG_MOVES_MAX (TAB_MOVE_SLOTS + 2u * TAB_MOVE_NODES + 1u)
/* Arena the incremental-growth cases need: a few hundred entries of big
 * tables with collectable values, old and new parts at once.  Boards
 * with less (microbit, lm3s6965evb) run the other cases only. */
#define GROW_HEAP_MIN 98304u

/* Does this arena fit the growth cases?  Says so when it does not. */
static int growth_fits(void)
{
    if (heap_bytes >= GROW_HEAP_MIN)
        return 1;
    port_printf("  (a %u-byte arena is too small for this case)\n",
                (unsigned)heap_bytes);
    return 0;
}

/* Open a state for a growth case; NULL (closed again) when it does not
 * fit. */
static lua_State *open_growth_state(void)
{
    lua_State *L = open_state();
    if (L != NULL && !growth_fits()) {
        close_state();
        return NULL;
    }
    return L;
}

/* Shapes of the growth cases. */
enum {
    GROW_APPEND,  /* t[i] = i: the array part doubles */
    GROW_COPIED,  /* the same, a new object made after each store: the
                     array block cannot grow in place and is copied */
    GROW_HASHINT, /* t[-i]: integer keys that stay in the hash part */
    GROW_STRINGS, /* string keys, long ones among them */
    GROW_MIXED,   /* the four kinds of mixed_table, the array part fed
                     out of order */
    GROW_SHAPES
};

static const tvalue *slot_before[TEST_TAB_GROWKEYS];
static unsigned char grow_seen[TEST_TAB_GROWKEYS];

/* Key i of a shape; string keys are made once and kept in `keys`. */
static tvalue grow_key(lua_State *L, int shape, table *keys, uint32_t i)
{
    switch (shape) {
    case GROW_APPEND:
    case GROW_COPIED:
        return ival((rt_int)i + 1);
    case GROW_HASHINT:
        return ival(-(rt_int)i - 1);
    case GROW_STRINGS: {
        const tvalue *s = tab_getint(keys, (rt_int)i + 1);
        if (!is_nil(s))
            return *s;
        tvalue k = sval(key_string(L, "g", i));
        tab_setint(L, keys, (rt_int)i + 1, &k);
        return k;
    }
    default:
        switch (i % 4) {
        case 0:
            return ival((rt_int)(i / 4) % 2 ? (rt_int)i / 4 + 1
                                            : (rt_int)i / 2 + 1);
        case 1:
            return ival((rt_int)i * 1009 + 100000);
        case 2:
            return fval((rt_num)i + (rt_num)0.5);
        default:
            return grow_key(L, GROW_STRINGS, keys, i);
        }
    }
}

/* *out: a table of `n` keys of `shape`, value i for key i, grown by
 * tab_set; its key strings kept in a second anchored table.  *moved_max
 * gets the most entries one store moved (their value's slot changed),
 * checked against the bounds of tab.h at every store, as are every
 * lookup, `#` and a traversal; *saw_moving whether entries were ever
 * moving. */
static void grow_checked(lua_State *L, int shape, uint32_t n, table **out,
                         uint32_t *moved_max, int *saw_moving)
{
    table *keys = new_anchored(L, n, 0);
    table *t = new_anchored(L, 0, 0);
    *out = t;
    CHECK(keys != NULL && t != NULL);
    *moved_max = 0;
    *saw_moving = 0;
    for (uint32_t i = 0; i < n; i++) {
        tvalue k = grow_key(L, shape, keys, i), v = ival((rt_int)i);
        for (uint32_t j = 0; j < i; j++) {
            tvalue kj = grow_key(L, shape, keys, j);
            slot_before[j] = tab_get(t, &kj);
        }
        int big = t->mig != NULL;
        CHECK_EQ(tab_set(L, t, &k, &v), TAB_OK);
        if (shape == GROW_COPIED) {
            tvalue filler = sval(key_string(L, "filler", i));
            tab_setint(L, keys, (rt_int)i + 1, &filler);
        }
        uint32_t moved = 0;
        for (uint32_t j = 0; j <= i; j++) {
            tvalue kj = grow_key(L, shape, keys, j);
            const tvalue *s = tab_get(t, &kj);
            CHECK(is_int(s) && s->v.i == (rt_int)j);
            if (check_failed_now)
                return;
            moved += j < i && s != slot_before[j];
        }
        if (moved > *moved_max)
            *moved_max = moved;
        /* A small table rehashes at once: at most TAB_SYNC_MAX entries;
         * a big one moves a bounded share. */
        CHECK(moved <= (big ? BIG_MOVES_MAX : TAB_SYNC_MAX));
        *saw_moving |= t->moving;
        check_border(t);
        CHECK_EQ(traversal_count(t), (int)i + 1);
        if (check_failed_now)
            return;
    }
}

static void test_a_store_moves_a_bounded_number_of_entries(void)
{
    lua_State *L = open_growth_state();
    if (L == NULL)
        return;
    uint32_t n = scaled(TEST_TAB_GROWKEYS, 400);
    int all_big = 1, all_moved = 1;
    for (int shape = 0; shape < GROW_SHAPES; shape++) {
        uint32_t moved_max = 0;
        int saw_moving = 0;
        table *t = NULL;
        CALL(grow_checked(L, shape, n, &t, &moved_max, &saw_moving));
        all_big &= t->mig != NULL;
        if (shape == GROW_COPIED || shape == GROW_HASHINT ||
            shape == GROW_STRINGS)
            all_moved &= saw_moving && moved_max > 0;
        CALL(check_table(L, t, (int)n, 1));
        L->top = L->stack;
        gc_fullgc(L);
    }
    /* The shapes did grow incrementally. */
    CHECK(all_big && all_moved);
    CALL(close_state());
}

/* Is an old node part draining (tab_view's last range)? */
static int draining(const table *t)
{
    tabview tv;
    tab_view(t, &tv);
    return tv.nlen[1] > 0;
}

/* Store new keys into a big table until an old node part drains (it
 * holds some of the entries); returns the keys stored, 0 if it never got
 * there within `max`. */
static uint32_t grow_until_moving(lua_State *L, table *t, table *keys,
                                  uint32_t from, uint32_t max)
{
    for (uint32_t i = from; i < max; i++) {
        tvalue k = grow_key(L, GROW_MIXED, keys, i), v = ival((rt_int)i);
        if (tab_set(L, t, &k, &v) != TAB_OK)
            return 0;
        if (draining(t) && i > 64)
            return i + 1;
    }
    return 0;
}

static void test_traversal_while_entries_move_sees_every_key_once(void)
{
    lua_State *L = open_growth_state();
    if (L == NULL)
        return;
    uint32_t max = scaled(TEST_TAB_GROWKEYS, 400);
    table *keys = new_anchored(L, max, 0);
    table *t = new_anchored(L, 0, 0);
    CHECK(keys != NULL && t != NULL);
    uint32_t n = grow_until_moving(L, t, keys, 0, max);
    CHECK(n > 0);
    tabview tv;
    tab_view(t, &tv);
    uint32_t inold = 0; /* entries still in the old node part */
    for (uint32_t i = 0; i < tv.nlen[1]; i++)
        inold += !is_nil(&tv.nodes[1][i].val);
    CHECK(inold > 0);
    size_t mem = tab_memsize(t);
    memset(grow_seen, 0, sizeof grow_seen);
    tvalue k = nilval(), v, nil = nilval();
    int rc, removed = 0;
    const rt_int bump = 100000;
    uint32_t steps = 0;
    while ((rc = tab_next(t, &k, &v)) == 1) {
        CHECK(is_int(&v));
        rt_int idx = v.v.i % bump;
        CHECK(idx >= 0 && (uint32_t)idx < n);
        CHECK(!grow_seen[idx]);
        grow_seen[idx] = 1;
        if (idx % 5 == 0) {
            CHECK_EQ(tab_set(L, t, &k, &nil), TAB_OK);
            removed++;
        } else {
            tvalue nv = ival(idx + bump);
            CHECK_EQ(tab_set(L, t, &k, &nv), TAB_OK);
        }
        /* The collector may run between two calls of next. */
        if (++steps % 16 == 0)
            gc_step(L, 2000);
        if (check_failed_now)
            break;
    }
    CHECK_EQ(rc, 0);
    for (uint32_t i = 0; i < n; i++)
        CHECK(grow_seen[i]);
    CHECK_EQ(tab_memsize(t), mem); /* nothing moved */
    CHECK(t->moving);
    CALL(check_table(L, t, (int)n - removed, 1));
    /* A resize is a hint while entries move: nothing changes. */
    CHECK_EQ(tab_resize(L, t, 4 * (t->asize + 1), 0), TAB_OK);
    CHECK_EQ(tab_memsize(t), mem);
    CHECK(t->moving);
    CALL(check_table(L, t, (int)n - removed, 1));
    /* Storing new keys again finishes the growth. */
    for (uint32_t i = 0; i < 4 * max && t->moving; i++) {
        tvalue nk = ival(sparse_key(i)), nv = ival((rt_int)i);
        CHECK_EQ(tab_set(L, t, &nk, &nv), TAB_OK);
        n++;
    }
    CHECK(!t->moving);
    CALL(check_table(L, t, (int)n - removed, 1));
    L->top = L->stack;
    CALL(close_state());
}

/* Every value of t (keys 0..n-1 of shape) is a live table holding its
 * index at [1], and the heap is consistent. */
static void check_values(lua_State *L, table *t, int shape, table *keys,
                         uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        tvalue k = grow_key(L, shape, keys, i);
        const tvalue *s = tab_get(t, &k);
        CHECK(is_table(s));
        if (check_failed_now)
            return;
        CHECK_EQ(tab_getint(gco2tab(gc_of(s)), 1)->v.i, (rt_int)i);
    }
    const char *why = "";
    int rc = gc_check(L, &why);
    if (rc != 0)
        port_printf("  gc_check: %s\n", why);
    CHECK_EQ(rc, 0);
}

static void test_the_collector_keeps_every_value_while_entries_move(void)
{
    lua_State *L = open_growth_state();
    if (L == NULL)
        return;
    uint32_t n = scaled(TEST_TAB_GROWKEYS, 600);
    static const int shapes[] = {GROW_MIXED, GROW_COPIED, GROW_STRINGS};
    for (int sh = 0; sh < 3; sh++) {
        int shape = shapes[sh];
        table *keys = new_anchored(L, n, 0);
        table *t = new_anchored(L, 0, 0);
        CHECK(keys != NULL && t != NULL);
        int saw = 0, full = 0;
        for (uint32_t i = 0; i < n; i++) {
            /* Each value is a new table, held by t alone. */
            table *val = tab_new(L);
            CHECK(val != NULL);
            tvalue tv, one = ival((rt_int)i);
            set_gc(&tv, val, V_TABLE);
            anchor(L, &tv);
            CHECK_EQ(tab_setint(L, val, 1, &one), TAB_OK);
            tvalue k = grow_key(L, shape, keys, i);
            CHECK_EQ(tab_set(L, t, &k, &tv), TAB_OK);
            L->top--;
            if (shape == GROW_COPIED) { /* blocks the array's growth */
                tvalue filler = sval(key_string(L, "filler", i));
                tab_setint(L, keys, (rt_int)i + 1, &filler);
            }
            /* Chunked traversals meet the moving parts... */
            gc_step(L, 3000);
            saw |= t->moving;
            /* ...and whole cycles run while entries sit in old parts. */
            if (t->moving && i > 100 && full < 3) {
                gc_fullgc(L);
                full++;
                CALL(check_values(L, t, shape, keys, i + 1));
            }
            if (i % 16 == 0)
                CALL(check_values(L, t, shape, keys, i + 1));
        }
        CHECK(saw && full > 0);
        gc_fullgc(L);
        CALL(check_values(L, t, shape, keys, n));
        CALL(check_table(L, t, (int)n, 1));
        L->top = L->stack;
        gc_fullgc(L);
    }
    CALL(close_state());
}

/* A copied slot moves back by the tail's length in tab_view's order: with
 * the collector's chunked scan of the table resumed inside the tail, the
 * next copy moves unscanned values behind it.  The barrier must keep
 * them (white-box: the scan position is g->travpos, slot 0 being the
 * metatable). */
static void test_a_value_copied_behind_the_scan_is_kept(void)
{
    lua_State *L = open_growth_state();
    if (L == NULL)
        return;
    global_State *g = G(L);
    uint32_t n = scaled(1024, 180);
    table *keys = new_anchored(L, 2 * n + 64, 0);
    table *t = new_anchored(L, 0, 0);
    CHECK(keys != NULL && t != NULL);
    tabview tv;
    uint32_t i = 0;
    /* Append fresh tables until the array block is copied, and on until
     * the tail holds a few slots. */
    for (;; i++) {
        CHECK(i < 2 * n);
        table *val = tab_new(L);
        CHECK(val != NULL);
        tvalue v, one = ival((rt_int)i);
        set_gc(&v, val, V_TABLE);
        anchor(L, &v);
        CHECK_EQ(tab_setint(L, val, 1, &one), TAB_OK);
        CHECK_EQ(tab_setint(L, t, (rt_int)i + 1, &v), TAB_OK);
        L->top--;
        tvalue filler = sval(key_string(L, "filler", i));
        tab_setint(L, keys, (rt_int)i + 1, &filler);
        tab_view(t, &tv);
        if (tv.alen[2] > TAB_MOVE_SLOTS && tv.alen[1] >= 12)
            break;
    }
    /* A new cycle, stepped one unit at a time until the scan of t stops
     * inside the tail. */
    gc_fullgc(L);
    g->gcestimate = 0; /* a cycle is due */
    int inside = 0;
    for (uint32_t units = 0; units < 1000000 && !inside; units++) {
        gc_step(L, 1);
        inside = g->trav == obj2gc(t) && g->travpos - 1 > tv.alen[0] &&
                 g->travpos - 1 < tv.alen[0] + tv.alen[1];
    }
    CHECK(inside);
    /* One more append copies TAB_MOVE_SLOTS slots past the scan. */
    i++;
    tvalue v = ival(-1);
    CHECK_EQ(tab_setint(L, t, (rt_int)i + 1, &v), TAB_OK);
    gc_fullgc(L);
    for (uint32_t j = 0; j < i; j++) {
        const tvalue *s = tab_getint(t, (rt_int)j + 1);
        CHECK(is_table(s));
        CHECK_EQ(tab_getint(gco2tab(gc_of(s)), 1)->v.i, (rt_int)j);
    }
    CALL(check_table(L, t, (int)i + 1, 1));
    L->top = L->stack;
    CALL(close_state());
}

static void test_weak_values_are_cleared_in_every_part(void)
{
    lua_State *L = open_growth_state();
    if (L == NULL)
        return;
    uint32_t max = scaled(TEST_TAB_GROWKEYS, 600);
    table *keys = new_anchored(L, max, 0);
    table *t = new_anchored(L, 0, 0);
    table *mt = new_anchored(L, 0, 1);
    table *kept = new_anchored(L, max, 0);
    CHECK(keys != NULL && t != NULL && mt != NULL && kept != NULL);
    tvalue mode = sval(str_newz(L, "v"));
    CHECK_EQ(tab_setstr(L, mt, str_newz(L, "__mode"), &mode), TAB_OK);
    tab_setmetatable(L, t, mt);
    uint32_t n = 0, live = 0;
    while (n < max && !(draining(t) && n > 64)) {
        table *val = tab_new(L);
        CHECK(val != NULL);
        tvalue tv;
        set_gc(&tv, val, V_TABLE);
        anchor(L, &tv);
        if (n % 3 == 0) { /* every third value stays reachable */
            CHECK_EQ(tab_setint(L, kept, (rt_int)n + 1, &tv), TAB_OK);
            live++;
        }
        tvalue k = grow_key(L, GROW_MIXED, keys, n);
        CHECK_EQ(tab_set(L, t, &k, &tv), TAB_OK);
        L->top--;
        n++;
    }
    CHECK(t->moving && n < max);
    CHECK(tab_new(L) != NULL); /* the newest object lives a cycle more */
    gc_fullgc(L);              /* nothing moves: no new key is stored */
    CHECK(t->moving);
    CHECK_EQ(traversal_count(t), (int)live);
    for (uint32_t i = 0; i < n; i++) {
        tvalue k = grow_key(L, GROW_MIXED, keys, i);
        CHECK_EQ(is_nil(tab_get(t, &k)), i % 3 != 0);
    }
    CALL(check_table(L, t, (int)live, 1));
    L->top = L->stack;
    CALL(close_state());
}

static void test_old_parts_are_freed_when_growth_ends(void)
{
    lua_State *L = open_growth_state();
    if (L == NULL)
        return;
    uint32_t n = scaled(TEST_TAB_GROWKEYS, 400);
    table *keys = new_anchored(L, n, 0);
    table *t = new_anchored(L, 0, 0);
    CHECK(keys != NULL && t != NULL);
    int ends = 0, was = 0;
    for (uint32_t i = 0; i < n; i++) {
        tvalue k = grow_key(L, GROW_MIXED, keys, i), v = ival((rt_int)i);
        CHECK_EQ(tab_set(L, t, &k, &v), TAB_OK);
        const void *b[TAB_MAX_BLOCKS];
        int nb = tab_blocks(t, b);
        /* A growth just ended: the array, the nodes and the growth
         * record are all the table keeps (the old parts are gone). */
        if (was && !t->moving) {
            CHECK_EQ(nb, (t->asize > 0) + (tab_sizenode(t) > 0) + 1);
            ends++;
        }
        was = t->moving;
    }
    CHECK(ends >= 2);
    L->top = L->stack;
    CALL(close_state());
}

/* A table used as a queue: new keys at one end, removals at the other,
 * a few hundred live.  Removed keys keep their nodes until a rehash, so
 * without the census each growth would double the hash part again; the
 * part stays within a bounded multiple of what the live entries need. */
static void test_a_queue_of_keys_keeps_its_hash_part_small(void)
{
    lua_State *L = open_growth_state();
    if (L == NULL)
        return;
    table *t = new_anchored(L, 0, 0);
    CHECK(t != NULL);
    const uint32_t live = 300, total = 200000;
    uint32_t biggest = 0;
    tvalue nil = nilval();
    for (uint32_t i = 0; i < total; i++) {
        tvalue k = ival(sparse_key(i)), v = ival((rt_int)i);
        CHECK_EQ(tab_set(L, t, &k, &v), TAB_OK);
        if (i >= live) {
            tvalue old = ival(sparse_key(i - live));
            CHECK_EQ(tab_set(L, t, &old, &nil), TAB_OK);
        }
        tabview tv;
        tab_view(t, &tv);
        uint32_t nodes = tv.nlen[0] + tv.nlen[1];
        if (nodes > biggest)
            biggest = nodes;
    }
    for (uint32_t i = total - live; i < total; i++)
        CHECK_EQ(tab_getint(t, sparse_key(i))->v.i, (rt_int)i);
    /* 300 live keys need 512 nodes; a drain of the part can add an
     * eighth of it; the old part coexists while it drains. */
    CHECK(biggest <= 8 * 512);
    CALL(check_table(L, t, (int)live, 1));
    L->top = L->stack;
    CALL(close_state());
}

/* Fail each allocation in turn while a big table grows by many new keys:
 * each store succeeds or fails whole, and nothing else is lost. */
static void test_injected_failure_while_growing_loses_nothing(void)
{
    lua_State *L = open_growth_state();
    if (L == NULL)
        return;
    global_State *g = G(L);
    uint32_t n = scaled(600, 800), base = n / 3;
    for (uint32_t fail = 1; fail <= 48; fail++) {
        table *keys = new_anchored(L, n, 0);
        table *t = new_anchored(L, 0, 0);
        CHECK(keys != NULL && t != NULL);
        for (uint32_t i = 0; i < n; i++) /* strings made before */
            (void)grow_key(L, GROW_MIXED, keys, i);
        for (uint32_t i = 0; i < base; i++) {
            tvalue k = grow_key(L, GROW_MIXED, keys, i), v = ival((rt_int)i);
            CHECK_EQ(tab_set(L, t, &k, &v), TAB_OK);
        }
        gc_fullgc(L);
        memset(grow_seen, 0, sizeof grow_seen);
        int stored = (int)base, failed = 0;
        g->failafter = fail;
        for (uint32_t i = base; i < n; i++) {
            tvalue k = grow_key(L, GROW_MIXED, keys, i), v = ival((rt_int)i);
            size_t mem = tab_memsize(t);
            int rc = tab_set(L, t, &k, &v);
            if (rc == TAB_OK) {
                grow_seen[i] = 1;
                stored++;
            } else {
                CHECK_EQ(rc, TAB_ERR_MEM);
                CHECK_EQ(tab_memsize(t), mem);
                failed++;
            }
        }
        g->failafter = 0;
        for (uint32_t i = 0; i < n; i++) {
            tvalue k = grow_key(L, GROW_MIXED, keys, i);
            const tvalue *s = tab_get(t, &k);
            if (i < base || grow_seen[i])
                CHECK(is_int(s) && s->v.i == (rt_int)i);
            else
                CHECK(is_nil(s));
        }
        CHECK(failed <= 1);
        CALL(check_table(L, t, stored, 1));
        L->top = L->stack;
        gc_fullgc(L);
    }
    CALL(close_state());
}

/* No memory for the next hash part: the store that finds no room fails
 * cleanly, and the table grows again once memory is back. */
static void test_full_arena_stops_a_big_table_cleanly(void)
{
    lua_State *L = open_growth_state();
    if (L == NULL)
        return;
    table *t = new_anchored(L, 0, 0);
    CHECK(t != NULL);
    for (uint32_t i = 0; i < 300; i++) {
        tvalue k = ival(sparse_key(i)), v = ival((rt_int)i);
        CHECK_EQ(tab_set(L, t, &k, &v), TAB_OK);
    }
    CHECK(t->mig != NULL);
    void *filler = fill_arena();
    CHECK(filler != NULL);
    uint32_t added = 300;
    int rc = TAB_OK;
    size_t mem = 0;
    while (added < 100000) {
        tvalue k = ival(sparse_key(added)), v = ival((rt_int)added);
        mem = tab_memsize(t);
        rc = tab_set(L, t, &k, &v);
        if (rc != TAB_OK)
            break;
        added++;
    }
    CHECK_EQ(rc, TAB_ERR_MEM);
    CHECK_EQ(tab_memsize(t), mem);
    tvalue failed = ival(sparse_key(added));
    CHECK(is_nil(tab_get(t, &failed)));
    for (uint32_t i = 0; i < added; i++)
        CHECK_EQ(tab_getint(t, sparse_key(i))->v.i, (rt_int)i);
    CALL(check_table(L, t, (int)added, 0));
    free_filler(filler);
    for (uint32_t i = added; i < added + 300; i++) {
        tvalue k = ival(sparse_key(i)), v = ival((rt_int)i);
        CHECK_EQ(tab_set(L, t, &k, &v), TAB_OK);
    }
    CALL(check_table(L, t, (int)added + 300, 1));
    L->top = L->stack;
    CALL(close_state());
}

/* A big table that stops growing just after its next hash part was
 * readied (at 3/4 of its nodes in use) keeps that part, twice its own
 * node part, with nothing in it: an emergency collection frees it.  In a
 * full arena an allocation of the part's size is had only from that
 * block (before, it failed: "not enough memory" in tests/lua/lib_rt.lua
 * on lm3s6965evb's 64-bit model, a 100-key table holding an 8 KiB part
 * of 256 nodes in a 50 KiB arena).  The table grows again after. */
static void test_an_emergency_frees_a_readied_hash_part(void)
{
    lua_State *L = open_growth_state();
    if (L == NULL)
        return;
    table *t = new_anchored(L, 0, 0);
    CHECK(t != NULL);
    uint32_t added = 0;
    while (added < 100000 && (t->mig == NULL || t->mig->prep == NULL)) {
        tvalue k = ival(sparse_key(added)), v = ival((rt_int)added);
        CHECK_EQ(tab_set(L, t, &k, &v), TAB_OK);
        added++;
    }
    CHECK(t->mig != NULL && t->mig->prep != NULL);
    size_t bytes = t->mig->prepsize * sizeof(node);
    gc_fullgc(L); /* (not an emergency: the part stays) */
    CHECK(t->mig->prep != NULL);
    void *filler = fill_arena();
    CHECK(filler != NULL);
    void *p = gc_alloc(L, bytes);
    int dropped = t->mig->prep == NULL;
    if (p != NULL)
        gc_free(G(L), p, bytes);
    free_filler(filler);
    CHECK(p != NULL);
    CHECK(dropped);
    for (uint32_t i = 0; i < added; i++)
        CHECK_EQ(tab_getint(t, sparse_key(i))->v.i, (rt_int)i);
    for (uint32_t i = added; i < 2 * added; i++) {
        tvalue k = ival(sparse_key(i)), v = ival((rt_int)i);
        CHECK_EQ(tab_set(L, t, &k, &v), TAB_OK);
    }
    CALL(check_table(L, t, (int)(2 * added), 1));
    L->top = L->stack;
    CALL(close_state());
}

static void test_closing_the_state_returns_every_byte(void)
{
    lua_State *L = open_state();
    CHECK(L != NULL);
    size_t base = arena_in_use(cur_arena);
    CHECK(mixed_table(L, 64) != NULL);
    table *t = new_anchored(L, 10, 10);
    CHECK(t != NULL);
    CHECK(tab_memsize(t) > tab_objsize(t));
    CHECK(arena_in_use(cur_arena) > base);
    CALL(close_state());
}

static void test_node_key_reads_live_dead_and_pristine_nodes(void)
{
    node n;
    memset(&n, 0, sizeof n);
    tvalue k;
    node_setkeytt(&n, V_NIL);
    CHECK_EQ(tab_node_key(&n, &k), 0);
    CHECK(is_nil(&k));
    node_setkeytt(&n, V_INT);
    n.key_val.i = 42;
    CHECK_EQ(tab_node_key(&n, &k), 1);
    CHECK(is_int(&k) && k.v.i == 42);
    node_setkeytt(&n, V_DEADKEY);
    n.key_val.gc = (gcobj *)&n;
    CHECK_EQ(tab_node_key(&n, &k), 1);
    CHECK(k.tt == V_DEADKEY && k.v.gc == (gcobj *)&n);
}

/* The sweep's O(1) question (gc.c: a dead table with parts counts two
 * objects) agrees with the tables' sizes, small and growing big. */
static void test_hasparts_agrees_with_memsize(void)
{
    lua_State *L = open_state();
    CHECK(L != NULL);
    table *shapes[4] = {new_anchored(L, 0, 0), new_anchored(L, 4, 0),
                        new_anchored(L, 0, 4), new_anchored(L, 0, 0)};
    for (int i = 0; i < 4; i++)
        CHECK(shapes[i] != NULL);
    /* the last one grows big (where the arena holds it) */
    rt_int keys = growth_fits() ? 600 : 40;
    for (rt_int k = 1; k <= keys; k++) {
        tvalue v = ival(k);
        CHECK_EQ(tab_setint(L, shapes[3], k * 7, &v), TAB_OK);
        if (k % 13 == 0)
            for (int i = 0; i < 4; i++)
                CHECK_EQ(tab_hasparts(shapes[i]) != 0,
                         tab_memsize(shapes[i]) > tab_objsize(shapes[i]));
    }
    CHECK(keys < 600 || shapes[3]->mig != NULL);
    for (int i = 0; i < 4; i++)
        CHECK_EQ(tab_hasparts(shapes[i]) != 0,
                 tab_memsize(shapes[i]) > tab_objsize(shapes[i]));
    CHECK(!tab_hasparts(shapes[0]) && tab_hasparts(shapes[1]) &&
          tab_hasparts(shapes[2]));
    close_state();
}

static const struct check_case cases[] = {
    CASE(test_hasparts_agrees_with_memsize),
    CASE(test_every_key_type_stores_and_finds_its_value),
    CASE(test_integer_valued_float_keys_are_integer_keys),
    CASE(test_nil_and_nan_keys_are_rejected_leaving_all_unchanged),
    CASE(test_overwrite_and_removal),
    CASE(test_length_of_sequences_and_empty_tables),
    CASE(test_length_is_a_border_with_holes),
    CASE(test_length_probes_hash_only_integer_keys),
    CASE(test_next_visits_every_key_exactly_once),
    CASE(test_next_survives_assignment_and_removal_during_traversal),
    CASE(test_next_continues_from_a_removed_key),
    CASE(test_next_with_a_foreign_key_fails),
    CASE(test_growth_to_many_integer_keys),
    CASE(test_growth_to_many_string_keys),
    CASE(test_presized_table_fills_without_allocating),
    CASE(test_append_grows_the_array_as_the_count_does),
    CASE(test_resize_keeps_every_entry),
    CASE(test_rehash_failure_keeps_the_table_intact),
    CASE(test_injected_failure_at_each_rehash_allocation),
    CASE(test_a_store_moves_a_bounded_number_of_entries),
    CASE(test_traversal_while_entries_move_sees_every_key_once),
    CASE(test_the_collector_keeps_every_value_while_entries_move),
    CASE(test_a_value_copied_behind_the_scan_is_kept),
    CASE(test_weak_values_are_cleared_in_every_part),
    CASE(test_old_parts_are_freed_when_growth_ends),
    CASE(test_a_queue_of_keys_keeps_its_hash_part_small),
    CASE(test_injected_failure_while_growing_loses_nothing),
    CASE(test_full_arena_stops_a_big_table_cleanly),
    CASE(test_an_emergency_frees_a_readied_hash_part),
    CASE(test_closing_the_state_returns_every_byte),
    CASE(test_node_key_reads_live_dead_and_pristine_nodes),
};

int main(void)
{
    return check_main("tab", cases, CHECK_COUNT(cases));
}
