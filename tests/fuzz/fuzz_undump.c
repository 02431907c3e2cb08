/*
 * fuzz_undump.c — libFuzzer target for the binary-chunk loader
 * (lang/undump.c and the verifier, lang/verify.c): every input is loaded
 * as a binary chunk (luaL_loadbufferx, mode "b") in a fresh state.  When
 * it loads:
 *   - it is dumped again, and that dump must load and dump to the same
 *     bytes (writer and reader agree), stripped too;
 *   - it runs under lua_pcall with a count hook (FUZZ_MAX_HOOKS calls of
 *     one every FUZZ_HOOK_EVERY instructions, and FUZZ_MAX_SECONDS of
 *     processor time), its _ENV a sandbox of the pure libraries (no io,
 *     os, debug, load or require: the fuzzer's inputs must not touch
 *     files, and what the verifier promises is that loaded code cannot
 *     break the interpreter by itself).
 * After each input a full collection and the heap checker must succeed.
 * Any crash, sanitizer report, heap inconsistency or abort is a bug;
 * refused chunks and Lua errors are not.
 *
 * Seeds: with FUZZ_UNDUMP_SEEDS=DIR in the environment the program writes
 * the dumps of every function of the Lua files named on its command line
 * (each prototype on its own, with and without debug information) into
 * DIR and exits; tests/fuzz/run makes its corpus so from tests/lua and
 * tests/diff.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "include/lauxlib.h"
#include "include/lua.h"
#include "include/lualib.h"

#include "gc/gc.h"
#include "lang/dump.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* Instructions between two calls of the count hook. */
#define FUZZ_HOOK_EVERY 1000
/* Hook calls before a run is stopped (~200k instructions). */
#define FUZZ_MAX_HOOKS 200
/* Processor time a run may take (libFuzzer's -timeout is 60 s of wall
 * time: tests/fuzz/run). */
#define FUZZ_MAX_SECONDS 2
/* Seeds bigger than this are not written (tests/fuzz/run's -max_len). */
#define FUZZ_SEED_MAX 16384

static int hook_calls;
static clock_t started;

static void check_time(lua_State *L)
{
    if (clock() - started > FUZZ_MAX_SECONDS * CLOCKS_PER_SEC)
        luaL_error(L, "time limit reached");
}

static void count_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    if (++hook_calls > FUZZ_MAX_HOOKS)
        luaL_error(L, "instruction limit reached");
    check_time(L);
}

static int quiet_print(lua_State *L)
{
    (void)L;
    return 0;
}

static void check_heap(lua_State *L, const char *when)
{
    const char *why = NULL;
    int code = gc_check(L, &why);
    if (code != 0) {
        fprintf(stderr, "gc_check %s: %d (%s)\n", when, code,
                why != NULL ? why : "?");
        abort();
    }
}

/* ---- Dumps into malloc'd memory (outside the arena) -------------------- */
typedef struct buf {
    char *b;
    size_t n, cap;
} buf;

static int buf_writer(lua_State *L, const void *p, size_t n, void *ud)
{
    buf *d = ud;
    (void)L;
    if (d->n + n > d->cap) {
        size_t cap = d->cap ? d->cap * 2 : 1024;
        while (cap < d->n + n)
            cap *= 2;
        char *nb = realloc(d->b, cap);
        if (nb == NULL)
            return 1;
        d->b = nb;
        d->cap = cap;
    }
    memcpy(d->b + d->n, p, n);
    d->n += n;
    return 0;
}

/* Dump the function on the top (kept there); 0 when the dump failed. */
static int dump_top(lua_State *L, buf *d, int strip)
{
    d->n = 0;
    return lua_dump(L, buf_writer, d, strip) == 0;
}

/* Writer and reader agree: the dump of what loaded loads, and dumps to
 * the same bytes.  The function stays on the top. */
static void check_redump(lua_State *L, int strip)
{
    buf one = {NULL, 0, 0}, two = {NULL, 0, 0};
    if (!dump_top(L, &one, strip)) {
        fprintf(stderr, "lua_dump failed on a loaded function\n");
        abort();
    }
    int st = luaL_loadbufferx(L, one.b, one.n, "=redump", "b");
    if (st == LUA_ERRMEM) { /* the small arena: not a disagreement */
        lua_pop(L, 1);
        free(one.b);
        return;
    }
    if (st != LUA_OK) {
        fprintf(stderr, "a dump of a loaded function does not load: %s\n",
                lua_tostring(L, -1));
        abort();
    }
    if (!dump_top(L, &two, strip) || two.n != one.n ||
        memcmp(one.b, two.b, one.n) != 0) {
        fprintf(stderr, "dumping a reloaded function changed it\n");
        abort();
    }
    lua_pop(L, 1);
    free(one.b);
    free(two.b);
}

/* The loaded function's _ENV: the pure libraries and base functions. */
static void push_sandbox(lua_State *L)
{
    static const char *const names[] = {
        "assert",    "error",  "getmetatable", "ipairs",         "next",
        "pairs",     "pcall",  "rawequal",     "rawget",         "rawlen",
        "rawset",    "select", "setmetatable", "tonumber",       "tostring",
        "type",      "xpcall", "string",       "table",          "math",
        "coroutine", "utf8",   "_VERSION",     "collectgarbage",
    };
    lua_createtable(L, 0, 32);
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        lua_getglobal(L, names[i]);
        lua_setfield(L, -2, names[i]);
    }
    lua_pushcfunction(L, quiet_print);
    lua_setfield(L, -2, "print");
    lua_pushvalue(L, -1);
    lua_setfield(L, -2, "_G");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    lua_State *L = lua_newstate(NULL, NULL);
    if (L == NULL)
        return 0;
    luaL_openlibs(L);
    if (luaL_loadbufferx(L, (const char *)data, size, "=fuzz", "b") ==
        LUA_OK) {
        check_redump(L, 0);
        check_redump(L, 1);
        push_sandbox(L);
        if (lua_setupvalue(L, -2, 1) == NULL)
            lua_pop(L, 1);
        hook_calls = 0;
        started = clock();
        lua_sethook(L, count_hook, LUA_MASKCOUNT, FUZZ_HOOK_EVERY);
        (void)lua_pcall(L, 0, 0, 0);
        lua_sethook(L, NULL, 0, 0);
    }
    lua_settop(L, 0);
    check_heap(L, "after the input");
    lua_gc(L, LUA_GCCOLLECT);
    check_heap(L, "after a full collection");
    lua_close(L);
    return 0;
}

/* ---- Seeds -------------------------------------------------------------- */

static int nseeds;

static void write_seed(const char *dir, const char *base, const buf *d)
{
    char path[4096];
    if (d->n > FUZZ_SEED_MAX)
        return;
    snprintf(path, sizeof(path), "%s/%s-%d.bin", dir, base, nseeds++);
    FILE *f = fopen(path, "wb");
    if (f == NULL || fwrite(d->b, 1, d->n, f) != d->n) {
        perror(path);
        exit(1);
    }
    fclose(f);
}

/* Every prototype under p, each dumped as a chunk of its own. */
static void seed_protos(lua_State *L, const proto *p, const char *dir,
                        const char *base, buf *d)
{
    for (int strip = 0; strip <= 1; strip++) {
        d->n = 0;
        if (dump_function(L, p, buf_writer, d, strip) == 0)
            write_seed(dir, base, d);
    }
    for (int i = 0; i < p->sizep; i++)
        seed_protos(L, p->p[i], dir, base, d);
}

static void make_seeds(const char *dir, int argc, char **argv)
{
    lua_State *L = lua_newstate(NULL, NULL);
    buf d = {NULL, 0, 0};
    if (L == NULL)
        exit(1);
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-')
            continue; /* libFuzzer's flags */
        if (luaL_loadfilex(L, argv[i], "t") != LUA_OK) {
            /* a script that is a syntax error on purpose */
            fprintf(stderr, "no seeds from %s\n", lua_tostring(L, -1));
            lua_pop(L, 1);
            continue;
        }
        const char *slash = strrchr(argv[i], '/');
        const tvalue *o = L->top - 1;
        seed_protos(L, gco2lcl(gc_of(o))->p, dir, slash ? slash + 1 : argv[i],
                    &d);
        lua_pop(L, 1);
    }
    free(d.b);
    lua_close(L);
    printf("%d seeds in %s\n", nseeds, dir);
    exit(0);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    const char *dir = getenv("FUZZ_UNDUMP_SEEDS");
    if (dir != NULL && *dir != '\0')
        make_seeds(dir, *argc, *argv);
    return 0;
}
