/*
 * code.c — the code generator (see code.h).  Written from the Lua 5.4
 * reference manual's semantics and rtlua's bytecode (vm/opcodes.h).
 */
#include "lang/code.h"

#include "gc/gc.h"
#include "vm/arith.h"
#include "vm/do.h"
#include "vm/func.h"
#include "vm/str.h"
#include "vm/tab.h"

#include <math.h>
#include <string.h>

/* An arithmetic binopr is its LUA_OP* (constfolding), OP_ADD + opr its
 * instruction and, up to OPR_BXOR, OP_ADDK + opr its constant form
 * (codearith). */
#define OPR_ORDER_(x) (OPR_##x == LUA_OP##x && OP_##x - OP_ADD == (int)OPR_##x)
#define OPRK_ORDER_(x) (OP_##x##K - OP_ADDK == (int)OPR_##x)
_Static_assert(OPR_ORDER_(ADD) && OPR_ORDER_(SUB) && OPR_ORDER_(MUL) &&
                   OPR_ORDER_(MOD) && OPR_ORDER_(POW) && OPR_ORDER_(DIV) &&
                   OPR_ORDER_(IDIV) && OPR_ORDER_(BAND) && OPR_ORDER_(BOR) &&
                   OPR_ORDER_(BXOR) && OPR_ORDER_(SHL) && OPR_ORDER_(SHR),
               "OPR_ADD .. OPR_SHR are LUA_OPADD .. LUA_OPSHR, in OP_ADD's "
               "order");
_Static_assert(OPRK_ORDER_(ADD) && OPRK_ORDER_(SUB) && OPRK_ORDER_(MUL) &&
                   OPRK_ORDER_(MOD) && OPRK_ORDER_(POW) && OPRK_ORDER_(DIV) &&
                   OPRK_ORDER_(IDIV) && OPRK_ORDER_(BAND) &&
                   OPRK_ORDER_(BOR) && OPRK_ORDER_(BXOR),
               "OPR_ADD .. OPR_BXOR in OP_ADDK's order");
#undef OPR_ORDER_
#undef OPRK_ORDER_

/* Largest immediate of LOADI/LOADF (sBx). */
#define MAX_SBX (OP_MAXARG_BX - OP_OFFSET_SBX)
/* Largest and smallest sB/sC immediates. */
#define MAX_SC (OP_MAXARG_C - OP_OFFSET_SC)
#define MIN_SC (-OP_OFFSET_SC)
/* Largest jump offset. */
#define MAX_SJ (OP_MAXARG_AX - OP_OFFSET_SJ)
/* Most constants a function may have (LOADKX's Ax). */
#define CODE_MAXK OP_MAXARG_AX
/* Most instructions of a function (jumps must reach every one). */
#define CODE_MAXCODE (OP_MAXARG_AX / 2)

static table *ktable(FuncState *fs)
{
    return gco2tab(gc_of(do_restorestack(fs->ps->L, fs->h)));
}

/* The prototype's arrays moved: a chunked traversal must restart. */
static void protomoved(FuncState *fs)
{
    gc_resized(G(fs->ps->L), obj2gc(fs->f));
}

/* Grow f->code, lineinfo or k to hold index n; new slots zeroed (nil). */
static void *growarray(FuncState *fs, void *block, int32_t *size, int n,
                       size_t esize, int limit, const char *what)
{
    lua_State *L = fs->ps->L;
    size_t oldn = (size_t)*size, newn;
    void *nb;
    if (n < *size)
        return block;
    if (n >= limit)
        parse_errorlimit(fs, limit, what);
    newn = oldn < 4 ? 8 : oldn * 2;
    if (newn > (size_t)limit)
        newn = (size_t)limit;
    nb = gc_realloc(L, block, oldn * esize, newn * esize);
    if (nb == NULL)
        do_memerror(L);
    memset((char *)nb + oldn * esize, 0, (newn - oldn) * esize);
    *size = (int32_t)newn;
    protomoved(fs);
    return nb;
}

/* ---- Line information --------------------------------------------------- */
static void savelineinfo(FuncState *fs, int line)
{
    proto *f = fs->f;
    int delta = line - fs->previousline;
    int pc = fs->pc - 1;
    f->lineinfo = growarray(fs, f->lineinfo, &f->sizelineinfo, pc,
                            sizeof(int8_t), CODE_MAXCODE, "opcodes");
    if (delta < -127 || delta > 127 || fs->iwthabs++ >= OP_MAXIWTHABS) {
        f->abslineinfo = growarray(fs, f->abslineinfo, &f->sizeabslineinfo,
                                   fs->nabslineinfo, sizeof(absline),
                                   CODE_MAXCODE, "lines");
        f->abslineinfo[fs->nabslineinfo].pc = pc;
        f->abslineinfo[fs->nabslineinfo].line = line;
        fs->nabslineinfo++;
        f->lineinfo[pc] = OP_ABSLINE;
        fs->iwthabs = 1;
    } else {
        f->lineinfo[pc] = (int8_t)delta;
    }
    fs->previousline = line;
}

/* Undo the line information of the last instruction (being removed). */
static void removelastlineinfo(FuncState *fs)
{
    proto *f = fs->f;
    int pc = fs->pc - 1;
    if (f->lineinfo[pc] != OP_ABSLINE) {
        fs->previousline -= f->lineinfo[pc];
        fs->iwthabs--;
    } else {
        fs->nabslineinfo--;
        /* the next entry must be absolute: the base is unknown */
        fs->iwthabs = OP_MAXIWTHABS + 1;
    }
}

static void removelastinstruction(FuncState *fs)
{
    removelastlineinfo(fs);
    fs->pc--;
}

void code_fixline(FuncState *fs, int line)
{
    removelastlineinfo(fs);
    savelineinfo(fs, line);
}

/* ---- Emission ----------------------------------------------------------- */
int code_emit(FuncState *fs, instr i)
{
    proto *f = fs->f;
    f->code = growarray(fs, f->code, &f->sizecode, fs->pc, sizeof(instr),
                        CODE_MAXCODE, "opcodes");
    f->code[fs->pc++] = i;
    savelineinfo(fs, fs->ps->ls.lastline);
    return fs->pc - 1;
}

int code_ABCk(FuncState *fs, int op, int a, int b, int c, int k)
{
    return code_emit(fs, CREATE_ABCk(op, a, b, c, k));
}

int code_ABx(FuncState *fs, int op, int a, int bx)
{
    return code_emit(fs, CREATE_ABx(op, a, bx));
}

int code_AsBx(FuncState *fs, int op, int a, int sbx)
{
    return code_emit(fs, CREATE_ABx(op, a, (uint32_t)(sbx + OP_OFFSET_SBX)));
}

int code_extraarg(FuncState *fs, int ax)
{
    return code_emit(fs, CREATE_Ax(OP_EXTRAARG, ax));
}

static int codesJ(FuncState *fs, int op, int sj)
{
    return code_emit(fs, CREATE_sJ(op, sj));
}

static instr *previousinstruction(FuncState *fs)
{
    static const instr invalid = CREATE_ABCk(OP_NUM, 0, 0, 0, 0);
    if (fs->pc > fs->lasttarget && fs->pc > 0)
        return &fs->f->code[fs->pc - 1];
    return (instr *)&invalid;
}

void code_nil(FuncState *fs, int from, int n)
{
    int l = from + n - 1;
    instr *prev = previousinstruction(fs);
    if (GET_OP(*prev) == OP_LOADNIL) {
        int pfrom = GETARG_A(*prev), pl = pfrom + GETARG_B(*prev);
        if ((pfrom <= from && from <= pl + 1) ||
            (from <= pfrom && pfrom <= l + 1)) {
            if (pfrom < from)
                from = pfrom;
            if (pl > l)
                l = pl;
            SETARG_A(*prev, from);
            SETARG_B(*prev, l - from);
            return;
        }
    }
    code_ABC(fs, OP_LOADNIL, from, n - 1, 0);
}

/* ---- Jumps -------------------------------------------------------------- */
static int getjump(FuncState *fs, int pc)
{
    int off = GETARG_sJ(fs->f->code[pc]);
    return off == NO_JUMP ? NO_JUMP : pc + 1 + off;
}

static void fixjump(FuncState *fs, int pc, int dest)
{
    instr *jmp = &fs->f->code[pc];
    int off = dest - (pc + 1);
    if (off < -OP_OFFSET_SJ || off > MAX_SJ)
        parse_error(fs->ps, "control structure too long");
    SETARG_sJ(*jmp, off);
}

void code_concat(FuncState *fs, int *l1, int l2)
{
    if (l2 == NO_JUMP)
        return;
    if (*l1 == NO_JUMP) {
        *l1 = l2;
    } else {
        int list = *l1, next;
        while ((next = getjump(fs, list)) != NO_JUMP)
            list = next;
        fixjump(fs, list, l2);
    }
}

int code_jump(FuncState *fs)
{
    return codesJ(fs, OP_JMP, NO_JUMP);
}

void code_ret(FuncState *fs, int first, int nret)
{
    int op = nret == 0 ? OP_RETURN0 : nret == 1 ? OP_RETURN1 : OP_RETURN;
    code_ABC(fs, op, first, nret + 1, 0);
}

static int condjump(FuncState *fs, int op, int a, int b, int c, int k)
{
    code_ABCk(fs, op, a, b, c, k);
    return code_jump(fs);
}

int code_getlabel(FuncState *fs)
{
    fs->lasttarget = fs->pc;
    return fs->pc;
}

/* The instruction controlling the jump at pc (its test), or the jump. */
static instr *getjumpcontrol(FuncState *fs, int pc)
{
    instr *pi = &fs->f->code[pc];
    if (pc >= 1 && OP_ISTEST(GET_OP(*(pi - 1))))
        return pi - 1;
    return pi;
}

/* Make a TESTSET deliver into reg, or become a TEST when no value is
 * wanted; 0 when the jump is not controlled by a TESTSET. */
static int patchtestreg(FuncState *fs, int jpc, int reg)
{
    instr *i = getjumpcontrol(fs, jpc);
    if (GET_OP(*i) != OP_TESTSET)
        return 0;
    if (reg != CODE_NOREG && reg != GETARG_B(*i))
        SETARG_A(*i, reg);
    else
        *i = CREATE_ABCk(OP_TEST, GETARG_B(*i), 0, 0, GETARG_k(*i));
    return 1;
}

static void removevalues(FuncState *fs, int list)
{
    for (; list != NO_JUMP; list = getjump(fs, list))
        patchtestreg(fs, list, CODE_NOREG);
}

static void patchlistaux(FuncState *fs, int list, int vtarget, int reg,
                         int dtarget)
{
    while (list != NO_JUMP) {
        int next = getjump(fs, list);
        if (patchtestreg(fs, list, reg))
            fixjump(fs, list, vtarget);
        else
            fixjump(fs, list, dtarget);
        list = next;
    }
}

void code_patchlist(FuncState *fs, int list, int target)
{
    patchlistaux(fs, list, target, CODE_NOREG, target);
}

void code_patchtohere(FuncState *fs, int list)
{
    code_patchlist(fs, list, code_getlabel(fs));
}

/* Does a jump of the list need a value produced (not by TESTSET)? */
static int need_value(FuncState *fs, int list)
{
    for (; list != NO_JUMP; list = getjump(fs, list))
        if (GET_OP(*getjumpcontrol(fs, list)) != OP_TESTSET)
            return 1;
    return 0;
}

/* ---- Registers ---------------------------------------------------------- */
int code_reglevel(FuncState *fs, int nvar)
{
    while (nvar-- > 0) {
        vardesc *vd = &fs->ps->dyd.actvar[fs->firstlocal + nvar];
        if (vd->kind != VD_CTC)
            return vd->ridx + 1;
    }
    return 0;
}

int code_nvarstack(FuncState *fs)
{
    return code_reglevel(fs, fs->nactvar);
}

void code_checkstack(FuncState *fs, int n)
{
    int newstack = fs->freereg + n;
    if (newstack > fs->f->maxstacksize) {
        if (newstack >= OP_MAXREGS)
            parse_error(fs->ps,
                        "function or expression needs too many registers");
        fs->f->maxstacksize = (uint8_t)newstack;
    }
}

void code_reserveregs(FuncState *fs, int n)
{
    code_checkstack(fs, n);
    fs->freereg = (uint8_t)(fs->freereg + n);
}

static void freereg(FuncState *fs, int reg)
{
    if (reg >= code_nvarstack(fs))
        fs->freereg--;
}

void code_freeexp(FuncState *fs, expdesc *e)
{
    if (e->k == EK_NONRELOC)
        freereg(fs, e->u.info);
}

/* Free two expressions' registers, the higher first. */
static void freeexps(FuncState *fs, expdesc *e1, expdesc *e2)
{
    int r1 = e1->k == EK_NONRELOC ? e1->u.info : -1;
    int r2 = e2->k == EK_NONRELOC ? e2->u.info : -1;
    if (r1 > r2) {
        if (r1 >= 0)
            freereg(fs, r1);
        if (r2 >= 0)
            freereg(fs, r2);
    } else {
        if (r2 >= 0)
            freereg(fs, r2);
        if (r1 >= 0)
            freereg(fs, r1);
    }
}

/* ---- Constants -----------------------------------------------------------
 * fs->h maps strings, integers and non-integral floats to their index in
 * k (a string anchored but not yet a constant maps to false).  Floats
 * with an integral value would share a table key with the integer, so
 * they are found by a scan of k instead. */
static int addk_slot(FuncState *fs, const tvalue *v)
{
    proto *f = fs->f;
    int idx = fs->nk;
    f->k = growarray(fs, f->k, &f->sizek, idx, sizeof(tvalue), CODE_MAXK,
                     "constants");
    f->k[idx] = *v;
    if (is_collectable(v))
        gc_objbarrier(fs->ps->L, f, gc_of(v));
    fs->nk++;
    return idx;
}

static void setindex(FuncState *fs, const tvalue *key, int idx)
{
    tvalue iv;
    set_int(&iv, idx);
    if (tab_set(fs->ps->L, ktable(fs), key, &iv) != TAB_OK)
        do_memerror(fs->ps->L);
}

/* (floorf in the 32-bit model: floor takes a double, and the boards
 * linked it for this alone) */
#if RTLUA_NUM == 32
#define CODE_FLOOR(n) floorf(n)
#else
#define CODE_FLOOR(n) floor(n)
#endif

static int hasintvalue(rt_num n)
{
    return n == CODE_FLOOR(n) && n >= -(rt_num)RT_INT_MAX - 1 &&
           n < (rt_num)RT_INT_MAX;
}

int code_stringK(FuncState *fs, str *s)
{
    tvalue key;
    const tvalue *old = tab_getstr(ktable(fs), s);
    int idx;
    if (is_int(old))
        return (int)old->v.i;
    set_gc(&key, s, s->tt);
    idx = addk_slot(fs, &key);
    setindex(fs, &key, idx);
    return idx;
}

static int intK(FuncState *fs, rt_int i)
{
    tvalue key;
    const tvalue *old = tab_getint(ktable(fs), i);
    int idx;
    if (is_int(old))
        return (int)old->v.i;
    set_int(&key, i);
    idx = addk_slot(fs, &key);
    setindex(fs, &key, idx);
    return idx;
}

static int numberK(FuncState *fs, rt_num n)
{
    tvalue key;
    set_flt(&key, n);
    if (hasintvalue(n)) {
        proto *f = fs->f;
        for (int i = 0; i < fs->nk; i++)
            if (is_flt(&f->k[i]) && f->k[i].v.n == n &&
                signbit(f->k[i].v.n) == signbit(n))
                return i;
        return addk_slot(fs, &key);
    }
    const tvalue *old = tab_get(ktable(fs), &key);
    if (is_int(old))
        return (int)old->v.i;
    int idx = addk_slot(fs, &key);
    setindex(fs, &key, idx);
    return idx;
}

void code_anchor(FuncState *fs, str *s)
{
    tvalue key, f;
    table *h = ktable(fs);
    if (!is_nil(tab_getstr(h, s)))
        return;
    set_gc(&key, s, s->tt);
    set_bool(&f, 0);
    if (tab_set(fs->ps->L, h, &key, &f) != TAB_OK)
        do_memerror(fs->ps->L);
}

static void emit_loadk(FuncState *fs, int reg, int k)
{
    if (k <= OP_MAXARG_BX) {
        code_ABx(fs, OP_LOADK, reg, k);
    } else {
        code_ABx(fs, OP_LOADKX, reg, 0);
        code_extraarg(fs, k);
    }
}

static int fitssbx(rt_int i)
{
    return i >= -OP_OFFSET_SBX && i <= MAX_SBX;
}

void code_int(FuncState *fs, int reg, rt_int i)
{
    if (fitssbx(i))
        code_AsBx(fs, OP_LOADI, reg, (int)i);
    else
        emit_loadk(fs, reg, intK(fs, i));
}

static void code_float(FuncState *fs, int reg, rt_num n)
{
    if (hasintvalue(n) && fitssbx((rt_int)n) && !(n == 0 && signbit(n)))
        code_AsBx(fs, OP_LOADF, reg, (int)(rt_int)n);
    else
        emit_loadk(fs, reg, numberK(fs, n));
}

int code_exp2const(FuncState *fs, const expdesc *e, tvalue *v)
{
    if (e->t != e->f)
        return 0;
    switch (e->k) {
    case EK_FALSE:
        set_bool(v, 0);
        return 1;
    case EK_TRUE:
        set_bool(v, 1);
        return 1;
    case EK_NIL:
        set_nil(v);
        return 1;
    case EK_KSTR:
        set_gc(v, e->u.strval, e->u.strval->tt);
        return 1;
    case EK_KINT:
        set_int(v, e->u.ival);
        return 1;
    case EK_KFLT:
        set_flt(v, e->u.nval);
        return 1;
    case EK_CONST:
        *v = fs->ps->dyd.actvar[e->u.info].k;
        return 1;
    default:
        return 0;
    }
}

void code_const2exp(const tvalue *v, expdesc *e)
{
    switch (tt_of(v)) {
    case V_INT:
        e->k = EK_KINT;
        e->u.ival = v->v.i;
        break;
    case V_FLT:
        e->k = EK_KFLT;
        e->u.nval = v->v.n;
        break;
    case V_FALSE:
        e->k = EK_FALSE;
        break;
    case V_TRUE:
        e->k = EK_TRUE;
        break;
    case V_NIL:
        e->k = EK_NIL;
        break;
    default:
        e->k = EK_KSTR;
        e->u.strval = gco2str(gc_of(v));
        break;
    }
}

/* ---- Discharging expressions -------------------------------------------- */
void code_setreturns(FuncState *fs, expdesc *e, int nresults)
{
    instr *pc = &code_getinstr(fs, e);
    if (e->k == EK_CALL) {
        SETARG_C(*pc, nresults + 1);
    } else {
        SETARG_C(*pc, nresults + 1);
        SETARG_A(*pc, fs->freereg);
        code_reserveregs(fs, 1);
    }
}

void code_setoneret(FuncState *fs, expdesc *e)
{
    if (e->k == EK_CALL) {
        e->k = EK_NONRELOC;
        e->u.info = GETARG_A(code_getinstr(fs, e));
    } else if (e->k == EK_VARARG) {
        SETARG_C(code_getinstr(fs, e), 2);
        e->k = EK_RELOC;
    }
}

static void str2K(FuncState *fs, expdesc *e)
{
    e->u.info = code_stringK(fs, e->u.strval);
    e->k = EK_K;
}

void code_dischargevars(FuncState *fs, expdesc *e)
{
    switch (e->k) {
    case EK_CONST:
        code_const2exp(&fs->ps->dyd.actvar[e->u.info].k, e);
        break;
    case EK_LOCAL:
        e->u.info = e->u.var.ridx;
        e->k = EK_NONRELOC;
        break;
    case EK_UPVAL:
        e->u.info = code_ABC(fs, OP_GETUPVAL, 0, e->u.info, 0);
        e->k = EK_RELOC;
        break;
    case EK_INDEXUP:
        e->u.info = code_ABC(fs, OP_GETTABUP, 0, e->u.ind.t, e->u.ind.idx);
        e->k = EK_RELOC;
        break;
    case EK_INDEXI:
        freereg(fs, e->u.ind.t);
        e->u.info = code_ABC(fs, OP_GETI, 0, e->u.ind.t, e->u.ind.idx);
        e->k = EK_RELOC;
        break;
    case EK_INDEXSTR:
        freereg(fs, e->u.ind.t);
        e->u.info = code_ABC(fs, OP_GETFIELD, 0, e->u.ind.t, e->u.ind.idx);
        e->k = EK_RELOC;
        break;
    case EK_INDEXED: {
        int t = e->u.ind.t, idx = e->u.ind.idx;
        if (t > idx) {
            freereg(fs, t);
            freereg(fs, idx);
        } else {
            freereg(fs, idx);
            freereg(fs, t);
        }
        e->u.info = code_ABC(fs, OP_GETTABLE, 0, t, idx);
        e->k = EK_RELOC;
        break;
    }
    case EK_VARARG:
    case EK_CALL:
        code_setoneret(fs, e);
        break;
    default:
        break;
    }
}

static void discharge2reg(FuncState *fs, expdesc *e, int reg)
{
    code_dischargevars(fs, e);
    switch (e->k) {
    case EK_NIL:
        code_nil(fs, reg, 1);
        break;
    case EK_FALSE:
        code_ABC(fs, OP_LOADFALSE, reg, 0, 0);
        break;
    case EK_TRUE:
        code_ABC(fs, OP_LOADTRUE, reg, 0, 0);
        break;
    case EK_KSTR:
        str2K(fs, e);
        emit_loadk(fs, reg, e->u.info);
        break;
    case EK_K:
        emit_loadk(fs, reg, e->u.info);
        break;
    case EK_KFLT:
        code_float(fs, reg, e->u.nval);
        break;
    case EK_KINT:
        code_int(fs, reg, e->u.ival);
        break;
    case EK_RELOC:
        SETARG_A(code_getinstr(fs, e), reg);
        break;
    case EK_NONRELOC:
        if (reg != e->u.info)
            code_ABC(fs, OP_MOVE, reg, e->u.info, 0);
        break;
    default: /* EK_JMP: nothing to do here */
        return;
    }
    e->u.info = reg;
    e->k = EK_NONRELOC;
}

static void discharge2anyreg(FuncState *fs, expdesc *e)
{
    if (e->k != EK_NONRELOC) {
        code_reserveregs(fs, 1);
        discharge2reg(fs, e, fs->freereg - 1);
    }
}

static int code_loadbool(FuncState *fs, int a, int op)
{
    code_getlabel(fs);
    return code_ABC(fs, op, a, 0, 0);
}

static void exp2reg(FuncState *fs, expdesc *e, int reg)
{
    discharge2reg(fs, e, reg);
    if (e->k == EK_JMP)
        code_concat(fs, &e->t, e->u.info);
    if (e->t != e->f) {
        int final, p_f = NO_JUMP, p_t = NO_JUMP;
        if (need_value(fs, e->t) || need_value(fs, e->f)) {
            int fj = e->k == EK_JMP ? NO_JUMP : code_jump(fs);
            p_f = code_loadbool(fs, reg, OP_LFALSESKIP);
            p_t = code_loadbool(fs, reg, OP_LOADTRUE);
            code_patchtohere(fs, fj);
        }
        final = code_getlabel(fs);
        patchlistaux(fs, e->f, final, reg, p_f);
        patchlistaux(fs, e->t, final, reg, p_t);
    }
    e->f = e->t = NO_JUMP;
    e->u.info = reg;
    e->k = EK_NONRELOC;
}

void code_exp2nextreg(FuncState *fs, expdesc *e)
{
    code_dischargevars(fs, e);
    code_freeexp(fs, e);
    code_reserveregs(fs, 1);
    exp2reg(fs, e, fs->freereg - 1);
}

int code_exp2anyreg(FuncState *fs, expdesc *e)
{
    code_dischargevars(fs, e);
    if (e->k == EK_NONRELOC) {
        if (e->t == e->f)
            return e->u.info;
        if (e->u.info >= code_nvarstack(fs)) {
            exp2reg(fs, e, e->u.info);
            return e->u.info;
        }
    }
    code_exp2nextreg(fs, e);
    return e->u.info;
}

void code_exp2anyregup(FuncState *fs, expdesc *e)
{
    if (e->k != EK_UPVAL || e->t != e->f)
        code_exp2anyreg(fs, e);
}

void code_exp2val(FuncState *fs, expdesc *e)
{
    if (e->t != e->f)
        code_exp2anyreg(fs, e);
    else
        code_dischargevars(fs, e);
}

/* Put e in k if it is a numeral or string constant; 1 on success with
 * e->u.info the index (fitting in an 8-bit operand). */
static int exp2K(FuncState *fs, expdesc *e)
{
    int info;
    if (e->t != e->f)
        return 0;
    switch (e->k) {
    case EK_KINT:
        info = intK(fs, e->u.ival);
        break;
    case EK_KFLT:
        info = numberK(fs, e->u.nval);
        break;
    case EK_KSTR:
        info = code_stringK(fs, e->u.strval);
        break;
    case EK_K:
        info = e->u.info;
        break;
    default:
        return 0;
    }
    if (info > OP_MAXARG_C)
        return 0;
    e->k = EK_K;
    e->u.info = info;
    return 1;
}

/* e as an RK operand: 1 when it is K[e->u.info], 0 for R[e->u.info]. */
static int exp2RK(FuncState *fs, expdesc *e)
{
    if (exp2K(fs, e))
        return 1;
    code_exp2anyreg(fs, e);
    return 0;
}

static void codeABRK(FuncState *fs, int op, int a, int b, expdesc *ec)
{
    int k = exp2RK(fs, ec);
    code_ABCk(fs, op, a, b, ec->u.info, k);
}

void code_storevar(FuncState *fs, expdesc *var, expdesc *ex)
{
    switch (var->k) {
    case EK_LOCAL:
        code_freeexp(fs, ex);
        exp2reg(fs, ex, var->u.var.ridx);
        return;
    case EK_UPVAL: {
        int e = code_exp2anyreg(fs, ex);
        code_ABC(fs, OP_SETUPVAL, e, var->u.info, 0);
        break;
    }
    case EK_INDEXUP:
        codeABRK(fs, OP_SETTABUP, var->u.ind.t, var->u.ind.idx, ex);
        break;
    case EK_INDEXI:
        codeABRK(fs, OP_SETI, var->u.ind.t, var->u.ind.idx, ex);
        break;
    case EK_INDEXSTR:
        codeABRK(fs, OP_SETFIELD, var->u.ind.t, var->u.ind.idx, ex);
        break;
    case EK_INDEXED:
        codeABRK(fs, OP_SETTABLE, var->u.ind.t, var->u.ind.idx, ex);
        break;
    default:
        break;
    }
    code_freeexp(fs, ex);
}

void code_self(FuncState *fs, expdesc *e, expdesc *key)
{
    int ereg;
    code_exp2anyreg(fs, e);
    ereg = e->u.info;
    code_freeexp(fs, e);
    e->u.info = fs->freereg;
    e->k = EK_NONRELOC;
    code_reserveregs(fs, 2);
    codeABRK(fs, OP_SELF, e->u.info, ereg, key);
    code_freeexp(fs, key);
}

/* A short-string constant fitting an 8-bit operand. */
static int isKstr(FuncState *fs, expdesc *e)
{
    return e->k == EK_K && e->t == e->f && e->u.info <= OP_MAXARG_B &&
           tt_of(&fs->f->k[e->u.info]) == V_SHRSTR;
}

static int isCint(expdesc *e)
{
    return e->k == EK_KINT && e->t == e->f && e->u.ival >= 0 &&
           e->u.ival <= OP_MAXARG_C;
}

void code_indexed(FuncState *fs, expdesc *t, expdesc *k)
{
    if (k->k == EK_KSTR)
        str2K(fs, k);
    if (t->k == EK_UPVAL && !isKstr(fs, k)) {
        /* The key's code is already out: a condition's pending jumps
         * (t[a < b], t[x or y]) would skip a load of the table emitted
         * now, so the key gets its register first. */
        if (k->k == EK_JMP || k->t != k->f)
            code_exp2anyreg(fs, k);
        code_exp2anyreg(fs, t);
    }
    if (t->k == EK_UPVAL) {
        int up = t->u.info;
        t->u.ind.t = (uint8_t)up;
        t->u.ind.idx = (short)k->u.info;
        t->k = EK_INDEXUP;
        return;
    }
    t->u.ind.t = (uint8_t)(t->k == EK_LOCAL ? t->u.var.ridx : t->u.info);
    if (isKstr(fs, k)) {
        t->u.ind.idx = (short)k->u.info;
        t->k = EK_INDEXSTR;
    } else if (isCint(k)) {
        t->u.ind.idx = (short)k->u.ival;
        t->k = EK_INDEXI;
    } else {
        t->u.ind.idx = (short)code_exp2anyreg(fs, k);
        t->k = EK_INDEXED;
    }
}

/* ---- Conditions --------------------------------------------------------- */
static void negatecondition(FuncState *fs, expdesc *e)
{
    instr *pc = getjumpcontrol(fs, e->u.info);
    SETARG_k(*pc, GETARG_k(*pc) ^ 1);
}

/* A jump taken when e's truth equals cond. */
static int jumponcond(FuncState *fs, expdesc *e, int cond)
{
    if (e->k == EK_RELOC) {
        instr ie = code_getinstr(fs, e);
        if (GET_OP(ie) == OP_NOT) {
            removelastinstruction(fs);
            return condjump(fs, OP_TEST, GETARG_B(ie), 0, 0, !cond);
        }
    }
    discharge2anyreg(fs, e);
    code_freeexp(fs, e);
    return condjump(fs, OP_TESTSET, CODE_NOREG, e->u.info, 0, cond);
}

void code_goiftrue(FuncState *fs, expdesc *e)
{
    int pc;
    code_dischargevars(fs, e);
    switch (e->k) {
    case EK_JMP:
        negatecondition(fs, e);
        pc = e->u.info;
        break;
    case EK_K:
    case EK_KFLT:
    case EK_KINT:
    case EK_KSTR:
    case EK_TRUE:
        pc = NO_JUMP;
        break;
    default:
        pc = jumponcond(fs, e, 0);
        break;
    }
    code_concat(fs, &e->f, pc);
    code_patchtohere(fs, e->t);
    e->t = NO_JUMP;
}

void code_goiffalse(FuncState *fs, expdesc *e)
{
    int pc;
    code_dischargevars(fs, e);
    switch (e->k) {
    case EK_JMP:
        pc = e->u.info;
        break;
    case EK_NIL:
    case EK_FALSE:
        pc = NO_JUMP;
        break;
    default:
        pc = jumponcond(fs, e, 1);
        break;
    }
    code_concat(fs, &e->t, pc);
    code_patchtohere(fs, e->f);
    e->f = NO_JUMP;
}

static void codenot(FuncState *fs, expdesc *e)
{
    code_dischargevars(fs, e);
    switch (e->k) {
    case EK_NIL:
    case EK_FALSE:
        e->k = EK_TRUE;
        break;
    case EK_K:
    case EK_KFLT:
    case EK_KINT:
    case EK_KSTR:
    case EK_TRUE:
        e->k = EK_FALSE;
        break;
    case EK_JMP:
        negatecondition(fs, e);
        break;
    case EK_RELOC:
    case EK_NONRELOC:
        discharge2anyreg(fs, e);
        code_freeexp(fs, e);
        e->u.info = code_ABC(fs, OP_NOT, 0, e->u.info, 0);
        e->k = EK_RELOC;
        break;
    default:
        break;
    }
    {
        int tmp = e->f;
        e->f = e->t;
        e->t = tmp;
    }
    removevalues(fs, e->f);
    removevalues(fs, e->t);
}

/* ---- Operators ---------------------------------------------------------- */
static int tonumeral(const expdesc *e, tvalue *v)
{
    if (e->t != e->f)
        return 0;
    if (e->k == EK_KINT) {
        if (v)
            set_int(v, e->u.ival);
        return 1;
    }
    if (e->k == EK_KFLT) {
        if (v)
            set_flt(v, e->u.nval);
        return 1;
    }
    return 0;
}

/* Fold op over two numerals into e1; 0 when it must not be folded. */
static int constfolding(FuncState *fs, int op, expdesc *e1, const expdesc *e2)
{
    tvalue v1, v2, res;
    if (!tonumeral(e1, &v1) || !tonumeral(e2, &v2))
        return 0;
    /* No division by zero, not even a float one that has a value (1/0 is
     * inf): the reference leaves those to run time, where what an error
     * message says of the operand (a constant or not) depends on it. */
    if ((op == LUA_OPDIV || op == LUA_OPIDIV || op == LUA_OPMOD) &&
        (is_int(&v2) ? v2.v.i == 0 : v2.v.n == 0))
        return 0;
    if (!arith_rawarith(fs->ps->L, op, &v1, &v2, &res))
        return 0;
    if (is_int(&res)) {
        e1->k = EK_KINT;
        e1->u.ival = res.v.i;
    } else {
        rt_num n = res.v.n;
        if (n != n || n == 0)
            return 0; /* NaN, or a zero whose sign k would lose */
        e1->k = EK_KFLT;
        e1->u.nval = n;
    }
    return 1;
}

void code_prefix(FuncState *fs, unopr op, expdesc *e, int line)
{
    static const expdesc zero = {EK_KINT, {0}, NO_JUMP, NO_JUMP};
    code_dischargevars(fs, e);
    switch (op) {
    case OPR_MINUS:
    case OPR_BNOT:
        if (constfolding(fs, op == OPR_MINUS ? LUA_OPUNM : LUA_OPBNOT, e,
                         &zero))
            break;
        /* fall through */
    case OPR_LEN: {
        int r = code_exp2anyreg(fs, e);
        int o = op == OPR_MINUS ? OP_UNM : op == OPR_BNOT ? OP_BNOT : OP_LEN;
        code_freeexp(fs, e);
        e->u.info = code_ABC(fs, o, 0, r, 0);
        e->k = EK_RELOC;
        code_fixline(fs, line);
        break;
    }
    case OPR_NOT:
        codenot(fs, e);
        break;
    default:
        break;
    }
}

void code_infix(FuncState *fs, binopr op, expdesc *v)
{
    code_dischargevars(fs, v);
    switch (op) {
    case OPR_AND:
        code_goiftrue(fs, v);
        break;
    case OPR_OR:
        code_goiffalse(fs, v);
        break;
    case OPR_CONCAT:
        code_exp2nextreg(fs, v);
        break;
    case OPR_EQ:
    case OPR_NE:
        if (!tonumeral(v, NULL))
            code_exp2anyreg(fs, v);
        break;
    default: /* arithmetic, bitwise, order: numerals wait for folding */
        if (!tonumeral(v, NULL))
            code_exp2anyreg(fs, v);
        break;
    }
}

/* An integer constant usable as an sB/sC immediate. */
static int isSCint(const expdesc *e, int *imm)
{
    if (e->k == EK_KINT && e->t == e->f && e->u.ival >= MIN_SC &&
        e->u.ival <= MAX_SC) {
        *imm = (int)e->u.ival;
        return 1;
    }
    return 0;
}

static void codebinexpval(FuncState *fs, int op, expdesc *e1, expdesc *e2,
                          int line)
{
    int r2 = code_exp2anyreg(fs, e2);
    int r1 = code_exp2anyreg(fs, e1);
    freeexps(fs, e1, e2);
    e1->u.info = code_ABC(fs, op, 0, r1, r2);
    e1->k = EK_RELOC;
    code_fixline(fs, line);
}

static void codearith(FuncState *fs, binopr opr, expdesc *e1, expdesc *e2,
                      int line)
{
    int imm;
    /* x + c, and x - c as x + (-c) (the k bit says so: the slow path
     * is a subtraction of c, with its metamethod and its message). */
    if ((opr == OPR_ADD || opr == OPR_SUB) && isSCint(e2, &imm) &&
        (opr == OPR_ADD || (-imm >= MIN_SC && -imm <= MAX_SC))) {
        int sub = opr == OPR_SUB;
        int r1 = code_exp2anyreg(fs, e1);
        code_freeexp(fs, e1);
        e1->u.info = code_ABCk(fs, OP_ADDI, 0, r1,
                               (sub ? -imm : imm) + OP_OFFSET_SC, sub);
        e1->k = EK_RELOC;
        code_fixline(fs, line);
        return;
    }
    if (opr <= OPR_BXOR && tonumeral(e2, NULL) && exp2K(fs, e2)) {
        int r1 = code_exp2anyreg(fs, e1);
        code_freeexp(fs, e1);
        e1->u.info = code_ABC(fs, OP_ADDK + (int)opr, 0, r1, e2->u.info);
        e1->k = EK_RELOC;
        code_fixline(fs, line);
        return;
    }
    codebinexpval(fs, OP_ADD + (int)opr, e1, e2, line);
}

static void codeconcat(FuncState *fs, expdesc *e1, expdesc *e2, int line)
{
    instr *ie2 = previousinstruction(fs);
    if (GET_OP(*ie2) == OP_CONCAT && e2->k == EK_NONRELOC &&
        GETARG_A(*ie2) == e2->u.info && e2->u.info == e1->u.info + 1) {
        int n = GETARG_B(*ie2);
        code_freeexp(fs, e2);
        SETARG_A(*ie2, e1->u.info);
        SETARG_B(*ie2, n + 1);
    } else {
        code_ABC(fs, OP_CONCAT, e1->u.info, 2, 0);
        code_freeexp(fs, e2);
        code_fixline(fs, line);
    }
}

static void codeorder(FuncState *fs, binopr opr, expdesc *e1, expdesc *e2)
{
    int imm, r1, r2, op;
    /* a > b is b < a, a >= b is b <= a; the metamethod gets (b, a) */
    int lt = opr == OPR_LT || opr == OPR_GT;
    expdesc *lo = (opr == OPR_LT || opr == OPR_LE) ? e1 : e2;
    expdesc *hi = lo == e1 ? e2 : e1;
    if (isSCint(hi, &imm)) {
        r1 = code_exp2anyreg(fs, lo);
        r2 = imm + OP_OFFSET_SC;
        op = lt ? OP_LTI : OP_LEI;
        code_freeexp(fs, lo);
    } else if (isSCint(lo, &imm)) {
        r1 = code_exp2anyreg(fs, hi);
        r2 = imm + OP_OFFSET_SC;
        op = lt ? OP_GTI : OP_GEI;
        code_freeexp(fs, hi);
    } else {
        /* e1 was evaluated first: e2 goes to a register after it */
        int a = code_exp2anyreg(fs, e2);
        int b = code_exp2anyreg(fs, e1);
        r1 = lo == e1 ? b : a;
        r2 = lo == e1 ? a : b;
        op = lt ? OP_LT : OP_LE;
        freeexps(fs, e1, e2);
    }
    e1->u.info = condjump(fs, op, r1, r2, 0, 1);
    e1->k = EK_JMP;
}

static void codeeq(FuncState *fs, binopr opr, expdesc *e1, expdesc *e2)
{
    int r1, b, op, imm;
    int k = opr == OPR_EQ;
    if (isSCint(e2, &imm)) {
        r1 = code_exp2anyreg(fs, e1);
        op = OP_EQI;
        b = imm + OP_OFFSET_SC;
        code_freeexp(fs, e1);
    } else if (exp2K(fs, e2)) {
        r1 = code_exp2anyreg(fs, e1);
        op = OP_EQK;
        b = e2->u.info;
        code_freeexp(fs, e1);
    } else {
        b = code_exp2anyreg(fs, e2);
        r1 = code_exp2anyreg(fs, e1);
        op = OP_EQ;
        freeexps(fs, e1, e2);
    }
    e1->u.info = condjump(fs, op, r1, b, 0, k);
    e1->k = EK_JMP;
}

void code_posfix(FuncState *fs, binopr opr, expdesc *e1, expdesc *e2, int line)
{
    code_dischargevars(fs, e2);
    if (opr <= OPR_SHR && constfolding(fs, (int)opr, e1, e2))
        return;
    switch (opr) {
    case OPR_AND:
        code_concat(fs, &e2->f, e1->f);
        *e1 = *e2;
        break;
    case OPR_OR:
        code_concat(fs, &e2->t, e1->t);
        *e1 = *e2;
        break;
    case OPR_CONCAT:
        code_exp2nextreg(fs, e2);
        codeconcat(fs, e1, e2, line);
        break;
    case OPR_EQ:
    case OPR_NE:
        codeeq(fs, opr, e1, e2);
        break;
    case OPR_LT:
    case OPR_LE:
    case OPR_GT:
    case OPR_GE:
        codeorder(fs, opr, e1, e2);
        break;
    default:
        codearith(fs, opr, e1, e2, line);
        break;
    }
}

/* ---- Tables ------------------------------------------------------------- */
void code_settablesize(FuncState *fs, int pc, int ra, int asize, int hsize)
{
    instr *inst = &fs->f->code[pc];
    int rb = 0, rc, extra;
    if (hsize != 0) {
        int lg = 0;
        while ((1 << lg) < hsize)
            lg++;
        rb = lg + 1;
    }
    rc = asize % (OP_MAXARG_C + 1);
    extra = asize / (OP_MAXARG_C + 1);
    *inst = CREATE_ABCk(OP_NEWTABLE, ra, rb, rc, 0);
    *(inst + 1) = CREATE_Ax(OP_EXTRAARG, extra);
}

void code_setlist(FuncState *fs, int base, int nelems, int tostore)
{
    if (tostore == LUA_MULTRET)
        tostore = 0;
    code_ABC(fs, OP_SETLIST, base, tostore, nelems % (OP_MAXARG_C + 1));
    code_extraarg(fs, nelems / (OP_MAXARG_C + 1));
    fs->freereg = (uint8_t)(base + 1);
}

/* ---- Finishing ---------------------------------------------------------- */
void code_finish(FuncState *fs)
{
    proto *p = fs->f;
    for (int i = 0; i < fs->pc; i++) {
        instr *pc = &p->code[i];
        switch (GET_OP(*pc)) {
        case OP_RETURN0:
        case OP_RETURN1:
            if (!fs->needclose)
                break;
            *pc = CREATE_ABCk(OP_RETURN, GETARG_A(*pc), GETARG_B(*pc), 0, 1);
            break;
        case OP_RETURN:
        case OP_TAILCALL:
            if (fs->needclose)
                SETARG_k(*pc, 1);
            break;
        default:
            break;
        }
    }
}
