/*
 * gcapi.c — the collector's controls that include/rtlua.h gives the
 * libraries: the pacing settings, rt.loop bodies, idle steps, the
 * safe-point hook, and arena blocks for C code.
 *
 * Each is a few loads and stores of the global state (vm/state.h) or a
 * call of gc/pace.h and gc/gc.h, so that lib/ needs none of those
 * headers: the libraries stand on the public API alone
 * (docs/architecture.md, "The layers"; tests/layering/run checks it).
 */
#include "gc/gc.h"
#include "gc/pace.h"
#include "include/rtlua.h"
#include "port/port.h"

_Static_assert(RTLUA_ALLOC_ALIGN == ARENA_ALIGN,
               "rtlua_alloc's blocks are aligned as the arena's");

void rtlua_getbudget(lua_State *L, rtlua_Budget *out)
{
    global_State *g = G(L);
    out->utilisation_pct = g->utilisation_pct;
    out->step_cycles = g->stepbudget;
    out->reserve = g->reserve;
    out->assist_cycles = g->assistcap;
}

void rtlua_setutilisation(lua_State *L, uint32_t pct)
{
    pace_set_utilisation(L, pct);
}

void rtlua_setbudget(lua_State *L, uint32_t step_cycles, size_t reserve)
{
    pace_set_budget(L, step_cycles, reserve);
}

void rtlua_setassistcap(lua_State *L, uint32_t cycles)
{
    pace_set_assistcap(L, cycles);
}

int rtlua_bodybegin(lua_State *L, uint32_t period)
{
    global_State *g = G(L);
    int saved = g->gchold;
    g->gchold = 1;
    g->bodyassists = g->bodyassistcycles = 0;
    g->bodystart = port_cycles();
    g->bodyperiod = period;
    return saved;
}

void rtlua_bodyend(lua_State *L, int saved, uint32_t *assists,
                   uint32_t *assist_cycles)
{
    global_State *g = G(L);
    g->gchold = (uint8_t)saved;
    *assists = g->bodyassists;
    *assist_cycles = g->bodyassistcycles;
    if (g->bodyassists > g->stats.worst_body_assists)
        g->stats.worst_body_assists = g->bodyassists;
    if (g->bodyassistcycles > g->stats.worst_body_assist_cycles)
        g->stats.worst_body_assist_cycles = g->bodyassistcycles;
}

uint32_t rtlua_idleuntil(lua_State *L, uint32_t deadline)
{
    return pace_idle_until(L, deadline);
}

void rtlua_atsafepoint(lua_State *L, void (*fn)(lua_State *L))
{
    pace_safepoint_hook = fn;
    G(L)->stepflag = 1;
}

int rtlua_infinalizer(lua_State *L)
{
    return G(L)->fnzrunning != NULL;
}

lua_State *rtlua_current(void)
{
    return state_current();
}

/* The bytes asked of the arena for n: whole alignment units, since a
 * page's slot of another size is only 4-aligned (gc/arena.h). */
static size_t aligned(size_t n)
{
    return (n + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
}

void *rtlua_alloc(lua_State *L, void *p, size_t osize, size_t nsize)
{
    global_State *g = G(L);
    if (nsize == 0) {
        if (p != NULL) {
            g->cblockbytes -= arena_cost(g->arena, p);
            gc_free(g, p, aligned(osize));
        }
        return NULL;
    }
    if (nsize > SIZE_MAX - ARENA_ALIGN)
        return NULL;
    size_t was = p != NULL ? arena_cost(g->arena, p) : 0;
    void *np = p != NULL ? gc_realloc(L, p, aligned(osize), aligned(nsize))
                         : gc_alloc(L, aligned(nsize));
    if (np == NULL)
        return NULL; /* p is as it was */
    g->cblockbytes += arena_cost(g->arena, np) - was;
    return np;
}
