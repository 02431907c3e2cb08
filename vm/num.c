/*
 * num.c — exact number <-> text conversion (see num.h).
 *
 * Text -> float: the decimal digits D and exponent E give V = D * 10^E.
 * A float-arithmetic estimate picks a candidate m * 2^e; then V is
 * compared exactly, as big integers, with the halfway points to the two
 * neighbours, and the candidate steps one unit until V lies between them
 * (ties to the even mantissa).  Only the first NUM_DIGITS_MAX significant
 * digits are kept, plus a sticky digit when the rest is not all zeros:
 * every halfway point has fewer digits, so the rounding is unchanged.
 *
 * Float -> text: x = m * 2^e becomes the fraction num/den scaled by a
 * power of ten so that 1 <= num/den < 10; each digit is the quotient of
 * num/den (at most nine subtractions), and the remainder decides the last
 * digit's rounding, half to even.
 */
#include "vm/num.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* ---- Model constants ---------------------------------------------------
 * P: mantissa bits; E_MIN / E_MAX: least and greatest exponent e of the
 * value m * 2^e, m < 2^P; X_MIN / X_MAX: decimal exponents of the leading
 * digit beyond which the result is surely 0 or infinity. */
#if RTLUA_NUM == 64
#define NUM_P 53
#define NUM_E_MIN (-1074)
#define NUM_E_MAX 971
#define NUM_X_MIN (-324)
#define NUM_X_MAX 309
/* Significant decimal digits kept by str2number (a halfway point between
 * two doubles has at most 767). */
#define NUM_DIGITS_MAX 780
/* Limbs of a big integer: str2number compares values up to about
 * 2^55 * 5^1105 (2620 bits); formatting needs 40. */
#define BN_LIMBS 90
#else
#define NUM_P 24
#define NUM_E_MIN (-149)
#define NUM_E_MAX 104
#define NUM_X_MIN (-46)
#define NUM_X_MAX 39
/* A halfway point between two floats has at most 112 digits. */
#define NUM_DIGITS_MAX 120
/* Formatting a double (num_fmt_g takes one in either model) needs about
 * 2^1130 for denormals: 36 limbs. */
#define BN_LIMBS 40
#endif

/* Exponents beyond this are clamped: they already make any numeral 0 or
 * infinity, and the clamp keeps the arithmetic in int. */
#define NUM_EXP_CLAMP 100000

/* Bound on the one-unit correction steps after the estimate (which is
 * within a few units); passing it means a bug, reported as failure. */
#define NUM_STEPS_MAX 64

/* Most significant digits a formatting call produces (prec <= 99, + 1). */
#define NUM_FMT_DIGITS 101

/* Most digits "%.99f" needs: those of the largest finite value of the
 * model's float type before the point, plus 99 after (a double from C
 * beyond the 32-bit model's range is cut at this many digits). */
#if RTLUA_NUM == 64
#define NUM_FIXED_DIGITS (309 + 99 + 1)
#else
#define NUM_FIXED_DIGITS (39 + 99 + 1)
#endif

/* ---- Big integers -------------------------------------------------------
 * Little-endian 32-bit limbs; n is the count in use (no leading zero
 * limbs).  An operation that would pass BN_LIMBS sets `over`; the sizes
 * above make that unreachable, and callers treat it as a failure. */
typedef struct {
    int n;
    int over;
    uint32_t w[BN_LIMBS];
} bignum;

/* The big integers of a conversion, outside the C stack (three of them
 * are a third of a small board's stack reserve): one conversion runs at a
 * time, as a conversion calls nothing that converts, and interrupts never
 * convert numbers. */
static bignum bn_scratch[3];

static void bn_set(bignum *a, uint64_t v)
{
    a->n = 0;
    a->over = 0;
    while (v != 0) {
        a->w[a->n++] = (uint32_t)v;
        v >>= 32;
    }
}

static void bn_muladd(bignum *a, uint32_t m, uint32_t add)
{
    uint64_t carry = add;
    for (int i = 0; i < a->n; i++) {
        uint64_t t = (uint64_t)a->w[i] * m + carry;
        a->w[i] = (uint32_t)t;
        carry = t >> 32;
    }
    if (carry != 0) {
        if (a->n == BN_LIMBS) {
            a->over = 1;
            return;
        }
        a->w[a->n++] = (uint32_t)carry;
    }
}

/* 5^13 and 10^9 are the largest powers that fit a limb. */
static void bn_mulpow5(bignum *a, int k)
{
    for (; k >= 13; k -= 13)
        bn_muladd(a, 1220703125u, 0);
    uint32_t p = 1;
    while (k-- > 0)
        p *= 5;
    bn_muladd(a, p, 0);
}

static void bn_mulpow10(bignum *a, int k)
{
    for (; k >= 9; k -= 9)
        bn_muladd(a, 1000000000u, 0);
    uint32_t p = 1;
    while (k-- > 0)
        p *= 10;
    bn_muladd(a, p, 0);
}

static void bn_shl(bignum *a, int bits)
{
    if (a->n == 0 || bits <= 0)
        return;
    int limbs = bits / 32, b = bits % 32;
    uint32_t top = b ? a->w[a->n - 1] >> (32 - b) : 0;
    if (a->n + limbs + (top != 0) > BN_LIMBS) {
        a->over = 1;
        return;
    }
    for (int i = a->n - 1; i >= 0; i--) {
        uint32_t lo = (b && i > 0) ? a->w[i - 1] >> (32 - b) : 0;
        a->w[i + limbs] = (a->w[i] << b) | lo;
    }
    for (int i = 0; i < limbs; i++)
        a->w[i] = 0;
    a->n += limbs;
    if (top != 0)
        a->w[a->n++] = top;
}

static int bn_cmp(const bignum *a, const bignum *b)
{
    if (a->n != b->n)
        return a->n < b->n ? -1 : 1;
    for (int i = a->n - 1; i >= 0; i--)
        if (a->w[i] != b->w[i])
            return a->w[i] < b->w[i] ? -1 : 1;
    return 0;
}

/* a -= b, where a >= b. */
static void bn_sub(bignum *a, const bignum *b)
{
    uint32_t borrow = 0;
    for (int i = 0; i < a->n; i++) {
        uint64_t t = (uint64_t)a->w[i] - (i < b->n ? b->w[i] : 0) - borrow;
        a->w[i] = (uint32_t)t;
        borrow = (uint32_t)(t >> 63);
    }
    while (a->n > 0 && a->w[a->n - 1] == 0)
        a->n--;
}

/* ---- Text -> number ----------------------------------------------------- */
static int is_space(int c)
{
    return c == ' ' || (c >= '\t' && c <= '\r');
}

/* The significant digits of a decimal numeral: `first` points at the
 * first nonzero digit, `nd` digits are taken from there (skipping the
 * point), and `sticky` stands for a nonzero digit after them. */
typedef struct {
    const char *first;
    int nd;
    int sticky;
} digits;

/* D (with the sticky digit appended, if any) as a big integer. */
static void load_digits(bignum *a, const digits *d)
{
    const char *p = d->first;
    uint32_t chunk = 0, scale = 1;
    bn_set(a, 0);
    for (int i = 0; i < d->nd; p++) {
        if (*p == '.')
            continue;
        chunk = chunk * 10 + (uint32_t)(*p - '0');
        scale *= 10;
        i++;
        if (scale == 1000000000u) {
            bn_muladd(a, scale, chunk);
            chunk = 0;
            scale = 1;
        }
    }
    if (d->sticky) {
        chunk = chunk * 10 + 1;
        scale *= 10;
    }
    if (scale > 1) {
        bn_muladd(a, scale, chunk);
    }
}

/* Sign of D * 10^E - M * 2^f; 2 when the arithmetic overflowed. */
static int cmp_exact(const digits *d, int E, uint64_t M, int f)
{
    bignum *lhs = &bn_scratch[0], *rhs = &bn_scratch[1];
    load_digits(lhs, d);
    bn_set(rhs, M);
    if (E >= 0)
        bn_mulpow5(lhs, E);
    else
        bn_mulpow5(rhs, -E);
    if (E > f)
        bn_shl(lhs, E - f);
    else
        bn_shl(rhs, f - E);
    if (lhs->over || rhs->over)
        return 2;
    return bn_cmp(lhs, rhs);
}

/* Exact powers of ten as doubles, for the estimate. */
static const double pow10_tab[] = {
    1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* Rounds the value D * 10^E to m * 2^e of the model.  Returns 0 on
 * (unreachable) arithmetic overflow. */
static int decimal_to_float(const digits *d, int E, rt_num *out)
{
    const uint64_t one = (uint64_t)1 << NUM_P, half = one >> 1;
    int X = E + d->nd - 1 + (d->sticky ? 1 : 0);
    if (d->nd == 0 || X < NUM_X_MIN) {
        *out = 0;
        return 1;
    }
    if (X > NUM_X_MAX) {
        *out = (rt_num)HUGE_VAL;
        return 1;
    }
    /* Estimate from the first 19 digits, keeping the binary exponent
     * apart so that no step under- or overflows. */
    uint64_t top = 0;
    int used = 0;
    for (const char *p = d->first; used < d->nd && used < 19; p++) {
        if (*p == '.')
            continue;
        top = top * 10 + (uint64_t)(*p - '0');
        used++;
    }
    int e10 = E + d->nd + (d->sticky ? 1 : 0) - used, e2 = 0, t;
    double g = frexp((double)top, &t);
    e2 += t;
    while (e10 != 0) {
        int k = e10 > 22 ? 22 : e10 < -22 ? -22 : e10;
        g = k > 0 ? g * pow10_tab[k] : g / pow10_tab[-k];
        e10 -= k;
        g = frexp(g, &t);
        e2 += t;
    }
    uint64_t m = (uint64_t)ldexp(g, NUM_P);
    int e = e2 - NUM_P;
    if (e < NUM_E_MIN) {
        int sh = NUM_E_MIN - e;
        m = sh >= 64 ? 0 : m >> sh;
        e = NUM_E_MIN;
    }
    if (m >= one) {
        m >>= 1;
        e++;
    }
    if (e > NUM_E_MAX) {
        m = one - 1;
        e = NUM_E_MAX;
    }
    for (int step = 0;; step++) {
        if (step == NUM_STEPS_MAX)
            return 0;
        int c = cmp_exact(d, E, 2 * m + 1, e - 1);
        if (c == 2)
            return 0;
        if (c > 0 || (c == 0 && (m & 1))) {
            if (++m == one) {
                m = half;
                if (++e > NUM_E_MAX) {
                    *out = (rt_num)HUGE_VAL;
                    return 1;
                }
            }
            continue;
        }
        if (m == 0)
            break;
        if (m == half && e > NUM_E_MIN)
            c = cmp_exact(d, E, 4 * m - 1, e - 2);
        else
            c = cmp_exact(d, E, 2 * m - 1, e - 1);
        if (c == 2)
            return 0;
        if (c < 0 || (c == 0 && (m & 1))) {
            if (--m == half - 1 && e > NUM_E_MIN) {
                m = one - 1;
                e--;
            }
            continue;
        }
        break;
    }
    *out = (rt_num)ldexp((double)m, e);
    return 1;
}

/* mant * 2^bexp, plus a nonzero tail below it when sticky, rounded to the
 * model's float. */
static rt_num binary_to_float(uint64_t mant, int bexp, int sticky)
{
    const uint64_t one = (uint64_t)1 << NUM_P;
    if (mant == 0)
        return 0;
    int nb = 0;
    while (nb < 64 && (mant >> nb) != 0)
        nb++;
    int e = bexp + nb - NUM_P;
    if (e < NUM_E_MIN)
        e = NUM_E_MIN;
    int sh = e - bexp;
    uint64_t m;
    if (sh <= 0) {
        m = mant << -sh;
    } else {
        uint64_t rest, halfway;
        if (sh > 64) {
            m = 0;
            rest = 1; /* below half: mant < 2^64 <= 2^(sh-1) */
            halfway = 2;
        } else {
            m = sh == 64 ? 0 : mant >> sh;
            rest = sh == 64 ? mant : mant & (((uint64_t)1 << sh) - 1);
            halfway = (uint64_t)1 << (sh - 1);
        }
        if (rest > halfway || (rest == halfway && (sticky || (m & 1))))
            m++;
    }
    if (m == one) {
        m >>= 1;
        e++;
    }
    if (e > NUM_E_MAX)
        return (rt_num)HUGE_VAL;
    return (rt_num)ldexp((double)m, e);
}

/* Reads an optional exponent [+-]digits after the marker at *pp; returns
 * 0 when the marker is there but no digit follows. */
static int read_exponent(const char **pp, int *exp)
{
    const char *p = *pp;
    int neg = 0, v = 0;
    if (*p == '-' || *p == '+')
        neg = *p++ == '-';
    if (*p < '0' || *p > '9')
        return 0;
    for (; *p >= '0' && *p <= '9'; p++)
        if (v < NUM_EXP_CLAMP)
            v = v * 10 + (*p - '0');
    *exp = neg ? -v : v;
    *pp = p;
    return 1;
}

static int clamp_add(int a, long b)
{
    long s = (long)a + b;
    if (s > NUM_EXP_CLAMP)
        return NUM_EXP_CLAMP * 2;
    if (s < -NUM_EXP_CLAMP)
        return -NUM_EXP_CLAMP * 2;
    return (int)s;
}

/* A hex float body after "0x"; *pp is left after it. */
static int read_hex_float(const char **pp, rt_num *out)
{
    const char *p = *pp;
    uint64_t mant = 0;
    int bexp = 0, sticky = 0, any = 0, point = 0, v;
    for (;; p++) {
        if (*p == '.' && !point) {
            point = 1;
            continue;
        }
        if ((v = num_hexvalue(*p)) < 0)
            break;
        any = 1;
        if (mant >> 56 == 0) {
            mant = mant << 4 | (uint64_t)v;
            if (point)
                bexp -= 4;
        } else {
            sticky |= v != 0;
            if (!point)
                bexp += 4;
        }
        if (bexp > NUM_EXP_CLAMP)
            bexp = NUM_EXP_CLAMP;
    }
    if (!any)
        return 0;
    if (*p == 'p' || *p == 'P') {
        int x;
        p++;
        if (!read_exponent(&p, &x))
            return 0;
        bexp = clamp_add(bexp, x);
    }
    *out = binary_to_float(mant, bexp, sticky);
    *pp = p;
    return 1;
}

/* A decimal float body; *pp is left after it. */
static int read_dec_float(const char **pp, rt_num *out)
{
    const char *p = *pp;
    digits d = {NULL, 0, 0};
    int any = 0, point = 0;
    long E = 0;
    for (;; p++) {
        if (*p == '.' && !point) {
            point = 1;
            continue;
        }
        if (*p < '0' || *p > '9')
            break;
        any = 1;
        if (d.first == NULL && *p == '0') {
            if (point)
                E--;
            continue;
        }
        if (d.first == NULL)
            d.first = p;
        if (d.nd < NUM_DIGITS_MAX) {
            d.nd++;
            if (point)
                E--;
        } else {
            d.sticky |= *p != '0';
            if (!point)
                E++;
        }
        if (E < -NUM_EXP_CLAMP)
            E = -NUM_EXP_CLAMP;
    }
    if (!any)
        return 0;
    if (d.sticky)
        E--; /* the sticky digit is one more place of D */
    if (*p == 'e' || *p == 'E') {
        int x;
        p++;
        if (!read_exponent(&p, &x))
            return 0;
        E += x;
    }
    if (E > NUM_EXP_CLAMP)
        E = NUM_EXP_CLAMP;
    if (E < -NUM_EXP_CLAMP)
        E = -NUM_EXP_CLAMP;
    if (!decimal_to_float(&d, (int)E, out))
        return 0;
    *pp = p;
    return 1;
}

/* An integer numeral (decimal that fits, or hex modulo 2^N). */
static const char *read_int(const char *s, rt_int *out)
{
    rt_uint a = 0;
    int neg = 0, any = 0, v;
    while (is_space(*s))
        s++;
    if (*s == '-' || *s == '+')
        neg = *s++ == '-';
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        for (s += 2; (v = num_hexvalue(*s)) >= 0; s++, any = 1)
            a = a * 16 + (rt_uint)v;
    } else {
        const rt_uint lim = (rt_uint)RT_INT_MAX / 10;
        const int lastd = (int)((rt_uint)RT_INT_MAX % 10);
        for (; *s >= '0' && *s <= '9'; s++, any = 1) {
            int dg = *s - '0';
            if (a >= lim && (a > lim || dg > lastd + neg))
                return NULL;
            a = a * 10 + (rt_uint)dg;
        }
    }
    while (is_space(*s))
        s++;
    if (!any || *s != '\0')
        return NULL;
    *out = (rt_int)(neg ? 0u - a : a);
    return s;
}

static const char *read_float(const char *s, rt_num *out)
{
    int neg = 0, ok;
    rt_num n;
    while (is_space(*s))
        s++;
    if (*s == '-' || *s == '+')
        neg = *s++ == '-';
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        s += 2;
        ok = read_hex_float(&s, &n);
    } else {
        ok = read_dec_float(&s, &n);
    }
    if (!ok)
        return NULL;
    while (is_space(*s))
        s++;
    if (*s != '\0')
        return NULL;
    *out = neg ? -n : n;
    return s;
}

size_t num_str2number(const char *s, tvalue *out)
{
    rt_int i;
    rt_num n;
    const char *e = read_int(s, &i);
    if (e != NULL) {
        set_int(out, i);
        return (size_t)(e - s) + 1;
    }
    e = read_float(s, &n);
    if (e != NULL) {
        set_flt(out, n);
        return (size_t)(e - s) + 1;
    }
    return 0;
}

/* ---- Number -> text ----------------------------------------------------- */

/* floor(e * log10(2)) for |e| <= 2048, as floor(e * 0.30102999566398120)
 * in doubles gives it (checked for every such e): 1292913986 / 2^32 is
 * log10(2) to 2e-11, and the bias of 2048 keeps the shifted value
 * positive.  (No double multiply or floor: floor's 264 bytes were in the
 * boards' 32-bit model for this alone.) */
static int log10_2_floor(int e)
{
    return (int)(((int64_t)e * 1292913986 + ((int64_t)2048 << 32)) >> 32) -
           2048;
}

/* Scales finite x > 0 to num/den * 10^K with 1 <= num/den < 10 (exact
 * big-integer fraction); returns K. */
static int scale10(double x, bignum *num, bignum *den)
{
    int b;
    double f = frexp(x, &b);
    uint64_t m = (uint64_t)ldexp(f, 53);
    int e = b - 53;
    bn_set(num, m);
    bn_set(den, 1);
    if (e >= 0)
        bn_shl(num, e);
    else
        bn_shl(den, -e);
    /* log10(2) ~ 0.30103; the estimate may be one low, fixed below. */
    int K = log10_2_floor(b - 1);
    if (K >= 0)
        bn_mulpow10(den, K);
    else
        bn_mulpow10(num, -K);
    bignum *ten = &bn_scratch[2];
    *ten = *den;
    bn_muladd(ten, 10, 0);
    while (bn_cmp(num, ten) >= 0) {
        bn_muladd(den, 10, 0);
        bn_muladd(ten, 10, 0);
        K++;
    }
    while (bn_cmp(num, den) < 0) {
        bn_muladd(num, 10, 0);
        K--;
    }
    return K;
}

/* Writes n >= 1 digits (values 0..9) of num/den (1 <= num/den < 10)
 * into dg, rounded half to even; returns 1 when the rounding carried out
 * of the first digit (dg is then 1 0 0 ...: one decimal place more). */
static int gen_digits(bignum *num, bignum *den, int n, char *dg)
{
    for (int i = 0; i < n; i++) {
        int q = 0;
        while (bn_cmp(num, den) >= 0) {
            bn_sub(num, den);
            q++;
        }
        dg[i] = (char)q;
        bn_muladd(num, 10, 0);
    }
    /* num is now 10 * remainder: compare with 5 * den for the half. */
    bn_muladd(den, 5, 0);
    int c = bn_cmp(num, den);
    if (c > 0 || (c == 0 && (dg[n - 1] & 1))) {
        int i = n - 1;
        while (i >= 0 && dg[i] == 9)
            dg[i--] = 0;
        if (i >= 0) {
            dg[i]++;
        } else {
            dg[0] = 1;
            return 1;
        }
    }
    return 0;
}

/* ---- The short cut: 64-bit integers where they are exact ---------------
 * Most numbers a program prints are floats of the 32-bit model (24-bit
 * mantissas) or small doubles: x = m * 2^e with m odd, and x * 10^s
 * (the digits wanted, as an integer and a binary fraction) fits 64 bits.
 * Then the digits and their rounding half to even are exact with
 * integer arithmetic, and the big-integer division (gen_digits: a few
 * hundred instructions a digit) is not needed.  Anything else (huge or
 * tiny exponents, long mantissas with many digits) takes that way. */

/* Powers of ten up to 10^19, the largest below 2^64. */
static const uint64_t pow10_u64[20] = {1u,
                                       10u,
                                       100u,
                                       1000u,
                                       10000u,
                                       100000u,
                                       1000000u,
                                       10000000u,
                                       100000000u,
                                       1000000000u,
                                       10000000000u,
                                       100000000000u,
                                       1000000000000u,
                                       10000000000000u,
                                       100000000000000u,
                                       1000000000000000u,
                                       10000000000000000u,
                                       100000000000000000u,
                                       1000000000000000000u,
                                       10000000000000000000u};

/* x > 0 finite as m * 2^e with m odd. */
static void split2(double x, uint64_t *m, int *e)
{
    int b;
    uint64_t mm = (uint64_t)ldexp(frexp(x, &b), 53);
    int tz = __builtin_ctzll(mm);
    *m = mm >> tz;
    *e = b - 53 + tz;
}

/* Decimal digits of q (at most 20). */
static int ndigits(uint64_t q)
{
    int d = 1;
    while (d < 20 && q >= pow10_u64[d])
        d++;
    return d;
}

/* The d digits of q into dg (q < 10^d). */
static void put_digits(uint64_t q, int d, char *dg)
{
    uint32_t q32 = (uint32_t)q;
    for (int i = d - 1; i >= 0; i--) {
        if (q >> 32) {
            dg[i] = (char)(q % 10u);
            q /= 10u;
            q32 = (uint32_t)q;
        } else {
            dg[i] = (char)(q32 % 10u);
            q32 /= 10u;
            q = q32;
        }
    }
}

/* m * 10^s * 2^e rounded half to even to an integer: *q, or -1 when that
 * is not exact here (s >= 0; m < 2^53).  The product m * 10^s takes up
 * to 117 bits: it is kept as two 64-bit halves. */
static int scaled_round(uint64_t m, int e, int s, uint64_t *q)
{
    if (s > 19)
        return -1;
    /* y = m * 10^s, as hi:lo */
    uint64_t p = pow10_u64[s];
    uint64_t m0 = (uint32_t)m, m1 = m >> 32, p0 = (uint32_t)p, p1 = p >> 32;
    uint64_t t00 = m0 * p0, t01 = m0 * p1, t10 = m1 * p0, t11 = m1 * p1;
    uint64_t mid = (t00 >> 32) + (uint32_t)t01 + (uint32_t)t10;
    uint64_t lo = (mid << 32) | (uint32_t)t00;
    uint64_t hi = t11 + (t01 >> 32) + (t10 >> 32) + (mid >> 32);
    if (e >= 0) {
        if (hi != 0 || e > 63 || lo > (UINT64_MAX >> e))
            return -1;
        *q = lo << e;
        return 0;
    }
    int k = -e;
    if (k > 127)
        return -1;
    uint64_t qq, rhi, rlo, hhi, hlo; /* quotient; remainder; half */
    if (k >= 64) {
        qq = k == 64 ? hi : hi >> (k - 64);
        rhi = k == 64 ? 0 : hi & ((UINT64_C(1) << (k - 64)) - 1);
        rlo = lo;
        hhi = UINT64_C(1) << (k - 65 < 0 ? 0 : k - 65);
        hlo = 0;
        if (k == 64) {
            hhi = 0;
            hlo = UINT64_C(1) << 63;
        }
    } else {
        if ((hi >> k) != 0)
            return -1; /* the quotient passes 64 bits */
        qq = (lo >> k) | (k ? hi << (64 - k) : 0);
        rhi = 0;
        rlo = lo & ((UINT64_C(1) << k) - 1);
        hhi = 0;
        hlo = UINT64_C(1) << (k - 1);
    }
    int cmp = rhi != hhi ? (rhi > hhi ? 1 : -1)
                         : (rlo != hlo ? (rlo > hlo ? 1 : -1) : 0);
    if (cmp > 0 || (cmp == 0 && (qq & 1u))) {
        if (qq == UINT64_MAX)
            return -1;
        qq++;
    }
    *q = qq;
    return 0;
}

/* exact_digits' short cut: 1 when done (*K set), 0 to take the long way.
 * With K0 the exponent of x's first digit, round(x * 10^(n-1-K0)) has n
 * digits, or is 10^n when the rounding carries (9.99.. to 10.0: the
 * digits are then 1 0 .. 0 and the exponent K0 + 1).  K0 is estimated
 * from the binary exponent, right or one low; one low gives a q above
 * 10^n (or exactly 10^n, whose answer is the same: 1 0 .. 0, K0 + 1). */
static int exact_digits_short(double x, int n, char *dg, int *K)
{
    uint64_t m, q;
    int e, b;
    if (n > 18)
        return 0;
    split2(x, &m, &e);
    (void)frexp(x, &b);
    int K0 = log10_2_floor(b - 1);
    int s = n - 1 - K0;
    if (s < 0 || scaled_round(m, e, s, &q) != 0)
        return 0;
    if (q > pow10_u64[n]) { /* the estimate was one low */
        K0++;
        s--;
        if (s < 0 || scaled_round(m, e, s, &q) != 0)
            return 0;
    }
    if (q == pow10_u64[n]) {
        dg[0] = 1;
        memset(dg + 1, 0, (size_t)n - 1);
        *K = K0 + 1;
        return 1;
    }
    if (q < pow10_u64[n - 1] || q > pow10_u64[n])
        return 0; /* cannot happen; the long way is right anyway */
    put_digits(q, n, dg);
    *K = K0;
    return 1;
}

/* Writes the n most significant digits of finite x > 0, correctly rounded
 * half to even, into dg (as values 0..9); returns the decimal exponent of
 * the first, after rounding. */
static int exact_digits(double x, int n, char *dg)
{
    int K;
    if (exact_digits_short(x, n, dg, &K))
        return K;
    bignum *num = &bn_scratch[0], *den = &bn_scratch[1];
    K = scale10(x, num, den);
    return K + gen_digits(num, den, n, dg);
}

/* The digits of finite x > 0 down to the place 10^-prec, rounded half to
 * even: sets *nd to their count (at most max; 0 when x rounds to zero)
 * and returns the decimal exponent of dg[0]. */
static int fixed_digits(double x, int prec, char *dg, int max, int *nd)
{
    uint64_t m, q;
    int e;
    split2(x, &m, &e);
    if (scaled_round(m, e, prec, &q) == 0) { /* the short cut */
        if (q == 0) {
            *nd = 0;
            dg[0] = 1;
            return -prec;
        }
        int d = ndigits(q);
        if (d <= max) {
            put_digits(q, d, dg);
            *nd = d;
            return d - 1 - prec;
        }
    }
    bignum *num = &bn_scratch[0], *den = &bn_scratch[1];
    int K = scale10(x, num, den);
    int n = K + 1 + prec;
    if (n <= 0) {
        /* x < 10^-prec: it rounds to one unit there when above half. */
        int up = 0;
        if (n == 0) {
            bn_muladd(den, 5, 0);
            up = bn_cmp(num, den) > 0;
        }
        *nd = up;
        dg[0] = 1;
        return -prec;
    }
    if (n > max)
        n = max;
    *nd = n;
    return K + gen_digits(num, den, n, dg);
}

/* Output into a bounded buffer with snprintf's result. */
typedef struct {
    char *buf;
    size_t cap;
    size_t len;
} sink;

static void put(sink *o, char c)
{
    if (o->len + 1 < o->cap)
        o->buf[o->len] = c;
    o->len++;
}

static int finish(sink *o)
{
    if (o->cap > 0)
        o->buf[o->len < o->cap ? o->len : o->cap - 1] = '\0';
    return (int)o->len;
}

/* Sign, and inf/nan; returns 1 when x was not finite (already written). */
static int put_special(sink *o, double x)
{
    if (signbit(x))
        put(o, '-');
    if (isnan(x) || isinf(x)) {
        const char *w = isnan(x) ? "nan" : "inf";
        while (*w)
            put(o, *w++);
        return 1;
    }
    return 0;
}

static void put_exp(sink *o, int K)
{
    char t[6];
    int n = 0;
    put(o, 'e');
    put(o, K < 0 ? '-' : '+');
    unsigned u = (unsigned)(K < 0 ? -K : K);
    do {
        t[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u != 0);
    if (n < 2)
        t[n++] = '0';
    while (n > 0)
        put(o, t[--n]);
}

static int clamp_prec(int prec)
{
    return prec < 0                    ? 6
           : prec > NUM_FMT_DIGITS - 2 ? NUM_FMT_DIGITS - 2
                                       : prec;
}

int num_fmt_e(double x, int prec, char *buf, size_t cap)
{
    sink o = {buf, cap, 0};
    char dg[NUM_FMT_DIGITS];
    prec = clamp_prec(prec);
    if (put_special(&o, x))
        return finish(&o);
    int K = 0;
    if (x != 0)
        K = exact_digits(fabs(x), prec + 1, dg);
    else
        memset(dg, 0, (size_t)prec + 1);
    put(&o, (char)('0' + dg[0]));
    if (prec > 0)
        put(&o, '.');
    for (int i = 1; i <= prec; i++)
        put(&o, (char)('0' + dg[i]));
    put_exp(&o, K);
    return finish(&o);
}

/* %g, and with alt (the '#' flag) %#g: trailing zeros and the point
 * are kept. */
static int fmt_g(double x, int prec, int alt, char *buf, size_t cap)
{
    sink o = {buf, cap, 0};
    char dg[NUM_FMT_DIGITS];
    int P = clamp_prec(prec);
    if (P == 0)
        P = 1;
    if (put_special(&o, x))
        return finish(&o);
    int K = 0;
    if (x != 0)
        K = exact_digits(fabs(x), P, dg);
    else
        memset(dg, 0, (size_t)P);
    int n = P; /* significant digits shown: trailing zeros go unless alt */
    while (!alt && n > 1 && dg[n - 1] == 0)
        n--;
    if (K < -4 || K >= P) {
        put(&o, (char)('0' + dg[0]));
        if (alt || n > 1)
            put(&o, '.');
        for (int i = 1; i < n; i++)
            put(&o, (char)('0' + dg[i]));
        put_exp(&o, K);
    } else if (K < 0) {
        put(&o, '0');
        put(&o, '.');
        for (int i = K + 1; i < 0; i++)
            put(&o, '0');
        for (int i = 0; i < n; i++)
            put(&o, (char)('0' + dg[i]));
    } else {
        for (int i = 0; i <= K; i++)
            put(&o, (char)('0' + (i < n ? dg[i] : 0)));
        if (alt || n > K + 1)
            put(&o, '.');
        for (int i = K + 1; i < n; i++)
            put(&o, (char)('0' + dg[i]));
    }
    return finish(&o);
}

int num_fmt_g(double x, int prec, char *buf, size_t cap)
{
    return fmt_g(x, prec, 0, buf, cap);
}

int num_tostring(const tvalue *v, char *buf, size_t cap)
{
    if (is_int(v)) {
        char t[24];
        int n = 0;
        sink o = {buf, cap, 0};
        rt_uint u = (rt_uint)v->v.i;
        if (v->v.i < 0) {
            put(&o, '-');
            u = 0u - u;
        }
        /* (64-bit division is a library call on the boards: the digits
         * below 2^32 by 32-bit division) */
        while (u > UINT32_MAX) {
            t[n++] = (char)('0' + u % 10);
            u /= 10;
        }
        uint32_t u32 = (uint32_t)u;
        do {
            t[n++] = (char)('0' + u32 % 10);
            u32 /= 10;
        } while (u32 != 0);
        while (n > 0)
            put(&o, t[--n]);
        return finish(&o);
    }
#if RTLUA_NUM == 64
    int len = num_fmt_g(v->v.n, 14, buf, cap);
#else
    int len = num_fmt_g((double)v->v.n, 7, buf, cap);
#endif
    if (len < 0 || (size_t)len >= cap)
        return len;
    if (buf[strspn(buf, "-0123456789")] == '\0' && (size_t)len + 2 < cap) {
        buf[len++] = '.';
        buf[len++] = '0';
        buf[len] = '\0';
    }
    return len;
}

/* ---- printf-style formatting for string.format --------------------- */

int num_fmt_f(double x, int prec, int alt, char *buf, size_t cap)
{
    sink o = {buf, cap, 0};
    char dg[NUM_FIXED_DIGITS];
    int nd = 0, K = 0;
    prec = clamp_prec(prec);
    if (put_special(&o, x))
        return finish(&o);
    if (x != 0)
        K = fixed_digits(fabs(x), prec, dg, NUM_FIXED_DIGITS, &nd);
    /* Digit of the place 10^p: dg[K - p] when that index is in range. */
    for (int p = K > 0 ? K : 0; p >= -prec; p--) {
        int i = K - p;
        put(&o, (char)('0' + (i >= 0 && i < nd ? dg[i] : 0)));
        if (p == 0 && (prec > 0 || alt))
            put(&o, '.');
    }
    return finish(&o);
}

int num_fmt_ealt(double x, int prec, char *buf, size_t cap)
{
    int n = num_fmt_e(x, prec, buf, cap);
    if (clamp_prec(prec) != 0 || !isfinite(x) || n < 0)
        return n;
    /* "%#.0e": the point after the single digit, before the 'e'. */
    char *e = strchr(buf, 'e');
    if (e == NULL || (size_t)n + 1 >= cap)
        return n + 1;
    memmove(e + 1, e, strlen(e) + 1);
    *e = '.';
    return n + 1;
}

int num_fmt_galt(double x, int prec, char *buf, size_t cap)
{
    return fmt_g(x, prec, 1, buf, cap);
}

int num_fmt_a(double x, int prec, char *buf, size_t cap)
{
    static const char hex[] = "0123456789abcdef";
    sink o = {buf, cap, 0};
    if (put_special(&o, x))
        return finish(&o);
    x = fabs(x);
    /* x = lead.frac * 2^E with 52 fraction bits; subnormals keep lead 0
     * and E = -1022, as glibc prints them. */
    uint64_t frac = 0;
    int lead = 0, E = 0;
    if (x != 0) {
        int b;
        double f = frexp(x, &b); /* x = f * 2^b, 0.5 <= f < 1 */
        if (b - 1 >= -1022) {
            lead = 1;
            E = b - 1;
            frac = (uint64_t)ldexp(f * 2 - 1, 52);
        } else {
            E = -1022;
            frac = (uint64_t)ldexp(x, 1074);
        }
    }
    int nhex = 13;
    if (prec < 0) {
        while (nhex > 0 && (frac & 0xf) == 0) {
            frac >>= 4;
            nhex--;
        }
    } else {
        if (prec > 99)
            prec = 99;
        if (prec < 13) {
            int drop = 4 * (13 - prec);
            uint64_t rest = frac & ((UINT64_C(1) << drop) - 1);
            uint64_t half = UINT64_C(1) << (drop - 1);
            frac >>= drop;
            /* Half to even; with no digit kept, the leading one decides. */
            int odd = prec > 0 ? (int)(frac & 1) : (lead & 1);
            if (rest > half || (rest == half && odd)) {
                frac++;
                if (frac >> (4 * prec)) {
                    frac &= (UINT64_C(1) << (4 * prec)) - 1;
                    lead++;
                }
            }
            nhex = prec;
        }
    }
    put(&o, '0');
    put(&o, 'x');
    put(&o, (char)('0' + lead));
    if (nhex > 0 || prec > 0)
        put(&o, '.');
    for (int i = nhex - 1; i >= 0; i--)
        put(&o, hex[(frac >> (4 * i)) & 0xf]);
    for (int i = nhex; i < prec; i++)
        put(&o, '0');
    put(&o, 'p');
    put(&o, E < 0 ? '-' : '+');
    char t[6];
    int n = 0;
    unsigned u = (unsigned)(E < 0 ? -E : E);
    do {
        t[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u != 0);
    while (n > 0)
        put(&o, t[--n]);
    return finish(&o);
}
