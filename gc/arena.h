/*
 * arena.h — the fixed arena: rtlua's only heap.
 *
 * All memory the runtime uses comes from one region handed over once (the
 * linker's _heap_start.._heap_end on a board, a static array on the host).
 * arena_create() places the control block at the start of that region;
 * nothing is ever taken from libc.  The collector charges its debt with what
 * the arena really spends, so the accounting counts block headers too.
 *
 * Method: two-level segregated fit.  Free blocks sit on lists indexed by
 * size class: the first level is the power of two of the block size, the
 * second splits each power of two into ARENA_SL_COUNT equal ranges (sizes
 * below 2^(ARENA_SL_BITS+3) get one list per 8 bytes).  One bitmap per level
 * says which lists are non-empty, so finding a list whose blocks are all
 * large enough takes two find-first-set instructions.  Every block begins
 * with an ARENA_HEADER_SIZE-byte header: its size with a free bit, and the
 * offset of the block physically below it, so a freed block merges at once
 * with free neighbours on both sides.  Placement, in an arena with pages:
 * a block of less than ARENA_LARGE_MIN bytes (and a page) is cut from the
 * end of the free block that serves it, a larger one from its start, so
 * that small blocks and large ones gather at opposite ends of the free
 * stretches: a large block freed merges back into free room instead of
 * leaving a hole between small blocks that outlive it (a coroutine's
 * stack that grows while its frames make closures, a long string built
 * while small objects stay), and the large block made last can grow in
 * place.  Without pages every block is cut from the start (address
 * order).
 * Offsets are 32-bit and relative to the control block, so headers and
 * overhead are the same size on 32-bit Cortex-M and on a 64-bit host.
 *
 * Pages (an arena made with arena_create_pages): requests of at most
 * ARENA_SMALL_MAX bytes take a slot of their size class (a multiple of
 * ARENA_SLOT_GRAIN) in a page: a block of the allocator above, 2^page_log2
 * bytes at an offset that is a multiple of that, whose slots carry no
 * header.  A bitmap in the control block, a bit per page-sized stretch
 * of the region, tells a slot from a block, so that arena_free needs no
 * size.  A page is made when its class has no free slot and is given
 * back when its last slot is freed (but for the class's only page with
 * room, kept as free memory until a request finds no other room).  A
 * new page goes first where one, two or a few freed pages left a hole
 * (the heads of the first PAGE_LOOKS non-empty classes from a page's size
 * up, each looked at once), else at the end of a block long enough to
 * hold an aligned page wherever it lies.  A request finds no page where
 * no free block holds an aligned page: it is served as a block, with its
 * header, or where no block is left either, by a free slot of the
 * nearest larger class that has one (its cost that slot's).
 *
 * Invariants (arena_check() verifies every one):
 *   - Blocks tile the region from the end of the control block up to an end
 *     sentinel with no gap; each block's size is a multiple of ARENA_ALIGN
 *     and at least ARENA_MIN_BLOCK, and it names its physical predecessor.
 *   - No two free blocks are physical neighbours (coalescing is immediate).
 *   - Every free block is on exactly the list of its size class; a bitmap
 *     bit is set exactly when its list (second level) or one of its lists
 *     (first level) is non-empty.
 *   - arena_in_use() + arena_free_bytes() + arena_overhead()
 *     == arena_capacity(), after every operation.  A page's free slots
 *     count as free bytes, its live slots and, while it has one, the
 *     bytes in no slot (header, fields, tail: arena_page_fixed() sums
 *     them) as in use; a page with no live slot is free bytes.
 *   - Pages: a bit of the page map is set exactly where a page's block
 *     starts; a page's live, free-listed and never-used slots add up to
 *     its slot count; the pages of a class with a free slot are exactly
 *     those on its list, linked both ways.
 *   - Payload pointers are ARENA_ALIGN-aligned, but for slots whose size
 *     is not a multiple of ARENA_ALIGN (4-aligned: ARENA_SLOT_GRAIN).
 *
 * Bounds:
 *   arena_alloc, arena_free               O(1): a fixed number of bitmap and
 *                                         header operations, no list walk
 *                                         (a slot: a few loads and stores;
 *                                         a new page: at most PAGE_LOOKS
 *                                         list heads looked at).
 *   arena_realloc                         O(1) in place; else O(1) plus a
 *                                         copy of the old payload.
 *   arena_grow                            O(1), never a copy.
 *   arena_create                          O(control block): clears up to
 *                                         25 x 17 words (defaults).
 *   counters, arena_block_size,
 *   arena_cost, arena_largest_alloc       O(1).
 *   arena_is_block                        O(1); a slot: a walk of its
 *                                         page's free list (its slots).
 *   arena_largest_free                    O(1) to find the largest class,
 *                                         plus a walk of that one list.
 *   arena_check, arena_walk               O(blocks); tests and diagnostics.
 *
 * Not reentrant: callers serialise (no use from interrupt handlers).
 */
#ifndef RTLUA_ARENA_H
#define RTLUA_ARENA_H

#include <stddef.h>
#include <stdint.h>

/* ---- Tunables ---------------------------------------------------------- */

/* Alignment of every payload pointer and granule of every block size;
 * 8 covers double and int64 on Cortex-M and the host.  Must be 8. */
#define ARENA_ALIGN 8u

/* log2 of the second-level lists per power of two.  Bounds the waste of
 * good fit: a request may be served from a block up to 1/2^ARENA_SL_BITS
 * larger than needed; costs 4 bytes per list in the control block. */
#define ARENA_SL_BITS 4u

/* log2 of the largest region managed; memory beyond ARENA_MAX_BYTES is
 * left unused.  Bounds the first-level classes (and the control block) and
 * keeps sizes and offsets in 32-bit fields.  At most 31. */
#define ARENA_MAX_LOG2 31u

/* A tail smaller than this stays in an allocated block as slack instead of
 * being split off as a free block.  Bounds the slack per block and keeps
 * tiny free blocks from accumulating.  At least ARENA_MIN_BLOCK. */
#define ARENA_SPLIT_MIN 16u

/* In an arena with pages, blocks of fewer bytes than this (header
 * included) are cut from the end of the free block that serves them,
 * larger ones from its start (see Method above). */
#ifndef ARENA_LARGE_MIN
#define ARENA_LARGE_MIN 1024u
#endif

/* Largest request served by a page slot.  Bounds the classes (one list
 * head each in the control block) and the memory a page may keep for an
 * idle class.  64 holds a table header, its first hash nodes, closures,
 * upvalues and short strings of up to 40 bytes. */
#define ARENA_SMALL_MAX 64u

/* The slot classes are the multiples of this up to ARENA_SMALL_MAX: 4
 * where pointers are 4 bytes (the boards: a closure or an upvalue of 20
 * bytes takes 20), else 8.  A slot whose size is not a multiple of 8 is
 * only 4-aligned: the runtime asks multiples of 8 for what needs 8
 * (userdata, vm/func.c). */
#if UINTPTR_MAX <= 0xFFFFFFFFu
#define ARENA_SLOT_GRAIN 4u
#else
#define ARENA_SLOT_GRAIN 8u
#endif

/* log2 of the page size the runtime uses (vm/state.c), and the smallest
 * arena it uses pages in: below it a page per class would be too much of
 * the arena (each class may keep one page whose slots are all free). */
#define ARENA_PAGE_LOG2 10u
#define ARENA_PAGES_MIN (128u << ARENA_PAGE_LOG2)

/* The page sizes arena_create_pages accepts: large enough for a slot of
 * every class after the page's fields, small enough for 16-bit page
 * offsets. */
#define ARENA_PAGE_LOG2_MIN 8u
#define ARENA_PAGE_LOG2_MAX 12u

/* ---- Derived ----------------------------------------------------------- */

/* Slot classes. */
#define ARENA_SMALL_CLASSES (ARENA_SMALL_MAX / ARENA_SLOT_GRAIN)

/* Bytes in front of every payload: size word and predecessor offset. */
#define ARENA_HEADER_SIZE 8u
/* Smallest block: a header plus the two free-list links a free block
 * keeps in its payload. */
#define ARENA_MIN_BLOCK (ARENA_HEADER_SIZE + 8u)
/* Second-level lists per first-level class. */
#define ARENA_SL_COUNT (1u << ARENA_SL_BITS)
/* Largest region managed (see ARENA_MAX_LOG2). */
#define ARENA_MAX_BYTES (((size_t)1 << ARENA_MAX_LOG2) - ARENA_ALIGN)

_Static_assert(ARENA_ALIGN == 8, "the payload alignment contract is 8 bytes");
_Static_assert(ARENA_HEADER_SIZE % ARENA_ALIGN == 0,
               "headers must keep payloads aligned");
_Static_assert(ARENA_MIN_BLOCK % ARENA_ALIGN == 0,
               "the minimum block must be a whole number of granules");
_Static_assert(ARENA_SPLIT_MIN >= ARENA_MIN_BLOCK &&
                   ARENA_SPLIT_MIN % ARENA_ALIGN == 0,
               "a split-off tail must be able to hold a free block");
_Static_assert(ARENA_SL_BITS >= 1 && ARENA_SL_BITS <= 5,
               "second-level bitmaps are 32-bit words");
_Static_assert(ARENA_MAX_LOG2 > ARENA_SL_BITS + 3 && ARENA_MAX_LOG2 <= 31,
               "sizes and offsets live in 32-bit fields");

typedef struct arena arena_t;

/* Results of arena_check(): the first problem found, checked in this
 * order: control block, physical walk, sentinel, lists, accounting. */
enum arena_check_code {
    ARENA_OK = 0,
    ARENA_E_CONTROL = -1,  /* control block fields are inconsistent */
    ARENA_E_SIZE = -2,     /* block size misaligned, too small or overruns */
    ARENA_E_PREV = -3,     /* predecessor offset names the wrong block */
    ARENA_E_UNMERGED = -4, /* two free blocks are physical neighbours */
    ARENA_E_SENTINEL = -5, /* end sentinel damaged or not after last block */
    ARENA_E_LIST = -6,   /* free-list link broken, or block on wrong/no list */
    ARENA_E_BITMAP = -7, /* a bitmap bit disagrees with its list(s) */
    ARENA_E_ACCOUNT = -8, /* block sums disagree with the counters */
    ARENA_E_PAGE = -9,    /* a page, its slots, the page map or a class
                             list is inconsistent */
};

/* Make an arena in [mem, mem+bytes).  The start is aligned up and the end
 * down to ARENA_ALIGN; the control block and an end sentinel come out of
 * the region.  NULL when mem is NULL or the region cannot hold the control
 * block, one ARENA_MIN_BLOCK block and the sentinel.  Nothing outside the
 * region is ever written. */
arena_t *arena_create(void *mem, size_t bytes);
/* The same with pages of 2^page_log2 bytes for the small requests
 * (page_log2 0: none, as arena_create; else ARENA_PAGE_LOG2_MIN ..
 * ARENA_PAGE_LOG2_MAX).  The control block grows by a bit per page-sized
 * stretch of the region. */
arena_t *arena_create_pages(void *mem, size_t bytes, unsigned page_log2);

/* n bytes, ARENA_ALIGN-aligned (a slot of a size that is not a multiple
 * of ARENA_ALIGN: ARENA_SLOT_GRAIN-aligned; ask a multiple of ARENA_ALIGN
 * for what needs it); NULL for n == 0 or when no free block is large
 * enough (the arena is unchanged then). */
void *arena_alloc(arena_t *a, size_t n);
/* p must be live in a, or NULL (ignored); a double or foreign free is not
 * detected here (arena_check() usually catches the damage afterwards). */
void arena_free(arena_t *a, void *p);
/* Resize p to n bytes, keeping min(old usable size, n) bytes of contents.
 * Grows in place into a free next block when it is large enough, else
 * moves down over a free previous block (and the free next one) when
 * they are (no room for the old and the new block at once), else
 * allocates, copies and frees.  NULL p allocates; n == 0 frees and
 * returns NULL.  On failure returns NULL and p is untouched. */
void *arena_realloc(arena_t *a, void *p, size_t n);

/* Resize the live block p to n bytes without moving it: 1 when done (it
 * grew into a free next block, or already held n bytes), else 0 with p
 * untouched.  O(1) and never a copy: tables grow their array part with
 * it and fall back to an incremental copy (vm/tab.h). */
int arena_grow(arena_t *a, void *p, size_t n);

/* Usable payload bytes of the live block p (>= the size requested). */
size_t arena_block_size(const arena_t *a, const void *p);
/* Bytes the live block p costs the arena: a slot's size, or a block's
 * with its header.  The costs of every live block plus
 * arena_page_fixed() are arena_in_use(). */
size_t arena_cost(const arena_t *a, const void *p);
/* Bytes of the pages that are in no slot (in use while the page lives). */
size_t arena_page_fixed(const arena_t *a);

/* The counters an arena begins with, read inline (the collector reads
 * them at every allocation); the rest of the control block is arena.c's
 * own. */
struct arena_head {
    uint32_t in_use;
    uint32_t capacity;
    uint32_t spare; /* in_use + free bytes: constant */
};

/* Bytes spent by live blocks, headers and slack included. */
static inline size_t arena_in_use(const arena_t *a)
{
    return ((const struct arena_head *)(const void *)a)->in_use;
}
/* Bytes in free blocks, their headers included. */
static inline size_t arena_free_bytes(const arena_t *a)
{
    const struct arena_head *h = (const struct arena_head *)(const void *)a;
    return h->spare - h->in_use;
}
/* Bytes of the region after alignment (constant). */
static inline size_t arena_capacity(const arena_t *a)
{
    return ((const struct arena_head *)(const void *)a)->capacity;
}
/* Control block plus end sentinel (constant):
 * in_use + free_bytes + overhead == capacity. */
size_t arena_overhead(const arena_t *a);
/* Highest arena_in_use() since create or the last arena_reset_peak(). */
size_t arena_peak(const arena_t *a);
void arena_reset_peak(arena_t *a);

/* Exact usable payload size of the largest free block, 0 when none.
 * Walks the one list of the largest non-empty class (its blocks differ in
 * size by less than 1/ARENA_SL_COUNT); meant for reports and tests.
 * arena_alloc of this size can fail when that list holds several blocks:
 * arena_largest_alloc() is the figure that guarantees success. */
size_t arena_largest_free(const arena_t *a);
/* O(1): the largest n for which arena_alloc(a, n) is sure to succeed now,
 * 0 when none.  It is the head of the largest class's list, so it equals
 * arena_largest_free() when that list holds one block and is within
 * 1/ARENA_SL_COUNT of it otherwise. */
size_t arena_largest_alloc(const arena_t *a);

/* Debug builds poison the payload of free blocks (past their free-list
 * links) with ARENA_POISON_BYTE, and under AddressSanitizer (ARENA_ASAN)
 * make it unaddressable: RTLUA_ARENA_POISON, on by itself in the torture
 * builds (RTLUA_TORTURE) and with ASan. */
#if defined(__SANITIZE_ADDRESS__)
#define ARENA_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ARENA_ASAN 1
#endif
#endif
#if (defined(ARENA_ASAN) || defined(RTLUA_TORTURE)) &&                        \
    !defined(RTLUA_ARENA_POISON)
#define RTLUA_ARENA_POISON 1
#endif
#define ARENA_POISON_BYTE 0xDBu
#ifdef RTLUA_ARENA_POISON
/* The bytes poisoned so far, by every arena: the tests' measure that each
 * call poisons what it frees or moves, not a whole free block again. */
extern size_t arena_poisoned;
#endif

/* The region of `a` goes back to its owner, who may reuse its bytes as it
 * likes: debug builds lift the poison of the free blocks (arena.c).  The
 * arena is not used again; arena_create over the same region may follow
 * without it. */
void arena_forget(arena_t *a);

/* Is p the payload of a live block of a?  O(1): p lies in the block area,
 * its header says "used" and both physical neighbours name it.  A pointer
 * to a freed block fails (its header says free, or it was merged into the
 * block below it, which no longer leads to it); one whose block was reused
 * from the same address passes.  For heap checkers (gc_check). */
int arena_is_block(const arena_t *a, const void *p);

/* Full consistency walk; ARENA_OK (0) or a negative arena_check_code. */
int arena_check(const arena_t *a);

/* Call fn for every block in address order, sentinel excluded: ptr is
 * where the payload is (or would be), size its usable bytes, used 1 for
 * live blocks (a page is one live block: its slots are not reported).
 * fn must not allocate or free in a. */
void arena_walk(const arena_t *a,
                void (*fn)(void *ptr, size_t size, int used, void *ctx),
                void *ctx);

#endif
