/*
 * opcodes.h — rtlua's register bytecode: the contract between the
 * compiler (lang/code.c) and the interpreter (vm/vm.c).
 *
 * An instruction is 32 bits, the opcode in the low 7 bits:
 *
 *   iABC    op:7  A:8  k:1  B:8  C:8
 *   iABx    op:7  A:8  Bx:17          (unsigned)
 *   iAsBx   op:7  A:8  sBx:17         (Bx - OP_OFFSET_SBX)
 *   iAx     op:7  Ax:25
 *   isJ     op:7  sJ:25               (Ax - OP_OFFSET_SJ)
 *
 * Bit positions: op 0..6, A 7..14, k 15, B 16..23, C 24..31; Bx and sBx
 * are bits 15..31; Ax and sJ bits 7..31.  sB and sC are signed 8-bit
 * immediates stored with an excess of OP_OFFSET_SC (so -127..128).
 *
 * Notation: R[x] register x of the frame (base + x), K[x] constant x of
 * the prototype, Up[x] upvalue x of the running closure, RK(C) is K[C]
 * when k is 1 and R[C] when k is 0.  `pc` is already the index of the
 * next instruction when an instruction runs, so "pc++" skips one.
 *
 * Frames: a Lua function's registers R[0 .. maxstacksize-1] start just
 * above its function slot; parameters are R[0 .. numparams-1].  A vararg
 * function begins with VARARGPREP, after which the same holds and the
 * extra arguments are kept where only VARARG reads them (vm/ decides
 * where).  The compiler never reads a register it has not written.
 *
 * Calls: CALL A B C calls R[A] with the B-1 values above it (B == 0: up
 * to the top left by the previous open instruction: CALL with C == 0 or
 * VARARG with C == 0).  Results go to R[A] .. R[A+C-2]; C == 0 keeps all
 * and sets the top (the next instruction must be CALL/RETURN/SETLIST
 * with B == 0 or TAILCALL with B == 0, which consume it).
 *
 * Comparisons (EQ .. GEI) and TEST are always followed by a JMP: the
 * instruction skips that JMP (pc++) when its condition differs from k,
 * so the JMP runs exactly when (condition == k).
 *
 * Metamethods: arithmetic, bitwise, comparison, concatenation, length,
 * index and newindex instructions call the metamethod themselves when
 * the fast path does not apply (there are no separate MMBIN opcodes).
 * The order of operands given to a metamethod is the source order; the
 * compiler never swaps operands of a non-commutative operation, and
 * swaps none at all except GTI/GEI (which say so).
 *
 * Error messages name the offending value from what loaded it
 * (vm/debug.c reads the bytecode backwards): GETTABUP from an upvalue
 * named "_ENV" with a constant string key is a global, GETFIELD/GETTABUP
 * a field, GETUPVAL an upvalue, SELF a method, a register with an active
 * local variable a local, LOADK of a string a constant.  So the compiler
 * must keep locvars in register order: at any pc, the n-th active local
 * variable (in declaration order, counting only those that live in
 * registers) is in R[n-1].  Compile-time constants (`local x <const> =
 * 10` with a constant value) take no register and have no locvar.
 *
 * Line information (proto.lineinfo/abslineinfo): lineinfo[pc] is the
 * signed delta from the line of instruction pc-1 (the line before pc 0 is
 * linedefined), or OP_ABSLINE when the delta does not fit in -127..127;
 * then abslineinfo holds {pc, line} for it.  The compiler also writes an
 * abslineinfo entry at least every OP_MAXIWTHABS instructions, so finding
 * a line (vm/debug.c) is a binary search plus at most that many adds.
 */
#ifndef RTLUA_OPCODES_H
#define RTLUA_OPCODES_H

#include <stdint.h>

#define OP_SIZE_OP 7
#define OP_SIZE_A 8
#define OP_SIZE_B 8
#define OP_SIZE_C 8
#define OP_SIZE_BX 17
#define OP_SIZE_AX 25

#define OP_POS_A 7
#define OP_POS_K 15
#define OP_POS_B 16
#define OP_POS_C 24
#define OP_POS_BX 15
#define OP_POS_AX 7

#define OP_MAXARG_A 255
#define OP_MAXARG_B 255
#define OP_MAXARG_C 255
#define OP_MAXARG_BX ((1 << OP_SIZE_BX) - 1)
#define OP_MAXARG_AX ((1 << OP_SIZE_AX) - 1)
#define OP_OFFSET_SBX (OP_MAXARG_BX >> 1)
#define OP_OFFSET_SJ (OP_MAXARG_AX >> 1)
#define OP_OFFSET_SC 127

/* Largest register index + 1 a function may use. */
#define OP_MAXREGS 255
/* lineinfo value meaning "look in abslineinfo". */
#define OP_ABSLINE (-128)
/* At most this many instructions between abslineinfo entries. */
#define OP_MAXIWTHABS 128

#define GET_OP(i) ((int)((i)&0x7Fu))
#define GETARG_A(i) ((int)(((i) >> OP_POS_A) & 0xFFu))
#define GETARG_B(i) ((int)(((i) >> OP_POS_B) & 0xFFu))
#define GETARG_C(i) ((int)(((i) >> OP_POS_C) & 0xFFu))
#define GETARG_k(i) ((int)(((i) >> OP_POS_K) & 1u))
#define GETARG_sB(i) (GETARG_B(i) - OP_OFFSET_SC)
#define GETARG_sC(i) (GETARG_C(i) - OP_OFFSET_SC)
#define GETARG_Bx(i) ((int)((i) >> OP_POS_BX))
#define GETARG_sBx(i) (GETARG_Bx(i) - OP_OFFSET_SBX)
#define GETARG_Ax(i) ((int)((i) >> OP_POS_AX))
#define GETARG_sJ(i) (GETARG_Ax(i) - OP_OFFSET_SJ)

#define CREATE_ABCk(o, a, b, c, k)                                            \
    ((uint32_t)(o) | ((uint32_t)(a) << OP_POS_A) |                            \
     ((uint32_t)(k) << OP_POS_K) | ((uint32_t)(b) << OP_POS_B) |              \
     ((uint32_t)(c) << OP_POS_C))
#define CREATE_ABx(o, a, bx)                                                  \
    ((uint32_t)(o) | ((uint32_t)(a) << OP_POS_A) |                            \
     ((uint32_t)(bx) << OP_POS_BX))
#define CREATE_Ax(o, ax) ((uint32_t)(o) | ((uint32_t)(ax) << OP_POS_AX))
#define CREATE_sJ(o, j) CREATE_Ax(o, (uint32_t)((j) + OP_OFFSET_SJ))

#define SETARG_A(i, v)                                                        \
    ((i) = ((i) & ~(0xFFu << OP_POS_A)) | ((uint32_t)(v) << OP_POS_A))
#define SETARG_B(i, v)                                                        \
    ((i) = ((i) & ~(0xFFu << OP_POS_B)) | ((uint32_t)(v) << OP_POS_B))
#define SETARG_C(i, v)                                                        \
    ((i) = ((i) & ~(0xFFu << OP_POS_C)) | ((uint32_t)(v) << OP_POS_C))
#define SETARG_k(i, v)                                                        \
    ((i) = ((i) & ~(1u << OP_POS_K)) | ((uint32_t)(v) << OP_POS_K))
#define SETARG_Bx(i, v)                                                       \
    ((i) = ((i) & ((1u << OP_POS_BX) - 1u)) | ((uint32_t)(v) << OP_POS_BX))
#define SETARG_sBx(i, v) SETARG_Bx(i, (uint32_t)((v) + OP_OFFSET_SBX))
#define SETARG_Ax(i, v) ((i) = ((i)&0x7Fu) | ((uint32_t)(v) << OP_POS_AX))
#define SETARG_sJ(i, v) SETARG_Ax(i, (uint32_t)((v) + OP_OFFSET_SJ))

/*
 * The opcodes.  OPX(name, format) lists them once; the enum, the names
 * for the disassembler and the format table come from it.
 */
#define OP_LIST(OPX)                                                          \
    /* MOVE A B        R[A] = R[B] */                                         \
    OPX(MOVE, ABC)                                                            \
    /* LOADI A sBx     R[A] = (integer) sBx */                                \
    OPX(LOADI, AsBx)                                                          \
    /* LOADF A sBx     R[A] = (float) sBx */                                  \
    OPX(LOADF, AsBx)                                                          \
    /* LOADK A Bx      R[A] = K[Bx] */                                        \
    OPX(LOADK, ABx)                                                           \
    /* LOADKX A        R[A] = K[Ax of the next instruction, EXTRAARG] */      \
    OPX(LOADKX, ABx)                                                          \
    /* LOADFALSE A     R[A] = false */                                        \
    OPX(LOADFALSE, ABC)                                                       \
    /* LFALSESKIP A    R[A] = false; pc++ */                                  \
    OPX(LFALSESKIP, ABC)                                                      \
    /* LOADTRUE A      R[A] = true */                                         \
    OPX(LOADTRUE, ABC)                                                        \
    /* LOADNIL A B     R[A], R[A+1], ..., R[A+B] = nil */                     \
    OPX(LOADNIL, ABC)                                                         \
    /* GETUPVAL A B    R[A] = Up[B] */                                        \
    OPX(GETUPVAL, ABC)                                                        \
    /* SETUPVAL A B    Up[B] = R[A] */                                        \
    OPX(SETUPVAL, ABC)                                                        \
    /* GETTABUP A B C  R[A] = Up[B][K[C]]        K[C] a short string */       \
    OPX(GETTABUP, ABC)                                                        \
    /* GETTABLE A B C  R[A] = R[B][R[C]] */                                   \
    OPX(GETTABLE, ABC)                                                        \
    /* GETI A B C      R[A] = R[B][C]            C an integer 0..255 */       \
    OPX(GETI, ABC)                                                            \
    /* GETFIELD A B C  R[A] = R[B][K[C]]         K[C] a short string */       \
    OPX(GETFIELD, ABC)                                                        \
    /* SETTABUP A B C k  Up[A][K[B]] = RK(C)     K[B] a short string */       \
    OPX(SETTABUP, ABC)                                                        \
    /* SETTABLE A B C k  R[A][R[B]] = RK(C) */                                \
    OPX(SETTABLE, ABC)                                                        \
    /* SETI A B C k    R[A][B] = RK(C)           B an integer 0..255 */       \
    OPX(SETI, ABC)                                                            \
    /* SETFIELD A B C k  R[A][K[B]] = RK(C)      K[B] a short string */       \
    OPX(SETFIELD, ABC)                                                        \
    /* NEWTABLE A B C  R[A] = {}; always followed by EXTRAARG.  B: hash */    \
    /*   size hint, 0 for none or log2(size)+1; array size hint C + 256*Ax */ \
    /*   of the EXTRAARG. */                                                  \
    OPX(NEWTABLE, ABC)                                                        \
    /* SELF A B C k    R[A+1] = R[B]; R[A] = R[B][RK(C)]  (a string key) */   \
    OPX(SELF, ABC)                                                            \
    /* ADDI A B sC k   R[A] = R[B] + sC (k: the source is R[B] - (-sC), */    \
    /*   whose metamethod and messages the slow path keeps) */                \
    OPX(ADDI, ABC)                                                            \
    /* ADDK .. BXORK A B C   R[A] = R[B] op K[C]   K[C] a number */           \
    OPX(ADDK, ABC)                                                            \
    OPX(SUBK, ABC)                                                            \
    OPX(MULK, ABC)                                                            \
    OPX(MODK, ABC)                                                            \
    OPX(POWK, ABC)                                                            \
    OPX(DIVK, ABC)                                                            \
    OPX(IDIVK, ABC)                                                           \
    OPX(BANDK, ABC)                                                           \
    OPX(BORK, ABC)                                                            \
    OPX(BXORK, ABC)                                                           \
    /* ADD .. SHR A B C    R[A] = R[B] op R[C] */                             \
    OPX(ADD, ABC)                                                             \
    OPX(SUB, ABC)                                                             \
    OPX(MUL, ABC)                                                             \
    OPX(MOD, ABC)                                                             \
    OPX(POW, ABC)                                                             \
    OPX(DIV, ABC)                                                             \
    OPX(IDIV, ABC)                                                            \
    OPX(BAND, ABC)                                                            \
    OPX(BOR, ABC)                                                             \
    OPX(BXOR, ABC)                                                            \
    OPX(SHL, ABC)                                                             \
    OPX(SHR, ABC)                                                             \
    /* UNM A B         R[A] = -R[B] */                                        \
    OPX(UNM, ABC)                                                             \
    /* BNOT A B        R[A] = ~R[B] */                                        \
    OPX(BNOT, ABC)                                                            \
    /* NOT A B         R[A] = not R[B] */                                     \
    OPX(NOT, ABC)                                                             \
    /* LEN A B         R[A] = #R[B] */                                        \
    OPX(LEN, ABC)                                                             \
    /* CONCAT A B      R[A] = R[A] .. ... .. R[A+B-1]   (B >= 2) */           \
    OPX(CONCAT, ABC)                                                          \
    /* CLOSE A         close upvalues and to-be-closed variables >= R[A] */   \
    OPX(CLOSE, ABC)                                                           \
    /* TBC A           R[A] becomes a to-be-closed variable */                \
    OPX(TBC, ABC)                                                             \
    /* JMP sJ          pc += sJ */                                            \
    OPX(JMP, sJ)                                                              \
    /* EQ A B k        if ((R[A] == R[B]) ~= k) then pc++ */                  \
    OPX(EQ, ABC)                                                              \
    /* LT A B k        if ((R[A] <  R[B]) ~= k) then pc++ */                  \
    OPX(LT, ABC)                                                              \
    /* LE A B k        if ((R[A] <= R[B]) ~= k) then pc++ */                  \
    OPX(LE, ABC)                                                              \
    /* EQK A B k       if ((R[A] == K[B]) ~= k) then pc++ */                  \
    OPX(EQK, ABC)                                                             \
    /* EQI A sB k      if ((R[A] == sB) ~= k) then pc++   (sB an integer) */  \
    OPX(EQI, ABC)                                                             \
    /* LTI A sB k      if ((R[A] <  sB) ~= k) then pc++ */                    \
    OPX(LTI, ABC)                                                             \
    /* LEI A sB k      if ((R[A] <= sB) ~= k) then pc++ */                    \
    OPX(LEI, ABC)                                                             \
    /* GTI A sB k      if ((R[A] >  sB) ~= k) then pc++   source: sB < x; */  \
    /*   an __lt metamethod gets (sB, R[A]) and errors name sB first */       \
    OPX(GTI, ABC)                                                             \
    /* GEI A sB k      if ((R[A] >= sB) ~= k) then pc++   source: sB <= x */  \
    OPX(GEI, ABC)                                                             \
    /* TEST A k        if (truthy(R[A]) ~= k) then pc++ */                    \
    OPX(TEST, ABC)                                                            \
    /* TESTSET A B k   if (truthy(R[B]) ~= k) then pc++ else R[A] = R[B] */   \
    OPX(TESTSET, ABC)                                                         \
    /* CALL A B C      R[A], ..., R[A+C-2] = R[A](R[A+1], ..., R[A+B-1]) */   \
    OPX(CALL, ABC)                                                            \
    /* TAILCALL A B k  return R[A](R[A+1], ..., R[A+B-1]); k: close the */    \
    /*   frame's upvalues first (never used with to-be-closed variables) */   \
    OPX(TAILCALL, ABC)                                                        \
    /* RETURN A B k    return R[A], ..., R[A+B-2]  (B == 0: up to top); */    \
    /*   k: close upvalues and to-be-closed variables of the frame first */   \
    OPX(RETURN, ABC)                                                          \
    /* RETURN0         return (no values, nothing to close) */                \
    OPX(RETURN0, ABC)                                                         \
    /* RETURN1 A       return R[A] (nothing to close) */                      \
    OPX(RETURN1, ABC)                                                         \
    /* FORLOOP A Bx    numeric loop step: if another iteration, update */     \
    /*   R[A..A+3] and pc -= Bx (back to the body) */                         \
    OPX(FORLOOP, ABx)                                                         \
    /* FORPREP A Bx    R[A] init, R[A+1] limit, R[A+2] step; check and */     \
    /*   prepare; R[A+3] = first value; if the loop runs zero times, */       \
    /*   pc += Bx + 1 (past the FORLOOP) */                                   \
    OPX(FORPREP, ABx)                                                         \
    /* TFORPREP A Bx   R[A+3] becomes to-be-closed (unless nil or false); */  \
    /*   pc += Bx (to the TFORCALL) */                                        \
    OPX(TFORPREP, ABx)                                                        \
    /* TFORCALL A C    R[A+4], ..., R[A+3+C] = R[A](R[A+1], R[A+2]) */        \
    OPX(TFORCALL, ABC)                                                        \
    /* TFORLOOP A Bx   if R[A+4] ~= nil then { R[A+2] = R[A+4]; pc -= Bx } */ \
    OPX(TFORLOOP, ABx)                                                        \
    /* SETLIST A B C   R[A][C+i] = R[A+i], 1 <= i <= B (B == 0: up to */      \
    /*   top); always followed by EXTRAARG: C += 256 * Ax */                  \
    OPX(SETLIST, ABC)                                                         \
    /* CLOSURE A Bx    R[A] = closure of prototype p[Bx] */                   \
    OPX(CLOSURE, ABx)                                                         \
    /* VARARG A C      R[A], ..., R[A+C-2] = vararg (C == 0: all, top set) */ \
    OPX(VARARG, ABC)                                                          \
    /* VARARGPREP A    first instruction of a vararg function; A is its */    \
    /*   number of fixed parameters */                                        \
    OPX(VARARGPREP, ABC)                                                      \
    /* EXTRAARG Ax     argument of the previous instruction */                \
    OPX(EXTRAARG, Ax)

enum op_format { OPF_ABC, OPF_ABx, OPF_AsBx, OPF_Ax, OPF_sJ };

#define OP_ENUM(name, fmt) OP_##name,
enum opcode { OP_LIST(OP_ENUM) OP_NUM };
#undef OP_ENUM

/* A test: a comparison (EQ .. GEI), TEST or TESTSET, always followed by
 * the JMP it skips or not (OP_LIST keeps them together, in that order). */
#define OP_ISTEST(op) ((op) >= OP_EQ && (op) <= OP_TESTSET)

/* Does the instruction take its operand count from the top the previous
 * one left (B == 0 of CALL, TAILCALL, RETURN and SETLIST)?  The one
 * copy, for the verifier (lang/verify.c) and the hooks (vm/debug.c). */
static inline int op_usestop(uint32_t i)
{
    switch (GET_OP(i)) {
    case OP_CALL:
    case OP_TAILCALL:
    case OP_RETURN:
    case OP_SETLIST:
        return GETARG_B(i) == 0;
    default:
        return 0;
    }
}

/* Opcode names ("MOVE") and formats, indexed by opcode (vm/debug.c). */
extern const char *const op_names[OP_NUM];
extern const uint8_t op_formats[OP_NUM];

#endif
