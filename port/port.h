/*
 * port.h — the platform interface.
 *
 * Everything above port/ (gc/, vm/, lang/, lib/) sees the machine only
 * through this header: a console, a monotonic cycle counter, a periodic
 * tick with one callback, critical sections, exit with a status, the
 * command line, and host files where a host is reachable (semihosting on
 * QEMU, stdio on Linux).
 *
 * Invariants:
 * - port_cycles() is monotonic modulo 2^32 at port_cycle_hz(); differences
 *   of two readings less than 2^32 cycles apart are exact.  Where it is
 *   derived from SysTick, interrupts masked for more than one tick period
 *   lose periods: keep critical sections shorter than a tick.  On Cortex-M it
 *   is DWT CYCCNT where that counts, else derived from SysTick (QEMU does
 *   not emulate CYCCNT), which under `-icount shift=0` is deterministic.
 * - The tick callback runs in interrupt context (a signal on the host):
 *   it may only touch volatile scalars and lock-free structures.
 * - No function here allocates memory.
 */
#ifndef RTLUA_PORT_H
#define RTLUA_PORT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* Bring-up: console, cycle counter, tick at PORT_TICK_HZ_DEFAULT.  The
 * Cortex-M reset handler calls it before main; on the host, main (and the
 * unit tests' harness) calls it first; a second call does nothing. */
void port_init(void);

/* Console.  port_getc blocks; it returns -1 at end of input (host). */
void port_putc(int c);
void port_write(const char *s, size_t n);
/* The error console: stderr on the host (after flushing the console), the
 * same UART on the boards.  Warnings, panics and uncaught errors. */
void port_write_err(const char *s, size_t n);
void port_puts(const char *s); /* no newline added */
int port_getc(void);
/* Non-blocking: a byte, or -1 when none is waiting. */
int port_pollc(void);
/* Ctrl-C on the console calls fn (NULL: none, the byte is read as any
 * other), from the tick's interrupt as soon as it arrives, whatever runs:
 * code that no hook sees (a __gc metamethod, a hook) is interrupted too
 * (fn calls rtlua_interrupt).  On a board the tick moves what the console
 * UART receives into a ring (PORT_CONSOLE_RING bytes) that port_getc and
 * port_pollc read first, so bytes typed ahead keep their order; while fn
 * is set and the ring is full, the bytes beyond it are dropped (so that a
 * Ctrl-C behind them still arrives).  On the host, a no-op (SIGINT). */
typedef void (*port_break_fn)(void);
void port_console_onbreak(port_break_fn fn);
#define PORT_CONSOLE_RING 16u

/* Minimal printf: %d %i %u %x %X %s %c %p %% with l/ll/z and width/zero
 * flags.  No floating point (newlib's float printf allocates). */
void port_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Same formatter into a buffer; returns the length it wanted. */
int port_snprintf(char *buf, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int port_vsnprintf(char *buf, size_t cap, const char *fmt, va_list ap);

/* Time. */
uint32_t port_cycles(void);          /* wraps at 2^32 */
uint64_t port_cycles64(void);        /* does not wrap in practice */
uint32_t port_cycle_hz(void);        /* rate of port_cycles */
const char *port_cycle_source(void); /* "dwt", "systick" or "host" */
/* A cheaper clock for short intervals (the collector's units within a
 * step, gc/gc.c): port_lap() is a reading, port_lap_cycles(from, to) the
 * cycles between two readings.  Where port_cycles is derived from SysTick
 * a reading is the counter alone (one load, where port_cycles takes some
 * thirty instructions); it wraps each tick period, port_lap_period
 * cycles, and the difference is exact only for intervals shorter than
 * that (longer ones read short).  Where port_cycles is itself one
 * counter (DWT CYCCNT, the host), a lap is port_cycles and
 * port_lap_period is 0: no bound. */
uint32_t port_lap(void);
extern uint32_t port_lap_period;
static inline uint32_t port_lap_cycles(uint32_t from, uint32_t to)
{
    uint32_t d = to - from;
    return (int32_t)d < 0 && port_lap_period != 0 ? d + port_lap_period : d;
}

/* 32 bits that differ from boot to boot as much as the platform allows,
 * for hash seeds (vm/state.c): never the same twice in one run either.
 * Not cryptographic.  Host: /dev/urandom (RTLUA_ENTROPY=N in the
 * environment makes the sequence a fixed function of N, to replay a
 * run).  Cortex-M: gathered once in port_init from what a reset leaves
 * unknown (SysTick's current value and DWT CYCCNT before they are
 * started, the arena's RAM before anything writes it: its power-up
 * state, or the previous run's after a warm reset) and from the board's
 * RNG where it has one (board_entropy), then stirred with the cycle
 * counter at each call.  Under QEMU only the RNG varies: the rest is
 * deterministic, as QEMU's -icount time and zeroed RAM are. */
uint32_t port_entropy(void);

/* The periodic tick (SysTick on Cortex-M).  On a board, 4 kHz: the tick
 * brings the collector its credit (gc/pace.h), and at 25% of a 1 kHz tick
 * that was 2.5 steps in one burst after it (250 us of a 25 MHz core's
 * 1 ms), plus what was left from an idle tick.  At 4 kHz a tick's share
 * is under one step (the credit's cap is then a step), and the paced
 * steps of a millisecond come in four bursts: the lowest MMU of
 * bench/gc_adversarial.lua's workloads at a board's pace (shift=5, four
 * layouts each) went from 12% to 34%, and its tenth percentile from 37%
 * to 53% (the collector's own steps, RTLUA_GC_TRACE).  The tick costs
 * about 45 instructions (1% of a 25 MHz core at 4 kHz).  The host keeps
 * 1 kHz: its tick is a signal. */
#ifndef PORT_TICK_HZ_DEFAULT
#ifdef RTLUA_HOST
#define PORT_TICK_HZ_DEFAULT 1000u
#else
#define PORT_TICK_HZ_DEFAULT 4000u
#endif
#endif
typedef void (*port_tick_fn)(void);
void port_tick_config(uint32_t hz); /* (re)start the tick at hz */
uint32_t port_tick_hz(void);
uint32_t port_ticks(void);          /* ticks since the last port_tick_config */
void port_on_tick(port_tick_fn fn); /* one callback; NULL removes it */

/* Critical sections nest: the state returned is restored on exit. */
typedef uint32_t port_irqstate;
port_irqstate port_critical_enter(void);
void port_critical_exit(port_irqstate s);

/* Sleep until the next interrupt (WFI); on the host, a short nap. */
void port_idle(void);
/* Is port_idle sure to return within `left` cycles?  Only when more than
 * a tick period is left, so that the tick wakes it first; closer to a
 * deadline the caller polls instead of oversleeping.  (The collector's
 * idle steps and rt.loop's wait, gc/pace.c and lib/rtlib.c.) */
static inline int port_may_sleep(uint32_t left)
{
    uint32_t hz = port_tick_hz();
    return hz != 0 && left > port_cycle_hz() / hz;
}

/* Leave the program with a status: semihosting SYS_EXIT_EXTENDED under
 * QEMU, exit() on the host.  Checks the stack canary first. */
_Noreturn void port_exit(int status);
/* The status a Cortex-M firmware leaves QEMU with after a failure it
 * reports and cannot go on from: a fault (port/cortex-m/fault.c), a stack
 * canary found clobbered, an exception with no handler, a vector table
 * that is not rtlua's, an MPU that board.h promises and the core lacks.
 * qemu/run passes it on; tests/board/platform.sh expects it of its fault
 * cases. */
#define PORT_EXIT_FAULT 2

/* The command line (semihosting SYS_GET_CMDLINE; argv on the host),
 * split into words; returns argc, at most max, pointers into storage
 * owned by the port. */
int port_args(char **argv, int max);

/* Host files: -1 where no host is reachable or the file is missing. */
int port_file_open(const char *path, const char *mode); /* "r","w","a" + "b" */
long port_file_read(int fd, void *buf, size_t n);
long port_file_write(int fd, const void *buf, size_t n);
long port_file_size(int fd);
/* Moves to byte pos from the start; 0, or -1 on failure. */
int port_file_seek(int fd, long pos);
int port_file_close(int fd);
/* What io's flush, setvbuf and reads ask of a file.  fd may also be
 * PORT_FILE_CONSOLE: the console's input for port_file_clearerr, its
 * output for the other two.  A port without buffers or sticky states
 * (semihosting) does nothing and succeeds. */
#define PORT_FILE_CONSOLE (-2)
/* Buffering modes of port_file_setvbuf: C's _IONBF, _IOFBF, _IOLBF. */
enum { PORT_BUF_NO, PORT_BUF_FULL, PORT_BUF_LINE };
/* Writes out what the port buffers for fd; 0, or -1 on failure. */
int port_file_flush(int fd);
/* Sets fd's output buffering (size bytes, 0 for the port's choice); 0,
 * or -1 on failure. */
int port_file_setvbuf(int fd, int mode, size_t size);
/* Forgets an end of file or an error met by earlier reads, as C's
 * clearerr: a read after it sees what the file holds now (a file that
 * grew, a terminal that got more input). */
void port_file_clearerr(int fd);
/* Host file names, for os.remove, os.rename and os.tmpname: 0, or on
 * failure the host's errno (-1 when the port cannot tell). */
int port_file_remove(const char *path);
int port_file_rename(const char *from, const char *to);
/* A new temporary host file, created empty, its name in buf (cap bytes
 * with the NUL). */
int port_file_tmpname(char *buf, size_t cap);
/* The words for a host errno from the calls above. */
const char *port_file_strerror(int en);

/* The host's stdin over semihosting (Cortex-M under QEMU), for piped input
 * a UART cannot end: port_stdin_piped is 1 when it is a pipe or a file
 * (not a terminal: use the console then) and readable; port_stdin_read
 * blocks for at least one byte, returns the count, 0 at the end of input,
 * -1 when it is not piped.  Not on the host port (stdin is the console). */
int port_stdin_piped(void);
long port_stdin_read(void *buf, size_t n);

/* Bytes of C stack left below the current stack pointer before the guard
 * (SIZE_MAX on the host, whose stack is not ours to bound).  The runtime
 * turns a shortage into a "C stack overflow" error instead of a fault. */
size_t port_stack_left(void);
/* A C level is refused ("C stack overflow") when fewer than
 * LUAI_CSTACK_KEEP(kind) bytes of C stack remain: the most that anything
 * may use after a check of that kind before the next check, with what
 * interrupts push (vm/do.h).  The kinds: call (a call through the API or
 * of a C function the runtime does not know; a safe point), parse (a
 * parser level), match (a pattern-matching level), dump and undump (a
 * nested prototype), gc (the collector's work inside an allocation),
 * error (the making of an error's message), load (the compiler's entry,
 * lang/load.c), poll (a count hook run from a library's C loop,
 * rtlua_poll: smaller than call's, so that a deadline or an interrupt
 * still stops a loop that runs with less than call's reserve left).
 * On a board the build computes each from the compiler's frames and the
 * call graph (tools/cstack.lua) and the link sets it: symbols
 * rtlua_cstack_keep_KIND, whose addresses are the byte counts.  The host
 * never runs short (port_stack_left is unbounded there). */
#ifdef RTLUA_HOST
#define LUAI_CSTACK_KEEP(kind) ((size_t)0)
#define port_cstack_short(kind) 0
#else
extern const char rtlua_cstack_keep_call[], rtlua_cstack_keep_parse[],
    rtlua_cstack_keep_match[], rtlua_cstack_keep_dump[],
    rtlua_cstack_keep_undump[], rtlua_cstack_keep_gc[],
    rtlua_cstack_keep_error[], rtlua_cstack_keep_load[],
    rtlua_cstack_keep_poll[];
#define LUAI_CSTACK_KEEP(kind) ((size_t)(uintptr_t)rtlua_cstack_keep_##kind)
/* Fewer than LUAI_CSTACK_KEEP(kind) bytes left: a check's failure. */
#define port_cstack_short(kind) (port_stack_left() < LUAI_CSTACK_KEEP(kind))
#endif
/* The lowest address a frame may lie at while LUAI_CSTACK_KEEP(kind)
 * bytes of stack stay below it (0 on the host): a recursion may read it
 * once and compare a local's address with it at every level, the same
 * check as port_cstack_short's (the pattern matcher).  That comparison
 * follows PORT_CSTACK_CHECKED(kind), a mark tools/cstack.lua reads (an
 * assembler comment on a board). */
#ifdef RTLUA_HOST
#define port_cstack_floor(kind) ((uintptr_t)0)
#define PORT_CSTACK_CHECKED(kind) ((void)0)
#else
uintptr_t port_stack_bottom(void);
#define port_cstack_floor(kind) (port_stack_bottom() + LUAI_CSTACK_KEEP(kind))
#define PORT_CSTACK_CHECKED(kind)                                             \
    __asm__ volatile("@ rtlua cstack check " #kind)
#endif
/* port_cstack_short(kind) with no call, for the hot checks (lua_resume,
 * a call from C): the stack pointer against the floor, after the mark.
 * The same test where LUAI_CSTACK_KEEP(kind) > 0, as a linked board's
 * are. */
#ifdef RTLUA_HOST
#define port_cstack_short_inline(kind) port_cstack_short(kind)
#else
extern uint32_t _stack_bottom[];
static inline __attribute__((always_inline)) uintptr_t port_sp(void)
{
    uintptr_t sp;
    __asm__ volatile("mov %0, sp" : "=r"(sp));
    return sp;
}
#define port_cstack_short_inline(kind)                                        \
    __extension__({                                                           \
        PORT_CSTACK_CHECKED(kind);                                            \
        port_sp() < (uintptr_t)_stack_bottom + LUAI_CSTACK_KEEP(kind);        \
    })
#endif

/* The arena's memory: the linker's _heap_start.._heap_end on the target,
 * an anonymous mapping on the host (RTLUA_HOST_ARENA bytes, untouched
 * pages costing nothing), or what port_heap_size last asked for. */
void port_heap(void **start, size_t *bytes);
/* Make port_heap give an arena of `bytes` (rtlua's -A option, for
 * bench/'s sweep over arena sizes): the start of the usual arena when it
 * is that big, else the board's PSRAM where it has one and it is; on the
 * host a mapping of that size (at most what the arena manages, 2 GiB).
 * Returns 0, or -1 (nothing changed on a board) when there is no such
 * memory; 0 bytes gives the usual arena back.  Only for a state not yet
 * opened. */
int port_heap_size(size_t bytes);

/* C libraries for require and package.loadlib.  A function of any type
 * (the caller casts it to its own). */
typedef void (*port_fn)(void);
enum { PORT_LIB_OK, PORT_LIB_OPEN, PORT_LIB_INIT, PORT_LIB_ABSENT };
/* Load the shared library at path (the host: dlopen, its symbols global
 * when sym is "*") and find sym in it (not for "*").  Returns PORT_LIB_OK
 * with *fn set; PORT_LIB_OPEN (it did not load) or PORT_LIB_INIT (no such
 * symbol) with *err the loader's message; PORT_LIB_ABSENT where there
 * is no dynamic linker (the boards). */
int port_loadlib(const char *path, const char *sym, port_fn *fn,
                 const char **err);

/* Interrupts attached at run time (the hw library's timers, UARTs and
 * watchdog).  fn(arg) runs in the interrupt of `line`: an IRQ number, or
 * a negative exception number as CMSIS numbers them (PORT_IRQ_NMI).  At
 * most PORT_IRQ_SLOTS lines at once; a line not attached keeps its
 * default handler.  Returns 0, or -1 when no slot is free or the port has
 * no interrupts (the host).  The handler may only touch volatile scalars,
 * its device and lock-free structures (rt_post). */
#define PORT_IRQ_NMI (-14)
#ifndef PORT_IRQ_SLOTS
#define PORT_IRQ_SLOTS 8
#endif
int port_irq_attach(int line, void (*fn)(void *), void *arg);
void port_irq_detach(int line);
/* What `line` is attached with (its handler's argument), or NULL. */
void *port_irq_arg(int line);
/* The line's enable in the interrupt controller (nothing for exceptions);
 * disabling also clears a pending request. */
void port_irq_enable(int line, int on);

/* Resets.  port_reset_cause is why this boot happened, from a note the
 * previous run left in RAM that start-up does not clear (the watchdog's
 * warning interrupt and port_reset leave one; power-on leaves none). */
enum { PORT_RESET_POWER, PORT_RESET_WATCHDOG, PORT_RESET_SOFTWARE };
int port_reset_cause(void);
const char *port_reset_name(int cause); /* "power-on", "watchdog"... */
/* Notes the cause of a reset that is coming (PORT_RESET_POWER withdraws
 * the note).  Callable from an interrupt. */
void port_reset_note(int cause);
/* Resets the chip, noting PORT_RESET_SOFTWARE; returns -1 only where
 * there is no reset (the host). */
int port_reset(void);

/* Console output taken over (lib/rawmode.c frames it for tools): while a
 * sink is set, what port_putc, port_write, port_puts and port_printf
 * write (stream 1) and what port_write_err writes (stream 2) goes to it
 * instead of the console, and port_exit tells it the status first
 * (stream 0, s NULL, n the status); port_raw_write always writes to the
 * console.  NULL gives the console back. */
typedef void (*port_sink_fn)(int stream, const char *s, size_t n);
void port_console_sink(port_sink_fn fn);
void port_raw_write(const char *s, size_t n);

/* Facts for banners: board name, core, clock. */
const char *port_board(void);
const char *port_core(void);
uint32_t port_clock_hz(void);

#endif
