/*
 * do.h — calls, returns, errors, protected calls, stack growth and
 * coroutines: the machinery under the interpreter and the C API.
 *
 * Each active function has a CallInfo on its thread's doubly linked ci
 * list (records are kept and reused; L->ci is the running one).  Errors
 * are longjmp to the innermost protected call (L->errorJmp) with the
 * error object at L->top - 1.  Lua-to-Lua calls never recurse in C (the
 * interpreter loop re-enters itself); C calls, metamethod calls from C
 * and resumes do, and are counted in L->nCcalls ("C stack overflow"
 * beyond LUAI_MAXCCALLS).
 *
 * Invariants:
 *   - stack <= ci->func < ci->top <= stack + stacklimit - DO_EXTRA_STACK
 *     for every record (stacklimit <= stacksize); while a Lua function runs
 * and may allocate or call, L->top == ci->top, so the collector sees all its
 * registers.
 *   - Pointers into the stack (ci->func, ci->top, L->top, L->tbclist,
 *     open upvalues) are fixed by do_growstack when the stack moves;
 *     anything else that held a stack pointer across a call or an
 *     allocation must have kept an offset (do_savestack/do_restorestack).
 *   - The stack always has DO_EXTRA_STACK slots above ci->top, so a
 *     metamethod call can push its function and operands without growing.
 */
#ifndef RTLUA_DO_H
#define RTLUA_DO_H

#include "include/lua.h"
#include "port/port.h"
#include "vm/state.h"
#include <stdarg.h>

/* Slots kept free above every frame's top (metamethod calls). */
#define DO_EXTRA_STACK 5

/* CallInfo.callstatus bits. */
#define CIST_C (1u << 0)         /* a C function */
#define CIST_FRESH (1u << 1)     /* a fresh vm_execute (return to C) */
#define CIST_HOOKED (1u << 2)    /* running a hook */
#define CIST_YPCALL (1u << 3)    /* a yieldable protected call */
#define CIST_TAIL (1u << 4)      /* made by a tail call */
#define CIST_HOOKYIELD (1u << 5) /* last hook yielded */
#define CIST_FIN (1u << 6)       /* a finalizer */
#define CIST_CLSRET (1u << 7)    /* closing tbc variables at return */
#define CIST_TRAN (1u << 8)      /* ftransfer/ntransfer valid */
/* A vararg function past VARARGPREP: its frame sits above its extra
 * arguments (set by VARARGPREP, cleared by a tail call). */
#define CIST_VARARG (1u << 9)
/* Bits 10..12: the error status a coroutine recovers with at a
 * CIST_YPCALL frame (vm/do.c). */
#define CIST_RECST 10

typedef struct CallInfo {
    tvalue *func; /* the function's slot; arguments follow */
    tvalue *top;  /* top of this frame */
    struct CallInfo *previous, *next;
    union {
        struct {                  /* Lua functions */
            const instr *savedpc; /* next instruction */
            volatile int trap;    /* the loop must re-check hooks/stack */
            int nextraargs;       /* extra arguments of a vararg call */
        } l;
        struct {                   /* C functions */
            lua_KFunction k;       /* continuation after a yield */
            ptrdiff_t old_errfunc; /* L->errfunc to restore */
            lua_KContext ctx;      /* the continuation's context */
        } c;
    } u;
    union {
        int funcidx; /* pcallk: the called function's slot */
        int nyield;  /* values yielded */
        int nres;    /* values returned (closing at return) */
        struct {     /* values transferred (call/ret hooks) */
            unsigned short ftransfer;
            unsigned short ntransfer;
        } transferinfo;
    } u2;
    int16_t nresults; /* results wanted, LUA_MULTRET for all */
    uint16_t callstatus;
} CallInfo;

/* Records are allocated in blocks of consecutive list entries (vm/do.c;
 * gc_check counts their bytes through L->ciblocks). */
typedef struct CallInfoBlock {
    struct CallInfoBlock *prev; /* the next older block */
    uint32_t n;                 /* records in ci[] */
    CallInfo ci[];
} CallInfoBlock;

#define ci_isLua(ci) (!((ci)->callstatus & CIST_C))
#define ci_func(ci) (gco2lcl(gc_of((ci)->func)))

/* Offsets of stack slots, for pointers held across a possible move. */
#define do_savestack(L, p) ((char *)(p) - (char *)(L)->stack)
#define do_restorestack(L, n) ((tvalue *)((char *)(L)->stack + (n)))

/* Room for n more slots above top (errors "stack overflow", or memory).
 * The checks compare with stacklimit, not stacksize: the slow path hands
 * out more of the stack first (see lua_State.stacklimit). */
#define do_checkstack(L, n)                                                   \
    do {                                                                      \
        if ((L)->stack + (L)->stacklimit - (L)->top <=                        \
            (ptrdiff_t)(n) + DO_EXTRA_STACK)                                  \
            do_growstack(L, (int)(n));                                        \
    } while (0)

/* Grow so n slots fit above top (plus DO_EXTRA_STACK), or raise "not
 * enough memory", "stack overflow" (past LUAI_MAXSTACK) or LUA_ERRERR (past
 * it while handling that).  do_trygrowstack raises nothing: 1 on success,
 * 0 on failure (two functions, not a flag, so that the one that cannot
 * raise calls nothing that does). */
void do_growstack(lua_State *L, int n);
int do_trygrowstack(lua_State *L, int n);
/* Make room for n more slots above top, within LUAI_MAXSTACK: 0, or -1
 * for no memory or too many (raises nothing; the unit tests use it). */
int do_ensurestack(lua_State *L, uint32_t n);

/* Raise: the error object is at L->top - 1.  status is LUA_ERR*. */
_Noreturn void do_throw(lua_State *L, int status);
/* Push a message ("%s %d %I %f %p %c %U %%", as lua_pushfstring) and
 * raise it as LUA_ERRRUN, with "chunk:line: " in front when the running
 * function is a Lua function. */
_Noreturn void do_runerror(lua_State *L, const char *fmt, ...);
/* "not enough memory" (the pre-made string) as LUA_ERRMEM. */
_Noreturn void do_memerror(lua_State *L);

/* Call f(L, ud) catching errors; returns LUA_OK or the status. */
typedef void (*do_pfunc)(lua_State *L, void *ud);
int do_rawrunprotected(lua_State *L, do_pfunc f, void *ud);
/* Protected call restoring the stack to `oldtop` (an offset) and closing
 * upvalues and tbc variables above it on error; ef is the message
 * handler's offset (0 none).  The error object is left at oldtop. */
int do_pcall(lua_State *L, do_pfunc f, void *ud, ptrdiff_t oldtop,
             ptrdiff_t ef);

/* Call the value at func with the values above it (up to L->top) as
 * arguments; nresults results (LUA_MULTRET: all) replace them from func
 * on, and L->top ends after the last.  Counts one C level. */
void do_call(lua_State *L, tvalue *func, int nresults);
/* The same, not yieldable. */
void do_callnoyield(lua_State *L, tvalue *func, int nresults);

/* For the interpreter: set up a call of func (a Lua function returns its
 * new CallInfo to run; a C function is run to completion and NULL is
 * returned, results in place).  __call is followed. */
CallInfo *do_precall(lua_State *L, tvalue *func, int nresults);
/* Move nres results (at L->top - nres) to ci->func and pop the frame. */
void do_poscall(lua_State *L, CallInfo *ci, int nres);
/* Prepare a tail call of func in ci; returns -1 when func was a Lua
 * function (ci reused, run it), or the number of results of a C function. */
int do_pretailcall(lua_State *L, CallInfo *ci, tvalue *func, int narg1,
                   int delta);
/* A new CallInfo after L->ci (reusing a kept one), or a memory error, or
 * "stack overflow" past LUAI_MAXSTACK / 5 nested calls.  It does not
 * change L->ci: the caller fills the record and then makes it current. */
CallInfo *do_nextci(lua_State *L);
/* Free the kept records above L->ci (whole blocks: records sharing a block
 * with L->ci stay; after errors, thread closing). */
void do_freeci(lua_State *L);
/* The collector traversed L: give back stack it no longer uses (shrink
 * in place to twice its use when it is over three times that, never
 * moving it) and up to a few record blocks above L->ci.  Bounded: a
 * thread deeper than a few frames is left alone.  Not from inside an
 * allocation, whose caller may count on room no frame records yet. */
void do_shrinkthread(lua_State *L);
/* The collector cleared L's dead part up to stacklimit: lower the limit to
 * what L's frames use (plus DO_EXTRA_STACK; they are walked, so only when
 * there are at most a few), so that the next clear covers what frames
 * reach from now on, not the deepest they ever reached.  Not from inside
 * an allocation (as do_shrinkthread). */
void do_trimlimit(lua_State *L);

/* To-be-closed variables and upvalues: close everything at or above
 * level with the error object status (LUA_OK for normal exit); may call
 * __close metamethods, which may not yield ("attempt to yield across a
 * C-call boundary": C code, lua_settop, lua_closeslot, coroutine.close,
 * unwinding to a protected call's C frame).  Returns level (restored if
 * the stack moved). */
tvalue *do_close(lua_State *L, tvalue *level, int status);
/* The same where a __close may yield: the interpreter (OP_CLOSE and
 * OP_RETURN, which vm_finishop repeats on resume), a C function's return
 * and a yieldable pcall's recovery; each variable leaves the list before
 * its __close runs, so the repeat closes only the rest. */
tvalue *do_closeyieldable(lua_State *L, tvalue *level, int status);
/* Register the value at obj as to-be-closed ("variable '%s' got a
 * non-closable value" when it has no __close and is not false/nil). */
void do_newtbcupval(lua_State *L, tvalue *obj);

/* Most nested C calls (and parser levels): LUAI_MAXCCALLS unless
 * lua_setcstacklimit changed it. */
#define do_maxccalls(L) (G(L)->cstacklimit)
/* The C stack's checks.  Every C level that can nest without bound (a
 * call through the API, ccall; a parser level; a pattern-matching level;
 * lua_resume; a nested prototype in the binary-chunk reader and writer)
 * first checks, before it calls anything, that at least
 * LUAI_CSTACK_KEEP(kind) bytes of C stack are left (do_cstackshort,
 * port/port.h) and, where it counts levels,
 * that their count is below do_maxccalls.  When a check fails it calls
 * do_cstackfail (or, outside vm/, raises its own error) and nothing else.
 * tools/cstack.lua relies on this shape: it computes each kind's
 * LUAI_CSTACK_KEEP on a board as the most stack anything can use after a
 * check of that kind until the next check. */
#define do_cstackshort(kind) port_cstack_short_inline(kind)
/* A check failed: the C stack is short (isshort), or L->nCcalls reached
 * do_maxccalls.  Raises "C stack overflow" (after making room on L's
 * stack for the message), or LUA_ERRERR when the count is
 * DO_CCALLS_EXTRA levels past the limit.  Returns, letting the level go
 * on, only when the count is past the limit by less than that (where the
 * message handler of a count overflow runs) and the stack is not short.
 * A message handler is never called short of stack (dbg_errormsg throws
 * LUA_ERRERR instead), so raising never nests. */
void do_cstackfail(lua_State *L, int isshort);
/* Raise "C stack overflow" (the pre-made message: nothing formatted,
 * nothing allocated): an error raised short of C stack (kind error). */
_Noreturn void do_cstackerror(lua_State *L);
#define do_getCcalls(L) ((L)->nCcalls & 0xFFFFu)
#define do_isyieldable(L) (((L)->nCcalls & 0xFFFF0000u) == 0)
#define do_incnny(L) ((L)->nCcalls += 0x10000u)
#define do_decnny(L) ((L)->nCcalls -= 0x10000u)

/* Format as lua_pushfstring ("%s %d %I %f %p %c %U %%") and push the
 * result; returns its bytes.  Raises memory errors. */
const char *do_pushvfstring(lua_State *L, const char *fmt, va_list ap);
const char *do_pushfstring(lua_State *L, const char *fmt, ...);

/* g->finalizer: call o's __gc in protected mode (CIST_FIN); an error
 * becomes a warning "error in __gc (msg)".  Returns 0 (the warning is
 * already given). */
int do_finalizer(lua_State *L, gcobj *o);

/* A thread's call machinery: the base CallInfo and an empty state, for
 * state_open and state_newthread; free it for state_freethread. */
int do_initthread(lua_State *L, lua_State *L1);
void do_freethread(lua_State *L, lua_State *L1);
/* A dead thread's call-record blocks, freed at most `max` at a time, the
 * oldest left for do_freethread; returns whether more than it is left
 * (the sweep takes a deep thread apart a bounded piece a unit). */
int do_freesomeci(lua_State *L, lua_State *L1, int max);

#endif
