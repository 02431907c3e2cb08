/*
 * luarun.c — one script's run phase on a board, measured as the stock-Lua
 * harness of ../shared/luaref measures it, so that bench/run-board can
 * put the two side by side.
 *
 *   semihosting command line: IMAGE SCRIPT.lua [N] [ext=1]
 *
 * Steps, as the reference's: luaL_newstate -> luaL_openlibs -> a full
 * collection -> global N = N when given (no `arg` table) ->
 * luaL_loadbuffer of the script read from the host, chunk name its file
 * name without ".lua" -> t0, lua_pcall of the chunk, t1.  The script's
 * own output comes first, then "luarun" lines:
 *   luarun run_ns=R compile_ns=C      R: the pcall alone; under
 *                                     `-icount shift=0` a nanosecond is
 *                                     an instruction
 *   luarun heap_openlibs=A heap_base=B peak=P heap_after_gc=E
 *                                     arena bytes in use (block headers
 *                                     included): after the libraries,
 *                                     after the first collection, the
 *                                     highest during load and run, after
 *                                     a last full collection
 *   luarun gc cycles=C steps=S emergencies=E
 * ext=1 defines the global luaref_mallinfo(), which returns the arena's
 * bytes in use: what the allocator really spends, as the reference's
 * returns newlib's (bench/density.lua reads it).
 * Exit status 0, 1 when the script fails, 2 on a harness error.
 */
#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"
#include "port/port.h"
#include "rtlua.h"

#include <stdlib.h>
#include <string.h>

/* The largest script read (the benchmarks are a few kilobytes). */
#define SOURCE_MAX (64 * 1024)
#define ARGS_MAX 8

static char source[SOURCE_MAX];

static int l_mallinfo(lua_State *L)
{
    rtlua_GCStats st;
    rtlua_gcstats(L, &st);
    lua_pushinteger(L, (lua_Integer)st.bytes_in_use);
    return 1;
}

static size_t in_use(lua_State *L)
{
    rtlua_GCStats st;
    rtlua_gcstats(L, &st);
    return st.bytes_in_use;
}

static unsigned long long ns_of(uint64_t cycles)
{
    uint32_t hz = port_cycle_hz();
    return hz ? (unsigned long long)(cycles * 1000000000u / hz) : 0;
}

/* The script's file name without directory and ".lua". */
static void chunk_name(const char *path, char *buf, size_t max)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    if (n > 4 && strcmp(base + n - 4, ".lua") == 0)
        n -= 4;
    if (n >= max)
        n = max - 1;
    memcpy(buf, base, n);
    buf[n] = '\0';
}

static long read_script(const char *path)
{
    int fd = port_file_open(path, "rb");
    if (fd < 0)
        return -1;
    long len = port_file_read(fd, source, sizeof source);
    port_file_close(fd);
    return len >= (long)sizeof source ? -1 : len;
}

int main(void)
{
    static char *argv[ARGS_MAX];
    int argc = port_args(argv, ARGS_MAX);
    if (argc < 2) {
        port_printf("usage: IMAGE SCRIPT.lua [N] [ext=1]\n");
        port_exit(2);
    }
    long len = read_script(argv[1]);
    if (len < 0) {
        port_printf("luarun: cannot read %s\n", argv[1]);
        port_exit(2);
    }
    char name[64];
    chunk_name(argv[1], name, sizeof name);
    lua_State *L = luaL_newstate();
    if (L == NULL)
        port_exit(2);
    luaL_openlibs(L);
    size_t heap_openlibs = in_use(L);
    lua_gc(L, LUA_GCCOLLECT);
    size_t heap_base = in_use(L);
    const char *n = NULL;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "ext=1") == 0)
            lua_register(L, "luaref_mallinfo", l_mallinfo);
        else if (i == 2 && strchr(argv[i], '=') == NULL)
            n = argv[i];
    }
    if (n != NULL) {
        lua_pushinteger(L, (lua_Integer)strtol(n, NULL, 10));
        lua_setglobal(L, "N");
    }
    rtlua_GCStats st0;
    rtlua_gcstats(L, &st0);
    uint64_t c0 = port_cycles64();
    int status = luaL_loadbuffer(L, source, (size_t)len, name);
    uint64_t c1 = port_cycles64(), t0 = 0, t1 = 0;
    if (status == LUA_OK) {
        t0 = port_cycles64();
        status = lua_pcall(L, 0, 0, 0);
        t1 = port_cycles64();
    }
    if (status != LUA_OK) {
        const char *msg = lua_tostring(L, -1);
        port_printf("luarun error: %s\n", msg ? msg : "(not a string)");
        lua_pop(L, 1);
    }
    rtlua_GCStats st;
    rtlua_gcstats(L, &st);
    lua_gc(L, LUA_GCCOLLECT);
    port_printf("luarun script=%s N=%s status=%d\n", argv[1], n ? n : "-",
                status);
    port_printf("luarun run_ns=%llu compile_ns=%llu\n", ns_of(t1 - t0),
                ns_of(c1 - c0));
    port_printf("luarun heap_openlibs=%u heap_base=%u peak=%u "
                "heap_after_gc=%u\n",
                (unsigned)heap_openlibs, (unsigned)heap_base,
                (unsigned)st.peak_in_use, (unsigned)in_use(L));
    port_printf("luarun gc cycles=%u steps=%u emergencies=%u\n",
                (unsigned)(st.cycles_completed - st0.cycles_completed),
                (unsigned)(st.steps - st0.steps),
                (unsigned)(st.emergencies - st0.emergencies));
    lua_close(L);
    port_exit(status == LUA_OK ? 0 : 1);
}
