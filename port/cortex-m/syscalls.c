/*
 * syscalls.c — the newlib system calls.  _sbrk always fails with ENOMEM:
 * all memory is the rtlua arena, so nothing can take memory behind the
 * collector's back (newlib's malloc returns NULL).  The console is fd 0-2.
 * errno is one int of its own (__errno below): newlib's would bring its
 * whole reentrancy structure, over a kilobyte of flash and of RAM, which
 * nothing else here uses (no stdio).
 */
#include "port/port.h"

#include <errno.h>
#include <sys/stat.h>
#include <sys/types.h>

int *__errno(void);
void *_sbrk(ptrdiff_t incr);
int _write(int fd, const char *buf, int len);
int _read(int fd, char *buf, int len);
int _close(int fd);
int _fstat(int fd, struct stat *st);
int _isatty(int fd);
int _lseek(int fd, int off, int whence);
int _kill(int pid, int sig);
int _getpid(void);
_Noreturn void _exit(int status);
void _init(void);
void _fini(void);

/* What errno means on the boards (<errno.h>: *__errno()), for the C
 * library's functions (malloc, the maths) and rtlua's alike. */
int *__errno(void)
{
    static int value;
    return &value;
}

void *_sbrk(ptrdiff_t incr)
{
    (void)incr;
    errno = ENOMEM;
    return (void *)-1;
}

int _write(int fd, const char *buf, int len)
{
    if (fd != 1 && fd != 2) {
        errno = EBADF;
        return -1;
    }
    port_write(buf, (size_t)len);
    return len;
}

int _read(int fd, char *buf, int len)
{
    if (fd != 0) {
        errno = EBADF;
        return -1;
    }
    int n = 0;
    while (n < len) {
        int c = port_getc();
        if (c < 0)
            break;
        buf[n++] = (char)c;
        if (c == '\n')
            break;
    }
    return n;
}

int _close(int fd)
{
    (void)fd;
    return -1;
}

int _fstat(int fd, struct stat *st)
{
    (void)fd;
    st->st_mode = S_IFCHR;
    return 0;
}

int _isatty(int fd)
{
    return fd >= 0 && fd <= 2;
}

int _lseek(int fd, int off, int whence)
{
    (void)fd;
    (void)off;
    (void)whence;
    return 0;
}

int _kill(int pid, int sig)
{
    (void)pid;
    (void)sig;
    errno = EINVAL;
    return -1;
}

int _getpid(void)
{
    return 1;
}

_Noreturn void _exit(int status)
{
    port_exit(status);
}

void _init(void)
{
}

void _fini(void)
{
}
