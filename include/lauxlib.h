/*
 * lauxlib.h — the auxiliary library: Lua 5.4's luaL_ names and
 * signatures, built only on lua.h (lib/lauxlib.c).
 */
#ifndef lauxlib_h
#define lauxlib_h

#include <stddef.h>
#include <stdio.h>

#include "lua.h"

/* Global table name in the registry ("_G"). */
#define LUA_GNAME "_G"

typedef struct luaL_Buffer luaL_Buffer;

/* Extra error code for luaL_loadfilex. */
#define LUA_ERRFILE (LUA_ERRERR + 1)

/* Key, in the registry, of the table of loaded modules. */
#define LUA_LOADED_TABLE "_LOADED"
/* Key, in the registry, of the table of preloaded loaders. */
#define LUA_PRELOAD_TABLE "_PRELOAD"

typedef struct luaL_Reg {
    const char *name;
    lua_CFunction func;
} luaL_Reg;

#define LUAL_NUMSIZES (sizeof(lua_Integer) * 16 + sizeof(lua_Number))

LUALIB_API void(luaL_checkversion_)(lua_State *L, lua_Number ver, size_t sz);
/* What luaL_checkversion (and so luaL_newlib) calls: the Lua version, the
 * sizes of the number types and RTLUA_CONFIG (the ABI settings of the
 * include directory the module was compiled against) the module saw,
 * passed as integers and a string, whose calling convention no number
 * model changes.  A mismatch is an error naming both configurations. */
LUALIB_API void(rtlua_checkversion_)(lua_State *L, int ver, size_t sz,
                                     const char *config);
#define luaL_checkversion(L)                                                  \
    rtlua_checkversion_(L, LUA_VERSION_NUM, LUAL_NUMSIZES, RTLUA_CONFIG)

LUALIB_API int(luaL_getmetafield)(lua_State *L, int obj, const char *e);
LUALIB_API int(luaL_callmeta)(lua_State *L, int obj, const char *e);
LUALIB_API const char *(luaL_tolstring)(lua_State *L, int idx, size_t *len);
LUALIB_API int(luaL_argerror)(lua_State *L, int arg, const char *extramsg);
LUALIB_API int(luaL_typeerror)(lua_State *L, int arg, const char *tname);
LUALIB_API const char *(luaL_checklstring)(lua_State *L, int arg, size_t *l);
LUALIB_API const char *(luaL_optlstring)(lua_State *L, int arg,
                                         const char *def, size_t *l);
LUALIB_API lua_Number(luaL_checknumber)(lua_State *L, int arg);
LUALIB_API lua_Number(luaL_optnumber)(lua_State *L, int arg, lua_Number def);
LUALIB_API lua_Integer(luaL_checkinteger)(lua_State *L, int arg);
LUALIB_API lua_Integer(luaL_optinteger)(lua_State *L, int arg,
                                        lua_Integer def);

LUALIB_API void(luaL_checkstack)(lua_State *L, int sz, const char *msg);
LUALIB_API void(luaL_checktype)(lua_State *L, int arg, int t);
LUALIB_API void(luaL_checkany)(lua_State *L, int arg);

LUALIB_API int(luaL_newmetatable)(lua_State *L, const char *tname);
LUALIB_API void(luaL_setmetatable)(lua_State *L, const char *tname);
LUALIB_API void *(luaL_testudata)(lua_State *L, int ud, const char *tname);
LUALIB_API void *(luaL_checkudata)(lua_State *L, int ud, const char *tname);

LUALIB_API void(luaL_where)(lua_State *L, int lvl);
LUALIB_API int(luaL_error)(lua_State *L, const char *fmt, ...);

LUALIB_API int(luaL_checkoption)(lua_State *L, int arg, const char *def,
                                 const char *const lst[]);

LUALIB_API int(luaL_fileresult)(lua_State *L, int stat, const char *fname);
LUALIB_API int(luaL_execresult)(lua_State *L, int stat);

/* Predefined references. */
#define LUA_NOREF (-2)
#define LUA_REFNIL (-1)

LUALIB_API int(luaL_ref)(lua_State *L, int t);
LUALIB_API void(luaL_unref)(lua_State *L, int t, int ref);

LUALIB_API int(luaL_loadfilex)(lua_State *L, const char *filename,
                               const char *mode);
#define luaL_loadfile(L, f) luaL_loadfilex(L, f, NULL)

LUALIB_API int(luaL_loadbufferx)(lua_State *L, const char *buff, size_t sz,
                                 const char *name, const char *mode);
LUALIB_API int(luaL_loadstring)(lua_State *L, const char *s);

LUALIB_API lua_State *(luaL_newstate)(void);

LUALIB_API lua_Integer(luaL_len)(lua_State *L, int idx);

LUALIB_API void(luaL_addgsub)(luaL_Buffer *b, const char *s, const char *p,
                              const char *r);
LUALIB_API const char *(luaL_gsub)(lua_State *L, const char *s, const char *p,
                                   const char *r);

LUALIB_API void(luaL_setfuncs)(lua_State *L, const luaL_Reg *l, int nup);

LUALIB_API int(luaL_getsubtable)(lua_State *L, int idx, const char *fname);

LUALIB_API void(luaL_traceback)(lua_State *L, lua_State *L1, const char *msg,
                                int level);

LUALIB_API void(luaL_requiref)(lua_State *L, const char *modname,
                               lua_CFunction openf, int glb);

/* Useful macros. */
#define luaL_newlibtable(L, l)                                                \
    lua_createtable(L, 0, sizeof(l) / sizeof((l)[0]) - 1)
#define luaL_newlib(L, l)                                                     \
    (luaL_checkversion(L), luaL_newlibtable(L, l), luaL_setfuncs(L, l, 0))
#define luaL_argcheck(L, cond, arg, extramsg)                                 \
    ((void)((cond) || luaL_argerror(L, (arg), (extramsg))))
#define luaL_argexpected(L, cond, arg, tname)                                 \
    ((void)((cond) || luaL_typeerror(L, (arg), (tname))))
#define luaL_checkstring(L, n) (luaL_checklstring(L, (n), NULL))
#define luaL_optstring(L, n, d) (luaL_optlstring(L, (n), (d), NULL))
#define luaL_typename(L, i) lua_typename(L, lua_type(L, (i)))
#define luaL_dofile(L, fn)                                                    \
    (luaL_loadfile(L, fn) || lua_pcall(L, 0, LUA_MULTRET, 0))
#define luaL_dostring(L, s)                                                   \
    (luaL_loadstring(L, s) || lua_pcall(L, 0, LUA_MULTRET, 0))
#define luaL_getmetatable(L, n) (lua_getfield(L, LUA_REGISTRYINDEX, (n)))
#define luaL_opt(L, f, n, d) (lua_isnoneornil(L, (n)) ? (d) : f(L, (n)))
#define luaL_loadbuffer(L, s, sz, n) luaL_loadbufferx(L, s, sz, n, NULL)
#define luaL_intop(op, v1, v2)                                                \
    ((lua_Integer)((lua_Unsigned)(v1)op(lua_Unsigned)(v2)))
#define luaL_pushfail(L) lua_pushnil(L)

/* Generic buffer manipulation. */
struct luaL_Buffer {
    char *b;     /* buffer address */
    size_t size; /* buffer size */
    size_t n;    /* number of characters in buffer */
    lua_State *L;
    union {
        LUAI_UACNUMBER n;
        double u;
        void *s;
        lua_Integer i;
        long l;
        char b[LUAL_BUFFERSIZE]; /* initial buffer */
    } init;
};

#define luaL_bufflen(bf) ((bf)->n)
#define luaL_buffaddr(bf) ((bf)->b)
#define luaL_addchar(B, c)                                                    \
    ((void)((B)->n < (B)->size || luaL_prepbuffsize((B), 1)),                 \
     ((B)->b[(B)->n++] = (c)))
#define luaL_addsize(B, s) ((B)->n += (s))
#define luaL_buffsub(B, s) ((B)->n -= (s))

LUALIB_API void(luaL_buffinit)(lua_State *L, luaL_Buffer *B);
LUALIB_API char *(luaL_prepbuffsize)(luaL_Buffer *B, size_t sz);
LUALIB_API void(luaL_addlstring)(luaL_Buffer *B, const char *s, size_t l);
LUALIB_API void(luaL_addstring)(luaL_Buffer *B, const char *s);
LUALIB_API void(luaL_addvalue)(luaL_Buffer *B);
LUALIB_API void(luaL_pushresult)(luaL_Buffer *B);
LUALIB_API void(luaL_pushresultsize)(luaL_Buffer *B, size_t sz);
LUALIB_API char *(luaL_buffinitsize)(lua_State *L, luaL_Buffer *B, size_t sz);

#define luaL_prepbuffer(B) luaL_prepbuffsize(B, LUAL_BUFFERSIZE)

/* Compatibility with Lua 5.3's auxiliary library, when the module asks
 * for it (LUA_COMPAT_APIINTCASTS, or LUA_COMPAT_5_3 which brings it). */
#if defined(LUA_COMPAT_APIINTCASTS)
#define luaL_checkunsigned(L, a) ((lua_Unsigned)luaL_checkinteger(L, a))
#define luaL_optunsigned(L, a, d)                                             \
    ((lua_Unsigned)luaL_optinteger(L, a, (lua_Integer)(d)))
#define luaL_checkint(L, n) ((int)luaL_checkinteger(L, (n)))
#define luaL_optint(L, n, d) ((int)luaL_optinteger(L, (n), (d)))
#define luaL_checklong(L, n) ((long)luaL_checkinteger(L, (n)))
#define luaL_optlong(L, n, d) ((long)luaL_optinteger(L, (n), (d)))
#endif

/* File handles: io's files are full userdata with this metatable name,
 * whose block begins with a luaL_Stream.  closef is NULL once the file
 * is closed; a module making its own handles sets f and closef (which
 * closes f and returns luaL_fileresult's results), and io's functions
 * (close, __gc, __close, io.type) then treat them as io's own.  f is a
 * FILE * on the host; on a board it is the port's file or NULL (the
 * standard files), never a newlib stdio stream. */
#define LUA_FILEHANDLE "FILE*"

typedef struct luaL_Stream {
    FILE *f;
    lua_CFunction closef;
} luaL_Stream;

/* Console output for the libraries (the port's console, not stdio). */
#define lua_writestring(s, l) lua_writestring_(s, l)
#define lua_writeline() (lua_writestring("\n", 1))
LUALIB_API void lua_writestring_(const char *s, size_t l);
/* A message on the error console: printf's format with one argument. */
#define lua_writestringerror(s, p) lua_writestringerror_((s), (p))
LUALIB_API void lua_writestringerror_(const char *fmt, ...);

/* Assertions for a module's own debugging: off unless LUAI_ASSERT. */
#if !defined(lua_assert)
#if defined(LUAI_ASSERT)
#include <assert.h>
#define lua_assert(c) assert(c)
#else
#define lua_assert(c) ((void)0)
#endif
#endif

#endif
