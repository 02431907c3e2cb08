/*
 * rtlua.h — rtlua's extensions to the C API (prefix rtlua_).
 *
 * Everything here is specific to rtlua and absent from reference Lua: a
 * C module that uses it is an rtlua module.  The collector is
 * incremental and driven by time (docs/architecture.md, gc/pace.h);
 * these calls let C code (and the `rt` library's rt.stats()) observe it
 * without reaching into the VM's headers.  Statistics are a copy taken
 * at the call: reading them allocates nothing and runs no collector
 * step.
 */
#ifndef RTLUA_RTLUA_H
#define RTLUA_RTLUA_H

#include <stddef.h>
#include <stdint.h>

#include "lua.h"

/* Buckets of the step-length histogram: bucket i counts steps of
 * [2^i, 2^(i+1)) cycles (the last one also holds everything longer). */
#define RTLUA_GC_HIST_BUCKETS 24

typedef struct rtlua_GCStats {
    uint32_t steps;             /* collector steps run (all kinds) */
    uint32_t worst_step_cycles; /* longest single step, in port cycles */
    uint32_t hist[RTLUA_GC_HIST_BUCKETS]; /* step lengths, log2 buckets */
    uint32_t cycles_completed;            /* full collection cycles */
    uint32_t emergencies;       /* emergency collections (allocation failed) */
    uint32_t assists;           /* steps forced by the low-memory reserve */
    uint32_t paced;             /* steps run at safe points on tick credit */
    uint64_t bytes_freed;       /* arena bytes returned by the sweeps */
    uint64_t step_cycles_total; /* sum of all step lengths */
    size_t bytes_in_use;        /* arena bytes in use, headers included */
    size_t bytes_free;          /* arena bytes free */
    size_t largest_free;        /* largest block that could be allocated */
    size_t capacity;            /* the arena's size */
    size_t peak_in_use;         /* highest bytes_in_use since opening */
    /* The median and p99.9 step, in port cycles: exact while there have
     * been at most the state's sample count of steps (quantiles_sampled
     * 0); past that the median is that of a uniform sample of the steps,
     * and p99.9 the top of its histogram bucket (no more than the worst). */
    uint32_t median_step_cycles;
    uint32_t p999_step_cycles;
    int quantiles_sampled;
    uint32_t worst_emergency_cycles; /* longest emergency (not a step) */
    /* __gc calls run outside the steps, at most GC_FINALIZE_MAX after
     * each step (gc/gc.h): their number, and the longest such batch in
     * port cycles (a pause of the program, apart from the steps). */
    uint32_t finalizers;
    uint32_t worst_finalizer_cycles;
    uint32_t emergencies_failed; /* emergencies after which the allocation
                                    failed ("not enough memory") */
    uint32_t assists_deferred;   /* assists skipped: an rt.loop body had
                                    spent its assist cap */
    uint32_t worst_body_assists; /* most assist steps in one rt.loop body */
    uint32_t worst_body_assist_cycles; /* most assist cycles in one body */
    uint64_t assist_units; /* collector work units done by assists */
    /* The longest single unit of work a step ran (what a step may overrun
     * its budget by), in port cycles, and the phase it was in: one of
     * the RTLUA_GCPHASE_* names below. */
    uint32_t worst_unit_cycles;
    int worst_unit_phase;
    /* Prototypes the collector traversed (their traversal began): those
     * of code compiled into RAM; never those of a flash image. */
    uint64_t protos_traversed;
    /* The program's own longest pauses, by cause, in port cycles, with
     * collector steps and emergencies inside them left out: the growth
     * work of a big table in one store (or a small table's rehash), and
     * an interning that advanced the string table's resize. */
    uint32_t worst_rehash_cycles;
    uint32_t worst_intern_cycles;
} rtlua_GCStats;

/* The collector's phases, as worst_unit_phase names them. */
#define RTLUA_GCPHASE_PAUSE 0
#define RTLUA_GCPHASE_PROPAGATE 1
#define RTLUA_GCPHASE_ATOMIC 2
#define RTLUA_GCPHASE_CLEARWEAK 3
#define RTLUA_GCPHASE_SWEEPSTRING 4
#define RTLUA_GCPHASE_SWEEPOBJ 5

/* Copy the collector's statistics of L's state into *out. */
void rtlua_gcstats(lua_State *L, rtlua_GCStats *out);
/* Start the collector's statistics afresh (the counts, the worst figures,
 * the histogram and the samples; the arena's peak becomes what is in use
 * now): to measure one phase of a program, e.g. leaving out its loading. */
void rtlua_gcstats_reset(lua_State *L);

/* The collector's trace, in builds with RTLUA_GC_TRACE (its value: the
 * ring's entries, a power of two; 1 or empty: 1024): a ring of the last
 * collector steps, emergencies and ticks, for measuring where the
 * collector's time falls (bench/gc_adversarial.lua's exact MMU).  Pushes
 * a table of the last entries (up to 7/8 of the ring), oldest by the
 * time they were logged first, three integers an entry: its start
 * (port_cycles), its length in cycles (a tick: the credit it found
 * left), its kind (RTLUA_GCTRACE_*); returns 1.  Without RTLUA_GC_TRACE
 * it pushes nothing and returns 0. */
#define RTLUA_GCTRACE_TICK 0
#define RTLUA_GCTRACE_PACED 1
#define RTLUA_GCTRACE_ASSIST 2
#define RTLUA_GCTRACE_EMERGENCY 3
int rtlua_pushgctrace(lua_State *L);

/* Push a ROM object (a const table or full userdata in flash, made by
 * tools/romgen or defined with MARK_ROM_PRESET): how libraries hand out
 * their flash tables.  Allocates nothing. */
void rtlua_pushrom(lua_State *L, const void *obj);

/* A loop in C whose length the caller controls (table.move over any range,
 * a pattern's backtracking) calls this every RTLUA_POLL_EVERY iterations
 * (n: the iterations since the last call): the count hook runs as if they
 * were n instructions.  So whatever a count hook does interrupts the loop
 * too: the REPL's Ctrl-C, debug.sethook's count hook, rt.timeout's
 * deadline; and so does rtlua_interrupt, hooks or not.  It may raise. */
#define RTLUA_POLL_EVERY 4096
void rtlua_poll(lua_State *L, int n);

/* Stop the script L's state runs, whatever it is doing: a watchdog's
 * warning interrupt, a timer or a signal handler may call it (one byte
 * store).  With on != 0, the interpreter's next safe point (a call, a
 * backward jump, an allocating instruction) or C loop's poll
 * (rtlua_poll) raises the error "interrupted!" in the running thread.
 * No hook is involved, so it stops a hook function's loop and a __gc
 * metamethod's too, where hooks are off; an error in __gc is a warning
 * ("error in __gc (...interrupted!)", 5.4's manual), and the program then
 * gets the error at the next safe point after the finalizer.  The
 * interrupt stays pending until rtlua_interrupt(L, 0) withdraws it: a
 * pcall that catches the error runs only to its next safe point, which
 * raises again, so the error reaches the host's own protected call
 * whatever the script does (a message handler or a __close written in
 * Lua is stopped the same way: "error in error handling" then).
 * Withdraw it when that call has returned, before running Lua code in
 * the state again: lua_close's finalizers too, or they stop at their
 * first safe point, each with its warning. */
void rtlua_interrupt(lua_State *L, int on);

/* A string built in place, as luaL_Buffer's boxes are: pushes room for
 * `size` bytes and returns it, for the caller to write; then
 * rtlua_finishbuffer makes it a string.  Until then the value in its slot
 * is no Lua string: it must not be compared, hashed, used as a key or
 * handed to Lua.  A memory error if there is no room. */
char *rtlua_pushbuffer(lua_State *L, size_t size);
/* Make the buffer at idx (rtlua_pushbuffer's, written) the string of its
 * first len bytes, len <= its size, in the same slot: shortened in place
 * with no copy, or, short enough to be interned, copied into the short
 * string.  Returns the string's bytes. */
const char *rtlua_finishbuffer(lua_State *L, int idx, size_t len);

/* t[to..to+n-1] = t[from..from+n-1] for the table t at stack index idx
 * (n > 0), at once, when every slot of both ranges lies in t's array part
 * and holds a value: lua_geti and lua_seti would then call no metamethod
 * and change no slot's presence, only store (with the barrier), as this
 * does.  Returns 1 then; 0, having changed nothing, otherwise, for the
 * caller's loop of lua_geti and lua_seti to do it (the table library's
 * shifts, in insert and remove). */
int rtlua_arraymove(lua_State *L, int idx, lua_Integer from, lua_Integer to,
                    lua_Integer n);

/* ---- The collector's controls, for the libraries (gc/gcapi.c) -----------
 * What the rt library (lib/rtlib.c, lib/rtpost.c), the auxiliary library
 * and the boards' malloc (lib/cmalloc.c) need of the runtime, so that
 * lib/ includes no header of the core (docs/architecture.md, "The
 * layers").  Times are port cycles (port_cycles, port/port.h). */

/* The pacing settings (docs/architecture.md, "Settings"). */
typedef struct rtlua_Budget {
    uint32_t utilisation_pct; /* share of each tick given to the collector */
    uint32_t step_cycles;     /* cycles per paced step */
    size_t reserve;           /* free bytes under which allocation assists */
    uint32_t assist_cycles;   /* assist cycles an rt.loop body may spend */
} rtlua_Budget;
void rtlua_getbudget(lua_State *L, rtlua_Budget *out);
/* Percent of each tick, 0..100. */
void rtlua_setutilisation(lua_State *L, uint32_t pct);
/* Cycles per step and the reserve; 0 leaves a value unchanged. */
void rtlua_setbudget(lua_State *L, uint32_t step_cycles, size_t reserve);
/* Assist cycles per rt.loop body; 0: one step's cycles, whatever it is. */
void rtlua_setassistcap(lua_State *L, uint32_t cycles);

/* An rt.loop body runs between these two: paced steps and finalizer
 * batches wait while it is within `period` cycles of its start (assists
 * still run, within the assist cap).  rtlua_bodybegin returns what
 * rtlua_bodyend must be given back (bodies nest); rtlua_bodyend gives the
 * body's assist steps and their cycles.  An error unwinding the body
 * ends it by itself (the protected call that catches it). */
int rtlua_bodybegin(lua_State *L, uint32_t period);
void rtlua_bodyend(lua_State *L, int saved, uint32_t *assists,
                   uint32_t *assist_cycles);

/* Wait until `deadline` (port_cycles), giving the time to the
 * collector and to the safe-point hook (event delivery): steps of at
 * most the step budget, each ending by the deadline plus one work unit,
 * each followed by the pending __gc calls expected to end before the
 * deadline; asleep while the collector has no work (or is stopped) and
 * an interrupt surely comes before the deadline.  An allocation that
 * fails meanwhile (in a __gc, in a handler) catches up until the
 * deadline, never a whole collection, and then fails.  Returns the
 * cycles spent collecting. */
uint32_t rtlua_idleuntil(lua_State *L, uint32_t deadline);

/* Have the VM's next safe point call fn(L), after its collector work;
 * fn stays installed, and later safe points call it whenever the flag is
 * up again (each tick raises it).  One hook per program (the rt
 * library's event delivery).  Two stores: callable from an interrupt. */
void rtlua_atsafepoint(lua_State *L, void (*fn)(lua_State *L));
/* Is a __gc metamethod running? */
int rtlua_infinalizer(lua_State *L);

/* The open state's main thread (a program has one state at a time), or
 * NULL when none is open. */
lua_State *rtlua_current(void);
/* A block of L's arena for C code, as the runtime's own blocks are got:
 * a full arena runs an emergency collection first.  nsize 0 frees p
 * (returns NULL); otherwise returns the block (p's bytes moved into it),
 * or NULL with p as it was.  osize is what p was asked with.  Blocks are
 * RTLUA_ALLOC_ALIGN-aligned and counted as C code's (gc_check). */
#define RTLUA_ALLOC_ALIGN 8
void *rtlua_alloc(lua_State *L, void *p, size_t osize, size_t nsize);

/* Load a chunk held in memory, as luaL_loadbufferx (mode NULL: "bt"), but
 * a binary chunk is read where it lies, where lua_load copies the
 * reader's pieces into one block first (lang/capi.c). */
int rtlua_loadbuffer(lua_State *L, const char *s, size_t len,
                     const char *chunkname, const char *mode);

/* ---- Flash images (docs/images.md) ----------------------------------------
 * Precompiled applications in flash, made on the host by rtluac for one
 * firmware and run where they lie.  The firmware's image region is where
 * an image must be (the last part of flash on a board, a fixed address on
 * the host). */
void rtlua_image_region(const void **start, size_t *size);
/* Check the image at p, of which len bytes are readable, and attach it to
 * L's state: its modules are then found first by require, its main
 * module by rtlua_image_pushmodule(L, NULL).  Call it right after the
 * state is made (before luaL_openlibs: no RAM string equal to one of the
 * image's may exist yet).  Returns NULL, or pushes the reason the image
 * was refused (it is then not used at all) and returns it. */
const char *rtlua_image_attach(lua_State *L, const void *p, size_t len);
/* Is an image attached to L's state? */
int rtlua_image_attached(lua_State *L);
/* Push a new closure of the attached image's module `name` (NULL: its
 * main module) and the module's source name ("main.lua"); returns 1, or
 * 0 pushing nothing when there is no such module or no image. */
int rtlua_image_pushmodule(lua_State *L, const char *name);

/* The rt library (lib/rtlib.c): real-time loops, events, GC figures. */
#define RTLUA_RTLIBNAME "rt"
int luaopen_rt(lua_State *L);
/* The `hw` library: the board's pins, ADC, UARTs, timers, watchdog and
 * registers (lib/hwlib.c, port/hw.h). */
int luaopen_hw(lua_State *L);

/* ---- Interrupt events (lib/rtpost.c) ------------------------------------
 * rt_post(L, irq, value) may be called from an interrupt handler (or a
 * signal handler on the host).  It puts (irq, value) into a fixed ring of
 * RT_POST_RING entries and raises the flag the tick raises (stepflag), so
 * the VM's next safe point delivers the event to the Lua function
 * registered with rt.on(irq, fn), in posting order, never inside the
 * interrupt.  The ring is lock-free with one producer (the interrupts,
 * which must not preempt one another while posting: give every posting
 * interrupt the same priority) and one consumer (the VM).  It returns 1,
 * or 0 when the ring is full (the event is counted as dropped).  It
 * allocates nothing and takes no lock. */
#ifndef RT_POST_RING
#define RT_POST_RING 64 /* entries; a power of two (a board may lower it) */
#endif
/* Event numbers rt.on accepts: 0..RT_IRQ_MAX-1 (hardware lines and any
 * software sources a program invents). */
#define RT_IRQ_MAX 128

int rt_post(lua_State *L, int irq, lua_Integer value);

typedef struct rt_post_stats {
    uint32_t posted;    /* events accepted into the ring */
    uint32_t dropped;   /* events refused because the ring was full */
    uint32_t delivered; /* events handed to a Lua handler */
    uint32_t unhandled; /* events taken with no handler registered */
    uint32_t errors;    /* handlers that raised an error (warned) */
} rt_post_stats;
void rt_post_getstats(rt_post_stats *out);
/* Deliver the events waiting in the ring now, in order (the safe points do
 * it by themselves; a C function may call this where running Lua code is
 * safe, e.g. while it waits); those posted while it runs wait for the next
 * call.  Returns the number handed to handlers.
 * Handlers live in the registry (rt.on); one raising an error is reported
 * with lua_warning, as a __gc error is, and the others still run. */
int rt_post_dispatch(lua_State *L);
/* Its address is the registry key of the table event -> handler. */
extern const char rt_handlers_key;
/* Is an event waiting? (one load; callable anywhere) */
int rt_post_pending(void);

/* Offer a built-in (flash) module to `require`: registry._PRELOAD[name]
 * = openf, so require(name) calls openf(name, ":preload:") the first
 * time (lib/loadlib.c). */
void rtlua_preload(lua_State *L, const char *name, lua_CFunction openf);

/* luaL_openlibs calls it last; the default does nothing (a weak
 * definition).  A program that embeds rtlua may define it to offer its
 * own modules (rtlua_preload).  The build's user C modules (make
 * USER_C_MODULES=dir) need none of it: their openers are entries of
 * package.preload's ROM table, which costs no arena. */
void rtlua_openusermods(lua_State *L);

/* Push the ROM table `name` that a user C module built into this
 * program declared in its MODULE_ROMTAB file (the README's "C
 * modules"), and return 1: a const table in flash, keys ROM strings,
 * costing no arena.  Push nothing and return 0 when the program has no
 * such table (the module is a .so, or built without its table), so the
 * module makes its RAM table instead.  Allocates nothing. */
int rtlua_romtable(lua_State *L, const char *name);

/* The interactive prompt (lib/repl.c) on the console, as lua5.4's: reads
 * lines until the end of input, runs them, prints values and errors;
 * returns 0 (also usable as a lua_CFunction returning nothing). */
int rtlua_repl(lua_State *L);
/* A message handler: the error message (or "(error object is a X
 * value)", or its __tostring) with a traceback from the error point. */
int rtlua_msghandler(lua_State *L);
/* lua_pcall of the function below the narg arguments on top with
 * rtlua_msghandler (lib/repl.c), which Ctrl-C interrupts ("interrupted!"):
 * SIGINT on the host, the console in a board's REPL. */
int rtlua_docall(lua_State *L, int narg, int nres);

#endif
