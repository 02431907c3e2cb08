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

/* CRC-32 a byte at a time from a 1 KiB table (entry b: the register
 * after b is shifted through eight steps of the reflected polynomial
 * 0xEDB88320), a word at a time where the bytes are aligned: the image and
 * the ROM strings' signature are checked at every boot, and four bits at
 * a time took a quarter of an image's start-up (bench/run-image). */
static const uint32_t crc_table[256] = {
    0x00000000u, 0x77073096u, 0xEE0E612Cu, 0x990951BAu, 0x076DC419u,
    0x706AF48Fu, 0xE963A535u, 0x9E6495A3u, 0x0EDB8832u, 0x79DCB8A4u,
    0xE0D5E91Eu, 0x97D2D988u, 0x09B64C2Bu, 0x7EB17CBDu, 0xE7B82D07u,
    0x90BF1D91u, 0x1DB71064u, 0x6AB020F2u, 0xF3B97148u, 0x84BE41DEu,
    0x1ADAD47Du, 0x6DDDE4EBu, 0xF4D4B551u, 0x83D385C7u, 0x136C9856u,
    0x646BA8C0u, 0xFD62F97Au, 0x8A65C9ECu, 0x14015C4Fu, 0x63066CD9u,
    0xFA0F3D63u, 0x8D080DF5u, 0x3B6E20C8u, 0x4C69105Eu, 0xD56041E4u,
    0xA2677172u, 0x3C03E4D1u, 0x4B04D447u, 0xD20D85FDu, 0xA50AB56Bu,
    0x35B5A8FAu, 0x42B2986Cu, 0xDBBBC9D6u, 0xACBCF940u, 0x32D86CE3u,
    0x45DF5C75u, 0xDCD60DCFu, 0xABD13D59u, 0x26D930ACu, 0x51DE003Au,
    0xC8D75180u, 0xBFD06116u, 0x21B4F4B5u, 0x56B3C423u, 0xCFBA9599u,
    0xB8BDA50Fu, 0x2802B89Eu, 0x5F058808u, 0xC60CD9B2u, 0xB10BE924u,
    0x2F6F7C87u, 0x58684C11u, 0xC1611DABu, 0xB6662D3Du, 0x76DC4190u,
    0x01DB7106u, 0x98D220BCu, 0xEFD5102Au, 0x71B18589u, 0x06B6B51Fu,
    0x9FBFE4A5u, 0xE8B8D433u, 0x7807C9A2u, 0x0F00F934u, 0x9609A88Eu,
    0xE10E9818u, 0x7F6A0DBBu, 0x086D3D2Du, 0x91646C97u, 0xE6635C01u,
    0x6B6B51F4u, 0x1C6C6162u, 0x856530D8u, 0xF262004Eu, 0x6C0695EDu,
    0x1B01A57Bu, 0x8208F4C1u, 0xF50FC457u, 0x65B0D9C6u, 0x12B7E950u,
    0x8BBEB8EAu, 0xFCB9887Cu, 0x62DD1DDFu, 0x15DA2D49u, 0x8CD37CF3u,
    0xFBD44C65u, 0x4DB26158u, 0x3AB551CEu, 0xA3BC0074u, 0xD4BB30E2u,
    0x4ADFA541u, 0x3DD895D7u, 0xA4D1C46Du, 0xD3D6F4FBu, 0x4369E96Au,
    0x346ED9FCu, 0xAD678846u, 0xDA60B8D0u, 0x44042D73u, 0x33031DE5u,
    0xAA0A4C5Fu, 0xDD0D7CC9u, 0x5005713Cu, 0x270241AAu, 0xBE0B1010u,
    0xC90C2086u, 0x5768B525u, 0x206F85B3u, 0xB966D409u, 0xCE61E49Fu,
    0x5EDEF90Eu, 0x29D9C998u, 0xB0D09822u, 0xC7D7A8B4u, 0x59B33D17u,
    0x2EB40D81u, 0xB7BD5C3Bu, 0xC0BA6CADu, 0xEDB88320u, 0x9ABFB3B6u,
    0x03B6E20Cu, 0x74B1D29Au, 0xEAD54739u, 0x9DD277AFu, 0x04DB2615u,
    0x73DC1683u, 0xE3630B12u, 0x94643B84u, 0x0D6D6A3Eu, 0x7A6A5AA8u,
    0xE40ECF0Bu, 0x9309FF9Du, 0x0A00AE27u, 0x7D079EB1u, 0xF00F9344u,
    0x8708A3D2u, 0x1E01F268u, 0x6906C2FEu, 0xF762575Du, 0x806567CBu,
    0x196C3671u, 0x6E6B06E7u, 0xFED41B76u, 0x89D32BE0u, 0x10DA7A5Au,
    0x67DD4ACCu, 0xF9B9DF6Fu, 0x8EBEEFF9u, 0x17B7BE43u, 0x60B08ED5u,
    0xD6D6A3E8u, 0xA1D1937Eu, 0x38D8C2C4u, 0x4FDFF252u, 0xD1BB67F1u,
    0xA6BC5767u, 0x3FB506DDu, 0x48B2364Bu, 0xD80D2BDAu, 0xAF0A1B4Cu,
    0x36034AF6u, 0x41047A60u, 0xDF60EFC3u, 0xA867DF55u, 0x316E8EEFu,
    0x4669BE79u, 0xCB61B38Cu, 0xBC66831Au, 0x256FD2A0u, 0x5268E236u,
    0xCC0C7795u, 0xBB0B4703u, 0x220216B9u, 0x5505262Fu, 0xC5BA3BBEu,
    0xB2BD0B28u, 0x2BB45A92u, 0x5CB36A04u, 0xC2D7FFA7u, 0xB5D0CF31u,
    0x2CD99E8Bu, 0x5BDEAE1Du, 0x9B64C2B0u, 0xEC63F226u, 0x756AA39Cu,
    0x026D930Au, 0x9C0906A9u, 0xEB0E363Fu, 0x72076785u, 0x05005713u,
    0x95BF4A82u, 0xE2B87A14u, 0x7BB12BAEu, 0x0CB61B38u, 0x92D28E9Bu,
    0xE5D5BE0Du, 0x7CDCEFB7u, 0x0BDBDF21u, 0x86D3D2D4u, 0xF1D4E242u,
    0x68DDB3F8u, 0x1FDA836Eu, 0x81BE16CDu, 0xF6B9265Bu, 0x6FB077E1u,
    0x18B74777u, 0x88085AE6u, 0xFF0F6A70u, 0x66063BCAu, 0x11010B5Cu,
    0x8F659EFFu, 0xF862AE69u, 0x616BFFD3u, 0x166CCF45u, 0xA00AE278u,
    0xD70DD2EEu, 0x4E048354u, 0x3903B3C2u, 0xA7672661u, 0xD06016F7u,
    0x4969474Du, 0x3E6E77DBu, 0xAED16A4Au, 0xD9D65ADCu, 0x40DF0B66u,
    0x37D83BF0u, 0xA9BCAE53u, 0xDEBB9EC5u, 0x47B2CF7Fu, 0x30B5FFE9u,
    0xBDBDF21Cu, 0xCABAC28Au, 0x53B39330u, 0x24B4A3A6u, 0xBAD03605u,
    0xCDD70693u, 0x54DE5729u, 0x23D967BFu, 0xB3667A2Eu, 0xC4614AB8u,
    0x5D681B02u, 0x2A6F2B94u, 0xB40BBE37u, 0xC30C8EA1u, 0x5A05DF1Bu,
    0x2D02EF8Du};

/* The register after its low byte is shifted through (c a variable). */
#define CRC_BYTE(c) (crc_table[(c)&0xFFu] ^ ((c) >> 8))

uint32_t img_crc32(uint32_t crc, const void *p, size_t n)
{
    const uint8_t *b = p;
    crc = ~crc;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* a word's bytes, low first, are the next four bytes */
    for (; n > 0 && ((uintptr_t)b & 3u) != 0; n--) {
        crc ^= *b++;
        crc = CRC_BYTE(crc);
    }
    for (; n >= 4; n -= 4, b += 4) {
        uint32_t w;
        memcpy(&w, b, 4);
        crc ^= w;
        crc = CRC_BYTE(crc);
        crc = CRC_BYTE(crc);
        crc = CRC_BYTE(crc);
        crc = CRC_BYTE(crc);
    }
#endif
    for (; n > 0; n--) {
        crc ^= *b++;
        crc = CRC_BYTE(crc);
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
        /* img_crc32 of each string's bytes in turn, in one register
         * (calls for each part took a tenth of an image's start-up) */
        uint32_t c = ~0u;
        for (uint32_t i = 0; i < ROMSTR_COUNT; i++) {
            const str *s = romstr_ptrs[i];
            uintptr_t addr = (uintptr_t)s;
            for (unsigned k = 0; k < sizeof addr; k++) {
                c ^= (uint8_t)(addr >> (8 * k));
                c = CRC_BYTE(c);
            }
            c ^= s->shrlen;
            c = CRC_BYTE(c);
            for (unsigned k = 0; k < s->shrlen; k++) {
                c ^= (uint8_t)s->data[k];
                c = CRC_BYTE(c);
            }
        }
        sig = ~c;
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

/* Index of the pointer p in the n pointers of arr, sorted by address
 * (descending when down), or -1. */
static long find_ptr(const void *const *arr, uint32_t n, const void *p,
                     int down)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        uintptr_t a = (uintptr_t)arr[mid];
        if (down ? a > (uintptr_t)p : a < (uintptr_t)p)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && arr[lo] == p ? (long)lo : -1;
}

/* Is s one of this firmware's ROM strings?  romstr_ptrs is in address
 * order when the linker kept romgen's order, in the reverse order when
 * it reversed it (arm-none-eabi-ld does; checked once); otherwise every
 * entry is compared. */
static int rom_string(const str *s)
{
    static int8_t order; /* 0 unknown, 1 ascending, 2 descending, -1 not */
    if (order == 0) {
        int up = 1, down = 1;
        for (uint32_t i = 1; i < ROMSTR_COUNT; i++) {
            uintptr_t a = (uintptr_t)romstr_ptrs[i - 1];
            uintptr_t b = (uintptr_t)romstr_ptrs[i];
            up &= a < b;
            down &= a > b;
        }
        order = up ? 1 : down ? 2 : -1;
    }
    if (order > 0)
        return find_ptr((const void *const *)romstr_ptrs, ROMSTR_COUNT, s,
                        order == 2) >= 0;
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
    if (find_ptr((const void *const *)h->strings, h->nstrings, s, 0) < 0 &&
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

/* The verifier on every prototype, with one scratch block as large as
 * the largest any of them needs to be checked fastest, or when the arena
 * has no room for that, as the largest any of them needs. */
static int verify_all(lua_State *L, check *C)
{
    const img_header *h = C->h;
    size_t need = 0, fast = 0;
    for (uint32_t f = 0; f < h->nprotos; f++) {
        size_t n;
        size_t q = verify_scratchfast(h->protos[f].p, &n);
        need = n > need ? n : need;
        fast = q > fast ? q : fast;
    }
    void *scratch = NULL;
    size_t size = fast;
    if (size > 0)
        scratch = gc_alloc(L, size);
    if (scratch == NULL && need > 0) {
        size = need;
        scratch = gc_alloc(L, size);
        if (scratch == NULL)
            return refuse(C, "not enough memory to check it");
    }
    int ok = 1;
    for (uint32_t f = 0; f < h->nprotos && ok; f++) {
        const img_entry *e = &h->protos[f];
        const proto *parent =
            e->parent == IMG_NONE ? NULL : h->protos[e->parent].p;
        int pc = -1;
        const char *why = verify_proto(e->p, parent, scratch, size, &pc);
        if (why != NULL)
            ok = pc >= 0 ? refuse(C,
                                  "function %u: %s at instruction %d of the "
                                  "function at line %ld",
                                  (unsigned)f, why, pc + 1,
                                  (long)e->p->linedefined)
                         : refuse(C, "function %u: %s", (unsigned)f, why);
    }
    if (scratch != NULL)
        gc_free(G(L), scratch, size);
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
