/*
 * load.c — load_chunk, the compiler's entry (see load.h); the C API's
 * lua_load and rtlua_loadbuffer call it (lang/capi.c).
 */
#include "lang/load.h"

#include "gc/gc.h"
#include "lang/dump.h"
#include "lang/parse.h"
#include "vm/do.h"
#include "vm/func.h"
#include "vm/str.h"

#include <string.h>

/* First size of the buffer gathering a binary chunk from a reader; it
 * doubles from there. */
#define LOAD_BUF_MIN 256
/* Stack slots the parser keeps above the closure: the current and the
 * lookahead token's strings, and one for strings being anchored. */
#define LOAD_ANCHOR_SLOTS 3

/* The state of one compilation.  It lives in the arena, not on the C
 * stack (the parser and lexer hold a few hundred bytes, and loading
 * happens deep in the stack: tools/cstack.lua counts it). */
typedef struct loadctx {
    parser ps;
    const char *s; /* the chunk, or the reader's first piece */
    size_t len;
    lua_Reader reader; /* NULL: s..len is the whole chunk */
    void *data;
    const char *name;
    const char *mode;
    undump_scratch scratch; /* the verifier's, for binary chunks */
} loadctx;

_Noreturn static void throwstr(lua_State *L, const char *msg)
{
    str *s = str_newz(L, msg);
    if (s == NULL)
        do_memerror(L);
    set_gc(L->top, s, s->tt);
    L->top++;
    do_throw(L, LUA_ERRSYNTAX);
}

static void checkmode(lua_State *L, const char *mode, const char *x)
{
    char msg[80];
    size_t n = 0;
    if (mode == NULL || strchr(mode, x[0]) != NULL)
        return;
    const char *parts[] = {"attempt to load a ", x, " chunk (mode is '", mode,
                           "')"};
    msg[0] = '\0';
    for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
        size_t l = strlen(parts[i]);
        if (n + l >= sizeof(msg))
            l = sizeof(msg) - 1 - n;
        memcpy(msg + n, parts[i], l);
        n += l;
    }
    msg[n] = '\0';
    throwstr(L, msg);
}

/* A binary chunk from a reader: the rest of its pieces after the first,
 * gathered into a userdata pushed at the top (collectable: an error in
 * the reader leaks nothing); c->s and c->len then describe it. */
static void gather(lua_State *L, loadctx *c)
{
    size_t cap = LOAD_BUF_MIN, len = c->len;
    while (cap < len)
        cap *= 2;
    udata *u = fn_newudata(L, cap, 0);
    if (u == NULL)
        do_memerror(L);
    memcpy(udata_mem(u), c->s, len);
    set_gc(L->top, u, V_UDATA);
    L->top++;
    for (;;) {
        size_t sz = 0;
        const char *p = c->reader(L, c->data, &sz);
        if (p == NULL || sz == 0)
            break;
        u = gco2ud(gc_of(L->top - 1));
        if (len + sz > cap) {
            size_t ncap = cap;
            while (ncap < len + sz)
                ncap *= 2;
            udata *nu = fn_newudata(L, ncap, 0);
            if (nu == NULL)
                do_memerror(L);
            memcpy(udata_mem(nu), udata_mem(u), len);
            set_gc(L->top - 1, nu, V_UDATA);
            u = nu;
            cap = ncap;
        }
        memcpy((char *)udata_mem(u) + len, p, sz);
        len += sz;
    }
    c->s = udata_mem(gco2ud(gc_of(L->top - 1)));
    c->len = len;
}

static void f_parser(lua_State *L, void *ud)
{
    loadctx *c = ud;
    lclosure *cl;
    proto *f;
    str *source;
    upval *uv;
    tvalue *base, *slots;
    do_checkstack(L, LOAD_ANCHOR_SLOTS + 2);
    if (c->reader != NULL) { /* its first piece says which kind */
        c->s = c->reader(L, c->data, &c->len);
        if (c->s == NULL)
            c->len = 0;
    }
    if (c->len > 0 && c->s[0] == DUMP_SIGNATURE[0]) {
        checkmode(L, c->mode, "binary");
        int gathered = c->reader != NULL;
        if (gathered)
            gather(L, c);
        undump_chunk(L, c->s, c->len, c->name, &c->scratch);
        cl = gco2lcl(gc_of(L->top - 1));
        if (cl->nupvalues > 0) { /* the first upvalue is _ENV, as 5.4's */
            uv = cl->upvals[0];
            set_gc(uv->v, state_globals(L), V_TABLE);
            gc_barrier(L, uv, uv->v);
        }
        if (gathered) { /* the closure replaces the buffer */
            set_obj(L->top - 2, L->top - 1);
            L->top--;
        }
        return;
    }
    checkmode(L, c->mode, "text");
    cl = fn_newlclosure(L, 1);
    if (cl == NULL)
        do_memerror(L);
    base = L->top;
    set_gc(base, cl, V_LCL);
    slots = base + 1;
    for (int i = 0; i < LOAD_ANCHOR_SLOTS; i++)
        set_nil(&slots[i]);
    L->top = slots + LOAD_ANCHOR_SLOTS;
    c->ps.tokslot = do_savestack(L, slots);
    source = str_newz(L, c->name);
    if (source == NULL)
        do_memerror(L);
    set_gc(&slots[2], source, source->tt);
    f = fn_newproto(L);
    if (f == NULL)
        do_memerror(L);
    cl->p = f;
    gc_objbarrier(L, cl, f);
    f->source = source;
    gc_objbarrier(L, f, source);
    set_nil(do_restorestack(L, c->ps.tokslot) + 2);
    /* A text chunk is compiled as the reader delivers it. */
    lex_init_reader(&c->ps.ls, L, c->len > 0 ? c->s : "", c->len, c->reader,
                    c->data, source);
    parse_chunk(&c->ps, f);
    base = do_restorestack(L, c->ps.tokslot) - 1;
    L->top = base + 1;
    /* _ENV: a closed upvalue holding the globals table */
    uv = fn_newupval(L);
    if (uv == NULL)
        do_memerror(L);
    cl = gco2lcl(gc_of(base));
    cl->upvals[0] = uv;
    gc_objbarrier(L, cl, uv);
    set_gc(uv->v, state_globals(L), V_TABLE);
    gc_barrier(L, uv, uv->v);
}

/* The compiler's entry needs more C stack than most calls (port/port.h,
 * kind load): short of it, the load fails with "C stack overflow". */
static __attribute__((noinline)) int loadshort(lua_State *L)
{
    do_checkstack(L, 1);
    set_gc(L->top, G(L)->cstackmsg, V_SHRSTR);
    L->top++;
    return LUA_ERRRUN;
}

int load_chunk(lua_State *L, const char *s, size_t len, lua_Reader reader,
               void *data, const char *chunkname, const char *mode)
{
    if (do_cstackshort(load))
        return loadshort(L);
    uint32_t ncalls = L->nCcalls;
    loadctx *c = gc_alloc(L, sizeof(loadctx));
    if (c == NULL) {
        do_checkstack(L, 1);
        set_gc(L->top, G(L)->memerrmsg, V_SHRSTR);
        L->top++;
        return LUA_ERRMEM;
    }
    memset(c, 0, sizeof(*c));
    c->ps.L = L;
    c->s = s;
    c->len = len;
    c->reader = reader;
    c->data = data;
    c->name = chunkname != NULL ? chunkname : "?";
    c->mode = mode;
    c->ps.ls.L = L;
    G(L)->nloading++;
    int status = do_pcall(L, f_parser, c, do_savestack(L, L->top), L->errfunc);
    G(L)->nloading--;
    L->nCcalls = ncalls;
    parse_freeframes(&c->ps);
    lex_free(&c->ps.ls);
    undump_freescratch(L, &c->scratch);
    gc_free(G(L), c->ps.dyd.actvar,
            sizeof(vardesc) * (size_t)c->ps.dyd.actcap);
    gc_free(G(L), c->ps.dyd.gt, sizeof(labeldesc) * (size_t)c->ps.dyd.gtcap);
    gc_free(G(L), c->ps.dyd.label,
            sizeof(labeldesc) * (size_t)c->ps.dyd.labelcap);
    gc_free(G(L), c, sizeof(loadctx));
    return status;
}
