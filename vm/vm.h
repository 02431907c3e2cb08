/*
 * vm.h — the interpreter loop (vm/vm.c), and the helpers it shares with
 * the metamethod paths (vm/tm.c).  The operations the interpreter shares
 * with the C API and the compiler are declared by the files that define
 * them: numbers in vm/arith.h, indexing with metamethods, concatenation
 * and length in vm/tm.h.
 */
#ifndef RTLUA_VM_H
#define RTLUA_VM_H

#include "vm/do.h"

/* Run the Lua function of ci (and every Lua function it calls without C
 * in between) until the frame marked CIST_FRESH returns. */
void vm_execute(lua_State *L, CallInfo *ci);
/* Resume an interrupted opcode after a yield inside a metamethod or a
 * C function (coroutines). */
void vm_finishop(lua_State *L);

/* ---- Shared by the interpreter (vm.c) and the metamethod paths (tm.c) */
#if defined(__GNUC__)
#define vm_likely(x) __builtin_expect(((x) != 0), 1)
#define vm_unlikely(x) __builtin_expect(((x) != 0), 0)
#define vm_noinline __attribute__((noinline))
#define vm_inline inline __attribute__((always_inline))
#else
#define vm_likely(x) (x)
#define vm_unlikely(x) (x)
#define vm_noinline
#define vm_inline inline
#endif

#define vm_isnumber(o) (ttype(tt_of(o)) == T_NUMBER)

/* Write val into an existing table slot (found non-nil by a lookup), with
 * the barrier; a nil val empties the slot. */
/* A lookup result that may be stored into in place: present, and not in
 * a ROM table (vm/tab.h: stores into those go through tab_set). */
#define vm_instore(t, slot) (!is_nil(slot) && !is_rom(t))
#define vm_storeslot(L, t, slot, val)                                         \
    do {                                                                      \
        tvalue *s_ = (tvalue *)(slot);                                        \
        if (is_nil(val))                                                      \
            set_empty(s_);                                                    \
        else                                                                  \
            set_obj(s_, val);                                                 \
        gc_barrier(L, t, val);                                                \
    } while (0)

#endif
