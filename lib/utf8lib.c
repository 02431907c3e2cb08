/*
 * utf8lib.c — the utf8 library (Lua 5.4 §6.5): char, charpattern,
 * codes, codepoint, len and offset.
 *
 * Strings are byte strings; this module only reads and writes the UTF-8
 * encoding.  As in Lua 5.4 the encoder and the lax decoder accept the
 * original 31-bit range (sequences of up to six bytes, values up to
 * 0x7FFFFFFF); the strict decoder (the default) also rejects values above
 * 0x10FFFF and the surrogates.  Overlong encodings are always rejected.
 * Every Lua string ends in a NUL, so the decoder may look one byte past
 * a truncated sequence: the NUL is not a continuation byte and ends it.
 */
#include <limits.h>
#include <stdint.h>

#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"
#include "romtab.h"
#include "rtlua.h"

/* Largest code point the strict decoder accepts. */
#define UTF8_MAXUNICODE 0x10FFFFu
/* Largest value the encoder and the lax decoder accept (31 bits). */
#define UTF8_MAXUTF 0x7FFFFFFFu
/* Longest sequence the encoder writes (six bytes for 31 bits). */
#define UTF8_BUFSZ 8
/* Most continuation bytes a sequence may have. */
#define UTF8_MAXCONT 5

static const char msg_invalid[] = "invalid UTF-8 code";

static int is_cont(const char *p)
{
    return ((unsigned char)*p & 0xC0u) == 0x80u;
}

/* A relative string position: negative counts from the end; one too far
 * to the left gives 0. */
static lua_Integer posrel(lua_Integer pos, size_t len)
{
    if (pos >= 0)
        return pos;
    if ((size_t)(0u - (lua_Unsigned)pos) > len)
        return 0;
    return (lua_Integer)len + pos + 1;
}

/* Decodes one sequence at s into *val; returns the byte after it, or
 * NULL when the bytes are not a valid (strict or lax) sequence. */
static const char *decode(const char *s, uint32_t *val, int strict)
{
    /* Smallest value that needs each count of continuation bytes:
     * smaller ones are overlong. */
    static const uint32_t least[UTF8_MAXCONT + 1] = {
        0u, 0x80u, 0x800u, 0x10000u, 0x200000u, 0x4000000u};
    unsigned c = (unsigned char)s[0];
    uint32_t res;
    if (c < 0x80u) {
        res = c;
    } else {
        int count = 0;
        res = 0;
        for (; c & 0x40u; c <<= 1) {
            unsigned cc = (unsigned char)s[++count];
            if ((cc & 0xC0u) != 0x80u)
                return NULL;
            res = (res << 6) | (cc & 0x3Fu);
            if (count > UTF8_MAXCONT)
                return NULL;
        }
        if (count == 0)
            return NULL; /* a lone continuation byte */
        res |= (uint32_t)(c & 0x7Fu) << (count * 5);
        if (res > UTF8_MAXUTF || res < least[count])
            return NULL;
        s += count;
    }
    if (strict &&
        (res > UTF8_MAXUNICODE || (res >= 0xD800u && res <= 0xDFFFu)))
        return NULL;
    *val = res;
    return s + 1;
}

/* Writes the encoding of x ending at buf[UTF8_BUFSZ - 1]; returns the
 * number of bytes. */
static int encode(char *buf, uint32_t x)
{
    int n = 1;
    if (x < 0x80u) {
        buf[UTF8_BUFSZ - 1] = (char)x;
        return 1;
    }
    unsigned room = 0x3Fu; /* payload bits the first byte still has */
    do {
        buf[UTF8_BUFSZ - n++] = (char)(0x80u | (x & 0x3Fu));
        x >>= 6;
        room >>= 1;
    } while (x > room);
    buf[UTF8_BUFSZ - n] = (char)((~room << 1) | x);
    return n;
}

static void push_char(lua_State *L, int arg)
{
    lua_Unsigned code = (lua_Unsigned)luaL_checkinteger(L, arg);
    luaL_argcheck(L, code <= UTF8_MAXUTF, arg, "value out of range");
    char buf[UTF8_BUFSZ];
    int n = encode(buf, (uint32_t)code);
    lua_pushlstring(L, buf + UTF8_BUFSZ - n, (size_t)n);
}

static int u_char(lua_State *L)
{
    int n = lua_gettop(L);
    if (n == 1) {
        push_char(L, 1);
        return 1;
    }
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (int i = 1; i <= n; i++) {
        push_char(L, i);
        luaL_addvalue(&b);
    }
    luaL_pushresult(&b);
    return 1;
}

static int u_len(lua_State *L)
{
    size_t len;
    const char *s = luaL_checklstring(L, 1, &len);
    lua_Integer i = posrel(luaL_optinteger(L, 2, 1), len);
    lua_Integer j = posrel(luaL_optinteger(L, 3, -1), len);
    int lax = lua_toboolean(L, 4);
    luaL_argcheck(L, 1 <= i && --i <= (lua_Integer)len, 2,
                  "initial position out of bounds");
    luaL_argcheck(L, --j < (lua_Integer)len, 3,
                  "final position out of bounds");
    lua_Integer n = 0;
    while (i <= j) {
        uint32_t code;
        const char *next = decode(s + i, &code, !lax);
        if (next == NULL) {
            luaL_pushfail(L);
            lua_pushinteger(L, i + 1);
            return 2;
        }
        i = next - s;
        n++;
    }
    lua_pushinteger(L, n);
    return 1;
}

static int u_codepoint(lua_State *L)
{
    size_t len;
    const char *s = luaL_checklstring(L, 1, &len);
    lua_Integer i = posrel(luaL_optinteger(L, 2, 1), len);
    lua_Integer j = posrel(luaL_optinteger(L, 3, i), len);
    int lax = lua_toboolean(L, 4);
    luaL_argcheck(L, i >= 1, 2, "out of bounds");
    luaL_argcheck(L, j <= (lua_Integer)len, 3, "out of bounds");
    if (i > j)
        return 0;
    if ((lua_Unsigned)j - (lua_Unsigned)i >= (lua_Unsigned)INT_MAX)
        return luaL_error(L, "string slice too long");
    int n = 0;
    luaL_checkstack(L, (int)(j - i) + 1, "string slice too long");
    const char *end = s + j;
    for (s += i - 1; s < end;) {
        uint32_t code;
        s = decode(s, &code, !lax);
        if (s == NULL)
            return luaL_error(L, msg_invalid);
        lua_pushinteger(L, (lua_Integer)code);
        n++;
    }
    return n;
}

static int u_offset(lua_State *L)
{
    size_t len;
    const char *s = luaL_checklstring(L, 1, &len);
    lua_Integer n = luaL_checkinteger(L, 2);
    lua_Integer def = n >= 0 ? 1 : (lua_Integer)len + 1;
    lua_Integer i = posrel(luaL_optinteger(L, 3, def), len);
    luaL_argcheck(L, 1 <= i && --i <= (lua_Integer)len, 3,
                  "position out of bounds");
    if (n == 0) {
        while (i > 0 && is_cont(s + i))
            i--; /* back to the start of the character holding i */
    } else {
        if (is_cont(s + i))
            return luaL_error(L, "initial position is a continuation byte");
        if (n < 0) {
            for (; n < 0 && i > 0; n++) {
                do
                    i--;
                while (i > 0 && is_cont(s + i));
            }
        } else {
            for (n--; n > 0 && i < (lua_Integer)len; n--) {
                do
                    i++;
                while (is_cont(s + i));
            }
        }
    }
    if (n == 0)
        lua_pushinteger(L, i + 1);
    else
        luaL_pushfail(L);
    return 1;
}

/* The iterator of codes: the control value is the 1-based position of
 * the previous character (0 at the start). */
static int codes_step(lua_State *L, int strict)
{
    size_t len;
    const char *s = luaL_checklstring(L, 1, &len);
    lua_Unsigned i = (lua_Unsigned)lua_tointeger(L, 2);
    if (i < len) {
        while (is_cont(s + i))
            i++; /* skip the rest of the previous character */
    }
    if (i >= len)
        return 0;
    uint32_t code;
    const char *next = decode(s + i, &code, strict);
    if (next == NULL || is_cont(next))
        return luaL_error(L, msg_invalid);
    lua_pushinteger(L, (lua_Integer)i + 1);
    lua_pushinteger(L, (lua_Integer)code);
    return 2;
}

static int codes_strict(lua_State *L)
{
    return codes_step(L, 1);
}

static int codes_lax(lua_State *L)
{
    return codes_step(L, 0);
}

static int u_codes(lua_State *L)
{
    int lax = lua_toboolean(L, 2);
    /* A string that starts with a continuation byte is refused here, as
     * 5.4.6 and later do (5.4.8 is the reference); 5.4.4 (Debian's
     * lua5.4) let the iterator's first step skip it.  The iterator then
     * only skips the rest of a character it has decoded. */
    const char *s = luaL_checkstring(L, 1);
    luaL_argcheck(L, !is_cont(s), 1, msg_invalid);
    lua_pushcfunction(L, lax ? codes_lax : codes_strict);
    lua_pushvalue(L, 1);
    lua_pushinteger(L, 0);
    return 3;
}

/* One character's pattern: a lead byte, then continuation bytes. */

int luaopen_utf8(lua_State *L)
{
    rtlua_pushrom(L, &romtab_utf8);
    return 1;
}

#define ROMTAB_FILE_utf8lib
#include "romtab.inc"
