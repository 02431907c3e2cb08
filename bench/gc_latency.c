/*
 * gc_latency.c — worst, p99.9 and median collector step, the step-length
 * histogram and minimum mutator utilisation (MMU), for three workloads at
 * five arena sizes (16 KiB to 4 MiB), on a board under
 * `qemu -icount shift=0` (time comes from the instruction count).
 *
 * Workloads, each scaled to the arena the bare state leaves free, and run
 * for RUN_MS of virtual time (SMOKE_MS with --smoke) with SysTick pacing
 * at the default 25% utilisation and a 100 us budget:
 *   churn  small tables made and dropped
 *   table  one table of integer keys plus string keys (about a quarter
 *          of the arena), rewritten while garbage is made
 *   list   one live linked list of tables, relinked while garbage is made
 * The mutator polls the collector's flag at every iteration, as the VM's
 * safe points will.
 *
 * Output: JSON lines, one a measurement (bench/report.py makes the
 * tables), each with "runner": "gc_latency", its "kind" and "units":
 *   head  board, hz, ms (per run)
 *   run   workload, kib, hz, budget, worst, p999, median, steps, kept,
 *         completed, emergencies, assists, peak_kib (lengths in cycles)
 *   hist  workload, kib, bin (its low end, cycles; HIST_BIN_CYCLES wide),
 *         steps
 *   mmu   workload, kib, window_us, permille
 *   failed  workload, kib (state_open_in failed)
 */
#include "board.h"
#include "gc/gc.h"
#include "gc/pace.h"
#include "port/port.h"
#include "vm/str.h"
#include "vm/tab.h"

#include <string.h>

/* Virtual milliseconds each run lasts (--smoke: SMOKE_MS). */
#define RUN_MS 1000
#define SMOKE_MS 50
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

/* Integer keys of the big table at most (1 MiB of array at 8 bytes). */
#define TABLE_INTS_MAX 131072u

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
        /* The array part grows by doubling: a power of two of integer
         * keys fills it exactly, an eighth of that many strings go to the
         * hash part; together about a quarter of the arena. */
        uint32_t nint = 1;
        while (nint < TABLE_INTS_MAX &&
               (size_t)nint * 2 * sizeof(tvalue) <= arena / 4)
            nint *= 2;
        uint32_t nstr = nint / 8;
        table *big = anchor_table(L, 3);
        for (uint32_t i = 1; i <= nint; i++) {
            tvalue v;
            set_int(&v, (rt_int)i);
            tab_setint(L, big, (rt_int)i, &v);
            pace_safepoint(L);
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
            pace_safepoint(L);
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
            pace_safepoint(L);
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
            tab_setint(L, big,
                       (rt_int)(1 + rnd() % (big->asize ? big->asize : 1)),
                       &v);
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

/* MMU windows, in microseconds: 100 us to 100 ms. */
static const uint32_t windows_us[] = {100,  200,   500,   1000,  2000,
                                      5000, 10000, 20000, 50000, 100000};
#define NWINDOWS (sizeof windows_us / sizeof windows_us[0])

/* Width of the histogram's bins: 50 cycles (2 us at 25 MHz). */
#define HIST_BIN_CYCLES 50u

/* Collector cycles inside [a, a + w) (offsets from t0). */
static uint64_t gc_in(uint32_t t0, uint32_t a, uint32_t w)
{
    uint64_t gc = 0;
    for (uint32_t i = 0; i < nsteps; i++) {
        uint32_t s = step_start[i] - t0, e = s + step_len[i];
        uint32_t lo = s > a ? s : a, hi = e < a + w ? e : a + w;
        if (hi > lo)
            gc += hi - lo;
    }
    return gc;
}

/* Minimum mutator utilisation over windows of w cycles inside [t0, t1],
 * in per mille.  Steps do not overlap and come in time order.  The
 * minimum is reached by a window that starts where a step starts, ends
 * where a step ends, or lies at either end of the run: the first two
 * families are scanned with a sliding sum (linear in the number of
 * steps).  Returns 1001 when the run is shorter than the window. */
static uint32_t mmu(uint32_t t0, uint32_t t1, uint32_t w)
{
    uint32_t span = t1 - t0;
    if (w > span)
        return 1001;
    uint64_t worst =
        gc_in(t0, 0, w); /* the most collector time in one window */
    uint64_t last = gc_in(t0, span - w, w);
    if (last > worst)
        worst = last;
    uint64_t sum = 0;
    uint32_t j = 0;
    for (uint32_t i = 0; i < nsteps; i++) { /* windows [s_i, s_i + w) */
        uint32_t s = step_start[i] - t0;
        if (s > span - w)
            break;
        if (j < i) {
            j = i;
            sum = 0;
        }
        while (j < nsteps && step_start[j] - t0 < s + w)
            sum += step_len[j++];
        uint64_t gc = sum;
        uint32_t end = step_start[j - 1] - t0 + step_len[j - 1];
        if (end > s + w)
            gc -= end - (s + w);
        if (gc > worst)
            worst = gc;
        sum -= step_len[i];
    }
    sum = 0;
    uint32_t i = 0;
    for (uint32_t k = 0; k < nsteps; k++) { /* windows [e_k - w, e_k) */
        uint32_t e = step_start[k] - t0 + step_len[k];
        sum += step_len[k];
        if (e < w)
            continue;
        while (step_start[i] - t0 + step_len[i] <= e - w)
            sum -= step_len[i++];
        uint64_t gc = sum;
        uint32_t s = step_start[i] - t0;
        if (s < e - w)
            gc -= (e - w) - s;
        if (gc > worst)
            worst = gc;
    }
    if (worst > w)
        worst = w;
    return (uint32_t)(1000 - worst * 1000 / w);
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

static void run(int workload, void *mem, size_t bytes, uint32_t run_ms)
{
    unsigned kib = (unsigned)(bytes >> 10);
    lua_State *L = state_open_in(mem, bytes);
    if (L == NULL) {
        port_printf("{\"runner\": \"gc_latency\", \"kind\": \"failed\", "
                    "\"units\": {\"kib\": \"KiB\"}, \"workload\": \"%s\", "
                    "\"kib\": %u}\n",
                    names[workload], kib);
        return;
    }
    pace_init(L);
    global_State *g = G(L);
    /* Workloads scale to what the bare state leaves free. */
    build(L, workload, bytes - arena_in_use(g->arena));
    nsteps = 0;
    g->stephook = hook;
    memset(&g->stats, 0, sizeof g->stats);
    uint32_t hz = port_cycle_hz();
    uint32_t t0 = port_cycles();
    uint32_t span = (uint32_t)((uint64_t)hz * run_ms / 1000);
    while (port_cycles() - t0 < span) {
        mutate(L, workload);
        pace_safepoint(L);
    }
    uint32_t t1 = port_cycles();
    g->stephook = NULL;
    pace_stop(L);
    /* With the records full, the MMU covers the recorded part only. */
    if (nsteps == MAX_STEPS)
        t1 = step_start[nsteps - 1] + step_len[nsteps - 1];
    uint32_t m[NWINDOWS];
    for (uint32_t i = 0; i < NWINDOWS; i++)
        m[i] = mmu(t0, t1, (uint32_t)((uint64_t)hz * windows_us[i] / 1000000));
    sort(step_len, nsteps);
    uint32_t worst = g->stats.worst_step_cycles;
    uint32_t med = nsteps ? step_len[nsteps / 2] : 0;
    uint32_t p999 = nsteps ? step_len[nsteps - 1 - nsteps / 1000] : 0;
    port_printf(
        "{\"runner\": \"gc_latency\", \"kind\": \"run\", \"units\": "
        "{\"kib\": \"KiB\", \"budget\": \"cycles\", \"worst\": \"cycles\", "
        "\"p999\": \"cycles\", \"median\": \"cycles\", "
        "\"peak_kib\": \"KiB\"}, \"workload\": \"%s\", \"kib\": %u, "
        "\"hz\": %u, \"budget\": %u, \"worst\": %u, \"p999\": %u, "
        "\"median\": %u, \"steps\": %u, \"kept\": %u, \"completed\": %u, "
        "\"emergencies\": %u, \"assists\": %u, \"peak_kib\": %u}\n",
        names[workload], kib, (unsigned)hz, (unsigned)g->stepbudget,
        (unsigned)worst, (unsigned)p999, (unsigned)med,
        (unsigned)g->stats.steps, (unsigned)nsteps,
        (unsigned)g->stats.cycles_completed, (unsigned)g->stats.emergencies,
        (unsigned)g->stats.assists, (unsigned)(arena_peak(g->arena) >> 10));
    for (uint32_t i = 0; i < nsteps;) { /* sorted: one bin after another */
        uint32_t lo = step_len[i] / HIST_BIN_CYCLES * HIST_BIN_CYCLES;
        uint32_t n = 0;
        while (i < nsteps && step_len[i] < lo + HIST_BIN_CYCLES) {
            n++;
            i++;
        }
        port_printf("{\"runner\": \"gc_latency\", \"kind\": \"hist\", "
                    "\"units\": {\"kib\": \"KiB\", \"bin\": \"cycles\"}, "
                    "\"workload\": \"%s\", \"kib\": %u, \"bin\": %u, "
                    "\"steps\": %u}\n",
                    names[workload], kib, (unsigned)lo, (unsigned)n);
    }
    for (uint32_t i = 0; i < NWINDOWS; i++)
        if (m[i] <= 1000)
            port_printf("{\"runner\": \"gc_latency\", \"kind\": \"mmu\", "
                        "\"units\": {\"kib\": \"KiB\", \"window_us\": "
                        "\"us\", \"permille\": \"1/1000\"}, "
                        "\"workload\": \"%s\", \"kib\": %u, "
                        "\"window_us\": %u, \"permille\": %u}\n",
                        names[workload], kib, (unsigned)windows_us[i],
                        (unsigned)m[i]);
    state_close(L);
}

int main(void)
{
    void *heap;
    size_t bytes;
    char *argv[4];
    int argc = port_args(argv, 4);
    uint32_t run_ms = RUN_MS;
    if (argc > 1 && strcmp(argv[1], "--smoke") == 0)
        run_ms = SMOKE_MS;
    port_heap(&heap, &bytes);
    port_printf("{\"runner\": \"gc_latency\", \"kind\": \"head\", "
                "\"units\": {\"hz\": \"Hz\", \"ms\": \"ms\"}, "
                "\"board\": \"%s\", \"hz\": %u, \"ms\": %u}\n",
                port_board(), (unsigned)port_cycle_hz(), (unsigned)run_ms);
    static const size_t sizes[] = {16u << 10, 64u << 10, 256u << 10, 1u << 20,
                                   4u << 20};
    for (int w = 0; w < 3; w++)
        for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            void *mem = heap;
            size_t n = sizes[s];
#ifdef BOARD_PSRAM_BASE
            if (n > bytes) /* the 4 MiB arena lives in PSRAM */
                mem = (void *)(uintptr_t)BOARD_PSRAM_BASE;
#endif
            if (n > bytes && mem == heap)
                continue;
            run(w, mem, n, run_ms);
        }
    return 0;
}
