/*
 * luaconf.h — build-time configuration of rtlua's public API.
 *
 * Nothing here is a default of its own: the settings that make the ABI
 * (number model, stack and buffer limits, the C type of lua_Integer) come
 * from rtlua_config.h, which the Makefile writes into each build's
 * include directory (build/<target>/include) from the settings it builds
 * the runtime with.  A module compiled with -I build/<target>/include
 * therefore sees the very values the runtime was compiled with, and a
 * copy of these headers without that file refuses to compile.
 *
 * Number models: RTLUA_CONFIG_NUM 64 gives int64 + double (the host
 * default, identical to reference Lua), 32 gives int32 + float (the board
 * default).  LUA_INTEGER is the fixed-width type (int64_t or int32_t);
 * LUA_INTEGER_FRMLEN is the printf length that names its real C type for
 * the compiler of that build, so LUA_INTEGER_FMT passes -Wformat.
 */
#ifndef luaconf_h
#define luaconf_h

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__has_include)
#if !__has_include("rtlua_config.h")
/* Compile against a build's include directory, -I build/<target>/include,
 * not the source tree's include/. */
#error "rtlua_config.h not found: use -I build/<target>/include"
#define RTLUA_CONFIG_MISSING
#endif
#endif
#ifndef RTLUA_CONFIG_MISSING
#include "rtlua_config.h"
#endif

#if defined(RTLUA_NUM) && RTLUA_NUM != RTLUA_CONFIG_NUM
/* Use the include directory of the build you link with, no -DRTLUA_NUM. */
#error "RTLUA_NUM disagrees with this include directory's rtlua_config.h"
#endif
#ifndef RTLUA_NUM
#define RTLUA_NUM RTLUA_CONFIG_NUM
#endif

/* Lua 5.3 compatibility a module may ask for (before including lua.h):
 * LUA_COMPAT_5_3 brings the others. */
#if defined(LUA_COMPAT_5_3)
#ifndef LUA_COMPAT_MATHLIB
#define LUA_COMPAT_MATHLIB
#endif
#ifndef LUA_COMPAT_APIINTCASTS
#define LUA_COMPAT_APIINTCASTS
#endif
#ifndef LUA_COMPAT_LT_LE
#define LUA_COMPAT_LT_LE
#endif
#endif

/* The C types lua_Integer and lua_Number can be (Lua 5.4's names). */
#define LUA_INT_INT 1
#define LUA_INT_LONG 2
#define LUA_INT_LONGLONG 3
#define LUA_FLOAT_FLOAT 1
#define LUA_FLOAT_DOUBLE 2
#define LUA_FLOAT_LONGDOUBLE 3

/* The build's types are the "default" ones (Lua 5.4's default is
 * long long and double). */
#define LUA_INT_DEFAULT RTLUA_CONFIG_INT_TYPE
#define LUA_INT_TYPE LUA_INT_DEFAULT

#if RTLUA_CONFIG_NUM == 64
#define LUA_32BITS 0
#define LUA_FLOAT_DEFAULT LUA_FLOAT_DOUBLE
#define LUA_FLOAT_TYPE LUA_FLOAT_DEFAULT
#define LUA_INTEGER int64_t
#define LUA_UNSIGNED uint64_t
#define LUA_MAXINTEGER INT64_MAX
#define LUA_MININTEGER INT64_MIN
#define LUA_MAXUNSIGNED UINT64_MAX
#define LUA_NUMBER double
#define LUA_NUMBER_FRMLEN ""
#define l_mathop(op) op
#define l_floatatt(n) (DBL_##n)
#define lua_str2number(s, p) strtod((s), (p))
#elif RTLUA_CONFIG_NUM == 32
#define LUA_32BITS 1
#define LUA_FLOAT_DEFAULT LUA_FLOAT_FLOAT
#define LUA_FLOAT_TYPE LUA_FLOAT_DEFAULT
#define LUA_INTEGER int32_t
#define LUA_UNSIGNED uint32_t
#define LUA_MAXINTEGER INT32_MAX
#define LUA_MININTEGER INT32_MIN
#define LUA_MAXUNSIGNED UINT32_MAX
#define LUA_NUMBER float
#define LUA_NUMBER_FRMLEN ""
#define l_mathop(op) op##f
#define l_floatatt(n) (FLT_##n) /* the caller includes <float.h> */
#define lua_str2number(s, p) strtof((s), (p))
#else
#error "rtlua_config.h: RTLUA_CONFIG_NUM must be 32 or 64"
#endif

#define LUA_INTEGER_FRMLEN RTLUA_CONFIG_INTEGER_FRMLEN
#define LUA_INTEGER_FMT "%" LUA_INTEGER_FRMLEN "d"
#define LUA_NUMBER_FMT RTLUA_CONFIG_NUMBER_FMT
/* The types an integer and a float take through "..." (lua_pushfstring's
 * %I and %f). */
#define LUAI_UACINT LUA_INTEGER
#define LUAI_UACNUMBER double

/* Conversions as Lua 5.4's luaconf.h gives them (C library calls: the
 * caller includes <stdio.h>, <stdlib.h> or <math.h> for what it uses).
 * rtlua itself formats numbers with its own code (port/fmt.c). */
#define l_floor(x) (l_mathop(floor)(x))
#define l_sprintf(s, sz, f, i) snprintf(s, sz, f, i)
#define lua_number2str(s, sz, n)                                              \
    l_sprintf((s), sz, LUA_NUMBER_FMT, (LUAI_UACNUMBER)(n))
#define lua_integer2str(s, sz, n)                                             \
    l_sprintf((s), sz, LUA_INTEGER_FMT, (LUAI_UACINT)(n))
#define lua_strx2number(s, p) lua_str2number(s, p)
#define lua_number2strx(L, b, sz, f, n)                                       \
    ((void)L, l_sprintf(b, sz, f, (LUAI_UACNUMBER)(n)))
#define lua_pointer2str(buff, sz, p) l_sprintf(buff, sz, "%p", p)

#define LUA_KCONTEXT intptr_t

/* The decimal point of the locale (lua_str2number's; the caller includes
 * <locale.h>), whether int has at least 32 bits, branch hints. */
#define lua_getlocaledecpoint() (localeconv()->decimal_point[0])
#define LUAI_IS32INT ((UINT_MAX >> 30) >= 3)
#if defined(__GNUC__)
#define luai_likely(x) (__builtin_expect(((x) != 0), 1))
#define luai_unlikely(x) (__builtin_expect(((x) != 0), 0))
#else
#define luai_likely(x) (x)
#define luai_unlikely(x) (x)
#endif
#define l_likely(x) luai_likely(x)
#define l_unlikely(x) luai_unlikely(x)

/* Fields that, in a union, give it the strictest alignment of Lua's
 * values. */
#define LUAI_MAXALIGN                                                         \
    lua_Number n;                                                             \
    double u;                                                                 \
    void *s;                                                                  \
    lua_Integer i;                                                            \
    long l

/* Bytes of raw memory each lua_State carries for the application
 * (lua_getextraspace); a new thread's starts as a copy of the main
 * thread's. */
#define LUA_EXTRASPACE (sizeof(void *))

/* Bytes of a chunk id in messages ("[string \"...\"]"). */
#define LUA_IDSIZE 60

/* Most stack slots one thread may use ("stack overflow" beyond). */
#define LUAI_MAXSTACK RTLUA_CONFIG_MAXSTACK

/* Nested C calls and parser levels ("C stack overflow" beyond), the
 * default of lua_setcstacklimit.  On the boards the real bound is the
 * stack itself (vm/do.h, LUAI_CSTACK_KEEP). */
#define LUAI_MAXCCALLS 200

/* Bytes of a luaL_Buffer's inline storage (C stack). */
#define LUAL_BUFFERSIZE RTLUA_CONFIG_BUFFERSIZE

#define LUA_API extern
#define LUALIB_API extern
#define LUAMOD_API extern
#define LUAI_FUNC extern
#define LUAI_DDEC(dec) LUAI_FUNC dec
#define LUAI_DDEF /* empty */

/* The defaults of package.path and package.cpath (also the ROM package
 * table's, in tools/romtab.txt): the current directory only, as rtlua
 * installs no module tree.  The host CLI loads C modules (.so) found on
 * package.cpath; a board loads none (lib/loadlib.c), its C modules are
 * linked in (make USER_C_MODULES=dir). */
#define LUA_PATH_SEP ";"
#define LUA_PATH_MARK "?"
#define LUA_EXEC_DIR "!"
#define LUA_DIRSEP "/"
#define LUA_IGMARK "-"
#define LUA_CSUBSEP LUA_DIRSEP
#define LUA_LSUBSEP LUA_DIRSEP
#define LUA_VDIR LUA_VERSION_MAJOR "." LUA_VERSION_MINOR
#define LUA_ROOT "./"
#define LUA_LDIR LUA_ROOT
#define LUA_CDIR LUA_ROOT
#define LUA_PATH_DEFAULT "./?.lua;./?/init.lua"
#define LUA_CPATH_DEFAULT "./?.so"

#endif
