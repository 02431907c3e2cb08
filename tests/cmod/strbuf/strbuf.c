/*
 * strbuf.c — a third-party-style module that builds strings with
 * luaL_Buffer: a JSON-like encoder of nested tables, join, repeat with
 * luaL_buffinitsize, hex dumps one luaL_addchar at a time.  Built with
 * only lua.h and lauxlib.h, against a build's include directory.
 */
#include <string.h>

#include "lauxlib.h"
#include "lua.h"

#define MAX_DEPTH 32

/* Every encoder pushes the encoding of one value as a string, built in a
 * buffer of its own.  While a buffer is in use the stack above it must
 * be as the last buffer operation left it (Lua 5.4 manual, luaL_Buffer):
 * a part is pushed, encoded, the value under it removed, and the part
 * added with luaL_addvalue, the one operation that takes a value from
 * the top. */
static void encode(lua_State *L, int idx, int depth);

static void encode_string(lua_State *L, int idx)
{
    static const char hex[] = "0123456789abcdef";
    size_t n;
    const char *s = lua_tolstring(L, idx, &n);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    luaL_addchar(&b, '"');
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            luaL_addchar(&b, '\\');
            luaL_addchar(&b, (char)c);
        } else if (c < 0x20) {
            luaL_addstring(&b, "\\u00");
            luaL_addchar(&b, hex[c >> 4]);
            luaL_addchar(&b, hex[c & 15]);
        } else {
            luaL_addchar(&b, (char)c);
        }
    }
    luaL_addchar(&b, '"');
    luaL_pushresult(&b);
}

/* The value on top, replaced by its encoding, added to b. */
static void add_encoded(lua_State *L, luaL_Buffer *b, int depth)
{
    encode(L, lua_gettop(L), depth);
    lua_remove(L, -2);
    luaL_addvalue(b);
}

/* An array when t[1] is not nil, else an object whose string keys are
 * sorted (table.sort) for a stable text. */
static void encode_table(lua_State *L, int idx, int depth)
{
    luaL_Buffer b;
    if (depth > MAX_DEPTH)
        luaL_error(L, "nested too deep");
    luaL_checkstack(L, 6, "encode");
    lua_Integer n = luaL_len(L, idx);
    if (n > 0) {
        luaL_buffinit(L, &b);
        luaL_addchar(&b, '[');
        for (lua_Integer i = 1; i <= n; i++) {
            if (i > 1)
                luaL_addchar(&b, ',');
            lua_geti(L, idx, i);
            add_encoded(L, &b, depth + 1);
        }
        luaL_addchar(&b, ']');
        luaL_pushresult(&b);
        return;
    }
    lua_newtable(L); /* the keys, below the buffer */
    int keys = lua_gettop(L);
    lua_Integer nk = 0;
    lua_pushnil(L);
    while (lua_next(L, idx) != 0) {
        lua_pop(L, 1);
        if (lua_type(L, -1) != LUA_TSTRING)
            luaL_error(L, "object keys must be strings");
        lua_pushvalue(L, -1);
        lua_rawseti(L, keys, ++nk);
    }
    lua_getglobal(L, "table");
    lua_getfield(L, -1, "sort");
    lua_pushvalue(L, keys);
    lua_call(L, 1, 0);
    lua_pop(L, 1);
    luaL_buffinit(L, &b);
    luaL_addchar(&b, '{');
    for (lua_Integer i = 1; i <= nk; i++) {
        if (i > 1)
            luaL_addchar(&b, ',');
        lua_rawgeti(L, keys, i);
        add_encoded(L, &b, depth + 1);
        luaL_addchar(&b, ':');
        lua_rawgeti(L, keys, i);
        lua_gettable(L, idx);
        add_encoded(L, &b, depth + 1);
    }
    luaL_addchar(&b, '}');
    luaL_pushresult(&b);
    lua_remove(L, keys);
}

static void encode(lua_State *L, int idx, int depth)
{
    switch (lua_type(L, idx)) {
    case LUA_TNIL:
        lua_pushliteral(L, "null");
        break;
    case LUA_TBOOLEAN:
        lua_pushstring(L, lua_toboolean(L, idx) ? "true" : "false");
        break;
    case LUA_TNUMBER:
        luaL_tolstring(L, idx, NULL);
        break;
    case LUA_TSTRING:
        encode_string(L, idx);
        break;
    case LUA_TTABLE:
        encode_table(L, idx, depth);
        break;
    default:
        luaL_error(L, "cannot encode a %s", luaL_typename(L, idx));
    }
}

/* strbuf.encode(v) -> a JSON text. */
static int sb_encode(lua_State *L)
{
    luaL_checkany(L, 1);
    lua_settop(L, 1);
    encode(L, 1, 0);
    return 1;
}

/* strbuf.join(sep, ...) -> the arguments' strings (luaL_tolstring)
 * joined by sep: each is pushed, then added with luaL_addvalue. */
static int sb_join(lua_State *L)
{
    size_t seplen;
    const char *sep = luaL_checklstring(L, 1, &seplen);
    int n = lua_gettop(L);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (int i = 2; i <= n; i++) {
        if (i > 2)
            luaL_addlstring(&b, sep, seplen);
        luaL_tolstring(L, i, NULL);
        luaL_addvalue(&b);
    }
    luaL_pushresult(&b);
    return 1;
}

/* strbuf.rep(s, n) -> s n times, written in place in one block. */
static int sb_rep(lua_State *L)
{
    size_t len;
    const char *s = luaL_checklstring(L, 1, &len);
    lua_Integer n = luaL_checkinteger(L, 2);
    luaL_argcheck(L, n >= 0 && (len == 0 || (size_t)n <= (1u << 24) / len), 2,
                  "too large");
    luaL_Buffer b;
    char *p = luaL_buffinitsize(L, &b, len * (size_t)n);
    for (lua_Integer i = 0; i < n; i++)
        memcpy(p + (size_t)i * len, s, len);
    luaL_pushresultsize(&b, len * (size_t)n);
    return 1;
}

/* strbuf.hex(s) -> "68 65 78" for "hex", one luaL_addchar at a time;
 * every 16 bytes a newline, with luaL_buffsub taking back the space. */
static int sb_hex(lua_State *L)
{
    static const char digits[] = "0123456789abcdef";
    size_t len;
    const char *s = luaL_checklstring(L, 1, &len);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        luaL_addchar(&b, digits[c >> 4]);
        luaL_addchar(&b, digits[c & 15]);
        luaL_addchar(&b, ' ');
        if (i % 16 == 15) {
            luaL_buffsub(&b, 1);
            luaL_addchar(&b, '\n');
        }
    }
    if (luaL_bufflen(&b) > 0)
        luaL_buffsub(&b, 1);
    luaL_pushresult(&b);
    return 1;
}

/* strbuf.subst(s, pattern, repl) -> luaL_gsub's plain replacement. */
static int sb_subst(lua_State *L)
{
    const char *s = luaL_checkstring(L, 1);
    const char *p = luaL_checkstring(L, 2);
    const char *r = luaL_checkstring(L, 3);
    luaL_gsub(L, s, p, r);
    return 1;
}

/* strbuf.count() -> how many strings this module built: an upvalue
 * shared by the functions (lua_upvalueindex, as a module's own state). */
static int sb_count(lua_State *L)
{
    lua_Integer n = lua_tointeger(L, lua_upvalueindex(1)) + 1;
    lua_pushinteger(L, n);
    lua_copy(L, -1, lua_upvalueindex(1));
    return 1;
}

/* strbuf.keep(s) -> a reference; strbuf.fetch(ref) -> s (the registry). */
static int sb_keep(lua_State *L)
{
    luaL_checkstring(L, 1);
    lua_settop(L, 1);
    lua_pushinteger(L, luaL_ref(L, LUA_REGISTRYINDEX));
    return 1;
}

static int sb_fetch(lua_State *L)
{
    int ref = (int)luaL_checkinteger(L, 1);
    lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
    luaL_unref(L, LUA_REGISTRYINDEX, ref);
    return 1;
}

/* strbuf.config() -> what the module was compiled with. */
static int sb_config(lua_State *L)
{
    lua_pushinteger(L, LUAL_BUFFERSIZE);
    lua_pushinteger(L, (lua_Integer)sizeof(luaL_Buffer));
    lua_pushinteger(L, LUA_REGISTRYINDEX);
    lua_pushinteger(L, (lua_Integer)sizeof(lua_Integer));
    return 4;
}

static const luaL_Reg funcs[] = {
    {"encode", sb_encode}, {"join", sb_join},     {"rep", sb_rep},
    {"hex", sb_hex},       {"subst", sb_subst},   {"keep", sb_keep},
    {"fetch", sb_fetch},   {"config", sb_config}, {NULL, NULL}};

static const luaL_Reg counted[] = {{"count", sb_count}, {NULL, NULL}};

int luaopen_strbuf(lua_State *L);

int luaopen_strbuf(lua_State *L)
{
    luaL_newlib(L, funcs);
    lua_pushinteger(L, 0);
    luaL_setfuncs(L, counted, 1);
    return 1;
}
