/*
 * state.h — the global state and threads.
 *
 * There is one global state per Lua universe, and the main one is a static
 * object (in .bss), super-fixed: never collected, never freed, so creating
 * a state allocates nothing but the string table and the registry.  A
 * thread (lua_State) is a collectable object with its own value stack; the
 * main thread lives inside the static global state.
 *
 * The collector's fields are here because every module reaches them
 * through L->g; gc/gc.h says what each phase does with them.
 */
#ifndef RTLUA_STATE_H
#define RTLUA_STATE_H

#include "gc/arena.h"
#include "include/lua.h"
#include "include/luaconf.h"
#include "vm/obj.h"
#include "vm/tm.h"

#include <stdbool.h>

/* The basic types' tags are Lua's type numbers (ttype of a value indexes
 * g->mt). */
_Static_assert(T_NIL == LUA_TNIL && T_BOOLEAN == LUA_TBOOLEAN &&
                   T_LIGHTUSERDATA == LUA_TLIGHTUSERDATA &&
                   T_NUMBER == LUA_TNUMBER && T_STRING == LUA_TSTRING &&
                   T_TABLE == LUA_TTABLE && T_FUNCTION == LUA_TFUNCTION &&
                   T_USERDATA == LUA_TUSERDATA && T_THREAD == LUA_TTHREAD &&
                   T_THREAD + 1 == LUA_NUMTYPES,
               "the basic type tags are lua.h's LUA_T* numbers");

/* ---- Collector phases --------------------------------------------------- */
enum gc_phase {
    GC_PAUSE,        /* between cycles: the next step marks the roots */
    GC_PROPAGATE,    /* traversing gray objects, a bounded chunk at a time */
    GC_ATOMIC,       /* one indivisible step: dirty stacks, weak, finalizers */
    GC_CLEARWEAK,    /* clearing the weak tables' dead entries, a chunk at a
                        time (after the flip: dead is the other white) */
    GC_SWEEP_STRING, /* sweeping the string table, some buckets per unit */
    GC_SWEEP_OBJ,    /* sweeping allgc, then finobj, some objects per unit */
};

/* Where a cycle's mark phase is in its finalizer stages (gc/gc.c). */
enum gc_fnzstage {
    FNZ_NONE,      /* marking (or no finalizable object this cycle) */
    FNZ_CLEARV,    /* clearing the weak values found dead, before the
                      finalizers' objects are marked */
    FNZ_SEPARATE,  /* moving unreached finobj objects to tobefnz */
    FNZ_RESURRECT, /* marking tobefnz and what it reaches */
};

/* Step-length histogram: bucket i counts steps of [2^i, 2^(i+1)) cycles. */
#define GC_HIST_BUCKETS 24

/* Step lengths kept for the median and p99.9 (a uniform sample once there
 * are more steps: reservoir sampling).  A board short of RAM sets fewer. */
#ifndef GC_STEP_SAMPLES
#define GC_STEP_SAMPLES 128
#endif

typedef struct gc_stats {
    uint32_t steps;             /* steps run (paced, assist, explicit) */
    uint32_t worst_step_cycles; /* longest single step */
    uint32_t hist[GC_HIST_BUCKETS];
    uint32_t sample[GC_STEP_SAMPLES]; /* step lengths, a uniform sample */
    uint32_t samplerng;               /* the reservoir's generator state */
    uint32_t worst_emergency_cycles;  /* longest emergency collection */
    uint32_t worst_finalizer_cycles;  /* longest gc_finalize batch (not a
                                         step: __gc is the program's code) */
    uint32_t finalizers;              /* __gc calls made by gc_finalize */
    uint32_t cycles_completed;        /* full collection cycles finished */
    uint32_t emergencies;             /* emergency collections on an alloc
                                         failure (not steps: apart from their
                                         figures) */
    uint32_t assists;            /* steps forced by the low-memory reserve */
    uint32_t assists_deferred;   /* assists left to the slack: the rt.loop
                                    body had spent its assist cap */
    uint32_t emergencies_failed; /* emergencies that ended in "not enough
                                    memory" (the catch-up was not enough) */
    uint32_t worst_body_assists; /* most assist steps in one rt.loop body */
    uint32_t worst_body_assist_cycles; /* most assist (and catch-up) cycles
                                          in one rt.loop body */
    uint64_t assist_units;             /* work units done by assist steps */
    uint32_t paced;               /* steps run at safe points on tick credit */
    uint64_t bytes_freed;         /* arena bytes returned by the sweep */
    uint64_t step_cycles_total;   /* sum of all step lengths */
    uint32_t worst_unit_cycles;   /* longest unit of any step (a run's
                                     units: their average, gc.h GC_RUN_MAX) */
    uint32_t units_in_runs;       /* units that ran after another with no
                                     clock read between (gc.h GC_RUN_MAX) */
    uint8_t worst_unit_phase;     /* the phase it ran in (GC_ATOMIC: atomic) */
    uint64_t protos_traversed;    /* prototypes whose traversal began (those
                                     of a flash image never are) */
    uint32_t worst_rehash_cycles; /* longest growth work of a big table in
                                     one store, or a small table's rehash
                                     (gc.h: Mutator pauses) */
    uint32_t worst_intern_cycles; /* longest interning that advanced a
                                     string table's resize */
} gc_stats;

/* ---- String table ----------------------------------------------------------
 * Chained hash of RAM short strings; ROM strings are found first in the
 * flash table.  A resize first clears the new array STRTAB_CLEAR_PER_OP
 * buckets per operation, then moves STRTAB_MOVE_PER_OP buckets per
 * operation from `old` to `hash` (vm/str.c), so no single operation
 * clears or rehashes it all. */
typedef struct strtab {
    str **hash;        /* current buckets */
    uint32_t size;     /* buckets in hash (power of 2) */
    uint32_t nuse;     /* strings in both tables */
    str **old;         /* being migrated, or (clearing != 0) the next array,
                          being cleared, or NULL */
    uint32_t oldsize;  /* buckets of old holding strings (0 while clearing) */
    uint32_t moved;    /* old buckets migrated, or cleared while clearing */
    uint32_t clearing; /* buckets of the array being cleared, or 0 */
} strtab;

/* ---- Threads ------------------------------------------------------------ */
struct CallInfo; /* vm/do.h */
struct CallInfoBlock;
struct lua_longjmp;
struct lua_Debug;

typedef struct lua_State {
    GCHEADER;
    uint8_t status; /* LUA_OK, LUA_YIELD, or the error that killed it */
    uint8_t dirty;  /* GC_RAN_* bits (gc/gc.h): ran since its scan began,
                       since its dead part was last cleared */
    uint32_t nci;   /* CallInfo records allocated on the ci list */
    tvalue *stack;  /* stack[0..stacksize-1] */
    tvalue *top;    /* first free slot */
    uint32_t stacksize;
    /* Slots the stack checks hand out before their slow path: every frame
     * lies below stack + stacklimit - DO_EXTRA_STACK, so nothing wrote a
     * slot at or above it since the dead part was last cleared (those are
     * nil).  vm/do.c raises it a little at a time, within stacksize. */
    uint32_t stacklimit;
    /* The lowest slot that may have changed since the stack's last scan
     * began: below it every frame has been inactive since (a frame becomes
     * active again by a return or an unwinding, which lower the mark), and
     * an open upvalue's slot changes only with the upvalue's barrier.  So
     * atomic re-scans only [lowmark, top). */
    tvalue *lowmark;
    uint32_t deadfrom; /* slots from here up were nil at the last clear */
    struct global_State *g;
    upval *openupval; /* open upvalues, highest level first */
    /* On g->ranlist (ranprev not NULL): threads that ran since atomic
     * last looked at them (gc.h, gc_thread_ran). */
    struct lua_State *rannext;
    struct lua_State **ranprev;
    gcobj *gclist;
    /* calls (vm/do.c) */
    struct CallInfo *ci;            /* the running function's record */
    struct CallInfo *base_ci;       /* the bottom record (C, the host) */
    struct CallInfoBlock *ciblocks; /* storage of the records, newest first */
    struct lua_longjmp *errorJmp;   /* the innermost protected call */
    tvalue *tbclist;                /* top to-be-closed variable, or NULL */
    uint32_t *tbcslots; /* stack indices of the tbc variables, lowest first */
    uint32_t ntbc;      /* entries in tbcslots */
    uint32_t sizetbc;   /* entries allocated */
    ptrdiff_t errfunc;  /* message handler's stack offset, 0 */
    uint32_t nCcalls;   /* low 16 bits: nested C calls (C stack levels);
                           high 16: non-yieldable calls */
    uint8_t allowhook;  /* hooks may run */
    uint8_t hookmask;   /* LUA_MASK* */
    int32_t basehookcount;
    int32_t hookcount;
    void (*hook)(struct lua_State *L, struct lua_Debug *ar);
    int32_t oldpc; /* last pc traced (line hooks) */
    /* lua_getextraspace's bytes, the application's: a new thread's start
     * as a copy of the main thread's. */
    _Alignas(void *) unsigned char extraspace[LUA_EXTRASPACE];
} lua_State;

/* ---- The global state --------------------------------------------------- */
typedef struct global_State {
    arena_t *arena; /* the one heap */
    /* lua_setallocf's function and its ud, through which every block of
     * the arena passes (gc/gc.c); NULL: the arena directly. */
    void *(*allocf)(void *ud, void *ptr, size_t osize, size_t nsize);
    void *allocud;
    uint8_t inallocf; /* the runtime's own block is passing g->allocf */
    /* Arena bytes (headers included) in blocks that C code holds from
     * lua_getallocf's function (lpeg's compiled patterns): no object's,
     * yet in the arena's count (gc_check adds them). */
    size_t cblockbytes;
    uint32_t cstacklimit; /* nested C calls allowed (lua_setcstacklimit) */
    strtab strt;          /* interned RAM short strings */
    tvalue registry;      /* the registry table */
    tvalue nilvalue;      /* a nil; also "state fully built" once set */
    /* Metatables of the basic types, by ttype. */
    table *mt[LUA_NUMTYPES];
    struct romslot
        *romslots; /* ROM tables written since boot (docs/rom-tables.md) */
    /* The flash image attached (lang/image.h, docs/images.md), or NULL. */
    const struct img_header *image;
    str *memerrmsg;    /* "not enough memory", pre-made */
    str *cstackmsg;    /* "C stack overflow", pre-made (a ROM string) */
    uint32_t nloading; /* compilations in progress (lang/load.c) */
    str *tm_mode;      /* "__mode" (ROM when ROM strings exist) */
    str *tm_gc;        /* "__gc" */
    str *tmname[TM_N]; /* event names, by tm_event (vm/tm.h) */
    int (*panic)(struct lua_State *L); /* lua_atpanic: unprotected errors */
    /* collector */
    uint8_t currentwhite;   /* MARK_WHITE0 or MARK_WHITE1 */
    uint8_t gcphase;        /* enum gc_phase */
    uint8_t gcrunning;      /* paced and assist steps allowed */
    uint8_t gcstopped;      /* collectgarbage("stop"): steps are not
                               allowed, the emergency still is */
    uint8_t gcemergency;    /* inside an emergency collection */
    uint8_t gcinassist;     /* an assist step runs (inside an allocation) */
    uint8_t fnzdue;         /* an assist asks the next safe point for __gc */
    uint8_t gcclosing;      /* lua_close runs the finalizers: no new ones */
    uint8_t gchold;         /* no paced steps: an rt.loop body runs (the
                               collector takes the slack between bodies) */
    uint8_t inslack;        /* a control loop's slack (pace_idle_until)
                               runs, until g->slackend */
    uint8_t remarks;        /* root re-marks done in this propagate phase */
    uint8_t atomicput;      /* steps that ended rather than start atomic late
                               (GC_ATOMIC_DEFER) */
    uint8_t atomicwait;     /* a step ended rather than start atomic: a paced
                               step may borrow a whole budget (gc/pace.c) */
    uint8_t remarking;      /* g->trav is a thread being re-marked */
    uint8_t remarkpass;     /* a re-mark pass is under way */
    uint8_t remarkfound;    /* this pass found gray objects */
    uint8_t remarkclean;    /* a pass ended that found none */
    uint8_t remarkstale;    /* passes that found none but stacks that kept
                               changing (GC_REMARK_STALE) */
    gcobj *remarknext;      /* the next grayagain entry the pass looks at */
    uint32_t remarkslots;   /* stack slots this pass re-marks */
    uint32_t stepno;        /* collector steps so far (wraps) */
    uint32_t remarkstep;    /* stepno of the step the re-mark pass began in */
    uint32_t remarkrun;     /* stepno of the last re-mark of the thread
                               running a step before atomic */
    uint32_t atomicscan;    /* stack slots the last atomic phase re-scanned */
    uint32_t atomicclear;   /* dead stack slots it nil-filled */
    uint32_t atomicthreads; /* threads it looked at (g->ranlist; tests) */
    gcobj *allgc;           /* every collectable RAM object without __gc */
    gcobj *finobj;          /* objects with a __gc metamethod */
    gcobj *tobefnz;         /* dead objects waiting for their __gc */
    gcobj *fnzrunning;      /* the object whose __gc runs, NULL while none
                               does (a root: an emergency may run inside
                               the call) */
    gcobj **fnztail;        /* tobefnz's last link (valid while it is not
                               empty) */
    /* The finalizer stages of a cycle's mark phase (gc.c: fnz_*): */
    uint8_t fnzstage;  /* enum gc_fnzstage */
    gcobj **fnzsep;    /* SEPARATE: the next finobj link to look at */
    gcobj *fnzmark;    /* RESURRECT: the next tobefnz object to mark */
    gcobj *fnzbatch;   /* the first object this cycle separated: its
                          __gc waits for the cycle's atomic */
    gcobj **sweepgc;   /* the sweep's position in the current list */
    uint8_t sweeplist; /* 0 allgc, 1 finobj, 2 tobefnz */
    uint32_t sweepstr; /* the string sweep's next bucket */
    str **sweepstrpos; /* the link in it to go on from, NULL: its head */
    gcobj *gray;       /* gray objects to traverse */
    gcobj *grayagain;  /* threads: scanned again in atomic */
    gcobj *weak;       /* weak-value tables, for clearing */
    gcobj *ephemeron;  /* weak-key tables */
    gcobj *allweak;    /* weak keys and values */
    /* The clearing of the weak tables (FNZ_CLEARV, GC_CLEARWEAK): */
    uint8_t clearlist;  /* 0 weak, 1 allweak, 2 ephemeron */
    uint8_t clearkeys;  /* weak keys are cleared too (GC_CLEARWEAK) */
    uint8_t clearwhite; /* the white of the dead */
    gcobj *clearnext;   /* the next table of the list to clear */
    table *cleartab;    /* the table being cleared, or NULL */
    uint32_t clearpos;  /* where in it (tab_view's order) */
    gcobj *trav;        /* the object a chunked traversal is inside */
    uint32_t travpos;   /* where in it the traversal resumes */
    /* g->trav a thread whose stack is scanned (travpos TRAV_UPVALS): the
     * open upvalue its traversal marks next, GC_TRAVERSE_CHUNK a unit;
     * one that leaves the list moves it on (gc_upval_unlinked).  Marked
     * down to slot travuvlow, where the traversal began.  Then (travpos
     * TRAV_DEAD) its dead part is nil-filled from slot travdead up. */
    upval *travuv;
    uint32_t travuvlow;
    uint32_t travdead;
    gcobj *weakwait;       /* weak tables waiting for gray to run out */
    gcobj *ephkey;         /* a flagged ephemeron key being looked up */
    gcobj *ephnext;        /* the next ephemeron table to look it up in */
    uint32_t ephlookups;   /* ephemeron lookups made (tests) */
    uint32_t weakslots;    /* weak-table slots traversed (tests) */
    lua_State *ranlist;    /* threads atomic must look at (gc_thread_ran) */
    uint32_t ranlen;       /* threads on it */
    gcobj *newest;         /* the last object made: an emergency collection
                              keeps it, it may not be anchored yet */
    size_t gcestimate;     /* bytes in use at the end of the last cycle */
    uint32_t pausepct;     /* a cycle starts when use grows this % over
                              the estimate and pauseextra (or free falls
                              under reserve) */
    uint32_t pauseextra;   /* GC_PAUSE_EXTRA (gc.h); the collector's unit
                              tests that step through cycles set 0 */
    size_t reserve;        /* assist steps below this many free bytes */
    size_t assistdebt;     /* bytes allocated since the last assist step
                              (or the last check of gc.c's assist_due) */
    size_t assiststride;   /* the bytes between two such checks, above the
                              reserve */
    uint32_t assistowed;   /* work units allocation owes the cycle: paid by
                              assist steps and by any other step's units */
    uint32_t cycleunits;   /* work units done in this cycle so far */
    uint32_t lastunits;    /* work units the last finished cycle took */
    uint32_t unitcost;     /* cycles a unit takes, x16: a running average
                              over the steps (assist tolerance) */
    size_t cyclebytes;     /* bytes in use when this cycle started */
    size_t lastbytes;      /* the same for the last finished cycle */
    size_t lastlargest;    /* the largest sure allocation when it ended */
    size_t lastend;        /* bytes in use when it ended */
    size_t fnzdrained;     /* bytes of objects whose __gc ran since */
    uint32_t atomiccycles; /* what the last atomic unit took */
    uint32_t atomicslots;  /* the stack slots it re-scanned and cleared */
    uint32_t atomiclslots; /* those of the thread running its step */
    size_t cyclealloc;     /* bytes allocated since this cycle started: born
                              black or current-white, they survive it */
    uint32_t fnzowed;      /* __gc calls owed: one per object set for
                              finalization, paid by any __gc call */
    uint32_t fnzcallest;   /* cycles a __gc call is expected to take, in a
                              control loop's slack (gc_finalize_fit) */
    uint32_t slackend;     /* port_cycles when that slack ends */
    uint32_t fnzslackgc;   /* cycles of emergency catch-up inside the __gc
                              call running there */
    size_t cyclefnzbytes;  /* bytes of the objects this cycle separated for
                              their __gc: garbage it keeps, not live */
    uint32_t assistcap;    /* cycles of assists (and emergency catch-up)
                              per rt.loop body */
    uint32_t bodyassists;  /* assist steps in the running rt.loop body */
    uint32_t bodystart;    /* port_cycles when it started */
    uint32_t bodyperiod;   /* its loop's period, in cycles */
    uint32_t bodyassistcycles; /* their cycles, and the catch-up's */
    uint32_t stepbudget;       /* cycles per paced step */
    volatile uint32_t credit;  /* cycles accrued by the tick */
    /* What objects set for finalization hold that no collection can give
     * back yet (gc.c: fnz_held): set since the cycle under way began
     * (fnzyoung), set before it and not yet looked at by its separation
     * (fnzdecide), and on tobefnz (fnzpend). */
    size_t fnzyoung;
    size_t fnzdecide;
    size_t fnzpend;
    /* What a safe point of the interpreter tests, both in one load
     * (safeflags): nonzero when either byte is. */
    union {
        struct {
            volatile uint8_t stepflag;  /* the tick asks for a step */
            volatile uint8_t interrupt; /* rtlua_interrupt: raise
                                           "interrupted!" (vm/debug.c) */
        };
        volatile uint16_t safeflags;
    };
    uint32_t utilisation_pct; /* share of each tick given to the GC */
    uint32_t creditcap;       /* a tick's credit (gc/pace.c) */
    /* cycles the last paced step ran past its credit, which the next
     * tick withholds (gc/pace.c) */
    uint32_t creditdebt;
    volatile uint32_t assistspent; /* cycles of assists outside rt.loop
                                      bodies since the last tick */
    uint32_t assistrate; /* what growth assists may spend of each tick (gc.c:
                            tick_cap); 0: no tick, no limit */
    uint32_t gcspent;    /* cycles of collector steps and emergencies (wraps):
                         what a mutator pause's figure leaves out */
    gc_stats stats;
    uint32_t failafter; /* tests: fail the Nth allocation from now (0 off) */
    void (*stephook)(uint32_t start, uint32_t cycles); /* benchmarks */
    void (*warnf)(void *ud, const char *msg, int tocont);
    void *warnud;
    int (*finalizer)(lua_State *L, gcobj *o); /* calls __gc; see gc.h */
    lua_State mainthread; /* the main thread, part of this static object */
} global_State;

#define G(L) ((L)->g)

/* Initial slots of a thread's stack. */
#define STATE_STACK_INIT 40
/* The most slots a stack may grow to ("stack overflow" beyond; vm/do.c
 * allows a few more while the error is handled). */
#define STATE_STACK_MAX LUAI_MAXSTACK

/* The one main state, on the port's arena (port_heap). */
lua_State *state_open(void);
/* The same on caller memory (tests); only one main state exists at once. */
lua_State *state_open_in(void *mem, size_t bytes);
/* Run pending finalizers, free every object; the arena is empty after. */
void state_close(lua_State *L);
/* The open main state's thread, or NULL (lib/cmalloc.c: C modules'
 * malloc on the boards takes the open state's arena). */
lua_State *state_current(void);

/* A new coroutine (not anchored: the caller stores it). */
lua_State *state_newthread(lua_State *L);
void state_freethread(lua_State *L, lua_State *L1);
/* The registry table and the globals table. */
table *state_registry(lua_State *L);
table *state_globals(lua_State *L);

#endif
