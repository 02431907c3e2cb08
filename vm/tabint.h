/*
 * tabint.h — what the two halves of the table module share: vm/tab.c
 * (hashing, lookups, stores, `#`, traversal, life cycle, ROM tables) and
 * vm/tabgrow.c (the views of the parts, the rehash at once and the
 * incremental growth).  No other file includes it; vm/tab.h states the
 * layout, the invariants and the bounds.
 */
#ifndef RTLUA_TABINT_H
#define RTLUA_TABINT_H

#include "vm/strhash.h"
#include "vm/tab.h"

/* The hash part of every table without one (vm/tab.c). */
extern const node tab_dummynode;

#define DUMMY ((node *)&tab_dummynode)
#define is_dummy(t) ((t)->lastfree == NULL)
#define sizenode(t) (is_dummy(t) ? 0u : 1u << (t)->lsizenode)
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

/* ---- Small helpers ------------------------------------------------------ */

#define rom_case(t) __builtin_expect(is_rom(t), 0)
#define slow_case(t) tab_slowcase(t)
#define moving_case(t) __builtin_expect((t)->moving, 0)

static inline uint32_t hash_uint(rt_uint u)
{
#if RTLUA_NUM == 64
    return hash_mix32((uint32_t)u ^ (uint32_t)(u >> 32));
#else
    return hash_mix32(u);
#endif
}

/* find_in for an integer key, the common case, without the switches. */
static inline node *find_int(node *base, uint8_t lsize, rt_int key)
{
    node *n = &base[hash_uint((rt_uint)key) & ((1u << lsize) - 1u)];
    for (;;) {
        if (node_keytt(n) == V_INT && n->key_val.i == key)
            return n;
        if (node_next(n) == 0)
            return NULL;
        n += node_next(n);
    }
}

static inline int in_array(const table *t, rt_int k)
{
    return (rt_uint)k - 1u < (rt_uint)t->asize;
}

/* ceil(log2(x)) for x >= 1. */
static inline uint32_t ceil_log2(uint32_t x)
{
    return x <= 1 ? 0 : 32u - (uint32_t)__builtin_clz(x - 1u);
}

/* ---- Across the two files ----------------------------------------------- */

/* vm/tab.c: give a new key (normalised, not present) a node of t->node,
 * whose value is empty; NULL when the hash part has no room.  Allocates
 * nothing. */
node *tab_insert_key(lua_State *L, table *t, const tvalue *key);

/* vm/tabgrow.c */
/* Make `count` nodes pristine. */
void tab_clear_nodes(node *n, uint32_t count);
/* A zeroed growth record, or NULL when out of memory. */
struct tabmig *tab_new_record(lua_State *L);
/* Every block the table owns besides its header, with its size: at most
 * TAB_MAX_BLOCKS. */
int tab_owned(const table *t, const void **p, size_t *n);
/* A big table is about to store new key k: start what is due, then take
 * one step of each growth in progress. */
void tab_grow_step(lua_State *L, table *t, const tvalue *k);
/* Has tab_grow_step anything to do for new key k?  Inline: between
 * growths most new keys of a big table have nothing to pay. */
static inline int tab_grow_due(const table *t, const tvalue *k)
{
    const struct tabmig *m = t->mig;
    uint32_t size = sizenode(t);
    return m->amode != MIG_IDLE || m->prep != NULL || m->onode != NULL ||
           (2 * size > TAB_CLEAR_ONCE && m->nkeyed >= size - size / 4) ||
           (is_int(k) && (rt_uint)k->v.i == (rt_uint)t->asize + 1u);
}
/* k (normalised, absent) is the integer the growing array's tail has
 * reached: its slot, made valid at once; NULL otherwise. */
tvalue *tab_claim_tail(lua_State *L, table *t, const tvalue *k);
/* The hash part is full and `key` is new: make room (tabgrow.c). */
int tab_rehash(lua_State *L, table *t, const tvalue *key);

#endif
