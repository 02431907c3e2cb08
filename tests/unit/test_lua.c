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

/* Failure points tried on the boards: every STRIDE-th (time). */
#ifdef RTLUA_HOST
#define STRIDE 1
#else
#define STRIDE 7
#endif
/* A program needing more allocations than this is a test bug. */
#define MAX_POINTS 20000

static void countdown(const struct program *pr)
{
    char out[64];
    int ran_out = 1, heap_ok, freed_all, st;
    uint32_t n;
    for (n = 1; n < MAX_POINTS; n += STRIDE) {
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
    st = run_once(pr, 0, &ran_out, out, sizeof out, &heap_ok, &freed_all);
    CHECK_EQ(st, LUA_OK);
    if (strcmp(out, pr->result) != 0)
        port_printf("  %s gave '%s', expected '%s'\n", pr->name, out,
                    pr->result);
    CHECK(strcmp(out, pr->result) == 0);
    CHECK(heap_ok && freed_all);
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

static const struct check_case cases[] = {
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
 * programs (microbit in the 64-bit model): the suite has nothing to run. */
#define MIN_HEAP 12288

int main(void)
{
    void *heap;
    size_t bytes;
    port_heap(&heap, &bytes);
    if (bytes < MIN_HEAP) {
        port_printf("# lua: skipped, %u bytes of arena\n", (unsigned)bytes);
        return 0;
    }
    return check_main("lua", cases, CHECK_COUNT(cases));
}
