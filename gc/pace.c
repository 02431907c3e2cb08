/*
 * pace.c — time-driven pacing of the collector (see pace.h).
 */
#include "gc/pace.h"
#include "gc/gc.h"
#include "port/port.h"
#include "vm/do.h"

static global_State *paced; /* the state the tick feeds */
void (*pace_safepoint_hook)(lua_State *L);

/* g->creditcap is a tick's share, and each tick sets the credit to it,
 * less the debt: what the collector did not use by the next tick is
 * lost, so it never catches up in a burst, and a 1 ms window holds at
 * most the bursts of its four ticks (at 4 kHz) and one more of a tick
 * that came late.  Paced steps that run past their credit (a step may
 * overrun its budget by one unit, and atomic borrows: pace_safepoint_)
 * leave a debt that the next tick withholds from its credit, so the
 * ticks' shares hold over any run of ticks.  The cap was a whole step
 * when that was more (2,500 cycles, against 1,562 at 25% of a 4 kHz
 * tick at 25 MHz): the credit a tick left unused, as a cycle became due
 * or a step stopped short, made a burst of a step and a half, and
 * deepco's and codie's worst 1 ms windows held one beside four of a
 * tick's (bench/gc_adversarial.lua, free mode at 4 MiB: 65% and 68% of
 * the windows for the mutator; 69% and 72% with the cap at a tick's). */
static void recompute(global_State *g)
{
    uint32_t hz = port_tick_hz();
    uint32_t per_tick = hz ? port_cycle_hz() / hz : 0;
    g->creditcap = (uint32_t)((uint64_t)per_tick * g->utilisation_pct / 100u);
    g->assistrate = g->creditcap / PACE_ASSIST_TICK_DIV;
}

static void on_tick(void)
{
    global_State *g = paced;
    if (g == NULL)
        return;
    gc_trace(port_cycles(), g->credit, GC_TRACE_TICK);
    /* (A debt is left only by a step that spent all the credit, and is
     * at most a tick's: the tick pays it whole.) */
    uint32_t d = g->creditdebt;
    g->credit = g->creditcap > d ? g->creditcap - d : 0;
    g->creditdebt = 0;
    g->assistspent = 0;
    g->stepflag = 1;
}

void pace_init(lua_State *L)
{
    global_State *g = G(L);
    g->utilisation_pct = PACE_UTILISATION_DEFAULT;
    /* The step budget is the state's (100 us unless changed). */
    g->credit = 0;
    recompute(g);
    paced = g;
    port_on_tick(on_tick);
}

void pace_stop(lua_State *L)
{
    G(L)->assistrate = 0;
    port_on_tick(NULL);
    paced = NULL;
}

void pace_set_utilisation(lua_State *L, uint32_t pct)
{
    global_State *g = G(L);
    g->utilisation_pct = pct > 100 ? 100 : pct;
    recompute(g);
}

void pace_set_assistcap(lua_State *L, uint32_t cycles)
{
    G(L)->assistcap = cycles;
}

void pace_set_budget(lua_State *L, uint32_t cycles, size_t reserve)
{
    global_State *g = G(L);
    if (cycles) {
        g->stepbudget = cycles;
        recompute(g);
    }
    if (reserve)
        g->reserve = reserve;
}

/* A tick may bring more than one step's worth of credit (whenever the
 * utilisation exceeds stepbudget / tick period: 25% of a 1 ms tick is 2.5
 * steps of 100 us).  The flag stays up while credit is left (at least a
 * fraction of a step: smaller remainders wait for the next tick) and the
 * collector has work, so the next safe points run the next steps.  Clearing it
 * after every step instead capped the collector at one step a tick (10%
 * there), and a fast allocator then outran it into emergency collections. */
static void spend(global_State *g, uint32_t used)
{
    int more = pace_has_work(&g->mainthread);
    port_irqstate s = port_critical_enter();
    if (used > g->credit) {
        /* at most a tick's: a slow __gc is the program's time, not a
         * debt that would starve the collector for many ticks */
        uint32_t over = used - g->credit, d = g->creditdebt;
        uint32_t room = g->creditcap > d ? g->creditcap - d : 0;
        g->creditdebt = d + (over < room ? over : room);
    }
    g->credit = used >= g->credit ? 0 : g->credit - used;
    g->stepflag = more && g->credit >= g->stepbudget / PACE_MIN_STEP_DIV;
    port_critical_exit(s);
}

int pace_held(global_State *g)
{
    if (!g->gchold)
        return 0;
    return g->bodyperiod == 0 || port_cycles() - g->bodystart <= g->bodyperiod;
}

void pace_safepoint_(lua_State *L)
{
    /* Short of C stack (vm/do.h), the step, the __gc calls and the hook
     * wait for a safe point higher up: the flag stays raised. */
    if (port_cstack_short(call))
        return;
    global_State *g = G(L);
    uint32_t budget = g->credit;
    if (!g->gcrunning || budget == 0 || pace_held(g)) {
        g->stepflag = 0;
    } else {
        /* A step that ended rather than start atomic late (gc.c:
         * atomic_cost) waits for a budget that holds it.  A tick's credit
         * (1,562 cycles at 25% of a 4 kHz tick) is less than most atomics
         * need, so a whole tick's credit (no debt left) may borrow up to
         * a step budget; the next tick pays the debt, and since it then
         * brings less than a whole credit, it cannot borrow again. */
        if (budget > g->stepbudget ||
            (g->atomicwait && budget >= g->creditcap))
            budget = g->stepbudget;
        g->stats.paced++;
        uint32_t t0 = port_cycles();
        uint32_t used = gc_step_from(L, budget, t0);
        /* Then the finalizers, a few, in what is left of the same budget
         * (outside the step: __gc is the program's code, of any length).
         * The credit pays for all of it, the step's bookkeeping too: its
         * own figure leaves out a few hundred cycles a step, which made
         * the paced share of a tick 29% at 25% (findie at shift=5). */
        if (g->tobefnz != NULL && used < budget) {
            gc_finalize_for(L, GC_FINALIZE_MAX, budget - used);
            used = port_cycles() - t0;
        } else if (used == 0) {
            used = port_cycles() - t0; /* no step: what the call took */
        }
        spend(g, used);
    }
    /* After the paced step, not before it: the calls are the program's
     * time, of any length, and a tick's burst that waited for them began
     * late in its tick, so that a 1 ms window held it and the next four
     * ticks' bursts whole (findie: 66.3% of a window to the mutator). */
    if (g->fnzdue && !g->gchold) {
        /* An assist's share of the __gc calls: allocation owes one per
         * object it set for finalization (g->fnzowed), so while a whole
         * batch ran and calls are owed, the next safe point runs the
         * next batch.  Finalizable garbage is freed only once its __gc
         * ran: the calls keep pace with the objects made, and tobefnz
         * cannot grow behind them however late the paced steps are. */
        g->fnzdue = 0;
        if (gc_finalize(L, GC_FINALIZE_MAX) == GC_FINALIZE_MAX &&
            g->fnzowed != 0 && g->tobefnz != NULL)
            g->fnzdue = 1;
    }
    if (g->fnzdue)
        g->stepflag = 1;
    if (pace_safepoint_hook != NULL) {
        /* The hook (rt.on's delivery) calls Lua through the C API, whose
         * lua_checkstack raises the running frame's top; at a VM safe
         * point that is a Lua frame's own top, and raising it at every
         * delivery grew the frame by 4 slots an event (on microbit a
         * handler call then ran out of memory growing the stack). */
        ptrdiff_t citop = L->ci->top - L->stack;
        pace_safepoint_hook(L);
        L->ci->top = L->stack + citop;
    }
}

int pace_has_work(lua_State *L)
{
    global_State *g = G(L);
    return g->gcphase != GC_PAUSE || g->tobefnz != NULL || gc_cycle_due(g);
}

uint32_t pace_idle_until(lua_State *L, uint32_t deadline)
{
    global_State *g = G(L);
    uint32_t spent = 0;
    int ran = 0, putoff = 0; /* __gc calls run, and put off */
    /* An emergency in the slack catches up until the deadline (gc.h).
     * (Nested, from a handler's own loop, the outer slack comes back.) */
    uint8_t inslack = g->inslack;
    uint32_t slackend = g->slackend;
    g->inslack = 1;
    g->slackend = deadline;
    for (;;) {
        if (pace_safepoint_hook != NULL)
            pace_safepoint_hook(L);
        int32_t left = (int32_t)(deadline - port_cycles());
        /* An interrupt (rtlua_interrupt) ends the wait: the caller's next
         * safe point raises it, not one a period later. */
        if (left <= 0 || g->interrupt)
            break;
        if (g->gcrunning && pace_has_work(L)) {
            uint32_t b = (uint32_t)left;
            if (b > g->stepbudget)
                b = g->stepbudget;
            /* With __gc calls pending, the step leaves room for the one
             * expected next, when the slack holds it: a whole step
             * first, and a call was put off at every slack too short
             * for both, the objects waiting until memory ran short. */
            uint32_t est = gc_finalize_expected(g);
            if (g->tobefnz != NULL && est < (uint32_t)left &&
                (uint32_t)left - est < b)
                b = (uint32_t)left - est;
            uint32_t t0 = port_cycles();
            gc_step(L, b);
            /* The __gc calls that fit in what is left before the
             * deadline (a batch of four whatever their length made a
             * loop whose bodies take a tenth of the period late by a
             * whole period at shift=5). */
            left = (int32_t)(deadline - port_cycles());
            if (g->tobefnz != NULL && left > 0) {
                int off;
                if (gc_finalize_fit(L, GC_FINALIZE_MAX, (uint32_t)left, &off) >
                    0)
                    ran = 1;
                putoff |= off;
            } else if (g->tobefnz != NULL) {
                putoff = 1; /* the step took what was left */
            }
            spent += port_cycles() - t0;
        } else if (port_may_sleep((uint32_t)left)) {
            port_idle();
        }
    }
    if (putoff && !ran && g->tobefnz != NULL)
        gc_finalize_starved(g);
    g->inslack = inslack;
    g->slackend = slackend;
    return spent;
}
