/*
 * check.h — the unit-test harness, the same on the host and the boards.
 *
 * A suite is a C file with static test functions and a table:
 *
 *     static void test_free_merges_neighbours(void) { CHECK(x == 1); }
 *     static const struct check_case cases[] = { CASE(test_...), };
 *     int main(void) { return check_main("arena", cases, CHECK_COUNT(cases));
 * }
 *
 * Each case prints `PASS suite.name` or `FAIL suite.name file:line: expr`;
 * the runner (tests/run) counts those lines.  A CHECK that fails ends its
 * test case at once (return), so later cases still run.  Output goes
 * through port_printf so the same suite runs under QEMU.
 */
#ifndef RTLUA_CHECK_H
#define RTLUA_CHECK_H

#include "gc/arena.h"
#include "port/port.h"

struct check_case {
    const char *name;
    void (*fn)(void);
};

#define CASE(fn)                                                              \
    {                                                                         \
#fn, fn                                                               \
    }
#define CHECK_COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

extern int check_failed_now;
void check_fail(const char *file, int line, const char *expr);
int check_main(const char *suite, const struct check_case *cases, int n);

#define CHECK(c)                                                              \
    do {                                                                      \
        if (!(c)) {                                                           \
            check_fail(__FILE__, __LINE__, #c);                               \
            return;                                                           \
        }                                                                     \
    } while (0)

/* A helper's failing CHECK returns from the helper only: its caller runs
 * it as CALL(helper(...)) to stop there too. */
#define CALL(stmt)                                                            \
    do {                                                                      \
        stmt;                                                                 \
        if (check_failed_now)                                                 \
            return;                                                           \
    } while (0)

/* CHECK with the two integers printed on failure. */
#define CHECK_EQ(a, b)                                                        \
    do {                                                                      \
        long long check_a_ = (long long)(a), check_b_ = (long long)(b);       \
        if (check_a_ != check_b_) {                                           \
            port_printf("  %s = %lld, %s = %lld\n", #a, check_a_, #b,         \
                        check_b_);                                            \
            check_fail(__FILE__, __LINE__, #a " == " #b);                     \
            return;                                                           \
        }                                                                     \
    } while (0)

/* An arena cut into holes of `hole` bytes, each between two held blocks
 * (check_fragment), so that nothing much larger than a hole can be
 * allocated: what a long-running program's arena may look like.  The
 * large free blocks are taken whole but for CHECK_FRAG_LEFT holes'
 * worth, which is then cut; a hole is made only between two adjacent
 * held blocks, so no free neighbour merges with it. */
#define CHECK_FRAG_BIG 16
#define CHECK_FRAG_SMALL 128
#define CHECK_FRAG_LEFT 32
typedef struct check_frag {
    arena_t *a;
    void *big[CHECK_FRAG_BIG];
    void *small[CHECK_FRAG_SMALL]; /* NULL: a hole */
    int nbig, nsmall;
} check_frag;

/* The number of holes made. */
int check_fragment(check_frag *f, arena_t *a, size_t hole);
/* Give every held block back. */
void check_unfragment(check_frag *f);

#endif
