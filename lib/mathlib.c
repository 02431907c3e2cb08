/*
 * mathlib.c — the math library (Lua 5.4 §6.7) for both number models.
 *
 * With RTLUA_NUM=32 lua_Number is float and every function uses the
 * float variant of libm (sinf, floorf...), so no double arithmetic is
 * pulled into the board builds.  Integer results are integers whenever
 * the value fits lua_Integer exactly (floor, ceil, modf, tointeger).
 *
 * math.random is xoshiro256** (Blackman and Vigna) on a 256-bit state,
 * a static object shared by random and randomseed (there is one state
 * per program, and the ROM table's functions take no upvalues); with
 * the same seed it gives the same sequence as Lua 5.4 in the 64-bit
 * model.  The state starts from the cycle counter, so runs differ unless
 * a script seeds it.
 */
#include <math.h>
#include <stdint.h>

#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"
#include "port/libm.h"
#include "port/port.h"
#include "romtab.h"
#include "rtlua.h"

/* M_K(fn): the function's kernel where newlib has one (port/libm.h) */
#define M_OP(fn) LIBM(fn)
#define M_K(fn) LIBM_K(fn)
#if RTLUA_NUM == 32
#define M_PI_NUM 3.14159265358979323846f
#else
#define M_PI_NUM 3.14159265358979323846
#endif

/* Pushes n as an integer when it has an exact integer value that fits,
 * else as a float. */
static void push_numint(lua_State *L, lua_Number n)
{
    lua_Integer i;
    if (lua_numbertointeger(n, &i))
        lua_pushinteger(L, i);
    else
        lua_pushnumber(L, n);
}

static int m_abs(lua_State *L)
{
    if (lua_isinteger(L, 1)) {
        lua_Integer n = lua_tointeger(L, 1);
        if (n < 0)
            n = (lua_Integer)(0u - (lua_Unsigned)n);
        lua_pushinteger(L, n);
    } else {
        lua_pushnumber(L, M_OP(fabs)(luaL_checknumber(L, 1)));
    }
    return 1;
}

static int m_floor(lua_State *L)
{
    if (lua_isinteger(L, 1))
        lua_settop(L, 1);
    else
        push_numint(L, M_OP(floor)(luaL_checknumber(L, 1)));
    return 1;
}

static int m_ceil(lua_State *L)
{
    if (lua_isinteger(L, 1))
        lua_settop(L, 1);
    else
        push_numint(L, M_OP(ceil)(luaL_checknumber(L, 1)));
    return 1;
}

static int m_fmod(lua_State *L)
{
    if (lua_isinteger(L, 1) && lua_isinteger(L, 2)) {
        lua_Integer d = lua_tointeger(L, 2);
        if ((lua_Unsigned)d + 1u <= 1u) {
            /* 0 is an error; -1 would overflow on mininteger. */
            luaL_argcheck(L, d != 0, 2, "zero");
            lua_pushinteger(L, 0);
        } else {
            lua_pushinteger(L, lua_tointeger(L, 1) % d);
        }
    } else {
        lua_pushnumber(
            L, M_K(fmod)(luaL_checknumber(L, 1), luaL_checknumber(L, 2)));
    }
    return 1;
}

static int m_modf(lua_State *L)
{
    if (lua_isinteger(L, 1)) {
        lua_settop(L, 1);
        lua_pushnumber(L, 0);
        return 2;
    }
    lua_Number n = luaL_checknumber(L, 1);
    lua_Number ip = n < 0 ? M_OP(ceil)(n) : M_OP(floor)(n);
    push_numint(L, ip);
    lua_pushnumber(L, n == ip ? (lua_Number)0 : n - ip);
    return 2;
}

static int m_sqrt(lua_State *L)
{
    lua_pushnumber(L, M_K(sqrt)(luaL_checknumber(L, 1)));
    return 1;
}

static int m_exp(lua_State *L)
{
    lua_pushnumber(L, M_K(exp)(luaL_checknumber(L, 1)));
    return 1;
}

static int m_log(lua_State *L)
{
    lua_Number x = luaL_checknumber(L, 1);
    lua_Number r;
    if (lua_isnoneornil(L, 2)) {
        r = M_K(log)(x);
    } else {
        lua_Number b = luaL_checknumber(L, 2);
        if (b == 2)
            r = LIBM_LOG2(x);
        else if (b == 10)
            r = M_K(log10)(x);
        else
            r = M_K(log)(x) / M_K(log)(b);
    }
    lua_pushnumber(L, r);
    return 1;
}

static int m_sin(lua_State *L)
{
    lua_pushnumber(L, M_OP(sin)(luaL_checknumber(L, 1)));
    return 1;
}

static int m_cos(lua_State *L)
{
    lua_pushnumber(L, M_OP(cos)(luaL_checknumber(L, 1)));
    return 1;
}

static int m_tan(lua_State *L)
{
    lua_pushnumber(L, M_OP(tan)(luaL_checknumber(L, 1)));
    return 1;
}

static int m_asin(lua_State *L)
{
    lua_pushnumber(L, M_K(asin)(luaL_checknumber(L, 1)));
    return 1;
}

static int m_acos(lua_State *L)
{
    lua_pushnumber(L, M_K(acos)(luaL_checknumber(L, 1)));
    return 1;
}

static int m_atan(lua_State *L)
{
    lua_Number y = luaL_checknumber(L, 1);
    lua_Number x = luaL_optnumber(L, 2, 1);
    lua_pushnumber(L, M_K(atan2)(y, x));
    return 1;
}

/* Degrees in a radian, and the reverse, as the model's float. */
#define M_DEG_PER_RAD (180 / M_PI_NUM)
#define M_RAD_PER_DEG (M_PI_NUM / 180)

static int m_deg(lua_State *L)
{
    lua_pushnumber(L, luaL_checknumber(L, 1) * M_DEG_PER_RAD);
    return 1;
}

static int m_rad(lua_State *L)
{
    lua_pushnumber(L, luaL_checknumber(L, 1) * M_RAD_PER_DEG);
    return 1;
}

static int m_tointeger(lua_State *L)
{
    int ok;
    lua_Integer n = lua_tointegerx(L, 1, &ok);
    if (ok) {
        lua_pushinteger(L, n);
    } else {
        luaL_checkany(L, 1);
        luaL_pushfail(L);
    }
    return 1;
}

static int m_type(lua_State *L)
{
    if (lua_type(L, 1) == LUA_TNUMBER) {
        lua_pushstring(L, lua_isinteger(L, 1) ? "integer" : "float");
    } else {
        luaL_checkany(L, 1);
        luaL_pushfail(L);
    }
    return 1;
}

static int m_ult(lua_State *L)
{
    lua_Integer a = luaL_checkinteger(L, 1);
    lua_Integer b = luaL_checkinteger(L, 2);
    lua_pushboolean(L, (lua_Unsigned)a < (lua_Unsigned)b);
    return 1;
}

/* min and max compare with lua_compare (as Lua 5.4 does: no number
 * check, so strings compare as strings), the later operand first for
 * min and second for max. */
static int min_max(lua_State *L, int want_max)
{
    int n = lua_gettop(L);
    int best = 1;
    luaL_argcheck(L, n >= 1, 1, "value expected");
    for (int i = 2; i <= n; i++) {
        if (want_max ? lua_compare(L, best, i, LUA_OPLT)
                     : lua_compare(L, i, best, LUA_OPLT))
            best = i;
    }
    lua_pushvalue(L, best);
    return 1;
}

static int m_max(lua_State *L)
{
    return min_max(L, 1);
}

static int m_min(lua_State *L)
{
    return min_max(L, 0);
}

/* ---- pseudo-random numbers ------------------------------------------ */

/* Outputs dropped after seeding, so close seeds give unrelated runs. */
#define RAND_DISCARD 16

/* Significant bits of a random float: the model's float mantissa, and
 * 2^-RAND_FIGS (v's top bits times it are exact in the model's float:
 * no double arithmetic in the 32-bit model). */
#if RTLUA_NUM == 32
#define RAND_FIGS 24
#define RAND_UNIT 0x1p-24f
#else
#define RAND_FIGS 53
#define RAND_UNIT 0x1p-53
#endif

typedef struct {
    uint64_t s[4];
} rand_state;

static rand_state rand_st;

static uint64_t rotl64(uint64_t x, int n)
{
    return (x << n) | (x >> (64 - n));
}

static uint64_t rand_next(rand_state *r)
{
    uint64_t *s = r->s;
    uint64_t out = rotl64(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl64(s[3], 45);
    return out;
}

static void rand_seed(rand_state *r, uint64_t a, uint64_t b)
{
    r->s[0] = a;
    r->s[1] = 0xff; /* the state must not be all zeros */
    r->s[2] = b;
    r->s[3] = 0;
    for (int i = 0; i < RAND_DISCARD; i++)
        rand_next(r);
}

/* A uniform value in [0, n]: masks to the smallest 2^b - 1 >= n and
 * draws again while the result exceeds n (no bias). */
static lua_Unsigned rand_below(rand_state *r, lua_Unsigned v, lua_Unsigned n)
{
    if ((n & (n + 1)) == 0)
        return v & n;
    lua_Unsigned mask = n;
    for (unsigned sh = 1; sh < 8 * sizeof mask; sh <<= 1)
        mask |= mask >> sh;
    while ((v &= mask) > n)
        v = (lua_Unsigned)rand_next(r);
    return v;
}

static int m_random(lua_State *L)
{
    rand_state *r = &rand_st;
    uint64_t v = rand_next(r);
    lua_Integer low, up;
    switch (lua_gettop(L)) {
    case 0:
        lua_pushnumber(L, (lua_Number)(v >> (64 - RAND_FIGS)) * RAND_UNIT);
        return 1;
    case 1:
        low = 1;
        up = luaL_checkinteger(L, 1);
        if (up == 0) {
            lua_pushinteger(L, (lua_Integer)(lua_Unsigned)v);
            return 1;
        }
        break;
    case 2:
        low = luaL_checkinteger(L, 1);
        up = luaL_checkinteger(L, 2);
        break;
    default:
        return luaL_error(L, "wrong number of arguments");
    }
    luaL_argcheck(L, low <= up, 1, "interval is empty");
    lua_Unsigned k =
        rand_below(r, (lua_Unsigned)v, (lua_Unsigned)up - (lua_Unsigned)low);
    lua_pushinteger(L, (lua_Integer)(k + (lua_Unsigned)low));
    return 1;
}

static int m_randomseed(lua_State *L)
{
    rand_state *r = &rand_st;
    lua_Integer a, b;
    if (lua_isnone(L, 1)) {
        a = (lua_Integer)(port_cycles64() ^ (uintptr_t)L);
        b = (lua_Integer)rand_next(r);
    } else {
        a = luaL_checkinteger(L, 1);
        b = luaL_optinteger(L, 2, 0);
    }
    rand_seed(r, (uint64_t)(int64_t)a, (uint64_t)(int64_t)b);
    lua_pushinteger(L, a);
    lua_pushinteger(L, b);
    return 2;
}

/* The random state is seeded each time the library is opened, as 5.4's
 * is (from the clock and an address). */
int luaopen_math(lua_State *L)
{
    rand_seed(&rand_st, port_cycles64() ^ (uintptr_t)L, (uintptr_t)&rand_st);
    rtlua_pushrom(L, &romtab_math);
    return 1;
}

#define ROMTAB_FILE_mathlib
#include "romtab.inc"
