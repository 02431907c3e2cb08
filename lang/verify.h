/*
 * verify.h — the bytecode verifier: is a prototype read from a binary
 * chunk one the compiler could have made, as far as the interpreter and
 * the debug functions rely on it?
 *
 * The interpreter trusts the compiler's contract (vm/opcodes.h) and
 * checks nothing at run time, so a loaded prototype must keep it: every
 * register operand below maxstacksize (ranges included: CALL's arguments
 * and results, LOADNIL, CONCAT, SETLIST, TFORCALL's slots...), constant
 * operands below sizek and of the type the instruction reads, upvalue
 * operands below sizeupvalues, CLOSURE's index below sizep, every jump,
 * skip and loop target inside the code, nothing falling off its end;
 * the pairs the interpreter executes as one (a test and its JMP, LOADKX,
 * NEWTABLE and SETLIST with their EXTRAARG, FORPREP/FORLOOP,
 * TFORPREP/TFORCALL/TFORLOOP) complete; an instruction taking its count
 * from the top (B == 0) reached only from the CALL or VARARG that set it;
 * VARARGPREP first exactly in a vararg function, never a jump target; a
 * function that opens upvalues or to-be-closed variables closing them on
 * every return (as the compiler's needclose), and no call putting its
 * frame over a register that may hold an open upvalue or a to-be-closed
 * variable (found over the control flow); upvalue descriptors valid
 * in the enclosing function; line information in step with the code and
 * locals' ranges inside it, never more active locals than registers
 * (debug.getlocal indexes the frame by them).
 *
 * It reads the prototype only (no allocation): it can check code held
 * in flash.  Its time is linear in the code (lang/verify.c bounds the
 * search for open upvalues by VERIFY_OPEN_VISITS visits an instruction
 * for each register that can be open, and refuses a prototype past
 * them).  What it cannot see (the values a register holds at run time,
 * which debug.setlocal may change anyway)
 * the interpreter checks where a wrong type would be unsafe (SETLIST's
 * table, SELF's key).
 */
#ifndef RTLUA_VERIFY_H
#define RTLUA_VERIFY_H

#include "vm/obj.h"

/* The bytes of scratch verify_proto needs for p (0 for none): an int32_t
 * per register when it has local names, a bit per instruction (in whole
 * words) when it captures registers or has to-be-closed variables.  Its
 * nested prototypes must be there (loaded, or checked as pointers). */
size_t verify_scratchsize(const proto *p);
/* The bytes with which verify_proto checks p fastest: a word per
 * instruction instead of a bit, so that the search for open upvalues
 * follows 32 registers in one sweep of the code instead of one (each
 * power of 2 between is used when the scratch has room for it); *least
 * is set to verify_scratchsize(p). */
size_t verify_scratchfast(const proto *p, size_t *least);

/* NULL when p is acceptable; otherwise a static description of the
 * first problem, and *pc the instruction it is at (or -1).  `parent` is
 * the enclosing prototype (NULL for a main function; only its
 * maxstacksize and sizeupvalues are read).  `scratch` holds `size` bytes,
 * at least verify_scratchsize(p), aligned for an int32_t (NULL when that
 * is 0). */
const char *verify_proto(const proto *p, const proto *parent, void *scratch,
                         size_t size, int *pc);

#endif
