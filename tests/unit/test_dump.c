/*
 * test_dump.c — binary chunks (lang/dump.c, lang/undump.c,
 * lang/verify.c): lua_dump and lua_load round trips through a writer and
 * a reader of one byte at a time, the header's refusals (version, number
 * model, byte order, float format), every truncated prefix, corrupted
 * code refused by the verifier with its reason, prototypes built by hand
 * that break one rule each, a binary chunk the verifier accepts but the
 * interpreter must stop (a tail call in a tbc scope), and countdown fault
 * injection over a load, each leaving a consistent heap and an empty
 * arena after state_close.
 */
#include "check.h"
#include "gc/arena.h"
#include "gc/gc.h"
#include "include/lauxlib.h"
#include "include/lua.h"
#include "lang/dump.h"
#include "lang/parse.h"
#include "lang/verify.h"
#include "vm/obj.h"
#include "vm/opcodes.h"
#include "vm/state.h"

#include <stdio.h>
#include <string.h>

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

/* The cases that compile whole programs need this much arena (more in
 * the 64-bit model, whose values are larger): microbit's 32-bit image
 * holds them (7,064 bytes), its 64-bit one (6,424 bytes: its number
 * formatter's scratch, vm/num.c, is 1 KiB of .bss) does not, and the
 * case passes there, having said so. */
#if RTLUA_NUM == 64
#define DUMP_PROGRAM_ARENA (7u * 1024u)
#else
#define DUMP_PROGRAM_ARENA (6u * 1024u)
#endif
/* The open-upvalue search's program (some forty locals, closures in loops)
 * needs more: microbit's 32-bit test image (7,064 bytes of arena) ran out
 * of memory compiling it. */
#define DUMP_WIDE_ARENA (8u * 1024u)

static int arena_fits(const char *name, size_t need)
{
    if (membytes >= need)
        return 1;
    port_printf("# dump: %s skipped, %u bytes of arena\n", name,
                (unsigned)membytes);
    state_close(L);
    L = NULL;
    return 0;
}

static int program_fits(const char *name)
{
    return arena_fits(name, DUMP_PROGRAM_ARENA);
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

static const char *topstr(void)
{
    const char *s = lua_tostring(L, -1);
    return s != NULL ? s : "(not a string)";
}

/* Pops the message and compares it. */
static int popmsg(const char *want)
{
    int same = strcmp(topstr(), want) == 0;
    if (!same)
        port_printf("  got \"%s\"\n  want \"%s\"\n", topstr(), want);
    lua_pop(L, 1);
    return same;
}

/* A program without library calls (the boards' unit images open none):
 * closures, varargs, numeric and generic loops, a table constructor,
 * goto, constants of every type. */
static const char program[] =
    "local t = {}\n"
    "for i = 1, 5 do t[i] = i * i end\n"
    "local function sum(a, ...) if a == nil then return 0 end\n"
    "  return a + sum(...) end\n"
    "local function iter(s, i) i = i + 1 if s[i] then return i, s[i] end end\n"
    "local n = 0\n"
    "for _, v in iter, t, 0 do n = n + v end\n"
    "local k = {1, 2, 3, x = true, y = false, z = nil}\n"
    "goto done\n"
    "n = -1\n"
    "::done::\n"
    "return sum(t[1], t[2], t[3], t[4], t[5]) + n, #k, 's' .. 1.5,\n"
    "  'a long string constant, over forty bytes long', 0x7fff\n";

/* ---- Writer and reader ------------------------------------------------ */
/* Room for the program's dump (664 bytes in the 64-bit model) and one
 * more byte; little, for the boards' small RAM. */
#define DUMP_BUF 1024
static uint8_t chunk[DUMP_BUF], copy[DUMP_BUF];
static size_t chunklen;
static int writes;

static int buf_writer(lua_State *L1, const void *p, size_t n, void *ud)
{
    (void)L1;
    (void)ud;
    writes++;
    if (n > DUMP_BUF - chunklen)
        return 1;
    memcpy(chunk + chunklen, p, n);
    chunklen += n;
    return 0;
}

/* Stops after `*ud` calls with status 7. */
static int failing_writer(lua_State *L1, const void *p, size_t n, void *ud)
{
    int *left = ud;
    (void)L1;
    (void)p;
    (void)n;
    return --*left > 0 ? 0 : 7;
}

struct bytes {
    const uint8_t *b;
    size_t n, i;
};

static const char *byte_reader(lua_State *L1, void *ud, size_t *sz)
{
    struct bytes *r = ud;
    (void)L1;
    if (r->i == r->n)
        return NULL;
    *sz = 1;
    return (const char *)&r->b[r->i++];
}

/* Compile `program` and dump it into chunk[]. */
static int dump_program(int strip)
{
    if (luaL_loadbufferx(L, program, sizeof(program) - 1, "=prog", "t") !=
        LUA_OK)
        return 0;
    chunklen = 0;
    writes = 0;
    int st = lua_dump(L, buf_writer, NULL, strip);
    lua_pop(L, 1);
    return st == 0;
}

/* Run the function on the top and check program's results. */
static int runs_program(void)
{
    if (lua_pcall(L, 0, 5, 0) != LUA_OK) {
        port_printf("  %s\n", topstr());
        return 0;
    }
    int ok = lua_tointegerx(L, -5, NULL) == 110 &&
             lua_tointegerx(L, -4, NULL) == 3 &&
             strcmp(lua_tostring(L, -3), "s1.5") == 0 &&
             lua_rawlen(L, -2) == 45 && lua_tointegerx(L, -1, NULL) == 0x7fff;
    lua_pop(L, 5);
    return ok;
}

static void test_dump_and_load_one_byte_at_a_time(void)
{
    CHECK(open_state());
    if (!program_fits("test_dump_and_load_one_byte_at_a_time"))
        return;
    CHECK(dump_program(0));
    CHECK(writes > 1);
    CHECK(memcmp(chunk, DUMP_SIGNATURE, DUMP_SIGNATURE_LEN) == 0);
    size_t n = chunklen;
    memcpy(copy, chunk, n);
    struct bytes r = {copy, n, 0};
    CHECK_EQ(lua_load(L, byte_reader, &r, "=bytes", "b"), LUA_OK);
    CHECK(checked());
    /* dumping the loaded function gives the same bytes */
    chunklen = 0;
    CHECK_EQ(lua_dump(L, buf_writer, NULL, 0), 0);
    CHECK_EQ(chunklen, n);
    CHECK(memcmp(chunk, copy, n) == 0);
    CHECK(runs_program());
    CHECK(checked());
    CHECK(close_state_empty());
}

static void test_stripped_chunk_runs_without_debug_information(void)
{
    CHECK(open_state());
    if (!program_fits("test_stripped_chunk_runs_without_debug_information"))
        return;
    CHECK(dump_program(0));
    size_t full = chunklen;
    CHECK(dump_program(1));
    CHECK(chunklen < full);
    /* the two compiles' garbage goes first: microbit's 64-bit arena holds
     * the program's run, not that too */
    lua_gc(L, LUA_GCCOLLECT);
    CHECK_EQ(luaL_loadbufferx(L, (const char *)chunk, chunklen, "=s", "b"),
             LUA_OK);
    lua_Debug ar;
    lua_pushvalue(L, -1);
    CHECK(lua_getinfo(L, ">S", &ar));
    CHECK(strcmp(ar.source, "=?") == 0);
    CHECK(runs_program());
    CHECK(checked());
    CHECK(close_state_empty());
}

static void test_writer_status_stops_the_dump(void)
{
    CHECK(open_state());
    if (!program_fits("test_writer_status_stops_the_dump"))
        return;
    CHECK_EQ(luaL_loadbufferx(L, program, sizeof(program) - 1, "=p", "t"),
             LUA_OK);
    int left = 2;
    CHECK_EQ(lua_dump(L, failing_writer, &left, 0), 7);
    CHECK_EQ(left, 0); /* no call after the failing one */
    lua_pop(L, 1);
    lua_pushinteger(L, 1);
    CHECK_EQ(lua_dump(L, buf_writer, NULL, 0), 1); /* not a function */
    lua_pop(L, 1);
    CHECK(close_state_empty());
}

/* ---- The header ------------------------------------------------------- */

/* Offsets in the header (lang/dump.h). */
#define H_VERSION 6
#define H_INTSIZE 7
#define H_NUMSIZE 8
#define H_INSTRSIZE 9
#define H_CHECKWORD 12
#define H_CHECKNUM 16

/* Load chunk[] with byte `at` replaced by v; the message must be want. */
static int refused(size_t at, uint8_t v, const char *want)
{
    uint8_t old = chunk[at];
    chunk[at] = v;
    int st = luaL_loadbufferx(L, (const char *)chunk, chunklen, "=c", NULL);
    chunk[at] = old;
    return st == LUA_ERRSYNTAX && popmsg(want);
}

static void test_header_refuses_other_builds(void)
{
    CHECK(open_state());
    if (!program_fits("test_header_refuses_other_builds"))
        return;
    CHECK(dump_program(0));
    CHECK(refused(H_VERSION, DUMP_VERSION + 1,
                  "c: bad binary format (version mismatch: the chunk has "
                  "format 2, this rtlua reads 1)"));
#if RTLUA_NUM == 64
    CHECK(refused(H_INTSIZE, 4,
                  "c: bad binary format (number model mismatch: the chunk "
                  "has 32-bit integers and 64-bit floats, this rtlua "
                  "64-bit ones)"));
    /* a chunk of the 32-bit model: both sizes 4 */
    chunk[H_NUMSIZE] = 4;
    CHECK(refused(H_INTSIZE, 4,
                  "c: bad binary format (number model mismatch: the chunk "
                  "has 32-bit integers and 32-bit floats, this rtlua "
                  "64-bit ones)"));
    chunk[H_NUMSIZE] = 8;
#else
    chunk[H_NUMSIZE] = 8;
    CHECK(refused(H_INTSIZE, 8,
                  "c: bad binary format (number model mismatch: the chunk "
                  "has 64-bit integers and 64-bit floats, this rtlua "
                  "32-bit ones)"));
    chunk[H_NUMSIZE] = 4;
#endif
    CHECK(refused(H_INSTRSIZE, 8,
                  "c: bad binary format (instruction size mismatch)"));
    /* the check word's bytes reversed: a chunk of the other byte order */
    uint8_t w[4];
    memcpy(w, chunk + H_CHECKWORD, 4);
    for (int i = 0; i < 4; i++)
        chunk[H_CHECKWORD + i] = w[3 - i];
    CHECK(refused(0, DUMP_SIGNATURE[0],
                  "c: bad binary format (byte order mismatch)"));
    memcpy(chunk + H_CHECKWORD, w, 4);
    CHECK(refused(H_CHECKNUM + 1, (uint8_t)(chunk[H_CHECKNUM + 1] ^ 0x10u),
                  "c: bad binary format (float format mismatch)"));
    CHECK(refused(1, 'R', "c: bad binary format (not a binary chunk)"));
    /* and the chunk itself still loads */
    CHECK_EQ(luaL_loadbufferx(L, (const char *)chunk, chunklen, "=c", "b"),
             LUA_OK);
    CHECK(runs_program());
    CHECK(checked());
    CHECK(close_state_empty());
}

static void test_every_truncated_prefix_is_refused(void)
{
    CHECK(open_state());
    if (!program_fits("test_every_truncated_prefix_is_refused"))
        return;
    CHECK(dump_program(0));
    for (size_t n = 1; n < chunklen; n++) {
        CHECK_EQ(luaL_loadbufferx(L, (const char *)chunk, n, "@f.lua", "b"),
                 LUA_ERRSYNTAX);
        CHECK(popmsg("f.lua: bad binary format (truncated chunk)"));
    }
    /* one byte too many is no chunk either */
    chunk[chunklen] = 0;
    CHECK_EQ(luaL_loadbufferx(L, (const char *)chunk, chunklen + 1, "=x", "b"),
             LUA_ERRSYNTAX);
    CHECK(popmsg("x: bad binary format (corrupted chunk: bytes after the "
                 "end)"));
    CHECK(checked());
    gc_fullgc(L);
    CHECK(checked());
    CHECK(close_state_empty());
}

/* ---- Corrupted code --------------------------------------------------- */

static uint32_t varint_at(size_t *pos)
{
    uint32_t v = 0;
    int shift = 0;
    uint8_t b;
    do {
        b = chunk[(*pos)++];
        v |= (uint32_t)(b & 0x7Fu) << shift;
        shift += 7;
    } while (b & 0x80u);
    return v;
}

/* Where the main function's code starts in chunk[], and its length. */
static size_t main_code(int *ncode)
{
    size_t pos = H_CHECKNUM + sizeof(rt_num);
    unsigned flags = chunk[pos];
    pos += 3; /* flags, numparams, maxstacksize */
    varint_at(&pos);
    varint_at(&pos);
    if (flags & DUMP_F_SOURCE) {
        uint32_t n = varint_at(&pos);
        pos += n - 1;
    }
    *ncode = (int)varint_at(&pos);
    while (pos % DUMP_CODE_ALIGN)
        pos++;
    return pos;
}

/* The index of the first instruction with opcode op, or -1. */
static int find_op(size_t code, int ncode, int op, int from)
{
    for (int i = from; i < ncode; i++) {
        instr x;
        memcpy(&x, chunk + code + 4 * (size_t)i, 4);
        if (GET_OP(x) == op)
            return i;
    }
    return -1;
}

/* Load chunk[] with instruction pc replaced by x: refused with a
 * message starting with want. */
static int code_refused(size_t code, int pc, instr x, const char *want)
{
    instr old;
    memcpy(&old, chunk + code + 4 * (size_t)pc, 4);
    memcpy(chunk + code + 4 * (size_t)pc, &x, 4);
    int st = luaL_loadbufferx(L, (const char *)chunk, chunklen, "=c", "b");
    memcpy(chunk + code + 4 * (size_t)pc, &old, 4);
    if (st != LUA_ERRSYNTAX) {
        port_printf("  status %d for \"%s\"\n", st, want);
        if (st == LUA_OK)
            lua_pop(L, 1);
        return 0;
    }
    int same = strncmp(topstr(), want, strlen(want)) == 0;
    if (!same)
        port_printf("  got \"%s\"\n  want \"%s...\"\n", topstr(), want);
    lua_pop(L, 1);
    return same;
}

#define CORRUPT "c: bad binary format (corrupted chunk: "

static void test_corrupted_code_is_refused_with_its_reason(void)
{
    CHECK(open_state());
    if (!program_fits("test_corrupted_code_is_refused_with_its_reason"))
        return;
    CHECK(dump_program(0));
    int ncode;
    size_t code = main_code(&ncode);
    CHECK(ncode > 10);
    int last = ncode - 1; /* the final RETURN, after another RETURN */
    int newtable = find_op(code, ncode, OP_NEWTABLE, 0);
    CHECK(newtable > 0);
    struct {
        int pc; /* -1: the last instruction */
        instr x;
        const char *why;
    } cases[] = {
        {-1, CREATE_ABCk(OP_MOVE, 250, 0, 0, 0), "register out of range"},
        {-1, CREATE_ABx(OP_LOADK, 0, 60000), "constant out of range"},
        {-1, CREATE_ABCk(OP_GETUPVAL, 0, 9, 0, 0), "upvalue out of range"},
        {-1, CREATE_ABx(OP_CLOSURE, 0, 99), "function index out of range"},
        {-1, CREATE_sJ(OP_JMP, 1000), "jump out of the code"},
        {-1, CREATE_ABCk(OP_MOVE, 0, 1, 0, 0), "jump out of the code"},
        {-1, CREATE_ABx(OP_FORPREP, 0, 1), "FORPREP without its FORLOOP"},
        {-1, CREATE_Ax(OP_EXTRAARG, 0), "EXTRAARG without its instruction"},
        {-1, CREATE_ABCk(OP_VARARGPREP, 0, 0, 0, 0), "misplaced VARARGPREP"},
        {-1, CREATE_ABCk(OP_RETURN0, 0, 0, 0, 0), "return without closing"},
        {-1, (instr)0x7Fu, "unknown opcode"},
        {newtable + 1, CREATE_ABCk(OP_MOVE, 0, 0, 0, 0),
         "NEWTABLE without its EXTRAARG"},
        {newtable + 2, CREATE_ABCk(OP_CALL, 0, 0, 1, 0),
         "open results without their producer"},
        {newtable + 2, CREATE_Ax(OP_EXTRAARG, 0), "jump to an EXTRAARG"},
        {0, CREATE_ABCk(OP_LOADNIL, 0, 0, 0, 0),
         "vararg function without VARARGPREP"},
    };
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        char want[120];
        strcpy(want, CORRUPT);
        strcat(want, cases[c].why);
        if (!code_refused(code, cases[c].pc < 0 ? last : cases[c].pc,
                          cases[c].x, want)) {
            port_printf("  case %u\n", (unsigned)c);
            CHECK(0);
        }
    }
    /* whole messages: where, in which function */
    CHECK(code_refused(code, 0, CREATE_ABCk(OP_LOADNIL, 0, 0, 0, 0),
                       CORRUPT "vararg function without VARARGPREP in the "
                               "function at line 0)"));
    char want[120], num[12];
    int k = 0;
    for (int v = last + 1; v > 0; v /= 10)
        num[k++] = (char)('0' + v % 10);
    strcpy(want, CORRUPT "register out of range at instruction ");
    size_t n = strlen(want);
    while (k > 0)
        want[n++] = num[--k];
    strcpy(want + n, " of the function at line 0)");
    CHECK(code_refused(code, last, CREATE_ABCk(OP_MOVE, 250, 0, 0, 0), want));
    /* the chunk is unchanged: it loads */
    CHECK_EQ(luaL_loadbufferx(L, (const char *)chunk, chunklen, "=c", "b"),
             LUA_OK);
    CHECK(runs_program());
    CHECK(checked());
    CHECK(close_state_empty());
}

/* A binary chunk the verifier accepts (the function closes on return)
 * but whose tail call leaves a to-be-closed variable open: the
 * interpreter raises an error and closes it. */
static int closed;

static int close_fn(lua_State *L1)
{
    (void)L1;
    closed++;
    return 0;
}

static void test_tail_call_in_tbc_scope_is_an_error(void)
{
    static const char src[] = "local function g() return 1 end\n"
                              "local x <close> = ...\n"
                              "return g()\n";
    CHECK(open_state());
    CHECK_EQ(luaL_loadbufferx(L, src, sizeof(src) - 1, "=tbc", "t"), LUA_OK);
    chunklen = 0;
    CHECK_EQ(lua_dump(L, buf_writer, NULL, 0), 0);
    lua_pop(L, 1);
    int ncode;
    size_t code = main_code(&ncode);
    int tbc = find_op(code, ncode, OP_TBC, 0);
    CHECK(tbc > 0);
    int call = find_op(code, ncode, OP_CALL, tbc);
    CHECK(call > tbc);
    instr x;
    memcpy(&x, chunk + code + 4 * (size_t)call, 4);
    x = (x & ~(instr)0x7Fu) | OP_TAILCALL;
    SETARG_k(x, 1);
    SETARG_C(x, 0);
    memcpy(chunk + code + 4 * (size_t)call, &x, 4);
    CHECK_EQ(luaL_loadbufferx(L, (const char *)chunk, chunklen, "=t", "b"),
             LUA_OK);
    lua_newtable(L); /* the to-be-closed value */
    lua_newtable(L);
    lua_pushcfunction(L, close_fn);
    lua_setfield(L, -2, "__close");
    lua_setmetatable(L, -2);
    closed = 0;
    CHECK_EQ(lua_pcall(L, 1, 1, 0), LUA_ERRRUN);
    CHECK(popmsg("tbc:3: tail call in the scope of a to-be-closed variable"));
    CHECK_EQ(closed, 1); /* the error closed it */
    CHECK(checked());
    CHECK(close_state_empty());
}

/* A nested function that captures a register its parent then calls in
 * (fuzz_image's find: the setter below, made to capture the numeric
 * for's hidden index instead of i, wrote 100 into the function slot of
 * its own frame, and what read the running function there (a count
 * hook, an error message) took the integer for a closure).  As compiled
 * the chunk loads and runs; with the setter capturing the index it is
 * refused. */
static const char open_src[] =
    "local t = {}\n"
    "for i = 1, 2 do t[i] = function(v) i = v return v.x end end\n"
    "t[1](100)\n";

static void test_a_call_over_an_open_upvalue_is_refused(void)
{
    CHECK(open_state());
    if (!program_fits("test_a_call_over_an_open_upvalue_is_refused"))
        return;
    CHECK_EQ(luaL_loadbufferx(L, open_src, sizeof(open_src) - 1, "=open", "t"),
             LUA_OK);
    proto *p = gco2lcl(gc_of(L->top - 1))->p;
    int forprep = -1, call = -1;
    for (int pc = 0; pc < p->sizecode; pc++) {
        if (GET_OP(p->code[pc]) == OP_FORPREP && forprep < 0)
            forprep = pc;
        if (GET_OP(p->code[pc]) == OP_CALL && call < 0)
            call = pc; /* t[1](100), in the loop's index */
    }
    CHECK(forprep >= 0 && call > forprep && p->sizep == 1);
    int a = GETARG_A(p->code[forprep]);
    upvaldesc *u = &p->p[0]->upvalues[0];
    CHECK(u->instack && u->idx == a + 3); /* i */
    chunklen = 0;
    CHECK_EQ(lua_dump(L, buf_writer, NULL, 0), 0);
    u->idx = (uint8_t)a; /* the loop's index */
    size_t good = chunklen;
    CHECK_EQ(lua_dump(L, buf_writer, NULL, 0), 0);
    lua_pop(L, 1);
    CHECK_EQ(luaL_loadbufferx(L, (const char *)chunk, good, "=c", "b"),
             LUA_OK);
    CHECK_EQ(lua_pcall(L, 0, 1, 0), LUA_ERRRUN);
    CHECK(popmsg("open:2: attempt to index a number value (local 'v')"));
    CHECK_EQ(luaL_loadbufferx(L, (const char *)chunk + good, chunklen - good,
                              "=c", "b"),
             LUA_ERRSYNTAX);
    char want[120];
    port_snprintf(want, sizeof want,
                  CORRUPT "call over an open upvalue at instruction %d of the "
                          "function at line 0)",
                  call + 1);
    CHECK(popmsg(want));
    CHECK(checked());
    CHECK(close_state_empty());
}

/* A numeric for loop's hidden registers (its index, its count or limit,
 * its step) are the loop's own in compiled code, but a loaded function
 * may write them in the loop's body.  FORLOOP must then not change the
 * number in what is no longer a number: when it updated the index's
 * value alone (not its type), a table written there became a table at
 * its address plus the step, or (a float loop) at the step's bits, and
 * the collector marked it (the fuzzer's case: "misaligned address" in
 * markvalue).  The chunk below, made to read the hidden index into
 * `last` and to write the table `t` into it, must return a number (it
 * stops at its second turn: a float loop whose index is reset each turn
 * would not end; its limit is infinite, so that a float made of a
 * table's bits stays below it, but for a NaN). */
static const char forloop_fmt[] = "local t = {}\n"
                                  "local last, n = nil, 0\n"
                                  "for i = %s, 1 / 0 do\n"
                                  "  last = i\n"
                                  "  n = n + 1\n"
                                  "  if n == 2 then break end\n"
                                  "  local y = t\n"
                                  "end\n"
                                  "return last\n";

static int forloop_patched(const char *src, size_t len)
{
    if (luaL_loadbufferx(L, src, len, "=for", "t") != LUA_OK)
        return 0;
    proto *p = gco2lcl(gc_of(L->top - 1))->p;
    int forprep = -1, moves = 0;
    for (int pc = 0; pc < p->sizecode; pc++) {
        instr i = p->code[pc];
        if (GET_OP(i) == OP_FORPREP && forprep < 0)
            forprep = pc;
        else if (GET_OP(i) == OP_MOVE && forprep >= 0) {
            int a = GETARG_A(p->code[forprep]);
            if (moves == 0 && GETARG_B(i) == a + 3) /* last = i */
                p->code[pc] = CREATE_ABCk(OP_MOVE, GETARG_A(i), a, 0, 0);
            else if (moves == 1 && GETARG_B(i) == 0) /* y = t */
                p->code[pc] = CREATE_ABCk(OP_MOVE, a, 0, 0, 0);
            else
                return 0;
            moves++;
        }
    }
    if (moves != 2)
        return 0;
    chunklen = 0;
    int st = lua_dump(L, buf_writer, NULL, 0);
    lua_pop(L, 1);
    return st == 0 && luaL_loadbufferx(L, (const char *)chunk, chunklen, "=c",
                                       "b") == LUA_OK;
}

static void test_a_for_loops_hidden_registers_keep_their_types(void)
{
    CHECK(open_state());
    if (!program_fits("test_a_for_loops_hidden_registers_keep_their_types"))
        return;
    char src[sizeof forloop_fmt + 8];
    for (int flt = 0; flt <= 1; flt++) {
        /* the integer loop, then the float one (from 1.0) */
        port_snprintf(src, sizeof src, forloop_fmt, flt ? "1.0" : "1");
        CHECK(forloop_patched(src, strlen(src)));
        CHECK_EQ(lua_pcall(L, 0, 1, 0), LUA_OK);
        CHECK_EQ(lua_type(L, -1), LUA_TNUMBER);
        CHECK_EQ(lua_isinteger(L, -1), !flt);
        lua_pop(L, 1);
        CHECK(checked());
    }
    CHECK(close_state_empty());
}

/* The search for open upvalues follows as many registers in one sweep
 * of the code as its scratch has bits an instruction (lang/verify.c):
 * every width from 1 to 32 must give one answer.  A compiled chunk whose
 * captured locals lie below and above register 32, in loops, closed by
 * CLOSE and by returns, is accepted at every width; made to capture
 * each register in turn instead (each captured register of each nested
 * function), it gets the same answer at every width, at the same
 * instruction. */
static const char wide_src[] =
    "local t, n = {}, 0\n"
    "local a01, a02, a03, a04, a05, a06, a07, a08, a09, a10 = 1\n"
    "local a11, a12, a13, a14, a15, a16, a17, a18, a19, a20 = 2\n"
    "local a21, a22, a23, a24, a25, a26, a27, a28, a29, a30 = 3\n"
    "local a31, a32, a33, a34, a35, a36, a37, a38, a39, a40 = 4\n"
    "for i = 1, 3 do\n"
    "  local x = i\n"
    "  t[i] = function() return x + a01 + a35 end\n"
    "  if i == 2 then n = n + #t else print(x) end\n"
    "end\n"
    "while n < 10 do\n"
    "  local z = n\n"
    "  t[#t + 1] = function() z = z + a38 return z end\n"
    "  n = n + t[#t]()\n"
    "end\n"
    "for k, v in pairs(t) do local y = v t[k] = function() return y, a02 end "
    "end\n"
    "local function f() return a39, t end\n"
    "print(f())\n"
    "return f\n";

/* verify_proto at width w (a scratch of the bytes that width takes). */
static const char *verify_at(const proto *p, void *scratch, int w, int *pc)
{
    size_t least = verify_scratchsize(p);
    size_t size = ((size_t)p->sizecode * (size_t)w + 31) / 32 * 4;
    *pc = -1;
    return verify_proto(p, NULL, scratch, size > least ? size : least, pc);
}

static void test_every_width_of_the_open_search_agrees(void)
{
    CHECK(open_state());
    if (!arena_fits("test_every_width_of_the_open_search_agrees",
                    DUMP_WIDE_ARENA))
        return;
    CHECK_EQ(luaL_loadbufferx(L, wide_src, sizeof(wide_src) - 1, "=wide", "t"),
             LUA_OK);
    proto *p = gco2lcl(gc_of(L->top - 1))->p;
    CHECK(p->maxstacksize > 40);
    /* without its locals' names, whose check would widen the scratch */
    int32_t nlocals = p->sizelocvars;
    p->sizelocvars = 0;
    size_t least;
    size_t fast = verify_scratchfast(p, &least);
    CHECK(fast > least);
    void *scratch = lua_newuserdatauv(L, fast, 0);
    int pc, mutants = 0, refused = 0, high = 0;
    for (int w = 1; w <= 32; w *= 2)
        CHECK(verify_at(p, scratch, w, &pc) == NULL);
    for (int c = 0; c < p->sizep; c++) {
        proto *child = p->p[c];
        for (int u = 0; u < child->sizeupvalues; u++) {
            upvaldesc *d = &child->upvalues[u];
            if (!d->instack)
                continue;
            uint8_t was = d->idx;
            high += was >= 32;
            for (int r = 0; r < p->maxstacksize; r++) {
                d->idx = (uint8_t)r;
                int pc1;
                const char *why1 = verify_at(p, scratch, 1, &pc1);
                mutants++;
                refused += why1 != NULL;
                for (int w = 2; w <= 32; w *= 2) {
                    const char *why = verify_at(p, scratch, w, &pc);
                    if (why != why1 || pc != pc1) {
                        port_printf("  capture of %d by function %d: width 1 "
                                    "%s at %d, width %d %s at %d\n",
                                    r, c, why1 ? why1 : "accepts", pc1, w,
                                    why ? why : "accepts", pc);
                        CHECK(0);
                    }
                }
            }
            d->idx = was;
        }
    }
    p->sizelocvars = nlocals;
    /* captures above register 32 were among them, and both answers */
    CHECK(high > 0);
    CHECK(refused > 0 && refused < mutants);
    port_printf("# dump: %d captures moved, %d refused at every width\n",
                mutants, refused);
    lua_pop(L, 2);
    CHECK(checked());
    CHECK(close_state_empty());
}

/* ---- The verifier on prototypes built by hand ------------------------- */

static instr vcode[8];
static tvalue vk[2];
static upvaldesc vup[2];
static proto vp, vparent, vchild;
static proto *vchildren[1];

/* function (a) return a end, with one short-string constant slot. */
static void reset_proto(void)
{
    memset(&vp, 0, sizeof(vp));
    vp.maxstacksize = 2;
    vp.numparams = 1;
    vp.code = vcode;
    vp.sizecode = 1;
    vcode[0] = CREATE_ABCk(OP_RETURN1, 0, 0, 0, 0);
    vp.k = vk;
    vp.sizek = 1;
    set_int(&vk[0], 5);
    vp.upvalues = vup;
    vp.sizeupvalues = 0;
}

static const char *verified(void)
{
    int pc = -2;
    int32_t scratch[OP_MAXREGS];
    return verify_proto(&vp, &vparent, scratch, sizeof scratch, &pc);
}

static int says(const char *why)
{
    const char *got = verified();
    if (got == NULL || strcmp(got, why) != 0) {
        port_printf("  got %s, want %s\n", got ? got : "(accepted)", why);
        return 0;
    }
    return 1;
}

static void test_verifier_rules_one_by_one(void)
{
    memset(&vparent, 0, sizeof(vparent));
    vparent.maxstacksize = 3;
    vparent.sizeupvalues = 1;
    reset_proto();
    CHECK(verified() == NULL);
    /* lines defined: in order, never negative (a dump writes them as
     * unsigned numbers, which the loader refuses past 2^31 - 1: a flash
     * image's function with a negative one did not load when dumped) */
    vp.linedefined = 3;
    vp.lastlinedefined = 2;
    CHECK(says("bad line range"));
    vp.linedefined = -5;
    vp.lastlinedefined = 2;
    CHECK(says("bad line range"));
    reset_proto();
    /* falling off the end */
    vcode[0] = CREATE_ABCk(OP_MOVE, 1, 0, 0, 0);
    CHECK(says("jump out of the code"));
    /* GETFIELD needs a short-string constant */
    reset_proto();
    vcode[0] = CREATE_ABCk(OP_GETFIELD, 0, 0, 0, 0);
    vcode[1] = CREATE_ABCk(OP_RETURN1, 0, 0, 0, 0);
    vp.sizecode = 2;
    CHECK(says("constant key is not a short string"));
    /* ADDK needs a number */
    set_bool(&vk[0], 1);
    vcode[0] = CREATE_ABCk(OP_ADDK, 0, 0, 0, 0);
    CHECK(says("arithmetic constant is not a number"));
    /* a test without its jump */
    reset_proto();
    vcode[0] = CREATE_ABCk(OP_TEST, 0, 0, 0, 0);
    vcode[1] = CREATE_ABCk(OP_RETURN1, 0, 0, 0, 0);
    vp.sizecode = 2;
    CHECK(says("test without its jump"));
    /* LOADNIL's range */
    vcode[0] = CREATE_ABCk(OP_LOADNIL, 1, 1, 0, 0);
    CHECK(says("register out of range"));
    /* CALL's results past the frame */
    vcode[0] = CREATE_ABCk(OP_CALL, 0, 1, 4, 0);
    CHECK(says("register out of range"));
    /* TFORCALL needs room for the iterator's copies */
    vcode[0] = CREATE_ABCk(OP_TFORCALL, 0, 0, 1, 0);
    CHECK(says("TFORCALL without its TFORLOOP"));
    /* frames and parameters */
    reset_proto();
    vp.numparams = 3;
    CHECK(says("more parameters than registers"));
    reset_proto();
    vp.maxstacksize = 1;
    CHECK(says("frame size out of range"));
    /* upvalues against the enclosing function */
    reset_proto();
    vp.sizeupvalues = 1;
    vup[0].instack = 1;
    vup[0].idx = 3; /* the parent has 3 registers */
    CHECK(says("upvalue not in the enclosing function"));
    vup[0].idx = 2;
    CHECK(verified() == NULL);
    vup[0].instack = 0;
    vup[0].idx = 1; /* the parent has 1 upvalue */
    CHECK(says("upvalue not in the enclosing function"));
    vup[0].kind = 9;
    CHECK(says("bad upvalue description"));
    /* a nested function capturing a register: returns must close */
    reset_proto();
    memset(&vchild, 0, sizeof(vchild));
    vchild.upvalues = vup;
    vchild.sizeupvalues = 1;
    vup[0].instack = 1;
    vup[0].idx = 0;
    vup[0].kind = VD_REG;
    vchildren[0] = &vchild;
    vp.p = vchildren;
    vp.sizep = 1;
    CHECK(says("return without closing"));
    vcode[0] = CREATE_ABCk(OP_RETURN, 0, 2, 0, 1);
    CHECK(verified() == NULL);
    /* no call's frame over a captured register: captured, called in,
     * closed in between, reached again by a back edge */
    vp.maxstacksize = 3;
    vcode[0] = CREATE_ABx(OP_CLOSURE, 1, 0);
    vcode[1] = CREATE_ABCk(OP_CALL, 0, 1, 1, 0);
    vcode[2] = CREATE_ABCk(OP_RETURN, 0, 1, 0, 1);
    vp.sizecode = 3;
    CHECK(says("call over an open upvalue"));
    vcode[1] = CREATE_ABCk(OP_CALL, 1, 1, 1, 0);
    CHECK(verified() == NULL);
    vcode[0] = CREATE_ABCk(OP_CALL, 0, 1, 1, 0);
    vcode[1] = CREATE_ABx(OP_CLOSURE, 1, 0);
    vcode[2] = CREATE_sJ(OP_JMP, -3);
    CHECK(says("call over an open upvalue"));
    vcode[2] = CREATE_ABCk(OP_CLOSE, 0, 0, 0, 0);
    vcode[3] = CREATE_sJ(OP_JMP, -4);
    vp.sizecode = 4;
    CHECK(verified() == NULL);
    /* nor over a to-be-closed variable */
    vp.sizep = 0;
    vcode[0] = CREATE_ABCk(OP_TBC, 0, 0, 0, 0);
    vcode[1] = CREATE_ABCk(OP_CALL, 0, 1, 1, 0);
    vcode[2] = CREATE_ABCk(OP_RETURN, 0, 1, 0, 1);
    vp.sizecode = 3;
    CHECK(says("call over an open upvalue"));
    /* line information */
    reset_proto();
    int8_t li[1] = {OP_ABSLINE};
    vp.lineinfo = li;
    vp.sizelineinfo = 1;
    CHECK(says("absolute line information out of step"));
    /* more active locals than registers */
    reset_proto();
    locvar lv[3];
    for (int i = 0; i < 3; i++) {
        lv[i].name = NULL;
        lv[i].startpc = 0;
        lv[i].endpc = 1;
    }
    vp.locvars = lv;
    vp.sizelocvars = 3;
    CHECK(says("local without a name"));
    CHECK(open_state());
    for (int i = 0; i < 3; i++)
        lv[i].name = (str *)G(L)->tmname[0]; /* any string */
    CHECK(says("more locals than registers"));
    lv[2].startpc = 1; /* the third starts where the others end */
    CHECK(verified() == NULL);
    lv[2].startpc = 0;
    lv[1].endpc = 2;
    CHECK(says("bad local range"));
    CHECK(close_state_empty());
}

/* ---- Memory ------------------------------------------------------------ */

static void test_fault_injection_over_a_load(void)
{
    CHECK(open_state());
    if (!program_fits("test_fault_injection_over_a_load"))
        return;
    CHECK(dump_program(0));
    CHECK(close_state_empty());
    size_t n = chunklen;
    memcpy(copy, chunk, n);
    uint32_t done_at = 0;
    for (uint32_t k = 1; k < 2000; k++) {
        CHECK(open_state());
        G(L)->failafter = k;
        int st = luaL_loadbufferx(L, (const char *)copy, n, "=f", "b");
        int reached = G(L)->failafter == 0;
        G(L)->failafter = 0;
        if (st == LUA_ERRMEM)
            CHECK(popmsg("not enough memory"));
        else {
            CHECK_EQ(st, LUA_OK);
            CHECK(runs_program());
        }
        CHECK(checked());
        gc_fullgc(L);
        CHECK(checked());
        CHECK(close_state_empty());
        if (!reached) {
            CHECK_EQ(st, LUA_OK);
            done_at = k;
            break;
        }
    }
    CHECK(done_at > 10); /* the load did allocate that often */
}

/* A load's blocks are as large as what it loads, never a fixed worst
 * case: the verifier's scratch for locals is sized by the prototype's
 * registers (a fixed OP_MAXREGS array, 1,020 bytes, failed microbit's
 * loads when its arena was fragmented, as a random string seed left it
 * now and then).  The arena is cut into FRAG_HOLE-byte holes, each
 * between two held blocks, and the program's chunk must load into them. */
#define FRAG_HOLE 512u

static void test_a_chunk_loads_into_a_fragmented_arena(void)
{
    CHECK(open_state());
    if (!program_fits("test_a_chunk_loads_into_a_fragmented_arena"))
        return;
    CHECK(dump_program(0));
    lua_gc(L, LUA_GCCOLLECT);
    check_frag f;
    int holes = check_fragment(&f, G(L)->arena, FRAG_HOLE);
    int fragmented = arena_largest_alloc(G(L)->arena) < 2 * FRAG_HOLE;
    int st = luaL_loadbufferx(L, (const char *)chunk, chunklen, "=f", "b");
    check_unfragment(&f);
    CHECK(holes >= 3);
    CHECK(fragmented);
    if (st != LUA_OK)
        port_printf("  status %d: %s\n", st, topstr());
    CHECK_EQ(st, LUA_OK);
    CHECK(runs_program());
    CHECK(checked());
    CHECK(close_state_empty());
}

static const struct check_case cases[] = {
    CASE(test_dump_and_load_one_byte_at_a_time),
    CASE(test_stripped_chunk_runs_without_debug_information),
    CASE(test_writer_status_stops_the_dump),
    CASE(test_header_refuses_other_builds),
    CASE(test_every_truncated_prefix_is_refused),
    CASE(test_corrupted_code_is_refused_with_its_reason),
    CASE(test_tail_call_in_tbc_scope_is_an_error),
    CASE(test_a_call_over_an_open_upvalue_is_refused),
    CASE(test_a_for_loops_hidden_registers_keep_their_types),
    CASE(test_every_width_of_the_open_search_agrees),
    CASE(test_verifier_rules_one_by_one),
    CASE(test_fault_injection_over_a_load),
    CASE(test_a_chunk_loads_into_a_fragmented_arena),
};

int main(void)
{
    return check_main("dump", cases, CHECK_COUNT(cases));
}
