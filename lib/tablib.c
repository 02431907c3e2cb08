/*
 * tablib.c — the table library (Lua 5.4 §6.6).
 *
 * Elements are read and written with lua_geti/lua_seti, so __index,
 * __newindex and __len are honoured as in Lua 5.4; an argument that is
 * not a table is accepted when its metatable provides the metamethods
 * the function needs.
 *
 * table.sort is the classic in-place quicksort (median of three, pivot
 * parked at hi - 1, recursion on the smaller half so the depth stays
 * logarithmic), which also orders ties as Lua 5.4 does for arrays of up
 * to 100 elements (beyond, 5.4 picks pivots at random).  A comparison
 * that is not a strict order is detected when a scan runs past its bound
 * and raises "invalid order function for sorting" instead of looping.
 */
#include <limits.h>

#include "lauxlib.h"
#include "lib/lib.h"
#include "lua.h"
#include "lualib.h"
#include "romtab.h"
#include "rtlua.h"

/* What a function needs of its table argument. */
#define NEED_READ 1
#define NEED_WRITE 2
#define NEED_LEN 4
#define NEED_ALL (NEED_READ | NEED_WRITE | NEED_LEN)

static int has_field(lua_State *L, const char *k, int need, int bit)
{
    if (!(need & bit))
        return 1;
    return lua_getfield(L, -1, k) != LUA_TNIL ? (lua_pop(L, 1), 1)
                                              : (lua_pop(L, 1), 0);
}

static void check_tab(lua_State *L, int arg, int need)
{
    if (lua_type(L, arg) == LUA_TTABLE)
        return;
    if (lua_getmetatable(L, arg)) {
        int ok = has_field(L, "__index", need, NEED_READ) &&
                 has_field(L, "__newindex", need, NEED_WRITE) &&
                 has_field(L, "__len", need, NEED_LEN);
        lua_pop(L, 1);
        if (ok)
            return;
    }
    luaL_checktype(L, arg, LUA_TTABLE);
}

static lua_Integer tab_len(lua_State *L, int arg, int need)
{
    check_tab(L, arg, need | NEED_LEN);
    return luaL_len(L, arg);
}

/* Loops over a range the caller gives (insert, remove, concat, move)
 * count each iteration with LOOP_STEP (lib.h). */

static int t_insert(lua_State *L)
{
    lua_Integer e = tab_len(L, 1, NEED_ALL);
    e = (lua_Integer)((lua_Unsigned)e + 1u);
    lua_Integer pos;
    switch (lua_gettop(L)) {
    case 2:
        pos = e;
        break;
    case 3:
        pos = luaL_checkinteger(L, 2);
        luaL_argcheck(L, (lua_Unsigned)pos - 1u < (lua_Unsigned)e, 2,
                      "position out of bounds");
        lua_Integer i = e;
        if (i > pos) { /* t[e] first: it may grow the table */
            LOOP_STEP(L);
            lua_geti(L, 1, i - 1);
            lua_seti(L, 1, i);
            i--;
        }
        if (i > pos && rtlua_arraymove(L, 1, pos, pos + 1, i - pos)) {
            LOOP_STEPS(L, i - pos);
            i = pos;
        }
        for (; i > pos; i--) {
            LOOP_STEP(L);
            lua_geti(L, 1, i - 1);
            lua_seti(L, 1, i);
        }
        break;
    default:
        return luaL_error(L, "wrong number of arguments to 'insert'");
    }
    lua_seti(L, 1, pos);
    return 0;
}

static int t_remove(lua_State *L)
{
    lua_Integer size = tab_len(L, 1, NEED_ALL);
    lua_Integer pos = luaL_optinteger(L, 2, size);
    if (pos != size)
        luaL_argcheck(L, (lua_Unsigned)pos - 1u <= (lua_Unsigned)size, 1,
                      "position out of bounds");
    lua_geti(L, 1, pos);
    if (pos < size && rtlua_arraymove(L, 1, pos + 1, pos, size - pos)) {
        LOOP_STEPS(L, size - pos);
        pos = size;
    }
    for (; pos < size; pos++) {
        LOOP_STEP(L);
        lua_geti(L, 1, pos + 1);
        lua_seti(L, 1, pos);
    }
    lua_pushnil(L);
    lua_seti(L, 1, pos);
    return 1;
}

static void concat_item(lua_State *L, luaL_Buffer *b, lua_Integer i)
{
    lua_geti(L, 1, i);
    if (!lua_isstring(L, -1))
        luaL_error(L, "invalid value (%s) at index %I in table for 'concat'",
                   luaL_typename(L, -1), (lua_Integer)i);
    luaL_addvalue(b);
}

static int t_concat(lua_State *L)
{
    lua_Integer last = tab_len(L, 1, NEED_READ);
    size_t lsep;
    const char *sep = luaL_optlstring(L, 2, "", &lsep);
    lua_Integer i = luaL_optinteger(L, 3, 1);
    last = luaL_optinteger(L, 4, last);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (; i < last; i++) {
        LOOP_STEP(L);
        concat_item(L, &b, i);
        luaL_addlstring(&b, sep, lsep);
    }
    if (i == last)
        concat_item(L, &b, i);
    luaL_pushresult(&b);
    return 1;
}

static int t_pack(lua_State *L)
{
    int n = lua_gettop(L);
    lua_createtable(L, n, 1);
    lua_insert(L, 1);
    for (int i = n; i >= 1; i--)
        lua_seti(L, 1, i);
    lua_pushinteger(L, n);
    lua_setfield(L, 1, "n");
    return 1;
}

static int t_unpack(lua_State *L)
{
    lua_Integer i = luaL_optinteger(L, 2, 1);
    lua_Integer e = luaL_opt(L, luaL_checkinteger, 3, luaL_len(L, 1));
    if (i > e)
        return 0;
    lua_Unsigned n = (lua_Unsigned)e - (lua_Unsigned)i;
    if (n >= (lua_Unsigned)INT_MAX || !lua_checkstack(L, (int)(++n)))
        return luaL_error(L, "too many results to unpack");
    for (; i < e; i++)
        lua_geti(L, 1, i);
    lua_geti(L, 1, e);
    return (int)n;
}

static int t_move(lua_State *L)
{
    lua_Integer f = luaL_checkinteger(L, 2);
    lua_Integer e = luaL_checkinteger(L, 3);
    lua_Integer t = luaL_checkinteger(L, 4);
    int tt = !lua_isnoneornil(L, 5) ? 5 : 1;
    check_tab(L, 1, NEED_READ);
    check_tab(L, tt, NEED_WRITE);
    if (e >= f) {
        luaL_argcheck(L, f > 0 || e < LUA_MAXINTEGER + f, 3,
                      "too many elements to move");
        lua_Integer n = e - f;
        luaL_argcheck(L, t <= LUA_MAXINTEGER - n, 4,
                      "destination wrap around");
        if (t > e || t <= f || (tt != 1 && !lua_compare(L, 1, tt, LUA_OPEQ))) {
            for (lua_Integer i = 0; i <= n; i++) {
                LOOP_STEP(L);
                lua_geti(L, 1, f + i);
                lua_seti(L, tt, t + i);
            }
        } else {
            for (lua_Integer i = n; i >= 0; i--) {
                LOOP_STEP(L);
                lua_geti(L, 1, f + i);
                lua_seti(L, tt, t + i);
            }
        }
    }
    lua_pushvalue(L, tt);
    return 1;
}

/* ---- sort ---------------------------------------------------------- */

/* a < b for the values at stack indices ia, ib (absolute). */
static int sort_less(lua_State *L, int ia, int ib)
{
    if (lua_isnil(L, 2))
        return lua_compare(L, ia, ib, LUA_OPLT);
    lua_pushvalue(L, 2);
    lua_pushvalue(L, ia);
    lua_pushvalue(L, ib);
    lua_call(L, 2, 1);
    int r = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return r;
}

/* Order t[i] and t[j] (i < j): swapped when t[j] < t[i], with the two
 * values read once (the comparison's). */
static void sort_order(lua_State *L, lua_Integer i, lua_Integer j)
{
    lua_geti(L, 1, i);
    lua_geti(L, 1, j);
    int top = lua_gettop(L);
    if (sort_less(L, top, top - 1)) {
        lua_seti(L, 1, i); /* t[i] = old t[j] */
        lua_seti(L, 1, j);
    } else {
        lua_pop(L, 2);
    }
}

static void sort_range(lua_State *L, lua_Integer lo, lua_Integer hi)
{
    LIB_CSTACKCHECK(L); /* log2(n) levels deep at most */
    while (lo < hi) {
        /* Median of three: order t[lo] <= t[mid] <= t[hi]. */
        sort_order(L, lo, hi);
        if (hi - lo == 1)
            return;
        lua_Integer mid = lo + (hi - lo) / 2;
        lua_geti(L, 1, mid);
        lua_geti(L, 1, lo);
        int top = lua_gettop(L);
        if (sort_less(L, top - 1, top)) { /* t[mid] < t[lo] */
            lua_seti(L, 1, mid);
            lua_seti(L, 1, lo);
        } else {
            lua_pop(L, 2);
            sort_order(L, mid, hi);
        }
        if (hi - lo == 2)
            return;
        /* The pivot goes to hi - 1, and stays on the stack; t[lo] and
         * t[hi-1] bound the scans. */
        lua_geti(L, 1, mid);
        lua_geti(L, 1, hi - 1);
        lua_seti(L, 1, mid);
        lua_pushvalue(L, -1);
        lua_seti(L, 1, hi - 1);
        int p = lua_gettop(L);
        lua_Integer i = lo, j = hi - 1;
        for (;;) {
            /* A scan that passes its bound means the order function is
             * not a strict order.  Each leaves the value it stopped at on
             * the stack, for the swap. */
            for (;;) {
                LOOP_STEP(L);
                lua_geti(L, 1, ++i);
                if (!sort_less(L, lua_gettop(L), p))
                    break;
                if (i == hi - 1)
                    luaL_error(L, "invalid order function for sorting");
                lua_pop(L, 1);
            }
            for (;;) {
                LOOP_STEP(L);
                lua_geti(L, 1, --j);
                if (!sort_less(L, p, lua_gettop(L)))
                    break;
                if (j < i)
                    luaL_error(L, "invalid order function for sorting");
                lua_pop(L, 1);
            }
            if (j < i) {
                lua_pop(L, 2);
                break;
            }
            lua_seti(L, 1, i); /* t[i] = old t[j] */
            lua_seti(L, 1, j);
        }
        /* t[hi-1] = t[i], t[i] = the pivot */
        lua_geti(L, 1, i);
        lua_seti(L, 1, hi - 1);
        lua_seti(L, 1, i);
        /* Recurse on the smaller side, loop on the larger. */
        if (i - lo < hi - i) {
            sort_range(L, lo, i - 1);
            lo = i + 1;
        } else {
            sort_range(L, i + 1, hi);
            hi = i - 1;
        }
    }
}

static int t_sort(lua_State *L)
{
    lua_Integer n = tab_len(L, 1, NEED_ALL);
    if (n > 1) {
        luaL_argcheck(L, n < INT_MAX, 1, "array too big");
        if (!lua_isnoneornil(L, 2))
            luaL_checktype(L, 2, LUA_TFUNCTION);
        lua_settop(L, 2);
        luaL_checkstack(L, 8, "too many nested calls");
        sort_range(L, 1, n);
    }
    return 0;
}

int luaopen_table(lua_State *L)
{
    rtlua_pushrom(L, &romtab_table);
    return 1;
}

#define ROMTAB_FILE_tablib
#include "romtab.inc"
