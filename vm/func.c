/*
 * func.c — constructors and destructors of prototypes, closures, upvalues
 * and userdata.  Sizes passed to gc_free are exactly those allocated, so
 * the collector's accounting stays exact.
 */
#include "vm/func.h"
#include "gc/gc.h"

#include <string.h>

proto *fn_newproto(lua_State *L)
{
    proto *p = (proto *)gc_newobj(L, V_PROTO, sizeof(proto));
    if (p == NULL)
        return NULL;
    memset((char *)p + offsetof(proto, numparams), 0,
           sizeof(proto) - offsetof(proto, numparams));
    return p;
}

void fn_freeproto(global_State *g, proto *p)
{
    gc_free(g, p->k, sizeof(tvalue) * (size_t)p->sizek);
    gc_free(g, p->code, sizeof(instr) * (size_t)p->sizecode);
    gc_free(g, p->p, sizeof(proto *) * (size_t)p->sizep);
    gc_free(g, p->upvalues, sizeof(upvaldesc) * (size_t)p->sizeupvalues);
    gc_free(g, p->lineinfo, sizeof(int8_t) * (size_t)p->sizelineinfo);
    gc_free(g, p->locvars, sizeof(locvar) * (size_t)p->sizelocvars);
    gc_free(g, p->abslineinfo, sizeof(absline) * (size_t)p->sizeabslineinfo);
    gc_free(g, p, sizeof(proto));
}

lclosure *fn_newlclosure(lua_State *L, int nupvals)
{
    lclosure *cl = (lclosure *)gc_newobj(L, V_LCL, fn_lclsize(nupvals));
    if (cl == NULL)
        return NULL;
    cl->nupvalues = (uint8_t)nupvals;
    cl->gclist = NULL;
    cl->p = NULL;
    for (int i = 0; i < nupvals; i++)
        cl->upvals[i] = NULL;
    return cl;
}

cclosure *fn_newcclosure(lua_State *L, rt_cfunction f, int nupvals)
{
    cclosure *cl = (cclosure *)gc_newobj(L, V_CCL, fn_cclsize(nupvals));
    if (cl == NULL)
        return NULL;
    cl->nupvalues = (uint8_t)nupvals;
    cl->gclist = NULL;
    cl->f = f;
    for (int i = 0; i < nupvals; i++)
        set_nil(&cl->upvalue[i]);
    return cl;
}

upval *fn_newupval(lua_State *L)
{
    upval *uv = (upval *)gc_newobj(L, V_UPVAL, sizeof(upval));
    if (uv == NULL)
        return NULL;
    uv->v = &uv->u.value;
    set_nil(uv->v);
    return uv;
}

upval *fn_findupval(lua_State *L, tvalue *level)
{
    upval **pp = &L->openupval;
    upval *p;
    while ((p = *pp) != NULL && p->v >= level) {
        if (p->v == level)
            return p;
        pp = &p->u.open.next;
    }
    upval *uv = (upval *)gc_newobj(L, V_UPVAL, sizeof(upval));
    if (uv == NULL)
        return NULL;
    uv->v = level;
    uv->u.open.next = p;
    uv->u.open.prev = pp;
    if (p)
        p->u.open.prev = &uv->u.open.next;
    *pp = uv;
    return uv;
}

static void unlink_open(global_State *g, upval *uv)
{
    gc_upval_unlinked(g, uv);
    *uv->u.open.prev = uv->u.open.next;
    if (uv->u.open.next)
        uv->u.open.next->u.open.prev = uv->u.open.prev;
}

static void close_one(lua_State *L, upval *uv)
{
    unlink_open(G(L), uv);
    set_obj(&uv->u.value, uv->v);
    uv->v = &uv->u.value;
    /* Closed, it holds its value itself: keep "black -> not white". */
    gc_barrier(L, uv, uv->v);
}

void fn_closeupvals(lua_State *L, tvalue *level)
{
    upval *uv;
    while ((uv = L->openupval) != NULL && uv->v >= level)
        close_one(L, uv);
}

int fn_closesome(lua_State *L, int max)
{
    upval *uv;
    for (int i = 0; i < max && (uv = L->openupval) != NULL; i++)
        close_one(L, uv);
    return L->openupval != NULL;
}

void fn_freeupval(global_State *g, upval *uv)
{
    if (upval_is_open(uv))
        unlink_open(g, uv);
    gc_free(g, uv, sizeof(upval));
}

udata *fn_newudata(lua_State *L, size_t size, int nuvalue)
{
    udata *u = (udata *)gc_newobj(L, V_UDATA, fn_udatasize(size, nuvalue));
    if (u == NULL)
        return NULL;
    u->nuvalue = (uint16_t)nuvalue;
    u->len = size;
    u->metatable = NULL;
    u->gclist = NULL;
    for (int i = 0; i < nuvalue; i++)
        set_nil(&u->uv[i]);
    return u;
}
