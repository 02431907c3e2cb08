/*
 * embed.c — a program that embeds rtlua as a library, built by
 * tests/cmod/run with `pkg-config --cflags --libs rtlua` of an installed
 * prefix (make install), and nothing else.  Prints one PASS or FAIL line
 * per check; the status is 1 when one failed.
 */
#include <stdio.h>
#include <string.h>

#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"

static int failed;

static void check(int ok, const char *name)
{
    printf("%s cmod.embed.%s\n", ok ? "PASS" : "FAIL", name);
    failed |= !ok;
}

/* A luaL_Buffer between two canaries on the C stack: a header that
 * disagrees with the runtime about its size overwrites one of them. */
static int build(lua_State *L)
{
    volatile char before[64];
    luaL_Buffer b;
    volatile char after[64];
    memset((char *)before, 0x5a, sizeof before);
    memset((char *)after, 0xa5, sizeof after);
    luaL_buffinit(L, &b);
    for (int i = 0; i < 5000; i++)
        luaL_addchar(&b, (char)('a' + i % 26));
    lua_pushinteger(L, 12345); /* a value added from the stack */
    luaL_addvalue(&b);
    luaL_pushresult(&b);
    int intact = 1;
    for (size_t i = 0; i < sizeof before; i++)
        intact &= before[i] == 0x5a && after[i] == (char)0xa5;
    lua_pushboolean(L, intact);
    return 2;
}

static size_t allocated;
static lua_Alloc arena_alloc;
static void *arena_ud;

/* The blocks the wrapper handed out, with their sizes (open addressing):
 * every osize the runtime gives back for one of them must be its size,
 * as the manual requires of lua_Alloc's callers. */
#define TRACK_SLOTS 65536
static struct {
    void *p;
    size_t n;
} track[TRACK_SLOTS];
static long tracked, wrong_osize;

static size_t slot_of(void *p)
{
    size_t h = ((size_t)p >> 3) * 2654435761u;
    for (size_t i = 0; i < TRACK_SLOTS; i++) {
        size_t s = (h + i) % TRACK_SLOTS;
        if (track[s].p == p || track[s].p == NULL)
            return s;
    }
    return 0;
}

static void forget(void *p, size_t osize)
{
    size_t s = slot_of(p);
    if (track[s].p != p)
        return; /* allocated before the wrapper was installed */
    if (track[s].n != osize)
        wrong_osize++;
    /* Backward-shift deletion would be exact; a tombstone is enough for
     * a test: keep the slot taken by a pointer no block has. */
    track[s].p = (void *)&track;
    track[s].n = 0;
    tracked--;
}

static void remember(void *p, size_t n)
{
    size_t s = slot_of(p);
    if (track[s].p == NULL) {
        track[s].p = p;
        track[s].n = n;
        tracked++;
    }
}

/* A wrapper that counts, as lua_setallocf's users write it. */
static void *counting(void *ud, void *ptr, size_t osize, size_t nsize)
{
    (void)ud;
    if (ptr != NULL)
        forget(ptr, osize);
    void *p = arena_alloc(arena_ud, ptr, osize, nsize);
    if (nsize != 0 && p != NULL) {
        allocated += nsize;
        remember(p, nsize);
    } else if (nsize != 0 && ptr != NULL) {
        remember(ptr, osize); /* a failed resize keeps the block */
    }
    return p;
}

int main(void)
{
    lua_State *L = luaL_newstate();
    check(L != NULL, "newstate");
    luaL_openlibs(L);
    luaL_checkversion(L);
    check(strstr(lua_ident, "$LuaVersion: ") == lua_ident, "lua_ident");

    lua_pushcfunction(L, build);
    check(lua_pcall(L, 0, 2, 0) == LUA_OK && lua_toboolean(L, -1) &&
              lua_rawlen(L, -2) == 5005,
          "buffer_keeps_the_stack");
    lua_settop(L, 0);

    check(lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS) == LUA_TTABLE &&
              lua_rawequal(L, -1, -1),
          "registry_index");
    lua_getglobal(L, "string");
    check(lua_istable(L, -1), "globals");
    lua_settop(L, 0);

    *(int **)lua_getextraspace(L) = &failed;
    lua_State *co = lua_newthread(L);
    check(*(int **)lua_getextraspace(co) == &failed, "extraspace_copied");
    *(int **)lua_getextraspace(co) = NULL;
    check(*(int **)lua_getextraspace(L) == &failed, "extraspace_own");
    lua_settop(L, 0);

    char num[64];
    lua_integer2str(num, sizeof num, (lua_Integer)-42);
    check(strcmp(num, "-42") == 0, "integer2str");
    check(luaL_dostring(L, "return 2^53 // 1 | 0 == 9007199254740992 or "
                           "math.maxinteger == 2147483647") == LUA_OK &&
              lua_toboolean(L, -1),
          "dostring");
    lua_settop(L, 0);

    arena_alloc = lua_getallocf(L, &arena_ud);
    lua_setallocf(L, counting, NULL);
    check(luaL_dostring(L, "local t = {} for i = 1, 1000 do t[i] = {i} end "
                           "return #t") == LUA_OK &&
              lua_tointeger(L, -1) == 1000 && allocated >= 1000 * 16,
          "setallocf_wraps_the_arena");
    check(luaL_dostring(L, "collectgarbage() collectgarbage() "
                           "local s = {} for i = 1, 300 do "
                           "s[i] = string.rep('x', i) .. i end") == LUA_OK,
          "setallocf_collects");
    lua_gc(L, LUA_GCCOLLECT);
    check(wrong_osize == 0 && tracked > 0, "setallocf_gets_exact_osize");
    lua_setallocf(L, arena_alloc, arena_ud);
    lua_settop(L, 0);
    lua_close(L);
    return failed;
}
