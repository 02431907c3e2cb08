/*
 * escape.h — the one-byte escapes of Lua's short strings (reference
 * manual §3.1: \a \b \f \n \r \t \v \\ \" \'), the one list of them:
 * the lexer (lang/lex.c) and tools/romgen, a host program whose ROM
 * string lists are written with the same escapes, both decode them here.
 * The escapes of more than one byte (\x, \ddd, \u{}, \z, a backslash
 * before a newline) are each reader's own.
 *
 * No includes: romgen builds without the runtime.
 */
#ifndef RTLUA_ESCAPE_H
#define RTLUA_ESCAPE_H

/* The byte the escape "\c" stands for, or -1 when \c is no one-byte
 * escape. */
static inline int lex_escapechar(int c)
{
    switch (c) {
    case 'a':
        return '\a';
    case 'b':
        return '\b';
    case 'f':
        return '\f';
    case 'n':
        return '\n';
    case 'r':
        return '\r';
    case 't':
        return '\t';
    case 'v':
        return '\v';
    case '\\':
    case '"':
    case '\'':
        return c;
    default:
        return -1;
    }
}

#endif
