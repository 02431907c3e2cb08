/*
 * test_num.c — vm/num: text -> number as lua_stringtonumber (correctly
 * rounded), number -> text as Lua's tostring and C's %g / %e.  On the host
 * a differential test checks random values against glibc.
 */
#include "tests/unit/check.h"

#include <math.h>
#include <string.h>

#include "vm/num.h"

static int tostr_is(const tvalue *v, const char *want)
{
    char b[NUM_TOSTRING_MAX];
    int n = num_tostring(v, b, sizeof b);
    if (n != (int)strlen(want) || strcmp(b, want) != 0) {
        port_printf("  got \"%s\", want \"%s\"\n", b, want);
        return 0;
    }
    return 1;
}

static int flt_is(double x, const char *want)
{
    tvalue v;
    set_flt(&v, (rt_num)x);
    return tostr_is(&v, want);
}

static int g_is(double x, int prec, const char *want)
{
    char b[128];
    int n = num_fmt_g(x, prec, b, sizeof b);
    if (n != (int)strlen(want) || strcmp(b, want) != 0) {
        port_printf("  %%.%dg got \"%s\", want \"%s\"\n", prec, b, want);
        return 0;
    }
    return 1;
}

static void test_tostring_integers_in_decimal(void)
{
    tvalue v;
    set_int(&v, 0);
    CHECK(tostr_is(&v, "0"));
    set_int(&v, -42);
    CHECK(tostr_is(&v, "-42"));
    set_int(&v, RT_INT_MIN);
#if RTLUA_NUM == 64
    CHECK(tostr_is(&v, "-9223372036854775808"));
#else
    CHECK(tostr_is(&v, "-2147483648"));
#endif
}

/* A float and tostring's text for it, in the build's model. */
static const struct {
    double x;
    const char *want;
} flt_cases[] = {
    {0.0, "0.0"},
    {-0.0, "-0.0"},
    {100.0, "100.0"},
    {1e15, "1e+15"},
    {HUGE_VAL, "inf"},
    {-HUGE_VAL, "-inf"},
    {-0.5, "-0.5"},
#if RTLUA_NUM == 64
    {1e100, "1e+100"},
    {9007199254740992.0, "9.007199254741e+15"},
    {0.1, "0.1"},
    {1.0 / 3, "0.33333333333333"},
    {123456789012345.0, "1.2345678901234e+14"},
    {12345678901234.0, "12345678901234.0"},
    {4.9406564584124654e-324, "4.9406564584125e-324"},
    {1.7976931348623157e308, "1.7976931348623e+308"},
#else
    {1e30, "1e+30"},
    {0.1, "0.1"},
    {1.0 / 3, "0.3333333"},
    {1234567.0, "1234567.0"},
    {16777216.0, "1.677722e+07"},
    {1.40129846e-45, "1.401298e-45"},
    {3.40282347e38, "3.402823e+38"},
#endif
};

static void test_tostring_floats_like_lua(void)
{
    for (size_t i = 0; i < sizeof flt_cases / sizeof flt_cases[0]; i++)
        CHECK(flt_is(flt_cases[i].x, flt_cases[i].want));
}

static void test_tostring_nan_has_glibc_spelling(void)
{
    /* Made in the model's own type: a double NaN converted to float by
     * the boards' soft-float library loses its sign. */
    volatile rt_num nan = (rt_num)NAN;
    rt_num pos = signbit(nan) ? -nan : nan, neg = -pos;
    tvalue v;
    set_flt(&v, pos);
    CHECK(tostr_is(&v, "nan"));
    set_flt(&v, neg);
    CHECK(tostr_is(&v, "-nan"));
}

static void test_fmt_g_rounds_half_to_even_on_exact_value(void)
{
    CHECK(g_is(0.5, 0, "0.5"));
    CHECK(g_is(2.5, 1, "2")); /* exact tie: even */
    CHECK(g_is(3.5, 1, "4"));
    CHECK(g_is(0.15, 1, "0.1")); /* 0.1499999... */
    CHECK(g_is(0.25, 1, "0.2"));
    CHECK(g_is(9.5, 1, "1e+01"));
    CHECK(g_is(999999.5, 6, "1e+06"));
    CHECK(g_is(0.0001, 6, "0.0001"));
    CHECK(g_is(0.00001, 6, "1e-05"));
    CHECK(g_is(123456.0, 6, "123456"));
    CHECK(g_is(1234567.0, 6, "1.23457e+06"));
    CHECK(g_is(0.1, 17, "0.10000000000000001"));
    CHECK(g_is(4.9406564584124654e-324, 17, "4.9406564584124654e-324"));
    CHECK(g_is(1.7976931348623157e308, 17, "1.7976931348623157e+308"));
    CHECK(g_is(
        5e-324, 60,
        "4.94065645841246544176568792868221372365059802614324764425586e-324"));
}

static void test_fmt_e_keeps_trailing_zeros(void)
{
    char b[64];
    CHECK_EQ(num_fmt_e(1.0, 3, b, sizeof b), 9);
    CHECK(strcmp(b, "1.000e+00") == 0);
    num_fmt_e(-123.456, 2, b, sizeof b);
    CHECK(strcmp(b, "-1.23e+02") == 0);
    num_fmt_e(1e-300, 0, b, sizeof b);
    CHECK(strcmp(b, "1e-300") == 0);
}

static void test_fmt_truncates_and_reports_full_length(void)
{
    char b[4];
    CHECK_EQ(num_fmt_g(123456.0, 6, b, sizeof b), 6);
    CHECK(strcmp(b, "123") == 0);
}

/* ---- str2number --------------------------------------------------------- */

static int s2n_int(const char *s, rt_int want)
{
    tvalue v;
    if (num_str2number(s, &v) != strlen(s) + 1 || !is_int(&v) ||
        v.v.i != want) {
        port_printf("  \"%s\" not the integer %lld\n", s, (long long)want);
        return 0;
    }
    return 1;
}

static int s2n_flt(const char *s, rt_num want)
{
    tvalue v;
    if (num_str2number(s, &v) != strlen(s) + 1 || !is_flt(&v) ||
        memcmp(&v.v.n, &want, sizeof want) != 0) {
        port_printf("  \"%s\" not the float wanted\n", s);
        return 0;
    }
    return 1;
}

static int s2n_fails(const char *s)
{
    tvalue v;
    return num_str2number(s, &v) == 0;
}

static void test_str2number_reads_integers(void)
{
    CHECK(s2n_int(" 10 ", 10));
    CHECK(s2n_int("+1", 1));
    CHECK(s2n_int("-7", -7));
    CHECK(s2n_int("0x10", 16));
    CHECK(s2n_int("\t0XfF\n", 255));
    CHECK(s2n_int("-0x10", -16));
#if RTLUA_NUM == 64
    CHECK(s2n_int("0xffffffffffffffff", -1));
    CHECK(s2n_int("0x10000000000000001", 1));
    CHECK(s2n_int("9223372036854775807", RT_INT_MAX));
    CHECK(s2n_int("-9223372036854775808", RT_INT_MIN));
    CHECK(s2n_flt("9223372036854775808", 9223372036854775808.0));
#else
    CHECK(s2n_int("0xffffffff", -1));
    CHECK(s2n_int("2147483647", RT_INT_MAX));
    CHECK(s2n_int("-2147483648", RT_INT_MIN));
    CHECK(s2n_flt("2147483648", 2147483648.0f));
#endif
}

static void test_str2number_reads_floats(void)
{
    CHECK(s2n_flt(".5", (rt_num)0.5));
    CHECK(s2n_flt("5.", (rt_num)5.0));
    CHECK(s2n_flt("-0.0", (rt_num)-0.0));
    CHECK(s2n_flt("1e2", (rt_num)100.0));
    CHECK(s2n_flt(" 2.5E-1 ", (rt_num)0.25));
    CHECK(s2n_flt("0x.8p1", (rt_num)1.0));
    CHECK(s2n_flt("0x1P4", (rt_num)16.0));
    CHECK(s2n_flt("0x1.8", (rt_num)1.5));
    CHECK(s2n_flt("1e400", (rt_num)HUGE_VAL));
    CHECK(s2n_flt("1e-400", (rt_num)0.0));
#if RTLUA_NUM == 64
    CHECK(s2n_flt("0x1p-1074", 4.9406564584124654e-324));
    CHECK(s2n_flt("0.1", 0.1));
    CHECK(s2n_flt("2.4703282292062328e-324", 4.9406564584124654e-324));
    CHECK(s2n_flt("2.4703282292062327e-324", 0.0));
    CHECK(s2n_flt("1.7976931348623158e308", 1.7976931348623157e308));
    CHECK(s2n_flt("1.7976931348623159e308", HUGE_VAL));
    /* exactly halfway between 1 and the next double: ties to even */
    CHECK(s2n_flt("1.00000000000000011102230246251565404236316680908203125",
                  1.0));
    CHECK(s2n_flt("1.000000000000000111022302462515654042363166809082031251",
                  1.0000000000000002));
#else
    CHECK(s2n_flt("0x1p-149", 1.40129846e-45f));
    CHECK(s2n_flt("0.1", 0.1f));
    CHECK(s2n_flt("1.00000005960464477539062500", 1.0f));
    CHECK(s2n_flt("1.000000059604644775390625001", 1.00000012f));
#endif
}

static void test_str2number_rejects_non_numerals(void)
{
    CHECK(s2n_fails("1e"));
    CHECK(s2n_fails("1e+"));
    CHECK(s2n_fails("1 2"));
    CHECK(s2n_fails(""));
    CHECK(s2n_fails("  "));
    CHECK(s2n_fails("0x"));
    CHECK(s2n_fails("."));
    CHECK(s2n_fails("-"));
    CHECK(s2n_fails("inf"));
    CHECK(s2n_fails("nan"));
    CHECK(s2n_fails("0x1p"));
    CHECK(s2n_fails("--1"));
    CHECK(s2n_fails("1.2.3"));
}

#ifdef RTLUA_HOST
#include <stdio.h>
#include <stdlib.h>

/* Rounds of the differential test against glibc. */
#define NUM_DIFF_ROUNDS 200000

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static double random_double(void)
{
    double x;
    uint64_t u = rng();
    memcpy(&x, &u, sizeof x);
    return x;
}

static void test_fmt_g_matches_glibc_on_random_doubles(void)
{
    static const int precs[] = {1, 6, 14, 17, 40};
    char a[160], b[160];
    for (int i = 0; i < NUM_DIFF_ROUNDS; i++) {
        double x = random_double();
        if (isnan(x))
            continue;
        int p = precs[i % 5];
        snprintf(a, sizeof a, "%.*g", p, x);
        num_fmt_g(x, p, b, sizeof b);
        if (strcmp(a, b) != 0)
            port_printf("  %%.%dg: glibc \"%s\" ours \"%s\"\n", p, a, b);
        CHECK(strcmp(a, b) == 0);
        snprintf(a, sizeof a, "%.*e", p, x);
        num_fmt_e(x, p, b, sizeof b);
        CHECK(strcmp(a, b) == 0);
    }
}

/* The numbers programs print: short mantissas over a few decades,
 * decimal fractions, exact halves and values next to a carry (9.995),
 * where the formatting takes its 64-bit short cut, against glibc in
 * %.*g, %.*e and %.*f. */
static double everyday_double(uint64_t r)
{
    int kind = (int)(r & 7u), sh = (int)((r >> 3) & 63u);
    uint64_t m = r >> 9;
    switch (kind) {
    case 0: /* a float of the 32-bit model */
        return (double)(float)ldexp((double)(m & 0xFFFFFFu), sh - 40);
    case 1: /* n / 10^k */
        return (double)(m & 0xFFFFFFFu) / pow(10.0, (double)(sh % 12));
    case 2: /* an exact half at some place */
        return ((double)(m & 0xFFFFFu) + 0.5) / pow(10.0, (double)(sh % 6));
    case 3: /* just under a power of ten */
        return pow(10.0, (double)(sh % 20) - 6) *
               (1.0 - 1e-9 * (double)(m & 7u));
    case 4: /* a double with a full mantissa near 1 */
        return ldexp((double)(m | (1ull << 52)), -52 + sh % 24 - 8);
    default: /* a short mantissa, wide exponents */
        return ldexp((double)(m & 0xFFFFu), sh - 32);
    }
}

static void test_fmt_matches_glibc_on_everyday_numbers(void)
{
    char a[400], b[400];
    for (int i = 0; i < NUM_DIFF_ROUNDS; i++) {
        uint64_t r = rng();
        double x = everyday_double(r);
        if (r & (1ull << 63))
            x = -x;
        int p = (int)((r >> 40) % 21u);
        snprintf(a, sizeof a, "%.*g", p, x);
        num_fmt_g(x, p, b, sizeof b);
        if (strcmp(a, b) != 0)
            port_printf("  %%.%dg of %a: glibc \"%s\" ours \"%s\"\n", p, x, a,
                        b);
        CHECK(strcmp(a, b) == 0);
        snprintf(a, sizeof a, "%.*e", p, x);
        num_fmt_e(x, p, b, sizeof b);
        if (strcmp(a, b) != 0)
            port_printf("  %%.%de of %a: glibc \"%s\" ours \"%s\"\n", p, x, a,
                        b);
        CHECK(strcmp(a, b) == 0);
        snprintf(a, sizeof a, "%.*f", p, x);
        num_fmt_f(x, p, 0, b, sizeof b);
        if (strcmp(a, b) != 0)
            port_printf("  %%.%df of %a: glibc \"%s\" ours \"%s\"\n", p, x, a,
                        b);
        CHECK(strcmp(a, b) == 0);
    }
}

static void test_str2number_matches_glibc_on_random_text(void)
{
    char s[900];
    for (int i = 0; i < NUM_DIFF_ROUNDS; i++) {
        double x = random_double();
        if (isnan(x) || isinf(x))
            continue;
        int kind = i % 4;
        if (kind == 0) {
            snprintf(s, sizeof s, "%.17g", x);
        } else if (kind == 1) {
            /* near-halfway: a few more digits than needed */
            snprintf(s, sizeof s, "%.*e", 15 + (int)(rng() % 12), x);
        } else if (kind == 2) {
            /* random digit strings with a random exponent */
            int n = 1 + (int)(rng() % 30), k = 0;
            for (int j = 0; j < n; j++)
                s[k++] = (char)('0' + rng() % 10);
            if (rng() & 1)
                s[k++] = '.';
            for (int j = 0; j < (int)(rng() % 10); j++)
                s[k++] = (char)('0' + rng() % 10);
            snprintf(s + k, sizeof s - (size_t)k, "e%d",
                     (int)(rng() % 700) - 350);
        } else {
            /* the exact decimal value of x or of a halfway point */
            snprintf(s, sizeof s, "%.800e", x);
        }
        tvalue v;
        size_t r = num_str2number(s, &v);
        CHECK(r == strlen(s) + 1);
#if RTLUA_NUM == 64
        double want = strtod(s, NULL);
        double got = is_flt(&v) ? v.v.n : (double)v.v.i;
#else
        float want = strtof(s, NULL);
        float got = is_flt(&v) ? v.v.n : (float)v.v.i;
#endif
        if (memcmp(&want, &got, sizeof want) != 0)
            port_printf("  \"%.60s\": glibc %.17g ours %.17g\n", s,
                        (double)want, (double)got);
        CHECK(memcmp(&want, &got, sizeof want) == 0);
    }
}

/* Halfway points between neighbouring doubles, written exactly. */
static void test_str2number_matches_glibc_on_halfway_points(void)
{
    char s[900];
    for (int i = 0; i < NUM_DIFF_ROUNDS / 4; i++) {
        double x = fabs(random_double());
        if (isnan(x) || isinf(x) || x == 0)
            continue;
#if RTLUA_NUM == 64
        long double h =
            ((long double)x + (long double)nextafter(x, HUGE_VAL)) / 2;
#else
        float xf = (float)x;
        if (isinf(xf) || xf == 0)
            continue;
        double h = ((double)xf + (double)nextafterf(xf, HUGE_VALF)) / 2;
#endif
        snprintf(s, sizeof s, "%.800Le", (long double)h);
        tvalue v;
        CHECK(num_str2number(s, &v) == strlen(s) + 1);
#if RTLUA_NUM == 64
        double want = strtod(s, NULL);
#else
        float want = strtof(s, NULL);
#endif
        if (memcmp(&want, &v.v.n, sizeof want) != 0)
            port_printf("  halfway \"%.40s\" differs\n", s);
        CHECK(memcmp(&want, &v.v.n, sizeof want) == 0);
    }
}

static void test_tostring_matches_glibc_on_random_floats(void)
{
    char a[64], b[NUM_TOSTRING_MAX];
    for (int i = 0; i < NUM_DIFF_ROUNDS; i++) {
        tvalue v;
#if RTLUA_NUM == 64
        double x = random_double();
        snprintf(a, sizeof a, "%.14g", x);
#else
        uint32_t u = (uint32_t)rng();
        float x;
        memcpy(&x, &u, sizeof x);
        snprintf(a, sizeof a, "%.7g", (double)x);
#endif
        if (a[strspn(a, "-0123456789")] == '\0')
            strcat(a, ".0");
        set_flt(&v, x);
        num_tostring(&v, b, sizeof b);
        if (strcmp(a, b) != 0)
            port_printf("  glibc \"%s\" ours \"%s\"\n", a, b);
        CHECK(strcmp(a, b) == 0);
    }
}
#endif

static const struct check_case cases[] = {
    CASE(test_tostring_integers_in_decimal),
    CASE(test_tostring_floats_like_lua),
    CASE(test_tostring_nan_has_glibc_spelling),
    CASE(test_fmt_g_rounds_half_to_even_on_exact_value),
    CASE(test_fmt_e_keeps_trailing_zeros),
    CASE(test_fmt_truncates_and_reports_full_length),
    CASE(test_str2number_reads_integers),
    CASE(test_str2number_reads_floats),
    CASE(test_str2number_rejects_non_numerals),
#ifdef RTLUA_HOST
    CASE(test_fmt_g_matches_glibc_on_random_doubles),
    CASE(test_fmt_matches_glibc_on_everyday_numbers),
    CASE(test_str2number_matches_glibc_on_random_text),
    CASE(test_str2number_matches_glibc_on_halfway_points),
    CASE(test_tostring_matches_glibc_on_random_floats),
#endif
};

int main(void)
{
    return check_main("num", cases, CHECK_COUNT(cases));
}
