/*
 * romtab.c — the ROM-table half of tools/romgen (a host program): reads
 * tools/romtab.txt and writes romtab.h and romtab.inc (in DIR/gen).
 *
 * Input, one table at a time:
 *
 *     table NAME FILE                        (at column 0)
 *       KEY KIND [VALUE] [if host|if board]  (indented), one line an entry
 *
 * "table" starts the table romtab_NAME, emitted in the block of
 * romtab.inc that FILE's library source includes (it defines
 * ROMTAB_FILE_<FILE>); the indented lines after it are its entries.
 * KEY is a name, a "quoted string" or [N] (an integer 0 <= N < 2^31).
 * KIND and VALUE:
 *     fn CFUNC        a light C function (static in FILE is fine: the block
 *                     is compiled inside FILE)
 *     int EXPR        an integer, a C expression (one word)
 *     num EXPR        a float, a C expression (one word)
 *     str TEXT        a short string (bare word or "quoted")
 *     tab NAME        another ROM table
 *     true | false
 *     udata CNAME     a ROM userdata object FILE defines before the block
 * "if host" keeps the entry only where RTLUA_HOST is defined, "if board"
 * only where it is not; a table with such entries is laid out twice.
 *
 * Layout.  The hash part has the smallest power-of-two size holding every
 * entry.  Keys are placed as tab.c's lookups expect (vm/tab.h): each key's
 * main position is its hash masked by the size, with the hashes of
 * vm/strhash.h that the target computes; keys whose main position is free
 * take it, in input order, then the rest take free nodes from the top
 * down, each appended to the chain starting at its main position.  A
 * chain so holds only keys of one main position, which lookups need and
 * inserts never disturb (a ROM table takes no inserts: its stores go to
 * the RAM overlay).  Every string key and string value becomes a ROM
 * string (added to romstr.txt's set when absent), since a ROM object may
 * point only to ROM objects.
 *
 * A build with user C modules (make USER_C_MODULES) adds two things, so
 * its generated files are its own (build/<target>/gen):
 *   - each module's opener as an entry NAME fn OPENER of the table
 *     preload (romtab_preload_add): require finds it in flash, and boot
 *     costs no arena for it;
 *   - the tables of the modules' MODULE_ROMTAB files (romtab_read with
 *     user set), in this format with FILE left out: they are compiled in
 *     lib/usermod.c (ROMTAB_FILE_usermod), which finds them by name for
 *     rtlua_romtable.  Their functions are the module's, with external
 *     linkage; they hold no udata.
 * Functions of other translation units (those two kinds of entries,
 * "ext") are declared in their table's block.
 */
#include "tools/romgen.h"
#include "vm/strhash.h"

#include <stdlib.h>
#include <string.h>

/* Bounds of the input (build time only). */
#define ROMTAB_MAX_TABLES 64
#define ROMTAB_MAX_ENTRIES 1024
#define ROMTAB_VALUE_MAX 128
/* Largest hash part a ROM table may have (log2). */
#define ROMTAB_MAX_LSIZE 10

enum kind { K_FN, K_INT, K_NUM, K_STR, K_TAB, K_TRUE, K_FALSE, K_UDATA };
enum cond { C_ALL, C_HOST, C_BOARD };

struct tentry {
    int tab;    /* the table's index */
    int ext;    /* K_FN of another translation unit: declared in the block */
    int is_int; /* the key is [N] */
    long ikey;  /* [N] */
    int skey;   /* else the key's ROM string index */
    enum kind kind;
    char value[ROMTAB_VALUE_MAX + 1];
    int sval; /* K_STR: the value's ROM string index */
    enum cond cond;
    int line;
};

struct rtable {
    char name[ROMGEN_NAME_MAX + 1];
    char file[ROMGEN_NAME_MAX + 1];
    int n; /* entries (those of tentries[] whose tab is this one) */
    int conditional;
    int user; /* from a module's MODULE_ROMTAB file */
    int line;
    const char *input; /* the file it came from, for messages */
};

/* The block of romtab.inc that holds user modules' tables. */
#define ROMTAB_USER_FILE "usermod"

static struct tentry tentries[ROMTAB_MAX_ENTRIES];
static int ntentries;
static struct rtable tables[ROMTAB_MAX_TABLES];
static int ntables;

/* The next blank-separated word of *pp (a quoted string is one word, its
 * quotes kept), or NULL at the end. */
static char *next_word(char **pp, int line)
{
    char *p = *pp;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p == '\0')
        return NULL;
    char *start = p;
    if (*p == '"') {
        p++;
        while (*p && *p != '"') {
            if (*p == '\\' && p[1])
                p++;
            p++;
        }
        if (*p != '"')
            romgen_die(line, "unterminated quoted string", NULL);
        p++;
    } else {
        while (*p && *p != ' ' && *p != '\t')
            p++;
    }
    if (*p)
        *p++ = '\0';
    *pp = p;
    return start;
}

/* A string word (bare or quoted) as a ROM string index, added if new. */
static int string_of(const char *word, int line)
{
    struct entry e;
    memset(&e, 0, sizeof e);
    if (word[0] == '"') {
        romgen_unquote(&e, word, line);
    } else {
        size_t n = strlen(word);
        if (n > STR_SHORT_MAX)
            romgen_die(line, "string longer than STR_SHORT_MAX", word);
        memcpy(e.data, word, n);
        e.len = n;
    }
    return romgen_intern(&e, line);
}

static enum kind parse_kind(const char *w, int line)
{
    static const char *const names[] = {"fn",  "int",  "num",   "str",
                                        "tab", "true", "false", "udata"};
    for (int k = 0; k < (int)(sizeof names / sizeof names[0]); k++)
        if (strcmp(w, names[k]) == 0)
            return (enum kind)k;
    romgen_die(line, "unknown kind (fn int num str tab true false udata)", w);
    return K_FN;
}

static struct tentry *new_entry(struct rtable *t, int line)
{
    if (ntentries == ROMTAB_MAX_ENTRIES)
        romgen_die(line, "too many entries (ROMTAB_MAX_ENTRIES)", NULL);
    struct tentry *e = &tentries[ntentries];
    memset(e, 0, sizeof *e);
    e->line = line;
    e->tab = (int)(t - tables);
    return e;
}

/* Stops on a second entry of e's key in its table (a conditional entry
 * may share its key with one of the other condition). */
static void check_unique(const struct rtable *t, const struct tentry *e)
{
    for (int i = 0; i < ntentries; i++) {
        const struct tentry *o = &tentries[i];
        if (o->tab == e->tab && o->is_int == e->is_int &&
            (e->is_int ? o->ikey == e->ikey : o->skey == e->skey) &&
            (o->cond == C_ALL || e->cond == C_ALL || o->cond == e->cond))
            romgen_die(e->line, "duplicate key in table", t->name);
    }
}

static void parse_entry(struct rtable *t, char *p, int line)
{
    struct tentry *e = new_entry(t, line);
    char *key = next_word(&p, line);
    char *kind = next_word(&p, line);
    if (key == NULL || kind == NULL)
        romgen_die(line, "expected KEY KIND [VALUE]", NULL);
    if (key[0] == '[') {
        char *end;
        e->is_int = 1;
        e->ikey = strtol(key + 1, &end, 10);
        if (end == key + 1 || strcmp(end, "]") != 0 || e->ikey < 0 ||
            e->ikey > 0x7FFFFFFFL)
            romgen_die(line, "an integer key is [N] with 0 <= N < 2^31", key);
    } else {
        e->skey = string_of(key, line);
    }
    e->kind = parse_kind(kind, line);
    if (t->user && e->kind == K_UDATA)
        romgen_die(line, "a module's table cannot hold udata", NULL);
    e->ext = t->user && e->kind == K_FN;
    if (e->kind != K_TRUE && e->kind != K_FALSE) {
        char *v = next_word(&p, line);
        if (v == NULL)
            romgen_die(line, "this kind needs a value", kind);
        if (e->kind == K_STR) {
            e->sval = string_of(v, line);
        } else {
            if (strlen(v) > ROMTAB_VALUE_MAX)
                romgen_die(line, "value too long", NULL);
            strcpy(e->value, v);
        }
    }
    char *w = next_word(&p, line);
    if (w != NULL) {
        char *c = next_word(&p, line);
        if (strcmp(w, "if") != 0 || c == NULL || next_word(&p, line))
            romgen_die(line,
                       "expected 'if host' or 'if board' after the value", w);
        if (strcmp(c, "host") == 0)
            e->cond = C_HOST;
        else if (strcmp(c, "board") == 0)
            e->cond = C_BOARD;
        else
            romgen_die(line, "the condition is host or board", c);
        t->conditional = 1;
    }
    check_unique(t, e);
    ntentries++;
    t->n++;
}

void romtab_preload_add(const char *name, const char *opener)
{
    struct rtable *t = NULL;
    for (int i = 0; i < ntables; i++)
        if (strcmp(tables[i].name, "preload") == 0)
            t = &tables[i];
    if (t == NULL)
        romgen_die(0, "no table preload for the modules' openers", NULL);
    size_t n = strlen(opener);
    if (!romgen_is_ident(opener, n) || n > ROMTAB_VALUE_MAX)
        romgen_die(0, "an opener is a C identifier", opener);
    struct tentry *e = new_entry(t, 0);
    e->skey = string_of(name, 0);
    e->kind = K_FN;
    e->ext = 1;
    strcpy(e->value, opener);
    check_unique(t, e);
    ntentries++;
    t->n++;
}

void romtab_read(const char *path, int user)
{
    romgen_input = path;
    FILE *f = romgen_open(path, "r");
    char buf[ROMGEN_LINE_MAX + 2];
    int line = 0, indented;
    char *p;
    struct rtable *t = NULL;
    while ((p = romgen_read_line(f, buf, &line, &indented)) != NULL) {
        if (!indented && strncmp(p, "table ", 6) == 0) {
            if (ntables == ROMTAB_MAX_TABLES)
                romgen_die(line, "too many tables (ROMTAB_MAX_TABLES)", NULL);
            p += 6;
            char *name = next_word(&p, line), *file = next_word(&p, line);
            if (user && file == NULL)
                file = ROMTAB_USER_FILE;
            else if (user)
                romgen_die(line, "a module's table names no FILE", file);
            if (name == NULL || file == NULL || next_word(&p, line) ||
                !romgen_is_ident(name, strlen(name)) ||
                !romgen_is_ident(file, strlen(file)) ||
                strlen(name) > ROMGEN_NAME_MAX ||
                strlen(file) > ROMGEN_NAME_MAX)
                romgen_die(line, "expected: table NAME FILE (identifiers)",
                           NULL);
            for (int i = 0; i < ntables; i++)
                if (strcmp(tables[i].name, name) == 0)
                    romgen_die(line, "duplicate table", name);
            t = &tables[ntables++];
            memset(t, 0, sizeof *t);
            strcpy(t->name, name);
            strcpy(t->file, file);
            t->line = line;
            t->user = user;
            t->input = path;
            continue;
        }
        if (t == NULL)
            romgen_die(line, "an entry before any 'table' line", NULL);
        parse_entry(t, p, line);
    }
    fclose(f);
}

void romtab_resolve(void)
{
    for (int i = 0; i < ntentries; i++)
        if (tentries[i].kind == K_TAB) {
            int found = 0;
            for (int j = 0; j < ntables; j++)
                found |= strcmp(tables[j].name, tentries[i].value) == 0;
            if (!found) {
                romgen_input = tables[tentries[i].tab].input;
                romgen_die(tentries[i].line, "no such table",
                           tentries[i].value);
            }
        }
}

/* ---- Layout ------------------------------------------------------------- */

static uint32_t key_hash(const struct tentry *e)
{
    if (e->is_int) /* vm/tab.c hash_uint, equal in both models for N >= 0 */
        return hash_mix32((uint32_t)e->ikey);
    return romgen_entry(e->skey)->hash;
}

static int included(const struct tentry *e, enum cond variant)
{
    return e->cond == C_ALL || e->cond == variant;
}

/* Fills slot[] (entry index or -1) and next[] for one variant; returns
 * log2 of the size. */
/* The indices in tentries[] of t's entries, in input order. */
static void entries_of(const struct rtable *t, int *idx)
{
    int k = 0, ti = (int)(t - tables);
    for (int i = 0; i < ntentries; i++)
        if (tentries[i].tab == ti)
            idx[k++] = i;
}

static int layout(const struct rtable *t, enum cond variant, int *slot,
                  int *next)
{
    static int idx[ROMTAB_MAX_ENTRIES];
    entries_of(t, idx);
    int n = 0;
    for (int i = 0; i < t->n; i++)
        n += included(&tentries[idx[i]], variant);
    int lsize = 0;
    while ((1 << lsize) < n)
        lsize++;
    if (lsize > ROMTAB_MAX_LSIZE)
        romgen_die(t->line, "table too big (ROMTAB_MAX_LSIZE)", t->name);
    int size = 1 << lsize;
    for (int i = 0; i < size; i++) {
        slot[i] = -1;
        next[i] = 0;
    }
    int placed[ROMTAB_MAX_ENTRIES] = {0};
    for (int i = 0; i < t->n; i++) {
        const struct tentry *e = &tentries[idx[i]];
        uint32_t mp = key_hash(e) & (uint32_t)(size - 1);
        if (included(e, variant) && slot[mp] < 0) {
            slot[mp] = idx[i];
            placed[i] = 1;
        }
    }
    int free_at = size;
    for (int i = 0; i < t->n; i++) {
        const struct tentry *e = &tentries[idx[i]];
        if (!included(e, variant) || placed[i])
            continue;
        do
            free_at--;
        while (slot[free_at] >= 0);
        slot[free_at] = idx[i];
        int at = (int)(key_hash(e) & (uint32_t)(size - 1));
        while (next[at] != 0)
            at += next[at];
        next[at] = free_at - at;
    }
    return lsize;
}

/* ---- Output ------------------------------------------------------------- */

static void put_value(FILE *f, const struct tentry *e)
{
    switch (e->kind) {
    case K_FN:
        fprintf(f, "{.v = {.f = %s}, .tt = V_LCF}", e->value);
        break;
    case K_INT:
        fprintf(f, "{.v = {.i = (rt_int)(%s)}, .tt = V_INT}", e->value);
        break;
    case K_NUM:
        fprintf(f, "{.v = {.n = (rt_num)(%s)}, .tt = V_FLT}", e->value);
        break;
    case K_STR:
        fprintf(f, "{.v = {.gc = (gcobj *)&");
        romgen_put_objname(f, e->sval);
        fprintf(f, "}, .tt = V_SHRSTR}");
        break;
    case K_TAB:
        fprintf(f, "{.v = {.gc = (gcobj *)&romtab_%s}, .tt = V_TABLE}",
                e->value);
        break;
    case K_TRUE:
        fprintf(f, "{.tt = V_TRUE}");
        break;
    case K_FALSE:
        fprintf(f, "{.tt = V_FALSE}");
        break;
    case K_UDATA:
        fprintf(f, "{.v = {.gc = (gcobj *)&%s}, .tt = V_UDATA}", e->value);
        break;
    }
}

static void put_variant(FILE *f, const struct rtable *t, enum cond variant)
{
    int slot[1 << ROMTAB_MAX_LSIZE], next[1 << ROMTAB_MAX_LSIZE];
    int lsize = layout(t, variant, slot, next);
    int size = 1 << lsize;
    fprintf(f, "static const node romtab_node_%s[%d] = {\n", t->name, size);
    for (int i = 0; i < size; i++) {
        if (slot[i] < 0)
            continue;
        const struct tentry *e = &tentries[slot[i]];
        fprintf(f, "    [%d] = {.val = ", i);
        put_value(f, e);
        if (e->is_int) {
            fprintf(f, ", NODE_INIT(V_INT, %d), .key_val = {.i = %ld}},\n",
                    next[i], e->ikey);
        } else {
            fprintf(f,
                    ", NODE_INIT(V_SHRSTR, %d), .key_val = {.gc = "
                    "(gcobj *)&",
                    next[i]);
            romgen_put_objname(f, e->skey);
            fprintf(f, "}},\n");
        }
    }
    fprintf(f, "};\n");
    fprintf(f,
            "const table romtab_%s = {.next = NULL, .tt = V_TABLE, .marked = "
            "MARK_ROM_PRESET, .flags = 0, .lsizenode = %d, .weak = 0, .asize "
            "= 0, .array = NULL, .node = (node *)romtab_node_%s, .lastfree = "
            "(node *)romtab_node_%s, .metatable = NULL, .gclist = (gcobj "
            "*)(void *)&romtab_slot_%s};\n",
            t->name, lsize, t->name, t->name, t->name);
}

/* The C functions of t's entries that live in another translation
 * unit (a module's, an opener in preload). */
static void put_declarations(FILE *f, const struct rtable *t)
{
    int ti = (int)(t - tables);
    for (int i = 0; i < ntentries; i++)
        if (tentries[i].tab == ti && tentries[i].ext)
            fprintf(f, "int %s(lua_State *L);\n", tentries[i].value);
}

/* The modules' tables by name, for rtlua_romtable (lib/usermod.c). */
static void put_user_list(FILE *f)
{
    int n = 0;
    for (int i = 0; i < ntables; i++)
        n += tables[i].user;
    fprintf(f, "\n#ifdef ROMTAB_FILE_%s\n#define ROMTAB_USER_COUNT %d\n",
            ROMTAB_USER_FILE, n);
    if (n > 0) {
        fprintf(f, "static const struct romtab_named romtab_user[%d] = {\n",
                n);
        for (int i = 0; i < ntables; i++)
            if (tables[i].user)
                fprintf(f, "    {\"%s\", &romtab_%s},\n", tables[i].name,
                        tables[i].name);
        fprintf(f, "};\n");
    }
    fprintf(f, "#endif\n");
}

void romtab_write(const char *hpath, const char *incpath)
{
    FILE *f = romgen_open(hpath, "w");
    fprintf(f,
            "/* romtab.h: generated by tools/romgen from %s; do not edit. */\n"
            "#ifndef RTLUA_ROMTAB_H\n#define RTLUA_ROMTAB_H\n\n"
            "#include \"vm/obj.h\"\n\n"
            "#define ROMTAB_COUNT %d\n\n",
            romgen_input, ntables);
    for (int i = 0; i < ntables; i++)
        fprintf(f, "extern const table romtab_%s;\n", tables[i].name);
    fprintf(
        f, "\n/* A ROM table by name, as the (table *) the runtime takes. */\n"
           "#define ROMTAB(name) ((table *)&romtab_##name)\n\n"
           "/* A user module's table under its name (lib/usermod.c). */\n"
           "struct romtab_named {\n    const char *name;\n"
           "    const table *t;\n};\n\n#endif\n");
    if (fclose(f) != 0)
        romgen_die(0, "cannot write", hpath);

    f = romgen_open(incpath, "w");
    fprintf(
        f,
        "/* romtab.inc: generated by tools/romgen from %s; do not edit.\n"
        " * A library source defines ROMTAB_FILE_<name> and includes this\n"
        " * at its end, after the functions its tables name. */\n"
        "#include \"romstr.h\"\n"
        "#include \"romtab.h\"\n"
        "#include \"vm/tab.h\"\n",
        romgen_input);
    for (int i = 0; i < ntables; i++) {
        const struct rtable *t = &tables[i];
        fprintf(f, "\n#ifdef ROMTAB_FILE_%s\n", t->file);
        put_declarations(f, t);
        fprintf(f, "static romslot romtab_slot_%s;\n", t->name);
        if (t->conditional) {
            fprintf(f, "#ifdef RTLUA_HOST\n");
            put_variant(f, t, C_HOST);
            fprintf(f, "#else\n");
            put_variant(f, t, C_BOARD);
            fprintf(f, "#endif\n");
        } else {
            put_variant(f, t, C_ALL);
        }
        fprintf(f, "#endif\n");
    }
    put_user_list(f);
    if (fclose(f) != 0)
        romgen_die(0, "cannot write", incpath);
}
