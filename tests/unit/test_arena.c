/*
 * test_arena.c — the fixed arena (gc/arena.c) against its specification.
 *
 * Memory is two static buffers, allocated once: a 4 KiB one and a big one
 * of TEST_ARENA_BIG bytes (4 MiB by default; a board with little RAM
 * passes a smaller one, down to 2 KiB).  Every sizing below follows from
 * those two, so the same file runs on the host and on the boards.
 */
#include "gc/arena.h"
#include "tests/unit/check.h"

#include <stdint.h>
#include <string.h>

#ifndef TEST_ARENA_BIG
#define TEST_ARENA_BIG (4u << 20)
#endif
/* The small arena: the smallest size the runtime promises to work in. */
#define TEST_ARENA_SMALL 4096u
/* Live blocks the random model tracks at once (static array). */
#ifndef TEST_MODEL_SLOTS
#define TEST_MODEL_SLOTS 256
#endif
/* Random operations per model run (the brief asks for >= 20000). */
#ifndef TEST_MODEL_OPS
#define TEST_MODEL_OPS 20000
#endif
/* Spare bytes around the small buffer for misalignment and guard tests. */
#define GUARD 16u

/* The "big" arena may be smaller than the small one on a 16 KiB board
 * (e.g. -DTEST_ARENA_BIG=2048), where both must fit beside the port. */
_Static_assert(TEST_ARENA_BIG >= 2048, "the big-arena cases need 2 KiB");

static _Alignas(16) unsigned char small_mem[TEST_ARENA_SMALL + 2 * GUARD];
static _Alignas(16) unsigned char big_mem[TEST_ARENA_BIG];

/* ---- Helpers ----------------------------------------------------------- */

static uint32_t rng_state;

static void rng_seed(uint32_t s)
{
    rng_state = s ? s : 1;
}

/* xorshift: shift-xor three times; period 2^32 - 1, never 0. */
static uint32_t rng(void)
{
    uint32_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    rng_state = x;
    return x;
}

static uint32_t rng_below(uint32_t n)
{
    return n ? rng() % n : 0;
}

static arena_t *small_arena(void)
{
    return arena_create(small_mem, TEST_ARENA_SMALL);
}

static arena_t *big_arena(void)
{
    return arena_create(big_mem, TEST_ARENA_BIG);
}

static int accounted(const arena_t *a)
{
    return arena_in_use(a) + arena_free_bytes(a) + arena_overhead(a) ==
           arena_capacity(a);
}

/* What a walk saw. */
struct census {
    size_t blocks, used, free;
    size_t used_bytes, free_bytes; /* usable bytes */
    size_t max_free;               /* usable bytes of the largest free */
    const unsigned char *expect;   /* where the next block should be */
    int gaps;                      /* blocks not where the previous ended */
    const void *find;              /* block to report on, or NULL */
    size_t find_size;
    int find_used; /* -1: find not visited */
};

static void census_fn(void *ptr, size_t size, int used, void *ctx)
{
    struct census *c = ctx;
    const unsigned char *p = ptr;
    if (c->expect && p != c->expect)
        c->gaps++;
    c->expect = p + size + ARENA_HEADER_SIZE;
    c->blocks++;
    if (used) {
        c->used++;
        c->used_bytes += size;
    } else {
        c->free++;
        c->free_bytes += size;
        if (size > c->max_free)
            c->max_free = size;
    }
    if (ptr == c->find) {
        c->find_size = size;
        c->find_used = used;
    }
}

static struct census census_of(const arena_t *a, const void *find)
{
    struct census c;
    memset(&c, 0, sizeof c);
    c.find = find;
    c.find_used = -1;
    arena_walk(a, census_fn, &c);
    return c;
}

static unsigned char pattern(uint32_t seed, size_t i)
{
    return (unsigned char)(seed * 31u + i * 7u + (i >> 8));
}

/* pattern's four bytes from i, a multiple of 4, as one little-endian
 * word: i >> 8 is the same for all four, so they are b, b + 7, b + 14
 * and b + 21, each added in its own byte lane (no carry across lanes).
 * fill and intact go a word at a time with it (the big arena's model
 * run fills and checks megabytes: on a board, four times fewer
 * instructions). */
static uint32_t pattern_word(uint32_t seed, size_t i)
{
    uint32_t x = pattern(seed, i) * 0x01010101u, y = 0x150e0700u;
    return ((x & 0x7f7f7f7fu) + (y & 0x7f7f7f7fu)) ^ ((x ^ y) & 0x80808080u);
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define WORDWISE(p) ((uintptr_t)(p) % 4u == 0)
#else
#define WORDWISE(p) 0
#endif

static void fill(void *p, size_t n, uint32_t seed)
{
    unsigned char *b = p;
    size_t i = 0;
    if (WORDWISE(p))
        for (; i + 4 <= n; i += 4) {
            uint32_t w = pattern_word(seed, i);
            memcpy(b + i, &w, 4);
        }
    for (; i < n; i++)
        b[i] = pattern(seed, i);
}

static int intact(const void *p, size_t n, uint32_t seed)
{
    const unsigned char *b = p;
    size_t i = 0;
    if (WORDWISE(p))
        for (; i + 4 <= n; i += 4) {
            uint32_t w;
            memcpy(&w, b + i, 4);
            if (w != pattern_word(seed, i))
                return 0;
        }
    for (; i < n; i++)
        if (b[i] != pattern(seed, i))
            return 0;
    return 1;
}

static int aligned(const void *p)
{
    return ((uintptr_t)p % ARENA_ALIGN) == 0;
}

/* The helpers themselves: fill writes pattern's bytes, a word at a time
 * or not, and intact sees any one byte changed. */
static void test_fill_writes_the_pattern_and_intact_checks_it(void)
{
    unsigned char *buf = small_mem; /* aligned to 16 */
    for (uint32_t seed = 0; seed < 600; seed += 97)
        for (size_t at = 0; at < 4; at++) {
            size_t n = 600 - seed % 7;
            memset(buf, 0, 604);
            fill(buf + at, n, seed);
            for (size_t i = 0; i < n; i++)
                CHECK_EQ(buf[at + i], pattern(seed, i));
            CHECK(intact(buf + at, n, seed));
            for (size_t i = 0; i < n; i += 61) {
                buf[at + i] ^= 0x10;
                CHECK(!intact(buf + at, n, seed));
                buf[at + i] ^= 0x10;
            }
        }
}

/* ---- Creation ---------------------------------------------------------- */

static void check_fresh(arena_t *a, size_t bytes)
{
    CHECK(a != NULL);
    CHECK_EQ(arena_check(a), ARENA_OK);
    CHECK_EQ(arena_capacity(a), bytes);
    CHECK(arena_overhead(a) > 0 && arena_overhead(a) < bytes / 4);
    CHECK_EQ(arena_in_use(a), 0);
    CHECK_EQ(arena_peak(a), 0);
    CHECK_EQ(arena_free_bytes(a), bytes - arena_overhead(a));
    struct census c = census_of(a, NULL);
    CHECK_EQ(c.blocks, 1);
    CHECK_EQ(c.free, 1);
    CHECK_EQ(c.max_free, arena_free_bytes(a) - ARENA_HEADER_SIZE);
    CHECK_EQ(arena_largest_free(a), c.max_free);
    CHECK_EQ(arena_largest_alloc(a), c.max_free);
    /* The whole free block can be had in one piece. */
    void *p = arena_alloc(a, arena_largest_free(a));
    CHECK(p != NULL);
    CHECK_EQ(arena_free_bytes(a), 0);
    CHECK_EQ(arena_largest_free(a), 0);
    CHECK(arena_alloc(a, 1) == NULL);
    CHECK_EQ(arena_check(a), ARENA_OK);
    arena_free(a, p);
    CHECK_EQ(arena_in_use(a), 0);
    CHECK_EQ(arena_check(a), ARENA_OK);
}

static void test_create_on_4k_gives_one_free_block(void)
{
    CALL(check_fresh(small_arena(), TEST_ARENA_SMALL));
}

static void test_create_on_big_gives_one_free_block(void)
{
    CALL(check_fresh(big_arena(), TEST_ARENA_BIG));
}

static void test_create_aligns_a_misaligned_start_and_stays_inside(void)
{
    size_t bytes = TEST_ARENA_SMALL - ARENA_ALIGN;
    /* Earlier cases left arenas in the buffer: take it back whole. */
    arena_forget(arena_create(small_mem, sizeof small_mem));
    for (size_t skew = 1; skew < ARENA_ALIGN; skew++) {
        unsigned char *mem = small_mem + GUARD + skew;
        memset(small_mem, 0xA5, sizeof small_mem);
        arena_t *a = arena_create(mem, bytes);
        CHECK(a != NULL);
        CHECK(aligned(a));
        CHECK((unsigned char *)a >= mem && (unsigned char *)a < mem + 8);
        size_t skip = (size_t)((unsigned char *)a - mem);
        CHECK_EQ(arena_capacity(a), (bytes - skip) & ~(size_t)7);
        CHECK_EQ(arena_check(a), ARENA_OK);
        /* Fill it completely, writing every usable byte. */
        unsigned char *p;
        while ((p = arena_alloc(a, 24)) != NULL || (p = arena_alloc(a, 1))) {
            CHECK(aligned(p));
            CHECK(p >= mem && p + arena_block_size(a, p) <= mem + bytes);
            memset(p, 0x5A, arena_block_size(a, p));
        }
        CHECK_EQ(arena_free_bytes(a), 0);
        CHECK_EQ(arena_check(a), ARENA_OK);
        for (unsigned char *g = small_mem; g < mem; g++)
            CHECK_EQ(*g, 0xA5);
        for (unsigned char *g = mem + bytes; g < small_mem + sizeof small_mem;
             g++)
            CHECK_EQ(*g, 0xA5);
        arena_forget(a); /* the next skew rewrites the whole buffer */
    }
}

static void test_create_rejects_null_and_too_small_memory(void)
{
    CHECK(arena_create(NULL, TEST_ARENA_SMALL) == NULL);
    CHECK(arena_create(small_mem, 0) == NULL);
    CHECK(arena_create(small_mem, 7) == NULL);
    CHECK(arena_create(small_mem + 1, 6) == NULL);
    size_t least = 0;
    for (size_t n = 0; n <= TEST_ARENA_SMALL && least == 0; n += ARENA_ALIGN)
        if (arena_create(small_mem, n) != NULL)
            least = n;
    CHECK(least > 0);
    /* The smallest accepted region holds exactly one minimum block. */
    arena_t *a = arena_create(small_mem, least);
    CHECK(a != NULL);
    CHECK_EQ(arena_free_bytes(a), ARENA_MIN_BLOCK);
    CHECK(arena_alloc(a, 1) != NULL);
    CHECK(arena_alloc(a, 1) == NULL);
    CHECK_EQ(arena_check(a), ARENA_OK);
    /* One byte of misalignment costs a granule, which it cannot spare. */
    CHECK(arena_create(small_mem + 1, least) == NULL);
    CHECK(arena_create(small_mem, least - ARENA_ALIGN) == NULL);
}

/* ---- Allocation -------------------------------------------------------- */

static void test_alloc_returns_aligned_disjoint_blocks_of_the_size_asked(void)
{
    arena_t *a = small_arena();
    CHECK(a != NULL);
    unsigned char *prev_end = NULL;
    for (uint32_t n = 1; n <= 40; n++) {
        unsigned char *p = arena_alloc(a, n);
        CHECK(p != NULL);
        CHECK(aligned(p));
        CHECK(arena_block_size(a, p) >= n);
        CHECK(arena_block_size(a, p) < n + ARENA_ALIGN + ARENA_SPLIT_MIN);
        CHECK(p >= (unsigned char *)a + arena_overhead(a));
        CHECK(p + arena_block_size(a, p) <=
              (unsigned char *)a + arena_capacity(a) - ARENA_HEADER_SIZE);
        /* A fresh arena carves blocks in address order, back to back. */
        if (prev_end)
            CHECK(p == prev_end + ARENA_HEADER_SIZE);
        prev_end = p + arena_block_size(a, p);
        fill(p, arena_block_size(a, p), n);
        CHECK_EQ(arena_check(a), ARENA_OK);
    }
    struct census c = census_of(a, NULL);
    CHECK_EQ(c.used, 40);
    CHECK_EQ(c.gaps, 0);
}

static void test_alloc_zero_or_huge_returns_null_and_changes_nothing(void)
{
    arena_t *a = small_arena();
    CHECK(a != NULL);
    void *keep = arena_alloc(a, 100);
    CHECK(keep != NULL);
    fill(keep, 100, 9);
    size_t in_use = arena_in_use(a), spare = arena_free_bytes(a);
    size_t largest = arena_largest_free(a);
    const size_t bad[] = {0,
                          SIZE_MAX,
                          SIZE_MAX - 7,
                          SIZE_MAX - ARENA_HEADER_SIZE,
                          (size_t)UINT32_MAX,
                          (size_t)UINT32_MAX - 7,
                          arena_capacity(a),
                          arena_capacity(a) + 1,
                          spare,
                          largest + 1};
    for (int i = 0; i < CHECK_COUNT(bad); i++) {
        CHECK(arena_alloc(a, bad[i]) == NULL);
        /* keep is followed by the free rest, so only the sizes beyond the
         * whole arena are sure to fail for realloc too. */
        if (bad[i] > arena_capacity(a) - 1)
            CHECK(arena_realloc(a, keep, bad[i]) == NULL);
        CHECK_EQ(arena_check(a), ARENA_OK);
        CHECK_EQ(arena_in_use(a), in_use);
        CHECK_EQ(arena_free_bytes(a), spare);
        CHECK_EQ(arena_largest_free(a), largest);
        CHECK(intact(keep, 100, 9));
    }
    CHECK(arena_alloc(a, largest) != NULL);
}

static void test_free_of_null_is_a_no_op(void)
{
    arena_t *a = small_arena();
    CHECK(a != NULL);
    size_t spare = arena_free_bytes(a);
    arena_free(a, NULL);
    CHECK_EQ(arena_free_bytes(a), spare);
    CHECK_EQ(arena_check(a), ARENA_OK);
}

/* ---- Coalescing -------------------------------------------------------- */

/* Four 64-byte blocks in a fresh small arena; d keeps the rest apart. */
struct four {
    arena_t *a;
    unsigned char *p[4];
    size_t whole; /* bytes one block spends, header included */
};

static void make_four(struct four *f)
{
    f->a = small_arena();
    CHECK(f->a != NULL);
    for (int i = 0; i < 4; i++) {
        f->p[i] = arena_alloc(f->a, 64);
        CHECK(f->p[i] != NULL);
    }
    f->whole = arena_block_size(f->a, f->p[0]) + ARENA_HEADER_SIZE;
    CHECK(f->p[1] == f->p[0] + f->whole);
    CHECK_EQ(census_of(f->a, NULL).blocks, 5);
}

static void test_free_merges_with_previous_free_block(void)
{
    struct four f;
    CALL(make_four(&f));
    arena_free(f.a, f.p[0]);
    arena_free(f.a, f.p[1]);
    CHECK_EQ(arena_check(f.a), ARENA_OK);
    struct census c = census_of(f.a, f.p[0]);
    CHECK_EQ(c.blocks, 4); /* [a+b free] c d [rest] */
    CHECK_EQ(c.find_used, 0);
    CHECK_EQ(c.find_size, 2 * f.whole - ARENA_HEADER_SIZE);
    /* The merged block serves a request neither half could. */
    CHECK(arena_alloc(f.a, 2 * f.whole - ARENA_HEADER_SIZE) == f.p[0]);
}

static void test_free_merges_with_next_free_block(void)
{
    struct four f;
    CALL(make_four(&f));
    arena_free(f.a, f.p[1]);
    arena_free(f.a, f.p[0]);
    CHECK_EQ(arena_check(f.a), ARENA_OK);
    struct census c = census_of(f.a, f.p[0]);
    CHECK_EQ(c.blocks, 4);
    CHECK_EQ(c.find_size, 2 * f.whole - ARENA_HEADER_SIZE);
    /* Freeing the last block merges it into the rest of the arena. */
    size_t rest = arena_largest_free(f.a);
    arena_free(f.a, f.p[3]);
    CHECK_EQ(arena_largest_free(f.a), rest + f.whole);
    CHECK_EQ(census_of(f.a, NULL).blocks, 3);
}

static void test_free_merges_with_both_neighbours(void)
{
    struct four f;
    CALL(make_four(&f));
    arena_free(f.a, f.p[0]);
    arena_free(f.a, f.p[2]);
    CHECK_EQ(census_of(f.a, NULL).blocks, 5);
    arena_free(f.a, f.p[1]);
    CHECK_EQ(arena_check(f.a), ARENA_OK);
    struct census c = census_of(f.a, f.p[0]);
    CHECK_EQ(c.blocks, 3); /* [a+b+c free] d [rest] */
    CHECK_EQ(c.free, 2);
    CHECK_EQ(c.find_size, 3 * f.whole - ARENA_HEADER_SIZE);
    arena_free(f.a, f.p[3]);
    c = census_of(f.a, NULL);
    CHECK_EQ(c.blocks, 1);
    CHECK_EQ(c.max_free, arena_free_bytes(f.a) - ARENA_HEADER_SIZE);
}

/* ---- Realloc ----------------------------------------------------------- */

static void test_realloc_grows_in_place_into_a_free_next_block(void)
{
    struct four f;
    CALL(make_four(&f));
    fill(f.p[0], 64, 1);
    arena_free(f.a, f.p[1]);
    size_t in_use = arena_in_use(f.a);
    unsigned char *q = arena_realloc(f.a, f.p[0], 100);
    CHECK(q == f.p[0]);
    CHECK(arena_block_size(f.a, q) >= 100);
    CHECK(intact(q, 64, 1));
    CHECK_EQ(arena_in_use(f.a),
             in_use - f.whole + arena_block_size(f.a, q) + ARENA_HEADER_SIZE);
    CHECK_EQ(arena_check(f.a), ARENA_OK);
    /* What was left of the next block is still free, after q. */
    struct census c =
        census_of(f.a, q + arena_block_size(f.a, q) + ARENA_HEADER_SIZE);
    CHECK_EQ(c.find_used, 0);
    /* The last block grows in place into the rest of the arena. */
    fill(f.p[3], 64, 3);
    q = arena_realloc(f.a, f.p[3], 1000);
    CHECK(q == f.p[3]);
    CHECK(intact(q, 64, 3));
    CHECK_EQ(arena_check(f.a), ARENA_OK);
}

static void test_realloc_moves_when_next_is_used_and_keeps_contents(void)
{
    struct four f;
    CALL(make_four(&f));
    size_t old = arena_block_size(f.a, f.p[1]);
    fill(f.p[1], old, 2);
    unsigned char *q = arena_realloc(f.a, f.p[1], 200);
    CHECK(q != NULL && q != f.p[1]);
    CHECK(aligned(q));
    CHECK(arena_block_size(f.a, q) >= 200);
    CHECK(intact(q, old, 2));
    CHECK_EQ(census_of(f.a, f.p[1]).find_used, 0); /* the old place */
    CHECK_EQ(arena_check(f.a), ARENA_OK);
}

static void test_realloc_shrinks_in_place_and_frees_the_tail(void)
{
    arena_t *a = small_arena();
    CHECK(a != NULL);
    unsigned char *p = arena_alloc(a, 1000);
    unsigned char *guard = arena_alloc(a, 16);
    CHECK(p != NULL && guard != NULL);
    fill(p, 1000, 4);
    size_t in_use = arena_in_use(a), before = arena_block_size(a, p);
    CHECK(arena_realloc(a, p, 100) == p);
    size_t after = arena_block_size(a, p);
    CHECK(after >= 100 && after < 100 + ARENA_ALIGN + ARENA_SPLIT_MIN);
    CHECK_EQ(arena_in_use(a), in_use - (before - after));
    CHECK(intact(p, 100, 4));
    struct census c = census_of(a, p + after + ARENA_HEADER_SIZE);
    CHECK_EQ(c.find_used, 0);
    CHECK_EQ(c.find_size, before - after - ARENA_HEADER_SIZE);
    CHECK_EQ(arena_check(a), ARENA_OK);
    /* A cut too small for a block leaves the block as it is. */
    CHECK(arena_realloc(a, p, after - 1) == p);
    CHECK_EQ(arena_block_size(a, p), after);
    /* A freed tail merges with a free block after it. */
    arena_free(a, guard);
    size_t spare = arena_largest_free(a);
    CHECK(arena_realloc(a, p, 40) == p);
    CHECK_EQ(arena_largest_free(a), spare + after - arena_block_size(a, p));
    CHECK_EQ(census_of(a, NULL).blocks, 2);
    CHECK_EQ(arena_check(a), ARENA_OK);
}

/* A block that cannot grow in place, with a free block below it: the
 * realloc moves it down over that block, so it needs no room for the old
 * block and the new one at once (a Lua stack doubling in an arena whose
 * free room is next to it).  Here no free block could hold the new size
 * elsewhere. */
static void test_realloc_grows_over_a_free_block_below(void)
{
    arena_t *a = small_arena();
    CHECK(a != NULL);
    size_t s = (arena_largest_alloc(a) - 256) / 3 / ARENA_ALIGN * ARENA_ALIGN;
    unsigned char *x = arena_alloc(a, s);
    unsigned char *p = arena_alloc(a, s);
    unsigned char *guard = arena_alloc(a, s);
    CHECK(guard != NULL && p != NULL && x != NULL);
    CHECK(x < p && p < guard); /* no pages: blocks in address order */
    fill(p, s, 7);
    arena_free(a, x);
    size_t want = s + s / 2;
    CHECK(arena_largest_alloc(a) < want);
    size_t in_use = arena_in_use(a);
    unsigned char *q = arena_realloc(a, p, want);
    CHECK(q != NULL);
    CHECK(q != p);
    CHECK(intact(q, s, 7));
    CHECK(arena_block_size(a, q) >= want);
    CHECK_EQ(arena_in_use(a),
             in_use - (s + ARENA_HEADER_SIZE) + arena_cost(a, q));
    CHECK(accounted(a));
    CHECK_EQ(arena_check(a), ARENA_OK);
    CHECK(arena_is_block(a, q) && arena_is_block(a, guard));
    arena_free(a, q);
    arena_free(a, guard);
    CHECK_EQ(arena_in_use(a), 0);
    CHECK_EQ(census_of(a, NULL).blocks, 1);
    CHECK_EQ(arena_check(a), ARENA_OK);
}

static void test_realloc_failure_leaves_the_old_block_intact(void)
{
    arena_t *a = small_arena();
    CHECK(a != NULL);
    unsigned char *p = arena_alloc(a, 64);
    unsigned char *q = arena_alloc(a, 64);
    CHECK(p != NULL && q != NULL);
    CHECK(arena_alloc(a, arena_largest_free(a)) != NULL);
    arena_free(a, q); /* free space right after p, but not enough */
    fill(p, 64, 5);
    size_t in_use = arena_in_use(a), size = arena_block_size(a, p);
    CHECK(arena_realloc(a, p, 1024) == NULL);
    CHECK_EQ(arena_block_size(a, p), size);
    CHECK_EQ(arena_in_use(a), in_use);
    CHECK(intact(p, 64, 5));
    CHECK_EQ(arena_check(a), ARENA_OK);
    /* The free space after p is still whole. */
    CHECK_EQ(arena_largest_free(a), size);
}

static void test_realloc_of_null_allocates_and_to_zero_frees(void)
{
    arena_t *a = small_arena();
    CHECK(a != NULL);
    void *p = arena_realloc(a, NULL, 50);
    CHECK(p != NULL);
    CHECK(arena_block_size(a, p) >= 50);
    CHECK(arena_in_use(a) > 0);
    CHECK(arena_realloc(a, p, 0) == NULL);
    CHECK_EQ(arena_in_use(a), 0);
    CHECK(arena_realloc(a, NULL, 0) == NULL);
    CHECK_EQ(census_of(a, NULL).blocks, 1);
    CHECK_EQ(arena_check(a), ARENA_OK);
}

/* ---- Accounting -------------------------------------------------------- */

static void test_in_use_counts_block_headers(void)
{
    arena_t *a = small_arena();
    CHECK(a != NULL);
    void *p = arena_alloc(a, 1);
    CHECK(p != NULL);
    CHECK(arena_in_use(a) > 1);
    CHECK_EQ(arena_in_use(a), arena_block_size(a, p) + ARENA_HEADER_SIZE);
    CHECK_EQ(arena_in_use(a), ARENA_MIN_BLOCK);
    for (uint32_t n = 1; n < 600; n += 37) {
        size_t before = arena_in_use(a);
        void *q = arena_alloc(a, n);
        CHECK(q != NULL);
        CHECK_EQ(arena_in_use(a) - before,
                 arena_block_size(a, q) + ARENA_HEADER_SIZE);
        CHECK(accounted(a));
        arena_free(a, q);
        CHECK_EQ(arena_in_use(a), before);
    }
}

static void test_in_use_returns_to_zero_after_freeing_everything(void)
{
    arena_t *a = big_arena();
    CHECK(a != NULL);
    void *p[32];
    rng_seed(7);
    for (int i = 0; i < 32; i++) {
        p[i] = arena_alloc(a, 1 + rng_below(TEST_ARENA_BIG / 128));
        CHECK(p[i] != NULL);
    }
    for (int i = 0; i < 32; i += 2)
        arena_free(a, p[i]);
    for (int i = 1; i < 32; i += 2)
        arena_free(a, p[i]);
    CHECK_EQ(arena_in_use(a), 0);
    CHECK_EQ(arena_free_bytes(a), arena_capacity(a) - arena_overhead(a));
    CHECK_EQ(census_of(a, NULL).blocks, 1);
    CHECK_EQ(arena_check(a), ARENA_OK);
}

static void test_in_use_plus_free_plus_overhead_is_capacity_always(void)
{
    arena_t *a = small_arena();
    CHECK(a != NULL);
    size_t capacity = arena_capacity(a);
    void *p[8] = {0};
    rng_seed(11);
    for (int op = 0; op < 2000; op++) {
        int i = (int)rng_below(8);
        uint32_t n = rng_below(300);
        switch (rng_below(3)) {
        case 0:
            if (p[i] == NULL)
                p[i] = arena_alloc(a, n);
            break;
        case 1:
            arena_free(a, p[i]);
            p[i] = NULL;
            break;
        default: {
            void *q = arena_realloc(a, p[i], n);
            if (q != NULL || n == 0)
                p[i] = q;
        }
        }
        CHECK(accounted(a));
        CHECK_EQ(arena_capacity(a), capacity);
    }
}

static void test_peak_follows_the_high_water_mark_and_resets(void)
{
    arena_t *a = small_arena();
    CHECK(a != NULL);
    void *p = arena_alloc(a, 500);
    void *q = arena_alloc(a, 300);
    size_t high = arena_in_use(a);
    CHECK_EQ(arena_peak(a), high);
    arena_free(a, p);
    CHECK_EQ(arena_peak(a), high);
    arena_reset_peak(a);
    CHECK_EQ(arena_peak(a), arena_in_use(a));
    q = arena_realloc(a, q, 800); /* grows in place: peak moves with it */
    CHECK(q != NULL);
    CHECK_EQ(arena_peak(a), arena_in_use(a));
    arena_free(a, q);
    CHECK(arena_peak(a) > 0);
    CHECK_EQ(arena_check(a), ARENA_OK);
}

/* ---- Fill and churn ---------------------------------------------------- */

/* Blocks in use by the fill tests are chained through their first word,
 * so filling a whole arena needs no array. */
struct chain {
    void *head;
    size_t count;
    const arena_t *a;
};

static void chain_push(struct chain *c, void *p)
{
    memcpy(p, &c->head, sizeof c->head);
    fill((unsigned char *)p + sizeof(void *),
         arena_block_size(c->a, p) - sizeof(void *), (uint32_t)(uintptr_t)p);
    c->head = p;
    c->count++;
}

/* Unlink and return the k-th block, after checking its contents. */
static void *chain_take(struct chain *c, size_t k, int *damaged)
{
    void **link = &c->head;
    while (k--)
        link = (void **)*link;
    void *p = *link;
    memcpy(link, p, sizeof(void *));
    c->count--;
    if (!intact((unsigned char *)p + sizeof(void *),
                arena_block_size(c->a, p) - sizeof(void *),
                (uint32_t)(uintptr_t)p))
        *damaged = 1;
    return p;
}

/* Allocate sizes in [1, max] until in_use reaches target; with target 0,
 * until the arena is full, halving the size when a request fails. */
static void fill_arena(arena_t *a, struct chain *c, uint32_t max,
                       size_t target)
{
    for (;;) {
        if (target && arena_in_use(a) >= target)
            return;
        uint32_t n = 1 + rng_below(max);
        void *p = arena_alloc(a, n);
        while (p == NULL && target == 0 && n > 1) {
            n /= 2;
            p = arena_alloc(a, n);
        }
        if (p == NULL) {
            CHECK(n > arena_largest_alloc(a));
            if (target == 0)
                return;
            continue;
        }
        chain_push(c, p);
    }
}

static void fill_then_free_randomly(arena_t *a, uint32_t max, int check_each)
{
    CHECK(a != NULL);
    struct chain c = {NULL, 0, a};
    CALL(fill_arena(a, &c, max, 0));
    CHECK_EQ(arena_check(a), ARENA_OK);
    /* Full means full: every free block can hold a minimum request. */
    CHECK_EQ(arena_free_bytes(a), 0);
    CHECK_EQ(arena_in_use(a), arena_capacity(a) - arena_overhead(a));
    CHECK_EQ(census_of(a, NULL).used, c.count);
    int damaged = 0;
    while (c.count > 0) {
        arena_free(a, chain_take(&c, rng_below((uint32_t)c.count), &damaged));
        CHECK(!damaged);
        if (check_each || c.count % 64 == 0)
            CHECK_EQ(arena_check(a), ARENA_OK);
    }
    CHECK_EQ(arena_in_use(a), 0);
    CHECK_EQ(census_of(a, NULL).blocks, 1);
}

static void test_fill_4k_to_full_then_free_in_random_order(void)
{
    rng_seed(21);
    CALL(fill_then_free_randomly(small_arena(), 48, 1));
}

static void test_fill_big_to_full_then_free_in_random_order(void)
{
    rng_seed(22);
    CALL(fill_then_free_randomly(big_arena(), TEST_ARENA_BIG / 1024, 0));
}

static void churn_at_half(arena_t *a, uint32_t max, int ops)
{
    CHECK(a != NULL);
    struct chain c = {NULL, 0, a};
    size_t half = arena_capacity(a) / 2;
    CALL(fill_arena(a, &c, max, half));
    int damaged = 0;
    for (int op = 0; op < ops; op++) {
        if (arena_in_use(a) >= half && c.count > 0)
            arena_free(a,
                       chain_take(&c, rng_below((uint32_t)c.count), &damaged));
        else
            CALL(fill_arena(a, &c, max, arena_in_use(a) + 1));
        CHECK(!damaged);
        CHECK_EQ(arena_check(a), ARENA_OK);
        CHECK(accounted(a));
    }
    CHECK_EQ(census_of(a, NULL).used, c.count);
    while (c.count > 0)
        arena_free(a, chain_take(&c, 0, &damaged));
    CHECK(!damaged);
    CHECK_EQ(census_of(a, NULL).blocks, 1);
}

static void test_churn_at_half_full_keeps_4k_arena_consistent(void)
{
    rng_seed(31);
    CALL(churn_at_half(small_arena(), 200, 4000));
}

static void test_churn_at_half_full_keeps_big_arena_consistent(void)
{
    rng_seed(32);
    CALL(churn_at_half(big_arena(), TEST_ARENA_BIG / 256, 4000));
}

/* ---- Random operations against a model --------------------------------- */

struct live {
    unsigned char *p;
    size_t size; /* usable bytes, all filled */
    uint32_t seed;
};

static struct live model[TEST_MODEL_SLOTS];
static int model_count;

static uint32_t random_size(size_t capacity)
{
    uint32_t r = rng_below(100);
    if (r < 60)
        return 1 + rng_below(32);
    if (r < 90)
        return 1 + rng_below(256);
    if (r < 98)
        return 1 + rng_below((uint32_t)(capacity / 32));
    return 1 + rng_below((uint32_t)(capacity / 4));
}

static void model_matches(const arena_t *a, int contents)
{
    size_t spent = 0, usable = 0;
    for (int i = 0; i < model_count; i++) {
        CHECK_EQ(arena_block_size(a, model[i].p), model[i].size);
        spent += model[i].size + ARENA_HEADER_SIZE;
        usable += model[i].size;
        if (contents)
            CHECK(intact(model[i].p, model[i].size, model[i].seed));
    }
    CHECK_EQ(arena_in_use(a), spent);
    if (contents) {
        struct census c = census_of(a, NULL);
        CHECK_EQ(c.used, model_count);
        CHECK_EQ(c.used_bytes, usable);
        CHECK_EQ(c.gaps, 0);
        CHECK_EQ(arena_largest_free(a), c.max_free);
    }
}

static void model_run(arena_t *a, uint32_t seed, int ops, int every)
{
    CHECK(a != NULL);
    rng_seed(seed);
    model_count = 0;
    size_t capacity = arena_capacity(a);
    int fails = 0;
    for (int op = 0; op < ops; op++) {
        uint32_t r = rng_below(10);
        size_t limit = arena_largest_alloc(a);
        if (model_count == 0 || (r < 4 && model_count < TEST_MODEL_SLOTS)) {
            uint32_t n = random_size(capacity);
            unsigned char *p =
                r == 0 ? arena_realloc(a, NULL, n) : arena_alloc(a, n);
            if (p == NULL) {
                CHECK(n > limit); /* the guarantee held */
                fails++;
            } else {
                CHECK(aligned(p));
                struct live *l = &model[model_count++];
                l->p = p;
                l->size = arena_block_size(a, p);
                l->seed = rng();
                fill(p, l->size, l->seed);
            }
        } else if (r < 7) {
            int i = (int)rng_below((uint32_t)model_count);
            CHECK(intact(model[i].p, model[i].size, model[i].seed));
            if (r == 6 && rng_below(4) == 0)
                CHECK(arena_realloc(a, model[i].p, 0) == NULL);
            else
                arena_free(a, model[i].p);
            model[i] = model[--model_count];
        } else {
            int i = (int)rng_below((uint32_t)model_count);
            struct live *l = &model[i];
            uint32_t n = rng_below(2) ? random_size(capacity)
                                      : 1 + rng_below((uint32_t)l->size * 2);
            size_t in_use = arena_in_use(a);
            unsigned char *q = arena_realloc(a, l->p, n);
            if (q == NULL) {
                CHECK(n > limit);
                CHECK_EQ(arena_in_use(a), in_use);
                CHECK(intact(l->p, l->size, l->seed));
                fails++;
            } else {
                size_t size = arena_block_size(a, q);
                CHECK(aligned(q) && size >= n);
                size_t kept = size < l->size ? size : l->size;
                CHECK(intact(q, kept, l->seed));
                l->p = q;
                l->size = size;
                l->seed = rng();
                fill(q, size, l->seed);
            }
        }
        CHECK_EQ(arena_check(a), ARENA_OK);
        CHECK(accounted(a));
        CALL(model_matches(a, op % every == 0));
    }
    CALL(model_matches(a, 1));
    /* Some requests must have failed, or the test never saw a full arena. */
    CHECK(fails > 0);
    while (model_count > 0)
        arena_free(a, model[--model_count].p);
    CHECK_EQ(arena_in_use(a), 0);
    CHECK_EQ(census_of(a, NULL).blocks, 1);
    CHECK_EQ(arena_check(a), ARENA_OK);
}

static void test_random_ops_match_the_model_on_4k_arena(void)
{
    CALL(model_run(small_arena(), 0x1234567u, TEST_MODEL_OPS, 1));
}

static void test_random_ops_match_the_model_on_big_arena(void)
{
    CALL(model_run(big_arena(), 0x89abcdefu, TEST_MODEL_OPS, 64));
}

/* ---- Queries ----------------------------------------------------------- */

static void test_largest_free_is_the_walks_largest_free_block(void)
{
    arena_t *a = big_arena();
    CHECK(a != NULL);
    /* Many holes of nearby sizes, so the top class holds several. */
    void *p[64];
    rng_seed(41);
    uint32_t base = TEST_ARENA_BIG / 256;
    for (int i = 0; i < 64; i++) {
        p[i] = arena_alloc(a, base + rng_below(base / 8));
        CHECK(p[i] != NULL);
    }
    CHECK(arena_alloc(a, arena_largest_free(a)) != NULL); /* no wilderness */
    for (int i = 0; i < 64; i += 2) {
        arena_free(a, p[i]);
        struct census c = census_of(a, NULL);
        CHECK_EQ(arena_largest_free(a), c.max_free);
        CHECK(arena_largest_alloc(a) <= c.max_free);
        CHECK(arena_largest_alloc(a) >=
              c.max_free - c.max_free / ARENA_SL_COUNT - ARENA_ALIGN);
    }
    /* What largest_alloc promises, alloc delivers; one more byte than the
     * largest free block never fits. */
    size_t largest = arena_largest_free(a);
    CHECK(arena_alloc(a, largest + 1) == NULL);
    void *q = arena_alloc(a, arena_largest_alloc(a));
    CHECK(q != NULL);
    CHECK_EQ(arena_check(a), ARENA_OK);
}

static void test_walk_visits_every_block_in_address_order(void)
{
    arena_t *a = small_arena();
    CHECK(a != NULL);
    void *p[10];
    for (int i = 0; i < 10; i++) {
        p[i] = arena_alloc(a, 16 + 8 * (size_t)i);
        CHECK(p[i] != NULL);
    }
    arena_free(a, p[3]);
    arena_free(a, p[7]);
    struct census c = census_of(a, NULL);
    CHECK_EQ(c.blocks, 11);
    CHECK_EQ(c.used, 8);
    CHECK_EQ(c.free, 3);
    CHECK_EQ(c.gaps, 0);
    /* The blocks tile the arena up to the sentinel. */
    CHECK(c.expect == (unsigned char *)a + arena_capacity(a));
    CHECK_EQ(c.used_bytes + c.free_bytes + c.blocks * ARENA_HEADER_SIZE +
                 arena_overhead(a),
             arena_capacity(a));
}

/* Debug builds poison what is freed (RTLUA_ARENA_POISON): a stale
 * pointer reads ARENA_POISON_BYTE past the free-list links, not the old
 * contents; under ASan the read itself is reported, so there the case only
 * checks that poisoned memory still allocates and checks clean.  Other
 * builds leave the bytes alone. */
static void test_freed_blocks_are_poisoned_in_debug_builds(void)
{
    arena_t *a = small_arena();
    CHECK(a != NULL);
    unsigned char *p = arena_alloc(a, 64), *q = arena_alloc(a, 64);
    CHECK(p != NULL && q != NULL);
    memset(p, 0x11, 64);
    memset(q, 0x22, 64);
    arena_free(a, p); /* q keeps p from merging with the rest */
    CHECK_EQ(arena_check(a), ARENA_OK);
#if defined(RTLUA_ARENA_POISON) && !defined(ARENA_ASAN)
    for (size_t i = 8; i < 64; i++)
        CHECK_EQ(p[i], ARENA_POISON_BYTE);
#elif !defined(RTLUA_ARENA_POISON)
    for (size_t i = 8; i < 64; i++)
        CHECK_EQ(p[i], 0x11);
#endif
    for (size_t i = 0; i < 64; i++)
        CHECK_EQ(q[i], 0x22);
    /* A shrink poisons its tail; the memory comes back usable. */
    CHECK(arena_realloc(a, q, 16) == q);
    unsigned char *r = arena_alloc(a, 200);
    CHECK(r != NULL);
    memset(r, 0x33, 200);
    arena_free(a, q);
    arena_free(a, r);
    CHECK_EQ(arena_check(a), ARENA_OK);
    CHECK_EQ(arena_in_use(a), 0);
}

static void test_check_reports_damage(void)
{
    arena_t *a = small_arena();
    CHECK(a != NULL);
    unsigned char *p = arena_alloc(a, 64);
    unsigned char *q = arena_alloc(a, 64);
    unsigned char *r = arena_alloc(a, 64);
    CHECK(p && q && r);
    arena_free(a, q);
    CHECK_EQ(arena_check(a), ARENA_OK);
    unsigned char saved[ARENA_HEADER_SIZE + 8];

    /* A live block's header overwritten (a buffer overrun from below). */
    memcpy(saved, r - ARENA_HEADER_SIZE, ARENA_HEADER_SIZE);
    memset(r - ARENA_HEADER_SIZE, 0xFF, ARENA_HEADER_SIZE);
    CHECK(arena_check(a) < 0);
    memset(r - ARENA_HEADER_SIZE, 0x00, ARENA_HEADER_SIZE);
    CHECK(arena_check(a) < 0);
    memcpy(r - ARENA_HEADER_SIZE, saved, ARENA_HEADER_SIZE);
    CHECK_EQ(arena_check(a), ARENA_OK);

    /* A freed block written through a stale pointer: its list links. */
    memcpy(saved, q, 8);
    memset(q, 0x44, 8);
    CHECK_EQ(arena_check(a), ARENA_E_LIST);
    memcpy(q, saved, 8);
    CHECK_EQ(arena_check(a), ARENA_OK);
}

static void test_check_reports_any_flipped_bit_in_the_control_block(void)
{
    arena_t *a = small_arena();
    CHECK(a != NULL);
    void *p = arena_alloc(a, 64);
    CHECK(p != NULL && arena_alloc(a, 64) != NULL);
    arena_free(a, p);
    /* The control block is 32-bit words: counters, bitmaps, list heads.
     * Each flip of each bit must be caught, except in the peak counter,
     * which may rise without being wrong. */
    unsigned char *ctl = (unsigned char *)a;
    size_t words = (arena_overhead(a) - ARENA_HEADER_SIZE) / sizeof(uint32_t);
    int words_missed = 0, seen[9] = {0};
    for (size_t i = 0; i < words; i++) {
        uint32_t w;
        memcpy(&w, ctl + 4 * i, 4);
        int missed = 0;
        for (int bit = 0; bit < 32; bit++) {
            uint32_t bad = w ^ (1u << bit);
            memcpy(ctl + 4 * i, &bad, 4);
            int rc = arena_check(a);
            memcpy(ctl + 4 * i, &w, 4);
            if (rc == ARENA_OK)
                missed = 1;
            else if (rc >= -8)
                seen[-rc] = 1;
        }
        words_missed += missed;
    }
    CHECK_EQ(arena_check(a), ARENA_OK);
    CHECK(words_missed <= 1);
    CHECK(seen[-ARENA_E_CONTROL]);
    CHECK(seen[-ARENA_E_BITMAP]);
    CHECK(seen[-ARENA_E_LIST]);
    CHECK(seen[-ARENA_E_ACCOUNT]);
}

/* Flip each bit of [p, p+n) in turn; every flip must make arena_check()
 * fail.  Marks the codes seen. */
static void flips_are_caught(const arena_t *a, unsigned char *p, size_t n,
                             int *seen)
{
    for (size_t i = 0; i < n; i++) {
        for (int bit = 0; bit < 8; bit++) {
            p[i] ^= (unsigned char)(1u << bit);
            int rc = arena_check(a);
            p[i] ^= (unsigned char)(1u << bit);
            CHECK(rc < 0 && rc >= ARENA_E_ACCOUNT);
            seen[-rc] = 1;
        }
    }
}

static void test_check_reports_any_flipped_bit_in_a_block_header(void)
{
    arena_t *a = small_arena();
    CHECK(a != NULL);
    unsigned char *b[5];
    for (int i = 0; i < 5; i++) {
        b[i] = arena_alloc(a, 64);
        CHECK(b[i] != NULL);
    }
    arena_free(a, b[1]); /* used, free, used, used, used, rest free */
    unsigned char *rest = b[4] + arena_block_size(a, b[4]);
    unsigned char *sentinel =
        (unsigned char *)a + arena_capacity(a) - ARENA_HEADER_SIZE;
    int seen[9] = {0};
    const size_t h = ARENA_HEADER_SIZE;
    CALL(flips_are_caught(a, b[0] - h, h, seen));     /* first block */
    CALL(flips_are_caught(a, b[1] - h, h + 8, seen)); /* free, with links */
    CALL(flips_are_caught(a, b[2] - h, h, seen));     /* after a free one */
    CALL(flips_are_caught(a, b[3] - h, h, seen));
    CALL(flips_are_caught(a, rest, h + 8, seen)); /* last block, free */
    CALL(flips_are_caught(a, sentinel, h, seen));
    CHECK_EQ(arena_check(a), ARENA_OK);
    CHECK(seen[-ARENA_E_SIZE]);
    CHECK(seen[-ARENA_E_PREV]);
    CHECK(seen[-ARENA_E_UNMERGED]);
    CHECK(seen[-ARENA_E_SENTINEL]);
    CHECK(seen[-ARENA_E_LIST]);
}

static const struct check_case cases[] = {
    CASE(test_fill_writes_the_pattern_and_intact_checks_it),
    CASE(test_create_on_4k_gives_one_free_block),
    CASE(test_create_on_big_gives_one_free_block),
    CASE(test_create_aligns_a_misaligned_start_and_stays_inside),
    CASE(test_create_rejects_null_and_too_small_memory),
    CASE(test_alloc_returns_aligned_disjoint_blocks_of_the_size_asked),
    CASE(test_alloc_zero_or_huge_returns_null_and_changes_nothing),
    CASE(test_free_of_null_is_a_no_op),
    CASE(test_free_merges_with_previous_free_block),
    CASE(test_free_merges_with_next_free_block),
    CASE(test_free_merges_with_both_neighbours),
    CASE(test_realloc_grows_in_place_into_a_free_next_block),
    CASE(test_realloc_moves_when_next_is_used_and_keeps_contents),
    CASE(test_realloc_shrinks_in_place_and_frees_the_tail),
    CASE(test_realloc_grows_over_a_free_block_below),
    CASE(test_realloc_failure_leaves_the_old_block_intact),
    CASE(test_realloc_of_null_allocates_and_to_zero_frees),
    CASE(test_in_use_counts_block_headers),
    CASE(test_in_use_returns_to_zero_after_freeing_everything),
    CASE(test_in_use_plus_free_plus_overhead_is_capacity_always),
    CASE(test_peak_follows_the_high_water_mark_and_resets),
    CASE(test_fill_4k_to_full_then_free_in_random_order),
    CASE(test_fill_big_to_full_then_free_in_random_order),
    CASE(test_churn_at_half_full_keeps_4k_arena_consistent),
    CASE(test_churn_at_half_full_keeps_big_arena_consistent),
    CASE(test_random_ops_match_the_model_on_4k_arena),
    CASE(test_random_ops_match_the_model_on_big_arena),
    CASE(test_largest_free_is_the_walks_largest_free_block),
    CASE(test_walk_visits_every_block_in_address_order),
    CASE(test_freed_blocks_are_poisoned_in_debug_builds),
    CASE(test_check_reports_damage),
    CASE(test_check_reports_any_flipped_bit_in_a_block_header),
    CASE(test_check_reports_any_flipped_bit_in_the_control_block),
};

int main(void)
{
    return check_main("arena", cases, CHECK_COUNT(cases));
}
