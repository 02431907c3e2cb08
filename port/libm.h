/*
 * libm.h — the libm functions rtlua calls, by the model's float type:
 * LIBM(fn) is fn in the 64-bit model and fn##f in the 32-bit one.
 *
 * On newlib (the boards' C library, its older libm) LIBM_K(fn) is the
 * function's kernel, __ieee754_fn[f], for the functions newlib wraps:
 * sqrt, exp, log, log10, asin, acos, atan2, fmod and pow.  Each wrapper
 * calls its kernel,
 * then returns the kernel's result as it is when the library's
 * _LIB_VERSION is _IEEE_, as newlib is built (it sets errno and may
 * change the result in the SVID, XOPEN and POSIX modes, which nothing
 * selects, and rtlua reads no errno).  The kernels give the same bits
 * (checked for every function over a grid of special and ordinary
 * arguments on mps2-an385 in both models) without the wrappers: 1,120
 * bytes of flash there in the 32-bit model.  LIBM_LOG2 is log2 as newlib
 * computes it there, log(x) / ln 2 (log2f's body; math.h's macro for
 * log2).  Elsewhere (the host's libc) they are the standard functions.
 */
#ifndef RTLUA_PORT_LIBM_H
#define RTLUA_PORT_LIBM_H

#include <math.h>

#include "luaconf.h"

#if RTLUA_NUM == 32
#define LIBM(fn) fn##f
typedef float libm_num;
#else
#define LIBM(fn) fn
typedef double libm_num;
#endif

/* (newlib's older libm, __OBSOLETE_MATH: the one for cores without a
 * double-precision FPU.  With one, pow, exp and log and their float
 * forms are newer code with no wrapper and no kernel.) */
#if defined(__NEWLIB__) && defined(__OBSOLETE_MATH) && __OBSOLETE_MATH
#define LIBM_K(fn) LIBM(__ieee754_##fn)
libm_num LIBM_K(sqrt)(libm_num x);
libm_num LIBM_K(exp)(libm_num x);
libm_num LIBM_K(log)(libm_num x);
libm_num LIBM_K(log10)(libm_num x);
libm_num LIBM_K(asin)(libm_num x);
libm_num LIBM_K(acos)(libm_num x);
libm_num LIBM_K(atan2)(libm_num y, libm_num x);
libm_num LIBM_K(fmod)(libm_num x, libm_num y);
libm_num LIBM_K(pow)(libm_num x, libm_num y);
#define LIBM_LOG2(x) (LIBM_K(log)(x) / (libm_num)0.69314718055994530942)
#else
#define LIBM_K(fn) LIBM(fn)
#define LIBM_LOG2(x) LIBM(log2)(x)
#endif

#endif
