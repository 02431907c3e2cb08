/*
 * romgen.h — what the two halves of tools/romgen share (a host program):
 * romgen.c owns the ROM strings, romtab.c the ROM tables, whose keys and
 * string values it interns as ROM strings through romgen_intern.
 */
#ifndef RTLUA_ROMGEN_H
#define RTLUA_ROMGEN_H

#include "vm/obj.h"

#include <stdio.h>

/* Longest C name accepted. */
#define ROMGEN_NAME_MAX 64
/* Longest input line. */
#define ROMGEN_LINE_MAX 512

struct entry {
    char data[STR_SHORT_MAX + 1];
    size_t len;
    char name[ROMGEN_NAME_MAX + 1]; /* "" when it has no C name */
    uint32_t hash;
    int line;
};

/* The input being read, for messages; an error message and exit(1). */
extern const char *romgen_input;
void romgen_die(int line, const char *msg, const char *what);
/* fopen, or an error message and exit(1). */
FILE *romgen_open(const char *path, const char *mode);
/* The next line of f (buf holds ROMGEN_LINE_MAX + 2 bytes) that is not
 * blank or a '#' comment, trimmed at both ends, or NULL at the end;
 * *indented says whether it began with a blank. */
char *romgen_read_line(FILE *f, char *buf, int *line, int *indented);
int romgen_is_ident(const char *s, size_t len);
/* A quoted string "bytes" (Lua's one-byte escapes, lang/escape.h, and
 * \0 \xHH) into e;
 * returns what follows the closing quote.  Errors exit. */
const char *romgen_unquote(struct entry *e, const char *p, int line);
/* The index of the ROM string with e's bytes, added (unnamed) if new. */
int romgen_intern(const struct entry *e, int line);
const struct entry *romgen_entry(int i);
/* The C object name of ROM string i. */
void romgen_put_objname(FILE *f, int i);

/* tools/romtab.c: read the tables of path (user: a module's
 * MODULE_ROMTAB file), add a module's opener to the table preload, check
 * that every `tab` names a table once all are read, write the outputs. */
void romtab_read(const char *path, int user);
void romtab_preload_add(const char *name, const char *opener);
void romtab_resolve(void);
void romtab_write(const char *hpath, const char *incpath);

#endif
