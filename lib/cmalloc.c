/*
 * cmalloc.c — malloc, calloc, realloc and free for C modules on the
 * boards, in blocks of the open state's arena.
 *
 * A board has one heap, the arena (newlib's own allocator gets nothing:
 * port/cortex-m/syscalls.c's _sbrk fails).  Third-party modules written
 * for lua5.4 call malloc for their own buffers (lua-cjson's string
 * buffers), so these take arena blocks as the runtime's allocations do:
 * through gc_alloc, hence through a lua_setallocf wrapper, with the
 * emergency collection when the arena is full (gc/gc.h), counted by the
 * pacer and, as C code's blocks, by gc_check (g->cblockbytes).  They
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

#include "gc/gc.h"
#include "vm/state.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Each block begins with the size that was asked for, so realloc and
 * the lua_setallocf wrapper get exact sizes; a whole alignment unit,
 * so the caller's part stays aligned as malloc's must (8 bytes). */
#define CMALLOC_HEAD ARENA_ALIGN

_Static_assert(CMALLOC_HEAD >= sizeof(size_t), "the size fits the head");

static size_t block_cost(global_State *g, const void *p)
{
    return arena_cost(g->arena, p);
}

/* The bytes asked of the arena for n of the caller's: whole alignment
 * units, since a page's slot of another size is only 4-aligned (an
 * arena with pages, gc/arena.h). */
static size_t block_bytes(size_t n)
{
    return (n + CMALLOC_HEAD + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
}

static size_t *head_of(void *p)
{
    return (size_t *)(void *)((char *)p - CMALLOC_HEAD);
}

void *malloc(size_t n)
{
    lua_State *L = state_current();
    if (L == NULL || n > SIZE_MAX - CMALLOC_HEAD - ARENA_ALIGN) {
        errno = ENOMEM;
        return NULL;
    }
    size_t *b = gc_alloc(L, block_bytes(n));
    if (b == NULL) {
        errno = ENOMEM;
        return NULL;
    }
    G(L)->cblockbytes += block_cost(G(L), b);
    *b = n;
    return (char *)b + CMALLOC_HEAD;
}

void free(void *p)
{
    lua_State *L = state_current();
    if (p == NULL || L == NULL)
        return;
    size_t *b = head_of(p);
    G(L)->cblockbytes -= block_cost(G(L), b);
    gc_free(G(L), b, block_bytes(*b));
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
    lua_State *L = state_current();
    if (p == NULL)
        return malloc(n);
    if (L == NULL || n > SIZE_MAX - CMALLOC_HEAD - ARENA_ALIGN) {
        errno = ENOMEM;
        return NULL;
    }
    global_State *g = G(L);
    size_t *b = head_of(p), was = block_cost(g, b);
    size_t *nb = gc_realloc(L, b, block_bytes(*b), block_bytes(n));
    if (nb == NULL) {
        errno = ENOMEM;
        return NULL; /* p is as it was */
    }
    g->cblockbytes += block_cost(g, nb) - was;
    *nb = n;
    return (char *)nb + CMALLOC_HEAD;
}

#endif /* RTLUA_HOST */
