/*
 * headers.c — every function and macro of lua.h, lauxlib.h, lualib.h and
 * luaconf.h as a module would use it, compiled (never run) by
 * tests/cmod/run with only a build's include directory, as -std=c99, c11
 * and gnu11, with -Wall -Wextra -Werror, by the host's gcc and
 * arm-none-eabi-gcc.  A name missing, misdeclared, or a macro that
 * expands to something that warns, fails the compile.  LUA_COMPAT_5_3
 * brings the 5.3 names too.  Not here: luaconf.h's build switches, which
 * Lua's own headers leave undefined too (LUA_USE_POSIX, LUA_USE_DLOPEN,
 * LUA_USE_C89, LUA_USE_WINDOWS, LUA_DL_DLL, LUA_C89_NUMBERS, and
 * luai_apicheck, defined only with LUA_USE_APICHECK), Windows' LUA_SHRDIR
 * and Debian's additions (LUA_ROOT2, LUA_LDIR2, LUA_CDIR2, LUA_CDIR3).
 */
#define LUA_COMPAT_5_3
#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"

#if !defined(lua_h) || !defined(lauxlib_h) || !defined(lualib_h) ||           \
    !defined(luaconf_h)
#error "include guards"
#endif
#if LUA_VERSION_NUM != 504 || LUA_NUMTAGS != LUA_NUMTYPES
#error "version"
#endif
#if LUA_INT_TYPE != LUA_INT_INT && LUA_INT_TYPE != LUA_INT_LONG &&            \
    LUA_INT_TYPE != LUA_INT_LONGLONG
#error "LUA_INT_TYPE"
#endif
#if LUA_FLOAT_TYPE != LUA_FLOAT_FLOAT &&                                      \
    LUA_FLOAT_TYPE != LUA_FLOAT_DOUBLE &&                                     \
    LUA_FLOAT_TYPE != LUA_FLOAT_LONGDOUBLE
#error "LUA_FLOAT_TYPE"
#endif
#if LUA_32BITS != 0 && LUA_32BITS != 1
#error "LUA_32BITS"
#endif
#if !defined(LUA_COMPAT_APIINTCASTS) || !defined(LUA_COMPAT_MATHLIB) ||       \
    !defined(LUA_COMPAT_LT_LE)
#error "LUA_COMPAT_5_3"
#endif
#if LUA_INT_TYPE != LUA_INT_DEFAULT || LUA_FLOAT_TYPE != LUA_FLOAT_DEFAULT
#error "the default types are the build's"
#endif

/* How modules declare what they export, and data. */
LUAMOD_API int luaopen_headers(lua_State *L);
LUALIB_API int headers_lib(lua_State *L);
LUA_API int headers_api(lua_State *L);
LUAI_FUNC int headers_func(void);
LUAI_DDEC(int headers_data);
LUAI_DDEF int headers_data = 0;

/* The C types behind the API's. */
static const LUA_NUMBER a_number = 0;
static const LUA_UNSIGNED an_unsigned = 0;
static const LUA_KCONTEXT a_context = 0;
static const lua_Alloc an_alloc = NULL;
static const lua_WarnFunction a_warnf = NULL;
static const int mantissa = l_floatatt(MANT_DIG);

typedef union {
    LUAI_MAXALIGN;
} maxalign;

static const char *const strings[] = {
    LUA_VERSION_MAJOR, LUA_VERSION_MINOR,  LUA_VERSION_RELEASE,
    LUA_VERSION,       LUA_RELEASE,        LUA_COPYRIGHT,
    LUA_AUTHORS,       LUA_SIGNATURE,      LUA_PATH_SEP,
    LUA_PATH_MARK,     LUA_EXEC_DIR,       LUA_DIRSEP,
    LUA_ROOT,          LUA_LDIR,           LUA_CDIR,
    LUA_PATH_DEFAULT,  LUA_CPATH_DEFAULT,  LUA_VERSUFFIX,
    LUA_GNAME,         LUA_LOADED_TABLE,   LUA_PRELOAD_TABLE,
    LUA_FILEHANDLE,    LUA_COLIBNAME,      LUA_TABLIBNAME,
    LUA_IOLIBNAME,     LUA_OSLIBNAME,      LUA_STRLIBNAME,
    LUA_UTF8LIBNAME,   LUA_MATHLIBNAME,    LUA_DBLIBNAME,
    LUA_LOADLIBNAME,   LUA_NUMBER_FMT,     LUA_INTEGER_FMT,
    LUA_NUMBER_FRMLEN, LUA_INTEGER_FRMLEN, lua_ident,
    LUA_VDIR};

static const long constants[] = {LUA_VERSION_RELEASE_NUM,
                                 LUA_MULTRET,
                                 LUA_REGISTRYINDEX,
                                 lua_upvalueindex(1),
                                 LUA_OK,
                                 LUA_YIELD,
                                 LUA_ERRRUN,
                                 LUA_ERRSYNTAX,
                                 LUA_ERRMEM,
                                 LUA_ERRERR,
                                 LUA_ERRFILE,
                                 LUA_TNONE,
                                 LUA_TNIL,
                                 LUA_TBOOLEAN,
                                 LUA_TLIGHTUSERDATA,
                                 LUA_TNUMBER,
                                 LUA_TSTRING,
                                 LUA_TTABLE,
                                 LUA_TFUNCTION,
                                 LUA_TUSERDATA,
                                 LUA_TTHREAD,
                                 LUA_MINSTACK,
                                 LUA_RIDX_MAINTHREAD,
                                 LUA_RIDX_GLOBALS,
                                 LUA_RIDX_LAST,
                                 LUA_OPADD,
                                 LUA_OPSUB,
                                 LUA_OPMUL,
                                 LUA_OPMOD,
                                 LUA_OPPOW,
                                 LUA_OPDIV,
                                 LUA_OPIDIV,
                                 LUA_OPBAND,
                                 LUA_OPBOR,
                                 LUA_OPBXOR,
                                 LUA_OPSHL,
                                 LUA_OPSHR,
                                 LUA_OPUNM,
                                 LUA_OPBNOT,
                                 LUA_OPEQ,
                                 LUA_OPLT,
                                 LUA_OPLE,
                                 LUA_GCSTOP,
                                 LUA_GCRESTART,
                                 LUA_GCCOLLECT,
                                 LUA_GCCOUNT,
                                 LUA_GCCOUNTB,
                                 LUA_GCSTEP,
                                 LUA_GCSETPAUSE,
                                 LUA_GCSETSTEPMUL,
                                 LUA_GCISRUNNING,
                                 LUA_GCGEN,
                                 LUA_GCINC,
                                 LUA_HOOKCALL,
                                 LUA_HOOKRET,
                                 LUA_HOOKLINE,
                                 LUA_HOOKCOUNT,
                                 LUA_HOOKTAILCALL,
                                 LUA_MASKCALL,
                                 LUA_MASKRET,
                                 LUA_MASKLINE,
                                 LUA_MASKCOUNT,
                                 LUA_NOREF,
                                 LUA_REFNIL,
                                 LUA_IDSIZE,
                                 LUAL_BUFFERSIZE,
                                 LUAI_MAXSTACK,
                                 (long)LUAL_NUMSIZES,
                                 (long)LUA_EXTRASPACE,
                                 (long)sizeof(maxalign),
                                 LUA_MAXINTEGER > 0,
                                 LUA_MININTEGER<0, LUA_MAXUNSIGNED> 0u};

static int k(lua_State *L, int status, lua_KContext ctx)
{
    (void)L;
    (void)ctx;
    return status;
}

static const char *reader(lua_State *L, void *ud, size_t *sz)
{
    (void)L;
    (void)ud;
    *sz = 0;
    return NULL;
}

static int writer(lua_State *L, const void *p, size_t sz, void *ud)
{
    (void)L;
    (void)p;
    (void)sz;
    (void)ud;
    return 0;
}

static void *alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    (void)ud;
    (void)osize;
    (void)nsize;
    return ptr;
}

static void warnf(void *ud, const char *msg, int tocont)
{
    (void)ud;
    (void)msg;
    (void)tocont;
}

static void hook(lua_State *L, lua_Debug *ar)
{
    (void)L;
    (void)ar;
}

static int cf(lua_State *L)
{
    return lua_gettop(L);
}

static const char *vf(lua_State *L, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const char *s = lua_pushvfstring(L, fmt, ap);
    va_end(ap);
    return s;
}

static const luaL_Reg regs[] = {{"f", cf}, {NULL, NULL}};

static const lua_CFunction openers[] = {
    luaopen_base,  luaopen_coroutine, luaopen_table, luaopen_io,
    luaopen_os,    luaopen_string,    luaopen_utf8,  luaopen_math,
    luaopen_debug, luaopen_package};

/* Exported so that nothing is unused; never called. */
void every_name(lua_State *L);

void every_name(lua_State *L)
{
    size_t len;
    int isnum;
    void *ud;
    lua_Debug ar;
    luaL_Buffer b;
    luaL_Stream *st = (luaL_Stream *)lua_touserdata(L, 1);
    char num[64];
    const char *const opts[] = {"a", NULL};
    lua_Integer i = 0;
    lua_Unsigned u = 0;
    lua_Number n = 0;
    lua_KContext ctx = 0;

    (void)strings;
    (void)constants;
    (void)openers;
    (void)(a_number + an_unsigned + a_context + mantissa);
    (void)an_alloc;
    (void)a_warnf;
    vf(L, "%s", "x");
    (void)st->f;
    (void)st->closef;
    L = lua_newstate(alloc, NULL);
    lua_close(L);
    L = lua_newthread(L);
    lua_resetthread(L);
    lua_closethread(L, NULL);
    lua_atpanic(L, cf);
    n = lua_version(L);
    *(void **)lua_getextraspace(L) = NULL;
    lua_absindex(L, -1);
    lua_gettop(L);
    lua_settop(L, 0);
    lua_pushvalue(L, 1);
    lua_rotate(L, 1, 1);
    lua_copy(L, 1, 2);
    lua_checkstack(L, 1);
    lua_xmove(L, L, 1);
    lua_isnumber(L, 1);
    lua_isstring(L, 1);
    lua_iscfunction(L, 1);
    lua_isinteger(L, 1);
    lua_isuserdata(L, 1);
    lua_type(L, 1);
    lua_typename(L, LUA_TNIL);
    n = lua_tonumberx(L, 1, &isnum);
    i = lua_tointegerx(L, 1, &isnum);
    lua_toboolean(L, 1);
    lua_tolstring(L, 1, &len);
    u = lua_rawlen(L, 1);
    lua_tocfunction(L, 1);
    lua_touserdata(L, 1);
    lua_tothread(L, 1);
    lua_topointer(L, 1);
    lua_arith(L, LUA_OPADD);
    lua_rawequal(L, 1, 2);
    lua_compare(L, 1, 2, LUA_OPLT);
    lua_pushnil(L);
    lua_pushnumber(L, n);
    lua_pushinteger(L, i);
    lua_pushlstring(L, "x", 1);
    lua_pushstring(L, "x");
    lua_pushfstring(L, "%s %d %I %f %p %c %U %%", "s", 1, (LUAI_UACINT)i,
                    (LUAI_UACNUMBER)n, (void *)L, 'c', 0x20AC);
    lua_pushcclosure(L, cf, 0);
    lua_pushboolean(L, 1);
    lua_pushlightuserdata(L, NULL);
    lua_pushthread(L);
    lua_getglobal(L, "x");
    lua_gettable(L, 1);
    lua_getfield(L, 1, "x");
    lua_geti(L, 1, 1);
    lua_rawget(L, 1);
    lua_rawgeti(L, 1, 1);
    lua_rawgetp(L, 1, NULL);
    lua_createtable(L, 0, 0);
    lua_newuserdatauv(L, 1, 1);
    lua_getmetatable(L, 1);
    lua_getiuservalue(L, 1, 1);
    lua_setglobal(L, "x");
    lua_settable(L, 1);
    lua_setfield(L, 1, "x");
    lua_seti(L, 1, 1);
    lua_rawset(L, 1);
    lua_rawseti(L, 1, 1);
    lua_rawsetp(L, 1, NULL);
    lua_setmetatable(L, 1);
    lua_setiuservalue(L, 1, 1);
    lua_callk(L, 0, 0, ctx, k);
    lua_call(L, 0, LUA_MULTRET);
    lua_pcallk(L, 0, 0, 0, ctx, k);
    lua_pcall(L, 0, 0, 0);
    lua_load(L, reader, NULL, "=x", "bt");
    lua_dump(L, writer, NULL, 0);
    lua_yieldk(L, 0, ctx, k);
    lua_yield(L, 0);
    lua_resume(L, NULL, 0, &isnum);
    lua_status(L);
    lua_isyieldable(L);
    lua_setwarnf(L, warnf, NULL);
    lua_warning(L, "w", 0);
    lua_gc(L, LUA_GCCOLLECT);
    lua_gc(L, LUA_GCINC, 0, 0, 0);
    lua_error(L);
    lua_next(L, 1);
    lua_concat(L, 2);
    lua_len(L, 1);
    lua_stringtonumber(L, "1");
    lua_setallocf(L, lua_getallocf(L, &ud), ud);
    lua_toclose(L, 1);
    lua_closeslot(L, 1);
    n = lua_tonumber(L, 1);
    i = lua_tointeger(L, 1);
    lua_pop(L, 1);
    lua_newtable(L);
    lua_register(L, "f", cf);
    lua_pushcfunction(L, cf);
    (void)(lua_isfunction(L, 1) + lua_istable(L, 1) +
           lua_islightuserdata(L, 1) + lua_isnil(L, 1) + lua_isboolean(L, 1) +
           lua_isthread(L, 1) + lua_isnone(L, 1) + lua_isnoneornil(L, 1));
    lua_pushliteral(L, "lit");
    lua_pushglobaltable(L);
    lua_tostring(L, 1);
    lua_insert(L, 1);
    lua_remove(L, 1);
    lua_replace(L, 1);
    lua_newuserdata(L, 1);
    lua_getuservalue(L, 1);
    lua_setuservalue(L, 1);
    if (lua_numbertointeger(n, &i))
        i++;
    lua_pushunsigned(L, u);
    u = lua_tounsignedx(L, 1, &isnum);
    u = lua_tounsigned(L, 1);
    u = lua_strlen(L, 1) + lua_objlen(L, 1);
    (void)(lua_equal(L, 1, 2) + lua_lessthan(L, 1, 2));
    lua_getstack(L, 0, &ar);
    lua_getinfo(L, "nSltur", &ar);
    lua_getlocal(L, &ar, 1);
    lua_setlocal(L, &ar, 1);
    lua_getupvalue(L, 1, 1);
    lua_setupvalue(L, 1, 1);
    lua_upvalueid(L, 1, 1);
    lua_upvaluejoin(L, 1, 1, 2, 1);
    lua_sethook(L, hook, LUA_MASKCALL, 0);
    (void)lua_gethook(L);
    lua_gethookmask(L);
    lua_gethookcount(L);
    lua_setcstacklimit(L, 200);
    (void)(ar.event + ar.currentline + ar.linedefined + ar.lastlinedefined +
           ar.nups + ar.nparams + ar.isvararg + ar.istailcall + ar.ftransfer +
           ar.ntransfer + (int)ar.srclen + ar.short_src[0]);
    (void)ar.name;
    (void)ar.namewhat;
    (void)ar.what;
    (void)ar.source;

    luaL_checkversion_(L, LUA_VERSION_NUM, LUAL_NUMSIZES);
    luaL_checkversion(L);
    luaL_getmetafield(L, 1, "__name");
    luaL_callmeta(L, 1, "__tostring");
    luaL_tolstring(L, 1, &len);
    luaL_argerror(L, 1, "x");
    luaL_typeerror(L, 1, "x");
    luaL_checklstring(L, 1, &len);
    luaL_optlstring(L, 1, "d", &len);
    n = luaL_checknumber(L, 1) + luaL_optnumber(L, 1, 0);
    i = luaL_checkinteger(L, 1) + luaL_optinteger(L, 1, 0);
    luaL_checkstack(L, 1, "x");
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checkany(L, 1);
    luaL_newmetatable(L, "T");
    luaL_setmetatable(L, "T");
    luaL_testudata(L, 1, "T");
    luaL_checkudata(L, 1, "T");
    luaL_where(L, 1);
    luaL_error(L, "%s", "x");
    luaL_checkoption(L, 1, "a", opts);
    luaL_fileresult(L, 0, "f");
    luaL_execresult(L, 0);
    luaL_unref(L, LUA_REGISTRYINDEX, luaL_ref(L, LUA_REGISTRYINDEX));
    luaL_loadfilex(L, "f", NULL);
    luaL_loadfile(L, "f");
    luaL_loadbufferx(L, "x", 1, "=x", "t");
    luaL_loadstring(L, "x");
    L = luaL_newstate();
    i = luaL_len(L, 1);
    luaL_gsub(L, "a", "b", "c");
    luaL_setfuncs(L, regs, 0);
    luaL_getsubtable(L, 1, "x");
    luaL_traceback(L, L, "msg", 1);
    luaL_requiref(L, "m", cf, 1);
    luaL_newlibtable(L, regs);
    luaL_newlib(L, regs);
    luaL_argcheck(L, 1, 1, "x");
    luaL_argexpected(L, 1, 1, "x");
    luaL_checkstring(L, 1);
    luaL_optstring(L, 1, "d");
    luaL_typename(L, 1);
    (void)(luaL_dofile(L, "f") + luaL_dostring(L, "x"));
    luaL_getmetatable(L, "T");
    i = luaL_opt(L, luaL_checkinteger, 1, 0);
    luaL_loadbuffer(L, "x", 1, "=x");
    i = luaL_intop(+, i, 1);
    luaL_pushfail(L);
    u = luaL_checkunsigned(L, 1) + luaL_optunsigned(L, 1, 0);
    i = luaL_checkint(L, 1) + luaL_optint(L, 1, 0) + luaL_checklong(L, 1) +
        luaL_optlong(L, 1, 0);
    luaL_buffinit(L, &b);
    luaL_addchar(&b, 'c');
    luaL_addsize(&b, 0);
    luaL_buffsub(&b, 0);
    (void)luaL_bufflen(&b);
    (void)luaL_buffaddr(&b);
    luaL_prepbuffsize(&b, 10);
    luaL_prepbuffer(&b);
    luaL_addlstring(&b, "x", 1);
    luaL_addstring(&b, "x");
    luaL_addgsub(&b, "a", "b", "c");
    luaL_addvalue(&b);
    luaL_pushresult(&b);
    luaL_buffinitsize(L, &b, 10);
    luaL_pushresultsize(&b, 0);
    lua_writestring("x", 1);
    lua_writeline();
    lua_writestringerror("%s\n", "x");
    lua_assert(L != NULL);
    luaL_openlibs(L);

    /* luaconf.h's conversions, with the C library's functions. */
    lua_number2str(num, sizeof num, n);
    lua_integer2str(num, sizeof num, i);
    n = lua_str2number(num, NULL) + l_floor(n) + l_mathop(fabs)(n);
    l_sprintf(num, sizeof num, LUA_INTEGER_FMT, (LUAI_UACINT)i);
    l_sprintf(num, sizeof num, "%" LUA_INTEGER_FRMLEN "d", (LUA_INTEGER)i);
    lua_number2strx(L, num, sizeof num, "%a", n);
    lua_pointer2str(num, sizeof num, (void *)L);
    n = lua_strx2number("0x1p4", NULL);
    if (l_likely(LUAI_IS32INT) && !l_unlikely(i == 0) &&
        luai_likely(lua_getlocaledecpoint() == '.') && !luai_unlikely(0))
        (void)u;
}
