/*
 * strlib.c — the string library (Lua 5.4 §6.4): basic functions,
 * string.format, and the string metatable (__index = string, plus the
 * arithmetic metamethods through which Lua 5.4 converts strings to
 * numbers in arithmetic).  Pattern matching is in strpat.c, pack and
 * unpack in strpack.c (declared in strlib.h).
 *
 * Numbers are formatted by vm/num.c, never by libc's float printf
 * (newlib's allocates from a heap the boards do not have); integers by
 * the small formatter here.  A format item is written straight into the
 * luaL_Buffer after reserving the most it may produce (fmt_room: a few
 * dozen bytes usually, so that the buffer's own first bytes hold most
 * results and nothing is allocated for them).
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "lauxlib.h"
#include "lib/strlib.h"
#include "lua.h"
#include "lualib.h"
#include "romtab.h"
#include "rtlua.h"
#include "vm/num.h"

/* Largest string this library builds, as Lua 5.4's ("resulting string
 * too large" beyond). */
#define STR_MAXSIZE ((size_t)INT_MAX)

/* Bytes one format item may produce: "%99.99f" of the largest finite
 * float of the model (309 or 39 integer digits), sign and point. */
#if RTLUA_NUM == 64
#define FMT_ITEM_MAX 440
#else
#define FMT_ITEM_MAX 180
#endif

/* What a format item may produce beyond its width or precision (each at
 * most 99: two digits): an integer's 22 octal digits and "0x"; "%a"'s
 * "-0x1." and "p+1023"; "%e"'s sign, point and exponent; "%f"'s sign,
 * point and 16 integer digits when the number is below 1e15 (above, it
 * reserves FMT_ITEM_MAX). */
#define FMT_ITEM_EXTRA 40

/* Longest format specification between '%' and the conversion ("invalid
 * format (too long)" beyond), as Lua 5.4's. */
#define FMT_SPEC_MAX 21

/* ---- positions ------------------------------------------------------ */

size_t strlib_posstart(lua_Integer pos, size_t len)
{
    if (pos > 0)
        return (size_t)pos;
    if (pos == 0)
        return 1;
    if (pos < -(lua_Integer)len)
        return 1;
    return len + (size_t)pos + 1;
}

/* An end position from argument arg (default def), clamped to len. */
static size_t pos_end(lua_State *L, int arg, lua_Integer def, size_t len)
{
    lua_Integer pos = luaL_optinteger(L, arg, def);
    if (pos > (lua_Integer)len)
        return len;
    if (pos >= 0)
        return (size_t)pos;
    if (pos < -(lua_Integer)len)
        return 0;
    return len + (size_t)pos + 1;
}

/* ---- basic functions ------------------------------------------------ */

static int s_len(lua_State *L)
{
    size_t l;
    luaL_checklstring(L, 1, &l);
    lua_pushinteger(L, (lua_Integer)l);
    return 1;
}

static int s_sub(lua_State *L)
{
    size_t l;
    const char *s = luaL_checklstring(L, 1, &l);
    size_t start = strlib_posstart(luaL_checkinteger(L, 2), l);
    size_t end = pos_end(L, 3, -1, l);
    if (start <= end)
        lua_pushlstring(L, s + start - 1, end - start + 1);
    else
        lua_pushliteral(L, "");
    return 1;
}

static int s_reverse(lua_State *L)
{
    size_t l;
    luaL_Buffer b;
    const char *s = luaL_checklstring(L, 1, &l);
    char *p = luaL_buffinitsize(L, &b, l);
    for (size_t i = 0; i < l; i++)
        p[i] = s[l - 1 - i];
    luaL_pushresultsize(&b, l);
    return 1;
}

static int case_map(lua_State *L, int upper)
{
    size_t l;
    luaL_Buffer b;
    const char *s = luaL_checklstring(L, 1, &l);
    char *p = luaL_buffinitsize(L, &b, l);
    for (size_t i = 0; i < l; i++) {
        unsigned char c = (unsigned char)s[i];
        if (upper && c >= 'a' && c <= 'z')
            c = (unsigned char)(c - 'a' + 'A');
        else if (!upper && c >= 'A' && c <= 'Z')
            c = (unsigned char)(c - 'A' + 'a');
        p[i] = (char)c;
    }
    luaL_pushresultsize(&b, l);
    return 1;
}

static int s_lower(lua_State *L)
{
    return case_map(L, 0);
}

static int s_upper(lua_State *L)
{
    return case_map(L, 1);
}

/* string.rep builds its result by doubling: s and sep are written once,
 * then the filled prefix, a whole number of periods, is copied after
 * itself.  So n repetitions cost O(log n) memcpy calls of growing size
 * (the bytes written are the result's, once) instead of 2n small ones,
 * and an empty result costs nothing however large n is. */
static int s_rep(lua_State *L)
{
    size_t l, lsep;
    const char *s = luaL_checklstring(L, 1, &l);
    lua_Integer n = luaL_checkinteger(L, 2);
    const char *sep = luaL_optlstring(L, 3, "", &lsep);
    if (n <= 0 || l + lsep == 0) {
        lua_pushliteral(L, "");
        return 1;
    }
    if (l + lsep < l || l + lsep > STR_MAXSIZE / (size_t)n)
        return luaL_error(L, "resulting string too large");
    size_t total = (size_t)n * l + (size_t)(n - 1) * lsep;
    luaL_Buffer b;
    char *p = luaL_buffinitsize(L, &b, total);
    memcpy(p, s, l);
    size_t filled = l;
    if (n > 1) {
        memcpy(p + l, sep, lsep);
        filled += lsep;
    }
    while (filled < total) {
        size_t k = filled < total - filled ? filled : total - filled;
        memcpy(p + filled, p, k);
        filled += k;
    }
    luaL_pushresultsize(&b, total);
    return 1;
}

static int s_byte(lua_State *L)
{
    size_t l;
    const char *s = luaL_checklstring(L, 1, &l);
    lua_Integer pi = luaL_optinteger(L, 2, 1);
    size_t first = strlib_posstart(pi, l);
    size_t last = pos_end(L, 3, pi, l); /* the end defaults to i as given */
    if (first > last)
        return 0;
    if (last - first >= (size_t)INT_MAX)
        return luaL_error(L, "string slice too long");
    int n = (int)(last - first) + 1;
    luaL_checkstack(L, n, "string slice too long");
    for (int i = 0; i < n; i++)
        lua_pushinteger(L, (unsigned char)s[first + (size_t)i - 1]);
    return n;
}

/* string.dump's writer: the buffer starts at the first piece, so that
 * lua_dump found the function on the top. */
typedef struct dumpbuf {
    int started;
    luaL_Buffer b;
} dumpbuf;

static int dump_writer(lua_State *L, const void *p, size_t n, void *ud)
{
    dumpbuf *d = ud;
    if (!d->started) {
        d->started = 1;
        luaL_buffinit(L, &d->b);
    }
    luaL_addlstring(&d->b, p, n);
    return 0;
}

static int s_dump(lua_State *L)
{
    dumpbuf d;
    int strip = lua_toboolean(L, 2);
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_settop(L, 1);
    d.started = 0;
    if (lua_dump(L, dump_writer, &d, strip) != 0)
        return luaL_error(L, "unable to dump given function");
    if (!d.started)
        luaL_buffinit(L, &d.b);
    luaL_pushresult(&d.b);
    return 1;
}

static int s_char(lua_State *L)
{
    int n = lua_gettop(L);
    luaL_Buffer b;
    char *p = luaL_buffinitsize(L, &b, (size_t)n);
    for (int i = 1; i <= n; i++) {
        lua_Unsigned c = (lua_Unsigned)luaL_checkinteger(L, i);
        luaL_argcheck(L, c <= (lua_Unsigned)UCHAR_MAX, i,
                      "value out of range");
        p[i - 1] = (char)(unsigned char)c;
    }
    luaL_pushresultsize(&b, (size_t)n);
    return 1;
}

/* ---- string.format -------------------------------------------------- */

/* A parsed specification: flags, width and precision (-1: none). */
typedef struct {
    char minus, plus, space, alt, zero;
    int width, prec;
} fmt_spec;

static int is_digit(int c)
{
    return c >= '0' && c <= '9';
}

static int is_alpha(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static const char *skip2digits(const char *s)
{
    if (is_digit((unsigned char)*s))
        s++;
    if (is_digit((unsigned char)*s))
        s++;
    return s;
}

/* Checks form ("%" + spec + conversion) against the flags the
 * conversion accepts, and whether it takes a precision; fills sp. */
static void check_spec(lua_State *L, const char *form, const char *flags,
                       int precision, fmt_spec *sp)
{
    const char *s = form + 1;
    s += strspn(s, flags);
    if (*s != '0') {
        s = skip2digits(s);
        if (*s == '.' && precision) {
            s++;
            s = skip2digits(s);
        }
    }
    if (!is_alpha((unsigned char)*s))
        luaL_error(L, "invalid conversion specification: '%s'", form);
    memset(sp, 0, sizeof *sp);
    sp->prec = -1;
    s = form + 1;
    for (; strchr("-+ #0", *s) != NULL && *s != '\0'; s++) {
        switch (*s) {
        case '-':
            sp->minus = 1;
            break;
        case '+':
            sp->plus = 1;
            break;
        case ' ':
            sp->space = 1;
            break;
        case '#':
            sp->alt = 1;
            break;
        default:
            sp->zero = 1;
            break;
        }
    }
    while (is_digit((unsigned char)*s))
        sp->width = sp->width * 10 + (*s++ - '0');
    if (*s == '.') {
        s++;
        sp->prec = 0;
        while (is_digit((unsigned char)*s))
            sp->prec = sp->prec * 10 + (*s++ - '0');
    }
}

/* The bytes to reserve for an item of specification sp: the width and
 * the body side by side, an upper bound of the larger of the two. */
static size_t fmt_room(const fmt_spec *sp)
{
    return (size_t)sp->width + (size_t)(sp->prec > 0 ? sp->prec : 0) +
           FMT_ITEM_EXTRA;
}

/* Lays out prefix (sign, "0x") and body into out with the width: spaces
 * on the left, on the right ('-'), or zeros after the prefix ('0'). */
static size_t fmt_pad(char *out, const fmt_spec *sp, const char *prefix,
                      const char *body, size_t blen, int zero_ok)
{
    size_t plen = strlen(prefix);
    size_t len = plen + blen;
    size_t fill = (size_t)sp->width > len ? (size_t)sp->width - len : 0;
    size_t n = 0;
    if (!sp->minus && !(sp->zero && zero_ok))
        for (; fill > 0; fill--)
            out[n++] = ' ';
    memcpy(out + n, prefix, plen);
    n += plen;
    if (!sp->minus)
        for (; fill > 0; fill--)
            out[n++] = '0';
    memcpy(out + n, body, blen);
    n += blen;
    for (; fill > 0; fill--)
        out[n++] = ' ';
    return n;
}

static size_t fmt_int(char *out, const fmt_spec *sp, lua_Integer v, int conv)
{
    char dg[3 * sizeof(lua_Integer) + 2 + 100];
    char prefix[3] = "";
    int base = conv == 'o' ? 8 : (conv == 'x' || conv == 'X') ? 16 : 10;
    const char *digits = conv == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
    int is_signed = conv == 'd' || conv == 'i';
    lua_Unsigned u = (lua_Unsigned)v;
    if (is_signed && v < 0) {
        u = 0u - u;
        prefix[0] = '-';
    } else if (is_signed && sp->plus) {
        prefix[0] = '+';
    } else if (is_signed && sp->space) {
        prefix[0] = ' ';
    }
    /* Digits from the right end of dg. */
    size_t end = sizeof dg, n = 0;
    while (u > 0xFFFFFFFFu) {
        dg[end - ++n] = digits[u % (lua_Unsigned)base];
        u /= (lua_Unsigned)base;
    }
    /* (the rest by 32-bit division: a 64-bit one is a library call on
     * the boards) */
    for (uint32_t u32 = (uint32_t)u; u32 != 0; u32 /= (uint32_t)base)
        dg[end - ++n] = digits[u32 % (uint32_t)base];
    if (sp->prec < 0 && n == 0)
        dg[end - ++n] = '0';
    while ((int)n < sp->prec)
        dg[end - ++n] = '0';
    if (sp->alt && base == 8 && (n == 0 || dg[end - n] != '0'))
        dg[end - ++n] = '0';
    if (sp->alt && base == 16 && v != 0) {
        prefix[0] = '0';
        prefix[1] = (char)conv;
    }
    return fmt_pad(out, sp, prefix, dg + end - n, n, sp->prec < 0);
}

static size_t fmt_float(char *out, const fmt_spec *sp, double x, int conv)
{
    char body[FMT_ITEM_MAX];
    const char *prefix = signbit(x)  ? "-"
                         : sp->plus  ? "+"
                         : sp->space ? " "
                                     : "";
    int lower = conv | 0x20;
    double a = fabs(x);
    int n;
    if (lower == 'f')
        n = num_fmt_f(a, sp->prec < 0 ? 6 : sp->prec, sp->alt, body,
                      sizeof body);
    else if (lower == 'e')
        n = sp->alt
                ? num_fmt_ealt(a, sp->prec < 0 ? 6 : sp->prec, body,
                               sizeof body)
                : num_fmt_e(a, sp->prec < 0 ? 6 : sp->prec, body, sizeof body);
    else if (lower == 'g')
        n = sp->alt
                ? num_fmt_galt(a, sp->prec < 0 ? 6 : sp->prec, body,
                               sizeof body)
                : num_fmt_g(a, sp->prec < 0 ? 6 : sp->prec, body, sizeof body);
    else
        n = num_fmt_a(a, sp->prec, body, sizeof body);
    if (lower == 'a' && sp->alt && n > 0 && (size_t)n + 1 < sizeof body &&
        strchr(body, '.') == NULL) {
        /* "%#a": the point even with no hex digit after it. */
        char *e = strchr(body, 'p');
        if (e != NULL) {
            memmove(e + 1, e, strlen(e) + 1);
            *e = '.';
            n++;
        }
    }
    if (n < 0 || (size_t)n >= sizeof body)
        n = (int)strlen(body);
    if (conv != lower)
        for (int i = 0; i < n; i++)
            if (body[i] >= 'a' && body[i] <= 'z')
                body[i] = (char)(body[i] - 'a' + 'A');
    if (lower == 'a' && a == a && a != (double)HUGE_VAL) {
        /* The "0x" goes in the prefix so zero padding follows it. */
        char pre[4];
        size_t pl = strlen(prefix);
        memcpy(pre, prefix, pl);
        pre[pl] = body[0];
        pre[pl + 1] = body[1];
        pre[pl + 2] = '\0';
        return fmt_pad(out, sp, pre, body + 2, (size_t)n - 2, 1);
    }
    return fmt_pad(out, sp, prefix, body, (size_t)n,
                   a == a && a != (double)HUGE_VAL);
}

/* "%p": glibc's form, 0x + lower-case hex. */
static size_t fmt_pointer(char *out, const fmt_spec *sp, uintptr_t p)
{
    char dg[2 * sizeof p + 2];
    size_t end = sizeof dg, n = 0;
    do {
        dg[end - ++n] = "0123456789abcdef"[p & 0xf];
        p >>= 4;
    } while (p != 0);
    dg[end - ++n] = 'x';
    dg[end - ++n] = '0';
    return fmt_pad(out, sp, "", dg + end - n, n, 0);
}

static void add_quoted_string(luaL_Buffer *b, const char *s, size_t l)
{
    luaL_addchar(b, '"');
    for (size_t i = 0; i < l; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\' || c == '\n') {
            luaL_addchar(b, '\\');
            luaL_addchar(b, (char)c);
        } else if (c < 32 || c == 127) {
            char t[5];
            int nd = 0;
            int next_digit = i + 1 < l && is_digit((unsigned char)s[i + 1]);
            t[nd++] = '\\';
            if (next_digit || c >= 100)
                t[nd++] = (char)('0' + c / 100);
            if (next_digit || c >= 10)
                t[nd++] = (char)('0' + c / 10 % 10);
            t[nd++] = (char)('0' + c % 10);
            luaL_addlstring(b, t, (size_t)nd);
        } else {
            luaL_addchar(b, (char)c);
        }
    }
    luaL_addchar(b, '"');
}

static void add_literal(lua_State *L, luaL_Buffer *b, int arg)
{
    switch (lua_type(L, arg)) {
    case LUA_TSTRING: {
        size_t l;
        const char *s = lua_tolstring(L, arg, &l);
        add_quoted_string(b, s, l);
        break;
    }
    case LUA_TNUMBER: {
        size_t n;
        fmt_spec sp;
        memset(&sp, 0, sizeof sp);
        sp.prec = -1;
        char *out = luaL_prepbuffsize(b, fmt_room(&sp));
        if (lua_isinteger(L, arg)) {
            lua_Integer v = lua_tointeger(L, arg);
            /* mininteger has no decimal literal: its negation overflows. */
            n = v == LUA_MININTEGER ? (sp.alt = 1, fmt_int(out, &sp, v, 'x'))
                                    : fmt_int(out, &sp, v, 'd');
        } else {
            double x = (double)lua_tonumber(L, arg);
            if (x == (double)HUGE_VAL) {
                memcpy(out, "1e9999", n = 6);
            } else if (x == -(double)HUGE_VAL) {
                memcpy(out, "-1e9999", n = 7);
            } else if (x != x) {
                memcpy(out, "(0/0)", n = 5);
            } else {
                n = fmt_float(out, &sp, x, 'a');
            }
        }
        luaL_addsize(b, n);
        break;
    }
    case LUA_TNIL:
    case LUA_TBOOLEAN:
        luaL_tolstring(L, arg, NULL);
        luaL_addvalue(b);
        break;
    default:
        luaL_argerror(L, arg, "value has no literal form");
    }
}

static void add_padded_string(lua_State *L, luaL_Buffer *b, int arg,
                              const char *form)
{
    fmt_spec sp;
    size_t l;
    if (form[2] == '\0') {
        luaL_tolstring(L, arg, NULL);
        luaL_addvalue(b);
        return;
    }
    /* A string argument is read in place; anything else is converted
     * (luaL_tolstring) above the buffer's room, reserved first, since
     * the buffer's box, if it needs one, goes to the top.  The padded
     * string is at most 99 bytes: a width, or a string shorter than 100
     * or cut to its precision (each at most 99). */
    int pushed = lua_type(L, arg) != LUA_TSTRING;
    char *out = pushed ? luaL_prepbuffsize(b, 99) : NULL;
    const char *s =
        pushed ? luaL_tolstring(L, arg, &l) : lua_tolstring(L, arg, &l);
    luaL_argcheck(L, l == strlen(s), arg, "string contains zeros");
    check_spec(L, form, "-", 1, &sp);
    if (sp.prec < 0 && l >= 100) {
        if (!pushed)
            lua_pushvalue(L, arg);
        luaL_addvalue(b);
        return;
    }
    if (sp.prec >= 0 && (size_t)sp.prec < l)
        l = (size_t)sp.prec;
    if (!pushed) /* the string stays at arg while the box may be made */
        out =
            luaL_prepbuffsize(b, (size_t)sp.width > l ? (size_t)sp.width : l);
    sp.zero = 0;
    size_t n = fmt_pad(out, &sp, "", s, l, 0);
    if (pushed)
        lua_pop(L, 1);
    luaL_addsize(b, n);
}

static int s_format(lua_State *L)
{
    int top = lua_gettop(L);
    int arg = 1;
    size_t fl;
    const char *f = luaL_checklstring(L, 1, &fl);
    const char *fe = f + fl;
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    while (f < fe) {
        if (*f != '%') {
            luaL_addchar(&b, *f++);
            continue;
        }
        if (*++f == '%') {
            luaL_addchar(&b, *f++);
            continue;
        }
        if (++arg > top)
            return luaL_argerror(L, arg, "no value");
        size_t sl = strspn(f, "-+ #0123456789.");
        if (sl >= FMT_SPEC_MAX)
            return luaL_error(L, "invalid format (too long)");
        char form[FMT_SPEC_MAX + 3];
        form[0] = '%';
        memcpy(form + 1, f, sl + 1);
        form[sl + 2] = '\0';
        int conv = (unsigned char)f[sl];
        if (f + sl >= fe)
            form[sl + 1] = '\0';
        f += sl + 1;
        fmt_spec sp;
        char *out;
        size_t n;
        switch (conv) {
        case 'c':
            check_spec(L, form, "-", 0, &sp);
            out = luaL_prepbuffsize(&b, fmt_room(&sp));
            {
                char c = (char)luaL_checkinteger(L, arg);
                n = fmt_pad(out, &sp, "", &c, 1, 0);
            }
            luaL_addsize(&b, n);
            break;
        case 'd':
        case 'i':
        case 'u':
        case 'o':
        case 'x':
        case 'X': {
            const char *flags = conv == 'u'                    ? "-0"
                                : (conv == 'd' || conv == 'i') ? "-+0 "
                                                               : "-#0";
            lua_Integer v = luaL_checkinteger(L, arg);
            check_spec(L, form, flags, 1, &sp);
            out = luaL_prepbuffsize(&b, fmt_room(&sp));
            luaL_addsize(&b, fmt_int(out, &sp, v, conv));
            break;
        }
        case 'a':
        case 'A':
        case 'e':
        case 'E':
        case 'f':
        case 'g':
        case 'G': {
            /* As Lua 5.4: %a checks the specification first, the others
             * the argument first. */
            if ((conv | 0x20) == 'a')
                check_spec(L, form, "-+ #0", 1, &sp);
            double x = (double)luaL_checknumber(L, arg);
            if ((conv | 0x20) != 'a')
                check_spec(L, form, "-+ #0", 1, &sp);
            out = luaL_prepbuffsize(
                &b, (conv | 0x20) == 'f' && !(fabs(x) < 1e15) ? FMT_ITEM_MAX
                                                              : fmt_room(&sp));
            luaL_addsize(&b, fmt_float(out, &sp, x, conv));
            break;
        }
        case 'p': {
            check_spec(L, form, "-", 0, &sp);
            const void *p = lua_topointer(L, arg);
            out = luaL_prepbuffsize(&b, fmt_room(&sp));
            if (p == NULL) {
                n = fmt_pad(out, &sp, "", "(null)", 6, 0);
            } else {
                n = fmt_pointer(out, &sp, (uintptr_t)p);
            }
            luaL_addsize(&b, n);
            break;
        }
        case 'q':
            if (form[2] != '\0')
                return luaL_error(L, "specifier '%%q' cannot have modifiers");
            add_literal(L, &b, arg);
            break;
        case 's':
            add_padded_string(L, &b, arg, form);
            break;
        default:
            return luaL_error(L, "invalid conversion '%s' to 'format'", form);
        }
    }
    luaL_pushresult(&b);
    return 1;
}

/* ---- the string metatable's arithmetic ------------------------------- */

/* Pushes the number value of the argument at idx, if it has one. */
static int arith_operand(lua_State *L, int idx)
{
    if (lua_type(L, idx) == LUA_TNUMBER) {
        lua_pushvalue(L, idx);
        return 1;
    }
    size_t len;
    const char *s = lua_tolstring(L, idx, &len);
    return s != NULL && lua_stringtonumber(L, s) == len + 1;
}

static int string_arith(lua_State *L, int op, const char *event)
{
    if (arith_operand(L, 1) && arith_operand(L, 2)) {
        lua_arith(L, op);
        return 1;
    }
    /* Not numbers: the other operand's metamethod, if it has one. */
    lua_settop(L, 2);
    if (lua_type(L, 2) == LUA_TSTRING || !luaL_getmetafield(L, 2, event))
        return luaL_error(L, "attempt to %s a '%s' with a '%s'", event + 2,
                          luaL_typename(L, -2), luaL_typename(L, -1));
    lua_insert(L, -3);
    lua_call(L, 2, 1);
    return 1;
}

static int sm_add(lua_State *L)
{
    return string_arith(L, LUA_OPADD, "__add");
}
static int sm_sub(lua_State *L)
{
    return string_arith(L, LUA_OPSUB, "__sub");
}
static int sm_mul(lua_State *L)
{
    return string_arith(L, LUA_OPMUL, "__mul");
}
static int sm_mod(lua_State *L)
{
    return string_arith(L, LUA_OPMOD, "__mod");
}
static int sm_pow(lua_State *L)
{
    return string_arith(L, LUA_OPPOW, "__pow");
}
static int sm_div(lua_State *L)
{
    return string_arith(L, LUA_OPDIV, "__div");
}
static int sm_idiv(lua_State *L)
{
    return string_arith(L, LUA_OPIDIV, "__idiv");
}
static int sm_unm(lua_State *L)
{
    return string_arith(L, LUA_OPUNM, "__unm");
}

/* The string metatable is a root of the state (it belongs to every
 * string), not a RAM table: setting it allocates nothing. */
int luaopen_string(lua_State *L)
{
    lua_pushliteral(L, "");
    rtlua_pushrom(L, &romtab_strmeta);
    lua_setmetatable(L, -2);
    lua_pop(L, 1);
    rtlua_pushrom(L, &romtab_string);
    return 1;
}

#define ROMTAB_FILE_strlib
#include "romtab.inc"
