/*
 * test_lex.c — the lexer: every operator and reserved word, numerals and
 * their values, escapes, long brackets, comments, line counting, and each
 * error message byte for byte as lua5.4 prints it (chunkname "=test").
 *
 * Each case opens the main state on the port's arena and closes it.
 */
#include "gc/gc.h"
#include "lang/lex.h"
#include "tests/unit/check.h"
#include "vm/str.h"

#include <string.h>

static lua_State *cur;
static lexstate ls;

static lua_State *open_state(void)
{
    void *mem;
    size_t bytes;
    if (cur != NULL)
        state_close(cur);
    port_heap(&mem, &bytes);
    cur = state_open_in(mem, bytes);
    cur->g->gcrunning = 0; /* the lexer does not anchor its strings */
    return cur;
}

static void close_state(void)
{
    lex_free(&ls);
    if (cur != NULL)
        state_close(cur);
    cur = NULL;
}

static void start(const char *src)
{
    lua_State *L = open_state();
    lex_init(&ls, L, src, strlen(src), str_newz(L, "=test"));
}

/* Read the source to its end; the error message, or "" when none. */
static const char *lex_all(const char *src)
{
    start(src);
    for (;;) {
        if (lex_next(&ls) != LEX_OK)
            return ls.err;
        if (ls.t.tok == TK_EOS)
            return "";
    }
}

static int str_is(const str *s, const char *z, size_t n)
{
    return s != NULL && str_len(s) == n && memcmp(str_data(s), z, n) == 0;
}

static void test_every_operator_and_reserved_word(void)
{
    static const int want[] = {
        TK_AND,     TK_BREAK, TK_DO,       TK_ELSE,  TK_ELSEIF, TK_END,
        TK_FALSE,   TK_FOR,   TK_FUNCTION, TK_GOTO,  TK_IF,     TK_IN,
        TK_LOCAL,   TK_NIL,   TK_NOT,      TK_OR,    TK_REPEAT, TK_RETURN,
        TK_THEN,    TK_TRUE,  TK_UNTIL,    TK_WHILE, '+',       '-',
        '*',        '/',      TK_IDIV,     '%',      '^',       '#',
        '&',        '~',      '|',         TK_SHL,   TK_SHR,    TK_EQ,
        TK_NE,      TK_LE,    TK_GE,       '<',      '>',       '=',
        '(',        ')',      '{',         '}',      '[',       ']',
        TK_DBCOLON, ';',      ':',         ',',      '.',       TK_CONCAT,
        TK_DOTS,    TK_NAME,  TK_EOS};
    start("and break do else elseif end false for function goto if in "
          "local nil not or repeat return then true until while "
          "+ - * / // % ^ # & ~ | << >> == ~= <= >= < > = ( ) { } [ ] "
          ":: ; : , . .. ... andy");
    for (int i = 0; i < CHECK_COUNT(want); i++) {
        CHECK(lex_next(&ls) == LEX_OK);
        CHECK_EQ(ls.t.tok, want[i]);
    }
    close_state();
}

static void test_token2str(void)
{
    char b[32];
    start("");
    CHECK(strcmp(lex_token2str(&ls, TK_WHILE, b, sizeof(b)), "'while'") == 0);
    CHECK(strcmp(lex_token2str(&ls, TK_NE, b, sizeof(b)), "'~='") == 0);
    CHECK(strcmp(lex_token2str(&ls, TK_EOS, b, sizeof(b)), "<eof>") == 0);
    CHECK(strcmp(lex_token2str(&ls, '@', b, sizeof(b)), "'@'") == 0);
    CHECK(strcmp(lex_token2str(&ls, 1, b, sizeof(b)), "'<\\1>'") == 0);
    close_state();
}

static int next_int(rt_int v)
{
    return lex_next(&ls) == LEX_OK && ls.t.tok == TK_INT && ls.t.sem.i == v;
}

static int next_flt(rt_num v)
{
    return lex_next(&ls) == LEX_OK && ls.t.tok == TK_FLT && ls.t.sem.r == v;
}

static void test_numerals_have_their_values(void)
{
    start("3 3.0 3.1416 314.16e-2 0.31416E1 34e1 0x0.1E 0xA23p-4 "
          "0X1.921FB54442D18P+1 0xff .5 1e+2 3..");
    CHECK(next_int(3));
    CHECK(next_flt((rt_num)3.0));
    CHECK(next_flt((rt_num)3.1416));
    CHECK(next_flt((rt_num)314.16e-2));
    CHECK(next_flt((rt_num)0.31416E1));
    CHECK(next_flt((rt_num)34e1));
    CHECK(next_flt((rt_num)0x0.1Ep0));
    CHECK(next_flt((rt_num)0xA23p-4));
    CHECK(next_flt((rt_num)0X1.921FB54442D18P+1));
    CHECK(next_int(255));
    CHECK(next_flt((rt_num)0.5));
    CHECK(next_flt((rt_num)100.0));
    CHECK(strcmp(lex_all("3..4"), "test:1: malformed number near '3..4'") ==
          0);
    close_state();
}

#if RTLUA_NUM == 64
static void test_integer_overflow_64(void)
{
    start("9223372036854775807 9223372036854775808 0xffffffffffffffff");
    CHECK(next_int(INT64_MAX));
    CHECK(next_flt(9223372036854775808.0));
    CHECK(next_int(-1));
    close_state();
}
#endif

static void test_every_escape(void)
{
    static const char want[] = "\a\b\f\n\r\t\v\\\"'\n"
                               "xA\x41"
                               "\001"
                               "99\377\xc3\xa9\xe2\x82\xac"
                               "\xfd\xbf\xbf\xbf\xbf\xbf";
    start("'\\a\\b\\f\\n\\r\\t\\v\\\\\\\"\\'\\\nx\\z  \n  A\\x41\\1\\0579"
          "\\255\\u{E9}\\u{20AC}\\u{7FFFFFFF}'");
    CHECK(lex_next(&ls) == LEX_OK);
    CHECK_EQ(ls.t.tok, TK_STRING);
    CHECK(str_is(ls.t.sem.s, want, sizeof(want) - 1));
    CHECK_EQ(ls.line, 3);
    close_state();
}

static void test_long_brackets_and_comments(void)
{
    start("[[\nab]]c]] [==[\nx]]=]]===]]==] --[[ c\n ]] --[=[ ]] ]=] -- x\n"
          "--[ short\n[[]]");
    CHECK(lex_next(&ls) == LEX_OK);
    CHECK(str_is(ls.t.sem.s, "ab", 2));
    CHECK(lex_next(&ls) == LEX_OK && ls.t.tok == TK_NAME);
    CHECK(lex_next(&ls) == LEX_OK && ls.t.tok == ']');
    CHECK(lex_next(&ls) == LEX_OK && ls.t.tok == ']');
    CHECK(lex_next(&ls) == LEX_OK);
    CHECK(str_is(ls.t.sem.s, "x]]=]]===]", 10));
    CHECK(lex_next(&ls) == LEX_OK);
    CHECK_EQ(ls.t.tok, TK_STRING);
    CHECK(str_is(ls.t.sem.s, "", 0));
    CHECK_EQ(ls.line, 6);
    CHECK(lex_next(&ls) == LEX_OK && ls.t.tok == TK_EOS);
    close_state();
}

static void test_line_numbers_count_each_newline_kind(void)
{
    start("a\nb\rc\r\nd\n\re\n\nf [[\r\n\n]] g");
    for (int line = 1; line <= 5; line++) {
        CHECK(lex_next(&ls) == LEX_OK);
        CHECK_EQ(ls.line, line);
    }
    CHECK(lex_next(&ls) == LEX_OK); /* f */
    CHECK_EQ(ls.line, 7);
    CHECK(lex_next(&ls) == LEX_OK);
    CHECK(str_is(ls.t.sem.s, "\n", 1));
    CHECK(lex_next(&ls) == LEX_OK);
    CHECK_EQ(ls.line, 9);
    close_state();
}

static void test_lookahead(void)
{
    start("a = 1");
    CHECK(lex_next(&ls) == LEX_OK && ls.t.tok == TK_NAME);
    CHECK(lex_lookahead(&ls) == LEX_OK && ls.ahead.tok == '=');
    CHECK(lex_next(&ls) == LEX_OK && ls.t.tok == '=');
    CHECK(next_int(1));
    close_state();
}

/* Each expected text checked by hand against lua5.4 -e (its chunk name
 * "(command line)" replaced by "test"). */
static const char *const errors[][2] = {
    {"x = 'abc", "test:1: unfinished string near <eof>"},
    {"x = \"abc\ndef\"", "test:1: unfinished string near '\"abc'"},
    {"x=\"\\q\"", "test:1: invalid escape sequence near '\"\\q'"},
    {"x=\"\\xZ1\"", "test:1: hexadecimal digit expected near '\"\\xZ'"},
    {"x=\"\\x5\"", "test:1: hexadecimal digit expected near '\"\\x5\"'"},
    {"x=\"\\256\"", "test:1: decimal escape too large near '\"\\256\"'"},
    {"x=\"\\u{80000000}\"",
     "test:1: UTF-8 value too large near '\"\\u{80000000'"},
    {"x=\"\\u123\"", "test:1: missing '{' near '\"\\u1'"},
    {"x=\"\\u{12\"", "test:1: missing '}' near '\"\\u{12\"'"},
    {"x=\"\\u{}\"", "test:1: hexadecimal digit expected near '\"\\u{}'"},
    {"x=\"a\\", "test:1: unfinished string near <eof>"},
    {"x=3x", "test:1: malformed number near '3x'"},
    {"x=0x", "test:1: malformed number near '0x'"},
    {"x=1e+", "test:1: malformed number near '1e+'"},
    {"x=0xfg", "test:1: malformed number near '0xfg'"},
    {"x=3.4.5", "test:1: malformed number near '3.4.5'"},
    {"x=[==[abc",
     "test:1: unfinished long string (starting at line 1) near <eof>"},
    {"\n--[==[abc\n",
     "test:3: unfinished long comment (starting at line 2) near <eof>"},
    {"x=[=a", "test:1: invalid long string delimiter near '[='"},
};

static void test_error_messages_match_lua(void)
{
    for (int i = 0; i < CHECK_COUNT(errors); i++) {
        const char *got = lex_all(errors[i][0]);
        if (strcmp(got, errors[i][1]) != 0)
            port_printf("  got \"%s\"\n", got);
        CHECK(strcmp(got, errors[i][1]) == 0);
    }
    close_state();
}

static void test_chunkid(void)
{
    char b[LEX_IDSIZE];
    lex_chunkid("=stdin", b, sizeof(b));
    CHECK(strcmp(b, "stdin") == 0);
    lex_chunkid("@a.lua", b, sizeof(b));
    CHECK(strcmp(b, "a.lua") == 0);
    lex_chunkid("x = 'abc", b, sizeof(b));
    CHECK(strcmp(b, "[string \"x = 'abc\"]") == 0);
    lex_chunkid("x = 1\ny = 2", b, sizeof(b));
    CHECK(strcmp(b, "[string \"x = 1...\"]") == 0);
}

static const struct check_case cases[] = {
    CASE(test_every_operator_and_reserved_word),
    CASE(test_token2str),
    CASE(test_numerals_have_their_values),
#if RTLUA_NUM == 64
    CASE(test_integer_overflow_64),
#endif
    CASE(test_every_escape),
    CASE(test_long_brackets_and_comments),
    CASE(test_line_numbers_count_each_newline_kind),
    CASE(test_lookahead),
    CASE(test_error_messages_match_lua),
    CASE(test_chunkid),
};

int main(void)
{
    return check_main("lex", cases, CHECK_COUNT(cases));
}
