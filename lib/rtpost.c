/*
 * rtpost.c — interrupt events for Lua: rt_post and their delivery
 * (include/rtlua.h).
 *
 * An interrupt (the producer) writes an event into a ring of RT_POST_RING
 * slots and publishes it by advancing `head`; the VM (the consumer) reads
 * slots up to `head` and frees them by advancing `tail`.  Each index is
 * written by one side only, with release stores and acquire loads, so no
 * lock is taken and nothing is masked: an interrupt never waits for the
 * VM.  Indices run freely modulo 2^32 and are reduced by the mask, which
 * needs RT_POST_RING to be a power of two; head - tail is the fill.
 *
 * Delivery: rt_post installs on_safepoint with rtlua_atsafepoint, which
 * raises the flag the tick raises, so the next safe point runs its
 * collector work (gc/pace.c) and ends by calling on_safepoint.
 * Handlers therefore run where a finalizer could run, never in the
 * interrupt.  While handlers run, or while a finalizer runs, delivery is
 * not re-entered: the events wait for the next safe point after it.  A
 * delivery takes only the events waiting when it began; those posted
 * meanwhile (by an interrupt, or a handler's rt.post) wait for the next
 * safe point, so a source faster than its handler takes the ring's room
 * (its events are then dropped and counted) but never the interrupted
 * code's progress.
 *
 * Only atomic loads and stores are used (no read-modify-write), which
 * ARMv6-M and ARMv7-M do without a library.
 */
#include "lauxlib.h"
#include "lua.h"
#include "port/port.h"
#include "rtlua.h"

#include <stdatomic.h>

_Static_assert((RT_POST_RING & (RT_POST_RING - 1)) == 0,
               "RT_POST_RING must be a power of two");
#define RING_MASK ((unsigned)RT_POST_RING - 1u)

/* Slots a handler call needs above the caller's top. */
#define DISPATCH_SLOTS 4

typedef struct rt_event {
    int irq;
    lua_Integer value;
} rt_event;

static rt_event ring[RT_POST_RING];
static atomic_uint head; /* next slot to fill: written by the producer */
static atomic_uint tail; /* next slot to read: written by the consumer */
/* Counters of one side each (the producer's are volatile: read by the VM) */
static volatile uint32_t n_posted, n_dropped;
static uint32_t n_delivered, n_unhandled, n_errors;
static int dispatching; /* handlers are running: do not re-enter */

const char rt_handlers_key = 0;

static void on_safepoint(lua_State *L);

int rt_post(lua_State *L, int irq, lua_Integer v)
{
    unsigned h = atomic_load_explicit(&head, memory_order_relaxed);
    unsigned t = atomic_load_explicit(&tail, memory_order_acquire);
    if (h - t >= (unsigned)RT_POST_RING) {
        n_dropped = n_dropped + 1;
        return 0;
    }
    ring[h & RING_MASK].irq = irq;
    ring[h & RING_MASK].value = v;
    atomic_store_explicit(&head, h + 1u, memory_order_release);
    n_posted = n_posted + 1;
    rtlua_atsafepoint(L, on_safepoint);
    return 1;
}

int rt_post_pending(void)
{
    return atomic_load_explicit(&head, memory_order_acquire) !=
           atomic_load_explicit(&tail, memory_order_relaxed);
}

void rt_post_getstats(rt_post_stats *out)
{
    out->posted = n_posted;
    out->dropped = n_dropped;
    out->delivered = n_delivered;
    out->unhandled = n_unhandled;
    out->errors = n_errors;
}

/* A handler raised: warn as 5.4 does for an error in __gc. */
static void report(lua_State *L, int irq)
{
    char buf[48];
    port_snprintf(buf, sizeof buf, "error in rt.on handler (event %d): ", irq);
    lua_warning(L, buf, 1);
    if (lua_type(L, -1) == LUA_TSTRING)
        lua_warning(L, lua_tostring(L, -1), 0);
    else
        lua_warning(L, "(error object is not a string)", 0);
}

int rt_post_dispatch(lua_State *L)
{
    int n = 0;
    if (dispatching || rtlua_infinalizer(L))
        return 0;
    dispatching = 1;
    unsigned end = atomic_load_explicit(&head, memory_order_acquire);
    for (;;) {
        unsigned t = atomic_load_explicit(&tail, memory_order_relaxed);
        if (t == end)
            break;
        /* No room on the stack: leave the event for a later safe point. */
        if (!lua_checkstack(L, DISPATCH_SLOTS))
            break;
        rt_event ev = ring[t & RING_MASK];
        atomic_store_explicit(&tail, t + 1u, memory_order_release);
        int top = lua_gettop(L);
        if (lua_rawgetp(L, LUA_REGISTRYINDEX, &rt_handlers_key) !=
                LUA_TTABLE ||
            lua_rawgeti(L, -1, ev.irq) != LUA_TFUNCTION) {
            lua_settop(L, top);
            n_unhandled++;
            continue;
        }
        lua_remove(L, -2);
        lua_pushinteger(L, ev.value);
        lua_pushinteger(L, ev.irq);
        if (lua_pcall(L, 2, 0, 0) != LUA_OK) {
            n_errors++;
            report(L, ev.irq);
            lua_pop(L, 1);
        }
        n_delivered++;
        n++;
    }
    dispatching = 0;
    return n;
}

static void on_safepoint(lua_State *L)
{
    if (rt_post_pending())
        rt_post_dispatch(L);
}
