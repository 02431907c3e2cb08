/*
 * imgwrite.h — the flash-image writer, a host library (rtluac, the unit
 * tests, the fuzzer): it lays prototypes compiled by this program out as
 * an image (lang/image.h) for a firmware whose layout it is told.
 *
 * The target is what the firmware publishes in rtlua_image_abi (its
 * field offsets and widths, struct sizes and alignments, pointer size and
 * number model), the address the image will lie at, and the firmware's
 * ROM strings (its own set: a build with user C modules has more), their
 * bytes and addresses.  The prototypes must have
 * been compiled in the firmware's number model (this program's: the
 * caller checks).  The writer allocates with malloc; it is not part of
 * any firmware.
 */
#ifndef RTLUA_IMGWRITE_H
#define RTLUA_IMGWRITE_H

#include "lang/image.h"

#include <stddef.h>
#include <stdint.h>

typedef struct imgw_target {
    uint32_t num;     /* RTLUA_NUM of the firmware */
    uint32_t ptrsize; /* 4 or 8 */
    uint16_t off[IMG_NFIELDS];
    uint16_t width[IMG_NFIELDS];
    uint16_t size[IMG_NTYPES];
    uint16_t align[IMG_NTYPES];
    uint32_t abisig;            /* img_abisig of its descriptor */
    uint32_t romsig;            /* img_romsig as it computes it */
    uint64_t base;              /* where the image will lie */
    uint64_t capacity;          /* bytes it may take there */
    uint32_t romcount;          /* its ROM strings (a build's own set) */
    const uint64_t *romaddr;    /* their addresses, by index */
    const char *const *romdata; /* their bytes */
    const uint8_t *romlen;      /* their lengths */
} imgw_target;

typedef struct imgw_module {
    const char *name;  /* "filter", "sub.mod" */
    const proto *main; /* its compiled main function */
} imgw_module;

/* Fill t from a descriptor (its bytes as the firmware holds them, len of
 * them available: at least its integer part, up to regionoff).  NULL, or
 * what is wrong. */
const char *imgw_target_from(imgw_target *t, const void *abi, size_t len);

/* This program as the target: its own descriptor and ROM strings, the
 * image to lie at base (capacity bytes).  The ROM strings' tables are
 * static: one such target at a time. */
void imgw_target_self(imgw_target *t, uint64_t base, uint64_t capacity);

/* Lay out and write the image of the n modules (mainmod the index of the
 * one run at boot, or -1), without line information, local and upvalue
 * names and source names when strip.  Returns the bytes (malloc'd, *size
 * of them), or NULL with the reason in err (errcap bytes). */
uint8_t *imgw_write(const imgw_target *t, const imgw_module *mods, int n,
                    int mainmod, int strip, size_t *size, char *err,
                    size_t errcap);

#endif
