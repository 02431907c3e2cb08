/*
 * romgen.c — build-time generator of the ROM string table and, with
 * tools/romtab.c, of the ROM tables (a host program; see tools/romstr.txt
 * and tools/romtab.txt for the input formats).
 *
 *     romgen [-p NAME=OPENER]... [-m MODULE.romtab]... tools/romstr.txt \
 *            tools/romtab.txt DIR/romstr.c DIR/romstr.h DIR/romtab.h \
 *            DIR/romtab.inc
 *
 * DIR is the build directory's gen/ (build/host/gen, build/<board>/gen):
 * each build has its own, since user C modules (make USER_C_MODULES)
 * add their openers to package.preload (-p) and their own ROM tables
 * (-m, tools/romtab.c) with the ROM strings those need.
 *
 * The .c holds one const object per string, laid out exactly as `str`
 * (vm/obj.h) with a fixed-size data array — one struct type per data size,
 * each checked field by field against `str` with _Static_assert — so that
 * the objects land in .rodata (flash) and are used through (const str *).
 * Each header is preset: tt V_SHRSTR, marked MARK_ROM_PRESET, next and
 * hnext NULL, hash computed here by vm/strhash.h's strhash_probe (no
 * key: the target's RAM strings use their own), the same code the
 * target runs; tables place ROM keys by it (tools/romtab.c).  The first
 * ROMGEN_NRESERVED strings are Lua's reserved words, which romgen takes
 * from lang/reserved.h (the lexer's list and order), not from the input;
 * their extra is index + 1.
 *
 * Lookup: an open-addressing table of ROMSTR_SLOTS uint16_t entries (a
 * power of 2, at least twice the string count; 0 = empty, else index + 1)
 * filled by linear probing in input order from that hash.  romgen measures
 * the longest probe sequence and emits it as ROMSTR_MAX_PROBE, so a lookup
 * (hit or miss) examines at most that many slots: a bound, not an expectation.
 *
 * The .h gives, for each string with a C name: the object (extern), its
 * index (RS_name) and ROMSTR(name), a (const str *) that is an address
 * constant, usable in static initialisers of other ROM objects.
 *
 * Errors (exit status 1, nothing trustworthy written): a duplicate string
 * or C name (a reserved word in the input is one), a string longer than
 * STR_SHORT_MAX, a malformed quoted line.
 */
#include "tools/romgen.h"
#include "lang/escape.h"
#include "lang/reserved.h"
#include "vm/num.h"
#include "vm/strhash.h"

#include <stdlib.h>
#include <string.h>

/* Strings the generator accepts; the slot entries are uint16_t. */
#define ROMGEN_MAX_STRINGS 4096

#define ROMGEN_WORD_(name, word) word,
static const char *const reserved[] = {LEX_RESERVED(ROMGEN_WORD_)};
#undef ROMGEN_WORD_
#define ROMGEN_NRESERVED ((int)(sizeof reserved / sizeof reserved[0]))
_Static_assert(sizeof reserved / sizeof reserved[0] == LEX_NRESERVED,
               "the lexer's reserved words are the first ROM strings");

static struct entry entries[ROMGEN_MAX_STRINGS];
static int nentries;
const char *romgen_input;

void romgen_die(int line, const char *msg, const char *what)
{
    if (line > 0)
        fprintf(stderr, "%s:%d: %s%s%s\n", romgen_input, line, msg,
                what ? ": " : "", what ? what : "");
    else
        fprintf(stderr, "romgen: %s%s%s\n", msg, what ? ": " : "",
                what ? what : "");
    exit(1);
}

static int is_ident_start(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_ident_char(int c)
{
    return is_ident_start(c) || (c >= '0' && c <= '9');
}

int romgen_is_ident(const char *s, size_t len)
{
    if (len == 0 || !is_ident_start((unsigned char)s[0]))
        return 0;
    for (size_t i = 1; i < len; i++)
        if (!is_ident_char((unsigned char)s[i]))
            return 0;
    return 1;
}

static void add_byte(struct entry *e, int c, int line)
{
    if (e->len >= STR_SHORT_MAX)
        romgen_die(line, "string longer than STR_SHORT_MAX", NULL);
    e->data[e->len++] = (char)c;
}

/* A quoted string "bytes" into e; returns what follows the closing
 * quote. */
const char *romgen_unquote(struct entry *e, const char *p, int line)
{
    p++; /* the opening quote */
    for (;;) {
        int c = (unsigned char)*p++;
        if (c == '\0')
            romgen_die(line, "unterminated quoted string", NULL);
        if (c == '"')
            break;
        if (c == '\\') {
            c = (unsigned char)*p++;
            switch (c) {
            case '0':
                c = '\0';
                break;
            case 'x': {
                int hi = num_hexvalue((unsigned char)p[0]);
                int lo = hi < 0 ? -1 : num_hexvalue((unsigned char)p[1]);
                if (lo < 0)
                    romgen_die(line, "bad \\x escape (two hex digits)", NULL);
                c = hi * 16 + lo;
                p += 2;
                break;
            }
            default:
                c = lex_escapechar(c);
                if (c < 0)
                    romgen_die(line, "unknown escape", NULL);
            }
        }
        add_byte(e, c, line);
    }
    return p;
}

/* A quoted line: "bytes" [= cname]. */
static void parse_quoted(struct entry *e, const char *p, int line)
{
    p = romgen_unquote(e, p, line);
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p == '\0') {
        if (romgen_is_ident(e->data, e->len))
            memcpy(e->name, e->data, e->len + 1);
        return;
    }
    if (*p != '=')
        romgen_die(line, "expected '= cname' or the end after a quoted string",
                   NULL);
    p++;
    while (*p == ' ' || *p == '\t')
        p++;
    size_t n = strlen(p);
    if (!romgen_is_ident(p, n) || n > ROMGEN_NAME_MAX)
        romgen_die(line, "the C name is not an identifier", p);
    memcpy(e->name, p, n + 1);
}

FILE *romgen_open(const char *path, const char *mode)
{
    FILE *f = fopen(path, mode);
    if (f == NULL)
        romgen_die(0, *mode == 'r' ? "cannot open" : "cannot write", path);
    return f;
}

char *romgen_read_line(FILE *f, char *buf, int *line, int *indented)
{
    while (fgets(buf, ROMGEN_LINE_MAX + 2, f) != NULL) {
        (*line)++;
        size_t n = strlen(buf);
        if (n > ROMGEN_LINE_MAX && buf[n - 1] != '\n')
            romgen_die(*line, "line too long", NULL);
        while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r' ||
                         buf[n - 1] == ' ' || buf[n - 1] == '\t'))
            buf[--n] = '\0';
        char *p = buf;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '\0' || *p == '#')
            continue;
        *indented = p != buf;
        return p;
    }
    if (ferror(f))
        romgen_die(0, "read error", romgen_input);
    return NULL;
}

/* A ROM string's stored hash: strhash_probe, keyless (vm/strhash.h). */
static uint32_t rom_hash(const struct entry *e)
{
    return strhash_probe(e->data, e->len);
}

/* The reserved words, the first ROMGEN_NRESERVED entries. */
static void add_reserved(void)
{
    for (int i = 0; i < ROMGEN_NRESERVED; i++) {
        struct entry *e = &entries[nentries++];
        memset(e, 0, sizeof *e);
        e->len = strlen(reserved[i]);
        memcpy(e->data, reserved[i], e->len + 1);
        memcpy(e->name, reserved[i], e->len + 1);
        e->hash = rom_hash(e);
    }
}

static void read_input(const char *path)
{
    FILE *f = romgen_open(path, "r");
    char buf[ROMGEN_LINE_MAX + 2];
    int line = 0, indented;
    char *p;
    while ((p = romgen_read_line(f, buf, &line, &indented)) != NULL) {
        if (nentries == ROMGEN_MAX_STRINGS)
            romgen_die(line, "too many strings (ROMGEN_MAX_STRINGS)", NULL);
        struct entry *e = &entries[nentries];
        memset(e, 0, sizeof *e);
        e->line = line;
        if (*p == '"') {
            parse_quoted(e, p, line);
        } else {
            for (; *p; p++)
                add_byte(e, (unsigned char)*p, line);
            if (romgen_is_ident(e->data, e->len))
                memcpy(e->name, e->data, e->len + 1);
        }
        e->hash = rom_hash(e);
        nentries++;
    }
    fclose(f);
}

/* Quadratic, at build time, over a few hundred strings. */
static void validate(void)
{
    for (int i = 0; i < nentries; i++)
        for (int j = 0; j < i; j++) {
            const struct entry *a = &entries[i], *b = &entries[j];
            if (a->len == b->len && memcmp(a->data, b->data, a->len) == 0)
                romgen_die(a->line, "duplicate string", a->data);
            if (a->name[0] && strcmp(a->name, b->name) == 0)
                romgen_die(a->line, "duplicate C name", a->name);
        }
}

int romgen_intern(const struct entry *e, int line)
{
    for (int i = 0; i < nentries; i++)
        if (entries[i].len == e->len &&
            memcmp(entries[i].data, e->data, e->len) == 0)
            return i;
    if (nentries == ROMGEN_MAX_STRINGS)
        romgen_die(line, "too many strings (ROMGEN_MAX_STRINGS)", NULL);
    struct entry *n = &entries[nentries];
    *n = *e;
    n->name[0] = '\0';
    n->line = line;
    n->hash = rom_hash(n);
    return nentries++;
}

const struct entry *romgen_entry(int i)
{
    return &entries[i];
}

static uint16_t slots[2 * ROMGEN_MAX_STRINGS];
static uint32_t nslots;
static uint32_t max_probe;

static void build_slots(void)
{
    nslots = 1;
    while (nslots < 2u * (uint32_t)nentries)
        nslots <<= 1;
    for (int i = 0; i < nentries; i++) {
        uint32_t at = entries[i].hash & (nslots - 1), probe = 1;
        while (slots[at] != 0) {
            at = (at + 1) & (nslots - 1);
            probe++;
        }
        slots[at] = (uint16_t)(i + 1);
        if (probe > max_probe)
            max_probe = probe;
    }
}

/* The bytes as a C string literal: octal escapes for anything that is not
 * plain printable (and for '?', against trigraphs). */
static void put_literal(FILE *f, const struct entry *e)
{
    fputc('"', f);
    for (size_t i = 0; i < e->len; i++) {
        int c = (unsigned char)e->data[i];
        if (c < 0x20 || c > 0x7E || c == '"' || c == '\\' || c == '?')
            fprintf(f, "\\%03o", (unsigned)c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

void romgen_put_objname(FILE *f, int i)
{
    if (entries[i].name[0])
        fprintf(f, "romstr_o_%s", entries[i].name);
    else
        fprintf(f, "romstr_x%d", i);
}

static int size_used(size_t n)
{
    for (int i = 0; i < nentries; i++)
        if (entries[i].len + 1 == n)
            return 1;
    return 0;
}

static void write_header(const char *path)
{
    FILE *f = romgen_open(path, "w");
    fprintf(f,
            "/* romstr.h: generated by tools/romgen from %s; do not edit. */\n"
            "#ifndef RTLUA_ROMSTR_H\n#define RTLUA_ROMSTR_H\n\n"
            "#include \"vm/obj.h\"\n\n",
            romgen_input);
    fprintf(f, "#define ROMSTR_COUNT %du\n", nentries);
    fprintf(f, "#define ROMSTR_SLOTS %uu /* power of 2 */\n",
            (unsigned)nslots);
    fprintf(f,
            "#define ROMSTR_MAX_PROBE %uu /* slots per lookup, at most */\n",
            (unsigned)max_probe);
    fprintf(f, "#define ROMSTR_NRESERVED %du\n\n", ROMGEN_NRESERVED);
    fprintf(f,
            "/* `str` with a fixed data array: the same fields, offsets and\n"
            " * alignment (checked in romstr.c). */\n"
            "#define ROMSTR_STRUCT(n) \\\n"
            "    struct romstr_s##n { \\\n"
            "        GCHEADER; \\\n"
            "        uint8_t extra; \\\n"
            "        uint8_t shrlen; \\\n"
            "        uint32_t hash; \\\n"
            "        union { \\\n"
            "            size_t lnglen; \\\n"
            "            struct str *hnext; \\\n"
            "        } u; \\\n"
            "        char data[n]; \\\n"
            "    }\n");
    for (size_t n = 1; n <= STR_SHORT_MAX + 1; n++)
        if (size_used(n))
            fprintf(f, "ROMSTR_STRUCT(%u);\n", (unsigned)n);
    fputc('\n', f);
    for (int i = 0; i < nentries; i++) {
        fprintf(f, "extern const struct romstr_s%u ",
                (unsigned)entries[i].len + 1);
        romgen_put_objname(f, i);
        fprintf(f, ";\n");
        if (entries[i].name[0])
            fprintf(f, "#define RS_%s %d\n", entries[i].name, i);
    }
    fprintf(f,
            "\n/* The ROM string of a C name, an address constant. */\n"
            "#define ROMSTR(name) ((const str *)&romstr_o_##name)\n\n"
            "/* Every ROM string by index, and the lookup slots (index + 1,\n"
            " * 0 = empty; linear probing from hash & (ROMSTR_SLOTS - 1)). "
            "*/\n"
            "extern const str *const romstr_ptrs[ROMSTR_COUNT];\n"
            "extern const uint16_t romstr_slots[ROMSTR_SLOTS];\n\n"
            "#endif\n");
    if (fclose(f) != 0)
        romgen_die(0, "cannot write", path);
}

static void write_source(const char *path, const char *hname)
{
    FILE *f = romgen_open(path, "w");
    fprintf(f,
            "/* romstr.c: generated by tools/romgen from %s; do not edit. */\n"
            "#include \"%s\"\n\n#include <stddef.h>\n\n",
            romgen_input, hname);
    fprintf(f,
            "#define ROMSTR_LAYOUT(n) \\\n"
            "    _Static_assert( \\\n"
            "        offsetof(struct romstr_s##n, next) == offsetof(str, "
            "next) && \\\n"
            "        offsetof(struct romstr_s##n, tt) == offsetof(str, tt) "
            "&& \\\n"
            "        offsetof(struct romstr_s##n, marked) == "
            "offsetof(str, marked) && \\\n"
            "        offsetof(struct romstr_s##n, extra) == "
            "offsetof(str, extra) && \\\n"
            "        offsetof(struct romstr_s##n, shrlen) == "
            "offsetof(str, shrlen) && \\\n"
            "        offsetof(struct romstr_s##n, hash) == "
            "offsetof(str, hash) && \\\n"
            "        offsetof(struct romstr_s##n, u) == offsetof(str, u) "
            "&& \\\n"
            "        sizeof(((struct romstr_s##n *)0)->u) == "
            "sizeof(((str *)0)->u) && \\\n"
            "        offsetof(struct romstr_s##n, data) == "
            "offsetof(str, data) && \\\n"
            "        _Alignof(struct romstr_s##n) == _Alignof(str), \\\n"
            "        \"struct romstr_s\" #n \" is not laid out as str\")\n");
    for (size_t n = 1; n <= STR_SHORT_MAX + 1; n++)
        if (size_used(n))
            fprintf(f, "ROMSTR_LAYOUT(%u);\n", (unsigned)n);
    fputc('\n', f);
    for (int i = 0; i < nentries; i++) {
        const struct entry *e = &entries[i];
        fprintf(f, "const struct romstr_s%u ", (unsigned)e->len + 1);
        romgen_put_objname(f, i);
        fprintf(f,
                " = {.next = NULL, .tt = V_SHRSTR, .marked = MARK_ROM_PRESET, "
                ".extra = %d, .shrlen = %u, .hash = 0x%08Xu, "
                ".u = {.hnext = NULL}, .data = ",
                i < ROMGEN_NRESERVED ? i + 1 : 0, (unsigned)e->len,
                (unsigned)e->hash);
        put_literal(f, e);
        fprintf(f, "};\n");
    }
    fprintf(f, "\nconst str *const romstr_ptrs[ROMSTR_COUNT] = {\n");
    for (int i = 0; i < nentries; i++) {
        fprintf(f, "    (const str *)&");
        romgen_put_objname(f, i);
        fprintf(f, ",\n");
    }
    fprintf(f, "};\n\nconst uint16_t romstr_slots[ROMSTR_SLOTS] = {");
    for (uint32_t i = 0; i < nslots; i++)
        fprintf(f, "%s%u,", i % 16 == 0 ? "\n    " : " ", (unsigned)slots[i]);
    fprintf(f, "\n};\n");
    if (fclose(f) != 0)
        romgen_die(0, "cannot write", path);
}

/* The most -p and -m options. */
#define ROMGEN_MAX_OPTIONS 256

int main(int argc, char **argv)
{
    const char *preload[ROMGEN_MAX_OPTIONS], *modtab[ROMGEN_MAX_OPTIONS];
    int npreload = 0, nmodtab = 0;
    while (argc > 2 && argv[1][0] == '-' &&
           (strcmp(argv[1], "-p") == 0 || strcmp(argv[1], "-m") == 0)) {
        if (npreload == ROMGEN_MAX_OPTIONS || nmodtab == ROMGEN_MAX_OPTIONS)
            romgen_die(0, "too many options (ROMGEN_MAX_OPTIONS)", NULL);
        if (argv[1][1] == 'p')
            preload[npreload++] = argv[2];
        else
            modtab[nmodtab++] = argv[2];
        argc -= 2;
        argv += 2;
    }
    if (argc != 7) {
        fprintf(stderr, "usage: romgen [-p name=opener]... [-m file]... "
                        "romstr.txt romtab.txt romstr.c romstr.h romtab.h "
                        "romtab.inc\n");
        return 2;
    }
    romgen_input = argv[1];
    add_reserved();
    read_input(argv[1]);
    validate();
    romtab_read(argv[2], 0); /* adds the strings its tables need */
    for (int i = 0; i < npreload; i++) {
        static char name[ROMGEN_LINE_MAX + 1];
        const char *eq = strchr(preload[i], '=');
        size_t n = eq ? (size_t)(eq - preload[i]) : 0;
        if (n == 0 || n > STR_SHORT_MAX)
            romgen_die(0, "-p takes NAME=OPENER", preload[i]);
        memcpy(name, preload[i], n);
        name[n] = '\0';
        romtab_preload_add(name, eq + 1);
    }
    for (int i = 0; i < nmodtab; i++)
        romtab_read(modtab[i], 1);
    romtab_resolve();
    build_slots();
    romtab_write(argv[5], argv[6]);
    romgen_input = argv[1];
    /* The .c includes the header by its name: they are side by side. */
    write_header(argv[4]);
    const char *slash = strrchr(argv[4], '/');
    write_source(argv[3], slash ? slash + 1 : argv[4]);
    return 0;
}
