/*
 * debug.c — line information, names of values for error messages, the
 * interpreter's errors, hooks and the public debug API.
 *
 * Names come from a symbolic reading of the bytecode: to name register r
 * at instruction pc, find the instruction that last wrote r before pc on
 * every path (a forward scan that forgets a write made inside code a
 * jump may skip), then read what that instruction loaded.
 */
#include "vm/debug.h"
#include "gc/gc.h"
#include "include/rtlua.h"
#include "vm/arith.h"
#include "vm/func.h"
#include "vm/opcodes.h"
#include "vm/str.h"
#include "vm/tab.h"
#include "vm/tm.h"

#include <string.h>

/* ---- Lines -------------------------------------------------------------- */

int dbg_getline(const proto *p, int pc)
{
    if (p->lineinfo == NULL || pc < 0 || pc >= p->sizelineinfo)
        return -1;
    /* Start from the last absolute entry at or before pc. */
    int basepc = -1;
    int line = p->linedefined;
    int lo = 0, hi = p->sizeabslineinfo - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (p->abslineinfo[mid].pc <= pc) {
            basepc = p->abslineinfo[mid].pc;
            line = p->abslineinfo[mid].line;
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    for (int i = basepc + 1; i <= pc; i++)
        line += p->lineinfo[i];
    return line;
}

static int currentpc(CallInfo *ci)
{
    return (int)(ci->u.l.savedpc - ci_func(ci)->p->code) - 1;
}

int dbg_currentline(CallInfo *ci)
{
    return dbg_getline(ci_func(ci)->p, currentpc(ci));
}

const char *dbg_getlocalname(const proto *p, int n, int pc)
{
    for (int i = 0; i < p->sizelocvars && p->locvars[i].startpc <= pc; i++) {
        if (pc < p->locvars[i].endpc) {
            n--;
            if (n == 0)
                return str_data(p->locvars[i].name);
        }
    }
    return NULL;
}

/* ---- Messages ----------------------------------------------------------- */

const char *dbg_addinfo(lua_State *L, const char *msg, str *src, int line)
{
    char buff[LUA_IDSIZE];
    if (src)
        dbg_chunkid(buff, str_data(src), str_len(src));
    else {
        buff[0] = '?';
        buff[1] = '\0';
    }
    return do_pushfstring(L, "%s:%d: %s", buff, line, msg);
}

void dbg_chunkid(char *out, const char *source, size_t srclen)
{
    size_t bufflen = LUA_IDSIZE;
    if (*source == '=') { /* 'literal' source */
        if (srclen <= bufflen) {
            memcpy(out, source + 1, srclen);
        } else {
            memcpy(out, source + 1, bufflen - 1);
            out[bufflen - 1] = '\0';
        }
    } else if (*source == '@') { /* file name */
        if (srclen <= bufflen) {
            memcpy(out, source + 1, srclen);
        } else { /* the end of the name */
            memcpy(out, "...", 3);
            bufflen -= 3;
            memcpy(out + 3, source + 1 + srclen - bufflen, bufflen);
        }
    } else { /* [string "source"] */
        const char *nl = memchr(source, '\n', srclen);
        const char *pre = "[string \"", *pos = "\"]", *dots = "...";
        size_t room = bufflen - (strlen(pre) + strlen(dots) + strlen(pos)) - 1;
        size_t len = srclen;
        char *o = out;
        memcpy(o, pre, strlen(pre));
        o += strlen(pre);
        if (srclen < room && nl == NULL) {
            memcpy(o, source, srclen);
            o += srclen;
        } else {
            if (nl != NULL)
                len = (size_t)(nl - source);
            if (len > room)
                len = room;
            memcpy(o, source, len);
            o += len;
            memcpy(o, dots, strlen(dots));
            o += strlen(dots);
        }
        memcpy(o, pos, strlen(pos) + 1);
    }
}

_Noreturn void dbg_errormsg(lua_State *L)
{
    if (L->errfunc != 0) {
        /* The handler runs only with the C stack's reserve left (it is a
         * C level like any, vm/do.h): short of it, this is an error in
         * error handling, and raising it calls nothing more. */
        if (do_cstackshort(call))
            do_throw(L, LUA_ERRERR);
        tvalue *errfunc = do_restorestack(L, L->errfunc);
        set_obj(L->top, L->top - 1); /* the message moves up */
        set_obj(L->top - 1, errfunc);
        L->top++;
        do_callnoyield(L, L->top - 2, 1);
    }
    do_throw(L, LUA_ERRRUN);
}

/* ---- Names of values ---------------------------------------------------- */

static const char *upvalname(const proto *p, int uv)
{
    if (uv < 0 || uv >= p->sizeupvalues || p->upvalues[uv].name == NULL)
        return "?";
    return str_data(p->upvalues[uv].name);
}

/* Does op write its register A? */
static int writes_a(int op)
{
    switch (op) {
    case OP_SETUPVAL:
    case OP_SETTABUP:
    case OP_SETTABLE:
    case OP_SETI:
    case OP_SETFIELD:
    case OP_CLOSE:
    case OP_TBC:
    case OP_JMP:
    case OP_EQ:
    case OP_LT:
    case OP_LE:
    case OP_EQK:
    case OP_EQI:
    case OP_LTI:
    case OP_LEI:
    case OP_GTI:
    case OP_GEI:
    case OP_TEST:
    case OP_RETURN:
    case OP_RETURN0:
    case OP_RETURN1:
    case OP_TFORPREP:
    case OP_TFORCALL:
    case OP_SETLIST:
    case OP_EXTRAARG:
        return 0;
    default:
        return 1;
    }
}

/* The instruction before lastpc that last wrote reg on every path to
 * lastpc, or -1. */
static int findsetreg(const proto *p, int lastpc, int reg)
{
    int setreg = -1;
    int jmptarget = 0; /* code before this may be skipped by a jump */
    for (int pc = 0; pc < lastpc; pc++) {
        instr i = p->code[pc];
        int op = GET_OP(i);
        int a = GETARG_A(i);
        int change;
        switch (op) {
        case OP_LOADNIL:
            change = a <= reg && reg <= a + GETARG_B(i);
            break;
        case OP_TFORCALL:
            change = reg >= a + 2;
            break;
        case OP_CALL:
        case OP_TAILCALL:
            change = reg >= a;
            break;
        case OP_JMP: {
            int dest = pc + 1 + GETARG_sJ(i);
            if (dest <= lastpc && dest > jmptarget)
                jmptarget = dest;
            change = 0;
            break;
        }
        default:
            change = writes_a(op) && reg == a;
            break;
        }
        if (change)
            setreg = pc < jmptarget ? -1 : pc;
    }
    return setreg;
}

static const char *basicobjname(const proto *p, int lastpc, int reg,
                                const char **name);

/* The name of constant k when it is a string. */
static void kname(const proto *p, int k, const char **name)
{
    const tvalue *kv = &p->k[k];
    *name = is_str(kv) ? str_data(gco2str(gc_of(kv))) : "?";
}

/* The name of register r used as a key: a constant string, or "?".
 * (getobjname finds a constant only where basicobjname does.) */
static void rname(const proto *p, int pc, int r, const char **name)
{
    const char *what = basicobjname(p, pc, r, name);
    if (!(what && *what == 'c')) /* not a constant */
        *name = "?";
}

/* The name of register reg at lastpc as a variable: a local, an upvalue
 * loaded by GETUPVAL (through MOVEs) or a string constant; never a field
 * (which is what getobjname adds). */
static const char *basicobjname(const proto *p, int lastpc, int reg,
                                const char **name)
{
again:
    *name = dbg_getlocalname(p, reg + 1, lastpc);
    if (*name)
        return "local";
    int pc = findsetreg(p, lastpc, reg);
    if (pc == -1)
        return NULL;
    instr i = p->code[pc];
    switch (GET_OP(i)) {
    case OP_MOVE: { /* a copy: what it copied, earlier (a loop: the C
                     * stack stays bounded whatever the code) */
        int b = GETARG_B(i);
        if (b < GETARG_A(i)) {
            lastpc = pc;
            reg = b;
            goto again;
        }
        return NULL;
    }
    case OP_GETUPVAL:
        *name = upvalname(p, GETARG_B(i));
        return "upvalue";
    case OP_LOADK:
    case OP_LOADKX: {
        int b =
            GET_OP(i) == OP_LOADK ? GETARG_Bx(i) : GETARG_Ax(p->code[pc + 1]);
        if (is_str(&p->k[b])) {
            *name = str_data(gco2str(gc_of(&p->k[b])));
            return "constant";
        }
        return NULL;
    }
    default:
        return NULL;
    }
}

/* "global" when the table is the variable _ENV: the upvalue, or a local or
 * upvalue of that name in a register (Lua 5.4.8's rule).  A field named
 * _ENV (a._ENV.x) or the string "_ENV" (("_ENV").x) is no environment. */
static const char *isenv(const proto *p, int pc, int t, int isup)
{
    const char *name = NULL;
    if (isup) {
        name = upvalname(p, t);
    } else {
        const char *what = basicobjname(p, pc, t, &name);
        if (what == NULL || *what == 'c') /* not a variable */
            name = NULL;
    }
    return (name && strcmp(name, "_ENV") == 0) ? "global" : "field";
}

static const char *getobjname(const proto *p, int lastpc, int reg,
                              const char **name)
{
again:;
    const char *what = basicobjname(p, lastpc, reg, name);
    if (what != NULL)
        return what;
    int pc = findsetreg(p, lastpc, reg);
    if (pc == -1)
        return NULL;
    instr i = p->code[pc];
    switch (GET_OP(i)) {
    case OP_MOVE: { /* a copy of a register named as a field */
        int b = GETARG_B(i);
        if (b < GETARG_A(i)) {
            lastpc = pc;
            reg = b;
            goto again;
        }
        return NULL;
    }
    case OP_GETTABUP:
        kname(p, GETARG_C(i), name);
        return isenv(p, pc, GETARG_B(i), 1);
    case OP_GETTABLE:
        rname(p, pc, GETARG_C(i), name);
        return isenv(p, pc, GETARG_B(i), 0);
    case OP_GETI:
        *name = "integer index";
        return "field";
    case OP_GETFIELD:
        kname(p, GETARG_C(i), name);
        return isenv(p, pc, GETARG_B(i), 0);
    case OP_SELF:
        if (GETARG_k(i))
            kname(p, GETARG_C(i), name);
        else
            rname(p, pc, GETARG_C(i), name);
        return "method";
    default:
        return NULL;
    }
}

/* op_event maps OP_ADDK .. OP_BXORK and OP_ADD .. OP_SHR to TM_ADD plus
 * their distance from the first. */
#define OPK_ORDER_(x) (OP_##x##K - OP_ADDK == TM_##x - TM_ADD)
#define OP_ORDER_(x) (OP_##x - OP_ADD == TM_##x - TM_ADD)
_Static_assert(OPK_ORDER_(SUB) && OPK_ORDER_(MUL) && OPK_ORDER_(MOD) &&
                   OPK_ORDER_(POW) && OPK_ORDER_(DIV) && OPK_ORDER_(IDIV) &&
                   OPK_ORDER_(BAND) && OPK_ORDER_(BOR) && OPK_ORDER_(BXOR),
               "OP_ADDK .. OP_BXORK follow TM_ADD .. TM_BXOR");
_Static_assert(OP_ORDER_(SUB) && OP_ORDER_(MUL) && OP_ORDER_(MOD) &&
                   OP_ORDER_(POW) && OP_ORDER_(DIV) && OP_ORDER_(IDIV) &&
                   OP_ORDER_(BAND) && OP_ORDER_(BOR) && OP_ORDER_(BXOR) &&
                   OP_ORDER_(SHL) && OP_ORDER_(SHR),
               "OP_ADD .. OP_SHR follow TM_ADD .. TM_SHR");
#undef OPK_ORDER_
#undef OP_ORDER_

/* The metamethod event instruction i may call, or -1. */
static int op_event(instr i)
{
    int op = GET_OP(i);
    switch (op) {
    case OP_SELF:
    case OP_GETTABUP:
    case OP_GETTABLE:
    case OP_GETI:
    case OP_GETFIELD:
        return TM_INDEX;
    case OP_SETTABUP:
    case OP_SETTABLE:
    case OP_SETI:
    case OP_SETFIELD:
        return TM_NEWINDEX;
    case OP_ADDI: /* k: a subtraction of the negated constant */
        return GETARG_k(i) ? TM_SUB : TM_ADD;
    case OP_UNM:
        return TM_UNM;
    case OP_BNOT:
        return TM_BNOT;
    case OP_LEN:
        return TM_LEN;
    case OP_CONCAT:
        return TM_CONCAT;
    case OP_EQ:
    case OP_EQK:
    case OP_EQI:
        return TM_EQ;
    case OP_LT:
    case OP_LTI:
    case OP_GTI:
        return TM_LT;
    case OP_LE:
    case OP_LEI:
    case OP_GEI:
        return TM_LE;
    case OP_CLOSE:
    case OP_RETURN:
        return TM_CLOSE;
    default:
        if (op >= OP_ADDK && op <= OP_BXORK)
            return TM_ADD + (op - OP_ADDK);
        if (op >= OP_ADD && op <= OP_SHR)
            return TM_ADD + (op - OP_ADD);
        return -1;
    }
}

/* How the instruction at pc of p called a function. */
static const char *funcnamefromcode(lua_State *L, const proto *p, int pc,
                                    const char **name)
{
    if (pc < 0 || pc >= p->sizecode)
        return NULL; /* the frame has not started */
    instr i = p->code[pc];
    int op = GET_OP(i);
    switch (op) {
    case OP_CALL:
    case OP_TAILCALL:
        return getobjname(p, pc, GETARG_A(i), name);
    case OP_TFORCALL:
        *name = "for iterator";
        return "for iterator";
    default: {
        int e = op_event(i);
        if (e < 0)
            return NULL;
        str *ev = G(L)->tmname[e];
        *name = ev ? str_data(ev) + 2 : "?"; /* without the "__" */
        return "metamethod";
    }
    }
}

/* How the function running in the frame above ci was called by ci. */
static const char *funcnamefromcall(lua_State *L, CallInfo *ci,
                                    const char **name)
{
    if (ci->callstatus & CIST_HOOKED) {
        *name = "?";
        return "hook";
    }
    if (ci->callstatus & CIST_FIN) {
        *name = "__gc";
        return "metamethod";
    }
    if (ci_isLua(ci))
        return funcnamefromcode(L, ci_func(ci)->p, currentpc(ci), name);
    return NULL;
}

static int instack(CallInfo *ci, const tvalue *o)
{
    for (const tvalue *p = ci->func + 1; p < ci->top; p++)
        if (p == o)
            return 1;
    return 0;
}

static const char *getupvalname(CallInfo *ci, const tvalue *o,
                                const char **name)
{
    lclosure *c = ci_func(ci);
    for (int i = 0; i < c->nupvalues; i++) {
        if (c->upvals[i] != NULL && c->upvals[i]->v == o) {
            *name = upvalname(c->p, i);
            return "upvalue";
        }
    }
    return NULL;
}

static const char *formatvarinfo(lua_State *L, const char *kind,
                                 const char *name)
{
    if (kind == NULL)
        return "";
    return do_pushfstring(L, " (%s '%s')", kind, name);
}

static const char *varinfo(lua_State *L, const tvalue *o)
{
    CallInfo *ci = L->ci;
    const char *name = NULL;
    const char *kind = NULL;
    if (ci_isLua(ci)) {
        kind = getupvalname(ci, o, &name);
        if (kind == NULL && instack(ci, o))
            kind = getobjname(ci_func(ci)->p, currentpc(ci),
                              (int)(o - (ci->func + 1)), &name);
    }
    return formatvarinfo(L, kind, name);
}

/* ---- Errors ------------------------------------------------------------- */

/* `t` is o's type name, read before varinfo: its message is pushed on
 * the stack, which may move it, and o may point into the stack. */
static _Noreturn void typeerror(lua_State *L, const char *t, const char *op,
                                const char *extra)
{
    do_runerror(L, "attempt to %s a %s value%s", op, t, extra);
}

_Noreturn void dbg_typeerror(lua_State *L, const tvalue *o, const char *op)
{
    const char *t = tm_objtypename(L, o);
    typeerror(L, t, op, varinfo(L, o));
}

_Noreturn void dbg_callerror(lua_State *L, const tvalue *o)
{
    const char *t = tm_objtypename(L, o);
    const char *name = NULL;
    const char *kind = funcnamefromcall(L, L->ci, &name);
    const char *extra = kind ? formatvarinfo(L, kind, name) : varinfo(L, o);
    typeerror(L, t, "call", extra);
}

_Noreturn void dbg_forerror(lua_State *L, const tvalue *o, const char *what)
{
    do_runerror(L, "bad 'for' %s (number expected, got %s)", what,
                tm_objtypename(L, o));
}

_Noreturn void dbg_concaterror(lua_State *L, const tvalue *p1,
                               const tvalue *p2)
{
    if (is_str(p1) || ttype(tt_of(p1)) == T_NUMBER)
        p1 = p2;
    dbg_typeerror(L, p1, "concatenate");
}

_Noreturn void dbg_opinterror(lua_State *L, const tvalue *p1, const tvalue *p2,
                              const char *msg)
{
    if (ttype(tt_of(p1)) != T_NUMBER)
        p2 = p1;
    dbg_typeerror(L, p2, msg);
}

_Noreturn void dbg_tointerror(lua_State *L, const tvalue *p1, const tvalue *p2)
{
    rt_int tmp;
    if (!arith_tointegerns(p1, &tmp))
        p2 = p1;
    do_runerror(L, "number%s has no integer representation", varinfo(L, p2));
}

_Noreturn void dbg_ordererror(lua_State *L, const tvalue *p1, const tvalue *p2)
{
    const char *t1 = tm_objtypename(L, p1);
    const char *t2 = tm_objtypename(L, p2);
    if (strcmp(t1, t2) == 0)
        do_runerror(L, "attempt to compare two %s values", t1);
    do_runerror(L, "attempt to compare %s with %s", t1, t2);
}

/* ---- Hooks -------------------------------------------------------------- */

void dbg_hook(lua_State *L, int event, int line, int ftransfer, int ntransfer)
{
    lua_Hook hook = L->hook;
    if (hook == NULL || !L->allowhook)
        return;
    uint16_t mask = CIST_HOOKED;
    CallInfo *ci = L->ci;
    ptrdiff_t top = do_savestack(L, L->top);
    ptrdiff_t ci_top = do_savestack(L, ci->top);
    lua_Debug ar;
    memset(&ar, 0, sizeof ar);
    ar.event = event;
    ar.currentline = line;
    ar.i_ci = ci;
    if (ntransfer != 0) {
        mask |= CIST_TRAN;
        ci->u2.transferinfo.ftransfer = (unsigned short)ftransfer;
        ci->u2.transferinfo.ntransfer = (unsigned short)ntransfer;
    }
    if (ci_isLua(ci) && L->top < ci->top)
        L->top = ci->top; /* keep the frame's registers */
    do_checkstack(L, LUA_MINSTACK);
    ci = L->ci;
    if (ci->top < L->top + LUA_MINSTACK)
        ci->top = L->top + LUA_MINSTACK;
    L->allowhook = 0;
    ci->callstatus |= mask;
    hook(L, &ar);
    L->allowhook = 1;
    ci->top = do_restorestack(L, ci_top);
    L->top = do_restorestack(L, top);
    ci->callstatus &= (uint16_t)~mask;
}

int dbg_traceexec(lua_State *L, const instr *pc)
{
    CallInfo *ci = L->ci;
    int mask = L->hookmask;
    const proto *p = ci_func(ci)->p;
    if (!(mask & (LUA_MASKLINE | LUA_MASKCOUNT))) {
        ci->u.l.trap = 0; /* only call/return hooks: no tracing */
        return 0;
    }
    pc++; /* the instruction about to run is the current one */
    ci->u.l.savedpc = pc;
    int counthook = 0;
    if ((mask & LUA_MASKCOUNT) && --L->hookcount == 0) {
        L->hookcount = L->basehookcount;
        counthook = 1;
    } else if (!(mask & LUA_MASKLINE)) {
        return 1;
    }
    if (ci->callstatus & CIST_HOOKYIELD) { /* the hook yielded last time */
        ci->callstatus &= (uint16_t)~CIST_HOOKYIELD;
        return 1;
    }
    if (!op_usestop(*(pc - 1)))
        L->top = ci->top;
    if (counthook)
        dbg_hook(L, LUA_HOOKCOUNT, -1, 0, 0);
    if (mask & LUA_MASKLINE) {
        int npci = (int)(pc - p->code) - 1;
        if (L->oldpc >= p->sizecode)
            L->oldpc = 0; /* stale: from another function */
        if (npci <= L->oldpc ||
            dbg_getline(p, L->oldpc) != dbg_getline(p, npci))
            dbg_hook(L, LUA_HOOKLINE, dbg_getline(p, npci), 0, 0);
        L->oldpc = npci;
    }
    if (L->status == LUA_YIELD) { /* the hook yielded */
        if (counthook)
            L->hookcount = 1;
        ci->u.l.savedpc--; /* run this instruction again on resume */
        ci->callstatus |= CIST_HOOKYIELD;
        do_throw(L, LUA_YIELD);
    }
    return 1;
}

void lua_sethook(lua_State *L, lua_Hook func, int mask, int count)
{
    if (func == NULL || mask == 0) {
        mask = 0;
        func = NULL;
    }
    L->hook = func;
    L->basehookcount = count;
    L->hookcount = count;
    L->hookmask = (uint8_t)mask;
    if (mask)
        for (CallInfo *ci = L->ci; ci != NULL; ci = ci->previous)
            if (ci_isLua(ci))
                ci->u.l.trap = 1;
}

lua_Hook lua_gethook(lua_State *L)
{
    return L->hook;
}

void rtlua_poll(lua_State *L, int n)
{
    /* Short of C stack (port/port.h), the hook waits for the next poll.
     * Its own kind: what a hook may use before its next check (a Lua
     * hook's call checks again), well under call's reserve, whose worst
     * path (a resume into the REPL's line editor) a hook never takes. */
    if (do_cstackshort(poll))
        return;
    if (G(L)->interrupt)
        dbg_interrupted(L);
    if (!(L->hookmask & LUA_MASKCOUNT) || !L->allowhook)
        return;
    if (L->hookcount > n) {
        L->hookcount -= n;
        return;
    }
    L->hookcount = L->basehookcount;
    dbg_hook(L, LUA_HOOKCOUNT, -1, 0, 0);
}

/* ---- Interrupts ----------------------------------------------------------
 * No hook is needed: the interpreter's safe points test the flag with the
 * tick's (safeflags), and they run inside hooks and __gc metamethods too,
 * where hooks are off.  An error there is one as any other: a hook's
 * propagates to the code it ran in, a __gc's becomes a warning after its
 * protected call restored the stack and the finalizer lists (gc/gc.c
 * took the object off them before the call), and then the next safe
 * point of the code the finalizer ran in raises it again. */

void rtlua_interrupt(lua_State *L, int on)
{
    G(L)->interrupt = on != 0;
}

_Noreturn void dbg_interrupted(lua_State *L)
{
    do_runerror(L, "interrupted!");
}

int lua_gethookmask(lua_State *L)
{
    return L->hookmask;
}

int lua_gethookcount(lua_State *L)
{
    return L->basehookcount;
}

/* The highest limit lua_setcstacklimit takes: the host bounds no C
 * stack (port_stack_left), so a limit must stay where its 8 MiB hold
 * that many levels; a board's real bound is its stack anyway. */
#define DEBUG_CSTACK_MAX (LUAI_MAXCCALLS * 5)
/* Levels a new limit leaves above the caller's depth: room to raise and
 * handle the overflow error. */
#define DEBUG_CSTACK_MARGIN 10

/* Lua 5.4's manual (as 5.4.0-5.4.2 implement it): the new limit of
 * nested C calls; the old one, or 0 when the limit is out of bounds or
 * not above the current depth (nothing changes then). */
int lua_setcstacklimit(lua_State *L, unsigned int limit)
{
    global_State *g = G(L);
    if (limit > DEBUG_CSTACK_MAX ||
        limit < do_getCcalls(L) + DEBUG_CSTACK_MARGIN)
        return 0;
    int old = (int)g->cstacklimit;
    g->cstacklimit = limit;
    return old;
}

/* ---- The debug API ------------------------------------------------------ */

int lua_getstack(lua_State *L, int level, lua_Debug *ar)
{
    if (level < 0)
        return 0;
    CallInfo *ci;
    for (ci = L->ci; level > 0 && ci != L->base_ci; ci = ci->previous)
        level--;
    if (level == 0 && ci != L->base_ci) {
        ar->i_ci = ci;
        return 1;
    }
    return 0;
}

static const char *findvararg(CallInfo *ci, int n, tvalue **pos)
{
    if (ci_func(ci)->p->is_vararg) {
        int nextra = ci->u.l.nextraargs;
        if (n >= -nextra) {
            *pos = ci->func - nextra - (n + 1);
            return "(vararg)";
        }
    }
    return NULL;
}

static const char *findlocal(lua_State *L, CallInfo *ci, int n, tvalue **pos)
{
    tvalue *base = ci->func + 1;
    const char *name = NULL;
    if (ci_isLua(ci)) {
        if (n < 0)
            return findvararg(ci, n, pos);
        name = dbg_getlocalname(ci_func(ci)->p, n, currentpc(ci));
    }
    if (name == NULL) {
        tvalue *limit = (ci == L->ci) ? L->top : ci->next->func;
        if (n > 0 && limit - base >= n)
            name = ci_isLua(ci) ? "(temporary)" : "(C temporary)";
        else
            return NULL;
    }
    *pos = base + (n - 1);
    return name;
}

const char *lua_getlocal(lua_State *L, const lua_Debug *ar, int n)
{
    if (ar == NULL) { /* the parameters of the function on the top */
        tvalue *f = L->top - 1;
        if (tt_of(f) != V_LCL)
            return NULL;
        return dbg_getlocalname(gco2lcl(gc_of(f))->p, n, 0);
    }
    tvalue *pos = NULL;
    const char *name = findlocal(L, ar->i_ci, n, &pos);
    if (name != NULL) {
        set_obj(L->top, pos);
        L->top++;
    }
    return name;
}

const char *lua_setlocal(lua_State *L, const lua_Debug *ar, int n)
{
    tvalue *pos = NULL;
    const char *name = findlocal(L, ar->i_ci, n, &pos);
    if (name != NULL) {
        set_obj(pos, L->top - 1);
        L->top--;
        /* a slot of any frame: atomic re-scans the stack from it */
        gc_thread_ran(L);
        gc_stack_lower(L, pos);
    }
    return name;
}

static void funcinfo(lua_Debug *ar, const tvalue *f)
{
    if (tt_of(f) != V_LCL) {
        ar->source = "=[C]";
        ar->srclen = 4;
        ar->linedefined = -1;
        ar->lastlinedefined = -1;
        ar->what = "C";
    } else {
        const proto *p = gco2lcl(gc_of(f))->p;
        if (p->source) {
            ar->source = str_data(p->source);
            ar->srclen = str_len(p->source);
        } else {
            ar->source = "=?";
            ar->srclen = 2;
        }
        ar->linedefined = p->linedefined;
        ar->lastlinedefined = p->lastlinedefined;
        ar->what = ar->linedefined == 0 ? "main" : "Lua";
    }
    dbg_chunkid(ar->short_src, ar->source, ar->srclen);
}

/* Push a table whose keys are the lines with code (nil for C). */
static void validlines(lua_State *L, const tvalue *f)
{
    if (tt_of(f) != V_LCL) {
        set_nil(L->top);
        L->top++;
        return;
    }
    const proto *p = gco2lcl(gc_of(f))->p;
    table *t = tab_new(L);
    if (t == NULL)
        do_memerror(L);
    set_gc(L->top, t, V_TABLE);
    L->top++;
    tvalue v;
    set_bool(&v, 1);
    if (p->lineinfo == NULL)
        return;
    /* A vararg function's VARARGPREP is not a line of its own. */
    for (int i = p->is_vararg ? 1 : 0; i < p->sizelineinfo; i++)
        if (tab_setint(L, t, dbg_getline(p, i), &v) != TAB_OK)
            do_memerror(L);
}

int lua_getinfo(lua_State *L, const char *what, lua_Debug *ar)
{
    CallInfo *ci = NULL;
    tvalue func;
    if (*what == '>') {
        set_obj(&func, L->top - 1);
        L->top--;
        what++;
    } else {
        ci = ar->i_ci;
        set_obj(&func, ci->func);
    }
    int status = 1;
    for (const char *w = what; *w; w++) {
        switch (*w) {
        case 'S':
            funcinfo(ar, &func);
            break;
        case 'l':
            ar->currentline = (ci && ci_isLua(ci)) ? dbg_currentline(ci) : -1;
            break;
        case 'u':
            if (tt_of(&func) == V_LCL) {
                const lclosure *c = gco2lcl(gc_of(&func));
                ar->nups = c->nupvalues;
                ar->isvararg = (char)c->p->is_vararg;
                ar->nparams = c->p->numparams;
            } else {
                ar->nups = tt_of(&func) == V_CCL
                               ? gco2ccl(gc_of(&func))->nupvalues
                               : 0;
                ar->isvararg = 1;
                ar->nparams = 0;
            }
            break;
        case 't':
            ar->istailcall =
                ci ? (char)((ci->callstatus & CIST_TAIL) != 0) : 0;
            break;
        case 'n':
            ar->namewhat = NULL;
            if (ci != NULL && !(ci->callstatus & CIST_TAIL) &&
                ci->previous != NULL)
                ar->namewhat = funcnamefromcall(L, ci->previous, &ar->name);
            if (ar->namewhat == NULL) {
                ar->namewhat = "";
                ar->name = NULL;
            }
            break;
        case 'r':
            if (ci == NULL || !(ci->callstatus & CIST_TRAN)) {
                ar->ftransfer = ar->ntransfer = 0;
            } else {
                ar->ftransfer = ci->u2.transferinfo.ftransfer;
                ar->ntransfer = ci->u2.transferinfo.ntransfer;
            }
            break;
        case 'L':
        case 'f':
            break;
        default:
            status = 0;
        }
    }
    if (strchr(what, 'f')) {
        set_obj(L->top, &func);
        L->top++;
    }
    if (strchr(what, 'L'))
        validlines(L, &func);
    return status;
}
