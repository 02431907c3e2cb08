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
