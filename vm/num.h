/*
 * num.h — number <-> text conversion, owned by the runtime.
 *
 * newlib's strtod and its float printf allocate from a heap the boards do
 * not have, so no libc conversion is ever called.  Everything here is
 * exact: text -> number is correctly rounded (round-half-even) for the
 * model's float type, and number -> text rounds the exact binary value,
 * the way glibc's strtod/strtof and printf do.  Both sides work on a small
 * multi-word integer on the stack (no heap, no static state: reentrant).
 *
 * num_str2number follows lua_stringtonumber: optional white space around,
 * an optional sign, decimal or 0x-hex integers (decimal overflow falls
 * back to a float, hex wraps modulo 2^N), decimal floats with e/E, hex
 * floats with p/P; "inf" and "nan" are not numbers.
 */
#ifndef RTLUA_NUM_H
#define RTLUA_NUM_H

#include <stddef.h>

#include "vm/obj.h"

/* The value of a hexadecimal digit, or -1: the one copy for the lexer,
 * the number readers (here, io.read) and tools/romgen's escapes. */
static inline int num_hexvalue(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Longest text num_tostring writes, with its NUL ("-" + 17 digits +
 * "e-308" fits easily; integers need at most 21). */
#define NUM_TOSTRING_MAX 48

/* Converts the whole NUL-terminated s; returns strlen(s) + 1 and sets
 * *out (integer or float), or returns 0 when s is not a numeral. */
size_t num_str2number(const char *s, tvalue *out);

/* Lua's tostring for a number: integers in decimal, floats as "%.14g"
 * (RTLUA_NUM=64) or "%.7g" (RTLUA_NUM=32) with ".0" appended when the
 * result would read as an integer.  Returns the length, as snprintf. */
int num_tostring(const tvalue *v, char *buf, size_t cap);

/* C's "%.<prec>e" and "%.<prec>g" (prec 0..99) of x, correctly rounded
 * from the exact binary value.  Like snprintf they write at most cap
 * bytes including the NUL and return the full length. */
int num_fmt_e(double x, int prec, char *buf, size_t cap);
int num_fmt_g(double x, int prec, char *buf, size_t cap);

/* For string.format, same contract: C's "%.<prec>f" (prec 0..99; alt:
 * "%#.<prec>f", the point even when prec is 0), "%#.<prec>e" and
 * "%#.<prec>g" (trailing zeros kept, point always), and "%.<prec>a"
 * (prec < 0: as many hex digits as the value needs) in glibc's form,
 * lower case ("0x1.8p+1"; subnormals as "0x0.<digits>p-1022"). */
int num_fmt_f(double x, int prec, int alt, char *buf, size_t cap);
int num_fmt_ealt(double x, int prec, char *buf, size_t cap);
int num_fmt_galt(double x, int prec, char *buf, size_t cap);
int num_fmt_a(double x, int prec, char *buf, size_t cap);

#endif
