/*
 * verify.c — the bytecode verifier (see verify.h).  Written from rtlua's
 * bytecode contract (vm/opcodes.h) and what vm/vm.c and vm/debug.c
 * assume of it.
 *
 * One pass over the code checks each instruction's operands and the
 * edges it can take (fall-through, skip, jump, loop); an edge is checked
 * at its target too, where some instructions admit no edge at all
 * (EXTRAARG, VARARGPREP) or only the fall-through of an open-results
 * producer (a B == 0 consumer).
 */
#include "lang/verify.h"

#include "lang/parse.h"
#include "vm/opcodes.h"

/* Smallest frame the compiler gives a function. */
#define VERIFY_MINSTACK 2
/* Most instructions the search for open upvalues visits in a register's
 * round, per instruction of the function (the compiler's code takes
 * about two). */
#define VERIFY_OPEN_VISITS 32
/* NEWTABLE's B is log2(hash size) + 1 for a 32-bit size. */
#define VERIFY_MAXHASHB 32

typedef struct vstate {
    const proto *p;
    int pc;        /* the instruction being checked */
    int needclose; /* returns must close upvalues and tbc variables */
    const char *why;
} vstate;

#define FAIL(V, msg)                                                          \
    do {                                                                      \
        (V)->why = (msg);                                                     \
        return 0;                                                             \
    } while (0)
#define CHECK(V, cond, msg)                                                   \
    do {                                                                      \
        if (!(cond))                                                          \
            FAIL(V, msg);                                                     \
    } while (0)
/* Evaluate a check that returns 0 on failure. */
#define TRY(x)                                                                \
    do {                                                                      \
        if (!(x))                                                             \
            return 0;                                                         \
    } while (0)

static int opat(const proto *p, int pc)
{
    return GET_OP(p->code[pc]);
}

/* Registers a .. a+n-1 are in the frame (n may be 0). */
static int range(vstate *V, int a, int n)
{
    CHECK(V, a >= 0 && n >= 0 && a + n <= V->p->maxstacksize,
          "register out of range");
    return 1;
}

static int reg(vstate *V, int r)
{
    return range(V, r, 1);
}

static int upv(vstate *V, int u)
{
    CHECK(V, u < V->p->sizeupvalues, "upvalue out of range");
    return 1;
}

static int kany(vstate *V, int k)
{
    CHECK(V, k >= 0 && k < V->p->sizek, "constant out of range");
    return 1;
}

static int kshort(vstate *V, int k)
{
    TRY(kany(V, k));
    CHECK(V, tt_of(&V->p->k[k]) == V_SHRSTR,
          "constant key is not a short string");
    return 1;
}

static int kstr(vstate *V, int k)
{
    TRY(kany(V, k));
    CHECK(V, is_str(&V->p->k[k]), "constant key is not a string");
    return 1;
}

static int knum(vstate *V, int k)
{
    TRY(kany(V, k));
    CHECK(V, ttype(tt_of(&V->p->k[k])) == T_NUMBER,
          "arithmetic constant is not a number");
    return 1;
}

/* RK(C): a constant when k, else a register. */
static int rk(vstate *V, instr i)
{
    return GETARG_k(i) ? kany(V, GETARG_C(i)) : reg(V, GETARG_C(i));
}

/* prod leaves the top where cons can take it: an open CALL or VARARG
 * whose values start above cons's function (at or above its first value
 * for RETURN), so the count is never negative. */
static int opens_for(instr prod, instr cons)
{
    int op = GET_OP(prod);
    if (!((op == OP_CALL || op == OP_VARARG) && GETARG_C(prod) == 0))
        return 0;
    int need = GET_OP(cons) == OP_RETURN ? 0 : 1;
    return GETARG_A(prod) >= GETARG_A(cons) + need;
}

/* The edge from V->pc to `to`. */
static int edge(vstate *V, int to)
{
    const proto *p = V->p;
    CHECK(V, to >= 0 && to < p->sizecode, "jump out of the code");
    instr t = p->code[to];
    int op = GET_OP(t);
    CHECK(V, op != OP_EXTRAARG, "jump to an EXTRAARG");
    CHECK(V, op != OP_VARARGPREP, "jump to VARARGPREP");
    if (op_usestop(t))
        CHECK(V, to == V->pc + 1 && opens_for(p->code[V->pc], t),
              "open results without their producer");
    return 1;
}

/* The next instruction is the one this one executes with itself. */
static int followedby(vstate *V, int op, const char *why)
{
    CHECK(V, V->pc + 1 < V->p->sizecode && opat(V->p, V->pc + 1) == op, why);
    return 1;
}

/* Does the function open upvalues (a nested function captures one of
 * its registers) or to-be-closed variables?  Then the compiler makes
 * every return close them (code_finish). */
static int needsclose(const proto *p)
{
    for (int i = 0; i < p->sizecode; i++) {
        int op = opat(p, i);
        if (op == OP_TBC || op == OP_TFORPREP)
            return 1;
    }
    for (int i = 0; i < p->sizep; i++) {
        const proto *c = p->p[i];
        for (int j = 0; c != NULL && j < c->sizeupvalues; j++)
            if (c->upvalues[j].instack)
                return 1;
    }
    return 0;
}

/* Checks of one instruction; sets *next to its fall-through or skip
 * successor (-1 for none). */
static int checkinstr(vstate *V, instr i, int *next)
{
    const proto *p = V->p;
    int pc = V->pc;
    int a = GETARG_A(i), b = GETARG_B(i), c = GETARG_C(i);
    int op = GET_OP(i);
    *next = pc + 1;
    switch (op) {
    case OP_MOVE:
    case OP_UNM:
    case OP_BNOT:
    case OP_NOT:
    case OP_LEN:
        return reg(V, a) && reg(V, b);
    case OP_LOADI:
    case OP_LOADF:
    case OP_LOADFALSE:
    case OP_LOADTRUE:
    case OP_CLOSE:
    case OP_TBC:
        return reg(V, a);
    case OP_LOADK:
        return reg(V, a) && kany(V, GETARG_Bx(i));
    case OP_LOADKX:
        *next = pc + 2;
        return reg(V, a) &&
               followedby(V, OP_EXTRAARG, "LOADKX without its EXTRAARG") &&
               kany(V, GETARG_Ax(p->code[pc + 1]));
    case OP_LFALSESKIP:
        *next = pc + 2;
        return reg(V, a);
    case OP_LOADNIL:
        return range(V, a, b + 1);
    case OP_GETUPVAL:
    case OP_SETUPVAL:
        return reg(V, a) && upv(V, b);
    case OP_GETTABUP:
        return reg(V, a) && upv(V, b) && kshort(V, c);
    case OP_GETTABLE:
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
        return reg(V, a) && reg(V, b) && reg(V, c);
    case OP_GETI:
    case OP_ADDI:
        return reg(V, a) && reg(V, b);
    case OP_GETFIELD:
        return reg(V, a) && reg(V, b) && kshort(V, c);
    case OP_SETTABUP:
        return upv(V, a) && kshort(V, b) && rk(V, i);
    case OP_SETTABLE:
        return reg(V, a) && reg(V, b) && rk(V, i);
    case OP_SETI:
        return reg(V, a) && rk(V, i);
    case OP_SETFIELD:
        return reg(V, a) && kshort(V, b) && rk(V, i);
    case OP_NEWTABLE:
        *next = pc + 2;
        CHECK(V, b <= VERIFY_MAXHASHB, "table size out of range");
        return reg(V, a) &&
               followedby(V, OP_EXTRAARG, "NEWTABLE without its EXTRAARG");
    case OP_SELF:
        TRY(range(V, a, 2) && reg(V, b));
        return GETARG_k(i) ? kstr(V, c) : reg(V, c);
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
        return reg(V, a) && reg(V, b) && knum(V, c);
    case OP_CONCAT:
        CHECK(V, b >= 2, "CONCAT of fewer than two values");
        return range(V, a, b);
    case OP_JMP:
        *next = -1;
        return edge(V, pc + 1 + GETARG_sJ(i));
    case OP_EQ:
    case OP_LT:
    case OP_LE:
    case OP_TESTSET:
        *next = pc + 2;
        return reg(V, a) && reg(V, b) &&
               followedby(V, OP_JMP, "test without its jump");
    case OP_EQK:
        *next = pc + 2;
        return reg(V, a) && kany(V, b) &&
               followedby(V, OP_JMP, "test without its jump");
    case OP_EQI:
    case OP_LTI:
    case OP_LEI:
    case OP_GTI:
    case OP_GEI:
    case OP_TEST:
        *next = pc + 2;
        return reg(V, a) && followedby(V, OP_JMP, "test without its jump");
    case OP_CALL:
        return reg(V, a) && (b == 0 || range(V, a, b)) &&
               (c == 0 || range(V, a, c - 1));
    case OP_TAILCALL:
        *next = -1;
        CHECK(V, !V->needclose || GETARG_k(i), "return without closing");
        return reg(V, a) && (b == 0 || range(V, a, b));
    case OP_RETURN:
        *next = -1;
        CHECK(V, !V->needclose || GETARG_k(i), "return without closing");
        return b == 0 ? reg(V, a) : range(V, a, b - 1);
    case OP_RETURN0:
        *next = -1;
        CHECK(V, !V->needclose, "return without closing");
        return range(V, a, 0);
    case OP_RETURN1:
        *next = -1;
        CHECK(V, !V->needclose, "return without closing");
        return reg(V, a);
    case OP_FORPREP: {
        int q = pc + 1 + GETARG_Bx(i);
        CHECK(V,
              q < p->sizecode && opat(p, q) == OP_FORLOOP &&
                  GETARG_A(p->code[q]) == a && GETARG_Bx(p->code[q]) == q - pc,
              "FORPREP without its FORLOOP");
        return range(V, a, 4) && edge(V, q + 1);
    }
    case OP_FORLOOP: {
        int t = pc + 1 - GETARG_Bx(i);
        CHECK(V,
              t >= 1 && opat(p, t - 1) == OP_FORPREP &&
                  GETARG_A(p->code[t - 1]) == a &&
                  t + GETARG_Bx(p->code[t - 1]) == pc,
              "FORLOOP without its FORPREP");
        return range(V, a, 4) && edge(V, t);
    }
    case OP_TFORPREP: {
        int q = pc + 1 + GETARG_Bx(i);
        *next = -1;
        CHECK(V,
              q + 1 < p->sizecode && opat(p, q) == OP_TFORCALL &&
                  GETARG_A(p->code[q]) == a && opat(p, q + 1) == OP_TFORLOOP &&
                  GETARG_A(p->code[q + 1]) == a &&
                  GETARG_Bx(p->code[q + 1]) == q + 1 - pc,
              "TFORPREP without its TFORCALL and TFORLOOP");
        return range(V, a, 4) && edge(V, q);
    }
    case OP_TFORCALL:
        CHECK(V, c >= 1, "TFORCALL without variables");
        CHECK(V,
              pc + 1 < p->sizecode && opat(p, pc + 1) == OP_TFORLOOP &&
                  GETARG_A(p->code[pc + 1]) == a,
              "TFORCALL without its TFORLOOP");
        return range(V, a, 7) && range(V, a + 4, c);
    case OP_TFORLOOP: {
        int t = pc + 1 - GETARG_Bx(i);
        CHECK(V,
              t >= 1 && opat(p, t - 1) == OP_TFORPREP &&
                  GETARG_A(p->code[t - 1]) == a &&
                  t + GETARG_Bx(p->code[t - 1]) == pc - 1,
              "TFORLOOP without its TFORPREP");
        return range(V, a, 5) && edge(V, t);
    }
    case OP_SETLIST:
        *next = pc + 2;
        return (b == 0 ? reg(V, a) : range(V, a, b + 1)) &&
               followedby(V, OP_EXTRAARG, "SETLIST without its EXTRAARG");
    case OP_CLOSURE:
        CHECK(V, GETARG_Bx(i) < p->sizep, "function index out of range");
        return reg(V, a);
    case OP_VARARG:
        CHECK(V, p->is_vararg, "VARARG in a function without '...'");
        return reg(V, a) && (c == 0 || range(V, a, c - 1));
    case OP_VARARGPREP:
        CHECK(V, pc == 0 && p->is_vararg && a == p->numparams,
              "misplaced VARARGPREP");
        return 1;
    case OP_EXTRAARG: {
        int prev = pc > 0 ? opat(p, pc - 1) : -1;
        *next = -1; /* run by the instruction before, never on its own */
        CHECK(V,
              prev == OP_LOADKX || prev == OP_NEWTABLE || prev == OP_SETLIST,
              "EXTRAARG without its instruction");
        return 1;
    }
    default:
        FAIL(V, "unknown opcode");
    }
}

/* ---- Open upvalues and to-be-closed variables --------------------------
 *
 * A register a nested function captures (CLOSURE) holds an open upvalue,
 * and one marked to-be-closed (TBC, TFORPREP's fourth) is on the
 * thread's list, until CLOSE closes it and those above or the function
 * returns.  The compiler captures and marks only local variables, below
 * every register it calls a function in.  A loaded prototype could
 * capture a temporary that a later CALL makes a frame's function slot:
 * the callee, or a closure it calls, would write its own function slot
 * through the upvalue, and the interpreter, the hooks and the debug
 * functions read the running function there (a frame whose function
 * was the integer 100 was the fuzzer's case).  So for each register
 * that some instruction can open, whether it may be open before each
 * instruction is found over the control flow, to a fixed point, and no
 * call's frame may start at or below it while it may.  One sweep of the
 * code follows as many registers as the scratch has bits an instruction
 * for, up to 32 (a word an instruction: the search took a quarter of an
 * image's start-up, a sweep for each register); one bit an instruction
 * at least (microbit's arena is small: a byte an instruction did not
 * leave room to check lib_pattern.lua's image). */

/* The open bits of the registers base .. base + width - 1 (width a power
 * of 2 up to 32, so that no field straddles a word) before each
 * instruction: a field of width bits an instruction, packed in words. */
typedef struct openset {
    uint32_t *w;
    int width, base;
    uint32_t all; /* the field's bits */
} openset;

static uint32_t getopen(const openset *o, int pc)
{
    unsigned bit = (unsigned)pc * (unsigned)o->width;
    return (o->w[bit >> 5] >> (bit & 31u)) & o->all;
}

static void addopen(openset *o, int pc, uint32_t v)
{
    unsigned bit = (unsigned)pc * (unsigned)o->width;
    o->w[bit >> 5] |= v << (bit & 31u);
}

/* The field's bits for the registers at or above r. */
static uint32_t fromreg(const openset *o, int r)
{
    if (r <= o->base)
        return o->all;
    if (r >= o->base + o->width)
        return 0;
    return o->all & ~((1u << (r - o->base)) - 1u);
}

/* Register reg is opened: its bit, when it is one of o's (o NULL: reg
 * is added to the set regs). */
static uint32_t opened(int reg, const openset *o, uint32_t *regs)
{
    if (o == NULL) {
        regs[reg / 32] |= 1u << (reg % 32);
        return 0;
    }
    unsigned d = (unsigned)(reg - o->base);
    return d < (unsigned)o->width ? 1u << d : 0;
}

/* The registers instruction pc opens (CLOSURE: the locals its function
 * captures; TBC: A; TFORPREP: A + 3): o's bits for those of its
 * registers, or (o NULL) all of them added to regs. */
static uint32_t opens(const proto *p, int pc, const openset *o, uint32_t *regs)
{
    instr i = p->code[pc];
    int a = GETARG_A(i);
    uint32_t hit = 0;
    switch (GET_OP(i)) {
    case OP_CLOSURE: {
        const proto *c = p->p[GETARG_Bx(i)];
        for (int j = 0; j < c->sizeupvalues; j++)
            if (c->upvalues[j].instack)
                hit |= opened(c->upvalues[j].idx, o, regs);
        return hit;
    }
    case OP_TBC:
        return opened(a, o, regs);
    case OP_TFORPREP:
        return opened(a + 3, o, regs);
    default:
        return 0;
    }
}

/* The bits of o left open after instruction pc, from `in` before it. */
static uint32_t openafter(const proto *p, int pc, const openset *o,
                          uint32_t in)
{
    instr i = p->code[pc];
    if (GET_OP(i) == OP_CLOSE) /* closes A and those above */
        return in & ~fromreg(o, GETARG_A(i));
    return in | opens(p, pc, o, NULL);
}

/* The registers that some instruction opens, a bit each. */
static void openable(const proto *p, uint32_t regs[8])
{
    for (int k = 0; k < 8; k++)
        regs[k] = 0;
    for (int pc = 0; pc < p->sizecode; pc++)
        opens(p, pc, NULL, regs);
}

/* The instructions that can run after pc (checkinstr checked that they
 * are in the code); returns their number. */
static int successors(const proto *p, int pc, int to[2])
{
    instr i = p->code[pc];
    if (OP_ISTEST(GET_OP(i))) {
        to[0] = pc + 1; /* its JMP */
        to[1] = pc + 2;
        return 2;
    }
    switch (GET_OP(i)) {
    case OP_JMP:
        to[0] = pc + 1 + GETARG_sJ(i);
        return 1;
    case OP_LOADKX:
    case OP_LFALSESKIP:
    case OP_NEWTABLE:
    case OP_SETLIST:
        to[0] = pc + 2;
        return 1;
    case OP_FORPREP:
        to[0] = pc + 1;
        to[1] = pc + 2 + GETARG_Bx(i); /* past its FORLOOP */
        return 2;
    case OP_FORLOOP:
    case OP_TFORLOOP:
        to[0] = pc + 1;
        to[1] = pc + 1 - GETARG_Bx(i);
        return 2;
    case OP_TFORPREP:
        to[0] = pc + 1 + GETARG_Bx(i); /* its TFORCALL */
        return 1;
    case OP_TAILCALL:
    case OP_RETURN:
    case OP_RETURN0:
    case OP_RETURN1:
    case OP_EXTRAARG:
        return 0;
    default:
        to[0] = pc + 1;
        return 1;
    }
}

/* The first register of the frame instruction i calls in, or OP_MAXREGS
 * when it calls nothing there (a TAILCALL that closes first is free). */
static int framestart(instr i)
{
    switch (GET_OP(i)) {
    case OP_CALL:
        return GETARG_A(i);
    case OP_TAILCALL:
        return GETARG_k(i) ? OP_MAXREGS : GETARG_A(i);
    case OP_TFORCALL:
        return GETARG_A(i) + 4;
    default:
        return OP_MAXREGS;
    }
}

/* The round of o's registers (nregs of them can be opened): their bits
 * for every instruction, by a forward sweep from the first instruction
 * that opens one (nothing is open before it) that goes back to a loop's
 * head whenever a back edge adds to its bits, then the calls against
 * them. */
static int checkregs(vstate *V, openset *o, int nregs)
{
    const proto *p = V->p;
    long budget = (long)VERIFY_OPEN_VISITS * p->sizecode * nregs;
    int words = (p->sizecode * o->width + 31) / 32;
    for (int k = 0; k < words; k++)
        o->w[k] = 0;
    int pc = 0;
    while (pc < p->sizecode && opens(p, pc, o, NULL) == 0)
        pc++;
    while (pc < p->sizecode) {
        CHECK(V, --budget >= 0, "control flow too complex to check");
        uint32_t out = openafter(p, pc, o, getopen(o, pc));
        int to[2], back = -1;
        for (int n = out != 0 ? successors(p, pc, to) : 0; n-- > 0;) {
            if ((out & ~getopen(o, to[n])) != 0) {
                addopen(o, to[n], out);
                if (to[n] <= pc && (back < 0 || to[n] < back))
                    back = to[n];
            }
        }
        pc = back >= 0 ? back : pc + 1;
    }
    for (V->pc = 0; V->pc < p->sizecode; V->pc++) {
        int f = framestart(p->code[V->pc]);
        CHECK(V,
              f >= o->base + o->width ||
                  (getopen(o, V->pc) & fromreg(o, f)) == 0,
              "call over an open upvalue");
    }
    V->pc = -1;
    return 1;
}

/* Bits a field of the open-upvalue search can have in size bytes of
 * scratch: 32 at most, 1 at least (verify_scratchsize). */
static int openwidth(const proto *p, size_t size)
{
    int width = 32;
    while (width > 1 &&
           ((size_t)p->sizecode * (size_t)width + 31) / 32 * 4 > size)
        width /= 2;
    return width;
}

static int checkopen(vstate *V, void *scratch, size_t size)
{
    uint32_t regs[8];
    openable(V->p, regs);
    openset o;
    o.w = scratch;
    o.width = openwidth(V->p, size);
    o.all = o.width == 32 ? ~0u : (1u << o.width) - 1u;
    for (o.base = 0; o.base < 256; o.base += o.width) {
        uint32_t group = (regs[o.base / 32] >> (o.base % 32)) & o.all;
        int n = 0;
        for (; group != 0; group &= group - 1u)
            n++;
        if (n > 0)
            TRY(checkregs(V, &o, n));
    }
    return 1;
}

static int checkcode(vstate *V, void *scratch, size_t size)
{
    const proto *p = V->p;
    CHECK(V, p->sizecode >= 1, "function without code");
    CHECK(V, p->is_vararg == (opat(p, 0) == OP_VARARGPREP),
          "vararg function without VARARGPREP");
    for (V->pc = 0; V->pc < p->sizecode; V->pc++) {
        int next;
        TRY(checkinstr(V, p->code[V->pc], &next));
        if (next >= 0)
            TRY(edge(V, next));
    }
    V->pc = -1;
    /* nothing is ever open without a capture or a to-be-closed variable */
    return !V->needclose || checkopen(V, scratch, size);
}

static int checkheader(vstate *V, const proto *parent)
{
    const proto *p = V->p;
    CHECK(V,
          p->maxstacksize >= VERIFY_MINSTACK && p->maxstacksize <= OP_MAXREGS,
          "frame size out of range");
    CHECK(V, p->numparams <= p->maxstacksize,
          "more parameters than registers");
    CHECK(V, p->is_vararg <= 1, "bad vararg flag");
    CHECK(V, p->sizeupvalues <= PARSE_MAXUPVAL, "too many upvalues");
    CHECK(V, p->linedefined >= 0 && p->linedefined <= p->lastlinedefined,
          "bad line range");
    for (int i = 0; i < p->sizeupvalues; i++) {
        const upvaldesc *u = &p->upvalues[i];
        CHECK(V, u->instack <= 1 && u->kind <= VD_CLOSE,
              "bad upvalue description");
        if (parent != NULL)
            CHECK(V,
                  u->instack ? u->idx < parent->maxstacksize
                             : u->idx < parent->sizeupvalues,
                  "upvalue not in the enclosing function");
    }
    for (int i = 0; i < p->sizep; i++)
        CHECK(V, p->p[i] != NULL, "missing nested function");
    return 1;
}

static int checklines(vstate *V)
{
    const proto *p = V->p;
    if (p->sizelineinfo == 0) {
        CHECK(V, p->sizeabslineinfo == 0, "absolute lines without lines");
        return 1;
    }
    CHECK(V, p->sizelineinfo == p->sizecode, "line information size");
    int j = 0, gap = 0;
    for (int pc = 0; pc < p->sizecode; pc++) {
        if (p->lineinfo[pc] == OP_ABSLINE) {
            CHECK(V, j < p->sizeabslineinfo && p->abslineinfo[j].pc == pc,
                  "absolute line information out of step");
            CHECK(V, p->abslineinfo[j].line >= 0, "negative line");
            j++;
            gap = 0;
        } else {
            /* dbg_getline adds at most this many deltas */
            CHECK(V, ++gap <= OP_MAXIWTHABS, "too few absolute lines");
        }
    }
    CHECK(V, j == p->sizeabslineinfo, "absolute line information out of step");
    return 1;
}

/* Locals: ranges in the code, in order of their start, and never more
 * of them active at once than the frame has registers. */
static int checklocals(vstate *V, int32_t *active)
{
    const proto *p = V->p;
    int nactive = 0, laststart = 0;
    for (int i = 0; i < p->sizelocvars; i++) {
        const locvar *lv = &p->locvars[i];
        CHECK(V, lv->name != NULL, "local without a name");
        CHECK(V,
              lv->startpc >= laststart && lv->startpc <= lv->endpc &&
                  lv->endpc <= p->sizecode,
              "bad local range");
        laststart = lv->startpc;
        int kept = 0;
        for (int j = 0; j < nactive; j++)
            if (active[j] > lv->startpc)
                active[kept++] = active[j];
        nactive = kept;
        if (lv->startpc < lv->endpc) {
            CHECK(V, nactive < p->maxstacksize, "more locals than registers");
            active[nactive++] = lv->endpc;
        }
    }
    return 1;
}

/* Bytes of scratch for the locals and for the open-upvalue search with
 * fields of `width` bits (needclose: p needs that search). */
static size_t scratchfor(const proto *p, int needclose, int width)
{
    size_t locals =
        p->sizelocvars > 0 ? sizeof(int32_t) * (size_t)p->maxstacksize : 0;
    size_t open =
        needclose ? ((size_t)p->sizecode * (size_t)width + 31) / 32 * 4 : 0;
    return locals > open ? locals : open;
}

size_t verify_scratchsize(const proto *p)
{
    return scratchfor(p, needsclose(p), 1);
}

size_t verify_scratchfast(const proto *p, size_t *least)
{
    int needclose = needsclose(p);
    *least = scratchfor(p, needclose, 1);
    return scratchfor(p, needclose, 32);
}

const char *verify_proto(const proto *p, const proto *parent, void *scratch,
                         size_t size, int *pc)
{
    vstate V;
    V.p = p;
    V.pc = -1;
    V.needclose = needsclose(p);
    V.why = NULL;
    if (scratch == NULL ? scratchfor(p, V.needclose, 1) > 0
                        : size < scratchfor(p, V.needclose, 1)) {
        *pc = -1;
        return "no room to check it";
    }
    if (checkheader(&V, parent) && checkcode(&V, scratch, size) &&
        checklines(&V) && (p->sizelocvars == 0 || checklocals(&V, scratch)))
        return NULL;
    *pc = V.pc;
    return V.why;
}
