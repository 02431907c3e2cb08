/*
 * lex.c — the lexer (see lex.h).  Written from the Lua 5.4 reference
 * manual §3.1; error texts match what lua5.4 prints.
 */
#include "lang/lex.h"
#include "lang/escape.h"

#include "gc/gc.h"
#include "vm/num.h"
#include "vm/str.h"

#include <string.h>

/* Largest code point a \u{...} escape may give (Lua 5.4: 2^31 - 1). */
#define LEX_UTF8_MAX 0x7FFFFFFFu
/* Bytes of a UTF-8 sequence for LEX_UTF8_MAX (the old 6-byte form). */
#define LEX_UTF8_BUF 6
/* Largest value of a \ddd escape. */
#define LEX_DEC_ESC_MAX 255
/* Lines a chunk may have before "chunk has too many lines". */
#define LEX_MAX_LINES 0x7FFFFFF0

/* Returned by the scanners once err is set. */
#define FAIL (-1)

/* The spelling of each token from TK_AND on. */
#define LEX_WORD_(name, word) word,
/* clang-format off */
static const char *const words[] = {
    LEX_RESERVED(LEX_WORD_)
    /* TK_IDIV .. TK_STRING */
    "//", "..", "...", "==", ">=", "<=", "~=", "<<", ">>", "::", "<eof>",
    "<number>", "<integer>", "<name>", "<string>"};
/* clang-format on */
#undef LEX_WORD_
_Static_assert(sizeof words / sizeof words[0] == TK_STRING - TK_AND + 1,
               "a spelling for each token from TK_AND on");

static int is_digit(int c)
{
    return c >= '0' && c <= '9';
}

static int is_alpha(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_alnum(int c)
{
    return is_alpha(c) || is_digit(c);
}

static int is_newline(int c)
{
    return c == '\n' || c == '\r';
}

/* The first byte of the reader's next piece, or LEX_EOZ at the end. */
static __attribute__((noinline)) int fill(lexstate *ls)
{
    size_t n = 0;
    const char *b =
        ls->reader != NULL ? ls->reader(ls->L, ls->data, &n) : NULL;
    if (b == NULL || n == 0) {
        ls->reader = NULL; /* the end: the reader is not called again */
        ls->p = ls->end;
        return LEX_EOZ;
    }
    ls->p = b + 1;
    ls->end = b + n;
    return (unsigned char)b[0];
}

static void step(lexstate *ls)
{
    ls->current = ls->p < ls->end ? (unsigned char)*ls->p++ : fill(ls);
}

/* Append a byte to buf; a failed growth is remembered, not reported
 * here, so the scanners need no checks on every byte. */
static void save(lexstate *ls, int c)
{
    if (ls->buflen + 1 >= ls->bufcap) {
        size_t ncap = ls->bufcap == 0 ? LEX_BUF_MIN : ls->bufcap * 2;
        char *nb;
        if (ls->memfail)
            return;
        nb = gc_realloc(ls->L, ls->buf, ls->bufcap, ncap);
        if (nb == NULL) {
            ls->memfail = 1;
            return;
        }
        ls->buf = nb;
        ls->bufcap = ncap;
    }
    ls->buf[ls->buflen++] = (char)c;
}

static void save_step(lexstate *ls)
{
    save(ls, ls->current);
    step(ls);
}

/* ---- Messages ---------------------------------------------------------- */

/* Append NUL-terminated s to out (of cap bytes) at *n, truncating. */
static void put(char *out, size_t cap, size_t *n, const char *s)
{
    while (*s != '\0' && *n + 1 < cap)
        out[(*n)++] = *s++;
    out[*n] = '\0';
}

static void put_int(char *out, size_t cap, size_t *n, long v)
{
    char d[24];
    int k = (int)sizeof(d) - 1;
    unsigned long u = v < 0 ? 0ul - (unsigned long)v : (unsigned long)v;
    d[k] = '\0';
    do {
        d[--k] = (char)('0' + u % 10);
        u /= 10;
    } while (u != 0);
    if (v < 0)
        d[--k] = '-';
    put(out, cap, n, d + k);
}

void lex_chunkid(const char *source, char *out, size_t cap)
{
    size_t n = 0, len = strlen(source);
    if (cap == 0)
        return;
    out[0] = '\0';
    if (source[0] == '=') {
        put(out, cap, &n, source + 1);
    } else if (source[0] == '@') {
        if (len - 1 < cap) {
            put(out, cap, &n, source + 1);
        } else if (cap > 4) {
            /* keep the end of a long file name, where it differs */
            put(out, cap, &n, "...");
            put(out, cap, &n, source + len - (cap - 4));
        }
    } else {
        /* [string "..."]: the first line, as much as fits beside the
         * 11 bytes of [string ""], the 3 of "..." and the NUL */
        const char *nl = strchr(source, '\n');
        size_t room = cap > 15 ? cap - 15 : 0;
        size_t take = nl != NULL ? (size_t)(nl - source) : len;
        int cut = nl != NULL || take >= room;
        put(out, cap, &n, "[string \"");
        if (take > room)
            take = room;
        while (take-- > 0 && n + 1 < cap)
            out[n++] = *source++;
        out[n] = '\0';
        if (cut)
            put(out, cap, &n, "...");
        put(out, cap, &n, "\"]");
    }
}

const char *lex_token2str(lexstate *ls, int tok, char *buf, size_t cap)
{
    size_t n = 0;
    (void)ls;
    if (cap == 0)
        return buf;
    buf[0] = '\0';
    if (tok < TK_AND) {
        if (tok >= 0x20 && tok < 0x7F) {
            char s[2] = {(char)tok, '\0'};
            put(buf, cap, &n, "'");
            put(buf, cap, &n, s);
            put(buf, cap, &n, "'");
        } else {
            put(buf, cap, &n, "'<\\");
            put_int(buf, cap, &n, tok);
            put(buf, cap, &n, ">'");
        }
    } else if (tok < TK_EOS) {
        put(buf, cap, &n, "'");
        put(buf, cap, &n, words[tok - TK_AND]);
        put(buf, cap, &n, "'");
    } else if (tok <= TK_STRING) {
        put(buf, cap, &n, words[tok - TK_AND]);
    }
    return buf;
}

/* Format "<chunkid>:<line>: msg near <tok>" into err; tok 0: no "near".
 * For a name, string or numeral the token shown is what buf holds. */
static int lex_error(lexstate *ls, const char *msg, int tok)
{
    char id[LEX_IDSIZE];
    size_t n = 0;
    if (ls->errbuf == NULL &&
        (ls->errbuf = gc_alloc(ls->L, LEX_ERRSIZE)) == NULL) {
        ls->memfail = 1; /* read_token reports a memory error */
        return FAIL;
    }
    ls->err = ls->errbuf;
    lex_chunkid(ls->source != NULL ? str_data(ls->source) : "?", id,
                sizeof(id));
    put(ls->errbuf, LEX_ERRSIZE, &n, id);
    put(ls->errbuf, LEX_ERRSIZE, &n, ":");
    put_int(ls->errbuf, LEX_ERRSIZE, &n, ls->line);
    put(ls->errbuf, LEX_ERRSIZE, &n, ": ");
    put(ls->errbuf, LEX_ERRSIZE, &n, msg);
    if (tok != 0) {
        char t[LEX_ERRSIZE];
        put(ls->errbuf, LEX_ERRSIZE, &n, " near ");
        if (tok == TK_NAME || tok == TK_STRING || tok == TK_FLT ||
            tok == TK_INT) {
            size_t k = 0;
            while (k < ls->buflen && k + 3 < sizeof(t) && ls->buf[k] != '\0') {
                t[k + 1] = ls->buf[k];
                k++;
            }
            t[0] = '\'';
            t[k + 1] = '\'';
            t[k + 2] = '\0';
        } else {
            lex_token2str(ls, tok, t, sizeof(t));
        }
        put(ls->errbuf, LEX_ERRSIZE, &n, t);
    }
    return FAIL;
}

/* Save the current byte (unless at the end) and fail: the escape errors
 * show the offending byte. */
static int escape_error(lexstate *ls, const char *msg)
{
    if (ls->current != LEX_EOZ)
        save_step(ls);
    return lex_error(ls, msg, TK_STRING);
}

/* Consume one newline (\n, \r, \r\n or \n\r). */
static int newline(lexstate *ls)
{
    int first = ls->current;
    step(ls);
    if (is_newline(ls->current) && ls->current != first)
        step(ls);
    if (++ls->line >= LEX_MAX_LINES)
        return lex_error(ls, "chunk has too many lines", 0);
    return 0;
}

/* ---- Long brackets ----------------------------------------------------- */

/* current is '['.  Reads '[' and any '='s into buf; returns the level if
 * a second '[' follows (consumed), else -1 - (number of '='s). */
static int open_bracket(lexstate *ls)
{
    int level = 0;
    save_step(ls);
    while (ls->current == '=') {
        save_step(ls);
        level++;
    }
    if (ls->current != '[')
        return -1 - level;
    step(ls);
    return level;
}

/* A long string (keep) or comment of this level, after its opening. */
static int long_bracket(lexstate *ls, token *tk, int level, int keep)
{
    int startline = ls->line;
    ls->buflen = 0;
    if (is_newline(ls->current) && newline(ls) != 0)
        return FAIL;
    for (;;) {
        if (ls->current == LEX_EOZ) {
            char msg[64];
            size_t n = 0;
            put(msg, sizeof(msg), &n,
                keep ? "unfinished long string" : "unfinished long comment");
            put(msg, sizeof(msg), &n, " (starting at line ");
            put_int(msg, sizeof(msg), &n, startline);
            put(msg, sizeof(msg), &n, ")");
            return lex_error(ls, msg, TK_EOS);
        } else if (ls->current == ']') {
            int n = 0;
            step(ls);
            while (ls->current == '=') {
                step(ls);
                n++;
            }
            if (n == level && ls->current == ']') {
                step(ls);
                break;
            }
            if (keep) {
                save(ls, ']');
                while (n-- > 0)
                    save(ls, '=');
            }
        } else if (is_newline(ls->current)) {
            if (newline(ls) != 0)
                return FAIL;
            if (keep)
                save(ls, '\n');
        } else {
            if (keep)
                save(ls, ls->current);
            step(ls);
        }
    }
    if (!keep)
        return 0;
    if (ls->memfail)
        return FAIL;
    tk->sem.s = str_new(ls->L, ls->buf, ls->buflen);
    if (tk->sem.s == NULL)
        ls->memfail = 1;
    return tk->sem.s == NULL ? FAIL : TK_STRING;
}

/* ---- Short strings ------------------------------------------------------ */

/* Put code point x as UTF-8 (up to 6 bytes, as Lua 5.4 does). */
static void save_utf8(lexstate *ls, uint32_t x)
{
    int n = 1, k;
    if (x < 0x80) {
        save(ls, (int)x);
        return;
    }
    while (n < LEX_UTF8_BUF && x >= (1u << (5 * n + 6)))
        n++;
    n++; /* bytes: 2 for < 2^11, 3 for < 2^16, ... */
    save(ls, (int)((0xFF00u >> n) & 0xFF) | (int)(x >> (6 * (n - 1))));
    for (k = n - 2; k >= 0; k--)
        save(ls, (int)(0x80u | ((x >> (6 * k)) & 0x3Fu)));
}

/* After a backslash (saved at buf[at]): decode one escape and replace the
 * raw bytes by its value.  0 ok, FAIL on error. */
static int escape(lexstate *ls, size_t at)
{
    int c;
    switch (ls->current) {
    case LEX_EOZ:
        return 0; /* the string loop reports it unfinished */
    case '\n':
    case '\r':
        if (newline(ls) != 0)
            return FAIL;
        ls->buflen = at;
        save(ls, '\n');
        return 0;
    case 'z':
        ls->buflen = at;
        step(ls);
        while (ls->current == ' ' || ls->current == '\t' ||
               ls->current == '\f' || ls->current == '\v' ||
               is_newline(ls->current)) {
            if (is_newline(ls->current)) {
                if (newline(ls) != 0)
                    return FAIL;
            } else {
                step(ls);
            }
        }
        return 0;
    case 'x': {
        int v = 0;
        for (int i = 0; i < 2; i++) {
            save_step(ls);
            if (num_hexvalue(ls->current) < 0)
                return escape_error(ls, "hexadecimal digit expected");
            v = v * 16 + num_hexvalue(ls->current);
        }
        step(ls);
        ls->buflen = at;
        save(ls, v);
        return 0;
    }
    case 'u': {
        uint32_t v;
        save_step(ls);
        if (ls->current != '{')
            return escape_error(ls, "missing '{'");
        save_step(ls);
        if (num_hexvalue(ls->current) < 0)
            return escape_error(ls, "hexadecimal digit expected");
        v = 0;
        while (num_hexvalue(ls->current) >= 0) {
            if (v > (LEX_UTF8_MAX >> 4))
                return escape_error(ls, "UTF-8 value too large");
            v = v * 16 + (uint32_t)num_hexvalue(ls->current);
            save_step(ls);
        }
        if (ls->current != '}')
            return escape_error(ls, "missing '}'");
        step(ls);
        ls->buflen = at;
        save_utf8(ls, v);
        return 0;
    }
    default: {
        c = lex_escapechar(ls->current);
        if (c >= 0)
            break; /* a one-byte escape, below */
        int v = 0, i;
        if (!is_digit(ls->current))
            return escape_error(ls, "invalid escape sequence");
        for (i = 0; i < 3 && is_digit(ls->current); i++) {
            v = v * 10 + (ls->current - '0');
            save_step(ls);
        }
        if (v > LEX_DEC_ESC_MAX)
            return escape_error(ls, "decimal escape too large");
        ls->buflen = at;
        save(ls, v);
        return 0;
    }
    }
    step(ls);
    ls->buflen = at;
    save(ls, c);
    return 0;
}

static int short_string(lexstate *ls, token *tk)
{
    int delim = ls->current;
    save_step(ls);
    while (ls->current != delim) {
        if (ls->current == LEX_EOZ)
            return lex_error(ls, "unfinished string", TK_EOS);
        if (is_newline(ls->current))
            return lex_error(ls, "unfinished string", TK_STRING);
        if (ls->current == '\\') {
            size_t at = ls->buflen;
            save_step(ls);
            if (escape(ls, at) != 0)
                return FAIL;
        } else {
            save_step(ls);
        }
    }
    step(ls);
    if (ls->memfail)
        return FAIL;
    tk->sem.s = str_new(ls->L, ls->buf + 1, ls->buflen - 1);
    if (tk->sem.s == NULL)
        ls->memfail = 1;
    return tk->sem.s == NULL ? FAIL : TK_STRING;
}

/* ---- Numerals and names ------------------------------------------------- */

static int numeral(lexstate *ls, token *tk)
{
    int e1 = 'e', e2 = 'E';
    tvalue v;
    if (ls->current == '0') {
        save_step(ls);
        if (ls->current == 'x' || ls->current == 'X') {
            save_step(ls);
            e1 = 'p';
            e2 = 'P';
        }
    }
    for (;;) {
        if (ls->current == e1 || ls->current == e2) {
            save_step(ls);
            if (ls->current == '+' || ls->current == '-')
                save_step(ls);
        } else if (num_hexvalue(ls->current) >= 0 || ls->current == '.') {
            save_step(ls);
        } else {
            break;
        }
    }
    if (is_alpha(ls->current))
        save_step(ls); /* a numeral touching a letter is malformed */
    save(ls, '\0');
    if (ls->memfail)
        return FAIL;
    ls->buflen--;
    if (num_str2number(ls->buf, &v) == 0)
        return lex_error(ls, "malformed number", TK_FLT);
    if (is_int(&v)) {
        tk->sem.i = v.v.i;
        return TK_INT;
    }
    tk->sem.r = v.v.n;
    return TK_FLT;
}

static int name(lexstate *ls, token *tk)
{
    str *s;
    while (is_alnum(ls->current))
        save_step(ls);
    if (ls->memfail)
        return FAIL;
    s = str_new(ls->L, ls->buf, ls->buflen);
    if (s == NULL) {
        ls->memfail = 1;
        return FAIL;
    }
    tk->sem.s = s;
    return s->extra != 0 ? TK_AND + s->extra - 1 : TK_NAME;
}

/* The one- or two-byte operator: `second` after `c` gives `tok`. */
static int pair(lexstate *ls, int c, int second, int tok)
{
    step(ls);
    if (ls->current != second)
        return c;
    step(ls);
    return tok;
}

/* `c`, '<' or '>', alone, with '=' after it (`orequal`), or twice
 * (`shift`). */
static int angle(lexstate *ls, int c, int orequal, int shift)
{
    step(ls);
    if (ls->current != '=' && ls->current != c)
        return c;
    int tok = ls->current == '=' ? orequal : shift;
    step(ls);
    return tok;
}

static int scan(lexstate *ls, token *tk)
{
    for (;;) {
        ls->buflen = 0;
        switch (ls->current) {
        case '\n':
        case '\r':
            if (newline(ls) != 0)
                return FAIL;
            break;
        case ' ':
        case '\t':
        case '\f':
        case '\v':
            step(ls);
            break;
        case '-':
            step(ls);
            if (ls->current != '-')
                return '-';
            step(ls);
            if (ls->current == '[') {
                int level = open_bracket(ls);
                if (level >= 0) {
                    if (long_bracket(ls, tk, level, 0) == FAIL)
                        return FAIL;
                    break;
                }
            }
            while (!is_newline(ls->current) && ls->current != LEX_EOZ)
                step(ls);
            break;
        case '[': {
            int level = open_bracket(ls);
            if (level >= 0)
                return long_bracket(ls, tk, level, 1);
            if (level == -1)
                return '[';
            return lex_error(ls, "invalid long string delimiter", TK_STRING);
        }
        case '=':
            return pair(ls, '=', '=', TK_EQ);
        case '<':
            return angle(ls, '<', TK_LE, TK_SHL);
        case '>':
            return angle(ls, '>', TK_GE, TK_SHR);
        case '/':
            return pair(ls, '/', '/', TK_IDIV);
        case '~':
            return pair(ls, '~', '=', TK_NE);
        case ':':
            return pair(ls, ':', ':', TK_DBCOLON);
        case '"':
        case '\'':
            return short_string(ls, tk);
        case '.':
            save_step(ls);
            if (ls->current == '.') {
                step(ls);
                if (ls->current == '.') {
                    step(ls);
                    return TK_DOTS;
                }
                return TK_CONCAT;
            }
            if (!is_digit(ls->current))
                return '.';
            return numeral(ls, tk);
        case LEX_EOZ:
            return TK_EOS;
        default:
            if (is_digit(ls->current))
                return numeral(ls, tk);
            if (is_alpha(ls->current))
                return name(ls, tk);
            {
                int c = ls->current;
                step(ls);
                return c;
            }
        }
    }
}

/* Read one token into tk; LEX_OK or an error code (err set). */
static int read_token(lexstate *ls, token *tk)
{
    int tok = scan(ls, tk);
    if (tok == FAIL && ls->memfail) {
        ls->err = "not enough memory";
        return LEX_EMEM;
    }
    if (tok == FAIL)
        return LEX_ESYNTAX;
    tk->tok = tok;
    return LEX_OK;
}

int lex_init(lexstate *ls, lua_State *L, const char *src, size_t len,
             str *chunkname)
{
    return lex_init_reader(ls, L, src, len, NULL, NULL, chunkname);
}

int lex_init_reader(lexstate *ls, lua_State *L, const char *src, size_t len,
                    lua_Reader reader, void *data, str *chunkname)
{
    memset(ls, 0, sizeof(*ls));
    ls->reader = reader;
    ls->data = data;
    ls->L = L;
    ls->p = src;
    ls->end = src + len;
    ls->line = 1;
    ls->lastline = 1;
    ls->source = chunkname;
    ls->t.tok = TK_EOS;
    ls->ahead.tok = TK_EOS;
    step(ls);
    return LEX_OK;
}

int lex_next(lexstate *ls)
{
    ls->lastline = ls->line;
    if (ls->hasahead) {
        ls->t = ls->ahead;
        ls->hasahead = 0;
        ls->ahead.tok = TK_EOS;
        return LEX_OK;
    }
    return read_token(ls, &ls->t);
}

int lex_lookahead(lexstate *ls)
{
    int r;
    if (ls->hasahead)
        return LEX_OK;
    r = read_token(ls, &ls->ahead);
    if (r == LEX_OK)
        ls->hasahead = 1;
    return r;
}

void lex_free(lexstate *ls)
{
    if (ls->buf != NULL)
        gc_free(G(ls->L), ls->buf, ls->bufcap);
    ls->buf = NULL;
    ls->buflen = ls->bufcap = 0;
    if (ls->errbuf != NULL)
        gc_free(G(ls->L), ls->errbuf, LEX_ERRSIZE);
    ls->errbuf = NULL;
}
