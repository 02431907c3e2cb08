/*
 * image.h — precompiled applications in flash, executed in place
 * (docs/images.md).
 *
 * An image is one block of bytes made on the host by build/host/rtluac
 * (tools/rtluac.c, tools/imgwrite.c) for one firmware: the prototypes of
 * a set of Lua modules with their code, constants, upvalue descriptions,
 * line information and names, and every string they hold, laid out as
 * ROM objects (headers preset to MARK_ROM_PRESET, `next` NULL, on no
 * list) at the address the image is to lie at.  A prototype in an image
 * is used where it is: a closure made of it is an ordinary RAM closure
 * whose `p` points into flash.  Because the objects are ROM objects the
 * collector never marks, sweeps, traverses or writes them (markobj skips
 * black objects, the barriers ignore a ROM parent), and the image points
 * only at itself and at the firmware's ROM strings.
 *
 * Strings.  A short string equal to one of the firmware's ROM strings is
 * that ROM string (the writer finds its address in the firmware's ELF);
 * the image's other short strings are interned in the image's own lookup
 * table (`slots`, open addressing by strhash_probe, as romgen's) which
 * interning searches after the ROM table and before the RAM one
 * (vm/str.c, str_image_set), so a string equal to an image string is the
 * image string and equality stays pointer equality.  Long strings in an
 * image are never written: str_hash computes their hash at each use
 * instead of caching it.
 *
 * The layout is the firmware's own: the firmware publishes, in the const
 * object rtlua_image_abi (its symbol in the ELF), the offset and width of
 * every field of every struct an image holds and the size and alignment
 * of each struct, computed by its compiler from vm/obj.h and this file;
 * the writer reads that object from the ELF and lays the image out by
 * it.  image.c checks with _Static_assert that the structs have exactly
 * the fields the writer fills (a field added to proto breaks the build
 * there, loudly, instead of being left zero in images).
 *
 * The header (img_header) leads the image:
 *   magic, version         IMG_MAGIC, IMG_VERSION
 *   num                    RTLUA_NUM of the firmware (32 or 64)
 *   abisig                 CRC-32 of the firmware's rtlua_image_abi (its
 *                          integer part): the layout it was made for
 *   romsig                 CRC-32 of the firmware's ROM strings, their
 *                          addresses and bytes (img_romsig): the firmware
 *                          it was made for
 *   size, crc              bytes of the image; CRC-32 of them, this field
 *                          counted as zero
 *   self                   the address the image was made to lie at
 *   modules                nmodules {name, main}, sorted by (length, bytes)
 *   protos                 nprotos {p, parent, depth}: every prototype,
 *                          by increasing address, each after its parent
 *   strings                nstrings string objects, by increasing address
 *   slots                  nslots (a power of 2) uint16 entries: index+1
 *                          of a short string, 0 empty; a lookup probes at
 *                          most maxprobe of them
 *   mainmod                the module run at boot, or IMG_NONE
 *
 * Nothing in an image is trusted: img_check validates magic, version,
 * number model, layout and firmware signatures, the address, the size,
 * the CRC, then every pointer (inside the image, at an object of the
 * right type, aligned, its array inside the image; a string pointer at
 * one of the image's strings or at a ROM string of this firmware), every
 * string (header, terminator, hash, unique), the prototype tree (each
 * nested prototype referenced exactly once, by its parent, nesting at
 * most IMG_MAX_DEPTH deep), and each prototype's bytecode with the
 * verifier binary chunks go through (lang/verify.h).  An image that fails
 * is refused with a message and never used.  The checks read only the
 * image and the firmware's ROM string table; their cost is linear in the
 * image's size (string and prototype references are binary searches).
 */
#ifndef RTLUA_IMAGE_H
#define RTLUA_IMAGE_H

#include "vm/state.h"

#include <stddef.h>
#include <stdint.h>

#define IMG_MAGIC "rtluaIMG"
#define IMG_MAGIC_LEN 8
/* Format version: bumped whenever the header or the rules change. */
#define IMG_VERSION 1
/* No module, no parent. */
#define IMG_NONE 0xFFFFFFFFu
/* Most slots a string lookup in an image probes (the writer doubles the
 * table until every string is found within it). */
#define IMG_MAX_PROBE 16u
/* Deepest nesting of functions (the parser's own bound, LUAI_MAXCCALLS):
 * string.dump recurses this deep. */
#define IMG_MAX_DEPTH 200u
/* Most strings of one image (slots hold uint16 indexes). */
#define IMG_MAX_STRINGS 65535u
/* Header flags. */
#define IMG_F_STRIPPED 1u /* no line information, local or upvalue names */
#define IMG_F_ALL IMG_F_STRIPPED
/* On the host the image region is at a fixed address, far above what
 * the program, its mappings and AddressSanitizer's shadow use: the
 * program maps an image file there (rtlua --image=FILE). */
#define IMG_HOST_BASE 0x2a0000000000ull
#define IMG_HOST_BYTES (256ull << 20)
/* rtlua_image_abi.magic: also tells the byte order. */
#define IMG_ABI_MAGIC 0x49424154u

typedef struct img_module {
    const str *name;
    const proto *main; /* the module's main function */
} img_module;

typedef struct img_entry {
    const proto *p;
    uint32_t parent; /* index of the enclosing prototype, or IMG_NONE */
    uint32_t depth;  /* 0 for a main function, parent's + 1 */
} img_entry;

typedef struct img_header {
    char magic[IMG_MAGIC_LEN];
    uint32_t version;
    uint32_t num;
    uint32_t abisig;
    uint32_t romsig;
    uint32_t size;
    uint32_t crc;
    uint32_t flags;
    uint32_t nmodules;
    uint32_t nprotos;
    uint32_t nstrings;
    uint32_t nslots;
    uint32_t maxprobe;
    uint32_t mainmod;
    uint32_t reserved; /* 0 */
    const struct img_header *self;
    const img_module *modules;
    const img_entry *protos;
    const str *const *strings;
    const uint16_t *slots;
} img_header;

/* The fields an image holds, (id, kind, struct, member): kind P is a
 * pointer, I an integer (two's complement, little-endian, the width the
 * firmware reports), B bytes.  The writer fills exactly these. */
#define IMG_FIELDS(X)                                                         \
    X(OBJ_NEXT, P, str, next)                                                 \
    X(OBJ_TT, I, str, tt)                                                     \
    X(OBJ_MARKED, I, str, marked)                                             \
    X(STR_EXTRA, I, str, extra)                                               \
    X(STR_SHRLEN, I, str, shrlen)                                             \
    X(STR_HASH, I, str, hash)                                                 \
    X(STR_LNGLEN, I, str, u.lnglen)                                           \
    X(TV_VALUE, B, tvalue, v)                                                 \
    X(TV_TT, I, tvalue, tt)                                                   \
    X(P_NUMPARAMS, I, proto, numparams)                                       \
    X(P_ISVARARG, I, proto, is_vararg)                                        \
    X(P_MAXSTACK, I, proto, maxstacksize)                                     \
    X(P_SIZEUPV, I, proto, sizeupvalues)                                      \
    X(P_SIZEK, I, proto, sizek)                                               \
    X(P_SIZECODE, I, proto, sizecode)                                         \
    X(P_SIZELINE, I, proto, sizelineinfo)                                     \
    X(P_SIZEP, I, proto, sizep)                                               \
    X(P_SIZELOC, I, proto, sizelocvars)                                       \
    X(P_SIZEABS, I, proto, sizeabslineinfo)                                   \
    X(P_LINEDEF, I, proto, linedefined)                                       \
    X(P_LASTLINE, I, proto, lastlinedefined)                                  \
    X(P_K, P, proto, k)                                                       \
    X(P_CODE, P, proto, code)                                                 \
    X(P_P, P, proto, p)                                                       \
    X(P_UPV, P, proto, upvalues)                                              \
    X(P_LINEINFO, P, proto, lineinfo)                                         \
    X(P_ABSLINE, P, proto, abslineinfo)                                       \
    X(P_LOCVARS, P, proto, locvars)                                           \
    X(P_SOURCE, P, proto, source)                                             \
    X(P_GCLIST, P, proto, gclist)                                             \
    X(U_NAME, P, upvaldesc, name)                                             \
    X(U_INSTACK, I, upvaldesc, instack)                                       \
    X(U_IDX, I, upvaldesc, idx)                                               \
    X(U_KIND, I, upvaldesc, kind)                                             \
    X(L_NAME, P, locvar, name)                                                \
    X(L_START, I, locvar, startpc)                                            \
    X(L_END, I, locvar, endpc)                                                \
    X(A_PC, I, absline, pc)                                                   \
    X(A_LINE, I, absline, line)                                               \
    X(H_MAGIC, B, img_header, magic)                                          \
    X(H_VERSION, I, img_header, version)                                      \
    X(H_NUM, I, img_header, num)                                              \
    X(H_ABISIG, I, img_header, abisig)                                        \
    X(H_ROMSIG, I, img_header, romsig)                                        \
    X(H_SIZE, I, img_header, size)                                            \
    X(H_CRC, I, img_header, crc)                                              \
    X(H_FLAGS, I, img_header, flags)                                          \
    X(H_NMOD, I, img_header, nmodules)                                        \
    X(H_NPROTO, I, img_header, nprotos)                                       \
    X(H_NSTR, I, img_header, nstrings)                                        \
    X(H_NSLOT, I, img_header, nslots)                                         \
    X(H_MAXPROBE, I, img_header, maxprobe)                                    \
    X(H_MAIN, I, img_header, mainmod)                                         \
    X(H_RESERVED, I, img_header, reserved)                                    \
    X(H_SELF, P, img_header, self)                                            \
    X(H_MODS, P, img_header, modules)                                         \
    X(H_PROTOS, P, img_header, protos)                                        \
    X(H_STRS, P, img_header, strings)                                         \
    X(H_SLOTS, P, img_header, slots)                                          \
    X(M_NAME, P, img_module, name)                                            \
    X(M_MAIN, P, img_module, main)                                            \
    X(E_PROTO, P, img_entry, p)                                               \
    X(E_PARENT, I, img_entry, parent)                                         \
    X(E_DEPTH, I, img_entry, depth)

/* The structs, (id, type, size): their sizes and alignments.  A
 * string's size is its header's, up to its bytes. */
#define IMG_TYPES(X)                                                          \
    X(STR, str, offsetof(str, data))                                          \
    X(TVALUE, tvalue, sizeof(tvalue))                                         \
    X(PROTO, proto, sizeof(proto))                                            \
    X(UPVALDESC, upvaldesc, sizeof(upvaldesc))                                \
    X(LOCVAR, locvar, sizeof(locvar))                                         \
    X(ABSLINE, absline, sizeof(absline))                                      \
    X(INSTR, instr, sizeof(instr))                                            \
    X(PTR, proto *, sizeof(proto *))                                          \
    X(HEADER, img_header, sizeof(img_header))                                 \
    X(MODULE, img_module, sizeof(img_module))                                 \
    X(ENTRY, img_entry, sizeof(img_entry))

#define IMG_FIELD_ID(id, kind, type, member) IMGF_##id,
enum { IMG_FIELDS(IMG_FIELD_ID) IMG_NFIELDS };
#undef IMG_FIELD_ID
#define IMG_TYPE_ID(id, type, size) IMGT_##id,
enum { IMG_TYPES(IMG_TYPE_ID) IMG_NTYPES };
#undef IMG_TYPE_ID

/* What a firmware tells the image writer about itself (rtlua_image_abi,
 * read from its ELF).  Everything up to `regionoff` is integers, the
 * same bytes on the host and on the board: its CRC-32 is the layout
 * signature (img_abisig).  The pointers after it say where images go. */
typedef struct img_abi {
    uint32_t magic;     /* IMG_ABI_MAGIC */
    uint32_t version;   /* IMG_VERSION */
    uint32_t nfields;   /* IMG_NFIELDS */
    uint32_t ntypes;    /* IMG_NTYPES */
    uint32_t romcount;  /* ROM strings (ROMSTR_COUNT) */
    uint32_t num;       /* RTLUA_NUM */
    uint32_t ptrsize;   /* bytes of a pointer */
    uint32_t regionoff; /* offsetof(img_abi, region) */
    uint16_t off[IMG_NFIELDS];
    uint16_t width[IMG_NFIELDS];
    uint16_t size[IMG_NTYPES];
    uint16_t align[IMG_NTYPES];
    /* Where an image must lie: [region, regionend). */
    const void *region;
    const void *regionend;
    /* The ROM strings, by index (romstr_ptrs). */
    const str *const *romptrs;
} img_abi;

/* This firmware's layout (the writer reads it from the ELF by name). */
extern const img_abi rtlua_image_abi;

/* CRC-32 (IEEE, reflected) of n bytes, continuing from crc (0 to start). */
uint32_t img_crc32(uint32_t crc, const void *p, size_t n);
/* The layout signature of a descriptor: CRC-32 of its integer part. */
uint32_t img_abisig(const img_abi *abi);
/* This firmware's ROM-string signature: CRC-32 of, for each ROM string in
 * index order, its address (ptrsize bytes, little-endian), its length
 * byte and its bytes (computed once, then kept). */
uint32_t img_romsig(void);

/* Bytes of message room img_check writes into. */
#define IMG_MSG_MAX 160

/* Validate the image at p, of which len bytes are readable; NULL when it
 * may be used, else the reason, written into msg (IMG_MSG_MAX bytes).
 * Allocates a scratch array for the verifier from L's arena and frees it
 * before returning (a failed allocation refuses the image). */
const char *img_check(lua_State *L, const void *p, size_t len, char *msg);
/* img_check, then attach the image to L's state: its strings are
 * interned, its modules found by require.  Must come before anything made
 * a RAM string equal to one of the image's (right after the state is
 * opened); a second image replaces none (refused). */
const char *img_attach(lua_State *L, const void *p, size_t len, char *msg);

/* The attached image's module of that name, or NULL. */
const img_module *img_findmodule(lua_State *L, const char *name, size_t len);
/* Push a closure of the main function of m, its first upvalue (_ENV)
 * the globals, the others fresh: what load gives for a chunk.  Raises a
 * memory error. */
void img_pushmodule(lua_State *L, const img_module *m);

#endif
