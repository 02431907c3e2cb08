/*
 * pace.h — driving the collector by time.
 *
 * The tick (SysTick) only brings credit: each tick sets g->credit to
 * g->creditcap, cycles-per-tick x utilisation, less what the last step
 * ran past its credit (g->creditdebt), and raises g->stepflag.  The VM's
 * safe points (allocation, call, backward jump) test the flag with one
 * load and a branch and then run one step of min(credit, stepbudget)
 * cycles (a whole step budget when the collector waits to start atomic
 * and a whole tick's credit is there: the debt goes to the next tick); a
 * step never starts inside the interrupt, nor while g->gchold is set (an
 * rt.loop body, whose slack goes to the collector instead) unless the
 * body overran its period.
 * Allocation adds assist steps (gc.c: assist_due) when a cycle is due and
 * the heap grows past the pause's room faster than the paced steps mark,
 * and below the reserve of free bytes, so memory cannot run out because
 * utilisation was set low; they are sized in work units, not time (gc.h),
 * and inside an rt.loop body capped by g->assistcap cycles in all (what
 * they leave owed is paid by the next steps, in the loop's slack).
 * pace_idle_until() gives a control loop's slack to the collector, until
 * its deadline or an interrupt (rtlua_interrupt), which the caller's next
 * safe point raises.  After a
 * paced step, at most GC_FINALIZE_MAX pending __gc run in what is left of
 * its budget, all of it charged to the credit (gc_finalize_for; after an
 * idle step, at most GC_FINALIZE_MAX that are expected to end before the
 * deadline: gc_finalize_fit); and an allocation's assist
 * that left finalizers owed (g->fnzdue) has the next safe point run one
 * batch of GC_FINALIZE_MAX first, outside the credit, as assists are.
 * Neither runs while an rt.loop body is within its period (pace_held).
 *
 * Bound: a paced step runs at most stepbudget cycles plus one work unit
 * (gc.h lists the units' bounds).
 */
#ifndef RTLUA_PACE_H
#define RTLUA_PACE_H

#include "vm/state.h"

/* After a paced step the flag stays up for the next safe point only
 * while at least stepbudget / this of credit is left (a step's fixed
 * cost is not worth a sliver of time; smaller remainders wait for the
 * next tick, which raises the flag for any credit). */
#define PACE_MIN_STEP_DIV 8
/* Growth assists outside an rt.loop body may take at most a tick's
 * credit / this of each tick (gc.c: tick_cap; a cycle due starts with one
 * allowance more; with little memory free, no limit).  The paced steps
 * come in a burst after each tick, held to its credit, and a 1 ms window
 * holds four of them and the assists of five ticks: at 25% of a 4 kHz
 * tick at 25 MHz, 4 x 1,562 + 5 x 312 cycles of 25,000 leave the mutator
 * 68.8% of any window.  At a tenth (156 cycles), the programs that need
 * 27-29% of the time (finshort and rehash in bench/gc_adversarial.lua)
 * fell behind until memory ran short, and their windows then went to
 * the collector whole (MMU 0.2%); at a seventh, finshort did at shift=5.
 * Without any limit, a program that outran the paced steps by 3% of the
 * time had two whole-budget assists in some windows, and 55% of them. */
#define PACE_ASSIST_TICK_DIV 5
/* Default share of each tick given to the collector, in percent. */
#define PACE_UTILISATION_DEFAULT 25

/* Start pacing L's collector from the port's tick. */
void pace_init(lua_State *L);
/* Stop feeding credit (before state_close). */
void pace_stop(lua_State *L);
void pace_set_utilisation(lua_State *L, uint32_t pct);
/* Cycles per step, and the free-byte reserve under which allocation
 * assists (0 leaves a value unchanged). */
void pace_set_budget(lua_State *L, uint32_t cycles, size_t reserve);
/* Cycles of assist steps (and emergency catch-up) an rt.loop body may
 * spend; 0: one step budget, whatever it is then. */
void pace_set_assistcap(lua_State *L, uint32_t cycles);

/* Are paced steps held?  While an rt.loop body runs (g->gchold), but
 * for a body that has run past its whole period: it has missed its next
 * release anyway, and a loop that overruns every period would otherwise
 * starve the collector until memory ran short. */
int pace_held(global_State *g);

void pace_safepoint_(lua_State *L);
/* When set, pace_safepoint_ calls it last, after clearing the flag (so a
 * flag raised meanwhile is not lost): lib/rtpost.c delivers posted
 * interrupt events from it. */
extern void (*pace_safepoint_hook)(lua_State *L);
#define pace_safepoint(L)                                                     \
    do {                                                                      \
        if (G(L)->stepflag)                                                   \
            pace_safepoint_(L);                                               \
    } while (0)

/* The one idle loop (rt.loop's slack, through rtlua_idleuntil).  Until
 * `deadline` (port_cycles): call pace_safepoint_hook (event delivery),
 * then give the time to the collector in steps of at most the step
 * budget, each followed by the __gc calls expected to end before the
 * deadline (gc_finalize_fit; a slack that had to put off all of them
 * lowers what a call is expected to take: gc_finalize_starved), or,
 * when it has no work, sleep
 * while the tick surely wakes us before the deadline (port_may_sleep)
 * and poll in the last tick.  Every step ends before the deadline plus
 * one work unit; a __gc call, before it plus what the call took over
 * its expected length.  Returns the cycles spent collecting.  (Nothing here
 * masks interrupts: a poll loop that did would starve them on QEMU,
 * which takes an interrupt only between translated blocks.) */
uint32_t pace_idle_until(lua_State *L, uint32_t deadline);

/* Does the collector have work it could do now? */
int pace_has_work(lua_State *L);

#endif
