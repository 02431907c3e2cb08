/*
 * main.c — the rtlua program, one main for the host and the boards.
 *
 *   rtlua [-T] [-e stat] [-i] [-v] [-] [script [args]]
 *
 * as lua5.4: options run in order, then the script (stdin for "-", or
 * when there is neither a script nor -e/-v) gets the remaining words as
 * `...`; the global `arg` holds the script at 0, its arguments at 1..n
 * and the interpreter and options at negative indices.  -i, or no
 * script and no -e/-v with stdin a terminal, runs the REPL (lib/repl.c)
 * after the version line; with stdin not a terminal, stdin is the
 * chunk.  An uncaught
 * error prints "rtlua: " + message + traceback (stderr on the host,
 * the console on a board) and the status is 1.
 *
 * On a board the words come from port_args (semihosting) with the
 * script first; with no script (or when the image itself is the first
 * word) it prints the banner and runs the REPL on the console.  Everything
 * runs inside one protected call so the C stack of main stays small: boards
 * have a few KiB of it.
 */
#include <string.h>

#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"
#include "port/port.h"
#include "rtlua.h"
#ifdef RTLUA_HOST
#include <stdio.h>
#include <unistd.h>

#include "port/host/host.h"
#endif

#define PROGNAME "rtlua"

/* Most command-line words taken from port_args on a board. */
#define MAIN_ARGS_MAX 32

/* Option bits seen while scanning the command line. */
#define HAS_E 1
#define HAS_V 2
#define BAD_OPTION 4
#define HAS_I 8

#ifndef RTLUA_HOST
static void banner(void)
{
    void *heap;
    size_t bytes;
    port_heap(&heap, &bytes);
    port_printf("rtlua 0.1 on %s (%s, %u Hz, cycles from %s), arena %u bytes "
                "at %p\n",
                port_board(), port_core(), (unsigned)port_clock_hz(),
                port_cycle_source(), (unsigned)bytes, heap);
}
#endif

/* Error output: stderr on the host (after what print buffered on
 * stdout), the console on a board. */
static void err_write(const char *s)
{
#ifdef RTLUA_HOST
    fflush(stdout);
    fputs(s, stderr);
    fflush(stderr);
#else
    port_puts(s);
#endif
}

static void report_message(const char *msg)
{
    err_write(PROGNAME ": ");
    err_write(msg);
    err_write("\n");
}

/* Prints the error object on top of the stack when status is an error;
 * returns status. */
static int report(lua_State *L, int status)
{
    if (status != LUA_OK) {
        const char *msg = lua_tostring(L, -1);
        report_message(msg != NULL ? msg : "(error object is not a string)");
        lua_pop(L, 1);
    }
    return status;
}

/* Calls the function below the narg arguments on top, with the handler. */
static int do_call(lua_State *L, int narg, int nres)
{
    int base = lua_gettop(L) - narg;
    lua_pushcfunction(L, rtlua_msghandler);
    lua_insert(L, base);
    int status = lua_pcall(L, narg, nres, base);
    lua_remove(L, base);
    return status;
}

static int do_string(lua_State *L, const char *s, const char *name)
{
    int status = luaL_loadbuffer(L, s, strlen(s), name);
    if (status == LUA_OK)
        status = do_call(L, 0, 0);
    return report(L, status);
}

/* Scans the options from argv[first]; returns the index of the script
 * (argc when there is none) and sets *flags.  On a bad option, *bad is
 * the offending word. */
static int scan_args(char **argv, int argc, int first, int *flags,
                     const char **bad)
{
    *flags = 0;
    for (int i = first; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-' || a[1] == '\0')
            return i;
        switch (a[1]) {
        case '-':
            if (a[2] != '\0')
                break;
            return i + 1;
        case 'e':
            *flags |= HAS_E;
            if (a[2] == '\0' && ++i >= argc) {
                *bad = a;
                *flags |= BAD_OPTION;
                return argc;
            }
            continue;
        case 'v':
            if (a[2] != '\0')
                break;
            *flags |= HAS_V;
            continue;
        case 'i':
            if (a[2] != '\0')
                break;
            *flags |= HAS_I | HAS_V;
            continue;
        default:
            break;
        }
        *bad = a;
        *flags |= BAD_OPTION;
        return argc;
    }
    return argc;
}

static void usage(const char *bad)
{
    err_write(PROGNAME ": ");
    if (bad[1] == 'e') {
        err_write("'-e' needs argument");
    } else {
        err_write("unrecognized option '");
        err_write(bad);
        err_write("'");
    }
    err_write("\nusage: " PROGNAME " [options] [script [args]]\n"
              "Available options are:\n"
              "  -e stat   execute string 'stat'\n"
              "  -i        enter interactive mode after executing 'script'\n"
              "  -v        show version information\n"
              "  --        stop handling options\n"
              "  -         stop handling options and execute stdin\n");
}

/* arg[i - script] = argv[i]: the script at 0, what precedes it below. */
static void make_arg_table(lua_State *L, char **argv, int argc, int script)
{
    if (script >= argc)
        script = 0;
    lua_createtable(L, argc - script, script + 1);
    for (int i = 0; i < argc; i++) {
        lua_pushstring(L, argv[i]);
        lua_rawseti(L, -2, i - script);
    }
    lua_setglobal(L, "arg");
}

static int run_options(lua_State *L, char **argv, int first, int script)
{
    for (int i = first; i < script; i++) {
        const char *a = argv[i];
        if (a[1] != 'e')
            continue;
        const char *chunk = a[2] != '\0' ? a + 2 : argv[++i];
        if (do_string(L, chunk, "=(command line)") != LUA_OK)
            return 0;
    }
    return 1;
}

static int run_script(lua_State *L, char **argv, int argc, int script)
{
    const char *name = argv[script];
    if (strcmp(name, "-") == 0 &&
        (script == 0 || strcmp(argv[script - 1], "--") != 0))
        name = NULL;
    int status = luaL_loadfile(L, name);
    if (status == LUA_OK) {
        int n = argc - script - 1;
        luaL_checkstack(L, n + 3, "too many arguments to script");
        for (int i = script + 1; i < argc; i++)
            lua_pushstring(L, argv[i]);
        status = do_call(L, n, LUA_MULTRET);
    }
    return report(L, status) == LUA_OK;
}

/* Is the console a terminal someone types at?  A board's console is. */
static int console_is_terminal(void)
{
#ifdef RTLUA_HOST
    return isatty(0);
#else
    return 1;
#endif
}

static void print_version(void)
{
    lua_writestring(LUA_COPYRIGHT, strlen(LUA_COPYRIGHT));
    lua_writeline();
}

/* Arena bytes in use once the libraries are open (for -T). */
static size_t opened_in_use;

/* The program, in protected mode: (argc, argv, first) -> success. */
static int protected_main(lua_State *L)
{
    int argc = (int)lua_tointeger(L, 1);
    char **argv = lua_touserdata(L, 2);
    int first = (int)lua_tointeger(L, 3);
    int flags;
    const char *bad = NULL;
    int script = scan_args(argv, argc, first, &flags, &bad);
    if (flags & BAD_OPTION) {
        usage(bad);
        return 0;
    }
    luaL_openlibs(L);
    rtlua_GCStats stats;
    rtlua_gcstats(L, &stats);
    opened_in_use = stats.bytes_in_use;
    /* lua.c runs scripts in generational mode: rtlua's collector stays
     * incremental, but collectgarbage("incremental") answers as there. */
    lua_gc(L, LUA_GCGEN, 0, 0);
    make_arg_table(L, argv, argc, script);
    if (flags & HAS_V)
        print_version();
    if (!run_options(L, argv, first, script))
        return 0;
    int ok = 1;
    if (script < argc) {
        ok = run_script(L, argv, argc, script);
    } else if (!(flags & (HAS_E | HAS_V))) {
        if (console_is_terminal()) {
#ifdef RTLUA_HOST
            print_version(); /* a board's main printed its banner */
#endif
            flags |= HAS_I;
        } else {
            ok = report(L, luaL_loadfile(L, NULL)) == LUA_OK &&
                 report(L, do_call(L, 0, 0)) == LUA_OK;
        }
    }
    if (ok && (flags & HAS_I))
        rtlua_repl(L);
    lua_pushboolean(L, ok);
    return 1;
}

static int run_state(char **argv, int argc, int first, size_t *peak);

/* "-T" first (rtlua's own option): at exit, print the run's length in
 * port cycles and nanoseconds on the error console, then the arena's
 * bytes in use (headers included) just after the libraries were opened,
 * before any script, and at its peak over the state's life.  Under
 * QEMU with -icount shift=0 a nanosecond is one instruction, which is
 * how the benchmarks count instructions on the boards. */
static void print_time(uint64_t cycles, size_t peak)
{
    uint32_t hz = port_cycle_hz();
    uint64_t ns = hz ? cycles * 1000000000u / hz : 0;
    char buf[96];
    port_snprintf(
        buf, sizeof buf, PROGNAME ": %llu cycles at %u Hz, %llu ns\n",
        (unsigned long long)cycles, (unsigned)hz, (unsigned long long)ns);
    err_write(buf);
    port_snprintf(buf, sizeof buf,
                  PROGNAME ": arena %llu bytes after opening the libraries, "
                           "peak %llu bytes\n",
                  (unsigned long long)opened_in_use, (unsigned long long)peak);
    err_write(buf);
}

static int run(char **argv, int argc, int first)
{
    int timed = first < argc && strcmp(argv[first], "-T") == 0;
    uint64_t start = port_cycles64();
    size_t peak = 0;
    if (timed)
        first++;
    int rc = run_state(argv, argc, first, &peak);
    if (timed)
        print_time(port_cycles64() - start, peak);
    return rc;
}

static int run_state(char **argv, int argc, int first, size_t *peak)
{
    lua_State *L = luaL_newstate();
    if (L == NULL) {
        report_message("cannot create state: not enough memory");
        return 1;
    }
    lua_pushcfunction(L, protected_main);
    lua_pushinteger(L, argc);
    lua_pushlightuserdata(L, argv);
    lua_pushinteger(L, first);
    int status = lua_pcall(L, 3, 1, 0);
    int ok = status == LUA_OK && lua_toboolean(L, -1);
    report(L, status);
    rtlua_GCStats stats;
    rtlua_gcstats(L, &stats);
    *peak = stats.peak_in_use;
    lua_close(L);
    return ok ? 0 : 1;
}

#ifdef RTLUA_HOST
int main(int argc, char **argv)
{
    port_host_set_args(argc, argv);
    port_init();
    port_exit(run(argv, argc, 1));
}
#else
static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

int main(void)
{
    static char *argv[MAIN_ARGS_MAX];
    int argc = port_args(argv, MAIN_ARGS_MAX);
    if (argc == 0 || ends_with(argv[0], ".elf")) {
        banner();
        port_exit(run(argv, argc, argc));
    }
    port_exit(run(argv, argc, 0));
}
#endif
