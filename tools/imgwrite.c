/*
 * imgwrite.c — the flash-image writer (see imgwrite.h and lang/image.h).
 *
 * Two passes.  The first gathers: every prototype, depth first from each
 * module's main function (so a parent comes before its children and the
 * entries are in address order), and every string they and the module
 * names hold, once each; a short string equal to a ROM string is not
 * copied but pointed at where the firmware has it.  The second lays out
 * and writes, in this order: header, modules (sorted by length, then
 * bytes), prototype entries, string pointers, lookup slots, the strings,
 * then each prototype followed by its arrays.  Every object is placed at
 * the alignment the firmware gives its struct, every field written at the
 * firmware's offset and width, little-endian.
 */
#include "tools/imgwrite.h"

#include "romstr.h"
#include "vm/str.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A string of the image, or a ROM string it points at. */
typedef struct wstr {
    const char *data;
    size_t len;
    int rom;       /* ROM index, or -1 */
    uint64_t addr; /* where it is (ROM) or will be (image) */
    uint32_t hash; /* short strings: strhash_probe */
    uint32_t next; /* chain in the writer's own hash table, index + 1 */
} wstr;

typedef struct wproto {
    const proto *p;
    uint32_t parent;
    uint32_t depth;
    uint64_t addr;
    uint64_t code, k, p_, upv, line, abs, loc; /* its arrays */
} wproto;

typedef struct writer {
    const imgw_target *t;
    int strip;
    wproto *protos;
    uint32_t nprotos, capprotos;
    wstr *strs;
    uint32_t nstrs, capstrs;
    uint32_t *buckets; /* nbuckets, index + 1 */
    uint32_t nbuckets;
    uint32_t *rombuckets; /* the target's ROM strings: nbuckets, index + 1 */
    uint32_t *romnext;    /* their chains */
    uint32_t *order;      /* image strings (not ROM), in layout order */
    uint32_t nimage;
    uint16_t *slots;
    uint32_t nslots, maxprobe;
    uint8_t *buf;
    size_t size;
    char *err;
    size_t errcap;
    int failed;
} writer;

static void fail(writer *W, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void fail(writer *W, const char *fmt, ...)
{
    if (W->failed)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(W->err, W->errcap, fmt, ap);
    va_end(ap);
    W->failed = 1;
}

static void *grow(writer *W, void *p, uint32_t *cap, uint32_t n, size_t esize)
{
    if (n < *cap)
        return p;
    uint32_t ncap = *cap ? *cap * 2 : 64;
    void *q = realloc(p, (size_t)ncap * esize);
    if (q == NULL) {
        fail(W, "out of memory");
        return p;
    }
    *cap = ncap;
    return q;
}

/* ---- Gathering ---------------------------------------------------------- */

static uint32_t content_hash(const char *s, size_t len)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (uint8_t)s[i]) * 16777619u;
    return h ^ (uint32_t)len;
}

/* Index of the string of those bytes, added when new; -1 on failure. */
static long intern(writer *W, const char *s, size_t len)
{
    uint32_t b = content_hash(s, len) & (W->nbuckets - 1);
    for (uint32_t i = W->buckets[b]; i != 0; i = W->strs[i - 1].next) {
        const wstr *w = &W->strs[i - 1];
        if (w->len == len && memcmp(w->data, s, len) == 0)
            return (long)i - 1;
    }
    if (W->nstrs >= IMG_MAX_STRINGS + W->t->romcount) {
        fail(W, "too many strings (at most %u)", (unsigned)IMG_MAX_STRINGS);
        return -1;
    }
    W->strs = grow(W, W->strs, &W->capstrs, W->nstrs, sizeof(wstr));
    if (W->failed)
        return -1;
    wstr *w = &W->strs[W->nstrs];
    w->data = s;
    w->len = len;
    w->rom = -1;
    w->addr = 0;
    w->hash = 0;
    if (len <= STR_SHORT_MAX) {
        const imgw_target *t = W->t;
        w->hash = strhash_probe(s, len);
        for (uint32_t i =
                 W->rombuckets[content_hash(s, len) & (W->nbuckets - 1)];
             i != 0; i = W->romnext[i - 1])
            if (t->romlen[i - 1] == len &&
                memcmp(t->romdata[i - 1], s, len) == 0)
                w->rom = (int)(i - 1);
    }
    w->next = W->buckets[b];
    W->buckets[b] = ++W->nstrs;
    return (long)W->nstrs - 1;
}

static void add_str(writer *W, const str *s)
{
    if (s != NULL)
        intern(W, str_data(s), str_len(s));
}

/* p and its nested prototypes, depth first. */
static void gather(writer *W, const proto *p, uint32_t parent, uint32_t depth)
{
    if (W->failed)
        return;
    if (depth > IMG_MAX_DEPTH) {
        fail(W, "functions nested more than %u deep", (unsigned)IMG_MAX_DEPTH);
        return;
    }
    W->protos = grow(W, W->protos, &W->capprotos, W->nprotos, sizeof(wproto));
    if (W->failed)
        return;
    uint32_t me = W->nprotos++;
    memset(&W->protos[me], 0, sizeof(wproto));
    W->protos[me].p = p;
    W->protos[me].parent = parent;
    W->protos[me].depth = depth;
    if (!W->strip) {
        add_str(W, p->source);
        for (int i = 0; i < p->sizeupvalues; i++)
            add_str(W, p->upvalues[i].name);
        for (int i = 0; i < p->sizelocvars; i++)
            add_str(W, p->locvars[i].name);
    }
    for (int i = 0; i < p->sizek; i++)
        if (is_str(&p->k[i]))
            add_str(W, gco2str(gc_of(&p->k[i])));
    for (int i = 0; i < p->sizep; i++)
        gather(W, p->p[i], me, depth + 1);
}

static const wstr *find(const writer *W, const str *s)
{
    if (s == NULL)
        return NULL;
    const char *d = str_data(s);
    size_t len = str_len(s);
    uint32_t b = content_hash(d, len) & (W->nbuckets - 1);
    for (uint32_t i = W->buckets[b]; i != 0; i = W->strs[i - 1].next) {
        const wstr *w = &W->strs[i - 1];
        if (w->len == len && memcmp(w->data, d, len) == 0)
            return w;
    }
    return NULL; /* not reached: every string was gathered */
}

/* ---- Lookup slots ------------------------------------------------------- */

/* The slots of the image's short strings at this size; 0 when some
 * string needs more than IMG_MAX_PROBE probes. */
static int fill_slots(writer *W, uint32_t nslots)
{
    free(W->slots);
    W->slots = calloc(nslots, sizeof(uint16_t));
    if (W->slots == NULL) {
        fail(W, "out of memory");
        return 1;
    }
    W->nslots = nslots;
    W->maxprobe = 1;
    for (uint32_t j = 0; j < W->nimage; j++) {
        const wstr *w = &W->strs[W->order[j]];
        if (w->len > STR_SHORT_MAX)
            continue;
        uint32_t at = w->hash & (nslots - 1), probe = 1;
        while (W->slots[at] != 0) {
            at = (at + 1) & (nslots - 1);
            probe++;
        }
        W->slots[at] = (uint16_t)(j + 1);
        if (probe > W->maxprobe)
            W->maxprobe = probe;
    }
    return W->maxprobe <= IMG_MAX_PROBE;
}

/* ---- Layout ------------------------------------------------------------ */

static uint64_t align_to(uint64_t x, uint64_t a)
{
    return (x + a - 1) & ~(a - 1);
}

#define SZ(T) ((uint64_t)W->t->size[IMGT_##T])
#define AL(T) ((uint64_t)W->t->align[IMGT_##T])

/* Place n elements of type T after *pos; their address, 0 for none. */
static uint64_t place(writer *W, uint64_t *pos, uint64_t n, uint64_t esize,
                      uint64_t align)
{
    if (n == 0)
        return 0;
    *pos = align_to(*pos, align);
    uint64_t at = *pos;
    *pos += n * esize;
    return W->t->base + at;
}

/* A module as the writer keeps it: its main function's entry. */
typedef struct wmod {
    const char *name;
    uint32_t root;
} wmod;

static int cmp_modules(const void *a, const void *b)
{
    const wmod *x = a, *y = b;
    size_t lx = strlen(x->name), ly = strlen(y->name);
    if (lx != ly)
        return lx < ly ? -1 : 1;
    return memcmp(x->name, y->name, lx);
}

/* ---- Writing ----------------------------------------------------------- */

static void put_uint(writer *W, uint64_t addr, unsigned width, uint64_t v)
{
    uint64_t at = addr - W->t->base;
    for (unsigned i = 0; i < width; i++)
        W->buf[at + i] = (uint8_t)(v >> (8 * i));
}

/* Field f of the object at obj: an integer at the firmware's width,
 * which the value must fit. */
static void put(writer *W, uint64_t obj, int f, int64_t v)
{
    unsigned width = W->t->width[f];
    if (width < 8) {
        int64_t lo = -((int64_t)1 << (8 * width - 1));
        int64_t hi = ((int64_t)1 << (8 * width)) - 1;
        if (v < lo || v > hi)
            fail(W, "a value does not fit the firmware's field %d", f);
    }
    put_uint(W, obj + W->t->off[f], width, (uint64_t)v);
}

static void put_ptr(writer *W, uint64_t obj, int f, uint64_t addr)
{
    put_uint(W, obj + W->t->off[f], W->t->ptrsize, addr);
}

static uint64_t str_addr(const writer *W, const str *s)
{
    const wstr *w = find(W, s);
    return w != NULL ? w->addr : 0;
}

static void write_string(writer *W, const wstr *w)
{
    uint64_t a = w->addr;
    int is_short = w->len <= STR_SHORT_MAX;
    put_ptr(W, a, IMGF_OBJ_NEXT, 0);
    put(W, a, IMGF_OBJ_TT, is_short ? V_SHRSTR : V_LNGSTR);
    put(W, a, IMGF_OBJ_MARKED, MARK_ROM_PRESET);
    put(W, a, IMGF_STR_EXTRA, 0);
    put(W, a, IMGF_STR_SHRLEN, is_short ? (int64_t)w->len : 0xFF);
    put(W, a, IMGF_STR_HASH, is_short ? w->hash : 0);
    put(W, a, IMGF_STR_LNGLEN, is_short ? 0 : (int64_t)w->len);
    memcpy(W->buf + (a - W->t->base) + SZ(STR), w->data, w->len);
    W->buf[a - W->t->base + SZ(STR) + w->len] = 0;
}

static void write_value(writer *W, uint64_t at, const tvalue *v)
{
    uint64_t val = at + W->t->off[IMGF_TV_VALUE];
    unsigned nbytes = W->t->num / 8;
    switch (tt_of(v)) {
    case V_INT:
        put_uint(W, val, nbytes, (uint64_t)(int64_t)v->v.i);
        break;
    case V_FLT: {
        uint64_t bits = 0;
        memcpy(&bits, &v->v.n, sizeof v->v.n); /* the model's own format */
        put_uint(W, val, nbytes, bits);
        break;
    }
    case V_SHRSTR:
    case V_LNGSTR:
        put_uint(W, val, W->t->ptrsize, str_addr(W, gco2str(gc_of(v))));
        break;
    default:
        break;
    }
    /* A short string made by a builder may be a long object: the image's
     * object decides (strings of up to STR_SHORT_MAX bytes are short). */
    uint8_t tt = tt_of(v);
    if (ttype(tt) == T_STRING)
        tt = str_len(gco2str(gc_of(v))) <= STR_SHORT_MAX ? V_SHRSTR : V_LNGSTR;
    put(W, at, IMGF_TV_TT, tt);
}

static void write_proto(writer *W, const wproto *w)
{
    const proto *p = w->p;
    uint64_t a = w->addr;
    int strip = W->strip;
    put_ptr(W, a, IMGF_OBJ_NEXT, 0);
    put(W, a, IMGF_OBJ_TT, V_PROTO);
    put(W, a, IMGF_OBJ_MARKED, MARK_ROM_PRESET);
    put(W, a, IMGF_P_NUMPARAMS, p->numparams);
    put(W, a, IMGF_P_ISVARARG, p->is_vararg);
    put(W, a, IMGF_P_MAXSTACK, p->maxstacksize);
    put(W, a, IMGF_P_SIZEUPV, p->sizeupvalues);
    put(W, a, IMGF_P_SIZEK, p->sizek);
    put(W, a, IMGF_P_SIZECODE, p->sizecode);
    put(W, a, IMGF_P_SIZELINE, strip ? 0 : p->sizelineinfo);
    put(W, a, IMGF_P_SIZEP, p->sizep);
    put(W, a, IMGF_P_SIZELOC, strip ? 0 : p->sizelocvars);
    put(W, a, IMGF_P_SIZEABS, strip ? 0 : p->sizeabslineinfo);
    put(W, a, IMGF_P_LINEDEF, p->linedefined);
    put(W, a, IMGF_P_LASTLINE, p->lastlinedefined);
    put_ptr(W, a, IMGF_P_K, w->k);
    put_ptr(W, a, IMGF_P_CODE, w->code);
    put_ptr(W, a, IMGF_P_P, w->p_);
    put_ptr(W, a, IMGF_P_UPV, w->upv);
    put_ptr(W, a, IMGF_P_LINEINFO, w->line);
    put_ptr(W, a, IMGF_P_ABSLINE, w->abs);
    put_ptr(W, a, IMGF_P_LOCVARS, w->loc);
    put_ptr(W, a, IMGF_P_SOURCE, strip ? 0 : str_addr(W, p->source));
    put_ptr(W, a, IMGF_P_GCLIST, 0);
    for (int i = 0; i < p->sizecode; i++)
        put_uint(W, w->code + (uint64_t)i * SZ(INSTR), 4, p->code[i]);
    for (int i = 0; i < p->sizek; i++)
        write_value(W, w->k + (uint64_t)i * SZ(TVALUE), &p->k[i]);
    /* The nested prototypes, in order: they follow their parent. */
    uint32_t me = (uint32_t)(w - W->protos), child = 0;
    for (uint32_t j = me + 1; j < W->nprotos && child < (uint32_t)p->sizep;
         j++)
        if (W->protos[j].parent == me)
            put_uint(W, w->p_ + (uint64_t)child++ * W->t->ptrsize,
                     W->t->ptrsize, W->protos[j].addr);
    for (int i = 0; i < p->sizeupvalues; i++) {
        uint64_t u = w->upv + (uint64_t)i * SZ(UPVALDESC);
        put_ptr(W, u, IMGF_U_NAME,
                strip ? 0 : str_addr(W, p->upvalues[i].name));
        put(W, u, IMGF_U_INSTACK, p->upvalues[i].instack);
        put(W, u, IMGF_U_IDX, p->upvalues[i].idx);
        put(W, u, IMGF_U_KIND, p->upvalues[i].kind);
    }
    if (strip)
        return;
    for (int i = 0; i < p->sizelineinfo; i++)
        W->buf[w->line - W->t->base + (uint64_t)i] = (uint8_t)p->lineinfo[i];
    for (int i = 0; i < p->sizeabslineinfo; i++) {
        uint64_t l = w->abs + (uint64_t)i * SZ(ABSLINE);
        put(W, l, IMGF_A_PC, p->abslineinfo[i].pc);
        put(W, l, IMGF_A_LINE, p->abslineinfo[i].line);
    }
    for (int i = 0; i < p->sizelocvars; i++) {
        uint64_t l = w->loc + (uint64_t)i * SZ(LOCVAR);
        put_ptr(W, l, IMGF_L_NAME, str_addr(W, p->locvars[i].name));
        put(W, l, IMGF_L_START, p->locvars[i].startpc);
        put(W, l, IMGF_L_END, p->locvars[i].endpc);
    }
}

static void layout_proto(writer *W, wproto *w, uint64_t *pos)
{
    const proto *p = w->p;
    int strip = W->strip;
    w->addr = place(W, pos, 1, SZ(PROTO), AL(PROTO));
    w->code = place(W, pos, (uint64_t)p->sizecode, SZ(INSTR), AL(INSTR));
    w->k = place(W, pos, (uint64_t)p->sizek, SZ(TVALUE), AL(TVALUE));
    w->p_ = place(W, pos, (uint64_t)p->sizep, W->t->ptrsize, AL(PTR));
    w->upv =
        place(W, pos, (uint64_t)p->sizeupvalues, SZ(UPVALDESC), AL(UPVALDESC));
    if (strip)
        return;
    w->line = place(W, pos, (uint64_t)p->sizelineinfo, 1, 1);
    w->abs =
        place(W, pos, (uint64_t)p->sizeabslineinfo, SZ(ABSLINE), AL(ABSLINE));
    w->loc = place(W, pos, (uint64_t)p->sizelocvars, SZ(LOCVAR), AL(LOCVAR));
}

static void write_image(writer *W, wmod *mods, int n, int mainmod)
{
    const imgw_target *t = W->t;
    /* The image's own strings, in layout order. */
    W->order = malloc(sizeof(uint32_t) * (W->nstrs + 1));
    if (W->order == NULL) {
        fail(W, "out of memory");
        return;
    }
    for (uint32_t i = 0; i < W->nstrs; i++) {
        wstr *w = &W->strs[i];
        if (w->rom >= 0)
            w->addr = t->romaddr[w->rom];
        else
            W->order[W->nimage++] = i;
    }
    uint32_t nshort = 0;
    for (uint32_t j = 0; j < W->nimage; j++)
        nshort += W->strs[W->order[j]].len <= STR_SHORT_MAX;
    uint32_t nslots = 2;
    while (nslots < 2 * nshort)
        nslots *= 2;
    while (!fill_slots(W, nslots) && !W->failed)
        nslots *= 2;
    if (W->failed)
        return;

    uint64_t pos = 0;
    uint64_t hdr = place(W, &pos, 1, SZ(HEADER), AL(HEADER));
    uint64_t amods = place(W, &pos, (uint64_t)n, SZ(MODULE), AL(MODULE));
    uint64_t aents = place(W, &pos, W->nprotos, SZ(ENTRY), AL(ENTRY));
    uint64_t astrs = place(W, &pos, W->nimage, t->ptrsize, AL(PTR));
    uint64_t aslots = place(W, &pos, W->nslots, 2, 2);
    for (uint32_t j = 0; j < W->nimage; j++) {
        wstr *w = &W->strs[W->order[j]];
        w->addr = place(W, &pos, 1, SZ(STR) + w->len + 1, AL(STR));
    }
    for (uint32_t i = 0; i < W->nprotos; i++)
        layout_proto(W, &W->protos[i], &pos);
    pos = align_to(pos, 8);
    if (pos > t->capacity || pos > UINT32_MAX) {
        fail(W, "the image takes %llu bytes, the region holds %llu",
             (unsigned long long)pos, (unsigned long long)t->capacity);
        return;
    }
    W->size = (size_t)pos;
    W->buf = calloc(1, W->size);
    if (W->buf == NULL) {
        fail(W, "out of memory");
        return;
    }

    memcpy(W->buf + t->off[IMGF_H_MAGIC], IMG_MAGIC, IMG_MAGIC_LEN);
    put(W, hdr, IMGF_H_VERSION, IMG_VERSION);
    put(W, hdr, IMGF_H_NUM, t->num);
    put(W, hdr, IMGF_H_ABISIG, t->abisig);
    put(W, hdr, IMGF_H_ROMSIG, t->romsig);
    put(W, hdr, IMGF_H_SIZE, (int64_t)W->size);
    put(W, hdr, IMGF_H_CRC, 0);
    put(W, hdr, IMGF_H_FLAGS, W->strip ? IMG_F_STRIPPED : 0);
    put(W, hdr, IMGF_H_NMOD, n);
    put(W, hdr, IMGF_H_NPROTO, W->nprotos);
    put(W, hdr, IMGF_H_NSTR, W->nimage);
    put(W, hdr, IMGF_H_NSLOT, W->nslots);
    put(W, hdr, IMGF_H_MAXPROBE, W->maxprobe);
    put(W, hdr, IMGF_H_RESERVED, 0);
    put_ptr(W, hdr, IMGF_H_SELF, t->base);
    put_ptr(W, hdr, IMGF_H_MODS, amods);
    put_ptr(W, hdr, IMGF_H_PROTOS, aents);
    put_ptr(W, hdr, IMGF_H_STRS, astrs);
    put_ptr(W, hdr, IMGF_H_SLOTS, aslots);

    /* Modules by (length, bytes); the main one followed. */
    const char *mainname = mainmod >= 0 ? mods[mainmod].name : NULL;
    qsort(mods, (size_t)n, sizeof *mods, cmp_modules);
    int64_t mainidx = IMG_NONE;
    for (int i = 0; i < n; i++) {
        uint64_t m = amods + (uint64_t)i * SZ(MODULE);
        long name = intern(W, mods[i].name, strlen(mods[i].name));
        put_ptr(W, m, IMGF_M_NAME, W->strs[name].addr);
        put_ptr(W, m, IMGF_M_MAIN, W->protos[mods[i].root].addr);
        if (mainname != NULL && strcmp(mods[i].name, mainname) == 0)
            mainidx = i;
    }
    put(W, hdr, IMGF_H_MAIN, mainidx);
    for (uint32_t i = 0; i < W->nprotos; i++) {
        uint64_t e = aents + (uint64_t)i * SZ(ENTRY);
        put_ptr(W, e, IMGF_E_PROTO, W->protos[i].addr);
        put(W, e, IMGF_E_PARENT, W->protos[i].parent);
        put(W, e, IMGF_E_DEPTH, W->protos[i].depth);
    }
    for (uint32_t j = 0; j < W->nimage; j++) {
        const wstr *w = &W->strs[W->order[j]];
        put_uint(W, astrs + (uint64_t)j * t->ptrsize, t->ptrsize, w->addr);
        write_string(W, w);
    }
    for (uint32_t i = 0; i < W->nslots; i++)
        put_uint(W, aslots + 2u * i, 2, W->slots[i]);
    for (uint32_t i = 0; i < W->nprotos; i++)
        write_proto(W, &W->protos[i]);

    uint32_t at = t->off[IMGF_H_CRC];
    put_uint(W, hdr + at, 4, img_crc32(0, W->buf, W->size));
}

uint8_t *imgw_write(const imgw_target *t, const imgw_module *mods, int n,
                    int mainmod, int strip, size_t *size, char *err,
                    size_t errcap)
{
    writer W;
    memset(&W, 0, sizeof W);
    W.t = t;
    W.strip = strip;
    W.err = err;
    W.errcap = errcap;
    W.nbuckets = 4096;
    W.buckets = calloc(W.nbuckets, sizeof(uint32_t));
    W.rombuckets = calloc(W.nbuckets, sizeof(uint32_t));
    W.romnext = calloc(t->romcount + 1, sizeof(uint32_t));
    wmod *sorted = malloc(sizeof(wmod) * (size_t)(n + 1));
    if (W.buckets == NULL || W.rombuckets == NULL || W.romnext == NULL ||
        sorted == NULL)
        fail(&W, "out of memory");
    for (uint32_t i = 0; i < t->romcount && !W.failed; i++) {
        uint32_t b =
            content_hash(t->romdata[i], t->romlen[i]) & (W.nbuckets - 1);
        W.romnext[i] = W.rombuckets[b];
        W.rombuckets[b] = i + 1;
    }
    for (int i = 0; i < n && !W.failed; i++) {
        sorted[i].name = mods[i].name;
        sorted[i].root = W.nprotos;
        intern(&W, mods[i].name, strlen(mods[i].name));
        gather(&W, mods[i].main, IMG_NONE, 0);
    }
    for (int i = 0; i < n && !W.failed; i++)
        for (int j = 0; j < i; j++)
            if (strcmp(mods[i].name, mods[j].name) == 0)
                fail(&W, "two modules named '%s'", mods[i].name);
    if (!W.failed)
        write_image(&W, sorted, n, mainmod);
    free(sorted);
    free(W.protos);
    free(W.strs);
    free(W.buckets);
    free(W.rombuckets);
    free(W.romnext);
    free(W.order);
    free(W.slots);
    if (W.failed) {
        free(W.buf);
        return NULL;
    }
    *size = W.size;
    return W.buf;
}

/* ---- Targets ------------------------------------------------------------ */

const char *imgw_target_from(imgw_target *t, const void *abip, size_t len)
{
    /* The integer part is laid out alike on every ABI (uint32_t words,
     * then uint16_t arrays); only the padding before `region` differs,
     * which regionoff tells. */
    const uint8_t *b = abip;
    img_abi abi;
    size_t words = offsetof(img_abi, off);
    size_t arrays =
        sizeof abi.off + sizeof abi.width + sizeof abi.size + sizeof abi.align;
    if (len < words)
        return "the firmware's layout descriptor is truncated";
    memcpy(&abi, b, words);
    if (abi.magic != IMG_ABI_MAGIC)
        return "the firmware's layout descriptor is not one (or of another "
               "byte order)";
    if (abi.version != IMG_VERSION || abi.nfields != IMG_NFIELDS ||
        abi.ntypes != IMG_NTYPES || abi.regionoff < words + arrays ||
        abi.regionoff > len)
        return "the firmware was built from another version of rtlua "
               "(its image format differs): rebuild both from one tree";
    if (abi.ptrsize != 4 && abi.ptrsize != 8)
        return "the firmware's pointers are neither 4 nor 8 bytes";
    memset(t, 0, sizeof *t);
    t->num = abi.num;
    t->ptrsize = abi.ptrsize;
    t->romcount = abi.romcount;
    memcpy(t->off, b + words, sizeof t->off);
    memcpy(t->width, b + words + sizeof t->off, sizeof t->width);
    memcpy(t->size, b + words + sizeof t->off + sizeof t->width,
           sizeof t->size);
    memcpy(t->align, b + words + arrays - sizeof t->align, sizeof t->align);
    t->abisig = img_crc32(0, b, abi.regionoff);
    for (int i = 0; i < IMG_NTYPES; i++)
        if (t->align[i] == 0 || (t->align[i] & (t->align[i] - 1)) != 0)
            return "the firmware's layout descriptor has a bad alignment";
    return NULL;
}

void imgw_target_self(imgw_target *t, uint64_t base, uint64_t capacity)
{
    static uint64_t addr[ROMSTR_COUNT];
    static const char *data[ROMSTR_COUNT];
    static uint8_t len[ROMSTR_COUNT];
    imgw_target_from(t, &rtlua_image_abi, sizeof rtlua_image_abi);
    t->romsig = img_romsig();
    t->base = base;
    t->capacity = capacity;
    for (uint32_t i = 0; i < ROMSTR_COUNT; i++) {
        addr[i] = (uint64_t)(uintptr_t)romstr_ptrs[i];
        data[i] = romstr_ptrs[i]->data;
        len[i] = romstr_ptrs[i]->shrlen;
    }
    t->romaddr = addr;
    t->romdata = data;
    t->romlen = len;
}
