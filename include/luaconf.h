/*
 * luaconf.h — build-time configuration of rtlua's public API.
 *
 * The number model follows RTLUA_NUM (vm/obj.h): 64 gives int64 + double
 * (the host default, identical to reference Lua), 32 gives int32 + float
 * (the board default).  Limits that cost RAM or C stack are smaller on
 * the boards; each says what it bounds.
 */
#ifndef RTLUA_LUACONF_H
#define RTLUA_LUACONF_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#ifndef RTLUA_NUM
#define RTLUA_NUM 64
#endif

#if RTLUA_NUM == 64
#define LUA_INTEGER int64_t
#define LUA_UNSIGNED uint64_t
#define LUA_NUMBER double
#define LUA_MAXINTEGER INT64_MAX
#define LUA_MININTEGER INT64_MIN
#define LUA_INTEGER_FMT "%lld"
#define LUA_NUMBER_FMT "%.14g"
#define LUAI_UACNUMBER double
#define LUAI_UACINT long long
#else
#define LUA_INTEGER int32_t
#define LUA_UNSIGNED uint32_t
#define LUA_NUMBER float
#define LUA_MAXINTEGER INT32_MAX
#define LUA_MININTEGER INT32_MIN
#define LUA_INTEGER_FMT "%ld"
#define LUA_NUMBER_FMT "%.7g"
#define LUAI_UACNUMBER double
#define LUAI_UACINT long
#endif

#define LUA_KCONTEXT intptr_t

/* Bytes of a chunk id in messages ("[string \"...\"]"). */
#define LUA_IDSIZE 60

/* Most stack slots one thread may use ("stack overflow" beyond). */
#ifndef LUAI_MAXSTACK
#ifdef RTLUA_HOST
#define LUAI_MAXSTACK 1000000
#else
#define LUAI_MAXSTACK 20000
#endif
#endif

/* Nested C calls and parser levels ("C stack overflow" beyond).  On the
 * boards the real bound is the stack itself: a level is refused when
 * fewer than LUAI_CSTACK_KEEP bytes of C stack remain (port_stack_left),
 * which leaves room for the error path and the deepest leaf's work. */
#ifndef LUAI_MAXCCALLS
#define LUAI_MAXCCALLS 200
#endif
#ifndef LUAI_CSTACK_KEEP
#define LUAI_CSTACK_KEEP 1536
#endif

/* Bytes of a luaL_Buffer's inline storage (C stack). */
#ifndef LUAL_BUFFERSIZE
#ifdef RTLUA_HOST
#define LUAL_BUFFERSIZE 1024
#else
#define LUAL_BUFFERSIZE 128
#endif
#endif

#define LUA_API extern
#define LUALIB_API extern
#define LUAMOD_API extern

/* The defaults of package.path and package.cpath (also the ROM package
 * table's, in tools/romtab.txt): the current directory only, as rtlua
 * installs no module tree.  No C library is ever loaded (lib/loadlib.c);
 * the C searchers still name the files they tried. */
#define LUA_PATH_DEFAULT "./?.lua;./?/init.lua"
#define LUA_CPATH_DEFAULT "./?.so"
#define LUA_DIRSEP "/"

#endif
