/*
 * port_cm.c — the rest of port.h on Cortex-M: bring-up order, console,
 * exit, the arena's bounds from the linker, and board facts.
 */
#include "board.h"
#include "port/cortex-m/cm.h"
#include "port/hw.h"
#include "port/port.h"

#include <string.h>

extern uint32_t _heap_start[], _heap_end[];
extern uint32_t _flash_start[], _flash_end[], _stack_guard[];

__attribute__((weak)) void board_clock_init(void)
{
}

void port_init(void)
{
    static int done;
    if (done)
        return; /* the reset handler ran it; tests may call it again */
    done = 1;
    board_clock_init();
    board_uart_init();
    cm_entropy_init(); /* before the timers are started */
    cm_reset_init();
    cm_stack_init();
    cm_mpu_init(); /* after the canary: the guard is no-access */
    cm_cycles_init();
    cm_tick_init();
}

/* Where console output goes while a tool frames it (port_console_sink). */
static port_sink_fn sink;

void port_console_sink(port_sink_fn fn)
{
    sink = fn;
}

void port_raw_write(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        board_uart_putc(s[i]);
}

void port_putc(int c)
{
    char ch = (char)c;
    if (sink != NULL)
        sink(1, &ch, 1);
    else
        board_uart_putc(c);
}

void port_write(const char *s, size_t n)
{
    if (sink != NULL)
        sink(1, s, n);
    else
        port_raw_write(s, n);
}

void port_write_err(const char *s, size_t n)
{
    if (sink != NULL)
        sink(2, s, n);
    else
        port_raw_write(s, n);
}

void port_puts(const char *s)
{
    port_write(s, strlen(s));
}

/* The console's receive ring (port_console_onbreak): filled with
 * interrupts masked (the tick's handler, or port_pollc in a critical
 * section), so one side at a time. */
_Static_assert((PORT_CONSOLE_RING & (PORT_CONSOLE_RING - 1u)) == 0,
               "PORT_CONSOLE_RING must be a power of two");
#define CONSOLE_CTRL_C 0x03
static uint8_t rx_ring[PORT_CONSOLE_RING];
static unsigned rx_head, rx_tail;
static volatile port_break_fn on_break;

void port_console_onbreak(port_break_fn fn)
{
    on_break = fn;
}

/* What the UART holds, into the ring. */
static void console_drain(void)
{
    for (;;) {
        port_break_fn fn = on_break;
        int full = rx_head - rx_tail == PORT_CONSOLE_RING;
        if (full && fn == NULL)
            return; /* the UART keeps the rest */
        int c = board_uart_getc();
        if (c < 0)
            return;
        if (c == CONSOLE_CTRL_C && fn != NULL)
            fn();
        else if (!full)
            rx_ring[rx_head++ % PORT_CONSOLE_RING] = (uint8_t)c;
    }
}

void cm_console_tick(void)
{
    console_drain();
}

int port_pollc(void)
{
    int c = -1;
    port_irqstate s = port_critical_enter();
    console_drain();
    if (rx_head != rx_tail)
        c = rx_ring[rx_tail++ % PORT_CONSOLE_RING];
    port_critical_exit(s);
    return c;
}

int port_getc(void)
{
    int c;
    while ((c = port_pollc()) < 0)
        port_idle();
    return c;
}

_Noreturn void port_exit(int status)
{
    if (sink != NULL) /* a tool frames the output: it learns the status */
        sink(0, NULL, (size_t)(unsigned)status);
    if (!cm_stack_intact())
        cm_stack_overflow("exit");
    cm_semihost_exit(status);
}

/* port_heap_size's arena (heap_bytes 0: the linker's). */
static void *heap_mem;
static size_t heap_bytes;

void port_heap(void **start, size_t *bytes)
{
    if (heap_bytes != 0) {
        *start = heap_mem;
        *bytes = heap_bytes;
        return;
    }
    *start = _heap_start;
    *bytes = (size_t)((uintptr_t)_heap_end - (uintptr_t)_heap_start);
}

int port_heap_size(size_t bytes)
{
    size_t usual = (size_t)((uintptr_t)_heap_end - (uintptr_t)_heap_start);
    if (bytes == 0 || bytes <= usual) {
        heap_mem = _heap_start;
        heap_bytes = bytes;
        return 0;
    }
#ifdef BOARD_PSRAM_BASE
    if (bytes <= BOARD_PSRAM_BYTES) {
        heap_mem = (void *)(uintptr_t)BOARD_PSRAM_BASE;
        heap_bytes = bytes;
        return 0;
    }
#endif
    return -1;
}

const char *port_board(void)
{
    return BOARD_NAME;
}

const char *port_core(void)
{
    return BOARD_CORE;
}

uint32_t port_clock_hz(void)
{
    return BOARD_CLOCK_HZ;
}

int port_loadlib(const char *path, const char *sym, port_fn *fn,
                 const char **err)
{
    /* No dynamic linker: C modules are linked in (USER_C_MODULES). */
    (void)path;
    (void)sym;
    (void)fn;
    (void)err;
    return PORT_LIB_ABSENT;
}

/* The memory map's sizes: the stack's guard starts RAM, the arena ends it
 * (the flipped layout, linker/cortex-m.ld). */
void hw_memory(size_t *flash, size_t *ram)
{
    *flash = (size_t)((uintptr_t)_flash_end - (uintptr_t)_flash_start);
    *ram = (size_t)((uintptr_t)_heap_end - (uintptr_t)_stack_guard);
}
