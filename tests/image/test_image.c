/*
 * test_image.c — flash images (lang/image.c, tools/imgwrite.c, the
 * searcher of lib/loadlib.c): images made in this process by the writer
 * for this program itself, in a mapping that is made read-only before
 * they are attached (a write into an image faults the test), and run in
 * place.  Host only: the writer is a host library.
 *
 * What is checked: modules found first by require, their values in
 * package.loaded, source names and lines in debug.getinfo and in error
 * messages; strings interned against the image (pointer equality with
 * strings made at run time, long-string keys); a collection that
 * traverses no prototype of the image; the arena a module from an image
 * costs against compiling it (issue 15's 5% target, on a 1,000-line
 * module); every byte of a small image flipped in turn and every
 * truncation refused with a message; the same flips with the CRC made
 * right again, which reach the structural checks (no crash, and most
 * refused); the header's own refusals (model, layout, firmware, place);
 * an image attached after a string it holds was made; a stripped image.
 */
#define _DEFAULT_SOURCE
#include "tests/unit/check.h"

#include "gc/gc.h"
#include "include/lauxlib.h"
#include "include/lua.h"
#include "include/lualib.h"
#include "include/rtlua.h"
#include "lang/image.h"
#include "romstr.h"
#include "tools/imgwrite.h"
#include "vm/opcodes.h"
#include "vm/state.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* The image region of these tests: an anonymous mapping. */
#define REGION_BYTES (4u << 20)

static uint8_t *region;
static size_t imgsize;

/* The one state open (a case that fails leaves it for the next to
 * close: only one state may exist at a time). */
static lua_State *live;

static lua_State *fresh(void)
{
    if (live != NULL)
        lua_close(live);
    live = luaL_newstate();
    return live;
}

static void done(lua_State *L)
{
    lua_close(L);
    live = NULL;
}

static void writable(int w)
{
    mprotect(region, REGION_BYTES, w ? PROT_READ | PROT_WRITE : PROT_READ);
}

/* Compile the n sources (module names[i] from "@names[i].lua") in a
 * state of their own and write their image into the region (read-only
 * afterwards); the first is the main module.  0 on failure. */
static int make_image(const char *const *names, const char *const *srcs, int n,
                      int strip)
{
    lua_State *C = fresh();
    imgw_module mods[8];
    char chunk[64];
    for (int i = 0; i < n; i++) {
        snprintf(chunk, sizeof chunk, "@%s.lua", names[i]);
        if (luaL_loadbuffer(C, srcs[i], strlen(srcs[i]), chunk) != LUA_OK) {
            port_printf("  compile: %s\n", lua_tostring(C, -1));
            done(C);
            return 0;
        }
        mods[i].name = names[i];
        mods[i].main = gco2lcl(gc_of(C->top - 1))->p;
    }
    imgw_target t;
    imgw_target_self(&t, (uint64_t)(uintptr_t)region, REGION_BYTES);
    char err[160];
    uint8_t *img =
        imgw_write(&t, mods, n, 0, strip, &imgsize, err, sizeof err);
    done(C);
    if (img == NULL) {
        port_printf("  write: %s\n", err);
        return 0;
    }
    writable(1);
    memset(region, 0xFF, REGION_BYTES);
    memcpy(region, img, imgsize);
    free(img);
    writable(0);
    return 1;
}

/* A state with the image attached and the libraries open; NULL (with the
 * reason printed) when the image was refused. */
static lua_State *open_with_image(void)
{
    lua_State *L = fresh();
    const char *why = rtlua_image_attach(L, region, imgsize);
    if (why != NULL) {
        port_printf("  refused: %s\n", why);
        done(L);
        return NULL;
    }
    luaL_openlibs(L);
    return L;
}

/* Run chunk s in L: its first result as a string ("" for none), the
 * error message on failure. */
static const char *run(lua_State *L, const char *s)
{
    static char out[512];
    int st = luaL_loadstring(L, s);
    if (st == LUA_OK)
        st = lua_pcall(L, 0, 1, 0);
    const char *r = lua_tostring(L, -1);
    snprintf(out, sizeof out, "%s%s",
             st == LUA_OK ? "" : "error: ", r ? r : "");
    lua_pop(L, 1);
    return out;
}

static const char *const app_names[] = {"main", "filter", "util.text"};
static const char *const app_srcs[] = {
    /* main */
    "local filter = require 'filter'\n"
    "local text = require 'util.text'\n"
    "return filter.step(3) .. ' ' .. text.shout('hi')\n",
    /* filter */
    "local M = {}\n"
    "local state = 0\n"
    "function M.step(x)\n"
    "  state = state + x\n"
    "  return state\n"
    "end\n"
    "function M.fail()\n"
    "  error('filter failed')\n"
    "end\n"
    "M.long = 'a constant longer than forty bytes, kept as a long string'\n"
    "M.name = 'filterkey'\n"
    "return M\n",
    /* util.text */
    "local T = {}\n"
    "function T.shout(s) return s:upper() .. '!' end\n"
    "return T\n"};

static void test_modules_run_in_place_and_require_finds_them_first(void)
{
    CHECK(make_image(app_names, app_srcs, 3, 0));
    lua_State *L = open_with_image();
    CHECK(L != NULL);
    CHECK(strcmp(run(L, "return #package.searchers"), "5") == 0);
    CHECK(strcmp(run(L, "local f, src = package.searchers[1]('filter') "
                        "return type(f) .. ' ' .. src"),
                 "function filter.lua") == 0);
    /* main runs from the image and requires the others from it */
    CHECK(rtlua_image_pushmodule(L, NULL) == 1);
    CHECK(strcmp(lua_tostring(L, -1), "main.lua") == 0);
    lua_pop(L, 1);
    CHECK(lua_pcall(L, 0, 1, 0) == LUA_OK);
    CHECK(strcmp(lua_tostring(L, -1), "3 HI!") == 0);
    lua_pop(L, 1);
    /* package.loaded holds the module; a second require is the same */
    CHECK(strcmp(run(L, "return tostring(package.loaded.filter == "
                        "require 'filter' and require('filter').step(1))"),
                 "4") == 0);
    CHECK(strcmp(run(L, "return select(2, package.searchers[1]"
                        "('util.text'))"),
                 "util.text.lua") == 0);
    /* a module not in the image is looked for along the path, and the
     * message is the one a run from source gives */
    const char *miss = run(L, "return require 'nosuchmodule'");
    CHECK(strstr(miss, "module 'nosuchmodule' not found:\n\tno field "
                       "package.preload['nosuchmodule']\n\tno file "
                       "'./nosuchmodule.lua'") != NULL);
    done(L);
}

static void test_errors_and_debug_info_name_the_source(void)
{
    CHECK(make_image(app_names, app_srcs, 3, 0));
    lua_State *L = open_with_image();
    CHECK(L != NULL);
    CHECK(strcmp(run(L, "return select(2, pcall(require('filter').fail))"),
                 "filter.lua:8: filter failed") == 0);
    CHECK(strcmp(run(L, "local i = debug.getinfo(require('filter').step) "
                        "return i.source .. ' ' .. i.short_src .. ' ' .. "
                        "i.linedefined .. ' ' .. i.lastlinedefined .. ' ' "
                        ".. i.what"),
                 "@filter.lua filter.lua 3 6 Lua") == 0);
    CHECK(strstr(run(L, "local ok, m = xpcall(require('filter').fail, "
                        "debug.traceback) return m"),
                 "filter.lua:8: in function") != NULL);
    /* a flash function dumps, and its dump loads and runs */
    CHECK(strcmp(run(L, "local f = load(string.dump(require('util.text')"
                        ".shout)) return f('ab')"),
                 "AB!") == 0);
    done(L);
}

static void test_strings_are_interned_against_the_image(void)
{
    CHECK(make_image(app_names, app_srcs, 3, 0));
    lua_State *L = open_with_image();
    CHECK(L != NULL);
    /* a string made at run time equal to an image string is that string:
     * short strings compare by pointer */
    CHECK(strcmp(run(L, "local m = require 'filter' "
                        "local k = ('filter' .. 'key'):sub(1) "
                        "local t = {[m.name] = 1} "
                        "return tostring(k == m.name and t[k] == 1)"),
                 "true") == 0);
    lua_pushstring(L, "filterkey");
    const void *made = lua_tostring(L, -1);
    lua_pop(L, 1);
    CHECK((const uint8_t *)made >= region &&
          (const uint8_t *)made < region + imgsize);
    /* a long string of the image as a key: found by an equal RAM one */
    CHECK(strcmp(run(L, "local m = require 'filter' local t = {} "
                        "t[m.long] = 7 "
                        "local k = 'a constant longer than forty bytes, ' .. "
                        "'kept as a long string' return tostring(t[k])"),
                 "7") == 0);
    done(L);
}

static void test_a_collection_traverses_no_flash_prototype(void)
{
    CHECK(make_image(app_names, app_srcs, 3, 0));
    lua_State *L = open_with_image();
    CHECK(L != NULL);
    CHECK(strcmp(run(L, "F = require 'filter' T = require 'util.text' "
                        "return ''"),
                 "") == 0);
    rtlua_GCStats s;
    rtlua_gcstats(L, &s);
    uint64_t before = s.protos_traversed;
    lua_gc(L, LUA_GCCOLLECT);
    lua_gc(L, LUA_GCCOLLECT);
    rtlua_gcstats(L, &s);
    CHECK_EQ(s.protos_traversed, before);
    CHECK(strcmp(run(L, "return tostring(F.step(2))"), "2") == 0);
    /* the same modules compiled into RAM: their prototypes are traversed */
    CHECK(luaL_loadstring(L, app_srcs[1]) == LUA_OK);
    lua_setglobal(L, "G");
    lua_gc(L, LUA_GCCOLLECT);
    rtlua_gcstats(L, &s);
    CHECK(s.protos_traversed >= before + 3);
    done(L);
}

/* The 1,000-line module of issue 15's arena target
 * (bench/image/gen_module.lua), read from the repository. */
static char *read_module(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s != NULL && fread(s, 1, (size_t)n, f) == (size_t)n)
        s[n] = '\0';
    fclose(f);
    return s;
}

static size_t in_use(lua_State *L)
{
    rtlua_GCStats s;
    lua_gc(L, LUA_GCCOLLECT);
    rtlua_gcstats(L, &s);
    return s.bytes_in_use;
}

static void test_a_module_from_the_image_costs_under_5pc_of_compiling_it(void)
{
    char *src = read_module("bench/image/module1000.lua");
    CHECK(src != NULL);
    const char *names[] = {"main", "big"};
    const char *srcs[] = {"return require('big')", src};
    int ok = make_image(names, srcs, 2, 0);
    CHECK(ok);
    /* compiled from source in RAM */
    lua_State *L = fresh();
    luaL_openlibs(L);
    size_t base = in_use(L);
    CHECK(luaL_loadbuffer(L, src, strlen(src), "@big.lua") == LUA_OK);
    CHECK(lua_pcall(L, 0, 1, 0) == LUA_OK);
    lua_setglobal(L, "big");
    size_t compiled = in_use(L) - base;
    done(L);
    /* from the image */
    L = open_with_image();
    CHECK(L != NULL);
    base = in_use(L);
    CHECK(strcmp(run(L, "big = require 'big' return ''"), "") == 0);
    size_t image = in_use(L) - base;
    CHECK(strcmp(run(L, "return select(4, big.task3('a=1;b=yes', 'start', "
                        "{1, 2}))"),
                 "{a=1; b=\"yes\"}") == 0);
    done(L);
    free(src);
    port_printf("# image: 1,000-line module: %u bytes from source, %u from "
                "the image (%u.%u%%)\n",
                (unsigned)compiled, (unsigned)image,
                (unsigned)(image * 100 / compiled),
                (unsigned)(image * 1000 / compiled % 10));
    CHECK(image * 20 <= compiled);
}

static const char *const small_names[] = {"main"};
static const char *const small_srcs[] = {
    "local t = {}\n"
    "for i = 1, 3 do t[i] = function() return i * 2 end end\n"
    "return t[3]() .. 'x'\n"};

/* img_check on the region's first len bytes, in a fresh state. */
static const char *check_now(lua_State *L, size_t len, char *msg)
{
    return img_check(L, region, len, msg);
}

static void test_every_flipped_byte_and_truncation_is_refused(void)
{
    CHECK(make_image(small_names, small_srcs, 1, 0));
    lua_State *L = fresh();
    char msg[IMG_MSG_MAX];
    CHECK(check_now(L, imgsize, msg) == NULL);
    writable(1);
    size_t refused = 0;
    for (size_t i = 0; i < imgsize; i++) {
        region[i] ^= 0xFF;
        const char *why = check_now(L, imgsize, msg);
        region[i] ^= 0xFF;
        if (why != NULL && why[0] != '\0')
            refused++;
        else
            port_printf("  byte %u flipped: accepted\n", (unsigned)i);
    }
    CHECK_EQ(refused, imgsize);
    refused = 0;
    for (size_t len = 0; len < imgsize; len++) {
        const char *why = check_now(L, len, msg);
        refused += why != NULL && why[0] != '\0';
    }
    CHECK_EQ(refused, imgsize);
    writable(0);
    CHECK(check_now(L, imgsize, msg) == NULL);
    port_printf("# image: %u-byte image, every flip and truncation refused\n",
                (unsigned)imgsize);
    done(L);
}

static void fix_crc(void)
{
    img_header *h = (img_header *)(void *)region;
    h->crc = 0;
    h->crc = img_crc32(0, region, imgsize);
}

/* With the CRC made right after each flip the flips reach the structural
 * checks and the verifier: none may crash (the sanitizer build runs this
 * too), and those that pass must still load and run. */
/* A function whose first line is negative, behind a good CRC, is
 * refused: its dump would not load (the fuzzer's find: lua_dump writes
 * the line as a huge number, which undump calls a bad line). */
static void test_a_negative_first_line_is_refused(void)
{
    CHECK(make_image(small_names, small_srcs, 1, 0));
    lua_State *L = open_with_image();
    CHECK(L != NULL);
    CHECK(rtlua_image_pushmodule(L, NULL));
    proto *p = gco2lcl(gc_of(L->top - 2))->p->p[0]; /* function() ... end */
    CHECK((uint8_t *)p > region && (uint8_t *)p < region + imgsize);
    int32_t line = p->linedefined;
    CHECK(line == 2);
    done(L);
    L = fresh();
    char msg[IMG_MSG_MAX];
    writable(1);
    p->linedefined = -1;
    fix_crc();
    const char *why = check_now(L, imgsize, msg);
    CHECK(why != NULL && strstr(why, "line range") != NULL);
    p->linedefined = line;
    fix_crc();
    CHECK(check_now(L, imgsize, msg) == NULL);
    writable(0);
    done(L);
}

static void test_flips_behind_a_good_crc_never_crash(void)
{
    CHECK(make_image(small_names, small_srcs, 1, 0));
    uint8_t *copy = malloc(imgsize);
    memcpy(copy, region, imgsize);
    writable(1);
    size_t refused = 0, runs = 0;
    for (size_t i = 0; i < imgsize; i++) {
        for (int bit = 0; bit < 8; bit += 3) {
            memcpy(region, copy, imgsize);
            region[i] ^= (uint8_t)(1u << bit);
            fix_crc();
            lua_State *L = fresh();
            char msg[IMG_MSG_MAX];
            if (img_attach(L, region, imgsize, msg) != NULL) {
                refused++;
            } else {
                luaL_openlibs(L);
                if (rtlua_image_pushmodule(L, NULL)) {
                    lua_pop(L, 1);
                    lua_pcall(L, 0, 1, 0);
                }
                runs++;
                const char *bad = NULL;
                CHECK(gc_check(L, &bad) == GC_CHECK_OK);
            }
            done(L);
        }
    }
    memcpy(region, copy, imgsize);
    writable(0);
    free(copy);
    port_printf("# image: flips behind a good CRC: %u refused, %u loaded\n",
                (unsigned)refused, (unsigned)runs);
    CHECK(refused > runs);
}

static void test_the_header_says_why_an_image_is_refused(void)
{
    CHECK(make_image(small_names, small_srcs, 1, 0));
    lua_State *L = fresh();
    char msg[IMG_MSG_MAX];
    img_header *h = (img_header *)(void *)region;
    writable(1);
    uint32_t num = h->num;
    h->num = num == 32 ? 64 : 32;
    CHECK(strstr(check_now(L, imgsize, msg), "number model") != NULL);
    h->num = num;
    h->abisig ^= 1;
    fix_crc();
    CHECK(strstr(check_now(L, imgsize, msg), "layout") != NULL);
    h->abisig ^= 1;
    h->romsig ^= 1;
    fix_crc();
    CHECK(strstr(check_now(L, imgsize, msg), "another firmware") != NULL);
    h->romsig ^= 1;
    fix_crc();
    CHECK(check_now(L, imgsize, msg) == NULL);
    /* the same bytes one page further: not where it was made to lie */
    memmove(region + 4096, region, imgsize);
    CHECK(strstr(img_check(L, region + 4096, imgsize, msg), "made to lie") !=
          NULL);
    memset(region, 0xFF, 8);
    CHECK(strstr(check_now(L, imgsize, msg), "bad magic") != NULL);
    writable(0);
    done(L);
}

/* A negative line where a function starts: a chunk cannot say so (the
 * undumper refuses it), so an image must not either, or a function taken
 * from it would dump to a chunk that does not load (found by
 * fuzz_image). */
static void test_a_function_at_a_negative_line_is_refused(void)
{
    CHECK(make_image(small_names, small_srcs, 1, 0));
    lua_State *L = fresh();
    char msg[IMG_MSG_MAX];
    const img_header *h = (const img_header *)(const void *)region;
    proto *inner = (proto *)(uintptr_t)h->modules[0].main->p[0];
    writable(1);
    int32_t line = inner->linedefined;
    inner->linedefined = -1;
    fix_crc();
    const char *why = check_now(L, imgsize, msg);
    CHECK(why != NULL && strstr(why, "line") != NULL);
    inner->linedefined = line;
    fix_crc();
    CHECK(check_now(L, imgsize, msg) == NULL);
    writable(0);
    done(L);
}

/* A function that captures a register its parent then calls in: the
 * callee writes through the upvalue into its own frame's function slot
 * (fuzz_image's find: the setter made to capture the numeric for's
 * hidden index wrote 100 there, and a count hook read it as the running
 * closure).  The verifier refuses it. */
static const char *const open_names[] = {"main"};
static const char *const open_srcs[] = {
    "local t = {}\n"
    "for i = 1, 2 do t[i] = function(v) i = v return v.x end end\n"
    "t[1](100)\n"};

static void test_a_call_over_an_open_upvalue_is_refused(void)
{
    CHECK(make_image(open_names, open_srcs, 1, 0));
    lua_State *L = fresh();
    char msg[IMG_MSG_MAX];
    const img_header *h = (const img_header *)(const void *)region;
    const proto *p = h->modules[0].main;
    int a = -1;
    for (int pc = 0; pc < p->sizecode && a < 0; pc++)
        if (GET_OP(p->code[pc]) == OP_FORPREP)
            a = GETARG_A(p->code[pc]);
    CHECK(a >= 0 && p->sizep == 1);
    upvaldesc *u = (upvaldesc *)(uintptr_t)&p->p[0]->upvalues[0];
    CHECK(check_now(L, imgsize, msg) == NULL);
    writable(1);
    uint8_t idx = u->idx;
    u->idx = (uint8_t)a; /* the loop's index, not i */
    fix_crc();
    const char *why = check_now(L, imgsize, msg);
    CHECK(why != NULL && strstr(why, "call over an open upvalue") != NULL);
    u->idx = idx;
    fix_crc();
    writable(0);
    done(L);
}

static void test_an_image_attached_too_late_is_refused(void)
{
    CHECK(make_image(app_names, app_srcs, 3, 0));
    lua_State *L = fresh();
    lua_pushstring(L, "filterkey"); /* a RAM string the image holds */
    const char *why = rtlua_image_attach(L, region, imgsize);
    CHECK(why != NULL && strstr(why, "too late") != NULL);
    CHECK(!rtlua_image_attached(L));
    done(L);
}

static void test_a_stripped_image_runs_without_lines(void)
{
    CHECK(make_image(app_names, app_srcs, 3, 1));
    const img_header *h = (const img_header *)(const void *)region;
    CHECK(h->flags & IMG_F_STRIPPED);
    lua_State *L = open_with_image();
    CHECK(L != NULL);
    CHECK(strcmp(run(L, "return tostring(require('filter').step(4))"), "4") ==
          0);
    CHECK(strcmp(run(L, "return select(2, pcall(require('filter').fail))"),
                 "filter failed") == 0);
    CHECK(strcmp(run(L, "return tostring(debug.getinfo(require('filter')"
                        ".step, 'l').currentline)"),
                 "-1") == 0);
    done(L);
}

/* img_crc32 is CRC-32 (IEEE, reflected: the check value of "123456789"
 * is CBF43926), at every alignment of its bytes, every length and every
 * split into two calls (it takes aligned words four bytes at a time), as
 * a bit at a time computes it. */
static uint32_t crc_bitwise(uint32_t crc, const uint8_t *b, size_t n)
{
    crc = ~crc;
    while (n-- > 0) {
        crc ^= *b++;
        for (int k = 0; k < 8; k++)
            crc = (crc >> 1) ^ ((crc & 1u) ? 0xEDB88320u : 0u);
    }
    return ~crc;
}

static void test_crc32_at_every_alignment_and_split(void)
{
    CHECK_EQ(img_crc32(0, "123456789", 9), 0xCBF43926u);
    static uint8_t buf[80];
    uint32_t x = 12345u;
    for (size_t i = 0; i < sizeof buf; i++) {
        x = x * 1103515245u + 12345u;
        buf[i] = (uint8_t)(x >> 16);
    }
    for (size_t at = 0; at < 8; at++)
        for (size_t n = 0; at + n <= sizeof buf; n++) {
            uint32_t want = crc_bitwise(0, buf + at, n);
            CHECK_EQ(img_crc32(0, buf + at, n), want);
            for (size_t k = 0; k <= n; k += 3)
                CHECK_EQ(
                    img_crc32(img_crc32(0, buf + at, k), buf + at + k, n - k),
                    want);
        }
}

static const struct check_case cases[] = {
    CASE(test_crc32_at_every_alignment_and_split),
    CASE(test_modules_run_in_place_and_require_finds_them_first),
    CASE(test_errors_and_debug_info_name_the_source),
    CASE(test_strings_are_interned_against_the_image),
    CASE(test_a_collection_traverses_no_flash_prototype),
    CASE(test_a_module_from_the_image_costs_under_5pc_of_compiling_it),
    CASE(test_every_flipped_byte_and_truncation_is_refused),
    CASE(test_flips_behind_a_good_crc_never_crash),
    CASE(test_a_negative_first_line_is_refused),
    CASE(test_the_header_says_why_an_image_is_refused),
    CASE(test_a_function_at_a_negative_line_is_refused),
    CASE(test_a_call_over_an_open_upvalue_is_refused),
    CASE(test_an_image_attached_too_late_is_refused),
    CASE(test_a_stripped_image_runs_without_lines),
};

int main(void)
{
    region = mmap(NULL, REGION_BYTES, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (region == MAP_FAILED)
        return 1;
    return check_main("image", cases, CHECK_COUNT(cases));
}
