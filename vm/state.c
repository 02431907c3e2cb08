/*
 * state.c — the static main state, coroutine threads, stacks.
 *
 * The global state, with the main thread inside it, is one static object:
 * opening a state allocates only the string table, the registry, the
 * globals table and the main stack, and closing frees every byte, so the
 * arena's bytes in use return to zero.
 */
#include "vm/state.h"
#include "gc/arena.h"
#include "gc/gc.h"
#include "port/port.h"
#include "vm/do.h"
#include "vm/func.h"
#include "vm/str.h"
#include "vm/tab.h"
#include "vm/tm.h"

#include <string.h>

/* Registry slots, as Lua numbers them. */
#define REG_MAINTHREAD 1
#define REG_GLOBALS 2
/* Default share of the arena kept free before assist steps begin (1/N). */
#define STATE_RESERVE_DIV 8
/* Default step budget in microseconds (pace.c may change it). */
#define STATE_STEP_US_DEFAULT 100
/* Default growth over the last cycle's use that starts a new cycle. */
#define STATE_PAUSE_PCT 100

static global_State main_state;
static int main_open;

static void init_thread(lua_State *L1, global_State *g)
{
    L1->g = g;
    L1->stack = NULL;
    L1->top = NULL;
    L1->stacksize = 0;
    L1->stacklimit = 0;
    L1->lowmark = NULL;
    L1->deadfrom = 0;
    L1->openupval = NULL;
    L1->rannext = NULL;
    L1->ranprev = NULL; /* not on g->ranlist */
    L1->status = 0;
    L1->dirty = GC_RAN_SCAN | GC_RAN_CLEAR;
    L1->nci = 0;
    L1->gclist = NULL;
}

static int alloc_stack(lua_State *L, lua_State *L1)
{
    L1->stack = gc_alloc(L, sizeof(tvalue) * STATE_STACK_INIT);
    if (L1->stack == NULL)
        return -1;
    L1->stacksize = STATE_STACK_INIT;
    L1->stacklimit = STATE_STACK_INIT;
    for (uint32_t i = 0; i < STATE_STACK_INIT; i++)
        set_nil(&L1->stack[i]);
    L1->top = L1->stack;
    L1->lowmark = L1->stack;
    return 0;
}

static void free_stack(global_State *g, lua_State *L1)
{
    gc_free(g, L1->stack, sizeof(tvalue) * L1->stacksize);
    L1->stack = NULL;
    L1->stacksize = 0;
    L1->stacklimit = 0;
    L1->lowmark = NULL;
    L1->deadfrom = 0;
}

lua_State *state_newthread(lua_State *L)
{
    lua_State *L1 = (lua_State *)gc_newobj(L, V_THREAD, sizeof(lua_State));
    if (L1 == NULL)
        return NULL;
    init_thread(L1, G(L));
    memcpy(L1->extraspace, G(L)->mainthread.extraspace, LUA_EXTRASPACE);
    L1->base_ci = L1->ci = NULL;
    L1->ciblocks = NULL;
    L1->tbcslots = NULL;
    L1->ntbc = L1->sizetbc = 0;
    if (alloc_stack(L, L1) != 0 || do_initthread(L, L1) != 0) {
        /* L1 stays on allgc, half made; the sweep frees it. */
        return NULL;
    }
    gc_newthread(L, L1);
    return L1;
}

void state_freethread(lua_State *L, lua_State *L1)
{
    fn_closeupvals(L1, L1->stack);
    do_freethread(L, L1);
    if (L1->stack)
        free_stack(G(L), L1);
    gc_free(G(L), L1, sizeof(lua_State));
}

table *state_registry(lua_State *L)
{
    return gco2tab(gc_of(&G(L)->registry));
}

table *state_globals(lua_State *L)
{
    return gco2tab(gc_of(tab_getint(state_registry(L), REG_GLOBALS)));
}

lua_State *state_open_in(void *mem, size_t bytes)
{
    if (main_open)
        return NULL;
    global_State *g = &main_state;
    memset(g, 0, sizeof *g);
    g->cstacklimit = LUAI_MAXCCALLS;
    g->arena = arena_create_pages(
        mem, bytes, bytes >= ARENA_PAGES_MIN ? ARENA_PAGE_LOG2 : 0);
    if (g->arena == NULL)
        return NULL;
    lua_State *L = &g->mainthread;
    L->next = NULL;
    L->tt = V_THREAD;
    L->marked = MARK_SUPER | MARK_FIXED | MARK_WHITE0;
    init_thread(L, g);
    g->currentwhite = MARK_WHITE0;
    g->gcphase = GC_PAUSE;
    g->gcrunning = 0; /* no collection until the state is whole */
    g->pausepct = STATE_PAUSE_PCT;
    g->pauseextra = GC_PAUSE_EXTRA;
    g->reserve = arena_capacity(g->arena) / STATE_RESERVE_DIV;
    /* Assist steps are bounded from the start, paced or not. */
    g->stepbudget = (uint32_t)((uint64_t)port_cycle_hz() *
                               STATE_STEP_US_DEFAULT / 1000000u);
    set_nil(&g->registry);
    set_nil(&g->nilvalue);
    main_open = 1;
    L->base_ci = L->ci = NULL;
    L->ciblocks = NULL;
    L->tbcslots = NULL;
    L->ntbc = L->sizetbc = 0;
    if (alloc_stack(L, L) != 0 || do_initthread(L, L) != 0 || str_init(L) != 0)
        goto fail;
    do_incnny(L); /* the main thread never yields */
    table *reg = tab_new(L);
    if (reg == NULL)
        goto fail;
    set_gc(&g->registry, reg, V_TABLE);
    table *globals = tab_new(L);
    if (globals == NULL)
        goto fail;
    tvalue v;
    set_gc(&v, globals, V_TABLE);
    if (tab_setint(L, reg, REG_GLOBALS, &v) != TAB_OK)
        goto fail;
    set_gc(&v, L, V_THREAD);
    if (tab_setint(L, reg, REG_MAINTHREAD, &v) != TAB_OK)
        goto fail;
    g->memerrmsg = str_newz(L, "not enough memory");
    g->cstackmsg = str_newz(L, "C stack overflow");
    g->tm_mode = str_newz(L, "__mode");
    g->tm_gc = str_newz(L, "__gc");
    if (!g->memerrmsg || !g->cstackmsg || !g->tm_mode || !g->tm_gc)
        goto fail;
    str_fix(g->memerrmsg);
    str_fix(g->cstackmsg);
    str_fix(g->tm_mode);
    str_fix(g->tm_gc);
    if (tm_init(L) != 0)
        goto fail;
    g->finalizer = do_finalizer;
    g->gcestimate = arena_in_use(g->arena);
    g->gcrunning = 1;
    return L;
fail:
    state_close(L);
    return NULL;
}

lua_State *state_open(void)
{
    void *mem;
    size_t bytes;
    port_heap(&mem, &bytes);
    return state_open_in(mem, bytes);
}

lua_State *state_current(void)
{
    return main_open ? &main_state.mainthread : NULL;
}

static void close_all(lua_State *L, void *ud)
{
    (void)ud;
    do_close(L, L->stack + 1, LUA_OK);
}

void state_close(lua_State *L)
{
    global_State *g = G(L);
    if (L->base_ci != NULL && L->tbclist != NULL) {
        /* Close the main thread's pending to-be-closed variables. */
        L->ci = L->base_ci;
        do_pcall(L, close_all, NULL, do_savestack(L, L->stack + 1), 0);
    }
    gc_freeall(L);
    fn_closeupvals(L, L->stack);
    do_freethread(L, L);
    if (L->stack)
        free_stack(g, L);
    arena_forget(g->arena); /* the region is the port's again */
    main_open = 0;
}
