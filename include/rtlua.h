/*
 * rtlua.h — rtlua's extensions to the C API (prefix rtlua_).
 *
 * Everything here is specific to rtlua and absent from reference Lua: a
 * C module that uses it is an rtlua module.  The collector is
 * incremental and driven by time (DESIGN.md §5); these calls let C code
 * (and the `rt` library's rt.stats()) observe it without reaching into
 * the VM's headers.  Statistics are a copy taken at the call: reading
 * them allocates nothing and runs no collector step.
 */
#ifndef RTLUA_RTLUA_H
#define RTLUA_RTLUA_H

#include <stddef.h>
#include <stdint.h>

#include "lua.h"

/* Buckets of the step-length histogram: bucket i counts steps of
 * [2^i, 2^(i+1)) cycles (the last one also holds everything longer). */
#define RTLUA_GC_HIST_BUCKETS 24

typedef struct rtlua_GCStats {
    uint32_t steps;             /* collector steps run (all kinds) */
    uint32_t worst_step_cycles; /* longest single step, in port cycles */
    uint32_t hist[RTLUA_GC_HIST_BUCKETS]; /* step lengths, log2 buckets */
    uint32_t cycles_completed;            /* full collection cycles */
    uint32_t emergencies;       /* emergency collections (allocation failed) */
    uint32_t assists;           /* steps forced by the low-memory reserve */
    uint64_t bytes_freed;       /* arena bytes returned by the sweeps */
    uint64_t step_cycles_total; /* sum of all step lengths */
    size_t bytes_in_use;        /* arena bytes in use, headers included */
    size_t bytes_free;          /* arena bytes free */
    size_t largest_free;        /* largest block that could be allocated */
    size_t capacity;            /* the arena's size */
} rtlua_GCStats;

/* Copy the collector's statistics of L's state into *out. */
void rtlua_gcstats(lua_State *L, rtlua_GCStats *out);

#endif
