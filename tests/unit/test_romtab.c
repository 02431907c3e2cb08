/*
 * test_romtab.c — ROM tables (docs/rom-tables.md): the library tables live in
 * flash, cost no arena after boot, and take writes into a RAM overlay
 * that the collector keeps as a root.
 *
 * Every case opens the one state with luaL_newstate and luaL_openlibs,
 * verifies the heap (gc_check) along the way, and closes it: the arena
 * must come back to zero and the next state must see the flash tables
 * as they were built.
 */
#include "gc/gc.h"
#include "include/lauxlib.h"
#include "include/lua.h"
#include "include/lualib.h"
#include "include/rtlua.h"
#include "romtab.h"
#include "tests/unit/check.h"
#include "vm/state.h"
#include "vm/tab.h"

#include <string.h>

/* The target: arena bytes in use after boot with every library
 * open, on a 32-bit board in the 32-bit model.  Other configurations
 * (16-byte values, 64-bit pointers) have bigger stacks and headers and
 * are held to the same figure plus what those cost. */
#define BOOT_TARGET_BYTES 2048u
#if RTLUA_NUM == 32 && UINTPTR_MAX == 0xFFFFFFFFu
#define BOOT_MAX_BYTES BOOT_TARGET_BYTES
#else
#define BOOT_MAX_BYTES (BOOT_TARGET_BYTES + 1024u)
#endif
/* Collector steps a case drives by hand, at most, to finish a cycle. */
#define STEPS_MAX 100000

static lua_State *L;

/* Arena the cases' scripts need beside the libraries (values are twice
 * as big in the 64-bit model); the smallest image (microbit in the 64-bit
 * model) has less and runs the boot case only. */
#if RTLUA_NUM == 64
#define SCRIPT_MIN_ARENA (12u * 1024u)
#else
#define SCRIPT_MIN_ARENA (8u * 1024u)
#endif

static int open_all(void)
{
    if (L != NULL) /* a case that failed left it open */
        lua_close(L);
    L = luaL_newstate();
    if (L == NULL)
        return 0;
    luaL_openlibs(L);
    return 1;
}

/* After open_all: close and say so when the arena is too small for the
 * case's scripts (the case then passes without running them). */
static int skip_small(void)
{
    size_t cap = arena_capacity(G(L)->arena);
    if (cap >= SCRIPT_MIN_ARENA)
        return 0;
    port_printf("# romtab: skipped, %u bytes of arena\n", (unsigned)cap);
    lua_close(L);
    L = NULL;
    return 1;
}

#define OPEN_FOR_SCRIPTS()                                                    \
    do {                                                                      \
        CHECK(open_all());                                                    \
        if (skip_small())                                                     \
            return;                                                           \
    } while (0)

static int heap_ok(void)
{
    const char *why = NULL;
    int rc = gc_check(L, &why);
    if (rc != 0)
        port_printf("  gc_check: %d %s\n", rc, why ? why : "");
    return rc == 0;
}

static int close_empty(void)
{
    arena_t *a = G(L)->arena;
    lua_close(L);
    L = NULL;
    return arena_in_use(a) == 0;
}

static int run(const char *code)
{
    if (luaL_dostring(L, code) == LUA_OK)
        return 1;
    port_printf("  %s\n", lua_tostring(L, -1));
    lua_pop(L, 1);
    return 0;
}

static void test_libraries_cost_no_arena_after_boot(void)
{
    CHECK(open_all());
    lua_gc(L, LUA_GCCOLLECT, 0);
    size_t used = arena_in_use(G(L)->arena);
    port_printf("# arena in use after boot with every library: %u bytes "
                "(target %u)\n",
                (unsigned)used, (unsigned)BOOT_TARGET_BYTES);
    CHECK(used <= BOOT_MAX_BYTES);
    CHECK(heap_ok());
    CHECK(close_empty());
}

static void test_globals_and_libraries_are_the_flash_tables(void)
{
    OPEN_FOR_SCRIPTS();
    CHECK(lua_getglobal(L, "math") == LUA_TTABLE);
    CHECK(lua_topointer(L, -1) == (const void *)&romtab_math);
    lua_pushglobaltable(L);
    CHECK(lua_topointer(L, -1) == (const void *)&romtab_G);
    CHECK(lua_getfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE) == LUA_TTABLE);
    CHECK(lua_topointer(L, -1) == (const void *)&romtab_loaded);
    lua_pop(L, 3);
    /* Nothing was written: no slot is on the collector's list. */
    CHECK(G(L)->romslots == NULL);
    CHECK(run("assert(math.floor(2.5) == 2 and ('x'):rep(3) == 'xxx')"));
    CHECK(G(L)->romslots == NULL);
    CHECK(close_empty());
}

/* Storing what a flash field holds (luaL_requiref of a standard library
 * does) changes nothing and costs nothing. */
static void test_storing_the_same_value_allocates_nothing(void)
{
    OPEN_FOR_SCRIPTS();
    size_t before = arena_in_use(G(L)->arena);
    luaL_requiref(L, LUA_STRLIBNAME, luaopen_string, 1);
    lua_pop(L, 1);
    lua_getglobal(L, "math");
    lua_getfield(L, -1, "floor");
    lua_setfield(L, -2, "floor");
    lua_pop(L, 1);
    CHECK(G(L)->romslots == NULL);
    CHECK_EQ(arena_in_use(G(L)->arena), before);
    CHECK(run("math.pi = 3; math.pi = 3; assert(math.pi == 3)"));
    CHECK(G(L)->romslots != NULL);
    CHECK(close_empty());
}

static void test_writes_go_to_the_overlay_and_are_seen_everywhere(void)
{
    OPEN_FOR_SCRIPTS();
    size_t before = arena_in_use(G(L)->arena);
    CHECK(run("string.trim = function(s) return (s:gsub('^%s+', '')) end\n"
              "math.pi = 3\n"
              "assert(('  a'):trim() == 'a' and math.pi == 3)\n"
              "assert(rawget(math, 'pi') == 3 and rawget(string, 'trim'))"));
    CHECK(arena_in_use(G(L)->arena) > before);
    /* Through the C API too, and the flash node still says pi. */
    lua_getglobal(L, "math");
    lua_getfield(L, -1, "pi");
    CHECK(lua_tonumber(L, -1) == 3);
    lua_pop(L, 2);
    const tvalue *flash = NULL;
    for (uint32_t i = 0; i < 1u << romtab_math.lsizenode; i++) {
        const node *n = &romtab_math.node[i];
        if (node_keytt(n) == V_SHRSTR &&
            strcmp(str_data(gco2str(n->key_val.gc)), "pi") == 0)
            flash = &n->val;
    }
    CHECK(flash != NULL && is_flt(flash) && flash->v.n > (rt_num)3.14);
    CHECK(heap_ok());
    CHECK(close_empty());
}

/* The overlays are roots: several whole cycles, stepped by hand with the
 * heap checked after every step, keep everything written. */
static void test_overlays_survive_collections(void)
{
    OPEN_FOR_SCRIPTS();
    lua_gc(L, LUA_GCSTOP, 0);
    CHECK(run("os.saved = {}\n"
              "for i = 1, 20 do os.saved[i] = {i} end\n"
              "table.first = table.insert\n"
              "_G.keep = 'kept'\n"
              "setmetatable(coroutine, {__index = function() return 7 end})"));
    for (int cycle = 0; cycle < 3; cycle++) {
        uint32_t done = G(L)->stats.cycles_completed;
        int steps = 0;
        /* a cycle is due (the script's allocations alone need not make
         * one: the pause counts what stock Lua's libraries hold, gc.h's
         * GC_PAUSE_EXTRA) */
        G(L)->gcestimate = 0;
        while (G(L)->stats.cycles_completed == done && steps++ < STEPS_MAX) {
            gc_step(L, 1);
            CHECK(heap_ok());
        }
        CHECK(steps < STEPS_MAX);
        CHECK(run("for i = 1, 20 do assert(os.saved[i][1] == i) end\n"
                  "assert(table.first == table.insert and keep == 'kept')\n"
                  "assert(coroutine.anything == 7)\n"
                  "local junk = {} for i = 1, 40 do junk[i] = {} end"));
    }
    CHECK(close_empty());
}

/* An overlay made while the collector is marking is white and reachable
 * only from its slot: atomic must mark it (roots again). */
static void test_overlay_made_while_marking_survives(void)
{
    OPEN_FOR_SCRIPTS();
    lua_gc(L, LUA_GCSTOP, 0);
    global_State *g = G(L);
    int steps = 0;
    while (g->gcphase != GC_PROPAGATE && steps++ < STEPS_MAX) {
        g->gcestimate = 0; /* a cycle is due, whatever the heap holds */
        gc_step(L, 1);
    }
    CHECK(g->gcphase == GC_PROPAGATE);
    CHECK(run("utf8.fresh = {answer = 42}"));
    CHECK(heap_ok());
    uint32_t done = g->stats.cycles_completed;
    steps = 0;
    while (g->stats.cycles_completed < done + 2 && steps++ < STEPS_MAX) {
        gc_step(L, 1);
        CHECK(heap_ok());
    }
    CHECK(run("assert(utf8.fresh.answer == 42)"));
    CHECK(close_empty());
}

/* A ROM table is black for ever: a store into its slot in the pause must
 * not leave the value gray on a gray list that the next cycle drops. */
static void test_metatable_set_in_the_pause_survives(void)
{
    OPEN_FOR_SCRIPTS();
    lua_gc(L, LUA_GCSTOP, 0);
    lua_gc(L, LUA_GCCOLLECT, 0);
    global_State *g = G(L);
    CHECK(g->gcphase == GC_PAUSE);
    CHECK(run("setmetatable(_G, {__index = function(_, k) return k .. '!' "
              "end})"));
    CHECK(g->gcphase == GC_PAUSE);
    lua_gc(L, LUA_GCCOLLECT, 0); /* a whole cycle from the pause */
    CHECK(heap_ok());
    CHECK(run("local junk = {} for i = 1, 20 do junk[i] = function() end "
              "end\n"
              "assert(undefined_x == 'undefined_x!')"));
    CHECK(close_empty());
}

static void test_close_empties_the_slots_for_the_next_state(void)
{
    OPEN_FOR_SCRIPTS();
    CHECK(run("string.extra = 1; math.pi = nil; setmetatable(_G, {})"));
    CHECK(G(L)->romslots != NULL);
    CHECK(close_empty());
    CHECK(open_all());
    CHECK(G(L)->romslots == NULL);
    CHECK(run("assert(string.extra == nil and math.pi > 3)\n"
              "assert(getmetatable(_G) == nil)"));
    CHECK(close_empty());
}

/* Every allocation of `code` fails in turn (compiling it included): a
 * memory error each time, `check` still true (the table unchanged), the
 * heap sound; at last it runs. */
static int fails_cleanly(const char *code, const char *check)
{
    for (uint32_t n = 1; n < 256; n++) {
        G(L)->failafter = n;
        int st = luaL_dostring(L, code);
        G(L)->failafter = 0;
        if (st == LUA_OK)
            return 1;
        if (strstr(lua_tostring(L, -1), "not enough memory") == NULL) {
            port_printf("  %s\n", lua_tostring(L, -1));
            return 0;
        }
        lua_pop(L, 1);
        if (!heap_ok() || !run(check))
            return 0;
    }
    return 0;
}

static void test_overlay_writes_fail_cleanly_at_every_allocation(void)
{
    OPEN_FOR_SCRIPTS();
    CHECK(fails_cleanly("table.newfield = {1}", "assert(not table.newfield)"));
    CHECK(fails_cleanly("table.concat = nil", "assert(table.concat)"));
    CHECK(
        fails_cleanly("setmetatable(table, {__index = {}})", "assert(true)"));
    CHECK(run("assert(table.newfield[1] == 1 and table.concat == nil)"));
    CHECK(heap_ok());
    CHECK(close_empty());
}

static const struct check_case cases[] = {
    CASE(test_libraries_cost_no_arena_after_boot),
    CASE(test_globals_and_libraries_are_the_flash_tables),
    CASE(test_storing_the_same_value_allocates_nothing),
    CASE(test_writes_go_to_the_overlay_and_are_seen_everywhere),
    CASE(test_overlays_survive_collections),
    CASE(test_overlay_made_while_marking_survives),
    CASE(test_metatable_set_in_the_pause_survives),
    CASE(test_close_empties_the_slots_for_the_next_state),
    CASE(test_overlay_writes_fail_cleanly_at_every_allocation),
};

int main(void)
{
    return check_main("romtab", cases, CHECK_COUNT(cases));
}
