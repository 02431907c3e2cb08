/*
 * reserved.h — Lua's 22 reserved words (reference manual §3.1), the one
 * list of them.  Their order is the lexer's token order (TK_AND ..
 * TK_WHILE, lang/lex.h) and that of the first ROM strings, whose extra is
 * index + 1 (tools/romgen puts them first), so that a name whose interned
 * str has extra != 0 is the token TK_AND + extra - 1.
 *
 * No includes and nothing but the list: tools/romgen, a host program,
 * reads it too.  X(NAME, "word") for each word: TK_NAME is its token.
 */
#ifndef RTLUA_RESERVED_H
#define RTLUA_RESERVED_H

#define LEX_RESERVED(X)                                                       \
    X(AND, "and")                                                             \
    X(BREAK, "break")                                                         \
    X(DO, "do")                                                               \
    X(ELSE, "else")                                                           \
    X(ELSEIF, "elseif")                                                       \
    X(END, "end")                                                             \
    X(FALSE, "false")                                                         \
    X(FOR, "for")                                                             \
    X(FUNCTION, "function")                                                   \
    X(GOTO, "goto")                                                           \
    X(IF, "if")                                                               \
    X(IN, "in")                                                               \
    X(LOCAL, "local")                                                         \
    X(NIL, "nil")                                                             \
    X(NOT, "not")                                                             \
    X(OR, "or")                                                               \
    X(REPEAT, "repeat")                                                       \
    X(RETURN, "return")                                                       \
    X(THEN, "then")                                                           \
    X(TRUE, "true")                                                           \
    X(UNTIL, "until")                                                         \
    X(WHILE, "while")

#define LEX_RESERVED_ONE_(name, word) +1
/* How many there are. */
#define LEX_NRESERVED (0 LEX_RESERVED(LEX_RESERVED_ONE_))

#endif
