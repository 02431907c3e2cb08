/*
 * dump.h — rtlua's binary chunks: the format, the writer (lua_dump,
 * string.dump) and the loader (load and friends in mode "b").
 *
 * The format is rtlua's own.  All multi-byte numbers in it are either
 * unsigned LEB128 varints ("v": 7 bits a byte, low group first, high bit
 * = more; at most 5 bytes, minimal) or raw values in the writer's native
 * byte order ("n"), which the header's check word pins down.  Offsets
 * count from the first byte of the chunk.
 *
 *   header  0x1B "rtlua"          the escape byte tells binary from text
 *           u8 DUMP_VERSION       the format version
 *           u8 sizeof lua_Integer the number model: 4 4 (RTLUA_NUM=32) or
 *           u8 sizeof lua_Number  8 8 (RTLUA_NUM=64)
 *           u8 sizeof Instruction 4
 *           u8 0                  reserved flags
 *           u8 upvalues           of the main function (its closure is
 *                                 made before its prototype is read)
 *           n32 DUMP_CHECKWORD    byte order
 *           nNum DUMP_CHECKNUM    float format
 *   function
 *           u8 flags              DUMP_F_VARARG | DUMP_F_SOURCE |
 *                                 DUMP_F_DEBUG
 *           u8 numparams, u8 maxstacksize
 *           v linedefined, v lastlinedefined
 *           [string source]       with DUMP_F_SOURCE; without it the
 *                                 source is the enclosing function's (none
 *                                 for the main function)
 *           v sizecode, zero bytes up to a multiple of 4, then
 *             sizecode n32 instructions
 *           v sizek, each: u8 DUMP_K_*, then nInt | nNum | string
 *           v sizeupvalues, each: u8 instack, u8 idx, u8 kind
 *           v sizep, each a function
 *           with DUMP_F_DEBUG:
 *             v sizelineinfo (0 or sizecode), that many signed bytes
 *             v sizeabslineinfo, each: v pc, v line
 *             v sizelocvars, each: string name, v startpc, v endpc
 *             v upvalue names (0 or sizeupvalues), each a string
 *   string  v 0 for none, else length + 1, then the bytes
 *
 * Stripping (string.dump(f, true)) leaves out DUMP_F_SOURCE and
 * DUMP_F_DEBUG: no source, lines, local or upvalue names, as lua5.4's.
 *
 * Loading treats the bytes as hostile.  Every size is checked against
 * the bytes that are left before anything is allocated, every prototype
 * goes through lang/verify.h before its closure can run, and any failure
 * raises "<name>: bad binary format (<why>)" (LUA_ERRSYNTAX), "truncated
 * chunk" when the bytes end early.  A chunk of another version, number
 * model, instruction size, byte order or float format is refused by its
 * header.  The function being built is always reachable by the
 * collector: the main closure sits on the stack from the start, each
 * prototype is stored in its parent (or the closure) as soon as it is
 * made, each array is installed with its size at once (slots cleared),
 * and each string is stored before the next allocation.
 *
 * Reading in place (a later issue runs precompiled images from flash):
 * the code array is the only large part, and the format keeps it
 * 4-byte aligned relative to the start of the chunk, in native order,
 * exactly as proto.code holds it.  So when the image itself is 4-byte
 * aligned (flash images are), undump can point proto.code at the image
 * instead of copying (one place: loadcode in lang/undump.c), marking the
 * prototype so that fn_freeproto does not free it; an image at an odd
 * address keeps the copy.  The verifier reads the code only, so it works
 * on flash as well.
 */
#ifndef RTLUA_DUMP_H
#define RTLUA_DUMP_H

#include "include/lua.h"
#include "vm/opcodes.h"
#include "vm/state.h"

#include <stddef.h>

/* First bytes of every rtlua binary chunk. */
#define DUMP_SIGNATURE "\x1brtlua"
#define DUMP_SIGNATURE_LEN 6
/* Format version: bumped whenever the layout or the bytecode changes. */
#define DUMP_VERSION 1
/* Read in native order, this word tells the chunk's byte order. */
#define DUMP_CHECKWORD 0x12345678u
/* A float whose bytes tell the float format (exact in binary). */
#define DUMP_CHECKNUM (-370.5)
/* The code array starts at a multiple of this offset. */
#define DUMP_CODE_ALIGN 4

/* Function flags. */
#define DUMP_F_VARARG 1u
#define DUMP_F_SOURCE 2u
#define DUMP_F_DEBUG 4u
#define DUMP_F_ALL (DUMP_F_VARARG | DUMP_F_SOURCE | DUMP_F_DEBUG)

/* Constant tags. */
#define DUMP_K_NIL 0
#define DUMP_K_FALSE 1
#define DUMP_K_TRUE 2
#define DUMP_K_INT 3
#define DUMP_K_FLT 4
#define DUMP_K_STR 5

/* Write function f as a binary chunk through `writer`; returns 0 or the
 * writer's first non-zero status.  Allocates nothing itself (the writer
 * may: f must stay reachable, as it is on the stack for lua_dump). */
int dump_function(lua_State *L, const proto *f, lua_Writer writer, void *data,
                  int strip);

/* The verifier's scratch block for a load (verify_scratchsize): as
 * large as the largest any prototype seen so far needed, grown as a
 * larger one comes (never a fixed OP_MAXREGS array: a 1,020-byte block
 * is a large one in a small arena). */
typedef struct undump_scratch {
    void *p;  /* NULL until a prototype needs it */
    size_t n; /* bytes at p */
} undump_scratch;

/* Inside a protected call: read the binary chunk s[0..len-1] and push
 * its main closure, whose upvalues are fresh and closed (the caller sets
 * the first to the globals).  chunkname as given to load.  *scratch
 * starts {NULL, 0}; the caller frees it after the protected call,
 * whatever happened (undump_freescratch). */
void undump_chunk(lua_State *L, const char *s, size_t len,
                  const char *chunkname, undump_scratch *scratch);
void undump_freescratch(lua_State *L, undump_scratch *scratch);

#endif
