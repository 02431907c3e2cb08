/*
 * arena.c — two-level segregated fit over one fixed region.
 * See arena.h for the invariants and bounds.
 *
 * Region layout (offsets from the control block, which is the arena_t):
 *
 *   0      struct arena, then its list words      (a->first bytes)
 *   first  block, block, ...                      (tile with no gap)
 *   end    sentinel header: size 0, used          (ARENA_HEADER_SIZE)
 *   capacity
 *
 * Offset 0 is the control block and never a block, so 0 serves as "none"
 * in every link.
 */
#include "gc/arena.h"

#include <stdalign.h>
#include <string.h>

/* ---- Poisoning ----------------------------------------------------------
 * In debug builds (RTLUA_ARENA_POISON: arena.h) a block's payload is poisoned
 * while it is free: filled with ARENA_POISON_BYTE, so that a use-after-free
 * reads an impossible tag and pointer at once, and under ASan marked
 * unaddressable, so that the read itself is reported where it happens.  Only
 * the bytes a free block does not use are poisoned: its header and its two
 * free-list links stay readable for the allocator.  Each poisoning is of bytes
 * that change state in that call (a block freed, a header merged into its
 * neighbour, a tail split off), never of a whole free block again, so the
 * cost stays proportional to what the caller frees or allocates. */
#ifdef RTLUA_ARENA_POISON
#ifdef ARENA_ASAN
#include <sanitizer/asan_interface.h>
#define asan_hide(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define asan_show(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define asan_hide(p, n) ((void)0)
#define asan_show(p, n) ((void)0)
#endif
size_t arena_poisoned;

/* Bytes [p, p + n) are no longer in use: fill and poison them. */
static void hide(void *p, size_t n)
{
    arena_poisoned += n;
    memset(p, ARENA_POISON_BYTE, n);
    asan_hide(p, n);
}
/* Bytes [p, p + n) are about to be used (their contents are undefined). */
static void show(void *p, size_t n)
{
    asan_show(p, n);
    (void)p;
    (void)n;
}
/* Offsets [from, to) of arena a are free now, if any. */
#define hide_span(a, from, to)                                                \
    do {                                                                      \
        if ((to) > (from))                                                    \
            hide(at(a, from), (to) - (from));                                 \
    } while (0)
#else
#define hide(p, n) ((void)0)
#define show(p, n) ((void)0)
#define hide_span(a, from, to) ((void)(from), (void)(to))
#define asan_hide(p, n) ((void)0)
#define asan_show(p, n) ((void)0)
#endif

/* Every block starts with this.  The two free-list links exist only while
 * the block is free; in a live block they are the first payload bytes. */
typedef struct block {
    uint32_t prev_phys; /* offset of the block just below, 0 for the first */
    uint32_t size;      /* whole block in bytes, header included | FREE_BIT */
    uint32_t next_free; /* free only: next block on the same list, 0 ends */
    uint32_t prev_free; /* free only: previous block on the list, 0 = head */
} block;

struct arena {
    /* The counters the header reads inline (arena.h: struct arena_head),
     * first and in its order. */
    uint32_t in_use;     /* bytes of live blocks, headers included, and of
                            pages with a live slot all but their free
                            slots */
    uint32_t capacity;   /* bytes of the region, sentinel included */
    uint32_t spare;      /* capacity less the control block and the
                            sentinel: in_use + free bytes */
    uint32_t fl_map;     /* bit f: some list of first-level class f in use */
    uint32_t fl_count;   /* first-level classes this region can need */
    uint32_t first;      /* offset of the first block: control block size */
    uint32_t peak;       /* highest in_use since create or reset */
    uint32_t page_log2;  /* log2 of the page size; 0: no pages */
    uint32_t map_shift;  /* page_log2, or 31 without pages (every offset is
                            then in stretch 0, whose bit is never set) */
    uint32_t map_at;     /* where the page map begins in lists[] */
    uint32_t map_words;  /* words of the page map (1 without pages) */
    uint32_t page_fixed; /* bytes of the pages that are in no slot */
    /* Per slot class c (1..ARENA_SMALL_CLASSES): the first page of the
     * class with a free slot, 0 for none ([0] unused). */
    uint32_t partial[ARENA_SMALL_CLASSES + 1];
    /* The second-level bitmaps, a word per first-level class; the free
     * lists' heads, ARENA_SL_COUNT per class; then the page map, a bit per
     * page-sized stretch of the region, set where a page starts. */
    uint32_t lists[];
};

/* Low bit of block.size: the block is free. */
#define FREE_BIT 1u
/* Mask of the size proper in block.size. */
#define SIZE_MASK (~(uint32_t)(ARENA_ALIGN - 1))
/* log2 of ARENA_ALIGN. */
#define ALIGN_SHIFT 3u
/* Sizes below 2^LINEAR_LOG2 are classed linearly, one list per granule,
 * all in first-level class 0; above, each power of two is one class. */
#define LINEAR_LOG2 (ARENA_SL_BITS + ALIGN_SHIFT)
#define LINEAR_LIMIT (1u << LINEAR_LOG2)
/* First-level classes of the largest region (sizes < 2^ARENA_MAX_LOG2). */
#define FL_COUNT_MAX (ARENA_MAX_LOG2 - LINEAR_LOG2 + 1u)

_Static_assert((1u << ALIGN_SHIFT) == ARENA_ALIGN, "ALIGN_SHIFT");
_Static_assert(
    offsetof(arena_t, in_use) == offsetof(struct arena_head, in_use) &&
        offsetof(arena_t, capacity) == offsetof(struct arena_head, capacity) &&
        offsetof(arena_t, spare) == offsetof(struct arena_head, spare),
    "the header reads the counters where they are");
_Static_assert(offsetof(block, next_free) == ARENA_HEADER_SIZE,
               "the header is prev_phys and size");
_Static_assert(sizeof(block) == ARENA_MIN_BLOCK,
               "a minimum block holds a header and two links");
_Static_assert(alignof(block) <= ARENA_ALIGN &&
                   alignof(arena_t) <= ARENA_ALIGN,
               "aligned offsets give aligned structs");
_Static_assert(sizeof(unsigned) == 4, "__builtin_clz/ctz take 32-bit words");
_Static_assert(FL_COUNT_MAX < 32, "the first-level bitmap is a 32-bit word");
_Static_assert(ARENA_MIN_BLOCK < LINEAR_LIMIT,
               "the smallest blocks are in the linear range");

/* ---- Blocks and offsets ------------------------------------------------ */

static inline block *at(const arena_t *a, uint32_t off)
{
    return (block *)((const char *)a + off);
}

static inline uint32_t off_of(const arena_t *a, const block *b)
{
    return (uint32_t)((const char *)b - (const char *)a);
}

static inline uint32_t bsize(const block *b)
{
    return b->size & SIZE_MASK;
}

static inline int is_free(const block *b)
{
    return (b->size & FREE_BIT) != 0;
}

static inline block *next_phys(const block *b)
{
    return (block *)((const char *)b + bsize(b));
}

static inline block *header_of(const void *p)
{
    return (block *)((const char *)p - ARENA_HEADER_SIZE);
}

static inline void *payload(const block *b)
{
    return (char *)b + ARENA_HEADER_SIZE;
}

static inline uint32_t *sl_maps(const arena_t *a)
{
    return (uint32_t *)a->lists;
}

static inline uint32_t *heads(const arena_t *a)
{
    return (uint32_t *)a->lists + a->fl_count;
}

static inline uint32_t *page_map(const arena_t *a)
{
    return (uint32_t *)a->lists + a->map_at;
}

static inline uint32_t log2_floor(uint32_t x)
{
    return 31u - (uint32_t)__builtin_clz(x);
}

/* Block bytes for an n-byte request; n is at most the region size. */
static inline uint32_t block_need(size_t n)
{
    uint32_t need =
        ((uint32_t)n + ARENA_HEADER_SIZE + ARENA_ALIGN - 1) & SIZE_MASK;
    return need < ARENA_MIN_BLOCK ? ARENA_MIN_BLOCK : need;
}

static inline void note_peak(arena_t *a)
{
    if (a->in_use > a->peak)
        a->peak = a->in_use;
}

/* ---- Size classes ------------------------------------------------------ */

static void class_of(uint32_t size, uint32_t *fl, uint32_t *sl)
{
    if (size < LINEAR_LIMIT) {
        *fl = 0;
        *sl = size >> ALIGN_SHIFT;
        return;
    }
    uint32_t lg = log2_floor(size);
    *fl = lg - LINEAR_LOG2 + 1;
    *sl = (size >> (lg - ARENA_SL_BITS)) - ARENA_SL_COUNT;
}

/* The smallest size whose class holds only blocks >= size. */
static uint32_t round_to_class(uint32_t size)
{
    if (size < LINEAR_LIMIT)
        return size;
    uint32_t step = 1u << (log2_floor(size) - ARENA_SL_BITS);
    return (size + step - 1) & ~(step - 1);
}

/* The first non-empty class at or above (*fl, *sl); 0 when there is none.
 * (Inlined by force: it is on every block allocation's path, and a call
 * costs as much as its body.) */
static inline __attribute__((always_inline)) int
find_class(const arena_t *a, uint32_t *fl, uint32_t *sl)
{
    if (*fl >= a->fl_count)
        return 0;
    uint32_t m = sl_maps(a)[*fl] & (~0u << *sl);
    if (m == 0) {
        uint32_t f = a->fl_map & (~0u << (*fl + 1));
        if (f == 0)
            return 0;
        *fl = (uint32_t)__builtin_ctz(f);
        m = sl_maps(a)[*fl];
    }
    *sl = (uint32_t)__builtin_ctz(m);
    return 1;
}

/* ---- Free lists -------------------------------------------------------- */

/* Push the free block b on the list of its class. */
static void insert_free(arena_t *a, block *b)
{
    uint32_t fl, sl;
    class_of(bsize(b), &fl, &sl);
    uint32_t *head = &heads(a)[fl * ARENA_SL_COUNT + sl];
    b->next_free = *head;
    b->prev_free = 0;
    if (*head)
        at(a, *head)->prev_free = off_of(a, b);
    *head = off_of(a, b);
    sl_maps(a)[fl] |= 1u << sl;
    a->fl_map |= 1u << fl;
}

/* Take the free block b off its list. */
static void remove_free(arena_t *a, block *b)
{
    uint32_t fl, sl;
    class_of(bsize(b), &fl, &sl);
    if (b->next_free)
        at(a, b->next_free)->prev_free = b->prev_free;
    if (b->prev_free) {
        at(a, b->prev_free)->next_free = b->next_free;
        return;
    }
    heads(a)[fl * ARENA_SL_COUNT + sl] = b->next_free;
    if (b->next_free == 0) {
        sl_maps(a)[fl] &= ~(1u << sl);
        if (sl_maps(a)[fl] == 0)
            a->fl_map &= ~(1u << fl);
    }
}

/* Take a free block of at least need bytes off its list, or NULL. */
static block *take_fit(arena_t *a, uint32_t need)
{
    uint32_t fl, sl;
    class_of(round_to_class(need), &fl, &sl);
    if (!find_class(a, &fl, &sl)) {
        /* No class is large throughout, but the head of need's own class
         * may still be large enough; one look, no walk. */
        class_of(need, &fl, &sl);
        if (fl >= a->fl_count)
            return NULL;
    }
    uint32_t off = heads(a)[fl * ARENA_SL_COUNT + sl];
    if (off == 0 || bsize(at(a, off)) < need)
        return NULL;
    block *b = at(a, off);
    remove_free(a, b);
    return b;
}

/* Make b (on no list) free: merge it with free physical neighbours and put
 * the result on its list.  Leaves in_use alone. */
static void release(arena_t *a, block *b)
{
    uint32_t size = bsize(b);
    block *next = next_phys(b), *merged_next = NULL, *merged_self = NULL;
    if (is_free(next)) {
        remove_free(a, next);
        size += bsize(next);
        merged_next = next;
    }
    if (b->prev_phys != 0) {
        block *prev = at(a, b->prev_phys);
        if (is_free(prev)) {
            remove_free(a, prev);
            size += bsize(prev);
            merged_self = b;
            b = prev;
        }
    }
    b->size = size | FREE_BIT;
    next_phys(b)->prev_phys = off_of(a, b);
    insert_free(a, b);
    /* The headers merged away are payload of the free block now. */
    if (merged_next != NULL)
        hide(merged_next, sizeof(block));
    if (merged_self != NULL)
        hide(merged_self, sizeof(block));
    (void)merged_next;
    (void)merged_self;
}

/* Cut the live block b down to need bytes when the tail is worth a block;
 * the tail is released.  `live`: the tail's bytes were in use (a shrink),
 * else they come from a free block and are poisoned already.  Leaves
 * in_use alone. */
static void trim(arena_t *a, block *b, uint32_t need, int live)
{
    uint32_t size = bsize(b);
    if (size - need < ARENA_SPLIT_MIN)
        return;
    block *tail = (block *)((char *)b + need);
    if (live)
        hide((char *)tail + sizeof(block), size - need - sizeof(block));
    else
        show(tail, sizeof(block));
    (void)live;
    tail->size = size - need;
    tail->prev_phys = off_of(a, b);
    next_phys(tail)->prev_phys = off_of(a, tail);
    b->size = need;
    release(a, tail);
}

/* Does a block of need bytes go at the end of the free block that serves
 * it?  In an arena with pages, small blocks (and pages: page_new) are cut
 * from the end of their free block and large ones, of ARENA_LARGE_MIN
 * bytes or more, from its start: the two gather at opposite ends of the
 * free stretches, a large block freed merges back into free room instead
 * of leaving a hole between small blocks that outlive it, and the large
 * block made last has free room after it to grow into in place
 * (arena_grow: a table's array part).  An arena without pages keeps
 * every block at the start, in address order. */
static inline int at_back(const arena_t *a, uint32_t need)
{
    return a->page_log2 != 0 && need < ARENA_LARGE_MIN;
}

/* Cut the free block b (on no list) so that its last need bytes are a
 * live block, returned; the front stays a free block on its list when it
 * is worth one (b's physical neighbours are live: it was free).  Leaves
 * in_use alone. */
static block *take_back(arena_t *a, block *b, uint32_t need)
{
    uint32_t size = bsize(b);
    if (size - need < ARENA_SPLIT_MIN) {
        b->size = size;
        return b;
    }
    block *t = (block *)((char *)b + size - need);
    show(t, sizeof(block));
    t->size = need;
    t->prev_phys = off_of(a, b);
    next_phys(t)->prev_phys = off_of(a, t);
    b->size = (size - need) | FREE_BIT;
    insert_free(a, b);
    return t;
}

/* ---- Pages ---------------------------------------------------------------
 * A page is a live block of the allocator above whose header lies at an
 * offset that is a multiple of the page size: the bit of that stretch in
 * the page map is set while it is a page.  Its payload begins with the
 * page's own fields, then slots of one size class, bump-allocated in
 * address order the first time and kept on the page's free list (a
 * page-relative offset in the slot's first word) once freed.  The pages
 * of a class with a free slot are on a doubly linked list (a->partial):
 * allocation takes the head's next slot, a slot freed in a full page
 * puts the page back at the head, and a page whose last slot is freed
 * goes back to the allocator above, unless it is the class's only page
 * with room (kept, so that one object made and dropped over and over
 * does not make and free a page each time; such a page is free memory,
 * given back when a block or a page finds no room).  A slot has no
 * header: the page map finds its page.  Accounting: a page's bytes that
 * are in no slot (its header, its fields, the tail its slots do not fill)
 * are in use while it has a live slot (a->page_fixed sums them), a slot's
 * while it is live; the rest is free. */

typedef struct page {
    uint32_t prev_phys; /* the block header (block's first two words) */
    uint32_t size;
    uint32_t next;     /* next page of the class with a free slot, 0 ends */
    uint32_t prev;     /* previous one, 0: the head */
    uint16_t slot;     /* bytes of each slot: the class times the grain */
    uint16_t nslots;   /* slots the page holds */
    uint16_t used;     /* live slots */
    uint16_t freehead; /* page offset of the first free slot, 0: none */
    uint16_t bump;     /* page offset of the first slot never used */
    uint16_t pad_;
} page;

/* Page offset of the first slot. */
#define PAGE_HEAD                                                             \
    ((uint32_t)((sizeof(page) + ARENA_ALIGN - 1) & ~(ARENA_ALIGN - 1)))

_Static_assert(offsetof(page, next) == ARENA_HEADER_SIZE,
               "a page starts with a block header");
_Static_assert(ARENA_SMALL_MAX % ARENA_SLOT_GRAIN == 0 &&
                   ARENA_SLOT_GRAIN >= sizeof(uint32_t) &&
                   ARENA_ALIGN % ARENA_SLOT_GRAIN == 0,
               "slots hold their free-list link and tile 8-byte words");
_Static_assert(ARENA_PAGE_LOG2_MAX <= 16, "page offsets are 16-bit fields");

static inline page *page_at(const arena_t *a, uint32_t off)
{
    return (page *)((const char *)a + off);
}

/* The page slot p is in, as an offset, or 0 when p is not in a page. */
static inline uint32_t page_of(const arena_t *a, const void *p)
{
    uint32_t off = (uint32_t)((const char *)p - (const char *)a);
    uint32_t idx = off >> a->map_shift;
    if ((page_map(a)[idx >> 5] & (1u << (idx & 31))) == 0)
        return 0;
    return idx << a->map_shift;
}

static inline void map_set(arena_t *a, uint32_t off, int on)
{
    uint32_t idx = off >> a->page_log2;
    if (on)
        page_map(a)[idx >> 5] |= 1u << (idx & 31);
    else
        page_map(a)[idx >> 5] &= ~(1u << (idx & 31));
}

/* Bytes of page pg in no slot (constant over its life). */
static inline uint32_t page_fixed(const page *pg)
{
    return bsize((const block *)pg) - (uint32_t)pg->nslots * pg->slot;
}

static void partial_push(arena_t *a, page *pg)
{
    uint32_t c = pg->slot / ARENA_SLOT_GRAIN, off = off_of(a, (block *)pg);
    pg->prev = 0;
    pg->next = a->partial[c];
    if (pg->next)
        page_at(a, pg->next)->prev = off;
    a->partial[c] = off;
}

static void partial_unlink(arena_t *a, page *pg)
{
    uint32_t c = pg->slot / ARENA_SLOT_GRAIN;
    if (pg->next)
        page_at(a, pg->next)->prev = pg->prev;
    if (pg->prev)
        page_at(a, pg->prev)->next = pg->next;
    else
        a->partial[c] = pg->next;
}

/* Where a page of len bytes goes in a free block at off, size bytes long:
 * the last page-aligned offset where it fits (pages are small blocks: at
 * the end, at_back) with a front of no bytes or of a block; 0 for none. */
static uint32_t page_place(uint32_t off, uint32_t size, uint32_t len)
{
    if (size < len)
        return 0;
    uint32_t start = (off + size - len) & ~(len - 1);
    if (start < off || start - off == ARENA_ALIGN)
        return 0;
    return start;
}

/* Classes page_new looks at for a hole shorter than a block sure to hold
 * an aligned page (a look is a head and a find-first-set). */
#define PAGE_LOOKS 4u

/* Make a free block of the allocator above, a->page_log2 bytes long (and
 * a tail too short to split) at a page-aligned offset, into an empty page
 * of slot class c at the head of its list; 0 when no free block holds an
 * aligned stretch that long. */
static uint32_t page_new(arena_t *a, uint32_t c)
{
    uint32_t len = 1u << a->page_log2;
    block *b = NULL;
    /* A block shorter than that may hold an aligned page all the same:
     * the hole one page or a few adjacent ones left when freed.  One look
     * at the head of each of the first PAGE_LOOKS non-empty classes from
     * a page's size up, so that such holes are pages again before a
     * larger block is cut (which would leave them between live pages). */
    uint32_t fl, sl;
    class_of(len, &fl, &sl);
    for (uint32_t k = 0; k < PAGE_LOOKS && find_class(a, &fl, &sl); k++) {
        uint32_t hole = heads(a)[fl * ARENA_SL_COUNT + sl];
        if (page_place(hole, bsize(at(a, hole)), len) != 0) {
            b = at(a, hole);
            remove_free(a, b);
            break;
        }
        if (++sl == ARENA_SL_COUNT) {
            fl++;
            sl = 0;
        }
    }
    /* A block this long holds an aligned page whatever its offset (its
     * last aligned page leaves a front of at least two granules). */
    if (b == NULL && (b = take_fit(a, 2 * len + ARENA_ALIGN)) == NULL)
        return 0;
    uint32_t off = off_of(a, b), size = bsize(b);
    uint32_t start = page_place(off, size, len);
    uint32_t front = start - off, tail = off + size - start - len;
    if (tail < ARENA_SPLIT_MIN) {
        len += tail; /* the page keeps the slack */
        tail = 0;
    }
    block *pb = at(a, start);
    show(pb, sizeof(page));
    pb->prev_phys = front ? off : b->prev_phys;
    pb->size = len;
    if (front) {
        b->size = front | FREE_BIT;
        insert_free(a, b);
    }
    if (tail) {
        block *t = at(a, start + len);
        show(t, sizeof(block));
        t->prev_phys = start;
        t->size = tail | FREE_BIT;
        next_phys(t)->prev_phys = start + len;
        insert_free(a, t);
    } else {
        next_phys(pb)->prev_phys = start;
    }
    page *pg = (page *)pb;
    pg->slot = (uint16_t)(c * ARENA_SLOT_GRAIN);
    pg->nslots = (uint16_t)(((1u << a->page_log2) - PAGE_HEAD) / pg->slot);
    pg->used = 0;
    pg->freehead = 0;
    pg->bump = (uint16_t)PAGE_HEAD;
    pg->pad_ = 0;
    map_set(a, start, 1);
    partial_push(a, pg);
    return start;
}

static int release_empty(arena_t *a);

/* A slot of class c, or NULL when there is none and no page can be made. */
static void *slot_alloc(arena_t *a, uint32_t c)
{
    uint32_t off = a->partial[c];
    if (off == 0 && (off = page_new(a, c)) == 0 &&
        (!release_empty(a) || (off = page_new(a, c)) == 0))
        return NULL;
    page *pg = page_at(a, off);
    if (pg->used == 0) { /* its fixed part is in use from now */
        a->page_fixed += page_fixed(pg);
        a->in_use += page_fixed(pg);
    }
    char *p;
    if (pg->freehead != 0) {
        p = (char *)pg + pg->freehead;
        pg->freehead = (uint16_t) * (uint32_t *)p;
    } else {
        p = (char *)pg + pg->bump;
        pg->bump = (uint16_t)(pg->bump + pg->slot);
    }
    if (++pg->used == pg->nslots)
        partial_unlink(a, pg); /* full: it is the head */
    a->in_use += pg->slot;
    note_peak(a);
    show(p, pg->slot);
    return p;
}

/* The page at off goes back to the allocator above (no slot is live). */
static void page_free(arena_t *a, page *pg)
{
    partial_unlink(a, pg);
    map_set(a, off_of(a, (block *)pg), 0);
    block *b = (block *)pg;
    /* (Its free slots are poisoned already, its fields and live ones not:
     * the whole payload is readable for the poisoning.) */
    show((char *)b + sizeof(block), bsize(b) - sizeof(block));
    hide((char *)b + sizeof(block), bsize(b) - sizeof(block));
    release(a, b);
}

/* Give back the pages kept empty (a class's only page with room, with
 * no live slot): 1 when there was one.  O(classes). */
static int release_empty(arena_t *a)
{
    int any = 0;
    for (uint32_t c = 1; c <= ARENA_SMALL_CLASSES && a->page_log2; c++) {
        uint32_t off = a->partial[c];
        if (off != 0 && page_at(a, off)->used == 0) {
            page_free(a, page_at(a, off));
            any = 1;
        }
    }
    return any;
}

static void slot_free(arena_t *a, void *p, uint32_t off)
{
    page *pg = page_at(a, off);
    a->in_use -= pg->slot;
    hide((char *)p + sizeof(uint32_t), pg->slot - sizeof(uint32_t));
    *(uint32_t *)p = pg->freehead;
    pg->freehead = (uint16_t)((char *)p - (char *)pg);
    if (pg->used-- == pg->nslots)
        partial_push(a, pg); /* it was full */
    if (pg->used == 0) {
        a->page_fixed -= page_fixed(pg);
        a->in_use -= page_fixed(pg);
        if (pg->prev != 0 || pg->next != 0) {
            page_free(a, pg);
        } else {
            /* The class's only page with room stays, emptied: its slots
             * are handed out in address order again. */
            pg->freehead = 0;
            pg->bump = (uint16_t)PAGE_HEAD;
        }
    }
}

/* Usable bytes of the live block p (a slot, or a block above). */
static inline uint32_t usable(const arena_t *a, const void *p)
{
    uint32_t off = page_of(a, p);
    if (off != 0)
        return page_at(a, off)->slot;
    return bsize(header_of(p)) - ARENA_HEADER_SIZE;
}

/* ---- Creation ---------------------------------------------------------- */

static uint32_t control_size(uint32_t fl_count, uint32_t map_words)
{
    size_t words = (size_t)fl_count * (1 + ARENA_SL_COUNT) + map_words;
    size_t bytes = offsetof(arena_t, lists) + words * sizeof(uint32_t);
    return (uint32_t)((bytes + ARENA_ALIGN - 1) & SIZE_MASK);
}

static uint32_t classes_for(uint32_t size)
{
    uint32_t fl, sl;
    class_of(size, &fl, &sl);
    return fl + 1;
}

arena_t *arena_create_pages(void *mem, size_t bytes, unsigned page_log2)
{
    if (mem == NULL || (page_log2 != 0 && (page_log2 < ARENA_PAGE_LOG2_MIN ||
                                           page_log2 > ARENA_PAGE_LOG2_MAX)))
        return NULL;
    uintptr_t start =
        ((uintptr_t)mem + ARENA_ALIGN - 1) & ~(uintptr_t)(ARENA_ALIGN - 1);
    size_t skip = (size_t)(start - (uintptr_t)mem);
    if (bytes < skip)
        return NULL;
    bytes = (bytes - skip) & ~(size_t)(ARENA_ALIGN - 1);
    if (bytes > ARENA_MAX_BYTES)
        bytes = ARENA_MAX_BYTES;
    uint32_t total = (uint32_t)bytes;
    uint32_t map_words = page_log2 ? ((total >> page_log2) + 1 + 31) / 32 : 1;
    if (total <
        control_size(1, map_words) + ARENA_MIN_BLOCK + ARENA_HEADER_SIZE)
        return NULL;

    /* Size the lists for the largest block the region can hold; taking the
     * control block out may drop a class, which shrinks it again. */
    uint32_t fl_count = classes_for(total);
    uint32_t ctl = control_size(fl_count, map_words);
    /* The one free block is at most this long (the smallest control
     * block): its classes may be fewer. */
    uint32_t fewer =
        classes_for(total - control_size(1, map_words) - ARENA_HEADER_SIZE);
    if (fewer < fl_count) {
        fl_count = fewer;
        ctl = control_size(fewer, map_words);
    }
    if (total < ctl + ARENA_MIN_BLOCK + ARENA_HEADER_SIZE)
        return NULL;

    arena_t *a = (arena_t *)start;
    /* The region may have been an arena before: it is all ours now. */
    asan_show(a, total);
    memset(a, 0, ctl);
    a->fl_count = fl_count;
    a->first = ctl;
    a->capacity = total;
    a->spare = total - ctl - ARENA_HEADER_SIZE;
    a->page_log2 = page_log2;
    a->map_shift = page_log2 ? page_log2 : 31;
    a->map_at = fl_count * (1 + ARENA_SL_COUNT);
    a->map_words = map_words;

    uint32_t end = total - ARENA_HEADER_SIZE;
    block *sentinel = at(a, end);
    sentinel->size = 0;
    sentinel->prev_phys = ctl;
    block *b = at(a, ctl);
    b->prev_phys = 0;
    b->size = (end - ctl) | FREE_BIT;
    insert_free(a, b);
    /* Memory never handed out cannot be named by a stale pointer: only
     * ASan needs to know it is free. */
    asan_hide((char *)b + sizeof(block), end - ctl - sizeof(block));
    return a;
}

arena_t *arena_create(void *mem, size_t bytes)
{
    return arena_create_pages(mem, bytes, 0);
}

void arena_forget(arena_t *a)
{
    if (a != NULL)
        asan_show(a, a->capacity);
    (void)a;
}

/* ---- Allocation -------------------------------------------------------- */

/* The last resort of a request of class c that found neither a slot of
 * its class, nor room for a page, nor a block: a free slot of the
 * nearest larger class (its cost is that slot's).  Memory in other
 * classes' pages is free memory as much as a block is: without this, an
 * arena whose free bytes were all in slots of other sizes failed small
 * requests with much of it free (finshort in rt.loop, 256 KiB at
 * shift=5: a 20-byte request with 30 KB free).  O(classes). */
static void *slot_above(arena_t *a, uint32_t c)
{
    for (uint32_t k = c + 1; k <= ARENA_SMALL_CLASSES; k++)
        if (a->partial[k] != 0)
            return slot_alloc(a, k);
    return NULL;
}

void *arena_alloc(arena_t *a, size_t n)
{
    /* A small request's slot class; 0: a block's request. */
    uint32_t c = n - 1 < ARENA_SMALL_MAX && a->page_log2 != 0
                     ? (uint32_t)(n + ARENA_SLOT_GRAIN - 1) / ARENA_SLOT_GRAIN
                     : 0;
    if (c != 0) {
        void *p = slot_alloc(a, c);
        if (p != NULL)
            return p;
        /* no page: a block as any other (freed as such) */
    }
    if (n == 0 || n > a->capacity)
        return NULL;
    uint32_t need = block_need(n);
    block *b = take_fit(a, need);
    if (b == NULL && (!release_empty(a) || (b = take_fit(a, need)) == NULL))
        return c != 0 ? slot_above(a, c) : NULL;
    if (at_back(a, need)) {
        b = take_back(a, b, need);
    } else {
        b->size = bsize(b);
        trim(a, b, need, 0);
    }
    show(payload(b), bsize(b) - ARENA_HEADER_SIZE);
    a->in_use += bsize(b);
    note_peak(a);
    return payload(b);
}

void arena_free(arena_t *a, void *p)
{
    if (p == NULL)
        return;
    uint32_t pg = page_of(a, p);
    if (pg != 0) {
        slot_free(a, p, pg);
        return;
    }
    block *b = header_of(p);
    a->in_use -= bsize(b);
    hide((char *)b + sizeof(block), bsize(b) - sizeof(block));
    release(a, b);
}

/* Resize the live block p to n bytes where it lies: 1 when done, 0 (and
 * nothing changed) when growing needs more than a free next block.  A
 * slot keeps its size: it holds n bytes or cannot grow. */
static int resize_in_place(arena_t *a, void *p, size_t n)
{
    if (page_of(a, p) != 0)
        return n <= usable(a, p);
    block *b = header_of(p);
    uint32_t old = bsize(b);
    uint32_t need = block_need(n);
    if (need > old) {
        block *next = next_phys(b);
        if (!is_free(next) || old + bsize(next) < need)
            return 0;
        remove_free(a, next);
        b->size = old + bsize(next);
        next_phys(b)->prev_phys = off_of(a, b);
        trim(a, b, need, 0); /* the tail is in next's poisoned payload */
        show(next, bsize(b) - old);
    } else {
        trim(a, b, need, 1);
    }
    a->in_use = a->in_use - old + bsize(b);
    note_peak(a);
    return 1;
}

/* Grow the live block b to need bytes over the free block below it (and
 * the free one above, if any), moving its payload there: the payload,
 * else NULL (nothing changed) when b has no free block below or the
 * three together are too short.  A realloc that cannot grow in place
 * needs no room for the old and the new block at once this way: a stack
 * that doubles next to free room does so in the room it has.  The new
 * block lies where arena_alloc would cut it from the joined free block
 * (a large one at its end, a smaller one at its start). */
static void *slide(arena_t *a, block *b, uint32_t need)
{
    if (b->prev_phys == 0 || !is_free(at(a, b->prev_phys)))
        return NULL;
    block *prev = at(a, b->prev_phys), *next = next_phys(b);
    uint32_t old = bsize(b), lo = b->prev_phys;
    uint32_t hi = off_of(a, next) + (is_free(next) ? bsize(next) : 0);
    if (hi - lo < need)
        return NULL;
    remove_free(a, prev);
    if (is_free(next))
        remove_free(a, next);
    uint32_t below = prev->prev_phys;
    uint32_t start = at_back(a, need) ? hi - need : lo;
    if (start - lo < ARENA_SPLIT_MIN)
        start = lo; /* the front is too short for a block */
    uint32_t end = start + need;
    if (hi - end < ARENA_SPLIT_MIN)
        end = hi; /* so is the tail */
    /* Only bytes that change state are (un)poisoned, as elsewhere: the new
     * block, and of [bo, was) (b and a free next's header, the bytes that
     * were readable) what stays free.  The free parts' payloads were
     * poisoned already: poisoning [lo, hi) again made each slide next to
     * a large free block a fill of it (a host arena of gigabytes: 22 s
     * for one script in the torture builds). */
    uint32_t bo = off_of(a, b);
    uint32_t was = bo + old + (hi != bo + old ? (uint32_t)sizeof(block) : 0);
    show(at(a, start), end - start);
    memmove(payload(at(a, start)), payload(b), old - ARENA_HEADER_SIZE);
    block *nb = at(a, start);
    nb->size = end - start;
    nb->prev_phys = start == lo ? below : lo;
    if (start != lo) {
        prev->size = (start - lo) | FREE_BIT;
        prev->prev_phys = below;
        insert_free(a, prev);
        hide_span(a, bo, start < was ? start : was);
    }
    if (end != hi) {
        block *t = at(a, end);
        show(t, sizeof(block));
        t->size = (hi - end) | FREE_BIT;
        t->prev_phys = start;
        insert_free(a, t);
        uint32_t from = end + (uint32_t)sizeof(block);
        hide_span(a, from > bo ? from : bo, was);
    }
    at(a, hi)->prev_phys = end == hi ? start : end;
    a->in_use = a->in_use - old + (end - start);
    note_peak(a);
    return payload(nb);
}

void *arena_realloc(arena_t *a, void *p, size_t n)
{
    if (p == NULL)
        return arena_alloc(a, n);
    if (n == 0) {
        arena_free(a, p);
        return NULL;
    }
    if (n > a->capacity)
        return NULL;
    if (resize_in_place(a, p, n))
        return p;
    void *q =
        page_of(a, p) == 0 ? slide(a, header_of(p), block_need(n)) : NULL;
    if (q != NULL)
        return q;
    q = arena_alloc(a, n);
    if (q == NULL)
        return NULL;
    memcpy(q, p, usable(a, p));
    arena_free(a, p);
    return q;
}

int arena_grow(arena_t *a, void *p, size_t n)
{
    if (p == NULL || n == 0 || n > a->capacity)
        return 0;
    return resize_in_place(a, p, n);
}

/* ---- Queries ----------------------------------------------------------- */

size_t arena_block_size(const arena_t *a, const void *p)
{
    return usable(a, p);
}

size_t arena_cost(const arena_t *a, const void *p)
{
    uint32_t off = page_of(a, p);
    return off ? page_at(a, off)->slot : bsize(header_of(p));
}

size_t arena_page_fixed(const arena_t *a)
{
    return a->page_fixed;
}

size_t arena_overhead(const arena_t *a)
{
    return a->first + ARENA_HEADER_SIZE;
}

size_t arena_peak(const arena_t *a)
{
    return a->peak;
}

void arena_reset_peak(arena_t *a)
{
    a->peak = a->in_use;
}

/* Head of the list of the largest non-empty class, or 0. */
static uint32_t top_head(const arena_t *a)
{
    if (a->fl_map == 0)
        return 0;
    uint32_t fl = log2_floor(a->fl_map);
    uint32_t sl = log2_floor(sl_maps(a)[fl]);
    return heads(a)[fl * ARENA_SL_COUNT + sl];
}

size_t arena_largest_free(const arena_t *a)
{
    uint32_t best = 0;
    for (uint32_t off = top_head(a); off != 0; off = at(a, off)->next_free)
        if (bsize(at(a, off)) > best)
            best = bsize(at(a, off));
    return best ? best - ARENA_HEADER_SIZE : 0;
}

size_t arena_largest_alloc(const arena_t *a)
{
    /* take_fit() always looks at this head for a request of its size: the
     * rounded search finds this class or nothing, then the head fits. */
    uint32_t off = top_head(a);
    return off ? bsize(at(a, off)) - ARENA_HEADER_SIZE : 0;
}

/* ---- Consistency -------------------------------------------------------
 * The checkers follow offsets that damage or a stale pointer may have put
 * anywhere in the region, also inside a free block's poisoned payload: they
 * read every header through peek, which AddressSanitizer does not watch,
 * into a copy. */

#ifdef ARENA_ASAN
#define ARENA_UNWATCHED __attribute__((no_sanitize_address, noinline))
#else
#define ARENA_UNWATCHED
#endif

/* The header at off (links zero: the sentinel has none). */
static ARENA_UNWATCHED block peek(const arena_t *a, uint32_t off)
{
    const volatile block *p = at(a, off);
    block b = {p->prev_phys, p->size, 0, 0};
    return b;
}

/* The header and links of the free block at off. */
static ARENA_UNWATCHED block peek_free(const arena_t *a, uint32_t off)
{
    const volatile block *p = at(a, off);
    block b = {p->prev_phys, p->size, p->next_free, p->prev_free};
    return b;
}

/* off could name a block: aligned and inside the block area. */
static int in_blocks(const arena_t *a, uint32_t off)
{
    return off >= a->first && off < a->capacity - ARENA_HEADER_SIZE &&
           off % ARENA_ALIGN == 0;
}

/* Is p a live slot of the page at off?  Walks the page's free list
 * (at most its slot count). */
static int is_live_slot(const arena_t *a, uint32_t off, const void *p)
{
    const page *pg = page_at(a, off);
    uint32_t at_ = (uint32_t)((const char *)p - (const char *)pg);
    if (pg->slot == 0 || at_ < PAGE_HEAD || at_ >= pg->bump ||
        (at_ - PAGE_HEAD) % pg->slot != 0)
        return 0;
    uint32_t f = pg->freehead;
    for (uint32_t n = 0; f != 0 && n < pg->nslots; n++) {
        if (f == at_)
            return 0;
        if (f >= pg->bump)
            return 0; /* damaged: no claim either way */
        f = *(const uint32_t *)((const char *)pg + f);
    }
    return 1;
}

int arena_is_block(const arena_t *a, const void *p)
{
    uintptr_t base = (uintptr_t)a, q = (uintptr_t)p;
    if (q < base + ARENA_HEADER_SIZE || q - base >= a->capacity)
        return 0;
    uint32_t pg = page_of(a, p);
    if (pg != 0)
        return is_live_slot(a, pg, p);
    uint32_t off = (uint32_t)(q - base) - ARENA_HEADER_SIZE;
    if (!in_blocks(a, off))
        return 0;
    block b = peek(a, off);
    uint32_t end = a->capacity - ARENA_HEADER_SIZE;
    if (is_free(&b) || bsize(&b) < ARENA_MIN_BLOCK || bsize(&b) > end - off ||
        peek(a, off + bsize(&b)).prev_phys != off)
        return 0;
    if (b.prev_phys == 0)
        return off == a->first;
    if (!in_blocks(a, b.prev_phys) || b.prev_phys >= off)
        return 0;
    block prev = peek(a, b.prev_phys);
    return b.prev_phys + bsize(&prev) == off;
}

/* The free block at off is linked both ways on the list of its class. */
static int check_links(const arena_t *a, uint32_t off)
{
    block b = peek_free(a, off);
    uint32_t fl, sl;
    class_of(bsize(&b), &fl, &sl);
    if (fl >= a->fl_count)
        return ARENA_E_LIST;
    if (b.prev_free == 0) {
        if (heads(a)[fl * ARENA_SL_COUNT + sl] != off)
            return ARENA_E_LIST;
    } else if (!in_blocks(a, b.prev_free) ||
               peek_free(a, b.prev_free).next_free != off) {
        return ARENA_E_LIST;
    }
    if (b.next_free != 0 && (!in_blocks(a, b.next_free) ||
                             peek_free(a, b.next_free).prev_free != off))
        return ARENA_E_LIST;
    return ARENA_OK;
}

/* Bitmaps match the lists; every listed block is free and of the class.
 * *listed counts them, stopping past limit (a cycle). */
static int check_lists(const arena_t *a, uint32_t limit, uint32_t *listed)
{
    if (a->fl_map >> a->fl_count != 0)
        return ARENA_E_BITMAP;
    for (uint32_t fl = 0; fl < a->fl_count; fl++) {
        uint32_t map = sl_maps(a)[fl];
        if (ARENA_SL_COUNT < 32 && (map >> (ARENA_SL_COUNT % 32)) != 0)
            return ARENA_E_BITMAP;
        if (((a->fl_map >> fl) & 1u) != (map != 0))
            return ARENA_E_BITMAP;
        for (uint32_t sl = 0; sl < ARENA_SL_COUNT; sl++) {
            uint32_t off = heads(a)[fl * ARENA_SL_COUNT + sl];
            if (((map >> sl) & 1u) != (off != 0))
                return ARENA_E_BITMAP;
            while (off != 0) {
                if (!in_blocks(a, off) || ++*listed > limit)
                    return ARENA_E_LIST;
                block b = peek_free(a, off);
                uint32_t f, s;
                class_of(bsize(&b), &f, &s);
                if (!is_free(&b) || f != fl || s != sl)
                    return ARENA_E_LIST;
                off = b.next_free;
            }
        }
    }
    return ARENA_OK;
}

/* The page at off (of `size` block bytes): its fields, its free list and
 * its bump agree; *free_slots gets its free slots, *room 1 when it has
 * one (then it must be on its class's list). */
static int check_page(const arena_t *a, uint32_t off, uint32_t size,
                      uint32_t *free_slots)
{
    const page *pg = page_at(a, off);
    uint32_t len = 1u << a->page_log2;
    if (pg->slot == 0 || pg->slot % ARENA_SLOT_GRAIN ||
        pg->slot > ARENA_SMALL_MAX || size < len ||
        size - len >= ARENA_SPLIT_MIN ||
        pg->nslots != (len - PAGE_HEAD) / pg->slot || pg->used > pg->nslots ||
        pg->bump < PAGE_HEAD || (pg->bump - PAGE_HEAD) % pg->slot ||
        pg->bump > PAGE_HEAD + (uint32_t)pg->nslots * pg->slot)
        return ARENA_E_PAGE;
    uint32_t nfree = 0, f = pg->freehead;
    while (f != 0) {
        if (f < PAGE_HEAD || f >= pg->bump || (f - PAGE_HEAD) % pg->slot ||
            ++nfree > pg->nslots)
            return ARENA_E_PAGE;
        f = *(const uint32_t *)((const char *)pg + f);
    }
    uint32_t fresh =
        (PAGE_HEAD + (uint32_t)pg->nslots * pg->slot - pg->bump) / pg->slot;
    if (pg->used + nfree + fresh != pg->nslots)
        return ARENA_E_PAGE;
    *free_slots = nfree + fresh;
    return ARENA_OK;
}

/* The class lists hold exactly the pages with room, linked both ways;
 * `room` is how many pages the walk found with a free slot. */
static int check_partial(const arena_t *a, uint32_t room)
{
    uint32_t listed = 0;
    for (uint32_t c = 1; c <= ARENA_SMALL_CLASSES; c++) {
        uint32_t prev = 0;
        for (uint32_t off = a->partial[c]; off != 0;
             off = page_at(a, off)->next) {
            if ((off & ((1u << a->page_log2) - 1)) != 0 || off < a->first ||
                off >= a->capacity - ARENA_HEADER_SIZE ||
                page_of(a, (const char *)a + off + PAGE_HEAD) != off ||
                ++listed > room)
                return ARENA_E_PAGE;
            const page *pg = page_at(a, off);
            if (pg->slot != c * ARENA_SLOT_GRAIN || pg->used == pg->nslots ||
                pg->prev != prev)
                return ARENA_E_PAGE;
            prev = off;
        }
    }
    return listed == room ? ARENA_OK : ARENA_E_PAGE;
}

int arena_check(const arena_t *a)
{
    if (a == NULL || a->fl_count == 0 || a->fl_count > FL_COUNT_MAX ||
        a->first != control_size(a->fl_count, a->map_words) ||
        a->spare != a->capacity - a->first - ARENA_HEADER_SIZE ||
        a->capacity % ARENA_ALIGN ||
        a->capacity < a->first + ARENA_MIN_BLOCK + ARENA_HEADER_SIZE ||
        a->capacity > ARENA_MAX_BYTES ||
        (a->page_log2 != 0 && (a->page_log2 < ARENA_PAGE_LOG2_MIN ||
                               a->page_log2 > ARENA_PAGE_LOG2_MAX)) ||
        a->map_words !=
            (a->page_log2 ? ((a->capacity >> a->page_log2) + 32) / 32 : 1) ||
        a->map_shift != (a->page_log2 ? a->page_log2 : 31) ||
        a->map_at != a->fl_count * (1 + ARENA_SL_COUNT))
        return ARENA_E_CONTROL;

    uint32_t end = a->capacity - ARENA_HEADER_SIZE;
    uint32_t off = a->first, prev = 0, nfree = 0, used = 0, spare = 0;
    uint32_t pages = 0, room = 0, fixed = 0;
    int prev_was_free = 0;
    while (off != end) {
        block b = peek(a, off);
        uint32_t size = bsize(&b);
        if ((b.size & ~SIZE_MASK & ~FREE_BIT) != 0 || size < ARENA_MIN_BLOCK ||
            size > end - off)
            return ARENA_E_SIZE;
        if (b.prev_phys != prev)
            return ARENA_E_PREV;
        if (is_free(&b)) {
            if (prev_was_free)
                return ARENA_E_UNMERGED;
            int rc = check_links(a, off);
            if (rc != ARENA_OK)
                return rc;
            nfree++;
            spare += size;
        } else if (a->page_log2 && page_of(a, (const char *)a + off +
                                                  ARENA_HEADER_SIZE) == off) {
            uint32_t free_slots;
            int rc = check_page(a, off, size, &free_slots);
            if (rc != ARENA_OK)
                return rc;
            const page *pg = page_at(a, off);
            pages++;
            room += pg->used < pg->nslots;
            if (pg->used != 0) {
                fixed += page_fixed(pg);
                used += size - free_slots * pg->slot;
                spare += free_slots * pg->slot;
            } else {
                spare += size; /* kept empty: free memory */
            }
        } else {
            used += size;
        }
        prev_was_free = is_free(&b);
        prev = off;
        off += size;
    }
    block sentinel = peek(a, end);
    if (sentinel.size != 0 || sentinel.prev_phys != prev)
        return ARENA_E_SENTINEL;

    uint32_t listed = 0;
    int rc = check_lists(a, nfree, &listed);
    if (rc != ARENA_OK)
        return rc;
    if (listed != nfree)
        return ARENA_E_LIST;

    /* Every bit of the page map names a page the walk found. */
    uint32_t bits = 0;
    for (uint32_t w = 0; w < a->map_words; w++)
        bits += (uint32_t)__builtin_popcount(page_map(a)[w]);
    if (bits != pages || fixed != a->page_fixed)
        return ARENA_E_PAGE;
    if (a->page_log2 && (rc = check_partial(a, room)) != ARENA_OK)
        return rc;
    for (uint32_t c = 0; c <= ARENA_SMALL_CLASSES && !a->page_log2; c++)
        if (a->partial[c] != 0)
            return ARENA_E_CONTROL;

    if (used != a->in_use || spare != arena_free_bytes(a) ||
        a->peak < a->in_use)
        return ARENA_E_ACCOUNT;
    return ARENA_OK;
}

void arena_walk(const arena_t *a,
                void (*fn)(void *ptr, size_t size, int used, void *ctx),
                void *ctx)
{
    uint32_t end = a->capacity - ARENA_HEADER_SIZE;
    for (uint32_t off = a->first; off != end; off += bsize(at(a, off))) {
        const block *b = at(a, off);
        fn(payload(b), bsize(b) - ARENA_HEADER_SIZE, !is_free(b), ctx);
    }
}
