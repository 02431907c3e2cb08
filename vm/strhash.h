/*
 * strhash.h — the string hashes, and the integer key mixer (at the end).
 * Header-only, so that the runtime (vm/str.c) and the build-time ROM
 * generator (tools/romgen.c, a host program) compile the same code.
 * Results depend only on the bytes, the length and (RAM) the key, never
 * on the word size, the byte order or the alignment.
 *
 * Two hashes.  ROM strings carry strhash_probe's value, computed by
 * romgen: keyless, public and fixed, since it is stored in flash, places
 * them in the ROM lookup slots and lays out the ROM tables.  RAM strings
 * carry strhash_compute's under a key made at state creation from
 * port_entropy() (a per-boot seed: vm/str.c), so an attacker who knows
 * the firmware cannot build, ahead of time, many strings that share a
 * hash and make every new string's interning walk one long chain.  The
 * two never need to agree: a short string equal to a ROM string *is*
 * the ROM object (interning probes ROM first, which needs no key), so
 * equal short strings have one hash, the object's own, and no long
 * string is in ROM (vm/str.h has the whole argument).
 *
 * strhash_compute.  The bytes are read as little-endian 32-bit words
 * (byte loads, which compilers merge), in blocks of STRHASH_BLOCK bytes.
 * A block is compressed by NH: the sum, mod 2^64, of (w[2i] + k[2i]) *
 * (w[2i+1] + k[2i+1]) over its word pairs, each sum mod 2^32, each
 * product exact in 64 bits; a partial block's last pair is its last 8
 * bytes (overlapping the previous pair), and blocks of 4-7 and of 1-3
 * bytes are read as two overlapping words and as one word of three
 * bytes.  For a given length distinct bytes give distinct words, and for
 * a uniformly random key two distinct word sequences of one length
 * collide under NH with probability at most 2^-32 (NH is almost
 * universal: Black et al., UMAC, 1999): no pair of strings collides for
 * every key, which is what a per-boot key needs.  (The former
 * multiply-xorshift hash let a flip of a word's top bit be cancelled by
 * the next word whatever the seed; tests/unit/test_str.c shows it.)
 * Each block's 64-bit value is folded into a 32-bit state that starts at
 * a key word xor the length; a final multiply and xor-shifts spread
 * every bit into the low bits, which pick the bucket.
 *
 * Long strings are sampled.  A string of at most STRHASH_BLOCK *
 * STRHASH_SAMPLE_BLOCKS (1,280) bytes is hashed whole; a longer one by
 * STRHASH_SAMPLE_BLOCKS blocks spread evenly from its first byte to its
 * last, plus its length: at most 1,280 bytes whatever its size (a 1 MB
 * key cost 1.5 ms on a 25 MHz Cortex-M3 when every byte was hashed).
 * Equality stays exact (str_eq compares the bytes).  The trade-off:
 * long strings that differ only between the sampled blocks share their
 * hash for every key, so such strings used as table keys all land on one
 * chain, and each lookup compares bytes (memcmp, up to the first
 * difference) with every one of them.  That is no worse than before:
 * with the former public, fixed, invertible hash anyone could compute
 * full collisions of long strings, differing in their last word, at a
 * memcmp of their whole length each, and a per-boot key cannot protect
 * bytes that are not read.  Either way a lookup costs at most the total
 * bytes of the colliding keys, bytes the mutator itself had to build at
 * the same O(length) cost, and no string-table chain is involved (long
 * strings are not interned).  Strings up to 1,280 bytes (names, lines,
 * paths, messages) are read whole and keep the keyed protection; natural
 * data that differs only inside longer strings (a counter in the middle
 * of a big buffer) is what sampling degrades.  The key comes from a
 * 32-bit seed: it stops collisions computed in advance, not an attacker
 * who can watch the table order (pairs) and search the seed.
 */
#ifndef RTLUA_STRHASH_H
#define RTLUA_STRHASH_H

#include <stddef.h>
#include <stdint.h>

/* Bytes of one NH block; STR_SHORT_MAX fits in one (vm/str.c checks). */
#define STRHASH_BLOCK 40u
/* Key words a block uses: one per 4-byte word. */
#define STRHASH_BLOCK_KEYS (STRHASH_BLOCK / 4u)
/* Key words: a block's, and one for the initial state. */
#define STRHASH_KEY_WORDS (STRHASH_BLOCK_KEYS + 1u)
/* Blocks a long string's hash reads at most: the bound of its cost
 * (1,280 bytes, about 1,500 instructions on a Cortex-M3). */
#define STRHASH_SAMPLE_BLOCKS 32u

#define STRHASH_MUL 0x9E3779B1u /* 2^32 / golden ratio, odd */
#define STRHASH_FIN 0x85A308D3u /* digits of pi, odd */
#define STRHASH_MIX 0x85EBCA77u /* odd, also in hash_mix32 */

_Static_assert(STRHASH_BLOCK % 8u == 0, "a block is whole word pairs");
_Static_assert(STRHASH_SAMPLE_BLOCKS >= 2, "the first and last blocks");

typedef struct strhash_key {
    uint32_t w[STRHASH_KEY_WORDS];
} strhash_key;

/* The key of a seed: successive outputs of a Weyl sequence through a
 * multiply-xorshift bijection, so distinct seeds give distinct keys. */
static inline void strhash_key_init(strhash_key *k, uint32_t seed)
{
    uint32_t x = seed;
    for (unsigned i = 0; i < STRHASH_KEY_WORDS; i++) {
        x += STRHASH_MUL;
        uint32_t z = (x ^ (x >> 16)) * STRHASH_MIX;
        z = (z ^ (z >> 13)) * STRHASH_FIN;
        k->w[i] = z ^ (z >> 16);
    }
}

static inline uint32_t strhash_le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

/* One NH term: the pair of words at p and p + 4 (each plus its key word,
 * mod 2^32), multiplied exactly. */
static inline uint64_t strhash_pair(const uint32_t *k, const unsigned char *p,
                                    const unsigned char *q)
{
    return (uint64_t)(uint32_t)(strhash_le32(p) + k[0]) *
           (uint32_t)(strhash_le32(q) + k[1]);
}

/* NH of n bytes, 0 <= n <= STRHASH_BLOCK, with key words k. */
static inline uint64_t strhash_block(const uint32_t *k, const unsigned char *p,
                                     size_t n)
{
    if (n >= 8) {
        const unsigned char *last = p + n - 8;
        uint64_t acc = 0;
        for (; p < last; p += 8, k += 2)
            acc += strhash_pair(k, p, p + 4);
        return acc + strhash_pair(k, last, last + 4);
    }
    if (n >= 4)
        return strhash_pair(k, p, p + n - 4);
    if (n > 0) {
        uint32_t w = (uint32_t)p[0] | (uint32_t)p[n / 2] << 8 |
                     (uint32_t)p[n - 1] << 16;
        return (uint64_t)(uint32_t)(w + k[0]) * (k[1] | 1u);
    }
    return 0;
}

/* Fold 64 bits into the state: two rounds, each a bijection of the state
 * for a given input word. */
static inline uint32_t strhash_fold(uint32_t h, uint64_t v)
{
    h = (h ^ (uint32_t)v) * STRHASH_MUL;
    h ^= h >> 15;
    h = (h ^ (uint32_t)(v >> 32)) * STRHASH_FIN;
    h ^= h >> 13;
    return h;
}

static inline uint32_t strhash_final(uint32_t h)
{
    h ^= h >> 16;
    h *= STRHASH_MIX;
    h ^= h >> 15;
    return h;
}

/* The hash of len bytes under key k (see the top of this file). */
static inline uint32_t strhash_compute(const strhash_key *k, const char *s,
                                       size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    uint32_t h = k->w[STRHASH_BLOCK_KEYS] ^ (uint32_t)len;
    if (len <= STRHASH_BLOCK)
        return strhash_final(strhash_fold(h, strhash_block(k->w, p, len)));
    size_t last = len - STRHASH_BLOCK;
    if (len <= (size_t)STRHASH_BLOCK * STRHASH_SAMPLE_BLOCKS) {
        for (size_t at = 0; at < last; at += STRHASH_BLOCK)
            h = strhash_fold(h, strhash_block(k->w, p + at, STRHASH_BLOCK));
    } else {
        size_t stride = last / (STRHASH_SAMPLE_BLOCKS - 1);
        for (size_t i = 0; i < STRHASH_SAMPLE_BLOCKS - 1; i++)
            h = strhash_fold(
                h, strhash_block(k->w, p + i * stride, STRHASH_BLOCK));
    }
    h = strhash_fold(h, strhash_block(k->w, p + last, STRHASH_BLOCK));
    return strhash_final(strhash_fold(h, (uint64_t)len));
}

/* The ROM strings' hash (their lookup slots and their places in ROM
 * tables, both laid out at build time): no key, so it serves whatever
 * key RAM strings get; cheap (the first and the last 4 bytes, or the 1-3
 * bytes, and the length: one multiply more than the loads), and it
 * spreads the few hundred ROM strings well enough (romgen computes the
 * longest probe, ROMSTR_MAX_PROBE).  A RAM string that an attacker makes
 * probe like ROM strings costs at most ROMSTR_MAX_PROBE slots, and no
 * new string can join them. */
static inline uint32_t strhash_probe(const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    uint32_t a = 0, b = 0;
    if (len >= 4) {
        a = strhash_le32(p);
        b = strhash_le32(p + len - 4);
    } else if (len > 0) {
        a = (uint32_t)p[0] | (uint32_t)p[len / 2] << 8 |
            (uint32_t)p[len - 1] << 16;
    }
    uint32_t x = (a ^ b * STRHASH_MUL ^ (uint32_t)len) * STRHASH_MIX;
    return x ^ (x >> 16);
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
