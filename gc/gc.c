/*
 * gc.c — the incremental collector (see gc.h for the phases, the
 * invariant and the bound of each unit).
 *
 * Gray objects are linked through their `gclist` field.  The object a
 * chunked traversal is inside is taken off the gray list and held in
 * g->trav with its resume position g->travpos, so barriers that push onto
 * the gray list cannot disturb it.  Tables, closures, prototypes and
 * userdata are painted black when their traversal starts: a store into
 * one mid-traversal then meets the forward barrier, so the part already
 * scanned stays correct; a resize restarts the scan (gc_resized).
 * Threads are never black: they go to grayagain and their stacks are
 * scanned again in atomic when they ran.  Weak tables are traversed in
 * chunks and painted black like the others (their strong slots marked;
 * what is stored into them later meets the forward barrier), and wait on
 * the list of their kind to be cleared in atomic.  An ephemeron entry whose
 * key and value are white flags its key (MARK_EPHKEY); the key's own
 * traversal, if it is marked later, looks it up in each ephemeron table of
 * the cycle and marks the value, so ephemerons converge in one traversal
 * plus a lookup per flagged key and table.
 */
#include "gc/gc.h"
#include "port/port.h"
#include "vm/do.h"
#include "vm/func.h"
#include "vm/str.h"
#include "vm/tab.h"

#include <string.h>

/* Upper bound of a budget: a step never runs longer than this. */
#define GC_BUDGET_MAX 0x7FFFFFFFu

#define makewhite(g, o)                                                       \
    ((o)->marked = (uint8_t)(((o)->marked & ~(MARK_COLOR | MARK_EPHKEY)) |    \
                             (g)->currentwhite))
#define set2gray(o) ((o)->marked &= (uint8_t)~MARK_COLOR)
#define set2black(o)                                                          \
    ((o)->marked = (uint8_t)(((o)->marked & ~MARK_WHITES) | MARK_BLACK))

/* ---- Allocation --------------------------------------------------------- */

static __attribute__((noinline)) void emergency(lua_State *L, size_t need);
static int finalize(lua_State *L, int max, uint32_t cycles, int *putoff);
/* The state whose weak tables are being cleared (FNZ_CLEARV,
 * GC_CLEARWEAK), or NULL: a table's read path does not know its state,
 * and there is one (vm/state.c). */
static global_State *clearing;
static void record_step(global_State *g, uint32_t used);

/* Countdown fault injection: the Nth allocation fails, with its retry. */
static int injected_failure(global_State *g)
{
    return g->failafter != 0 && --g->failafter == 0;
}

/* a * b / c (c > 0), in 32 bits where the product fits: a 64-bit
 * division is a library call of a hundred cycles or more on the boards
 * (__aeabi_uldivmod), and the pacing divides at every assist check. */
static inline uint64_t muldiv(uint64_t a, uint64_t b, uint64_t c)
{
    uint32_t p;
    if (a <= UINT32_MAX && b <= UINT32_MAX && c <= UINT32_MAX &&
        !__builtin_mul_overflow((uint32_t)a, (uint32_t)b, &p))
        return p / (uint32_t)c;
    return a * b / c;
}

/* a * b / c (c > 0) to within about one part in 2^16: where the product
 * does not fit in 32 bits, b and c lose the same low bits until it does,
 * if c keeps 16 bits (else muldiv). */
static uint32_t muldiv_near(uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t p;
    if (!__builtin_mul_overflow(a, b, &p))
        return p / c;
    int s = 32 - __builtin_clz(a) - __builtin_clz(b); /* 1..32 */
    if (s >= 16 || (c >> s) < (1u << 16))
        return (uint32_t)muldiv(a, b, c);
    return a * (b >> s) / (c >> s);
}

/* a * b / c (c > 0) for byte counts b and c: muldiv_near where they fit
 * in 32 bits (always on the boards), else muldiv. */
static uint64_t muldiv_bytes(uint32_t a, size_t b, size_t c)
{
    if (b <= UINT32_MAX && c <= UINT32_MAX)
        return muldiv_near(a, (uint32_t)b, (uint32_t)c);
    return muldiv(a, b, c);
}

/* Units the cycle still needs, as far as can be known: the last cycle's
 * units scaled by the bytes in use now over those at its start (a heap
 * that grew takes longer), less what this cycle has done, but at least a
 * GC_ASSIST_TAIL_DIV-th of that (this cycle may be longer still); before a
 * cycle has finished, one unit per GC_UNIT_BYTES in use. */
static uint32_t remaining_units(global_State *g)
{
    size_t inuse = arena_in_use(g->arena);
    uint64_t est = inuse / GC_UNIT_BYTES;
    if (g->lastunits != 0 && g->lastbytes != 0)
        est = muldiv_bytes(g->lastunits, inuse, g->lastbytes);
    uint32_t last = est > UINT32_MAX / 2 ? UINT32_MAX / 2 : (uint32_t)est;
    uint32_t floor = last / GC_ASSIST_TAIL_DIV + GC_ASSIST_MIN_UNITS;
    uint32_t rem = last > g->cycleunits ? last - g->cycleunits : 0;
    return rem > floor ? rem : floor;
}

/* What the objects set for finalization hold that a collection cannot
 * give back now, an emergency's either: those on tobefnz, whose __gc has
 * not run (a safe point runs it, and a cycle more frees them), and those
 * whose fate this cycle's separation has not decided yet (set since the
 * last separation; the ones it found alive no longer count).  Their
 * sizes as they were set (a table's as it grows after is not counted):
 * the counts start again at each cycle and whenever tobefnz empties, so
 * that they cannot drift. */
static inline size_t fnz_held(const global_State *g)
{
    return g->fnzyoung + g->fnzdecide + g->fnzpend;
}

/* The free bytes the reserve's tests count (all but assist_due's, which
 * runs at every allocation): the arena's, less fnz_held.
 * Finalizable garbage a collector that cannot keep up lets pile up
 * would otherwise count as free: 200k short-lived __gc tables at shift=5
 * filled 3.5 of a 4 MiB arena with it, and a 1 MB string.rep after them
 * failed, its emergency collection able to free none of it. */
static inline size_t reserve_free(const global_State *g)
{
    size_t free = arena_free_bytes(g->arena);
    size_t held = fnz_held(g);
    return free > held ? free - held : 0;
}

/* What the pause is a share of: the estimate and GC_PAUSE_EXTRA
 * (gc.h: g->pauseextra).  An estimate of 0 is none a cycle leaves (the
 * heap holds the registry and the string table at least): it is how
 * collectgarbage("step") says a cycle is due now (vm/api.c), so there
 * the base is 0 too. */
static inline size_t pause_base(const global_State *g)
{
    return g->gcestimate ? g->gcestimate + g->pauseextra : 0;
}

/* The growth over the estimate that starts a cycle: the pause's share
 * of pause_base, but at most a GC_PAUSE_ARENA_DIV-th of what the arena
 * has left over it.  The arena is fixed: garbage let grow to the pause's
 * share of a live set that fills much of it leaves the free space in
 * holes, and a big table's rehash, which needs its new parts whole,
 * fails. */
static size_t pause_room(const global_State *g)
{
    size_t room = pause_base(g) / 100 * g->pausepct;
    size_t cap = arena_capacity(g->arena);
    size_t left =
        cap > g->gcestimate ? (cap - g->gcestimate) / GC_PAUSE_ARENA_DIV : 0;
    return room < left ? room : left;
}

/* The growth a cycle that began with `base` bytes in use may see before
 * it must have ended: the pause's share of the estimate (what lua5.4
 * lets a cycle grow by), but no more than leaves the reserve free.  Not
 * pause_room's cap: that one starts cycles early, so that garbage does
 * not pile up in a fixed arena, but a cycle that must end within a
 * sixteenth of the free space makes allocation pay for most of the
 * marking in assists, however much time the paced steps would have had
 * (a 2 MB live set in 4 MiB: two assists a paced step, the mutator's
 * share of a 1 ms window down to a quarter). */
static size_t cycle_room(const global_State *g, size_t base)
{
    size_t room = pause_base(g) / 100 * g->pausepct;
    size_t cap = arena_capacity(g->arena);
    size_t limit = cap > base + g->reserve ? cap - base - g->reserve : 0;
    if (room > limit)
        room = limit;
    size_t start = pause_room(g);
    if (room < start)
        room = start;
    return room < GC_GROWTH_MIN ? GC_GROWTH_MIN : room;
}

/* The units the paced steps can be expected to do before the next
 * tick: a tick's credit at the recent steps' cycles per unit (at most
 * an eighth of the last cycle's units).  Growth
 * assists wait until more than this is owed: the paced steps run in a
 * burst after each tick and cannot pay ahead, so an owed sum that they
 * will pay at the next tick would otherwise be an assist taken from the
 * mutator's share of the tick (every check of a fast allocator between
 * two ticks was one, the paced steps keeping up or not). */
static uint32_t paced_units(const global_State *g)
{
    if (!g->gcrunning || g->utilisation_pct == 0 || g->unitcost == 0)
        return GC_ASSIST_MIN_UNITS;
    uint64_t u = muldiv(g->creditcap, 16, g->unitcost);
    if (u > g->lastunits / GC_ASSIST_TAIL_DIV)
        u = g->lastunits / GC_ASSIST_TAIL_DIV;
    return u > GC_ASSIST_MIN_UNITS ? (uint32_t)u : GC_ASSIST_MIN_UNITS;
}

/* Charge `bytes` allocated as units, at the rate that does the `rem`
 * units still needed by the time `room` more bytes are in use (all of
 * them when there is no room left), on top of what is owed already.
 * Returns 1 when more than `tolerance` units are owed: an assist step
 * is due. */
static int charge(global_State *g, size_t bytes, size_t room,
                  uint32_t tolerance)
{
    uint32_t rem = remaining_units(g);
    uint64_t owed = rem;
    if (room > 0) {
        owed = muldiv(bytes, rem, room);
        if (owed > rem)
            owed = rem;
    }
    owed += g->assistowed;
    if (owed > rem)
        owed = rem;
    g->assistowed = (uint32_t)owed;
    return owed >= tolerance;
}

/* Allocation pays for collection in work (gc.h: assists).  Two cases:
 *   - Under the reserve of free bytes: at every free/GC_ASSIST_DIV bytes
 *     allocated (so checks grow denser as memory runs out), at the rate
 *     that ends the cycle when free memory has fallen to the goal
 *     (reserve / GC_ASSIST_GOAL_DIV); at or under the goal, all of it.
 *   - Growth: once a cycle is due and until it ends, at every
 *     room/GC_ASSIST_DIV bytes, at the rate that ends it by the time use
 *     has grown by another pause's worth (room: the estimate times the
 *     pause) since it began.  Paced steps that keep up leave nothing
 *     owed; a program allocating faster than they collect pays the
 *     difference, so its peak stays near (1 + 2 x pause) x its live bytes
 *     whatever the pace of the CPU, as lua5.4's is.
 * The units owed accumulate in g->assistowed; every unit any step does
 * pays one.  Returns 1 when an assist step is due. */
static int assist_due(global_State *g, size_t n)
{
    /* (The arena's free bytes, not reserve_free: this runs at every
     * allocation, and the three loads and the subtraction more there took
     * bench/gc_adversarial.lua's list in rt.loop at 4 MiB and shift=0,
     * which keeps up by a hair, out of memory in six layouts of six.
     * What finalizable objects hold acts through tick_cap, behind and
     * the catch-up's bound.) */
    size_t free = arena_free_bytes(g->arena);
    size_t bytes = n + ARENA_HEADER_SIZE;
    if (free < g->reserve) {
        g->assistdebt += bytes;
        if (g->assistdebt < free / GC_ASSIST_DIV)
            return 0;
        size_t goal = g->reserve / GC_ASSIST_GOAL_DIV;
        bytes = g->assistdebt;
        g->assistdebt = 0;
        if (!charge(g, bytes, free > goal ? free - goal : 0,
                    GC_ASSIST_MIN_UNITS))
            g->assistowed = GC_ASSIST_MIN_UNITS;
        return 1;
    }
    /* Above the reserve, the checks come at every g->assiststride bytes
     * (an allocation that is not one costs an addition and a compare):
     * while no cycle is due, at every GC_DUE_STRIDE; while one is due or
     * under way, at every room / GC_ASSIST_DIV, the room as of the last
     * check (work() sets the stride to 0 as a cycle starts and ends, so
     * that the first allocation after checks at once). */
    g->assistdebt += bytes;
    if (g->assistdebt < g->assiststride)
        return 0;
    if (g->gcphase == GC_PAUSE && !gc_cycle_due(g)) {
        g->assistdebt = 0;
        g->assistowed = 0;
        g->assiststride = GC_DUE_STRIDE;
        return 0;
    }
    if (g->gcphase == GC_PAUSE && g->tobefnz != NULL) {
        /* The cycle waits for the last one's __gc calls (gc_cycle_waits):
         * the next safe point runs them. */
        if (!g->gchold) {
            g->fnzdue = 1;
            g->stepflag = 1;
        }
        g->assistdebt = 0;
        g->assiststride = GC_DUE_STRIDE;
        return 0;
    }
    size_t inuse = arena_in_use(g->arena);
    size_t base = g->gcphase == GC_PAUSE ? inuse : g->cyclebytes;
    size_t room = cycle_room(g, base);
    size_t grown = inuse > base ? inuse - base : 0;
    g->assiststride = room / GC_ASSIST_DIV;
    /* A cycle behind with units still owed (an assist's catch-up stops
     * at GC_CATCHUP_STEPS) checks again soon. */
    if (grown > room && g->assistowed > paced_units(g) &&
        g->assiststride > GC_DUE_STRIDE)
        g->assiststride = GC_DUE_STRIDE;
    if (g->assistdebt < g->assiststride)
        return 0;
    bytes = g->assistdebt;
    g->assistdebt = 0;
    /* A cycle past its room (behind) is charged at the rate that ends it
     * within a second room's worth, which assist() pays in full. */
    size_t left = grown < room       ? room - grown
                  : grown < 2 * room ? 2 * room - grown
                                     : 0;
    return charge(g, bytes, left, paced_units(g));
}

/* Cycles of assists an rt.loop body may spend (gchold). */
static uint32_t body_cap(global_State *g)
{
    return g->assistcap ? g->assistcap : g->stepbudget;
}

/* What is left of the running body's cap (GC_BUDGET_MAX outside one).
 * A body that has run past its period has lost its next release anyway:
 * from then on its cap is the collector's utilisation share of its time
 * so far, if that is more, so that a loop that cannot keep its schedule
 * does not also run out of memory. */
static uint32_t body_left(global_State *g)
{
    if (!g->gchold)
        return GC_BUDGET_MAX;
    uint32_t cap = body_cap(g);
    uint32_t ran = port_cycles() - g->bodystart;
    if (g->bodyperiod != 0 && ran > g->bodyperiod) {
        uint32_t share = (uint32_t)muldiv(ran, g->utilisation_pct, 100u);
        if (share > cap)
            cap = share;
    }
    return g->bodyassistcycles >= cap ? 0 : cap - g->bodyassistcycles;
}

static uint32_t step_(lua_State *L, uint32_t budget, uint32_t maxunits,
                      uint32_t start);
/* A step that starts now (its budget counted from this call). */
static uint32_t step_now(lua_State *L, uint32_t budget, uint32_t maxunits)
{
    return step_(L, budget, maxunits, port_cycles());
}

/* The growth of the bytes in use since the cycle under way began. */
static size_t cycle_grown(const global_State *g)
{
    size_t inuse = arena_in_use(g->arena);
    return inuse > g->cyclebytes ? inuse - g->cyclebytes : 0;
}

/* Has the cycle under way overrun its room (cycle_room), or is free
 * memory under the reserve's goal? */
static int behind(global_State *g)
{
    if (g->gcphase == GC_PAUSE)
        return 0;
    size_t free = reserve_free(g);
    if (free < g->reserve / GC_ASSIST_GOAL_DIV)
        return 1;
    return cycle_grown(g) > cycle_room(g, g->cyclebytes);
}

/* The cycles of assists (outside an rt.loop body) each tick may hold,
 * counted in g->assistspent, which the tick sets back to 0:
 *   - g->assistrate, a tick's credit / PACE_ASSIST_TICK_DIV (pace.h),
 *     however far behind the cycle is, while free memory is over the
 *     reserve.  With the paced steps held to a tick's credit (pace.c), a
 *     1 ms window at 25% and 4 kHz holds four paced bursts and five
 *     allowances at most: 1 - (4 x 1,562 + 5 x 312) / 25,000 leaves the
 *     mutator 68.8% of it.  The share used to grow past the cycle's room
 *     (to a whole credit at one and a half rooms, three past two) and
 *     with free memory under two reserves (three credits): each of those
 *     made the windows around it 45-55% assists in
 *     bench/gc_adversarial.lua's free mode at 4 MiB (rehash, weakk, list,
 *     findie, finlive, weakkdie at shift=0; deepupv, weakvdie at shift=5:
 *     lowest MMU 45.0% / 50.3%, now 67.7% / 64.9%).  A cycle that falls
 *     behind now lets the heap grow, which is what the room above the
 *     reserve is for; under the reserve, memory comes first;
 *   - the assist that finds a cycle due and starts it: one allowance
 *     more than was spent, spent or not (put off to the next tick's
 *     paced step, it let a fast allocator grow by a tick's allocation:
 *     200k short-lived __gc tables on the host, 0.8 MB against 87 KB);
 *   - under the reserve of free memory, or with no tick (g->assistrate
 *     0): no limit (memory first; assist() still bounds each catch-up
 *     above the reserve). */
static uint32_t tick_cap(global_State *g)
{
    if (g->assistrate == 0 || reserve_free(g) < g->reserve)
        return UINT32_MAX;
    if (g->gcphase == GC_PAUSE) {
        uint32_t cap = g->assistspent + g->assistrate;
        return cap < g->assistrate ? UINT32_MAX - 1 : cap;
    }
    return g->assistrate;
}

/* What an assist that has run `used` cycles may still run of `budget`
 * under the tick's share `cap` (UINT32_MAX: none); 0 when it is spent. */
static uint32_t share_left(const global_State *g, uint32_t cap, uint32_t used,
                           uint32_t budget)
{
    if (cap == UINT32_MAX)
        return budget;
    uint32_t spent = g->assistspent + used;
    if (spent >= cap)
        return 0;
    return cap - spent < budget ? cap - spent : budget;
}

/* An assist step: the units owed, within one step budget and what is
 * left of the rt.loop body's cap; what it could not do stays owed, for
 * the next assist or any step to pay. */
static __attribute__((noinline)) void assist(lua_State *L)
{
    /* Short of C stack (port/port.h), an allocation does no collector
     * work: the steps come at later allocations and safe points. */
    if (port_cstack_short(gc))
        return;
    global_State *g = G(L);
    uint32_t budget = g->stepbudget ? g->stepbudget : GC_BUDGET_MAX;
    uint32_t left = body_left(g);
    if (left == 0) {
        g->stats.assists_deferred++;
        return;
    }
    if (left < budget)
        budget = left;
    /* Outside a body, assists keep to a share of each tick (tick_cap). */
    uint32_t cap = g->gchold ? UINT32_MAX : tick_cap(g);
    budget = share_left(g, cap, 0, budget);
    if (budget == 0) {
        g->stats.assists_deferred++;
        return;
    }
    g->stats.assists++;
    /* Inside an allocation: no emergency nested in it, and its units count
     * as assist work. */
    g->gcinassist = 1;
    uint32_t used = step_now(L, budget, g->assistowed);
    if (!g->gchold && behind(g)) {
        /* Outside an rt.loop body, a cycle that has overrun its room is
         * caught up now, in steps of at most a budget each, as far as the
         * tick's share allows.  Owed units come from bytes, a step's
         * budget is time: on a real board (32 times fewer instructions a
         * budget than under shift=0) single steps let a cycle overrun, the
         * next one start bigger and run longer still (finshort at shift=5:
         * 354 KB to 4 MB in ten cycles, then a 750 ms emergency
         * collection).  Within a second room and above the reserve, at
         * most GC_CATCHUP_STEPS steps an assist: all that was owed at
         * once was a pause of 3 to 9 ms (deepupv, list, ephchain, rehash
         * at shift=5).  Past it, only the tick's share bounds the
         * catch-up (a single unit a step, as a slow board's, let the
         * cycle overrun two rooms); under the reserve, memory first. */
        uint32_t tol = paced_units(g);
        uint32_t more =
            reserve_free(g) >= g->reserve &&
                    cycle_grown(g) <= 2 * cycle_room(g, g->cyclebytes)
                ? GC_CATCHUP_STEPS - 1
                : UINT32_MAX;
        cap = tick_cap(g);
        while (g->assistowed > tol) {
            if (more-- == 0) {
                /* The rest at the next checks, which come soon. */
                g->assiststride = GC_DUE_STRIDE;
                break;
            }
            uint32_t steps = g->stats.steps;
            uint32_t b = share_left(g, cap, used, budget);
            if (b == 0)
                break;
            used += step_now(L, b, g->assistowed);
            if (g->stats.steps == steps)
                break;
        }
    }
    if (!g->gchold) {
        port_irqstate st = port_critical_enter();
        uint32_t spent = g->assistspent + used;
        g->assistspent = spent < used ? UINT32_MAX : spent;
        port_critical_exit(st);
    }
    g->gcinassist = 0;
    if (g->gchold) {
        g->bodyassists++;
        g->bodyassistcycles += used;
    } else if (g->tobefnz != NULL) {
        /* Finalizable garbage is freed only once its __gc has run: the
         * next safe point runs a batch, credit or not, so that finalizers
         * keep pace with allocation as the marking does. */
        g->fnzdue = 1;
        g->stepflag = 1;
    }
}

/* Every block passes here: the arena, or lua_setallocf's function when
 * one is installed (g->allocf, which wraps the arena's; vm/api.c). */
static inline void *arena_try(global_State *g, void *old, size_t oldn,
                              size_t n)
{
    if (g->allocf != NULL) {
        g->inallocf = 1; /* not C code's block (vm/api.c arena_allocf) */
        void *p = g->allocf(g->allocud, old, old ? oldn : 0, n);
        g->inallocf = 0;
        return p;
    }
    return old ? arena_realloc(g->arena, old, n) : arena_alloc(g->arena, n);
}

static inline void arena_give_back(global_State *g, void *p, size_t n)
{
    if (g->allocf != NULL) {
        g->inallocf = 1;
        (void)g->allocf(g->allocud, p, n, 0);
        g->inallocf = 0;
    } else {
        arena_free(g->arena, p);
    }
}

void *gc_rawalloc(global_State *g, size_t n)
{
    return arena_try(g, NULL, 0, n);
}

/* A __gc call runs, but not one of lua_close's. */
static inline int in_finalizer(const global_State *g)
{
    return g->fnzrunning != NULL && !g->gcclosing;
}

/* Allocate (old == NULL) or resize `old` to n bytes: the torture builds'
 * collections, then one arena attempt, then on failure the emergency
 * (gc.h: a whole collection, or inside an rt.loop body a bounded
 * catch-up) and a second attempt.  NULL leaves `old` as it was.  The
 * torture builds collect inside a __gc call too, where the emergency
 * may run. */
static inline int may_collect(const global_State *g)
{
    return (g->gcrunning || in_finalizer(g)) && !g->gcemergency &&
           !g->gcinassist;
}

/* May a failed allocation run the emergency?  Also with the collector
 * stopped by collectgarbage("stop") (g->gcstopped), which stays stopped
 * after it: lua5.4 runs its emergency collection whenever none is
 * running, stopped or not, and a program that stops the collector for a
 * while ran out of memory here where lua5.4 collects.  And inside a
 * __gc call (g->fnzrunning, where g->gcrunning is 0: no steps there),
 * as lua5.4's does, but for lua_close's: a finalizer that made garbage
 * ran out of memory once the arena was full (a warning the program
 * never saw, its __gc cut short). */
static inline int may_rescue(const global_State *g)
{
    return (g->gcrunning || g->gcstopped || in_finalizer(g)) &&
           !g->gcemergency && !g->gcinassist;
}

static inline void *obtain(lua_State *L, void *old, size_t oldn, size_t n)
{
    global_State *g = G(L);
    if (injected_failure(g))
        return NULL;
#ifdef RTLUA_GC_HARD
    if (may_collect(g))
        emergency(L, n);
#endif
    void *p = NULL;
#ifdef RTLUA_GC_EMERGENCY
    if (!may_collect(g)) /* the first attempt of every allocation fails */
#endif
        p = arena_try(g, old, oldn, n);
    if (p == NULL && may_rescue(g)) {
        emergency(L, n);
        p = arena_try(g, old, oldn, n);
        if (p == NULL)
            g->stats.emergencies_failed++;
    }
    return p;
}

void *gc_alloc(lua_State *L, size_t n)
{
    global_State *g = G(L);
    if (n == 0)
        return NULL;
    void *p = obtain(L, NULL, 0, n);
    if (p != NULL && g->gcphase != GC_PAUSE)
        g->cyclealloc += n + ARENA_HEADER_SIZE;
    /* No __gc runs here: steps never call finalizers (gc_finalize does,
     * at safe points), and the caller is mid-way. */
    if (p != NULL && g->gcrunning && !g->gcemergency && assist_due(g, n))
        assist(L);
    return p;
}

void *gc_realloc(lua_State *L, void *p, size_t oldn, size_t n)
{
    global_State *g = G(L);
    if (p == NULL)
        return gc_alloc(L, n);
    if (n == 0) {
        arena_give_back(g, p, oldn);
        return NULL;
    }
    if (n <= oldn) /* a shrink is done in place and cannot fail */
        return arena_try(g, p, oldn, n);
    return obtain(L, p, oldn, n);
}

void *gc_shrink(lua_State *L, void *p, size_t oldn, size_t n)
{
    return arena_try(G(L), p, oldn, n);
}

int gc_grow(lua_State *L, void *p, size_t n)
{
    global_State *g = G(L);
    if (p == NULL || g->allocf != NULL || injected_failure(g))
        return 0; /* (a lua_setallocf function cannot grow in place) */
    return arena_grow(g->arena, p, n);
}

void gc_free(global_State *g, void *p, size_t n)
{
    if (p != NULL)
        arena_give_back(g, p, n);
}

/* While marking, objects are born black ("allocate black"): a store into
 * one meets the forward barrier like a store into any black object, so
 * nothing made during the mark phase waits for a traversal, and atomic
 * never chases a structure built since the last re-mark.  Not prototypes
 * (the compiler fills them without barriers; they are few) nor threads
 * (never black: gc_newthread puts them on grayagain). */
static int born_black(const global_State *g, uint8_t tt)
{
    return g->gcphase == GC_PROPAGATE && tt != V_PROTO && tt != V_THREAD;
}

gcobj *gc_newobj(lua_State *L, uint8_t tt, size_t size)
{
    global_State *g = G(L);
    gcobj *o = gc_alloc(L, size);
    if (o == NULL)
        return NULL;
    o->tt = tt;
    o->marked = born_black(g, tt) ? MARK_BLACK : g->currentwhite;
    o->next = g->allgc;
    g->allgc = o;
    g->newest = o;
    return o;
}

/* ---- Marking ------------------------------------------------------------ */

static gcobj **gclist_of(gcobj *o)
{
    switch (o->tt) {
    case V_TABLE:
        return &gco2tab(o)->gclist;
    case V_LCL:
        return &gco2lcl(o)->gclist;
    case V_CCL:
        return &gco2ccl(o)->gclist;
    case V_THREAD:
        return &gco2th(o)->gclist;
    case V_PROTO:
        return &gco2proto(o)->gclist;
    case V_UDATA:
        return &gco2ud(o)->gclist;
    default:
        return NULL;
    }
}

gcobj **gc_gclist(gcobj *o)
{
    return gclist_of(o);
}

static void linkgray(gcobj *o, gcobj **list)
{
    *gclist_of(o) = *list;
    *list = o;
}

void gc_newthread(lua_State *L, lua_State *th)
{
    global_State *g = G(L);
    if (g->gcphase == GC_PROPAGATE && is_white(obj2gc(th))) {
        set2gray(obj2gc(th));
        gc_thread_ran(th);
        linkgray(obj2gc(th), &g->grayagain);
    }
}

static void markvalue(global_State *g, const tvalue *v);

/* Mark a white object: leaves have no children and turn black at once;
 * the rest turn gray and wait on the gray list. */
static void reallymark(global_State *g, gcobj *o)
{
again:
    switch (o->tt) {
    case V_SHRSTR:
    case V_LNGSTR:
        set2black(o);
        break;
    case V_UPVAL: {
        const tvalue *v = gco2uv(o)->v;
        set2black(o);
        /* An open upvalue's value is on a stack, scanned with its thread
         * (or by remarkupvals); a closed one holds it itself.  A value is
         * never an upvalue, so this goes round once at most (a loop, not
         * a recursion: tools/cstack.lua bounds the C stack). */
        if (is_collectable(v) && is_white(gc_of(v))) {
            o = gc_of(v);
            goto again;
        }
        break;
    }
    case V_UDATA: {
        udata *u = gco2ud(o);
        /* (A flagged ephemeron key goes through the gray list all the
         * same: its traversal looks up its values.) */
        if (u->metatable == NULL && u->nuvalue == 0 &&
            !(o->marked & MARK_EPHKEY)) {
            set2black(o);
            break;
        }
        set2gray(o);
        linkgray(o, &g->gray);
        break;
    }
    default:
        set2gray(o);
        linkgray(o, &g->gray);
        break;
    }
}

#define markobj(g, o)                                                         \
    do {                                                                      \
        if ((o) != NULL && is_white(obj2gc(o)))                               \
            reallymark(g, obj2gc(o));                                         \
    } while (0)

static void markvalue(global_State *g, const tvalue *v)
{
    if (is_collectable(v) && is_white(gc_of(v)))
        reallymark(g, gc_of(v));
}

static void markroots(global_State *g)
{
    lua_State *L = &g->mainthread;
    if (!is_gray(obj2gc(L))) { /* not yet on a gray list this cycle */
        set2gray(obj2gc(L));
        linkgray(obj2gc(L), &g->gray);
    }
    markvalue(g, &g->registry);
    for (int i = 0; i < LUA_NUMTYPES; i++)
        markobj(g, g->mt[i]);
    /* The RAM sides of written ROM tables; a slot may gain a new part at
     * any time, and atomic marks the roots again. */
    for (romslot *s = g->romslots; s != NULL; s = s->next) {
        markobj(g, s->ov);
        markobj(g, s->over);
        markobj(g, s->mt);
    }
    /* A constructor may still be allocating the parts of the object made
     * last (assist and emergency steps run inside gc_alloc), before it is
     * anchored anywhere: keep it this cycle. */
    markobj(g, g->newest);
    /* The object whose __gc runs, off tobefnz and not yet on the call's
     * stack while the hook grows it (an emergency may run inside a __gc
     * call). */
    markobj(g, g->fnzrunning);
}

void gc_barrier_(lua_State *L, gcobj *o, gcobj *v)
{
    global_State *g = G(L);
    /* A ROM object is black for ever and its RAM side is a root
     * (docs/rom-tables.md; vm/tab.h: romslot), marked at the start of the
     * cycle and again in atomic: nothing to do, and marking here could leave v
     * gray on no list (in the pause the gray list is about to be dropped). */
    if (is_rom(o))
        return;
    if (gc_keepinvariant(g))
        reallymark(g, v);
    else
        makewhite(g, o); /* sweeping: it will be white anyway */
}

void gc_resized(global_State *g, gcobj *o)
{
    if (clearing == g && obj2gc(g->cleartab) == o)
        g->clearpos = 0; /* its entries are all elsewhere now */
    if (g->trav == o) {
        g->travpos = 0;
        if (o->tt == V_TABLE) /* its weak slots are counted again */
            gco2tab(o)->weakwhite = 0;
    }
}

/* A stand-in on finobj (then tobefnz) for an object that stays on allgc:
 * an object given a __gc long after it was made is deep in allgc, which is
 * linked one way, and finding its link to move it was a walk of allgc in
 * setmetatable (342 us with 20,000 objects).  The stand-in takes the
 * object's place in the finalizers' order; it is fixed (the sweeps pass
 * it over) and is freed once the object's __gc has been called. */
typedef struct finref {
    GCHEADER;
    gcobj *target;
} finref;

/* Objects from allgc's head setmetatable looks at for the one it gives a
 * __gc (made just before, usually) before it makes a stand-in. */
#define GC_FINREG_SCAN 8

/* The object a finobj or tobefnz entry finalizes. */
static gcobj *fin_target(gcobj *o)
{
    return o->tt == V_FINREF ? ((finref *)o)->target : o;
}

/* What an object on finobj or tobefnz holds of the arena, as far as its
 * own blocks go (a table's parts too). */
static size_t fnz_cost(gcobj *o)
{
    size_t stand_in = o->tt == V_FINREF ? sizeof(finref) : 0;
    o = fin_target(o);
    return stand_in +
           (o->tt == V_TABLE ? tab_memsize(gco2tab(o)) : gc_objsize(o));
}

rt_cold void gc_checkfinalizer(lua_State *L, gcobj *o, table *mt)
{
    global_State *g = G(L);
    if (mt == NULL || (o->marked & MARK_FINALIZED) || is_rom(o) ||
        g->gcclosing || is_nil(tab_getshortstr(mt, g->tm_gc)))
        return;
    gcobj **pp = &g->allgc;
    for (int i = 0; i < GC_FINREG_SCAN && *pp != NULL && *pp != o; i++)
        pp = &(*pp)->next;
    if (*pp == o) {
        /* Unlink from allgc.  A sweep in progress may be pointing at it. */
        if (g->sweepgc == &o->next)
            g->sweepgc = pp;
        *pp = o->next;
        o->next = g->finobj;
        g->finobj = o;
    } else {
        /* (The allocation may collect: the caller's stack holds o.) */
        finref *r = gc_alloc(L, sizeof(finref));
        if (r == NULL)
            do_memerror(L);
        r->tt = V_FINREF;
        r->marked = (uint8_t)(MARK_FIXED | g->currentwhite);
        r->target = o;
        r->next = g->finobj;
        g->finobj = obj2gc(r);
    }
    o->marked |= MARK_FINALIZED;
    g->fnzyoung += fnz_cost(g->finobj);
    if (g->fnzowed < UINT32_MAX)
        g->fnzowed++;
    if (g->gcphase >= GC_SWEEP_STRING && g->gcphase <= GC_SWEEP_OBJ)
        makewhite(g, o); /* finobj may already be swept */
    else if (g->gcphase == GC_PROPAGATE && is_white(o))
        /* The program holds it: alive this cycle.  (Between the cycle's
         * separation and its atomic phase a white object here may be one
         * only a weak key reached; marked, it is finalized next cycle
         * rather than freed without its __gc.) */
        reallymark(g, o);
}

/* ---- Traversal ---------------------------------------------------------- */

/* Read a table's __mode into TAB_WEAK_* bits (tm_fast: a metatable
 * without one says so in its flags after the first look). */
static uint8_t weakmode(global_State *g, table *t)
{
    table *mt = t->metatable;
    if (mt == NULL)
        return 0;
    const tvalue *m = tm_fast(g, mt, TM_MODE);
    if (m == NULL || !is_str(m))
        return 0;
    uint8_t w = 0;
    const char *s = str_data(gco2str(gc_of(m)));
    if (strchr(s, 'k'))
        w |= TAB_WEAK_KEYS;
    if (strchr(s, 'v'))
        w |= TAB_WEAK_VALUES;
    return w;
}

/* A node whose value is empty gives up its key: a collectable key becomes
 * a dead key, kept only for next()'s sake, never marked. */
static void clearkey(node *n)
{
    if (node_keytt(n) & BIT_COLLECTABLE)
        node_setkeytt(n, V_DEADKEY);
}

static void markkey(global_State *g, node *n)
{
    if ((node_keytt(n) & BIT_COLLECTABLE) && node_keytt(n) != V_DEADKEY &&
        is_white(n->key_val.gc))
        reallymark(g, n->key_val.gc);
}

static void scannode(global_State *g, node *n)
{
    if (is_nil(&n->val)) {
        clearkey(n);
    } else {
        markkey(g, n);
        markvalue(g, &n->val);
    }
}

/* Slots [from, to) of a table whose entries are moving, in tab_view's
 * order: the ranges only ever lengthen before an unmoved slot, and moved
 * entries get the barrier (vm/tab.h), so resuming by position is safe. */
static void scanmoving(global_State *g, table *t, uint32_t from, uint32_t to)
{
    tabview v;
    tab_view(t, &v);
    uint32_t base = 0;
    for (int r = 0; r < TAB_VIEW_ARRAYS; r++) {
        for (; from < to && from - base < v.alen[r]; from++)
            markvalue(g, &v.arr[r][from - base]);
        base += v.alen[r];
    }
    for (int r = 0; r < TAB_VIEW_NODES; r++) {
        for (; from < to && from - base < v.nlen[r]; from++)
            scannode(g, &v.nodes[r][from - base]);
        base += v.nlen[r];
    }
}

/* Scan slots [from, to) of a strong table (array part first). */
static inline void scantable(global_State *g, table *t, uint32_t from,
                             uint32_t to)
{
    if (t->moving) {
        scanmoving(g, t, from, to);
        return;
    }
    uint32_t asize = t->asize, i = from;
    for (; i < to && i < asize; i++)
        markvalue(g, &t->array[i]);
    for (; i < to; i++)
        scannode(g, &t->node[i - asize]);
}

static uint32_t table_slots(table *t)
{
    if (t->moving) {
        tabview v;
        tab_view(t, &v);
        return tab_view_slots(&v);
    }
    return t->asize + tab_sizenode(t);
}

/* A weak slot of t held a white object when it was traversed: atomic
 * must look at t (saturates: then it always does). */
static void note_white(table *t)
{
    if (t->weakwhite < UINT16_MAX)
        t->weakwhite++;
}

/* A weak slot's value or key `o`, of tag tt: a string is a value, never
 * weak, and is marked; a white object is counted. */
static void weakslot(global_State *g, table *t, uint8_t tt, gcobj *o)
{
    if (!(tt & BIT_COLLECTABLE) || tt == V_DEADKEY || !is_white(o))
        return;
    if (ttype(tt) == T_STRING)
        reallymark(g, o);
    else
        note_white(t);
}

/* One node of a weak table: its strong parts are marked, strings marked
 * (they are values), white objects in weak slots counted (t->weakwhite).
 * An ephemeron entry whose key and value are white flags its key
 * (MARK_EPHKEY): if the key is marked later, its traversal looks it up in
 * every ephemeron table of the cycle and marks the value (ephkey_unit), so
 * no pass over the table is ever repeated. */
static void traverseweaknode(global_State *g, table *t, node *n, uint8_t w)
{
    g->weakslots++;
    if (is_nil(&n->val)) {
        clearkey(n);
        return;
    }
    if (w & TAB_WEAK_KEYS)
        weakslot(g, t, node_keytt(n), n->key_val.gc);
    else
        markkey(g, n);
    if (w & TAB_WEAK_VALUES) {
        weakslot(g, t, n->val.tt, n->val.v.gc);
        return;
    }
    if (!(w & TAB_WEAK_KEYS)) {
        markvalue(g, &n->val);
        return;
    }
    /* Ephemeron: the value lives only if the key does (a string key is
     * marked above: it lives, and so does its value). */
    if (!is_collectable(&n->val) || !is_white(gc_of(&n->val)))
        return;
    if ((node_keytt(n) & BIT_COLLECTABLE) && is_white(n->key_val.gc))
        n->key_val.gc->marked |= MARK_EPHKEY;
    else
        reallymark(g, gc_of(&n->val));
}

/* Slots [from, to) of a weak table, in tab_view's order (as scanmoving):
 * array values are marked, or with weak values handled as weak slots;
 * nodes as above. */
static void scanweak(global_State *g, table *t, uint32_t from, uint32_t to)
{
    uint8_t w = t->weak;
    tabview v;
    tab_view(t, &v);
    uint32_t base = 0;
    for (int r = 0; r < TAB_VIEW_ARRAYS; r++) {
        for (; from < to && from - base < v.alen[r]; from++) {
            tvalue *s = &v.arr[r][from - base];
            g->weakslots++;
            if (w & TAB_WEAK_VALUES)
                weakslot(g, t, s->tt, s->v.gc);
            else
                markvalue(g, s);
        }
        base += v.alen[r];
    }
    for (int r = 0; r < TAB_VIEW_NODES; r++) {
        for (; from < to && from - base < v.nlen[r]; from++)
            traverseweaknode(g, t, &v.nodes[r][from - base], w);
        base += v.nlen[r];
    }
}

/* One unit of the lookups of a flagged ephemeron key that got marked: in
 * at most GC_TRAVERSE_CHUNK of the cycle's ephemeron tables (those whose
 * traversal started before; a table started later sees the key marked).
 * The lookup finds the entry wherever it is, old parts included.  Every
 * table on the list has finished its traversal (a lookup runs only
 * between traversals), so an entry whose value is still white was
 * counted when traversed with its key white (a store since, or a move,
 * met the barrier, which marks the value): its key is marked now, and
 * it no longer counts. */
static void ephkey_unit(global_State *g)
{
    gcobj *k = g->ephkey;
    tvalue key;
    set_gc(&key, k, k->tt);
    for (int i = 0; i < GC_TRAVERSE_CHUNK && g->ephnext != NULL; i++) {
        table *t = gco2tab(g->ephnext);
        g->ephnext = t->gclist;
        g->ephlookups++;
        const tvalue *v = tab_get(t, &key);
        if (is_collectable(v) && is_white(gc_of(v))) {
            if (t->weakwhite == 0) /* not expected: clear it anyway */
                t->weakwhite = UINT16_MAX;
            else if (t->weakwhite < UINT16_MAX)
                t->weakwhite--;
            reallymark(g, gc_of(v));
        }
    }
    if (g->ephnext == NULL)
        g->ephkey = NULL;
}

static gcobj **weaklist(global_State *g, uint8_t w)
{
    if (w == (TAB_WEAK_KEYS | TAB_WEAK_VALUES))
        return &g->allweak;
    if (w & TAB_WEAK_KEYS)
        return &g->ephemeron;
    return &g->weak;
}

/* Slots of a prototype: source, constants, nested protos, upvalue names,
 * local names, in one index space. */
static uint32_t proto_slots(proto *p)
{
    return 1u + (uint32_t)p->sizek + (uint32_t)p->sizep +
           (uint32_t)p->sizeupvalues + (uint32_t)p->sizelocvars;
}

static void scanproto(global_State *g, proto *p, uint32_t from, uint32_t to)
{
    for (uint32_t i = from; i < to; i++) {
        uint32_t j = i;
        if (j == 0) {
            markobj(g, p->source);
            continue;
        }
        j -= 1;
        if (j < (uint32_t)p->sizek) {
            markvalue(g, &p->k[j]);
            continue;
        }
        j -= (uint32_t)p->sizek;
        if (j < (uint32_t)p->sizep) {
            markobj(g, p->p[j]);
            continue;
        }
        j -= (uint32_t)p->sizep;
        if (j < (uint32_t)p->sizeupvalues) {
            markobj(g, p->upvalues[j].name);
            continue;
        }
        j -= (uint32_t)p->sizeupvalues;
        markobj(g, p->locvars[j].name);
    }
}

static uint32_t object_slots(gcobj *o)
{
    switch (o->tt) {
    case V_TABLE:
        return 1u + table_slots(gco2tab(o)); /* slot 0: the metatable */
    case V_LCL:
        return 1u + gco2lcl(o)->nupvalues;
    case V_CCL:
        return gco2ccl(o)->nupvalues;
    case V_UDATA:
        return 1u + gco2ud(o)->nuvalue;
    case V_PROTO:
        return proto_slots(gco2proto(o));
    case V_THREAD: {
        lua_State *th = gco2th(o);
        return th->stack ? (uint32_t)(th->top - th->stack) : 0;
    }
    default:
        return 0;
    }
}

static void scan(global_State *g, gcobj *o, uint32_t from, uint32_t to)
{
    switch (o->tt) {
    case V_TABLE: {
        table *t = gco2tab(o);
        if (from == 0) {
            markobj(g, t->metatable);
            from = 1;
        }
        if (to > from) {
            if (t->weak)
                scanweak(g, t, from - 1, to - 1);
            else
                scantable(g, t, from - 1, to - 1);
        }
        break;
    }
    case V_LCL: {
        lclosure *cl = gco2lcl(o);
        for (uint32_t i = from; i < to; i++) {
            if (i == 0)
                markobj(g, cl->p);
            else
                markobj(g, cl->upvals[i - 1]);
        }
        break;
    }
    case V_CCL: {
        cclosure *cl = gco2ccl(o);
        for (uint32_t i = from; i < to; i++)
            markvalue(g, &cl->upvalue[i]);
        break;
    }
    case V_UDATA: {
        udata *u = gco2ud(o);
        for (uint32_t i = from; i < to; i++) {
            if (i == 0)
                markobj(g, u->metatable);
            else
                markvalue(g, &u->uv[i - 1]);
        }
        break;
    }
    case V_PROTO:
        scanproto(g, gco2proto(o), from, to);
        break;
    case V_THREAD: {
        lua_State *th = gco2th(o);
        for (uint32_t i = from; i < to; i++)
            markvalue(g, &th->stack[i]);
        if (g->remarking && to > from)
            g->remarkslots += to - from;
        break;
    }
    default:
        break;
    }
}

/* Open upvalues live while they are open: the thread holds them (the list
 * is no longer than the stack).  Those of slots at or above `from` (the
 * list is highest first): below a thread's lowmark they were marked when
 * its last scan ended, or born black since. */
static void mark_openupvals(global_State *g, lua_State *th, const tvalue *from)
{
    for (upval *uv = th->openupval; uv && uv->v >= from; uv = uv->u.open.next)
        markobj(g, uv);
}

/* A scan of th's stack begins: what changes from now on is at or above
 * the running frame's function, or lowers the mark (gc_stack_lower). */
static void thread_scanstart(lua_State *th)
{
    th->dirty &= (uint8_t)~GC_RAN_SCAN;
    th->lowmark = th->ci != NULL ? th->ci->func : th->stack;
}

/* ---- The threads atomic looks at (g->ranlist, gc.h) ------------------- */

void gc_ranlist_add(lua_State *L)
{
    global_State *g = G(L);
    uint8_t listed = L->dirty & GC_RAN_LISTED;
    L->dirty = GC_RAN_ALL;
    if (listed)
        return;
    g->ranlen++;
    L->rannext = g->ranlist;
    if (g->ranlist != NULL)
        g->ranlist->ranprev = &L->rannext;
    L->ranprev = &g->ranlist;
    g->ranlist = L;
}

/* Nil-fill th's slots [from, end), end within the stack. */
static void nil_slots(lua_State *th, uint32_t from, uint32_t end)
{
    if (end > th->stacksize)
        end = th->stacksize;
    if (from >= end)
        return;
    /* Four slots an iteration: a suspended coroutine's dead part is a
     * few dozen slots, cleared at every yield (gc_suspended), and the
     * loop's own test and step cost more than the store. */
    tvalue *p = &th->stack[from], *e = &th->stack[end];
    for (; e - p >= 4; p += 4) {
        set_nil(p);
        set_nil(p + 1);
        set_nil(p + 2);
        set_nil(p + 3);
    }
    for (; p < e; p++)
        set_nil(p);
}

void gc_clear_popped(lua_State *L)
{
    uint32_t top = (uint32_t)(L->top - L->stack);
    nil_slots(L, top, L->deadfrom);
    L->deadfrom = top;
}

static void ranlist_remove(lua_State *th)
{
    if (th->ranprev == NULL)
        return;
    G(th)->ranlen--;
    *th->ranprev = th->rannext;
    if (th->rannext != NULL)
        th->rannext->ranprev = th->ranprev;
    th->rannext = NULL;
    th->ranprev = NULL;
    th->dirty &= (uint8_t)~GC_RAN_LISTED;
}

/* th leaves the list when nothing is left for atomic to do with it: no
 * change since its scan began, its dead part clear. */
static void ranlist_clean(lua_State *th)
{
    if (!(th->dirty & (GC_RAN_SCAN | GC_RAN_CLEAR)) && th->stack != NULL &&
        th->deadfrom <= (uint32_t)(th->top - th->stack))
        ranlist_remove(th);
}

/* Mark what changed on th's stack since its scan began ([lowmark, top)
 * and the open upvalues there), and begin its scan again.  Returns the
 * slots marked.  (th->stack is not NULL.) */
static uint32_t mark_changed(global_State *g, lua_State *th)
{
    uint32_t n = th->top > th->lowmark ? (uint32_t)(th->top - th->lowmark) : 0;
    for (tvalue *p = th->lowmark; p < th->top; p++)
        markvalue(g, p);
    mark_openupvals(g, th, th->lowmark);
    thread_scanstart(th);
    return n;
}

/* Nil-fill th's dead part, from top up to slot `end`, and lower its limit
 * when it was cleared up to it (do_trimlimit; not inside an allocation).
 * Returns the slots cleared.  (th->stack is not NULL.) */
rt_cold static uint32_t clear_dead_part(global_State *g, lua_State *th,
                                        uint32_t end)
{
    uint32_t top = (uint32_t)(th->top - th->stack);
    if (end > th->stacksize)
        end = th->stacksize;
    nil_slots(th, top, end);
    if (end == th->stacklimit && !g->gcemergency && !g->gcinassist)
        do_trimlimit(th);
    th->dirty &= (uint8_t)~GC_RAN_CLEAR;
    th->deadfrom = top;
    return end > top ? end - top : 0;
}

void gc_suspended(lua_State *L, lua_State *co)
{
    global_State *g = G(L);
    if (co->stack == NULL || gc_suspended_lazy(g, co))
        return;
    if (g->gcphase != GC_PROPAGATE) {
        /* Not marking: what it changed is before the next cycle's marks
         * (remarkupvals need not look at it). */
        thread_scanstart(co);
    } else if (co->dirty & GC_RAN_SCAN) {
        mark_changed(g, co);
    }
    /* Cleared and off the list in every phase: a coroutine resumed while
     * the sweep or the pause ran, and dropped, stayed on g->ranlist until
     * atomic, which looked at each (the soak: 85 threads, a 2,635-cycle
     * atomic unit at shift=5).  But not at a yield that leaves a small
     * dead part while few threads are on the list: clearing it, and
     * putting the coroutine back on the list at its next resume, was
     * about 200 instructions a yield on the board.  Its traversal, or
     * atomic, clears it (at most GC_LAZY_THREADS such parts, each at most
     * GC_LAZY_SLOTS: the yield's own frame, the values it passed). */
    if (co->dirty & GC_RAN_CLEAR) {
        if (co->status == LUA_YIELD && g->ranlen <= GC_LAZY_THREADS &&
            co->stack + co->stacklimit - co->top <= GC_LAZY_SLOTS)
            return;
        clear_dead_part(g, co, co->stacklimit);
    }
    ranlist_clean(co); /* atomic need not look at it */
}

/* Finish an object whose scan is complete.  A thread gives back the
 * stack and records it no longer uses (do_shrinkthread, bounded), except
 * inside an allocation (an assist or emergency step), whose caller may
 * have checked for room that no frame records yet. */
static void finish(global_State *g, gcobj *o)
{
    if (o->tt == V_THREAD) {
        lua_State *th = gco2th(o);
        if (!g->gcemergency && !g->gcinassist)
            do_shrinkthread(th);
        ranlist_clean(th);
        if (g->remarking) { /* a re-mark: it is on grayagain already */
            g->remarking = 0;
            return;
        }
        linkgray(o, &g->grayagain); /* stays gray: scanned again if it runs */
    }
}

/* Start traversing the head of `list` (gray, or weakwait once gray is
 * empty).  A weak table first reached waits on weakwait, still gray, until
 * gray runs out: traversed after what else is reachable, it finds its
 * weak slots marked as far as can be, and atomic need not clear it.  Then
 * it is traversed in chunks like a strong one (black, so stores into it
 * meet the forward barrier) and goes on the list of its kind: atomic
 * clears it if it counted white objects, and a flagged ephemeron key is
 * looked up in it.  A flagged key itself (MARK_EPHKEY) first has its
 * lookups done (ephkey_unit). */
static void start_traversal(global_State *g, gcobj **list)
{
    gcobj *o = *list;
    *list = *gclist_of(o);
    g->remarkfound = 1;
    uint8_t w = 0;
    if (o->tt == V_TABLE && gco2tab(o)->metatable != NULL) {
        w = weakmode(g, gco2tab(o));
        if (w && list == &g->gray) {
            linkgray(o, &g->weakwait);
            return;
        }
    }
    if (o->marked & MARK_EPHKEY) {
        o->marked &= (uint8_t)~MARK_EPHKEY;
        if (g->ephemeron != NULL) {
            g->ephkey = o;
            g->ephnext = g->ephemeron;
        }
    }
    if (o->tt == V_TABLE) {
        table *t = gco2tab(o);
        t->weak = w;
        if (g->gcemergency && !is_rom(t))
            tab_drop_prep(g, t);
        if (w) {
            t->weakwhite = 0;
            t->marked |= MARK_CLEARING;
            linkgray(o, weaklist(g, w));
        }
    }
    if (o->tt == V_PROTO)
        g->stats.protos_traversed++;
    if (o->tt != V_THREAD)
        set2black(o);
    else
        thread_scanstart(gco2th(o));
    g->trav = o;
    g->travpos = 0;
    g->travuvlow = 0;
}

/* g->travpos of a thread whose stack is scanned: its open upvalues are
 * being marked (mark_upval_chunk), then its dead part cleared
 * (clear_dead_chunk). */
#define TRAV_UPVALS UINT32_MAX
#define TRAV_DEAD (UINT32_MAX - 1u)

/* Mark a chunk of the open upvalues of th, the thread being traversed,
 * from g->travuv down to slot g->travuvlow; 0 when none is left. */
static int mark_upval_chunk(global_State *g, lua_State *th)
{
    const tvalue *low = th->stack + g->travuvlow;
    upval *uv = g->travuv;
    for (int i = 0; i < GC_TRAVERSE_CHUNK && uv != NULL; i++) {
        if (uv->v < low) {
            uv = NULL;
            break;
        }
        markobj(g, uv);
        uv = uv->u.open.next;
    }
    g->travuv = uv;
    return uv != NULL;
}

/* The dead part of th, the thread being traversed, is cleared next, as
 * atomic would (clear_dead_stacks), when th ran since its last clear:
 * the flag goes now, and comes back if th runs before the clear ends
 * (then the clear stops, left to atomic).  Returns 0 when there is
 * nothing to clear. */
static int clear_dead_begin(global_State *g, lua_State *th)
{
    if (!(th->dirty & GC_RAN_CLEAR) || th == &g->mainthread)
        return 0;
    th->dirty &= (uint8_t)~GC_RAN_CLEAR;
    g->travpos = TRAV_DEAD;
    g->travdead = (uint32_t)(th->top - th->stack);
    return 1;
}

/* Nil-fill a chunk of th's dead part; 0 when it is all clear (its limit
 * then comes down to what its frames use, as atomic's clear does). */
static int clear_dead_chunk(global_State *g, lua_State *th)
{
    if (th->dirty & GC_RAN_CLEAR)
        return 0; /* it ran: atomic clears it */
    uint32_t end =
        th->stacklimit < th->stacksize ? th->stacklimit : th->stacksize;
    /* It may have run and stopped again higher up since the clear began,
     * its own clear having taken the flag (gc_suspended): the clear goes
     * on above its top, never over live slots. */
    uint32_t top = (uint32_t)(th->top - th->stack);
    if (g->travdead < top)
        g->travdead = top;
    uint32_t to = g->travdead + 2 * GC_CLEAR_CHUNK;
    if (to > end)
        to = end;
    nil_slots(th, g->travdead, to);
    g->travdead = to;
    if (to < end)
        return 1;
    th->deadfrom = (uint32_t)(th->top - th->stack);
    if (!g->gcemergency && !g->gcinassist)
        do_trimlimit(th);
    ranlist_clean(th);
    return 0;
}

/* One traversal unit: at most GC_TRAVERSE_CHUNK slots.  Returns 0 when
 * there was nothing gray. */
static int propagate_unit(global_State *g)
{
    /* A unit is GC_TRAVERSE_CHUNK pieces: a slot scanned, or an object
     * taken from a gray list, so that small objects (most of a heap) do
     * not each pay a unit's fixed cost.  A thread's stack chunk, its
     * upvalues and dead part, and an ephemeron key's lookups are units of
     * their own, as before. */
    uint32_t left = GC_TRAVERSE_CHUNK;
    int did = 0;
    for (;;) {
        if (g->ephkey != NULL) {
            if (!did)
                ephkey_unit(g);
            return 1;
        }
        if (g->trav == NULL) {
            if (left == 0)
                return 1;
            gcobj *o = g->gray;
            if (o != NULL && o->tt == V_TABLE && !(o->marked & MARK_EPHKEY)) {
                /* Most of a heap: a small strong table (a list node, a
                 * record, an object of a class: its metatable has no
                 * __mode), whole in what is left of the unit, is
                 * traversed here at once, as start_traversal and the scan
                 * below would, at the same count of pieces (1 + slots,
                 * the metatable one of them), without their bookkeeping
                 * (a full collection of a list: 292 instructions a node
                 * on the host, 172 in lua5.4). */
                table *t = gco2tab(o);
                uint32_t asize = t->asize, nsize = tab_sizenode(t);
                if (!t->moving && asize + nsize + 2 <= left &&
                    weakmode(g, t) == 0) {
                    g->gray = t->gclist;
                    g->remarkfound = 1;
                    t->weak = 0;
                    set2black(o);
                    markobj(g, t->metatable);
                    scantable(g, t, 0, asize + nsize);
                    left -= asize + nsize + 2;
                    did = 1;
                    continue;
                }
            }
            if (o != NULL)
                start_traversal(g, &g->gray);
            else if (g->weakwait != NULL)
                start_traversal(g, &g->weakwait);
            else
                return did;
            did = 1;
            left--;
            continue;
        }
        gcobj *o = g->trav;
        int thread = o->tt == V_THREAD;
        if (thread && did)
            return 1;
        if (g->travpos == TRAV_UPVALS || g->travpos == TRAV_DEAD) {
            lua_State *th = gco2th(o);
            int more = g->travpos == TRAV_UPVALS
                           ? mark_upval_chunk(g, th) || clear_dead_begin(g, th)
                           : clear_dead_chunk(g, th);
            if (!more) {
                g->trav = NULL;
                finish(g, o);
            }
            return 1;
        }
        if (left == 0)
            return 1;
        uint32_t n, to;
        if (o->tt == V_TABLE && !gco2tab(o)->weak && !gco2tab(o)->moving) {
            /* Most of a heap: a strong table whose entries stay put,
             * scanned here (scan's order: metatable, array, nodes). */
            table *t = gco2tab(o);
            uint32_t asize = t->asize, i = g->travpos;
            n = 1 + asize + tab_sizenode(t);
            to = i + left < n ? i + left : n > i ? n : i;
            if (i == 0) {
                markobj(g, t->metatable);
                i = 1;
            }
            scantable(g, t, i - 1, to - 1);
        } else {
            /* (A table whose entries were moving may have fewer slots
             * now than its traversal has passed: it is done.) */
            n = object_slots(o);
            to = g->travpos + (thread ? GC_TRAVERSE_CHUNK : left);
            if (to > n)
                to = n > g->travpos ? n : g->travpos;
            scan(g, o, g->travpos, to);
        }
        left -= thread ? 0 : to - g->travpos;
        did = 1;
        g->travpos = to;
        if (to >= n) {
            /* A thread's open upvalues (as many as its stack slots) are
             * marked after its stack, then its dead part cleared, a chunk
             * at a time too. */
            if (thread) {
                g->travpos = TRAV_UPVALS;
                g->travuv = gco2th(o)->openupval;
                if (g->travuv != NULL || clear_dead_begin(g, gco2th(o)))
                    return 1;
            }
            g->trav = NULL;
            finish(g, o);
        }
        if (thread)
            return 1;
    }
}

static void propagateall(global_State *g)
{
    while (propagate_unit(g))
        ;
}

/* Threads not marked keep their open upvalues' values alive only if the
 * upvalue itself is marked.  Marking an open upvalue marked the value it
 * had then (reallymark), and a write through it meets the barrier: only
 * what the thread's own code changed since can be unmarked, and that is
 * at or above its lowmark, in a thread that ran since its scan began
 * (or since it last stopped: gc_suspended).  Counted as atomic's scan. */
static void remarkupvals(global_State *g, lua_State *th)
{
    if (!(th->dirty & GC_RAN_SCAN) || th->stack == NULL)
        return;
    for (upval *uv = th->openupval; uv && uv->v >= th->lowmark;
         uv = uv->u.open.next) {
        if (!is_white(obj2gc(uv)))
            markvalue(g, uv->v);
        g->atomicscan++;
    }
}

/* ---- Atomic ------------------------------------------------------------- */

/* Does th need a scan again: it ran since its last scan began (the main
 * thread always counts as having run: the host's C code may change it)? */
static int thread_ran(global_State *g, lua_State *th)
{
    return (th->dirty & GC_RAN_SCAN) || th == &g->mainthread;
}

/* Atomic's re-scan of a thread that ran: only [lowmark, top), and the open
 * upvalues of that part; the rest is as its last scan saw it. */
static void rescan_thread(global_State *g, lua_State *th)
{
    if (th->stack != NULL)
        g->atomicscan += mark_changed(g, th);
}

/* The threads that ran (g->ranlist, and the main thread always): a
 * marked one is scanned again from its lowmark, an unmarked one has the
 * open upvalues it changed looked at (remarkupvals; marked later, it is
 * traversed whole).  No other thread changed since its scan.  (Weak
 * tables are black once traversed, as strong ones: never traversed
 * again.) */
static void revisit_ran(global_State *g)
{
    gc_ranlist_add(&g->mainthread); /* always counts as having run */
    for (lua_State *th = g->ranlist; th != NULL; th = th->rannext) {
        g->atomicthreads++;
        if (is_white(obj2gc(th)))
            remarkupvals(g, th);
        else if (thread_ran(g, th))
            rescan_thread(g, th);
    }
}

/* Clear the dead part of a marked thread's stack, above its top: it was
 * not marked (C05: a dead register must not keep garbage alive), so the
 * sweep may free what it held, and a stale slot must not be read after
 * that.  Only what may have been written since the last clear: up to
 * stacklimit for a thread that ran (no frame reached above it,
 * vm/do.c), and for one that did not, the slots its top left since
 * (the C API's pops; in a thread not on the list they are cleared before
 * code runs on it: gc_thread_enter). */
static void clear_dead_part_of(global_State *g, lua_State *th)
{
    if (th->stack == NULL || is_white(obj2gc(th)))
        return; /* dead: the sweep frees it */
    int ran = (th->dirty & GC_RAN_CLEAR) || th == &g->mainthread;
    if (!ran && th->deadfrom <= (uint32_t)(th->top - th->stack))
        return; /* clean: no clear, and its limit stays */
    uint32_t end = ran ? th->stacklimit : th->deadfrom;
    g->atomicclear += clear_dead_part(g, th, end);
}

/* Every thread on g->ranlist (and the main thread), which atomic leaves
 * empty: the marked ones are clean now, the others dead.  A thread
 * first reached inside atomic cleared its dead part in its traversal
 * (clear_dead_chunk), unless it is on the list. */
static void clear_dead_stacks(global_State *g)
{
    while (g->ranlist != NULL) { /* the main thread among them */
        lua_State *th = g->ranlist;
        clear_dead_part_of(g, th);
        ranlist_remove(th);
    }
}

/* ---- Clearing the weak tables ----------------------------------------------
 * The weak tables of the cycle (on g->weak, g->allweak, g->ephemeron,
 * flagged MARK_CLEARING when their traversal started) are cleared a
 * chunk at a time while the program runs: their weak values found dead
 * in FNZ_CLEARV (after the first atomic point of a cycle with
 * finalizable objects, before those are marked), and every dead entry in
 * GC_CLEARWEAK (after atomic's flip, before the sweep frees anything).
 * Meanwhile a dead entry of a flagged table is cleared when the program
 * reads it (vm/tab.c, the slow case: gc_clearslot, gc_clearnode) or when
 * the table moves it (growth), so the program never sees one, and an
 * entry moved behind the clear's position cannot be missed.  A table
 * rehashed at once restarts its clear (gc_resized). */

/* Is an object in a weak slot dead (of the clear's white)?  Strings are
 * values, not objects, for weakness: never cleared, and one found white
 * is kept (marked before the flip, made current-white after it). */
static int dead_in_slot(global_State *g, uint8_t tt, gcobj *o)
{
    if (!(tt & BIT_COLLECTABLE) || tt == V_DEADKEY ||
        !(o->marked & g->clearwhite))
        return 0;
    if (ttype(tt) == T_STRING) {
        if (g->clearkeys)
            makewhite(g, o);
        else
            reallymark(g, o);
        return 0;
    }
    return 1;
}

/* Clear node n of weak table t if its entry is dead; 1 when it was. */
rt_cold static int clear_node(global_State *g, table *t, node *n)
{
    int dead = 0;
    if (!is_nil(&n->val)) {
        dead = ((t->weak & TAB_WEAK_VALUES) &&
                dead_in_slot(g, n->val.tt, n->val.v.gc)) ||
               (g->clearkeys && (t->weak & TAB_WEAK_KEYS) &&
                dead_in_slot(g, node_keytt(n), n->key_val.gc));
        if (dead)
            set_empty(&n->val);
    }
    if (is_nil(&n->val))
        clearkey(n);
    return dead;
}

/* The same for a value whose key is not an object (an array slot). */
static int clear_value(global_State *g, table *t, tvalue *s)
{
    if (!(t->weak & TAB_WEAK_VALUES) || !dead_in_slot(g, s->tt, s->v.gc))
        return 0;
    set_empty(s);
    return 1;
}

/* A table to clear: one that counted a white object in a weak slot
 * (t->weakwhite) while a clear runs.  A table that counted none has none
 * to clear: each of its weak slots was marked when traversed, or written
 * since (the barrier marked it), and strings were marked. */
static global_State *clearing_of(const table *t)
{
    return t->weakwhite != 0 ? clearing : NULL;
}

int gc_clearslot(table *t, tvalue *s)
{
    global_State *g = clearing_of(t);
    return g != NULL && clear_value(g, t, s);
}

int gc_clearnode(table *t, node *n)
{
    global_State *g = clearing_of(t);
    return g != NULL && clear_node(g, t, n);
}

static gcobj **clear_list(global_State *g, int i)
{
    return i == 0 ? &g->weak : i == 1 ? &g->allweak : &g->ephemeron;
}

/* Start a clear: of weak values only (FNZ_CLEARV: the white of the dead
 * is the current one), or of everything dead, after the flip. */
static void clear_start(global_State *g, int keys)
{
    g->clearkeys = (uint8_t)keys;
    g->clearwhite = keys ? gc_otherwhite(g) : g->currentwhite;
    g->clearlist = 0;
    g->clearnext = g->weak;
    g->cleartab = NULL;
    g->clearpos = 0;
    clearing = g;
}

/* Slots [from, to) of t, in tab_view's order. */
static void clear_range(global_State *g, table *t, uint32_t from, uint32_t to)
{
    tabview v;
    tab_view(t, &v);
    uint32_t base = 0;
    g->weakslots += to - from;
    for (int r = 0; r < TAB_VIEW_ARRAYS; r++) {
        for (; from < to && from - base < v.alen[r]; from++)
            clear_value(g, t, &v.arr[r][from - base]);
        base += v.alen[r];
    }
    for (int r = 0; r < TAB_VIEW_NODES; r++) {
        for (; from < to && from - base < v.nlen[r]; from++)
            clear_node(g, t, &v.nodes[r][from - base]);
        base += v.nlen[r];
    }
}

/* One unit of a clear: GC_CLEAR_CHUNK slots of the table being cleared,
 * or passing over as many tables with nothing to clear.  Returns 0 when
 * the clear is over (nothing was done).  A table's flag goes when the
 * cycle's clear is done with it (GC_CLEARWEAK). */
rt_cold static int clear_unit(global_State *g)
{
    int lists = g->clearkeys ? 3 : 2;
    for (int i = 0; i < GC_CLEAR_CHUNK && g->cleartab == NULL; i++) {
        while (g->clearnext == NULL) {
            if (++g->clearlist >= lists) {
                clearing = NULL;
                return 0;
            }
            g->clearnext = *clear_list(g, g->clearlist);
        }
        table *t = gco2tab(g->clearnext);
        g->clearnext = t->gclist;
        if (t->weakwhite != 0) {
            g->cleartab = t;
            g->clearpos = 0;
        } else if (g->clearkeys) {
            t->marked &= (uint8_t)~MARK_CLEARING;
        }
    }
    table *t = g->cleartab;
    if (t == NULL)
        return 1;
    uint32_t n = table_slots(t);
    uint32_t to =
        g->clearpos + GC_CLEAR_CHUNK < n ? g->clearpos + GC_CLEAR_CHUNK : n;
    clear_range(g, t, g->clearpos, to);
    g->clearpos = to;
    if (to >= n) {
        if (g->clearkeys)
            t->marked &= (uint8_t)~MARK_CLEARING;
        g->cleartab = NULL;
    }
    return 1;
}

static void append_tobefnz(global_State *g, gcobj *o)
{
    size_t cost = fnz_cost(o);
    g->cyclefnzbytes += cost;
    g->fnzpend += cost;
    if (g->tobefnz == NULL)
        g->fnztail = &g->tobefnz;
    o->next = NULL;
    *g->fnztail = o;
    g->fnztail = &o->next;
    if (g->fnzstage != FNZ_NONE && g->fnzbatch == NULL)
        g->fnzbatch = o;
}

/* Look at the finobj object *pp: an unreached one moves to the end of
 * tobefnz (finobj is newest-first, most recently marked for finalization
 * first, and the manual calls finalizers in the reverse order of marking:
 * tobefnz keeps finobj's order).  Returns the next link to look at. */
static gcobj **separate_one(global_State *g, gcobj **pp, int all)
{
    gcobj *o = *pp;
    if (all || is_white(fin_target(o))) {
        *pp = o->next;
        append_tobefnz(g, o);
        return pp;
    }
    return &o->next;
}

static void separate_tobefnz(global_State *g, int all)
{
    gcobj **pp = &g->finobj;
    while (*pp != NULL)
        pp = separate_one(g, pp, all);
}

/* What both atomic points of a cycle do first: mark what the program
 * can reach, from the roots, the stacks that ran and what the barriers
 * queued; the ephemerons converge in the propagation. */
rt_cold static void atomic_mark(global_State *g)
{
    g->atomicscan = g->atomicclear = g->atomicthreads = 0;
    markroots(g);
    propagateall(g);
    revisit_ran(g);
    /* Ephemerons converge in the propagation: a key marked after its
     * entry was traversed had its value looked up (ephkey_unit). */
    propagateall(g);
}

/* The first atomic point of a cycle with finalizable objects (finobj or
 * tobefnz not empty).  Every object the program can reach is marked, so
 * a white object on finobj is unreachable: the stages that follow,
 * while the program runs, move those to tobefnz (FNZ_SEPARATE,
 * GC_SEPARATE_MAX objects looked at and GC_SEPARATE_MOVE moved a unit)
 * and mark all of tobefnz and what it reaches (FNZ_RESURRECT,
 * GC_TRAVERSE_CHUNK objects a unit, then the
 * usual propagation and re-marks), so that neither walk is in an atomic
 * step.  Weak values are cleared here, before the finalizers' objects are
 * marked (5.4's rule: a resurrected object leaves weak values first);
 * weak keys only in the cycle's atomic, so that a finalizer still finds
 * its object as a weak key.  The weak tables stay on their lists, black:
 * what is stored into them meanwhile meets the barrier, and a flagged
 * ephemeron key marked by the stages is looked up in them.
 *
 * While the stages run, the program may take a white object out of a
 * weak key (next) and keep it: a barrier or the stacks' rescan in atomic
 * marks it, as in the propagate phase.  The invariant and allocation
 * rules of the propagate phase hold throughout (gcphase stays
 * GC_PROPAGATE). */
static void atomic_separate_start(global_State *g)
{
    g->gcphase = GC_ATOMIC;
    atomic_mark(g);
    g->gcphase = GC_PROPAGATE;
    clear_start(g, 0);
    g->fnzstage = FNZ_CLEARV;
    g->fnzdecide = 0; /* the dead ones count as they reach tobefnz */
    g->fnzsep = &g->finobj;
    g->fnzbatch = NULL;
    g->remarks = 0;
    g->remarkpass = g->remarkclean = 0;
    g->remarknext = NULL;
}

/* One unit of the finalizer stages; 0 when there is none to do. */
static int fnz_unit(global_State *g)
{
    if (g->fnzstage == FNZ_CLEARV) {
        if (!clear_unit(g))
            g->fnzstage = FNZ_SEPARATE;
        return 1;
    }
    if (g->fnzstage == FNZ_SEPARATE) {
        int moved = 0;
        for (int i = 0; i < GC_SEPARATE_MAX && moved < GC_SEPARATE_MOVE &&
                        *g->fnzsep != NULL;
             i++) {
            gcobj **pp = g->fnzsep;
            g->fnzsep = separate_one(g, pp, 0);
            moved += g->fnzsep == pp;
        }
        if (*g->fnzsep == NULL) {
            g->fnzstage = FNZ_RESURRECT;
            g->fnzmark = g->tobefnz;
        }
        return 1;
    }
    if (g->fnzmark == NULL)
        return 0;
    for (int i = 0; i < GC_TRAVERSE_CHUNK && g->fnzmark != NULL; i++) {
        gcobj *o = g->fnzmark;
        g->fnzmark = o->next;
        markobj(g, fin_target(o));
    }
    return 1;
}

/* The cycle's atomic phase.  With finalizable objects, the stages have
 * separated and marked them: what is left is the marking of what the
 * program reached since, and the clearing. */
static void atomic(global_State *g)
{
    g->gcphase = GC_ATOMIC;
    atomic_mark(g);
    /* Every object the program can reach, and every object a finalizer
     * will see, is marked (the weak tables first reached from resurrected
     * objects are on the lists too): what is white is dead, and the weak
     * tables are cleared of it after the flip (GC_CLEARWEAK). */
    clear_dead_stacks(g);
    g->grayagain = NULL; /* threads: gray, but the list is rebuilt */
    g->fnzstage = FNZ_NONE;
    g->fnzbatch = NULL;
    g->currentwhite = gc_otherwhite(g);
}

/* ---- Sweeping --------------------------------------------------------------
 */

size_t gc_objsize(gcobj *o)
{
    switch (o->tt) {
    case V_SHRSTR:
    case V_LNGSTR:
        return str_objsize(gco2str(o));
    case V_TABLE:
        return tab_objsize(gco2tab(o));
    case V_LCL:
        return fn_lclsize(gco2lcl(o)->nupvalues);
    case V_CCL:
        return fn_cclsize(gco2ccl(o)->nupvalues);
    case V_UDATA:
        return fn_udatasize(gco2ud(o)->len, gco2ud(o)->nuvalue);
    case V_UPVAL:
        return sizeof(upval);
    case V_PROTO:
        return sizeof(proto);
    case V_THREAD:
        return sizeof(lua_State);
    case V_FINREF:
        return sizeof(finref);
    default:
        return 0;
    }
}

void gc_freeobj(lua_State *L, gcobj *o)
{
    global_State *g = G(L);
    if (g->newest == o)
        g->newest = NULL;
    switch (o->tt) {
    case V_SHRSTR:
        str_remove(g, gco2str(o));
        break;
    case V_TABLE: /* with its parts */
        tab_free(g, gco2tab(o));
        return;
    case V_UPVAL:
        fn_freeupval(g, gco2uv(o));
        return;
    case V_PROTO: /* with its arrays */
        fn_freeproto(g, gco2proto(o));
        return;
    case V_THREAD: {
        lua_State *th = gco2th(o);
        ranlist_remove(th); /* atomic emptied it: only lua_close's frees */
        state_freethread(L, th);
        return;
    }
    default:
        break;
    }
    /* One block of the size the object says. */
    gc_free(g, o, gc_objsize(o));
}

/* Sweep the list g->sweepgc points into: at most GC_SWEEP_MAX frees, of
 * at most GC_SWEEP_SCAN objects (a live one is only repainted); a dead
 * table with parts (blocks of their own to free, each an arena free that
 * coalesces) counts as two frees: two of them made a 550-cycle unit at
 * shift=5, twice the others.  Returns 1 when the list is finished. */
/* A dead thread is taken apart before it is freed, a bounded piece a
 * unit (work: this unit may): its open upvalues (one a stack slot at
 * worst) GC_TRAVERSE_CHUNK at a time, then its call-record blocks (one
 * for each DO_CIBLOCK_MAX frames) GC_SWEEP_MAX at a time.  Returns 1
 * while pieces are left for later units. */
static int dismantle(lua_State *L, lua_State *th, int work)
{
    if (th->openupval != NULL) {
        if (!work)
            return 1;
        return fn_closesome(th, GC_TRAVERSE_CHUNK) || do_freesomeci(L, th, 0);
    }
    return do_freesomeci(L, th, work ? GC_SWEEP_MAX : 0);
}

static int sweep_unit(lua_State *L)
{
    global_State *g = G(L);
    gcobj **pp = g->sweepgc;
    int frees = 0;
    for (int i = 0; i < GC_SWEEP_SCAN && frees < GC_SWEEP_MAX && *pp != NULL;
         i++) {
        gcobj *o = *pp;
        if (gc_isdead(g, o) && !is_fixed(o)) {
            if (o->tt == V_THREAD && dismantle(L, gco2th(o), i == 0))
                break; /* the sweep stays on it */
            frees++;
            if (o->tt == V_TABLE && tab_hasparts(gco2tab(o)))
                frees++;
            size_t before = arena_in_use(g->arena);
            *pp = o->next;
            gc_freeobj(L, o);
            g->stats.bytes_freed += before - arena_in_use(g->arena);
        } else {
            makewhite(g, o);
            pp = &o->next;
        }
    }
    g->sweepgc = pp;
    return *pp == NULL;
}

/* ---- Finalizers ------------------------------------------------------------
 */

/* Put the first object of tobefnz back on allgc (a stand-in's object is
 * there already: the stand-in is freed) and run its __gc. */
rt_cold static void call_one_finalizer(lua_State *L)
{
    global_State *g = G(L);
    gcobj *o = g->tobefnz;
    size_t cost = fnz_cost(o);
    g->fnzdrained += cost;
    g->fnzpend = g->fnzpend > cost && o->next != NULL ? g->fnzpend - cost : 0;
    if (g->fnzmark == o) /* RESURRECT had not marked it yet */
        g->fnzmark = o->next;
    /* A sweep of tobefnz may stand on its link: it goes on along
     * tobefnz, not along allgc where o goes. */
    if (g->sweepgc == &o->next)
        g->sweepgc = &g->tobefnz;
    g->tobefnz = o->next;
    if (o->tt == V_FINREF) {
        gcobj *r = o;
        o = fin_target(r);
        gc_free(g, r, sizeof(finref));
    } else {
        o->next = g->allgc;
        g->allgc = o;
        if (g->gcphase >= GC_SWEEP_STRING && g->gcphase <= GC_SWEEP_OBJ)
            makewhite(g, o);
    }
    /* An ordinary object again: setmetatable (in its __gc or later) may
     * mark it for finalization once more, and its __gc then runs again
     * when it next dies (5.4's manual, 2.5.3). */
    o->marked &= (uint8_t)~MARK_FINALIZED;
    if (g->finalizer != NULL) {
        uint8_t running = g->gcrunning;
        g->gcrunning = 0; /* no steps from inside a finalizer */
        g->fnzrunning = o;
        int err = g->finalizer(L, o);
        g->fnzrunning = NULL;
        g->gcrunning = running;
        if (err && g->warnf)
            g->warnf(g->warnud, "error in __gc", 0);
    }
}

/* ---- The state machine -------------------------------------------------- */

static void start_cycle(global_State *g)
{
    g->gray = g->grayagain = NULL;
    g->weak = g->ephemeron = g->allweak = NULL;
    g->trav = NULL;
    g->ephkey = g->ephnext = g->weakwait = NULL;
    g->remarks = 0;
    g->remarking = g->remarkpass = g->remarkclean = g->remarkstale = 0;
    g->remarknext = NULL;
    g->remarkrun = g->stepno - 1u;
    g->fnzstage = FNZ_NONE;
    g->fnzmark = g->fnzbatch = NULL;
    g->fnzdecide += g->fnzyoung; /* (fnz_held) */
    g->fnzyoung = 0;
    g->atomicput = 0;
    g->atomicwait = 0;
    /* The main thread is not swept: make it white again by hand. */
    makewhite(g, obj2gc(&g->mainthread));
    markroots(g);
    g->gcphase = GC_PROPAGATE;
}

/* A cycle due waits while the last one's __gc calls are pending, with
 * free memory above the reserve: an object whose __gc has not run yet
 * would be kept by the cycle (marked with tobefnz), and freed only by
 * the one after, so that finalizable garbage would live two cycles, and
 * the estimate and peak grow with the pause cycle on cycle.  (Lua 5.4's
 * cycle likewise ends only once its finalizers have run.)  But only
 * while the calls keep pace with allocation: the wait frees nothing by
 * itself, it only lets the next cycle free the objects whose __gc ran.
 * Once the program has allocated more than twice what those held (and
 * GC_GROWTH_MIN), the garbage it made is the greater part, and the
 * cycle starts.  Calls that run only in an rt.loop's slack (150 a
 * millisecond at shift=0) beside a body making garbage at 100 KB a
 * millisecond: the wait lasted until free memory fell to the reserve,
 * 16 ms, and the cycle that followed ran out of memory. */
static int gc_cycle_waits(global_State *g)
{
    if (g->tobefnz == NULL || arena_free_bytes(g->arena) < g->reserve)
        return 0;
    size_t inuse = arena_in_use(g->arena);
    size_t grown = inuse > g->lastend ? inuse - g->lastend : 0;
    return grown <= GC_GROWTH_MIN || grown / 2 <= g->fnzdrained;
}

int gc_cycle_due(global_State *g)
{
    size_t inuse = arena_in_use(g->arena);
    size_t threshold = g->gcestimate + pause_room(g);
    if (inuse >= threshold || arena_free_bytes(g->arena) < g->reserve)
        return 1;
    size_t big = arena_largest_alloc(g->arena);
    return big < g->reserve &&
           big < g->lastlargest - g->lastlargest / GC_LARGEST_DIV;
}

/* One unit of a re-mark pass: the registry, then each thread on
 * grayagain that ran since its scan began (the main thread always), one
 * list entry or one chunked traversal of [lowmark, top) at a time.  A
 * pass that ends having found no gray object, having re-marked at most
 * GC_REMARK_STACK stack slots, in the step it began in, is clean: atomic
 * may follow in that step, and re-scans of each thread only what changed
 * since its re-mark began (next to nothing: no mutator ran since). */
/* Re-mark th from its lowmark, as a chunked traversal (g->trav). */
static void remark_thread(global_State *g, lua_State *th)
{
    uint32_t from = th->stack ? (uint32_t)(th->lowmark - th->stack) : 0;
    thread_scanstart(th);
    g->remarking = 1;
    g->trav = obj2gc(th);
    g->travpos = from;
    g->travuvlow = from; /* those below were marked by its traversal */
}

static void remark_unit(global_State *g)
{
    if (!g->remarkpass) {
        g->remarkpass = 1;
        g->remarkclean = 0;
        g->remarkfound = 0;
        g->remarkslots = 0;
        g->remarkstep = g->stepno;
        g->remarks++;
        markvalue(g, &g->registry);
        g->remarknext = g->grayagain;
        return;
    }
    gcobj *o = g->remarknext;
    if (o == NULL) {
        g->remarkpass = 0;
        if (!g->remarkfound && g->gray == NULL) {
            if (g->remarkslots <= GC_REMARK_STACK &&
                g->remarkstep == g->stepno)
                g->remarkclean = 1;
            else if (g->remarkstale < GC_REMARK_STALE &&
                     (++g->remarkstale == GC_REMARK_STALE ||
                      arena_free_bytes(g->arena) < g->reserve)) {
                g->remarkstale = GC_REMARK_STALE;
                g->remarkclean = 1; /* the stacks will not settle */
            }
        }
        return;
    }
    g->remarknext = *gclist_of(o);
    if (o->tt == V_THREAD && thread_ran(g, gco2th(o)))
        remark_thread(g, gco2th(o));
}

/* A clean re-mark pass ended in this step (a later step, after the
 * mutator ran, starts another). */
static int remark_done(const global_State *g)
{
    return g->remarkclean &&
           (g->remarkstep == g->stepno || g->remarkstale >= GC_REMARK_STALE ||
            g->atomicput > 0);
}

/* The live bytes as the cycle that just ended knows them: what is in
 * use less what was allocated since it began.  Those objects survive
 * the cycle whether they live or not (born black, or current-white in
 * the sweep), and counted as live they would put off the next cycle by
 * a pause's worth of them, each cycle more than the last: a program
 * making short-lived objects (finalizable ones above all, which live a
 * cycle more) would see its estimate and peak grow, cycle on cycle.  At
 * least half of what is in use is counted (a structure built in one
 * cycle is live: the next cycle, which starts early, counts it whole). */
static size_t live_estimate(const global_State *g)
{
    size_t inuse = arena_in_use(g->arena);
    size_t floating = g->cyclealloc < inuse / 2 ? g->cyclealloc : inuse / 2;
    size_t est = inuse - floating;
    size_t fnz = g->cyclefnzbytes;
    return est > fnz + inuse / 4 ? est - fnz : inuse / 4;
}

/* Is the re-marking over, so that atomic is the next unit once gray is
 * empty? */
static int remark_settled(const global_State *g)
{
    return remark_done(g) || g->remarks >= GC_REMARK_MAX;
}

/* Before atomic, the thread running the step is re-marked (as a chunked
 * traversal from its lowmark, once a step) if it changed more of its
 * stack since its last re-mark began than a clean pass allows: atomic,
 * next in the same step, then finds only what changes after.  Other
 * threads are clean at rest (gc_suspended marks what a coroutine changed
 * as it stops), so this leaves atomic little to re-scan even when the
 * re-mark passes could not settle (GC_REMARK_STALE): a deep recursion
 * under way, coroutines unwound and rebuilt at every resume.  Not when
 * free memory is under the reserve: the cycle must end. */
static int remark_running_due(const global_State *g, const lua_State *L)
{
    return L->stack != NULL && g->remarkrun != g->stepno &&
           L->top - L->lowmark > GC_REMARK_STACK &&
           arena_free_bytes(g->arena) >= g->reserve;
}

static void remark_running(global_State *g, lua_State *L)
{
    remark_thread(g, L);
    g->remarkrun = g->stepno;
}

/* The part of atomic's work that is the stack of the thread running the
 * step: what it re-scans ([lowmark, top)) and clears (up to stacklimit),
 * in slots; the rest (the roots, other threads) varies little from one
 * atomic to the next. */
static uint32_t running_slots(const lua_State *L)
{
    if (L->stack == NULL)
        return 0;
    return (uint32_t)(L->top - L->lowmark) +
           (L->stacklimit - (uint32_t)(L->top - L->stack));
}

/* What atomic will take, predicted: the last one's cycles, plus, at its
 * rate per slot, the running thread's slots beyond what they were then. */
static uint32_t atomic_cost(const global_State *g, uint32_t lslots)
{
    if (lslots <= g->atomiclslots)
        return g->atomiccycles;
    uint64_t extra = muldiv(lslots - g->atomiclslots, g->atomiccycles,
                            g->atomicslots + GC_ATOMIC_BASE_SLOTS);
    return g->atomiccycles +
           (uint32_t)(extra > UINT32_MAX / 2 ? UINT32_MAX / 2 : extra);
}

/* Is the next unit an atomic one (unit: PROPAGATE with nothing left to
 * traverse, look up, separate, resurrect or re-mark)? */
static inline int atomic_next(const global_State *g, const lua_State *L)
{
    /* (gray first: it holds work at nearly every call) */
    return g->gray == NULL && g->gcphase == GC_PROPAGATE &&
           g->fnzstage != FNZ_CLEARV && g->fnzstage != FNZ_SEPARATE &&
           g->fnzmark == NULL && g->ephkey == NULL && g->trav == NULL &&
           g->weakwait == NULL && remark_settled(g) &&
           !remark_running_due(g, L);
}

/* One unit of work.  Returns 0 when the collector is paused with nothing
 * due, or when the unit ended the cycle.  GC_ATOMIC is never the phase
 * between units: atomic runs inside the propagate unit that ends gray's
 * work (atomic_next), with gcphase GC_ATOMIC only while it runs. */
static int unit(lua_State *L, int force)
{
    global_State *g = G(L);
    switch (g->gcphase) {
    case GC_PAUSE:
        if (!force && (!gc_cycle_due(g) || gc_cycle_waits(g)))
            return 0;
        start_cycle(g);
        return 1;
    case GC_PROPAGATE:
        str_migrate(g);
        if (fnz_unit(g))
            return 1;
        if (propagate_unit(g))
            return 1;
        /* Gray ran out: re-mark the roots (the main thread's stack as a
         * chunked traversal) until a re-mark finds nothing new, so atomic
         * is left with what the barriers queued since (new objects are
         * black: only objects older than the cycle can be found, and
         * GC_REMARK_MAX is a fuse, not the rule). */
        if (!remark_settled(g)) {
            remark_unit(g);
            return 1;
        }
        if (remark_running_due(g, L)) {
            remark_running(g, L);
            return 1;
        }
        if (g->fnzstage == FNZ_NONE &&
            (g->finobj != NULL || g->tobefnz != NULL)) {
            atomic_separate_start(g);
            return 1;
        }
        atomic(g);
        clear_start(g, 1);
        g->gcphase = GC_CLEARWEAK;
        return 1;
    case GC_CLEARWEAK:
        if (clear_unit(g))
            return 1;
        g->weak = g->ephemeron = g->allweak = NULL;
        str_sweep_start(g);
        g->gcphase = GC_SWEEP_STRING;
        return 1;
    case GC_SWEEP_STRING: {
        size_t freed = 0;
        if (str_sweep_unit(L, &freed)) {
            str_shrink_start(g);
            g->sweepgc = &g->allgc;
            g->sweeplist = 0;
            g->gcphase = GC_SWEEP_OBJ;
        }
        g->stats.bytes_freed += freed;
        return 1;
    }
    case GC_SWEEP_OBJ:
        str_migrate(g); /* a shrink of the string table goes on */
        if (sweep_unit(L)) {
            g->sweeplist++;
            if (g->sweeplist == 1) {
                g->sweepgc = &g->finobj;
            } else if (g->sweeplist == 2) {
                g->sweepgc = &g->tobefnz;
            } else {
                /* The cycle ends; what it queued on tobefnz waits for
                 * gc_finalize at the next safe points. */
                g->sweepgc = NULL;
                g->gcphase = GC_PAUSE;
                g->gcestimate = live_estimate(g);
                g->stats.cycles_completed++;
                return 0;
            }
        }
        return 1;
    default:
        return 0;
    }
}

#ifdef RTLUA_GC_TRACE
uint32_t gc_tracering[GC_TRACE_N][3];
volatile uint32_t gc_tracen;
#endif

static void record_step(global_State *g, uint32_t used)
{
    gc_stats *st = &g->stats;
    st->steps++;
    st->step_cycles_total += used;
    g->gcspent += used;
    if (used > st->worst_step_cycles)
        st->worst_step_cycles = used;
    /* hist[b]: b = floor(log2(used)), 0 for 0 */
    unsigned b = used ? 31u - (unsigned)__builtin_clz(used) : 0;
    st->hist[b < GC_HIST_BUCKETS ? b : GC_HIST_BUCKETS - 1]++;
    /* The reservoir: every step while it has room, then step n replaces
     * a random sample with probability GC_STEP_SAMPLES / n. */
    if (st->steps <= GC_STEP_SAMPLES) {
        st->sample[st->steps - 1] = used;
    } else {
        st->samplerng = st->samplerng * 1664525u + 1013904223u;
        uint32_t j =
            (uint32_t)(((uint64_t)(st->samplerng >> 8) * st->steps) >> 24);
        if (j < GC_STEP_SAMPLES)
            st->sample[j] = used;
    }
}

/* One unit, counted: the cycle's units, and one unit of what allocation
 * owes; the end of a cycle keeps its count for the next one's estimate
 * and clears what was owed. */
static int work(lua_State *L, int force)
{
    global_State *g = G(L);
    uint8_t phase = g->gcphase;
    int r = unit(L, force);
    if (phase == GC_PAUSE && g->gcphase != GC_PAUSE) {
        g->assiststride = 0;
        g->cyclebytes = arena_in_use(g->arena);
        g->cyclealloc = 0;
        g->cyclefnzbytes = 0;
    }
    if (r) {
        g->cycleunits++;
        if (g->assistowed)
            g->assistowed--;
    }
    if (phase != GC_PAUSE && g->gcphase == GC_PAUSE) {
        g->lastunits = g->cycleunits;
        g->lastbytes = g->cyclebytes;
        g->lastlargest = arena_largest_alloc(g->arena);
        g->lastend = arena_in_use(g->arena);
        g->fnzdrained = 0;
        g->cycleunits = 0;
        g->assistowed = 0;
        g->assistdebt = 0;
        g->assiststride = 0;
    }
    return r;
}

#ifdef RTLUA_GC_CHECKSTEPS
/* The checking build: the whole heap is checked after every step that
 * did work (gc_check), and a broken invariant stops the program at the
 * step that left it broken, rather than as a use after free later. */
static void check_step(lua_State *L)
{
    const char *why = NULL;
    int err = gc_check(L, &why);
    if (err != 0) {
        global_State *g = G(L);
        port_printf("gc_check after step %u (phase %d, stage %d, %s): %d %s\n",
                    (unsigned)g->stepno, g->gcphase, g->fnzstage,
                    g->gcinassist    ? "assist"
                    : g->gcemergency ? "emergency"
                                     : "paced",
                    err, why ? why : "?");
        port_exit(70);
    }
}
#endif

/* A step of at most `budget` cycles and `maxunits` units (0: no limit
 * but the budget), its clock started at `start`. */
static uint32_t step_(lua_State *L, uint32_t budget, uint32_t maxunits,
                      uint32_t start)
{
    global_State *g = G(L);
    /* The step stops before a unit that would likely end past the budget
     * (one as long as the longest of this step), so it overruns only by
     * what a unit costs beyond its predecessors. */
    /* `now`: the cycles since the step began.  The units are timed on
     * the lap clock (port.h) when the budget is well inside its span;
     * the step's own length, for the figures, on port_cycles. */
    uint32_t now = 0, longest = 0, units = 0;
    int lap = port_lap_period == 0 || budget <= port_lap_period / GC_LAP_DIV;
    uint32_t lap0 = lap ? port_lap() : start;
    g->stepno++;
    for (;;) {
        if (units && now + longest >= budget)
            break;
        if (maxunits && units >= maxunits)
            break;
        /* Atomic, much longer than the units before it, is predicted
         * (atomic_cost): a step that has not room left for it ends, at
         * most GC_ATOMIC_DEFER times for each atomic point, so that the
         * next starts it early on (after the short re-mark it needs
         * first). */
        int atomic = atomic_next(g, L);
        uint32_t lslots = atomic ? running_slots(L) : 0;
        if (atomic && units && g->atomicput < GC_ATOMIC_DEFER &&
            now + atomic_cost(g, lslots) >= budget) {
            /* (Not counted in a short step, an assist's share of a tick:
             * a run of them used up the deferrals, and a paced step then
             * ran atomic in the last cycles of its budget: 125%.) */
            if (budget >= g->stepbudget)
                g->atomicput++;
            g->atomicwait = 1;
            break;
        }
        uint8_t phase = atomic ? (uint8_t)GC_ATOMIC : g->gcphase;
        if (!work(L, 0))
            break;
        units++;
        /* Short units run in runs between two reads of the clock (gc.h:
         * GC_RUN_MAX): as many more as a GC_RUN_DIV-th of what is left
         * holds at the longest unit's cost, in the same phase, never
         * atomic, once GC_RUN_AFTER units were timed alone and the
         * longest of them is under budget / GC_RUN_SHORT (and not 0: a
         * clock coarser than a unit would divide by it). */
        uint32_t run = 1;
        int ended = 0;
        if (!atomic && units > GC_RUN_AFTER && longest != 0 &&
            longest <= budget / GC_RUN_SHORT) {
            uint32_t more = (budget - now) / (GC_RUN_DIV * longest);
            if (more > GC_RUN_MAX - 1)
                more = GC_RUN_MAX - 1;
            for (; more > 0 && (!maxunits || units < maxunits) &&
                   g->gcphase == phase && !atomic_next(g, L);
                 more--) {
                if (!work(L, 0)) {
                    ended = 1;
                    break;
                }
                units++;
                run++;
            }
            g->stats.units_in_runs += run - 1;
        }
        uint32_t t =
            lap ? port_lap_cycles(lap0, port_lap()) : port_cycles() - start;
        if (t < now) {
            /* The lap wrapped: a unit past its span, a tick period.  The
             * rest of the step is timed on port_cycles. */
            lap = 0;
            t = port_cycles() - start;
        }
        uint32_t took = run == 1 ? t - now : (t - now) / run;
        if (took > g->stats.worst_unit_cycles) {
            g->stats.worst_unit_cycles = took;
            g->stats.worst_unit_phase = phase;
        }
        if (atomic) {
            g->atomiccycles = t - now;
            g->atomicslots = g->atomicscan + g->atomicclear;
            g->atomiclslots = lslots;
            g->atomicput = 0;
            g->atomicwait = 0;
        }
        if (took > longest)
            longest = took;
        now = t;
        if (ended)
            break;
    }
    /* The thread that called goes on running: a scan of its stack in this
     * step must be done again in atomic (C functions change it without
     * the interpreter's marks). */
    gc_thread_ran(L);
#ifdef RTLUA_GC_CHECKSTEPS
    if (units)
        check_step(L);
#endif
    uint32_t used = port_cycles() - start;
    if (units) {
        /* cycles per unit, x16, averaged over the last steps */
        /* (32-bit: a 64-bit division is a library call of a hundred
         * cycles on the boards, in every step) */
        uint32_t per = used < (UINT32_MAX >> 4) ? (used << 4) / units
                                                : UINT32_MAX / units;
        g->unitcost = g->unitcost ? (g->unitcost * 7 + per) / 8 : per;
        if (g->gcinassist)
            g->stats.assist_units += units;
        record_step(g, used);
        gc_trace(start, used,
                 g->gcinassist ? GC_TRACE_ASSIST : GC_TRACE_PACED);
        if (g->stephook)
            g->stephook(start, used);
    }
    return used;
}

uint32_t gc_step(lua_State *L, uint32_t budget)
{
    return gc_step_from(L, budget, port_cycles());
}

uint32_t gc_step_from(lua_State *L, uint32_t budget, uint32_t start)
{
    global_State *g = G(L);
    if (g->gcemergency || g->fnzrunning)
        return 0;
    return step_(L, budget, 0, start);
}

/* Run units until the collector is back in PAUSE. */
static void finish_cycle(lua_State *L)
{
    global_State *g = G(L);
    g->stepno++; /* the mutator may have run since the last step */
    while (g->gcphase != GC_PAUSE)
        work(L, 1);
}

void gc_fullgc(lua_State *L)
{
    global_State *g = G(L);
    if (g->gcemergency || g->fnzrunning)
        return;
    /* A cycle in its mark phase may hold objects that died since they
     * were marked: finish it, then run a whole new one. */
    finish_cycle(L);
    work(L, 1); /* start */
    finish_cycle(L);
    /* A full collection is not bounded anyway: end a string-table
     * shrink it started, so the memory comes back now. */
    for (int pass = 0; pass < 2 && g->gcphase != GC_SWEEP_STRING; pass++) {
        while (g->strt.old != NULL)
            str_migrate(g);
        str_shrink_start(g); /* a growth was still migrating at the sweep */
    }
    /* As 5.4's full collection does: every pending finalizer, now. */
    while (gc_finalize(L, GC_FINALIZE_MAX) > 0)
        ;
}

/* The cycles since the lap clock read lap0 with the tick count at tick0
 * (port.h), or UINT32_MAX once they may be a tick period or more, which
 * the lap cannot tell apart from fewer: a second tick since, or one tick
 * and a reading not behind lap0.  (A tick between the two readings here
 * counts as a wrap: at worst a reading short of a period is taken for
 * one.) */
static uint32_t lap_since(uint32_t lap0, uint32_t tick0)
{
    uint32_t l = port_lap();
    if (port_lap_period != 0) {
        uint32_t ticks = port_ticks() - tick0;
        if (ticks > 1 || (ticks == 1 && (int32_t)(l - lap0) >= 0))
            return UINT32_MAX;
    }
    return port_lap_cycles(lap0, l);
}

int gc_finalize(lua_State *L, int max)
{
    return finalize(L, max, UINT32_MAX, NULL);
}

int gc_finalize_for(lua_State *L, int max, uint32_t cycles)
{
    return finalize(L, max, cycles, NULL);
}

int gc_finalize_fit(lua_State *L, int max, uint32_t cycles, int *putoff)
{
    *putoff = 0;
    return finalize(L, max, cycles, putoff);
}

void gc_finalize_starved(global_State *g)
{
    g->fnzcallest -= g->fnzcallest / GC_FNZ_EST_DECAY;
}

/* The calls of gc_finalize, gc_finalize_for and (putoff not NULL)
 * gc_finalize_fit. */
rt_cold static int finalize(lua_State *L, int max, uint32_t cycles,
                            int *putoff)
{
    global_State *g = G(L);
    if (g->tobefnz == NULL || g->gcemergency || g->fnzrunning ||
        g->gcclosing || max <= 0)
        return 0;
    uint32_t start = port_cycles();
    /* The calls between the two readings of port_cycles are timed on the
     * lap clock (lap_since), as a step's units are: read after every
     * call, port_cycles was a tenth of the collector's instructions in
     * 200k short-lived __gc tables at shift=5.  UINT32_MAX (gc_finalize)
     * is no bound at all, not one the lap may find passed: gc_finalize
     * with a call that outlasted a tick period stopped after it.  The
     * calls that must fit are timed on port_cycles, each (the lap
     * cannot tell a call longer than a tick period): they run in a
     * control loop's slack, where the time is idle. */
    uint32_t lap0 = port_lap(), tick0 = port_ticks();
    int n = 0, timed = cycles != UINT32_MAX, fit = putoff != NULL;
    /* Under the reserve of free memory the calls run, fitting or not:
     * what they let the collector free comes first. */
    if (fit && reserve_free(g) < g->reserve)
        fit = 0;
    /* What this cycle separated waits for the cycle's atomic phase, when
     * all it reaches is marked and the weak tables are cleared. */
    while (n < max && g->tobefnz != NULL &&
           !(g->fnzstage != FNZ_NONE && g->tobefnz == g->fnzbatch)) {
        if (fit) {
            uint32_t now = port_cycles(), ran = now - start;
            if (ran >= cycles || g->fnzcallest > cycles - ran) {
                *putoff = 1;
                break;
            }
            g->fnzslackgc = 0;
            call_one_finalizer(L);
            /* (Less an emergency's catch-up inside it: collector work,
             * up to the deadline, not what the next call will take.) */
            uint32_t took = port_cycles() - now - g->fnzslackgc;
            g->fnzcallest = took > g->fnzcallest
                                ? took
                                : g->fnzcallest - (g->fnzcallest - took) /
                                                      GC_FNZ_EST_DECAY;
        } else {
            if (n > 0 && timed && lap_since(lap0, tick0) >= cycles)
                break;
            call_one_finalizer(L);
        }
        n++;
    }
    /* A pause of the program, not of the collector: counted apart. */
    uint32_t used = port_cycles() - start;
    g->stats.finalizers += (uint32_t)n;
    g->fnzowed = g->fnzowed > (uint32_t)n ? g->fnzowed - (uint32_t)n : 0;
    if (used > g->stats.worst_finalizer_cycles)
        g->stats.worst_finalizer_cycles = used;
    return n;
}

/* The collection an allocation of `need` bytes that failed runs before
 * it tries again (gc.h). */
rt_cold static __attribute__((noinline)) void emergency(lua_State *L,
                                                        size_t need)
{
    /* Short of C stack, no collection: the allocation fails (a memory
     * error) rather than the stack. */
    if (port_cstack_short(gc))
        return;
    global_State *g = G(L);
    g->gcemergency = 1;
    g->stats.emergencies++;
    uint32_t start = port_cycles();
    if (g->inslack && !g->gchold) {
        /* In a control loop's slack (a __gc call, an rt.on handler): a
         * catch-up until the slack's deadline, at least a step budget, in
         * steps of at most a step budget each; what it cannot free makes
         * the allocation fail, a "not enough memory" the code may catch.
         * A whole collection there, inside a __gc, made the next body
         * late by 43 ms at shift=5. */
        uint32_t budget = g->stepbudget ? g->stepbudget : GC_BUDGET_MAX;
        int32_t left = (int32_t)(g->slackend - start);
        uint32_t room = left > (int32_t)budget ? (uint32_t)left : budget;
        for (uint32_t used = 0; used < room;) {
            uint32_t steps = g->stats.steps;
            uint32_t b = room - used < budget ? room - used : budget;
            used += step_now(L, b, 0);
            if (g->stats.steps == steps ||
                arena_largest_alloc(g->arena) >= need)
                break;
        }
    } else if (g->gchold) {
        /* Inside an rt.loop body: a catch-up of what is left of the
         * body's assist cap, in steps of at most a step budget each (a
         * body past its period may have a cap of many), until a block of
         * `need` bytes is sure to be there; never a whole collection:
         * what it cannot free makes the allocation fail, a "not enough
         * memory" the body may catch. */
        uint32_t budget = g->stepbudget ? g->stepbudget : GC_BUDGET_MAX;
        for (uint32_t left; (left = body_left(g)) > 0;) {
            uint32_t steps = g->stats.steps;
            uint32_t used = step_now(L, left < budget ? left : budget, 0);
            g->bodyassistcycles += used;
            if (g->stats.steps == steps || /* nothing left to do */
                arena_largest_alloc(g->arena) >= need)
                break;
        }
    } else {
        /* markroots keeps g->newest, which may not be anchored yet. */
        finish_cycle(L);
        work(L, 1);
        finish_cycle(L);
    }
    /* An emergency is a pause the program sees (the step hook gets a
     * whole collection; a catch-up is recorded as the step it is too),
     * counted apart from the steps' figures. */
    uint32_t used = port_cycles() - start;
    if (used > g->stats.worst_emergency_cycles)
        g->stats.worst_emergency_cycles = used;
    int catchup = g->gchold || g->inslack;
    if (g->inslack && g->fnzrunning != NULL)
        g->fnzslackgc += used;
    if (!catchup) { /* (a catch-up's steps counted themselves) */
        g->gcspent += used;
        gc_trace(start, used, GC_TRACE_EMERGENCY);
        if (g->stephook)
            g->stephook(start, used);
    }
    g->gcemergency = 0;
}

static void free_list(lua_State *L, gcobj **list)
{
    gcobj *o;
    while ((o = *list) != NULL) {
        *list = o->next;
        gc_freeobj(L, o);
    }
}

rt_cold void gc_freeall(lua_State *L)
{
    global_State *g = G(L);
    g->gcrunning = 0;
    g->gcstopped = 0; /* no emergency either */
    clearing = NULL;  /* nothing is freed before the finalizers ran */
    /* Every pending finalizer runs, in order, each once, in time linear in
     * their number: from here on no object gets a finalizer (as in 5.4,
     * what a finalizer creates or marks now is just freed). */
    g->gcclosing = 1;
    g->fnzstage = FNZ_NONE;
    g->fnzmark = g->fnzbatch = NULL;
    separate_tobefnz(g, 1);
    while (g->tobefnz)
        call_one_finalizer(L);
    g->gray = g->grayagain = g->trav = NULL;
    g->ephkey = NULL;
    free_list(L, &g->allgc);
    free_list(L, &g->finobj);
    free_list(L, &g->tobefnz);
    tab_romslots_reset(g);
    str_freeall(g);
    g->gcphase = GC_PAUSE;
}

/* ---- gc_check ----------------------------------------------------------- */

struct checker {
    global_State *g;
    size_t bytes; /* arena cost of every allocation found */
    int err;
    const char *why;
};

/* The arena gc_check walks (one state at a time, as `clearing`). */
static const arena_t *cost_arena;

static size_t cost(const void *p)
{
    return p ? arena_cost(cost_arena, p) : 0;
}

/* A thread's own blocks: its stack, its CallInfo record blocks and its
 * to-be-closed array (vm/do.c). */
static size_t thread_parts_cost(lua_State *th)
{
    size_t n = cost(th->stack) + cost(th->tbcslots);
    for (CallInfoBlock *b = th->ciblocks; b != NULL; b = b->prev)
        n += cost(b);
    return n;
}

static void fail(struct checker *c, int err, const char *why)
{
    if (c->err == 0) {
        c->err = err;
        c->why = why;
    }
}

/* Does p lie inside the arena's region (live or not)? */
static int in_arena(global_State *g, const void *p)
{
    uintptr_t base = (uintptr_t)g->arena;
    return (uintptr_t)p >= base &&
           (uintptr_t)p - base < arena_capacity(g->arena);
}

/* child is an object one may read: ROM, the static main thread, or a live
 * arena block.  A pointer into the arena that names no live block is a
 * use-after-free waiting to happen: its memory is never read. */
static int check_alive(struct checker *c, gcobj *child)
{
    global_State *g = c->g;
    if (child == obj2gc(&g->mainthread))
        return 1;
    if (in_arena(g, child) ? arena_is_block(g->arena, child) : is_rom(child))
        return 1;
    fail(c, GC_CHECK_FREED, "an object points to a freed one");
    return 0;
}

/* The invariant as it holds in this phase, for parent -> child; a weak
 * reference (`weak`) may be white under a black parent. */
static void check_ref_(struct checker *c, gcobj *parent, gcobj *child,
                       int weak)
{
    global_State *g = c->g;
    /* A dead object the sweep has not reached yet may point to ones it has
     * freed: it goes too, unread. */
    if (child == NULL || (!gc_keepinvariant(g) && gc_isdead(g, parent)) ||
        !check_alive(c, child) || is_rom(child))
        return;
    if (is_rom(parent)) {
        fail(c, GC_CHECK_COLOR, "a ROM object points to a RAM object");
        return;
    }
    /* The object a chunked traversal is inside is black ahead of its scan:
     * only its scanned part is bound by the invariant (barriers keep that
     * part right); the rest is still to be scanned. */
    if (gc_keepinvariant(g) && g->gcphase != GC_PAUSE && is_black(parent) &&
        is_white(child) && parent != g->trav && !weak) {
        static char buf[64];
        port_snprintf(buf, sizeof buf,
                      "black %02x points to white %02x (trav %d)", parent->tt,
                      child->tt, g->trav == parent);
        fail(c, GC_CHECK_COLOR, buf);
    }
    /* (A weak table the clear has not passed yet may: its dead entries
     * are cleared when read, and before the sweep.) */
    if (!gc_keepinvariant(g) && gc_isdead(g, child) &&
        !(weak && g->gcphase == GC_CLEARWEAK &&
          (parent->marked & MARK_CLEARING)))
        fail(c, GC_CHECK_DEAD, "live object points to a dead one");
}

#define check_ref(c, parent, child) check_ref_(c, parent, child, 0)

static void check_val_(struct checker *c, gcobj *parent, const tvalue *v,
                       int weak)
{
    if (is_collectable(v) && v->tt != V_DEADKEY)
        check_ref_(c, parent, gc_of(v), weak);
}
#define check_val(c, parent, v) check_val_(c, parent, v, 0)

/* Between atomic and the end of the sweep, a weak table the cycle kept
 * holds no dead object in a weak slot once the clear has passed it (its
 * flag is gone: CLEARWEAK clears them all, before the sweep frees them),
 * and an ephemeron's entry whose key lives keeps its value (atomic
 * converged them).  Strings are values, never weak: an entry keyed by one
 * is strong, its key and value alive.  No table is flagged once the
 * clear is over. */
static void check_weak(struct checker *c, table *t)
{
    global_State *g = c->g;
    int flagged = (t->marked & MARK_CLEARING) != 0;
    if (g->gcphase != GC_CLEARWEAK && g->gcphase != GC_SWEEP_STRING &&
        g->gcphase != GC_SWEEP_OBJ) {
        if (g->gcphase == GC_PAUSE && flagged)
            fail(c, GC_CHECK_WEAK,
                 "a table is flagged for a clear that ended");
        return;
    }
    if (gc_isdead(g, obj2gc(t)))
        return;
    if (flagged) {
        if (g->gcphase != GC_CLEARWEAK)
            fail(c, GC_CHECK_WEAK,
                 "a table is flagged for a clear that ended");
        return; /* its dead entries are cleared when read */
    }
    int wk = (t->weak & TAB_WEAK_KEYS) != 0,
        wv = (t->weak & TAB_WEAK_VALUES) != 0;
    tabview v;
    tab_view(t, &v);
    for (int r = 0; wv && r < TAB_VIEW_ARRAYS; r++)
        for (uint32_t i = 0; i < v.alen[r]; i++) {
            const tvalue *s = &v.arr[r][i];
            if (is_collectable(s) && check_alive(c, gc_of(s)) &&
                gc_isdead(g, gc_of(s)))
                fail(c, GC_CHECK_WEAK, "a weak table keeps a dead value");
        }
    for (uint32_t i = 0; i < v.nlen[0] + v.nlen[1]; i++) {
        node *n = i < v.nlen[0] ? &v.nodes[0][i] : &v.nodes[1][i - v.nlen[0]];
        if (is_nil(&n->val))
            continue;
        int keydead = 0;
        if ((node_keytt(n) & BIT_COLLECTABLE) && node_keytt(n) != V_DEADKEY) {
            if (!check_alive(c, n->key_val.gc))
                return;
            keydead = gc_isdead(g, n->key_val.gc);
            if (keydead && wk)
                fail(c, GC_CHECK_WEAK, "a weak table keeps a dead key");
        }
        if (!is_collectable(&n->val) || !check_alive(c, gc_of(&n->val)))
            continue;
        if (gc_isdead(g, gc_of(&n->val))) {
            if (wv)
                fail(c, GC_CHECK_WEAK, "a weak table keeps a dead value");
            else if (!keydead)
                fail(c, GC_CHECK_WEAK,
                     "an ephemeron's live key has a dead value");
        }
    }
}

/* Is an ephemeron's value weak under this key: while the key is not
 * black, and while the lookups of a flagged key just marked are still to
 * come (g->ephkey: its values are marked by them, ephkey_unit)? */
static int ephweak(global_State *g, gcobj *key)
{
    return !is_black(key) || key == g->ephkey;
}

static void check_object(struct checker *c, gcobj *o)
{
    switch (o->tt) {
    case V_SHRSTR:
    case V_LNGSTR:
        c->bytes += cost(o);
        break;
    case V_TABLE: {
        table *t = gco2tab(o);
        const void *blocks[TAB_MAX_BLOCKS];
        int nb = tab_blocks(t, blocks);
        c->bytes += cost(o);
        for (int i = 0; i < nb; i++)
            c->bytes += cost(blocks[i]);
        check_ref(c, o, obj2gc(t->metatable));
        if (t->weak != 0)
            check_weak(c, t);
        /* A black weak table (traversed this cycle) may hold white objects
         * in its weak slots, and an ephemeron a white value under a key
         * not yet traversed (its lookup is still to come). */
        uint8_t w = is_black(o) || (o->marked & MARK_CLEARING) ? t->weak : 0;
        int wk = (w & TAB_WEAK_KEYS) != 0, wv = (w & TAB_WEAK_VALUES) != 0;
        tabview v;
        tab_view(t, &v);
        for (int r = 0; r < TAB_VIEW_ARRAYS; r++)
            for (uint32_t i = 0; i < v.alen[r]; i++)
                check_val_(c, o, &v.arr[r][i], wv);
        for (int r = 0; r < TAB_VIEW_NODES; r++)
            for (uint32_t i = 0; i < v.nlen[r]; i++) {
                node *n = &v.nodes[r][i];
                if (is_nil(&n->val))
                    continue;
                int objkey = (node_keytt(n) & BIT_COLLECTABLE) &&
                             node_keytt(n) != V_DEADKEY &&
                             ttype(node_keytt(n)) != T_STRING;
                check_val_(c, o, &n->val,
                           wv ||
                               (wk && objkey && ephweak(c->g, n->key_val.gc)));
                if ((node_keytt(n) & BIT_COLLECTABLE) &&
                    node_keytt(n) != V_DEADKEY)
                    check_ref_(c, o, n->key_val.gc, wk && objkey);
            }
        break;
    }
    case V_LCL: {
        lclosure *cl = gco2lcl(o);
        c->bytes += cost(o);
        check_ref(c, o, obj2gc(cl->p));
        for (int i = 0; i < cl->nupvalues; i++)
            check_ref(c, o, obj2gc(cl->upvals[i]));
        break;
    }
    case V_CCL: {
        cclosure *cl = gco2ccl(o);
        c->bytes += cost(o);
        for (int i = 0; i < cl->nupvalues; i++)
            check_val(c, o, &cl->upvalue[i]);
        break;
    }
    case V_UDATA: {
        udata *u = gco2ud(o);
        c->bytes += cost(o);
        check_ref(c, o, obj2gc(u->metatable));
        for (int i = 0; i < u->nuvalue; i++)
            check_val(c, o, &u->uv[i]);
        break;
    }
    case V_UPVAL: {
        upval *uv = gco2uv(o);
        c->bytes += cost(o);
        if (!upval_is_open(uv))
            check_val(c, o, uv->v);
        break;
    }
    case V_PROTO: {
        proto *p = gco2proto(o);
        c->bytes += cost(o) + cost(p->k) + cost(p->code) + cost(p->p) +
                    cost(p->upvalues) + cost(p->lineinfo) + cost(p->locvars) +
                    cost(p->abslineinfo);
        check_ref(c, o, obj2gc(p->source));
        for (int i = 0; i < p->sizek; i++)
            check_val(c, o, &p->k[i]);
        for (int i = 0; i < p->sizep; i++)
            check_ref(c, o, obj2gc(p->p[i]));
        break;
    }
    case V_THREAD: {
        lua_State *th = gco2th(o);
        c->bytes += cost(o) + thread_parts_cost(th);
        if (is_black(o))
            fail(c, GC_CHECK_COLOR, "a thread is black");
        break;
    }
    default:
        fail(c, GC_CHECK_TAG, "object with an unknown tag");
        break;
    }
    if ((o->marked & MARK_WHITES) == MARK_WHITES)
        fail(c, GC_CHECK_TAG, "object with both whites");
    if (is_rom(o))
        fail(c, GC_CHECK_LIST, "a ROM object on a RAM list");
}

/* An object list; `fin`: finobj or tobefnz, where stand-ins may be. */
static void check_list(struct checker *c, gcobj *list, int fin)
{
    for (gcobj *o = list; o != NULL && c->err == 0; o = o->next) {
        if (o->tt == V_SHRSTR)
            fail(c, GC_CHECK_LIST, "a short string on an object list");
        if (o->tt == V_FINREF) {
            /* Its object is on allgc, alive, given a __gc (gc.c: finref). */
            gcobj *t = fin_target(o);
            c->bytes += cost(o);
            if (!fin)
                fail(c, GC_CHECK_LIST, "a stand-in on allgc");
            else if (check_alive(c, t) && !(t->marked & MARK_FINALIZED))
                fail(c, GC_CHECK_LIST,
                     "a stand-in for an object without "
                     "a __gc");
            if (!is_fixed(o))
                fail(c, GC_CHECK_LIST, "a stand-in that is not fixed");
            continue;
        }
        check_object(c, o);
    }
}

static void check_strings(struct checker *c)
{
    strtab *tb = &c->g->strt;
    c->bytes += cost(tb->hash) + cost(tb->old);
    for (int pass = 0; pass < 2; pass++) {
        str **b = pass == 0 ? tb->hash : tb->old;
        uint32_t n = pass == 0 ? tb->size : tb->oldsize;
        if (b == NULL)
            continue;
        for (uint32_t i = 0; i < n; i++)
            for (str *s = b[i]; s != NULL; s = s->u.hnext) {
                if (s->tt != V_SHRSTR)
                    fail(c, GC_CHECK_LIST, "a non-short string in the table");
                check_object(c, obj2gc(s));
            }
    }
}

/* g->ranlist: linked both ways, threads only, none dead (atomic empties
 * it before the sweep; a thread that can run is not garbage). */
static void check_ranlist(struct checker *c)
{
    global_State *g = c->g;
    lua_State **prev = &g->ranlist;
    size_t n = 0, most = arena_in_use(g->arena) / sizeof(lua_State) + 2;
    for (lua_State *th = g->ranlist; th != NULL; th = th->rannext) {
        if (th->ranprev != prev || ++n > most) {
            fail(c, GC_CHECK_LIST, "g->ranlist is not linked both ways");
            return;
        }
        if (!(th->dirty & GC_RAN_LISTED))
            fail(c, GC_CHECK_LIST, "a thread on g->ranlist not marked so");
        if (obj2gc(th)->tt != V_THREAD ||
            (!gc_keepinvariant(g) && gc_isdead(g, obj2gc(th))))
            fail(c, GC_CHECK_LIST, "a dead object on g->ranlist");
        prev = &th->rannext;
    }
    if (n != g->ranlen)
        fail(c, GC_CHECK_LIST, "g->ranlen is not the length of g->ranlist");
}

int gc_check(lua_State *L, const char **why)
{
    global_State *g = G(L);
    struct checker c = {g, 0, 0, NULL};
    cost_arena = g->arena;
    if (arena_check(g->arena) != 0)
        fail(&c, GC_CHECK_ARENA, "arena_check failed");
    check_list(&c, g->allgc, 0);
    check_list(&c, g->finobj, 1);
    check_list(&c, g->tobefnz, 1);
    check_strings(&c);
    check_ranlist(&c);
    c.bytes += thread_parts_cost(&g->mainthread) + arena_page_fixed(g->arena);
    c.bytes += g->cblockbytes; /* C code's blocks (lua_getallocf) */
    /* Inside an allocation (a step of an assist or an emergency) the
     * block being made is not an object yet; inside a compilation (whose
     * reader may run Lua code, and so steps) its state, token buffer and
     * lists are blocks of no object (lang/load.c). */
    if (c.err == 0 && !g->gcinassist && !g->gcemergency && !g->nloading &&
        c.bytes != arena_in_use(g->arena))
        fail(&c, GC_CHECK_ACCOUNT, "objects' bytes differ from the arena's");
    if (why)
        *why = c.why;
    return c.err;
}
