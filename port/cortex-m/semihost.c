/*
 * semihost.c — ARM semihosting (BKPT 0xAB) for exit status, host files
 * and the command line.  QEMU serves these with `-semihosting-config
 * enable=on,target=native`.  On hardware without a debugger a semihosting
 * call would fault, so only the functions here issue BKPT 0xAB.
 */
#include "port/cortex-m/cm.h"
#include "port/port.h"

#include <string.h>

enum {
    SYS_OPEN = 0x01,
    SYS_CLOSE = 0x02,
    SYS_WRITE0 = 0x04,
    SYS_WRITE = 0x05,
    SYS_READ = 0x06,
    SYS_ISTTY = 0x09,
    SYS_SEEK = 0x0A,
    SYS_FLEN = 0x0C,
    SYS_TMPNAM = 0x0D,
    SYS_REMOVE = 0x0E,
    SYS_RENAME = 0x0F,
    SYS_ERRNO = 0x13,
    SYS_GET_CMDLINE = 0x15,
    SYS_EXIT = 0x18,
    SYS_EXIT_EXTENDED = 0x20,
};

/* ADP_Stopped_ApplicationExit: the reason code for a normal exit. */
#define ADP_APPLICATION_EXIT 0x20026u
/* Temporary names port_file_tmpname tries before it gives up: the host
 * makes one name per identifier (0..255), and files of an earlier run
 * may still hold some. */
#define TMPNAM_TRIES 256
/* Bytes of command line port_args keeps. */
#define CMDLINE_MAX 512

static int semihost(int op, const void *arg)
{
    register int r0 __asm("r0") = op;
    register const void *r1 __asm("r1") = arg;
    __asm volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

void cm_semihost_exit(int status)
{
    const uint32_t block[2] = {ADP_APPLICATION_EXIT, (uint32_t)status};
    semihost(SYS_EXIT_EXTENDED, block);
    /* A host without SYS_EXIT_EXTENDED: SYS_EXIT can only say "done". */
    semihost(SYS_EXIT, (const void *)(uintptr_t)ADP_APPLICATION_EXIT);
    for (;;)
        __asm volatile("wfi");
}

int port_file_open(const char *path, const char *mode)
{
    /* Semihosting open modes: r=0, rb=1, w=4, wb=5, a=8, ab=9. */
    int m = mode[0] == 'w' ? 4 : mode[0] == 'a' ? 8 : 0;
    if (strchr(mode, 'b'))
        m |= 1;
    if (strchr(mode, '+'))
        m |= 2;
    const uint32_t block[3] = {(uint32_t)(uintptr_t)path, (uint32_t)m,
                               (uint32_t)strlen(path)};
    return semihost(SYS_OPEN, block);
}

long port_file_read(int fd, void *buf, size_t n)
{
    const uint32_t block[3] = {(uint32_t)fd, (uint32_t)(uintptr_t)buf,
                               (uint32_t)n};
    int left = semihost(SYS_READ, block); /* bytes NOT read */
    if (left < 0 || (size_t)left > n)
        return -1;
    return (long)(n - (size_t)left);
}

long port_file_write(int fd, const void *buf, size_t n)
{
    const uint32_t block[3] = {(uint32_t)fd, (uint32_t)(uintptr_t)buf,
                               (uint32_t)n};
    int left = semihost(SYS_WRITE, block);
    if (left < 0 || (size_t)left > n)
        return -1;
    return (long)(n - (size_t)left);
}

long port_file_size(int fd)
{
    const uint32_t block[1] = {(uint32_t)fd};
    return semihost(SYS_FLEN, block);
}

int port_file_seek(int fd, long pos)
{
    const uint32_t block[2] = {(uint32_t)fd, (uint32_t)pos};
    return pos >= 0 && semihost(SYS_SEEK, block) == 0 ? 0 : -1;
}

int port_file_close(int fd)
{
    const uint32_t block[1] = {(uint32_t)fd};
    return semihost(SYS_CLOSE, block) == 0 ? 0 : -1;
}

/* Semihosting files have no buffer in the target and no sticky state:
 * every SYS_WRITE reaches the host file, every SYS_READ reads at the
 * position.  The console is the UART, unbuffered. */
int port_file_flush(int fd)
{
    (void)fd;
    return 0;
}

int port_file_setvbuf(int fd, int mode, size_t size)
{
    (void)fd;
    (void)size;
    return mode >= 0 && mode <= PORT_BUF_LINE ? 0 : -1;
}

void port_file_clearerr(int fd)
{
    (void)fd;
}

static int host_errno(void)
{
    int en = semihost(SYS_ERRNO, NULL);
    return en > 0 ? en : -1;
}

int port_file_remove(const char *path)
{
    const uint32_t block[2] = {(uint32_t)(uintptr_t)path,
                               (uint32_t)strlen(path)};
    return semihost(SYS_REMOVE, block) == 0 ? 0 : host_errno();
}

int port_file_rename(const char *from, const char *to)
{
    const uint32_t block[4] = {(uint32_t)(uintptr_t)from,
                               (uint32_t)strlen(from), (uint32_t)(uintptr_t)to,
                               (uint32_t)strlen(to)};
    return semihost(SYS_RENAME, block) == 0 ? 0 : host_errno();
}

/* SYS_TMPNAM only names a file; as mkstemp, the name returned is of a
 * file that did not exist and now does (empty).  "r" then "w" is not
 * atomic, but the names are the emulator's own (its process id). */
int port_file_tmpname(char *buf, size_t cap)
{
    static unsigned next_id;
    for (int i = 0; i < TMPNAM_TRIES; i++) {
        const uint32_t block[3] = {(uint32_t)(uintptr_t)buf, next_id++ & 0xFFu,
                                   (uint32_t)cap};
        if (semihost(SYS_TMPNAM, block) != 0)
            return -1;
        buf[cap - 1] = '\0';
        int fd = port_file_open(buf, "r");
        if (fd >= 0) {
            port_file_close(fd); /* taken: the next identifier */
            continue;
        }
        fd = port_file_open(buf, "w");
        if (fd < 0)
            return host_errno();
        port_file_close(fd);
        return 0;
    }
    return -1;
}

/* The host's errno values are Linux's (QEMU passes them through); the
 * common ones in strerror's words, without newlib's table. */
const char *port_file_strerror(int en)
{
    static const struct {
        int en;
        const char *msg;
    } msgs[] = {
        {1, "Operation not permitted"},
        {2, "No such file or directory"},
        {5, "Input/output error"},
        {13, "Permission denied"},
        {16, "Device or resource busy"},
        {17, "File exists"},
        {18, "Invalid cross-device link"},
        {20, "Not a directory"},
        {21, "Is a directory"},
        {22, "Invalid argument"},
        {28, "No space left on device"},
        {30, "Read-only file system"},
        {36, "File name too long"},
        {39, "Directory not empty"},
    };
    for (size_t i = 0; i < sizeof msgs / sizeof msgs[0]; i++)
        if (msgs[i].en == en)
            return msgs[i].msg;
    return "error";
}

int port_args(char **argv, int max)
{
    static char line[CMDLINE_MAX];
    uint32_t block[2] = {(uint32_t)(uintptr_t)line, sizeof line - 1};
    if (semihost(SYS_GET_CMDLINE, block) != 0)
        return 0;
    line[block[1] < sizeof line ? block[1] : sizeof line - 1] = '\0';
    int argc = 0;
    char *p = line;
    while (*p && argc < max) {
        while (*p == ' ')
            *p++ = '\0';
        if (!*p)
            break;
        argv[argc++] = p;
        while (*p && *p != ' ')
            p++;
    }
    return argc;
}

/* ---- The host's stdin (the REPL's piped input) ----------------------
 * QEMU -nographic feeds the UART from stdin, but a guest cannot see the
 * end of piped input there; a semihosting read of the host's stdin
 * returns 0 at its end.  ":tt" opened for reading is the host's fd 0
 * under target=native, non-blocking because QEMU's stdio chardev set it
 * so (no data would look like the end): reopening "/dev/stdin" gives a
 * blocking description of the same pipe or file.  A pipe's bytes are
 * shared with QEMU's UART reader, which takes one whenever the UART's
 * receive register is empty: that byte comes before what a read returns
 * next, so it is taken first, and the UART stops receiving (where the
 * board can tell it to) so that no later byte goes there.  A regular file
 * reopened has its own offset: what the UART took from the other description
 * is a copy. */
#define STDIN_UNKNOWN (-2)
static int stdin_fd = STDIN_UNKNOWN;
static int stdin_shared; /* a pipe: the UART may hold its next byte */

/* Boards whose UART can stop receiving override this. */
__attribute__((weak)) void board_uart_rx_off(void)
{
}

int port_stdin_piped(void)
{
    if (stdin_fd != STDIN_UNKNOWN)
        return stdin_fd >= 0;
    stdin_fd = -1;
    int tt = port_file_open(":tt", "r");
    if (tt < 0)
        return 0;
    const uint32_t block[1] = {(uint32_t)tt};
    if (semihost(SYS_ISTTY, block) != 0) {
        port_file_close(tt);
        return 0;
    }
    int fd = port_file_open("/dev/stdin", "rb");
    if (fd >= 0)
        port_file_close(tt);
    else
        fd = tt;
    stdin_fd = fd;
    stdin_shared = port_file_size(fd) <= 0;
    board_uart_rx_off();
    return 1;
}

long port_stdin_read(void *buf, size_t n)
{
    if (!port_stdin_piped())
        return -1;
    if (n == 0)
        return 0;
    if (stdin_shared) {
        int c = port_pollc();
        if (c >= 0) {
            *(unsigned char *)buf = (unsigned char)c;
            return 1;
        }
    }
    return port_file_read(stdin_fd, buf, n);
}
