/*
 * strpack.c — string.pack, string.unpack and string.packsize (Lua 5.4
 * §6.4.2): values to and from binary strings described by a format.
 *
 * A format is read one option at a time; each option yields a kind, a
 * size in bytes and the padding that aligns it.  Alignment applies only
 * after "!" sets a maximum (default 1: none), to a power of two no
 * greater than that maximum.  Integers of any size from 1 to
 * PACK_MAXINTSIZE bytes are handled byte by byte, so the code is the
 * same for both number models and either byte order.
 */
#include <limits.h>
#include <stddef.h>
#include <string.h>

#include "lauxlib.h"
#include "lib/strlib.h"
#include "lua.h"

/* Largest integer option ("i16"). */
#define PACK_MAXINTSIZE 16

/* Bytes of a lua_Integer. */
#define PACK_SZINT ((int)sizeof(lua_Integer))

/* Largest total size of a format (as the string library's limit). */
#define PACK_MAXSIZE ((size_t)INT_MAX)

/* The byte "x" and alignment padding write. */
#define PACK_PADBYTE 0x00

/* The platform's strictest alignment, what "!" without a number sets. */
struct pack_align_probe {
    char c;
    union {
        double d;
        void *p;
        lua_Integer i;
        long l;
    } u;
};
#define PACK_NATIVE_ALIGN ((int)offsetof(struct pack_align_probe, u))

typedef enum {
    K_INT,       /* signed integer */
    K_UINT,      /* unsigned integer */
    K_FLOAT,     /* C float */
    K_NUMBER,    /* lua_Number */
    K_DOUBLE,    /* C double */
    K_CHAR,      /* fixed-size string */
    K_STRING,    /* string preceded by its length */
    K_ZSTR,      /* zero-terminated string */
    K_PADDING,   /* one padding byte */
    K_PADDALIGN, /* padding to the next option's alignment */
    K_NOP        /* no data (endianness, alignment setting, space) */
} pack_kind;

typedef struct {
    lua_State *L;
    int little;   /* little-endian output/input */
    int maxalign; /* alignment bound set by "!" */
} pack_header;

static int native_little(void)
{
    const union {
        int i;
        char c;
    } probe = {1};
    return probe.c == 1;
}

static int is_digit(int c)
{
    return c >= '0' && c <= '9';
}

/* An optional decimal count at *fmt, or def. */
static int read_count(const char **fmt, int def)
{
    if (!is_digit((unsigned char)**fmt))
        return def;
    int a = 0;
    do {
        a = a * 10 + (*(*fmt)++ - '0');
    } while (is_digit((unsigned char)**fmt) &&
             a <= ((int)PACK_MAXSIZE - 9) / 10);
    return a;
}

static int read_intsize(pack_header *h, const char **fmt, int def)
{
    int sz = read_count(fmt, def);
    if (sz > PACK_MAXINTSIZE || sz <= 0)
        luaL_error(h->L, "integral size (%d) out of limits [1,%d]", sz,
                   PACK_MAXINTSIZE);
    return sz;
}

static pack_kind read_option(pack_header *h, const char **fmt, int *size)
{
    int opt = *(*fmt)++;
    *size = 0;
    switch (opt) {
    case 'b':
        *size = 1;
        return K_INT;
    case 'B':
        *size = 1;
        return K_UINT;
    case 'h':
        *size = (int)sizeof(short);
        return K_INT;
    case 'H':
        *size = (int)sizeof(short);
        return K_UINT;
    case 'l':
        *size = (int)sizeof(long);
        return K_INT;
    case 'L':
        *size = (int)sizeof(long);
        return K_UINT;
    case 'j':
        *size = PACK_SZINT;
        return K_INT;
    case 'J':
        *size = PACK_SZINT;
        return K_UINT;
    case 'T':
        *size = (int)sizeof(size_t);
        return K_UINT;
    case 'f':
        *size = (int)sizeof(float);
        return K_FLOAT;
    case 'n':
        *size = (int)sizeof(lua_Number);
        return K_NUMBER;
    case 'd':
        *size = (int)sizeof(double);
        return K_DOUBLE;
    case 'i':
        *size = read_intsize(h, fmt, (int)sizeof(int));
        return K_INT;
    case 'I':
        *size = read_intsize(h, fmt, (int)sizeof(int));
        return K_UINT;
    case 's':
        *size = read_intsize(h, fmt, (int)sizeof(size_t));
        return K_STRING;
    case 'c':
        *size = read_count(fmt, -1);
        if (*size == -1)
            luaL_error(h->L, "missing size for format option 'c'");
        return K_CHAR;
    case 'z':
        return K_ZSTR;
    case 'x':
        *size = 1;
        return K_PADDING;
    case 'X':
        return K_PADDALIGN;
    case ' ':
        return K_NOP;
    case '<':
        h->little = 1;
        return K_NOP;
    case '>':
        h->little = 0;
        return K_NOP;
    case '=':
        h->little = native_little();
        return K_NOP;
    case '!':
        h->maxalign = read_intsize(h, fmt, PACK_NATIVE_ALIGN);
        return K_NOP;
    default:
        luaL_error(h->L, "invalid format option '%c'", opt);
        return K_NOP;
    }
}

/* The next option, its size and the padding (*ntoalign) that aligns it
 * at offset total. */
static pack_kind read_item(pack_header *h, size_t total, const char **fmt,
                           int *size, int *ntoalign)
{
    pack_kind k = read_option(h, fmt, size);
    int align = *size;
    if (k == K_PADDALIGN) {
        if (**fmt == '\0' || read_option(h, fmt, &align) == K_CHAR ||
            align == 0)
            luaL_argerror(h->L, 1, "invalid next option for option 'X'");
    }
    if (align <= 1 || k == K_CHAR) {
        *ntoalign = 0;
    } else {
        if (align > h->maxalign)
            align = h->maxalign;
        if ((align & (align - 1)) != 0)
            luaL_argerror(h->L, 1, "format asks for alignment not power of 2");
        *ntoalign = (align - (int)(total & (size_t)(align - 1))) & (align - 1);
    }
    return k;
}

static void header_init(pack_header *h, lua_State *L)
{
    h->L = L;
    h->little = native_little();
    h->maxalign = 1;
}

/* size bytes of v in the header's byte order; bytes beyond a
 * lua_Integer repeat the sign (0xff when neg). */
static void put_int(luaL_Buffer *b, lua_Unsigned v, int little, int size,
                    int neg)
{
    char *p = luaL_prepbuffsize(b, (size_t)size);
    for (int i = 0; i < size; i++) {
        unsigned char byte = i < PACK_SZINT ? (unsigned char)(v >> (8 * i))
                             : neg          ? 0xff
                                            : 0x00;
        p[little ? i : size - 1 - i] = (char)byte;
    }
    luaL_addsize(b, (size_t)size);
}

/* Raw bytes of a float value in the header's byte order. */
static void put_bytes(luaL_Buffer *b, const void *src, int size, int little)
{
    const unsigned char *s = src;
    char *p = luaL_prepbuffsize(b, (size_t)size);
    int same = little == native_little();
    for (int i = 0; i < size; i++)
        p[i] = (char)s[same ? i : size - 1 - i];
    luaL_addsize(b, (size_t)size);
}

static void get_bytes(void *dst, const char *src, int size, int little)
{
    unsigned char *d = dst;
    int same = little == native_little();
    for (int i = 0; i < size; i++)
        d[i] = (unsigned char)src[same ? i : size - 1 - i];
}

static void pack_integer(lua_State *L, luaL_Buffer *b, int arg,
                         const pack_header *h, int size, int is_signed)
{
    lua_Integer n = luaL_checkinteger(L, arg);
    if (size < PACK_SZINT) {
        if (is_signed) {
            lua_Integer lim = (lua_Integer)1 << (size * 8 - 1);
            luaL_argcheck(L, -lim <= n && n < lim, arg, "integer overflow");
        } else {
            luaL_argcheck(L, (lua_Unsigned)n < ((lua_Unsigned)1 << (size * 8)),
                          arg, "unsigned overflow");
        }
    }
    put_int(b, (lua_Unsigned)n, h->little, size, is_signed && n < 0);
}

int strlib_pack(lua_State *L)
{
    const char *fmt = luaL_checkstring(L, 1);
    pack_header h;
    header_init(&h, L);
    luaL_Buffer b;
    /* A nil between the arguments and the buffer's storage. */
    lua_pushnil(L);
    luaL_buffinit(L, &b);
    int arg = 1;
    size_t total = 0;
    while (*fmt != '\0') {
        int size, ntoalign;
        pack_kind k = read_item(&h, total, &fmt, &size, &ntoalign);
        total += (size_t)ntoalign + (size_t)size;
        while (ntoalign-- > 0)
            luaL_addchar(&b, PACK_PADBYTE);
        arg++;
        switch (k) {
        case K_INT:
        case K_UINT:
            pack_integer(L, &b, arg, &h, size, k == K_INT);
            break;
        case K_FLOAT: {
            float f = (float)luaL_checknumber(L, arg);
            put_bytes(&b, &f, size, h.little);
            break;
        }
        case K_NUMBER: {
            lua_Number n = luaL_checknumber(L, arg);
            put_bytes(&b, &n, size, h.little);
            break;
        }
        case K_DOUBLE: {
            double d = (double)luaL_checknumber(L, arg);
            put_bytes(&b, &d, size, h.little);
            break;
        }
        case K_CHAR: {
            size_t len;
            const char *s = luaL_checklstring(L, arg, &len);
            luaL_argcheck(L, len <= (size_t)size, arg,
                          "string longer than given size");
            luaL_addlstring(&b, s, len);
            for (; len < (size_t)size; len++)
                luaL_addchar(&b, PACK_PADBYTE);
            break;
        }
        case K_STRING: {
            size_t len;
            const char *s = luaL_checklstring(L, arg, &len);
            luaL_argcheck(L,
                          size >= (int)sizeof(size_t) ||
                              len < ((size_t)1 << (size * 8)),
                          arg, "string length does not fit in given size");
            put_int(&b, (lua_Unsigned)len, h.little, size, 0);
            luaL_addlstring(&b, s, len);
            total += len;
            break;
        }
        case K_ZSTR: {
            size_t len;
            const char *s = luaL_checklstring(L, arg, &len);
            luaL_argcheck(L, strlen(s) == len, arg, "string contains zeros");
            luaL_addlstring(&b, s, len);
            luaL_addchar(&b, '\0');
            total += len + 1;
            break;
        }
        case K_PADDING:
            luaL_addchar(&b, PACK_PADBYTE);
            arg--;
            break;
        case K_PADDALIGN:
        case K_NOP:
            arg--;
            break;
        }
    }
    luaL_pushresult(&b);
    return 1;
}

int strlib_packsize(lua_State *L)
{
    const char *fmt = luaL_checkstring(L, 1);
    pack_header h;
    header_init(&h, L);
    size_t total = 0;
    while (*fmt != '\0') {
        int size, ntoalign;
        pack_kind k = read_item(&h, total, &fmt, &size, &ntoalign);
        luaL_argcheck(L, k != K_STRING && k != K_ZSTR, 1,
                      "variable-length format");
        size_t step = (size_t)size + (size_t)ntoalign;
        luaL_argcheck(L, total <= PACK_MAXSIZE - step, 1,
                      "format result too large");
        total += step;
    }
    lua_pushinteger(L, (lua_Integer)total);
    return 1;
}

static lua_Integer get_int(lua_State *L, const char *s, int little, int size,
                           int is_signed)
{
    lua_Unsigned v = 0;
    int limit = size <= PACK_SZINT ? size : PACK_SZINT;
    for (int i = limit - 1; i >= 0; i--) {
        v <<= 8;
        v |= (unsigned char)s[little ? i : size - 1 - i];
    }
    if (size < PACK_SZINT) {
        if (is_signed) {
            lua_Unsigned mask = (lua_Unsigned)1 << (size * 8 - 1);
            v = (v ^ mask) - mask;
        }
    } else if (size > PACK_SZINT) {
        /* The extra bytes must only extend the value's sign. */
        int fill = (!is_signed || (lua_Integer)v >= 0) ? 0 : 0xff;
        for (int i = limit; i < size; i++)
            if ((unsigned char)s[little ? i : size - 1 - i] != fill)
                luaL_error(L, "%d-byte integer does not fit into Lua Integer",
                           size);
    }
    return (lua_Integer)v;
}

int strlib_unpack(lua_State *L)
{
    const char *fmt = luaL_checkstring(L, 1);
    size_t ld;
    const char *data = luaL_checklstring(L, 2, &ld);
    size_t pos = strlib_posstart(luaL_optinteger(L, 3, 1), ld) - 1;
    pack_header h;
    int n = 0;
    luaL_argcheck(L, pos <= ld, 3, "initial position out of string");
    int base = lua_gettop(L);
    header_init(&h, L);
    while (*fmt != '\0') {
        int size, ntoalign;
        pack_kind k = read_item(&h, pos, &fmt, &size, &ntoalign);
        luaL_argcheck(L, (size_t)ntoalign + (size_t)size <= ld - pos, 2,
                      "data string too short");
        pos += (size_t)ntoalign;
        if (!lua_checkstack(L, 2)) {
            /* Room is asked for item by item, so this is the stack's
             * limit: the values so far go before the error, whose
             * message needs a few slots too (lua5.4's stack has them
             * above its limit). */
            lua_settop(L, base);
            luaL_error(L, "stack overflow (too many results)");
        }
        n++;
        switch (k) {
        case K_INT:
        case K_UINT:
            lua_pushinteger(
                L, get_int(L, data + pos, h.little, size, k == K_INT));
            break;
        case K_FLOAT: {
            float f;
            get_bytes(&f, data + pos, size, h.little);
            lua_pushnumber(L, (lua_Number)f);
            break;
        }
        case K_NUMBER: {
            lua_Number x;
            get_bytes(&x, data + pos, size, h.little);
            lua_pushnumber(L, x);
            break;
        }
        case K_DOUBLE: {
            double d;
            get_bytes(&d, data + pos, size, h.little);
            lua_pushnumber(L, (lua_Number)d);
            break;
        }
        case K_CHAR:
            lua_pushlstring(L, data + pos, (size_t)size);
            break;
        case K_STRING: {
            size_t len = (size_t)(lua_Unsigned)get_int(L, data + pos, h.little,
                                                       size, 0);
            luaL_argcheck(L, len <= ld - pos - (size_t)size, 2,
                          "data string too short");
            lua_pushlstring(L, data + pos + size, len);
            pos += len;
            break;
        }
        case K_ZSTR: {
            size_t len = strlen(data + pos);
            luaL_argcheck(L, pos + len < ld, 2,
                          "unfinished string for format 'z'");
            lua_pushlstring(L, data + pos, len);
            pos += len + 1;
            break;
        }
        case K_PADDALIGN:
        case K_PADDING:
        case K_NOP:
            n--;
            break;
        }
        pos += (size_t)size;
    }
    lua_pushinteger(L, (lua_Integer)pos + 1);
    return n + 1;
}
