/*
 * test_lua.c — countdown fault injection over whole Lua programs.
 *
 * Each program is compiled and run again and again with the Nth
 * allocation failing, for N = 1, 2, ... until a run finishes before the
 * countdown reaches zero.  Every run must end in a Lua error or in
 * success, never a crash; the heap must verify (gc_check) after it, a
 * full collection must still work, and closing the state must return
 * every byte of the arena.  The last run (no failure) must give the
 * program's real result.
 *
 * They run on the boards too, where the arena, the C stack and the number
 * model are the real ones: all of them where the arena holds them, the
 * small programs (tiny_programs, which microbit's 7.5 KiB arena compiles)
 * everywhere.
 */
#include "check.h"
#include "gc/arena.h"
#include "gc/gc.h"
#include "include/lauxlib.h"
#include "include/lua.h"
#include "include/lualib.h"
#include "vm/state.h"

#include <string.h>

/* The programs: each returns a string that the last run must produce. */
static const struct program {
    const char *name;
    const char *src;
    const char *result;
} programs[] = {
    {"tables",
     "local t = {} for i = 1, 40 do t[i] = i * i end\n"
     "local h = {} for i = 1, 20 do h['k' .. i] = i end\n"
     "local s = 0 for k, v in pairs(h) do s = s + v end\n"
     "return tostring(#t) .. ',' .. s",
     "40,210"},
    {"closures",
     "local fs = {}\n"
     "for i = 1, 10 do fs[i] = function() return i end end\n"
     "local function counter() local n = 0\n"
     "  return function() n = n + 1 return n end end\n"
     "local c = counter() c() c()\n"
     "return fs[3]() + fs[10]() + c()",
     "16"},
    {"strings",
     "local parts = {}\n"
     "for i = 1, 30 do parts[#parts + 1] = string.rep('ab', i % 5) .. i end\n"
     "local s = table.concat(parts, '-')\n"
     "return #s .. ':' .. string.upper(string.sub(s, 1, 6))",
     "200:AB1-AB"},
    {"coroutines",
     "local co = coroutine.wrap(function(a)\n"
     "  local s = a\n"
     "  for i = 1, 5 do s = s + coroutine.yield(s) end\n"
     "  return s * 100 end)\n"
     "local r = co(1)\n"
     "for i = 1, 5 do r = co(i) end\n"
     "return r",
     "1600"},
    {"metatables",
     "local V = {}\n"
     "V.__index = V\n"
     "V.__add = function(a, b) return setmetatable({x = a.x + b.x}, V) end\n"
     "V.__tostring = function(v) return 'V(' .. v.x .. ')' end\n"
     "function V.new(x) return setmetatable({x = x}, V) end\n"
     "local a = V.new(1)\n"
     "for i = 2, 10 do a = a + V.new(i) end\n"
     "return tostring(a)",
     "V(55)"},
    {"errors",
     "local ok, e = pcall(error, {code = 7})\n"
     "local ok2, e2 = pcall(function() local x = nil; return x.y end)\n"
     "return tostring(ok) .. e.code .. tostring(ok2) .. " /* no find */
     "select('#', e2)",
     "false7false1"},
    {"long string constants", /* one object per content in a chunk (C14) */
     "local a = 'a long string literal, longer than forty characters'\n"
     "local function f() return 'a long string literal, longer than forty "
     "characters' end\n"
     "local function g() return [[a long string literal, longer than forty "
     "characters]] end\n"
     "local n = 'a_long_name_longer_than_forty_characters_of_a_short_string'\n"
     "a_long_name_longer_than_forty_characters_of_a_short_string = 1\n"
     "return tostring(string.format('%p', a) == string.format('%p', g())\n"
     "  and f() == a) .. #a .. _G[n]",
     "true511"},
    {"binary chunks", /* the writer's buffer and the loader (C06) */
     "local function f(a, ...) local t = {...}\n"
     "  return a .. #t, 'a long string constant, longer than forty bytes' "
     "end\n"
     "local s = string.dump(f)\n"
     "local g = assert(load(s, '=bin', 'b'))\n"
     "local s2 = string.dump(g, true)\n"
     "local h = assert(load(s2, '=bin', 'b'))\n"
     "return g(1, 2, 3) .. h('x') .. tostring(#s2 < #s)",
     "12x0true"},
};

/* Small enough for microbit: every allocation fails in turn on every
 * board. */
static const struct program tiny_programs[] = {
    {"tiny tables",
     "local t = {} for i = 1, 8 do t[i] = i * i end\n"
     "local h = {a = 1, b = 2} return #t + h.b",
     "10"},
    {"tiny closures",
     "local function c() local n = 0 return function() n = n + 1 return n "
     "end end\n"
     "local f = c() f() return f() * 10",
     "20"},
    {"tiny strings", "local s = ('ab'):rep(3) .. 1.5 return s:upper()",
     "ABABAB1.5"},
    {"tiny errors",
     "local ok, e = pcall(error, 'x', 0)\n"
     "local ok2 = pcall(function() return nil + 1 end)\n"
     "return tostring(ok) .. e .. tostring(ok2)",
     "falsexfalse"},
    {"tiny coroutines",
     "local co = coroutine.wrap(function(a) local b = coroutine.yield(a + 1)"
     " return b * 2 end)\n"
     "return co(1) + co(5)",
     "12"},
};

/* Run one program once with the Nth allocation failing (0: none).
 * Returns the status; *ran_out is 1 when the countdown was reached. */
static int run_once(const struct program *pr, uint32_t n, int *ran_out,
                    char *out, size_t outcap, int *heap_ok, int *freed_all)
{
    lua_State *L = luaL_newstate();
    if (L == NULL)
        return -1;
    luaL_openlibs(L);
    arena_t *a = G(L)->arena;
    G(L)->failafter = n;
    int st = luaL_loadbuffer(L, pr->src, strlen(pr->src), pr->name);
    if (st == LUA_OK)
        st = lua_pcall(L, 0, 1, 0);
    *ran_out = (n != 0 && G(L)->failafter == 0);
    G(L)->failafter = 0;
    out[0] = 0;
    if (lua_type(L, -1) == LUA_TSTRING || lua_type(L, -1) == LUA_TNUMBER) {
        size_t len;
        const char *s = lua_tolstring(L, -1, &len);
        if (len >= outcap)
            len = outcap - 1;
        memcpy(out, s, len);
        out[len] = 0;
    }
    *heap_ok = gc_check(L, NULL) == 0;
    lua_gc(L, LUA_GCCOLLECT);
    *heap_ok = *heap_ok && gc_check(L, NULL) == 0;
    lua_close(L);
    *freed_all = arena_in_use(a) == 0;
    return st;
}

/* Failure points tried: every STRIDE-th (every one: the programs need a
 * hundred allocations at most, ROM tables making the libraries cheap). */
#define STRIDE 1
/* A program needing more allocations than this is a test bug. */
#define MAX_POINTS 20000

static void countdown_by(const struct program *pr, uint32_t stride)
{
    char out[64];
    int ran_out = 1, heap_ok, freed_all, st;
    uint32_t n;
    for (n = 1; n < MAX_POINTS; n += stride) {
        st = run_once(pr, n, &ran_out, out, sizeof out, &heap_ok, &freed_all);
        CHECK(st >= 0);
        if (!heap_ok || !freed_all)
            port_printf("  %s: failing allocation %u\n", pr->name,
                        (unsigned)n);
        CHECK(heap_ok);
        CHECK(freed_all);
        if (st != LUA_OK)
            CHECK(out[0] != 0); /* an error with a message */
        if (!ran_out)
            break;
    }
    CHECK(n < MAX_POINTS);
    port_printf("# %s: %u allocations, every %u failing in turn\n", pr->name,
                (unsigned)n, (unsigned)stride);
    st = run_once(pr, 0, &ran_out, out, sizeof out, &heap_ok, &freed_all);
    CHECK_EQ(st, LUA_OK);
    if (strcmp(out, pr->result) != 0)
        port_printf("  %s gave '%s', expected '%s'\n", pr->name, out,
                    pr->result);
    CHECK(strcmp(out, pr->result) == 0);
    CHECK(heap_ok && freed_all);
}

static void countdown(const struct program *pr)
{
    countdown_by(pr, STRIDE);
}

static void test_tiny_programs_survive_every_allocation_failing_in_turn(void)
{
    for (size_t i = 0; i < sizeof tiny_programs / sizeof tiny_programs[0]; i++)
        countdown_by(&tiny_programs[i], 1);
}

static void test_tables_survive_every_allocation_failure(void)
{
    countdown(&programs[0]);
}
static void test_closures_survive_every_allocation_failure(void)
{
    countdown(&programs[1]);
}
static void test_strings_survive_every_allocation_failure(void)
{
    countdown(&programs[2]);
}
static void test_coroutines_survive_every_allocation_failure(void)
{
    countdown(&programs[3]);
}
static void test_metatables_survive_every_allocation_failure(void)
{
    countdown(&programs[4]);
}
static void test_errors_survive_every_allocation_failure(void)
{
    countdown(&programs[5]);
}
static void test_long_string_constants_survive_every_allocation_failure(void)
{
    countdown(&programs[6]);
}

static void test_binary_chunks_survive_every_allocation_failure(void)
{
    countdown(&programs[7]);
}

static int open_all(lua_State *L)
{
    luaL_openlibs(L);
    return 0;
}

/* The library openers themselves under the countdown: a state whose
 * libraries failed to open must still close cleanly. */
static void test_openlibs_survives_every_allocation_failure(void)
{
    for (uint32_t n = 1; n < MAX_POINTS; n += STRIDE) {
        lua_State *L = luaL_newstate();
        CHECK(L != NULL);
        arena_t *a = G(L)->arena;
        G(L)->failafter = n;
        lua_pushcfunction(L, open_all);
        int st = lua_pcall(L, 0, 0, 0);
        int reached = G(L)->failafter == 0;
        G(L)->failafter = 0;
        CHECK(gc_check(L, NULL) == 0);
        lua_close(L);
        CHECK_EQ(arena_in_use(a), 0);
        if (!reached) {
            CHECK_EQ(st, LUA_OK);
            return;
        }
    }
    CHECK(0);
}

static const struct check_case tiny_cases[] = {
    CASE(test_tiny_programs_survive_every_allocation_failing_in_turn),
};

static const struct check_case cases[] = {
    CASE(test_tiny_programs_survive_every_allocation_failing_in_turn),
    CASE(test_tables_survive_every_allocation_failure),
    CASE(test_closures_survive_every_allocation_failure),
    CASE(test_strings_survive_every_allocation_failure),
    CASE(test_coroutines_survive_every_allocation_failure),
    CASE(test_metatables_survive_every_allocation_failure),
    CASE(test_errors_survive_every_allocation_failure),
    CASE(test_long_string_constants_survive_every_allocation_failure),
    CASE(test_binary_chunks_survive_every_allocation_failure),
    CASE(test_openlibs_survives_every_allocation_failure),
};

/* Below this many bytes of arena the libraries leave no room for the
 * programs (microbit): only the tiny ones run. */
#define MIN_HEAP 12288

int main(void)
{
    void *heap;
    size_t bytes;
    port_heap(&heap, &bytes);
    if (bytes < MIN_HEAP) {
        port_printf("# lua: %u bytes of arena, the tiny programs only\n",
                    (unsigned)bytes);
        return check_main("lua", tiny_cases, CHECK_COUNT(tiny_cases));
    }
    return check_main("lua", cases, CHECK_COUNT(cases));
}
