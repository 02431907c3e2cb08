/*
 * tab.c — tables (see tab.h for the layout, the invariants, the growth
 * and the bounds).
 *
 * The hash part is chained scatter: each key has a main position (its
 * hash masked by the power-of-two size); a colliding key takes a pristine
 * node found by walking `lastfree` downwards and is linked into the chain.
 * When the node at a new key's main position is held by a key that does
 * not belong there, that intruder moves to the free node instead, so a
 * key found at its main position heads a chain of keys of the same main
 * position.  When no pristine node is left, the next new key causes a
 * rehash: every entry is counted, the array part gets the integer keys
 * 1..n for the largest power of two n that would be more than half used,
 * and the rest go to a new hash part of the next power of two; that is
 * how a small table grows.  A big one keeps a growth record (struct
 * tabmig) and grows by bounded steps taken at each new key (tab.h): a
 * hash part readied in the background and switched in, the old one
 * drained; an array block grown in place or copied, its tail made valid
 * in order.
 */
#include "vm/tab.h"
#include "gc/gc.h"
#include "vm/str.h"
#include "vm/strhash.h"

#include <string.h>

/* The hash part of every table without one.  Const: any write is a bug
 * (it faults on the host, and lives in flash on a board). */
static const node dummynode = {
    .val = {.tt = V_EMPTY}, .key_tt = V_NIL, .next = 0};
const tvalue tab_absent = {.tt = V_EMPTY};

#define DUMMY ((node *)&dummynode)
#define is_dummy(t) ((t)->lastfree == NULL)
#define array_bytes(n) ((size_t)(n) * sizeof(tvalue))
#define node_bytes(n) ((size_t)(n) * sizeof(node))

/* What the array part of a big table is doing. */
enum { MIG_IDLE = 0, MIG_GROW = 1, MIG_RECOUNT = 2 };

/* The growth record of a big table (tab.h), kept for its life. */
struct tabmig {
    /* The hash part. */
    node *prep;        /* the next node part being made pristine, or NULL */
    uint32_t prepsize; /* its nodes (a power of two) */
    uint32_t prepdone; /* its nodes [0, prepdone) are pristine */
    node *onode;       /* the old node part while it drains, or NULL */
    uint32_t osize;    /* its nodes */
    uint32_t ncur;     /* old nodes [0, ncur) are drained (empty) */
    uint32_t nkeyed;   /* nodes of t->node that are not pristine */
    uint32_t nints;    /* integer keys ever given a node of t->node */
    uint32_t onints;   /* the same for the old node part */
    uint32_t hlive;    /* census: entries moved into or made in t->node */
    uint16_t nums[TAB_MAXABITS + 1]; /* census: integer keys moved, by
                                        slice (as count_int; saturating:
                                        a census may only underestimate) */
    /* The array part (MIG_GROW: t->array is the new block). */
    tvalue *oarray;  /* the old block while it is copied, or NULL */
    uint32_t acur;   /* old slots [0, acur) are copied */
    uint32_t abase;  /* the first tail slot: the old size */
    uint32_t tc;     /* tail slots [abase, tc) are valid */
    uint32_t nasize; /* slots of the new block */
    uint32_t rcur;   /* MIG_RECOUNT: slots [0, rcur) counted */
    uint32_t alive;  /* census: non-nil slots seen by the copy, the tail or
                        the recount */
    uint8_t olsize;  /* log2 osize */
    uint8_t amode;   /* MIG_* */
    uint8_t sparse;  /* the last census found the array too sparse to grow */
};

_Static_assert(TAB_CLEAR_NODES >= 1 && TAB_MOVE_NODES >= 1 &&
                   TAB_MOVE_SLOTS >= 1,
               "a growth must make progress at every new key");

/* ---- Hashing ------------------------------------------------------------ */

static uint32_t hash_uint(rt_uint u)
{
#if RTLUA_NUM == 64
    return hash_mix32((uint32_t)u ^ (uint32_t)(u >> 32));
#else
    return hash_mix32(u);
#endif
}

static uint32_t hash_flt(rt_num n)
{
#if RTLUA_NUM == 64
    uint64_t bits;
#else
    uint32_t bits;
#endif
    _Static_assert(sizeof bits == sizeof n, "float bits");
    memcpy(&bits, &n, sizeof bits);
    return hash_uint(bits);
}

static uint32_t hash_ptr(uintptr_t p)
{
#if UINTPTR_MAX > 0xFFFFFFFFu
    return hash_mix32((uint32_t)p ^ (uint32_t)(p >> 32));
#else
    return hash_mix32((uint32_t)p);
#endif
}

static uint32_t key_hash(uint8_t tt, const value *v)
{
    uint32_t h;
    switch (tt) {
    case V_SHRSTR:
        h = gco2str(v->gc)->hash;
        break;
    case V_LNGSTR:
        h = str_hash(gco2str(v->gc));
        break;
    case V_INT:
        h = hash_uint((rt_uint)v->i);
        break;
    case V_FLT:
        h = hash_flt(v->n);
        break;
    case V_FALSE:
    case V_TRUE:
        h = hash_mix32(tt);
        break;
    case V_LIGHTUD:
        h = hash_ptr((uintptr_t)v->p);
        break;
    case V_LCF:
        h = hash_ptr((uintptr_t)v->f);
        break;
    default: /* collectable objects, by identity */
        h = hash_ptr((uintptr_t)v->gc);
        break;
    }
    return h;
}

/* The main position of a key in a node part of 2^lsize nodes. */
static node *mainpos_in(node *base, uint8_t lsize, uint8_t tt, const value *v)
{
    return &base[key_hash(tt, v) & ((1u << lsize) - 1u)];
}

#define main_position(t, tt, v) mainpos_in((t)->node, (t)->lsizenode, tt, v)

/* Raw equality of a node's key with a (normalised) key.  A dead key has
 * its own tag and so never matches. */
static inline __attribute__((always_inline)) int
key_equal(const node *n, uint8_t tt, const value *v)
{
    if (n->key_tt != tt)
        return 0;
    switch (tt) {
    case V_FALSE:
    case V_TRUE:
        return 1;
    case V_INT:
        return n->key_val.i == v->i;
    case V_FLT:
        return n->key_val.n == v->n;
    case V_LIGHTUD:
        return n->key_val.p == v->p;
    case V_LCF:
        return n->key_val.f == v->f;
    case V_LNGSTR:
        return n->key_val.gc == v->gc ||
               str_eq(gco2str(n->key_val.gc), gco2str(v->gc));
    default:
        return n->key_val.gc == v->gc;
    }
}

static node *find_in(node *base, uint8_t lsize, uint8_t tt, const value *v)
{
    node *n = mainpos_in(base, lsize, tt, v);
    for (;;) {
        if (key_equal(n, tt, v))
            return n;
        if (n->next == 0)
            return NULL;
        n += n->next;
    }
}

#define find_node(t, tt, v) find_in((t)->node, (t)->lsizenode, tt, v)

/* find_in for an integer key, the common case, without the switches. */
static inline node *find_int(node *base, uint8_t lsize, rt_int key)
{
    node *n = &base[hash_uint((rt_uint)key) & ((1u << lsize) - 1u)];
    for (;;) {
        if (n->key_tt == V_INT && n->key_val.i == key)
            return n;
        if (n->next == 0)
            return NULL;
        n += n->next;
    }
}

/* ---- Keys --------------------------------------------------------------- */

/* A float with an exact integer value in range, as that integer. */
static int flt_to_int(rt_num n, rt_int *out)
{
    /* -(rt_num)RT_INT_MIN is 2^(bits-1), exact in either model. */
    if (!(n >= (rt_num)RT_INT_MIN && n < -(rt_num)RT_INT_MIN))
        return 0; /* out of range, or NaN */
    rt_int i = (rt_int)n;
    if ((rt_num)i != n)
        return 0;
    *out = i;
    return 1;
}

/* Copy a key into *out in normal form, or say why it cannot be one. */
static int normalise_key(const tvalue *key, tvalue *out)
{
    if (is_nil(key))
        return TAB_ERR_NILKEY;
    *out = *key;
    if (is_flt(key)) {
        rt_int i;
        if (flt_to_int(key->v.n, &i))
            set_int(out, i);
        else if (key->v.n != key->v.n)
            return TAB_ERR_NANKEY;
    }
    return TAB_OK;
}

static int in_array(const table *t, rt_int k)
{
    return (rt_uint)k - 1u < (rt_uint)t->asize;
}

int tab_node_key(const node *n, tvalue *out)
{
    out->v = n->key_val;
    out->tt = n->key_tt;
    return n->key_tt != V_NIL;
}

/* ---- Lookups ------------------------------------------------------------
 * raw_*: the table's own parts (a ROM table's flash part only); the
 * public lookups add the overlay of a ROM table (see tab.h). */

#define rom_case(t) __builtin_expect(is_rom(t), 0)
#define moving_case(t) __builtin_expect((t)->moving, 0)

static const tvalue *rom_value(const table *t, const node *n);

/* (t->moving) A key's slot in the old node part, if that node has not
 * drained yet; else NULL.  A drained node keeps its key for the chains
 * that pass through it, but no longer holds the entry. */
static tvalue *old_slot(const table *t, uint8_t tt, const value *v)
{
    const struct tabmig *m = t->mig;
    if (m->onode == NULL)
        return NULL;
    node *n = find_in(m->onode, m->olsize, tt, v);
    return n != NULL && (uint32_t)(n - m->onode) >= m->ncur ? &n->val : NULL;
}

/* (t->moving) The slot of integer key `key` past the valid prefix: in the
 * valid tail, in the old block past the copy cursor, else in the new then
 * the old node part.  The array comes first: a key taken into the tail
 * leaves a removed node behind it. */
static tvalue *moving_int_slot(const table *t, rt_int key)
{
    const struct tabmig *m = t->mig;
    if (m->amode == MIG_GROW) {
        rt_uint i = (rt_uint)key - 1u;
        if (i >= m->abase && i < m->tc)
            return &t->array[i];
        if (m->oarray != NULL && i >= m->acur && i < m->abase)
            return &m->oarray[i];
    }
    node *n = find_int(t->node, t->lsizenode, key);
    if (n != NULL)
        return &n->val;
    if (m->onode == NULL)
        return NULL;
    n = find_int(m->onode, m->olsize, key);
    return n != NULL && (uint32_t)(n - m->onode) >= m->ncur ? &n->val : NULL;
}

static __attribute__((noinline)) const tvalue *moving_getint(const table *t,
                                                             rt_int key)
{
    const tvalue *s = moving_int_slot(t, key);
    return s != NULL ? s : &tab_absent;
}

static __attribute__((noinline)) const tvalue *
moving_get(const table *t, uint8_t tt, const value *v)
{
    const tvalue *s = old_slot(t, tt, v);
    return s != NULL ? s : &tab_absent;
}

const tvalue *tab_movedshortstr_(const table *t, str *key)
{
    value v;
    v.gc = obj2gc(key);
    return moving_get(t, V_SHRSTR, &v);
}

static inline const tvalue *raw_getint(const table *t, rt_int key)
{
    if (in_array(t, key))
        return &t->array[key - 1];
    if (moving_case(t))
        return moving_getint(t, key);
    const node *n = find_int(t->node, t->lsizenode, key);
    return n != NULL ? &n->val : &tab_absent;
}

/* Any key; nil and NaN find nothing. */
static const tvalue *raw_get(const table *t, const tvalue *key)
{
    switch (tt_of(key)) {
    case V_SHRSTR:
        return tab_rawgetshortstr(t, gco2str(key->v.gc));
    case V_INT:
        return raw_getint(t, key->v.i);
    case V_FLT: {
        rt_int i;
        if (flt_to_int(key->v.n, &i))
            return raw_getint(t, i);
        break; /* NaN matches nothing: the search fails by itself */
    }
    default:
        if (is_nil(key))
            return &tab_absent;
        break;
    }
    node *n = find_node(t, tt_of(key), &key->v);
    if (n != NULL)
        return &n->val;
    return moving_case(t) ? moving_get(t, tt_of(key), &key->v) : &tab_absent;
}

/* The ROM cases are out of line, so that a RAM table's lookup is the raw
 * one behind a single test of the header. */
static __attribute__((noinline)) const tvalue *rom_getint(const table *t,
                                                          rt_int key)
{
    const tvalue *v = raw_getint(t, key);
    if (v != &tab_absent)
        return rom_value(t, (const node *)(const void *)v);
    const table *ov = tab_romslot(t)->ov;
    return ov != NULL ? raw_getint(ov, key) : &tab_absent;
}

const tvalue *tab_romgetshortstr(const table *t, str *key)
{
    const tvalue *v = tab_rawgetshortstr(t, key);
    if (v != &tab_absent)
        return rom_value(t, (const node *)(const void *)v);
    const table *ov = tab_romslot(t)->ov;
    return ov != NULL ? tab_rawgetshortstr(ov, key) : &tab_absent;
}

const tvalue *tab_getint(table *t, rt_int key)
{
    if (rom_case(t))
        return rom_getint(t, key);
    return raw_getint(t, key);
}

const tvalue *tab_getstr(table *t, str *key)
{
    if (key->tt == V_SHRSTR)
        return tab_getshortstr(t, key);
    tvalue k;
    set_gc(&k, key, V_LNGSTR);
    return tab_get(t, &k);
}

static __attribute__((noinline)) const tvalue *rom_get(const table *t,
                                                       const tvalue *key)
{
    const tvalue *v = raw_get(t, key);
    if (v != &tab_absent)
        return rom_value(t, (const node *)(const void *)v);
    const table *ov = tab_romslot(t)->ov;
    return ov != NULL ? raw_get(ov, key) : &tab_absent;
}

const tvalue *tab_get(table *t, const tvalue *key)
{
    if (rom_case(t))
        return rom_get(t, key);
    return raw_get(t, key);
}

/* ---- Insertion ---------------------------------------------------------- */

/* A pristine node, or NULL when none is left below lastfree. */
static node *free_node(table *t)
{
    if (is_dummy(t))
        return NULL;
    while (t->lastfree > t->node) {
        t->lastfree--;
        if (t->lastfree->key_tt == V_NIL)
            return t->lastfree;
    }
    return NULL;
}

/* A pristine node of t->node is about to hold a key. */
static void note_keyed(table *t)
{
    if (t->mig != NULL)
        t->mig->nkeyed++;
}

/* An integer key is about to get a node of t->node: the array's tail
 * need not look for integer keys in a part that never had one. */
static void note_int(table *t, const tvalue *key)
{
    if (key->tt == V_INT && t->mig != NULL)
        t->mig->nints++;
}

/* Give a new key (normalised, not present) a node, whose value is empty;
 * NULL when the hash part has no room.  Allocates nothing. */
static node *insert_key(lua_State *L, table *t, const tvalue *key)
{
    if (is_dummy(t))
        return NULL;
    node *mp = main_position(t, key->tt, &key->v);
    if (!is_nil(&mp->val)) {
        node *f = free_node(t);
        if (f == NULL)
            return NULL;
        note_keyed(t);
        note_int(t, key);
        /* mp's value is live, so its key is live (not dead) and hashable. */
        node *home = main_position(t, mp->key_tt, &mp->key_val);
        if (home != mp) {
            /* The intruder moves to f; the new key takes its home. */
            node *prev = home;
            while (prev + prev->next != mp)
                prev += prev->next;
            prev->next = (int32_t)(f - prev);
            *f = *mp;
            if (mp->next != 0) {
                f->next += (int32_t)(mp - f);
                mp->next = 0;
            }
            set_empty(&mp->val);
            /* A move is a store as far as the collector can tell. */
            tvalue k;
            tab_node_key(f, &k);
            gc_barrier(L, t, &k);
            gc_barrier(L, t, &f->val);
        } else {
            /* Same main position: f joins the chain right after mp. */
            if (mp->next != 0)
                f->next = (int32_t)(mp + mp->next - f);
            mp->next = (int32_t)(f - mp);
            mp = f;
        }
    } else {
        if (mp->key_tt == V_NIL)
            note_keyed(t);
        note_int(t, key);
    }
    /* mp is pristine or removed; a removed node keeps its chain link. */
    mp->key_val = key->v;
    mp->key_tt = key->tt;
    set_empty(&mp->val);
    return mp;
}

/* ---- Views of the parts -------------------------------------------------
 * (tab.h: tab_view).  Everything that must see every entry of a table,
 * old parts included, walks these ranges. */

void tab_view(const table *t, tabview *v)
{
    v->arr[0] = t->array;
    v->afirst[0] = 0;
    v->alen[0] = t->asize;
    v->nodes[0] = t->node;
    v->nlen[0] = tab_sizenode(t);
    for (int r = 1; r < TAB_VIEW_ARRAYS; r++) {
        v->arr[r] = NULL;
        v->afirst[r] = v->alen[r] = 0;
    }
    v->nodes[1] = NULL;
    v->nlen[1] = 0;
    if (!t->moving)
        return;
    const struct tabmig *m = t->mig;
    if (m->amode == MIG_GROW && m->oarray != NULL) {
        /* Copying: the prefix is [0, acur); the tail and the rest of the
         * old block lie beyond it. */
        v->arr[1] = t->array + m->abase;
        v->afirst[1] = m->abase;
        v->alen[1] = m->tc - m->abase;
        v->arr[2] = m->oarray + m->acur;
        v->afirst[2] = m->acur;
        v->alen[2] = m->abase - m->acur;
    }
    if (m->onode != NULL) {
        v->nodes[1] = m->onode;
        v->nlen[1] = m->osize;
    }
}

uint32_t tab_view_slots(const tabview *v)
{
    uint32_t n = 0;
    for (int r = 0; r < TAB_VIEW_ARRAYS; r++)
        n += v->alen[r];
    for (int r = 0; r < TAB_VIEW_NODES; r++)
        n += v->nlen[r];
    return n;
}

/* Slots of the array block (MIG_GROW: the new block's full size). */
static uint32_t array_block(const table *t)
{
    const struct tabmig *m = t->mig;
    return m != NULL && m->amode == MIG_GROW ? m->nasize : t->asize;
}

/* Every block the table owns besides its header, with its size. */
static int owned(const table *t, const void **p, size_t *n)
{
    int c = 0;
    const struct tabmig *m = t->mig;
    uint32_t ab = array_block(t);
    if (ab > 0) {
        p[c] = t->array;
        n[c++] = array_bytes(ab);
    }
    if (!is_dummy(t)) {
        p[c] = t->node;
        n[c++] = node_bytes(tab_sizenode(t));
    }
    if (m != NULL) {
        p[c] = m;
        n[c++] = sizeof *m;
        if (m->amode == MIG_GROW && m->oarray != NULL) {
            p[c] = m->oarray;
            n[c++] = array_bytes(m->abase);
        }
        if (m->onode != NULL) {
            p[c] = m->onode;
            n[c++] = node_bytes(m->osize);
        }
        if (m->prep != NULL) {
            p[c] = m->prep;
            n[c++] = node_bytes(m->prepsize);
        }
    }
    return c;
}

int tab_blocks(const table *t, const void **out)
{
    size_t n[TAB_MAX_BLOCKS];
    return owned(t, out, n);
}

/* ---- Resizing at once ---------------------------------------------------
 * The rehash of a small table, and a big table's fallback (tab.h). */

/* ceil(log2(x)) for x >= 1. */
static uint32_t ceil_log2(uint32_t x)
{
    return x <= 1 ? 0 : 32u - (uint32_t)__builtin_clz(x - 1u);
}

/* Count an integer key into the slices of nums[] (slice lg holds keys in
 * (2^(lg-1), 2^lg]); 1 when it is a candidate for the array part. */
static uint32_t count_int(rt_int k, uint32_t *nums)
{
    if (k < 1 || (rt_uint)k > (rt_uint)TAB_MAXASIZE)
        return 0;
    nums[ceil_log2((uint32_t)k)]++;
    return 1;
}

/* Non-nil slots of a fully used array 1..n, by slice (all candidates). */
static uint32_t count_full(uint32_t n, uint32_t *nums)
{
    for (uint32_t lg = 0; lg <= TAB_MAXABITS; lg++) {
        uint32_t first = lg == 0 ? 1u : (1u << (lg - 1)) + 1u;
        uint32_t last = 1u << lg;
        if (first > n)
            break;
        nums[lg] += (last > n ? n : last) - first + 1u;
    }
    return n;
}

/* Non-nil slots of the valid prefix, by slice. */
static uint32_t count_array(const table *t, uint32_t *nums)
{
    uint32_t total = 0;
    for (uint32_t lg = 0; lg <= TAB_MAXABITS; lg++) {
        uint32_t first = lg == 0 ? 1u : (1u << (lg - 1)) + 1u;
        uint32_t last = 1u << lg;
        if (first > t->asize)
            break;
        if (last > t->asize)
            last = t->asize;
        uint32_t c = 0;
        for (uint32_t k = first; k <= last; k++)
            c += !is_nil(&t->array[k - 1]);
        nums[lg] += c;
        total += c;
    }
    return total;
}

/* Every live entry of every part: integer candidates into nums[] (their
 * count returned), all of them into *total. */
static uint32_t count_all(const table *t, uint32_t *nums, uint32_t *total)
{
    uint32_t nint = count_array(t, nums);
    *total = nint;
    if (!t->moving) { /* the common case, without the view */
        uint32_t ns = tab_sizenode(t);
        for (uint32_t i = 0; i < ns; i++) {
            const node *n = &t->node[i];
            if (is_nil(&n->val))
                continue;
            (*total)++;
            if (n->key_tt == V_INT)
                nint += count_int(n->key_val.i, nums);
        }
        return nint;
    }
    tabview v;
    tab_view(t, &v);
    for (int r = 1; r < TAB_VIEW_ARRAYS; r++)
        for (uint32_t i = 0; i < v.alen[r]; i++)
            if (!is_nil(&v.arr[r][i])) {
                (*total)++;
                nint += count_int((rt_int)(v.afirst[r] + i) + 1, nums);
            }
    for (int r = 0; r < TAB_VIEW_NODES; r++)
        for (uint32_t i = 0; i < v.nlen[r]; i++) {
            const node *n = &v.nodes[r][i];
            if (is_nil(&n->val))
                continue;
            (*total)++;
            if (n->key_tt == V_INT)
                nint += count_int(n->key_val.i, nums);
        }
    return nint;
}

/* The largest power of two n such that more than n/2 of the keys 1..n are
 * among the `nint` candidates counted in nums[] (0 if none); *inarray
 * gets how many candidates fall in 1..n. */
static uint32_t best_array_size(const uint32_t *nums, uint32_t nint,
                                uint32_t *inarray)
{
    uint32_t below = 0, best = 0;
    *inarray = 0;
    for (uint32_t lg = 0; lg <= TAB_MAXABITS; lg++) {
        uint32_t size = 1u << lg;
        if (nint <= size / 2)
            break; /* even all of them could not fill half */
        below += nums[lg];
        if (below > size / 2) {
            best = size;
            *inarray = below;
        }
    }
    return best;
}

/* Live entries that do not go to an array part of nasize slots. */
static uint32_t hash_need(const table *t, uint32_t nasize)
{
    uint32_t need = 0;
    if (!t->moving) { /* the common case, without the view */
        for (uint32_t i = nasize; i < t->asize; i++)
            need += !is_nil(&t->array[i]);
        uint32_t ns = tab_sizenode(t);
        for (uint32_t i = 0; i < ns; i++) {
            const node *n = &t->node[i];
            if (!is_nil(&n->val) &&
                !(n->key_tt == V_INT &&
                  (rt_uint)n->key_val.i - 1u < (rt_uint)nasize))
                need++;
        }
        return need;
    }
    tabview v;
    tab_view(t, &v);
    for (int r = 0; r < TAB_VIEW_ARRAYS; r++)
        for (uint32_t i = 0; i < v.alen[r]; i++)
            need += v.afirst[r] + i >= nasize && !is_nil(&v.arr[r][i]);
    for (int r = 0; r < TAB_VIEW_NODES; r++)
        for (uint32_t i = 0; i < v.nlen[r]; i++) {
            const node *n = &v.nodes[r][i];
            if (!is_nil(&n->val) &&
                !(n->key_tt == V_INT &&
                  (rt_uint)n->key_val.i - 1u < (rt_uint)nasize))
                need++;
        }
    return need;
}

static void clear_nodes(node *n, uint32_t count)
{
    for (uint32_t i = 0; i < count; i++) {
        memset(&n[i].key_val, 0, sizeof n[i].key_val);
        n[i].key_tt = V_NIL;
        n[i].next = 0;
        set_empty(&n[i].val);
    }
}

static struct tabmig *new_record(lua_State *L)
{
    struct tabmig *m = gc_alloc(L, sizeof *m);
    if (m != NULL)
        memset(m, 0, sizeof *m);
    return m;
}

/* resize_parts could not use its allocations: the table changed while it
 * allocated (see below); the caller counts again.  Also grow_now's "do
 * it the exact way". */
#define TAB_AGAIN (-1)

/* Rebuild the table with exactly nasize array slots and a hash part of
 * the power of two >= nhash nodes, which must hold every live entry that
 * does not go to the array plus `extra` keys about to be inserted.  Reads
 * every part, old ones too (a big table's fallback), and ends any growth
 * in progress.  Allocates first, then moves entries: nothing can fail
 * once the allocations succeeded.  A table that grows past tab_small gets
 * its growth record here when the memory is there (without one it keeps
 * growing this way). */
static int resize_parts(lua_State *L, table *t, uint32_t nasize,
                        uint32_t nhash, uint32_t extra)
{
    global_State *g = G(L);
    uint32_t lsize = 0, nsize = 0;
    node *nn = DUMMY;
    tvalue *na = NULL;
    struct tabmig *rec = NULL;
    int rc = TAB_ERR_MEM;
    if (nasize > TAB_MAXASIZE)
        return TAB_ERR_MEM;
    if (nhash > 0) {
        lsize = ceil_log2(nhash);
        if (lsize > TAB_MAXHBITS)
            return TAB_ERR_MEM;
        nsize = 1u << lsize;
    }
    if (t->mig == NULL && !tab_small(nasize, nsize))
        rec = new_record(L); /* optional */
    if (nsize > 0 && (nn = gc_alloc(L, node_bytes(nsize))) == NULL) {
        nn = DUMMY;
        goto fail;
    }
    uint32_t oldasize = t->asize;
    int moving = t->moving;
    /* The array block stays when its size does, and grows by realloc
     * (a small table: a copy is cheap); else a new one (a shrink too, for
     * the old one's tail must be read after the new block holds the
     * rest). */
    int keep = !moving && nasize >= oldasize && oldasize > 0;
    if (!keep && nasize > 0 && (na = gc_alloc(L, array_bytes(nasize))) == NULL)
        goto fail;
    /* gc_alloc may have run a collector step, and a step may run a __gc
     * metamethod that writes into this very table.  Count again. */
    if (t->asize != oldasize || t->moving != moving ||
        hash_need(t, nasize) + extra > nsize) {
        rc = TAB_AGAIN;
        goto fail;
    }
    if (keep && nasize > oldasize) {
        /* Last, as gc_realloc frees the old array: its emergency
         * collection (no __gc there) sees the table still whole.  The
         * old slots come along. */
        tvalue *r = gc_realloc(L, t->array, array_bytes(oldasize),
                               array_bytes(nasize));
        if (r == NULL)
            goto fail;
        t->array = r;
    }
    if (keep)
        na = t->array;

    /* From here on nothing allocates. */
    tabview v;
    tab_view(t, &v);
    const void *oldp[TAB_MAX_BLOCKS];
    size_t oldn[TAB_MAX_BLOCKS];
    int nold = owned(t, oldp, oldn);
    if (rec != NULL)
        t->mig = rec;
    struct tabmig *m = t->mig;
    if (m != NULL) {
        m->prep = NULL;
        m->onode = NULL;
        m->oarray = NULL;
        m->amode = MIG_IDLE;
        m->sparse = 0; /* the size is Lua's own choice: dense enough */
        m->nkeyed = m->nints = 0;
    }
    t->moving = 0;
    uint32_t inplace = keep ? oldasize : 0;
    for (uint32_t i = inplace; i < nasize; i++)
        set_empty(&na[i]);
    clear_nodes(nn, nsize);
    t->array = na;
    t->asize = nasize;
    t->node = nn;
    t->lsizenode = (uint8_t)lsize;
    t->lastfree = nsize > 0 ? nn + nsize : NULL;
    for (int r = 0; r < TAB_VIEW_ARRAYS; r++) {
        uint32_t from = r == 0 ? inplace : 0;
        for (uint32_t i = from; i < v.alen[r]; i++) {
            const tvalue *s = &v.arr[r][i];
            if (is_nil(s))
                continue;
            uint32_t idx = v.afirst[r] + i;
            if (idx < nasize) {
                na[idx] = *s;
            } else {
                tvalue k;
                set_int(&k, (rt_int)idx + 1);
                insert_key(L, t, &k)->val = *s;
            }
        }
    }
    for (int r = 0; r < TAB_VIEW_NODES; r++)
        for (uint32_t i = 0; i < v.nlen[r]; i++) {
            node *o = &v.nodes[r][i];
            if (is_nil(&o->val))
                continue;
            tvalue k;
            tab_node_key(o, &k);
            if (is_int(&k) && in_array(t, k.v.i))
                t->array[k.v.i - 1] = o->val;
            else
                insert_key(L, t, &k)->val = o->val;
        }
    for (int i = 0; i < nold; i++)
        if (!(keep && oldp[i] == na) && oldp[i] != m)
            gc_free(g, (void *)oldp[i], oldn[i]);
    gc_resized(g, obj2gc(t));
    return TAB_OK;

fail:
    if (na != NULL && !keep)
        gc_free(g, na, array_bytes(nasize));
    if (nn != DUMMY)
        gc_free(g, nn, node_bytes(nsize));
    if (rec != NULL)
        gc_free(g, rec, sizeof *rec);
    return rc;
}

/* ---- Incremental growth -------------------------------------------------
 * (tab.h).  Starting a growth allocates and may fail (nothing changes
 * then); the steps only move entries and free what they emptied. */

/* Entries lie outside the plain layout while an old node part drains
 * or an old array block is copied.  A block grown in place needs no
 * flag: its valid tail is inside t->asize, and keys past it are in the
 * hash part as usual. */
static void update_moving(table *t)
{
    const struct tabmig *m = t->mig;
    t->moving = (uint8_t)(m->onode != NULL ||
                          (m->amode == MIG_GROW && m->oarray != NULL));
}

/* Allocate the next hash part of `size` nodes, to be made pristine by the
 * steps.  Without `collect`, only when the arena surely has the block:
 * an emergency collection at every new key would be a worse pause. */
static void start_prep(lua_State *L, table *t, uint32_t size, int collect)
{
    global_State *g = G(L);
    struct tabmig *m = t->mig;
    size_t bytes = node_bytes(size);
    if (!collect && arena_largest_alloc(g->arena) < bytes)
        return;
    node *p = gc_alloc(L, bytes);
    if (p == NULL)
        return;
    if (m->prep != NULL || m->onode != NULL) {
        /* a finalizer run inside gc_alloc started one itself */
        gc_free(g, p, bytes);
        return;
    }
    m->prep = p;
    m->prepsize = size;
    m->prepdone = 0;
}

/* The readied part becomes t->node; the old one (if any) drains.  Its
 * entries keep their positions in tab_view's order or move later in it:
 * a chunked scan in progress loses nothing (tab.h). */
static void switch_parts(table *t)
{
    struct tabmig *m = t->mig;
    if (!is_dummy(t)) {
        m->onode = t->node;
        m->osize = tab_sizenode(t);
        m->olsize = t->lsizenode;
        m->ncur = 0;
        m->onints = m->nints;
    }
    t->node = m->prep;
    t->lsizenode = (uint8_t)ceil_log2(m->prepsize);
    t->lastfree = m->prep + m->prepsize;
    m->prep = NULL;
    m->prepsize = m->prepdone = 0;
    m->nkeyed = m->nints = 0;
    m->hlive = 0;
    memset(m->nums, 0, sizeof m->nums);
    update_moving(t);
}

/* Start doubling the array (or growing it to nasize): in place when the
 * block can grow, else into a new block the old one is copied to. */
static void start_array(lua_State *L, table *t, uint32_t nasize)
{
    global_State *g = G(L);
    struct tabmig *m = t->mig;
    uint32_t a = t->asize;
    if (a > 0 && gc_grow(L, t->array, array_bytes(nasize))) {
        m->oarray = NULL;
    } else {
        size_t bytes = array_bytes(nasize);
        if (arena_largest_alloc(g->arena) < bytes)
            return;
        tvalue *nb = gc_alloc(L, bytes);
        if (nb == NULL)
            return;
        if (m->amode != MIG_IDLE || t->asize != a) {
            gc_free(g, nb, bytes); /* changed meanwhile (a finalizer) */
            return;
        }
        m->oarray = a > 0 ? t->array : NULL;
        t->array = nb;
        t->asize = 0; /* nothing copied yet */
    }
    m->amode = MIG_GROW;
    m->abase = m->tc = a;
    m->acur = 0;
    m->nasize = nasize;
    m->alive = 0;
    update_moving(t);
}

static void end_array(table *t)
{
    struct tabmig *m = t->mig;
    m->amode = MIG_IDLE;
    /* Grown for appends, an array holds at least its old size; this one
     * lost most of it meanwhile. */
    m->sparse = m->alive <= m->nasize / 4;
    update_moving(t);
}

/* Take integer key `key` out of the hash parts into *out (left empty when
 * it is in neither).  The node stays, removed. */
static void take_from_hash(table *t, rt_int key, tvalue *out)
{
    struct tabmig *m = t->mig;
    node *n = m->nints > 0 ? find_int(t->node, t->lsizenode, key) : NULL;
    tvalue *s = n != NULL ? &n->val : NULL;
    if (s == NULL && m->onode != NULL && m->onints > 0) {
        node *o = find_int(m->onode, m->olsize, key);
        if (o != NULL && (uint32_t)(o - m->onode) >= m->ncur)
            s = &o->val;
    }
    if (s == NULL || is_nil(s))
        return;
    *out = *s;
    set_empty(s);
    if (n != NULL && m->hlive > 0)
        m->hlive--;
}

/* Make the next tail slot valid. */
static void tail_slot(lua_State *L, table *t)
{
    struct tabmig *m = t->mig;
    tvalue *s = &t->array[m->tc];
    set_empty(s);
    take_from_hash(t, (rt_int)m->tc + 1, s);
    if (!is_nil(s)) {
        m->alive++;
        gc_barrier(L, t, s);
    }
    m->tc++;
    if (m->oarray == NULL)
        t->asize = m->tc;
}

static int array_done(const struct tabmig *m)
{
    return m->acur == m->abase && m->tc == m->nasize;
}

/* Up to `n` slots of array work: the old slots first (copied, or only
 * counted when the block grew in place), then the tail; or the recount. */
static void array_step(lua_State *L, table *t, uint32_t n)
{
    global_State *g = G(L);
    struct tabmig *m = t->mig;
    if (m->amode == MIG_RECOUNT) {
        for (; n > 0 && m->rcur < t->asize; n--)
            m->alive += !is_nil(&t->array[m->rcur++]);
        if (m->rcur >= t->asize) {
            m->amode = MIG_IDLE;
            m->sparse = m->alive <= t->asize / 2;
        }
        return;
    }
    if (m->amode != MIG_GROW)
        return;
    if (m->oarray == NULL && m->acur < m->abase) {
        /* Grown in place: the old slots are only counted. */
        uint32_t i = m->acur, end = m->abase - i < n ? m->abase : i + n;
        uint32_t alive = 0;
        for (; i < end; i++)
            alive += !is_nil(&t->array[i]);
        m->alive += alive;
        n -= end - m->acur;
        m->acur = end;
    }
    for (; n > 0 && m->acur < m->abase; n--) {
        tvalue *s = &t->array[m->acur];
        *s = m->oarray[m->acur];
        if (!is_nil(s)) {
            m->alive++;
            gc_barrier(L, t, s); /* it moved back by the tail's length */
        }
        t->asize = ++m->acur;
        if (m->acur == m->abase) {
            gc_free(g, m->oarray, array_bytes(m->abase));
            m->oarray = NULL;
            t->asize = m->tc;
            update_moving(t);
        }
    }
    if (m->nints == 0 && (m->onode == NULL || m->onints == 0)) {
        /* No hash part ever held an integer key: the tail is only made
         * empty. */
        uint32_t i = m->tc, end = m->nasize - i < n ? m->nasize : i + n;
        for (; i < end; i++)
            set_empty(&t->array[i]);
        m->tc = end;
        if (m->oarray == NULL)
            t->asize = end;
    } else {
        for (; n > 0 && m->tc < m->nasize; n--)
            tail_slot(L, t);
    }
    if (array_done(m))
        end_array(t);
}

/* Move one old node's entry to t->node; 0 when there is no room (never,
 * by the room rule of tab.h: the entry then stays where it is). */
static int drain_node(lua_State *L, table *t, node *o)
{
    struct tabmig *m = t->mig;
    if (is_nil(&o->val))
        return 1;
    tvalue k;
    tab_node_key(o, &k); /* live, so not dead */
    node *n = insert_key(L, t, &k);
    if (n == NULL)
        return 0;
    n->val = o->val;
    set_empty(&o->val);
    gc_barrier(L, t, &k);
    gc_barrier(L, t, &n->val);
    m->hlive++;
    if (k.tt == V_INT && k.v.i >= 1 && (rt_uint)k.v.i <= TAB_MAXASIZE) {
        uint16_t *c = &m->nums[ceil_log2((uint32_t)k.v.i)];
        if (*c < UINT16_MAX)
            (*c)++;
    }
    return 1;
}

/* The drain is over: what the census says.  A part at least twice what
 * its entries and the keys stored during a drain of it need gets a
 * smaller successor (so a part whose entries fill less than about an
 * eighth of it shrinks); a dense run of integer keys the drain met grows
 * the array (which is counted as full). */
static void census(lua_State *L, table *t)
{
    struct tabmig *m = t->mig;
    uint32_t size = tab_sizenode(t);
    uint32_t want =
        1u << ceil_log2(2u * (m->hlive + 1u + size / TAB_MOVE_NODES));
    if (!tab_small(0, size) && want <= size / 2)
        start_prep(L, t, want, 0);
    if (m->amode == MIG_IDLE && !m->sparse) {
        uint32_t nums[TAB_MAXABITS + 1], nint = 0, in;
        for (uint32_t lg = 0; lg <= TAB_MAXABITS; lg++)
            nint += nums[lg] = m->nums[lg];
        nint += count_full(t->asize, nums);
        uint32_t best = best_array_size(nums, nint, &in);
        if (best > t->asize)
            start_array(L, t, best);
    }
}

static void end_drain(lua_State *L, table *t)
{
    struct tabmig *m = t->mig;
    gc_free(G(L), m->onode, node_bytes(m->osize));
    m->onode = NULL;
    m->osize = m->ncur = 0;
    update_moving(t);
    census(L, t);
}

static void hash_step(lua_State *L, table *t)
{
    struct tabmig *m = t->mig;
    if (m->prep != NULL) {
        uint32_t c = m->prepsize - m->prepdone;
        if (c > TAB_CLEAR_NODES)
            c = TAB_CLEAR_NODES;
        clear_nodes(m->prep + m->prepdone, c);
        m->prepdone += c;
        if (m->prepdone == m->prepsize)
            switch_parts(t);
        return;
    }
    if (m->onode == NULL)
        return;
    for (uint32_t i = 0; i < TAB_MOVE_NODES && m->ncur < m->osize; i++) {
        if (!drain_node(L, t, &m->onode[m->ncur]))
            return;
        m->ncur++;
    }
    if (m->ncur == m->osize)
        end_drain(L, t);
}

/* A big table is about to store new key k: start what is due, then take
 * one step of each growth in progress. */
static __attribute__((noinline)) void grow_step(lua_State *L, table *t,
                                                const tvalue *k)
{
    struct tabmig *m = t->mig;
    uint32_t a = t->asize;
    if (m->amode == MIG_IDLE && is_int(k) && a > 0 &&
        (rt_uint)k->v.i == (rt_uint)a + 1u && !is_nil(&t->array[0]) &&
        !is_nil(&t->array[a - 1])) {
        if (m->sparse) {
            m->amode = MIG_RECOUNT;
            m->rcur = m->alive = 0;
        } else if (a <= TAB_MAXASIZE / 2) {
            start_array(L, t, 2 * a);
        }
    }
    uint32_t size = tab_sizenode(t);
    if (m->prep == NULL && m->onode == NULL && size > 0 &&
        size < (1u << TAB_MAXHBITS) && m->nkeyed >= size - size / 4)
        start_prep(L, t, 2 * size, 0);
    array_step(L, t, TAB_MOVE_SLOTS);
    hash_step(L, t);
}

/* Key k (normalised, absent) is integer asize + 1 while the array grows
 * and its tail has reached k: make that one slot valid at once, so that
 * appending costs O(1).  NULL otherwise. */
static __attribute__((noinline)) tvalue *claim_tail(lua_State *L, table *t,
                                                    const tvalue *k)
{
    struct tabmig *m = t->mig;
    if (m == NULL || m->amode != MIG_GROW || !is_int(k) ||
        (rt_uint)k->v.i - 1u != (rt_uint)m->tc || m->tc >= m->nasize)
        return NULL;
    tail_slot(L, t); /* k is in no hash part: the caller looked */
    tvalue *s = &t->array[k->v.i - 1];
    if (array_done(m))
        end_array(t);
    return s;
}

/* A big table's hash part has no room for a new key: the growth was not
 * started in time (no memory then, or a part too small to count), so
 * ready the next part at once.  TAB_AGAIN: rehash the exact way. */
static int grow_now(lua_State *L, table *t)
{
    struct tabmig *m = t->mig;
    if (m->onode != NULL)
        return TAB_AGAIN; /* full while draining: never, by the room rule */
    if (m->prep == NULL) {
        uint32_t size = tab_sizenode(t);
        if (size >= (1u << TAB_MAXHBITS))
            return TAB_AGAIN;
        start_prep(L, t, size > 0 ? 2 * size : 4, 1);
        if (m->onode != NULL)
            return TAB_AGAIN;
        if (m->prep == NULL)
            return TAB_ERR_MEM;
    }
    clear_nodes(m->prep + m->prepdone, m->prepsize - m->prepdone);
    m->prepdone = m->prepsize;
    switch_parts(t);
    return TAB_OK;
}

/* The hash part is full and `key` is new: a big table readies its next
 * part; a small one is sized for every live entry plus that key. */
static __attribute__((noinline)) int rehash(lua_State *L, table *t,
                                            const tvalue *key)
{
    int rc;
    if (t->mig != NULL && (rc = grow_now(L, t)) != TAB_AGAIN)
        return rc;
    do {
        uint32_t nums[TAB_MAXABITS + 1];
        memset(nums, 0, sizeof nums);
        uint32_t total;
        uint32_t nint = count_all(t, nums, &total);
        total++;
        if (is_int(key))
            nint += count_int(key->v.i, nums);
        uint32_t inarray;
        uint32_t asize = best_array_size(nums, nint, &inarray);
        uint32_t extra =
            is_int(key) && (rt_uint)key->v.i - 1u < asize ? 0u : 1u;
        rc = resize_parts(L, t, asize, total - inarray, extra);
    } while (rc == TAB_AGAIN);
    return rc;
}

int tab_resize(lua_State *L, table *t, uint32_t nasize, uint32_t nhsize)
{
    int rc;
    if (rom_case(t))
        return TAB_OK; /* sizes are hints; a ROM table's flash part stays */
    if (t->moving)
        return TAB_OK; /* hints too: the growth in progress goes on */
    if (nasize > TAB_MAXASIZE)
        return TAB_ERR_MEM;
    do {
        uint32_t need = hash_need(t, nasize);
        rc = resize_parts(L, t, nasize, nhsize > need ? nhsize : need, 0);
    } while (rc == TAB_AGAIN);
    return rc;
}

/* ---- Stores ------------------------------------------------------------- */

static int rom_set(lua_State *L, table *t, const tvalue *k, const tvalue *val);

/* The slot of an existing key (normalised), or NULL: the lookups' order
 * (a removed node is a slot too). */
static tvalue *find_slot(table *t, const tvalue *k)
{
    if (is_int(k)) {
        if (in_array(t, k->v.i))
            return &t->array[k->v.i - 1];
        if (moving_case(t))
            return moving_int_slot(t, k->v.i);
        node *n = find_int(t->node, t->lsizenode, k->v.i);
        return n != NULL ? &n->val : NULL;
    }
    node *n = find_node(t, k->tt, &k->v);
    if (n != NULL)
        return &n->val;
    return moving_case(t) ? old_slot(t, k->tt, &k->v) : NULL;
}

/* k is normalised; val is a copy (a __gc run by an allocation here could
 * move the stack the caller's value lives in). */
static int set_normalised(lua_State *L, table *t, const tvalue *k,
                          const tvalue *val)
{
    tvalue *slot;
    int stepped = 0;
    for (;;) {
        slot = find_slot(t, k);
        if (slot != NULL)
            break;
        if (is_nil(val))
            return TAB_OK; /* removing an absent key */
        if (t->mig != NULL && !stepped) {
            /* A new key: a big table's growth advances (the array's tail
             * may reach an integer key: look again). */
            stepped = 1;
            grow_step(L, t, k);
            if (is_int(k) &&
                (t->mig->amode == MIG_GROW || in_array(t, k->v.i)))
                continue;
        }
        if (t->mig != NULL && (slot = claim_tail(L, t, k)) != NULL)
            break;
        node *n = insert_key(L, t, k);
        if (n != NULL) {
            slot = &n->val;
            break;
        }
        /* The rehash counts k: the next round finds room for it. */
        int rc = rehash(L, t, k);
        if (rc != TAB_OK)
            return rc;
    }
    if (is_nil(val))
        set_empty(slot);
    else
        set_obj(slot, val);
    if (is_str(k))
        t->flags = 0;
    gc_barrier(L, t, k);
    gc_barrier(L, t, val);
    return TAB_OK;
}

int tab_set(lua_State *L, table *t, const tvalue *key, const tvalue *val)
{
    tvalue k, v = *val;
    int rc = normalise_key(key, &k);
    if (rc != TAB_OK)
        return rc;
    if (rom_case(t))
        return rom_set(L, t, &k, &v);
    return set_normalised(L, t, &k, &v);
}

int tab_setint(lua_State *L, table *t, rt_int key, const tvalue *val)
{
    if (in_array(t, key)) {
        tvalue *slot = &t->array[key - 1];
        if (is_nil(val))
            set_empty(slot);
        else
            set_obj(slot, val);
        gc_barrier(L, t, val);
        return TAB_OK;
    }
    tvalue k, v = *val;
    set_int(&k, key);
    if (rom_case(t))
        return rom_set(L, t, &k, &v);
    return set_normalised(L, t, &k, &v);
}

int tab_setstr(lua_State *L, table *t, str *key, const tvalue *val)
{
    tvalue k, v = *val;
    set_gc(&k, key, key->tt);
    if (rom_case(t))
        return rom_set(L, t, &k, &v);
    return set_normalised(L, t, &k, &v);
}

/* ---- Length ------------------------------------------------------------- */

/* A border at or above j, given t[j] non-nil (or j == 0), probing the
 * hash part: double until a nil, then bisect. */
static rt_uint hash_border(table *t, rt_uint j)
{
    const rt_uint maxk = (rt_uint)RT_INT_MAX;
    rt_uint lo = j, hi = j + 1;
    if (is_nil(tab_getint(t, (rt_int)hi)))
        return j;
    for (;;) { /* t[hi] is non-nil */
        lo = hi;
        if (hi > maxk / 2) {
            if (!is_nil(tab_getint(t, (rt_int)maxk)))
                return maxk; /* a border by definition */
            hi = maxk;
            break;
        }
        hi *= 2;
        if (is_nil(tab_getint(t, (rt_int)hi)))
            break;
    }
    while (hi - lo > 1) { /* t[lo] non-nil, t[hi] nil */
        rt_uint m = lo + (hi - lo) / 2;
        if (is_nil(tab_getint(t, (rt_int)m)))
            hi = m;
        else
            lo = m;
    }
    return lo;
}

rt_uint tab_length(table *t)
{
    uint32_t n = t->asize;
    if (n > 0 && is_nil(&t->array[n - 1])) {
        uint32_t lo = 0, hi = n; /* t[lo] non-nil or lo == 0; t[hi] nil */
        while (hi - lo > 1) {
            uint32_t m = lo + (hi - lo) / 2;
            if (is_nil(&t->array[m - 1]))
                hi = m;
            else
                lo = m;
        }
        return lo;
    }
    if (is_dummy(t) && !t->moving)
        return n;
    return hash_border(t, n);
}

/* ---- Traversal ---------------------------------------------------------- */

/* Where the traversal after `key` resumes: 0 for nil, k for array key k,
 * asize + i + 1 for node i; 0 is returned when the key is not there.
 * A key removed and then declared dead by the collector is found by
 * identity. */
static int next_index(const table *t, const tvalue *key, uint32_t *idx)
{
    if (is_nil(key)) {
        *idx = 0;
        return 1;
    }
    tvalue k = *key;
    rt_int i;
    if (is_flt(&k) && flt_to_int(k.v.n, &i))
        set_int(&k, i);
    if (is_int(&k) && in_array(t, k.v.i)) {
        *idx = (uint32_t)k.v.i;
        return 1;
    }
    if (is_dummy(t))
        return 0;
    const node *n = main_position(t, k.tt, &k.v);
    for (;;) {
        if (key_equal(n, k.tt, &k.v) ||
            (n->key_tt == V_DEADKEY && is_collectable(&k) &&
             n->key_val.gc == k.v.gc)) {
            *idx = t->asize + (uint32_t)(n - t->node) + 1u;
            return 1;
        }
        if (n->next == 0)
            return 0;
        n += n->next;
    }
}

/* next_index for a table whose entries are moving: positions in
 * tab_view's order (nothing moves during a traversal: it stores no new
 * key).  An integer key in an array range is there, whatever removed
 * node it left in a hash part. */
static int moving_index(const table *t, const tabview *v, const tvalue *key,
                        uint32_t *idx)
{
    tvalue k = *key;
    rt_int i;
    if (is_flt(&k) && flt_to_int(k.v.n, &i))
        set_int(&k, i);
    uint32_t base = 0;
    for (int r = 0; r < TAB_VIEW_ARRAYS; r++) {
        if (is_int(&k)) {
            rt_uint j = (rt_uint)k.v.i - 1u - v->afirst[r];
            if ((rt_uint)k.v.i - 1u >= v->afirst[r] && j < v->alen[r]) {
                *idx = base + (uint32_t)j + 1u;
                return 1;
            }
        }
        base += v->alen[r];
    }
    for (int r = 0; r < TAB_VIEW_NODES; r++) {
        if (v->nlen[r] > 0) {
            const node *n = mainpos_in(
                v->nodes[r], (uint8_t)ceil_log2(v->nlen[r]), k.tt, &k.v);
            for (;;) {
                if (key_equal(n, k.tt, &k.v) ||
                    (n->key_tt == V_DEADKEY && is_collectable(&k) &&
                     n->key_val.gc == k.v.gc)) {
                    *idx = base + (uint32_t)(n - v->nodes[r]) + 1u;
                    return 1;
                }
                if (n->next == 0)
                    break;
                n += n->next;
            }
        }
        base += v->nlen[r];
    }
    (void)t;
    return 0;
}

static int moving_next(table *t, tvalue *key, tvalue *val)
{
    tabview v;
    tab_view(t, &v);
    uint32_t p = 0, base = 0;
    if (!is_nil(key) && !moving_index(t, &v, key, &p))
        return -1;
    for (int r = 0; r < TAB_VIEW_ARRAYS; r++) {
        for (uint32_t i = p > base ? p - base : 0; i < v.alen[r]; i++)
            if (!is_nil(&v.arr[r][i])) {
                set_int(key, (rt_int)(v.afirst[r] + i) + 1);
                set_obj(val, &v.arr[r][i]);
                return 1;
            }
        base += v.alen[r];
    }
    for (int r = 0; r < TAB_VIEW_NODES; r++) {
        for (uint32_t i = p > base ? p - base : 0; i < v.nlen[r]; i++) {
            const node *n = &v.nodes[r][i];
            if (!is_nil(&n->val)) {
                tab_node_key(n, key);
                set_obj(val, &n->val);
                return 1;
            }
        }
        base += v.nlen[r];
    }
    return 0;
}

static int rom_next(table *t, tvalue *key, tvalue *val);

int tab_next(table *t, tvalue *key, tvalue *val)
{
    uint32_t i;
    if (rom_case(t))
        return rom_next(t, key, val);
    if (moving_case(t))
        return moving_next(t, key, val);
    if (!next_index(t, key, &i))
        return -1;
    for (; i < t->asize; i++) {
        if (!is_nil(&t->array[i])) {
            set_int(key, (rt_int)i + 1);
            set_obj(val, &t->array[i]);
            return 1;
        }
    }
    uint32_t nsize = tab_sizenode(t);
    for (i -= t->asize; i < nsize; i++) {
        const node *n = &t->node[i];
        if (!is_nil(&n->val)) {
            tab_node_key(n, key);
            set_obj(val, &n->val);
            return 1;
        }
    }
    return 0;
}

/* ---- Life cycle --------------------------------------------------------- */

table *tab_new(lua_State *L)
{
    return tab_new_sized(L, 0, 0);
}

table *tab_new_sized(lua_State *L, uint32_t narray, uint32_t nhash)
{
    global_State *g = G(L);
    uint32_t lsize = 0, nsize = 0;
    if (narray > TAB_MAXASIZE)
        return NULL;
    if (nhash > 0) {
        lsize = ceil_log2(nhash);
        if (lsize > TAB_MAXHBITS)
            return NULL;
        nsize = 1u << lsize;
    }
    /* Parts first: an emergency collection in a later allocation cannot
     * free raw parts, but it would free an unanchored new header.  A big
     * table's growth record is optional (without one it grows at once). */
    tvalue *array = NULL;
    node *nodes = DUMMY;
    table *t = NULL;
    struct tabmig *rec = NULL;
    if (narray > 0 && (array = gc_alloc(L, array_bytes(narray))) == NULL)
        return NULL;
    if (!tab_small(narray, nsize))
        rec = new_record(L);
    if (nsize == 0 || (nodes = gc_alloc(L, node_bytes(nsize))) != NULL)
        t = (table *)gc_newobj(L, V_TABLE, sizeof(table));
    if (t == NULL) {
        if (nsize > 0 && nodes != NULL)
            gc_free(g, nodes, node_bytes(nsize));
        if (rec != NULL)
            gc_free(g, rec, sizeof *rec);
        if (narray > 0)
            gc_free(g, array, array_bytes(narray));
        return NULL;
    }
    for (uint32_t i = 0; i < narray; i++)
        set_empty(&array[i]);
    clear_nodes(nodes, nsize);
    t->flags = 0;
    t->lsizenode = (uint8_t)lsize;
    t->weak = 0;
    t->asize = narray;
    t->array = array;
    t->node = nodes;
    t->lastfree = nsize > 0 ? nodes + nsize : NULL;
    t->metatable = NULL;
    t->gclist = NULL;
    t->moving = 0;
    t->mig = rec;
    return t;
}

uint32_t tab_sizenode(const table *t)
{
    return is_dummy(t) ? 0u : 1u << t->lsizenode;
}

size_t tab_objsize(const table *t)
{
    (void)t;
    return sizeof(table);
}

size_t tab_memsize(const table *t)
{
    const void *p[TAB_MAX_BLOCKS];
    size_t n[TAB_MAX_BLOCKS], sum = sizeof(table);
    int c = owned(t, p, n);
    for (int i = 0; i < c; i++)
        sum += n[i];
    return sum;
}

void tab_free(global_State *g, table *t)
{
    const void *p[TAB_MAX_BLOCKS];
    size_t n[TAB_MAX_BLOCKS];
    int c = owned(t, p, n);
    for (int i = 0; i < c; i++)
        gc_free(g, (void *)p[i], n[i]);
    gc_free(g, t, sizeof(table));
}

/* ---- ROM tables ----------------------------------------------------------
 * (tab.h).  The flash part has no array part and no removed keys: every
 * node is pristine or live.  A tombstone in `over` is a light userdata
 * pointing here; no Lua value can be one, since `over` never escapes. */

static const char tombstone;
#define is_tombstone(x)                                                       \
    (tt_of(x) == V_LIGHTUD && (x)->v.p == (const void *)&tombstone)

static void rom_link(global_State *g, romslot *s)
{
    if (!s->linked) {
        s->next = g->romslots;
        g->romslots = s;
        s->linked = 1;
    }
}

void tab_romslots_reset(global_State *g)
{
    romslot *s = g->romslots;
    while (s != NULL) {
        romslot *next = s->next;
        s->ov = s->over = s->mt = NULL;
        s->next = NULL;
        s->linked = 0;
        s = next;
    }
    g->romslots = NULL;
}

/* Node n's value as the union has it: overridden, removed (absent), or
 * the flash one. */
static const tvalue *rom_value(const table *t, const node *n)
{
    const table *over = tab_romslot(t)->over;
    if (over != NULL) {
        const tvalue *o = raw_getint(over, (rt_int)(n - t->node) + 1);
        if (!is_nil(o))
            return is_tombstone(o) ? &tab_absent : o;
    }
    return &n->val;
}

/* A RAM part of a slot, made on first use and anchored at once (the slot
 * is a root). */
static table *rom_part(lua_State *L, romslot *s, table **part)
{
    if (*part == NULL) {
        table *h = tab_new(L);
        if (h == NULL)
            return NULL;
        *part = h;
        rom_link(G(L), s);
    }
    return *part;
}

/* The same value in the same representation, nil (empty) included: not
 * vm_rawequalobj, for which 1 and 1.0 are equal but math.type is not. */
static int same_value(const tvalue *a, const tvalue *b)
{
    if (is_nil(a) || is_nil(b))
        return is_nil(a) && is_nil(b);
    if (tt_of(a) != tt_of(b))
        return 0;
    switch (tt_of(a)) {
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
    default:
        return a->v.gc == b->v.gc;
    }
}

/* k is normalised; val a copy.  Storing the value a flash field holds
 * changes nothing and allocates nothing (luaL_requiref of a standard
 * library does that). */
static int rom_set(lua_State *L, table *t, const tvalue *k, const tvalue *val)
{
    romslot *s = tab_romslot(t);
    const tvalue *raw = raw_get(t, k);
    if (raw != &tab_absent) {
        if (same_value(rom_value(t, (const node *)(const void *)raw), val))
            return TAB_OK;
        tvalue v = *val;
        if (is_nil(val))
            set_lightud(&v, (void *)&tombstone);
        if (rom_part(L, s, &s->over) == NULL)
            return TAB_ERR_MEM;
        rt_int idx = (rt_int)((const node *)(const void *)raw - t->node) + 1;
        return tab_setint(L, s->over, idx, &v);
    }
    if (s->ov == NULL && is_nil(val))
        return TAB_OK; /* removing an absent key */
    if (rom_part(L, s, &s->ov) == NULL)
        return TAB_ERR_MEM;
    return set_normalised(L, s->ov, k, val);
}

/* The flash nodes in order, then the keys of `ov` (tab.h). */
static int rom_next(table *t, tvalue *key, tvalue *val)
{
    table *ov = tab_romslot(t)->ov;
    uint32_t i = 0, size = 1u << t->lsizenode;
    if (!is_nil(key)) {
        const tvalue *raw = raw_get(t, key);
        if (raw == &tab_absent) /* not a flash key: one of ov's, or none */
            return ov != NULL ? tab_next(ov, key, val) : -1;
        i = (uint32_t)((const node *)(const void *)raw - t->node) + 1u;
    }
    for (; i < size; i++) {
        const node *n = &t->node[i];
        if (n->key_tt == V_NIL)
            continue;
        const tvalue *v = rom_value(t, n);
        if (!is_nil(v)) {
            tab_node_key(n, key);
            set_obj(val, v);
            return 1;
        }
    }
    if (ov == NULL)
        return 0;
    set_nil(key);
    return tab_next(ov, key, val);
}

void tab_setmetatable(lua_State *L, table *t, table *mt)
{
    if (rom_case(t)) {
        romslot *s = tab_romslot(t);
        s->mt = mt;
        rom_link(G(L), s);
    } else {
        t->metatable = mt;
    }
}
