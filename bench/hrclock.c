/*
 * hrclock.c — a clock module for the reference lua5.4, so that
 * bench/latency.lua reads time the same way under both interpreters.
 *
 *   local c = require "hrclock"
 *   c.cycles()  nanoseconds of CLOCK_MONOTONIC, as an integer
 *   c.hz()      1000000000, the rate of c.cycles()
 *
 * These are the names and meanings of rt.cycles() and rt.hz() in rtlua's
 * host build, whose cycle counter is the same clock (port/host).  Built
 * against Debian's liblua5.4-dev headers as a shared object (see
 * bench/run-latency-host); it is not part of rtlua.
 */
#define _POSIX_C_SOURCE 200809L
#include <lauxlib.h>
#include <lua.h>

#include <time.h>

#define NS_PER_S 1000000000

int luaopen_hrclock(lua_State *L);

static int hr_cycles(lua_State *L)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    lua_pushinteger(L, (lua_Integer)ts.tv_sec * NS_PER_S + ts.tv_nsec);
    return 1;
}

static int hr_hz(lua_State *L)
{
    lua_pushinteger(L, NS_PER_S);
    return 1;
}

int luaopen_hrclock(lua_State *L)
{
    static const luaL_Reg funcs[] = {
        {"cycles", hr_cycles},
        {"hz", hr_hz},
        {NULL, NULL},
    };
    luaL_newlib(L, funcs);
    return 1;
}
