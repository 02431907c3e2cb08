/*
 * iolib.c — the io library (Lua 5.4 §6.8): io.write, read, lines, open,
 * close, input, output, type, the standard files and file handles.
 *
 * A file handle is a full userdata with the metatable "FILE*".  It reads
 * and writes through the port, never stdio: the console (port_getc,
 * port_write, port_write_err) for io.stdin/stdout/stderr, and
 * port_file_* for opened files (stdio on the host, semihosting host
 * files on QEMU).  Opened files carry a read buffer so that reading a
 * line costs one port call per buffer, not per byte (a semihosting call
 * traps into the emulator); the standard handles carry none, which keeps
 * the standard handles in flash (ROM userdata; see "the standard files").
 * Writes are buffered by the port only (stdio on the host; semihosting
 * writes at once): flush and setvbuf pass to it, for opened files and
 * the console's output.
 *
 * Invariants:
 * - The logical position of an opened file is its port position minus
 *   the bytes still buffered (and the pushed-back byte, if any); every
 *   write or seek first drops the buffer, moving the port back to the
 *   logical position.
 * - A handle's block begins with a luaL_Stream (lauxlib.h), as Lua's
 *   does, so C modules can tell an open handle (closef not NULL) and make
 *   their own: io's own have closef io_fclose (opened files) or
 *   io_noclose (the standard files).  A closed handle keeps its userdata
 *   (kind IO_CLOSED, closef NULL); using it raises "attempt to use a
 *   closed file".  A handle made by a module is closed through its
 *   closef, collected and printed as io's are; reading and writing it is
 *   an error (io reads and writes through the port, not through f).
 * - f is the host's FILE * behind the handle (stdio: an opened file's
 *   stream, stdin/stdout/stderr); on a board, where io uses no stdio, it
 *   is an opaque pointer, not NULL while the file is open.
 * - Every read call starts with the port's clearerr (as liolib's g_read
 *   with C's): an end of file or an error is a state of one read, never
 *   of the handle.
 */
#ifdef RTLUA_HOST
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "port/host/host.h"
#endif

#include <string.h>

#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"
#include "port/port.h"
#include "romtab.h"
#include "rtlua.h"
#include "vm/num.h"
#include "vm/obj.h"

#define IO_HANDLE "FILE*"
/* Registry keys of the default input and output files. */
#define IO_INPUT "_IO_input"
#define IO_OUTPUT "_IO_output"

/* Bytes of read buffer an opened file carries (userdata, arena). */
#ifdef RTLUA_HOST
#define IO_BUFSIZE 1024
#else
#define IO_BUFSIZE 128
#endif
/* Longest numeral read("n") accepts, as lua5.4. */
#define IO_MAXNUM 200
/* Most formats io.lines / file:lines keep for their iterator. */
#define IO_MAXLINEFMT 250
/* No byte pushed back. */
#define IO_NOPEEK (-2)
/* Errno values for the messages the boards cannot take from libc. */
#define IO_ENOENT 2
#define IO_ESPIPE 29

enum { IO_CLOSED, IO_STDIN, IO_STDOUT, IO_STDERR, IO_PORT };

typedef struct io_file {
    luaL_Stream s; /* first: what C modules see */
    int kind;
    int fd;        /* IO_PORT: the port's file */
    int peek;      /* a byte pushed back, or IO_NOPEEK */
    int writing;   /* the port's last operation was a write */
    int err;       /* a port read failed since the last read call */
    long pos;      /* IO_PORT: the port's position */
    size_t rpos;   /* next buffered byte */
    size_t rlen;   /* bytes in the buffer */
    size_t bufcap; /* 0 for the standard handles */
    unsigned char buf[];
} io_file;

/* ---- the standard files ----------------------------------------------
 * io.stdin, io.stdout and io.stderr are ROM userdata in flash (fields of
 * the ROM io table) whose block holds a pointer to their state, a static
 * io_file: so they cost no arena, and the metatable is the ROM one.
 * file_of() turns any handle's block into its io_file. */
typedef struct rom_file {
    GCHEADER;
    uint16_t nuvalue;
    size_t len;
    table *metatable;
    gcobj *gclist;
    _Alignas(8) luaL_Stream s; /* the block (udata_mem: 8-aligned) */
    io_file *file;
} rom_file;

_Static_assert(offsetof(rom_file, nuvalue) == offsetof(udata, nuvalue) &&
                   offsetof(rom_file, len) == offsetof(udata, len) &&
                   offsetof(rom_file, metatable) ==
                       offsetof(udata, metatable) &&
                   offsetof(rom_file, gclist) == offsetof(udata, gclist) &&
                   offsetof(rom_file, s) == udata_offset(0),
               "rom_file is not laid out as a userdata without user values");

static io_file std_files[3];
static int io_fclose(lua_State *L);
static int io_noclose(lua_State *L);

/* On the host the standard handles' luaL_Stream holds stdin, stdout and
 * stderr, which are not constants: the handles are RAM there (still ROM
 * objects to the collector, which never writes them). */
#ifdef RTLUA_HOST
#define STD_CONST
#else
#define STD_CONST const
#endif

#define ROM_FILE(i)                                                           \
    {                                                                         \
        .next = NULL, .tt = V_UDATA, .marked = MARK_ROM_PRESET, .nuvalue = 0, \
        .len = sizeof(luaL_Stream), .metatable = (table *)&romtab_iometa,     \
        .gclist = NULL,                                                       \
        .s = {.f = (FILE *)&std_files[i], .closef = io_noclose},              \
        .file = &std_files[i]                                                 \
    }

static STD_CONST rom_file io_stdin = ROM_FILE(0);
static STD_CONST rom_file io_stdout = ROM_FILE(1);
static STD_CONST rom_file io_stderr = ROM_FILE(2);

static io_file *file_of(void *block)
{
    if (block == &io_stdin.s || block == &io_stdout.s || block == &io_stderr.s)
        return ((const rom_file *)((char *)block - offsetof(rom_file, s)))
            ->file;
    return block;
}

/* A handle io made (not a module's luaL_Stream)? */
static int own_stream(const luaL_Stream *p)
{
    return p->closef == io_fclose || p->closef == io_noclose;
}

static void std_reset(void)
{
    for (int i = 0; i < 3; i++) {
        memset(&std_files[i], 0, sizeof std_files[i]);
        std_files[i].kind = IO_STDIN + i;
        std_files[i].fd = -1;
        std_files[i].peek = IO_NOPEEK;
        std_files[i].s.closef = io_noclose;
    }
#ifdef RTLUA_HOST
    std_files[0].s.f = io_stdin.s.f = stdin;
    std_files[1].s.f = io_stdout.s.f = stdout;
    std_files[2].s.f = io_stderr.s.f = stderr;
#endif
}

/* ---- handles ------------------------------------------------------ */

static io_file *new_file(lua_State *L, int kind, size_t bufcap)
{
    io_file *f = lua_newuserdatauv(L, sizeof(io_file) + bufcap, 0);
    f->kind = IO_CLOSED; /* until it is really open */
    f->fd = -1;
    f->peek = IO_NOPEEK;
    f->writing = 0;
    f->err = 0;
    f->pos = 0;
    f->rpos = f->rlen = 0;
    f->bufcap = bufcap;
    f->s.f = NULL;
    f->s.closef = NULL; /* closed until it is really open */
    luaL_setmetatable(L, IO_HANDLE);
    f->kind = kind;
    return f;
}

/* The handle at arg, open and io's own. */
static io_file *to_file(lua_State *L, int arg)
{
    luaL_Stream *p = luaL_checkudata(L, arg, IO_HANDLE);
    if (p->closef == NULL)
        luaL_error(L, "attempt to use a closed file");
    if (!own_stream(p))
        luaL_error(L, "attempt to read or write a file handle made by a C "
                      "module (io uses only its own)");
    return file_of(p);
}

/* Drops buffered input, putting the port back at the logical position. */
static int sync_pos(io_file *f)
{
    size_t ahead = f->rlen - f->rpos + (f->peek != IO_NOPEEK);
    f->rpos = f->rlen = 0;
    f->peek = IO_NOPEEK;
    if (f->kind != IO_PORT || ahead == 0)
        return 1;
    f->pos -= (long)ahead;
    return port_file_seek(f->fd, f->pos) == 0;
}

static long logical_pos(const io_file *f)
{
    return f->pos - (long)(f->rlen - f->rpos) - (f->peek != IO_NOPEEK);
}

/* Reads one byte: 0..255, -1 at end of input, -2 on a read error. */
static int get_byte(io_file *f)
{
    if (f->peek != IO_NOPEEK) {
        int c = f->peek;
        f->peek = IO_NOPEEK;
        return c;
    }
    if (f->rpos < f->rlen)
        return f->buf[f->rpos++];
    if (f->kind == IO_STDIN)
        return port_getc();
    if (f->kind != IO_PORT)
        return -1;
    if (f->writing) {
        /* stdio wants a positioning call between writing and reading. */
        f->writing = 0;
        if (port_file_seek(f->fd, f->pos) != 0) {
            f->err = 1;
            return -2;
        }
    }
    long n = port_file_read(f->fd, f->buf, f->bufcap);
    if (n < 0) {
        f->err = 1;
        return -2;
    }
    if (n == 0)
        return -1;
    f->pos += n;
    f->rlen = (size_t)n;
    f->rpos = 1;
    return f->buf[0];
}

static void unget_byte(io_file *f, int c)
{
    if (c >= 0)
        f->peek = c;
}

static int write_bytes(io_file *f, const char *s, size_t n)
{
    switch (f->kind) {
    case IO_STDOUT:
        port_write(s, n);
        return 1;
    case IO_STDERR:
        port_write_err(s, n);
        return 1;
    case IO_PORT:
        if (!sync_pos(f))
            return 0;
        f->writing = 1;
        if (n == 0)
            return 1;
        long w = port_file_write(f->fd, s, n);
        if (w > 0)
            f->pos += w;
        return w == (long)n;
    default:
#ifdef RTLUA_HOST
        errno = EBADF;
#endif
        return 0;
    }
}

/* Bytes of a temporary file's name, with its NUL (as os.tmpname's). */
#define IO_TMPNAME_MAX 64

static int fail_msg(lua_State *L, const char *msg, int en)
{
    luaL_pushfail(L);
    lua_pushstring(L, msg);
    lua_pushinteger(L, en);
    return 3;
}

/* The result of a failed port operation, with errno's message on the
 * host. */
static int port_fail(lua_State *L, const char *fname)
{
#ifdef RTLUA_HOST
    return luaL_fileresult(L, 0, fname);
#else
    (void)fname;
    return fail_msg(L, "Input/output error", 5);
#endif
}

/* The standard files' closef: they stay open. */
static int io_noclose(lua_State *L)
{
    luaL_pushfail(L);
    lua_pushliteral(L, "cannot close standard file");
    return 2;
}

/* An opened file's closef: closes the handle at 1, returns the results
 * of file:close. */
static int io_fclose(lua_State *L)
{
    io_file *f = file_of(luaL_checkudata(L, 1, IO_HANDLE));
    int ok = port_file_close(f->fd) == 0;
    f->kind = IO_CLOSED;
    f->fd = -1;
    f->s.f = NULL;
    return ok ? (lua_pushboolean(L, 1), 1) : port_fail(L, NULL);
}

/* Closes the open handle at 1 through its closef (io's or a module's),
 * which is NULL from then on; returns closef's results. */
static int close_stream(lua_State *L)
{
    luaL_Stream *p = luaL_checkudata(L, 1, IO_HANDLE);
    lua_CFunction cf = p->closef;
    if (cf != io_noclose) /* a standard file's may be in flash */
        p->closef = NULL;
    return cf(L);
}

/* file:close and io.close: the handle at 1, open, io's or a module's. */
static int close_handle(lua_State *L)
{
    luaL_Stream *p = luaL_checkudata(L, 1, IO_HANDLE);
    if (p->closef == NULL)
        return luaL_error(L, "attempt to use a closed file");
    return close_stream(L);
}

/* Opens name for a new handle pushed on the stack; NULL on failure. */
static io_file *open_file(lua_State *L, const char *name, const char *mode)
{
    io_file *f = new_file(L, IO_CLOSED, IO_BUFSIZE);
#ifdef RTLUA_HOST
    errno = 0;
#endif
    int fd = port_file_open(name, mode);
    if (fd < 0)
        return NULL;
    f->fd = fd;
    f->kind = IO_PORT;
    f->s.closef = io_fclose;
#ifdef RTLUA_HOST
    f->s.f = port_host_file(fd);
#else
    f->s.f = (FILE *)f; /* opaque: no stdio on a board */
#endif
    if (mode[0] == 'a') {
        /* QEMU's semihosting appends at the start otherwise. */
        long size = port_file_size(fd);
        f->pos = size > 0 ? size : 0;
        if (f->pos > 0)
            port_file_seek(fd, f->pos);
    }
    return f;
}

/* Why the last open failed: errno's message on the host; the boards
 * can only tell that the host did not open it. */
static const char *open_reason(int *en)
{
#ifdef RTLUA_HOST
    if (errno != 0) {
        *en = errno;
        return strerror(errno);
    }
#endif
    *en = IO_ENOENT;
    return "No such file or directory";
}

static int open_failed(lua_State *L, const char *name)
{
    int en;
    const char *why = open_reason(&en);
    luaL_pushfail(L);
    lua_pushfstring(L, "%s: %s", name, why);
    lua_pushinteger(L, en);
    return 3;
}

static int open_error(lua_State *L, const char *name)
{
    int en;
    return luaL_error(L, "cannot open file '%s' (%s)", name, open_reason(&en));
}

static int valid_mode(const char *m)
{
    if (*m == '\0' || strchr("rwa", *m++) == NULL)
        return 0;
    if (*m == '+')
        m++;
    return strspn(m, "b") == strlen(m);
}

/* ---- reading -------------------------------------------------------- */

/* State of read("n"): the numeral so far and the current byte. */
typedef struct numreader {
    io_file *f;
    int c;
    int n;
    char buf[IO_MAXNUM + 1];
} numreader;

static int nr_next(numreader *r)
{
    if (r->n >= IO_MAXNUM) {
        r->buf[0] = '\0'; /* too long: not a numeral */
        return 0;
    }
    r->buf[r->n++] = (char)r->c;
    r->c = get_byte(r->f);
    return 1;
}

static int nr_accept(numreader *r, const char *set)
{
    if (r->c >= 0 && r->c != '\0' && strchr(set, r->c))
        return nr_next(r);
    return 0;
}

static int nr_digits(numreader *r, int hex)
{
    int count = 0;
    while (r->c >= 0 &&
           (hex ? num_hexvalue(r->c) >= 0 : (r->c >= '0' && r->c <= '9')) &&
           nr_next(r))
        count++;
    return count;
}

static int read_number(lua_State *L, io_file *f)
{
    numreader r;
    r.f = f;
    r.n = 0;
    do
        r.c = get_byte(f);
    while (r.c == ' ' || (r.c >= '\t' && r.c <= '\r'));
    nr_accept(&r, "-+");
    int hex = 0, count = 0;
    if (nr_accept(&r, "0")) {
        if (nr_accept(&r, "xX"))
            hex = 1;
        else
            count = 1;
    }
    count += nr_digits(&r, hex);
    if (nr_accept(&r, "."))
        count += nr_digits(&r, hex);
    if (count > 0 && nr_accept(&r, hex ? "pP" : "eE")) {
        nr_accept(&r, "-+");
        nr_digits(&r, 0);
    }
    unget_byte(f, r.c);
    r.buf[r.n] = '\0';
    if (lua_stringtonumber(L, r.buf) != 0)
        return 1;
    luaL_pushfail(L);
    return 0;
}

static int read_line(lua_State *L, io_file *f, int keep_nl)
{
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    int c;
    while ((c = get_byte(f)) >= 0 && c != '\n')
        luaL_addchar(&b, (char)c);
    if (c == '\n' && keep_nl)
        luaL_addchar(&b, '\n');
    luaL_pushresult(&b);
    return c == '\n' || lua_rawlen(L, -1) > 0;
}

static void read_all(lua_State *L, io_file *f)
{
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    int c;
    while ((c = get_byte(f)) >= 0)
        luaL_addchar(&b, (char)c);
    luaL_pushresult(&b);
}

static int read_count(lua_State *L, io_file *f, lua_Integer n)
{
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    int c = 0;
    for (lua_Integer i = 0; i < n && (c = get_byte(f)) >= 0; i++)
        luaL_addchar(&b, (char)c);
    luaL_pushresult(&b);
    return lua_rawlen(L, -1) > 0;
}

/* The port's name of a handle's stream, for flush, setvbuf and
 * clearerr; -1 for a stream the port keeps no state for (stderr is
 * written out at each call). */
static int port_fd(const io_file *f, int output)
{
    if (f->kind == IO_PORT)
        return f->fd;
    if (f->kind == (output ? IO_STDOUT : IO_STDIN))
        return PORT_FILE_CONSOLE;
    return -1;
}

/* Reads the formats at first.. (none: one line); returns the results. */
static int g_read(lua_State *L, io_file *f, int first)
{
    int nargs = lua_gettop(L) - first + 1;
    int ok = 1, n;
    /* Each read starts afresh, as C's clearerr before it: an end of file
     * or an error met before (even by a failed write) does not end this
     * read when the file has grown or the terminal got more input. */
    int fd = port_fd(f, 0);
    if (fd != -1)
        port_file_clearerr(fd);
    f->err = 0;
    if (nargs <= 0) {
        ok = read_line(L, f, 0);
        n = first + 1;
    } else {
        luaL_checkstack(L, nargs + LUA_MINSTACK, "too many arguments");
        for (n = first; nargs-- > 0 && ok; n++) {
            if (lua_type(L, n) == LUA_TNUMBER) {
                lua_Integer l = luaL_checkinteger(L, n);
                if (l == 0) {
                    int c = get_byte(f);
                    unget_byte(f, c);
                    lua_pushliteral(L, "");
                    ok = c >= 0;
                } else {
                    ok = read_count(L, f, l);
                }
                continue;
            }
            const char *p = luaL_checkstring(L, n);
            if (*p == '*')
                p++;
            switch (*p) {
            case 'n':
                ok = read_number(L, f);
                break;
            case 'l':
                ok = read_line(L, f, 0);
                break;
            case 'L':
                ok = read_line(L, f, 1);
                break;
            case 'a':
                read_all(L, f);
                break;
            default:
                return luaL_argerror(L, n, "invalid format");
            }
        }
    }
    if (f->err) {
        f->err = 0;
#ifdef RTLUA_HOST
        if (errno == 0)
            errno = EIO;
#endif
        return port_fail(L, NULL);
    }
    if (!ok) {
        lua_pop(L, 1);
        luaL_pushfail(L);
    }
    return n - first;
}

/* ---- writing -------------------------------------------------------- */

/* Writes the values at first..top; 1 when all went out. */
static int g_write(lua_State *L, io_file *f, int first)
{
    int top = lua_gettop(L);
    int ok = 1;
    for (int arg = first; arg <= top; arg++) {
        if (lua_type(L, arg) == LUA_TNUMBER) {
            char buf[NUM_TOSTRING_MAX];
            int len;
            if (lua_isinteger(L, arg))
                len = port_snprintf(buf, sizeof buf, "%lld",
                                    (long long)lua_tointeger(L, arg));
            else
                len = num_fmt_g((double)lua_tonumber(L, arg),
                                RTLUA_NUM == 64 ? 14 : 7, buf, sizeof buf);
            ok = ok && write_bytes(f, buf, (size_t)len);
        } else {
            size_t l;
            const char *s = luaL_checklstring(L, arg, &l);
            ok = ok && write_bytes(f, s, l);
        }
    }
    return ok;
}

/* ---- default files ---------------------------------------------------- */

/* Pushes the default input or output file: the registry's, or the
 * standard one until io.input/io.output set one. */
static void push_default(lua_State *L, const char *key)
{
    if (lua_getfield(L, LUA_REGISTRYINDEX, key) == LUA_TNIL) {
        lua_pop(L, 1);
        rtlua_pushrom(L, strcmp(key, IO_INPUT) == 0
                             ? (const void *)&io_stdin
                             : (const void *)&io_stdout);
    }
}

static io_file *default_file(lua_State *L, const char *key)
{
    push_default(L, key);
    io_file *f = file_of(lua_touserdata(L, -1));
    if (f == NULL || f->kind == IO_CLOSED)
        luaL_error(L, "default %s file is closed", key + 4); /* "_IO_" */
    return f;
}

static int set_default(lua_State *L, const char *key, const char *mode)
{
    if (!lua_isnoneornil(L, 1)) {
        const char *name = lua_tostring(L, 1);
        if (name != NULL) {
            if (open_file(L, name, mode) == NULL)
                return open_error(L, name);
        } else {
            to_file(L, 1);
            lua_pushvalue(L, 1);
        }
        lua_setfield(L, LUA_REGISTRYINDEX, key);
    }
    push_default(L, key);
    return 1;
}

static int io_input(lua_State *L)
{
    return set_default(L, IO_INPUT, "r");
}

static int io_output(lua_State *L)
{
    return set_default(L, IO_OUTPUT, "w");
}

/* ---- lines ------------------------------------------------------------ */

/* The iterator: upvalues are the file, the format count, whether to
 * close the file at the end, then the formats. */
static int lines_step(lua_State *L)
{
    io_file *f = file_of(lua_touserdata(L, lua_upvalueindex(1)));
    int nfmt = (int)lua_tointeger(L, lua_upvalueindex(2));
    if (f->kind == IO_CLOSED)
        return luaL_error(L, "file is already closed");
    lua_settop(L, 1);
    luaL_checkstack(L, nfmt, "too many arguments");
    for (int i = 1; i <= nfmt; i++)
        lua_pushvalue(L, lua_upvalueindex(3 + i));
    int n = g_read(L, f, 2);
    if (lua_toboolean(L, -n))
        return n;
    if (n > 1 && lua_type(L, -n + 1) == LUA_TSTRING)
        return luaL_error(L, "%s", lua_tostring(L, -n + 1));
    if (lua_toboolean(L, lua_upvalueindex(3))) {
        lua_settop(L, 0);
        lua_pushvalue(L, lua_upvalueindex(1));
        close_stream(L);
    }
    return 0;
}

/* Pushes the iterator over the file at idx with the formats from
 * first.. */
static void push_lines(lua_State *L, int idx, int first, int toclose)
{
    int nfmt = lua_gettop(L) - first + 1;
    if (nfmt < 0)
        nfmt = 0;
    luaL_argcheck(L, nfmt <= IO_MAXLINEFMT, IO_MAXLINEFMT + first,
                  "too many arguments");
    /* The file, the count, the flag and a copy of each format. */
    luaL_checkstack(L, 3 + nfmt, "too many arguments");
    lua_pushvalue(L, idx);
    lua_pushinteger(L, nfmt);
    lua_pushboolean(L, toclose);
    for (int i = 0; i < nfmt; i++)
        lua_pushvalue(L, first + i);
    lua_pushcclosure(L, lines_step, 3 + nfmt);
}

static int io_lines(lua_State *L)
{
    if (lua_isnone(L, 1))
        lua_pushnil(L);
    if (lua_isnil(L, 1)) {
        push_default(L, IO_INPUT);
        lua_replace(L, 1);
        to_file(L, 1); /* lua5.4 says "attempt to use a closed file" */
        push_lines(L, 1, 2, 0);
        return 1;
    }
    const char *name = luaL_checkstring(L, 1);
    if (open_file(L, name, "r") == NULL)
        return open_error(L, name);
    lua_replace(L, 1);
    push_lines(L, 1, 2, 1);
    lua_pushnil(L);
    lua_pushnil(L);
    lua_pushvalue(L, 1);
    return 4;
}

/* ---- the io table ------------------------------------------------------ */

static int io_open(lua_State *L)
{
    const char *name = luaL_checkstring(L, 1);
    const char *mode = luaL_optstring(L, 2, "r");
    luaL_argcheck(L, valid_mode(mode), 2, "invalid mode");
    if (open_file(L, name, mode) == NULL)
        return open_failed(L, name);
    return 1;
}

static int io_close(lua_State *L)
{
    if (lua_isnone(L, 1))
        default_file(L, IO_OUTPUT); /* lands in slot 1 */
    return close_handle(L);
}

static int io_read(lua_State *L)
{
    io_file *f = default_file(L, IO_INPUT);
    lua_pop(L, 1);
    return g_read(L, f, 1);
}

static int io_write(lua_State *L)
{
    io_file *f = default_file(L, IO_OUTPUT);
    lua_pop(L, 1);
    if (!g_write(L, f, 1))
        return port_fail(L, NULL);
    push_default(L, IO_OUTPUT);
    return 1;
}

static int io_type(lua_State *L)
{
    luaL_checkany(L, 1);
    luaL_Stream *p = luaL_testudata(L, 1, IO_HANDLE);
    if (p == NULL)
        luaL_pushfail(L);
    else if (p->closef == NULL)
        lua_pushliteral(L, "closed file");
    else
        lua_pushliteral(L, "file");
    return 1;
}

/* A file that disappears when closed: a new temporary host file (the
 * port's, as os.tmpname's: mkstemp on the host, semihosting's on a
 * board), opened "w+" and removed while open, which the host keeps until
 * it is closed. */
static int io_tmpfile(lua_State *L)
{
    char name[IO_TMPNAME_MAX];
    int en = port_file_tmpname(name, sizeof name);
    if (en != 0)
        return fail_msg(L, port_file_strerror(en), en);
    io_file *f = open_file(L, name, "w+");
    port_file_remove(name);
    return f != NULL ? 1 : port_fail(L, NULL);
}

static int io_popen(lua_State *L)
{
    luaL_checkstring(L, 1);
    return luaL_error(L, "'popen' not supported");
}

/* ---- methods ------------------------------------------------------------ */

static int f_read(lua_State *L)
{
    return g_read(L, to_file(L, 1), 2);
}

static int f_write(lua_State *L)
{
    io_file *f = to_file(L, 1);
    if (!g_write(L, f, 2))
        return port_fail(L, NULL);
    lua_pushvalue(L, 1);
    return 1;
}

static int f_lines(lua_State *L)
{
    to_file(L, 1);
    push_lines(L, 1, 2, 0);
    return 1;
}

static int f_close(lua_State *L)
{
    return close_handle(L);
}

static int f_seek(lua_State *L)
{
    static const char *const modes[] = {"set", "cur", "end", NULL};
    io_file *f = to_file(L, 1);
    int op = luaL_checkoption(L, 2, "cur", modes);
    lua_Integer off = luaL_optinteger(L, 3, 0);
    if (f->kind != IO_PORT)
        return fail_msg(L, "Illegal seek", IO_ESPIPE);
    long base = op == 0 ? 0 : op == 1 ? logical_pos(f) : 0;
    if (op == 2) {
        if (!sync_pos(f))
            return port_fail(L, NULL);
        base = port_file_size(f->fd);
        if (base < 0)
            return port_fail(L, NULL);
    }
    long target = base + (long)off;
    if (target < 0)
        return fail_msg(L, "Invalid argument", 22);
    if (op == 1 && off == 0) {
        lua_pushinteger(L, (lua_Integer)target);
        return 1;
    }
    if (!sync_pos(f) || port_file_seek(f->fd, target) != 0)
        return port_fail(L, NULL);
    f->pos = target;
    f->writing = 0;
    lua_pushinteger(L, (lua_Integer)target);
    return 1;
}

/* The names of the port's PORT_BUF_ modes, in their order. */
static const char *const buf_modes[] = {"no", "full", "line", NULL};
_Static_assert(PORT_BUF_NO == 0 && PORT_BUF_FULL == 1 && PORT_BUF_LINE == 2,
               "buf_modes lists the PORT_BUF_ modes in their order");

static int f_setvbuf(lua_State *L)
{
    io_file *f = to_file(L, 1);
    int mode = luaL_checkoption(L, 2, NULL, buf_modes);
    lua_Integer size = luaL_optinteger(L, 3, 0); /* 0: the port's size */
    int fd = port_fd(f, 1);
#ifdef RTLUA_HOST
    errno = 0;
#endif
    if (fd != -1 &&
        port_file_setvbuf(fd, mode, size > 0 ? (size_t)size : 0) != 0)
        return port_fail(L, NULL);
    lua_pushboolean(L, 1);
    return 1;
}

static int f_flush(lua_State *L)
{
    io_file *f = to_file(L, 1);
    int fd = port_fd(f, 1);
#ifdef RTLUA_HOST
    errno = 0;
#endif
    if (fd != -1 && port_file_flush(fd) != 0)
        return port_fail(L, NULL);
    lua_pushboolean(L, 1);
    return 1;
}

static int io_flush(lua_State *L)
{
    lua_settop(L, 0);
    default_file(L, IO_OUTPUT);
    return f_flush(L);
}

/* __gc and __close: an open handle is closed through its closef (the
 * standard files stay open), its results dropped. */
static int f_gc(lua_State *L)
{
    luaL_Stream *p = luaL_checkudata(L, 1, IO_HANDLE);
    if (p->closef != NULL && p->closef != io_noclose) {
        lua_settop(L, 1);
        close_stream(L);
    }
    return 0;
}

static int f_tostring(lua_State *L)
{
    luaL_Stream *p = luaL_checkudata(L, 1, IO_HANDLE);
    if (p->closef == NULL)
        lua_pushliteral(L, "file (closed)");
    else
        lua_pushfstring(L, "file (%p)", (void *)file_of(p));
    return 1;
}

/* Every table is a ROM table; registry["FILE*"] names the ROM metatable
 * for luaL_checkudata.  The standard files start afresh. */
int luaopen_io(lua_State *L)
{
    std_reset();
    rtlua_pushrom(L, &romtab_iometa);
    lua_setfield(L, LUA_REGISTRYINDEX, IO_HANDLE);
    rtlua_pushrom(L, &romtab_io);
    return 1;
}

#define ROMTAB_FILE_iolib
#include "romtab.inc"
