/*
 * tabgrow.c — how tables grow (tab.h: "Growth"): the views of a table's
 * parts, the rehash at once of a small table (and a big one's fallback),
 * and the incremental growth of a big one: a hash part readied in the
 * background, switched in and the old one drained; an array block grown
 * in place or copied, its tail made valid in order; the census that
 * sizes the next growth.  Lookups of entries a growth left in old parts
 * are vm/tab.c's.
 */
#include "gc/gc.h"
#include "vm/tabint.h"

#include <string.h>

_Static_assert(TAB_CLEAR_NODES >= 1 && TAB_MOVE_NODES >= 1 &&
                   TAB_MOVE_SLOTS >= 1 && TAB_CHEAP_SLOTS >= 1,
               "a growth must make progress at every new key");

/* ---- Views of the parts -------------------------------------------------
 * (tab.h: tab_view).  Everything that must see every entry of a table,
 * old parts included, walks these ranges. */

void tab_view(const table *t, tabview *v)
{
    v->arr[0] = t->array;
    v->afirst[0] = 0;
    v->alen[0] = t->asize;
    v->nodes[0] = t->node;
    v->nlen[0] = sizenode(t);
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

int tab_owned(const table *t, const void **p, size_t *n)
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
        n[c++] = node_bytes(sizenode(t));
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
    return tab_owned(t, out, n);
}

/* ---- Resizing at once ---------------------------------------------------
 * The rehash of a small table, and a big table's fallback (tab.h). */

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
        uint32_t ns = sizenode(t);
        for (uint32_t i = 0; i < ns; i++) {
            const node *n = &t->node[i];
            if (is_nil(&n->val))
                continue;
            (*total)++;
            if (node_keytt(n) == V_INT)
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
            if (node_keytt(n) == V_INT)
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
        uint32_t ns = sizenode(t);
        for (uint32_t i = 0; i < ns; i++) {
            const node *n = &t->node[i];
            if (!is_nil(&n->val) &&
                !(node_keytt(n) == V_INT &&
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
                !(node_keytt(n) == V_INT &&
                  (rt_uint)n->key_val.i - 1u < (rt_uint)nasize))
                need++;
        }
    return need;
}

void tab_clear_nodes(node *n, uint32_t count)
{
    for (uint32_t i = 0; i < count; i++) {
        memset(&n[i].key_val, 0, sizeof n[i].key_val);
        node_setkeytt(&n[i], V_NIL);
        node_setnext(&n[i], 0);
        set_empty(&n[i].val);
    }
}

struct tabmig *tab_new_record(lua_State *L)
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
        rec = tab_new_record(L); /* optional */
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
    uint32_t inplace = keep ? oldasize : 0;
    for (uint32_t i = inplace; i < nasize; i++)
        set_empty(&na[i]);
    tab_clear_nodes(nn, nsize);
    if (t->mig == NULL && rec == NULL) {
        /* A small table (nothing moving, no record): the plain parts. */
        tvalue *oldarray = keep ? NULL : t->array;
        node *oldnode = t->node;
        uint32_t oldnsize = sizenode(t);
        t->array = na;
        t->asize = nasize;
        t->node = nn;
        t->lsizenode = (uint8_t)lsize;
        t->lastfree = nsize > 0 ? nn + nsize : NULL;
        if (oldarray != NULL) {
            for (uint32_t i = 0; i < oldasize; i++) {
                if (is_nil(&oldarray[i]))
                    continue;
                if (i < nasize) {
                    na[i] = oldarray[i];
                } else {
                    tvalue k;
                    set_int(&k, (rt_int)i + 1);
                    tab_insert_key(L, t, &k)->val = oldarray[i];
                }
            }
            gc_free(g, oldarray, array_bytes(oldasize));
        }
        for (uint32_t i = 0; i < oldnsize; i++) {
            node *o = &oldnode[i];
            if (is_nil(&o->val))
                continue;
            tvalue k;
            tab_node_key(o, &k);
            if (is_int(&k) && in_array(t, k.v.i))
                t->array[k.v.i - 1] = o->val;
            else
                tab_insert_key(L, t, &k)->val = o->val;
        }
        if (oldnsize > 0)
            gc_free(g, oldnode, node_bytes(oldnsize));
        gc_resized(g, obj2gc(t));
        return TAB_OK;
    }
    tabview v;
    tab_view(t, &v);
    const void *oldp[TAB_MAX_BLOCKS];
    size_t oldn[TAB_MAX_BLOCKS];
    int nold = tab_owned(t, oldp, oldn);
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
                tab_insert_key(L, t, &k)->val = *s;
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
                tab_insert_key(L, t, &k)->val = o->val;
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

void tab_drop_prep(global_State *g, table *t)
{
    struct tabmig *m = t->mig;
    if (m == NULL || m->prep == NULL)
        return;
    gc_free(g, m->prep, node_bytes(m->prepsize));
    m->prep = NULL;
    m->prepsize = m->prepdone = 0;
}

/* Can the readied part take every entry of t->node (at most nkeyed) and
 * the keys stored while t->node drains into it?  A part readied smaller
 * (the census) may have been overtaken by new keys meanwhile. */
static int prep_has_room(const table *t)
{
    const struct tabmig *m = t->mig;
    return (uint64_t)m->prepsize >=
           (uint64_t)m->nkeyed + sizenode(t) / TAB_MOVE_NODES + 1u;
}

/* The readied part becomes t->node; the old one (if any) drains.  Its
 * entries keep their positions in tab_view's order or move later in it:
 * a chunked scan in progress loses nothing (tab.h). */
static void switch_parts(table *t)
{
    struct tabmig *m = t->mig;
    if (!is_dummy(t)) {
        m->onode = t->node;
        m->osize = sizenode(t);
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
    if (s != NULL && __builtin_expect(t->marked & MARK_CLEARING, 0))
        gc_clearslot(t, s); /* a dead value is not moved */
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

/* One step of array work: the old slots first (TAB_MOVE_SLOTS copied,
 * or TAB_CHEAP_SLOTS counted when the block grew in place), then the
 * tail (what the copy left of TAB_MOVE_SLOTS, each of which may take
 * its key out of a hash part, or once the old slots are done
 * TAB_CHEAP_SLOTS only emptied when no hash part ever held an integer
 * key); or TAB_CHEAP_SLOTS of a recount. */
static void array_step(lua_State *L, table *t)
{
    global_State *g = G(L);
    struct tabmig *m = t->mig;
    uint32_t n = TAB_MOVE_SLOTS, cheap = TAB_CHEAP_SLOTS;
    if (m->amode == MIG_RECOUNT) {
        for (; cheap > 0 && m->rcur < t->asize; cheap--)
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
        uint32_t i = m->acur,
                 end = m->abase - i < cheap ? m->abase : i + cheap;
        uint32_t alive = 0;
        for (; i < end; i++)
            alive += !is_nil(&t->array[i]);
        m->alive += alive;
        m->acur = end;
    }
    for (; n > 0 && m->oarray != NULL; n--) {
        tvalue *s = &t->array[m->acur];
        if (__builtin_expect(t->marked & MARK_CLEARING, 0))
            gc_clearslot(t, &m->oarray[m->acur]); /* not moved if dead */
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
    if (m->oarray == NULL && m->nints == 0 &&
        (m->onode == NULL || m->onints == 0)) {
        /* No hash part ever held an integer key: the tail is only made
         * empty.  (Not while copying: the copy is what the step pays
         * for, appends claim the tail themselves.) */
        uint32_t i = m->tc,
                 end = m->nasize - i < cheap ? m->nasize : i + cheap;
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
    if (__builtin_expect(t->marked & MARK_CLEARING, 0))
        gc_clearnode(t, o); /* a dead entry is not moved */
    if (is_nil(&o->val))
        return 1;
    tvalue k; /* live, so not dead */
    k.v = o->key_val;
    k.tt = node_keytt(o);
    node *n = tab_insert_key(L, t, &k);
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
    uint32_t size = sizenode(t);
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
        tab_clear_nodes(m->prep + m->prepdone, c);
        m->prepdone += c;
        if (m->prepdone < m->prepsize)
            return;
        if (prep_has_room(t)) {
            switch_parts(t);
        } else { /* overtaken: the load trigger readies a bigger one */
            gc_free(G(L), m->prep, node_bytes(m->prepsize));
            m->prep = NULL;
        }
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

void tab_grow_step(lua_State *L, table *t, const tvalue *k)
{
    struct tabmig *m = t->mig;
    uint32_t a = t->asize;
    if (m->amode == MIG_IDLE && is_int(k) && a > 0 &&
        (rt_uint)k->v.i == (rt_uint)a + 1u && !is_nil(&t->array[a - 1])) {
        if (m->sparse) {
            m->amode = MIG_RECOUNT;
            m->rcur = m->alive = 0;
        } else if (a <= TAB_MAXASIZE / 2) {
            start_array(L, t, 2 * a);
        }
    }
    uint32_t size = sizenode(t);
    if (m->prep == NULL && m->onode == NULL && 2 * size > TAB_CLEAR_ONCE &&
        size < (1u << TAB_MAXHBITS) && m->nkeyed >= size - size / 4)
        start_prep(L, t, 2 * size, 0);
    array_step(L, t);
    hash_step(L, t);
}

/* Key k (normalised, absent) is integer asize + 1 while the array grows
 * and its tail has reached k: make that one slot valid at once, so that
 * appending costs O(1).  NULL otherwise. */
tvalue *tab_claim_tail(lua_State *L, table *t, const tvalue *k)
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

/* A big table's hash part has no room for a new key: its next part was
 * not readied in time (no memory then, or one small enough to ready now:
 * TAB_CLEAR_ONCE), so ready it at once.  TAB_AGAIN: rehash the exact way
 * (also when the doubled part does not fit: the exact sizes may). */
static int grow_now(lua_State *L, table *t)
{
    struct tabmig *m = t->mig;
    if (m->onode != NULL)
        return TAB_AGAIN; /* full while draining: never, by the room rule */
    if (m->prep != NULL && !prep_has_room(t)) {
        gc_free(G(L), m->prep, node_bytes(m->prepsize));
        m->prep = NULL;
    }
    if (m->prep == NULL) {
        uint32_t size = sizenode(t);
        if (size >= (1u << TAB_MAXHBITS))
            return TAB_AGAIN;
        start_prep(L, t, size > 0 ? 2 * size : 4, 1);
        if (m->onode != NULL || m->prep == NULL)
            return TAB_AGAIN; /* the exact rehash may need less */
    }
    tab_clear_nodes(m->prep + m->prepdone, m->prepsize - m->prepdone);
    m->prepdone = m->prepsize;
    switch_parts(t);
    return TAB_OK;
}

/* The hash part is full and `key` is new: a big table readies its next
 * part; a small one is sized for every live entry plus that key. */
/* The new sizes for t with key added: the array part's (returned), the
 * hash part's (*nhash) and whether key goes to the hash (*extra).  A
 * function of its own, so that the counts are off the C stack while the
 * parts are allocated (and a collector step may run). */
static __attribute__((noinline)) uint32_t
new_sizes(table *t, const tvalue *key, uint32_t *nhash, uint32_t *extra)
{
    /* A list that grows by appending: key asize + 1, every array slot
     * used and no hash part.  The count below would find the asize + 1
     * keys 1..asize + 1 and nothing else, so the array gets the power of
     * two that holds them, and the hash part nothing. */
    uint32_t a = t->asize;
    if (is_int(key) && is_dummy(t) && !t->moving &&
        (rt_uint)key->v.i - 1u == a && a < TAB_MAXASIZE) {
        uint32_t i = 0;
        while (i < a && !is_nil(&t->array[i]))
            i++;
        if (i == a) {
            *nhash = *extra = 0;
            return 1u << ceil_log2(a + 1u);
        }
    }
    uint32_t nums[TAB_MAXABITS + 1];
    memset(nums, 0, sizeof nums);
    uint32_t total;
    uint32_t nint = count_all(t, nums, &total);
    total++;
    if (is_int(key))
        nint += count_int(key->v.i, nums);
    uint32_t inarray;
    uint32_t asize = best_array_size(nums, nint, &inarray);
    *extra = is_int(key) && (rt_uint)key->v.i - 1u < asize ? 0u : 1u;
    *nhash = total - inarray;
    return asize;
}

int tab_rehash(lua_State *L, table *t, const tvalue *key)
{
    int rc;
    if (t->mig != NULL && (rc = grow_now(L, t)) != TAB_AGAIN)
        return rc;
    do {
        uint32_t nhash, extra;
        uint32_t asize = new_sizes(t, key, &nhash, &extra);
        rc = resize_parts(L, t, asize, nhash, extra);
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
