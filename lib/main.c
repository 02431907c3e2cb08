/*
 * main.c — the rtlua program, one main for the host and the boards.
 *
 *   rtlua [-A BYTES] [-T] [options] [script [args]]
 *
 * On the host it is the standalone Lua of the manual (§7) and behaves as
 * lua5.4 does wherever a user can see it (tests/cli/run compares the two
 * byte for byte):
 *
 * - Every option is checked before anything runs: an unknown one, or -e
 *   or -l whose argument is missing or looks like an option, prints the
 *   usage text on stderr and the status is 1.
 * - Then, in this order: -E sets the registry's LUA_NOENV before the
 *   libraries open, so that package.path and cpath ignore LUA_PATH* and
 *   LUA_CPATH*; the libraries open; the global `arg` is made; -v or -i
 *   print the version line; LUA_INIT_5_4, else LUA_INIT, runs unless -E
 *   ("@file" runs the file, other text is a chunk "=LUA_INIT_5_4" or
 *   "=LUA_INIT"); -e stat, -l mod, -l g=mod and -W (warnings on) run in
 *   the order given; then the script ("-" is stdin, unless "--" came
 *   just before it); then the REPL (lib/repl.c) for -i.  With no script,
 *   -e nor -v, the REPL runs after the version line when stdin is a
 *   terminal, else stdin is the chunk, whose failure (as in lua5.4) does
 *   not change the status.
 * - -l mod sets the global mod to require("mod"), and -l g=mod the
 *   global g.  Without "=", a "-" ends the global's name: -l mod-2.1
 *   sets mod (Lua 5.4.8; Debian's 5.4.4 sets "mod-2.1").
 * - `arg` holds the script at 0, its arguments at 1..n and the
 *   interpreter and the options at negative indices; with no script the
 *   interpreter is at 0.  The script's `...` are read back from `arg`
 *   just before it runs, so LUA_INIT or -e may change them.
 * - An error prints "PROG: " and the message (with a traceback for a
 *   run-time error) on stderr, PROG being argv[0] ("rtlua" when argv[0]
 *   is empty or missing), and the status is 1.  Ctrl-C (SIGINT) while a
 *   chunk runs raises "interrupted!" in it (rtlua_docall).
 *
 * On a board the words come from port_args (semihosting) with the
 * script first; with no script (or when the firmware's ELF is the first
 * word) it runs the main module of the flash image in the board's image
 * region, the words after the ELF's name (and after -A, -T) its
 * arguments, or else prints the banner and runs the REPL on the console.
 * There is no environment, and messages begin "rtlua: ".
 *
 * Flash images (docs/images.md): before the libraries open, the image is
 * attached (rtlua_image_attach): a board's image region unless it is
 * erased, the host's "--image=FILE" (after -A, before -T), mapped at the
 * host's image address.  A refused image prints "PROG: flash image
 * refused: why"; a board then goes on without it, the host stops
 * (status 1).  Its modules come first for require; with no script and
 * none of -e, -v, -i its main module runs, arg[0] being its source name.
 *
 * "-A BYTES" (or "--arena=SIZE") before everything is rtlua's own: the
 * state's arena is BYTES (port_heap_size; bench/report sweeps arena
 * sizes with it), and a size the board cannot give is an error (status
 * 1).  SIZE may end in K, M or G (KiB, MiB, GiB).  On the host the
 * arena is otherwise RTLUA_ARENA=SIZE from the environment, else a
 * quarter of the physical memory (at most the arena's 2 GiB): it is an
 * address-space reservation whose untouched pages cost nothing, so a
 * suite made for lua5.4 meets the memory of the machine, not ours.  So is "-T"
 * (see print_time), after -A if both are given.  Everything
 * runs inside one protected call so the C stack of main stays small:
 * boards have a few KiB of it.
 */
#include <limits.h>
#include <string.h>

#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"
#include "port/port.h"
#include "rtlua.h"
#ifdef RTLUA_HOST
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "port/host/host.h"
#endif

/* The name in messages when argv[0] gives none, and in -T's lines. */
#define PROGNAME "rtlua"

/* Most command-line words taken from port_args on a board. */
#define MAIN_ARGS_MAX 32

/* What the options ask for, found by scan_args. */
#define OPT_E 1        /* -e: no REPL nor stdin chunk by default */
#define OPT_V 2        /* -v, or -i: the version line */
#define OPT_I 4        /* -i: the REPL after the script */
#define OPT_NOENV 8    /* -E: environment variables ignored */
#define OPT_UNKNOWN 16 /* bad option: *bad is the word */
#define OPT_NOARG 32   /* -e or -l without its argument: *bad is it */

/* In -l's word without "=", where the global's name ends (Lua 5.4.8). */
#define MAIN_VERSION_MARK '-'

/* The program's name in messages: argv[0] on the host; NULL while the
 * REPL runs (run_repl). */
static const char *progname = PROGNAME;

/* The flash image (docs/images.md): on the host the file given with
 * --image=FILE (none: NULL); the arguments of its main module are
 * argv[image_first..] (a board's semihosting words after the firmware's
 * name; none on the host). */
#ifdef RTLUA_HOST
static const char *image_file;
#endif
static int image_first;
#ifndef RTLUA_HOST
/* On a board with no script: the banner comes before the REPL. */
static int boot_banner;
#endif

#ifndef RTLUA_HOST
/* Bytes at the start of the image region that tell an erased one (all
 * 0xFF, as flash erases, or all 0, as QEMU starts) from an image. */
#define MAIN_ERASED_PROBE 16

static void banner(void)
{
    void *heap;
    size_t bytes;
    port_heap(&heap, &bytes);
    int cause = port_reset_cause();
    port_printf("rtlua 0.1 on %s (%s, %u Hz, cycles from %s), arena %u bytes "
                "at %p%s%s\n",
                port_board(), port_core(), (unsigned)port_clock_hz(),
                port_cycle_source(), (unsigned)bytes, heap,
                cause != PORT_RESET_POWER ? ", reset by " : "",
                cause != PORT_RESET_POWER ? port_reset_name(cause) : "");
}
#endif

/* Error output: the port's error console (port_write_err: stderr on the
 * host, after what print buffered on stdout; the console on a board). */
static void err_write(const char *s)
{
    port_write_err(s, strlen(s));
}

/* The message, after "PROG: " outside the REPL. */
static void report_message(const char *msg)
{
    if (progname != NULL) {
        err_write(progname);
        err_write(": ");
    }
    err_write(msg);
    err_write("\n");
}

/* Prints the error object on top of the stack when status is an error
 * and pops it; returns status.  rtlua_msghandler made run-time errors
 * strings; a load error is one. */
static int report(lua_State *L, int status)
{
    if (status != LUA_OK) {
        int top = lua_gettop(L);
        const char *msg = lua_tostring(L, top);
        if (msg == NULL)
            msg = lua_pushfstring(L, "(error object is a %s value)",
                                  luaL_typename(L, top));
        report_message(msg);
        lua_settop(L, top - 1);
    }
    return status;
}

static int do_chunk(lua_State *L, int status)
{
    if (status == LUA_OK)
        status = rtlua_docall(L, 0, 0);
    return report(L, status);
}

static int do_string(lua_State *L, const char *s, const char *name)
{
    return do_chunk(L, luaL_loadbuffer(L, s, strlen(s), name));
}

/* name NULL: stdin. */
static int do_file(lua_State *L, const char *name)
{
    return do_chunk(L, luaL_loadfile(L, name));
}

/* -e and -l take the rest of their word or the next one, which must be
 * there and not look like an option. */
static int takes_argument(char **argv, int argc, int *i)
{
    if (argv[*i][2] != '\0')
        return 1;
    ++*i;
    return *i < argc && argv[*i][0] != '-';
}

/* Scans the options from argv[first]; returns the index of the script
 * (argc when there is none) and sets *flags; on a bad option, *bad is
 * the offending word. */
static int scan_args(char **argv, int argc, int first, int *flags,
                     const char **bad)
{
    *flags = 0;
    for (int i = first; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-' || a[1] == '\0') /* the script, or "-" */
            return i;
        int alone = a[2] == '\0';
        switch (a[1]) {
        case '-':
            if (alone)
                return i + 1;
            break;
        case 'E':
            if (alone) {
                *flags |= OPT_NOENV;
                continue;
            }
            break;
        case 'W':
            if (alone)
                continue;
            break;
        case 'i':
            if (alone) {
                *flags |= OPT_I | OPT_V;
                continue;
            }
            break;
        case 'v':
            if (alone) {
                *flags |= OPT_V;
                continue;
            }
            break;
        case 'e':
            *flags |= OPT_E;
            /* fall through */
        case 'l':
            if (takes_argument(argv, argc, &i))
                continue;
            *flags |= OPT_NOARG;
            *bad = a;
            return argc;
        default:
            break;
        }
        *flags |= OPT_UNKNOWN;
        *bad = a;
        return argc;
    }
    return argc;
}

static void usage(int flags, const char *bad)
{
    err_write(progname);
    if (flags & OPT_NOARG) {
        err_write(": '");
        err_write(bad);
        err_write("' needs argument\n");
    } else {
        err_write(": unrecognized option '");
        err_write(bad);
        err_write("'\n");
    }
    err_write("usage: ");
    err_write(progname);
    err_write(" [options] [script [args]]\n"
              "Available options are:\n"
              "  -e stat   execute string 'stat'\n"
              "  -i        enter interactive mode after executing 'script'\n"
              "  -l mod    require library 'mod' into global 'mod'\n"
              "  -l g=mod  require library 'mod' into global 'g'\n"
              "  -v        show version information\n"
              "  -E        ignore environment variables\n"
              "  -W        turn warnings on\n"
              "  --        stop handling options\n"
              "  -         stop handling options and execute stdin\n");
}

/* arg[i - script] = argv[i]: the script at 0, what precedes it below;
 * with no script, the interpreter at 0. */
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

/* -l word: the global g = require(mod), word being "g=mod", or "mod"
 * whose name up to a MAIN_VERSION_MARK is the global's. */
static int do_library(lua_State *L, const char *word)
{
    const char *eq = strchr(word, '=');
    const char *mod = eq != NULL ? eq + 1 : word;
    const char *end = eq != NULL ? eq : strchr(word, MAIN_VERSION_MARK);
    size_t glen = end != NULL ? (size_t)(end - word) : strlen(word);
    const char *global = lua_pushlstring(L, word, glen);
    lua_getglobal(L, "require");
    lua_pushstring(L, mod);
    int status = rtlua_docall(L, 1, 1);
    if (status == LUA_OK)
        lua_setglobal(L, global);
    else
        report(L, status);
    lua_pop(L, 1); /* the global's name */
    return status;
}

/* The options that run, in their order: -e, -l, -W.  False on an
 * error (reported). */
static int run_options(lua_State *L, char **argv, int first, int script)
{
    for (int i = first; i < script; i++) {
        const char *a = argv[i];
        int status = LUA_OK;
        switch (a[1]) {
        case 'e':
        case 'l': {
            const char *word = a[2] != '\0' ? a + 2 : argv[++i];
            if (a[1] == 'e')
                status = do_string(L, word, "=(command line)");
            else
                status = do_library(L, word);
            break;
        }
        case 'W':
            lua_warning(L, "@on", 0);
            break;
        default:
            break;
        }
        if (status != LUA_OK)
            return 0;
    }
    return 1;
}

/* LUA_INIT_5_4, or else LUA_INIT, runs before the options: "@file"
 * names a file, other text is a chunk named after the variable.  A
 * board has no environment. */
static int run_init(lua_State *L)
{
#ifdef RTLUA_HOST
    static const char *const vars[] = {"LUA_INIT" LUA_VERSUFFIX, "LUA_INIT"};
    for (size_t k = 0; k < sizeof vars / sizeof vars[0]; k++) {
        const char *text = getenv(vars[k]);
        if (text == NULL)
            continue;
        if (text[0] == '@')
            return do_file(L, text + 1);
        const char *chunkname = lua_pushfstring(L, "=%s", vars[k]);
        int status = do_string(L, text, chunkname);
        lua_pop(L, 1); /* the chunk's name */
        return status;
    }
#else
    (void)L;
#endif
    return LUA_OK;
}

/* Pushes arg[1..#arg] as the script's `...`; returns how many. */
static int push_script_args(lua_State *L)
{
    if (lua_getglobal(L, "arg") != LUA_TTABLE)
        luaL_error(L, "'arg' is not a table");
    lua_Integer len = luaL_len(L, -1);
    int n = len < 0 ? 0 : len > INT_MAX - 3 ? INT_MAX - 3 : (int)len;
    luaL_checkstack(L, n + 3, "too many arguments to script");
    for (int i = 1; i <= n; i++)
        lua_rawgeti(L, -i, i);
    lua_remove(L, -n - 1);
    return n;
}

static int run_script(lua_State *L, char **argv, int script)
{
    const char *name = argv[script];
    if (strcmp(name, "-") == 0 &&
        (script == 0 || strcmp(argv[script - 1], "--") != 0))
        name = NULL;
    int status = luaL_loadfile(L, name);
    if (status == LUA_OK) {
        int n = push_script_args(L);
        status = rtlua_docall(L, n, LUA_MULTRET);
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

/* The REPL prints its errors without the program's name, and so does
 * lua5.4 for an error that ends it (a _PROMPT whose __tostring fails):
 * the name comes back only when the REPL returns. */
static void run_repl(lua_State *L)
{
    const char *name = progname;
    progname = NULL;
    rtlua_repl(L);
    progname = name;
}

/* Attach the flash image, before the libraries open: the host's
 * --image file, mapped where images lie, or a board's image region
 * unless it is erased.  1 when attached, 0 when there is none, -1 when
 * it was refused (reported: "PROG: flash image refused: why"). */
static int attach_image(lua_State *L)
{
    const void *p;
    size_t len;
    rtlua_image_region(&p, &len);
#ifdef RTLUA_HOST
    const char *err;
    if (image_file == NULL)
        return 0;
    if (port_host_map(image_file, (void *)(uintptr_t)p, len, &len, &err) !=
        0) {
        lua_pushfstring(L, "flash image refused: cannot map %s: %s",
                        image_file, err);
        report(L, LUA_ERRRUN);
        return -1;
    }
#else
    const uint8_t *b = p;
    int ff = 1, zero = 1;
    for (size_t i = 0; i < MAIN_ERASED_PROBE && i < len; i++) {
        ff &= b[i] == 0xFF;
        zero &= b[i] == 0;
    }
    if (ff || zero)
        return 0;
#endif
    const char *why = rtlua_image_attach(L, p, len);
    if (why == NULL)
        return 1;
    lua_pushfstring(L, "flash image refused: %s", why);
    lua_remove(L, -2);
    report(L, LUA_ERRRUN);
    return -1;
}

/* Run the image's main module, with `arg` as a script has it: its
 * source name at 0, argv[image_first..argc-1] after.  -1 when the image
 * has no main module; else whether it ran without error. */
static int run_image(lua_State *L, char **argv, int argc)
{
    if (!rtlua_image_pushmodule(L, NULL))
        return -1;
    int n = argc > image_first ? argc - image_first : 0;
    luaL_checkstack(L, n + 3, "too many arguments to script");
    lua_createtable(L, n, 1);
    lua_pushvalue(L, -2);
    lua_rawseti(L, -2, 0);
    for (int i = 0; i < n; i++) {
        lua_pushstring(L, argv[image_first + i]);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setglobal(L, "arg");
    lua_pop(L, 1); /* the source name */
    for (int i = 0; i < n; i++)
        lua_pushstring(L, argv[image_first + i]);
    return report(L, rtlua_docall(L, n, LUA_MULTRET)) == LUA_OK;
}

/* Arena bytes in use once the libraries are open (for -T). */
static size_t opened_in_use;

/* The collector's statistics (a big structure) are read in functions of
 * their own, off the C stack the scripts run on: every byte main's frames
 * take is a byte less for a board's scripts. */
static __attribute__((noinline)) size_t stats_in_use(lua_State *L, int peak)
{
    rtlua_GCStats stats;
    rtlua_gcstats(L, &stats);
    return peak ? stats.peak_in_use : stats.bytes_in_use;
}

/* The program, in protected mode: (argc, argv, first) -> success. */
static int protected_main(lua_State *L)
{
    int argc = (int)lua_tointeger(L, 1);
    char **argv = lua_touserdata(L, 2);
    int first = (int)lua_tointeger(L, 3);
    int flags;
    const char *bad = NULL;
    int script = scan_args(argv, argc, first, &flags, &bad);
    if (flags & (OPT_UNKNOWN | OPT_NOARG)) {
        usage(flags, bad);
        return 0;
    }
    int image = attach_image(L);
#ifdef RTLUA_HOST
    if (image < 0) /* the image asked for is not used */
        return 0;
#endif
    if (flags & OPT_NOENV) {
        lua_pushboolean(L, 1);
        lua_setfield(L, LUA_REGISTRYINDEX, "LUA_NOENV");
    }
    luaL_openlibs(L);
    opened_in_use = stats_in_use(L, 0);
    /* lua.c runs scripts in generational mode: rtlua's collector stays
     * incremental, but collectgarbage("incremental") answers as there. */
    lua_gc(L, LUA_GCGEN, 0, 0);
    make_arg_table(L, argv, argc, script);
    if (flags & OPT_V)
        print_version();
    if (!(flags & OPT_NOENV) && run_init(L) != LUA_OK)
        return 0;
    if (!run_options(L, argv, first, script))
        return 0;
    int ran = script < argc;
    if (ran && !run_script(L, argv, script))
        return 0;
    if (!ran && image > 0 && !(flags & (OPT_E | OPT_V | OPT_I))) {
        int st = run_image(L, argv, argc);
        if (st == 0)
            return 0;
        ran = st > 0;
    }
    if (flags & OPT_I) {
        run_repl(L);
    } else if (!ran && !(flags & (OPT_E | OPT_V))) {
        if (console_is_terminal()) {
#ifdef RTLUA_HOST
            print_version();
#else
            if (boot_banner)
                banner();
#endif
            run_repl(L);
        } else {
            do_file(L, NULL); /* its failure is not the program's */
        }
    }
    lua_pushboolean(L, 1);
    return 1;
}

static int run_state(char **argv, int argc, int first, size_t *peak);

/* "-T" first (rtlua's own option): at exit, print the run's length in
 * port cycles and nanoseconds on the error console, then the arena's
 * bytes in use (headers included) just after the libraries were opened,
 * before any script, and at its peak over the state's life.  Under
 * QEMU with -icount shift=0 a nanosecond is one instruction, which is
 * how the benchmarks count instructions on the boards.  The lines begin
 * "rtlua: " whatever argv[0] is: bench/ reads them. */
static __attribute__((noinline)) void print_time(uint64_t cycles, size_t peak)
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

#ifdef RTLUA_HOST
/* The largest default arena: the most the arena manages (gc/arena.h's
 * ARENA_MAX_BYTES, 32-bit offsets), which port_heap_size gives. */
#define MAIN_ARENA_MAX (((size_t)1 << 31) - 8)
#endif

/* A size: decimal digits, then K, M or G (binary multiples) or nothing;
 * 0 when it is none or is 0. */
static size_t parse_size(const char *word)
{
    size_t bytes = 0;
    const char *p = word;
    while (*p >= '0' && *p <= '9') {
        if (bytes > (SIZE_MAX - 9) / 10)
            return 0;
        bytes = bytes * 10 + (size_t)(*p++ - '0');
    }
    if (p == word)
        return 0;
    unsigned shift = 0;
    switch (*p) {
    case 'k':
    case 'K':
        shift = 10;
        break;
    case 'm':
    case 'M':
        shift = 20;
        break;
    case 'g':
    case 'G':
        shift = 30;
        break;
    }
    if (shift != 0)
        p++;
    if (*p != '\0' || bytes > (SIZE_MAX >> shift))
        return 0;
    return bytes << shift;
}

static int set_arena(const char *opt, const char *word)
{
    size_t bytes = parse_size(word);
    if (bytes == 0 || port_heap_size(bytes) != 0) {
        err_write(PROGNAME ": ");
        err_write(opt);
        err_write(": no arena of '");
        err_write(word);
        err_write("' bytes here\n");
        return 0;
    }
    return 1;
}

/* "-A BYTES" or "--arena=SIZE" at argv[*first]: sets the arena and steps
 * past it; 0 when the size is not one the board can give (reported).
 * On the host, without either: RTLUA_ARENA, else the default. */
static int arena_option(char **argv, int argc, int *first)
{
    static const char long_opt[] = "--arena=";
    if (*first < argc && strcmp(argv[*first], "-A") == 0) {
        if (!set_arena("-A", *first + 1 < argc ? argv[*first + 1] : ""))
            return 0;
        *first += 2;
        return 1;
    }
    if (*first < argc &&
        strncmp(argv[*first], long_opt, sizeof long_opt - 1) == 0) {
        if (!set_arena("--arena", argv[*first] + sizeof long_opt - 1))
            return 0;
        *first += 1;
        return 1;
    }
#ifdef RTLUA_HOST
    const char *env = getenv("RTLUA_ARENA");
    if (env != NULL)
        return set_arena("RTLUA_ARENA", env);
#ifdef __SANITIZE_ADDRESS__
    /* Under ASan the arena's free space is poisoned when it is made: a
     * shadow write an eighth of its size, at every start.  The port's
     * default (64 MiB) keeps the sanitizer runs fast. */
    return 1;
#endif
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    size_t quarter = pages > 0 && page > 0 ? (size_t)pages / 4 * (size_t)page
                                           : 0; /* 0: the port's default */
    if (quarter > MAIN_ARENA_MAX)
        quarter = MAIN_ARENA_MAX;
    (void)port_heap_size(quarter);
#endif
    return 1;
}

static int run(char **argv, int argc, int first)
{
    if (!arena_option(argv, argc, &first))
        return 1;
#ifdef RTLUA_HOST
    static const char image_opt[] = "--image=";
    if (first < argc &&
        strncmp(argv[first], image_opt, sizeof image_opt - 1) == 0)
        image_file = argv[first++] + sizeof image_opt - 1;
#endif
    int timed = first < argc && strcmp(argv[first], "-T") == 0;
    uint64_t start = port_cycles64();
    size_t peak = 0;
    if (timed)
        first++;
#ifndef RTLUA_HOST
    if (boot_banner) { /* no script: the words left are the image's */
        image_first = first;
        first = argc;
    }
#endif
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
    *peak = stats_in_use(L, 1);
    lua_close(L);
    return ok ? 0 : 1;
}

#ifdef RTLUA_HOST
int main(int argc, char **argv)
{
    if (argc > 0 && argv[0][0] != '\0')
        progname = argv[0];
    port_host_set_args(argc, argv);
    port_init();
    image_first = argc;
    port_exit(run(argv, argc, argc > 0 ? 1 : 0));
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
        /* No script: the flash image's main module, with the words after
         * the firmware's name (after -A and -T), else the banner and the
         * REPL. */
        boot_banner = 1;
        port_exit(run(argv, argc, argc > 0 ? 1 : 0));
    }
    image_first = argc;
    port_exit(run(argv, argc, 0));
}
#endif
