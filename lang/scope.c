/*
 * scope.c — locals, upvalues, blocks, labels, gotos and function scopes
 * for the parser (see scope.h).  Written from the Lua 5.4 reference
 * manual (§3.3.4 goto, §3.3.7 local attributes, §3.5 visibility).
 */
#include "lang/scope.h"

#include "gc/gc.h"
#include "lang/code.h"
#include "vm/do.h"
#include "vm/func.h"
#include "vm/str.h"
#include "vm/tab.h"

#include <string.h>

static void checklimit(FuncState *fs, int v, int l, const char *what)
{
    if (v > l)
        parse_errorlimit(fs, l, what);
}

static void init_exp(expdesc *e, expkind k, int i)
{
    e->f = e->t = NO_JUMP;
    e->k = k;
    e->u.info = i;
}

/* ---- Growing arrays ----------------------------------------------------- */
static void *growvec(parser *ps, void *block, int *cap, int n, size_t esize)
{
    size_t oldn = (size_t)*cap, newn;
    void *nb;
    if (n < *cap)
        return block;
    newn = oldn < 4 ? 8 : oldn * 2;
    nb = gc_realloc(ps->L, block, oldn * esize, newn * esize);
    if (nb == NULL)
        do_memerror(ps->L);
    memset((char *)nb + oldn * esize, 0, (newn - oldn) * esize);
    *cap = (int)newn;
    return nb;
}

/* The same for a prototype's arrays (int32_t sizes, traversal restart). */
static void *growproto(FuncState *fs, void *block, int32_t *size, int n,
                       size_t esize, int limit, const char *what)
{
    int cap = (int)*size;
    if (n < cap)
        return block;
    if (n >= limit)
        parse_errorlimit(fs, limit, what);
    block = growvec(fs->ps, block, &cap, n, esize);
    *size = cap;
    gc_resized(G(fs->ps->L), obj2gc(fs->f));
    return block;
}

static void *shrinkproto(FuncState *fs, void *block, int32_t *size, int n,
                         size_t esize)
{
    void *nb;
    if (n == *size)
        return block;
    nb =
        gc_realloc(fs->ps->L, block, (size_t)*size * esize, (size_t)n * esize);
    if (nb == NULL && n != 0)
        return block; /* keep the bigger block: still consistent */
    *size = n;
    return nb;
}

/* ---- Variables ---------------------------------------------------------- */
vardesc *scope_localvardesc(FuncState *fs, int vidx)
{
    return &fs->ps->dyd.actvar[fs->firstlocal + vidx];
}

int scope_newlocal(parser *ps, str *name)
{
    FuncState *fs = ps->fs;
    parse_dyndata *dyd = &ps->dyd;
    vardesc *vd;
    checklimit(fs, dyd->nactvar + 1 - fs->firstlocal, PARSE_MAXVARS,
               "local variables");
    dyd->actvar =
        growvec(ps, dyd->actvar, &dyd->actcap, dyd->nactvar, sizeof(vardesc));
    vd = &dyd->actvar[dyd->nactvar++];
    vd->kind = VD_REG;
    vd->name = name;
    vd->ridx = 0;
    vd->pidx = -1;
    set_nil(&vd->k);
    return dyd->nactvar - 1 - fs->firstlocal;
}

static int registerlocalvar(FuncState *fs, str *name)
{
    proto *f = fs->f;
    f->locvars = growproto(fs, f->locvars, &f->sizelocvars, fs->ndebugvars,
                           sizeof(locvar), 32767, "local variables");
    f->locvars[fs->ndebugvars].name = name;
    f->locvars[fs->ndebugvars].startpc = fs->pc;
    f->locvars[fs->ndebugvars].endpc = fs->pc;
    gc_objbarrier(fs->ps->L, f, name);
    return fs->ndebugvars++;
}

void scope_activate(parser *ps, int nvars)
{
    FuncState *fs = ps->fs;
    int reglevel = code_nvarstack(fs);
    for (int i = 0; i < nvars; i++) {
        int vidx = fs->nactvar++;
        vardesc *var = scope_localvardesc(fs, vidx);
        var->ridx = (uint8_t)reglevel++;
        var->pidx = (short)registerlocalvar(fs, var->name);
    }
}

static void removevars(FuncState *fs, int tolevel)
{
    fs->ps->dyd.nactvar -= fs->nactvar - tolevel;
    while (fs->nactvar > tolevel) {
        vardesc *var = scope_localvardesc(fs, --fs->nactvar);
        if (var->kind != VD_CTC)
            fs->f->locvars[var->pidx].endpc = fs->pc;
    }
}

static int searchupvalue(FuncState *fs, str *name)
{
    upvaldesc *up = fs->f->upvalues;
    for (int i = 0; i < fs->nups; i++)
        if (str_eq(up[i].name, name))
            return i;
    return -1;
}

static int newupvalue(FuncState *fs, str *name, expdesc *v)
{
    proto *f = fs->f;
    upvaldesc *up;
    checklimit(fs, fs->nups + 1, PARSE_MAXUPVAL, "upvalues");
    f->upvalues = growproto(fs, f->upvalues, &f->sizeupvalues, fs->nups,
                            sizeof(upvaldesc), PARSE_MAXUPVAL + 1, "upvalues");
    up = &f->upvalues[fs->nups];
    if (v->k == EK_LOCAL) {
        up->instack = 1;
        up->idx = v->u.var.ridx;
        up->kind = scope_localvardesc(fs->prev, v->u.var.vidx)->kind;
    } else {
        up->instack = 0;
        up->idx = (uint8_t)v->u.info;
        up->kind = fs->prev->f->upvalues[v->u.info].kind;
    }
    up->name = name;
    gc_objbarrier(fs->ps->L, f, name);
    return fs->nups++;
}

/* Find a local of fs named n; its kind (EK_LOCAL/EK_CONST) or -1. */
static int searchvar(FuncState *fs, str *n, expdesc *var)
{
    for (int i = fs->nactvar - 1; i >= 0; i--) {
        vardesc *vd = scope_localvardesc(fs, i);
        if (str_eq(n, vd->name)) {
            if (vd->kind == VD_CTC) {
                init_exp(var, EK_CONST, fs->firstlocal + i);
            } else {
                init_exp(var, EK_LOCAL, 0);
                var->u.var.ridx = vd->ridx;
                var->u.var.vidx = (unsigned short)i;
            }
            return var->k;
        }
    }
    return -1;
}

/* The block declaring variable `level` has a captured variable. */
static void markupval(FuncState *fs, int level)
{
    blockcnt *bl = fs->bl;
    while (bl->nactvar > level)
        bl = bl->previous;
    bl->upval = 1;
    fs->needclose = 1;
}

void scope_marktbc(FuncState *fs)
{
    blockcnt *bl = fs->bl;
    bl->upval = 1;
    bl->insidetbc = 1;
    fs->needclose = 1;
}

void scope_singlevaraux(FuncState *fs, str *n, expdesc *var, int base)
{
    /* Outwards to the function that has n as a local or an upvalue, then
     * back inwards making it an upvalue of each function between.  Two
     * loops, not a recursion as deep as the nesting: tools/cstack.lua
     * bounds the C stack. */
    FuncState *found = fs;
    for (;; found = found->prev, base = 0) {
        if (found == NULL) {
            init_exp(var, EK_VOID, 0); /* a global */
            return;
        }
        int v = searchvar(found, n, var);
        if (v >= 0) {
            if (v == EK_LOCAL && !base)
                markupval(found, var->u.var.vidx);
            break;
        }
        int idx = searchupvalue(found, n);
        if (idx >= 0) {
            init_exp(var, EK_UPVAL, idx);
            break;
        }
    }
    if (var->k != EK_LOCAL && var->k != EK_UPVAL)
        return; /* a global or a compile-time constant */
    while (found != fs) {
        FuncState *inner = fs;
        while (inner->prev != found)
            inner = inner->prev;
        init_exp(var, EK_UPVAL, newupvalue(inner, n, var));
        found = inner;
    }
}

/* ---- Blocks, labels and gotos ------------------------------------------- */
static int newlabelentry(parser *ps, labeldesc **arr, int *n, int *cap,
                         str *name, int line, int pc)
{
    labeldesc *l;
    *arr = growvec(ps, *arr, cap, *n, sizeof(labeldesc));
    l = &(*arr)[*n];
    l->name = name;
    l->line = line;
    l->nactvar = ps->fs->nactvar;
    l->close = 0;
    l->pc = pc;
    return (*n)++;
}

int scope_newgoto(parser *ps, str *name, int line, int pc)
{
    parse_dyndata *d = &ps->dyd;
    return newlabelentry(ps, &d->gt, &d->ngt, &d->gtcap, name, line, pc);
}

labeldesc *scope_findlabel(parser *ps, str *name)
{
    parse_dyndata *d = &ps->dyd;
    for (int i = ps->fs->firstlabel; i < d->nlabel; i++)
        if (str_eq(d->label[i].name, name))
            return &d->label[i];
    return NULL;
}

_Noreturn static void jumpscopeerror(parser *ps, labeldesc *gt)
{
    parse_semerrorf(ps,
                    "<goto %s> at line %d jumps into the scope of local '%s'",
                    str_data(gt->name), gt->line,
                    str_data(scope_localvardesc(ps->fs, gt->nactvar)->name));
}

/* Resolve pending goto g to label lb and drop it from the list. */
static void solvegoto(parser *ps, int g, labeldesc *lb)
{
    parse_dyndata *d = &ps->dyd;
    labeldesc *gt = &d->gt[g];
    if (gt->nactvar < lb->nactvar)
        jumpscopeerror(ps, gt);
    code_patchlist(ps->fs, gt->pc, lb->pc);
    memmove(&d->gt[g], &d->gt[g + 1],
            sizeof(labeldesc) * (size_t)(d->ngt - g - 1));
    d->ngt--;
}

static int solvegotos(parser *ps, labeldesc *lb)
{
    parse_dyndata *d = &ps->dyd;
    int i = ps->fs->bl->firstgoto, needsclose = 0;
    while (i < d->ngt) {
        if (str_eq(d->gt[i].name, lb->name)) {
            needsclose |= d->gt[i].close;
            solvegoto(ps, i, lb);
        } else {
            i++;
        }
    }
    return needsclose;
}

/* A label here; `last`: at the end of its block, where the block's
 * locals are already out of scope.  Returns 1 when a CLOSE was needed. */
int scope_createlabel(parser *ps, str *name, int line, int last)
{
    FuncState *fs = ps->fs;
    parse_dyndata *d = &ps->dyd;
    int l = newlabelentry(ps, &d->label, &d->nlabel, &d->labelcap, name, line,
                          code_getlabel(fs));
    if (last)
        d->label[l].nactvar = fs->bl->nactvar;
    if (solvegotos(ps, &d->label[l])) {
        code_ABC(fs, OP_CLOSE, code_nvarstack(fs), 0, 0);
        return 1;
    }
    return 0;
}

/* Pending gotos of a closing block now belong to the enclosing one. */
static void movegotosout(FuncState *fs, blockcnt *bl)
{
    parse_dyndata *d = &fs->ps->dyd;
    for (int i = bl->firstgoto; i < d->ngt; i++) {
        labeldesc *gt = &d->gt[i];
        if (code_reglevel(fs, gt->nactvar) > code_reglevel(fs, bl->nactvar))
            gt->close |= bl->upval;
        gt->nactvar = bl->nactvar;
    }
}

void scope_enterblock(FuncState *fs, blockcnt *bl, int isloop)
{
    bl->isloop = (uint8_t)isloop;
    bl->nactvar = fs->nactvar;
    bl->firstlabel = fs->ps->dyd.nlabel;
    bl->firstgoto = fs->ps->dyd.ngt;
    bl->upval = 0;
    bl->insidetbc = (uint8_t)(fs->bl != NULL && fs->bl->insidetbc);
    bl->previous = fs->bl;
    fs->bl = bl;
}

_Noreturn static void undefgoto(parser *ps, labeldesc *gt)
{
    if (strcmp(str_data(gt->name), "break") == 0)
        parse_semerrorf(ps, "break outside loop at line %d", gt->line);
    parse_semerrorf(ps, "no visible label '%s' for <goto> at line %d",
                    str_data(gt->name), gt->line);
}

void scope_leaveblock(FuncState *fs)
{
    blockcnt *bl = fs->bl;
    parser *ps = fs->ps;
    int hasclose = 0;
    int stklevel = code_reglevel(fs, bl->nactvar);
    removevars(fs, bl->nactvar);
    if (bl->isloop)
        hasclose = scope_createlabel(ps, parse_newliteral(ps, "break"), 0, 0);
    if (!hasclose && bl->previous != NULL && bl->upval)
        code_ABC(fs, OP_CLOSE, stklevel, 0, 0);
    fs->freereg = (uint8_t)stklevel;
    ps->dyd.nlabel = bl->firstlabel;
    fs->bl = bl->previous;
    if (bl->previous != NULL)
        movegotosout(fs, bl);
    else if (bl->firstgoto < ps->dyd.ngt)
        undefgoto(ps, &ps->dyd.gt[bl->firstgoto]);
}

/* ---- Function scopes ---------------------------------------------------- */
static void pushtable(parser *ps, ptrdiff_t *where)
{
    lua_State *L = ps->L;
    table *t;
    do_checkstack(L, 1);
    t = tab_new(L);
    if (t == NULL)
        do_memerror(L);
    set_gc(L->top, t, V_TABLE);
    *where = do_savestack(L, L->top);
    L->top++;
}

void scope_openfunc(parser *ps, FuncState *fs, blockcnt *bl)
{
    proto *f = fs->f;
    fs->prev = ps->fs;
    fs->ps = ps;
    fs->pc = 0;
    fs->previousline = f->linedefined;
    fs->iwthabs = 0;
    fs->lasttarget = 0;
    fs->freereg = 0;
    fs->nk = 0;
    fs->nabslineinfo = 0;
    fs->np = 0;
    fs->nups = 0;
    fs->ndebugvars = 0;
    fs->nactvar = 0;
    fs->needclose = 0;
    fs->firstlocal = ps->dyd.nactvar;
    fs->firstlabel = ps->dyd.nlabel;
    fs->bl = NULL;
    f->source = ps->ls.source;
    gc_objbarrier(ps->L, f, f->source);
    f->maxstacksize = 2;
    pushtable(ps, &fs->h);
    ps->fs = fs;
    scope_enterblock(fs, bl, 0);
}

void scope_closefunc(parser *ps)
{
    lua_State *L = ps->L;
    FuncState *fs = ps->fs;
    proto *f = fs->f;
    code_ret(fs, code_nvarstack(fs), 0);
    scope_leaveblock(fs);
    code_finish(fs);
    f->code = shrinkproto(fs, f->code, &f->sizecode, fs->pc, sizeof(instr));
    f->lineinfo =
        shrinkproto(fs, f->lineinfo, &f->sizelineinfo, fs->pc, sizeof(int8_t));
    f->abslineinfo = shrinkproto(fs, f->abslineinfo, &f->sizeabslineinfo,
                                 fs->nabslineinfo, sizeof(absline));
    f->k = shrinkproto(fs, f->k, &f->sizek, fs->nk, sizeof(tvalue));
    f->p = shrinkproto(fs, f->p, &f->sizep, fs->np, sizeof(proto *));
    f->locvars = shrinkproto(fs, f->locvars, &f->sizelocvars, fs->ndebugvars,
                             sizeof(locvar));
    f->upvalues = shrinkproto(fs, f->upvalues, &f->sizeupvalues, fs->nups,
                              sizeof(upvaldesc));
    gc_resized(G(L), obj2gc(f));
    ps->fs = fs->prev;
    L->top--; /* the h table */
}

proto *scope_addproto(parser *ps)
{
    FuncState *fs = ps->fs;
    proto *f = fs->f, *clp;
    f->p = growproto(fs, f->p, &f->sizep, fs->np, sizeof(proto *),
                     OP_MAXARG_BX + 1, "functions");
    clp = fn_newproto(ps->L);
    if (clp == NULL)
        do_memerror(ps->L);
    f->p[fs->np++] = clp;
    gc_objbarrier(ps->L, f, clp);
    return clp;
}

void scope_checkreadonly(parser *ps, expdesc *e)
{
    FuncState *fs = ps->fs;
    str *varname = NULL;
    switch (e->k) {
    case EK_CONST:
        varname = ps->dyd.actvar[e->u.info].name;
        break;
    case EK_LOCAL: {
        vardesc *vd = scope_localvardesc(fs, e->u.var.vidx);
        if (vd->kind != VD_REG)
            varname = vd->name;
        break;
    }
    case EK_UPVAL: {
        upvaldesc *up = &fs->f->upvalues[e->u.info];
        if (up->kind != VD_REG)
            varname = up->name;
        break;
    }
    default:
        return;
    }
    if (varname != NULL)
        parse_semerrorf(ps, "attempt to assign to const variable '%s'",
                        str_data(varname));
}

void scope_checkrepeated(parser *ps, str *name)
{
    labeldesc *lb = scope_findlabel(ps, name);
    if (lb != NULL)
        parse_semerrorf(ps, "label '%s' already defined on line %d",
                        str_data(name), lb->line);
}

void scope_mainenv(FuncState *fs)
{
    parser *ps = fs->ps;
    proto *f = fs->f;
    /* upvalue 0 of the main function is _ENV */
    ps->envn = parse_newliteral(ps, "_ENV");
    f->upvalues = growproto(fs, f->upvalues, &f->sizeupvalues, 0,
                            sizeof(upvaldesc), PARSE_MAXUPVAL + 1, "upvalues");
    f->upvalues[0].instack = 1;
    f->upvalues[0].idx = 0;
    f->upvalues[0].kind = VD_REG;
    f->upvalues[0].name = ps->envn;
    gc_objbarrier(ps->L, f, ps->envn);
    fs->nups = 1;
}
