/*
 * port_host.c — port.h on Linux.  The tick is a SIGALRM interval timer so
 * that the collector's time pacing runs the same code as on a board; the
 * cycle counter is CLOCK_MONOTONIC in nanoseconds.
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MAP_NORESERVE */
#include "port/host/host.h"
#include "port/port.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#ifndef RTLUA_HOST_ARENA
/* The arena of a program that asks for no size (the unit tests): 64 MiB.
 * The CLI asks for its own (lib/main.c: a quarter of the memory). */
#define RTLUA_HOST_ARENA (64u << 20)
#endif
/* The largest arena port_heap_size gives: what the arena manages
 * (gc/arena.h, ARENA_MAX_BYTES: 32-bit offsets); more would be unused. */
#define HOST_ARENA_MAX (((size_t)1 << 31) - 8)

/* Host files open at once (stdio handles behind small integer fds). */
#define HOST_FILES_MAX 16

/* The arena: an anonymous mapping, made at the first port_heap, whose
 * pages cost nothing until they are touched. */
static void *heap_base;
static size_t heap_mapped;
static volatile sig_atomic_t tick_count;
static volatile port_tick_fn tick_fn;
static uint32_t tick_hz;
static int host_argc;
static char **host_argv;
static FILE *files[HOST_FILES_MAX];
static int initialised;

static void on_alarm(int sig)
{
    (void)sig;
    tick_count++;
    port_tick_fn fn = tick_fn;
    if (fn)
        fn();
}

void port_init(void)
{
    if (initialised)
        return;
    initialised = 1;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, NULL);
    port_tick_config(PORT_TICK_HZ_DEFAULT);
}

void port_host_set_args(int argc, char **argv)
{
    host_argc = argc;
    host_argv = argv;
}

/* Where console output goes while a tool frames it (port_console_sink). */
static port_sink_fn sink;

void port_console_sink(port_sink_fn fn)
{
    sink = fn;
}

void port_raw_write(const char *s, size_t n)
{
    fwrite(s, 1, n, stdout);
    fflush(stdout);
}

void port_putc(int c)
{
    if (sink != NULL) {
        char ch = (char)c;
        sink(1, &ch, 1);
        return;
    }
    putchar(c);
    if (c == '\n')
        fflush(stdout);
}

void port_write(const char *s, size_t n)
{
    if (sink != NULL)
        sink(1, s, n);
    else
        fwrite(s, 1, n, stdout);
}

void port_write_err(const char *s, size_t n)
{
    if (sink != NULL) {
        sink(2, s, n);
        return;
    }
    fflush(stdout);
    fwrite(s, 1, n, stderr);
    fflush(stderr);
}

void port_puts(const char *s)
{
    port_write(s, strlen(s));
}

int port_getc(void)
{
    fflush(stdout);
    int c = getchar();
    return c == EOF ? -1 : c;
}

int port_pollc(void)
{
    return -1;
}

void port_console_onbreak(port_break_fn fn)
{
    (void)fn;
}

uint64_t port_cycles64(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint32_t port_cycles(void)
{
    return (uint32_t)port_cycles64();
}

uint32_t port_lap_period; /* 0: a lap is port_cycles */

uint32_t port_lap(void)
{
    return port_cycles();
}

uint32_t port_cycle_hz(void)
{
    return 1000000000u;
}

const char *port_cycle_source(void)
{
    return "host";
}

/* One multiply-xorshift round, a bijection of h for a given v. */
static uint32_t entropy_mix(uint32_t h, uint32_t v)
{
    h = (h ^ v) * 0x9E3779B1u;
    return h ^ (h >> 15);
}

uint32_t port_entropy(void)
{
    static uint32_t calls;
    calls++;
    const char *fixed = getenv("RTLUA_ENTROPY");
    if (fixed != NULL && *fixed != '\0')
        return entropy_mix(
            entropy_mix((uint32_t)strtoul(fixed, NULL, 0), calls), calls);
    uint32_t v = 0;
    int fd = open("/dev/urandom", O_RDONLY);
    if (fd >= 0) {
        if (read(fd, &v, sizeof v) != (ssize_t)sizeof v)
            v = 0;
        close(fd);
    }
    /* Without /dev/urandom: the clock, the process and the address
     * layout. */
    uint64_t t = port_cycles64();
    v = entropy_mix(v, (uint32_t)t);
    v = entropy_mix(v, (uint32_t)(t >> 32) ^ (uint32_t)getpid());
    return entropy_mix(v, (uint32_t)(uintptr_t)&calls ^ calls);
}

void port_tick_config(uint32_t hz)
{
    struct itimerval it;
    memset(&it, 0, sizeof it);
    if (hz > 0) {
        long us = (long)(1000000u / hz);
        if (us < 1)
            us = 1;
        it.it_interval.tv_usec = us;
        it.it_value.tv_usec = us;
    }
    tick_hz = hz;
    tick_count = 0;
    setitimer(ITIMER_REAL, &it, NULL);
}

uint32_t port_tick_hz(void)
{
    return tick_hz;
}

uint32_t port_ticks(void)
{
    return (uint32_t)tick_count;
}

void port_on_tick(port_tick_fn fn)
{
    tick_fn = fn;
}

port_irqstate port_critical_enter(void)
{
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGALRM);
    sigprocmask(SIG_BLOCK, &block, &old);
    return sigismember(&old, SIGALRM) ? 1u : 0u;
}

void port_critical_exit(port_irqstate s)
{
    if (s == 0) {
        sigset_t unblock;
        sigemptyset(&unblock);
        sigaddset(&unblock, SIGALRM);
        sigprocmask(SIG_UNBLOCK, &unblock, NULL);
    }
}

void port_idle(void)
{
    struct timespec ts = {0, 50000};
    nanosleep(&ts, NULL);
}

_Noreturn void port_exit(int status)
{
    if (sink != NULL) /* a tool frames the output: it learns the status */
        sink(0, NULL, (size_t)(unsigned)status);
    fflush(stdout);
    exit(status);
}

int port_args(char **argv, int max)
{
    int n = 0;
    for (int i = 0; i < host_argc && n < max; i++)
        argv[n++] = host_argv[i];
    return n;
}

int port_file_open(const char *path, const char *mode)
{
    for (int fd = 0; fd < HOST_FILES_MAX; fd++) {
        if (files[fd] == NULL) {
            FILE *f = fopen(path, mode);
            if (f == NULL)
                return -1;
            files[fd] = f;
            return fd;
        }
    }
    errno = EMFILE;
    return -1;
}

static FILE *file_of(int fd)
{
    return fd >= 0 && fd < HOST_FILES_MAX ? files[fd] : NULL;
}

FILE *port_host_file(int fd)
{
    return file_of(fd);
}

long port_file_read(int fd, void *buf, size_t n)
{
    FILE *f = file_of(fd);
    if (f == NULL)
        return -1;
    size_t got = fread(buf, 1, n, f);
    return ferror(f) ? -1 : (long)got;
}

long port_file_write(int fd, const void *buf, size_t n)
{
    FILE *f = file_of(fd);
    if (f == NULL)
        return -1;
    return (long)fwrite(buf, 1, n, f);
}

long port_file_size(int fd)
{
    FILE *f = file_of(fd);
    if (f == NULL)
        return -1;
    long here = ftell(f);
    if (here < 0 || fseek(f, 0, SEEK_END) != 0)
        return -1;
    long size = ftell(f);
    fseek(f, here, SEEK_SET);
    return size;
}

int port_file_seek(int fd, long pos)
{
    FILE *f = file_of(fd);
    if (f == NULL)
        return -1;
    return fseek(f, pos, SEEK_SET) == 0 ? 0 : -1;
}

int port_file_close(int fd)
{
    FILE *f = file_of(fd);
    if (f == NULL)
        return -1;
    files[fd] = NULL;
    return fclose(f) == 0 ? 0 : -1;
}

int port_file_flush(int fd)
{
    FILE *f = fd == PORT_FILE_CONSOLE ? stdout : file_of(fd);
    if (f == NULL)
        return -1;
    return fflush(f) == 0 ? 0 : -1;
}

int port_file_setvbuf(int fd, int mode, size_t size)
{
    static const int modes[] = {[PORT_BUF_NO] = _IONBF,
                                [PORT_BUF_FULL] = _IOFBF,
                                [PORT_BUF_LINE] = _IOLBF};
    FILE *f = fd == PORT_FILE_CONSOLE ? stdout : file_of(fd);
    if (f == NULL || mode < 0 || mode > PORT_BUF_LINE)
        return -1;
    /* stdio allocates a buffer of size at the next write (none for
     * _IONBF); 0 keeps its own choice. */
    return setvbuf(f, NULL, modes[mode], size) == 0 ? 0 : -1;
}

void port_file_clearerr(int fd)
{
    FILE *f = fd == PORT_FILE_CONSOLE ? stdin : file_of(fd);
    if (f != NULL)
        clearerr(f);
}

static int failed_errno(void)
{
    return errno != 0 ? errno : -1;
}

int port_file_remove(const char *path)
{
    errno = 0;
    return remove(path) == 0 ? 0 : failed_errno();
}

int port_file_rename(const char *from, const char *to)
{
    errno = 0;
    return rename(from, to) == 0 ? 0 : failed_errno();
}

int port_file_tmpname(char *buf, size_t cap)
{
    static const char pattern[] = "/tmp/lua_XXXXXX";
    if (cap < sizeof pattern)
        return -1;
    memcpy(buf, pattern, sizeof pattern);
    errno = 0;
    int fd = mkstemp(buf);
    if (fd == -1)
        return failed_errno();
    close(fd);
    return 0;
}

const char *port_file_strerror(int en)
{
    return en > 0 ? strerror(en) : "error";
}

size_t port_stack_left(void)
{
    return SIZE_MAX;
}

/* port_heap_size's arena bytes (0: RTLUA_HOST_ARENA). */
static size_t heap_bytes;

/* Reserves at least `bytes` of address space (a larger mapping is kept).
 * 0, or -1 with the old mapping gone. */
static int heap_map(size_t bytes)
{
    if (heap_base != NULL && heap_mapped >= bytes)
        return 0;
    if (heap_base != NULL)
        munmap(heap_base, heap_mapped);
    heap_base = NULL;
    heap_mapped = 0;
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
        return -1;
    heap_base = p;
    heap_mapped = bytes;
    return 0;
}

void port_heap(void **start, size_t *bytes)
{
    size_t want = heap_bytes != 0 ? heap_bytes : RTLUA_HOST_ARENA;
    if (heap_map(want) != 0) {
        static const char msg[] = "rtlua: cannot reserve the arena\n";
        port_write_err(msg, sizeof msg - 1);
        exit(1);
    }
    *start = heap_base;
    *bytes = want;
}

int port_heap_size(size_t bytes)
{
    if (bytes > HOST_ARENA_MAX)
        return -1;
    if (heap_map(bytes != 0 ? bytes : RTLUA_HOST_ARENA) != 0)
        return -1;
    heap_bytes = bytes;
    return 0;
}

const char *port_board(void)
{
    return "host";
}

const char *port_core(void)
{
#if defined(__x86_64__)
    return "x86_64";
#elif defined(__aarch64__)
    return "aarch64";
#else
    return "unknown";
#endif
}

uint32_t port_clock_hz(void)
{
    return 1000000000u;
}

int port_loadlib(const char *path, const char *sym, port_fn *fn,
                 const char **err)
{
    int global = strcmp(sym, "*") == 0;
    void *lib = dlopen(path, RTLD_NOW | (global ? RTLD_GLOBAL : RTLD_LOCAL));
    if (lib == NULL) {
        *err = dlerror();
        return PORT_LIB_OPEN;
    }
    if (global) {
        *fn = NULL;
        return PORT_LIB_OK;
    }
    void *f = dlsym(lib, sym);
    if (f == NULL) {
        *err = dlerror();
        return PORT_LIB_INIT;
    }
    /* POSIX: dlsym's result of a function is that function. */
    memcpy(fn, &f, sizeof *fn);
    return PORT_LIB_OK;
}

/* No interrupts to attach on the host (its hw board has no devices that
 * raise any), and no reset: the process ends instead. */
int port_irq_attach(int line, void (*fn)(void *), void *arg)
{
    (void)line;
    (void)fn;
    (void)arg;
    return -1;
}

void port_irq_detach(int line)
{
    (void)line;
}

void *port_irq_arg(int line)
{
    (void)line;
    return NULL;
}

void port_irq_enable(int line, int on)
{
    (void)line;
    (void)on;
}

int port_reset_cause(void)
{
    return PORT_RESET_POWER;
}

void port_reset_note(int cause)
{
    (void)cause;
}

int port_reset(void)
{
    return -1;
}

int port_host_map(const char *path, void *at, size_t max, size_t *len,
                  const char **err)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        *err = strerror(errno);
        return -1;
    }
    off_t end = lseek(fd, 0, SEEK_END);
    if (end <= 0 || (uint64_t)end > max) {
        close(fd);
        *err = end == 0 ? "empty file" : "larger than the image region";
        return -1;
    }
    /* Never over another mapping: a hint, then a check. */
    void *p = mmap(at, (size_t)end, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (p == MAP_FAILED) {
        *err = strerror(errno);
        return -1;
    }
    if (p != at) {
        munmap(p, (size_t)end);
        *err = "the image region's address is taken";
        return -1;
    }
    *len = (size_t)end;
    return 0;
}
