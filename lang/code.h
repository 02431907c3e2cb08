/*
 * code.h — the code generator: register allocation, instruction emission,
 * jump lists, constants, constant folding and line information for the
 * single-pass parser (lang/parse.h).
 *
 * An expdesc is turned into instructions only when its use is known
 * (code_exp2*), so `a.b = c + 1` picks SETFIELD with ADDI, and a
 * constant expression is folded and takes no instruction at all.
 *
 * Jump lists: the pending jumps of a condition are chained through their
 * own sJ fields (an offset to the next jump of the list, NO_JUMP ending
 * it) until code_patchlist gives them their target.  A jump whose control
 * instruction is TESTSET can still deliver its value to a register.
 *
 * Invariants: fs->pc == number of instructions, lineinfo has one entry
 * per instruction, every register below freereg is in use, and the
 * prototype's arrays are always fully initialised (the collector may
 * traverse them at any allocation).
 */
#ifndef RTLUA_CODE_H
#define RTLUA_CODE_H

#include "include/lua.h"
#include "lang/parse.h"

/* Binary operators, the arithmetic ones in LUA_OP* / OP_ADD order. */
typedef enum binopr {
    OPR_ADD,
    OPR_SUB,
    OPR_MUL,
    OPR_MOD,
    OPR_POW,
    OPR_DIV,
    OPR_IDIV,
    OPR_BAND,
    OPR_BOR,
    OPR_BXOR,
    OPR_SHL,
    OPR_SHR,
    OPR_CONCAT,
    OPR_EQ,
    OPR_LT,
    OPR_LE,
    OPR_NE,
    OPR_GT,
    OPR_GE,
    OPR_AND,
    OPR_OR,
    OPR_NOBINOPR
} binopr;

typedef enum unopr {
    OPR_MINUS,
    OPR_BNOT,
    OPR_NOT,
    OPR_LEN,
    OPR_NOUNOPR
} unopr;

/* Anchor s in fs's table (so it survives allocations). */
void code_anchor(FuncState *fs, str *s);

/* Register number meaning "no register" in a TESTSET waiting for one. */
#define CODE_NOREG OP_MAXARG_A

int code_emit(FuncState *fs, instr i);
int code_ABCk(FuncState *fs, int op, int a, int b, int c, int k);
#define code_ABC(fs, op, a, b, c) code_ABCk(fs, op, a, b, c, 0)
int code_ABx(FuncState *fs, int op, int a, int bx);
int code_AsBx(FuncState *fs, int op, int a, int sbx);
/* An EXTRAARG carrying ax. */
int code_extraarg(FuncState *fs, int ax);

void code_nil(FuncState *fs, int from, int n);
void code_int(FuncState *fs, int reg, rt_int i);
void code_checkstack(FuncState *fs, int n);
void code_reserveregs(FuncState *fs, int n);
/* Registers in use by active locals. */
int code_nvarstack(FuncState *fs);
/* Register of the first local at or above variable index nvar. */
int code_reglevel(FuncState *fs, int nvar);

int code_stringK(FuncState *fs, str *s);
/* When e is a compile-time constant, write its value and return 1. */
int code_exp2const(FuncState *fs, const expdesc *e, tvalue *v);
/* The expression for a compile-time constant value. */
void code_const2exp(const tvalue *v, expdesc *e);

void code_dischargevars(FuncState *fs, expdesc *e);
int code_exp2anyreg(FuncState *fs, expdesc *e);
void code_exp2anyregup(FuncState *fs, expdesc *e);
void code_exp2nextreg(FuncState *fs, expdesc *e);
void code_exp2val(FuncState *fs, expdesc *e);
void code_setreturns(FuncState *fs, expdesc *e, int nresults);
#define code_setmultret(fs, e) code_setreturns(fs, e, LUA_MULTRET)
void code_setoneret(FuncState *fs, expdesc *e);
void code_storevar(FuncState *fs, expdesc *var, expdesc *ex);
void code_self(FuncState *fs, expdesc *e, expdesc *key);
void code_indexed(FuncState *fs, expdesc *t, expdesc *k);
void code_goiftrue(FuncState *fs, expdesc *e);
void code_goiffalse(FuncState *fs, expdesc *e);
void code_freeexp(FuncState *fs, expdesc *e);

void code_prefix(FuncState *fs, unopr op, expdesc *e, int line);
void code_infix(FuncState *fs, binopr op, expdesc *v);
void code_posfix(FuncState *fs, binopr op, expdesc *e1, expdesc *e2, int line);

int code_jump(FuncState *fs);
void code_ret(FuncState *fs, int first, int nret);
int code_getlabel(FuncState *fs);
void code_patchlist(FuncState *fs, int list, int target);
void code_patchtohere(FuncState *fs, int list);
void code_concat(FuncState *fs, int *l1, int l2);
void code_fixline(FuncState *fs, int line);

void code_settablesize(FuncState *fs, int pc, int ra, int asize, int hsize);
void code_setlist(FuncState *fs, int base, int nelems, int tostore);
/* Final fixes of a function: RETURN/TAILCALL close flags. */
void code_finish(FuncState *fs);

/* The instruction of an EK_RELOC/EK_CALL/EK_VARARG/EK_JMP expression. */
#define code_getinstr(fs, e) ((fs)->f->code[(e)->u.info])

#endif
