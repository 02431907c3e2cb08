/*
 * parse.h — the single-pass Lua 5.4 parser and the state it shares with
 * the code generator (lang/code.h).
 *
 * There is no syntax tree: statements are compiled as they are read,
 * with one token of lookahead, straight into the prototype of the
 * function being parsed (a FuncState per open function, innermost
 * first).  An expression being compiled is an expdesc, which says where
 * its value is (a constant, a register, a pending instruction, an
 * indexed access...) so the generator can choose the instruction form.
 * Names, scopes, labels and gotos are kept by lang/scope.h.
 *
 * Nesting (blocks, expressions, assignment targets) is counted in
 * L->nCcalls like C calls; at LUAI_MAXCCALLS the parse fails with "C
 * stack overflow" (a LUA_ERRRUN, as lua5.4), so the C stack used by the
 * recursion is bounded.
 *
 * Invariants:
 *   - Every prototype being built is reachable by the collector: the main
 *     one from the closure pushed before parsing, nested ones from their
 *     parent's p[] (stored as soon as they are made).  The array size
 *     fields always equal the allocated lengths, with every slot set.
 *   - Every string the parser keeps beyond the current token (names of
 *     locals, labels, gotos, string constants) is anchored in the h table
 *     of its function (a stack slot) before the next allocation; the
 *     lexer's current and lookahead strings sit in two stack slots.
 *   - Registers: R[0 .. nactvar-in-registers - 1] hold the active locals
 *     in declaration order; freereg is the first free register.
 *   - Equal long strings of one chunk (string literals and names longer
 *     than a short string) are one object: the first one read is kept in
 *     a table (string -> itself) in a stack slot under the main
 *     function's anchors, made at the first long string, so a chunk
 *     without one pays nothing; the others are replaced by it.
 *   - Temporary arrays (active variables, pending gotos, labels) live in
 *     parse_dyndata, which the loader frees after the protected call,
 *     whether it succeeded or not.
 */
#ifndef RTLUA_PARSE_H
#define RTLUA_PARSE_H

#include "lang/lex.h"
#include "vm/opcodes.h"

/* Most active local variables per function (Lua's limit). */
#define PARSE_MAXVARS 200
/* Most upvalues per function. */
#define PARSE_MAXUPVAL 255
/* End of a jump list. */
#define NO_JUMP (-1)
/* Values flushed to the table per SETLIST. */
#define PARSE_FIELDS_PER_FLUSH 50

typedef enum expkind {
    EK_VOID,     /* no value (empty list end) */
    EK_NIL,      /* nil constant */
    EK_TRUE,     /* true constant */
    EK_FALSE,    /* false constant */
    EK_K,        /* constant in k[]; u.info = index */
    EK_KFLT,     /* float constant; u.nval */
    EK_KINT,     /* integer constant; u.ival */
    EK_KSTR,     /* string constant; u.strval (anchored) */
    EK_NONRELOC, /* value in a fixed register; u.info */
    EK_LOCAL,    /* local variable; u.var.ridx register, u.var.vidx */
    EK_UPVAL,    /* upvalue; u.info */
    EK_CONST,    /* compile-time constant; u.info = actvar index */
    EK_INDEXED,  /* R[ind.t][R[ind.idx]] */
    EK_INDEXUP,  /* Up[ind.t][K[ind.idx]] */
    EK_INDEXI,   /* R[ind.t][ind.idx] (integer 0..255) */
    EK_INDEXSTR, /* R[ind.t][K[ind.idx]] (short string) */
    EK_JMP,      /* a test/comparison; u.info = pc of its JMP */
    EK_RELOC,    /* result can go anywhere; u.info = pc of instruction */
    EK_CALL,     /* a call; u.info = pc of CALL */
    EK_VARARG    /* vararg; u.info = pc of VARARG */
} expkind;

#define ek_isvar(k) ((k) >= EK_LOCAL && (k) <= EK_INDEXSTR)
#define ek_isindexed(k) ((k) >= EK_INDEXED && (k) <= EK_INDEXSTR)
#define ek_hasmultret(k) ((k) == EK_CALL || (k) == EK_VARARG)

typedef struct expdesc {
    expkind k;
    union {
        rt_int ival;
        rt_num nval;
        str *strval;
        int info;
        struct {
            short idx;
            uint8_t t;
        } ind;
        struct {
            uint8_t ridx;
            unsigned short vidx;
        } var;
    } u;
    int t; /* jumps taken when the value is true */
    int f; /* jumps taken when the value is false */
} expdesc;

/* Kinds of variables. */
#define VD_REG 0   /* regular */
#define VD_CONST 1 /* <const> in a register */
#define VD_CLOSE 2 /* <close> */
#define VD_CTC 3   /* compile-time constant: no register */

typedef struct vardesc {
    tvalue k; /* the value of a VD_CTC */
    str *name;
    uint8_t kind;
    uint8_t ridx; /* register */
    short pidx;   /* index in the proto's locvars */
} vardesc;

/* A label or a pending goto. */
typedef struct labeldesc {
    str *name;
    int pc;
    int line;
    uint8_t nactvar; /* active variables at that point */
    uint8_t close;   /* the goto leaves a captured or tbc variable */
} labeldesc;

typedef struct parse_dyndata {
    vardesc *actvar;
    int nactvar, actcap;
    labeldesc *gt;
    int ngt, gtcap;
    labeldesc *label;
    int nlabel, labelcap;
} parse_dyndata;

struct parser;

typedef struct blockcnt {
    struct blockcnt *previous;
    int firstlabel;
    int firstgoto;
    uint8_t nactvar; /* active locals outside the block */
    uint8_t upval;   /* some variable of the block is captured */
    uint8_t isloop;
    uint8_t insidetbc; /* inside the scope of a tbc variable */
} blockcnt;

typedef struct FuncState {
    proto *f;
    struct FuncState *prev;
    struct parser *ps;
    blockcnt *bl;
    int pc;           /* next instruction */
    int lasttarget;   /* pc of the last jump target */
    int previousline; /* line of the last instruction */
    int nk;           /* constants in use */
    int np;           /* nested protos */
    int nabslineinfo;
    int firstlocal; /* index of the first local in actvar */
    int firstlabel;
    short ndebugvars; /* locvars in use */
    uint8_t nactvar;  /* active locals (including compile-time ones) */
    uint8_t nups;
    uint8_t freereg;
    uint8_t iwthabs; /* instructions since the last abslineinfo */
    uint8_t needclose;
    ptrdiff_t h; /* stack offset of the constant/anchor table */
} FuncState;

/* A function's compile state, in the arena rather than on the C stack
 * (every level of nested functions would repeat it there). */
typedef struct funcframe {
    FuncState fs;
    blockcnt bl;
    struct funcframe *next; /* the enclosing function's */
} funcframe;

typedef struct parser {
    lexstate ls;
    lua_State *L;
    FuncState *fs;
    funcframe *frames; /* the open functions' states, innermost first */
    parse_dyndata dyd;
    str *envn;         /* "_ENV" */
    ptrdiff_t tokslot; /* stack offset of the two token anchor slots */
    ptrdiff_t longs;   /* stack offset of the chunk's long strings table */
} parser;

/* Compile the chunk read by ps->ls into the main prototype f of the
 * closure at the top of the stack (which already holds ps's anchors).
 * Raises errors (do_throw). */
void parse_chunk(parser *ps, proto *f);
/* Free the function states an error left open (ps->frames). */
void parse_freeframes(parser *ps);

/* Raise "<chunkid>:<line>: msg near <token>" as LUA_ERRSYNTAX. */
_Noreturn void parse_error(parser *ps, const char *msg);
/* The same without "near <token>". */
_Noreturn void parse_semerror(parser *ps, const char *msg);
/* "too many <what> (limit is N) in <function>" */
_Noreturn void parse_errorlimit(FuncState *fs, int limit, const char *what);
/* printf-like forms: %s a C string, %d an int, %t a token. */
_Noreturn void parse_errorf(parser *ps, const char *fmt, ...);
_Noreturn void parse_semerrorf(parser *ps, const char *fmt, ...);
/* A string made by the parser itself, anchored in the current function. */
str *parse_newliteral(parser *ps, const char *z);

#endif
