/*
 * fuzz_image.c — libFuzzer target for the flash-image validator
 * (lang/image.c, with the bytecode verifier it calls) and for what runs
 * an image that passes it.  Each input is copied to this program's image
 * region (a mapping at a fixed address: an image's pointers are
 * absolute), its CRC made right (so that mutations reach the structural
 * checks rather than all stopping at the CRC; tests/image/test_image.c
 * checks the CRC's own refusals), and attached to a fresh state.  When it
 * is accepted, its main module runs under the same limits as fuzz_undump
 * (a count hook, a processor-time bound, a sandbox of the pure libraries
 * for its _ENV), every module is required, and string.dump of the main
 * function must load again.  After each input a full collection and the
 * heap checker must succeed.  A crash, a sanitizer report, a write into
 * the image (its pages are read-only while it is attached) or a heap
 * inconsistency is a bug; refusals and Lua errors are not.
 *
 * Seeds: with FUZZ_IMAGE_SEEDS=DIR (not empty: tests/fuzz/run's replay
 * sets it empty) in the environment the program writes into DIR the image
 * of each Lua file named on its command line, and one of all of them
 * together, made for itself by the writer (tools/imgwrite.c), with and
 * without debug information, and exits.  The
 * program is linked without PIE (tests/fuzz/run) so that the ROM strings
 * the seeds point at are where they were when the seeds were made.
 */
#define _DEFAULT_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "include/lauxlib.h"
#include "include/lua.h"
#include "include/lualib.h"
#include "include/rtlua.h"

#include "gc/gc.h"
#include "lang/image.h"
#include "romstr.h"
#include "tools/imgwrite.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* Where images lie in this program, and their largest size. */
#define FUZZ_IMAGE_BASE 0x3a0000000000ull
#define FUZZ_IMAGE_MAX (1u << 20)
/* Instructions between two calls of the count hook. */
#define FUZZ_HOOK_EVERY 1000
/* Hook calls before a run is stopped (~200k instructions). */
#define FUZZ_MAX_HOOKS 200
/* Processor time a run may take (libFuzzer's -timeout is 60 s of wall
 * time: tests/fuzz/run). */
#define FUZZ_MAX_SECONDS 2
/* Modules of an accepted image required, at most. */
#define FUZZ_MAX_REQUIRES 16

static uint8_t *region;
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

static void protect(int writable)
{
    if (mprotect(region, FUZZ_IMAGE_MAX,
                 writable ? PROT_READ | PROT_WRITE : PROT_READ) != 0)
        abort();
}

/* The pure libraries, for the image's functions' _ENV (no io, os, debug,
 * load or require: inputs must not touch files). */
static void set_sandbox(lua_State *L)
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
    if (lua_setupvalue(L, -2, 1) == NULL)
        lua_pop(L, 1);
}

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

/* The function on the top, from the image, dumps, and its dump loads
 * (unless the small arena runs out). */
static void check_dump(lua_State *L)
{
    buf d = {NULL, 0, 0};
    if (lua_dump(L, buf_writer, &d, 0) != 0) {
        fprintf(stderr, "lua_dump failed on a function of an image\n");
        abort();
    }
    int st = luaL_loadbufferx(L, d.b, d.n, "=redump", "b");
    if (st != LUA_OK && st != LUA_ERRMEM) {
        fprintf(stderr, "the dump of an image's function does not load: %s\n",
                lua_tostring(L, -1));
        abort();
    }
    lua_pop(L, 1);
    free(d.b);
}

static void run_top(lua_State *L)
{
    set_sandbox(L);
    hook_calls = 0;
    started = clock();
    lua_sethook(L, count_hook, LUA_MASKCOUNT, FUZZ_HOOK_EVERY);
    (void)lua_pcall(L, 0, 0, 0);
    lua_sethook(L, NULL, 0, 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_IMAGE_MAX)
        return 0;
    protect(1);
    memcpy(region, data, size);
    if (size >= sizeof(img_header)) {
        img_header *h = (img_header *)(void *)region;
        h->crc = 0;
        h->crc = img_crc32(0, region, h->size <= size ? h->size : size);
    }
    protect(0);
    lua_State *L = lua_newstate(NULL, NULL);
    if (L == NULL)
        return 0;
    char msg[IMG_MSG_MAX];
    int ok = img_attach(L, region, size, msg) == NULL;
    luaL_openlibs(L);
    if (ok) {
        const img_header *h = (const img_header *)(const void *)region;
        if (rtlua_image_pushmodule(L, NULL)) {
            lua_pop(L, 1); /* its name */
            check_dump(L);
            run_top(L);
        }
        for (uint32_t i = 0; i < h->nmodules && i < FUZZ_MAX_REQUIRES; i++) {
            const str *name = h->modules[i].name;
            lua_pushlstring(L, str_data(name), str_len(name));
            const char *n = lua_tostring(L, -1);
            if (rtlua_image_pushmodule(L, n)) {
                lua_pop(L, 1);
                run_top(L);
            }
            lua_pop(L, 1);
        }
    }
    lua_settop(L, 0);
    check_heap(L, "after the input");
    lua_gc(L, LUA_GCCOLLECT);
    check_heap(L, "after a full collection");
    lua_close(L);
    return 0;
}

/* ---- Seeds -------------------------------------------------------------- */

static void write_seed(const char *dir, const char *name, int strip,
                       const imgw_module *mods, int n)
{
    imgw_target t;
    imgw_target_self(&t, FUZZ_IMAGE_BASE, FUZZ_IMAGE_MAX);
    char err[160], path[4096];
    size_t size;
    uint8_t *img = imgw_write(&t, mods, n, 0, strip, &size, err, sizeof err);
    if (img == NULL) {
        fprintf(stderr, "no seed from %s: %s\n", name, err);
        return;
    }
    snprintf(path, sizeof path, "%s/%s%s.img", dir, name, strip ? "-s" : "");
    FILE *f = fopen(path, "wb");
    if (f == NULL || fwrite(img, 1, size, f) != size || fclose(f) != 0) {
        perror(path);
        exit(1);
    }
    free(img);
}

static void make_seeds(const char *dir, int argc, char **argv)
{
    lua_State *L = lua_newstate(NULL, NULL);
    static imgw_module all[64];
    static char names[64][64];
    int n = 0, seeds = 0;
    if (L == NULL)
        exit(1);
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-')
            continue; /* libFuzzer's flags */
        luaL_checkstack(L, 2, "too many seeds");
        if (luaL_loadfilex(L, argv[i], "t") != LUA_OK) {
            fprintf(stderr, "no seed from %s\n", lua_tostring(L, -1));
            lua_pop(L, 1);
            continue;
        }
        const char *slash = strrchr(argv[i], '/');
        const char *base = slash ? slash + 1 : argv[i];
        imgw_module m = {base, gco2lcl(gc_of(L->top - 1))->p};
        for (int strip = 0; strip <= 1; strip++, seeds++)
            write_seed(dir, base, strip, &m, 1);
        if (n < 64) { /* kept on the stack for the image of them all */
            snprintf(names[n], sizeof names[n], "m%d", n);
            all[n].name = names[n];
            all[n].main = m.main;
            n++;
        }
    }
    write_seed(dir, "all", 0, all, n);
    printf("%d seeds in %s\n", seeds + 1, dir);
    lua_close(L);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    region = mmap((void *)(uintptr_t)FUZZ_IMAGE_BASE, FUZZ_IMAGE_MAX,
                  PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (region != (uint8_t *)(uintptr_t)FUZZ_IMAGE_BASE) {
        fprintf(stderr, "cannot map the image region\n");
        exit(1);
    }
    const char *dir = getenv("FUZZ_IMAGE_SEEDS");
    if (dir != NULL && *dir != '\0') {
        make_seeds(dir, *argc, *argv);
        exit(0);
    }
    return 0;
}
