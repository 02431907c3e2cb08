/*
 * str.c — strings: interning in the ROM then the RAM table, the
 * incremental resize of the RAM table, and its sweep (see str.h for the
 * invariants and bounds).
 */
#include "vm/str.h"
#include "gc/gc.h"
#include "port/port.h"
#include "romstr.h"

#include <string.h>

_Static_assert((STRTAB_MIN_SIZE & (STRTAB_MIN_SIZE - 1)) == 0,
               "the string table size must be a power of 2");
_Static_assert((ROMSTR_SLOTS & (ROMSTR_SLOTS - 1)) == 0,
               "the ROM lookup table size must be a power of 2");
_Static_assert(STR_SHORT_MAX < 0xFF, "shrlen 0xFF marks long strings");
_Static_assert(STR_SHORT_MAX <= STRHASH_BLOCK,
               "a short string is one block of the hash");
_Static_assert(STRTAB_MOVE_PER_OP >= 1 && STRTAB_CLEAR_PER_OP >= 1,
               "a resize must make progress");

const uint32_t str_rom_count = ROMSTR_COUNT;

#define LONG_MARK 0xFFu

/* The RAM strings' hash key, made by str_init from port_entropy() (a
 * per-boot seed).  File-static, not in the state, because str_hash has
 * no state to hand and there is one state at a time (state_open_in
 * refuses a second). */
static strhash_key ram_key;

uint32_t str_hash_bytes(const char *s, size_t len)
{
    return strhash_compute(&ram_key, s, len);
}

int str_is_rom(const str *s)
{
    return is_rom(s);
}

/* The len bytes at a and b are equal (len <= STR_SHORT_MAX): a word
 * at a time, then bytes, inline.  Names and captures are a few bytes,
 * where a call of memcmp cost more than the compare (35 instructions a
 * hit on mps2-an385, most of an interning's lookup). */
static inline int same_bytes(const char *a, const char *b, size_t len)
{
    for (; len >= 4; a += 4, b += 4, len -= 4) {
        uint32_t x, y;
        memcpy(&x, a, 4);
        memcpy(&y, b, 4);
        if (x != y)
            return 0;
    }
    for (; len > 0; a++, b++, len--)
        if (*a != *b)
            return 0;
    return 1;
}

static int same_short(const str *p, const char *s, size_t len, uint32_t h)
{
    return p->hash == h && p->shrlen == len && same_bytes(str_data(p), s, len);
}

/* The ROM lookup by the keyless hash h = strhash_probe(s, len), inlined
 * into interning (len <= STR_SHORT_MAX). */
static inline const str *rom_lookup(const char *s, size_t len, uint32_t h)
{
    uint32_t at = h & (ROMSTR_SLOTS - 1);
    for (uint32_t i = 0; i < ROMSTR_MAX_PROBE; i++) {
        uint16_t k = romstr_slots[at];
        if (k == 0)
            return NULL;
        const str *r = romstr_ptrs[k - 1];
        if (same_short(r, s, len, h))
            return r;
        at = (at + 1) & (ROMSTR_SLOTS - 1);
    }
    return NULL;
}

rt_cold const str *str_rom_find(const char *s, size_t len)
{
    return len <= STR_SHORT_MAX ? rom_lookup(s, len, strhash_probe(s, len))
                                : NULL;
}

/* ---- The attached flash image's strings (lang/image.h) ------------------
 * Its lookup table, searched after the ROM one and before the RAM one;
 * file-static as ram_key is (one state at a time), cleared by str_init. */
static struct {
    const str *const *strings;
    const uint16_t *slots;
    uint32_t nslots;
    uint32_t maxprobe;
} image;

const str *str_image_lookup(const str *const *strings, const uint16_t *slots,
                            uint32_t nslots, uint32_t maxprobe, const char *s,
                            size_t len, uint32_t h)
{
    uint32_t at = h & (nslots - 1);
    for (uint32_t i = 0; i < maxprobe; i++) {
        uint16_t k = slots[at];
        if (k == 0)
            return NULL;
        const str *r = strings[k - 1];
        if (same_short(r, s, len, h))
            return r;
        at = (at + 1) & (nslots - 1);
    }
    return NULL;
}

static inline const str *image_lookup(const char *s, size_t len, uint32_t h)
{
    if (image.slots == NULL)
        return NULL;
    return str_image_lookup(image.strings, image.slots, image.nslots,
                            image.maxprobe, s, len, h);
}

/* The ROM or image string of those bytes, or NULL. */
static const str *fixed_find(const char *s, size_t len)
{
    if (len > STR_SHORT_MAX)
        return NULL;
    uint32_t h = strhash_probe(s, len);
    const str *r = rom_lookup(s, len, h);
    return r != NULL ? r : image_lookup(s, len, h);
}

/* ---- The RAM table ------------------------------------------------------ */

static size_t buckets_bytes(uint32_t n)
{
    return (size_t)n * sizeof(str *);
}

rt_cold int str_init(lua_State *L)
{
    strtab *t = &G(L)->strt;
    strhash_key_init(&ram_key, port_entropy());
    memset(&image, 0, sizeof image);
    str **h = gc_alloc(L, buckets_bytes(STRTAB_MIN_SIZE));
    if (h == NULL)
        return -1;
    memset(h, 0, buckets_bytes(STRTAB_MIN_SIZE));
    t->hash = h;
    t->size = STRTAB_MIN_SIZE;
    t->nuse = 0;
    t->old = NULL;
    t->oldsize = 0;
    t->moved = 0;
    t->clearing = 0;
    return 0;
}

static str *find_ram(const strtab *t, const char *s, size_t len, uint32_t h)
{
    for (str *p = t->hash[h & (t->size - 1)]; p != NULL; p = p->u.hnext)
        if (same_short(p, s, len, h))
            return p;
    if (t->oldsize != 0) /* migrated buckets are empty; 0 while clearing */
        for (str *p = t->old[h & (t->oldsize - 1)]; p != NULL; p = p->u.hnext)
            if (same_short(p, s, len, h))
                return p;
    return NULL;
}

/* The next array, being cleared, becomes `hash` and the current one
 * `old`, to be migrated.  Allowed during the string sweep: the array
 * being swept keeps its indexes as `old`, and the new one is empty. */
static void switch_arrays(strtab *t)
{
    str **next = t->old;
    t->old = t->hash;
    t->oldsize = t->size;
    t->moved = 0;
    t->hash = next;
    t->size = t->clearing;
    t->clearing = 0;
}

/* Clear at most STRTAB_CLEAR_PER_OP buckets of the next array; switch
 * to it after the last.  Until then it holds no string and no walker
 * looks into it (oldsize is 0). */
static void clear_some(strtab *t)
{
    uint32_t n = t->clearing - t->moved;
    if (n > STRTAB_CLEAR_PER_OP)
        n = STRTAB_CLEAR_PER_OP;
    memset(t->old + t->moved, 0, buckets_bytes(n));
    t->moved += n;
    if (t->moved == t->clearing)
        switch_arrays(t);
}

/* One bounded unit of a resize: clear part of the next array, or move
 * at most STRTAB_MOVE_PER_OP old buckets into the current one, freeing
 * the old array after the last.  No migration during the string sweep:
 * the current array lies after the old one in the sweep's order. */
static void migrate(global_State *g)
{
    strtab *t = &g->strt;
    if (t->clearing != 0) {
        clear_some(t);
        return;
    }
    if (t->old == NULL || g->gcphase == GC_SWEEP_STRING)
        return;
    for (uint32_t n = 0; n < STRTAB_MOVE_PER_OP && t->moved < t->oldsize;
         n++) {
        str *p = t->old[t->moved];
        t->old[t->moved++] = NULL;
        while (p != NULL) {
            str *next = p->u.hnext;
            str **b = &t->hash[p->hash & (t->size - 1)];
            p->u.hnext = *b;
            *b = p;
            p = next;
        }
    }
    if (t->moved == t->oldsize) {
        gc_free(g, t->old, buckets_bytes(t->oldsize));
        t->old = NULL;
        t->oldsize = 0;
        t->moved = 0;
    }
}

/* Start a resize to an array of nsize buckets, not yet cleared: it hangs
 * on `old` with nothing in use (oldsize 0) while operations clear it. */
static void start_resize(strtab *t, str **next, uint32_t nsize)
{
    t->old = next;
    t->oldsize = 0;
    t->moved = 0;
    t->clearing = nsize;
}

/* Start a resize to twice the size, when the memory is there: the check
 * first keeps a table that cannot grow from costing an emergency
 * collection on every new string. */
static void grow(lua_State *L)
{
    global_State *g = G(L);
    strtab *t = &g->strt;
    if (t->old != NULL || t->size >= STRTAB_MAX_SIZE)
        return;
    uint32_t nsize = t->size * 2;
    size_t bytes = buckets_bytes(nsize);
    if (arena_largest_alloc(g->arena) < bytes)
        return;
    str **h = gc_alloc(L, bytes);
    if (h == NULL)
        return;
    if (t->old != NULL || t->size * 2 != nsize) {
        /* A finalizer run by an assist step inside gc_alloc made strings
         * and started a resize itself. */
        gc_free(g, h, bytes);
        return;
    }
    start_resize(t, h, nsize);
}

void str_migrate_(global_State *g)
{
    migrate(g);
}

rt_cold void str_shrink_start(global_State *g)
{
    strtab *t = &g->strt;
    if (t->old != NULL || t->size <= STRTAB_MIN_SIZE ||
        t->nuse >= t->size / STRTAB_SHRINK_DIV)
        return;
    uint32_t nsize = t->size / 2;
    while (nsize > STRTAB_MIN_SIZE && t->nuse < nsize / STRTAB_SHRINK_DIV)
        nsize /= 2;
    /* Straight from the arena: this runs inside a collector step, where
     * an allocation must not start another collection. */
    str **h = gc_rawalloc(g, buckets_bytes(nsize));
    if (h == NULL)
        return;
    start_resize(t, h, nsize);
}

/* A string found dead (other white, not yet swept) is alive again. */
static str *revive(global_State *g, str *p)
{
    if (gc_isdead(g, p))
        p->marked = (uint8_t)((p->marked & ~MARK_WHITES) | g->currentwhite);
    return p;
}

/* The RAM part of an interning: s (hash h) is no ROM string. */
static inline __attribute__((always_inline)) str *
intern_ram(lua_State *L, const char *s, size_t len, uint32_t h)
{
    global_State *g = G(L);
    strtab *t = &g->strt;
    if (t->clearing != 0 || t->old != NULL) /* (a resize under way) */
        migrate(g);
    str *p = find_ram(t, s, len, h);
    if (p != NULL)
        return revive(g, p);
    /* Grow before making the string: the growth may collect, and the new
     * string would not be anchored yet. */
    if (t->nuse >= t->size)
        grow(L);
    str *ns = gco2str(gc_newobj(L, V_SHRSTR, str_sizefor(len)));
    if (ns == NULL)
        return NULL;
    /* gc_newobj pushed it at the head of allgc, after any collection
     * work of the allocation; short strings live in the table instead. */
    g->allgc = ns->next;
    ns->next = NULL;
    /* An assist step inside the allocation may have run a finalizer that
     * made this very string. */
    p = find_ram(t, s, len, h);
    if (p != NULL) {
        if (g->newest == obj2gc(ns))
            g->newest = NULL;
        gc_free(g, ns, str_sizefor(len));
        return revive(g, p);
    }
    ns->extra = 0;
    ns->shrlen = (uint8_t)len;
    ns->hash = h;
    memcpy(ns->data, s, len);
    ns->data[len] = '\0';
    str **b = &t->hash[h & (t->size - 1)];
    ns->u.hnext = *b;
    *b = ns;
    t->nuse++;
    return ns;
}

static str *intern(lua_State *L, const char *s, size_t len)
{
    global_State *g = G(L);
    strtab *t = &g->strt;
    uint32_t h = strhash_probe(s, len);
    const str *r = rom_lookup(s, len, h);
    if (r == NULL)
        r = image_lookup(s, len, h);
    if (r != NULL)
        return (str *)r; /* const in fact: callers check str_is_rom */
    /* strhash_compute's one-block case (len <= STR_SHORT_MAX), inline:
     * its call saved the long strings' registers first */
    h = strhash_final(
        strhash_fold(ram_key.w[STRHASH_BLOCK_KEYS] ^ (uint32_t)len,
                     strhash_block(ram_key.w, (const unsigned char *)s, len)));
    /* Timed only while a resize is under way or due (gc.h: Mutator
     * pauses); a plain interning is a bounded hash and chain walk. */
    if (t->old == NULL && t->nuse < t->size)
        return intern_ram(L, s, len, h);
    gc_pausemark pause = gc_pause_begin(g);
    str *p = intern_ram(L, s, len, h);
    gc_pause_end(g, pause, &g->stats.worst_intern_cycles);
    return p;
}

str *str_newlong(lua_State *L, size_t len)
{
    if (len > (size_t)-1 - str_sizefor(0))
        return NULL;
    str *s = gco2str(gc_newobj(L, V_LNGSTR, str_sizefor(len)));
    if (s == NULL)
        return NULL;
    s->extra = 0;
    s->shrlen = LONG_MARK;
    s->hash = 0;
    s->u.lnglen = len;
    s->data[len] = '\0';
    return s;
}

void str_shortenlong(lua_State *L, str *s, size_t len)
{
    size_t old = s->u.lnglen;
    if (len >= old)
        return;
    /* A shrink is done in place and cannot fail (gc_realloc). */
    (void)gc_realloc(L, s, str_sizefor(old), str_sizefor(len));
    s->u.lnglen = len;
    s->data[len] = '\0';
}

str *str_new(lua_State *L, const char *s, size_t len)
{
    if (len <= STR_SHORT_MAX)
        return intern(L, s, len);
    str *ls = str_newlong(L, len);
    if (ls != NULL)
        memcpy(ls->data, s, len);
    return ls;
}

str *str_newz(lua_State *L, const char *s)
{
    return str_new(L, s, strlen(s));
}

uint32_t str_hash(str *s)
{
    if (s->shrlen != LONG_MARK || s->extra)
        return s->hash;
    size_t len = s->u.lnglen;
    const str *r = fixed_find(s->data, len);
    uint32_t h = r != NULL ? r->hash : strhash_compute(&ram_key, s->data, len);
    if (!is_rom(s)) { /* a long string of an image is never written */
        s->hash = h;
        s->extra = 1;
    }
    return h;
}

rt_cold int str_image_set(lua_State *L, const str *const *strings, uint32_t n,
                          const uint16_t *slots, uint32_t nslots,
                          uint32_t maxprobe)
{
    const strtab *t = &G(L)->strt;
    for (uint32_t i = 0; i < n; i++) {
        const str *s = strings[i];
        if (s->tt == V_SHRSTR &&
            find_ram(t, s->data, s->shrlen,
                     strhash_compute(&ram_key, s->data, s->shrlen)) != NULL)
            return -1;
    }
    image.strings = strings;
    image.slots = slots;
    image.nslots = nslots;
    image.maxprobe = maxprobe;
    return 0;
}

int str_eq(const str *a, const str *b)
{
    if (a == b)
        return 1;
    if (a->shrlen != LONG_MARK && b->shrlen != LONG_MARK)
        return 0; /* both interned */
    /* A builder's long string may be as short as a short one. */
    size_t n = str_len(a);
    return n == str_len(b) && memcmp(a->data, b->data, n) == 0;
}

size_t str_objsize(const str *s)
{
    return str_sizefor(str_len(s));
}

static int unlink_from(str **pp, const str *s)
{
    for (; *pp != NULL; pp = &(*pp)->u.hnext)
        if (*pp == s) {
            *pp = s->u.hnext;
            return 1;
        }
    return 0;
}

void str_remove(global_State *g, str *s)
{
    strtab *t = &g->strt;
    if (is_rom(s) || s->shrlen == LONG_MARK)
        return;
    if (unlink_from(&t->hash[s->hash & (t->size - 1)], s) ||
        (t->oldsize != 0 &&
         unlink_from(&t->old[s->hash & (t->oldsize - 1)], s)))
        t->nuse--;
}

/* ---- The sweep ---------------------------------------------------------- */

void str_sweep_start(global_State *g)
{
    g->sweepstr = 0;
    g->sweepstrpos = NULL;
}

/* A unit sweeps whole buckets, up to GC_SWEEP_STR_MAX of them and more
 * while they are empty or short (at most GC_SWEEP_STR_SCAN buckets,
 * stopping after the bucket that made GC_SWEEP_STR_MAX strings
 * examined), but a long chain only in part: at most GC_SWEEP_SCAN
 * strings examined and GC_SWEEP_STR_FREE freed, the rest in the next units
 * (g->sweepstrpos: the link to go on from).  A chain's length has no
 * bound (the soak at shift=5: a unit of 1,460 instructions, 47 us).
 * The link stays valid between units: nothing moves a string from its
 * chain during the string sweep (migrate waits for its end; a resize
 * that switches arrays keeps every chain) or frees one but the sweep,
 * and new strings go in at the chains' heads. */
int str_sweep_unit(lua_State *L, size_t *freed)
{
    global_State *g = G(L);
    strtab *t = &g->strt;
    uint32_t end = t->oldsize + t->size;
    uint32_t seen = 0, nfreed = 0, i = g->sweepstr;
    str **pp = g->sweepstrpos;
    g->sweepstrpos = NULL;
    for (uint32_t n = 0;
         i < end && (n < GC_SWEEP_STR_MAX ||
                     (n < GC_SWEEP_STR_SCAN && seen < GC_SWEEP_STR_MAX));
         n++, i++, pp = NULL) {
        if (pp == NULL)
            pp = i < t->oldsize ? &t->old[i] : &t->hash[i - t->oldsize];
        str *s;
        while ((s = *pp) != NULL) {
            if (seen >= GC_SWEEP_SCAN || nfreed >= GC_SWEEP_STR_FREE) {
                g->sweepstr = i;
                g->sweepstrpos = pp;
                return 0;
            }
            seen++;
            if (is_fixed(s)) {
                pp = &s->u.hnext;
            } else if (gc_isdead(g, s)) {
                size_t bytes = str_objsize(s);
                *pp = s->u.hnext;
                t->nuse--;
                gc_free(g, s, bytes);
                *freed += bytes;
                nfreed++;
            } else {
                s->marked =
                    (uint8_t)((s->marked & ~MARK_COLOR) | g->currentwhite);
                pp = &s->u.hnext;
            }
        }
    }
    g->sweepstr = i;
    return i >= end;
}

rt_cold static void free_buckets(global_State *g, str **b, uint32_t n)
{
    if (b == NULL)
        return;
    for (uint32_t i = 0; i < n; i++)
        while (b[i] != NULL) {
            str *s = b[i];
            b[i] = s->u.hnext;
            gc_free(g, s, str_objsize(s));
        }
    gc_free(g, b, buckets_bytes(n));
}

rt_cold void str_freeall(global_State *g)
{
    strtab *t = &g->strt;
    if (t->clearing != 0) { /* no string in it yet */
        gc_free(g, t->old, buckets_bytes(t->clearing));
        t->old = NULL;
    }
    free_buckets(g, t->old, t->oldsize);
    free_buckets(g, t->hash, t->size);
    memset(t, 0, sizeof *t);
}

void str_fix(str *s)
{
    if (!is_rom(s))
        s->marked |= MARK_FIXED;
}
