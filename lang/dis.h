/*
 * dis.h — a disassembler for rtlua bytecode (vm/opcodes.h), for tests and
 * debugging: one line per instruction, "pc [line] OPNAME args" (the line
 * as vm/debug.c's dbg_getline reads it), written into a caller buffer
 * (the lang/ layer prints nothing itself).
 *
 * Operands are shown by format: ABC as "A B C" (with "k" when the k bit
 * is set), ABx as "A Bx", AsBx as "A sBx", Ax as "Ax", sJ as the jump
 * target "-> pc".  Nested prototypes are not followed.
 */
#ifndef RTLUA_DIS_H
#define RTLUA_DIS_H

#include "vm/obj.h"

#include <stddef.h>

/* The listing of p's code; returns the bytes it needed (it writes at
 * most cap - 1 of them and always terminates when cap > 0). */
size_t dis_proto(const proto *p, char *buf, size_t cap);

#endif
