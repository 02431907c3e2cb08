/*
 * scope.h — the parser's bookkeeping of names and scopes: local
 * variables (active, compile-time constant, to-be-closed), upvalues,
 * blocks, labels and pending gotos, and the opening and closing of a
 * function's prototype.
 *
 * Invariants (with parse.h's):
 *   - dyd.actvar[fs->firstlocal ..] are fs's declared locals; the first
 *     fs->nactvar of them are active.  An active local that is not a
 *     compile-time constant has a register (ridx) and a locvars entry
 *     (pidx); registers follow declaration order.
 *   - A block that declares a captured or to-be-closed variable has
 *     `upval` set: leaving it emits CLOSE (or the function's RETURN
 *     closes), and gotos out of it carry `close` to their label, where a
 *     CLOSE is emitted.
 *   - Pending gotos of a block are resolved by labels of that block or
 *     moved to the enclosing block when it closes; those left when the
 *     function's outermost block closes are errors ("no visible label",
 *     "break outside loop").
 *   - A goto may not jump forward into the scope of a local (labels at
 *     the end of a block see only the block's enclosing locals).
 */
#ifndef RTLUA_SCOPE_H
#define RTLUA_SCOPE_H

#include "lang/parse.h"

vardesc *scope_localvardesc(FuncState *fs, int vidx);
/* Declare a local (not yet active); its index relative to fs. */
int scope_newlocal(parser *ps, str *name);
/* Activate the last nvars declared locals: registers and debug info. */
void scope_activate(parser *ps, int nvars);
/* The innermost block gets a to-be-closed variable. */
void scope_marktbc(FuncState *fs);
/* Find name as a local, an upvalue (made when needed) or a constant of
 * fs or an enclosing function; EK_VOID when it is a global.  base: fs is
 * the function using it (so a local found there is not captured). */
void scope_singlevaraux(FuncState *fs, str *name, expdesc *var, int base);
/* "attempt to assign to const variable 'x'" when e is read-only. */
void scope_checkreadonly(parser *ps, expdesc *e);

void scope_enterblock(FuncState *fs, blockcnt *bl, int isloop);
void scope_leaveblock(FuncState *fs);
/* A pending goto (or break) whose jump is at pc. */
int scope_newgoto(parser *ps, str *name, int line, int pc);
/* A label visible in the current function, or NULL. */
labeldesc *scope_findlabel(parser *ps, str *name);
/* "label 'x' already defined on line N" when name is visible. */
void scope_checkrepeated(parser *ps, str *name);
/* A label at the current pc; `last`: at the end of its block.  Returns 1
 * when gotos to it needed a CLOSE (emitted). */
int scope_createlabel(parser *ps, str *name, int line, int last);

/* Start compiling fs->f (pushes its anchor table, opens bl). */
void scope_openfunc(parser *ps, FuncState *fs, blockcnt *bl);
/* Finish the current function: final RETURN, close flags, arrays shrunk
 * to their sizes, anchor table popped. */
void scope_closefunc(parser *ps);
/* A new prototype stored at once in the current function's p[]. */
proto *scope_addproto(parser *ps);
/* Upvalue 0 of the main function: _ENV. */
void scope_mainenv(FuncState *fs);

#endif
