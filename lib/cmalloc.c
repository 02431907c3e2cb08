/*
 * cmalloc.c — malloc, calloc, realloc and free for C modules on the
 * boards, in blocks of the open state's arena.
 *
 * A board has one heap, the arena (newlib's own allocator gets nothing:
 * port/cortex-m/syscalls.c's _sbrk fails).  Third-party modules written
 * for lua5.4 call malloc for their own buffers (lua-cjson's string
 * buffers), so these take arena blocks as the runtime's allocations do:
 * through rtlua_alloc (include/rtlua.h), hence through a lua_setallocf
 * wrapper, with the emergency collection when the arena is full, counted
 * by the pacer and, as C code's blocks, by gc_check.  They
 * fail with NULL and ENOMEM when the arena cannot hold the block, or
 * when no state is open.
 *
 * Only the plain names are defined, never newlib's reentrant _malloc_r
 * family: newlib's own callers (stdio buffers, printf's float
 * conversion) keep failing as before, since what they cache in static
 * state would outlive the state whose arena it came from.  The same
 * holds for a module: a block lives no longer than the state; after
 * lua_close its pointer is dangling.  Not for interrupt handlers (the
 * arena is not reentrant).  The host keeps the C library's malloc.
 */
#ifndef RTLUA_HOST

#include "rtlua.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Each block begins with the size that was asked for, so realloc gets
 * exact sizes; a whole alignment unit, so the caller's part stays
 * aligned as malloc's must (8 bytes). */
#define CMALLOC_HEAD RTLUA_ALLOC_ALIGN

_Static_assert(CMALLOC_HEAD >= sizeof(size_t), "the size fits the head");

/* The largest size asked for that the head and the rounding cannot
 * overflow. */
#define CMALLOC_MAX (SIZE_MAX - CMALLOC_HEAD - RTLUA_ALLOC_ALIGN)

static size_t *head_of(void *p)
{
    return (size_t *)(void *)((char *)p - CMALLOC_HEAD);
}

void *malloc(size_t n)
{
    lua_State *L = rtlua_current();
    if (L == NULL || n > CMALLOC_MAX) {
        errno = ENOMEM;
        return NULL;
    }
    size_t *b = rtlua_alloc(L, NULL, 0, n + CMALLOC_HEAD);
    if (b == NULL) {
        errno = ENOMEM;
        return NULL;
    }
    *b = n;
    return (char *)b + CMALLOC_HEAD;
}

void free(void *p)
{
    lua_State *L = rtlua_current();
    if (p == NULL || L == NULL)
        return;
    size_t *b = head_of(p);
    rtlua_alloc(L, b, *b + CMALLOC_HEAD, 0);
}

void *calloc(size_t count, size_t size)
{
    if (size != 0 && count > SIZE_MAX / size) {
        errno = ENOMEM;
        return NULL;
    }
    void *p = malloc(count * size);
    if (p != NULL)
        memset(p, 0, count * size);
    return p;
}

void *realloc(void *p, size_t n)
{
    lua_State *L = rtlua_current();
    if (p == NULL)
        return malloc(n);
    if (L == NULL || n > CMALLOC_MAX) {
        errno = ENOMEM;
        return NULL;
    }
    size_t *b = head_of(p);
    size_t *nb = rtlua_alloc(L, b, *b + CMALLOC_HEAD, n + CMALLOC_HEAD);
    if (nb == NULL) {
        errno = ENOMEM;
        return NULL; /* p is as it was */
    }
    *nb = n;
    return (char *)nb + CMALLOC_HEAD;
}

#endif /* RTLUA_HOST */
