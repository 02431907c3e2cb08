/*
 * hw.h — the hardware a script may touch through the `hw` library
 * (lib/hwlib.c), as the board describes it.
 *
 * A board lists what it has in one const hw_board (board/<name>/hw.c):
 * GPIO ports and pin names, ADCs, UARTs other than the console, periodic
 * timers, a watchdog, the address ranges of its peripherals and where its
 * unique id is.  Each entry names a driver, a table of functions over the
 * peripheral's base address (drivers/), and carries the numbers the
 * driver needs (base, clock gate, clock rate, interrupt line).  So the
 * library has no #ifdef for a board: what a board offers is data, and a
 * new board is a new table over existing drivers.
 *
 * Invariants:
 * - The tables are const (flash).  What changes at run time lives in the
 *   objects the library makes (arena userdata, which the collector never
 *   moves) and in the port's interrupt slots (port_irq_attach).
 * - A driver function touches only its peripheral's registers (and the
 *   clock gate the entry names); the ones marked "(interrupt)" may be
 *   called from its interrupt handler and never block.
 * - hw_board.ranges bound every address hw.mem8/16/32 may touch: each is a
 *   range the chip decodes (an access there cannot raise a bus fault while
 *   the peripheral is clocked), taken from the datasheet and checked
 *   against QEMU's `info mtree`.
 */
#ifndef RTLUA_HW_H
#define RTLUA_HW_H

#include <stddef.h>
#include <stdint.h>

/* Pin modes (hw.pin's "in", "out", "pullup", "pulldown"). */
enum { HW_IN, HW_OUT, HW_PULLUP, HW_PULLDOWN, HW_NMODES };

/* A clock gate: `mask` set in the register at `reg` before the peripheral
 * is used (reg 0: always clocked). */
typedef struct hw_clock {
    uintptr_t reg;
    uint32_t mask;
} hw_clock;

/* Turns the gate on (a read-modify-write; idempotent). */
static inline void hw_clock_on(const hw_clock *c)
{
    if (c->reg != 0)
        *(volatile uint32_t *)c->reg |= c->mask;
}

typedef struct hw_gpio_ops {
    /* Sets pin `bit` of the port at `base` to `mode`: 0, or -1 when the
     * pin has no such mode. */
    int (*mode)(uintptr_t base, unsigned bit, int mode);
    void (*write)(uintptr_t base, unsigned bit, int level);
    /* The level read back: the input, or the output latch of a pin that
     * has no input. */
    int (*read)(uintptr_t base, unsigned bit);
} hw_gpio_ops;

/* A GPIO port: pins first..first+count-1, named prefix0, prefix1...
 * (no names when the prefix is empty). */
typedef struct hw_port {
    const hw_gpio_ops *ops;
    uintptr_t base;
    hw_clock clock;
    uint16_t first;
    uint8_t count;
    char prefix[7];
} hw_port;

/* A name for one pin (the board's LEDs and buttons). */
typedef struct hw_alias {
    const char *name;
    uint16_t pin;
} hw_alias;

struct hw_adc;
typedef struct hw_adc_ops {
    /* Converts `channel` once: the raw result, or -1 when the converter
     * did not finish. */
    int32_t (*read)(const struct hw_adc *a, unsigned channel);
} hw_adc_ops;

typedef struct hw_adc {
    const hw_adc_ops *ops;
    uintptr_t base;
    hw_clock clock;
    uint8_t channels; /* 0..channels-1 */
    uint8_t bits;     /* resolution */
    /* A timer that starts conversions, where the driver needs one (its
     * base; 0: none), and its clock gate.  It is not also a hw.timer. */
    uintptr_t trigger;
    hw_clock trigger_clock;
} hw_adc;

struct hw_uart;
typedef struct hw_uart_ops {
    /* Configures the UART at `baud` with its receive interrupt on: 0, or
     * -1 when its clock cannot make that rate. */
    int (*open)(const struct hw_uart *u, uint32_t baud);
    void (*close)(const struct hw_uart *u);
    /* (interrupt) A received byte, or -1. */
    int (*getc)(const struct hw_uart *u);
    /* (interrupt) Queues a byte: 1, or 0 when the transmitter is full. */
    int (*putc)(const struct hw_uart *u, int c);
    /* (interrupt) The transmitter's "ready for more" interrupt on or off. */
    void (*txirq)(const struct hw_uart *u, int on);
    /* (interrupt) Clears what raised the interrupt, before it is served. */
    void (*ack)(const struct hw_uart *u);
} hw_uart_ops;

typedef struct hw_uart {
    const hw_uart_ops *ops;
    uintptr_t base;
    hw_clock clock;
    uint32_t clk_hz;
    int16_t irq;    /* its interrupt line */
    int16_t irq_tx; /* a second line for transmit, or -1 */
    uint8_t number; /* hw.uart(n) */
} hw_uart;

struct hw_timer;
typedef struct hw_timer_ops {
    /* Starts periodic expiries at `hz`, each raising the interrupt: 0, or
     * -1 when the counter cannot make that rate. */
    int (*start)(const struct hw_timer *t, uint32_t hz);
    void (*stop)(const struct hw_timer *t);
    /* (interrupt) Clears the expiry's interrupt. */
    void (*ack)(const struct hw_timer *t);
} hw_timer_ops;

typedef struct hw_timer {
    const hw_timer_ops *ops;
    uintptr_t base;
    hw_clock clock;
    uint32_t clk_hz;
    int16_t irq;
} hw_timer;

struct hw_wdog;
typedef struct hw_wdog_ops {
    /* Starts (or restarts) the watchdog: unfed for `ms`, it resets the
     * chip; its warning interrupt comes first.  0, or -1 out of range. */
    int (*start)(const struct hw_wdog *w, uint32_t ms);
    void (*feed)(const struct hw_wdog *w);
} hw_wdog_ops;

typedef struct hw_wdog {
    const hw_wdog_ops *ops;
    uintptr_t base;
    hw_clock clock;
    uint32_t clk_hz;
    int16_t irq; /* the warning interrupt (-14: NMI) */
} hw_wdog;

/* Addresses first..last (inclusive) that hw.mem* may read and write. */
typedef struct hw_range {
    uintptr_t first, last;
} hw_range;

typedef struct hw_board {
    const hw_port *ports;
    const hw_alias *aliases;
    const hw_adc *adc; /* NULL: none */
    const hw_uart *uarts;
    const hw_timer *timers;
    const hw_wdog *wdog; /* NULL: none */
    const hw_range *ranges;
    uintptr_t uid; /* the chip's unique id, or 0 */
    uint8_t nports, naliases, nuarts, ntimers, nranges;
    uint8_t uid_bytes;
} hw_board;

/* The board's description (board/<name>/hw.c; the host's simulated one,
 * port/host/hw_host.c). */
const hw_board *hw_board_get(void);

/* Flash and RAM of the image's memory map, in bytes (0 on the host). */
void hw_memory(size_t *flash, size_t *ram);

#endif
