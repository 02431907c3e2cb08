/*
 * tab.h — Lua tables: an array part and a hash part (vm/obj.h has the
 * layout), with Lua 5.4's semantics for keys, `#` and `next`.
 *
 * Layout and invariants (the collector reads the structs directly):
 *   - t->array[0..asize-1] holds the values of the integer keys 1..asize;
 *     an unused slot is empty (is_nil).  No key 1..asize is ever in the
 *     hash part.
 *   - t->node[0..tab_sizenode(t)-1] are the hash nodes.  A node is
 *       pristine  key_tt == V_NIL: never used since the part was made;
 *       live      a key and a non-nil value;
 *       removed   a key (possibly V_DEADKEY) and an empty value.
 *     A removed key keeps its node until the next rehash, so `next` can
 *     continue from it.  The collector may turn a removed collectable key
 *     into V_DEADKEY (keeping key_val.gc); lookups never match a dead key,
 *     tab_next finds it by pointer identity.
 *   - Chains: node->next is the offset of the next node (0 ends the chain).
 *     Every key is reachable by following the chain from its main
 *     position (its hash modulo the size).  A key that occupies another
 *     key's main position is moved away when that other key arrives, so
 *     chains stay short.  Existing entries move only when a new key is
 *     inserted (moved entries get the barrier as if stored) or on a
 *     rehash (gc_resized is called).
 *   - An empty hash part is a shared static dummy node (t->lastfree ==
 *     NULL, lsizenode == 0), never written: lookups need no NULL check.
 *   - Keys are normalised: a float with an exact integer value is stored
 *     as that integer, so t[1.0] and t[1] are one slot.  Nil and NaN are
 *     never keys.
 *   - Assigning to an existing key (nil included) and removing never move
 *     storage; only inserting a new key can.
 *   - A ROM table (MARK_ROM) is a const flash part of hash nodes only,
 *     with a RAM overlay for what a program writes to it: the lookups,
 *     stores, tab_next and tab_length below see the union.
 *     docs/rom-tables.md describes the design.
 *
 * Growth.  A small table (tab_small: asize + TAB_NODE_WEIGHT x sizenode
 * at most TAB_SYNC_MAX) that runs out of room rehashes at once, as Lua
 * does: every entry is counted,
 * the array part gets the integer keys 1..n for the largest power of two
 * n more than half used, the rest go to a new hash part.  A bigger table
 * ("big": it has a growth record, t->mig) never does work proportional
 * to its size in one operation.  Its parts grow incrementally, and every
 * store of a new key pays a bounded share:
 *   - Hash part.  When 3/4 of its nodes are in use, a part of twice the
 *     size is allocated and made pristine TAB_CLEAR_NODES nodes per new
 *     key (a part of at most TAB_CLEAR_ONCE nodes: at once, when the
 *     current one is full); when it is ready it becomes t->node and the
 *     old part is drained TAB_MOVE_NODES nodes per new key.  A new part has
 * room for every old entry plus the new keys stored until the old part is
 *     empty, so a drain never runs out of room.
 *   - Array part.  Storing key asize + 1 while t[asize] is non-nil (and
 *     the last census did not find the array sparse) doubles the array
 *     block: in place when the arena allows
 *     (arena_grow), else into a new block that the old one is copied to,
 *     TAB_MOVE_SLOTS slots per new key (a block grown in place has its
 *     old slots counted instead, TAB_CHEAP_SLOTS per new key).  The new
 *     slots past the old size (the tail) are made valid in order, as many
 *     per new key and at once for the key just past them (appending stays
 *     O(1)); each takes its key out of the hash part if it was there
 *     (TAB_CHEAP_SLOTS per new key when no hash part ever held an
 *     integer key: they are only emptied).
 *   - t->asize is always the valid prefix of the array block (the fast
 *     paths need nothing else).  While entries move (t->moving: an old
 *     node part drains, or an old array block is copied) every key lives
 *     in exactly one place: the new parts, the old array block past the
 *     copy cursor, the valid tail past the prefix, or the old node part
 *     past the drain cursor.  A lookup that misses in the new parts looks
 *     in the old ones; a new key always goes to the new parts.  Moved
 *     entries get the barrier as if stored.  A block grown in place needs
 *     no flag: its valid tail is the prefix, keys past it are in the hash
 *     part as usual.
 *   - Nothing moves while no new key is stored, so a traversal (which
 *     stores none) sees a fixed order: valid array slots, new nodes, old
 *     nodes (tab_view's order).  Only allocation can fail, and only when
 *     a growth starts, before anything changes; a failed start is tried
 *     again later or falls back to the at-once rehash.
 *   - Sizes are chosen without counting the whole table: the hash part
 *     doubles, the array part doubles on appends; a drain counts what it
 *     moves and, when that fills less than about an eighth of the part,
 *     readies one of a half or a quarter the size; a dense run of integer
 *     keys it moved grows the array.  A grown array found at most a
 *     quarter full (or a recount found at most half full) does not double
 *     again until a recount, started by the next append, finds it more
 *     than half full.
 *
 * Bounds (n = entries, N = asize + sizenode):
 *   tab_get*, tab_set* of an existing key     O(1) expected (a chain walk
 *                                             in the new, then the old part)
 *   tab_set* of a new key                     O(1) expected, plus for a big
 *                                             table TAB_CLEAR_NODES nodes
 *                                             cleared, TAB_MOVE_NODES moved
 *                                             and TAB_MOVE_SLOTS array
 *                                             slots copied or validated (or
 *                                             2 x TAB_CHEAP_SLOTS counted
 *                                             or emptied);
 *                                             for a small one, a rehash of
 *                                             at most TAB_SYNC_MAX slot
 *                                             units (a node: 4 units).
 *                                             Finding a free node walks
 *                                             `lastfree` down: amortised
 *                                             O(1).  Under memory pressure
 *                                             (a part that could not be
 *                                             allocated early) the growth
 *                                             is done at once: O(N)
 *   tab_length                                O(log asize) when the array
 *                                             part ends in nil, else
 *                                             O(log n) lookups
 *   tab_next                                  O(1) to find the key plus a
 *                                             scan to the next used slot:
 *                                             O(N) per call worst case,
 *                                             O(N) for a whole traversal
 *   tab_resize                                O(N) (a no-op while moving)
 *   tab_new, tab_new_sized, tab_free          O(1) + clearing the parts
 *
 * Memory: parts come from gc_alloc/gc_realloc and go back through gc_free
 * with their exact sizes.  Old and new parts coexist only while entries
 * move (and a hash part being readied, from 3/4 full to its switch): at
 * most what a rehash at once holds at its peak, for longer.  A growth
 * advances only when new keys are stored (neither lookups nor the
 * collector move entries: slot pointers and traversals stay valid), so
 * a table that stops growing midway keeps its old parts until its next
 * new keys.  A
 * growth allocates before it touches anything: on failure the table keeps
 * all its contents.  The table, key and value given to a call that may
 * allocate (tab_set*, tab_resize) must be reachable by the collector
 * (e.g. on the stack), since an emergency collection can run inside the
 * allocation.
 */
#ifndef RTLUA_TAB_H
#define RTLUA_TAB_H

#include "vm/state.h"
#include "vm/str.h"

/* Raw equality of two values of one variant tag tt, as table keys and
 * rawequal see it: nil, false and true by the tag alone, numbers by value
 * (an integer and a float have different tags: the caller compares
 * them), long strings by their bytes, the rest by identity.  The one copy
 * for key lookups, arith_equalobj and the ROM tables' stores. */
static inline __attribute__((always_inline)) int
tab_rawequal(uint8_t tt, const value *a, const value *b)
{
    switch (tt) {
    case V_NIL:
    case V_EMPTY:
    case V_FALSE:
    case V_TRUE:
        return 1;
    case V_INT:
        return a->i == b->i;
    case V_FLT:
        return a->n == b->n;
    case V_LIGHTUD:
        return a->p == b->p;
    case V_LCF:
        return a->f == b->f;
    case V_LNGSTR:
        return a->gc == b->gc || str_eq(gco2str(a->gc), gco2str(b->gc));
    default:
        return a->gc == b->gc;
    }
}

/* The RAM side of a ROM table (docs/rom-tables.md): a ROM table's
 * flash part is const, and what a program writes to it goes here. */
typedef struct romslot {
    table *ov;            /* keys not in flash, or NULL */
    table *over;          /* flash keys' new values, by node index + 1 */
    table *mt;            /* metatable set at run time, or NULL */
    struct romslot *next; /* g->romslots */
    uint8_t linked;       /* on g->romslots */
} romslot;

/* A ROM table is never on a gray list: its gclist field holds its slot. */
#define tab_romslot(t) ((romslot *)(void *)(t)->gclist)

/* The metatable of a table, RAM or ROM.  (Inline in the files built for
 * size too: tm_finishget, a method found through __index, called it.) */
static inline __attribute__((always_inline)) table *
tab_metatable(const table *t)
{
    return is_rom(t) ? tab_romslot(t)->mt : t->metatable;
}

/* Results of tab_set* and tab_resize. */
enum {
    TAB_OK = 0,
    TAB_ERR_NILKEY = 1, /* "index is nil" */
    TAB_ERR_NANKEY = 2, /* "index is NaN" */
    TAB_ERR_MEM = 3     /* not enough memory: the table is unchanged */
};

/* log2 of the largest array part; integer keys above 2^TAB_MAXABITS live
 * in the hash part.  Bounds the counting array of a rehash (stack) and
 * keeps array bytes within the arena's 2^31. */
#define TAB_MAXABITS 26
#define TAB_MAXASIZE (1u << TAB_MAXABITS)
/* log2 of the largest hash part (nodes); bounds node bytes likewise,
 * and in the 32-bit model the chain offsets, 24-bit fields (vm/obj.h). */
#if RTLUA_NUM == 32
#define TAB_MAXHBITS 23
#else
#define TAB_MAXHBITS 25
#endif

/* Small tables rehash at once: asize + TAB_NODE_WEIGHT x sizenode at
 * most TAB_SYNC_MAX.  Bounds that rehash's work (on a 25 MHz Cortex-M3,
 * about 100 us for 64 array slots or 16 nodes: a node is counted,
 * hashed and linked, an array slot only copied).  Bigger tables grow
 * incrementally and keep a growth record (about 120 bytes). */
#define TAB_SYNC_MAX 64
#define TAB_NODE_WEIGHT 4
#define tab_small(asize, nsize)                                               \
    ((uint64_t)(asize) + (uint64_t)TAB_NODE_WEIGHT * (nsize) <= TAB_SYNC_MAX)
/* A rehash of a table no bigger than this (by the same weights, before
 * it) is not timed for rt.stats()'s worst_rehash_us: its two clock reads
 * cost about as much as the rehash itself (a few microseconds). */
#define TAB_UNTIMED_MAX 8
/* Per new key stored into a big table: nodes of a readied hash part made
 * pristine, old nodes moved, array slots copied or made valid (taking
 * their key out of the hash part), array slots only counted or emptied.
 * Bound the store's extra work; TAB_MOVE_NODES also sets the room a new
 * hash part must have for the keys stored while the old one drains. */
#define TAB_CLEAR_NODES 16
#define TAB_MOVE_NODES 8
/* A big table's next hash part of at most this many nodes is made
 * pristine at once when the current one is full (a clear that cheap is
 * not worth holding the part early: that memory is scarce where tables
 * are small).  Its entries still drain TAB_MOVE_NODES at a time. */
#define TAB_CLEAR_ONCE 64
#define TAB_MOVE_SLOTS 32
#define TAB_CHEAP_SLOTS 128

/* An empty table (shared dummy hash part, no array); NULL when out of
 * memory. */
table *tab_new(lua_State *L);
/* A table with room for keys 1..narray and nhash other keys: filling it
 * within those sizes allocates nothing more.  NULL when out of memory. */
table *tab_new_sized(lua_State *L, uint32_t narray, uint32_t nhash);

/* Lookups.  Never NULL: a missing key gives a pointer to a shared absent
 * value (is_nil true).  The result may be overwritten in place only when
 * it is not nil (an existing entry) and the table is not a ROM table,
 * followed by gc_barrier. */
const tvalue *tab_get(table *t, const tvalue *key);
const tvalue *tab_getint(table *t, rt_int key);
static inline __attribute__((always_inline)) const tvalue *
tab_getshortstr(table *t, str *key);          /* below */
const tvalue *tab_getstr(table *t, str *key); /* any string */

/* What lookups of missing keys return (const: never written). */
extern const tvalue tab_absent;

/* The old parts' entry for a short string key (t->moving), else
 * &tab_absent. */
const tvalue *tab_movedshortstr_(const table *t, str *key);

/* An interned short string in the table's own hash part (a ROM table's
 * flash part only).  Inline: field access and globals live on it. */
static inline __attribute__((always_inline)) const tvalue *
tab_rawgetshortstr(const table *t, str *key)
{
    const node *n = &t->node[key->hash & ((1u << t->lsizenode) - 1u)];
    for (;;) {
        if (node_keytt(n) == V_SHRSTR && n->key_val.gc == obj2gc(key))
            return &n->val;
        if (node_next(n) == 0)
            return __builtin_expect(t->moving, 0) ? tab_movedshortstr_(t, key)
                                                  : &tab_absent;
        n += node_next(n);
    }
}

/* The slow case of a lookup: a ROM table, or a weak table flagged for
 * the collector's clear (MARK_CLEARING: a dead entry it finds reads as
 * absent, gc_clearslot).  One test of the header. */
#define tab_slowcase(t)                                                       \
    __builtin_expect(((t)->marked & (MARK_ROM | MARK_CLEARING)) != 0, 0)

/* The slow case of tab_getshortstr, out of line. */
const tvalue *tab_romgetshortstr(table *t, str *key);

static inline __attribute__((always_inline)) const tvalue *
tab_getshortstr(table *t, str *key)
{
    if (tab_slowcase(t))
        return tab_romgetshortstr(t, key);
    return tab_rawgetshortstr(t, key);
}

/* A ROM table's RAM part (keys not in flash), for a key its flash part
 * lacks: &tab_absent when it has none. */
const tvalue *tab_romramgetshortstr(table *t, str *key);

/* tab_getshortstr for the interpreter's reads of a global or a field
 * (OP_GETTABUP, OP_GETFIELD): a library's field (`math.floor`, a global
 * function such as `print`) is found inline too, in the flash part of a
 * ROM table none of whose flash fields was ever written (no `over`), as
 * tab_romgetshortstr would find it; only a key the flash lacks (a
 * program's own global) calls, for the RAM part alone. */
static inline __attribute__((always_inline)) const tvalue *
tab_getshortstr_read(table *t, str *key)
{
    if (!tab_slowcase(t))
        return tab_rawgetshortstr(t, key);
    if (!is_rom(t) || tab_romslot(t)->over != NULL)
        return tab_romgetshortstr(t, key);
    const node *n = &t->node[key->hash & ((1u << t->lsizenode) - 1u)];
    for (;;) {
        if (node_keytt(n) == V_SHRSTR && n->key_val.gc == obj2gc(key))
            return &n->val;
        if (node_next(n) == 0)
            return tab_romramgetshortstr(t, key);
        n += node_next(n);
    }
}

/* May the VM read t->array[i - 1] in place (i in the array part, and no
 * dead weak value there to clear)?  A ROM table has no array part. */
#define tab_inarray(t, i)                                                     \
    ((rt_uint)(i)-1u < (rt_uint)(t)->asize && !((t)->marked & MARK_CLEARING))

/* t[key] = val.  TAB_OK, TAB_ERR_NILKEY, TAB_ERR_NANKEY or TAB_ERR_MEM;
 * on an error nothing has changed.  A nil val removes the entry (an
 * absent key stays absent and nothing is allocated).  A store with a
 * string key clears t->flags (it may add a metamethod). */
int tab_set(lua_State *L, table *t, const tvalue *key, const tvalue *val);
/* The same when a lookup of key in t has just returned &tab_absent (no
 * entry, live or removed, and no array slot for it): a new key needs no
 * second search (for a ROM table, or a weak table being cleared, it
 * searches as tab_set does). */
int tab_setnew(lua_State *L, table *t, const tvalue *key, const tvalue *val);
int tab_setint(lua_State *L, table *t, rt_int key, const tvalue *val);
int tab_setstr(lua_State *L, table *t, str *key, const tvalue *val);

/* A border: j with t[j] non-nil and t[j+1] nil (or j == RT_INT_MAX), or
 * 0 when t[1] is nil. */
rt_uint tab_length(table *t);

/* Traversal: *key nil starts.  Returns 1 with the next key and value
 * written, 0 at the end, -1 when *key is not in the table ("invalid key to
 * 'next'").  Order: array part, then hash nodes.  Stays valid while
 * existing fields are assigned or removed during the traversal. */
int tab_next(table *t, tvalue *key, tvalue *val);

/* Give the table an array part of nasize slots and a hash part for at
 * least nhsize keys (a power of two; raised as needed to hold every entry
 * that does not go to the array).  Entries with nil values are dropped.
 * TAB_OK, or TAB_ERR_MEM with the table unchanged. */
int tab_resize(lua_State *L, table *t, uint32_t nasize, uint32_t nhsize);

/* Bytes of the table header (what gc_newobj allocated). */
size_t tab_objsize(const table *t);
/* Header plus array and node parts. */
size_t tab_memsize(const table *t);
/* Has t blocks of its own besides the header (tab_memsize(t) >
 * tab_objsize(t))?  O(1): for the sweep, which counts such a table as two
 * objects.  (An empty hash part is the static dummy, lastfree NULL.) */
#define tab_hasparts(t)                                                       \
    ((t)->asize > 0 || (t)->lastfree != NULL || (t)->mig != NULL)
/* Free the parts and the header (the sweep and gc_freeall). */
void tab_free(global_State *g, table *t);
/* Memory is short (an emergency collection): free a big table's next
 * hash part readied ahead of its need (tab.h "Growth": allocated when 3/4
 * of the nodes are in use, made pristine a few nodes per new key), which
 * a table that stopped growing keeps for good.  The growth readies it
 * again at its next new keys, or at once when the part is full. */
void tab_drop_prep(global_State *g, table *t);
/* Hash nodes, 0 for the dummy. */
uint32_t tab_sizenode(const table *t);

/* Set a table's metatable (NULL removes it); for a ROM table it goes to
 * its slot.  Allocates nothing. */
void tab_setmetatable(lua_State *L, table *t, table *mt);

/* ROM slots (the collector): mark roots, and forget every overlay when
 * the state's objects are all freed. */
void tab_romslots_reset(global_State *g);

/* For the collector, traversal and tests: a table's storage as ranges.
 * arr[r][i] is the value of integer key afirst[r] + i + 1; nodes[r] are
 * hash nodes (old ones drained are empty).  Ranges in traversal order:
 * the new array block's valid prefix, its valid tail, the old block's
 * part not copied yet, the hash part, the old hash part.  Unused ranges
 * have length 0.  The ranges change only when a new key is stored, and
 * moving entries never shortens what lies before a slot that did not
 * move: a chunked scan by position (gc.c) sees every unmoved slot once
 * or more, and moved ones get the barrier. */
#define TAB_VIEW_ARRAYS 3
#define TAB_VIEW_NODES 2
typedef struct tabview {
    tvalue *arr[TAB_VIEW_ARRAYS];
    uint32_t afirst[TAB_VIEW_ARRAYS];
    uint32_t alen[TAB_VIEW_ARRAYS];
    node *nodes[TAB_VIEW_NODES];
    uint32_t nlen[TAB_VIEW_NODES];
} tabview;
void tab_view(const table *t, tabview *v);
/* Slots of all ranges. */
uint32_t tab_view_slots(const tabview *v);

/* Blocks a table owns besides its header (array, nodes, growth record,
 * old parts): at most TAB_MAX_BLOCKS written to out; returns the count. */
#define TAB_MAX_BLOCKS 6
int tab_blocks(const table *t, const void **out);

/* For the collector: a node's key as a value.  Returns 0 for a pristine
 * node (out is nil), else 1; a dead key comes out with tt V_DEADKEY and
 * its old gc pointer. */
int tab_node_key(const node *n, tvalue *out);

#endif
