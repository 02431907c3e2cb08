/*
 * test_pages.c — the arena's pages (gc/arena.h): small requests served
 * by headerless slots of size-class pages, found by the page map.
 *
 * The arenas here have pages of 2^TEST_PAGE_LOG2 bytes, the smallest the
 * arena accepts, so that a few kilobytes hold several pages (the same
 * file runs on every board, down to microbit's 2 KiB test buffer).
 */
#include "gc/arena.h"
#include "tests/unit/check.h"

#include <stdint.h>
#include <string.h>

#ifndef TEST_ARENA_BIG
#define TEST_ARENA_BIG (4u << 20)
#endif
/* The buffer: up to 16 KiB, less where a board has less. */
#define TEST_PAGES_BYTES (TEST_ARENA_BIG < 16384u ? TEST_ARENA_BIG : 16384u)
#define TEST_PAGE_LOG2 ARENA_PAGE_LOG2_MIN
#define PAGE_BYTES (1u << TEST_PAGE_LOG2)
/* Random operations of the model run. */
#ifndef TEST_PAGES_OPS
#define TEST_PAGES_OPS 4000
#endif
#define LIVE_MAX 64

static _Alignas(16) unsigned char mem[TEST_PAGES_BYTES];

static arena_t *paged(void)
{
    return arena_create_pages(mem, sizeof mem, TEST_PAGE_LOG2);
}

/* A request's slot size: n rounded up to the grain. */
static size_t slot_of(size_t n)
{
    return (n + ARENA_SLOT_GRAIN - 1) / ARENA_SLOT_GRAIN * ARENA_SLOT_GRAIN;
}

static void test_small_requests_take_headerless_slots(void)
{
    arena_t *a = paged();
    CHECK(a != NULL);
    unsigned char *p[4];
    for (int i = 0; i < 4; i++) {
        p[i] = arena_alloc(a, 24);
        CHECK(p[i] != NULL);
        CHECK_EQ(arena_cost(a, p[i]), 24);
        CHECK_EQ(arena_block_size(a, p[i]), 24);
        if (i > 0)
            CHECK(p[i] == p[i - 1] + 24); /* no header between them */
    }
    CHECK(arena_page_fixed(a) > 0);
    CHECK_EQ(arena_in_use(a), 4 * 24 + arena_page_fixed(a));
    unsigned char *q = arena_alloc(a, 25);
    CHECK(q != NULL);
    CHECK_EQ(arena_block_size(a, q), slot_of(25));
    CHECK_EQ(((uintptr_t)q) % ARENA_SLOT_GRAIN, 0);
    unsigned char *r = arena_alloc(a, 16);
    CHECK(r != NULL && ((uintptr_t)r) % ARENA_ALIGN == 0);
    CHECK_EQ(arena_check(a), ARENA_OK);
    CHECK(arena_in_use(a) + arena_free_bytes(a) + arena_overhead(a) ==
          arena_capacity(a));
}

static void test_a_freed_slot_is_handed_out_again_first(void)
{
    arena_t *a = paged();
    CHECK(a != NULL);
    unsigned char *p[3];
    for (int i = 0; i < 3; i++)
        CHECK((p[i] = arena_alloc(a, 32)) != NULL);
    size_t in_use = arena_in_use(a);
    arena_free(a, p[1]);
    CHECK_EQ(arena_in_use(a), in_use - 32);
    CHECK(!arena_is_block(a, p[1]));
    CHECK(arena_is_block(a, p[0]) && arena_is_block(a, p[2]));
#if defined(RTLUA_ARENA_POISON) && !defined(ARENA_ASAN)
    CHECK_EQ(p[1][31], ARENA_POISON_BYTE); /* (ASan reports the read) */
#endif
    CHECK_EQ(arena_check(a), ARENA_OK);
    CHECK(arena_alloc(a, 30) == p[1]);
    CHECK_EQ(arena_in_use(a), in_use);
    CHECK_EQ(arena_check(a), ARENA_OK);
}

/* Slots of one class, chained through their first word. */
static void *take_all(arena_t *a, size_t n, int *count)
{
    void *head = NULL, *p;
    *count = 0;
    while ((p = arena_alloc(a, n)) != NULL) {
        memcpy(p, &head, sizeof head);
        head = p;
        ++*count;
    }
    return head;
}

static void give_all(arena_t *a, void *head)
{
    while (head != NULL) {
        void *next;
        memcpy(&next, head, sizeof next);
        arena_free(a, head);
        head = next;
    }
}

static void test_pages_go_back_when_their_slots_are_freed(void)
{
    arena_t *a = paged();
    CHECK(a != NULL);
    size_t largest = arena_largest_alloc(a);
    int n;
    void *all = take_all(a, 40, &n);
    /* The whole arena went into pages of 40-byte slots (and blocks once
     * no page fitted): more slots than one page holds. */
    CHECK(n > (int)(PAGE_BYTES / 40));
    CHECK_EQ(arena_check(a), ARENA_OK);
    give_all(a, all);
    CHECK_EQ(arena_in_use(a), 0);
    CHECK_EQ(arena_page_fixed(a), 0);
    CHECK_EQ(arena_check(a), ARENA_OK);
    /* The page kept for the class is free memory: the largest request
     * of the empty arena still fits. */
    void *big = arena_alloc(a, largest);
    CHECK(big != NULL);
    CHECK_EQ(arena_check(a), ARENA_OK);
    arena_free(a, big);
    CHECK_EQ(arena_in_use(a), 0);
}

static void test_realloc_moves_between_classes_and_keeps_contents(void)
{
    arena_t *a = paged();
    CHECK(a != NULL);
    unsigned char *p = arena_alloc(a, 12);
    CHECK(p != NULL);
    memcpy(p, "twelve bytes", 12);
    CHECK(arena_realloc(a, p, 10) == p); /* a slot keeps its size */
    CHECK(arena_grow(a, p, slot_of(12)) == 1);
    CHECK(arena_grow(a, p, slot_of(12) + 1) == 0);
    unsigned char *q = arena_realloc(a, p, 48);
    CHECK(q != NULL && q != p);
    CHECK(memcmp(q, "twelve bytes", 12) == 0);
    CHECK(!arena_is_block(a, p));
    unsigned char *r = arena_realloc(a, q, 3 * ARENA_SMALL_MAX);
    CHECK(r != NULL);
    CHECK(memcmp(r, "twelve bytes", 12) == 0);
    CHECK(arena_cost(a, r) >= 3 * ARENA_SMALL_MAX + ARENA_HEADER_SIZE);
    CHECK_EQ(arena_check(a), ARENA_OK);
    arena_free(a, r);
    CHECK_EQ(arena_in_use(a), 0);
    CHECK_EQ(arena_check(a), ARENA_OK);
}

static void test_small_requests_fall_back_to_blocks_when_no_page_fits(void)
{
    arena_t *a = paged();
    CHECK(a != NULL);
    /* Big blocks until no free block can hold a page. */
    void *big[64];
    int nb = 0;
    size_t sz;
    while (nb < 64 && (sz = arena_largest_alloc(a)) >= PAGE_BYTES) {
        size_t want = sz > PAGE_BYTES ? sz - PAGE_BYTES / 2 : sz;
        if ((big[nb] = arena_alloc(a, want)) == NULL)
            break;
        nb++;
    }
    CHECK(arena_largest_alloc(a) < PAGE_BYTES);
    CHECK(arena_largest_alloc(a) >= 8);
    void *p = arena_alloc(a, 8);
    CHECK(p != NULL);
    CHECK_EQ(arena_cost(a, p), ARENA_MIN_BLOCK); /* a block, with header */
    CHECK_EQ(arena_page_fixed(a), 0);
    CHECK(arena_is_block(a, p));
    CHECK_EQ(arena_check(a), ARENA_OK);
    arena_free(a, p);
    while (nb > 0)
        arena_free(a, big[--nb]);
    CHECK_EQ(arena_in_use(a), 0);
    CHECK_EQ(arena_check(a), ARENA_OK);
}

/* With no slot of its class, no room for a page and no free block, a
 * small request takes a free slot of a larger class: free bytes in other
 * classes' pages are free memory, not a reason to fail. */
static void test_a_small_request_takes_a_larger_slot_when_no_other_fits(void)
{
    arena_t *a = paged();
    CHECK(a != NULL);
    int n40, n4;
    void *all40 = take_all(a, 40, &n40);
    void *all4 = take_all(a, 4, &n4); /* the crumbs too */
    CHECK(n40 > 1);
    CHECK(arena_alloc(a, 16) == NULL);
    /* Take one 40-byte slot out of the chain (not a block: those cost a
     * header more), and free it. */
    void *prev = NULL, *p = all40;
    while (p != NULL && arena_cost(a, p) != slot_of(40)) {
        prev = p;
        memcpy(&p, p, sizeof p);
    }
    CHECK(p != NULL);
    void *next;
    memcpy(&next, p, sizeof next);
    if (prev == NULL)
        all40 = next;
    else
        memcpy(prev, &next, sizeof next);
    size_t used = arena_in_use(a);
    arena_free(a, p);
    CHECK_EQ(arena_in_use(a), used - slot_of(40));
    void *q = arena_alloc(a, 16);
    CHECK(q == p);
    CHECK_EQ(arena_cost(a, q), slot_of(40));
    CHECK_EQ(arena_block_size(a, q), slot_of(40));
    CHECK_EQ(arena_in_use(a), used);
    CHECK_EQ(arena_check(a), ARENA_OK);
    memset(q, 0xa5, slot_of(40));
    arena_free(a, q);
    give_all(a, all4);
    give_all(a, all40);
    CHECK_EQ(arena_in_use(a), 0);
    CHECK_EQ(arena_check(a), ARENA_OK);
}

/* The page of the slot p: its first byte (pages start at multiples of
 * the page size from the control block). */
static unsigned char *page_start(arena_t *a, void *p)
{
    uintptr_t off = (uintptr_t)p - (uintptr_t)a;
    return (unsigned char *)a + (off & ~(uintptr_t)(PAGE_BYTES - 1));
}

/* The pattern of a coroutine's stack that grows while the closures its
 * frames make outlive it: a large block made, a small object that stays,
 * the large block freed, over and over.  Large blocks are cut from the
 * start of the free block and small ones (their pages) from its end, so
 * the room each large block took comes back whole: all the free memory
 * but the free slots of the pages and a tail too short for a page is
 * one block, and a request of all of it succeeds.  (Cut from the same
 * end, each large block would leave a hole before the next page.) */
static void test_large_blocks_freed_leave_no_holes_between_small_ones(void)
{
    arena_t *a = paged();
    CHECK(a != NULL);
    enum { ROUNDS_MAX = 32 };
    void *small[ROUNDS_MAX];
    size_t large = ARENA_LARGE_MIN, rounds;
    rounds = arena_largest_alloc(a) / 2 / (large + 64);
    rounds = rounds < 1 ? 1 : rounds > ROUNDS_MAX ? ROUNDS_MAX : rounds;
    for (size_t i = 0; i < rounds; i++) {
        void *big = arena_alloc(a, large);
        small[i] = arena_alloc(a, 48);
        CHECK(big != NULL && small[i] != NULL);
        arena_free(a, big);
        CHECK_EQ(arena_check(a), ARENA_OK);
        if (check_failed_now)
            return;
    }
    size_t all = arena_largest_alloc(a);
    CHECK(all + 2 * PAGE_BYTES >= arena_free_bytes(a));
    void *p = arena_alloc(a, all);
    CHECK(p != NULL);
    arena_free(a, p);
    for (size_t i = 0; i < rounds; i++)
        arena_free(a, small[i]);
    CHECK_EQ(arena_in_use(a), 0);
    CHECK_EQ(arena_check(a), ARENA_OK);
}

/* Pages freed two by two, between pages that stay, leave holes of two
 * pages: blocks shorter than the one sure to hold an aligned page
 * wherever it lies, but holding two aligned pages where they are.  New
 * pages (of another class) go there, not a block with a header for each
 * small request, and not a larger block cut in two: the holes between
 * live pages are filled first. */
static void test_holes_of_freed_pages_are_pages_again(void)
{
    static void *all[TEST_PAGES_BYTES / 32];
    arena_t *a = paged();
    CHECK(a != NULL);
    int n = 0;
    while (n < (int)(sizeof all / sizeof all[0]) &&
           (all[n] = arena_alloc(a, 32)) != NULL)
        n++;
    CHECK(arena_largest_alloc(a) < PAGE_BYTES);
    /* Free every slot of pages 4k and 4k+1 (when both are pages). */
    int freed_pages = 0;
    size_t last = (size_t)-1;
    for (int i = 0; i < n; i++) {
        size_t idx =
            (size_t)(page_start(a, all[i]) - (unsigned char *)a) / PAGE_BYTES;
        if (arena_cost(a, all[i]) != 32 || idx % 4 >= 2)
            continue;
        if (idx != last)
            freed_pages++;
        last = idx;
        arena_free(a, all[i]);
        all[i] = NULL;
    }
    CHECK(freed_pages >= 2);
    CHECK_EQ(arena_check(a), ARENA_OK);
    /* 24-byte requests till the arena is full: every hole is pages of
     * 24-byte slots (one may be the page of 32-byte slots kept empty). */
    size_t per_page = (PAGE_BYTES - 64) / 24, slots = 0;
    void *p, *chain = NULL;
    while ((p = arena_alloc(a, 24)) != NULL) {
        if (arena_cost(a, p) == 24)
            slots++;
        memcpy(p, &chain, sizeof chain);
        chain = p;
    }
    CHECK(slots >= (size_t)(freed_pages - 1) * per_page);
    CHECK_EQ(arena_check(a), ARENA_OK);
    while (chain != NULL) {
        p = chain;
        memcpy(&chain, p, sizeof chain);
        arena_free(a, p);
    }
    for (int i = 0; i < n; i++)
        arena_free(a, all[i]);
    CHECK_EQ(arena_in_use(a), 0);
    CHECK_EQ(arena_check(a), ARENA_OK);
}

static void test_check_reports_any_damaged_page_field(void)
{
    arena_t *a = paged();
    CHECK(a != NULL);
    void *p = arena_alloc(a, 20), *q = arena_alloc(a, 20);
    CHECK(p != NULL && q != NULL);
    arena_free(a, p);
    unsigned char *pg = page_start(a, q);
    CHECK(pg > (unsigned char *)a);
    /* The page's own fields: links, slot size, counts, free list, bump
     * (after the 8-byte block header). */
    int missed = 0;
    for (size_t byte = ARENA_HEADER_SIZE; byte < ARENA_HEADER_SIZE + 18;
         byte++)
        for (int bit = 0; bit < 8; bit++) {
            pg[byte] ^= (unsigned char)(1u << bit);
            if (arena_check(a) == ARENA_OK)
                missed++;
            pg[byte] ^= (unsigned char)(1u << bit);
        }
    CHECK_EQ(missed, 0);
    CHECK_EQ(arena_check(a), ARENA_OK);
}

static struct {
    unsigned char *p;
    size_t n;
    unsigned char seed;
} live[LIVE_MAX];

static int intact(int i)
{
    for (size_t k = 0; k < live[i].n; k++)
        if (live[i].p[k] != (unsigned char)(live[i].seed + k))
            return 0;
    return 1;
}

static void fill(int i)
{
    for (size_t k = 0; k < live[i].n; k++)
        live[i].p[k] = (unsigned char)(live[i].seed + k);
}

static uint32_t rng_state = 7;

static uint32_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

static void test_random_operations_keep_pages_consistent(void)
{
    arena_t *a = paged();
    CHECK(a != NULL);
    int nlive = 0, fails = 0;
    for (int op = 0; op < TEST_PAGES_OPS; op++) {
        uint32_t r = rng() % 10;
        /* mostly slot sizes, some blocks */
        size_t n = rng() % 8 ? 1 + rng() % (ARENA_SMALL_MAX + 8)
                             : 1 + rng() % (TEST_PAGES_BYTES / 8);
        if (nlive == 0 || (r < 5 && nlive < LIVE_MAX)) {
            unsigned char *p = arena_alloc(a, n);
            if (p == NULL) {
                fails++;
            } else {
                live[nlive].p = p;
                live[nlive].n = n;
                live[nlive].seed = (unsigned char)rng();
                fill(nlive++);
            }
        } else if (r < 8) {
            int i = (int)(rng() % (uint32_t)nlive);
            CHECK(intact(i));
            arena_free(a, live[i].p);
            live[i] = live[--nlive];
        } else {
            int i = (int)(rng() % (uint32_t)nlive);
            unsigned char *q = arena_realloc(a, live[i].p, n);
            if (q == NULL) {
                CHECK(intact(i));
                fails++;
            } else {
                size_t kept = n < live[i].n ? n : live[i].n;
                live[i].p = q;
                live[i].n = kept;
                CHECK(intact(i));
                live[i].n = n;
                fill(i);
            }
        }
        CHECK_EQ(arena_check(a), ARENA_OK);
        size_t spent = arena_page_fixed(a);
        for (int i = 0; i < nlive; i++) {
            CHECK(arena_is_block(a, live[i].p));
            CHECK(arena_block_size(a, live[i].p) >= live[i].n);
            spent += arena_cost(a, live[i].p);
        }
        CHECK_EQ(arena_in_use(a), spent);
        if (check_failed_now)
            return;
    }
    CHECK(fails > 0); /* the arena was full at times */
    while (nlive > 0) {
        CHECK(intact(nlive - 1));
        arena_free(a, live[--nlive].p);
    }
    CHECK_EQ(arena_in_use(a), 0);
    CHECK_EQ(arena_check(a), ARENA_OK);
}

/* Grow live[0] to m bytes by arena_realloc: its contents kept, and at
 * most m bytes poisoned in the debug builds. */
static void grow_live0(arena_t *a, size_t m)
{
#ifdef RTLUA_ARENA_POISON
    size_t before = arena_poisoned;
#endif
    unsigned char *q = arena_realloc(a, live[0].p, m);
    CHECK(q != NULL);
#ifdef RTLUA_ARENA_POISON
    CHECK(arena_poisoned - before <= m);
#endif
    live[0].p = q;
    CHECK(intact(0));
    CHECK_EQ(arena_check(a), ARENA_OK);
}

/* A block that grows by moving down over the free block below it (a
 * realloc's slide) poisons, in the debug builds, only what changes state:
 * not the large free block next to it again.  Small blocks are cut from
 * the end of the free room, so a growing array part or stack has all of
 * it below: on a host arena of gigabytes each such realloc was a fill of
 * the whole (a script of the torture builds took 22 s for 0.5 s).  The
 * contents move whole either way. */
static void test_a_block_that_slides_poisons_only_what_moves(void)
{
#if TEST_PAGES_BYTES < 8192
    return; /* (microbit: no room for a free block this large) */
#endif
    arena_t *a = paged();
    CHECK(a != NULL);
    size_t n = ARENA_SMALL_MAX + 64; /* a block, cut from the end */
    unsigned char *p = arena_alloc(a, n);
    CHECK(p != NULL && arena_is_block(a, p));
    CHECK(arena_largest_free(a) > 24 * n); /* the free room, below it */
    live[0].p = p;
    live[0].n = n;
    live[0].seed = 1;
    fill(0);
    CALL(grow_live0(a, 2 * n));
    CHECK(live[0].p < p);
    /* The same over a free block above it as well: the block between two
     * free ones, grown past both of its old bounds: large now, it goes to
     * the start of the free room below, and the rest is one free block. */
    unsigned char *r = arena_alloc(a, n);
    CHECK(r != NULL && r < live[0].p);
    arena_free(a, live[0].p);
    live[0].p = r;
    live[0].seed = 2;
    fill(0);
    CALL(grow_live0(a, 10 * n));
    arena_free(a, live[0].p);
    CHECK_EQ(arena_in_use(a), 0);
    CHECK_EQ(arena_check(a), ARENA_OK);
}

static void test_create_refuses_page_sizes_out_of_range(void)
{
    CHECK(arena_create_pages(mem, sizeof mem, ARENA_PAGE_LOG2_MIN - 1) ==
          NULL);
    CHECK(arena_create_pages(mem, sizeof mem, ARENA_PAGE_LOG2_MAX + 1) ==
          NULL);
    arena_t *a = arena_create_pages(mem, sizeof mem, 0);
    CHECK(a != NULL);
    void *p = arena_alloc(a, 8); /* no pages: a block */
    CHECK(p != NULL && arena_cost(a, p) == ARENA_MIN_BLOCK);
    CHECK_EQ(arena_check(a), ARENA_OK);
}

static const struct check_case cases[] = {
    CASE(test_small_requests_take_headerless_slots),
    CASE(test_a_freed_slot_is_handed_out_again_first),
    CASE(test_pages_go_back_when_their_slots_are_freed),
    CASE(test_realloc_moves_between_classes_and_keeps_contents),
    CASE(test_small_requests_fall_back_to_blocks_when_no_page_fits),
    CASE(test_a_small_request_takes_a_larger_slot_when_no_other_fits),
    CASE(test_large_blocks_freed_leave_no_holes_between_small_ones),
    CASE(test_holes_of_freed_pages_are_pages_again),
    CASE(test_check_reports_any_damaged_page_field),
    CASE(test_random_operations_keep_pages_consistent),
    CASE(test_a_block_that_slides_poisons_only_what_moves),
    CASE(test_create_refuses_page_sizes_out_of_range),
};

int main(void)
{
    return check_main("pages", cases, CHECK_COUNT(cases));
}
