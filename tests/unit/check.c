/* check.c — the unit-test harness runner (see check.h). */
#include "tests/unit/check.h"

int check_failed_now;
static const char *current_suite;
static const char *current_case;

void check_fail(const char *file, int line, const char *expr)
{
    check_failed_now = 1;
    port_printf("FAIL %s.%s %s:%d: %s\n", current_suite, current_case, file,
                line, expr);
}

int check_main(const char *suite, const struct check_case *cases, int n)
{
    int failed = 0;
    port_init();
    current_suite = suite;
    for (int i = 0; i < n; i++) {
        current_case = cases[i].name;
        check_failed_now = 0;
        cases[i].fn();
        if (check_failed_now)
            failed++;
        else
            port_printf("PASS %s.%s\n", suite, cases[i].name);
    }
    port_printf("# %s: %d passed, %d failed\n", suite, n - failed, failed);
    return failed ? 1 : 0;
}

/* q directly follows p in the arena. */
/* p and q lie side by side, in either order (an arena with pages cuts
 * blocks under ARENA_LARGE_MIN from the end of their free block: made
 * one after another, they go down). */
static int adjacent(const arena_t *a, const void *p, const void *q)
{
    return (const char *)q == (const char *)p + arena_cost(a, p) ||
           (const char *)p == (const char *)q + arena_cost(a, q);
}

int check_fragment(check_frag *f, arena_t *a, size_t hole)
{
    f->a = a;
    f->nbig = f->nsmall = 0;
    size_t keep = CHECK_FRAG_LEFT * (hole + ARENA_HEADER_SIZE);
    while (f->nbig < CHECK_FRAG_BIG && arena_largest_alloc(a) > 2 * keep) {
        f->big[f->nbig] = arena_alloc(a, arena_largest_alloc(a) - keep);
        if (f->big[f->nbig] == NULL)
            break;
        f->nbig++;
    }
    while (f->nsmall < CHECK_FRAG_SMALL &&
           (f->small[f->nsmall] = arena_alloc(a, hole)) != NULL)
        f->nsmall++;
    int holes = 0;
    for (int i = 1; i + 1 < f->nsmall; i += 2)
        if (adjacent(a, f->small[i - 1], f->small[i]) &&
            adjacent(a, f->small[i], f->small[i + 1])) {
            arena_free(a, f->small[i]);
            f->small[i] = NULL;
            holes++;
        }
    return holes;
}

void check_unfragment(check_frag *f)
{
    for (int i = 0; i < f->nsmall; i++)
        if (f->small[i] != NULL)
            arena_free(f->a, f->small[i]);
    while (f->nbig > 0)
        arena_free(f->a, f->big[--f->nbig]);
    f->nsmall = 0;
}
