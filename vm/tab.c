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
 * in order.  Growing, in both ways, is vm/tabgrow.c's; this file finds
 * entries wherever a growth in progress left them.
 */
#include "gc/gc.h"
#include "vm/str.h"
#include "vm/tabint.h"

#include <string.h>

/* The hash part of every table without one.  Const: any write is a bug
 * (it faults on the host, and lives in flash on a board). */
const node tab_dummynode = {.val = {.tt = V_EMPTY}, NODE_INIT(V_NIL, 0)};
const tvalue tab_absent = {.tt = V_EMPTY};

/* ---- Hashing ------------------------------------------------------------ */

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
    /* (a short string's hash inline: a field's insertion looks up the
     * new key's main position and a colliding node's) */
    uint32_t h = tt == V_SHRSTR ? gco2str(v->gc)->hash : key_hash(tt, v);
    return &base[h & ((1u << lsize) - 1u)];
}

#define main_position(t, tt, v) mainpos_in((t)->node, (t)->lsizenode, tt, v)

/* Raw equality of a node's key with a (normalised) key.  A dead key has
 * its own tag and so never matches. */
static inline __attribute__((always_inline)) int
key_equal(const node *n, uint8_t tt, const value *v)
{
    return node_keytt(n) == tt && tab_rawequal(tt, &n->key_val, v);
}

static node *find_in(node *base, uint8_t lsize, uint8_t tt, const value *v)
{
    node *n = mainpos_in(base, lsize, tt, v);
    for (;;) {
        if (key_equal(n, tt, v))
            return n;
        if (node_next(n) == 0)
            return NULL;
        n += node_next(n);
    }
}

#define find_node(t, tt, v) find_in((t)->node, (t)->lsizenode, tt, v)

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

int tab_node_key(const node *n, tvalue *out)
{
    out->v = n->key_val;
    out->tt = node_keytt(n);
    return node_keytt(n) != V_NIL;
}

/* ---- Lookups ------------------------------------------------------------
 * raw_*: the table's own parts (a ROM table's flash part only); the
 * public lookups add the overlay of a ROM table (docs/rom-tables.md). */

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
rt_cold static tvalue *moving_int_slot(const table *t, rt_int key)
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

/* A key that may die as a weak key: an object, not a string. */
static int object_key(uint8_t tt)
{
    return (tt & BIT_COLLECTABLE) && ttype(tt) != T_STRING;
}

/* (A weak table flagged MARK_CLEARING.)  The slot a lookup of a key of
 * tag ktt found, or absent if its entry was dead: the collector clears it
 * now (an object key's slot is a node's value, the node's first field). */
static const tvalue *weak_found(table *t, const tvalue *v, uint8_t ktt)
{
    if (v == &tab_absent || is_nil(v))
        return v;
    tvalue *s = (tvalue *)v;
    int dead =
        object_key(ktt) ? gc_clearnode(t, node_of_val(s)) : gc_clearslot(t, s);
    return dead ? &tab_absent : v;
}

/* The slow cases are out of line, so that a RAM table's lookup is the
 * raw one behind a single test of the header: a ROM table, or a weak
 * table flagged for the clear. */
rt_cold static __attribute__((noinline)) const tvalue *rom_getint(table *t,
                                                                  rt_int key)
{
    if (!is_rom(t))
        return weak_found(t, raw_getint(t, key), V_INT);
    const tvalue *v = raw_getint(t, key);
    if (v != &tab_absent)
        return rom_value(t, node_of_val(v));
    const table *ov = tab_romslot(t)->ov;
    return ov != NULL ? raw_getint(ov, key) : &tab_absent;
}

static __attribute__((noinline)) const tvalue *rom_getshortstr(table *t,
                                                               str *key)
{
    const tvalue *v = tab_rawgetshortstr(t, key);
    if (!is_rom(t))
        return weak_found(t, v, V_SHRSTR);
    const romslot *rs = tab_romslot(t);
    if (v != &tab_absent) /* (a library's field, never written: as it is) */
        return rs->over == NULL ? v : rom_value(t, node_of_val(v));
    return rs->ov != NULL ? tab_rawgetshortstr(rs->ov, key) : &tab_absent;
}

/* (A ROM table's RAM part: out of line, so that a flash hit needs no
 * frame.) */
static __attribute__((noinline)) const tvalue *ram_getshortstr(const table *t,
                                                               str *key)
{
    return tab_rawgetshortstr(t, key);
}

/* A library's field (`string.format`, a global function) is found with
 * no frame: a ROM table none of whose flash fields was ever written (no
 * `over`) needs only its flash chain, then its RAM part.  The flash
 * part never moves. */
const tvalue *tab_romgetshortstr(table *t, str *key)
{
    const romslot *rs = tab_romslot(t);
    if (!is_rom(t) || rs->over != NULL)
        return rom_getshortstr(t, key);
    const node *n = &t->node[key->hash & ((1u << t->lsizenode) - 1u)];
    for (;;) {
        if (node_keytt(n) == V_SHRSTR && n->key_val.gc == obj2gc(key))
            return &n->val;
        if (node_next(n) == 0)
            break;
        n += node_next(n);
    }
    return rs->ov != NULL ? ram_getshortstr(rs->ov, key) : &tab_absent;
}

const tvalue *tab_romramgetshortstr(table *t, str *key)
{
    const table *ov = tab_romslot(t)->ov;
    return ov != NULL ? ram_getshortstr(ov, key) : &tab_absent;
}

const tvalue *tab_getint(table *t, rt_int key)
{
    if (slow_case(t))
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

static __attribute__((noinline)) const tvalue *rom_get(table *t,
                                                       const tvalue *key)
{
    if (!is_rom(t)) {
        const tvalue *s = raw_get(t, key);
        return weak_found(t, s, tt_of(key));
    }
    const tvalue *v = raw_get(t, key);
    if (v != &tab_absent)
        return rom_value(t, node_of_val(v));
    const table *ov = tab_romslot(t)->ov;
    return ov != NULL ? raw_get(ov, key) : &tab_absent;
}

const tvalue *tab_get(table *t, const tvalue *key)
{
    if (slow_case(t))
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
        if (node_keytt(t->lastfree) == V_NIL)
            return t->lastfree;
    }
    return NULL;
}

/* A big table counts what its growth needs: the nodes no longer
 * pristine (`pristine` is whether key's node was), and the integer keys
 * (the array's tail need not look for them in a part that never had
 * one). */
static void note_key(table *t, const tvalue *key, int pristine)
{
    struct tabmig *m = t->mig;
    m->nkeyed += (uint32_t)pristine;
    m->nints += key->tt == V_INT;
}

static inline node *insert_key(lua_State *L, table *t, const tvalue *key)
{
    if (is_dummy(t))
        return NULL;
    node *mp = main_position(t, key->tt, &key->v);
    if (__builtin_expect(t->marked & MARK_CLEARING, 0))
        gc_clearnode(t, mp); /* a dead entry is not moved */
    if (!is_nil(&mp->val)) {
        node *f = free_node(t);
        if (f == NULL)
            return NULL;
        if (t->mig != NULL)
            note_key(t, key, 1);
        /* mp's value is live, so its key is live (not dead) and hashable. */
        node *home = main_position(t, node_keytt(mp), &mp->key_val);
        if (home != mp) {
            /* The intruder moves to f; the new key takes its home. */
            node *prev = home;
            while (prev + node_next(prev) != mp)
                prev += node_next(prev);
            node_setnext(prev, f - prev);
            *f = *mp;
            if (node_next(mp) != 0) {
                node_setnext(f, node_next(f) + (mp - f));
                node_setnext(mp, 0);
            }
            set_empty(&mp->val);
            /* A move is a store as far as the collector can tell. */
            tvalue k;
            tab_node_key(f, &k);
            gc_barrier(L, t, &k);
            gc_barrier(L, t, &f->val);
        } else {
            /* Same main position: f joins the chain right after mp. */
            if (node_next(mp) != 0)
                node_setnext(f, mp + node_next(mp) - f);
            node_setnext(mp, f - mp);
            mp = f;
        }
    } else if (t->mig != NULL) {
        note_key(t, key, node_keytt(mp) == V_NIL);
    }
    /* mp is pristine or removed; a removed node keeps its chain link. */
    mp->key_val = key->v;
    node_setkeytt(mp, key->tt);
    set_empty(&mp->val);
    return mp;
}

node *tab_insert_key(lua_State *L, table *t, const tvalue *key)
{
    return insert_key(L, t, key);
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
 * move the stack the caller's value lives in).  `absent`: a lookup of k
 * found no slot for it (tab_setnew), so the first round needs none. */
static int set_normalised_(lua_State *L, table *t, const tvalue *k,
                           const tvalue *val, int absent)
{
    tvalue *slot;
    int stepped = 0, timed = 0;
    gc_pausemark pause = {0, 0};
    for (;;) {
        slot = absent ? NULL : find_slot(t, k);
        absent = 0;
        if (slot != NULL)
            break;
        if (is_nil(val))
            return TAB_OK; /* removing an absent key */
        if (t->mig != NULL && !stepped && tab_grow_due(t, k)) {
            /* A new key: a big table's growth advances (the array's tail
             * may reach an integer key: look again). */
            stepped = timed = 1;
            pause = gc_pause_begin(G(L));
            tab_grow_step(L, t, k);
            if (is_int(k) &&
                (t->mig->amode == MIG_GROW || in_array(t, k->v.i)))
                continue;
        }
        if (t->mig != NULL && t->mig->amode == MIG_GROW && is_int(k) &&
            (slot = tab_claim_tail(L, t, k)) != NULL)
            break;
        node *n = insert_key(L, t, k);
        if (n != NULL) {
            slot = &n->val;
            break;
        }
        /* The rehash counts k: the next round finds room for it. */
        if (!timed &&
            (t->mig != NULL ||
             (uint64_t)t->asize + (uint64_t)TAB_NODE_WEIGHT * sizenode(t) >
                 TAB_UNTIMED_MAX)) {
            timed = 1;
            pause = gc_pause_begin(G(L));
        }
        int rc = tab_rehash(L, t, k);
        if (rc != TAB_OK)
            return rc;
    }
    if (timed)
        gc_pause_end(G(L), pause, &G(L)->stats.worst_rehash_cycles);
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

#define set_normalised(L, t, k, val) set_normalised_(L, t, k, val, 0)

int tab_setnew(lua_State *L, table *t, const tvalue *key, const tvalue *val)
{
    /* The usual case, a new field of a small table with room for it:
     * one insertion (no allocation, so val may stay where it is). */
    if (tt_of(key) == V_SHRSTR && !is_nil(val) && t->mig == NULL &&
        !slow_case(t)) {
        node *n = insert_key(L, t, key);
        if (n != NULL) {
            set_obj(&n->val, val);
            t->flags = 0;
            gc_barrier(L, t, key);
            gc_barrier(L, t, val);
            return TAB_OK;
        }
    }
    tvalue k, v = *val;
    int rc = normalise_key(key, &k);
    if (rc != TAB_OK)
        return rc;
    if (slow_case(t))
        return rom_case(t) ? rom_set(L, t, &k, &v)
                           : set_normalised(L, t, &k, &v);
    return set_normalised_(L, t, &k, &v, !is_nil(&v));
}

static int setint_ram(lua_State *L, table *t, rt_int key, const tvalue *val);

int tab_set(lua_State *L, table *t, const tvalue *key, const tvalue *val)
{
    if (is_int(key) && in_array(t, key->v.i)) /* an empty array slot */
        return setint_ram(L, t, key->v.i, val);
    tvalue k, v = *val;
    int rc = normalise_key(key, &k);
    if (rc != TAB_OK)
        return rc;
    if (rom_case(t))
        return rom_set(L, t, &k, &v);
    return set_normalised(L, t, &k, &v);
}

/* tab_setint for a table that is not a ROM table (rom_set's overlay). */
static int setint_ram(lua_State *L, table *t, rt_int key, const tvalue *val)
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
    return set_normalised(L, t, &k, &v);
}

int tab_setint(lua_State *L, table *t, rt_int key, const tvalue *val)
{
    if (!in_array(t, key) && rom_case(t)) {
        tvalue k, v = *val;
        set_int(&k, key);
        return rom_set(L, t, &k, &v);
    }
    return setint_ram(L, t, key, val);
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

/* Is t[k] (1 <= k <= asize) nil?  In a weak table flagged for the clear
 * the probe is a lookup, which clears a dead value it finds. */
static inline __attribute__((always_inline)) int
array_nil(table *t, uint32_t k, int weak)
{
    return weak ? is_nil(tab_getint(t, (rt_int)k)) : is_nil(&t->array[k - 1]);
}

static inline __attribute__((always_inline)) rt_uint length_of(table *t,
                                                               int weak)
{
    uint32_t n = t->asize;
    if (n > 0 && array_nil(t, n, weak)) {
        uint32_t lo = 0, hi = n; /* t[lo] non-nil or lo == 0; t[hi] nil */
        while (hi - lo > 1) {
            uint32_t m = lo + (hi - lo) / 2;
            if (array_nil(t, m, weak))
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

rt_cold static __attribute__((noinline)) rt_uint weak_length(table *t)
{
    return length_of(t, 1);
}

rt_uint tab_length(table *t)
{
    if (__builtin_expect(t->marked & MARK_CLEARING, 0))
        return weak_length(t);
    return length_of(t, 0);
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
            (node_keytt(n) == V_DEADKEY && is_collectable(&k) &&
             n->key_val.gc == k.v.gc)) {
            *idx = t->asize + (uint32_t)(n - t->node) + 1u;
            return 1;
        }
        if (node_next(n) == 0)
            return 0;
        n += node_next(n);
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
                    (node_keytt(n) == V_DEADKEY && is_collectable(&k) &&
                     n->key_val.gc == k.v.gc)) {
                    *idx = base + (uint32_t)(n - v->nodes[r]) + 1u;
                    return 1;
                }
                if (node_next(n) == 0)
                    break;
                n += node_next(n);
            }
        }
        base += v->nlen[r];
    }
    (void)t;
    return 0;
}

rt_cold static int moving_next(table *t, tvalue *key, tvalue *val,
                               tvalue **slot)
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
                *slot = &v.arr[r][i];
                return 1;
            }
        base += v.alen[r];
    }
    for (int r = 0; r < TAB_VIEW_NODES; r++) {
        for (uint32_t i = p > base ? p - base : 0; i < v.nlen[r]; i++) {
            node *n = &v.nodes[r][i];
            if (!is_nil(&n->val)) {
                tab_node_key(n, key);
                set_obj(val, &n->val);
                *slot = &n->val;
                return 1;
            }
        }
        base += v.nlen[r];
    }
    return 0;
}

static int rom_next(table *t, tvalue *key, tvalue *val);

/* tab_next of a RAM table; *slot is the value found. */
static inline int raw_next(table *t, tvalue *key, tvalue *val, tvalue **slot)
{
    uint32_t i;
    if (moving_case(t))
        return moving_next(t, key, val, slot);
    if (!next_index(t, key, &i))
        return -1;
    for (; i < t->asize; i++) {
        if (!is_nil(&t->array[i])) {
            set_int(key, (rt_int)i + 1);
            set_obj(val, &t->array[i]);
            *slot = &t->array[i];
            return 1;
        }
    }
    uint32_t nsize = tab_sizenode(t);
    for (i -= t->asize; i < nsize; i++) {
        node *n = &t->node[i];
        if (!is_nil(&n->val)) {
            tab_node_key(n, key);
            set_obj(val, &n->val);
            *slot = &n->val;
            return 1;
        }
    }
    return 0;
}

/* A ROM table, or a weak one flagged for the clear: an entry found dead
 * is cleared and passed over (its key, dead now, is found by identity).
 * When no live one follows, *key and *val are left nil, not holding the
 * dead entry: they are stack slots (lua_next's), and a slot the caller's
 * frame still covers must not name an object the sweep will free. */
rt_cold static __attribute__((noinline)) int slow_next(table *t, tvalue *key,
                                                       tvalue *val)
{
    if (is_rom(t))
        return rom_next(t, key, val);
    for (int skipped = 0;; skipped = 1) {
        tvalue *s;
        int r = raw_next(t, key, val, &s);
        if (r == 1 && weak_found(t, s, tt_of(key)) != &tab_absent)
            return r;
        if (r != 1) {
            if (skipped) {
                set_nil(key);
                set_nil(val);
            }
            return r;
        }
    }
}

int tab_next(table *t, tvalue *key, tvalue *val)
{
    tvalue *s;
    if (slow_case(t))
        return slow_next(t, key, val);
    return raw_next(t, key, val, &s);
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
        /* A big hash part starts growing when three quarters of it are
         * keyed (tab_grow_due): one sized for nhash keys holds them all
         * without growing, so a node array they would fill past that
         * is taken twice as big. */
        if (2u << lsize > TAB_CLEAR_ONCE &&
            nhash > (1u << lsize) - (1u << lsize) / 4)
            lsize++;
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
        rec = tab_new_record(L);
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
    tab_clear_nodes(nodes, nsize);
    t->flags = 0;
    t->lsizenode = (uint8_t)lsize;
    t->weak = 0;
    t->weakwhite = 0;
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
    if (t->mig == NULL) { /* a small table: its two parts at most */
        size_t sum = sizeof(table);
        if (t->asize > 0)
            sum += array_bytes(t->asize);
        if (!is_dummy(t))
            sum += node_bytes(tab_sizenode(t));
        return sum;
    }
    const void *p[TAB_MAX_BLOCKS];
    size_t n[TAB_MAX_BLOCKS], sum = sizeof(table);
    int c = tab_owned(t, p, n);
    for (int i = 0; i < c; i++)
        sum += n[i];
    return sum;
}

void tab_free(global_State *g, table *t)
{
    if (t->mig == NULL) { /* a small table: its two parts at most */
        if (t->asize > 0)
            gc_free(g, t->array, array_bytes(t->asize));
        if (!is_dummy(t))
            gc_free(g, t->node, node_bytes(tab_sizenode(t)));
        gc_free(g, t, sizeof(table));
        return;
    }
    const void *p[TAB_MAX_BLOCKS];
    size_t n[TAB_MAX_BLOCKS];
    int c = tab_owned(t, p, n);
    for (int i = 0; i < c; i++)
        gc_free(g, (void *)p[i], n[i]);
    gc_free(g, t, sizeof(table));
}

/* ---- ROM tables ----------------------------------------------------------
 * (docs/rom-tables.md).  The flash part has no array part and no
 * removed keys: every node is pristine or live.  A tombstone in `over` is
 * a light userdata pointing here; no Lua value can be one, since `over`
 * never escapes. */

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
 * arith_rawequalobj, for which 1 and 1.0 are equal but math.type is not. */
static int same_value(const tvalue *a, const tvalue *b)
{
    if (is_nil(a) || is_nil(b))
        return is_nil(a) && is_nil(b);
    return tt_of(a) == tt_of(b) && tab_rawequal(tt_of(a), &a->v, &b->v);
}

/* k is normalised; val a copy.  Storing the value a flash field holds
 * changes nothing and allocates nothing (luaL_requiref of a standard
 * library does that). */
rt_cold static int rom_set(lua_State *L, table *t, const tvalue *k,
                           const tvalue *val)
{
    romslot *s = tab_romslot(t);
    const tvalue *raw = raw_get(t, k);
    if (raw != &tab_absent) {
        if (same_value(rom_value(t, node_of_val(raw)), val))
            return TAB_OK;
        tvalue v = *val;
        if (is_nil(val))
            set_lightud(&v, (void *)&tombstone);
        if (rom_part(L, s, &s->over) == NULL)
            return TAB_ERR_MEM;
        rt_int idx = (rt_int)(node_of_val(raw) - t->node) + 1;
        return setint_ram(L, s->over, idx, &v);
    }
    if (s->ov == NULL && is_nil(val))
        return TAB_OK; /* removing an absent key */
    if (rom_part(L, s, &s->ov) == NULL)
        return TAB_ERR_MEM;
    return set_normalised(L, s->ov, k, val);
}

/* The flash nodes in order, then the keys of `ov` (docs/rom-tables.md). */
static int rom_next(table *t, tvalue *key, tvalue *val)
{
    table *ov = tab_romslot(t)->ov;
    tvalue *s;
    uint32_t i = 0, size = 1u << t->lsizenode;
    if (!is_nil(key)) {
        const tvalue *raw = raw_get(t, key);
        if (raw == &tab_absent) /* not a flash key: one of ov's, or none */
            return ov != NULL ? raw_next(ov, key, val, &s) : -1;
        i = (uint32_t)(node_of_val(raw) - t->node) + 1u;
    }
    for (; i < size; i++) {
        const node *n = &t->node[i];
        if (node_keytt(n) == V_NIL)
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
    /* (ov is a plain RAM table: no ROM, no weak mode) */
    return raw_next(ov, key, val, &s);
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
