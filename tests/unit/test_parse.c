/*
 * test_parse.c — the compiler (lang/parse.c, lang/code.c, lang/load.c):
 * syntax error messages byte for byte as lua5.4 gives them, the limits
 * and their messages, the shape of the code generated for a few
 * constructs (folding, immediates, tail calls, closing, SETLIST, line
 * information), memory exhaustion under a tiny arena and countdown fault
 * injection over a whole compilation, each leaving a consistent heap and
 * an empty arena after state_close.
 *
 * The expected messages were produced by lua5.4 (5.4.4) with
 *   lua5.4 -e 'print(load(SOURCE, "=t"))'
 * for every SOURCE of the syntax_errors table (generated in one go by a
 * script doing exactly that).
 */
#include "check.h"
#include "gc/arena.h"
#include "gc/gc.h"
#include "include/lauxlib.h"
#include "include/lua.h"
#include "include/rtlua.h"
#include "lang/dis.h"
#include "vm/debug.h"
#include "vm/obj.h"
#include "vm/opcodes.h"
#include "vm/state.h"

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
    const tvalue *o = L->top - 1;
    return is_str(o) ? str_data(gco2str(gc_of(o))) : "";
}

static int compile(const char *src)
{
    return rtlua_loadbuffer(L, src, strlen(src), "=t", NULL);
}

/* The main prototype of the closure at the top. */
static const proto *top_proto(void)
{
    return gco2lcl(gc_of(L->top - 1))->p;
}

/* Bytes of a listing: the largest function listed here needs more than
 * 1 KiB; 4 KiB left microbit's 64-bit test image too small an arena. */
#define LISTING_SIZE 2048
static char listing[LISTING_SIZE];

/* Compile src and list its main function; NULL on a compile error. */
static const char *list(const char *src)
{
    if (compile(src) != LUA_OK) {
        port_printf("  compile error: %s\n", topstr());
        return NULL;
    }
    dis_proto(top_proto(), listing, sizeof(listing));
    return listing;
}

/* Occurrences of s in the listing. */
static int count(const char *s)
{
    int n = 0;
    for (const char *p = listing; (p = strstr(p, s)) != NULL; p++)
        n++;
    return n;
}

/* ---- Syntax errors ------------------------------------------------------ */

static const struct {
    const char *src, *msg;
} syntax_errors[] = {
    {"x = = 1", "t:1: unexpected symbol near '='"},
    {"f(", "t:1: unexpected symbol near <eof>"},
    {"a.b:c = 1", "t:1: function arguments expected near '='"},
    {"return return", "t:1: unexpected symbol near 'return'"},
    {"local function end", "t:1: <name> expected near 'end'"},
    {"x = 1 +", "t:1: unexpected symbol near <eof>"},
    {"(a) = 1", "t:1: syntax error near '='"},
    {"a,b()=1", "t:1: syntax error near '='"},
    {"function f() x = ... end",
     "t:1: cannot use '...' outside a vararg function near '...'"},
    {"if x then else elseif end", "t:1: 'end' expected near 'elseif'"},
    {"x = 'abc' 'd' =", "t:1: unexpected symbol near ''d''"},
    {"x = 3 y", "t:1: syntax error near <eof>"},
    {"local 1", "t:1: <name> expected near '1'"},
    {"goto x", "t:1: no visible label 'x' for <goto> at line 1"},
    {"goto x; local a; ::x:: print(a)",
     "t:1: <goto x> at line 1 jumps into the scope of local 'a'"},
    {"::x:: ::x::", "t:1: label 'x' already defined on line 1"},
    {"break", "t:1: break outside loop at line 1"},
    {"local x <const> = 1; x = 2",
     "t:1: attempt to assign to const variable 'x'"},
    {"local x <foo> = 1", "t:1: unknown attribute 'foo'"},
    {"local x <close>, y <close> = 1",
     "t:1: multiple to-be-closed variables in local list"},
    {"for i=1 do end", "t:1: ',' expected near 'do'"},
    {"::x:: goto x; ::x::", "t:1: label 'x' already defined on line 1"},
    {"repeat local a until a goto b",
     "t:1: no visible label 'b' for <goto> at line 1"},
    {"if x then\n\n y = 1",
     "t:3: 'end' expected (to close 'if' at line 1) near <eof>"},
    {"x = 1\n\n y = ", "t:3: unexpected symbol near <eof>"},
    {"for i in 1", "t:1: 'do' expected near <eof>"},
    {"for 1", "t:1: <name> expected near '1'"},
    {"for i, 2 in x do end", "t:1: <name> expected near '2'"},
    {"while true do", "t:1: 'end' expected near <eof>"},
    {"while true", "t:1: 'do' expected near <eof>"},
    {"repeat x = 1", "t:1: 'until' expected near <eof>"},
    {"function", "t:1: <name> expected near <eof>"},
    {"function f(", "t:1: <name> or '...' expected near <eof>"},
    {"function f(a,) end", "t:1: <name> or '...' expected near ')'"},
    {"function f(a, 1) end", "t:1: <name> or '...' expected near '1'"},
    {"function f(..., a) end", "t:1: ')' expected near ','"},
    {"local t = {1, 2", "t:1: '}' expected near <eof>"},
    {"local t = {[1] 2}", "t:1: '=' expected near '2'"},
    {"t = {x = }", "t:1: unexpected symbol near '}'"},
    {"x = #", "t:1: unexpected symbol near <eof>"},
    {"x = not", "t:1: unexpected symbol near <eof>"},
    {"x.1 = 2", "t:1: syntax error near '.1'"},
    {"x[1 = 2", "t:1: ']' expected near '='"},
    {"x:y", "t:1: function arguments expected near <eof>"},
    {"x:y = 1", "t:1: function arguments expected near '='"},
    {"return 1 2", "t:1: <eof> expected near '2'"},
    {"return 1,", "t:1: unexpected symbol near <eof>"},
    {"local a <const> = 1; local function f() a = 2 end",
     "t:1: attempt to assign to const variable 'a'"},
    {"local a <close> = nil; a = 1",
     "t:1: attempt to assign to const variable 'a'"},
    {"x = function() end end", "t:1: <eof> expected near 'end'"},
    {"end", "t:1: <eof> expected near 'end'"},
    {"else", "t:1: <eof> expected near 'else'"},
    {"until", "t:1: <eof> expected near 'until'"},
    {"x = 1e", "t:1: malformed number near '1e'"},
    {"x = 0x", "t:1: malformed number near '0x'"},
    {"x = '", "t:1: unfinished string near <eof>"},
    {"x = [[", "t:1: unfinished long string (starting at line 1) near <eof>"},
    {"--[[", "t:1: unfinished long comment (starting at line 1) near <eof>"},
    {"x = \"\\q\"", "t:1: invalid escape sequence near '\"\\q'"},
    {"x = y z", "t:1: syntax error near <eof>"},
    {"x = (1", "t:1: ')' expected near <eof>"},
    {"x = {", "t:1: unexpected symbol near <eof>"},
    {"local", "t:1: <name> expected near <eof>"},
    {"local function", "t:1: <name> expected near <eof>"},
    {"local x =", "t:1: unexpected symbol near <eof>"},
    {"goto", "t:1: <name> expected near <eof>"},
    {"goto 1", "t:1: <name> expected near '1'"},
    {"::", "t:1: <name> expected near <eof>"},
    {"::x", "t:1: '::' expected near <eof>"},
    {"::x:", "t:1: '::' expected near ':'"},
    {"f(1,)", "t:1: unexpected symbol near ')'"},
    {"f(,1)", "t:1: unexpected symbol near ','"},
    {"x = a..", "t:1: unexpected symbol near <eof>"},
    {"x = 1 .. 2 ..", "t:1: unexpected symbol near <eof>"},
    {"do end end", "t:1: <eof> expected near 'end'"},
    {"if x then end end", "t:1: <eof> expected near 'end'"},
    {"x = }", "t:1: unexpected symbol near '}'"},
    {"local a, b, = 1", "t:1: <name> expected near '='"},
    {"a, = 1", "t:1: unexpected symbol near '='"},
    {"for i = 1, 2, 3, 4 do end", "t:1: 'do' expected near ','"},
    {"for k, v in pairs(t) do", "t:1: 'end' expected near <eof>"},
    {"function f() return ... end",
     "t:1: cannot use '...' outside a vararg function near '...'"},
    {"local x = 1 local x <const> = 2 x = 3",
     "t:1: attempt to assign to const variable 'x'"},
    {"do break end", "t:1: break outside loop at line 1"},
    {"if true then break end", "t:1: break outside loop at line 1"},
    {"x = 1 x = 2 ::l:: ::l::", "t:1: label 'l' already defined on line 1"},
    {"::a:: do ::a:: end", "t:1: label 'a' already defined on line 1"},
    {"repeat goto e; local x ::e:: until x",
     "t:1: <goto e> at line 1 jumps into the scope of local 'x'"},
    {"local a = {} a.b.c = ", "t:1: unexpected symbol near <eof>"},
    {"x = 5 // ", "t:1: unexpected symbol near <eof>"},
    {"print('a' 'b')", "t:1: ')' expected near ''b''"},
    {"x = 1..2", "t:1: malformed number near '1..2'"},
    {"x = 3.4.5", "t:1: malformed number near '3.4.5'"},
    {"x = @", "t:1: unexpected symbol near '@'"},
    {"x = $", "t:1: unexpected symbol near '$'"},
    {"x = 'a\nb'", "t:1: unfinished string near ''a'"},
    {"x = \"\\300\"", "t:1: decimal escape too large near '\"\\300\"'"},
    {"x = \"\\u{110000000}\"",
     "t:1: UTF-8 value too large near '\"\\u{110000000'"},
    {"x = '\\xg0'", "t:1: hexadecimal digit expected near ''\\xg'"},
};

static void test_syntax_errors_match_lua54(void)
{
    int bad = 0;
    CHECK(open_state());
    for (int i = 0; i < CHECK_COUNT(syntax_errors); i++) {
        int st = compile(syntax_errors[i].src);
        if (st != LUA_ERRSYNTAX ||
            strcmp(topstr(), syntax_errors[i].msg) != 0) {
            port_printf("  source: %s\n  want: %s\n  got:  %s (status %d)\n",
                        syntax_errors[i].src, syntax_errors[i].msg, topstr(),
                        st);
            bad++;
        }
        L->top--;
    }
    CHECK_EQ(bad, 0);
    CHECK(CHECK_COUNT(syntax_errors) >= 40);
    CHECK(checked());
    CHECK(close_state_empty());
}

/* lua5.4 -e 'print(load("x = \n\n 1 +", "@f.lua"))' and the chunk ids */
static void test_messages_use_the_chunk_id_and_line(void)
{
    const char *src = "x = \n\n 1 +";
    CHECK(open_state());
    CHECK_EQ(rtlua_loadbuffer(L, src, strlen(src), "@f.lua", NULL),
             LUA_ERRSYNTAX);
    CHECK(strcmp(topstr(), "f.lua:3: unexpected symbol near <eof>") == 0);
    L->top--;
    CHECK_EQ(rtlua_loadbuffer(L, src, strlen(src), src, NULL), LUA_ERRSYNTAX);
    CHECK(strcmp(topstr(),
                 "[string \"x = ...\"]:3: unexpected symbol near <eof>") == 0);
    L->top--;
    /* lua5.4 keeps a 44-byte one-line source whole and cuts one of 45:
     * lua5.4 -e 'print(load("x = 1 +" .. (" "):rep(37), "x = 1 +" ..
     * (" "):rep(37)))' (and 38) */
    {
        static const char s44[] =
            "x = 1 +                                     ";
        static const char s45[] =
            "x = 1 +                                      ";
        CHECK_EQ(strlen(s44), 44);
        CHECK_EQ(rtlua_loadbuffer(L, s44, 44, s44, NULL), LUA_ERRSYNTAX);
        CHECK(strcmp(topstr(), "[string \"x = 1 +                          "
                               "           \"]:1: unexpected symbol near "
                               "<eof>") == 0);
        L->top--;
        CHECK_EQ(rtlua_loadbuffer(L, s45, 45, s45, NULL), LUA_ERRSYNTAX);
        CHECK(strcmp(topstr(), "[string \"x = 1 +                          "
                               "            ...\"]:1: unexpected symbol "
                               "near <eof>") == 0);
        L->top--;
    }
    CHECK(close_state_empty());
}

/* lua5.4 -e 'print(load("\27Lua", "=t", "t"))' and
 * lua5.4 -e 'print(load("x=1", "=t", "b"))'; a PUC-Rio chunk is no
 * rtlua chunk (lang/dump.h). */
static void test_binary_chunk_modes_and_foreign_chunks(void)
{
    CHECK(open_state());
    CHECK_EQ(rtlua_loadbuffer(L, "\x1bLua", 4, "=t", "t"), LUA_ERRSYNTAX);
    CHECK(strcmp(topstr(), "attempt to load a binary chunk (mode is 't')") ==
          0);
    L->top--;
    CHECK_EQ(rtlua_loadbuffer(L, "\x1bLua", 4, "=t", NULL), LUA_ERRSYNTAX);
    CHECK(strcmp(topstr(),
                 "t: bad binary format (a PUC-Rio Lua chunk, not an rtlua "
                 "one)") == 0);
    L->top--;
    CHECK_EQ(rtlua_loadbuffer(L, "\x1bLuaT\0", 6, "=t", NULL), LUA_ERRSYNTAX);
    CHECK(strcmp(topstr(),
                 "t: bad binary format (a PUC-Rio Lua chunk, not an rtlua "
                 "one)") == 0);
    L->top--;
    CHECK_EQ(rtlua_loadbuffer(L, "x=1", 3, "=t", "b"), LUA_ERRSYNTAX);
    CHECK(strcmp(topstr(), "attempt to load a text chunk (mode is 'b')") == 0);
    L->top--;
    CHECK(close_state_empty());
}

/* ---- Limits --------------------------------------------------------------
 * Sources are built in a buffer; the messages are lua5.4's for the same
 * sources. */
#ifdef RTLUA_HOST
static char big[1 << 16];

static void build_locals(int n)
{
    size_t k = 0;
    for (int i = 1; i <= n; i++) {
        char line[40];
        size_t l = 0;
        const char *p = "local a";
        while (*p)
            line[l++] = *p++;
        int d = i, digits[8], nd = 0;
        while (d) {
            digits[nd++] = d % 10;
            d /= 10;
        }
        while (nd)
            line[l++] = (char)('0' + digits[--nd]);
        memcpy(line + l, " = 1\n", 5);
        l += 5;
        memcpy(big + k, line, l);
        k += l;
    }
    big[k] = '\0';
}

static void test_limits_and_their_messages(void)
{
    CHECK(open_state());
    build_locals(200);
    CHECK_EQ(compile(big), LUA_OK);
    L->top--;
    build_locals(201);
    CHECK_EQ(compile(big), LUA_ERRSYNTAX);
    CHECK(strcmp(topstr(), "t:201: too many local variables (limit is 200) "
                           "in main function near '='") == 0);
    L->top--;
    /* f(1, 1, ..., 1) with 301 arguments */
    strcpy(big, "f(");
    for (int i = 0; i < 300; i++)
        strcat(big, "1,");
    strcat(big, "1)");
    CHECK_EQ(compile(big), LUA_ERRSYNTAX);
    CHECK(strcmp(topstr(), "t:1: function or expression needs too many "
                           "registers near '1'") == 0);
    L->top--;
    /* 300 nested parentheses: lua5.4 says "C stack overflow" (a runtime
     * error of load itself, with no position) */
    strcpy(big, "return ");
    for (int i = 0; i < 300; i++)
        strcat(big, "(");
    strcat(big, "1");
    for (int i = 0; i < 300; i++)
        strcat(big, ")");
    CHECK_EQ(compile(big), LUA_ERRRUN);
    CHECK(strcmp(topstr(), "C stack overflow") == 0);
    L->top--;
    CHECK(checked());
    CHECK(close_state_empty());
}

/* 150 outer locals and 120 of an enclosing function all used by one
 * inner function: more than 255 upvalues. */
static void test_too_many_upvalues(void)
{
    CHECK(open_state());
    big[0] = '\0';
    for (int i = 1; i <= 150; i++) {
        char l[32] = "local a";
        size_t n = strlen(l);
        l[n++] = (char)('0' + i / 100);
        l[n++] = (char)('0' + i / 10 % 10);
        l[n++] = (char)('0' + i % 10);
        strcpy(l + n, " = 1\n");
        strcat(big, l);
    }
    strcat(big, "local function f()\n");
    for (int i = 1; i <= 120; i++) {
        char l[32] = "local b";
        size_t n = strlen(l);
        l[n++] = (char)('0' + i / 100);
        l[n++] = (char)('0' + i / 10 % 10);
        l[n++] = (char)('0' + i % 10);
        strcpy(l + n, " = 1\n");
        strcat(big, l);
    }
    strcat(big, "return function() return 0");
    for (int i = 1; i <= 150; i++) {
        char l[16] = " + a";
        size_t n = strlen(l);
        l[n++] = (char)('0' + i / 100);
        l[n++] = (char)('0' + i / 10 % 10);
        l[n++] = (char)('0' + i % 10);
        l[n] = '\0';
        strcat(big, l);
    }
    for (int i = 1; i <= 120; i++) {
        char l[16] = " + b";
        size_t n = strlen(l);
        l[n++] = (char)('0' + i / 100);
        l[n++] = (char)('0' + i / 10 % 10);
        l[n++] = (char)('0' + i % 10);
        l[n] = '\0';
        strcat(big, l);
    }
    strcat(big, " end end");
    CHECK_EQ(compile(big), LUA_ERRSYNTAX);
    /* as lua5.4 for the same source: the inner function, on line 272 */
    CHECK(strcmp(topstr(), "t:272: too many upvalues (limit is 255) in "
                           "function at line 272 near '+'") == 0);
    L->top--;
    CHECK(close_state_empty());
}

/* More than 2^17 constants: the last ones need LOADKX + EXTRAARG. */
static void test_constants_beyond_bx_use_loadkx(void)
{
    static char src[1 << 21];
    size_t n = 0;
    CHECK(open_state());
    memcpy(src, "local x\n", 8);
    n = 8;
    for (int i = 0; i < 140000; i++) {
        char l[40] = "x = '";
        size_t k = 5;
        int d = i, digits[8], nd = 0;
        do {
            digits[nd++] = d % 10;
            d /= 10;
        } while (d);
        while (nd)
            l[k++] = (char)('0' + digits[--nd]);
        l[k++] = '\'';
        l[k++] = '\n';
        memcpy(src + n, l, k);
        n += k;
    }
    CHECK_EQ(rtlua_loadbuffer(L, src, n, "=t", NULL), LUA_OK);
    const proto *p = top_proto();
    CHECK_EQ(p->sizek, 140000);
    int loadkx = 0;
    for (int i = 0; i < p->sizecode; i++)
        if (GET_OP(p->code[i]) == OP_LOADKX) {
            CHECK_EQ(GET_OP(p->code[i + 1]), OP_EXTRAARG);
            loadkx++;
        }
    CHECK_EQ(loadkx, 140000 - (OP_MAXARG_BX + 1));
    L->top--;
    CHECK(checked());
    CHECK(close_state_empty());
}
#endif

/* ---- Shapes of generated code ------------------------------------------- */

static void test_const_local_folds_to_one_constant(void)
{
    CHECK(open_state());
    CHECK(list("local a <const> = 10; return a + 1") != NULL);
    CHECK(strstr(listing, "LOADI 0 11") != NULL);
    CHECK_EQ(count("ADD"), 0);
    CHECK_EQ(top_proto()->sizelocvars, 0); /* no register, no locvar */
    L->top--;
    CHECK(list("local s <const> = 'ab'; return s .. 'c', 2^10, 7 // 2") !=
          NULL);
    CHECK_EQ(count("CONCAT"), 1); /* strings are not folded */
    CHECK_EQ(count("POW"), 0);
    CHECK_EQ(count("IDIV"), 0);
    L->top--;
    CHECK(close_state_empty());
}

static void test_nan_zero_and_division_by_zero_are_not_folded(void)
{
    CHECK(open_state());
    CHECK(list("return 0/0, 1//0, 1%0, 1 - 1.0, -0.0") != NULL);
    CHECK_EQ(count("DIVK"), 2); /* 0/0 and 1//0 (IDIVK) */
    CHECK_EQ(count("MODK"), 1);
    CHECK_EQ(count("SUBK"), 1); /* 0.0 would lose its sign in k */
    CHECK_EQ(count("UNM"), 1);
    L->top--;
    CHECK(close_state_empty());
}

static void test_int_and_float_constants_stay_distinct(void)
{
    CHECK(open_state());
    CHECK(list("local a, b, c, d = 100000000, 100000000.0, 100000000, "
               "100000000.0 local e, f = 'x', 'x'") != NULL);
    const proto *p = top_proto();
    CHECK_EQ(p->sizek, 3);
    CHECK(is_int(&p->k[0]));
    CHECK(is_flt(&p->k[1]));
    CHECK(is_str(&p->k[2]));
    L->top--;
    CHECK(close_state_empty());
}

static void test_immediate_forms(void)
{
    CHECK(open_state());
    CHECK(list("local x = ... return x + 1, x - 1, x < 5, 5 < x, x == 3, "
               "x >= 2, 2 >= x, x == 'a', x * 2.5") != NULL);
    /* x - 1 is ADDI x -1 with the k bit, whose slow path subtracts 1
     * (the metamethod is __sub); x + 1 has no k */
    CHECK_EQ(count("ADDI"), 2);
    CHECK_EQ(count("SUBK"), 0);
    CHECK(strstr(listing, "ADDI 1 0 128\n") != NULL);
    CHECK(strstr(listing, "ADDI 2 0 126 k\n") != NULL);
    CHECK_EQ(count("LTI"), 1);
    CHECK_EQ(count("GTI"), 1);
    CHECK_EQ(count("EQI"), 1);
    CHECK_EQ(count("GEI"), 1);
    CHECK_EQ(count("LEI"), 1);
    CHECK_EQ(count("EQK"), 1);
    CHECK_EQ(count("MULK"), 1);
    L->top--;
    CHECK(close_state_empty());
}

static void test_tail_call_unless_tbc_in_scope(void)
{
    CHECK(open_state());
    CHECK(list("return f(1)") != NULL);
    CHECK_EQ(count("TAILCALL"), 1);
    L->top--;
    CHECK(list("local c <close> = nil return f(1)") != NULL);
    CHECK_EQ(count("TAILCALL"), 0);
    CHECK_EQ(count("TBC 0"), 1);
    CHECK(strstr(listing, "RETURN 1 0 0 k") != NULL);
    L->top--;
    CHECK(close_state_empty());
}

static void test_captured_loop_local_is_closed_each_iteration(void)
{
    CHECK(open_state());
    CHECK(list("local t = {} for i = 1, 3 do local x = i "
               "t[i] = function() return x end end return t") != NULL);
    CHECK_EQ(count("CLOSE"), 1);
    CHECK_EQ(count("RETURN0"), 0); /* k would be set */
    CHECK(strstr(listing, "RETURN 0 2 0 k") != NULL);
    L->top--;
    CHECK(list("local x = 1 return x") != NULL);
    CHECK(strstr(listing, "RETURN1 0") != NULL);
    L->top--;
    CHECK(close_state_empty());
}

static void test_setlist_batches_of_fifty(void)
{
    CHECK(open_state());
    CHECK(list("return {1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,"
               "21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,"
               "41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,f()}") != NULL);
    CHECK_EQ(count("SETLIST"), 2);
    CHECK(strstr(listing, "SETLIST 0 50 0\n") != NULL);
    CHECK(strstr(listing, "SETLIST 0 0 50\n") != NULL); /* open: to top */
    /* sized for the 55 and one value of f() (issue 14: {f(), g()}
     * needs no growth) */
    CHECK(strstr(listing, "NEWTABLE 0 0 56\n") != NULL);
    L->top--;
    CHECK(close_state_empty());
}

static void test_locvars_follow_register_order(void)
{
    CHECK(open_state());
    CHECK(compile("local a, b = 1, 2 do local c = 3 end "
                  "for i = 1, 2 do end local d") == LUA_OK);
    const proto *p = top_proto();
    static const char *const names[] = {
        "a", "b", "c", "(for state)", "(for state)", "(for state)", "i", "d"};
    CHECK_EQ(p->sizelocvars, CHECK_COUNT(names));
    for (int i = 0; i < CHECK_COUNT(names); i++)
        CHECK(strcmp(str_data(p->locvars[i].name), names[i]) == 0);
    CHECK(p->locvars[2].endpc <= p->locvars[3].startpc);
    CHECK(strcmp(str_data(p->upvalues[0].name), "_ENV") == 0);
    L->top--;
    CHECK(close_state_empty());
}

/* The line of instruction pc by the definition of the line information:
 * from the last absolute entry at or before pc (or linedefined), add
 * every delta after it up to pc.  The oracle dbg_getline's binary search
 * is checked against. */
static int line_by_scan(const proto *p, int pc)
{
    int line = p->linedefined, start = -1;
    for (int i = 0; i < p->sizeabslineinfo && p->abslineinfo[i].pc <= pc;
         i++) {
        line = p->abslineinfo[i].line;
        start = p->abslineinfo[i].pc;
    }
    for (int i = start + 1; i <= pc; i++)
        line += p->lineinfo[i];
    return line;
}

static void test_line_information(void)
{
    static char src[1024];
    CHECK(open_state());
    strcpy(src, "local a = 1\n");
    for (int i = 0; i < 300; i++)
        strcat(src, "\n");
    strcat(src, "a = a + 1\nreturn a");
    CHECK_EQ(compile(src), LUA_OK);
    const proto *p = top_proto();
    CHECK_EQ(p->sizelineinfo, p->sizecode);
    CHECK(p->sizeabslineinfo >= 1); /* the 300-line gap */
    CHECK_EQ(dbg_getline(p, 1), 1);
    CHECK_EQ(dbg_getline(p, 2), 302);
    CHECK_EQ(dbg_getline(p, 3), 303);
    L->top--;
    /* at least one absolute entry every OP_MAXIWTHABS instructions (the
     * chunk needs more arena than microbit's 16 KiB of RAM leave) */
    void *heap;
    size_t heapbytes;
    port_heap(&heap, &heapbytes);
    if (heapbytes < 16384)
        return;
    src[0] = '\0';
    for (int i = 0; i < 100; i++)
        strcat(src, "a=b c=d\n"); /* 4 instructions in 8 bytes */
    CHECK_EQ(compile(src), LUA_OK);
    p = top_proto();
    CHECK(p->sizecode > 2 * OP_MAXIWTHABS);
    CHECK(p->sizeabslineinfo >= p->sizecode / (OP_MAXIWTHABS + 1));
    CHECK_EQ(dbg_getline(p, p->sizecode - 2), 100);
    for (int pc = 0; pc < p->sizecode; pc++)
        CHECK_EQ(dbg_getline(p, pc), line_by_scan(p, pc));
    CHECK_EQ(dbg_getline(p, p->sizecode), -1);
    L->top--;
    CHECK(close_state_empty());
}

/* ---- Running what was compiled ------------------------------------------ */
static void test_compiled_code_runs(void)
{
    CHECK(open_state());
    CHECK_EQ(compile("local a = {} local i = 1 a[i], i = i + 1, 20 "
                     "local s = 0 for k = 1, 10 do if k % 2 == 0 then "
                     "goto continue end s = s + k ::continue:: end "
                     "return a[1] * 1000 + i * 100 + s"),
             LUA_OK);
    CHECK_EQ(lua_pcall(L, 0, 1, 0), LUA_OK);
    CHECK_EQ(lua_tointegerx(L, -1, NULL), 2000 + 2000 + 25);
    L->top--;
    CHECK(checked());
    CHECK(close_state_empty());
}

/* ---- lua_load ----------------------------------------------------------- */
struct pieces {
    const char *const *p;
    int i;
};

static const char *piece_reader(lua_State *L1, void *ud, size_t *sz)
{
    struct pieces *ps = ud;
    (void)L1;
    const char *s = ps->p[ps->i];
    if (s == NULL)
        return NULL;
    ps->i++;
    *sz = strlen(s);
    return s;
}

static int ignore_writer(lua_State *L1, const void *p, size_t sz, void *ud)
{
    (void)L1;
    (void)p;
    (void)sz;
    (void)ud;
    return 0;
}

static void test_lua_load_gathers_pieces(void)
{
    static const char *const parts[] = {"return ", "'pie", "ces' .. 1", NULL};
    struct pieces ps = {parts, 0};
    CHECK(open_state());
    CHECK_EQ(lua_load(L, piece_reader, &ps, "=x", NULL), LUA_OK);
    CHECK_EQ(lua_pcall(L, 0, 1, 0), LUA_OK);
    CHECK(strcmp(topstr(), "pieces1") == 0);
    L->top--;
    ps.i = 0;
    CHECK_EQ(lua_load(L, piece_reader, &ps, "=x", "b"), LUA_ERRSYNTAX);
    L->top--;
    CHECK_EQ(lua_dump(L, ignore_writer, NULL, 0), 1);
    CHECK(checked());
    CHECK(close_state_empty());
}

/* ---- Memory ------------------------------------------------------------- */
static const char medium[] =
    "local t = {1, 2, 3, x = 'a', y = {z = 'b'}}\n"
    "local function f(a, b, ...) local s = a + b for i = 1, select('#', ...) "
    "do s = s + select(i, ...) end return s, ... end\n"
    "function t.m(self, k) return self[k] or 'none' end\n"
    "local u = {} for i = 1, 20 do u[i] = function() return i .. 'x' end end\n"
    "while #u > 10 do table.remove(u) end\n"
    "repeat local q = #u; u[q] = nil until #u < 5\n"
    "goto skip; do local z = 1 end ::skip::\n"
    "return f(1, 2, 3), t:m('x'), 'long string constant number one', "
    "'another constant', 3.25, 1e10, 0x7fff\n";

/* Most bytes of the tiny arena: a state fits, a big compile does not. */
#define TINY_ARENA 12288
/* Most statements of the chunk compiled there (distinct globals and
 * strings: each one costs constants, code and strings). */
#define TINY_STATEMENTS 200
/* Bytes of source per statement ("g123 = 's123' "). */
#define TINY_STMT_BYTES 16

/* Compiling under a tiny arena fails cleanly.  The arena is the front of
 * the port's heap, the source is built behind it (no static buffers: the
 * smallest board has 16 KiB of RAM). */
static void test_tiny_arena_gives_memory_error(void)
{
    void *heap;
    size_t heapbytes, arenabytes, n = 0;
    int nstat;
    char *src;
    if (L != NULL)
        state_close(L);
    L = NULL;
    port_heap(&heap, &heapbytes);
    arenabytes = heapbytes / 2 < TINY_ARENA ? heapbytes / 2 : TINY_ARENA;
    arenabytes &= ~(size_t)15;
    src = (char *)heap + arenabytes;
    nstat = (int)((heapbytes - arenabytes) / TINY_STMT_BYTES);
    if (nstat > TINY_STATEMENTS)
        nstat = TINY_STATEMENTS;
    for (int i = 0; i < nstat; i++) {
        char num[8];
        int k = 0, d = i;
        do {
            num[k++] = (char)('0' + d % 10);
            d /= 10;
        } while (d);
        src[n++] = 'g';
        for (int j = k; j > 0; j--)
            src[n++] = num[j - 1];
        memcpy(src + n, " = 's", 5);
        n += 5;
        for (int j = k; j > 0; j--)
            src[n++] = num[j - 1];
        memcpy(src + n, "' ", 2);
        n += 2;
    }
    L = state_open_in(heap, arenabytes);
    CHECK(L != NULL);
    CHECK_EQ(rtlua_loadbuffer(L, src, n, "=t", NULL), LUA_ERRMEM);
    CHECK(strcmp(topstr(), "not enough memory") == 0);
    L->top--;
    CHECK(checked());
    CHECK(close_state_empty());
}

/* The chunk for boards whose heap cannot hold the medium one. */
static const char small[] =
    "local t = {1, 2, x = 'a'} local function f(a) return a .. t.x end\n"
    "for i = 1, 2 do t[i] = function() return i end end return f('b')\n";

static void test_fault_injection_over_a_compile(void)
{
    uint32_t done_at = 0;
    const char *chunk = medium;
    CHECK(open_state());
    if (compile(chunk) != LUA_OK)
        chunk = small; /* a small heap (micro:bit) */
    L->top--;
    CHECK(close_state_empty());
    for (uint32_t n = 1; n < 2000; n++) {
        CHECK(open_state());
        G(L)->failafter = n;
        int st = compile(chunk);
        int reached = G(L)->failafter == 0;
        G(L)->failafter = 0;
        if (st != LUA_OK && st != LUA_ERRMEM) {
            port_printf("  n=%u status %d: %s\n", (unsigned)n, st, topstr());
            CHECK(0);
        }
        if (st == LUA_ERRMEM)
            CHECK(strcmp(topstr(), "not enough memory") == 0);
        CHECK(checked());
        L->top--;
        gc_fullgc(L);
        CHECK(checked());
        CHECK(close_state_empty());
        if (!reached) {
            CHECK_EQ(st, LUA_OK);
            done_at = n;
            break;
        }
    }
    CHECK(done_at > 20); /* the compile did allocate that often */
}

static const struct check_case cases[] = {
    CASE(test_syntax_errors_match_lua54),
    CASE(test_messages_use_the_chunk_id_and_line),
    CASE(test_binary_chunk_modes_and_foreign_chunks),
#ifdef RTLUA_HOST
    CASE(test_limits_and_their_messages),
    CASE(test_too_many_upvalues),
    CASE(test_constants_beyond_bx_use_loadkx),
#endif
    CASE(test_const_local_folds_to_one_constant),
    CASE(test_nan_zero_and_division_by_zero_are_not_folded),
    CASE(test_int_and_float_constants_stay_distinct),
    CASE(test_immediate_forms),
    CASE(test_tail_call_unless_tbc_in_scope),
    CASE(test_captured_loop_local_is_closed_each_iteration),
    CASE(test_setlist_batches_of_fifty),
    CASE(test_locvars_follow_register_order),
    CASE(test_line_information),
    CASE(test_compiled_code_runs),
    CASE(test_lua_load_gathers_pieces),
    CASE(test_tiny_arena_gives_memory_error),
    CASE(test_fault_injection_over_a_compile),
};

int main(void)
{
    return check_main("parse", cases, CHECK_COUNT(cases));
}
