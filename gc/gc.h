/*
 * gc.h — the incremental collector: tri-colour mark and sweep with two
 * whites, in the tradition of Lua 5.1's, with every unit of work bounded.
 *
 * Phases (a visible state machine in gc.c, each unit bounded by a named
 * constant):
 *   PAUSE         mark the roots (registry, main thread, basic metatables)
 *   PROPAGATE     traverse gray objects; a big table (weak ones too), stack
 *                 or prototype is traversed GC_TRAVERSE_CHUNK slots at a
 *                 time and resumed (a stack, then the thread's open
 *                 upvalues GC_TRAVERSE_CHUNK at a time, then its dead
 *                 part 2 * GC_CLEAR_CHUNK slots at a time when it ran
 *                 since its last clear); weak tables wait until gray
 *                 runs out;
 *                 a flagged ephemeron key, once marked, is looked up in
 *                 GC_TRAVERSE_CHUNK ephemeron tables a unit;
 *                 when gray runs out, the registry and the stacks of the
 *                 threads that ran (the main thread always) are re-marked,
 *                 each from its lowmark, as chunked traversals, until a
 *                 pass finds nothing new and re-marks at most
 *                 GC_REMARK_STACK slots within one step, so that atomic
 *                 finds little left (GC_REMARK_STALE and GC_REMARK_MAX are
 *                 fuses); a traversed thread gives back stack it no
 *                 longer uses (do_shrinkthread).  With finalizable
 *                 objects (finobj or tobefnz not empty), a first atomic
 *                 point (the marking half of ATOMIC) is followed, still
 *                 in PROPAGATE, by three stages while the program runs:
 *                 FNZ_CLEARV clears the weak values found dead, as
 *                 CLEARWEAK does (5.4's rule: they go before the
 *                 finalizers' objects are marked); FNZ_SEPARATE moves the
 *                 unreached finobj objects to tobefnz, GC_SWEEP_MAX a
 *                 unit; FNZ_RESURRECT marks tobefnz, GC_TRAVERSE_CHUNK
 *                 objects a unit, and propagates and re-marks as before
 *   ATOMIC        indivisible: re-scan the stacks of threads that ran since
 *                 their scan began, from their lowmark, and what the
 *                 barriers queued, clear the dead stack parts written
 *                 since the last clear, flip the current white
 *   CLEARWEAK     clear the weak tables that counted white objects of
 *                 their dead entries, GC_CLEAR_CHUNK slots per unit (a
 *                 read of a table not cleared yet clears what it finds
 *                 dead: gc_clearslot, gc_clearnode)
 *   SWEEP_STRING  GC_SWEEP_STR_MAX string-table buckets per unit (up to
 *                 GC_SWEEP_STR_SCAN of them while they hold fewer
 *                 strings), but at most GC_SWEEP_SCAN strings examined
 *                 and GC_SWEEP_STR_FREE freed: a long chain goes on in
 *                 the next unit
 *   SWEEP_OBJ     GC_SWEEP_MAX objects per unit (a dead table with parts
 *                 counts two; a dead thread is taken apart first: its
 *                 open upvalues GC_TRAVERSE_CHUNK a unit, its call-record
 *                 blocks GC_SWEEP_MAX a unit; allgc, then finobj, then
 *                 tobefnz);
 *                 the cycle ends with the sweep
 *
 * Finalizers are not collector work: a step never calls __gc (a slow one
 * would be a unit of unbounded length).  The objects atomic separated wait
 * on tobefnz, and gc_finalize calls at most GC_FINALIZE_MAX of them after
 * each paced, idle or explicit step (after an idle step only those that
 * are expected to end before the slack does: gc_finalize_fit), at a safe
 * point, outside an rt.loop
 * body within its period, charged to the collector's credit
 * (gc/pace.c); never inside an allocation.  Allocation owes one __gc call
 * per object it set for finalization (g->fnzowed): after an assist, safe
 * points run batch after batch while calls are owed, outside the credit
 * as the assists are, so the calls keep pace with the objects made
 * however late the paced steps are.  A cycle that is due waits,
 * above the reserve, until the last one's calls have run (an object whose
 * __gc is pending would be kept by it and freed only by the next, as Lua
 * 5.4's cycle likewise ends only once its finalizers ran).  A full
 * collection (collectgarbage()) calls them all.
 *
 * The estimate of live bytes that paces cycles (g->gcestimate, the base of
 * the pause) is what the cycle that ended left in use, less what was
 * allocated while it ran (born black or in the sweep, it survives the
 * cycle live or not: at most half of what is in use is discounted so)
 * and less the objects it separated for their __gc (garbage it keeps for
 * the call): counted as live, both would put off the next cycle by a
 * pause's worth of themselves, more each cycle, and a program making
 * short-lived finalizable objects would see its peak grow without end.
 * The default pause is Lua's (a cycle starts when use has doubled).
 *
 * Invariant: while marking (PROPAGATE, ATOMIC) no black object points to a
 * white one.  Barriers are forward everywhere (the white value is marked):
 * for tables too, so a big table is never traversed twice in one cycle
 * and the atomic phase never re-traverses one.  During the sweep the
 * invariant is relaxed: a black object that is stored into turns white
 * (it would be painted white by the sweep anyway).  The weak slots of a
 * black weak table are exempt (a weak value, a weak key, an ephemeron's
 * value while its key is not black): what is stored into the table after
 * its traversal meets the barrier like any store, so it is never
 * traversed again.
 *
 * Weak tables.  A weak table reached while marking waits (gray, on
 * weakwait) until gray runs out, so that it is traversed after everything
 * else reachable; its traversal marks its strong slots and strings and
 * counts its weak slots holding a white object (t->weakwhite).  An
 * ephemeron entry with a white key and a white value flags the key
 * (MARK_EPHKEY); when such a key is marked, its traversal looks it up in
 * each ephemeron table of the cycle, marks the value and uncounts the
 * entry.  So ephemerons converge in one traversal of each table plus, per
 * flagged key, one lookup per ephemeron table of the cycle (not a pass
 * per link: a chain of n links is O(n)).  CLEARWEAK clears, a chunk at a
 * time, only the weak tables whose count is not zero: those where a weak
 * slot held an object not reachable (as far as marking had got) other
 * than through weak references, or an ephemeron key reached only after
 * its table's traversal through something other than an ephemeron value.
 * Every weak table the cycle traversed is flagged (MARK_CLEARING) until
 * the clear has passed it, so that its reads take the slow case: while a
 * clear runs they clear a dead entry they find and read it as absent
 * (next skips it, # treats it as nil), and growth clears one before it
 * moves it; outside a clear the flag costs a test in the slow case only.
 *
 * The atomic phase's cost is bounded by what ran, not by heap size or
 * the number of threads: it looks only at the threads on g->ranlist
 * (those that ran and were not cleaned since: a
 * coroutine that stops while marking, or whose traversal ends, is), and
 * for each the part of its stack that changed since its last re-mark
 * began (from its lowmark, the lowest slot a return or an unwinding
 * reached: frames below it were not active since), and its dead part
 * written since the last clear (up to stacklimit, vm/do.c); plus what the
 * barriers queued since the last step.  The weak tables add nothing to
 * it: they are traversed and cleared in chunks.  Finalizable objects add no
 * walk to it: their separation and the marking of what they resurrect are
 * units of the propagate phase; a program with finalizers has two atomic
 * points a cycle, each bounded so.  When the last re-mark pass was clean
 * (in the same step, no mutator since), the stack part is a few slots a
 * thread; only when threads rewrite their stacks faster than the
 * collector re-marks them (deep coroutines unwound and rebuilt at every
 * resume) does the GC_REMARK_STALE fuse leave atomic up to their whole
 * stacks (each at most STATE_STACK_MAX slots).
 *
 * Known mutator costs outside the collector's steps: the first
 * setmetatable with __gc on an object unlinks it from allgc by a walk
 * from the newest object (O(1) for a fresh object, O(objects) at worst).
 * A table's growth is bounded per store (vm/tab.h), but for the
 * at-once fallback when memory was short.
 *
 * The object made last (g->newest) is kept by every cycle, since a
 * constructor may still be allocating its parts; it is released when the
 * next object is made.
 *
 * Objects made while marking (PROPAGATE) are born black, so a structure
 * built during the mark phase (a list whose nodes only the next node, the
 * stack and g->newest name) waits for no traversal: stores into them meet
 * the forward barrier.  Prototypes are born white (the compiler fills them
 * without barriers) and threads gray on grayagain (gc_newthread).  Outside
 * the mark phase objects are born current-white.  The sweep frees objects
 * of the other white and repaints survivors current-white, so objects
 * made during the sweep survive it.  ROM objects are on no list and never
 * touched.
 *
 * Stacks have no barrier: a thread that ran since its scan began
 * (GC_RAN_SCAN) is scanned again from its lowmark.  The mark is reset to
 * the running frame's function when a scan begins and lowered wherever a
 * lower frame becomes active again (gc_stack_lower: returns, unwinding
 * to a protected call, lua_setlocal); an open upvalue's slot below it
 * changes only through SETUPVAL or lua_setupvalue, whose barrier marks
 * the value (the upvalue is black once its thread's scan ended, or born
 * black).  The dead part above top is nil-filled only where something can
 * have been written since the last clear: below stacklimit for a thread
 * that ran (GC_RAN_CLEAR), below the top it had then (deadfrom) for one
 * that did not.
 */
#ifndef RTLUA_GC_H
#define RTLUA_GC_H

#include "port/port.h"
#include "vm/state.h"

/* ---- Bounds of the work units ------------------------------------------- */
/* A step checks the clock between units, so a unit's cost is what a step
 * may overrun its budget by.  On a real 25 MHz Cortex-M3 (QEMU at
 * -icount shift=5, 32 ns an instruction) units of 32 slots / 16 objects /
 * 8 buckets overran a 100 us budget by up to 130 us; these sizes keep the
 * overrun near 20-30 us there.  The longest unit is atomic's (rt.stats()
 * worst_unit_us: 30-55 us at shift=5 in bench/gc_adversarial.lua's
 * workloads); 8 pieces a propagation unit rather than 4 take the longest
 * of those from 16-27 us to about 25-30 us, and a full collection's
 * instructions by an eighth (a unit's fixed cost: the dispatch, the
 * clock). */
/* Where units are short against the budget (the longest of the step so
 * far under budget / GC_RUN_SHORT: a fast core, or QEMU at -icount
 * shift=0, where a unit is 5-10 cycles at 25 MHz), a step reads the
 * clock after a run of them rather than after each (the read is about 40
 * instructions on a board without a cycle counter, a fifth of a short
 * unit): a run is the units that a GC_RUN_DIV-th of the budget left holds
 * at the longest unit's cost, at most GC_RUN_MAX, all of one phase and
 * none of them atomic.  A run's units count as its average in
 * worst_unit_us.  At a 25 MHz board's pace (shift=5: units of 100-500
 * cycles) there are no runs: runs of 2 or 3 there took finshort's worst
 * step from 2,710 to 3,072 cycles.  At shift=0 they took bench/trees.lua
 * on mps2-an385 from 32.64M to 31.42M instructions, and weakk of
 * bench/gc_adversarial.lua in rt.loop from out of memory in 5 of 6
 * layouts to none (and finlive, which the faster allocation of the
 * assist stride had tipped into running out in 6 of 6, back to none;
 * on main at 87c3118 it runs out again in 2 of 6, with or without
 * GC_RUN_AFTER: that workload is at the collector's throughput edge). */
#define GC_RUN_SHORT 64
#define GC_RUN_AFTER 4
#define GC_RUN_DIV 4
#define GC_RUN_MAX 8
/* The units of a step are timed on the lap clock (port/port.h: a load of
 * SysTick's counter, where port_cycles is some thirty instructions), when
 * the step's budget is at most a GC_LAP_DIV-th of the lap's span (a tick
 * period): a step and its overrun stay inside the span (a 100 us budget
 * in a 4 kHz tick's 250 us; a tick period shorter than that, e.g. 10 kHz:
 * port_cycles). */
#define GC_LAP_DIV 2
/* Pieces per propagation unit (a slot scanned: array slots, hash nodes,
 * constants, upvalues; or an object taken from a gray list), stack
 * slots or open upvalues per unit of a thread's scan. */
#define GC_TRAVERSE_CHUNK 8
/* Weak-table slots cleared (or tables with nothing to clear passed over)
 * per unit of a clear (FNZ_CLEARV, CLEARWEAK). */
#define GC_CLEAR_CHUNK 8
/* Objects freed per unit of the object sweep (and call-record blocks of a
 * dead thread). */
#define GC_SWEEP_MAX 2
/* finobj objects looked at per unit of the separation (FNZ_SEPARATE):
 * a mark tested.  With 2 a unit, 20,000 finalizable objects took 10,000
 * units a cycle, most of it the unit's fixed cost. */
#define GC_SEPARATE_MAX 16
/* Of those, the unreached ones moved to tobefnz per unit (each one's
 * size summed: 16 moved were a 25 us unit at shift=5, a 125.8 us step). */
#define GC_SEPARATE_MOVE 4
/* Objects examined per unit of the object sweep (a live one is only
 * repainted). */
#define GC_SWEEP_SCAN 8
/* String-table buckets per unit of the string sweep. */
#define GC_SWEEP_STR_MAX 2
/* String-table buckets per unit of the string sweep while the buckets
 * swept hold fewer than GC_SWEEP_STR_MAX strings between them (empty
 * buckets cost next to nothing; a unit of 2 of them paid a unit's fixed
 * cost, a third of the collector's time in a cycle of a small heap). */
#define GC_SWEEP_STR_SCAN 16
/* Strings freed at most per unit of the string sweep (and GC_SWEEP_SCAN
 * examined): a bucket's chain has no bound, and a longer one goes on in
 * the next unit.  Strings cost less to free than objects (GC_SWEEP_MAX):
 * with 2, the units of a table of dead strings cost a quarter more. */
#define GC_SWEEP_STR_FREE 4
/* __gc calls after a step (gc_finalize's bound where steps call it). */
#define GC_FINALIZE_MAX 4
/* How fast the expected length of a __gc call (gc_finalize_fit) comes
 * down: by this fraction of its excess at each shorter call, and of
 * itself at each slack that ran none (gc_finalize_starved). */
#define GC_FNZ_EST_DECAY 8
/* ---- Assists: allocation pays in work -------------------------------------
 * The measure of collector work is the unit (one call of the state
 * machine, bounded above).  Allocation owes the cycle units in
 * proportion to the bytes it takes, the remaining units estimated from
 * the last cycle's count, whatever the pace of the CPU:
 *   - under the reserve of free bytes, at the rate remaining / (free -
 *     goal), so that the cycle ends when free memory has fallen to the
 *     goal;
 *   - once a cycle is due and until it ends (growth), at the rate
 *     remaining / (room - growth since the cycle began), room being the
 *     estimate times the pause (but no more than leaves the reserve
 *     free), so that use peaks near (1 + 2 x pause) times the live bytes
 *     however fast the program allocates.  Paced steps that keep up
 *     leave nothing owed: a growth assist waits until more is owed than
 *     they will do before the next tick.
 * An assist step pays what is owed,
 * capped in time by the step budget (and inside an rt.loop body by what
 * is left of the body's assist cap, g->assistcap, default one step
 * budget; a body past its period may spend the utilisation share of its
 * time instead, if more); what it could not pay stays owed, and every unit of
 * any step (paced, idle, assist) pays one.  A cycle past its room is
 * behind: charged at the rate that ends it within a second room, and
 * caught up by an assist outside an rt.loop body in up to
 * GC_CATCHUP_STEPS steps of at most a budget each, the rest at the next
 * checks, GC_DUE_STRIDE bytes apart (docs/architecture.md 9.4: assists
 * of one step let the cycles of a program that outruns the collector on
 * a slow board grow without end; paying all at once was a pause of
 * several ms).  Outside a body, assists also keep to a small share of
 * each tick (gc.c: tick_cap); under the reserve of free bytes, neither
 * limit holds: memory first. */
/* What is owed is charged at every (free bytes / this) allocated under
 * the reserve, and every (room / this) in growth. */
#define GC_ASSIST_DIV 64
/* An assist behind its cycle's room runs at most this many steps of a
 * budget each; what is still owed waits for the next check, at
 * GC_DUE_STRIDE bytes. */
#define GC_CATCHUP_STEPS 2
/* While no cycle is due, allocation asks whether one is at every this
 * many bytes (gc_cycle_due, with the arena's counters and its largest
 * block, cost more than most allocations' own work). */
#define GC_DUE_STRIDE 256
/* A cycle starts at the latest when use has grown over the estimate by
 * this part of what the arena has over it (whatever the pause): on
 * mps2-an385's 4 MiB, a table rehashed to 40,000 keys beside its garbage
 * ran out of memory at shift=5 with 4, and fits with 16. */
#define GC_PAUSE_ARENA_DIV 16
/* A cycle is due, too, when the largest block the arena is sure to
 * give (arena_largest_alloc) is under the reserve and has lost over
 * 1/this of what it was when the last cycle ended: in a fragmented
 * arena, free bytes are many while the big blocks run out (a 100 KiB
 * string every 10 ms beside 2 KiB holes used up the 460 KiB block in
 * 60 ms with 3.6 MiB free and ran out of memory inside rt.loop). */
#define GC_LARGEST_DIV 4
/* The pause's base is the estimate of live bytes plus this many
 * (pause_base).  Stock Lua's live heap holds its libraries, 13-16 KB
 * before a program makes anything, and its pause is a multiple of the
 * whole; rtlua's libraries are in flash, so a cycle at every doubling of
 * the estimate alone ran more cycles than stock Lua for the same
 * allocation, most where the program's own live data is small
 * (bench/closures.lua, 64-bit, N=10000: 246 cycles, one every 11.5 KB
 * allocated), each paying the cycle's fixed work (roots, the string
 * table's buckets, atomic, the sweep's walk of every object).  With
 * this a cycle waits for about the growth stock Lua would allow the
 * same program, its libraries included, and the peak stays under stock
 * Lua's by the libraries' bytes.  pause_room's arena cap still holds
 * (a small arena keeps its cycles early). */
#define GC_PAUSE_EXTRA 16384
/* Growth assists allow at least this many bytes of growth per cycle
 * (a tiny estimate would otherwise make every allocation pay). */
#define GC_GROWTH_MIN 4096
/* The goal: the cycle should end before free bytes fall to reserve / this. */
#define GC_ASSIST_GOAL_DIV 4
/* A cycle longer than the last still owes at least this part of the
 * last one's units (1/this), so the rate never falls to zero. */
#define GC_ASSIST_TAIL_DIV 8
/* An assist step pays at least this many units (its fixed cost is not
 * worth less). */
#define GC_ASSIST_MIN_UNITS 8
/* Before any cycle has finished, a cycle is estimated at one unit per
 * this many bytes in use (a table of a few slots takes about one unit to
 * mark and half a unit to sweep). */
#define GC_UNIT_BYTES 32
/* Root re-marks in one propagate phase before atomic is entered anyway: a
 * fuse (a re-mark finds only objects older than the cycle, so they end
 * when one finds nothing new). */
#define GC_REMARK_MAX 32
/* A re-mark pass is clean (atomic may follow) only if it re-marked at most
 * this many stack slots, all in the step it ends in: then no mutator ran
 * since the threads' re-marks began, and atomic re-scans next to nothing
 * of their stacks.  Otherwise another pass goes first (GC_REMARK_MAX
 * still ends them). */
#define GC_REMARK_STACK 64
/* Passes that found no gray object but not a clean stack before atomic
 * goes ahead anyway, re-scanning what changed since each thread's re-mark
 * began: threads that rewrite their stacks faster than the collector
 * re-marks them (deep coroutines unwound and rebuilt at every resume)
 * would otherwise keep a cycle from ending. */
#define GC_REMARK_STALE 16
/* Times a step may end rather than start atomic late (predicted not to
 * fit), for each atomic point, before atomic goes ahead where it falls. */
#define GC_ATOMIC_DEFER 4
/* Atomic's fixed part, in slots of the per-slot rate it is predicted at
 * (roots, the re-mark of what barriers queued, the flip). */
#define GC_ATOMIC_BASE_SLOTS 128
/* A coroutine that yields with at most GC_LAZY_SLOTS slots from its top
 * to its limit (a yield's own C frame reserves LUA_MINSTACK of them), at
 * most GC_LAZY_THREADS threads on g->ranlist with it, stays on the list
 * uncleared (gc_suspended): its traversal or atomic clears that part.  So
 * atomic clears at most GC_LAZY_THREADS * GC_LAZY_SLOTS slots of
 * coroutines that are not running. */
#define GC_LAZY_SLOTS 32
#define GC_LAZY_THREADS 4

/* ---- Colours ------------------------------------------------------------ */
#define gc_otherwhite(g) ((uint8_t)((g)->currentwhite ^ MARK_WHITES))
/* Dead: of the other white, in the sweep of this cycle, and not fixed. */
#define gc_isdead(g, o)                                                       \
    (((o)->marked & MARK_FIXED) == 0 &&                                       \
     ((o)->marked & gc_otherwhite(g) & MARK_WHITES) != 0)
#define gc_keepinvariant(g) ((g)->gcphase <= GC_ATOMIC)

/* ---- Allocation ------------------------------------------------------------
 * Every byte of the runtime passes through these, so the debt is exact.
 * On failure they run the emergency and retry once; if that fails too
 * they return NULL and nothing has changed (the caller raises "not enough
 * memory", which pcall catches).  The emergency:
 *   - inside an rt.loop body (g->gchold): a bounded catch-up of at most
 *     what is left of the body's assist cap (cycles, default one step
 *     budget; 0 left: no work at all), in steps of at most a step budget
 *     each, stopped between units like any step, until the block is sure
 *     to fit.  Never a whole collection: a control loop sees at most its
 *     assist cap and one unit, then the error.
 *   - in a control loop's slack (g->inslack: pace_idle_until, a __gc
 *     call or an rt.on handler there): a catch-up in steps of at most a
 *     step budget until the slack's deadline (at least one step budget),
 *     until the block is sure to fit; then the allocation fails, which
 *     the code may catch.  A whole collection there, inside a __gc, made
 *     the next body 43 ms late at shift=5.
 *   - elsewhere: a whole collection (finish the cycle, run a new one),
 *     O(heap), so that an ordinary program runs out of memory only when
 *     it truly has (the torture builds RTLUA_GC_HARD and RTLUA_GC_EMERGENCY
 *     run one at every allocation).
 * No __gc runs in either; pending ones wait for a step at a safe point.
 * The emergency runs inside a __gc call too (where no step does), as
 * lua5.4's does, but for those of lua_close: the object whose __gc runs
 * is a root meanwhile (g->fnzrunning).
 * Shrinking with gc_realloc (n <= oldn) never fails and never collects:
 * callers may rely on it; gc_shrink is that case alone (0 < n <= oldn),
 * for callers inside the collector, whose calls must not lead back into
 * a collection even on paths never taken (tools/cstack.lua follows every
 * call). */
void *gc_alloc(lua_State *L, size_t n);
void *gc_realloc(lua_State *L, void *p, size_t oldn, size_t n);
void *gc_shrink(lua_State *L, void *p, size_t oldn, size_t n);
void gc_free(global_State *g, void *p, size_t n);
/* Grow block p to n bytes where it lies (arena_grow): 1, or 0 with p
 * untouched.  Never collects and never copies; fault injection counts it
 * as an allocation. */
int gc_grow(lua_State *L, void *p, size_t n);
/* n bytes straight from the arena (or lua_setallocf's function), with
 * no collection: for the collector's own steps.  NULL when there is no
 * room.  Freed with gc_free. */
void *gc_rawalloc(global_State *g, size_t n);

/* A new collectable object of `size` bytes, current-white, on allgc. */
gcobj *gc_newobj(lua_State *L, uint8_t tt, size_t size);

/* ---- Barriers ----------------------------------------------------------- */
void gc_barrier_(lua_State *L, gcobj *o, gcobj *v);
/* After storing value `v` (a tvalue *) into object `o`. */
#define gc_barrier(L, o, v)                                                   \
    do {                                                                      \
        if (is_collectable(v) && is_black(obj2gc(o)) && is_white(gc_of(v)))   \
            gc_barrier_(L, obj2gc(o), gc_of(v));                              \
    } while (0)
/* After storing object pointer `v` into object `o`. */
#define gc_objbarrier(L, o, v)                                                \
    do {                                                                      \
        if (is_black(obj2gc(o)) && is_white(obj2gc(v)))                       \
            gc_barrier_(L, obj2gc(o), obj2gc(v));                             \
    } while (0)

/* The read barrier of a weak table being cleared (flagged MARK_CLEARING,
 * vm/tab.c's slow case): clears an entry found dead, and then returns 1,
 * so that the program never reads one.  A value whose key is not an
 * object (an array slot, an integer or string key): gc_clearslot; a hash
 * node: gc_clearnode.  Growth calls them too before it moves an entry, so
 * that a dead one cannot move behind the clear's position.  O(1). */
int gc_clearslot(table *t, tvalue *s);
int gc_clearnode(table *t, node *n);

/* An object's arrays moved (a table's resize, a prototype's growth while
 * it is compiled): restart its chunked traversal. */
void gc_resized(global_State *g, gcobj *o);

/* An open upvalue leaves its thread's list (closed, or freed): the
 * cursor of a traversal marking that list moves past it. */
static inline void gc_upval_unlinked(global_State *g, upval *uv)
{
    if (g->travuv == uv)
        g->travuv = uv->u.open.next;
}
/* A new thread is whole: while marking it goes gray on grayagain, to be
 * scanned in atomic (threads are never black). */
void gc_newthread(lua_State *L, lua_State *th);
/* setmetatable with a __gc: move the object to finobj. */
void gc_checkfinalizer(lua_State *L, gcobj *o, table *mt);
/* The thread ran: its stack (from its lowmark up) must be scanned again
 * before the sweep, and its dead part cleared.  It goes on g->ranlist,
 * which is all atomic looks at (not every thread: the marked ones that
 * ran are scanned again from their lowmark, the unmarked ones' open
 * upvalues looked at, their dead parts cleared); a coroutine cleaned as
 * it stops leaves it, and atomic empties it. */
#define GC_RAN_SCAN 1u   /* ran since its last scan began */
#define GC_RAN_CLEAR 2u  /* ran since its dead part was cleared */
#define GC_RAN_LISTED 4u /* on g->ranlist */
#define GC_RAN_ALL (GC_RAN_SCAN | GC_RAN_CLEAR | GC_RAN_LISTED)
/* One load and a branch while the thread runs (all three set). */
#define gc_thread_ran(L)                                                      \
    ((L)->dirty != GC_RAN_ALL ? gc_ranlist_add(L) : (void)0)
/* Set the marks, and put L on g->ranlist if it is not there. */
void gc_ranlist_add(lua_State *L);
/* Code is about to run on L from the C API (lua_resume, lua_callk,
 * lua_pcallk, lua_closethread).  The C API's pops leave their values
 * above the top (no cost on the hot paths); in a thread that does not run
 * such a dead slot is not cleared by atomic (it looks at g->ranlist
 * only), and may name an object a later sweep freed.  The frames about
 * to run would see those slots as registers: they are nil-filled now,
 * from the top up to where the last clear left it (deadfrom).  Cost: the
 * slots popped since that clear.  (A thread without a stack has deadfrom
 * 0, and top and stack NULL: no test of stack needed.) */
#define gc_thread_enter(L)                                                    \
    ((L)->deadfrom >                                                          \
             (uint32_t)(((uintptr_t)(L)->top - (uintptr_t)(L)->stack) /       \
                        sizeof(tvalue))                                       \
         ? gc_clear_popped(L)                                                 \
         : (void)0)
void gc_clear_popped(lua_State *L);
/* Coroutine co stopped running (a yield, a return, an error) and L, which
 * resumed it, goes on.  While marking, the part of co's stack that
 * changed since its scan began ([lowmark, top): no more than the resume
 * wrote or returned through) is marked now, at the resumer's cost, and
 * co's scan begins again: a suspended coroutine is clean, so that neither
 * the re-marks nor atomic chase coroutines that unwind and rebuild deep
 * stacks at every resume.  Whichever state co's scan is in (not begun,
 * under way, done), what it would miss is above lowmark.  In the other
 * phases only its scan begins again, so that atomic's look at unmarked
 * threads' open upvalues (remarkupvals) skips it: its changes came before
 * the cycle's marks.  In every phase its dead part (above top, up to
 * stacklimit) is nil-filled and its limit lowered to what its frames use
 * (do_trimlimit), and it leaves g->ranlist: atomic has nothing to do for
 * it.  Except at a yield that leaves at most GC_LAZY_SLOTS there while
 * at most GC_LAZY_THREADS threads are on the list: it stays on the list,
 * its dead part left for its traversal or atomic to clear. */
void gc_suspended(lua_State *L, lua_State *co);
/* gc_suspended's common case, inline at the end of lua_resume: a yield
 * that leaves co on g->ranlist uncleared (the small dead part, few
 * threads listed) while the collector is not marking.  Its scan begins
 * again only in that co->lowmark comes up to the yield's frame (what a
 * later resume changes is above it): co keeps its marks, GC_RAN_SCAN
 * among them, so that its next resume finds them set and calls nothing
 * (gc_thread_ran).  A scan flag left up costs nothing: a traversal of co
 * begins with its own scan start, and atomic looks at an untraversed
 * co's open upvalues from lowmark up, where a yield's C frame has none.
 * 0 when gc_suspended must run instead (a macro: vm/do.h's CallInfo). */
#define gc_suspended_lazy(g, co)                                              \
    ((co)->status == LUA_YIELD && gc_yielded_lazy(g, co))
/* The same where co->status is known to be LUA_YIELD (lua_resume, after
 * lua_yieldk's throw). */
#define gc_yielded_lazy(g, co)                                                \
    ((co)->dirty == GC_RAN_ALL && (g)->gcphase != GC_PROPAGATE &&             \
             (g)->ranlen <= GC_LAZY_THREADS &&                                \
             (co)->stack + (co)->stacklimit - (co)->top <= GC_LAZY_SLOTS      \
         ? ((co)->lowmark = (co)->ci->func, 1)                                \
         : 0)
/* Slot p of L's stack may change from now on though it lies below the
 * running frame's function: a frame became active again (a return, an
 * unwinding to a protected call), or a slot was written from outside
 * its frame (lua_setlocal).  One comparison on the return path. */
#define gc_stack_lower(L, p)                                                  \
    do {                                                                      \
        if ((p) < (L)->lowmark)                                               \
            (L)->lowmark = (p);                                               \
    } while (0)

/* ---- Driving the collector ---------------------------------------------- */
/* One step of at most `budget` cycles (port_cycles); returns cycles used. */
uint32_t gc_step(lua_State *L, uint32_t budget);
/* The same, its clock started at `start` (a port_cycles reading the caller
 * took: what ran since counts as the step's); returns the cycles from
 * `start` to the step's end (0: no step, as gc_step). */
uint32_t gc_step_from(lua_State *L, uint32_t budget, uint32_t start);

/* The trace's kinds of entry (rtlua.h: RTLUA_GCTRACE_*). */
enum { GC_TRACE_TICK, GC_TRACE_PACED, GC_TRACE_ASSIST, GC_TRACE_EMERGENCY };
#ifdef RTLUA_GC_TRACE
/* The trace ring (rtlua.h: rtlua_gctrace): GC_TRACE_N entries of {start,
 * cycles, kind}, gc_tracen counting every entry ever logged (the tick's
 * entries come from its interrupt). */
#if RTLUA_GC_TRACE + 0 > 1
#define GC_TRACE_N (RTLUA_GC_TRACE + 0)
#else
#define GC_TRACE_N 1024
#endif
_Static_assert((GC_TRACE_N & (GC_TRACE_N - 1)) == 0,
               "RTLUA_GC_TRACE is a power of two");
extern uint32_t gc_tracering[GC_TRACE_N][3];
extern volatile uint32_t gc_tracen;
static inline void gc_trace(uint32_t start, uint32_t cycles, uint32_t kind)
{
    uint32_t *e = gc_tracering[gc_tracen++ & (GC_TRACE_N - 1)];
    e[0] = start;
    e[1] = cycles;
    e[2] = kind;
}
#else
#define gc_trace(start, cycles, kind) ((void)0)
#endif
/* Finish the current cycle and run a whole one, then every pending
 * finalizer. */
void gc_fullgc(lua_State *L);
/* Call at most `max` pending __gc (tobefnz, oldest separation first);
 * none inside an emergency collection, a finalizer or lua_close's own
 * loop.  Returns how many ran.  Only at safe points: the caller's frame
 * must be consistent, as for any Lua call. */
int gc_finalize(lua_State *L, int max);
/* The same, but no call starts once `cycles` have passed since the first
 * (which always runs): a paced step's finalizers, in what is left of its
 * budget. */
int gc_finalize_for(lua_State *L, int max, uint32_t cycles);
/* The same in a control loop's slack (pace_idle_until), where a call that
 * outlasts what is left makes the next body late: no call starts, the
 * first neither, that g->fnzcallest, the length expected of a call, says
 * would end past `cycles`; but under the reserve of free memory, where
 * they run as gc_finalize_for's do.  The expected length is the longest
 * call measured, less a GC_FNZ_EST_DECAY-th of the difference at each
 * shorter one.  *putoff says whether a call was put off so (not: none
 * was pending, or those pending wait for the cycle's atomic phase). */
int gc_finalize_fit(lua_State *L, int max, uint32_t cycles, int *putoff);
/* A slack has ended with calls pending and none of them run, as none was
 * expected to fit: the expected length loses a GC_FNZ_EST_DECAY-th, so
 * that calls longer than any slack still run, one in a few slacks,
 * rather than wait until memory is short. */
void gc_finalize_starved(global_State *g);
/* The cycles a __gc call is expected to take there. */
static inline uint32_t gc_finalize_expected(const global_State *g)
{
    return g->fnzcallest;
}
/* Free everything but the super-fixed main state (lua_close). */
void gc_freeall(lua_State *L);
/* A new cycle is due: use grew pausepct over the last estimate, free
 * bytes fell under the reserve, or the largest block did
 * (GC_LARGEST_DIV).  (It may still wait for the last cycle's
 * __gc calls: see Finalizers above.) */
int gc_cycle_due(global_State *g);

/* ---- Mutator pauses ------------------------------------------------------
 * The program's own operations that may take longer than a lookup (a big
 * table's growth work in a store, an interning that advances a string
 * table's resize) are timed, for rt.stats()'s worst_rehash_us and
 * worst_intern_us: the cycles from gc_pause_begin to gc_pause_end, less
 * what collector steps and emergencies inside took (g->gcspent; they have
 * figures of their own).  Only those slow paths pay the two clock reads. */
typedef struct gc_pausemark {
    uint32_t start, spent;
} gc_pausemark;
static inline gc_pausemark gc_pause_begin(const global_State *g)
{
    gc_pausemark m = {port_cycles(), g->gcspent};
    return m;
}
static inline void gc_pause_end(global_State *g, gc_pausemark m,
                                uint32_t *worst)
{
    uint32_t used = (port_cycles() - m.start) - (g->gcspent - m.spent);
    if ((int32_t)used > 0 && used > *worst)
        *worst = used;
}

/* ---- Checking --------------------------------------------------------------
 * Walks every object: colour invariant, list membership, accounting equal
 * to the arena's bytes in use, no reference to a freed block, and after
 * atomic (until the sweep ends) no weak table keeping a dead object in a
 * weak slot nor an ephemeron a dead value of a live key.  Returns 0, or a
 * negative GC_CHECK_* code (the first problem found); `why` (if not NULL)
 * gets a static description. */
enum gc_check_code {
    GC_CHECK_OK = 0,
    GC_CHECK_ARENA = -1,   /* the arena itself is inconsistent */
    GC_CHECK_COLOR = -2,   /* a black object points to a white one */
    GC_CHECK_TAG = -3,     /* an object with an impossible tag or mark */
    GC_CHECK_ACCOUNT = -4, /* objects' bytes differ from the arena's */
    GC_CHECK_LIST = -5,    /* an object on the wrong list */
    GC_CHECK_DEAD = -6,    /* a live object reaches a freed-white one */
    GC_CHECK_FREED = -7,   /* a reference to a block already freed */
    GC_CHECK_WEAK = -8,    /* a weak slot kept a dead object after atomic */
};
int gc_check(lua_State *L, const char **why);

/* The gray-list link of an object that can be gray (tests). */
gcobj **gc_gclist(gcobj *o);

/* Bytes a live object occupies (as allocated, without arena headers). */
size_t gc_objsize(gcobj *o);
/* Free one object (the sweep and gc_freeall). */
void gc_freeobj(lua_State *L, gcobj *o);

#endif
