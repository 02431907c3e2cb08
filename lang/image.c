/*
 * image.c — flash images: this firmware's layout (rtlua_image_abi), the
 * checks an image passes before it is used, attaching it to a state,
 * and its modules (see image.h; the writer is tools/imgwrite.c).
 */
#include "lang/image.h"

#include "gc/gc.h"
#include "include/lua.h"
#include "include/rtlua.h"
#include "lang/parse.h"
#include "lang/verify.h"
#include "port/port.h"
#include "romstr.h"
#include "vm/do.h"
#include "vm/func.h"
#include "vm/opcodes.h"
#include "vm/str.h"

#include <stdarg.h>
#include <string.h>

/* Bounds of one prototype's arrays, as the compiler and the binary-chunk
 * loader have them (lang/undump.c): they also keep every byte count
 * below 2^31. */
#define IMG_MAXCODE (OP_MAXARG_AX / 2)
#define IMG_MAXK (OP_MAXARG_AX + 1)
#define IMG_MAXP (OP_MAXARG_BX + 1)
#define IMG_MAXLOCVARS 32767

/* ---- The layout ---------------------------------------------------------
 * The structs as the writer fills them, field by field.  A field added
 * to one of them, removed, or of another type stops the build here until
 * IMG_FIELDS and tools/imgwrite.c know it. */
struct mirror_str {
    GCHEADER;
    uint8_t extra;
    uint8_t shrlen;
    uint32_t hash;
    union {
        size_t lnglen;
        struct str *hnext;
    } u;
    char data[];
};

struct mirror_tvalue {
    value v;
    uint8_t tt;
};

struct mirror_proto {
    GCHEADER;
    uint8_t numparams;
    uint8_t is_vararg;
    uint8_t maxstacksize;
    int32_t sizeupvalues;
    int32_t sizek;
    int32_t sizecode;
    int32_t sizelineinfo;
    int32_t sizep;
    int32_t sizelocvars;
    int32_t sizeabslineinfo;
    int32_t linedefined;
    int32_t lastlinedefined;
    tvalue *k;
    instr *code;
    struct proto **p;
    upvaldesc *upvalues;
    int8_t *lineinfo;
    absline *abslineinfo;
    locvar *locvars;
    str *source;
    gcobj *gclist;
};

struct mirror_upvaldesc {
    str *name;
    uint8_t instack;
    uint8_t idx;
    uint8_t kind;
};

struct mirror_locvar {
    str *name;
    int32_t startpc;
    int32_t endpc;
};

struct mirror_absline {
    int32_t pc;
    int32_t line;
};

#define SAME(m, t, f)                                                         \
    (offsetof(struct m, f) == offsetof(t, f) &&                               \
     sizeof(((struct m *)0)->f) == sizeof(((t *)0)->f))
#define SAMESIZE(m, t)                                                        \
    (sizeof(struct m) == sizeof(t) && _Alignof(struct m) == _Alignof(t))

_Static_assert(SAMESIZE(mirror_str, str) && SAME(mirror_str, str, next) &&
                   SAME(mirror_str, str, tt) &&
                   SAME(mirror_str, str, marked) &&
                   SAME(mirror_str, str, extra) &&
                   SAME(mirror_str, str, shrlen) &&
                   SAME(mirror_str, str, hash) && SAME(mirror_str, str, u) &&
                   offsetof(struct mirror_str, data) == offsetof(str, data),
               "str changed: update IMG_FIELDS and tools/imgwrite.c");
_Static_assert(SAMESIZE(mirror_tvalue, tvalue) &&
                   SAME(mirror_tvalue, tvalue, v) &&
                   SAME(mirror_tvalue, tvalue, tt),
               "tvalue changed: update IMG_FIELDS and tools/imgwrite.c");
_Static_assert(
    SAMESIZE(mirror_proto, proto) && SAME(mirror_proto, proto, next) &&
        SAME(mirror_proto, proto, tt) && SAME(mirror_proto, proto, marked) &&
        SAME(mirror_proto, proto, numparams) &&
        SAME(mirror_proto, proto, is_vararg) &&
        SAME(mirror_proto, proto, maxstacksize) &&
        SAME(mirror_proto, proto, sizeupvalues) &&
        SAME(mirror_proto, proto, sizek) &&
        SAME(mirror_proto, proto, sizecode) &&
        SAME(mirror_proto, proto, sizelineinfo) &&
        SAME(mirror_proto, proto, sizep) &&
        SAME(mirror_proto, proto, sizelocvars) &&
        SAME(mirror_proto, proto, sizeabslineinfo) &&
        SAME(mirror_proto, proto, linedefined) &&
        SAME(mirror_proto, proto, lastlinedefined) &&
        SAME(mirror_proto, proto, k) && SAME(mirror_proto, proto, code) &&
        SAME(mirror_proto, proto, p) && SAME(mirror_proto, proto, upvalues) &&
        SAME(mirror_proto, proto, lineinfo) &&
        SAME(mirror_proto, proto, abslineinfo) &&
        SAME(mirror_proto, proto, locvars) &&
        SAME(mirror_proto, proto, source) && SAME(mirror_proto, proto, gclist),
    "proto changed: update IMG_FIELDS and tools/imgwrite.c");
_Static_assert(SAMESIZE(mirror_upvaldesc, upvaldesc) &&
                   SAME(mirror_upvaldesc, upvaldesc, name) &&
                   SAME(mirror_upvaldesc, upvaldesc, instack) &&
                   SAME(mirror_upvaldesc, upvaldesc, idx) &&
                   SAME(mirror_upvaldesc, upvaldesc, kind),
               "upvaldesc changed: update IMG_FIELDS and tools/imgwrite.c");
_Static_assert(SAMESIZE(mirror_locvar, locvar) &&
                   SAME(mirror_locvar, locvar, name) &&
                   SAME(mirror_locvar, locvar, startpc) &&
                   SAME(mirror_locvar, locvar, endpc),
               "locvar changed: update IMG_FIELDS and tools/imgwrite.c");
_Static_assert(SAMESIZE(mirror_absline, absline) &&
                   SAME(mirror_absline, absline, pc) &&
                   SAME(mirror_absline, absline, line),
               "absline changed: update IMG_FIELDS and tools/imgwrite.c");
/* Every object's header is GCHEADER: the string's offsets are all's. */
_Static_assert(offsetof(proto, next) == offsetof(str, next) &&
                   offsetof(proto, tt) == offsetof(str, tt) &&
                   offsetof(proto, marked) == offsetof(str, marked),
               "GCHEADER differs between objects");
/* The header's first fields are read before anything else is trusted:
 * their places do not depend on the layout. */
_Static_assert(offsetof(img_header, version) == 8 &&
                   offsetof(img_header, num) == 12 &&
                   offsetof(img_header, abisig) == 16 &&
                   offsetof(img_header, romsig) == 20,
               "the header's first fields moved");

#ifdef RTLUA_HOST
#define REGION ((const void *)(uintptr_t)IMG_HOST_BASE)
#define REGION_END ((const void *)(uintptr_t)(IMG_HOST_BASE + IMG_HOST_BYTES))
#else
/* The application image region, the last part of flash (linker/). */
extern const char _app_image_start[], _app_image_end[];
#define REGION ((const void *)_app_image_start)
#define REGION_END ((const void *)_app_image_end)
#endif

#define FIELD_OFF(id, kind, type, member)                                     \
    [IMGF_##id] = (uint16_t)offsetof(type, member),
#define FIELD_WIDTH(id, kind, type, member)                                   \
    [IMGF_##id] = (uint16_t)sizeof(((type *)0)->member),
#define TYPE_SIZE(id, type, size) [IMGT_##id] = (uint16_t)(size),
#define TYPE_ALIGN(id, type, size) [IMGT_##id] = (uint16_t) _Alignof(type),

const img_abi rtlua_image_abi = {
    .magic = IMG_ABI_MAGIC,
    .version = IMG_VERSION,
    .nfields = IMG_NFIELDS,
    .ntypes = IMG_NTYPES,
    .romcount = ROMSTR_COUNT,
    .num = RTLUA_NUM,
    .ptrsize = sizeof(void *),
    .regionoff = offsetof(img_abi, region),
    .off = {IMG_FIELDS(FIELD_OFF)},
    .width = {IMG_FIELDS(FIELD_WIDTH)},
    .size = {IMG_TYPES(TYPE_SIZE)},
    .align = {IMG_TYPES(TYPE_ALIGN)},
    .region = REGION,
    .regionend = REGION_END,
    .romptrs = romstr_ptrs,
};

/* ---- Signatures --------------------------------------------------------- */

/* CRC-32 four bits at a time: a 64-byte table (flash is scarce on the
 * small boards; an image is checked once per boot). */
static const uint32_t crc_nibble[16] = {
    0x00000000u, 0x1DB71064u, 0x3B6E20C8u, 0x26D930ACu,
    0x76DC4190u, 0x6B6B51F4u, 0x4DB26158u, 0x5005713Cu,
    0xEDB88320u, 0xF00F9344u, 0xD6D6A3E8u, 0xCB61B38Cu,
    0x9B64C2B0u, 0x86D3D2D4u, 0xA00AE278u, 0xBDBDF21Cu};

uint32_t img_crc32(uint32_t crc, const void *p, size_t n)
{
    const uint8_t *b = p;
    crc = ~crc;
    while (n-- > 0) {
        crc ^= *b++;
        crc = (crc >> 4) ^ crc_nibble[crc & 15u];
        crc = (crc >> 4) ^ crc_nibble[crc & 15u];
    }
    return ~crc;
}

uint32_t img_abisig(const img_abi *abi)
{
    return img_crc32(0, abi, abi->regionoff);
}

uint32_t img_romsig(void)
{
    static uint32_t sig;
    static uint8_t known;
    if (!known) {
        uint32_t c = 0;
        for (uint32_t i = 0; i < ROMSTR_COUNT; i++) {
            const str *s = romstr_ptrs[i];
            uint8_t a[sizeof(void *)];
            uintptr_t addr = (uintptr_t)s;
            for (size_t k = 0; k < sizeof a; k++)
                a[k] = (uint8_t)(addr >> (8 * k));
            c = img_crc32(c, a, sizeof a);
            c = img_crc32(c, &s->shrlen, 1);
            c = img_crc32(c, s->data, s->shrlen);
        }
        sig = c;
        known = 1;
    }
    return sig;
}

/* ---- Checking ----------------------------------------------------------- */

typedef struct check {
    const img_header *h;
    uintptr_t lo, hi; /* the image's bytes */
    char *msg;
} check;

static int refuse(check *C, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int refuse(check *C, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    port_vsnprintf(C->msg, IMG_MSG_MAX, fmt, ap);
    va_end(ap);
    return 0;
}

/* n bytes at p lie in the image, p aligned to `align` (a power of 2). */
static int inside(const check *C, const void *p, size_t n, size_t align)
{
    uintptr_t a = (uintptr_t)p;
    return a >= C->lo && a <= C->hi && n <= C->hi - a &&
           (a & (align - 1)) == 0;
}

/* n elements of esize bytes at p: NULL when n is 0, else in the image. */
static int array(check *C, const void *p, int32_t n, int32_t max, size_t esize,
                 size_t align, uint32_t f, const char *what)
{
    if (n < 0 || n > max)
        return refuse(C, "function %u: bad %s count %ld", (unsigned)f, what,
                      (long)n);
    if (n == 0)
        return p == NULL ? 1
                         : refuse(C, "function %u: %s without elements",
                                  (unsigned)f, what);
    if (!inside(C, p, (size_t)n * esize, align))
        return refuse(C, "function %u: %s outside the image", (unsigned)f,
                      what);
    return 1;
}

/* Index of the pointer p in the n pointers of arr, sorted by address, or
 * -1. */
static long find_ptr(const void *const *arr, uint32_t n, const void *p)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if ((uintptr_t)arr[mid] < (uintptr_t)p)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && arr[lo] == p ? (long)lo : -1;
}

/* Is s one of this firmware's ROM strings?  romstr_ptrs is in address
 * order when the linker kept romgen's order (checked once); otherwise
 * every entry is compared. */
static int rom_string(const str *s)
{
    static int8_t order; /* 0 unknown, 1 by address, -1 not */
    if (order == 0) {
        order = 1;
        for (uint32_t i = 1; i < ROMSTR_COUNT; i++)
            if ((uintptr_t)romstr_ptrs[i - 1] >= (uintptr_t)romstr_ptrs[i])
                order = -1;
    }
    if (order > 0)
        return find_ptr((const void *const *)romstr_ptrs, ROMSTR_COUNT, s) >=
               0;
    for (uint32_t i = 0; i < ROMSTR_COUNT; i++)
        if (romstr_ptrs[i] == s)
            return 1;
    return 0;
}

/* s is NULL (when allowed), an image string or a ROM string; tt, when
 * not 0, is the type the value claims. */
static int good_string(check *C, const str *s, int nullok, uint8_t tt)
{
    if (s == NULL)
        return nullok;
    const img_header *h = C->h;
    if (find_ptr((const void *const *)h->strings, h->nstrings, s) < 0 &&
        !rom_string(s))
        return 0;
    return tt == 0 || s->tt == tt;
}

/* String i: after the one before it, a ROM object, well formed. */
static int check_string(check *C, uint32_t i, uintptr_t *end)
{
    const str *s = C->h->strings[i];
    size_t len;
    if ((uintptr_t)s < *end || !inside(C, s, str_sizefor(0), _Alignof(str)))
        return refuse(C, "string %u: misplaced", (unsigned)i);
    if (s->next != NULL || s->marked != MARK_ROM_PRESET)
        return refuse(C, "string %u: not a ROM object", (unsigned)i);
    if (s->tt == V_SHRSTR) {
        len = s->shrlen;
        if (len > STR_SHORT_MAX || s->extra != 0 || s->u.hnext != NULL)
            return refuse(C, "string %u: bad short string", (unsigned)i);
    } else if (s->tt == V_LNGSTR) {
        len = s->u.lnglen;
        if (s->shrlen != 0xFF || s->extra != 0 || s->hash != 0 ||
            len <= STR_SHORT_MAX || len > C->hi - C->lo)
            return refuse(C, "string %u: bad long string", (unsigned)i);
    } else {
        return refuse(C, "string %u: not a string", (unsigned)i);
    }
    if (!inside(C, s, str_sizefor(len), 1))
        return refuse(C, "string %u: outside the image", (unsigned)i);
    if (s->data[len] != '\0')
        return refuse(C, "string %u: not terminated", (unsigned)i);
    if (s->tt == V_SHRSTR) {
        if (s->hash != strhash_probe(s->data, len))
            return refuse(C, "string %u: bad hash", (unsigned)i);
        if (str_rom_find(s->data, len) != NULL)
            return refuse(C, "string %u: a copy of a ROM string", (unsigned)i);
    }
    *end = (uintptr_t)s + str_sizefor(len);
    return 1;
}

/* The strings, then the lookup slots: each slot names a short string or
 * nothing, and each short string is found by a lookup, within maxprobe
 * slots, as itself (so no two are equal). */
static int check_strings(check *C)
{
    const img_header *h = C->h;
    uintptr_t end = 0;
    for (uint32_t i = 0; i < h->nstrings; i++)
        if (!check_string(C, i, &end))
            return 0;
    for (uint32_t i = 0; i < h->nslots; i++) {
        uint32_t v = h->slots[i];
        if (v > h->nstrings || (v != 0 && h->strings[v - 1]->tt != V_SHRSTR))
            return refuse(C, "string slot %u: bad index", (unsigned)i);
    }
    for (uint32_t i = 0; i < h->nstrings; i++) {
        const str *s = h->strings[i];
        if (s->tt != V_SHRSTR)
            continue;
        if (str_image_lookup(h->strings, h->slots, h->nslots, h->maxprobe,
                             s->data, s->shrlen, s->hash) != s)
            return refuse(C, "string %u: not found by its lookup",
                          (unsigned)i);
    }
    return 1;
}

static int cmp_name(const str *a, const char *b, size_t blen)
{
    size_t alen = str_len(a);
    if (alen != blen)
        return alen < blen ? -1 : 1;
    return memcmp(str_data(a), b, blen);
}

/* Index of prototype p among the entries, or -1. */
static long entry_of(const img_header *h, const proto *p)
{
    uint32_t lo = 0, hi = h->nprotos;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if ((uintptr_t)h->protos[mid].p < (uintptr_t)p)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < h->nprotos && h->protos[lo].p == p ? (long)lo : -1;
}

/* Modules: names are strings, in strictly increasing (length, bytes)
 * order; each main function is a prototype with no parent. */
static int check_modules(check *C)
{
    const img_header *h = C->h;
    for (uint32_t i = 0; i < h->nmodules; i++) {
        const img_module *m = &h->modules[i];
        if (!good_string(C, m->name, 0, 0))
            return refuse(C, "module %u: bad name", (unsigned)i);
        if (i > 0 && cmp_name(h->modules[i - 1].name, str_data(m->name),
                              str_len(m->name)) >= 0)
            return refuse(C, "module %u: out of order", (unsigned)i);
        long e = entry_of(h, m->main);
        if (e < 0 || h->protos[e].parent != IMG_NONE)
            return refuse(C, "module %u: bad main function", (unsigned)i);
    }
    return 1;
}

/* Prototype f's own fields and arrays; *children counts the nested
 * prototypes it references (each must be an entry whose parent is f, in
 * increasing address order: so each is referenced once). */
static int check_proto(check *C, uint32_t f, uint32_t *children)
{
    const img_header *h = C->h;
    const img_entry *e = &h->protos[f];
    const proto *p = e->p;
    if ((f > 0 && (uintptr_t)p <= (uintptr_t)h->protos[f - 1].p) ||
        !inside(C, p, sizeof(proto), _Alignof(proto)))
        return refuse(C, "function %u: misplaced", (unsigned)f);
    if (e->parent == IMG_NONE) {
        if (e->depth != 0)
            return refuse(C, "function %u: bad depth", (unsigned)f);
    } else if (e->parent >= f || e->depth > IMG_MAX_DEPTH ||
               e->depth != h->protos[e->parent].depth + 1) {
        return refuse(C, "function %u: bad parent", (unsigned)f);
    }
    if (p->next != NULL || p->tt != V_PROTO || p->marked != MARK_ROM_PRESET ||
        p->gclist != NULL)
        return refuse(C, "function %u: not a ROM object", (unsigned)f);
    if (!array(C, p->code, p->sizecode, IMG_MAXCODE, sizeof(instr),
               _Alignof(instr), f, "instruction") ||
        !array(C, p->k, p->sizek, IMG_MAXK, sizeof(tvalue), _Alignof(tvalue),
               f, "constant") ||
        !array(C, p->p, p->sizep, IMG_MAXP, sizeof(proto *), _Alignof(proto *),
               f, "function") ||
        !array(C, p->upvalues, p->sizeupvalues, PARSE_MAXUPVAL,
               sizeof(upvaldesc), _Alignof(upvaldesc), f, "upvalue") ||
        !array(C, p->lineinfo, p->sizelineinfo, IMG_MAXCODE, 1, 1, f,
               "line") ||
        !array(C, p->abslineinfo, p->sizeabslineinfo, IMG_MAXCODE,
               sizeof(absline), _Alignof(absline), f, "absolute line") ||
        !array(C, p->locvars, p->sizelocvars, IMG_MAXLOCVARS, sizeof(locvar),
               _Alignof(locvar), f, "local"))
        return 0;
    if (!good_string(C, p->source, 1, 0))
        return refuse(C, "function %u: bad source name", (unsigned)f);
    for (int32_t i = 0; i < p->sizek; i++) {
        const tvalue *k = &p->k[i];
        switch (tt_of(k)) {
        case V_NIL:
        case V_FALSE:
        case V_TRUE:
        case V_INT:
        case V_FLT:
            break;
        case V_SHRSTR:
        case V_LNGSTR:
            if (good_string(C, gco2str(gc_of(k)), 0, tt_of(k)))
                break;
            /* fall through */
        default:
            return refuse(C, "function %u: bad constant %ld", (unsigned)f,
                          (long)i);
        }
    }
    for (int32_t i = 0; i < p->sizeupvalues; i++)
        if (!good_string(C, p->upvalues[i].name, 1, 0))
            return refuse(C, "function %u: bad upvalue name", (unsigned)f);
    for (int32_t i = 0; i < p->sizelocvars; i++)
        if (!good_string(C, p->locvars[i].name, 0, 0))
            return refuse(C, "function %u: bad local name", (unsigned)f);
    for (int32_t i = 0; i < p->sizep; i++) {
        const proto *c = p->p[i];
        long k = entry_of(h, c);
        if (k < 0 || h->protos[k].parent != f ||
            (i > 0 && (uintptr_t)c <= (uintptr_t)p->p[i - 1]))
            return refuse(C, "function %u: bad nested function %ld",
                          (unsigned)f, (long)i);
        ++*children;
    }
    return 1;
}

/* The header's own fields and its arrays' places. */
static int check_tables(check *C)
{
    const img_header *h = C->h;
    size_t room = C->hi - C->lo;
    if (h->flags & ~IMG_F_ALL || h->reserved != 0)
        return refuse(C, "unknown flags");
    if (h->nstrings > IMG_MAX_STRINGS || h->nslots == 0 ||
        (h->nslots & (h->nslots - 1)) != 0 ||
        h->nslots > 2 * IMG_MAX_STRINGS || h->maxprobe == 0 ||
        h->maxprobe > IMG_MAX_PROBE)
        return refuse(C, "bad string table");
    if (h->nmodules > room / sizeof(img_module) ||
        h->nprotos > room / sizeof(img_entry) ||
        (h->mainmod != IMG_NONE && h->mainmod >= h->nmodules))
        return refuse(C, "bad counts");
    if (!inside(C, h->modules, h->nmodules * sizeof(img_module),
                _Alignof(img_module)) ||
        !inside(C, h->protos, h->nprotos * sizeof(img_entry),
                _Alignof(img_entry)) ||
        !inside(C, h->strings, h->nstrings * sizeof(str *), _Alignof(str *)) ||
        !inside(C, h->slots, h->nslots * sizeof(uint16_t), _Alignof(uint16_t)))
        return refuse(C, "a table outside the image");
    return 1;
}

/* The header: magic, version, model, signatures, place, size, CRC. */
static int check_header(check *C, const void *p, size_t len)
{
    const img_header *h = p;
    if (memcmp(h->magic, IMG_MAGIC,
               len < IMG_MAGIC_LEN ? len : IMG_MAGIC_LEN) != 0)
        return refuse(C, "not an rtlua image (bad magic)");
    if (len < offsetof(img_header, abisig))
        return refuse(C, "truncated: %lu bytes", (unsigned long)len);
    if (h->version != IMG_VERSION)
        return refuse(C, "format version %lu, this firmware reads %d",
                      (unsigned long)h->version, IMG_VERSION);
    if (h->num != RTLUA_NUM)
        return refuse(C,
                      "number model mismatch: the image has %lu-bit numbers, "
                      "this firmware %d-bit ones",
                      (unsigned long)h->num, RTLUA_NUM);
    if (len < sizeof(img_header))
        return refuse(C, "truncated: %lu bytes, the header alone is %lu",
                      (unsigned long)len, (unsigned long)sizeof(img_header));
    if (h->abisig != img_abisig(&rtlua_image_abi))
        return refuse(C, "made for another layout of the runtime's objects "
                         "(rebuild it for this firmware)");
    if (h->romsig != img_romsig())
        return refuse(C, "made for another firmware: its ROM strings differ "
                         "(rebuild it for this one)");
    if (h->self != h)
        return refuse(C, "made to lie at %p, found at %p", (void *)h->self,
                      (void *)h);
    if (h->size < sizeof(img_header) || h->size > len)
        return refuse(C, "truncated: %lu bytes of %lu",
                      (unsigned long)(h->size <= len ? h->size : len),
                      (unsigned long)h->size);
    static const uint8_t zero[sizeof h->crc];
    size_t at = offsetof(img_header, crc);
    uint32_t crc = img_crc32(0, h, at);
    crc = img_crc32(crc, zero, sizeof zero);
    crc = img_crc32(crc, (const char *)h + at + sizeof zero,
                    h->size - at - sizeof zero);
    if (crc != h->crc)
        return refuse(C, "CRC mismatch (stored %08lx, computed %08lx)",
                      (unsigned long)h->crc, (unsigned long)crc);
    C->hi = C->lo + h->size;
    return 1;
}

/* The verifier on every prototype, with a scratch array as large as the
 * largest frame that has local names. */
static int verify_all(lua_State *L, check *C)
{
    const img_header *h = C->h;
    size_t need = 0;
    for (uint32_t f = 0; f < h->nprotos; f++) {
        const proto *p = h->protos[f].p;
        if (p->sizelocvars > 0 && p->maxstacksize > need)
            need = p->maxstacksize;
    }
    int32_t *scratch = NULL;
    if (need > 0) {
        scratch = gc_alloc(L, need * sizeof(int32_t));
        if (scratch == NULL)
            return refuse(C, "not enough memory to check it");
    }
    int ok = 1;
    for (uint32_t f = 0; f < h->nprotos && ok; f++) {
        const img_entry *e = &h->protos[f];
        const proto *parent =
            e->parent == IMG_NONE ? NULL : h->protos[e->parent].p;
        int pc = -1;
        const char *why = verify_proto(e->p, parent, scratch, &pc);
        if (why != NULL)
            ok = pc >= 0 ? refuse(C,
                                  "function %u: %s at instruction %d of the "
                                  "function at line %ld",
                                  (unsigned)f, why, pc + 1,
                                  (long)e->p->linedefined)
                         : refuse(C, "function %u: %s", (unsigned)f, why);
    }
    gc_free(G(L), scratch, need * sizeof(int32_t));
    return ok;
}

const char *img_check(lua_State *L, const void *p, size_t len, char *msg)
{
    check C;
    C.h = p;
    C.lo = (uintptr_t)p;
    C.hi = C.lo + len;
    C.msg = msg;
    msg[0] = '\0';
    if (C.hi < C.lo || ((uintptr_t)p & (_Alignof(img_header) - 1)) != 0) {
        refuse(&C, "misaligned or out of the address space");
        return msg;
    }
    if (!check_header(&C, p, len) || !check_tables(&C) || !check_strings(&C))
        return msg;
    const img_header *h = C.h;
    uint32_t roots = 0, children = 0;
    for (uint32_t f = 0; f < h->nprotos; f++) {
        if (!check_proto(&C, f, &children))
            return msg;
        roots += h->protos[f].parent == IMG_NONE;
    }
    if (children != h->nprotos - roots) {
        refuse(&C, "a nested function referenced by no function");
        return msg;
    }
    if (!check_modules(&C) || !verify_all(L, &C))
        return msg;
    return NULL;
}

const char *img_attach(lua_State *L, const void *p, size_t len, char *msg)
{
    global_State *g = G(L);
    if (g->image != NULL) {
        port_snprintf(msg, IMG_MSG_MAX, "an image is attached already");
        return msg;
    }
    const char *why = img_check(L, p, len, msg);
    if (why != NULL)
        return why;
    const img_header *h = p;
    if (str_image_set(L, h->strings, h->nstrings, h->slots, h->nslots,
                      h->maxprobe) != 0) {
        port_snprintf(msg, IMG_MSG_MAX,
                      "attached too late: a string it holds was made in RAM "
                      "first");
        return msg;
    }
    g->image = h;
    return NULL;
}

/* ---- Modules ------------------------------------------------------------ */

const img_module *img_findmodule(lua_State *L, const char *name, size_t len)
{
    const img_header *h = G(L)->image;
    if (h == NULL)
        return NULL;
    uint32_t lo = 0, hi = h->nmodules;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        int c = cmp_name(h->modules[mid].name, name, len);
        if (c == 0)
            return &h->modules[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

void img_pushmodule(lua_State *L, const img_module *m)
{
    const proto *p = m->main;
    int n = p->sizeupvalues;
    do_checkstack(L, 1);
    lclosure *cl = fn_newlclosure(L, n);
    if (cl == NULL)
        do_memerror(L);
    /* A ROM object: no barrier is needed to point at it. */
    cl->p = (proto *)(uintptr_t)p;
    set_gc(L->top, cl, V_LCL);
    L->top++;
    for (int i = 0; i < n; i++) {
        upval *uv = fn_newupval(L);
        if (uv == NULL)
            do_memerror(L);
        cl = gco2lcl(gc_of(L->top - 1));
        cl->upvals[i] = uv;
        gc_objbarrier(L, cl, uv);
        if (i == 0) { /* _ENV */
            set_gc(uv->v, state_globals(L), V_TABLE);
            gc_barrier(L, uv, uv->v);
        }
    }
}

/* ---- The C API (rtlua.h) ------------------------------------------------ */

void rtlua_image_region(const void **start, size_t *size)
{
    *start = rtlua_image_abi.region;
    *size = (size_t)((const char *)rtlua_image_abi.regionend -
                     (const char *)rtlua_image_abi.region);
}

const char *rtlua_image_attach(lua_State *L, const void *p, size_t len)
{
    char msg[IMG_MSG_MAX];
    const char *why = img_attach(L, p, len, msg);
    return why != NULL ? lua_pushstring(L, why) : NULL;
}

int rtlua_image_attached(lua_State *L)
{
    return G(L)->image != NULL;
}

int rtlua_image_pushmodule(lua_State *L, const char *name)
{
    const img_header *h = G(L)->image;
    const img_module *m;
    if (h == NULL)
        return 0;
    if (name == NULL) {
        if (h->mainmod == IMG_NONE)
            return 0;
        m = &h->modules[h->mainmod];
    } else {
        m = img_findmodule(L, name, strlen(name));
        if (m == NULL)
            return 0;
    }
    img_pushmodule(L, m);
    const str *src = m->main->source;
    if (src == NULL) {
        lua_pushstring(L, "=?");
    } else {
        const char *s = str_data(src);
        size_t n = str_len(src);
        if (n > 0 && (s[0] == '@' || s[0] == '='))
            s++, n--;
        lua_pushlstring(L, s, n);
    }
    return 1;
}
