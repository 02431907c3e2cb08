/*
 * undump.c — the binary-chunk loader (the format and its rules are in
 * lang/dump.h; the checks of the code in lang/verify.h).
 *
 * Reading is bounds-checked at every step (take/getbyte/getvarint): no
 * size read from the chunk is used before it has been compared with the
 * bytes left, so a small input cannot ask for a large allocation.  Errors
 * are raised (LUA_ERRSYNTAX, or LUA_ERRMEM from an allocation) inside the
 * caller's protected call; what was built is garbage for the collector.
 */
#include "lang/dump.h"

#include "gc/gc.h"
#include "lang/parse.h"
#include "lang/verify.h"
#include "vm/do.h"
#include "vm/func.h"
#include "vm/str.h"

#include <string.h>

/* Most instructions and constants of one function (the compiler's
 * limits, lang/code.c: jumps reach every instruction, LOADKX's Ax). */
#define UNDUMP_MAXCODE (OP_MAXARG_AX / 2)
#define UNDUMP_MAXK (OP_MAXARG_AX + 1)
/* Most nested functions of one function (CLOSURE's Bx). */
#define UNDUMP_MAXP (OP_MAXARG_BX + 1)
/* Most local-variable records of one function (the parser's 16-bit
 * index into them). */
#define UNDUMP_MAXLOCVARS 32767
/* Largest line number or other 31-bit count. */
#define UNDUMP_MAXINT 0x7FFFFFFFu
/* Bytes of the header after the signature, before the check number. */
#define UNDUMP_HEADER_BYTES 6
/* Room for a message and its parts on the Lua stack. */
#define UNDUMP_STACK 4

typedef struct loadstate {
    lua_State *L;
    const uint8_t *start; /* the chunk */
    const uint8_t *p;     /* next byte to read */
    const uint8_t *end;
    const char *name; /* for messages */
    undump_scratch *scratch;
} loadstate;

_Noreturn static void bad(loadstate *S, const char *why)
{
    do_checkstack(S->L, UNDUMP_STACK);
    do_pushfstring(S->L, "%s: bad binary format (%s)", S->name, why);
    do_throw(S->L, LUA_ERRSYNTAX);
}

_Noreturn static __attribute__((noinline)) void corrupted(loadstate *S,
                                                          const char *why)
{
    do_checkstack(S->L, UNDUMP_STACK);
    do_pushfstring(S->L, "corrupted chunk: %s", why);
    bad(S, str_data(gco2str(gc_of(S->L->top - 1))));
}

static size_t left(const loadstate *S)
{
    return (size_t)(S->end - S->p);
}

/* The next n bytes. */
static const uint8_t *take(loadstate *S, size_t n)
{
    const uint8_t *b = S->p;
    if (left(S) < n)
        bad(S, "truncated chunk");
    S->p += n;
    return b;
}

static unsigned getbyte(loadstate *S)
{
    return *take(S, 1);
}

/* A minimal unsigned LEB128 of at most 32 bits, at most `limit`. */
static uint32_t getvarint(loadstate *S, uint32_t limit, const char *what)
{
    uint32_t v = 0;
    for (int shift = 0;; shift += 7) {
        unsigned b = getbyte(S);
        if (shift == 28 && (b & 0xF0u) != 0)
            corrupted(S, "number too large");
        v |= (uint32_t)(b & 0x7Fu) << shift;
        if ((b & 0x80u) == 0) {
            if (b == 0 && shift > 0)
                corrupted(S, "number not in its shortest form");
            break;
        }
    }
    if (v > limit)
        corrupted(S, what);
    return v;
}

/* A count of items of at least `least` bytes each: it cannot exceed
 * what is left, so it is checked before anything is allocated. */
static int getcount(loadstate *S, uint32_t limit, size_t least,
                    const char *what)
{
    uint32_t n = getvarint(S, limit, what);
    if (n > left(S) / least)
        bad(S, "truncated chunk");
    return (int)n;
}

/* An array of n elements, or NULL for none; raises on memory failure. */
static void *newarray(loadstate *S, int n, size_t esize)
{
    if (n == 0)
        return NULL;
    void *b = gc_alloc(S->L, (size_t)n * esize);
    if (b == NULL)
        do_memerror(S->L);
    return b;
}

/* A string or NULL; the caller stores it before the next allocation. */
static str *getstring(loadstate *S)
{
    uint32_t n = getvarint(S, UNDUMP_MAXINT, "string too long");
    if (n == 0)
        return NULL;
    size_t len = (size_t)n - 1;
    const uint8_t *b = take(S, len);
    str *s = str_new(S->L, (const char *)b, len);
    if (s == NULL)
        do_memerror(S->L);
    return s;
}

static void loadcode(loadstate *S, proto *f)
{
    int n = (int)getvarint(S, UNDUMP_MAXCODE, "too many instructions");
    while ((size_t)(S->p - S->start) % DUMP_CODE_ALIGN != 0)
        if (getbyte(S) != 0)
            corrupted(S, "padding is not zero");
    if (left(S) / sizeof(instr) < (size_t)n)
        bad(S, "truncated chunk");
    /* Reading in place would keep S->p here instead (lang/dump.h). */
    f->code = newarray(S, n, sizeof(instr));
    f->sizecode = n;
    if (n > 0)
        memcpy(f->code, take(S, sizeof(instr) * (size_t)n),
               sizeof(instr) * (size_t)n);
}

static void loadconstants(loadstate *S, proto *f)
{
    lua_State *L = S->L;
    int n = getcount(S, UNDUMP_MAXK, 1, "too many constants");
    tvalue *k = newarray(S, n, sizeof(tvalue));
    for (int i = 0; i < n; i++)
        set_nil(&k[i]);
    f->k = k;
    f->sizek = n;
    gc_resized(G(L), obj2gc(f));
    for (int i = 0; i < n; i++) {
        tvalue *o = &f->k[i];
        switch (getbyte(S)) {
        case DUMP_K_NIL:
            break;
        case DUMP_K_FALSE:
            set_bool(o, 0);
            break;
        case DUMP_K_TRUE:
            set_bool(o, 1);
            break;
        case DUMP_K_INT: {
            rt_int x;
            memcpy(&x, take(S, sizeof(x)), sizeof(x));
            set_int(o, x);
            break;
        }
        case DUMP_K_FLT: {
            rt_num x;
            memcpy(&x, take(S, sizeof(x)), sizeof(x));
            set_flt(o, x);
            break;
        }
        case DUMP_K_STR: {
            str *s = getstring(S);
            if (s == NULL)
                corrupted(S, "missing string constant");
            set_gc(o, s, s->tt);
            gc_objbarrier(L, f, s);
            break;
        }
        default:
            corrupted(S, "unknown constant type");
        }
    }
}

static void loadupvalues(loadstate *S, proto *f)
{
    int n = getcount(S, PARSE_MAXUPVAL, 3, "too many upvalues");
    upvaldesc *u = newarray(S, n, sizeof(upvaldesc));
    for (int i = 0; i < n; i++) {
        const uint8_t *b = S->p + 3 * i; /* getcount saw them */
        u[i].name = NULL;
        u[i].instack = b[0];
        u[i].idx = b[1];
        u[i].kind = b[2];
    }
    f->upvalues = u;
    f->sizeupvalues = n;
    gc_resized(G(S->L), obj2gc(f));
    take(S, 3 * (size_t)n);
}

static void loadfunction(loadstate *S, proto *f, str *psource,
                         const proto *parent);

static void loadprotos(loadstate *S, proto *f)
{
    lua_State *L = S->L;
    int n = getcount(S, UNDUMP_MAXP, 1, "too many functions");
    proto **p = newarray(S, n, sizeof(proto *));
    for (int i = 0; i < n; i++)
        p[i] = NULL;
    f->p = p;
    f->sizep = n;
    gc_resized(G(L), obj2gc(f));
    for (int i = 0; i < n; i++) {
        proto *c = fn_newproto(L);
        if (c == NULL)
            do_memerror(L);
        f->p[i] = c;
        gc_objbarrier(L, f, c);
        loadfunction(S, c, f->source, f);
    }
}

static void loaddebug(loadstate *S, proto *f)
{
    lua_State *L = S->L;
    int n = getcount(S, (uint32_t)f->sizecode, 1, "bad line information");
    if (n != 0 && n != f->sizecode)
        corrupted(S, "bad line information");
    f->lineinfo = newarray(S, n, sizeof(int8_t));
    f->sizelineinfo = n;
    if (n > 0)
        memcpy(f->lineinfo, take(S, (size_t)n), (size_t)n);
    /* Each array is installed before it is filled: a truncated chunk
     * leaves it to fn_freeproto. */
    n = getcount(S, (uint32_t)f->sizecode, 2, "bad line information");
    f->abslineinfo = newarray(S, n, sizeof(absline));
    f->sizeabslineinfo = n;
    for (int i = 0; i < n; i++)
        f->abslineinfo[i].pc = f->abslineinfo[i].line = 0;
    for (int i = 0; i < n; i++) {
        f->abslineinfo[i].pc = (int32_t)getvarint(S, UNDUMP_MAXINT, "bad pc");
        f->abslineinfo[i].line =
            (int32_t)getvarint(S, UNDUMP_MAXINT, "bad line");
    }
    n = getcount(S, UNDUMP_MAXLOCVARS, 3, "too many locals");
    locvar *lv = newarray(S, n, sizeof(locvar));
    for (int i = 0; i < n; i++) {
        lv[i].name = NULL;
        lv[i].startpc = lv[i].endpc = 0;
    }
    f->locvars = lv;
    f->sizelocvars = n;
    gc_resized(G(L), obj2gc(f));
    for (int i = 0; i < n; i++) {
        str *s = getstring(S);
        f->locvars[i].name = s;
        if (s != NULL)
            gc_objbarrier(L, f, s);
        f->locvars[i].startpc = (int32_t)getvarint(S, UNDUMP_MAXINT, "bad pc");
        f->locvars[i].endpc = (int32_t)getvarint(S, UNDUMP_MAXINT, "bad pc");
    }
    n = getcount(S, (uint32_t)f->sizeupvalues, 1, "bad upvalue names");
    if (n != 0 && n != f->sizeupvalues)
        corrupted(S, "bad upvalue names");
    for (int i = 0; i < n; i++) {
        str *s = getstring(S);
        f->upvalues[i].name = s;
        if (s != NULL)
            gc_objbarrier(L, f, s);
    }
}

/* The verifier's scratch, grown to what f needs. */
static void growscratch(loadstate *S, const proto *f)
{
    lua_State *L = S->L;
    undump_scratch *sc = S->scratch;
    size_t need = verify_scratchsize(f);
    if (sc->n < need) {
        /* The old block holds nothing to keep: free it first, so that
         * the new one may take its place. */
        undump_freescratch(L, sc);
        sc->p = gc_alloc(L, need);
        if (sc->p == NULL)
            do_memerror(L);
        sc->n = need;
    }
}

void undump_freescratch(lua_State *L, undump_scratch *scratch)
{
    gc_free(G(L), scratch->p, scratch->n);
    scratch->p = NULL;
    scratch->n = 0;
}

static void loadfunction(loadstate *S, proto *f, str *psource,
                         const proto *parent)
{
    lua_State *L = S->L;
    L->nCcalls++; /* nesting is bounded as the parser bounds it */
    if (do_getCcalls(L) >= do_maxccalls(L) || do_cstackshort(undump))
        corrupted(S, "functions nested too deeply");
    unsigned flags = getbyte(S);
    if (flags & ~DUMP_F_ALL)
        corrupted(S, "unknown function flags");
    f->is_vararg = (flags & DUMP_F_VARARG) != 0;
    f->numparams = (uint8_t)getbyte(S);
    f->maxstacksize = (uint8_t)getbyte(S);
    f->linedefined = (int32_t)getvarint(S, UNDUMP_MAXINT, "bad line");
    f->lastlinedefined = (int32_t)getvarint(S, UNDUMP_MAXINT, "bad line");
    f->source = psource;
    if (flags & DUMP_F_SOURCE) {
        str *s = getstring(S);
        if (s == NULL)
            corrupted(S, "missing source");
        f->source = s;
    }
    if (f->source != NULL)
        gc_objbarrier(L, f, f->source);
    loadcode(S, f);
    loadconstants(S, f);
    loadupvalues(S, f);
    loadprotos(S, f);
    if (flags & DUMP_F_DEBUG)
        loaddebug(S, f);
    growscratch(S, f);
    int pc = -1;
    const char *why =
        verify_proto(f, parent, S->scratch->p, S->scratch->n, &pc);
    if (why != NULL) {
        do_checkstack(L, UNDUMP_STACK);
        if (pc >= 0)
            do_pushfstring(L,
                           "%s at instruction %d of the function at line %d",
                           why, pc + 1, (int)f->linedefined);
        else
            do_pushfstring(L, "%s in the function at line %d", why,
                           (int)f->linedefined);
        corrupted(S, str_data(gco2str(gc_of(L->top - 1))));
    }
    L->nCcalls--;
}

/* The header; returns the main function's number of upvalues. */
static int checkheader(loadstate *S)
{
    /* What there is of the signature first: a foreign chunk is named
     * as such even when it is short. */
    size_t n = left(S) < DUMP_SIGNATURE_LEN ? left(S) : DUMP_SIGNATURE_LEN;
    if (memcmp(S->p, DUMP_SIGNATURE, n) != 0) {
        if (n >= 4 && memcmp(S->p + 1, "Lua", 3) == 0)
            bad(S, "a PUC-Rio Lua chunk, not an rtlua one");
        bad(S, "not a binary chunk");
    }
    take(S, DUMP_SIGNATURE_LEN);
    const uint8_t *h = take(S, UNDUMP_HEADER_BYTES);
    if (h[0] != DUMP_VERSION) {
        do_checkstack(S->L, UNDUMP_STACK);
        do_pushfstring(S->L,
                       "version mismatch: the chunk has format %d, this "
                       "rtlua reads %d",
                       (int)h[0], DUMP_VERSION);
        bad(S, str_data(gco2str(gc_of(S->L->top - 1))));
    }
    if (h[1] != sizeof(rt_int) || h[2] != sizeof(rt_num)) {
        do_checkstack(S->L, UNDUMP_STACK);
        do_pushfstring(S->L,
                       "number model mismatch: the chunk has %d-bit integers "
                       "and %d-bit floats, this rtlua %d-bit ones",
                       (int)h[1] * 8, (int)h[2] * 8, (int)sizeof(rt_int) * 8);
        bad(S, str_data(gco2str(gc_of(S->L->top - 1))));
    }
    if (h[3] != sizeof(instr))
        bad(S, "instruction size mismatch");
    if (h[4] != 0)
        bad(S, "unknown header flags");
    uint32_t check;
    memcpy(&check, take(S, sizeof(check)), sizeof(check));
    if (check != DUMP_CHECKWORD)
        bad(S, "byte order mismatch");
    rt_num checknum;
    memcpy(&checknum, take(S, sizeof(checknum)), sizeof(checknum));
    if (checknum != (rt_num)DUMP_CHECKNUM)
        bad(S, "float format mismatch");
    return h[5];
}

void undump_chunk(lua_State *L, const char *s, size_t len,
                  const char *chunkname, undump_scratch *scratch)
{
    loadstate S;
    S.L = L;
    S.start = S.p = (const uint8_t *)s;
    S.end = S.start + len;
    S.scratch = scratch;
    if (*chunkname == '@' || *chunkname == '=')
        S.name = chunkname + 1;
    else if (*chunkname == DUMP_SIGNATURE[0])
        S.name = "binary string";
    else
        S.name = chunkname;
    do_checkstack(L, UNDUMP_STACK);
    int nup = checkheader(&S);
    lclosure *cl = fn_newlclosure(L, nup);
    if (cl == NULL)
        do_memerror(L);
    set_gc(L->top, cl, V_LCL);
    L->top++;
    proto *f = fn_newproto(L);
    if (f == NULL)
        do_memerror(L);
    cl->p = f;
    gc_objbarrier(L, cl, f);
    loadfunction(&S, f, NULL, NULL);
    if (f->sizeupvalues != nup)
        corrupted(&S, "wrong number of upvalues");
    if (S.p != S.end)
        corrupted(&S, "bytes after the end");
    for (int i = 0; i < nup; i++) {
        upval *uv = fn_newupval(L);
        if (uv == NULL)
            do_memerror(L);
        cl = gco2lcl(gc_of(L->top - 1));
        cl->upvals[i] = uv;
        gc_objbarrier(L, cl, uv);
    }
}
