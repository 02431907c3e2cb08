/*
 * vm.c — the interpreter loop (vm/opcodes.h gives every instruction's
 * meaning) with the fast paths inline; the slow paths that consult
 * metamethods (indexing, length, concatenation) are in vm/tm.c, the
 * arithmetic and comparisons in vm/arith.c.
 *
 * Register discipline: `base` is ci->func + 1 and is re-read after
 * anything that may move the stack (any call, any allocation).  Before
 * such an operation the loop saves pc in ci->u.l.savedpc and sets
 * L->top = ci->top (Protect), so the collector sees every register and
 * errors know the line.  The exception is the values left by an
 * instruction with an open result (CALL/VARARG with C == 0): then L->top
 * marks their end until the consuming instruction has used them.
 *
 * Lua-to-Lua calls and returns stay inside one vm_execute: a call
 * switches `ci` and jumps to the start, a return pops back to the caller
 * unless the frame was entered from C (CIST_FRESH).
 */
#include "vm/vm.h"
#include "vm/arith.h"

#include <math.h>
#include <string.h>

#include "gc/gc.h"
#include "gc/pace.h"
#include "port/libm.h"
#include "vm/debug.h"
#include "vm/func.h"
#include "vm/opcodes.h"
#include "vm/str.h"
#include "vm/tab.h"
#include "vm/tm.h"

/* The table has no __index (none, or its absence cached in the flags). */
static vm_inline int no_index_tm(const table *h)
{
    const table *mt = tab_metatable(h);
    return mt == NULL || (mt->flags & (1u << TM_INDEX));
}

/* A method through its class: h's metatable has an __index that is a
 * table holding key (a short string) raw, or NULL (then tm_finishget
 * walks the chain from the start, as it would have).  One level inline:
 * bench/oo.lua's two method calls an iteration went through
 * tm_finishget, 87 instructions each on the board, built for size. */
static vm_inline const tvalue *class_method(global_State *g, const table *h,
                                            str *key)
{
    table *mt = tab_metatable(h);
    if (mt == NULL || (mt->flags & (1u << TM_INDEX)))
        return NULL;
    const tvalue *idx = tab_getshortstr(mt, g->tmname[TM_INDEX]);
    if (!is_table(idx))
        return NULL;
    const tvalue *m = tab_getshortstr(gco2tab(gc_of(idx)), key);
    return is_nil(m) ? NULL : m;
}

/* A raw lookup with the array part and short strings inline. */
static vm_inline const tvalue *fastget(table *h, const tvalue *key)
{
    if (is_int(key) && tab_inarray(h, key->v.i))
        return &h->array[key->v.i - 1];
    if (tt_of(key) == V_SHRSTR)
        return tab_getshortstr(h, gco2str(gc_of(key)));
    return tab_get(h, key);
}

/* ---- Numeric for loops -------------------------------------------------- */

/* The integer limit of a loop from init by step; 1 when the loop does
 * not run at all.  A float limit is clipped to the integer range. */
static int forlimit(lua_State *L, rt_int init, const tvalue *lim, rt_int *p,
                    rt_int step)
{
    if (!arith_tointeger(lim, p, step < 0 ? 2 : 1)) {
        rt_num f;
        if (!arith_tonumber(lim, &f))
            dbg_forerror(L, lim, "limit");
        /* out of the integer range (or NaN) */
        if (f > 0) {
            if (step < 0)
                return 1;
            *p = RT_INT_MAX;
        } else {
            if (step > 0)
                return 1;
            *p = RT_INT_MIN;
        }
    }
    return step > 0 ? init > *p : init < *p;
}

/* FORPREP: 1 when the loop is skipped.  Integer loops keep the
 * iteration count in R[A+1], so the index never overflows. */
static int forprep(lua_State *L, tvalue *ra)
{
    tvalue *pinit = ra, *plimit = ra + 1, *pstep = ra + 2;
    if (is_int(pinit) && is_int(pstep)) {
        rt_int init = pinit->v.i, step = pstep->v.i, limit;
        rt_uint count;
        if (step == 0)
            do_runerror(L, "'for' step is zero");
        set_int(ra + 3, init);
        if (forlimit(L, init, plimit, &limit, step))
            return 1;
        if (step > 0) {
            count = (rt_uint)limit - (rt_uint)init;
            if (step != 1)
                count /= (rt_uint)step;
        } else {
            count = (rt_uint)init - (rt_uint)limit;
            /* -(step + 1) + 1 avoids negating the smallest integer */
            count /= (rt_uint)(-(step + 1)) + 1u;
        }
        set_int(plimit, (rt_int)count);
        return 0;
    } else {
        rt_num init, limit, step;
        if (vm_unlikely(!arith_tonumber(plimit, &limit)))
            dbg_forerror(L, plimit, "limit");
        if (vm_unlikely(!arith_tonumber(pstep, &step)))
            dbg_forerror(L, pstep, "step");
        if (vm_unlikely(!arith_tonumber(pinit, &init)))
            dbg_forerror(L, pinit, "initial value");
        if (step == 0)
            do_runerror(L, "'for' step is zero");
        if (step > 0 ? limit < init : init < limit)
            return 1;
        set_flt(pinit, init);
        set_flt(plimit, limit);
        set_flt(pstep, step);
        set_flt(ra + 3, init);
        return 0;
    }
}

/* ---- Pieces of the loop kept out of line -------------------------------- */

/* The call hook of a Lua function starting (pc at its first
 * instruction; hooks see pc as already advanced). */
rt_cold static void hookcall(lua_State *L, CallInfo *ci)
{
    L->oldpc = 0;
    if (L->hookmask & LUA_MASKCALL) {
        int event =
            (ci->callstatus & CIST_TAIL) ? LUA_HOOKTAILCALL : LUA_HOOKCALL;
        proto *p = ci_func(ci)->p;
        ci->u.l.savedpc++;
        dbg_hook(L, event, -1, 1, p->numparams);
        ci->u.l.savedpc--;
    }
}

/* VARARGPREP (lang/verify.h checks where it may be): move the function
 * and its fixed parameters above the arguments, leaving the extra
 * arguments below the new frame. */
static void varargprep(lua_State *L, CallInfo *ci, int nfix)
{
    proto *p = ci_func(ci)->p;
    int actual = (int)(L->top - ci->func) - 1;
    int nextra = actual - nfix;
    int j;
    tvalue *func;
    ci->u.l.nextraargs = nextra;
    do_checkstack(L, p->maxstacksize + 1);
    func = ci->func;
    set_obj(L->top++, func);
    for (j = 1; j <= nfix; j++) {
        set_obj(L->top++, func + j);
        set_nil(func + j);
    }
    ci->func += actual + 1;
    ci->top += actual + 1;
    ci->callstatus |= CIST_VARARG;
}

/* CLOSURE: a new Lua closure anchored in ra. */
static void pushclosure(lua_State *L, proto *p, upval **encup, tvalue *base,
                        tvalue *ra)
{
    int n = p->sizeupvalues, j;
    lclosure *ncl = fn_newlclosure(L, n);
    if (ncl == NULL)
        do_memerror(L);
    ncl->p = p;
    gc_objbarrier(L, ncl, p); /* ncl may be born black */
    set_gc(ra, ncl, V_LCL);
    for (j = 0; j < n; j++) {
        upvaldesc *d = &p->upvalues[j];
        upval *uv;
        if (d->instack) {
            uv = fn_findupval(L, base + d->idx);
            if (uv == NULL)
                do_memerror(L);
        } else {
            uv = encup[d->idx];
        }
        ncl->upvals[j] = uv;
        gc_objbarrier(L, ncl, uv);
    }
}

/* SETLIST's stores, n values above ra into R[A][last+1 ..].  R[A] is
 * the constructor's table unless debug.setlocal replaced it. */
static void setlist(lua_State *L, tvalue *ra, int n, uint32_t last)
{
    table *h;
    int j;
    if (vm_unlikely(!is_table(ra)))
        dbg_typeerror(L, ra, "index");
    h = gco2tab(gc_of(ra));
    if (last + (uint32_t)n > h->asize) {
        int rc = tab_resize(L, h, last + (uint32_t)n, tab_sizenode(h));
        if (rc != TAB_OK)
            do_memerror(L);
    }
    if (n > 0 && last + (uint32_t)n <= h->asize) { /* the usual */
        tvalue *a = h->array + last; /* keys last + 1 .. last + n */
        for (j = 1; j <= n; j++) {
            if (is_nil(ra + j))
                set_empty(a + j - 1);
            else
                set_obj(a + j - 1, ra + j);
            gc_barrier(L, h, ra + j);
        }
        return;
    }
    for (j = 1; j <= n; j++)
        tm_rawsetint(L, h, (rt_int)(last + (uint32_t)j), ra + j);
}

/* Comparison against an immediate integer, through __lt/__le. */
static int order_imm(lua_State *L, const tvalue *ra, int imm, int flip,
                     tm_event e)
{
    tvalue v;
    set_int(&v, imm);
    return flip ? tm_callorder(L, &v, ra, e) : tm_callorder(L, ra, &v, e);
}

/* ---- Inline arithmetic helpers --------------------------------------- */

#define num_floor(x) LIBM(floor)(x)
#define num_pow(a, b) LIBM_K(pow)(a, b)

/* In the 64-bit model on a 32-bit processor, C's 64-bit / and % are
 * calls to libgcc (__aeabi_ldivmod: about 45 instructions on the M3, many
 * more on the M0), where the operands of most programs, counters and
 * moduli, fit in 32 bits and the processor's own divide (or the M0's
 * 32-bit libgcc routine) gives the same quotient and remainder.
 * int_div32 says whether to take that path: both operands in int32's
 * range (b == -1 is handled before, so INT32_MIN / -1 never happens).
 * arrays.lua in the 64-bit model on mps2-an385: 51k modulos, 2.8M of its
 * 29.4M instructions in libgcc before.  There the two are functions of
 * their own (they were calls to libgcc anyway): inlined, their registers
 * grew vm_execute's frame on the M0 from 168 to 192 bytes, and with it the
 * C stack of every Lua call made from C (microbit's 64-bit model ran out
 * of it in tests/lua/interrupt.lua).  arith.c's arith_mod and arith_idiv
 * (the API, constant folding) keep the 64-bit division: not hot. */
#if RTLUA_NUM == 64 && UINTPTR_MAX <= 0xffffffffu
#define int_div32(a, b)                                                       \
    ((rt_int)(int32_t)(a) == (a) && (rt_int)(int32_t)(b) == (b))
#define int_divinline vm_noinline
#else
#define int_div32(a, b) 0
#define int_divinline vm_inline
#endif

/* b != 0 */
static int_divinline rt_int int_mod(rt_int a, rt_int b)
{
    rt_int r;
    if (vm_unlikely((rt_uint)b + 1u <= 1u)) /* b == -1: avoid the trap */
        return 0;
    r = int_div32(a, b) ? (rt_int)((int32_t)a % (int32_t)b) : a % b;
    if (r != 0 && (r ^ b) < 0)
        r += b;
    return r;
}

/* b != 0 */
static int_divinline rt_int int_idiv(rt_int a, rt_int b)
{
    rt_int q;
    if (vm_unlikely((rt_uint)b + 1u <= 1u))
        return (rt_int)(0u - (rt_uint)a);
    if (int_div32(a, b)) {
        int32_t x = (int32_t)a, y = (int32_t)b, q32 = x / y;
        return (rt_int)q32 - ((x != q32 * y && (x ^ y) < 0) ? 1 : 0);
    }
    q = a / b;
    if ((a % b != 0) && (a ^ b) < 0)
        q -= 1;
    return q;
}

#define flt_div(a, b) ((a) / (b))
#define flt_pow(a, b) ((b) == 2 ? (a) * (a) : num_pow(a, b))
#define flt_idiv(a, b) num_floor((a) / (b))
#define op_of_flt_div LUA_OPDIV
#define op_of_flt_pow LUA_OPPOW

/* ---- The loop ----------------------------------------------------------- */

#define RA(i) (base + GETARG_A(i))
#define RB(i) (base + GETARG_B(i))
#define RC(i) (base + GETARG_C(i))
#define KB(i) (k + GETARG_B(i))
#define KC(i) (k + GETARG_C(i))
#define RKC(i) (GETARG_k(i) ? k + GETARG_C(i) : base + GETARG_C(i))

#define savepc() (ci->u.l.savedpc = pc)
#define savestate() (savepc(), L->top = ci->top)
#define updatebase() (base = ci->func + 1)
#define updatetrap() settrap01(ci->u.l.trap)

/* Anything that may allocate, call or raise. */
#define Protect(exp)                                                          \
    do {                                                                      \
        savestate();                                                          \
        exp;                                                                  \
        updatebase();                                                         \
        updatetrap();                                                         \
        gc_thread_ran(L);                                                     \
    } while (0)

/* The same, keeping L->top (open results in use). */
#define ProtectNT(exp)                                                        \
    do {                                                                      \
        savepc();                                                             \
        exp;                                                                  \
        updatebase();                                                         \
        updatetrap();                                                         \
        gc_thread_ran(L);                                                     \
    } while (0)

/* An allocation whose result goes to ra, the first free register (the
 * compiler puts a new table or closure there): the stack's top is `lim`
 * while it allocates (ra, or ra + 1 once ra holds the new object), so that
 * a collection inside marks no dead register above the live ones (atomic
 * clears them instead: lua5.4 frees garbage that a dead register still
 * names, and so does rtlua). */
#define ProtectAt(lim, exp)                                                   \
    do {                                                                      \
        savepc();                                                             \
        L->top = (lim);                                                       \
        exp;                                                                  \
        L->top = ci->top;                                                     \
        updatebase();                                                         \
        updatetrap();                                                         \
        gc_thread_ran(L);                                                     \
    } while (0)

/* A safe point's slow path (G(L)->safeflags up): a pending interrupt
 * raises (rtlua_interrupt: it needs no hook, so it stops a hook's or a
 * finalizer's loop too), and then the tick's collector step. */
static void safepoint_(lua_State *L)
{
    if (G(L)->interrupt)
        dbg_interrupted(L);
    if (G(L)->stepflag)
        pace_safepoint_(L);
}

/* A safe point after an instruction that left its result in ra, the first
 * free register (a new table, closure or concatenation): registers above
 * it are dead, and a step there does not mark them. */
#define safepoint_above(ra)                                                   \
    do {                                                                      \
        if (vm_unlikely(G(L)->safeflags)) {                                   \
            ProtectAt((ra) + 1, safepoint_(L));                               \
        }                                                                     \
    } while (0)

/* A safe point: a collector step when the tick asked for one, or the
 * interrupt's error (safepoint_). */
#define safepoint()                                                           \
    do {                                                                      \
        if (vm_unlikely(G(L)->safeflags)) {                                   \
            Protect(safepoint_(L));                                           \
        }                                                                     \
    } while (0)

/* The JMP after a test, taken: a backward one is a safe point, as
 * OP_JMP's is (repeat ... until cond loops back through it), taken at
 * the JMP, so that an error there (an interrupt) names the test's line. */
#define dotestjump(ni)                                                        \
    do {                                                                      \
        int sj_ = GETARG_sJ(ni);                                              \
        if (sj_ < 0)                                                          \
            safepoint();                                                      \
        pc += sj_ + 1;                                                        \
    } while (0)

/* The instruction after a comparison is its JMP: take it or skip it. */
#define docondjump(cond)                                                      \
    do {                                                                      \
        if ((cond) != GETARG_k(i))                                            \
            pc++;                                                             \
        else                                                                  \
            dotestjump(*pc);                                                  \
    } while (0)

/* Arithmetic with integer and float fast paths; `v2` is the second
 * operand, `op` the LUA_OP code for the slow path. */
#define op_arith_aux(v1, v2, iop, fop, op)                                    \
    do {                                                                      \
        const tvalue *a_ = (v1), *b_ = (v2);                                  \
        tvalue *ra_ = RA(i);                                                  \
        if (is_int(a_) && is_int(b_)) {                                       \
            rt_uint x_ = (rt_uint)a_->v.i, y_ = (rt_uint)b_->v.i;             \
            set_int(ra_, (rt_int)(x_ iop y_));                                \
        } else if (is_flt(a_) && is_flt(b_)) {                                \
            set_flt(ra_, a_->v.n fop b_->v.n);                                \
        } else if (vm_isnumber(a_) && vm_isnumber(b_)) {                      \
            rt_num x_ = is_int(a_) ? (rt_num)a_->v.i : a_->v.n;               \
            rt_num y_ = is_int(b_) ? (rt_num)b_->v.i : b_->v.n;               \
            set_flt(ra_, x_ fop y_);                                          \
        } else                                                                \
            Protect(arith_arith(L, op, a_, b_, ra_));                         \
    } while (0)

/* Float-only operations (/ and ^): any two numbers. */
#define op_float(v1, v2, fop)                                                 \
    do {                                                                      \
        const tvalue *a_ = (v1), *b_ = (v2);                                  \
        tvalue *ra_ = RA(i);                                                  \
        if (vm_isnumber(a_) && vm_isnumber(b_)) {                             \
            rt_num x_ = is_int(a_) ? (rt_num)a_->v.i : a_->v.n;               \
            rt_num y_ = is_int(b_) ? (rt_num)b_->v.i : b_->v.n;               \
            set_flt(ra_, fop(x_, y_));                                        \
        } else                                                                \
            Protect(arith_arith(L, op_of_##fop, a_, b_, ra_));                \
    } while (0)

/* Floor division and modulo: integers unless a float is involved; an
 * integer divisor of 0 takes the slow path, which raises. */
#define op_floor(v1, v2, iop, fop, op)                                        \
    do {                                                                      \
        const tvalue *a_ = (v1), *b_ = (v2);                                  \
        tvalue *ra_ = RA(i);                                                  \
        if (is_int(a_) && is_int(b_) && b_->v.i != 0)                         \
            set_int(ra_, iop(a_->v.i, b_->v.i));                              \
        else if (vm_isnumber(a_) && vm_isnumber(b_) &&                        \
                 !(is_int(a_) && is_int(b_))) {                               \
            rt_num x_ = is_int(a_) ? (rt_num)a_->v.i : a_->v.n;               \
            rt_num y_ = is_int(b_) ? (rt_num)b_->v.i : b_->v.n;               \
            set_flt(ra_, fop(x_, y_));                                        \
        } else                                                                \
            Protect(arith_arith(L, op, a_, b_, ra_));                         \
    } while (0)

#define op_bitwise(v1, v2, iop, op)                                           \
    do {                                                                      \
        const tvalue *a_ = (v1), *b_ = (v2);                                  \
        tvalue *ra_ = RA(i);                                                  \
        if (is_int(a_) && is_int(b_))                                         \
            set_int(ra_, (rt_int)((rt_uint)a_->v.i iop(rt_uint) b_->v.i));    \
        else                                                                  \
            Protect(arith_arith(L, op, a_, b_, ra_));                         \
    } while (0)

#define op_order(cmp, slowf)                                                  \
    do {                                                                      \
        const tvalue *a_ = RA(i), *b_ = RB(i);                                \
        int c_;                                                               \
        if (is_int(a_) && is_int(b_))                                         \
            c_ = a_->v.i cmp b_->v.i;                                         \
        else if (is_flt(a_) && is_flt(b_))                                    \
            c_ = a_->v.n cmp b_->v.n;                                         \
        else                                                                  \
            Protect(c_ = slowf(L, a_, b_));                                   \
        docondjump(c_);                                                       \
    } while (0)

#define op_orderI(cmp, flip, e)                                               \
    do {                                                                      \
        const tvalue *a_ = RA(i);                                             \
        int im_ = GETARG_sB(i), c_;                                           \
        if (is_int(a_))                                                       \
            c_ = a_->v.i cmp im_;                                             \
        else if (is_flt(a_))                                                  \
            c_ = a_->v.n cmp(rt_num) im_;                                     \
        else                                                                  \
            Protect(c_ = order_imm(L, a_, im_, flip, e));                     \
        docondjump(c_);                                                       \
    } while (0)

/* RTLUA_VM_SWITCH forces the portable switch (tests it on GCC too).
 *
 * With computed gotos, the hooks' trap is the dispatch table itself: dt
 * is disptab (vmtabs[0]) while no hook is on, and traptab (vmtabs[1]),
 * whose every entry is the trap's label (vm_trap), while one is.  The
 * fetch then tests nothing, and one register holds both the table and
 * the trap (the 64-bit model had no register left for the table: a
 * literal load every dispatch).  vm_trap steps back to the instruction,
 * lets the hook see it (dbg_traceexec) and dispatches it through
 * disptab. */
#if defined(__GNUC__) && !defined(RTLUA_VM_SWITCH)
#define VM_COMPUTED_GOTO 1
#define settrap(x) (dt = vmtabs[(x) != 0])
#define settrap01(x) (dt = vmtabs[x]) /* x is 0 or 1 */
#define trapon() (dt != vmtabs[0])
#define vmdispatch(o) goto *dt[o];
#define vmcase(l) L_##l:
#define vmbreak                                                               \
    do {                                                                      \
        vmfetch();                                                            \
        vmdispatch(GET_OP(i));                                                \
    } while (0)
#define vmfetch() (i = *(pc++))
#else
#define VM_COMPUTED_GOTO 0
#define settrap(x) (trap = (x))
#define settrap01(x) (trap = (x))
#define trapon() (trap)
#define vmdispatch(o) switch (o)
#define vmcase(l) case l:
#define vmbreak break
#define vmfetch()                                                             \
    do {                                                                      \
        if (vm_unlikely(trap)) {                                              \
            trap = dbg_traceexec(L, pc);                                      \
            updatebase();                                                     \
        }                                                                     \
        i = *(pc++);                                                          \
    } while (0)
#endif

/* GCC merges the dispatch at the end of every case into one indirect
 * jump unless told not to; one per case predicts better and saves a jump
 * an instruction. */
#if VM_COMPUTED_GOTO && !defined(__clang__)
#define VM_EXECUTE_ATTR __attribute__((optimize("no-crossjumping")))
#else
#define VM_EXECUTE_ATTR
#endif

VM_EXECUTE_ATTR void vm_execute(lua_State *L, CallInfo *ci)
{
    lclosure *cl;
    const tvalue *k;
    tvalue *base;
    const instr *pc;
    instr i;
#if VM_COMPUTED_GOTO
    /* disptab, then traptab, each of 128 entries: a 0 or 1 picks one
     * with a shift and an add */
#define OP_LABEL(name, fmt) &&L_OP_##name,
#define OP_TRAP(name, fmt) &&vm_trap,
    static const void *const vmtabs[2][128] = {{OP_LIST(OP_LABEL)},
                                               {OP_LIST(OP_TRAP)}};
#undef OP_LABEL
#undef OP_TRAP
    _Static_assert(OP_NUM <= 128, "an opcode is 7 bits");
    const void *const *dt;
#else
    int trap;
#endif
    /* Entered from C, which may have run a collector step on another
     * thread that scanned this stack.  A Lua call or return inside the loop
     * needs no new mark: what ran meanwhile (an allocation's step, a call
     * hook, a safe point's finalizers, a C function) marked it. */
    gc_thread_ran(L);
    settrap(L->hookmask);
    goto trapset;
startfunc: /* a call in the loop: its do_precall set the frame's trap to
            * L->hookmask just now (any non-zero value becomes 1 below,
            * before anything reads it as settrap01's index) */
    if (vm_likely(ci->u.l.trap == 0)) {
        settrap01(0);
        cl = ci_func(ci);
        pc = ci->u.l.savedpc;
#if VM_COMPUTED_GOTO
        k = cl->p->k;
        base = ci->func + 1;
        vmbreak;
#else
        goto enter;
#endif
    }
    settrap01(1);
trapset:
    cl = ci_func(ci);
    pc = ci->u.l.savedpc;
    if (vm_unlikely(trapon())) {
        if (pc == cl->p->code) {
            if (cl->p->is_vararg)
                settrap(0); /* the call hook runs after VARARGPREP */
            else
                hookcall(L, ci);
        }
        gc_thread_ran(L);
        ci->u.l.trap = 1;
    }
    goto enter;
returning:
#if VM_COMPUTED_GOTO
    if (vm_likely(ci->u.l.trap == 0)) { /* as at startfunc */
        settrap01(0);
        cl = ci_func(ci);
        pc = ci->u.l.savedpc;
        k = cl->p->k;
        base = ci->func + 1;
        vmbreak;
    }
#endif
    settrap01(ci->u.l.trap);
    cl = ci_func(ci);
    pc = ci->u.l.savedpc;
enter:
    k = cl->p->k;
    base = ci->func + 1;
    for (;;) {
        vmfetch();
        vmdispatch(GET_OP(i))
        {
            vmcase(OP_MOVE)
            {
                set_obj(RA(i), RB(i));
                vmbreak;
            }
            vmcase(OP_LOADI)
            {
                set_int(RA(i), (rt_int)GETARG_sBx(i));
                vmbreak;
            }
            vmcase(OP_LOADF)
            {
                set_flt(RA(i), (rt_num)GETARG_sBx(i));
                vmbreak;
            }
            vmcase(OP_LOADK)
            {
                set_obj(RA(i), k + GETARG_Bx(i));
                vmbreak;
            }
            vmcase(OP_LOADKX)
            {
                set_obj(RA(i), k + GETARG_Ax(*pc));
                pc++;
                vmbreak;
            }
            vmcase(OP_LOADFALSE)
            {
                set_bool(RA(i), 0);
                vmbreak;
            }
            vmcase(OP_LFALSESKIP)
            {
                set_bool(RA(i), 0);
                pc++;
                vmbreak;
            }
            vmcase(OP_LOADTRUE)
            {
                set_bool(RA(i), 1);
                vmbreak;
            }
            vmcase(OP_LOADNIL)
            {
                tvalue *ra = RA(i);
                int b = GETARG_B(i);
                do {
                    set_nil(ra++);
                } while (b--);
                vmbreak;
            }
            vmcase(OP_GETUPVAL)
            {
                set_obj(RA(i), cl->upvals[GETARG_B(i)]->v);
                vmbreak;
            }
            vmcase(OP_SETUPVAL)
            {
                upval *uv = cl->upvals[GETARG_B(i)];
                tvalue *ra = RA(i);
                set_obj(uv->v, ra);
                gc_barrier(L, uv, ra);
                vmbreak;
            }
            vmcase(OP_GETTABUP)
            {
                const tvalue *up = cl->upvals[GETARG_B(i)]->v;
                const tvalue *key = KC(i);
                const tvalue *slot = NULL;
                if (vm_likely(is_table(up))) {
                    table *h = gco2tab(gc_of(up));
                    slot = tab_getshortstr_read(h, gco2str(gc_of(key)));
                    if (vm_likely(!is_nil(slot))) {
                        set_obj(RA(i), slot);
                        vmbreak;
                    }
                    if (no_index_tm(h)) {
                        set_nil(RA(i));
                        vmbreak;
                    }
                }
                Protect(tm_finishget(L, up, key, RA(i), slot));
                vmbreak;
            }
            vmcase(OP_GETTABLE)
            {
                const tvalue *rb = RB(i), *rc = RC(i);
                const tvalue *slot = NULL;
                if (vm_likely(is_table(rb))) {
                    table *h = gco2tab(gc_of(rb));
                    slot = fastget(h, rc);
                    if (!is_nil(slot)) {
                        set_obj(RA(i), slot);
                        vmbreak;
                    }
                    if (no_index_tm(h)) {
                        set_nil(RA(i));
                        vmbreak;
                    }
                }
                Protect(tm_finishget(L, rb, rc, RA(i), slot));
                vmbreak;
            }
            vmcase(OP_GETI)
            {
                const tvalue *rb = RB(i);
                const tvalue *slot = NULL;
                int c = GETARG_C(i);
                tvalue key;
                if (vm_likely(is_table(rb))) {
                    table *h = gco2tab(gc_of(rb));
                    slot = tab_getint(h, c);
                    if (!is_nil(slot)) {
                        set_obj(RA(i), slot);
                        vmbreak;
                    }
                    if (no_index_tm(h)) {
                        set_nil(RA(i));
                        vmbreak;
                    }
                }
                set_int(&key, c);
                Protect(tm_finishget(L, rb, &key, RA(i), slot));
                vmbreak;
            }
            vmcase(OP_GETFIELD)
            {
                const tvalue *rb = RB(i), *key = KC(i);
                const tvalue *slot = NULL;
                if (vm_likely(is_table(rb))) {
                    table *h = gco2tab(gc_of(rb));
                    slot = tab_getshortstr_read(h, gco2str(gc_of(key)));
                    if (!is_nil(slot)) {
                        set_obj(RA(i), slot);
                        vmbreak;
                    }
                    if (no_index_tm(h)) {
                        set_nil(RA(i));
                        vmbreak;
                    }
                }
                Protect(tm_finishget(L, rb, key, RA(i), slot));
                vmbreak;
            }
            vmcase(OP_SETTABUP)
            {
                const tvalue *up = cl->upvals[GETARG_A(i)]->v;
                const tvalue *key = KB(i), *rc = RKC(i);
                const tvalue *slot = NULL;
                if (vm_likely(is_table(up))) {
                    table *h = gco2tab(gc_of(up));
                    slot = tab_getshortstr(h, gco2str(gc_of(key)));
                    if (vm_instore(h, slot)) {
                        vm_storeslot(L, h, slot, rc);
                        vmbreak;
                    }
                }
                Protect(tm_finishset(L, up, key, rc, slot));
                vmbreak;
            }
            vmcase(OP_SETTABLE)
            {
                const tvalue *ra = RA(i), *rb = RB(i), *rc = RKC(i);
                const tvalue *slot = NULL;
                if (vm_likely(is_table(ra))) {
                    table *h = gco2tab(gc_of(ra));
                    slot = fastget(h, rb);
                    if (vm_instore(h, slot)) {
                        vm_storeslot(L, h, slot, rc);
                        vmbreak;
                    }
                    if (tab_metatable(h) ==
                        NULL) { /* a new key, no __newindex */
                        if (slot == &tab_absent)
                            Protect(tm_rawsetnew(L, h, rb, rc));
                        else
                            Protect(tm_rawset(L, h, rb, rc));
                        vmbreak;
                    }
                }
                Protect(tm_finishset(L, ra, rb, rc, slot));
                vmbreak;
            }
            vmcase(OP_SETI)
            {
                const tvalue *ra = RA(i), *rc = RKC(i);
                const tvalue *slot = NULL;
                int b = GETARG_B(i);
                tvalue key;
                if (vm_likely(is_table(ra))) {
                    table *h = gco2tab(gc_of(ra));
                    slot = tab_getint(h, b);
                    if (vm_instore(h, slot)) {
                        vm_storeslot(L, h, slot, rc);
                        vmbreak;
                    }
                    if (tab_metatable(h) == NULL) {
                        Protect(tm_rawsetint(L, h, b, rc));
                        vmbreak;
                    }
                }
                set_int(&key, b);
                Protect(tm_finishset(L, ra, &key, rc, slot));
                vmbreak;
            }
            vmcase(OP_SETFIELD)
            {
                const tvalue *ra = RA(i), *key = KB(i), *rc = RKC(i);
                const tvalue *slot = NULL;
                if (vm_likely(is_table(ra))) {
                    table *h = gco2tab(gc_of(ra));
                    slot = tab_getshortstr(h, gco2str(gc_of(key)));
                    if (vm_instore(h, slot)) {
                        vm_storeslot(L, h, slot, rc);
                        vmbreak;
                    }
                    if (slot == &tab_absent && tab_metatable(h) == NULL) {
                        /* a new field (a record being filled) */
                        Protect(tm_rawsetnew(L, h, key, rc));
                        vmbreak;
                    }
                }
                Protect(tm_finishset(L, ra, key, rc, slot));
                vmbreak;
            }
            vmcase(OP_NEWTABLE)
            {
                int b = GETARG_B(i);
                uint32_t c = (uint32_t)GETARG_C(i);
                table *t;
                c += (uint32_t)GETARG_Ax(*pc) * (OP_MAXARG_C + 1u);
                pc++;
                ProtectAt(RA(i),
                          t = tab_new_sized(L, c, b > 0 ? 1u << (b - 1) : 0u);
                          if (t == NULL) do_memerror(L));
                set_gc(RA(i), t, V_TABLE);
                safepoint_above(RA(i));
                vmbreak;
            }
            vmcase(OP_SELF)
            {
                tvalue *ra = RA(i);
                const tvalue *rb = RB(i), *key = RKC(i);
                const tvalue *slot = NULL;
                tvalue self = *rb;
                set_obj(ra + 1, &self);
                if (vm_likely(is_table(&self))) {
                    table *h = gco2tab(gc_of(&self));
                    /* a short string (the method's name: inline)
                     * unless a long name, or debug.setlocal changing
                     * a register key */
                    slot = vm_likely(tt_of(key) == V_SHRSTR)
                               ? tab_getshortstr(h, gco2str(gc_of(key)))
                               : tab_get(h, key);
                    if (!is_nil(slot)) {
                        set_obj(ra, slot);
                        vmbreak;
                    }
                    if (no_index_tm(h)) {
                        set_nil(ra);
                        vmbreak;
                    }
                    const tvalue *m;
                    if (vm_likely(tt_of(key) == V_SHRSTR) &&
                        (m = class_method(G(L), h, gco2str(gc_of(key)))) !=
                            NULL) {
                        set_obj(ra, m);
                        vmbreak;
                    }
                }
                /* rb still holds the object unless it was ra + 1, which
                 * holds it too; names come from rb */
                Protect(tm_finishget(L, rb, key, ra, slot));
                vmbreak;
            }
            vmcase(OP_ADDI)
            {
                const tvalue *rb = RB(i);
                int ic = GETARG_sC(i);
                if (is_int(rb))
                    set_int(RA(i), (rt_int)((rt_uint)rb->v.i + (rt_uint)ic));
                else if (is_flt(rb))
                    set_flt(RA(i), rb->v.n + (rt_num)ic);
                else {
                    /* k: the source said x - c, compiled as x + (-c) */
                    tvalue imm;
                    int sub = GETARG_k(i);
                    set_int(&imm, sub ? -ic : ic);
                    Protect(arith_arith(L, sub ? LUA_OPSUB : LUA_OPADD, rb,
                                        &imm, RA(i)));
                }
                vmbreak;
            }
            vmcase(OP_ADDK)
            {
                op_arith_aux(RB(i), KC(i), +, +, LUA_OPADD);
                vmbreak;
            }
            vmcase(OP_SUBK)
            {
                op_arith_aux(RB(i), KC(i), -, -, LUA_OPSUB);
                vmbreak;
            }
            vmcase(OP_MULK)
            {
                op_arith_aux(RB(i), KC(i), *, *, LUA_OPMUL);
                vmbreak;
            }
            vmcase(OP_MODK)
            {
                op_floor(RB(i), KC(i), int_mod, arith_modf, LUA_OPMOD);
                vmbreak;
            }
            vmcase(OP_POWK)
            {
                op_float(RB(i), KC(i), flt_pow);
                vmbreak;
            }
            vmcase(OP_DIVK)
            {
                op_float(RB(i), KC(i), flt_div);
                vmbreak;
            }
            vmcase(OP_IDIVK)
            {
                op_floor(RB(i), KC(i), int_idiv, flt_idiv, LUA_OPIDIV);
                vmbreak;
            }
            vmcase(OP_BANDK)
            {
                op_bitwise(RB(i), KC(i), &, LUA_OPBAND);
                vmbreak;
            }
            vmcase(OP_BORK)
            {
                op_bitwise(RB(i), KC(i), |, LUA_OPBOR);
                vmbreak;
            }
            vmcase(OP_BXORK)
            {
                op_bitwise(RB(i), KC(i), ^, LUA_OPBXOR);
                vmbreak;
            }
            vmcase(OP_ADD)
            {
                op_arith_aux(RB(i), RC(i), +, +, LUA_OPADD);
                vmbreak;
            }
            vmcase(OP_SUB)
            {
                op_arith_aux(RB(i), RC(i), -, -, LUA_OPSUB);
                vmbreak;
            }
            vmcase(OP_MUL)
            {
                op_arith_aux(RB(i), RC(i), *, *, LUA_OPMUL);
                vmbreak;
            }
            vmcase(OP_MOD)
            {
                op_floor(RB(i), RC(i), int_mod, arith_modf, LUA_OPMOD);
                vmbreak;
            }
            vmcase(OP_POW)
            {
                op_float(RB(i), RC(i), flt_pow);
                vmbreak;
            }
            vmcase(OP_DIV)
            {
                op_float(RB(i), RC(i), flt_div);
                vmbreak;
            }
            vmcase(OP_IDIV)
            {
                op_floor(RB(i), RC(i), int_idiv, flt_idiv, LUA_OPIDIV);
                vmbreak;
            }
            vmcase(OP_BAND)
            {
                op_bitwise(RB(i), RC(i), &, LUA_OPBAND);
                vmbreak;
            }
            vmcase(OP_BOR)
            {
                op_bitwise(RB(i), RC(i), |, LUA_OPBOR);
                vmbreak;
            }
            vmcase(OP_BXOR)
            {
                op_bitwise(RB(i), RC(i), ^, LUA_OPBXOR);
                vmbreak;
            }
            vmcase(OP_SHL)
            {
                const tvalue *rb = RB(i), *rc = RC(i);
                if (is_int(rb) && is_int(rc))
                    set_int(RA(i), arith_shiftl(rb->v.i, rc->v.i));
                else
                    Protect(arith_arith(L, LUA_OPSHL, rb, rc, RA(i)));
                vmbreak;
            }
            vmcase(OP_SHR)
            {
                const tvalue *rb = RB(i), *rc = RC(i);
                if (is_int(rb) && is_int(rc))
                    set_int(RA(i),
                            arith_shiftl(rb->v.i,
                                         (rt_int)(0u - (rt_uint)rc->v.i)));
                else
                    Protect(arith_arith(L, LUA_OPSHR, rb, rc, RA(i)));
                vmbreak;
            }
            vmcase(OP_UNM)
            {
                const tvalue *rb = RB(i);
                if (is_int(rb))
                    set_int(RA(i), (rt_int)(0u - (rt_uint)rb->v.i));
                else if (is_flt(rb))
                    set_flt(RA(i), -rb->v.n);
                else
                    Protect(arith_arith(L, LUA_OPUNM, rb, rb, RA(i)));
                vmbreak;
            }
            vmcase(OP_BNOT)
            {
                const tvalue *rb = RB(i);
                if (is_int(rb))
                    set_int(RA(i), (rt_int) ~(rt_uint)rb->v.i);
                else
                    Protect(arith_arith(L, LUA_OPBNOT, rb, rb, RA(i)));
                vmbreak;
            }
            vmcase(OP_NOT)
            {
                const tvalue *rb = RB(i);
                set_bool(RA(i), is_false(rb));
                vmbreak;
            }
            vmcase(OP_LEN)
            {
                const tvalue *rb = RB(i);
                if (is_table(rb) && tab_metatable(gco2tab(gc_of(rb))) == NULL)
                    set_int(RA(i), (rt_int)tab_length(gco2tab(gc_of(rb))));
                else
                    Protect(tm_objlen(L, RA(i), rb));
                vmbreak;
            }
            vmcase(OP_CONCAT)
            {
                int n = GETARG_B(i);
                tvalue *ra = RA(i);
                L->top = ra + n;
                ProtectNT(tm_concat(L, n));
                L->top = ci->top;
                safepoint_above(RA(i));
                vmbreak;
            }
            vmcase(OP_CLOSE)
            {
                Protect(do_closeyieldable(L, RA(i), LUA_OK));
                vmbreak;
            }
            vmcase(OP_TBC)
            {
                Protect(do_newtbcupval(L, RA(i)));
                vmbreak;
            }
            vmcase(OP_JMP)
            {
                int sj = GETARG_sJ(i);
                pc += sj;
                if (sj < 0)
                    safepoint();
                vmbreak;
            }
            vmcase(OP_EQ)
            {
                const tvalue *ra = RA(i), *rb = RB(i);
                int c;
                if (is_int(ra) && is_int(rb))
                    c = ra->v.i == rb->v.i;
                else
                    Protect(c = arith_equalobj(L, ra, rb));
                docondjump(c);
                vmbreak;
            }
            vmcase(OP_LT)
            {
                op_order(<, arith_lessthan);
                vmbreak;
            }
            vmcase(OP_LE)
            {
                op_order(<=, arith_lessequal);
                vmbreak;
            }
            vmcase(OP_EQK)
            {
                int c = arith_equalobj(NULL, RA(i), KB(i));
                docondjump(c);
                vmbreak;
            }
            vmcase(OP_EQI)
            {
                const tvalue *ra = RA(i);
                int im = GETARG_sB(i), c;
                if (is_int(ra))
                    c = ra->v.i == im;
                else if (is_flt(ra))
                    c = ra->v.n == (rt_num)im;
                else
                    c = 0;
                docondjump(c);
                vmbreak;
            }
            vmcase(OP_LTI)
            {
                op_orderI(<, 0, TM_LT);
                vmbreak;
            }
            vmcase(OP_LEI)
            {
                op_orderI(<=, 0, TM_LE);
                vmbreak;
            }
            vmcase(OP_GTI)
            {
                op_orderI(>, 1, TM_LT);
                vmbreak;
            }
            vmcase(OP_GEI)
            {
                op_orderI(>=, 1, TM_LE);
                vmbreak;
            }
            vmcase(OP_TEST)
            {
                int c = !is_false(RA(i));
                docondjump(c);
                vmbreak;
            }
            vmcase(OP_TESTSET)
            {
                const tvalue *rb = RB(i);
                if (is_false(rb) == GETARG_k(i))
                    pc++;
                else {
                    instr ni = *pc;
                    set_obj(RA(i), rb);
                    dotestjump(ni);
                }
                vmbreak;
            }
            vmcase(OP_CALL)
            {
                tvalue *ra = RA(i);
                int b = GETARG_B(i);
                int nresults = GETARG_C(i) - 1;
                CallInfo *newci;
                if (b != 0)
                    L->top = ra + b;
                savepc();
                if (vm_unlikely(G(L)->safeflags)) {
                    ptrdiff_t off = do_savestack(L, ra);
                    safepoint_(L);
                    gc_thread_ran(L);
                    ra = do_restorestack(L, off);
                }
                newci = do_precall(L, ra, nresults);
                if (newci == NULL) { /* a C function: done */
                    updatebase();
                    updatetrap();
                    gc_thread_ran(L);
                    if (nresults >= 0)
                        L->top = ci->top;
                    vmbreak;
                }
                ci = newci;
                goto startfunc;
            }
            vmcase(OP_TAILCALL)
            {
                tvalue *ra = RA(i);
                int b = GETARG_B(i);
                proto *p = cl->p;
                int delta =
                    p->is_vararg ? ci->u.l.nextraargs + p->numparams + 1 : 0;
                int n;
                if (b != 0)
                    L->top = ra + b;
                else
                    b = (int)(L->top - ra);
                savepc();
                if (GETARG_k(i)) {
                    fn_closeupvals(L, base);
                    /* the compiler never tail-calls in the scope of a
                     * tbc variable; a loaded chunk could (lang/verify.h) */
                    if (vm_unlikely(L->tbclist != NULL && L->tbclist >= base))
                        Protect(do_runerror(L, "tail call in the scope of a "
                                               "to-be-closed variable"));
                }
                n = do_pretailcall(L, ci, ra, b, delta);
                if (n < 0) {
                    gc_thread_ran(L);
                    goto startfunc;
                }
                ci->func -= delta;
                do_poscall(L, ci, n);
                updatetrap();
                goto ret;
            }
            vmcase(OP_RETURN)
            {
                tvalue *ra = RA(i);
                int n = GETARG_B(i) - 1;
                proto *p = cl->p;
                if (n < 0)
                    n = (int)(L->top - ra);
                savepc();
                if (GETARG_k(i)) {
                    ptrdiff_t off = do_savestack(L, ra);
                    ci->u2.nres = n;
                    L->top = ra + n;
                    if (L->top < ci->top)
                        L->top = ci->top;
                    do_closeyieldable(L, base, LUA_OK);
                    updatetrap();
                    updatebase();
                    ra = do_restorestack(L, off);
                }
                if (p->is_vararg)
                    ci->func -= ci->u.l.nextraargs + p->numparams + 1;
                L->top = ra + n;
                do_poscall(L, ci, n);
                updatetrap();
                goto ret;
            }
            vmcase(OP_RETURN0)
            {
                if (vm_unlikely(L->hookmask ||
                                (ci->callstatus & CIST_VARARG))) {
                    savepc();
                    if (cl->p->is_vararg)
                        ci->func -= ci->u.l.nextraargs + cl->p->numparams + 1;
                    L->top = RA(i);
                    do_poscall(L, ci, 0);
                    settrap(1);
                } else {
                    int nres = ci->nresults;
                    tvalue *res = ci->func;
                    CallInfo *prev = ci->previous;
                    L->ci = prev;
                    if (vm_likely(nres == 0 &&
                                  !(ci->callstatus & CIST_FRESH))) {
                        /* ret_fast's work for the usual case: a Lua
                         * caller that wants no value */
                        gc_stack_lower(L, prev->func);
                        ci = prev;
                        L->top = ci->top;
                        goto returning;
                    }
                    L->top = res;
                    for (; nres > 0; nres--)
                        set_nil(L->top++);
                    goto ret_fast;
                }
                goto ret;
            }
            vmcase(OP_RETURN1)
            {
                if (vm_unlikely(L->hookmask ||
                                (ci->callstatus & CIST_VARARG))) {
                    savepc();
                    if (cl->p->is_vararg)
                        ci->func -= ci->u.l.nextraargs + cl->p->numparams + 1;
                    L->top = RA(i) + 1;
                    do_poscall(L, ci, 1);
                    settrap(1);
                } else {
                    int nres = ci->nresults;
                    tvalue *res = ci->func;
                    CallInfo *prev = ci->previous;
                    L->ci = prev;
                    if (vm_likely(nres == 1 &&
                                  !(ci->callstatus & CIST_FRESH))) {
                        /* ret_fast's work for the usual case: a Lua
                         * caller that wants one value */
                        set_obj(res, RA(i));
                        gc_stack_lower(L, prev->func);
                        ci = prev;
                        L->top = ci->top;
                        goto returning;
                    }
                    if (nres == 0)
                        L->top = res;
                    else {
                        set_obj(res, RA(i));
                        L->top = res + 1;
                        for (; nres > 1; nres--)
                            set_nil(L->top++);
                    }
                    goto ret_fast;
                }
                goto ret;
            }
            vmcase(OP_FORLOOP)
            {
                tvalue *ra = RA(i);
                if (is_int(ra + 2)) {
                    rt_uint count = (rt_uint)ra[1].v.i;
                    if (count > 0) {
                        rt_int idx =
                            (rt_int)((rt_uint)ra->v.i + (rt_uint)ra[2].v.i);
                        /* Whole values, tags too: a loaded function
                         * may have written anything in the loop's own
                         * registers (test_dump's hidden registers). */
                        set_int(ra + 1, (rt_int)(count - 1));
                        set_int(ra, idx);
                        set_int(ra + 3, idx);
                        pc -= GETARG_Bx(i);
                    }
                } else {
                    rt_num step = ra[2].v.n, limit = ra[1].v.n;
                    rt_num idx = ra->v.n + step;
                    if (step > 0 ? idx <= limit : limit <= idx) {
                        set_flt(ra, idx);
                        set_flt(ra + 3, idx);
                        pc -= GETARG_Bx(i);
                    }
                }
                safepoint();
                vmbreak;
            }
            vmcase(OP_FORPREP)
            {
                int skip;
                Protect(skip = forprep(L, RA(i)));
                if (skip)
                    pc += GETARG_Bx(i) + 1;
                vmbreak;
            }
            vmcase(OP_TFORPREP)
            {
                tvalue *ra = RA(i);
                if (!is_false(ra + 3))
                    Protect(do_newtbcupval(L, ra + 3));
                pc += GETARG_Bx(i);
                i = *(pc++);
                goto l_tforcall;
            }
            vmcase(OP_TFORCALL)
            {
                tvalue *ra;
            l_tforcall:
                ra = RA(i);
                set_obj(ra + 4, ra);
                set_obj(ra + 5, ra + 1);
                set_obj(ra + 6, ra + 2);
                L->top = ra + 4 + 3;
                /* A C iterator (a coroutine.wrap function, next) runs as
                 * OP_CALL runs one, without ccall's level: it cannot
                 * nest the interpreter, and anything it calls that can
                 * (lua_callk, lua_resume) checks the C stack itself. */
                if (tt_of(ra + 4) == V_LCF || tt_of(ra + 4) == V_CCL)
                    ProtectNT(do_precall(L, ra + 4, GETARG_C(i)));
                else
                    ProtectNT(do_call(L, ra + 4, GETARG_C(i)));
                L->top = ci->top;
                i = *(pc++);
                goto l_tforloop;
            }
            vmcase(OP_TFORLOOP)
            {
                tvalue *ra;
            l_tforloop:
                ra = RA(i);
                if (!is_nil(ra + 4)) {
                    set_obj(ra + 2, ra + 4);
                    pc -= GETARG_Bx(i);
                    safepoint();
                }
                vmbreak;
            }
            vmcase(OP_SETLIST)
            {
                int n = GETARG_B(i);
                uint32_t last = (uint32_t)GETARG_C(i);
                last += (uint32_t)GETARG_Ax(*pc) * (OP_MAXARG_C + 1u);
                pc++;
                if (n == 0)
                    n = (int)(L->top - RA(i)) - 1;
                else
                    L->top = ci->top;
                ProtectNT(setlist(L, RA(i), n, last));
                L->top = ci->top;
                vmbreak;
            }
            vmcase(OP_CLOSURE)
            {
                proto *p = cl->p->p[GETARG_Bx(i)];
                /* the closure is in ra while its upvalues are made */
                ProtectAt(RA(i) + 1,
                          pushclosure(L, p, cl->upvals, base, RA(i)));
                safepoint_above(RA(i));
                vmbreak;
            }
            vmcase(OP_VARARG)
            {
                int n = GETARG_C(i) - 1;
                int nextra = ci->u.l.nextraargs, j;
                tvalue *ra, *from;
                if (n < 0) {
                    n = nextra;
                    Protect(do_checkstack(L, n));
                }
                ra = RA(i);
                from = ci->func - nextra;
                for (j = 0; j < n && j < nextra; j++)
                    set_obj(ra + j, from + j);
                for (; j < n; j++)
                    set_nil(ra + j);
                if (GETARG_C(i) == 0)
                    L->top = ra + n;
                vmbreak;
            }
            vmcase(OP_VARARGPREP)
            {
                ProtectNT(varargprep(L, ci, GETARG_A(i)));
                L->top = ci->top;
                if (vm_unlikely(trapon())) {
                    hookcall(L, ci);
                    L->oldpc = 1; /* the next opcode is a new line */
                    updatebase();
                }
                updatebase();
                vmbreak;
            }
            vmcase(OP_EXTRAARG)
            {
                vmbreak; /* never executed on its own */
            }
#if !VM_COMPUTED_GOTO
        default:
            break;
#endif
        }
        continue;
#if VM_COMPUTED_GOTO
    vm_trap: /* a hook is on (dt is traptab): i was fetched */
        pc--;
        settrap01(dbg_traceexec(L, pc));
        updatebase();
        i = *(pc++);
        goto *vmtabs[0][GET_OP(i)];
#endif
    ret:
        /* A hook, a __close or a C function may have run a step on
         * another thread: the caller's frame (not a C caller's) marks
         * this one as running again. */
        if (!(ci->callstatus & CIST_FRESH))
            gc_thread_ran(L);
        /* fall through */
    ret_fast: /* RETURN0/RETURN1 without hooks: nothing ran since the
               * last instruction */
        /* The caller's frame runs again: its registers may change */
        gc_stack_lower(L, ci->previous->func);
        if (ci->callstatus & CIST_FRESH)
            return;
        {
            int wanted = ci->nresults;
            ci = ci->previous;
            if (wanted >= 0)
                L->top = ci->top;
        }
        goto returning;
    }
}

/* ---- Finishing an opcode interrupted by a yield ------------------------- */

rt_cold void vm_finishop(lua_State *L)
{
    CallInfo *ci = L->ci;
    tvalue *base = ci->func + 1;
    instr inst = *(ci->u.l.savedpc - 1);
    switch (GET_OP(inst)) {
    case OP_ADDI:
    case OP_ADDK:
    case OP_SUBK:
    case OP_MULK:
    case OP_MODK:
    case OP_POWK:
    case OP_DIVK:
    case OP_IDIVK:
    case OP_BANDK:
    case OP_BORK:
    case OP_BXORK:
    case OP_ADD:
    case OP_SUB:
    case OP_MUL:
    case OP_MOD:
    case OP_POW:
    case OP_DIV:
    case OP_IDIV:
    case OP_BAND:
    case OP_BOR:
    case OP_BXOR:
    case OP_SHL:
    case OP_SHR:
    case OP_UNM:
    case OP_BNOT:
    case OP_LEN:
    case OP_GETTABUP:
    case OP_GETTABLE:
    case OP_GETI:
    case OP_GETFIELD:
    case OP_SELF:
        L->top--;
        set_obj(base + GETARG_A(inst), L->top);
        L->top = ci->top;
        break;
    case OP_LT:
    case OP_LE:
    case OP_LTI:
    case OP_LEI:
    case OP_GTI:
    case OP_GEI:
    case OP_EQ: {
        int res = !is_false(L->top - 1);
        L->top = ci->top;
        /* the JMP follows: skip it unless the condition equals k */
        if (res != GETARG_k(inst))
            ci->u.l.savedpc++;
        else {
            instr ni = *ci->u.l.savedpc;
            ci->u.l.savedpc += GETARG_sJ(ni) + 1;
        }
        break;
    }
    case OP_CONCAT: {
        tvalue *top = L->top - 1; /* the metamethod's result */
        tvalue *ra = base + GETARG_A(inst);
        int total = (int)(top - 1 - ra);
        set_obj(top - 2, top);
        L->top = top - 1;
        tm_concat(L, total);
        L->top = ci->top;
        break;
    }
    case OP_CLOSE:
        ci->u.l.savedpc--; /* close the rest */
        break;
    case OP_RETURN: {
        tvalue *ra = base + GETARG_A(inst);
        L->top = ra + ci->u2.nres;
        ci->u.l.savedpc--; /* finish closing and return */
        break;
    }
    case OP_TFORCALL:
    case OP_SETTABUP:
    case OP_SETTABLE:
    case OP_SETI:
    case OP_SETFIELD:
        L->top = ci->top;
        break;
    case OP_CALL:
        if (GETARG_C(inst) != 0)
            L->top = ci->top;
        break;
    default:
        break;
    }
}
