/*
 * debug.h — debug information: lines of instructions, names of values
 * for error messages, and the errors the interpreter raises with them.
 *
 * Names come from reading the bytecode backwards from the failing
 * instruction (vm/opcodes.h lists what each loading instruction means):
 * "global 'x'", "local 'x'", "upvalue 'x'", "field 'x'", "method 'x'",
 * "constant 'x'", as the reference interpreter words them.  The public
 * debug API (lua_getstack, lua_getinfo, lua_getlocal, lua_setlocal,
 * lua_sethook and friends) is implemented here too.
 */
#ifndef RTLUA_DEBUG_H
#define RTLUA_DEBUG_H

#include "vm/do.h"

/* Source line of instruction pc of p, or -1 without line information. */
int dbg_getline(const proto *p, int pc);
/* The current line of a Lua frame. */
int dbg_currentline(CallInfo *ci);
/* Name of local variable n (1-based) active at pc, or NULL. */
const char *dbg_getlocalname(const proto *p, int n, int pc);

/* The printable name of a chunk for messages, as the reference gives it
 * ("[string \"...\"]", a file name, or a literal "=name"), at most
 * LUA_IDSIZE bytes with the NUL.  The lexer's lex_chunkid may call it. */
void dbg_chunkid(char *out, const char *source, size_t srclen);

/* Prepend "chunk:line: " of the running Lua function (if it is one) to
 * msg and push the result; returns it. */
const char *dbg_addinfo(lua_State *L, const char *msg, str *src, int line);

/* Errors raised by the interpreter (all _Noreturn). */
_Noreturn void dbg_typeerror(lua_State *L, const tvalue *o, const char *op);
_Noreturn void dbg_callerror(lua_State *L, const tvalue *o);
_Noreturn void dbg_forerror(lua_State *L, const tvalue *o, const char *what);
_Noreturn void dbg_concaterror(lua_State *L, const tvalue *p1,
                               const tvalue *p2);
_Noreturn void dbg_opinterror(lua_State *L, const tvalue *p1, const tvalue *p2,
                              const char *msg);
_Noreturn void dbg_tointerror(lua_State *L, const tvalue *p1,
                              const tvalue *p2);
_Noreturn void dbg_ordererror(lua_State *L, const tvalue *p1,
                              const tvalue *p2);
/* Raise the error object at the top through the message handler
 * (L->errfunc) first, as lua_error does. */
_Noreturn void dbg_errormsg(lua_State *L);

/* Hooks: call the hook for event (LUA_HOOK*) at line (or -1). */
void dbg_hook(lua_State *L, int event, int line, int ftransfer, int ntransfer);
/* The interpreter's per-instruction hook check (line and count), called
 * with pc at the instruction about to run while ci->u.l.trap is set;
 * returns the new trap.  May raise a yield (a hook that yielded). */
int dbg_traceexec(lua_State *L, const instr *pc);
/* A safe point found G(L)->interrupt raised (rtlua_interrupt, rtlua.h):
 * raise "interrupted!", with the position of the running Lua function.
 * The interrupt stays pending. */
_Noreturn void dbg_interrupted(lua_State *L);

#endif
