/*
 * test_do.c — calls, errors, protected calls, stack growth, to-be-closed
 * variables, coroutines and the debug API, driven from C (vm/do.c,
 * vm/debug.c).  Every case checks the heap (gc_check) and ends with the
 * arena empty after state_close.
 */
#include "gc/gc.h"
#include "include/lauxlib.h"
#include "include/lua.h"
#include "include/lualib.h"
#include "tests/unit/check.h"
#include "vm/debug.h"
#include "vm/do.h"
#include "vm/str.h"

#include <string.h>

/* Cases that nest C calls up to LUAI_MAXCCALLS (and the overflow
 * handler's extra levels) need about 230 bytes of C stack a level on
 * Cortex-M: the boards with small stacks skip them. */
#if defined(RTLUA_HOST) || BOARD_STACK_BYTES >= 32768
#define DEEP_C_OK 1
#else
#define DEEP_C_OK 0
#endif

static void *mem;
static size_t membytes;
static lua_State *L;

static int open_state(void)
{
    if (L != NULL) /* a failed case left its state open */
        state_close(L);
    port_heap(&mem, &membytes);
    L = state_open_in(mem, membytes);
    return L != NULL;
}

static int checked(void)
{
    const char *why = NULL;
    int r = gc_check(L, &why);
    if (r != 0)
        port_printf("  gc_check: %d %s\n", r, why ? why : "");
    return r == 0;
}

static int close_state_empty(void)
{
    arena_t *a = G(L)->arena;
    state_close(L);
    L = NULL;
    return arena_in_use(a) == 0;
}

/* The string at the top (or ""). */
static const char *topstr(lua_State *L1)
{
    const tvalue *o = L1->top - 1;
    return is_str(o) ? str_data(gco2str(gc_of(o))) : "";
}

/* ---- errors and protected calls ----------------------------------------- */

static void raise_boom(lua_State *L1, void *ud)
{
    (void)ud;
    do_pushfstring(L1, "boom %d", 42);
    do_throw(L1, LUA_ERRRUN);
}

static void test_throw_is_caught_and_state_restored(void)
{
    CHECK(open_state());
    CallInfo *ci = L->ci;
    uint32_t ncalls = L->nCcalls;
    ptrdiff_t top = do_savestack(L, L->top);
    int st = do_pcall(L, raise_boom, NULL, top, 0);
    CHECK_EQ(st, LUA_ERRRUN);
    CHECK(L->ci == ci);
    CHECK(L->nCcalls == ncalls);
    CHECK(L->top == do_restorestack(L, top) + 1);
    CHECK(strcmp(topstr(L), "boom 42") == 0);
    L->top--;
    CHECK(checked());
    CHECK(close_state_empty());
}

static void raise_mem(lua_State *L1, void *ud)
{
    (void)ud;
    do_memerror(L1);
}

static void test_memory_error_carries_the_premade_message(void)
{
    CHECK(open_state());
    ptrdiff_t top = do_savestack(L, L->top);
    CHECK_EQ(do_pcall(L, raise_mem, NULL, top, 0), LUA_ERRMEM);
    CHECK(gc_of(L->top - 1) == obj2gc(G(L)->memerrmsg));
    CHECK(strcmp(topstr(L), "not enough memory") == 0);
    L->top--;
    CHECK(close_state_empty());
}

static int c_error(lua_State *L1)
{
    lua_pushstring(L1, "inner");
    return lua_error(L1);
}

static int c_handler(lua_State *L1)
{
    lua_pushstring(L1, "<");
    lua_pushvalue(L1, 1);
    lua_pushstring(L1, ">");
    lua_concat(L1, 3);
    return 1;
}

static int c_bad_handler(lua_State *L1)
{
    lua_pushstring(L1, "handler fails");
    return lua_error(L1);
}

/* A pcall inside a pcall: each handler sees only its own errors. */
static int c_nested(lua_State *L1)
{
    lua_pushcfunction(L1, c_handler);
    lua_pushcfunction(L1, c_error);
    int st = lua_pcall(L1, 0, 0, -2);
    if (st != LUA_ERRRUN || strcmp(lua_tostring(L1, -1), "<inner>") != 0)
        return 0;
    lua_pushstring(L1, "outer");
    return lua_error(L1);
}

static void test_nested_pcalls_with_message_handlers(void)
{
    CHECK(open_state());
    int base = lua_gettop(L);
    lua_pushcfunction(L, c_handler);
    lua_pushcfunction(L, c_nested);
    CHECK_EQ(lua_pcall(L, 0, 0, base + 1), LUA_ERRRUN);
    CHECK(strcmp(lua_tostring(L, -1), "<outer>") == 0);
    lua_settop(L, base);
#if DEEP_C_OK
    lua_pushcfunction(L, c_bad_handler);
    lua_pushcfunction(L, c_error);
    CHECK_EQ(lua_pcall(L, 0, 0, base + 1), LUA_ERRERR);
    CHECK(strcmp(lua_tostring(L, -1), "error in error handling") == 0);
    lua_settop(L, base);
#endif
    CHECK(L->ci == L->base_ci);
    CHECK(checked());
    CHECK(close_state_empty());
}

/* ---- stack and C stack -------------------------------------------------- */

static int c_grow(lua_State *L1)
{
    /* A pointer held as an offset survives the stack moving. */
    ptrdiff_t func = do_savestack(L1, L1->ci->func);
    tvalue *old = L1->stack;
    lua_pushinteger(L1, 7);
    int n = (int)(membytes / sizeof(tvalue) / 8); /* fits the arena */
    if (n > 5000)
        n = 5000;
    if (!lua_checkstack(L1, n + 1))
        return 0;
    for (int i = 0; i < n; i++)
        lua_pushinteger(L1, i);
    if (L1->stack == old) /* it must have moved for the test to mean much */
        return 0;
    if (do_restorestack(L1, func) != L1->ci->func)
        return 0;
    lua_pushboolean(L1, lua_tointeger(L1, 1) == 7 &&
                            lua_tointeger(L1, -1) == n - 1);
    return 1;
}

static void test_stack_growth_moves_frames_and_keeps_values(void)
{
    CHECK(open_state());
    lua_pushcfunction(L, c_grow);
    CHECK_EQ(lua_pcall(L, 0, 1, 0), LUA_OK);
    CHECK(lua_toboolean(L, -1));
    lua_pop(L, 1);
    CHECK(checked());
    CHECK(close_state_empty());
}

/* A stack whose doubled block does not fit (a fragmented arena, even
 * after the emergency collection) grows to what it needs instead: the
 * holes are 1.5 times the stack. */
#define GROW_SLOTS 20

static void test_stack_grows_to_its_need_when_doubling_does_not_fit(void)
{
    CHECK(open_state());
    CHECK(lua_checkstack(L, GROW_SLOTS));
    int base = lua_gettop(L);
    lua_pushinteger(L, 42);
    uint32_t size = L->stacksize;
    check_frag f;
    int holes = check_fragment(&f, G(L)->arena, sizeof(tvalue) * size * 3 / 2);
    int fragmented =
        arena_largest_alloc(G(L)->arena) < 2 * sizeof(tvalue) * size;
    int more = (int)size - (int)(L->top - L->stack) + 8;
    int grew = holes > 0 && fragmented && lua_checkstack(L, more);
    uint32_t after = L->stacksize;
    check_unfragment(&f);
    CHECK(holes > 0);
    CHECK(fragmented);
    CHECK(grew);
    CHECK(after > size && after < 2 * size);
    CHECK_EQ(lua_tointeger(L, base + 1), 42);
    lua_settop(L, 0);
    CHECK(checked());
    CHECK(close_state_empty());
}

#ifdef RTLUA_HOST
static int c_overflow(lua_State *L1)
{
    for (int i = 0; i < 100000; i++) { /* until "stack overflow" */
        do_checkstack(L1, 1000);
        L1->top += 1000;
        for (tvalue *p = L1->top - 1000; p < L1->top; p++)
            set_nil(p);
        L1->ci->top = L1->top;
    }
    return 0;
}

static void test_stack_overflow_is_an_error_and_shrinks_back(void)
{
    CHECK(open_state());
    if ((size_t)LUAI_MAXSTACK * sizeof(tvalue) * 2 > membytes) {
        /* The arena is smaller than the limit: a memory error instead. */
        lua_pushcfunction(L, c_overflow);
        int st = lua_pcall(L, 0, 0, 0);
        CHECK(st == LUA_ERRMEM || st == LUA_ERRRUN);
    } else {
        lua_pushcfunction(L, c_overflow);
        CHECK_EQ(lua_pcall(L, 0, 0, 0), LUA_ERRRUN);
        CHECK(strcmp(lua_tostring(L, -1), "stack overflow") == 0);
        CHECK(L->stacksize <= LUAI_MAXSTACK);
    }
    lua_pop(L, 1);
    CHECK(checked());
    CHECK(close_state_empty());
}
#endif

static int c_recurse(lua_State *L1)
{
    lua_pushcfunction(L1, c_recurse);
    lua_call(L1, 0, 0);
    return 0;
}

static void test_c_stack_overflow_is_an_error(void)
{
    CHECK(open_state());
    uint32_t ncalls = L->nCcalls;
    lua_pushcfunction(L, c_recurse);
    CHECK_EQ(lua_pcall(L, 0, 0, 0), LUA_ERRRUN);
    CHECK(strcmp(lua_tostring(L, -1), "C stack overflow") == 0);
    CHECK(L->nCcalls == ncalls);
    lua_pop(L, 1);
    /* The records of the deep calls were counted, then given back. */
    CHECK(checked());
    CHECK(L->nci == 1);
    CHECK(close_state_empty());
}

/* A C recursion as deep as its argument, self calling itself: 1 at the
 * bottom, where L1->nci (the records in use) is pushed; 0 above it,
 * where the result of the call below is on the stack. */
static int records_below(lua_State *L1, lua_CFunction self)
{
    int depth = (int)lua_tointeger(L1, 1);
    if (depth > 0) {
        lua_pushcfunction(L1, self);
        lua_pushinteger(L1, depth - 1);
        lua_call(L1, 1, 1);
        return 0;
    }
    lua_pushinteger(L1, L1->nci);
    return 1;
}

static int c_count_records(lua_State *L1)
{
    if (!records_below(L1, c_count_records))
        return 1;
    const char *why;
    if (gc_check(L1, &why) != 0) /* records are in the accounting */
        lua_pushnil(L1);
    return 1;
}

static void test_callinfo_records_are_accounted_and_reused(void)
{
    CHECK(open_state());
    int depth = DEEP_C_OK ? 50 : 8;
    lua_pushcfunction(L, c_count_records);
    lua_pushinteger(L, depth);
    lua_call(L, 1, 1);
    CHECK(lua_tointeger(L, -1) >= depth + 2);
    lua_pop(L, 1);
    uint32_t n = L->nci;
    lua_pushcfunction(L, c_count_records);
    lua_pushinteger(L, depth);
    lua_call(L, 1, 1);
    CHECK(L->nci == n); /* reused, not allocated again */
    lua_pop(L, 1);
    CHECK(checked());
    CHECK(close_state_empty());
}

/* A call that needs a new block of records when the arena holds no block
 * of the size wanted, even after the emergency collection (a small or
 * fragmented arena), gets a smaller one: the holes hold 8 records, the
 * block at depth 10 wants 10 (before, a memory error at that depth).
 * The stack is reserved first: the nested calls use it, and no stack
 * growth needs a block the holes cannot give. */
#define CI_HOLE_RECORDS 8
#define CI_DEPTH (DEEP_C_OK ? 30 : 12)

/* c_count_records without the heap check: the holes' blocks are the
 * test's, which gc_check does not count. */
static int c_records(lua_State *L1)
{
    records_below(L1, c_records);
    return 1;
}

static int c_deep_in_holes(lua_State *L1)
{
    if (!lua_checkstack(L1, (CI_DEPTH + 4) * (LUA_MINSTACK + 4)))
        return 0;
    check_frag f;
    int holes = check_fragment(&f, G(L1)->arena,
                               offsetof(CallInfoBlock, ci) +
                                   sizeof(CallInfo) * CI_HOLE_RECORDS);
    uint32_t before = L1->nci;
    lua_pushcfunction(L1, c_records);
    lua_pushinteger(L1, CI_DEPTH);
    int status = lua_pcall(L1, 1, 1, 0);
    int records = status == LUA_OK ? (int)lua_tointeger(L1, -1) : -1;
    check_unfragment(&f);
    lua_pushboolean(L1, holes > 0 && before < 10 && status == LUA_OK &&
                            records >= CI_DEPTH + 2);
    return 1;
}

/* The stack reserved first takes (CI_DEPTH + 4) * (LUA_MINSTACK + 4)
 * slots: some 3 KiB (6 KiB with 64-bit numbers), more than a 16 KiB
 * board's arena holds beside the state; there the case does not apply. */
#define CI_MIN_ARENA (12u * 1024u)

static void test_callinfo_block_shrinks_to_fit_a_fragmented_arena(void)
{
    CHECK(open_state());
    if (arena_capacity(G(L)->arena) < CI_MIN_ARENA) {
        port_printf("  (arena too small for the reserved stack)\n");
        CHECK(close_state_empty());
        return;
    }
    lua_pushcfunction(L, c_deep_in_holes);
    CHECK_EQ(lua_pcall(L, 0, 1, 0), LUA_OK);
    CHECK(lua_toboolean(L, -1));
    lua_pop(L, 1);
    CHECK(checked());
    CHECK(close_state_empty());
}

/* ---- formatting --------------------------------------------------------- */

static void test_pushfstring_formats_like_lua(void)
{
    CHECK(open_state());
    do_pushfstring(L, "%s|%d|%I|%f|%c|%%|%U", "ab", -3, (LUAI_UACINT)1234567,
                   (LUAI_UACNUMBER)1.5, 'z', 0x20AC);
    CHECK(strcmp(topstr(L), "ab|-3|1234567|1.5|z|%|\xE2\x82\xAC") == 0);
    L->top--;
    do_pushfstring(L, "%f %f", (LUAI_UACNUMBER)2.0, (LUAI_UACNUMBER)1e100);
#if RTLUA_NUM == 64
    CHECK(strcmp(topstr(L), "2.0 1e+100") == 0);
#endif
    L->top--;
    /* Long results are built from pieces. */
    char big[300];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    do_pushfstring(L, "[%s][%s]", big, big);
    CHECK(str_len(gco2str(gc_of(L->top - 1))) == 2 * 299 + 4);
    L->top--;
    do_pushfstring(L, "%p", (void *)0);
    CHECK(strcmp(topstr(L), "(nil)") == 0);
    L->top--;
    CHECK(checked());
    CHECK(close_state_empty());
}

static void test_chunkid_as_the_reference(void)
{
    char out[LUA_IDSIZE];
    dbg_chunkid(out, "=stdin", 6);
    CHECK(strcmp(out, "stdin") == 0);
    dbg_chunkid(out, "@file.lua", 9);
    CHECK(strcmp(out, "file.lua") == 0);
    dbg_chunkid(out, "x = 1", 5);
    CHECK(strcmp(out, "[string \"x = 1\"]") == 0);
    dbg_chunkid(out, "a\nb", 3);
    CHECK(strcmp(out, "[string \"a...\"]") == 0);
    const char *longsrc = "@/a/very/long/path/that/does/not/fit/in/the/"
                          "sixty/bytes/of/an/id/file.lua";
    dbg_chunkid(out, longsrc, strlen(longsrc));
    CHECK(strlen(out) == LUA_IDSIZE - 1 && strncmp(out, "...", 3) == 0);
    CHECK(strcmp(out + strlen(out) - 8, "file.lua") == 0);
}

/* ---- to-be-closed variables --------------------------------------------- */

static char closelog[64];

static int c_close(lua_State *L1)
{
    /* __close(obj, err): log obj's tag and whether err is nil. */
    size_t n = strlen(closelog);
    lua_getfield(L1, 1, "tag");
    const char *t = lua_tostring(L1, -1);
    closelog[n] = t ? t[0] : '?';
    closelog[n + 1] = lua_isnil(L1, 2) ? '.' : 'e';
    closelog[n + 2] = '\0';
    if (t && t[0] == 'X') {
        lua_pushstring(L1, "close failed");
        return lua_error(L1);
    }
    return 0;
}

static void push_closable(lua_State *L1, const char *tag)
{
    lua_newtable(L1);
    lua_pushstring(L1, tag);
    lua_setfield(L1, -2, "tag");
    lua_newtable(L1);
    lua_pushcfunction(L1, c_close);
    lua_setfield(L1, -2, "__close");
    lua_setmetatable(L1, -2);
}

static int c_with_tbc(lua_State *L1)
{
    push_closable(L1, "a");
    lua_toclose(L1, -1);
    push_closable(L1, lua_toboolean(L1, 1) ? "X" : "b");
    lua_toclose(L1, -1);
    push_closable(L1, "c");
    lua_toclose(L1, -1);
    if (lua_toboolean(L1, 2)) {
        lua_pushstring(L1, "body failed");
        return lua_error(L1);
    }
    lua_pushinteger(L1, 5);
    return 1;
}

static void test_tbc_close_in_reverse_order_at_return(void)
{
    CHECK(open_state());
    closelog[0] = '\0';
    lua_pushcfunction(L, c_with_tbc);
    lua_pushboolean(L, 0);
    lua_pushboolean(L, 0);
    lua_call(L, 2, 1);
    CHECK(strcmp(closelog, "c.b.a.") == 0);
    CHECK(lua_tointeger(L, -1) == 5);
    CHECK(L->tbclist == NULL);
    lua_pop(L, 1);
    CHECK(checked());
    CHECK(close_state_empty());
}

static void test_tbc_error_passes_error_and_close_error_replaces(void)
{
    CHECK(open_state());
    closelog[0] = '\0';
    lua_pushcfunction(L, c_with_tbc);
    lua_pushboolean(L, 0);
    lua_pushboolean(L, 1);
    CHECK_EQ(lua_pcall(L, 2, 0, 0), LUA_ERRRUN);
    CHECK(strcmp(closelog, "cebeae") == 0);
    CHECK(strcmp(lua_tostring(L, -1), "body failed") == 0);
    lua_pop(L, 1);
    closelog[0] = '\0';
    lua_pushcfunction(L, c_with_tbc);
    lua_pushboolean(L, 1);
    lua_pushboolean(L, 1);
    CHECK_EQ(lua_pcall(L, 2, 0, 0), LUA_ERRRUN);
    CHECK(strcmp(closelog, "ceXeae") == 0);
    CHECK(strcmp(lua_tostring(L, -1), "close failed") == 0);
    lua_pop(L, 1);
    CHECK(L->tbclist == NULL);
    CHECK(checked());
    CHECK(close_state_empty());
}

static int c_tbc_nonclosable(lua_State *L1)
{
    lua_pushinteger(L1, 1);
    lua_toclose(L1, -1);
    return 0;
}

static void test_tbc_rejects_a_value_without_close(void)
{
    CHECK(open_state());
    lua_pushcfunction(L, c_tbc_nonclosable);
    CHECK_EQ(lua_pcall(L, 0, 0, 0), LUA_ERRRUN);
    CHECK(strcmp(lua_tostring(L, -1),
                 "variable '?' got a non-closable value") == 0);
    lua_pop(L, 1);
    CHECK(close_state_empty());
}

/* ---- coroutines --------------------------------------------------------- */

static int c_yield_twice(lua_State *L1)
{
    lua_pushinteger(L1, 1);
    lua_pushinteger(L1, 2);
    return lua_yield(L1, 2);
}

static void test_coroutine_yields_and_finishes(void)
{
    CHECK(open_state());
    lua_State *co = lua_newthread(L); /* anchored on L's stack */
    lua_pushcfunction(co, c_yield_twice);
    int nres = -1;
    CHECK_EQ(lua_resume(co, L, 0, &nres), LUA_YIELD);
    CHECK_EQ(nres, 2);
    CHECK_EQ(lua_status(co), LUA_YIELD);
    CHECK(lua_tointeger(co, -2) == 1 && lua_tointeger(co, -1) == 2);
    lua_pop(co, 2);
    lua_pushstring(co, "resumed");
    CHECK_EQ(lua_resume(co, L, 1, &nres), LUA_OK);
    CHECK_EQ(nres, 1); /* the yield's "results" are the resume's args */
    CHECK(strcmp(lua_tostring(co, -1), "resumed") == 0);
    lua_pop(co, 1);
    CHECK_EQ(lua_resume(co, L, 0, &nres), LUA_ERRRUN);
    CHECK(strcmp(lua_tostring(co, -1), "cannot resume dead coroutine") == 0);
    lua_pop(L, 1);
    gc_fullgc(L);
    CHECK(checked());
    CHECK(close_state_empty());
}

static int k_after_yield(lua_State *L1, int status, lua_KContext ctx)
{
    lua_pushinteger(L1, status == LUA_YIELD ? (lua_Integer)ctx : -1);
    return lua_gettop(L1);
}

static int c_yieldk(lua_State *L1)
{
    lua_pushstring(L1, "out");
    return lua_yieldk(L1, 1, 77, k_after_yield);
}

static void test_yield_in_c_function_with_continuation(void)
{
    CHECK(open_state());
    lua_State *co = lua_newthread(L);
    lua_pushcfunction(co, c_yieldk);
    lua_pushinteger(co, 10); /* an argument */
    int nres;
    CHECK_EQ(lua_resume(co, L, 1, &nres), LUA_YIELD);
    CHECK_EQ(nres, 1);
    CHECK(strcmp(lua_tostring(co, -1), "out") == 0);
    lua_pop(co, 1);
    CHECK_EQ(lua_resume(co, L, 0, &nres), LUA_OK);
    /* The continuation saw its argument and the context. */
    CHECK_EQ(nres, 2);
    CHECK(lua_tointeger(co, -2) == 10 && lua_tointeger(co, -1) == 77);
    lua_pop(L, 1);
    CHECK(checked());
    CHECK(close_state_empty());
}

static int k_fail_after_resume(lua_State *L1, int status, lua_KContext ctx)
{
    (void)status;
    (void)ctx;
    lua_pushstring(L1, "late failure");
    return lua_error(L1);
}

static int c_yield_then_fail(lua_State *L1)
{
    return lua_yieldk(L1, 0, 0, k_fail_after_resume);
}

static int k_pcall_done(lua_State *L1, int status, lua_KContext ctx)
{
    /* After recovery: the error object is on the top. */
    lua_pushinteger(L1, status);
    lua_pushinteger(L1, (lua_Integer)ctx);
    return 3;
}

static int c_pcallk_body(lua_State *L1)
{
    lua_pushcfunction(L1, c_yield_then_fail);
    int st = lua_pcallk(L1, 0, 0, 0, 5, k_pcall_done);
    return k_pcall_done(L1, st, 5); /* not reached when it yields */
}

static void test_error_after_yield_recovers_at_pcallk(void)
{
    CHECK(open_state());
    lua_State *co = lua_newthread(L);
    lua_pushcfunction(co, c_pcallk_body);
    int nres;
    CHECK_EQ(lua_resume(co, L, 0, &nres), LUA_YIELD);
    CHECK_EQ(nres, 0);
    CHECK_EQ(lua_resume(co, L, 0, &nres), LUA_OK);
    CHECK_EQ(nres, 3);
    CHECK(strcmp(lua_tostring(co, -3), "late failure") == 0);
    CHECK(lua_tointeger(co, -2) == LUA_ERRRUN);
    CHECK(lua_tointeger(co, -1) == 5);
    lua_pop(L, 1);
    CHECK(checked());
    CHECK(close_state_empty());
}

static int c_call_yielder(lua_State *L1)
{
    lua_pushcfunction(L1, c_yield_twice);
    lua_call(L1, 0, 0); /* no continuation: cannot yield */
    return 0;
}

static void test_yield_across_c_call_and_outside_coroutine_fail(void)
{
    CHECK(open_state());
    lua_State *co = lua_newthread(L);
    lua_pushcfunction(co, c_call_yielder);
    int nres;
    CHECK_EQ(lua_resume(co, L, 0, &nres), LUA_ERRRUN);
    CHECK(strcmp(lua_tostring(co, -1),
                 "attempt to yield across a C-call boundary") == 0);
    CHECK_EQ(lua_status(co), LUA_ERRRUN);
    CHECK_EQ(lua_closethread(co, L), LUA_ERRRUN);
    CHECK_EQ(lua_status(co), LUA_OK);
    lua_pop(L, 1);
    lua_pushcfunction(L, c_yield_twice);
    CHECK_EQ(lua_pcall(L, 0, 0, 0), LUA_ERRRUN);
    CHECK(strcmp(lua_tostring(L, -1),
                 "attempt to yield from outside a coroutine") == 0);
    lua_pop(L, 1);
    CHECK(!lua_isyieldable(L));
    CHECK(checked());
    CHECK(close_state_empty());
}

static int c_close_yields(lua_State *L1)
{
    return lua_yield(L1, 0);
}

/* Mark argument 1 (a table whose __close yields) to be closed, then close
 * it by lua_settop (argument 2 false) or lua_closeslot: C code without a
 * continuation, so the yield must fail. */
static int c_close_from_c(lua_State *L1)
{
    int byslot = lua_toboolean(L1, 2);
    lua_settop(L1, 1);
    lua_toclose(L1, 1);
    if (byslot)
        lua_closeslot(L1, 1);
    else
        lua_settop(L1, 0);
    lua_pushstring(L1, "not reached");
    return 1;
}

static void test_close_from_c_cannot_yield(void)
{
    CHECK(open_state());
    for (int byslot = 0; byslot < 2; byslot++) {
        lua_State *co = lua_newthread(L);
        lua_pushcfunction(co, c_close_from_c);
        lua_newtable(co);
        lua_newtable(co);
        lua_pushcfunction(co, c_close_yields);
        lua_setfield(co, -2, "__close");
        lua_setmetatable(co, -2);
        lua_pushboolean(co, byslot);
        int nres;
        CHECK_EQ(lua_resume(co, L, 2, &nres), LUA_ERRRUN);
        CHECK(lua_isstring(co, -1) &&
              strcmp(lua_tostring(co, -1),
                     "attempt to yield across a C-call boundary") == 0);
        CHECK_EQ(lua_closethread(co, L), LUA_ERRRUN);
        lua_pop(L, 1);
    }
    CHECK(checked());
    CHECK(close_state_empty());
}

static int c_resume_self(lua_State *L1)
{
    int nres;
    lua_pushcfunction(L1, c_resume_self);
    return lua_resume(L1, L1, 0, &nres) == LUA_ERRRUN ? 1 : 0;
}

static int c_nested_resume(lua_State *L1)
{
    lua_State *co = lua_newthread(L1);
    lua_pushcfunction(co, c_nested_resume);
    int nres;
    int st = lua_resume(co, L1, 0, &nres);
    if (st != LUA_OK) {
        lua_xmove(co, L1, 1); /* pass the error up */
        return lua_error(L1);
    }
    return 0;
}

static void test_resume_errors_running_and_deep_chains(void)
{
    CHECK(open_state());
    lua_State *co = lua_newthread(L);
    lua_pushcfunction(co, c_resume_self);
    int nres;
    CHECK_EQ(lua_resume(co, L, 0, &nres), LUA_OK);
    CHECK(strcmp(lua_tostring(co, -1),
                 "cannot resume non-suspended coroutine") == 0);
    lua_pop(L, 1);
    lua_pushcfunction(L, c_nested_resume);
    CHECK_EQ(lua_pcall(L, 0, 0, 0), LUA_ERRRUN);
    CHECK(strcmp(lua_tostring(L, -1), "C stack overflow") == 0);
    lua_pop(L, 1);
    gc_fullgc(L);
    CHECK(checked());
    CHECK(close_state_empty());
}

/* ---- debug API ---------------------------------------------------------- */

static int c_inspect(lua_State *L1)
{
    lua_Debug ar;
    if (!lua_getstack(L1, 0, &ar) || lua_getstack(L1, 5, &ar))
        return 0;
    lua_getstack(L1, 0, &ar);
    if (!lua_getinfo(L1, "Slntu", &ar))
        return 0;
    int ok = strcmp(ar.what, "C") == 0 && strcmp(ar.short_src, "[C]") == 0 &&
             ar.currentline == -1 && ar.isvararg && ar.nparams == 0;
    const char *name = lua_getlocal(L1, &ar, 1);
    ok = ok && name && strcmp(name, "(C temporary)") == 0 &&
         lua_tointeger(L1, -1) == 9;
    lua_pushboolean(L1, ok);
    return 1;
}

static void test_getinfo_of_a_c_function(void)
{
    CHECK(open_state());
    lua_pushcfunction(L, c_inspect);
    lua_pushinteger(L, 9);
    lua_call(L, 1, 1);
    CHECK(lua_toboolean(L, -1));
    lua_pop(L, 1);
    CHECK(close_state_empty());
}

static int hook_calls;
static void count_hook(lua_State *L1, lua_Debug *ar)
{
    (void)L1;
    if (ar->event == LUA_HOOKCALL)
        hook_calls++;
}

static int c_nothing(lua_State *L1)
{
    (void)L1;
    return 0;
}

static void test_call_hook_sees_c_calls(void)
{
    CHECK(open_state());
    hook_calls = 0;
    lua_sethook(L, count_hook, LUA_MASKCALL, 0);
    CHECK(lua_gethookmask(L) == LUA_MASKCALL && lua_gethook(L) == count_hook);
    lua_pushcfunction(L, c_nothing);
    lua_call(L, 0, 0);
    lua_sethook(L, NULL, 0, 0);
    lua_pushcfunction(L, c_nothing);
    lua_call(L, 0, 0);
    CHECK_EQ(hook_calls, 1);
    CHECK(close_state_empty());
}

/* ---- Lua-level cases (the compiler and the interpreter) ----------------- */

static int open_libs_state(void)
{
    if (!open_state())
        return 0;
    luaL_openlibs(L);
    return 1;
}

/* Run chunk in protected mode; the message (or "ok") is left in out. */
static int run(const char *chunk, char *out, size_t cap)
{
    int st = luaL_loadbufferx(L, chunk, strlen(chunk), "=t", NULL);
    if (st == LUA_OK)
        st = lua_pcall(L, 0, 0, 0);
    const char *m = st == LUA_OK ? "ok" : lua_tostring(L, -1);
    size_t n = strlen(m ? m : "?");
    if (n >= cap)
        n = cap - 1;
    memcpy(out, m ? m : "?", n);
    out[n] = '\0';
    lua_settop(L, 0);
    return st;
}

/* Messages as lua5.4 gives them (checked against the reference). */
static const char *const error_cases[][2] = {
    {"local t = {} ; t.x.y = 1",
     "t:1: attempt to index a nil value (field 'x')"},
    {"x.y = 1", "t:1: attempt to index a nil value (global 'x')"},
    {"local a; a()", "t:1: attempt to call a nil value (local 'a')"},
    {"local t = {} t:m()", "t:1: attempt to call a nil value (method 'm')"},
    {"local up; local function f() return up.x end f()",
     "t:1: attempt to index a nil value (upvalue 'up')"},
    {"return ('x')()", "t:1: attempt to call a string value (constant 'x')"},
    {"for x in 1 do end",
     "t:1: attempt to call a number value (for iterator 'for iterator')"},
    {"local t = {} t[1]()",
     "t:1: attempt to call a nil value (field 'integer index')"},
    {"local t = {} local k = 'z' t[k]()",
     "t:1: attempt to call a nil value (field '?')"},
    {"local _ENV = {}; y.z = 1",
     "t:1: attempt to index a nil value (global 'y')"},
    {"local a = 1.5 return a | 1",
     "t:1: number (local 'a') has no integer representation"},
    {"local t = {} return t .. 'x'",
     "t:1: attempt to concatenate a table value (local 't')"},
    {"return {} < {}", "t:1: attempt to compare two table values"},
    {"local x <close> = 1", "t:1: variable 'x' got a non-closable value"},
    {"for i = 1, {} do end",
     "t:1: bad 'for' limit (number expected, got table)"},
    {"local function f() return f() + 1 end f()", "t:1: stack overflow"},
    {"local function f() error('deep', 2) end\nf()", "t:2: deep"},
};

static void test_error_messages_name_the_culprit(void)
{
    CHECK(open_libs_state());
    char msg[200];
    for (int i = 0; i < CHECK_COUNT(error_cases); i++) {
        run(error_cases[i][0], msg, sizeof msg);
        if (strcmp(error_cases[i][1], "t:1: stack overflow") == 0 &&
            membytes < (size_t)LUAI_MAXSTACK * sizeof(tvalue) * 4 &&
            strcmp(msg, "not enough memory") == 0)
            continue; /* a small arena runs out before the stack limit */
        if (strcmp(msg, error_cases[i][1]) != 0)
            port_printf("  got \"%s\"\n  want \"%s\"\n", msg,
                        error_cases[i][1]);
        CHECK(strcmp(msg, error_cases[i][1]) == 0);
        CHECK(checked());
    }
    CHECK(close_state_empty());
}

static int runaway_hook_hits;
static void stop_runaway(lua_State *L1, lua_Debug *ar)
{
    (void)ar;
    if (++runaway_hook_hits == 10)
        luaL_error(L1, "stopped");
}

static void test_count_hook_stops_runaway_code(void)
{
    CHECK(open_libs_state());
    runaway_hook_hits = 0;
    lua_sethook(L, stop_runaway, LUA_MASKCOUNT, 1000);
    char msg[100];
    CHECK_EQ(run("local i = 0 while true do i = i + 1 end", msg, sizeof msg),
             LUA_ERRRUN);
    /* Level 1 of a hook is the hooked function's caller (C): no
     * position, as in the reference. */
    CHECK(strcmp(msg, "stopped") == 0);
    CHECK_EQ(runaway_hook_hits, 10);
    lua_sethook(L, NULL, 0, 0);
    CHECK(checked());
    CHECK(close_state_empty());
}

static char lines_seen[32];
static void line_hook(lua_State *L1, lua_Debug *ar)
{
    (void)L1;
    size_t n = strlen(lines_seen);
    if (ar->event == LUA_HOOKLINE && n + 1 < sizeof lines_seen) {
        lines_seen[n] = (char)('0' + ar->currentline);
        lines_seen[n + 1] = '\0';
    }
}

static void test_line_hook_reports_each_new_line(void)
{
    CHECK(open_libs_state());
    lines_seen[0] = '\0';
    lua_sethook(L, line_hook, LUA_MASKLINE, 0);
    char msg[100];
    CHECK_EQ(run("local a = 1\nlocal b = 2\nfor i = 1, 2 do\na = a + b\nend",
                 msg, sizeof msg),
             LUA_OK);
    lua_sethook(L, NULL, 0, 0);
    /* As lua5.4: the loop's back jumps repeat lines 4 and 3. */
    if (strcmp(lines_seen, "12343435") != 0)
        port_printf("  got \"%s\"\n", lines_seen);
    CHECK(strcmp(lines_seen, "12343435") == 0);
    CHECK(close_state_empty());
}

static int c_probe(lua_State *L1)
{
    lua_Debug ar;
    int ok = lua_getstack(L1, 0, &ar) && lua_getinfo(L1, "n", &ar) &&
             strcmp(ar.namewhat, "global") == 0 &&
             strcmp(ar.name, "probe") == 0;
    ok = ok && lua_getstack(L1, 1, &ar) && lua_getinfo(L1, "Slt", &ar) &&
         strcmp(ar.what, "Lua") == 0 && strcmp(ar.short_src, "t") == 0 &&
         ar.currentline == 2 && ar.linedefined == 1 && !ar.istailcall;
    /* The caller's locals: its parameter, then its varargs. */
    const char *name = lua_getlocal(L1, &ar, 1);
    ok = ok && name && strcmp(name, "p") == 0 && lua_tointeger(L1, -1) == 10;
    name = lua_getlocal(L1, &ar, -1);
    ok = ok && name && strcmp(name, "(vararg)") == 0 &&
         lua_tointeger(L1, -1) == 20;
    ok = ok && lua_getlocal(L1, &ar, -3) == NULL;
    lua_pushinteger(L1, 99);
    ok = ok && lua_setlocal(L1, &ar, 1) != NULL;
    lua_pushboolean(L1, ok);
    return 1;
}

static void test_getinfo_and_locals_of_a_lua_caller(void)
{
    CHECK(open_libs_state());
    lua_register(L, "probe", c_probe);
    char msg[100];
    CHECK_EQ(run("local function f(p, ...)\nlocal ok = probe()\n"
                 "assert(ok and p == 99)\nend\nf(10, 20, 30)",
                 msg, sizeof msg),
             LUA_OK);
    CHECK(checked());
    CHECK(close_state_empty());
}

static void test_traceback_of_a_lua_error(void)
{
    CHECK(open_libs_state());
    const char *chunk = "local function inner() error('x') end\n"
                        "function outer() inner() end\nouter()";
    CHECK_EQ(luaL_loadbufferx(L, chunk, strlen(chunk), "=t", NULL), LUA_OK);
    lua_State *co = lua_newthread(L);
    lua_pushvalue(L, 1);
    lua_xmove(L, co, 1);
    int nres;
    CHECK_EQ(lua_resume(co, L, 0, &nres), LUA_ERRRUN);
    luaL_traceback(L, co, lua_tostring(co, -1), 0);
    const char *want = "t:1: x\nstack traceback:\n"
                       "\t[C]: in function 'error'\n"
                       "\tt:1: in upvalue 'inner'\n"
                       "\tt:2: in function 'outer'\n"
                       "\tt:3: in main chunk";
    if (strcmp(lua_tostring(L, -1), want) != 0)
        port_printf("  got:\n%s\n", lua_tostring(L, -1));
    CHECK(strcmp(lua_tostring(L, -1), want) == 0);
    lua_settop(L, 0);
    CHECK(checked());
    CHECK(close_state_empty());
}

static int calls_seen, returns_seen, tails_seen;
static void callret_hook(lua_State *L1, lua_Debug *ar)
{
    (void)L1;
    if (ar->event == LUA_HOOKCALL)
        calls_seen++;
    else if (ar->event == LUA_HOOKTAILCALL)
        tails_seen++;
    else if (ar->event == LUA_HOOKRET)
        returns_seen++;
}

static void test_call_and_return_hooks_pair_up(void)
{
    CHECK(open_libs_state());
    calls_seen = returns_seen = tails_seen = 0;
    char msg[100];
    const char *chunk = "local function f() return 1 end\n"
                        "local function g() return f() end\n"
                        "local function h() end\n"
                        "f() g() h()";
    CHECK_EQ(luaL_loadbufferx(L, chunk, strlen(chunk), "=t", NULL), LUA_OK);
    lua_sethook(L, callret_hook, LUA_MASKCALL | LUA_MASKRET, 0);
    CHECK_EQ(lua_pcall(L, 0, 0, 0), LUA_OK);
    lua_sethook(L, NULL, 0, 0);
    /* chunk, f, g, h called; f tail-called by g; one return each frame */
    CHECK_EQ(calls_seen, 4);
    CHECK_EQ(tails_seen, 1);
    CHECK_EQ(returns_seen, 4);
    (void)msg;
    CHECK(close_state_empty());
}

#ifdef RTLUA_HOST
/* Fail the Nth allocation for every N of a script with calls, errors,
 * coroutines and tbc variables: it ends with a result or an error,
 * never a crash, and the heap stays consistent. */
static void test_fault_injection_in_calls_and_coroutines(void)
{
    const char *chunk =
        "local function f(n) if n == 0 then error('bottom') end "
        "return f(n - 1) + 1 end\n"
        "local co = coroutine.wrap(function(a) local t <close> = "
        "setmetatable({}, {__close = function() end}) "
        "for i = 1, 3 do a = a + coroutine.yield(a) end return a end)\n"
        "local s = co(1) s = s + co(2) s = s + co(3)\n"
        "local ok, e = pcall(f, 30)\n"
        "return s, ok, e";
    int completed = 0;
    for (uint32_t n = 1; n < 4000 && !completed; n++) {
        CHECK(open_libs_state());
        G(L)->failafter = n;
        int st = luaL_loadbufferx(L, chunk, strlen(chunk), "=t", NULL);
        if (st == LUA_OK)
            st = lua_pcall(L, 0, 3, 0);
        if (G(L)->failafter != 0) { /* no failure reached: it ran whole */
            CHECK_EQ(st, LUA_OK);
            CHECK(lua_tointeger(L, -3) == 1 + 3 + 6);
            completed = 1;
        }
        G(L)->failafter = 0;
        lua_settop(L, 0);
        CHECK(checked());
        CHECK(close_state_empty());
    }
    CHECK(completed);
}
#endif

static void yield_hook(lua_State *L1, lua_Debug *ar)
{
    if (ar->event == LUA_HOOKCOUNT)
        lua_yield(L1, 0);
}

/* A count hook may yield: the coroutine stops between instructions and
 * goes on where it was when resumed. */
static void test_count_hook_yields_a_coroutine(void)
{
    CHECK(open_libs_state());
    const char *chunk = "local i = 0 while i < 100 do i = i + 1 end return i";
    lua_State *co = lua_newthread(L);
    CHECK_EQ(luaL_loadbufferx(co, chunk, strlen(chunk), "=t", NULL), LUA_OK);
    lua_sethook(co, yield_hook, LUA_MASKCOUNT, 10);
    int nres, st, yields = 0;
    while ((st = lua_resume(co, L, 0, &nres)) == LUA_YIELD && yields < 1000)
        yields++;
    CHECK_EQ(st, LUA_OK);
    CHECK(yields > 20);
    CHECK_EQ(nres, 1);
    CHECK(lua_tointeger(co, -1) == 100);
    lua_settop(L, 0);
    CHECK(checked());
    CHECK(close_state_empty());
}

/* lua_getinfo(">SLu") of a Lua function: its lines with code, its
 * parameters and upvalues. */
static void test_getinfo_of_a_function_value(void)
{
    CHECK(open_libs_state());
    const char *chunk = "local u = 1\nreturn function(a, b, ...)\n"
                        "  return u + a\n\nend";
    CHECK_EQ(luaL_loadbufferx(L, chunk, strlen(chunk), "@f.lua", NULL),
             LUA_OK);
    lua_call(L, 0, 1);
    lua_Debug ar;
    CHECK(lua_getinfo(L, ">SLu", &ar));
    CHECK(strcmp(ar.what, "Lua") == 0 && strcmp(ar.short_src, "f.lua") == 0);
    CHECK_EQ(ar.linedefined, 2);
    CHECK_EQ(ar.lastlinedefined, 5);
    CHECK(ar.nparams == 2 && ar.isvararg && ar.nups == 1);
    CHECK(lua_istable(L, -1)); /* lines 3 and 5 have code, 4 none */
    CHECK(lua_rawgeti(L, -1, 3) == LUA_TBOOLEAN);
    CHECK(lua_rawgeti(L, -2, 5) == LUA_TBOOLEAN);
    CHECK(lua_rawgeti(L, -3, 4) == LUA_TNIL);
    lua_settop(L, 0);
    CHECK(checked());
    CHECK(close_state_empty());
}

#if !DEEP_C_OK
/* Compiled but not run on the small boards. */
static void (*const deep_c_cases[])(void) __attribute__((unused)) = {
    test_c_stack_overflow_is_an_error,
    test_resume_errors_running_and_deep_chains,
};
static const lua_CFunction deep_c_helpers[] __attribute__((unused)) = {
    c_bad_handler,
};
#endif

/* A stack that fills the arena a slot at a time (lua_checkstack(L, 1)
 * before each push, as string.unpack does) grows by a good part of what
 * is left each time: a few emergency collections in all, not one (and a
 * copy of the whole stack) a slot.  (Before: 5,889 of them in a
 * 256 KiB arena; string.unpack of a million items in the fuzzers'
 * 8 MiB arena ran for hours.) */
#define FILL_ARENA (256u * 1024u)

static void test_a_stack_filling_the_arena_grows_in_few_steps(void)
{
    if (L != NULL)
        state_close(L);
    port_heap(&mem, &membytes);
    size_t bytes = membytes < FILL_ARENA ? membytes : FILL_ARENA;
    L = state_open_in(mem, bytes);
    CHECK(L != NULL);
    uint32_t before = G(L)->stats.emergencies;
    int pushed = 0;
    while (lua_checkstack(L, 1)) {
        lua_pushinteger(L, pushed);
        pushed++;
    }
    uint32_t took = G(L)->stats.emergencies - before;
    port_printf("# do: %d slots in a %u-byte arena, %u emergency "
                "collections\n",
                pushed, (unsigned)bytes, (unsigned)took);
    CHECK(pushed > (int)(bytes / sizeof(tvalue) / 4));
    CHECK(took <= 40);
    CHECK_EQ(lua_tointeger(L, -1), pushed - 1);
    lua_settop(L, 0);
    CHECK(checked());
    CHECK(close_state_empty());
}

static const struct check_case cases[] = {
    CASE(test_throw_is_caught_and_state_restored),
    CASE(test_memory_error_carries_the_premade_message),
    CASE(test_nested_pcalls_with_message_handlers),
    CASE(test_stack_growth_moves_frames_and_keeps_values),
    CASE(test_stack_grows_to_its_need_when_doubling_does_not_fit),
#ifdef RTLUA_HOST
    CASE(test_stack_overflow_is_an_error_and_shrinks_back),
#endif
#if DEEP_C_OK
    CASE(test_c_stack_overflow_is_an_error),
#endif
    CASE(test_callinfo_records_are_accounted_and_reused),
    CASE(test_callinfo_block_shrinks_to_fit_a_fragmented_arena),
    CASE(test_pushfstring_formats_like_lua),
    CASE(test_chunkid_as_the_reference),
    CASE(test_tbc_close_in_reverse_order_at_return),
    CASE(test_tbc_error_passes_error_and_close_error_replaces),
    CASE(test_tbc_rejects_a_value_without_close),
    CASE(test_coroutine_yields_and_finishes),
    CASE(test_yield_in_c_function_with_continuation),
    CASE(test_error_after_yield_recovers_at_pcallk),
    CASE(test_yield_across_c_call_and_outside_coroutine_fail),
    CASE(test_close_from_c_cannot_yield),
#if DEEP_C_OK
    CASE(test_resume_errors_running_and_deep_chains),
#endif
    CASE(test_getinfo_of_a_c_function),
    CASE(test_call_hook_sees_c_calls),
    CASE(test_error_messages_name_the_culprit),
    CASE(test_count_hook_stops_runaway_code),
    CASE(test_line_hook_reports_each_new_line),
    CASE(test_getinfo_and_locals_of_a_lua_caller),
    CASE(test_traceback_of_a_lua_error),
    CASE(test_getinfo_of_a_function_value),
    CASE(test_call_and_return_hooks_pair_up),
    CASE(test_count_hook_yields_a_coroutine),
    CASE(test_a_stack_filling_the_arena_grows_in_few_steps),
#ifdef RTLUA_HOST
    CASE(test_fault_injection_in_calls_and_coroutines),
#endif
};

int main(void)
{
    return check_main("do", cases, CHECK_COUNT(cases));
}
