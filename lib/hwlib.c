/*
 * hwlib.c — the `hw` library: the board's pins, ADC, UARTs, timers and
 * watchdog, and checked register access, from the board's description
 * (port/hw.h).
 *
 *   hw.pin(name|number [, mode]) -> pin    mode "in", "out", "pullup",
 *       "pulldown" (default: "in", or "out" for a pin that has no input)
 *     pin:on()  pin:off()  pin:toggle()  pin:value([v]) -> level (0|1)
 *     pin:mode([mode]) -> mode
 *   hw.adc(channel) -> adc;  adc:read() -> raw integer;  adc:bits()
 *   hw.uart(n, baud [, fn]) -> uart: non-blocking; received bytes wait in
 *       a ring, and each time it stops being empty the event uart:event()
 *       is posted, with the bytes waiting as the value: fn is its handler
 *       (rt.on; none when fn is nil)
 *     uart:write(s) -> bytes taken (those that fit)  uart:read([n]) ->
 *     string or nil  uart:any() -> bytes waiting  uart:close()
 *     uart:event()  uart:overruns()
 *   hw.timer(n, hz [, fn]) -> timer: every 1/hz s its interrupt posts the
 *       event timer:event() with the count of expiries (1, 2, ...) as the
 *       value: fn is its handler (rt.on; none when fn is nil)
 *     timer:stop()  timer:count()  timer:event()
 *   hw.watchdog(ms) -> watchdog: unfed for ms, the board resets, and the
 *       next boot's hw.info().reset_cause is "watchdog";  watchdog:feed()
 *   hw.mem32(addr [, v])  hw.mem16  hw.mem8: read (or write) a register;
 *       an address outside the board's peripheral ranges, or not aligned
 *       to the access, is an error (never a bus fault)
 *   hw.info() -> {board=, core=, clock_hz=, flash=, ram=, reset_cause=,
 *                 uid=, pins=, adc_channels=, uarts={n...}, timers=,
 *                 watchdog=}
 *   hw.reset(): a software reset (the next boot's cause is "software")
 *
 * Opening hw costs no RAM (its tables are ROM tables); each object is a
 * userdata made when asked for.  Timers and UARTs post through rt_post
 * from their interrupts (port_irq_attach), whose handler here touches only
 * the object's volatile fields and the device: the Lua handlers run at
 * the VM's safe points.  One object owns a timer or a UART at a time
 * (it is its interrupt's argument): opening it again closes the previous
 * object (whose methods then raise "closed").  An object collected, or the
 * state closed, stops its device.
 */
#include "lauxlib.h"
#include "lua.h"
#include "port/hw.h"
#include "port/port.h"
#include "romtab.h"
#include "rtlua.h"

#include <string.h>

/* Bytes of a UART's receive and transmit rings (powers of two). */
#ifndef HW_UART_RING
#define HW_UART_RING 64
#endif
_Static_assert((HW_UART_RING & (HW_UART_RING - 1)) == 0 && HW_UART_RING <= 128,
               "HW_UART_RING: a power of two, at most 128");
/* The shortest timer period, in CPU cycles.  An event costs some 1,130
 * instructions from the interrupt to an empty handler's return (the
 * post, the safe point's delivery, the call; measured on mps2-an385 and
 * lm3s6965evb, bench/results/hw.md): at this period that is under half a
 * core that runs an instruction a cycle, and a faster timer would leave
 * the script little or nothing (10 kHz at mps2's 25 MHz; 20 kHz at
 * lm3s6965evb's 50 MHz, 6.4 kHz at the micro:bit's 16 MHz). */
#define HW_TIMER_MIN_CYCLES 2500u
/* Bytes of the uid's text ("0x" and two digits a byte). */
#define HW_UID_MAX 16

static const char *const mode_names[] = {"in", "out", "pullup", "pulldown",
                                         NULL};

/* ---- Objects ------------------------------------------------------------ */

typedef struct hw_pin_obj {
    const hw_port *port;
    uint16_t number;
    uint8_t bit;
    uint8_t mode;
} hw_pin_obj;

typedef struct hw_adc_obj {
    const hw_adc *adc;
    uint8_t channel;
} hw_adc_obj;

typedef struct hw_uart_obj {
    const hw_uart *u;
    lua_State *L; /* the state's main thread, posted to */
    volatile uint8_t rxh, rxt, txh, txt; /* free-running ring indices */
    volatile uint8_t posted;             /* an event is out and unread */
    uint8_t open;
    int event;
    volatile uint32_t overruns; /* bytes dropped: the receive ring full */
    uint8_t rx[HW_UART_RING], tx[HW_UART_RING];
} hw_uart_obj;

typedef struct hw_timer_obj {
    const hw_timer *t;
    lua_State *L;
    volatile lua_Integer count;
    int event;
    uint8_t open;
} hw_timer_obj;

static void *check_obj(lua_State *L, int idx, const void *meta,
                       const char *name)
{
    void *p = lua_touserdata(L, idx);
    if (p != NULL && lua_getmetatable(L, idx)) {
        int ok = lua_topointer(L, -1) == meta;
        lua_pop(L, 1);
        if (ok)
            return p;
    }
    luaL_typeerror(L, idx, name);
    return NULL;
}

static void *new_obj(lua_State *L, size_t size, const void *meta)
{
    void *p = lua_newuserdatauv(L, size, 0);
    memset(p, 0, size);
    rtlua_pushrom(L, meta);
    lua_setmetatable(L, -2);
    return p;
}

static lua_State *main_thread(lua_State *L)
{
    lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_MAINTHREAD);
    lua_State *M = lua_tothread(L, -1);
    lua_pop(L, 1);
    return M;
}

/* rt.on(event, the function at idx, or nil): a device opened again does
 * not keep the handler of the object it closed. */
static void set_handler(lua_State *L, int event, int idx)
{
    int none = lua_isnoneornil(L, idx);
    if (!none)
        luaL_checktype(L, idx, LUA_TFUNCTION);
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &rt_handlers_key) != LUA_TTABLE) {
        lua_pop(L, 1);
        if (none)
            return;
        lua_createtable(L, 0, 0);
        lua_pushvalue(L, -1);
        lua_rawsetp(L, LUA_REGISTRYINDEX, &rt_handlers_key);
    }
    lua_pushvalue(L, idx);
    lua_rawseti(L, -2, event);
    lua_pop(L, 1);
}

static const hw_board *board(void)
{
    return hw_board_get();
}

/* ---- Pins --------------------------------------------------------------- */

/* The port and bit of pin `n`, or NULL. */
static const hw_port *port_of(unsigned n, unsigned *bit)
{
    const hw_board *b = board();
    for (unsigned i = 0; i < b->nports; i++) {
        const hw_port *p = &b->ports[i];
        if (n >= p->first && n < (unsigned)p->first + p->count) {
            *bit = n - p->first;
            return p;
        }
    }
    return NULL;
}

/* Pin number of `name` (an alias, or a port's prefix and a bit), or -1. */
static int pin_by_name(const char *name)
{
    const hw_board *b = board();
    for (unsigned i = 0; i < b->naliases; i++)
        if (strcmp(b->aliases[i].name, name) == 0)
            return b->aliases[i].pin;
    for (unsigned i = 0; i < b->nports; i++) {
        const hw_port *p = &b->ports[i];
        size_t k = strlen(p->prefix);
        if (k == 0 || strncmp(name, p->prefix, k) != 0)
            continue;
        const char *d = name + k;
        unsigned bit = 0;
        if (*d == '\0' || (d[0] == '0' && d[1] != '\0'))
            continue;
        for (; *d >= '0' && *d <= '9' && bit < 256; d++)
            bit = bit * 10 + (unsigned)(*d - '0');
        if (*d == '\0' && bit < p->count)
            return p->first + (int)bit;
    }
    return -1;
}

static int pin_setmode(hw_pin_obj *p, int mode)
{
    hw_clock_on(&p->port->clock);
    if (p->port->ops->mode(p->port->base, p->bit, mode) != 0)
        return -1;
    p->mode = (uint8_t)mode;
    return 0;
}

static void pin_name(lua_State *L, const hw_pin_obj *p)
{
    if (p->port->prefix[0] != '\0')
        lua_pushfstring(L, "%s%d", p->port->prefix, (int)p->bit);
    else
        lua_pushfstring(L, "%d", (int)p->number);
}

static int hw_pin(lua_State *L)
{
    lua_Integer n;
    lua_settop(L, 2);
    if (lua_type(L, 1) == LUA_TSTRING) {
        n = pin_by_name(lua_tostring(L, 1));
        if (n < 0)
            return luaL_error(L, "no pin '%s' on %s", lua_tostring(L, 1),
                              port_board());
    } else {
        n = luaL_checkinteger(L, 1);
    }
    unsigned bit;
    const hw_port *port =
        n >= 0 && n <= 0xFFFF ? port_of((unsigned)n, &bit) : NULL;
    if (port == NULL)
        return luaL_error(L, "no pin %I on %s", n, port_board());
    hw_pin_obj *p = new_obj(L, sizeof *p, &romtab_hwpinmeta);
    p->port = port;
    p->number = (uint16_t)n;
    p->bit = (uint8_t)bit;
    if (lua_isnoneornil(L, 2)) {
        if (pin_setmode(p, HW_IN) != 0 && pin_setmode(p, HW_OUT) != 0)
            return luaL_error(L, "pin %I has neither input nor output", n);
    } else if (pin_setmode(p, luaL_checkoption(L, 2, NULL, mode_names)) != 0) {
        pin_name(L, p);
        return luaL_error(L, "pin %s cannot be '%s'", lua_tostring(L, -1),
                          lua_tostring(L, 2));
    }
    return 1;
}

static hw_pin_obj *check_pin(lua_State *L)
{
    return check_obj(L, 1, &romtab_hwpinmeta, "hw.pin");
}

static int pin_out(lua_State *L, hw_pin_obj *p, int level)
{
    if (p->mode != HW_OUT) {
        pin_name(L, p);
        return luaL_error(L, "pin %s is not an output", lua_tostring(L, -1));
    }
    p->port->ops->write(p->port->base, p->bit, level);
    return 0;
}

static int pin_on(lua_State *L)
{
    return pin_out(L, check_pin(L), 1);
}

static int pin_off(lua_State *L)
{
    return pin_out(L, check_pin(L), 0);
}

static int pin_toggle(lua_State *L)
{
    hw_pin_obj *p = check_pin(L);
    return pin_out(L, p, !p->port->ops->read(p->port->base, p->bit));
}

static int pin_value(lua_State *L)
{
    hw_pin_obj *p = check_pin(L);
    if (!lua_isnoneornil(L, 2)) {
        int level = lua_isboolean(L, 2) ? lua_toboolean(L, 2)
                                        : luaL_checkinteger(L, 2) != 0;
        return pin_out(L, p, level);
    }
    lua_pushinteger(L, p->port->ops->read(p->port->base, p->bit) ? 1 : 0);
    return 1;
}

static int pin_mode(lua_State *L)
{
    hw_pin_obj *p = check_pin(L);
    if (!lua_isnoneornil(L, 2)) {
        int mode = luaL_checkoption(L, 2, NULL, mode_names);
        if (pin_setmode(p, mode) != 0) {
            pin_name(L, p);
            return luaL_error(L, "pin %s cannot be '%s'", lua_tostring(L, -1),
                              mode_names[mode]);
        }
    }
    lua_pushstring(L, mode_names[p->mode]);
    return 1;
}

static int pin_tostring(lua_State *L)
{
    hw_pin_obj *p = check_pin(L);
    pin_name(L, p);
    lua_pushfstring(L, "hw.pin %s (%s)", lua_tostring(L, -1),
                    mode_names[p->mode]);
    return 1;
}

/* ---- ADC ---------------------------------------------------------------- */

static int hw_adc_new(lua_State *L)
{
    const hw_adc *a = board()->adc;
    lua_Integer ch = luaL_checkinteger(L, 1);
    if (a == NULL)
        return luaL_error(L, "no ADC on %s", port_board());
    luaL_argcheck(L, ch >= 0 && ch < a->channels, 1, "no such ADC channel");
    hw_adc_obj *p = new_obj(L, sizeof *p, &romtab_hwadcmeta);
    p->adc = a;
    p->channel = (uint8_t)ch;
    hw_clock_on(&a->clock);
    hw_clock_on(&a->trigger_clock);
    return 1;
}

static int adc_read(lua_State *L)
{
    hw_adc_obj *p = check_obj(L, 1, &romtab_hwadcmeta, "hw.adc");
    int32_t v = p->adc->ops->read(p->adc, p->channel);
    if (v < 0)
        return luaL_error(L, "ADC channel %d: no conversion", (int)p->channel);
    lua_pushinteger(L, v);
    return 1;
}

static int adc_bits(lua_State *L)
{
    hw_adc_obj *p = check_obj(L, 1, &romtab_hwadcmeta, "hw.adc");
    lua_pushinteger(L, p->adc->bits);
    return 1;
}

/* ---- Timers ------------------------------------------------------------- */

static void timer_isr(void *arg)
{
    hw_timer_obj *p = arg;
    p->t->ops->ack(p->t);
    p->count = p->count + 1;
    rt_post(p->L, p->event, p->count);
}

static void timer_close(hw_timer_obj *p)
{
    if (!p->open)
        return;
    p->open = 0;
    p->t->ops->stop(p->t);
    port_irq_enable(p->t->irq, 0);
    port_irq_detach(p->t->irq);
}

static int hw_timer_new(lua_State *L)
{
    const hw_board *b = board();
    lua_Integer n = luaL_checkinteger(L, 1);
    lua_Integer hz = luaL_checkinteger(L, 2);
    if (b->ntimers == 0)
        return luaL_error(L, "no timer on %s", port_board());
    luaL_argcheck(L, n >= 0 && n < b->ntimers, 1, "no such timer");
    lua_Integer most = (lua_Integer)(port_clock_hz() / HW_TIMER_MIN_CYCLES);
    if (hz <= 0 || hz > most)
        return luaL_argerror(
            L, 2, lua_pushfstring(L, "rate out of range: 1 to %I Hz", most));
    const hw_timer *t = &b->timers[n];
    lua_settop(L, 3);
    hw_timer_obj *p = new_obj(L, sizeof *p, &romtab_hwtimermeta);
    p->t = t;
    p->L = main_thread(L);
    p->event = t->irq;
    /* The object that owns the timer is its interrupt's argument. */
    hw_timer_obj *prev = port_irq_arg(t->irq);
    if (prev != NULL)
        timer_close(prev);
    set_handler(L, p->event, 3);
    hw_clock_on(&t->clock);
    if (port_irq_attach(t->irq, timer_isr, p) != 0)
        return luaL_error(L, "timer %d: no interrupt slot", (int)n);
    p->open = 1;
    if (t->ops->start(t, (uint32_t)hz) != 0) {
        timer_close(p);
        return luaL_error(L, "timer %d cannot run at %d Hz", (int)n, (int)hz);
    }
    port_irq_enable(t->irq, 1);
    return 1;
}

static hw_timer_obj *check_timer(lua_State *L)
{
    return check_obj(L, 1, &romtab_hwtimermeta, "hw.timer");
}

static int timer_stop(lua_State *L)
{
    timer_close(check_timer(L));
    return 0;
}

static int timer_count(lua_State *L)
{
    hw_timer_obj *p = check_timer(L);
    port_irqstate st = port_critical_enter(); /* 64-bit counts: two words */
    lua_Integer n = p->count;
    port_critical_exit(st);
    lua_pushinteger(L, n);
    return 1;
}

static int timer_event(lua_State *L)
{
    lua_pushinteger(L, check_timer(L)->event);
    return 1;
}

static int timer_gc(lua_State *L)
{
    timer_close(check_timer(L));
    return 0;
}

/* ---- UARTs -------------------------------------------------------------- */

#define RING_MASK ((uint8_t)(HW_UART_RING - 1))

static void uart_isr(void *arg)
{
    hw_uart_obj *p = arg;
    const hw_uart *u = p->u;
    u->ops->ack(u);
    int got = 0, c;
    while ((c = u->ops->getc(u)) >= 0) {
        uint8_t h = p->rxh;
        if ((uint8_t)(h - p->rxt) < HW_UART_RING) {
            p->rx[h & RING_MASK] = (uint8_t)c;
            p->rxh = (uint8_t)(h + 1);
            got = 1;
        } else {
            p->overruns = p->overruns + 1;
        }
    }
    while (p->txt != p->txh && u->ops->putc(u, p->tx[p->txt & RING_MASK]))
        p->txt = (uint8_t)(p->txt + 1);
    if (p->txt == p->txh)
        u->ops->txirq(u, 0);
    if (got && !p->posted) {
        p->posted = 1;
        rt_post(p->L, p->event, (uint8_t)(p->rxh - p->rxt));
    }
}

static void uart_lines(const hw_uart *u, int on)
{
    port_irq_enable(u->irq, on);
    if (u->irq_tx >= 0)
        port_irq_enable(u->irq_tx, on);
}

static void uart_close(hw_uart_obj *p)
{
    if (!p->open)
        return;
    p->open = 0;
    uart_lines(p->u, 0);
    p->u->ops->close(p->u);
    port_irq_detach(p->u->irq);
    if (p->u->irq_tx >= 0)
        port_irq_detach(p->u->irq_tx);
}

static int hw_uart_new(lua_State *L)
{
    const hw_board *b = board();
    lua_Integer n = luaL_checkinteger(L, 1);
    lua_Integer baud = luaL_optinteger(L, 2, 115200);
    int k = -1;
    for (int i = 0; i < b->nuarts; i++)
        if (b->uarts[i].number == n)
            k = i;
    if (k < 0)
        return luaL_error(L, "no UART %d on %s (the console is not one)",
                          (int)n, port_board());
    luaL_argcheck(L, baud > 0 && baud <= 0x7fffffff, 2, "baud out of range");
    const hw_uart *u = &b->uarts[k];
    lua_settop(L, 3);
    hw_uart_obj *p = new_obj(L, sizeof *p, &romtab_hwuartmeta);
    p->u = u;
    p->L = main_thread(L);
    p->event = u->irq;
    hw_uart_obj *prev = port_irq_arg(u->irq);
    if (prev != NULL)
        uart_close(prev);
    set_handler(L, p->event, 3);
    hw_clock_on(&u->clock);
    if (port_irq_attach(u->irq, uart_isr, p) != 0 ||
        (u->irq_tx >= 0 && port_irq_attach(u->irq_tx, uart_isr, p) != 0)) {
        port_irq_detach(u->irq);
        return luaL_error(L, "UART %d: no interrupt slot", (int)n);
    }
    p->open = 1;
    if (u->ops->open(u, (uint32_t)baud) != 0) {
        uart_close(p);
        return luaL_error(L, "UART %d cannot run at %d baud", (int)n,
                          (int)baud);
    }
    uart_lines(u, 1);
    return 1;
}

static hw_uart_obj *check_uart(lua_State *L)
{
    hw_uart_obj *p = check_obj(L, 1, &romtab_hwuartmeta, "hw.uart");
    if (!p->open)
        luaL_error(L, "UART %d is closed", (int)p->u->number);
    return p;
}

static int uart_write(lua_State *L)
{
    hw_uart_obj *p = check_uart(L);
    size_t len, n = 0;
    const char *s = luaL_checklstring(L, 2, &len);
    const hw_uart *u = p->u;
    port_irqstate st = port_critical_enter();
    /* Straight into the transmitter while it takes bytes and nothing
     * waits before them; the rest into the ring, which its interrupt
     * drains. */
    if (p->txt == p->txh)
        while (n < len && u->ops->putc(u, (uint8_t)s[n]))
            n++;
    while (n < len && (uint8_t)(p->txh - p->txt) < HW_UART_RING) {
        p->tx[p->txh & RING_MASK] = (uint8_t)s[n++];
        p->txh = (uint8_t)(p->txh + 1);
    }
    if (p->txt != p->txh)
        u->ops->txirq(u, 1);
    port_critical_exit(st);
    lua_pushinteger(L, (lua_Integer)n);
    return 1;
}

static int uart_read(lua_State *L)
{
    hw_uart_obj *p = check_uart(L);
    lua_Integer want = luaL_optinteger(L, 2, HW_UART_RING);
    luaL_argcheck(L, want >= 0, 2, "negative count");
    char buf[HW_UART_RING];
    size_t n = 0;
    /* Withdraw the event first: a byte arriving after this posts again. */
    p->posted = 0;
    while (p->rxt != p->rxh && (lua_Integer)n < want && n < sizeof buf) {
        buf[n++] = (char)p->rx[p->rxt & RING_MASK];
        p->rxt = (uint8_t)(p->rxt + 1);
    }
    if (n == 0 && want > 0)
        lua_pushnil(L);
    else
        lua_pushlstring(L, buf, n);
    return 1;
}

static int uart_any(lua_State *L)
{
    hw_uart_obj *p = check_uart(L);
    lua_pushinteger(L, (uint8_t)(p->rxh - p->rxt));
    return 1;
}

static int uart_closem(lua_State *L)
{
    uart_close(check_obj(L, 1, &romtab_hwuartmeta, "hw.uart"));
    return 0;
}

static int uart_event(lua_State *L)
{
    lua_pushinteger(L, check_uart(L)->event);
    return 1;
}

static int uart_overruns(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)check_uart(L)->overruns);
    return 1;
}

/* ---- Watchdog ----------------------------------------------------------- */

/* The warning interrupt: the next boot will be the watchdog's unless a
 * feed comes first.  The line stays off until then (the request stays up
 * until fed). */
static void wdog_isr(void *arg)
{
    const hw_wdog *w = arg;
    port_reset_note(PORT_RESET_WATCHDOG);
    port_irq_enable(w->irq, 0);
}

static int hw_watchdog(lua_State *L)
{
    const hw_wdog *w = board()->wdog;
    lua_Integer ms = luaL_checkinteger(L, 1);
    if (w == NULL)
        return luaL_error(L, "no watchdog on %s", port_board());
    luaL_argcheck(L, ms > 0 && ms <= 0x7fffffff, 1, "time out of range");
    new_obj(L, 1, &romtab_hwwdogmeta);
    hw_clock_on(&w->clock);
    if (port_irq_attach(w->irq, wdog_isr, (void *)w) != 0)
        return luaL_error(L, "watchdog: no interrupt slot");
    if (w->ops->start(w, (uint32_t)ms) != 0)
        return luaL_error(L, "watchdog cannot wait %d ms", (int)ms);
    port_irq_enable(w->irq, 1);
    return 1;
}

static int wdog_feed(lua_State *L)
{
    check_obj(L, 1, &romtab_hwwdogmeta, "hw.watchdog");
    const hw_wdog *w = board()->wdog;
    w->ops->feed(w);
    port_reset_note(PORT_RESET_POWER);
    port_irq_enable(w->irq, 1);
    return 0;
}

/* ---- Registers ---------------------------------------------------------- */

/* The address argument, checked against the board's ranges for an access
 * of `size` bytes. */
static uintptr_t check_addr(lua_State *L, unsigned size)
{
    lua_Integer i = luaL_checkinteger(L, 1);
    lua_Unsigned a = (lua_Unsigned)i;
    const hw_board *b = board();
    if (a <= (lua_Unsigned)UINTPTR_MAX - (size - 1)) {
        uintptr_t p = (uintptr_t)a;
        if (p % size != 0)
            luaL_error(L, "address %p is not aligned to %d bytes", (void *)p,
                       (int)size);
        for (unsigned k = 0; k < b->nranges; k++)
            if (p >= b->ranges[k].first && p + (size - 1) <= b->ranges[k].last)
                return p;
    }
    /* The address as given: a pointer would print 0 as "(nil)" and cut
     * an integer wider than an address to the address. */
    char hex[20];
    port_snprintf(hex, sizeof hex, "0x%llx", (unsigned long long)a);
    luaL_error(L, "address %s is not a peripheral register of %s", hex,
               port_board());
    return 0;
}

static int mem_access(lua_State *L, unsigned size)
{
    uintptr_t p = check_addr(L, size);
    if (lua_isnoneornil(L, 2)) {
        uint32_t v = size == 4   ? *(volatile uint32_t *)p
                     : size == 2 ? *(volatile uint16_t *)p
                                 : *(volatile uint8_t *)p;
        /* 32-bit integers read a register's top bit as the sign. */
        lua_pushinteger(L, sizeof(lua_Integer) > 4 ? (lua_Integer)v
                                                   : (lua_Integer)(int32_t)v);
        return 1;
    }
    uint32_t v = (uint32_t)luaL_checkinteger(L, 2);
    if (size == 4)
        *(volatile uint32_t *)p = v;
    else if (size == 2)
        *(volatile uint16_t *)p = (uint16_t)v;
    else
        *(volatile uint8_t *)p = (uint8_t)v;
    return 0;
}

static int hw_mem32(lua_State *L)
{
    return mem_access(L, 4);
}

static int hw_mem16(lua_State *L)
{
    return mem_access(L, 2);
}

static int hw_mem8(lua_State *L)
{
    return mem_access(L, 1);
}

/* ---- Facts -------------------------------------------------------------- */

static void info_int(lua_State *L, const char *k, lua_Integer v)
{
    lua_pushinteger(L, v);
    lua_setfield(L, -2, k);
}

static void info_str(lua_State *L, const char *k, const char *v)
{
    lua_pushstring(L, v);
    lua_setfield(L, -2, k);
}

static int hw_info(lua_State *L)
{
    const hw_board *b = board();
    size_t flash, ram;
    hw_memory(&flash, &ram);
    lua_createtable(L, 0, 13);
    info_str(L, "board", port_board());
    info_str(L, "core", port_core());
    info_int(L, "clock_hz", (lua_Integer)port_clock_hz());
    info_int(L, "flash", (lua_Integer)flash);
    info_int(L, "ram", (lua_Integer)ram);
    info_str(L, "reset_cause", port_reset_name(port_reset_cause()));
    if (b->uid != 0 && b->uid_bytes <= HW_UID_MAX) {
        char hex[2 * HW_UID_MAX + 1];
        const volatile uint8_t *id = (const volatile uint8_t *)b->uid;
        for (unsigned i = 0; i < b->uid_bytes; i++)
            port_snprintf(hex + 2 * i, 3, "%02x", (unsigned)id[i]);
        info_str(L, "uid", hex);
    }
    unsigned pins = 0;
    for (unsigned i = 0; i < b->nports; i++)
        pins += b->ports[i].count;
    info_int(L, "pins", pins);
    info_int(L, "adc_channels", b->adc != NULL ? b->adc->channels : 0);
    lua_createtable(L, b->nuarts, 0);
    for (unsigned i = 0; i < b->nuarts; i++) {
        lua_pushinteger(L, b->uarts[i].number);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    lua_setfield(L, -2, "uarts");
    info_int(L, "timers", b->ntimers);
    lua_pushboolean(L, b->wdog != NULL);
    lua_setfield(L, -2, "watchdog");
    return 1;
}

static int hw_reset(lua_State *L)
{
    port_reset();
    return luaL_error(L, "no reset on %s", port_board());
}

int luaopen_hw(lua_State *L)
{
    rtlua_pushrom(L, &romtab_hw);
    return 1;
}

#define ROMTAB_FILE_hwlib
#include "romtab.inc"
