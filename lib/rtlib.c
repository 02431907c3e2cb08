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

static void timeout_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    if (timeout_deadline != 0 && port_cycles64() >= timeout_deadline)
        luaL_error(L, "deadline exceeded");
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

/* rt.stats' output: every field into the table on the stack's top, or,
 * when want names one field, that field's value alone (no table, no key
 * string made: a small board's arena cannot always hold the table). */
typedef struct {
    lua_State *L;
    const char *want;
    int found;
} statout;

/* Is field k wanted?  Then the caller pushes its value and calls
 * stat_put. */
static int stat_wants(const statout *o, const char *k)
{
    return o->want == NULL || (!o->found && strcmp(o->want, k) == 0);
}

static void stat_put(statout *o, const char *k)
{
    if (o->want == NULL)
        lua_setfield(o->L, -2, k);
    else
        o->found = 1;
}

static void stat_int(statout *o, const char *k, lua_Integer v)
{
    if (stat_wants(o, k)) {
        lua_pushinteger(o->L, v);
        stat_put(o, k);
    }
}

static void stat_num(statout *o, const char *k, lua_Number v)
{
    if (stat_wants(o, k)) {
        lua_pushnumber(o->L, v);
        stat_put(o, k);
    }
}

/* Sizes and counts as integers; totals wider than lua_Integer (64-bit
 * sums in the 32-bit model) saturate. */
static lua_Integer clampi(uint64_t v)
{
    const uint64_t max = (uint64_t)(LUA_MAXINTEGER);
    return (lua_Integer)(v > max ? max : v);
}

/* rt.stats() returns the table of the collector's and the event ring's
 * figures; rt.stats(name) returns its field name only. */
static int rt_stats(lua_State *L)
{
    rtlua_GCStats s;
    rt_post_stats p;
    statout o = {L, NULL, 0};
    int reset = 0;
    if (!lua_isnoneornil(L, 1)) {
        o.want = luaL_checkstring(L, 1);
        if (strcmp(o.want, "reset") == 0) {
            reset = 1;
            o.want = NULL;
        }
    }
    rtlua_gcstats(L, &s);
    if (reset)
        rtlua_gcstats_reset(L);
    rt_post_getstats(&p);
    if (o.want == NULL)
        lua_createtable(L, 0, 40);
    /* hist[i] counts steps of [2^(i-1), 2^i) cycles; the median and
     * p99.9 come from the kept step lengths (rtlua_gcstats: exact until
     * there are more steps than samples, then quantiles_sampled is true). */
    if (stat_wants(&o, "hist")) {
        lua_createtable(L, RTLUA_GC_HIST_BUCKETS, 0);
        for (int i = 0; i < RTLUA_GC_HIST_BUCKETS; i++) {
            lua_pushinteger(L, (lua_Integer)s.hist[i]);
            lua_rawseti(L, -2, i + 1);
        }
        stat_put(&o, "hist");
    }
    stat_num(&o, "median_step_us", cycles_to_us(s.median_step_cycles));
    stat_num(&o, "p999_step_us", cycles_to_us(s.p999_step_cycles));
    if (stat_wants(&o, "quantiles_sampled")) {
        lua_pushboolean(L, s.quantiles_sampled);
        stat_put(&o, "quantiles_sampled");
    }
    stat_num(&o, "worst_emergency_us", cycles_to_us(s.worst_emergency_cycles));
    stat_num(&o, "worst_rehash_us", cycles_to_us(s.worst_rehash_cycles));
    stat_num(&o, "worst_intern_us", cycles_to_us(s.worst_intern_cycles));
    stat_num(&o, "worst_finalizer_us", cycles_to_us(s.worst_finalizer_cycles));
    stat_int(&o, "finalizers", clampi(s.finalizers));
    stat_num(&o, "worst_unit_us", cycles_to_us(s.worst_unit_cycles));
    if (stat_wants(&o, "worst_unit_phase")) {
        static const char *const phases[] = {"pause",        "propagate",
                                             "atomic",       "clearweak",
                                             "sweep_string", "sweep_objects"};
        unsigned ph = (unsigned)s.worst_unit_phase;
        lua_pushstring(L, ph < sizeof phases / sizeof phases[0] ? phases[ph]
                                                                : "?");
        stat_put(&o, "worst_unit_phase");
    }
    stat_int(&o, "steps", clampi(s.steps));
    stat_int(&o, "worst_step_cycles", clampi(s.worst_step_cycles));
    stat_num(&o, "worst_step_us", cycles_to_us(s.worst_step_cycles));
    stat_int(&o, "cycles_completed", clampi(s.cycles_completed));
    stat_int(&o, "emergencies", clampi(s.emergencies));
    stat_int(&o, "assists", clampi(s.assists));
    stat_int(&o, "assists_deferred", clampi(s.assists_deferred));
    stat_int(&o, "assist_units", clampi(s.assist_units));
    stat_int(&o, "worst_body_assists", clampi(s.worst_body_assists));
    stat_num(&o, "worst_body_assist_us",
             cycles_to_us(s.worst_body_assist_cycles));
    stat_int(&o, "emergencies_failed", clampi(s.emergencies_failed));
    stat_int(&o, "paced_steps", clampi(s.paced));
    stat_int(&o, "bytes_freed", clampi(s.bytes_freed));
    stat_int(&o, "step_cycles_total", clampi(s.step_cycles_total));
    stat_int(&o, "protos_traversed", clampi(s.protos_traversed));
    stat_int(&o, "in_use", clampi(s.bytes_in_use));
    stat_int(&o, "free", clampi(s.bytes_free));
    stat_int(&o, "largest_free", clampi(s.largest_free));
    stat_int(&o, "arena", clampi(s.capacity));
    stat_int(&o, "events_posted", clampi(p.posted));
    stat_int(&o, "events_dropped", clampi(p.dropped));
    stat_int(&o, "events_delivered", clampi(p.delivered));
    stat_int(&o, "events_unhandled", clampi(p.unhandled));
    stat_int(&o, "handler_errors", clampi(p.errors));
    stat_int(&o, "ring_size", RT_POST_RING);
    if (stat_wants(&o, "clock")) {
        lua_pushstring(L, port_cycle_source());
        stat_put(&o, "clock");
    }
    if (o.want != NULL && !o.found)
        return luaL_argerror(L, 1,
                             lua_pushfstring(L, "unknown field '%s'", o.want));
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
