/*
 * test_capi.c — the C API (vm/api.c) and the auxiliary library
 * (lib/lauxlib.c) against the reference manual and lua5.4's behaviour.
 *
 * Every case opens the one state with luaL_newstate, runs, verifies the
 * heap (gc_check) and closes it: the arena's bytes in use must come back
 * to zero.  The first cases use the API alone; the last ones run Lua code
 * (compiler, interpreter and libraries) and drive tests/capi/testmod.c,
 * a module written against the public headers only, from Lua.  Expected
 * texts (messages, tracebacks) were produced by lua5.4 on the same code.
 * Big cases are host-only (RTLUA_HOST).
 *
 * The cases are in two images: this one the API's own (part 1), and
 * tests/unit/test_capi2.c, which includes this file with TEST_CAPI_PART 2,
 * those that run Lua code: the runtime and both halves would not fit in
 * the 256 KiB of flash of lm3s6965evb with 64-bit numbers.  Each part
 * leaves the other's helpers unused.
 */
#ifndef TEST_CAPI_PART
#define TEST_CAPI_PART 1
#endif
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wunused-variable"
#include "gc/gc.h"
#include "include/lauxlib.h"
#include "include/lua.h"
#include "include/lualib.h"
#include "include/rtlua.h"
#include "tests/unit/check.h"
#include "vm/state.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The module under test, tests/capi/testmod.c: compiled apart, with only
 * the build's public include directory (the Makefile), and linked in. */
int luaopen_testmod(lua_State *L);

/* Elements of the long-buffer and many-keys cases. */
#ifdef RTLUA_HOST
#define TEST_BUF_PIECES 20000
#define TEST_NEXT_KEYS 2000
#else
#define TEST_BUF_PIECES 300
#define TEST_NEXT_KEYS 100
#endif

/* The deep Lua cases (a traceback from 31 frames down; coroutines
 * resumed through C continuations) need more C stack than the smallest
 * boards have (about 3.5 KiB on a Cortex-M3, measured). */
#define DEEP_CASES_MIN_STACK 6144
#ifdef BOARD_STACK_BYTES
#if BOARD_STACK_BYTES >= DEEP_CASES_MIN_STACK
#define DEEP_CASES 1
#endif
#else
#define DEEP_CASES 1
#endif

/* Arena bytes under which the libraries and the compiler's working set
 * cannot be expected to fit (the Lua-driven cases then check that the
 * failure is a clean memory error). */
#define LUA_CASES_MIN_ARENA (48u * 1024u)
/* Below this (microbit, 64-bit model) the libraries fit but nothing else. */
#define LUA_CASES_TINY_ARENA (12u * 1024u)

static lua_State *cur;
static arena_t *cur_arena;

/* ---- Helpers ----------------------------------------------------------- */

static lua_State *open_state(void)
{
    if (cur != NULL) /* a failed case left its state open */
        lua_close(cur);
    cur = luaL_newstate();
    cur_arena = cur ? G(cur)->arena : NULL;
    return cur;
}

/* Verify the heap, close: every byte must come back. */
static void close_state(void)
{
    const char *why = NULL;
    int err = gc_check(cur, &why);
    if (err != 0)
        port_printf("  gc_check: %s\n", why ? why : "?");
    CHECK_EQ(err, 0);
    lua_close(cur);
    cur = NULL;
    CHECK_EQ(arena_in_use(cur_arena), 0);
    CHECK_EQ(arena_check(cur_arena), ARENA_OK);
}

/* want, or fewer when the arena is small (bytes_each per element). */
static int scaled(int want, size_t bytes_each)
{
    size_t fit = arena_capacity(cur_arena) / bytes_each;
    return (size_t)want < fit ? want : (int)fit;
}

static int streq(const char *a, const char *b)
{
    return a != NULL && b != NULL && strcmp(a, b) == 0;
}

/* ---- Stack operations --------------------------------------------------- */

static void test_settop_absindex_gettop(void)
{
    lua_State *L = open_state();
    CHECK(L != NULL);
    CHECK_EQ(lua_gettop(L), 0);
    lua_settop(L, 5);
    CHECK_EQ(lua_gettop(L), 5);
    CHECK_EQ(lua_type(L, 5), LUA_TNIL);
    CHECK_EQ(lua_type(L, 6), LUA_TNONE);
    CHECK_EQ(lua_absindex(L, -1), 5);
    CHECK_EQ(lua_absindex(L, -5), 1);
    CHECK_EQ(lua_absindex(L, 3), 3);
    CHECK_EQ(lua_absindex(L, LUA_REGISTRYINDEX), LUA_REGISTRYINDEX);
    lua_pop(L, 2);
    CHECK_EQ(lua_gettop(L), 3);
    lua_settop(L, 0);
    CHECK_EQ(lua_gettop(L), 0);
    /* 500 slots are 8 KiB with 16-byte values: fewer on microbit. */
    int deep = arena_capacity(cur_arena) < LUA_CASES_TINY_ARENA ? 200 : 500;
    CHECK(lua_checkstack(L, deep));
    for (int i = 0; i < deep; i++)
        lua_pushinteger(L, i);
    CHECK_EQ(lua_tointeger(L, -1), deep - 1);
    CHECK_EQ(lua_tointeger(L, 1), 0);
    lua_settop(L, 0);
    CALL(close_state());
}

/* Push 1..n. */
static void push_seq(lua_State *L, int n)
{
    lua_settop(L, 0);
    for (int i = 1; i <= n; i++)
        lua_pushinteger(L, i);
}

/* The stack as digits, e.g. "12534". */
static void stack_digits(lua_State *L, char *out)
{
    int n = lua_gettop(L);
    for (int i = 1; i <= n; i++)
        out[i - 1] = (char)('0' + lua_tointeger(L, i));
    out[n] = '\0';
}

static void test_rotate_copy_insert_remove_replace(void)
{
    lua_State *L = open_state();
    char s[16];
    push_seq(L, 5);
    lua_rotate(L, 2, 1);
    stack_digits(L, s);
    CHECK(streq(s, "15234"));
    push_seq(L, 5);
    lua_rotate(L, 2, -1);
    stack_digits(L, s);
    CHECK(streq(s, "13452"));
    push_seq(L, 5);
    lua_rotate(L, -3, 2);
    stack_digits(L, s);
    CHECK(streq(s, "12453"));
    push_seq(L, 5);
    lua_insert(L, 1);
    stack_digits(L, s);
    CHECK(streq(s, "51234"));
    push_seq(L, 5);
    lua_remove(L, 2);
    stack_digits(L, s);
    CHECK(streq(s, "1345"));
    push_seq(L, 5);
    lua_replace(L, 1);
    stack_digits(L, s);
    CHECK(streq(s, "5234"));
    push_seq(L, 5);
    lua_copy(L, 1, 3);
    stack_digits(L, s);
    CHECK(streq(s, "12145"));
    push_seq(L, 3);
    lua_pushvalue(L, -2);
    stack_digits(L, s);
    CHECK(streq(s, "1232"));
    lua_settop(L, 0);
    CALL(close_state());
}

/* ---- Values ------------------------------------------------------------- */

static int cf_one(lua_State *L)
{
    lua_pushinteger(L, 1);
    return 1;
}

static void test_push_to_every_type(void)
{
    lua_State *L = open_state();
    lua_pushnil(L);
    lua_pushboolean(L, 7);
    lua_pushinteger(L, LUA_MAXINTEGER);
    lua_pushnumber(L, (lua_Number)2.5);
    lua_pushstring(L, "hi");
    lua_pushlstring(L, "a\0b", 3);
    lua_pushlightuserdata(L, &cur);
    lua_pushcfunction(L, cf_one);
    lua_newtable(L);
    void *ud = lua_newuserdatauv(L, 16, 0);
    CHECK_EQ(lua_pushthread(L), 1);
    CHECK_EQ(lua_gettop(L), 11);
    static const int types[] = {
        LUA_TNIL,    LUA_TBOOLEAN,  LUA_TNUMBER,        LUA_TNUMBER,
        LUA_TSTRING, LUA_TSTRING,   LUA_TLIGHTUSERDATA, LUA_TFUNCTION,
        LUA_TTABLE,  LUA_TUSERDATA, LUA_TTHREAD,
    };
    for (int i = 0; i < 11; i++)
        CHECK_EQ(lua_type(L, i + 1), types[i]);
    CHECK(streq(lua_typename(L, LUA_TNONE), "no value"));
    CHECK(streq(luaL_typename(L, 7), "userdata"));
    CHECK(lua_toboolean(L, 2) && !lua_toboolean(L, 1));
    CHECK(lua_isinteger(L, 3) && !lua_isinteger(L, 4));
    CHECK(lua_tointeger(L, 3) == LUA_MAXINTEGER);
    CHECK(lua_tonumber(L, 4) == (lua_Number)2.5);
    int isnum = 1;
    CHECK_EQ(lua_tointegerx(L, 4, &isnum), 0);
    CHECK_EQ(isnum, 0);
    size_t len = 0;
    const char *s = lua_tolstring(L, 6, &len);
    CHECK(len == 3 && memcmp(s, "a\0b", 3) == 0);
    CHECK_EQ(lua_rawlen(L, 6), 3);
    CHECK(lua_touserdata(L, 7) == (void *)&cur);
    CHECK(lua_touserdata(L, 10) == ud);
    CHECK_EQ(lua_rawlen(L, 10), 16);
    CHECK(lua_tocfunction(L, 8) == cf_one);
    CHECK(lua_iscfunction(L, 8) && lua_isfunction(L, 8));
    CHECK(lua_tothread(L, 11) == L);
    CHECK(lua_topointer(L, 9) != NULL && lua_topointer(L, 1) == NULL);
    CHECK(lua_isuserdata(L, 7) && lua_isuserdata(L, 10));
    CHECK(lua_tostring(L, 1) == NULL && lua_tostring(L, 9) == NULL);
    lua_settop(L, 0);
    CALL(close_state());
}

static void test_numbers_and_string_conversions(void)
{
    lua_State *L = open_state();
    lua_pushinteger(L, 42);
    lua_pushnumber(L, (lua_Number)3.0);
    lua_pushstring(L, "0x10");
    lua_pushstring(L, " 1e1 ");
    lua_pushstring(L, "abc");
    lua_pushnumber(L, (lua_Number)-0.5);
    CHECK(lua_isnumber(L, 3) && lua_isnumber(L, 4) && !lua_isnumber(L, 5));
    CHECK(lua_isstring(L, 1) && !lua_isstring(L, 7));
    CHECK_EQ(lua_tointeger(L, 3), 16);
    CHECK(lua_tonumber(L, 4) == (lua_Number)10);
    int ok = 0;
    CHECK_EQ(lua_tointegerx(L, 2, &ok), 3); /* 3.0 has an exact value */
    CHECK(ok);
    /* lua_tolstring converts numbers in place. */
    CHECK(streq(lua_tostring(L, 1), "42"));
    CHECK_EQ(lua_type(L, 1), LUA_TSTRING);
    CHECK(streq(lua_tostring(L, 2), "3.0"));
    CHECK(streq(lua_tostring(L, 6), "-0.5"));
    CHECK_EQ(lua_stringtonumber(L, "0x1p4"), 6);
    CHECK(lua_tonumber(L, -1) == (lua_Number)16);
    CHECK_EQ(lua_stringtonumber(L, "12a"), 0);
    CHECK_EQ(lua_stringtonumber(L, "7"), 2);
    CHECK(lua_isinteger(L, -1));
    /* Arithmetic and comparison, integers stay integers. */
    lua_settop(L, 0);
    lua_pushinteger(L, 7);
    lua_pushinteger(L, 2);
    lua_arith(L, LUA_OPIDIV);
    CHECK(lua_isinteger(L, -1) && lua_tointeger(L, -1) == 3);
    lua_pushinteger(L, 2);
    lua_arith(L, LUA_OPDIV);
    CHECK(!lua_isinteger(L, -1) && lua_tonumber(L, -1) == (lua_Number)1.5);
    lua_arith(L, LUA_OPUNM);
    CHECK(lua_tonumber(L, -1) == (lua_Number)-1.5);
    lua_pushinteger(L, 5);
    CHECK(lua_compare(L, 1, 2, LUA_OPLT));
    CHECK(!lua_compare(L, 2, 1, LUA_OPLE));
    CHECK(!lua_compare(L, 1, 9, LUA_OPEQ)); /* an invalid index */
    lua_pushinteger(L, 5);
    CHECK(lua_rawequal(L, -1, -2) && lua_compare(L, -1, -2, LUA_OPEQ));
    lua_pushstring(L, "ab");
    lua_pushstring(L, "cd");
    lua_pushinteger(L, 1);
    lua_concat(L, 3);
    CHECK(streq(lua_tostring(L, -1), "abcd1"));
    lua_concat(L, 0);
    CHECK(streq(lua_tostring(L, -1), ""));
    lua_pushfstring(L, "%s=%d %I %f %c%%", "x", -3, (LUAI_UACINT)12,
                    (LUAI_UACNUMBER)2.0, 'z');
    CHECK(streq(lua_tostring(L, -1), "x=-3 12 2.0 z%"));
    lua_settop(L, 0);
    CALL(close_state());
}

/* ---- Tables ------------------------------------------------------------- */

static void test_tables_get_set_raw_field_i_p(void)
{
    lua_State *L = open_state();
    lua_createtable(L, 4, 4);
    lua_pushinteger(L, 10);
    lua_setfield(L, 1, "a");
    CHECK_EQ(lua_getfield(L, 1, "a"), LUA_TNUMBER);
    CHECK_EQ(lua_tointeger(L, -1), 10);
    lua_pop(L, 1);
    lua_pushstring(L, "one");
    lua_seti(L, 1, 1);
    CHECK_EQ(lua_geti(L, 1, 1), LUA_TSTRING);
    lua_pop(L, 1);
    lua_pushstring(L, "k");
    lua_pushboolean(L, 1);
    lua_settable(L, 1);
    lua_pushstring(L, "k");
    CHECK_EQ(lua_gettable(L, 1), LUA_TBOOLEAN);
    lua_pop(L, 1);
    lua_pushstring(L, "r");
    lua_pushinteger(L, 5);
    lua_rawset(L, 1);
    lua_pushstring(L, "r");
    CHECK_EQ(lua_rawget(L, 1), LUA_TNUMBER);
    lua_pop(L, 1);
    lua_pushinteger(L, 2);
    lua_rawseti(L, 1, 2);
    CHECK_EQ(lua_rawgeti(L, 1, 2), LUA_TNUMBER);
    lua_pop(L, 1);
    CHECK_EQ(lua_rawgeti(L, 1, 3), LUA_TNIL);
    lua_pop(L, 1);
    static int key;
    lua_pushstring(L, "p");
    lua_rawsetp(L, 1, &key);
    CHECK_EQ(lua_rawgetp(L, 1, &key), LUA_TSTRING);
    lua_pop(L, 1);
    CHECK_EQ(lua_rawlen(L, 1), 2);
    lua_len(L, 1);
    CHECK_EQ(lua_tointeger(L, -1), 2);
    lua_pop(L, 1);
    CHECK_EQ(luaL_len(L, 1), 2);
    /* Globals. */
    lua_pushinteger(L, 99);
    lua_setglobal(L, "gx");
    CHECK_EQ(lua_getglobal(L, "gx"), LUA_TNUMBER);
    CHECK_EQ(lua_tointeger(L, -1), 99);
    lua_pop(L, 1);
    lua_pushglobaltable(L);
    CHECK_EQ(lua_getfield(L, -1, "gx"), LUA_TNUMBER);
    lua_settop(L, 0);
    CHECK_EQ(lua_getglobal(L, "nothing"), LUA_TNIL);
    lua_settop(L, 0);
    CALL(close_state());
}

static int cf_index(lua_State *L)
{
    /* __index(t, k) -> "<k>!" */
    lua_pushfstring(L, "%s!", lua_tostring(L, 2));
    return 1;
}

static void test_metatables(void)
{
    lua_State *L = open_state();
    lua_newtable(L); /* 1: t */
    lua_newtable(L); /* 2: mt */
    lua_newtable(L); /* 3: the __index table */
    lua_pushinteger(L, 5);
    lua_setfield(L, 3, "inherited");
    lua_setfield(L, 2, "__index");
    lua_setmetatable(L, 1);
    CHECK_EQ(lua_gettop(L), 1);
    CHECK_EQ(lua_getfield(L, 1, "inherited"), LUA_TNUMBER);
    lua_pop(L, 1);
    CHECK_EQ(lua_rawget(L, (lua_pushstring(L, "inherited"), 1)), LUA_TNIL);
    lua_pop(L, 1);
    CHECK(lua_getmetatable(L, 1));
    lua_pushcfunction(L, cf_index);
    lua_setfield(L, -2, "__index");
    lua_pop(L, 1);
    CHECK_EQ(lua_getfield(L, 1, "x"), LUA_TSTRING);
    CHECK(streq(lua_tostring(L, -1), "x!"));
    lua_pop(L, 1);
    /* Per-type metatables for other values. */
    lua_pushinteger(L, 1);
    CHECK(!lua_getmetatable(L, -1));
    lua_newtable(L);
    lua_setmetatable(L, -2);
    CHECK(lua_getmetatable(L, -1));
    lua_pushnil(L);
    lua_setmetatable(L, -3);
    CHECK(!lua_getmetatable(L, -2));
    lua_settop(L, 1);
    /* luaL_newmetatable and friends. */
    CHECK_EQ(luaL_newmetatable(L, "T.x"), 1);
    CHECK_EQ(luaL_newmetatable(L, "T.x"), 0);
    CHECK(lua_rawequal(L, -1, -2));
    lua_settop(L, 0);
    lua_newuserdatauv(L, 4, 0);
    luaL_setmetatable(L, "T.x");
    CHECK(luaL_testudata(L, 1, "T.x") == lua_touserdata(L, 1));
    CHECK(luaL_testudata(L, 1, "T.y") == NULL);
    CHECK_EQ(luaL_getmetafield(L, 1, "__name"), LUA_TSTRING);
    CHECK(streq(lua_tostring(L, -1), "T.x"));
    CHECK_EQ(luaL_getmetafield(L, 1, "__nothing"), LUA_TNIL);
    CHECK_EQ(lua_gettop(L), 2);
    lua_settop(L, 0);
    CALL(close_state());
}

static void test_next_array_and_hash(void)
{
    lua_State *L = open_state();
    lua_newtable(L);
    int n = scaled(TEST_NEXT_KEYS, 256);
    for (int i = 1; i <= n; i++) {
        lua_pushinteger(L, i);
        lua_rawseti(L, 1, i);
        const char *k = lua_pushfstring(L, "k%d", i); /* kept below */
        lua_pushinteger(L, -i);
        lua_setfield(L, 1, k);
        lua_pop(L, 1);
    }
    long long sumi = 0, sums = 0;
    int count = 0;
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        if (lua_type(L, -2) == LUA_TNUMBER)
            sumi += lua_tointeger(L, -1);
        else
            sums += lua_tointeger(L, -1);
        count++;
        lua_pop(L, 1);
    }
    CHECK_EQ(count, 2 * n);
    CHECK_EQ(sumi, (long long)n * (n + 1) / 2);
    CHECK_EQ(sums, -(long long)n * (n + 1) / 2);
    CHECK_EQ(lua_gettop(L), 1);
    lua_settop(L, 0);
    CALL(close_state());
}

/* ---- Userdata, references, buffers, registry ---------------------------- */

static void test_userdata_user_values(void)
{
    lua_State *L = open_state();
    int *p = lua_newuserdatauv(L, sizeof(int), 2);
    *p = 17;
    lua_pushstring(L, "first");
    CHECK(lua_setiuservalue(L, 1, 1));
    lua_newtable(L);
    CHECK(lua_setiuservalue(L, 1, 2));
    lua_pushinteger(L, 0);
    CHECK(!lua_setiuservalue(L, 1, 3));
    CHECK_EQ(lua_getiuservalue(L, 1, 1), LUA_TSTRING);
    CHECK(streq(lua_tostring(L, -1), "first"));
    CHECK_EQ(lua_getiuservalue(L, 1, 2), LUA_TTABLE);
    CHECK_EQ(lua_getiuservalue(L, 1, 3), LUA_TNONE);
    CHECK(lua_isnil(L, -1));
    lua_settop(L, 1);
    lua_gc(L, LUA_GCCOLLECT);
    CHECK_EQ(lua_getiuservalue(L, 1, 1), LUA_TSTRING);
    CHECK(streq(lua_tostring(L, -1), "first"));
    CHECK_EQ(*(int *)lua_touserdata(L, 1), 17);
    lua_settop(L, 0);
    CALL(close_state());
}

static void test_refs_reuse_freed_slots(void)
{
    lua_State *L = open_state();
    lua_newtable(L);
    lua_pushnil(L);
    CHECK_EQ(luaL_ref(L, 1), LUA_REFNIL);
    lua_pushstring(L, "a");
    int ra = luaL_ref(L, 1);
    lua_pushstring(L, "b");
    int rb = luaL_ref(L, 1);
    CHECK(ra > 0 && rb > 0 && ra != rb);
    CHECK_EQ(lua_gettop(L), 1);
    lua_rawgeti(L, 1, ra);
    CHECK(streq(lua_tostring(L, -1), "a"));
    lua_pop(L, 1);
    luaL_unref(L, 1, ra);
    luaL_unref(L, 1, LUA_NOREF);
    lua_pushstring(L, "c");
    CHECK_EQ(luaL_ref(L, 1), ra); /* the freed slot first */
    lua_pushstring(L, "d");
    int rd = luaL_ref(L, 1);
    CHECK(rd != ra && rd != rb);
    /* The registry: 1 and 2 are taken (main thread, globals). */
    lua_pushstring(L, "in registry");
    int rr = luaL_ref(L, LUA_REGISTRYINDEX);
    CHECK(rr > LUA_RIDX_LAST);
    lua_rawgeti(L, LUA_REGISTRYINDEX, rr);
    CHECK(streq(lua_tostring(L, -1), "in registry"));
    lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_MAINTHREAD);
    CHECK(lua_tothread(L, -1) == L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
    lua_pushglobaltable(L);
    CHECK(lua_rawequal(L, -1, -2));
    luaL_unref(L, LUA_REGISTRYINDEX, rr);
    lua_settop(L, 0);
    CALL(close_state());
}

static void test_buffer_grows_past_inline_storage(void)
{
    lua_State *L = open_state();
    luaL_Buffer b;
    lua_pushinteger(L, 123); /* something below the buffer */
    luaL_buffinit(L, &b);
    int pieces = scaled(TEST_BUF_PIECES, 32);
    for (int i = 0; i < pieces; i++) {
        luaL_addstring(&b, "abc");
        luaL_addchar(&b, (char)('0' + i % 10));
        if (i % 100 == 0) {
            lua_pushinteger(L, i % 10);
            luaL_addvalue(&b);
        }
    }
    luaL_pushresult(&b);
    size_t len;
    const char *s = lua_tolstring(L, -1, &len);
    size_t want = (size_t)pieces * 4 + (size_t)(pieces + 99) / 100;
    CHECK_EQ(len, want);
    CHECK(memcmp(s, "abc00abc1abc2", 13) == 0);
    CHECK_EQ(lua_gettop(L), 2);
    CHECK_EQ(lua_tointeger(L, 1), 123);
    /* prepbuffsize + addsize, and buffinitsize. */
    char *p = luaL_buffinitsize(L, &b, 3 * LUAL_BUFFERSIZE);
    memset(p, 'x', 3 * LUAL_BUFFERSIZE);
    luaL_pushresultsize(&b, 3 * LUAL_BUFFERSIZE);
    CHECK_EQ(lua_rawlen(L, -1), 3 * LUAL_BUFFERSIZE);
    CHECK(streq(luaL_gsub(L, "a.b..c", ".", "<>"), "a<>b<><>c"));
    CHECK_EQ(lua_gettop(L), 4);
    lua_settop(L, 0);
    lua_gc(L, LUA_GCCOLLECT);
    CALL(close_state());
}

/* A box is the result: a buffer longer than its inline storage becomes
 * its string in place, with no copy and no second block; a short result
 * is interned like any short string; the buffer API says so too. */
static void test_buffer_result_is_built_in_place(void)
{
    lua_State *L = open_state();
    luaL_Buffer b;
    size_t n = 3 * LUAL_BUFFERSIZE;
    char *p = luaL_buffinitsize(L, &b, n);
    memset(p, 'y', n);
    size_t before = (size_t)lua_gc(L, LUA_GCCOUNT) * 1024 +
                    (size_t)lua_gc(L, LUA_GCCOUNTB);
    luaL_pushresultsize(&b, n - 5); /* shortened in place */
    size_t after = (size_t)lua_gc(L, LUA_GCCOUNT) * 1024 +
                   (size_t)lua_gc(L, LUA_GCCOUNTB);
    size_t len;
    const char *s = lua_tolstring(L, -1, &len);
    CHECK(s == p);
    CHECK_EQ(len, n - 5);
    CHECK(after <= before);
    CHECK_EQ(s[len], '\0');
    CHECK_EQ(lua_gettop(L), 1);
    /* Grown past its inline storage, then short: interned. */
    luaL_buffinit(L, &b);
    for (size_t i = 0; i < 2 * LUAL_BUFFERSIZE; i++)
        luaL_addchar(&b, 'z');
    luaL_buffsub(&b, 2 * LUAL_BUFFERSIZE - 3);
    luaL_pushresult(&b);
    lua_pushstring(L, "zzz");
    CHECK(lua_rawequal(L, -1, -2));
    lua_newtable(L);
    lua_pushvalue(L, -3);
    lua_pushinteger(L, 7);
    lua_rawset(L, -3);
    CHECK_EQ(lua_getfield(L, -1, "zzz"), LUA_TNUMBER);
    lua_settop(L, 0);
    /* The API itself. */
    char *q = rtlua_pushbuffer(L, 100);
    memcpy(q, "hello", 5);
    CHECK(streq(rtlua_finishbuffer(L, -1, 5), "hello"));
    lua_pushliteral(L, "hello");
    CHECK(lua_rawequal(L, -1, -2));
    lua_settop(L, 0);
    lua_gc(L, LUA_GCCOLLECT);
    CALL(close_state());
}

/* ---- The collector ------------------------------------------------------ */

static void test_gc_options(void)
{
    lua_State *L = open_state();
    CHECK_EQ(lua_gc(L, LUA_GCISRUNNING), 1);
    lua_gc(L, LUA_GCSTOP);
    CHECK_EQ(lua_gc(L, LUA_GCISRUNNING), 0);
    lua_gc(L, LUA_GCRESTART);
    CHECK_EQ(lua_gc(L, LUA_GCISRUNNING), 1);
    int kb = lua_gc(L, LUA_GCCOUNT), b = lua_gc(L, LUA_GCCOUNTB);
    size_t bytes = (size_t)kb * 1024 + (size_t)b;
    CHECK_EQ(bytes, arena_in_use(cur_arena));
    for (int i = 0; i < 200; i++) { /* garbage */
        lua_newtable(L);
        lua_pop(L, 1);
    }
    lua_gc(L, LUA_GCCOLLECT);
    size_t after = arena_in_use(cur_arena);
    CHECK(after < bytes + 200 * 16);
    /* Steps finish a cycle in bounded time, even when none is due. */
    int done = 0;
    for (int i = 0; i < 100000 && !done; i++)
        done = lua_gc(L, LUA_GCSTEP, 0);
    CHECK(done);
    /* The collector stays incremental, but each call returns the mode
     * asked for before, as lua5.4's does. */
    CHECK_EQ(lua_gc(L, LUA_GCGEN, 0, 0), LUA_GCINC);
    CHECK_EQ(lua_gc(L, LUA_GCINC, 0, 0, 0), LUA_GCGEN);
    CHECK_EQ(lua_gc(L, LUA_GCINC, 0, 0, 0), LUA_GCINC);
    int oldpause = lua_gc(L, LUA_GCSETPAUSE, 200);
    CHECK_EQ(lua_gc(L, LUA_GCSETPAUSE, oldpause), 200);
    int oldmul = lua_gc(L, LUA_GCSETSTEPMUL, 300);
    CHECK_EQ(lua_gc(L, LUA_GCSETSTEPMUL, oldmul), 300);
    rtlua_GCStats st;
    rtlua_gcstats(L, &st);
    CHECK(st.cycles_completed >= 2);
    CHECK(st.steps > 0);
    CHECK_EQ(st.bytes_in_use, arena_in_use(cur_arena));
    CALL(close_state());
}

/* The median and p99.9 of rtlua_gcstats are the kept steps' own: exact
 * while there are no more steps than samples (a median from the
 * histogram was the top of a bucket: 4096 cycles for 3000-cycle steps). */
static void test_step_quantiles_are_exact(void)
{
    lua_State *L = open_state();
    CHECK(L != NULL);
    gc_stats saved = G(L)->stats;
    gc_stats *s = &G(L)->stats;
    static const uint32_t len[] = {3000, 2900, 3100, 100, 5000};
    memset(s, 0, sizeof *s);
    for (int i = 0; i < 5; i++) {
        s->steps++;
        s->sample[i] = len[i];
    }
    s->worst_step_cycles = 5000;
    rtlua_GCStats st;
    rtlua_gcstats(L, &st);
    CHECK_EQ(st.median_step_cycles, 3000);
    CHECK_EQ(st.p999_step_cycles, 5000);
    CHECK_EQ(st.quantiles_sampled, 0);
    /* Every count of samples, with many equal ones: the exact order
     * statistics of a sorted copy. */
    uint32_t rng = 7, sorted[GC_STEP_SAMPLES];
    for (uint32_t n = 1; n <= GC_STEP_SAMPLES; n++) {
        memset(s, 0, sizeof *s);
        s->steps = n;
        for (uint32_t i = 0; i < n; i++) {
            rng = rng * 1103515245u + 12345u;
            uint32_t x = (rng >> 16) % (n % 3 == 0 ? 4u : 1000u);
            s->sample[i] = x;
            uint32_t j = i;
            for (; j > 0 && sorted[j - 1] > x; j--)
                sorted[j] = sorted[j - 1];
            sorted[j] = x;
        }
        rtlua_gcstats(L, &st);
        uint32_t k = (uint32_t)(((uint64_t)n * 999 + 999) / 1000);
        CHECK_EQ(st.median_step_cycles, sorted[(n - 1) / 2]);
        CHECK_EQ(st.p999_step_cycles, sorted[k - 1]);
    }
    /* real steps fill the reservoir and then sample it */
    *s = saved;
    s->steps = 0;
    for (int i = 0; i < 4 * GC_STEP_SAMPLES; i++) {
        G(L)->gcestimate = 0; /* a cycle is always due */
        gc_step(L, 1);
    }
    rtlua_gcstats(L, &st);
    CHECK(st.steps > GC_STEP_SAMPLES);
    CHECK(st.quantiles_sampled);
    CHECK(st.median_step_cycles <= st.p999_step_cycles);
    CHECK(st.p999_step_cycles <= st.worst_step_cycles);
    CALL(close_state());
}

static void test_newstate_close_returns_every_byte(void)
{
    lua_State *L = open_state();
    CHECK(L != NULL);
    CHECK(lua_newstate(NULL, NULL) == NULL); /* one state at a time */
    lua_State *co = lua_newthread(L);
    CHECK(co != NULL && co != L);
    CHECK_EQ(lua_pushthread(co), 0);
    lua_xmove(co, L, 1);
    CHECK(lua_tothread(L, -1) == co);
    lua_newtable(L);
    lua_pushstring(L, "a string long enough not to be a short one, surely");
    lua_setfield(L, -2, "s");
    lua_setglobal(L, "keep");
    CALL(close_state());
    CHECK(open_state() != NULL); /* and a new one opens */
    CALL(close_state());
}

/* ---- Blocks of the allocation function ---------------------------------- */

/* lpeg keeps each compiled pattern in a block it gets from
 * lua_getallocf's function and frees in its userdata's __gc: a block of
 * the arena that belongs to no object.  The heap check counts such
 * blocks, also when they come through a lua_setallocf wrapper, which
 * the runtime's own blocks pass through as well. */
static lua_Alloc wrapped_f;
static void *wrapped_ud;
static int wrapped_calls;

static void *counting_allocf(void *ud, void *p, size_t osize, size_t nsize)
{
    (void)ud;
    wrapped_calls++;
    return wrapped_f(wrapped_ud, p, osize, nsize);
}

static int heap_ok(lua_State *L)
{
    const char *why = NULL;
    int err = gc_check(L, &why);
    if (err != 0)
        port_printf("  gc_check: %s\n", why ? why : "?");
    return err == 0;
}

static void test_blocks_of_the_allocation_function_are_accounted(void)
{
    lua_State *L = open_state();
    void *ud;
    lua_Alloc f = lua_getallocf(L, &ud);
    char *p = f(ud, NULL, 0, 100);
    CHECK(p != NULL);
    CHECK(heap_ok(L));
    p = f(ud, p, 100, 3000); /* grown, maybe moved */
    CHECK(p != NULL);
    lua_gc(L, LUA_GCCOLLECT);
    CHECK(heap_ok(L));
    p = f(ud, p, 3000, 40); /* shrunk */
    CHECK(heap_ok(L));
    wrapped_f = f;
    wrapped_ud = ud;
    wrapped_calls = 0;
    lua_setallocf(L, counting_allocf, NULL);
    void *wud;
    lua_Alloc w = lua_getallocf(L, &wud);
    CHECK(w == counting_allocf);
    char *q = w(wud, NULL, 0, 64);
    CHECK(q != NULL);
    lua_newtable(L); /* the runtime's blocks pass the wrapper too */
    lua_pushstring(L, "a string long enough not to be a short one, surely");
    lua_setfield(L, -2, "s");
    CHECK(wrapped_calls > 1);
    lua_gc(L, LUA_GCCOLLECT);
    CHECK(heap_ok(L));
    CHECK(w(wud, q, 64, 0) == NULL);
    lua_setallocf(L, f, ud);
    CHECK(heap_ok(L));
    CHECK(f(ud, p, 40, 0) == NULL);
    CALL(close_state());
}

#ifndef RTLUA_HOST
/* On a board, C modules' malloc family takes arena blocks of the open
 * state (lib/cmalloc.c): counted, freed back, failing with ENOMEM when
 * there is no room or no state. */
static void test_malloc_takes_blocks_of_the_arena(void)
{
    errno = 0;
    CHECK(malloc(16) == NULL && errno == ENOMEM); /* no state open */
    lua_State *L = open_state();
    lua_gc(L, LUA_GCCOLLECT);
    size_t in_use = arena_in_use(cur_arena);
    char *p = malloc(1000);
    CHECK(p != NULL && ((uintptr_t)p & 7u) == 0);
    CHECK(arena_in_use(cur_arena) >= in_use + 1000);
    memset(p, 'a', 1000);
    CHECK(heap_ok(L));
    p = realloc(p, 5000);
    CHECK(p != NULL && p[0] == 'a' && p[999] == 'a');
    CHECK(arena_in_use(cur_arena) >= in_use + 5000);
    unsigned char *z = calloc(100, 3);
    CHECK(z != NULL && z[0] == 0 && z[299] == 0);
    lua_gc(L, LUA_GCCOLLECT);
    CHECK(heap_ok(L));
    errno = 0;
    CHECK(malloc(arena_capacity(cur_arena)) == NULL && errno == ENOMEM);
    CHECK(realloc(p, arena_capacity(cur_arena)) == NULL);
    CHECK(p[0] == 'a' && p[999] == 'a'); /* p is still there */
    free(z);
    free(p);
    free(NULL);
    CHECK_EQ(arena_in_use(cur_arena), in_use);
    CALL(close_state());
}
#endif

/* ---- C closures and upvalues -------------------------------------------- */

static int cf_counter(lua_State *L)
{
    lua_Integer n = lua_tointeger(L, lua_upvalueindex(1)) + 1;
    lua_pushinteger(L, n);
    lua_copy(L, -1, lua_upvalueindex(1));
    /* Beyond the closure's upvalues: none. */
    lua_pushboolean(L, lua_isnone(L, lua_upvalueindex(3)));
    return 2;
}

static void test_cclosure_upvalues(void)
{
    lua_State *L = open_state();
    lua_pushinteger(L, 10);
    lua_pushstring(L, "second");
    lua_pushcclosure(L, cf_counter, 2);
    CHECK_EQ(lua_gettop(L), 1);
    lua_pushvalue(L, 1);
    lua_call(L, 0, 2);
    CHECK_EQ(lua_tointeger(L, 2), 11);
    CHECK(lua_toboolean(L, 3));
    lua_settop(L, 1);
    lua_pushvalue(L, 1);
    lua_call(L, 0, 1);
    CHECK_EQ(lua_tointeger(L, -1), 12);
    lua_pop(L, 1);
    CHECK(streq(lua_getupvalue(L, 1, 2), ""));
    CHECK(streq(lua_tostring(L, -1), "second"));
    lua_pop(L, 1);
    CHECK(lua_getupvalue(L, 1, 3) == NULL);
    lua_pushinteger(L, 100);
    CHECK(streq(lua_setupvalue(L, 1, 1), ""));
    CHECK_EQ(lua_gettop(L), 1);
    lua_pushvalue(L, 1);
    lua_call(L, 0, 1);
    CHECK_EQ(lua_tointeger(L, -1), 101);
    CHECK(lua_upvalueid(L, 1, 1) != NULL);
    CHECK(lua_upvalueid(L, 1, 1) != lua_upvalueid(L, 1, 2));
    CHECK(lua_upvalueid(L, 1, 3) == NULL);
    lua_settop(L, 0);
    CALL(close_state());
}

/* ---- Calls and errors --------------------------------------------------- */

static int cf_raise(lua_State *L)
{
    return luaL_error(L, "raised %d", (int)lua_tointeger(L, 1));
}

static int cf_handler(lua_State *L)
{
    lua_pushfstring(L, "handled: %s", lua_tostring(L, 1));
    return 1;
}

static int cf_badarg(lua_State *L)
{
    luaL_checkinteger(L, 1);
    return 0;
}

static int cf_sum(lua_State *L)
{
    lua_Integer s = 0;
    int n = lua_gettop(L);
    for (int i = 1; i <= n; i++)
        s += luaL_checkinteger(L, i);
    lua_pushinteger(L, s);
    lua_pushinteger(L, n);
    return 2;
}

static void test_calls_pcall_and_message_handler(void)
{
    lua_State *L = open_state();
    lua_pushcfunction(L, cf_sum);
    lua_pushinteger(L, 1);
    lua_pushinteger(L, 2);
    lua_pushinteger(L, 3);
    lua_call(L, 3, LUA_MULTRET);
    CHECK_EQ(lua_gettop(L), 2);
    CHECK_EQ(lua_tointeger(L, 1), 6);
    CHECK_EQ(lua_tointeger(L, 2), 3);
    lua_settop(L, 0);
    /* Errors from C: luaL_error has no position outside Lua code. */
    lua_pushcfunction(L, cf_raise);
    lua_pushinteger(L, 4);
    CHECK_EQ(lua_pcall(L, 1, 0, 0), LUA_ERRRUN);
    CHECK(streq(lua_tostring(L, -1), "raised 4"));
    lua_settop(L, 0);
    lua_pushcfunction(L, cf_handler);
    lua_pushcfunction(L, cf_raise);
    lua_pushinteger(L, 5);
    CHECK_EQ(lua_pcall(L, 1, 1, 1), LUA_ERRRUN);
    CHECK(streq(lua_tostring(L, -1), "handled: raised 5"));
    CHECK_EQ(lua_gettop(L), 2);
    lua_settop(L, 0);
    lua_pushcfunction(L, cf_badarg);
    lua_pushstring(L, "x");
    CHECK_EQ(lua_pcall(L, 1, 0, 0), LUA_ERRRUN);
    CHECK(streq(lua_tostring(L, -1),
                "bad argument #1 to '?' (number expected, got string)"));
    lua_settop(L, 0);
    /* Any value can be an error object. */
    lua_pushcfunction(L, cf_sum);
    lua_pushboolean(L, 1);
    CHECK_EQ(lua_pcall(L, 1, 0, 0), LUA_ERRRUN);
    lua_settop(L, 0);
    CALL(close_state());
}

/* ---- To-be-closed slots, next, warnings, file results ------------------ */

static int closed_count;

static int cf_close(lua_State *L)
{
    closed_count++;
    (void)L;
    return 0;
}

/* A table whose __close counts. */
static void push_closable(lua_State *L)
{
    lua_newtable(L);
    lua_newtable(L);
    lua_pushcfunction(L, cf_close);
    lua_setfield(L, -2, "__close");
    lua_setmetatable(L, -2);
}

static int cf_with_tbc(lua_State *L)
{
    push_closable(L);
    lua_toclose(L, -1);
    lua_pushinteger(L, 5);
    return 1; /* returning closes the slot */
}

static int cf_badnext(lua_State *L)
{
    lua_newtable(L);
    lua_pushstring(L, "absent");
    lua_next(L, -2);
    return 0;
}

static char warned[64];

static void collect_warning(void *ud, const char *msg, int tocont)
{
    (void)ud;
    size_t n = strlen(warned);
    size_t m = strlen(msg);
    if (n + m + 2 < sizeof warned) {
        memcpy(warned + n, msg, m + 1);
        if (!tocont)
            strcat(warned, "|");
    }
}

static void test_toclose_closeslot_next_warnings(void)
{
    lua_State *L = open_state();
    closed_count = 0;
    push_closable(L);
    lua_toclose(L, 1);
    lua_pushinteger(L, 1);
    lua_settop(L, 0); /* popping a to-be-closed slot closes it */
    CHECK_EQ(closed_count, 1);
    push_closable(L);
    lua_toclose(L, -1);
    lua_closeslot(L, -1);
    CHECK_EQ(closed_count, 2);
    CHECK(lua_isnil(L, -1));
    lua_settop(L, 0);
    CHECK_EQ(closed_count, 2); /* closed once only */
    lua_pushcfunction(L, cf_with_tbc);
    lua_call(L, 0, 1);
    CHECK_EQ(closed_count, 3);
    CHECK_EQ(lua_tointeger(L, -1), 5);
    lua_settop(L, 0);
    lua_pushcfunction(L, cf_badnext);
    CHECK_EQ(lua_pcall(L, 0, 0, 0), LUA_ERRRUN);
    CHECK(streq(lua_tostring(L, -1), "invalid key to 'next'"));
    lua_settop(L, 0);
    warned[0] = '\0';
    lua_setwarnf(L, collect_warning, NULL);
    lua_warning(L, "a", 1);
    lua_warning(L, "b", 0);
    lua_warning(L, "c", 0);
    CHECK(streq(warned, "ab|c|"));
#ifdef RTLUA_HOST
    errno = ENOENT;
    CHECK_EQ(luaL_fileresult(L, 0, "f.txt"), 3);
    CHECK(lua_isnil(L, 1));
    CHECK(streq(lua_tostring(L, 2), "f.txt: No such file or directory"));
    CHECK_EQ(lua_tointeger(L, 3), ENOENT);
    lua_settop(L, 0);
    CHECK_EQ(luaL_fileresult(L, 1, NULL), 1);
    CHECK(lua_toboolean(L, 1));
    lua_settop(L, 0);
    errno = 0;
    CHECK_EQ(luaL_execresult(L, 0), 3);
    CHECK(lua_toboolean(L, 1) && streq(lua_tostring(L, 2), "exit"));
#endif
    lua_settop(L, 0);
    CALL(close_state());
}

/* ---- Allocation failures ------------------------------------------------ */

/* Bound of the countdown: the workload makes fewer allocations. */
#define FAULT_MAX_N 4000

/* Every allocating API path once, in a protected call. */
static int cf_workload(lua_State *L)
{
    int keys = scaled(40, 1024), pieces = scaled(200, 256);
    lua_createtable(L, 4, 4);
    for (int i = 1; i <= keys; i++) {
        lua_pushfstring(L, "key%d", i);
        lua_pushinteger(L, i);
        lua_rawset(L, 1);
        lua_pushnumber(L, (lua_Number)i + (lua_Number)0.5);
        lua_tostring(L, -1);
        lua_rawseti(L, 1, i);
    }
    lua_newuserdatauv(L, 100, 2);
    lua_pushstring(L, "a user value long enough to be a long string .....");
    lua_setiuservalue(L, -2, 1);
    luaL_newmetatable(L, "fault.T");
    lua_setmetatable(L, -2);
    lua_pushinteger(L, 1);
    lua_pushcclosure(L, cf_sum, 1);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (int i = 0; i < pieces; i++)
        luaL_addstring(&b, "buffer piece ");
    luaL_pushresult(&b);
    lua_pushvalue(L, -1);
    luaL_ref(L, LUA_REGISTRYINDEX);
    lua_newthread(L);
    lua_pushstring(L, "x");
    lua_pushinteger(L, 12);
    lua_concat(L, 2);
    lua_pushvalue(L, 1);
    lua_setglobal(L, "workload_table");
    luaL_gsub(L, "a-b-c-d", "-", "+++");
    return 0;
}

static void test_allocation_failures_are_memory_errors(void)
{
    int n, st = -1, memerrs = 0;
    for (n = 1; n <= FAULT_MAX_N; n++) {
        lua_State *L = open_state();
        CHECK(L != NULL);
        lua_pushcfunction(L, cf_workload);
        G(L)->failafter = (uint32_t)n;
        st = lua_pcall(L, 0, 0, 0);
        int injected = G(L)->failafter == 0;
        G(L)->failafter = 0;
        if (st != LUA_OK) {
            if (st != LUA_ERRMEM)
                port_printf("  n=%d status %d: %s\n", n, st,
                            lua_tostring(L, -1));
            CHECK_EQ(st, LUA_ERRMEM);
            CHECK(streq(lua_tostring(L, -1), "not enough memory"));
            memerrs++;
        }
        lua_settop(L, 0);
        CALL(close_state());
        if (!injected) { /* the workload ran whole: every point was tried */
            CHECK_EQ(st, LUA_OK);
            break;
        }
    }
    CHECK(n <= FAULT_MAX_N);
    CHECK(memerrs > 10);
}

/* ---- Lua code, testmod -------------------------------------------------- */

/* Load and run `code` as chunk `name` inside a C function (as lua.c's
 * pmain does: tracebacks end with "[C]: in ?"); the results (or the
 * message) are left on the stack; returns the status. */
static int cf_runchunk(lua_State *L)
{
    size_t len;
    const char *code = lua_tolstring(L, 1, &len);
    const char *name = lua_tostring(L, 2);
    if (luaL_loadbuffer(L, code, len, name) != LUA_OK)
        return lua_error(L);
    lua_call(L, 0, LUA_MULTRET);
    return lua_gettop(L) - 2;
}

static int run_expect(lua_State *L, const char *code, const char *name,
                      int expect)
{
    lua_pushcfunction(L, cf_runchunk);
    lua_pushstring(L, code);
    lua_pushstring(L, name);
    int st = lua_pcall(L, 2, LUA_MULTRET, 0);
    if (st != expect)
        port_printf("  error: %s\n", lua_tostring(L, -1));
    return st;
}

#define run(L, code, name) run_expect(L, code, name, LUA_OK)

static int cf_openlibs(lua_State *L)
{
    luaL_openlibs(L);
    luaL_requiref(L, "testmod", luaopen_testmod, 1);
    return 0;
}

/* Open the state with the libraries and testmod; libs_status says
 * whether they fit (a memory error is expected only in small arenas). */
static int libs_status;

static lua_State *open_with_libs(void)
{
    lua_State *L = open_state();
    lua_pushcfunction(L, cf_openlibs);
    libs_status = lua_pcall(L, 0, 0, 0);
    lua_settop(L, 0);
    return L;
}

/* Where the libraries did not fit: it must have been a clean memory
 * error, in an arena too small for them, and the state closes whole. */
#define LIBS_MUST_FIT()                                                       \
    do {                                                                      \
        if (libs_status != LUA_OK) {                                          \
            CHECK_EQ(libs_status, LUA_ERRMEM);                                \
            CHECK(arena_capacity(cur_arena) < LUA_CASES_MIN_ARENA);           \
            port_printf("  (arena too small for Lua code: memory error "      \
                        "checked)\n");                                        \
            CALL(close_state());                                              \
            return;                                                           \
        }                                                                     \
        if (arena_capacity(cur_arena) < LUA_CASES_TINY_ARENA) {               \
            port_printf("  (libraries open; no room left for Lua code)\n");   \
            CALL(close_state());                                              \
            return;                                                           \
        }                                                                     \
    } while (0)

static void test_lua_errors_have_positions(void)
{
    lua_State *L = open_with_libs();
    LIBS_MUST_FIT();
    CHECK_EQ(run_expect(L, "local x = 1\nreturn testmod.fail('boom')", "=f",
                        LUA_ERRRUN),
             LUA_ERRRUN);
    CHECK(streq(lua_tostring(L, -1), "f:2: failed: boom"));
    lua_settop(L, 0);
    CHECK_EQ(luaL_loadstring(L, "x = = 1"), LUA_ERRSYNTAX);
    CHECK(streq(lua_tostring(L, -1),
                "[string \"x = = 1\"]:1: unexpected symbol near '='"));
    lua_settop(L, 0);
    CHECK_EQ(luaL_dostring(L, "return 1 + 2, 'x'"), LUA_OK);
    CHECK_EQ(lua_gettop(L), 2);
    CHECK_EQ(lua_tointeger(L, 1), 3);
    lua_settop(L, 0);
    CHECK_EQ(luaL_loadfilex(L, "/nonexistent/file.lua", NULL), LUA_ERRFILE);
#ifdef RTLUA_HOST
    CHECK(streq(lua_tostring(L, -1), "cannot open /nonexistent/file.lua: "
                                     "No such file or directory"));
#endif
    lua_settop(L, 0);
    CALL(close_state());
}

/* Upvalues of Lua closures: names from the prototype, ids, joins; and
 * luaL_loadfilex on the host. */
static void test_lua_closure_upvalues_and_loadfile(void)
{
    lua_State *L = open_with_libs();
    LIBS_MUST_FIT();
    CHECK_EQ(luaL_dostring(L, "local a, b = 1, 2\n"
                              "return function() return a + b end,\n"
                              "       function() return b end"),
             LUA_OK);
    CHECK_EQ(lua_gettop(L), 2);
    CHECK(streq(lua_getupvalue(L, 1, 1), "a"));
    CHECK_EQ(lua_tointeger(L, -1), 1);
    lua_pop(L, 1);
    CHECK(streq(lua_getupvalue(L, 1, 2), "b"));
    lua_pop(L, 1);
    CHECK(lua_getupvalue(L, 1, 3) == NULL);
    CHECK(lua_upvalueid(L, 1, 2) == lua_upvalueid(L, 2, 1));
    CHECK(lua_upvalueid(L, 1, 1) != lua_upvalueid(L, 1, 2));
    lua_pushinteger(L, 40);
    CHECK(streq(lua_setupvalue(L, 1, 1), "a"));
    lua_pushvalue(L, 1);
    lua_call(L, 0, 1);
    CHECK_EQ(lua_tointeger(L, -1), 42);
    lua_pop(L, 1);
    lua_upvaluejoin(L, 1, 1, 2, 1); /* f1's a is now the shared b */
    CHECK(lua_upvalueid(L, 1, 1) == lua_upvalueid(L, 2, 1));
    lua_pushvalue(L, 1);
    lua_call(L, 0, 1);
    CHECK_EQ(lua_tointeger(L, -1), 4);
    lua_settop(L, 0);
#ifdef RTLUA_HOST
    /* A first '#' line is skipped, and line numbers stay right. */
    static const char path[] = "build/test_capi_chunk.lua";
    static const char text[] = "#!/usr/bin/env lua\n\nlocal x = ...\n"
                               "if x then error('x') end return 7";
    int fd = port_file_open(path, "w");
    CHECK(fd >= 0);
    CHECK_EQ(port_file_write(fd, text, sizeof text - 1),
             (long)(sizeof text - 1));
    port_file_close(fd);
    CHECK_EQ(luaL_loadfile(L, path), LUA_OK);
    CHECK_EQ(lua_gettop(L), 1);
    lua_pushvalue(L, 1);
    CHECK_EQ(lua_pcall(L, 0, 1, 0), LUA_OK);
    CHECK_EQ(lua_tointeger(L, -1), 7);
    lua_pop(L, 1);
    lua_pushboolean(L, 1);
    CHECK_EQ(lua_pcall(L, 1, 0, 0), LUA_ERRRUN);
    CHECK(streq(lua_tostring(L, -1), "build/test_capi_chunk.lua:4: x"));
    lua_settop(L, 0);
#endif
    CALL(close_state());
}

#ifdef RTLUA_HOST
/* The libraries, the compiler and testmod under countdown fault
 * injection: every allocation point fails once, each failure is a clean
 * memory error (or is absorbed), the heap verifies and nothing leaks. */
static const char fault_chunk[] =
    "local T = testmod local c = T.new(5, 'x') assert(c:inc() == 6)\n"
    "local j = T.join('abc', 100, ',') assert(#j == 399)\n"
    "local r = T.ref('a') T.unref(r) assert(not pcall(T.checks, 'x'))\n"
    "local co = coroutine.wrap(function() return T.callk(function() "
    "return coroutine.yield(1) end) end)\n"
    "co() co(2) assert(T.tostr({}) ~= nil)\n";

static int cf_fault_lua(lua_State *L)
{
    luaL_openlibs(L);
    luaL_requiref(L, "testmod", luaopen_testmod, 1);
    if (luaL_loadstring(L, fault_chunk) != LUA_OK)
        return lua_error(L);
    lua_call(L, 0, 0);
    return 0;
}

static void test_lua_code_under_allocation_failures(void)
{
    int n, st = -1;
    for (n = 1; n <= FAULT_MAX_N; n++) {
        lua_State *L = open_state();
        CHECK(L != NULL);
        lua_pushcfunction(L, cf_fault_lua);
        G(L)->failafter = (uint32_t)n;
        st = lua_pcall(L, 0, 0, 0);
        int injected = G(L)->failafter == 0;
        G(L)->failafter = 0;
        if (st != LUA_OK && st != LUA_ERRMEM)
            port_printf("  n=%d status %d: %s\n", n, st, lua_tostring(L, -1));
        CHECK(st == LUA_OK || st == LUA_ERRMEM);
        lua_settop(L, 0);
        CALL(close_state());
        if (!injected)
            break;
    }
    CHECK(n <= FAULT_MAX_N);
    CHECK_EQ(st, LUA_OK);
}
#endif

#ifdef DEEP_CASES
static const char traceback_chunk[] =
    "local function f() local s = testmod.traceback('msg') return s end\n"
    "local r = f()\n"
    "local function r2(n) if n == 0 then local s = testmod.traceback('deep') "
    "return s end local s = r2(n - 1) return s end\n"
    "local d = r2(30)\n"
    "local t = {} function t.m() local s = testmod.traceback() return s end\n"
    "function t:k() local s = t.m() return s end\n"
    "function glob() local s = t:k() return s end\n"
    "local g = glob()\n"
    "return r, d, g\n";

static const char traceback_f[] = "msg\n"
                                  "stack traceback:\n"
                                  "\ttb.lua:1: in local 'f'\n"
                                  "\ttb.lua:2: in main chunk\n"
                                  "\t[C]: in ?";

static const char traceback_g[] = "stack traceback:\n"
                                  "\ttb.lua:5: in field 'm'\n"
                                  "\ttb.lua:6: in method 'k'\n"
                                  "\ttb.lua:7: in function 'glob'\n"
                                  "\ttb.lua:8: in main chunk\n"
                                  "\t[C]: in ?";

static void test_traceback_text_as_lua54(void)
{
    lua_State *L = open_with_libs();
    LIBS_MUST_FIT();
    CHECK_EQ(run(L, traceback_chunk, "@tb.lua"), LUA_OK);
    CHECK_EQ(lua_gettop(L), 3);
    const char *r = lua_tostring(L, 1);
    if (!streq(r, traceback_f))
        port_printf("  got: %s\n", r ? r : "(null)");
    CHECK(streq(r, traceback_f));
    const char *g = lua_tostring(L, 3);
    if (!streq(g, traceback_g))
        port_printf("  got: %s\n", g ? g : "(null)");
    CHECK(streq(g, traceback_g));
    /* 31 frames of r2: 10 shown, "skipping 11", then the last 11. */
    int base = lua_gettop(L);
    CHECK(lua_checkstack(L, 24)); /* 21 pieces, past LUA_MINSTACK */
    lua_pushliteral(L, "deep\nstack traceback:");
    for (int i = 0; i < 18; i++) {
        if (i == 10)
            lua_pushliteral(L, "\n\t...\t(skipping 11 levels)");
        lua_pushliteral(L, "\n\ttb.lua:3: in upvalue 'r2'");
    }
    lua_pushliteral(L, "\n\ttb.lua:3: in local 'r2'\n\ttb.lua:4: in main "
                       "chunk\n\t[C]: in ?");
    lua_concat(L, lua_gettop(L) - base);
    const char *d = lua_tostring(L, 2);
    if (!streq(d, lua_tostring(L, -1)))
        port_printf("  got: %s\n", d ? d : "(null)");
    CHECK(streq(d, lua_tostring(L, -1)));
    lua_settop(L, 0);
    CALL(close_state());
}

/* The parts of the testmod script: each runs after testmod_prelude in
 * a chunk of its own (small chunks fit the boards' arenas).  Each line
 * checks one behaviour; the same script, run by lua5.4 with testmod.c
 * built against its headers, passes too (the messages are lua5.4's). */
static const char testmod_prelude[] =
    "local T = testmod\n"
    "local function perr(f, ...) local ok, m = pcall(f, ...) "
    "assert(not ok) return m end\n"
    "local function tail(m, s) return m:sub(-#s) == s and #m > #s end\n";

static const char *const testmod_parts[] = {
    /* userdata, methods, user values, __tostring, argument errors */
    "local c = T.new(5, 'five')\n"
    "assert(c:get() == 5 and c:inc() == 6 and c:inc(4) == 10)\n"
    "assert(c:name() == 'five' and c:setname('v') and c:name() == 'v')\n"
    "assert(tostring(c) == 'Counter(10)' and T.tostr(c) == 'Counter(10)')\n"
    "assert(perr(c.inc, 5) == "
    "\"bad argument #1 to '?' (testmod.Counter expected, got number)\")\n"
    "assert(tail(perr(function() return c:inc('x') end), "
    "\"bad argument #1 to 'inc' (number expected, got string)\"))\n"
    "assert(tail(perr(function() local t = {inc = c.inc} return t:inc() end), "
    "\"calling 'inc' on bad self (testmod.Counter expected, got table)\"))\n"
    "assert(tail(perr(function() return T.needtable(c) end), "
    "\"bad argument #1 to 'needtable' (table expected, got "
    "testmod.Counter)\"))\n",
    /* luaL_check* / luaL_opt*, options */
    "assert(perr(T.checks, 1.5, 1, 's') == \"bad argument #1 to "
    "'testmod.checks' (number has no integer representation)\")\n"
    "assert(tail(perr(function() return T.checks(1, {}, 's') end), "
    "\"bad argument #2 to 'checks' (number expected, got table)\"))\n"
    "assert(tail(perr(function() return T.checks(1, 2) end), "
    "\"bad argument #3 to 'checks' (string expected, got no value)\"))\n"
    "local i, n, s, oi, os = T.checks('7', '2.5', 3)\n"
    "assert(i == 7 and n == 2.5 and s == '3' and oi == 42 and os == 'def')\n"
    "assert(math.type(i) == 'integer')\n"
    "assert(T.mode() == 0 and T.mode('off') == 2)\n"
    "assert(tail(perr(function() return T.mode('x') end), "
    "\"bad argument #1 to 'mode' (invalid option 'x')\"))\n"
    "assert(T.tostr(nil) == 'nil' and T.tostr(true) == 'true' and "
    "T.tostr(12) == '12')\n"
    "assert(T.tostr(setmetatable({}, {__name = 'My'})):sub(1, 4) == "
    "'My: ')\n",
    /* references, shared upvalues, buffers */
    "local r1, r2 = T.ref('a'), T.ref('b')\n"
    "assert(T.deref(r1) == 'a' and T.deref(r2) == 'b' and T.ref(nil) == -1)\n"
    "T.unref(r1) assert(T.ref('c') == r1)\n"
    "assert(T.next_id() == 1 and T.next_id() == 2 and T.peek_id() == 2)\n"
    "local j = T.join('abc', 1000, ',')\n"
    "assert(#j == 3999 and j:sub(1, 8) == 'abc,abc,')\n"
    "assert(T.join('xy', 3, '--') == 'xy--xy--xy' and T.join('a', 0) == "
    "'')\n"
    "assert(T.gsub('a.b.c', '.', '::') == 'a::b::c')\n",
    /* __close and __gc */
    "local c\n"
    "do local k <close> = T.new() c = k end\n"
    "assert(c:isclosed())\n"
    "local gc0 = T.counts()\n"
    "for i = 1, 50 do T.new(i) end\n"
    "c = nil collectgarbage() collectgarbage()\n"
    "local gc1, closed = T.counts()\n"
    "assert(gc1 >= gc0 + 50 and closed == 1)\n",
    /* calls with continuations, without yields */
    "local k, a, b = T.callk(function(x, y) return x + y, x * y end, 3, 4)\n"
    "assert(k == 'k' and a == 7 and b == 12)\n"
    "local ok, m = T.pcallk(error, 'e', 0)\n"
    "assert(ok == false and m == 'e')\n"
    "assert(select('#', T.pcallk(function() return 1, 2 end)) == 3)\n",
    /* yields across lua_callk, lua_pcallk, and lua_yieldk */
    "local co = coroutine.wrap(function(v)\n"
    "  local k2, r = T.callk(function(x) local y = coroutine.yield(x + 1) "
    "return y * 2 end, v)\n"
    "  return k2, r end)\n"
    "assert(co(10) == 11)\n"
    "local k2, r = co(5) assert(k2 == 'k' and r == 10)\n"
    "co = coroutine.wrap(function() return T.pcallk(function() "
    "local v = coroutine.yield(1) error('e' .. v, 0) end) end)\n"
    "assert(co() == 1)\n"
    "local ok2, m2 = co('X') assert(ok2 == false and m2 == 'eX')\n"
    "co = coroutine.wrap(function() return T.pcallk(function() "
    "return coroutine.yield(1) end) end)\n"
    "assert(co() == 1)\n"
    "local ok3, v3 = co('Y') assert(ok3 == true and v3 == 'Y')\n"
    "local th = coroutine.create(function() return T.yieldk(1, 2) end)\n"
    "local okr, y1, y2 = coroutine.resume(th)\n"
    "assert(okr and y1 == 1 and y2 == 2)\n"
    "local okr2, z1, z2 = coroutine.resume(th, 'a')\n"
    "assert(okr2 and z1 == 7 and z2 == 'a')\n"
    "assert(coroutine.status(th) == 'dead')\n",
};

static void test_testmod_from_lua(void)
{
    lua_State *L = open_with_libs();
    LIBS_MUST_FIT();
    int nparts = (int)(sizeof testmod_parts / sizeof testmod_parts[0]);
    for (int i = 0; i < nparts; i++) {
        lua_pushstring(L, testmod_prelude);
        lua_pushstring(L, testmod_parts[i]);
        lua_concat(L, 2);
        const char *code = lua_tostring(L, -1);
        int st = run(L, code, "=testmod");
        if (st != LUA_OK)
            port_printf("  in part %d\n", i + 1);
        CHECK_EQ(st, LUA_OK);
        lua_settop(L, 0);
        lua_gc(L, LUA_GCCOLLECT);
    }
    CALL(close_state());
}

#endif /* DEEP_CASES */

static const struct check_case cases[] = {
#if TEST_CAPI_PART == 1
    CASE(test_settop_absindex_gettop),
    CASE(test_rotate_copy_insert_remove_replace),
    CASE(test_push_to_every_type),
    CASE(test_numbers_and_string_conversions),
    CASE(test_tables_get_set_raw_field_i_p),
    CASE(test_metatables),
    CASE(test_next_array_and_hash),
    CASE(test_userdata_user_values),
    CASE(test_refs_reuse_freed_slots),
    CASE(test_buffer_grows_past_inline_storage),
    CASE(test_buffer_result_is_built_in_place),
    CASE(test_gc_options),
    CASE(test_step_quantiles_are_exact),
    CASE(test_newstate_close_returns_every_byte),
    CASE(test_blocks_of_the_allocation_function_are_accounted),
#ifndef RTLUA_HOST
    CASE(test_malloc_takes_blocks_of_the_arena),
#endif
    CASE(test_cclosure_upvalues),
#else
    CASE(test_calls_pcall_and_message_handler),
    CASE(test_toclose_closeslot_next_warnings),
    CASE(test_allocation_failures_are_memory_errors),
    CASE(test_lua_errors_have_positions),
    CASE(test_lua_closure_upvalues_and_loadfile),
#ifdef RTLUA_HOST
    CASE(test_lua_code_under_allocation_failures),
#endif
#ifdef DEEP_CASES
    CASE(test_traceback_text_as_lua54),
    CASE(test_testmod_from_lua),
#endif
#endif /* TEST_CAPI_PART */
};

int main(void)
{
    return check_main(TEST_CAPI_PART == 1 ? "capi" : "capi2", cases,
                      CHECK_COUNT(cases));
}
