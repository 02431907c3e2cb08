/*
 * strhash.h — the one string hash (and the integer key mixer, at the
 * end), header-only so that the runtime
 * (vm/str.c) and the build-time ROM generator (tools/romgen.c, a host
 * program) compile the same code: a ROM string's hash is computed on the
 * build machine and must equal what the target computes for the same
 * bytes.  So the result depends only on the bytes and the length, never
 * on the word size, the byte order or a per-state seed.
 *
 * Method: the state starts at STR_SEED xor the length.  Four bytes at a
 * time are assembled little-endian (byte loads, so unaligned data and
 * big-endian hosts give the same value), xored into the state, which is
 * then multiplied by an odd constant (the golden ratio in 32 bits) and
 * folded with a right xor-shift; the 0-3 tail bytes go the same way one
 * at a time.  Each round is a bijection of the state, so no input byte is
 * lost before the next one arrives.  A final multiply and two xor-shifts
 * spread every input bit into the low bits, which pick the bucket.
 *
 * Every byte is hashed (no sampling): long strings differing anywhere
 * hash differently in general, and the cost, O(len), is paid once per long
 * string (the hash is cached) and is bounded by STR_SHORT_MAX for short
 * ones.
 */
#ifndef RTLUA_STRHASH_H
#define RTLUA_STRHASH_H

#include <stddef.h>
#include <stdint.h>

/* Fixed, not per state: ROM strings are hashed at build time. */
#define STR_SEED 0x2545F491u

#define STRHASH_MUL 0x9E3779B1u /* rounds: 2^32 / golden ratio, odd */
#define STRHASH_FIN 0x85A308D3u /* finaliser: digits of pi, odd */

static inline uint32_t strhash_compute(const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    uint32_t h = STR_SEED ^ (uint32_t)len;
    while (len >= 4) {
        uint32_t w = (uint32_t)p[0] | (uint32_t)p[1] << 8 |
                     (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
        h = (h ^ w) * STRHASH_MUL;
        h ^= h >> 15;
        p += 4;
        len -= 4;
    }
    while (len > 0) {
        h = (h ^ *p++) * STRHASH_MUL;
        h ^= h >> 15;
        len--;
    }
    h ^= h >> 16;
    h *= STRHASH_FIN;
    h ^= h >> 13;
    return h;
}

/* The integer mixer of table keys (vm/tab.c), here for the same reason:
 * tools/romgen places integer keys of ROM tables at build time.  Two
 * multiply-xorshift rounds: every input bit reaches the low bits that a
 * power-of-two mask keeps. */
static inline uint32_t hash_mix32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x9E3779B1u;
    x ^= x >> 15;
    x *= 0x85EBCA77u;
    x ^= x >> 13;
    return x;
}

#endif
