/*
 * parse.c — the Lua 5.4 parser (see parse.h).  Written from the Lua 5.4
 * reference manual (§3, §9 grammar); error texts match lua5.4's.
 */
#include "lang/parse.h"
#include "port/port.h"

#include "gc/gc.h"
#include "lang/code.h"
#include "lang/scope.h"
#include "vm/do.h"
#include "vm/func.h"
#include "vm/str.h"
#include "vm/tab.h"

#include <stdarg.h>
#include <string.h>

/* Bytes of a formatted message (chunk id, line, text and token): longer
 * ones are cut.  Smaller on the boards, whose C stack is a few KiB. */
#ifdef RTLUA_HOST
#define PARSE_MSGSIZE 400
#else
#define PARSE_MSGSIZE 200
#endif
/* Priority of unary operators (above every binary one but ^). */
#define UNARY_PRIORITY 12

/* ---- Messages ------------------------------------------------------------
 * A tiny formatter (the lang/ layer does not print): %s a C string, %d an
 * int, %t a token (as lex_token2str shows it).  Every message is built in
 * one buffer inside raise_error(), a cold leaf, so that the recursive parsing
 * functions keep small C frames (the boards have a few KiB of stack). */
#if defined(__GNUC__)
#define PARSE_COLD __attribute__((noinline, cold))
/* Each kind of statement is a function of its own, never inlined into
 * statement(): their locals would all be in statement's frame, which
 * every level of nesting repeats (tools/cstack.lua, build/<board>/
 * cstack.txt, has the frames). */
#define PARSE_LEVEL __attribute__((noinline))
#else
#define PARSE_COLD
#define PARSE_LEVEL
#endif

static void msg_put(char *buf, size_t cap, size_t *n, const char *s)
{
    while (*s != '\0' && *n + 1 < cap)
        buf[(*n)++] = *s++;
    buf[*n] = '\0';
}

static void msg_int(char *buf, size_t cap, size_t *n, int v)
{
    char r[16];
    port_snprintf(r, sizeof r, "%d", v);
    msg_put(buf, cap, n, r);
}

static void msg_vformat(parser *ps, char *buf, size_t cap, size_t *n,
                        const char *fmt, va_list ap)
{
    for (; *fmt != '\0'; fmt++) {
        if (*fmt == '%' && fmt[1] == 's') {
            msg_put(buf, cap, n, va_arg(ap, const char *));
            fmt++;
        } else if (*fmt == '%' && fmt[1] == 'd') {
            msg_int(buf, cap, n, va_arg(ap, int));
            fmt++;
        } else if (*fmt == '%' && fmt[1] == 't') {
            char t[40];
            lex_token2str(&ps->ls, va_arg(ap, int), t, sizeof(t));
            msg_put(buf, cap, n, t);
            fmt++;
        } else {
            char c[2] = {*fmt, '\0'};
            msg_put(buf, cap, n, c);
        }
    }
}

_Noreturn static void throwmsg(parser *ps, const char *msg, int status)
{
    lua_State *L = ps->L;
    str *s;
    /* A slot without raising another error (do_checkstack would format
     * "stack overflow"): no room is a memory error. */
    if (L->stack + L->stacklimit - L->top <= 1 + DO_EXTRA_STACK &&
        !do_trygrowstack(L, 1))
        do_memerror(L);
    s = str_newz(L, msg);
    if (s == NULL)
        do_memerror(L);
    set_gc(L->top, s, s->tt);
    L->top++;
    do_throw(L, status);
}

/* How a message shows the current token: names, strings and numerals as
 * their source text. */
static void tokentext(parser *ps, char *buf, size_t cap)
{
    lexstate *ls = &ps->ls;
    int tok = ls->t.tok;
    if (cap < 8) { /* no room for the decoration: show nothing */
        if (cap > 0)
            buf[0] = '\0';
        return;
    }
    if (tok == TK_NAME || tok == TK_STRING || tok == TK_FLT || tok == TK_INT) {
        size_t n = 0, k;
        /* the lexer keeps a short string's opening quote but not the
         * closing one, and no brackets of a long string (level 0 shown) */
        int quoted = tok == TK_STRING && ls->buflen > 0 &&
                     (ls->buf[0] == '"' || ls->buf[0] == '\'');
        int longstr = tok == TK_STRING && !quoted;
        buf[n++] = '\'';
        if (longstr) {
            buf[n++] = '[';
            buf[n++] = '[';
        }
        for (k = 0; k < ls->buflen && n + 5 < cap && ls->buf[k] != '\0'; k++)
            buf[n++] = ls->buf[k];
        /* the reference shows the token's text up to a zero in it, and
         * so then no closing quote or brackets */
        int cut = k < ls->buflen && ls->buf[k] == '\0';
        if (quoted && !cut)
            buf[n++] = ls->buf[0];
        if (longstr && !cut) {
            buf[n++] = ']';
            buf[n++] = ']';
        }
        buf[n++] = '\'';
        buf[n] = '\0';
    } else {
        lex_token2str(ls, tok, buf, cap);
    }
}

/* "<chunkid>:<line>: <message>[ near <token>]" raised as a syntax error. */
PARSE_COLD _Noreturn static void raise_error(parser *ps, int near,
                                             const char *fmt, va_list ap)
{
    char buf[PARSE_MSGSIZE], id[LEX_IDSIZE];
    size_t n = 0;
    lexstate *ls = &ps->ls;
    buf[0] = '\0';
    lex_chunkid(ls->source != NULL ? str_data(ls->source) : "?", id,
                sizeof(id));
    msg_put(buf, sizeof(buf), &n, id);
    msg_put(buf, sizeof(buf), &n, ":");
    msg_int(buf, sizeof(buf), &n, ls->line);
    msg_put(buf, sizeof(buf), &n, ": ");
    msg_vformat(ps, buf, sizeof(buf), &n, fmt, ap);
    if (near) {
        msg_put(buf, sizeof(buf), &n, " near ");
        tokentext(ps, buf + n, sizeof(buf) - n);
    }
    throwmsg(ps, buf, LUA_ERRSYNTAX);
}

/* A syntax error with a formatted message, near the current token.
 * Short of C stack for raise_error's buffers (port/port.h, kind error),
 * the error is "C stack overflow" instead. */
PARSE_COLD _Noreturn void parse_errorf(parser *ps, const char *fmt, ...)
{
    if (port_cstack_short(error))
        do_cstackerror(ps->L);
    va_list ap;
    va_start(ap, fmt);
    raise_error(ps, 1, fmt, ap);
}

/* The same without "near <token>" (semantic errors). */
PARSE_COLD _Noreturn void parse_semerrorf(parser *ps, const char *fmt, ...)
{
    if (port_cstack_short(error))
        do_cstackerror(ps->L);
    va_list ap;
    va_start(ap, fmt);
    raise_error(ps, 0, fmt, ap);
}

_Noreturn void parse_error(parser *ps, const char *msg)
{
    parse_errorf(ps, "%s", msg);
}

_Noreturn void parse_semerror(parser *ps, const char *msg)
{
    parse_semerrorf(ps, "%s", msg);
}

_Noreturn void parse_errorlimit(FuncState *fs, int limit, const char *what)
{
    int line = fs->f->linedefined;
    if (line == 0)
        parse_errorf(fs->ps, "too many %s (limit is %d) in main function",
                     what, limit);
    parse_errorf(fs->ps, "too many %s (limit is %d) in function at line %d",
                 what, limit, line);
}

static void error_expected(parser *ps, int tok)
{
    parse_errorf(ps, "%t expected", tok);
}

/* ---- Tokens ------------------------------------------------------------- */
static void lexcheck(parser *ps, int r)
{
    if (r == LEX_EMEM)
        do_memerror(ps->L);
    if (r != LEX_OK)
        throwmsg(ps, ps->ls.err, LUA_ERRSYNTAX);
}

/* Keep the strings of the current and lookahead tokens reachable. */
static void anchortokens(parser *ps)
{
    tvalue *slot = do_restorestack(ps->L, ps->tokslot);
    const token *tk[2] = {&ps->ls.t, &ps->ls.ahead};
    for (int i = 0; i < 2; i++) {
        if (tk[i]->tok == TK_NAME || tk[i]->tok == TK_STRING)
            set_gc(&slot[i], tk[i]->sem.s, tk[i]->sem.s->tt);
        else
            set_nil(&slot[i]);
    }
}

/* Give a long string token the object of the first equal long string of
 * the chunk (which becomes one constant object, as in Lua: C14).  The
 * token's string is anchored (anchortokens) before the table allocates. */
static void sharelong(parser *ps, token *tk)
{
    lua_State *L = ps->L;
    tvalue *slot, key;
    table *h;
    if ((tk->tok != TK_NAME && tk->tok != TK_STRING) ||
        tk->sem.s->tt != V_LNGSTR)
        return;
    slot = do_restorestack(L, ps->longs);
    if (is_nil(slot)) {
        h = tab_new(L);
        if (h == NULL)
            do_memerror(L);
        set_gc(do_restorestack(L, ps->longs), h, V_TABLE);
    } else {
        h = gco2tab(gc_of(slot));
    }
    const tvalue *old = tab_getstr(h, tk->sem.s);
    if (is_str(old)) {
        tk->sem.s = gco2str(gc_of(old));
        return;
    }
    set_gc(&key, tk->sem.s, V_LNGSTR);
    if (tab_set(L, h, &key, &key) != TAB_OK)
        do_memerror(L);
}

static void tokensread(parser *ps)
{
    anchortokens(ps);
    sharelong(ps, &ps->ls.t);
    if (ps->ls.hasahead)
        sharelong(ps, &ps->ls.ahead);
    anchortokens(ps);
}

static void next(parser *ps)
{
    lexcheck(ps, lex_next(&ps->ls));
    tokensread(ps);
}

static int lookahead(parser *ps)
{
    lexcheck(ps, lex_lookahead(&ps->ls));
    tokensread(ps);
    return ps->ls.ahead.tok;
}

#define tok(ps) ((ps)->ls.t.tok)

static int testnext(parser *ps, int c)
{
    if (tok(ps) == c) {
        next(ps);
        return 1;
    }
    return 0;
}

static void check(parser *ps, int c)
{
    if (tok(ps) != c)
        error_expected(ps, c);
}

static void checknext(parser *ps, int c)
{
    check(ps, c);
    next(ps);
}

static void check_condition(parser *ps, int c, const char *msg)
{
    if (!c)
        parse_error(ps, msg);
}

static void check_match(parser *ps, int what, int who, int where)
{
    if (!testnext(ps, what)) {
        if (where == ps->ls.line)
            error_expected(ps, what);
        parse_errorf(ps, "%t expected (to close %t at line %d)", what, who,
                     where);
    }
}

static str *str_checkname(parser *ps)
{
    str *s;
    check(ps, TK_NAME);
    s = ps->ls.t.sem.s;
    code_anchor(ps->fs, s);
    next(ps);
    return s;
}

/* A string made by the parser itself, anchored in the current function. */
str *parse_newliteral(parser *ps, const char *z)
{
    tvalue *slot = do_restorestack(ps->L, ps->tokslot) + 2;
    str *s = str_newz(ps->L, z);
    if (s == NULL)
        do_memerror(ps->L);
    set_gc(slot, s, s->tt);
    code_anchor(ps->fs, s);
    set_nil(slot);
    return s;
}

static void init_exp(expdesc *e, expkind k, int i)
{
    e->f = e->t = NO_JUMP;
    e->k = k;
    e->u.info = i;
}

static void codestring(expdesc *e, str *s)
{
    e->f = e->t = NO_JUMP;
    e->k = EK_KSTR;
    e->u.strval = s;
}

static void codename(parser *ps, expdesc *e)
{
    codestring(e, str_checkname(ps));
}

/* A parser level: the C stack's check (vm/do.h), inline so that the
 * recursive function itself checks before it calls anything. */
static inline __attribute__((always_inline)) void enterlevel(parser *ps)
{
    lua_State *L = ps->L;
    L->nCcalls++;
    int isshort = 0;
    if (do_getCcalls(L) >= do_maxccalls(L) ||
        (isshort = do_cstackshort(parse)) != 0)
        do_cstackfail(L, isshort || do_cstackshort(parse));
}

static void leavelevel(parser *ps)
{
    ps->L->nCcalls--;
}

/* ---- Functions ---------------------------------------------------------- */
static void singlevar(parser *ps, expdesc *var)
{
    FuncState *fs = ps->fs;
    str *name = str_checkname(ps);
    scope_singlevaraux(fs, name, var, 1);
    if (var->k == EK_VOID) {
        expdesc key;
        scope_singlevaraux(fs, ps->envn, var, 1);
        code_exp2anyregup(fs, var);
        codestring(&key, name);
        code_indexed(fs, var, &key);
    }
}

static void adjust_assign(parser *ps, int nvars, int nexps, expdesc *e)
{
    FuncState *fs = ps->fs;
    int needed = nvars - nexps;
    if (ek_hasmultret(e->k)) {
        int extra = needed + 1 < 0 ? 0 : needed + 1;
        code_setreturns(fs, e, extra);
    } else {
        if (e->k != EK_VOID)
            code_exp2nextreg(fs, e);
        if (needed > 0)
            code_nil(fs, fs->freereg, needed);
    }
    if (needed > 0)
        code_reserveregs(fs, needed);
    else
        fs->freereg = (uint8_t)(fs->freereg + needed);
}

static void codeclosure(parser *ps, expdesc *v)
{
    FuncState *fs = ps->fs->prev;
    init_exp(v, EK_RELOC, code_ABx(fs, OP_CLOSURE, 0, fs->np - 1));
    code_exp2nextreg(fs, v);
}

static void setvararg(FuncState *fs, int nparams)
{
    fs->f->is_vararg = 1;
    code_ABC(fs, OP_VARARGPREP, nparams, 0, 0);
}

static void statlist(parser *ps);
static void expr(parser *ps, expdesc *v);
static void constructor(parser *ps, expdesc *t);

static void parlist(parser *ps)
{
    FuncState *fs = ps->fs;
    proto *f = fs->f;
    int nparams = 0, isvararg = 0;
    if (tok(ps) != ')') {
        do {
            switch (tok(ps)) {
            case TK_NAME:
                scope_newlocal(ps, str_checkname(ps));
                nparams++;
                break;
            case TK_DOTS:
                next(ps);
                isvararg = 1;
                break;
            default:
                parse_error(ps, "<name> or '...' expected");
            }
        } while (!isvararg && testnext(ps, ','));
    }
    scope_activate(ps, nparams);
    f->numparams = fs->nactvar;
    if (isvararg)
        setvararg(fs, f->numparams);
    code_reserveregs(fs, fs->nactvar);
}

/* A new function's state (funcframe), freed by closeframe or, after an
 * error, by parse_freeframes. */
static FuncState *openframe(parser *ps)
{
    funcframe *fr = gc_alloc(ps->L, sizeof(funcframe));
    if (fr == NULL)
        do_memerror(ps->L);
    fr->next = ps->frames;
    ps->frames = fr;
    return &fr->fs;
}

static void closeframe(parser *ps)
{
    funcframe *fr = ps->frames;
    ps->frames = fr->next;
    gc_free(G(ps->L), fr, sizeof(funcframe));
}

void parse_freeframes(parser *ps)
{
    while (ps->frames != NULL)
        closeframe(ps);
}

static void body(parser *ps, expdesc *e, int ismethod, int line)
{
    FuncState *new_fs = openframe(ps);
    new_fs->f = scope_addproto(ps);
    new_fs->f->linedefined = line;
    scope_openfunc(ps, new_fs, &ps->frames->bl);
    checknext(ps, '(');
    if (ismethod) {
        scope_newlocal(ps, parse_newliteral(ps, "self"));
        scope_activate(ps, 1);
    }
    parlist(ps);
    checknext(ps, ')');
    statlist(ps);
    new_fs->f->lastlinedefined = ps->ls.line;
    check_match(ps, TK_END, TK_FUNCTION, line);
    codeclosure(ps, e);
    scope_closefunc(ps);
    closeframe(ps);
}

/* ---- Expressions -----------------------------------------------------------
 */
static int explist(parser *ps, expdesc *v)
{
    int n = 1;
    expr(ps, v);
    while (testnext(ps, ',')) {
        code_exp2nextreg(ps->fs, v);
        expr(ps, v);
        n++;
    }
    return n;
}

/* The call's line is where its arguments start (the '(', string or '{'
 * token, as Lua 5.4.7 on): an error in the call names that line, not the
 * one of the function expression. */
static void funcargs(parser *ps, expdesc *f)
{
    FuncState *fs = ps->fs;
    expdesc args;
    int base, nparams, line = ps->ls.line;
    switch (tok(ps)) {
    case '(':
        next(ps);
        if (tok(ps) == ')') {
            args.k = EK_VOID;
        } else {
            explist(ps, &args);
            if (ek_hasmultret(args.k))
                code_setmultret(fs, &args);
        }
        check_match(ps, ')', '(', line);
        break;
    case '{':
        constructor(ps, &args);
        break;
    case TK_STRING:
        code_anchor(fs, ps->ls.t.sem.s);
        codestring(&args, ps->ls.t.sem.s);
        next(ps);
        break;
    default:
        parse_error(ps, "function arguments expected");
    }
    base = f->u.info;
    if (ek_hasmultret(args.k)) {
        nparams = LUA_MULTRET;
    } else {
        if (args.k != EK_VOID)
            code_exp2nextreg(fs, &args);
        nparams = fs->freereg - (base + 1);
    }
    init_exp(f, EK_CALL, code_ABC(fs, OP_CALL, base, nparams + 1, 2));
    code_fixline(fs, line);
    fs->freereg = (uint8_t)(base + 1);
}

static void fieldsel(parser *ps, expdesc *v)
{
    expdesc key;
    code_exp2anyregup(ps->fs, v);
    next(ps);
    codename(ps, &key);
    code_indexed(ps->fs, v, &key);
}

static void yindex(parser *ps, expdesc *v)
{
    next(ps);
    expr(ps, v);
    code_exp2val(ps->fs, v);
    checknext(ps, ']');
}

static void primaryexp(parser *ps, expdesc *v)
{
    switch (tok(ps)) {
    case '(': {
        int line = ps->ls.line;
        next(ps);
        expr(ps, v);
        check_match(ps, ')', '(', line);
        code_dischargevars(ps->fs, v);
        return;
    }
    case TK_NAME:
        singlevar(ps, v);
        return;
    default:
        parse_error(ps, "unexpected symbol");
    }
}

/* v[key] (suffixedexp's; its own function, so that the key's expdesc
 * is not in the frame of every level of nested calls). */
PARSE_LEVEL static void indexsuffix(parser *ps, expdesc *v)
{
    expdesc key;
    code_exp2anyregup(ps->fs, v);
    yindex(ps, &key);
    code_indexed(ps->fs, v, &key);
}

/* v:name(args) */
PARSE_LEVEL static void methodsuffix(parser *ps, expdesc *v)
{
    expdesc key;
    next(ps);
    codename(ps, &key);
    code_self(ps->fs, v, &key);
    funcargs(ps, v);
}

static void suffixedexp(parser *ps, expdesc *v)
{
    FuncState *fs = ps->fs;
    primaryexp(ps, v);
    for (;;) {
        switch (tok(ps)) {
        case '.':
            fieldsel(ps, v);
            break;
        case '[':
            indexsuffix(ps, v);
            break;
        case ':':
            methodsuffix(ps, v);
            break;
        case '(':
        case TK_STRING:
        case '{':
            code_exp2nextreg(fs, v);
            funcargs(ps, v);
            break;
        default:
            return;
        }
    }
}

/* ---- Table constructors ------------------------------------------------- */
typedef struct conscontrol {
    expdesc v;   /* last list item read */
    expdesc *t;  /* the table */
    int nh;      /* record fields */
    int na;      /* list items already stored */
    int tostore; /* list items waiting for a SETLIST */
} conscontrol;

static void recfield(parser *ps, conscontrol *cc)
{
    FuncState *fs = ps->fs;
    int reg = fs->freereg;
    expdesc tab, key, val;
    if (tok(ps) == TK_NAME)
        codename(ps, &key);
    else
        yindex(ps, &key);
    cc->nh++;
    checknext(ps, '=');
    tab = *cc->t;
    code_indexed(fs, &tab, &key);
    expr(ps, &val);
    code_storevar(fs, &tab, &val);
    fs->freereg = (uint8_t)reg;
}

static void closelistfield(FuncState *fs, conscontrol *cc)
{
    if (cc->v.k == EK_VOID)
        return;
    code_exp2nextreg(fs, &cc->v);
    cc->v.k = EK_VOID;
    if (cc->tostore == PARSE_FIELDS_PER_FLUSH) {
        code_setlist(fs, cc->t->u.info, cc->na, cc->tostore);
        cc->na += cc->tostore;
        cc->tostore = 0;
    }
}

static void lastlistfield(FuncState *fs, conscontrol *cc)
{
    if (cc->tostore == 0)
        return;
    if (ek_hasmultret(cc->v.k)) {
        /* The array part is sized for one value of the open call or
         * vararg (counted below): {f(x), f(y)} is made whole instead of
         * grown by its SETLIST; more values grow it there. */
        code_setmultret(fs, &cc->v);
        code_setlist(fs, cc->t->u.info, cc->na, LUA_MULTRET);
    } else {
        if (cc->v.k != EK_VOID)
            code_exp2nextreg(fs, &cc->v);
        code_setlist(fs, cc->t->u.info, cc->na, cc->tostore);
    }
    cc->na += cc->tostore;
}

static void field(parser *ps, conscontrol *cc)
{
    switch (tok(ps)) {
    case TK_NAME:
        if (lookahead(ps) != '=') {
            expr(ps, &cc->v);
            cc->tostore++;
        } else {
            recfield(ps, cc);
        }
        break;
    case '[':
        recfield(ps, cc);
        break;
    default:
        expr(ps, &cc->v);
        cc->tostore++;
        break;
    }
}

static void constructor(parser *ps, expdesc *t)
{
    FuncState *fs = ps->fs;
    int line = ps->ls.line;
    int pc = code_ABC(fs, OP_NEWTABLE, 0, 0, 0);
    conscontrol cc;
    code_extraarg(fs, 0);
    cc.na = cc.nh = cc.tostore = 0;
    cc.t = t;
    init_exp(t, EK_NONRELOC, fs->freereg);
    code_reserveregs(fs, 1);
    init_exp(&cc.v, EK_VOID, 0);
    checknext(ps, '{');
    do {
        if (tok(ps) == '}')
            break;
        closelistfield(fs, &cc);
        field(ps, &cc);
    } while (testnext(ps, ',') || testnext(ps, ';'));
    check_match(ps, '}', '{', line);
    lastlistfield(fs, &cc);
    code_settablesize(fs, pc, t->u.info, cc.na, cc.nh);
}

static void simpleexp(parser *ps, expdesc *v)
{
    FuncState *fs = ps->fs;
    switch (tok(ps)) {
    case TK_FLT:
        init_exp(v, EK_KFLT, 0);
        v->u.nval = ps->ls.t.sem.r;
        break;
    case TK_INT:
        init_exp(v, EK_KINT, 0);
        v->u.ival = ps->ls.t.sem.i;
        break;
    case TK_STRING:
        code_anchor(fs, ps->ls.t.sem.s);
        codestring(v, ps->ls.t.sem.s);
        break;
    case TK_NIL:
        init_exp(v, EK_NIL, 0);
        break;
    case TK_TRUE:
        init_exp(v, EK_TRUE, 0);
        break;
    case TK_FALSE:
        init_exp(v, EK_FALSE, 0);
        break;
    case TK_DOTS:
        check_condition(ps, fs->f->is_vararg,
                        "cannot use '...' outside a vararg function");
        init_exp(v, EK_VARARG, code_ABC(fs, OP_VARARG, 0, 0, 1));
        break;
    case '{':
        constructor(ps, v);
        return;
    case TK_FUNCTION:
        next(ps);
        body(ps, v, 0, ps->ls.line);
        return;
    default:
        suffixedexp(ps, v);
        return;
    }
    next(ps);
}

static unopr getunopr(int op)
{
    switch (op) {
    case TK_NOT:
        return OPR_NOT;
    case '-':
        return OPR_MINUS;
    case '~':
        return OPR_BNOT;
    case '#':
        return OPR_LEN;
    default:
        return OPR_NOUNOPR;
    }
}

static binopr getbinopr(int op)
{
    switch (op) {
    case '+':
        return OPR_ADD;
    case '-':
        return OPR_SUB;
    case '*':
        return OPR_MUL;
    case '%':
        return OPR_MOD;
    case '^':
        return OPR_POW;
    case '/':
        return OPR_DIV;
    case TK_IDIV:
        return OPR_IDIV;
    case '&':
        return OPR_BAND;
    case '|':
        return OPR_BOR;
    case '~':
        return OPR_BXOR;
    case TK_SHL:
        return OPR_SHL;
    case TK_SHR:
        return OPR_SHR;
    case TK_CONCAT:
        return OPR_CONCAT;
    case TK_NE:
        return OPR_NE;
    case TK_EQ:
        return OPR_EQ;
    case '<':
        return OPR_LT;
    case TK_LE:
        return OPR_LE;
    case '>':
        return OPR_GT;
    case TK_GE:
        return OPR_GE;
    case TK_AND:
        return OPR_AND;
    case TK_OR:
        return OPR_OR;
    default:
        return OPR_NOBINOPR;
    }
}

/* Left and right priorities of each binary operator (.. and ^ are right
 * associative: their right priority is lower). */
static const struct {
    uint8_t left, right;
} priority[] = {
    {10, 10}, {10, 10},         /* + - */
    {11, 11}, {11, 11},         /* * % */
    {14, 13},                   /* ^ */
    {11, 11}, {11, 11},         /* / // */
    {6, 6},   {4, 4},   {5, 5}, /* & | ~ */
    {7, 7},   {7, 7},           /* << >> */
    {9, 8},                     /* .. */
    {3, 3},   {3, 3},   {3, 3}, /* == < <= */
    {3, 3},   {3, 3},   {3, 3}, /* ~= > >= */
    {2, 2},   {1, 1}            /* and or */
};

static binopr subexpr(parser *ps, expdesc *v, int limit);

/* v op <subexpr>: the right operand, and the operator after it (its own
 * function, so that the operand's expdesc is not in the frame of every
 * level of nested expressions). */
PARSE_LEVEL static binopr binoperand(parser *ps, expdesc *v, binopr op)
{
    expdesc v2;
    int line = ps->ls.line;
    next(ps);
    code_infix(ps->fs, op, v);
    binopr nextop = subexpr(ps, &v2, priority[op].right);
    code_posfix(ps->fs, op, v, &v2, line);
    return nextop;
}

static binopr subexpr(parser *ps, expdesc *v, int limit)
{
    binopr op;
    unopr uop;
    enterlevel(ps);
    uop = getunopr(tok(ps));
    if (uop != OPR_NOUNOPR) {
        int line = ps->ls.line;
        next(ps);
        subexpr(ps, v, UNARY_PRIORITY);
        code_prefix(ps->fs, uop, v, line);
    } else {
        simpleexp(ps, v);
    }
    op = getbinopr(tok(ps));
    while (op != OPR_NOBINOPR && priority[op].left > limit)
        op = binoperand(ps, v, op);
    leavelevel(ps);
    return op;
}

static void expr(parser *ps, expdesc *v)
{
    subexpr(ps, v, 0);
}

/* ---- Statements --------------------------------------------------------- */
static int block_follow(parser *ps, int withuntil)
{
    switch (tok(ps)) {
    case TK_ELSE:
    case TK_ELSEIF:
    case TK_END:
    case TK_EOS:
        return 1;
    case TK_UNTIL:
        return withuntil;
    default:
        return 0;
    }
}

static void statement(parser *ps);

static void statlist(parser *ps)
{
    while (!block_follow(ps, 1)) {
        if (tok(ps) == TK_RETURN) {
            statement(ps);
            return;
        }
        statement(ps);
    }
}

static void block(parser *ps)
{
    FuncState *fs = ps->fs;
    blockcnt bl;
    scope_enterblock(fs, &bl, 0);
    statlist(ps);
    scope_leaveblock(fs);
}

/* A chain of assignment targets, innermost last. */
struct lhs_assign {
    struct lhs_assign *prev;
    expdesc v;
};

/* An earlier target indexing the local/upvalue v that this assignment
 * also writes must use the old value: copy it to a fresh register. */
static void check_conflict(parser *ps, struct lhs_assign *lh, expdesc *v)
{
    FuncState *fs = ps->fs;
    int extra = fs->freereg, conflict = 0;
    for (; lh != NULL; lh = lh->prev) {
        if (!ek_isindexed(lh->v.k))
            continue;
        if (lh->v.k == EK_INDEXUP) {
            if (v->k == EK_UPVAL && lh->v.u.ind.t == v->u.info) {
                conflict = 1;
                lh->v.k = EK_INDEXSTR;
                lh->v.u.ind.t = (uint8_t)extra;
            }
        } else {
            if (v->k == EK_LOCAL && lh->v.u.ind.t == v->u.var.ridx) {
                conflict = 1;
                lh->v.u.ind.t = (uint8_t)extra;
            }
            if (lh->v.k == EK_INDEXED && v->k == EK_LOCAL &&
                lh->v.u.ind.idx == v->u.var.ridx) {
                conflict = 1;
                lh->v.u.ind.idx = (short)extra;
            }
        }
    }
    if (conflict) {
        if (v->k == EK_LOCAL)
            code_ABC(fs, OP_MOVE, extra, v->u.var.ridx, 0);
        else
            code_ABC(fs, OP_GETUPVAL, extra, v->u.info, 0);
        code_reserveregs(fs, 1);
    }
}

static void restassign(parser *ps, struct lhs_assign *lh, int nvars)
{
    FuncState *fs = ps->fs;
    expdesc e;
    /* The stack first (the level is counted below, as the reference
     * counts it). */
    if (do_cstackshort(parse))
        do_cstackfail(ps->L, 1);
    check_condition(ps, ek_isvar(lh->v.k), "syntax error");
    scope_checkreadonly(ps, &lh->v);
    if (testnext(ps, ',')) {
        struct lhs_assign nv;
        nv.prev = lh;
        suffixedexp(ps, &nv.v);
        if (!ek_isindexed(nv.v.k))
            check_conflict(ps, lh, &nv.v);
        enterlevel(ps);
        restassign(ps, &nv, nvars + 1);
        leavelevel(ps);
    } else {
        int nexps;
        checknext(ps, '=');
        nexps = explist(ps, &e);
        if (nexps != nvars) {
            adjust_assign(ps, nvars, nexps, &e);
        } else {
            code_setoneret(fs, &e);
            code_storevar(fs, &lh->v, &e);
            return;
        }
    }
    init_exp(&e, EK_NONRELOC, fs->freereg - 1);
    code_storevar(fs, &lh->v, &e);
}

static int cond(parser *ps)
{
    expdesc v;
    expr(ps, &v);
    if (v.k == EK_NIL)
        v.k = EK_FALSE;
    code_goiftrue(ps->fs, &v);
    return v.f;
}

PARSE_LEVEL static void gotostat(parser *ps)
{
    FuncState *fs = ps->fs;
    int line = ps->ls.line;
    str *name = str_checkname(ps);
    labeldesc *lb = scope_findlabel(ps, name);
    if (lb == NULL) {
        scope_newgoto(ps, name, line, code_jump(fs));
    } else {
        int lblevel = code_reglevel(fs, lb->nactvar);
        if (code_nvarstack(fs) > lblevel)
            code_ABC(fs, OP_CLOSE, lblevel, 0, 0);
        code_patchlist(fs, code_jump(fs), lb->pc);
    }
}

PARSE_LEVEL static void breakstat(parser *ps)
{
    int line = ps->ls.line;
    next(ps);
    scope_newgoto(ps, parse_newliteral(ps, "break"), line, code_jump(ps->fs));
}

PARSE_LEVEL static void labelstat(parser *ps, str *name, int line)
{
    checknext(ps, TK_DBCOLON);
    while (tok(ps) == ';' || tok(ps) == TK_DBCOLON)
        statement(ps);
    scope_checkrepeated(ps, name);
    scope_createlabel(ps, name, line, block_follow(ps, 0));
}

PARSE_LEVEL static void whilestat(parser *ps, int line)
{
    FuncState *fs = ps->fs;
    int whileinit, condexit;
    blockcnt bl;
    next(ps);
    whileinit = code_getlabel(fs);
    condexit = cond(ps);
    scope_enterblock(fs, &bl, 1);
    checknext(ps, TK_DO);
    block(ps);
    code_patchlist(fs, code_jump(fs), whileinit);
    check_match(ps, TK_END, TK_WHILE, line);
    scope_leaveblock(fs);
    code_patchtohere(fs, condexit);
}

PARSE_LEVEL static void repeatstat(parser *ps, int line)
{
    FuncState *fs = ps->fs;
    int condexit;
    int repeat_init = code_getlabel(fs);
    blockcnt bl1, bl2;
    scope_enterblock(fs, &bl1, 1);
    scope_enterblock(fs, &bl2, 0);
    next(ps);
    statlist(ps);
    check_match(ps, TK_UNTIL, TK_REPEAT, line);
    condexit = cond(ps);  /* sees the body's locals */
    scope_leaveblock(fs); /* closes them on the way out */
    if (bl2.upval) {
        /* going round again must close them too */
        int exit = code_jump(fs);
        code_patchtohere(fs, condexit);
        code_ABC(fs, OP_CLOSE, code_reglevel(fs, bl2.nactvar), 0, 0);
        condexit = code_jump(fs);
        code_patchtohere(fs, exit);
    }
    code_patchlist(fs, condexit, repeat_init);
    scope_leaveblock(fs);
}

static void exp1(parser *ps)
{
    expdesc e;
    expr(ps, &e);
    code_exp2nextreg(ps->fs, &e);
}

/* Set the Bx of the for instruction at pc to reach dest. */
static void fixforjump(FuncState *fs, int pc, int dest, int back)
{
    int off = dest - (pc + 1);
    if (back)
        off = -off;
    if (off > OP_MAXARG_BX)
        parse_error(fs->ps, "control structure too long");
    SETARG_Bx(fs->f->code[pc], (uint32_t)off);
}

static void forbody(parser *ps, int base, int line, int nvars, int isgen)
{
    FuncState *fs = ps->fs;
    blockcnt bl;
    int prep, endfor;
    checknext(ps, TK_DO);
    prep = code_ABx(fs, isgen ? OP_TFORPREP : OP_FORPREP, base, 0);
    scope_enterblock(fs, &bl, 0);
    scope_activate(ps, nvars);
    code_reserveregs(fs, nvars);
    block(ps);
    scope_leaveblock(fs);
    fixforjump(fs, prep, code_getlabel(fs), 0);
    if (isgen) {
        code_ABC(fs, OP_TFORCALL, base, 0, nvars);
        code_fixline(fs, line);
    }
    endfor = code_ABx(fs, isgen ? OP_TFORLOOP : OP_FORLOOP, base, 0);
    fixforjump(fs, endfor, prep + 1, 1);
    code_fixline(fs, line);
}

static void fornum(parser *ps, str *varname, int line)
{
    FuncState *fs = ps->fs;
    int base = fs->freereg;
    scope_newlocal(ps, parse_newliteral(ps, "(for state)"));
    scope_newlocal(ps, parse_newliteral(ps, "(for state)"));
    scope_newlocal(ps, parse_newliteral(ps, "(for state)"));
    scope_newlocal(ps, varname);
    checknext(ps, '=');
    exp1(ps);
    checknext(ps, ',');
    exp1(ps);
    if (testnext(ps, ',')) {
        exp1(ps);
    } else {
        code_int(fs, fs->freereg, 1);
        code_reserveregs(fs, 1);
    }
    scope_activate(ps, 3);
    forbody(ps, base, line, 1, 0);
}

static void forlist(parser *ps, str *indexname)
{
    FuncState *fs = ps->fs;
    expdesc e;
    int nvars = 5, line;
    int base = fs->freereg;
    for (int i = 0; i < 4; i++)
        scope_newlocal(ps, parse_newliteral(ps, "(for state)"));
    scope_newlocal(ps, indexname);
    while (testnext(ps, ',')) {
        scope_newlocal(ps, str_checkname(ps));
        nvars++;
    }
    checknext(ps, TK_IN);
    line = ps->ls.line;
    adjust_assign(ps, 4, explist(ps, &e), &e);
    scope_activate(ps, 4);
    scope_marktbc(fs);      /* the fourth value may be to-be-closed */
    code_checkstack(fs, 3); /* room to call the generator */
    forbody(ps, base, line, nvars - 4, 1);
}

PARSE_LEVEL static void forstat(parser *ps, int line)
{
    FuncState *fs = ps->fs;
    str *varname;
    blockcnt bl;
    scope_enterblock(fs, &bl, 1);
    next(ps);
    varname = str_checkname(ps);
    switch (tok(ps)) {
    case '=':
        fornum(ps, varname, line);
        break;
    case ',':
    case TK_IN:
        forlist(ps, varname);
        break;
    default:
        parse_error(ps, "'=' or 'in' expected");
    }
    check_match(ps, TK_END, TK_FOR, line);
    scope_leaveblock(fs);
}

static void test_then_block(parser *ps, int *escapelist)
{
    FuncState *fs = ps->fs;
    blockcnt bl;
    expdesc v;
    int jf;
    next(ps);
    expr(ps, &v);
    checknext(ps, TK_THEN);
    code_goiftrue(fs, &v);
    jf = v.f;
    scope_enterblock(fs, &bl, 0);
    statlist(ps);
    scope_leaveblock(fs);
    if (tok(ps) == TK_ELSE || tok(ps) == TK_ELSEIF)
        code_concat(fs, escapelist, code_jump(fs));
    code_patchtohere(fs, jf);
}

PARSE_LEVEL static void ifstat(parser *ps, int line)
{
    int escapelist = NO_JUMP;
    test_then_block(ps, &escapelist);
    while (tok(ps) == TK_ELSEIF)
        test_then_block(ps, &escapelist);
    if (testnext(ps, TK_ELSE))
        block(ps);
    check_match(ps, TK_END, TK_IF, line);
    code_patchtohere(ps->fs, escapelist);
}

PARSE_LEVEL static void localfunc(parser *ps)
{
    FuncState *fs = ps->fs;
    expdesc b;
    int fvar = fs->nactvar;
    scope_newlocal(ps, str_checkname(ps));
    scope_activate(ps, 1);
    body(ps, &b, 0, ps->ls.line);
    /* debug information only sees the variable after the closure */
    fs->f->locvars[scope_localvardesc(fs, fvar)->pidx].startpc = fs->pc;
}

static int getlocalattribute(parser *ps)
{
    if (testnext(ps, '<')) {
        str *attr = str_checkname(ps);
        const char *a = str_data(attr);
        checknext(ps, '>');
        if (strcmp(a, "const") == 0)
            return VD_CONST;
        if (strcmp(a, "close") == 0)
            return VD_CLOSE;
        parse_semerrorf(ps, "unknown attribute '%s'", a);
    }
    return VD_REG;
}

static void checktoclose(FuncState *fs, int level)
{
    if (level != -1) {
        scope_marktbc(fs);
        code_ABC(fs, OP_TBC, code_reglevel(fs, level), 0, 0);
    }
}

PARSE_LEVEL static void localstat(parser *ps)
{
    FuncState *fs = ps->fs;
    vardesc *var;
    int vidx, kind, nvars = 0, nexps, toclose = -1;
    expdesc e;
    do {
        vidx = scope_newlocal(ps, str_checkname(ps));
        kind = getlocalattribute(ps);
        scope_localvardesc(fs, vidx)->kind = (uint8_t)kind;
        if (kind == VD_CLOSE) {
            if (toclose != -1)
                parse_semerror(
                    ps, "multiple to-be-closed variables in local list");
            toclose = fs->nactvar + nvars;
        }
        nvars++;
    } while (testnext(ps, ','));
    if (testnext(ps, '=')) {
        nexps = explist(ps, &e);
    } else {
        e.k = EK_VOID;
        nexps = 0;
    }
    var = scope_localvardesc(fs, vidx);
    if (nvars == nexps && var->kind == VD_CONST &&
        code_exp2const(fs, &e, &var->k)) {
        var->kind = VD_CTC; /* no register, no debug entry */
        scope_activate(ps, nvars - 1);
        fs->nactvar++;
    } else {
        adjust_assign(ps, nvars, nexps, &e);
        scope_activate(ps, nvars);
    }
    checktoclose(fs, toclose);
}

static int funcname(parser *ps, expdesc *v)
{
    int ismethod = 0;
    singlevar(ps, v);
    while (tok(ps) == '.')
        fieldsel(ps, v);
    if (tok(ps) == ':') {
        ismethod = 1;
        fieldsel(ps, v);
    }
    return ismethod;
}

PARSE_LEVEL static void funcstat(parser *ps, int line)
{
    expdesc v, b;
    int ismethod;
    next(ps);
    ismethod = funcname(ps, &v);
    body(ps, &b, ismethod, line);
    scope_checkreadonly(ps, &v);
    code_storevar(ps->fs, &v, &b);
    code_fixline(ps->fs, line);
}

PARSE_LEVEL static void exprstat(parser *ps)
{
    FuncState *fs = ps->fs;
    struct lhs_assign v;
    suffixedexp(ps, &v.v);
    if (tok(ps) == '=' || tok(ps) == ',') {
        v.prev = NULL;
        restassign(ps, &v, 1);
    } else {
        check_condition(ps, v.v.k == EK_CALL, "syntax error");
        SETARG_C(code_getinstr(fs, &v.v), 1); /* no results */
    }
}

PARSE_LEVEL static void retstat(parser *ps)
{
    FuncState *fs = ps->fs;
    expdesc e;
    int nret, first = code_nvarstack(fs);
    if (block_follow(ps, 1) || tok(ps) == ';') {
        nret = 0;
    } else {
        nret = explist(ps, &e);
        if (ek_hasmultret(e.k)) {
            code_setmultret(fs, &e);
            if (e.k == EK_CALL && nret == 1 && !fs->bl->insidetbc) {
                instr *i = &code_getinstr(fs, &e);
                *i = (*i & ~(instr)0x7Fu) | (instr)OP_TAILCALL;
            }
            nret = LUA_MULTRET;
        } else if (nret == 1) {
            first = code_exp2anyreg(fs, &e);
        } else {
            code_exp2nextreg(fs, &e);
        }
    }
    code_ret(fs, first, nret);
    testnext(ps, ';');
}

static void statement(parser *ps)
{
    FuncState *fs = ps->fs;
    int line = ps->ls.line;
    enterlevel(ps);
    switch (tok(ps)) {
    case ';':
        next(ps);
        break;
    case TK_IF:
        ifstat(ps, line);
        break;
    case TK_WHILE:
        whilestat(ps, line);
        break;
    case TK_DO:
        next(ps);
        block(ps);
        check_match(ps, TK_END, TK_DO, line);
        break;
    case TK_FOR:
        forstat(ps, line);
        break;
    case TK_REPEAT:
        repeatstat(ps, line);
        break;
    case TK_FUNCTION:
        funcstat(ps, line);
        break;
    case TK_LOCAL:
        next(ps);
        if (testnext(ps, TK_FUNCTION))
            localfunc(ps);
        else
            localstat(ps);
        break;
    case TK_DBCOLON:
        next(ps);
        labelstat(ps, str_checkname(ps), line);
        break;
    case TK_RETURN:
        next(ps);
        retstat(ps);
        break;
    case TK_BREAK:
        breakstat(ps);
        break;
    case TK_GOTO:
        next(ps);
        gotostat(ps);
        break;
    default:
        exprstat(ps);
        break;
    }
    fs->freereg = (uint8_t)code_nvarstack(fs);
    leavelevel(ps);
}

void parse_chunk(parser *ps, proto *f)
{
    lua_State *L = ps->L;
    do_checkstack(L, 1);
    set_nil(L->top);
    ps->longs = do_savestack(L, L->top);
    L->top++;
    FuncState *fs = openframe(ps);
    fs->f = f;
    scope_openfunc(ps, fs, &ps->frames->bl);
    setvararg(fs, 0);
    scope_mainenv(fs);
    next(ps);
    statlist(ps);
    check(ps, TK_EOS);
    scope_closefunc(ps);
    closeframe(ps);
    L->top--; /* the long strings table */
}
