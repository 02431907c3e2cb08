/*
 * str.h — strings: interning, the incrementally resized string table, ROM
 * strings, and the string-table part of the sweep.
 *
 * Short strings (length <= STR_SHORT_MAX) are interned: two equal short
 * strings are one object, so equality is pointer identity.  The ROM table
 * (generated at build time by tools/romgen: the reserved words of
 * lang/reserved.h, then tools/romstr.txt's metamethod names, library
 * names...) is searched first, then the attached flash image's
 * (lang/image.h: its strings are ROM objects with the same keyless hash,
 * str_image_set), then the RAM table, so a string
 * equal to a ROM or image string *is* that object.  An image's long
 * strings are never written: str_hash computes their hash at each use.  Long
 * strings are never interned; they live on g->allgc like other objects and
 * hash on first use.
 *
 * Hashes (vm/strhash.h).  A ROM string carries the keyless hash that
 * romgen computed (strhash_probe); RAM strings, short and long, are
 * hashed by strhash_compute under a key made by str_init from
 * port_entropy() (a per-boot seed, new at each state_open: the
 * SysTick phase and cycle counter at boot, the RAM's power-up contents
 * and an RNG where the board has one; random on the host).  The two
 * never have to agree:
 *   - The ROM lookup needs no key: interning computes strhash_probe and
 *     looks in the slots romgen laid out with it, before anything else,
 *     so a string equal to a ROM string is always found as the ROM
 *     object, and equality with it stays pointer equality.  Only a
 *     string not in ROM is hashed with the RAM key.
 *   - A table (RAM or ROM) places a short-string key by the key object's
 *     own hash.  Equal short strings are one object, so one hash; a ROM
 *     table's keys are ROM strings, placed at build time with their ROM
 *     hash, and a RAM string is never equal to one of them.
 *   - Long strings are compared by bytes, so equal ones must hash alike:
 *     none is in ROM (romgen makes only short strings), so they all use
 *     the RAM key; a builder's long string of short length hashes as the
 *     short string of its bytes does: the ROM one's hash when its bytes
 *     are a ROM string's, else the RAM key's (same key, same function).
 *
 * Invariants:
 *   - A RAM short string is on exactly one string-table chain (linked by
 *     u.hnext) and on no GC list: its header `next` is NULL, and the string
 *     sweep (str_sweep_unit) is what frees it.  Long strings are on allgc.
 *   - ROM strings are const, in flash, on no list; nothing ever writes
 *     them (every writer here checks str_is_rom first).
 *   - extra: for short strings the reserved-word index + 1 (ROM reserved
 *     words only; every RAM string has 0); for long strings 1 once the
 *     hash is cached.  shrlen is 0xFF exactly for long strings.
 *   - The table is never cleared or rehashed in one operation (growing
 *     or shrinking).  A resize has two stages, each advanced by every
 *     short-string str_new and by str_migrate:
 *     1. Clearing.  Past load factor 1 (nuse >= size) an array twice as
 *        big is allocated, uncleared, and hangs on `old` with
 *        `clearing` = its size, `oldsize` = 0 and `moved` = buckets
 *        cleared so far; each unit clears at most STRTAB_CLEAR_PER_OP of
 *        them.  It holds no string yet: with oldsize 0 no lookup, sweep
 *        or heap check looks into it, and new strings go to `hash`.
 *     2. Migration.  Once cleared it replaces `hash`, the previous array
 *        goes to `old` (oldsize = its size, clearing = 0), and each unit
 *        migrates at most STRTAB_MOVE_PER_OP old buckets (moved ones are
 *        set NULL).  Lookups search `hash` and `old`.  Migration stops
 *        while gcphase == GC_SWEEP_STRING, because a string moved from
 *        the unswept old part to the swept new part would escape the
 *        sweep; clearing does not (it moves no string).
 *     A failed allocation of the bigger array is not an error: the table
 *     stays as it is.  A resize of S to 2S buckets ends after at most
 *     2S/STRTAB_CLEAR_PER_OP + S/STRTAB_MOVE_PER_OP units, before the
 *     insertions it allows reach the next threshold (2S).
 *   - The sweep walks the virtual bucket range [0, oldsize + size): old
 *     buckets first, then the current ones.  Switching arrays during the
 *     sweep keeps every index in place (the array being swept becomes
 *     `old`, at the same indexes; the new one is empty); clearing, with
 *     oldsize 0, changes no index.
 *   - A RAM string of the other white found by interning during the sweep
 *     is resurrected (made current white), so the sweep will keep it.
 *   - Fixed strings (str_fix) are black and FIXED: the sweep leaves them
 *     as they are and they never look dead.
 *
 * Bounds:
 *   str_new (short)   ROM probe of at most ROMSTR_MAX_PROBE slots
 *                     (computed by romgen), hash of <= STR_SHORT_MAX
 *                     bytes (RAM strings only), one or
 *                     two RAM chains, and one resize unit
 *                     (STRTAB_CLEAR_PER_OP buckets cleared or
 *                     STRTAB_MOVE_PER_OP migrated); plus one allocation
 *                     (never cleared: the new bucket array is cleared by
 *                     the units).
 *   str_new (long)    one allocation and a copy of len bytes.
 *   str_hash (long)   at most STRHASH_BLOCK * STRHASH_SAMPLE_BLOCKS
 *                     bytes read (a sample of longer strings), once: the
 *                     hash is cached.
 *   str_sweep_unit    at most GC_SWEEP_STR_MAX buckets, or up to
 *                     GC_SWEEP_STR_SCAN while they hold fewer than
 *                     GC_SWEEP_STR_MAX strings (their chains are as long
 *                     as the load factor makes them: ~1 on average, more
 *                     only when the table could not grow).
 *   str_remove        one chain.
 */
#ifndef RTLUA_STR_H
#define RTLUA_STR_H

#include "vm/state.h"
#include "vm/strhash.h" /* the hashes */

/* Buckets of the first RAM table (a power of 2).  Small: the boards start
 * in a few KiB, and most early strings are in ROM anyway. */
#define STRTAB_MIN_SIZE 32u
/* Old buckets migrated per short-string str_new during a resize.  At 2
 * the migration of S buckets ends after S/2 calls, long before the S
 * insertions that could call for the next resize. */
#define STRTAB_MOVE_PER_OP 2u
/* Buckets of a new array cleared per unit before it is used (256 bytes
 * with 4-byte pointers): the clearing of 2S buckets takes 2S/64 units,
 * during which the S-bucket table takes at most that many more strings
 * (load 1 + 1/32 at worst). */
#define STRTAB_CLEAR_PER_OP 64u
/* The table shrinks when fewer than 1/this of its buckets are used. */
#define STRTAB_SHRINK_DIV 4u
/* Largest bucket count the table grows to (indexes stay in 32 bits). */
#define STRTAB_MAX_SIZE (1u << 30)

/* Bytes of a string object with len bytes of data (NUL included). */
#define str_sizefor(len) (offsetof(str, data) + (len) + 1u)

/* The hash of any byte string under this state's RAM key: what a RAM
 * string of those bytes, short or long, has (a ROM string keeps its
 * keyless one, strhash_probe). */
uint32_t str_hash_bytes(const char *s, size_t len);

/* The first RAM table; 0, or -1 when out of memory. */
int str_init(lua_State *L);

/* The string of those bytes: interned when short, new when long.  NULL
 * on memory failure, with nothing changed.  A ROM result must not be
 * written (str_is_rom). */
str *str_new(lua_State *L, const char *s, size_t len);
str *str_newz(lua_State *L, const char *s);
/* A new long string of len bytes, uninitialised but NUL-terminated, for
 * builders.  It is not interned even when len <= STR_SHORT_MAX: a builder
 * whose result is short should intern it with str_new instead. */
str *str_newlong(lua_State *L, size_t len);
/* Shorten a long string made by str_newlong, that nothing has read yet,
 * to its first len bytes (len <= its length), in place: never copies,
 * never fails. */
void str_shortenlong(lua_State *L, str *s, size_t len);

/* Short: the stored hash; long: computed on first use and cached (a
 * long object of short length whose bytes are a ROM string's takes that
 * string's hash, so that equal strings hash alike). */
uint32_t str_hash(str *s);
/* Byte equality: pointer identity for two short strings. */
int str_eq(const str *a, const str *b);
/* Bytes of the object as allocated (what gc_free is given). */
size_t str_objsize(const str *s);

/* Unlink a RAM short string from the table (it is not freed). */
void str_remove(global_State *g, str *s);

/* The string sweep: start, then units until one returns 1.  *freed grows
 * by the object bytes freed. */
void str_sweep_start(global_State *g);
int str_sweep_unit(lua_State *L, size_t *freed);

/* After the string sweep: when fewer than 1/STRTAB_SHRINK_DIV of the
 * buckets are in use, start migrating to a smaller array (the same
 * incremental migration as growth).  No collection, no error. */
void str_shrink_start(global_State *g);
/* One bounded unit of a resize (STRTAB_CLEAR_PER_OP buckets cleared or
 * STRTAB_MOVE_PER_OP migrated); the collector calls it in its steps so a
 * shrink finishes without new strings being made. */
void str_migrate_(global_State *g);
#define str_migrate(g)                                                        \
    do {                                                                      \
        if ((g)->strt.old != NULL || (g)->strt.clearing != 0)                 \
            str_migrate_(g);                                                  \
    } while (0)
/* Free every RAM short string and the bucket arrays (lua_close). */
void str_freeall(global_State *g);

/* Never collected (e.g. the memory error message); ROM strings already
 * are, and are left untouched. */
void str_fix(str *s);

int str_is_rom(const str *s);
/* The ROM string of those bytes, or NULL (at most ROMSTR_MAX_PROBE
 * slots, found by strhash_probe: no key). */
const str *str_rom_find(const char *s, size_t len);
/* Strings in the ROM table. */
extern const uint32_t str_rom_count;

/* A flash image's strings (lang/image.h): the short string of those
 * bytes among `strings`, found through the lookup slots (index + 1, 0
 * empty; linear probing from h & (nslots - 1), nslots a power of 2, at
 * most maxprobe slots) by h = strhash_probe(s, len); or NULL. */
const str *str_image_lookup(const str *const *strings, const uint16_t *slots,
                            uint32_t nslots, uint32_t maxprobe, const char *s,
                            size_t len, uint32_t h);
/* Intern the image's strings from now on: after the ROM table, before the
 * RAM one.  -1 (nothing changed) when a RAM string equal to one of its
 * short strings exists already: two equal strings would then be two
 * objects. */
int str_image_set(lua_State *L, const str *const *strings, uint32_t n,
                  const uint16_t *slots, uint32_t nslots, uint32_t maxprobe);

#endif
