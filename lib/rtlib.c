/*
 * rtlib.c — the `rt` library: time, real-time loops, the collector's
 * budget and figures, interrupt events.
 *
 *   rt.ticks()  rt.cycles()  rt.hz()
 *   rt.loop(period_ms, fn [, count]) -> {iterations=, misses=,
 *                                        worst_late_us=, assists=,
 *                                        worst_body_assists=,
 *                                        worst_body_assist_us=}
 *                                        (fn(late_us) each period)
 *   rt.budget(fraction) | rt.budget{cycles=, reserve=, assist=}
 *                        -> fraction, cycles, reserve, assist (after the
 *                           change; assist 0: one step's cycles)
 *   rt.stats(["reset"]) -> table of the collector's and the event ring's
 *                 figures ("reset": then the collector's start afresh,
 *                 e.g. to leave a program's loading out of them),
 *                 and `clock`: what rt.cycles counts ("systick" or "dwt"
 *                 on a board, "host": wall-clock nanoseconds, which a
 *                 loaded host makes noisy).  Among them: assists (assist
 *                 steps), assists_deferred (skipped: a body had spent its
 *                 cap), assist_units (their work), worst_body_assists and
 *                 worst_body_assist_us (the most in one rt.loop body, of
 *                 any loop), emergencies and emergencies_failed (those
 *                 that ended in "not enough memory"), worst_unit_us and
 *                 worst_unit_phase (the longest unit of work of any step,
 *                 what a step may overrun its budget by, and its phase),
 *                 worst_rehash_us and worst_intern_us (the program's own
 *                 longest table growth work in one store and interning
 *                 during a string-table resize, collector steps inside
 *                 them left out) beside worst_finalizer_us
 *   rt.stats(name) -> that field alone, without making the table (the
 *                 table is some forty fields: 2.7 KB on microbit)
 *   rt.stats("trace") -> in a build with RTLUA_GC_TRACE, the collector's
 *                 last steps, emergencies and ticks: {start, cycles,
 *                 kind, ...} (rtlua.h: rtlua_pushgctrace); an error in
 *                 others
 *   rt.on(event, fn|nil) -> the previous handler
 *   rt.post(event, value) -> true, or false when the ring is full
 *   rt.poll() -> events delivered now
 *   rt.timeout(ms, fn, ...) -> fn(...)'s results, or the error
 *                              "deadline exceeded" once ms have passed
 *   (hardware timers' events: hw.timer, lib/hwlib.c)
 *
 * rt.loop keeps absolute release times: iteration k is released at
 * r_k = t0 + k * period (t0: the call), so lateness never accumulates
 * into drift.  Between iterations the slack goes to the collector
 * and to event delivery (rtlua_idleuntil, include/rtlua.h).  The loop never
 * skips a release: after an overrun the late iterations run back to back
 * until the schedule is caught up.  fn returning false ends the loop.
 * fn itself runs without paced collector steps (rtlua_bodybegin): a control
 * loop's own work is not interrupted, but by the assist steps that
 * allocation runs when free memory is under the reserve, and those are
 * capped per body: at most rt.budget's `assist` cycles in all (default
 * one step budget, 100 us), assists and an emergency's catch-up together
 * (gc.h), plus one work unit; a body that has overrun its whole period
 * has missed anyway, and from then on may spend the collector's
 * utilisation share of its time.  What the cap leaves owed is paid in the
 * slack.  An allocation the catch-up cannot serve raises "not enough
 * memory" in fn (pcall catches it); no whole collection runs in a body.
 * The result counts the bodies' assist steps (assists), the most in one
 * body (worst_body_assists) and the most time they took in one body
 * (worst_body_assist_us, catch-up included).
 *
 * rt.timeout runs fn with a deadline: a count hook, every
 * TIMEOUT_HOOK_EVERY instructions, raises "deadline exceeded" in fn once
 * it has passed, and so do the library's long C loops (table.move over
 * any range, a pattern's backtracking), which run the count hook every
 * RTLUA_POLL_EVERY iterations (rtlua_poll).  The hook replaces the
 * thread's own while fn runs (as the REPL's does), and is put back after;
 * an inner timeout keeps the sooner of the two deadlines.  fn runs in
 * protected mode and may not yield; coroutines it resumes run without the
 * deadline (hooks belong to a thread).
 */
#include <stddef.h>
#include <string.h>

#include "lauxlib.h"
#include "lib/lib.h"
#include "lua.h"
#include "port/port.h"
#include "romtab.h"
#include "rtlua.h"

#define US_PER_S 1000000.0
#define MS_PER_S 1000.0
/* Longest period: half the cycle counter's range, so that differences
 * of release times stay exact as signed 32-bit values. */
#define PERIOD_MAX_CYCLES 0x7fffffffu
/* Instructions between two looks at rt.timeout's deadline (40 us at
 * 25 MHz): how late the error may come, at most, in Lua code. */
#define TIMEOUT_HOOK_EVERY 1000
/* The longest timeout, in milliseconds (a year). */
#define TIMEOUT_MAX_MS (365.0 * 24 * 3600 * 1000)

/* The running rt.timeout's deadline (port_cycles64), 0: none. */
static uint64_t timeout_deadline;

/* The message is made without formatting (no position): formatting
 * needs the error kind's reserve of C stack (port/port.h), which a hook
 * polled deep in a C loop may not have (a pattern's backtracking on
 * microbit's 64-bit model), where the pre-made message needs only the
 * poll kind's (rtlua_poll). */
static void timeout_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    if (timeout_deadline != 0 && port_cycles64() >= timeout_deadline) {
        lua_pushliteral(L, "deadline exceeded");
        lua_error(L);
    }
}

static int rt_timeout(lua_State *L)
{
    lua_Number ms = luaL_checknumber(L, 1);
    luaL_argcheck(L, ms >= 0 && ms <= TIMEOUT_MAX_MS, 1,
                  "timeout out of range");
    luaL_checktype(L, 2, LUA_TFUNCTION);
    uint64_t deadline =
        port_cycles64() +
        (uint64_t)((double)ms * (double)port_cycle_hz() / MS_PER_S) + 1u;
    uint64_t outer = timeout_deadline;
    if (outer != 0 && outer < deadline)
        deadline = outer;
    lua_Hook hook = lua_gethook(L);
    int mask = lua_gethookmask(L), count = lua_gethookcount(L);
    timeout_deadline = deadline;
    lua_sethook(L, timeout_hook, LUA_MASKCOUNT, TIMEOUT_HOOK_EVERY);
    int base = 2; /* fn and its arguments are above the duration */
    int status = lua_pcall(L, lua_gettop(L) - base, LUA_MULTRET, 0);
    timeout_deadline = outer;
    lua_sethook(L, hook, mask, count);
    if (status != LUA_OK)
        return lua_error(L);
    return lua_gettop(L) - 1;
}

static int rt_ticks(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)port_ticks());
    return 1;
}

/* Cycles since start-up; with 32-bit integers it wraps, but differences
 * of readings less than 2^31 cycles apart are still right. */
static int rt_cycles(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)port_cycles64());
    return 1;
}

static int rt_hz(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)port_cycle_hz());
    return 1;
}

static lua_Number cycles_to_us(uint32_t c)
{
    return (lua_Number)((double)c * US_PER_S / (double)port_cycle_hz());
}

/* rt.loop(period_ms, fn [, count]).
 * Iteration k (k = 0, 1, ...) is released at r_k = t0 + k*period and
 * starts at s_k (just before fn is called); its lateness is s_k - r_k.
 * A miss is an iteration with s_k > r_k + period: it started after the
 * next release, i.e. the previous iteration (fn plus any collector work
 * at its safe points) overran a whole period.  worst_late_us is the
 * largest lateness seen, in microseconds at port_cycle_hz; fn gets its
 * own iteration's lateness (in microseconds) as its argument. */
static int rt_loop(lua_State *L)
{
    lua_Number ms = luaL_checknumber(L, 1);
    luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_Integer count = luaL_optinteger(L, 3, -1);
    double cyc = (double)ms * (double)port_cycle_hz() / MS_PER_S;
    luaL_argcheck(L, cyc >= 1.0 && cyc <= (double)PERIOD_MAX_CYCLES, 1,
                  "period out of range");
    uint32_t period = (uint32_t)cyc;
    uint32_t release = port_cycles();
    uint32_t worst = 0, worst_assist_cycles = 0, worst_assists = 0;
    lua_Integer iterations = 0, misses = 0, assists = 0;
    while (count < 0 || iterations < count) {
        LOOP_STEP(L);
        rtlua_idleuntil(L, release);
        uint32_t start = port_cycles();
        int32_t late = (int32_t)(start - release);
        if (late > 0) {
            if ((uint32_t)late > worst)
                worst = (uint32_t)late;
            if ((uint32_t)late > period)
                misses++;
        }
        lua_pushvalue(L, 2);
        lua_pushnumber(L, late > 0 ? cycles_to_us((uint32_t)late) : 0);
        /* The body runs without paced steps (assists still run when
         * memory is short); its slack goes to the collector instead.  An
         * error unwinding it ends it (rtlua_bodybegin). */
        int hold = rtlua_bodybegin(L, period);
        lua_call(L, 1, 1);
        uint32_t body_assists, body_assist_cycles;
        rtlua_bodyend(L, hold, &body_assists, &body_assist_cycles);
        assists += body_assists;
        if (body_assists > worst_assists)
            worst_assists = body_assists;
        if (body_assist_cycles > worst_assist_cycles)
            worst_assist_cycles = body_assist_cycles;
        int stop = lua_type(L, -1) == LUA_TBOOLEAN && !lua_toboolean(L, -1);
        lua_pop(L, 1);
        iterations++;
        release += period;
        if (stop)
            break;
    }
    lua_createtable(L, 0, 6);
    lua_pushinteger(L, iterations);
    lua_setfield(L, -2, "iterations");
    lua_pushinteger(L, misses);
    lua_setfield(L, -2, "misses");
    lua_pushnumber(L, cycles_to_us(worst));
    lua_setfield(L, -2, "worst_late_us");
    lua_pushinteger(L, assists);
    lua_setfield(L, -2, "assists");
    lua_pushinteger(L, (lua_Integer)worst_assists);
    lua_setfield(L, -2, "worst_body_assists");
    lua_pushnumber(L, cycles_to_us(worst_assist_cycles));
    lua_setfield(L, -2, "worst_body_assist_us");
    return 1;
}

static lua_Integer opt_field(lua_State *L, const char *name)
{
    lua_Integer v = 0;
    if (lua_getfield(L, 1, name) != LUA_TNIL) {
        int isint;
        v = lua_tointegerx(L, -1, &isint);
        if (!isint || v < 0)
            luaL_error(L,
                       "bad field '%s' to 'budget' (non-negative "
                       "integer expected)",
                       name);
    }
    lua_pop(L, 1);
    return v;
}

/* rt.budget(fraction) sets the share of each tick the collector gets;
 * rt.budget{cycles=, reserve=, assist=} the cycles per step, the free-byte
 * reserve and the cycles of assists per rt.loop body (absent fields
 * unchanged; assist=0 makes it one step's cycles again).  Both return the
 * settings. */
static int rt_budget(lua_State *L)
{
    if (lua_istable(L, 1)) {
        lua_Integer cycles = opt_field(L, "cycles");
        lua_Integer reserve = opt_field(L, "reserve");
        if (lua_getfield(L, 1, "assist") != LUA_TNIL)
            rtlua_setassistcap(L, (uint32_t)opt_field(L, "assist"));
        lua_pop(L, 1);
        rtlua_setbudget(L, (uint32_t)cycles, (size_t)reserve);
    } else if (!lua_isnoneornil(L, 1)) {
        lua_Number f = luaL_checknumber(L, 1);
        luaL_argcheck(L, f >= 0 && f <= 1, 1, "fraction out of [0, 1]");
        rtlua_setutilisation(L, (uint32_t)(f * 100 + (lua_Number)0.5));
    }
    rtlua_Budget b;
    rtlua_getbudget(L, &b);
    lua_pushnumber(L, (lua_Number)b.utilisation_pct / 100);
    lua_pushinteger(L, (lua_Integer)b.step_cycles);
    lua_pushinteger(L, (lua_Integer)b.reserve);
    lua_pushinteger(L, (lua_Integer)b.assist_cycles);
    return 4;
}

/* Sizes and counts as integers; totals wider than lua_Integer (64-bit
 * sums in the 32-bit model) saturate. */
static lua_Integer clampi(uint64_t v)
{
    const uint64_t max = (uint64_t)(LUA_MAXINTEGER);
    return (lua_Integer)(v > max ? max : v);
}

/* rt.stats' fields in their order: where each value lies (a field of
 * rtlua_GCStats or of rt_post_stats, at off) and how it is shown. */
enum {
    ST_U32,   /* uint32_t, an integer */
    ST_U64,   /* uint64_t, an integer (saturated, clampi) */
    ST_SIZE,  /* size_t, an integer */
    ST_US,    /* uint32_t cycles, as microseconds */
    ST_POST,  /* uint32_t of rt_post_stats, an integer */
    ST_HIST,  /* the histogram, a table */
    ST_BOOL,  /* int, a boolean */
    ST_PHASE, /* int, the name of a phase */
    ST_RING,  /* RT_POST_RING */
    ST_CLOCK  /* port_cycle_source() */
};
typedef struct {
    const char *name;
    uint8_t kind;
    uint8_t off;
} statfield;
#define GS(kind, name, field)                                                 \
    {                                                                         \
        name, kind, offsetof(rtlua_GCStats, field)                            \
    }
#define PS(name, field)                                                       \
    {                                                                         \
        name, ST_POST, offsetof(rt_post_stats, field)                         \
    }
static const statfield stat_fields[] = {
    /* hist[i] counts steps of [2^(i-1), 2^i) cycles; the median and
     * p99.9 come from the kept step lengths (rtlua_gcstats: exact until
     * there are more steps than samples, then quantiles_sampled is true). */
    GS(ST_HIST, "hist", hist),
    GS(ST_US, "median_step_us", median_step_cycles),
    GS(ST_US, "p999_step_us", p999_step_cycles),
    GS(ST_BOOL, "quantiles_sampled", quantiles_sampled),
    GS(ST_US, "worst_emergency_us", worst_emergency_cycles),
    GS(ST_US, "worst_rehash_us", worst_rehash_cycles),
    GS(ST_US, "worst_intern_us", worst_intern_cycles),
    GS(ST_US, "worst_finalizer_us", worst_finalizer_cycles),
    GS(ST_U32, "finalizers", finalizers),
    GS(ST_US, "worst_unit_us", worst_unit_cycles),
    GS(ST_PHASE, "worst_unit_phase", worst_unit_phase),
    GS(ST_U32, "steps", steps),
    GS(ST_U32, "worst_step_cycles", worst_step_cycles),
    GS(ST_US, "worst_step_us", worst_step_cycles),
    GS(ST_U32, "cycles_completed", cycles_completed),
    GS(ST_U32, "emergencies", emergencies),
    GS(ST_U32, "assists", assists),
    GS(ST_U32, "assists_deferred", assists_deferred),
    GS(ST_U64, "assist_units", assist_units),
    GS(ST_U32, "worst_body_assists", worst_body_assists),
    GS(ST_US, "worst_body_assist_us", worst_body_assist_cycles),
    GS(ST_U32, "emergencies_failed", emergencies_failed),
    GS(ST_U32, "paced_steps", paced),
    GS(ST_U64, "bytes_freed", bytes_freed),
    GS(ST_U64, "step_cycles_total", step_cycles_total),
    GS(ST_U64, "protos_traversed", protos_traversed),
    GS(ST_SIZE, "in_use", bytes_in_use),
    GS(ST_SIZE, "free", bytes_free),
    GS(ST_SIZE, "largest_free", largest_free),
    GS(ST_SIZE, "arena", capacity),
    PS("events_posted", posted),
    PS("events_dropped", dropped),
    PS("events_delivered", delivered),
    PS("events_unhandled", unhandled),
    PS("handler_errors", errors),
    {"ring_size", ST_RING, 0},
    {"clock", ST_CLOCK, 0},
};
#undef GS
#undef PS
_Static_assert(sizeof(rtlua_GCStats) <= 256, "statfield's offsets are bytes");

/* Push field f's value from s and p. */
static void stat_push(lua_State *L, const statfield *f, const rtlua_GCStats *s,
                      const rt_post_stats *p)
{
    const char *at = (const char *)s + f->off;
    uint32_t u32;
    switch (f->kind) {
    case ST_U64: {
        uint64_t v;
        memcpy(&v, at, sizeof v);
        lua_pushinteger(L, clampi(v));
        return;
    }
    case ST_SIZE: {
        size_t v;
        memcpy(&v, at, sizeof v);
        lua_pushinteger(L, clampi(v));
        return;
    }
    case ST_HIST:
        lua_createtable(L, RTLUA_GC_HIST_BUCKETS, 0);
        for (int i = 0; i < RTLUA_GC_HIST_BUCKETS; i++) {
            lua_pushinteger(L, (lua_Integer)s->hist[i]);
            lua_rawseti(L, -2, i + 1);
        }
        return;
    case ST_BOOL:
        lua_pushboolean(L, s->quantiles_sampled);
        return;
    case ST_PHASE: {
        static const char *const phases[] = {"pause",        "propagate",
                                             "atomic",       "clearweak",
                                             "sweep_string", "sweep_objects"};
        unsigned ph = (unsigned)s->worst_unit_phase;
        lua_pushstring(L, ph < sizeof phases / sizeof phases[0] ? phases[ph]
                                                                : "?");
        return;
    }
    case ST_RING:
        lua_pushinteger(L, RT_POST_RING);
        return;
    case ST_CLOCK:
        lua_pushstring(L, port_cycle_source());
        return;
    case ST_POST:
        at = (const char *)p + f->off;
        break;
    default:
        break;
    }
    memcpy(&u32, at, sizeof u32);
    if (f->kind == ST_US)
        lua_pushnumber(L, cycles_to_us(u32));
    else
        lua_pushinteger(L, clampi(u32));
}

/* rt.stats() returns the table of the collector's and the event ring's
 * figures; rt.stats(name) returns its field name only (no table, no key
 * string made: a small board's arena cannot always hold the table). */
static int rt_stats(lua_State *L)
{
    rtlua_GCStats s;
    rt_post_stats p;
    const char *want = NULL;
    int reset = 0;
    if (!lua_isnoneornil(L, 1)) {
        want = luaL_checkstring(L, 1);
        if (strcmp(want, "trace") == 0) {
            if (rtlua_pushgctrace(L))
                return 1;
            return luaL_argerror(L, 1,
                                 "no trace in this build "
                                 "(RTLUA_GC_TRACE)");
        }
        if (strcmp(want, "reset") == 0) {
            reset = 1;
            want = NULL;
        }
    }
    rtlua_gcstats(L, &s);
    if (reset)
        rtlua_gcstats_reset(L);
    rt_post_getstats(&p);
    if (want == NULL)
        lua_createtable(L, 0, 40);
    for (size_t i = 0; i < sizeof stat_fields / sizeof stat_fields[0]; i++) {
        const statfield *f = &stat_fields[i];
        if (want == NULL) {
            stat_push(L, f, &s, &p);
            lua_setfield(L, -2, f->name);
        } else if (strcmp(want, f->name) == 0) {
            stat_push(L, f, &s, &p);
            return 1;
        }
    }
    if (want != NULL)
        return luaL_argerror(L, 1,
                             lua_pushfstring(L, "unknown field '%s'", want));
    return 1;
}

static int check_event(lua_State *L, int arg)
{
    lua_Integer e = luaL_checkinteger(L, arg);
    luaL_argcheck(L, e >= 0 && e < RT_IRQ_MAX, arg, "event out of range");
    return (int)e;
}

/* rt.on(event, fn): fn(value, event) runs at a safe point for each event
 * posted under that number; nil removes the handler. */
static int rt_on(lua_State *L)
{
    int e = check_event(L, 1);
    if (!lua_isnoneornil(L, 2))
        luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_settop(L, 2);
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &rt_handlers_key) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_createtable(L, 0, 0);
        lua_pushvalue(L, -1);
        lua_rawsetp(L, LUA_REGISTRYINDEX, &rt_handlers_key);
    }
    lua_rawgeti(L, 3, e); /* the previous handler */
    lua_pushvalue(L, 2);
    lua_rawseti(L, 3, e);
    return 1;
}

static int rt_post_lua(lua_State *L)
{
    int e = check_event(L, 1);
    lua_Integer v = luaL_optinteger(L, 2, 0);
    lua_pushboolean(L, rt_post(L, e, v));
    return 1;
}

static int rt_poll(lua_State *L)
{
    lua_pushinteger(L, rt_post_dispatch(L));
    return 1;
}

int luaopen_rt(lua_State *L)
{
    rtlua_pushrom(L, &romtab_rt);
    return 1;
}

#define ROMTAB_FILE_rtlib
#include "romtab.inc"
