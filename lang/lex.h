/*
 * lex.h — the lexer: Lua 5.4 source text (reference manual §3.1) to tokens.
 *
 * The lexer reads a source held whole in memory (p .. end) one byte at a
 * time, with one token of lookahead.  Words and operators of one character
 * are their own character value; the rest have TK_ codes above 255.  The 22
 * reserved words are TK_AND .. TK_WHILE in the order of lang/reserved.h,
 * which the ROM strings' first entries follow too, so a name whose
 * interned str has extra != 0 is the token TK_AND + extra - 1.
 *
 * Invariants:
 *   - `current` is the byte at p[-1], or LEX_EOZ once the source is used
 *     up; `line` counts the newlines read so far, plus one.  Each of \n,
 *     \r, \r\n and \n\r is one newline.
 *   - `t` is the current token, `ahead` the lookahead (tok == TK_EOS and
 *     `hasahead` 0 when there is none).  A name or string token holds an
 *     interned str (ROM or RAM) in sem.s; TK_INT holds sem.i, TK_FLT sem.r.
 *   - The lexer does not anchor the strings it makes: a RAM string in t or
 *     ahead may be collected by the next allocation, so the caller anchors
 *     what it keeps (the parser's constant table) before it allocates.
 *   - `buf` holds the bytes of the token being read (buflen of them); it
 *     grows through gc_realloc and belongs to the lexer until lex_free.
 *   - After an error lex_next returns its code and `err` holds the message
 *     as Lua prints it, "<chunkid>:<line>: <msg> near <token>"; the state
 *     is then unusable except for lex_free.
 */
#ifndef RTLUA_LEX_H
#define RTLUA_LEX_H

#include "include/lua.h"
#include "lang/reserved.h"
#include "vm/state.h"

#include <stddef.h>

/* Bytes of a chunk id, the name in messages (Lua's LUA_IDSIZE). */
#define LEX_IDSIZE 60
/* Bytes of the error message buffer (chunk id, line, text, token). */
#define LEX_ERRSIZE 160
/* First size of the token buffer; it doubles from there. */
#define LEX_BUF_MIN 32
/* `current` at the end of the source. */
#define LEX_EOZ (-1)

/* Error codes of lex_next / lex_lookahead. */
#define LEX_OK 0
#define LEX_ESYNTAX 1 /* a lexical error: the message is in err */
#define LEX_EMEM 2    /* no memory for a string or the buffer */

enum lex_token {
    /* single-character tokens are their byte value (< 256); then the
     * reserved words, TK_AND = 257 .. TK_WHILE, as lang/reserved.h lists
     * them: TK_AND, TK_BREAK, TK_DO, ..., TK_UNTIL, TK_WHILE */
    TK_RESERVED_BASE_ = 256,
#define LEX_TOKEN_(name, word) TK_##name,
    LEX_RESERVED(LEX_TOKEN_)
#undef LEX_TOKEN_
    /* other multi-character tokens */
    TK_IDIV,    /* // */
    TK_CONCAT,  /* .. */
    TK_DOTS,    /* ... */
    TK_EQ,      /* == */
    TK_GE,      /* >= */
    TK_LE,      /* <= */
    TK_NE,      /* ~= */
    TK_SHL,     /* << */
    TK_SHR,     /* >> */
    TK_DBCOLON, /* :: */
    TK_EOS,
    TK_FLT,
    TK_INT,
    TK_NAME,
    TK_STRING
};

/* Reserved words: TK_AND .. TK_WHILE, LEX_NRESERVED of them. */
_Static_assert(TK_AND == 257 && TK_WHILE - TK_AND + 1 == LEX_NRESERVED,
               "the reserved words' tokens follow lang/reserved.h");

typedef struct token {
    int tok;
    union {
        rt_num r;
        rt_int i;
        str *s;
    } sem;
} token;

typedef struct lexstate {
    lua_State *L;
    const char *p, *end; /* the next byte to read, the end of the piece */
    lua_Reader reader;   /* the next piece when p reaches end, or NULL */
    void *data;          /* the reader's argument */
    int current;         /* the byte just read, or LEX_EOZ */
    int line;            /* line of `current` */
    int lastline;        /* line of the last token consumed (t) */
    token t;             /* the current token */
    token ahead;         /* the lookahead token */
    int hasahead;        /* ahead holds a token */
    str *source;         /* the chunk name as given ("=x", "@f", text) */
    char *buf;           /* bytes of the token being read */
    size_t buflen;       /* bytes in buf */
    size_t bufcap;       /* bytes allocated for buf */
    int memfail;         /* buf could not grow: the token fails */
    const char *err;     /* the message of the last error */
    char *errbuf;        /* LEX_ERRSIZE bytes for err, made at the first
                          * error (not in the state: it lives through a
                          * whole compilation, lang/load.c) */
} lexstate;

/* Start reading src[0..len-1]; the first lex_next reads the first token.
 * Returns LEX_OK (it allocates nothing). */
int lex_init(lexstate *ls, lua_State *L, const char *src, size_t len,
             str *chunkname);
/* The same, src..len being the first piece of a source that the reader
 * delivers piece by piece (lua_load's protocol: NULL or an empty piece
 * ends it; a piece stays valid until the next call).  The reader runs
 * inside lex_next/lex_lookahead and may raise; it may run Lua code. */
int lex_init_reader(lexstate *ls, lua_State *L, const char *src, size_t len,
                    lua_Reader reader, void *data, str *chunkname);
/* Make the next token current (the lookahead if there is one). */
int lex_next(lexstate *ls);
/* Read the token after t into ahead (only one lookahead at a time). */
int lex_lookahead(lexstate *ls);
/* How messages show a token: 'x' for symbols and words, <eof>, <number>,
 * <name>, <string>, '<\N>' for control bytes.  Returns buf. */
const char *lex_token2str(lexstate *ls, int tok, char *buf, size_t cap);
/* Lua's chunk id: "=name" as name, "@file" as file (long names lose their
 * front to "..."), other text as [string "first line..."]; out gets at
 * most cap (<= LEX_IDSIZE in Lua) bytes with the NUL. */
void lex_chunkid(const char *source, char *out, size_t cap);
/* Free the token buffer. */
void lex_free(lexstate *ls);

#endif
