/*
 * gc_latency.c — worst, p99.9 and median collector step, and minimum
 * mutator utilisation, for three workloads at three arena sizes, on a
 * board under `qemu -icount shift=0` (deterministic time).
 *
 * Workloads (each scaled to the arena, and run for RUN_MS of virtual time
 * with SysTick pacing at the default 25% utilisation and a 100 us budget):
 *   churn  small tables made and dropped
 *   table  one table of integer keys plus string keys (about a third of
 *          the arena), rewritten while garbage is made
 *   list   one live linked list of tables, relinked while garbage is made
 * The mutator polls the collector's flag at every iteration, as the VM's
 * safe points will.
 */
#include "board.h"
#include "gc/gc.h"
#include "gc/pace.h"
#include "port/port.h"
#include "vm/str.h"
#include "vm/tab.h"

#include <string.h>

/* Virtual milliseconds each run lasts. */
#define RUN_MS 300
/* Step records kept per run (board.mk raises it where RAM allows). */
#ifndef BENCH_MAX_STEPS
#define BENCH_MAX_STEPS 256
#endif
#define MAX_STEPS BENCH_MAX_STEPS

static uint32_t step_start[MAX_STEPS];
static uint32_t step_len[MAX_STEPS];
static uint32_t nsteps;

static void hook(uint32_t start, uint32_t cycles)
{
    if (nsteps < MAX_STEPS) {
        step_start[nsteps] = start;
        step_len[nsteps] = cycles;
        nsteps++;
    }
}

static uint32_t rng = 1;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

static table *garbage(lua_State *L, int n)
{
    table *t = tab_new(L);
    for (int i = 1; t && i <= n; i++) {
        tvalue v;
        set_int(&v, i);
        tab_setint(L, t, i, &v);
    }
    return t;
}

static table *anchor_table(lua_State *L, rt_int key)
{
    table *t = tab_new(L);
    tvalue v;
    set_gc(&v, t, V_TABLE);
    tab_setint(L, state_registry(L), key, &v);
    return t;
}

static void build(lua_State *L, int workload, size_t arena)
{
    if (workload == 1) { /* one big table: ints + strings */
        uint32_t nint = (uint32_t)(arena / 3 / (sizeof(tvalue) + 4));
        uint32_t nstr = nint / 5;
        if (nint > 100000)
            nint = 100000;
        if (nstr > 20000)
            nstr = 20000;
        table *big = anchor_table(L, 3);
        for (uint32_t i = 1; i <= nint; i++) {
            tvalue v;
            set_int(&v, (rt_int)i);
            tab_setint(L, big, (rt_int)i, &v);
            gc_safepoint(L);
        }
        for (uint32_t i = 0; i < nstr; i++) {
            char b[16];
            port_snprintf(b, sizeof b, "k%u", (unsigned)i);
            str *s = str_newz(L, b);
            if (s == NULL)
                break;
            tvalue v;
            set_int(&v, (rt_int)i);
            tab_setstr(L, big, s, &v);
            gc_safepoint(L);
        }
    } else if (workload == 2) { /* one long list */
        uint32_t n = (uint32_t)(arena / 3 / 80);
        if (n > 50000)
            n = 50000;
        table *head = anchor_table(L, 3);
        for (uint32_t i = 0; i < n && head; i++) {
            table *nd = tab_new(L);
            if (nd == NULL)
                break;
            tvalue v;
            set_gc(&v, head, V_TABLE);
            tab_setint(L, nd, 1, &v);
            set_gc(&v, nd, V_TABLE);
            tab_setint(L, state_registry(L), 3, &v);
            head = nd;
            gc_safepoint(L);
        }
    }
}

static void mutate(lua_State *L, int workload)
{
    garbage(L, 1 + (int)(rnd() % 6));
    const tvalue *r = tab_getint(state_registry(L), 3);
    if (workload == 1 && is_table(r)) {
        /* Rewrite an entry with a fresh string (a barrier on a black
         * table); the string it replaces becomes garbage. */
        table *big = gco2tab(gc_of(r));
        char b[12];
        port_snprintf(b, sizeof b, "v%u", (unsigned)(rnd() % 256));
        str *s = str_newz(L, b);
        if (s) {
            tvalue v;
            set_gc(&v, s, s->tt);
            tab_setint(L, big, (rt_int)(1 + rnd() % (big->asize + 1)), &v);
        }
    } else if (workload == 2 && is_table(r)) {
        table *head = gco2tab(gc_of(r));
        table *t = garbage(L, 1);
        if (t) { /* a new node at the head: the list stays live */
            tvalue v;
            set_gc(&v, head, V_TABLE);
            tab_setint(L, t, 1, &v);
            set_gc(&v, t, V_TABLE);
            tab_setint(L, state_registry(L), 4, &v);
        }
    }
}

/* Minimum mutator utilisation over windows of w cycles, in per mille. */
static uint32_t mmu(uint32_t t0, uint32_t t1, uint32_t w)
{
    uint32_t worst = 1000;
    for (uint32_t i = 0; i < nsteps; i++) {
        uint32_t ws = step_start[i];
        if (ws - t0 > t1 - t0 - w)
            break;
        uint64_t gc = 0;
        for (uint32_t k = i; k < nsteps && step_start[k] - ws < w; k++) {
            uint32_t end = step_start[k] + step_len[k];
            uint32_t len =
                end - ws > w ? w - (step_start[k] - ws) : step_len[k];
            gc += len;
        }
        uint32_t u = (uint32_t)(1000 - gc * 1000 / w);
        if (u < worst)
            worst = u;
    }
    return worst;
}

static void sort(uint32_t *a, uint32_t n)
{
    /* Shell sort: no recursion, no allocation. */
    for (uint32_t gap = n / 2; gap > 0; gap /= 2)
        for (uint32_t i = gap; i < n; i++) {
            uint32_t v = a[i], j = i;
            while (j >= gap && a[j - gap] > v) {
                a[j] = a[j - gap];
                j -= gap;
            }
            a[j] = v;
        }
}

static const char *const names[] = {"churn", "table", "list"};

static void run(int workload, void *mem, size_t bytes)
{
    lua_State *L = state_open_in(mem, bytes);
    if (L == NULL) {
        port_printf("| %s | %u | state_open failed |\n", names[workload],
                    (unsigned)(bytes >> 10));
        return;
    }
    pace_init(L);
    build(L, workload, bytes);
    global_State *g = G(L);
    nsteps = 0;
    g->stephook = hook;
    memset(&g->stats, 0, sizeof g->stats);
    uint32_t hz = port_cycle_hz();
    uint32_t t0 = port_cycles();
    uint32_t span = (uint32_t)((uint64_t)hz * RUN_MS / 1000);
    while (port_cycles() - t0 < span) {
        mutate(L, workload);
        gc_safepoint(L);
    }
    uint32_t t1 = port_cycles();
    g->stephook = NULL;
    pace_stop(L);
    uint32_t worst = g->stats.worst_step_cycles;
    uint32_t ms = hz / 1000;
    uint32_t m1 = mmu(t0, t1, ms), m10 = mmu(t0, t1, 10 * ms);
    sort(step_len, nsteps);
    uint32_t med = nsteps ? step_len[nsteps / 2] : 0;
    uint32_t p999 = nsteps ? step_len[nsteps - 1 - nsteps / 1000] : 0;
    uint32_t us = hz / 1000000;
    port_printf("| %s | %u KiB | %u | %u | %u | %u | %u | %u.%u%% | %u.%u%% "
                "| %u | %u | %u |\n",
                names[workload], (unsigned)(bytes >> 10),
                (unsigned)(g->stepbudget / us), (unsigned)(worst / us),
                (unsigned)(p999 / us), (unsigned)(med / us), (unsigned)nsteps,
                (unsigned)(m1 / 10), (unsigned)(m1 % 10), (unsigned)(m10 / 10),
                (unsigned)(m10 % 10), (unsigned)g->stats.cycles_completed,
                (unsigned)g->stats.emergencies,
                (unsigned)(arena_peak(g->arena) >> 10));
    state_close(L);
}

int main(void)
{
    void *heap;
    size_t bytes;
    port_heap(&heap, &bytes);
    port_printf("gc_latency on %s, %u Hz, %u ms per run\n\n", port_board(),
                (unsigned)port_cycle_hz(), (unsigned)RUN_MS);
    port_printf("| workload | arena | budget us | worst us | p99.9 us | "
                "median us | steps | MMU 1ms | MMU 10ms | cycles | "
                "emergencies | peak KiB |\n");
    port_printf("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    static const size_t sizes[] = {64u << 10, 512u << 10, 4u << 20};
    for (int w = 0; w < 3; w++)
        for (int s = 0; s < 3; s++) {
            void *mem = heap;
            size_t n = sizes[s];
#ifdef BOARD_PSRAM_BASE
            if (n > bytes) /* the 4 MiB arena lives in PSRAM */
                mem = (void *)(uintptr_t)BOARD_PSRAM_BASE;
#endif
            if (n > bytes && mem == heap)
                continue;
            run(w, mem, n);
        }
    return 0;
}
