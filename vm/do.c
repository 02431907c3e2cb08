/*
 * do.c — calls, returns, errors, protected calls, stack growth,
 * to-be-closed variables and coroutines (see do.h for the invariants).
 *
 * Errors are longjmp to the innermost lua_longjmp record, which lives
 * in the C frame of do_rawrunprotected.  A protected call remembers the
 * CallInfo, the message handler and the C-call count; unwinding restores
 * them, closes upvalues and to-be-closed variables above the call's level
 * and leaves the error object there.
 *
 * To-be-closed variables are kept in a side array of the thread
 * (L->tbcslots: stack indices, lowest first); L->tbclist points to the top
 * one (or is NULL), so the interpreter can test "any tbc at or above this
 * level" with one comparison.
 *
 * CallInfo records are gc_alloc'ed in blocks (L->ciblocks, newest first:
 * a block holds consecutive records of the ci list) and kept for reuse;
 * L->nci counts them.  do_freeci frees whole blocks above L->ci.  Every
 * thread, the main one included, has its base record as a block of one,
 * made by do_initthread.
 */
#include "vm/do.h"
#include "gc/arena.h"
#include "gc/gc.h"
#include "gc/pace.h"
#include "port/port.h"
#include "vm/debug.h"
#include "vm/func.h"
#include "vm/num.h"
#include "vm/str.h"
#include "vm/tm.h"
#include "vm/vm.h"

#include <setjmp.h>
#include <string.h>

/* Slots allowed past LUAI_MAXSTACK while a "stack overflow" error is
 * handled (the message handler and the unwinding need some). */
#define DO_ERROR_EXTRA 200
#define DO_ERRORSTACKSIZE (LUAI_MAXSTACK + DO_ERROR_EXTRA)
/* C levels allowed past the C-call limit while handling "C stack overflow";
 * beyond them the error becomes LUA_ERRERR. */
#define DO_CCALLS_EXTRA(L) (do_maxccalls(L) / 10 + 1)
/* Most nested calls (CallInfo records) of one thread: "stack overflow"
 * beyond, as when the stack is full.  Lua frames can be 1 slot apart, so
 * without this bound LUAI_MAXSTACK frames would need more arena for their
 * records than the host has; DO_ERROR_EXTRA more are allowed while the
 * error is handled. */
#define DO_MAXCALLS (LUAI_MAXSTACK / 5)
/* CallInfo records per block (one allocation): a block holds as many as
 * are in use, within these bounds.  The bigger blocks make deep recursion
 * cost few allocations; the boards keep a block small. */
#define DO_CIBLOCK_MIN 4
#ifdef RTLUA_HOST
#define DO_CIBLOCK_MAX 1024
#else
#define DO_CIBLOCK_MAX 32
#endif
/* Slots the stack checks' slow path adds to stacklimit beyond what was
 * asked (within stacksize): the dead part atomic clears is at most this
 * much larger than the frames that were there, and a deep recursion
 * takes the slow path once every few calls. */
#define DO_LIMIT_STEP 32
/* Frames do_shrinkthread walks to find the highest frame top; a thread
 * deeper than this keeps its stack (it is using it). */
#define DO_SHRINK_WALK 16
/* CallInfo blocks do_shrinkthread frees at a time. */
#define DO_SHRINK_BLOCKS 4
/* Initial entries of a thread's to-be-closed array. */
#define DO_TBC_INIT 4
/* Bytes of the buffer do_pushvfstring fills before pushing a piece (on
 * the C stack of every error's message: smaller on the boards). */
#ifdef RTLUA_HOST
#define DO_FMT_BUF 128
#else
#define DO_FMT_BUF 40
#endif

struct lua_longjmp {
    struct lua_longjmp *previous;
    jmp_buf b;
    volatile int status;
};

/* ---- Errors ------------------------------------------------------------- */

rt_cold static void seterrorobj(lua_State *L, int status, tvalue *oldtop)
{
    switch (status) {
    case LUA_ERRMEM:
        set_gc(oldtop, G(L)->memerrmsg, V_SHRSTR);
        break;
    case LUA_ERRERR: {
        str *s = str_newz(L, "error in error handling");
        if (s)
            set_gc(oldtop, s, s->tt);
        else
            set_gc(oldtop, G(L)->memerrmsg, V_SHRSTR);
        break;
    }
    case LUA_OK:
        set_nil(oldtop);
        break;
    default:
        set_obj(oldtop, L->top - 1);
        break;
    }
    L->top = oldtop + 1;
}

static void write_cstr(const char *s)
{
    port_write(s, strlen(s));
}

_Noreturn void do_throw(lua_State *L, int status)
{
    if (L->errorJmp != NULL) {
        L->errorJmp->status = status;
        longjmp(L->errorJmp->b, 1);
    }
    global_State *g = G(L);
    lua_State *mainth = &g->mainthread;
    if (L != mainth && mainth->errorJmp != NULL) {
        /* A coroutine without a handler of its own: pass the error on to
         * the main thread's protected call (as the reference does). */
        L->status = (uint8_t)status;
        if (status != LUA_ERRMEM && status != LUA_ERRERR) {
            if (mainth->stack + mainth->stacklimit - mainth->top >
                    1 + DO_EXTRA_STACK ||
                do_trygrowstack(mainth, 1)) {
                set_obj(mainth->top, L->top - 1);
                mainth->top++;
            } else {
                status = LUA_ERRERR; /* no room for the error object */
            }
        }
        mainth->errorJmp->status = status;
        longjmp(mainth->errorJmp->b, 1);
    }
    L->status = (uint8_t)status;
    if (status == LUA_ERRMEM)
        set_gc(L->top - 1, g->memerrmsg, V_SHRSTR);
    if (g->panic != NULL) {
        /* Once: a throw from inside the panic function (its own error)
         * goes straight on to the exit below. */
        int (*panic)(lua_State *) = g->panic;
        g->panic = NULL;
        panic(L);
    }
    const char *msg = "error object is not a string";
    if (L->top > L->stack && is_str(L->top - 1))
        msg = str_data(gco2str(gc_of(L->top - 1)));
    write_cstr("PANIC: unprotected error in call to Lua API (");
    write_cstr(msg);
    write_cstr(")\n");
    port_exit(1);
}

int do_rawrunprotected(lua_State *L, do_pfunc f, void *ud)
{
    uint32_t oldnCcalls = L->nCcalls;
    struct lua_longjmp lj;
    lj.status = LUA_OK;
    lj.previous = L->errorJmp;
    L->errorJmp = &lj;
    if (setjmp(lj.b) == 0)
        f(L, ud);
    L->errorJmp = lj.previous;
    L->nCcalls = oldnCcalls;
    return lj.status;
}

_Noreturn void do_memerror(lua_State *L)
{
    /* The message where there is room for it; without room (the stack
     * could not grow either) the catcher sets it anyway (seterrorobj). */
    if (L->stack + L->stacklimit - L->top > 1 + DO_EXTRA_STACK ||
        do_trygrowstack(L, 1)) {
        set_gc(L->top, G(L)->memerrmsg, V_SHRSTR);
        L->top++;
    }
    do_throw(L, LUA_ERRMEM);
}

static void growstack1(lua_State *L);

/* An error raised short of C stack (port/port.h, kind error) is "C stack
 * overflow", a ROM string: nothing formatted, nothing allocated. */
_Noreturn __attribute__((noinline)) void do_cstackerror(lua_State *L)
{
    growstack1(L);
    set_gc(L->top, G(L)->cstackmsg, V_SHRSTR);
    L->top++;
    dbg_errormsg(L);
}

rt_cold _Noreturn void do_runerror(lua_State *L, const char *fmt, ...)
{
    if (do_cstackshort(error))
        do_cstackerror(L);
    va_list ap;
    va_start(ap, fmt);
    const char *msg = do_pushvfstring(L, fmt, ap);
    va_end(ap);
    CallInfo *ci = L->ci;
    if (ci_isLua(ci)) {
        proto *p = ci_func(ci)->p;
        dbg_addinfo(L, msg, p->source, dbg_currentline(ci));
        set_obj(L->top - 2, L->top - 1); /* the message with its position */
        L->top--;
    }
    dbg_errormsg(L);
}

/* ---- Formatting --------------------------------------------------------- */

struct fmtbuf {
    lua_State *L;
    int pieces; /* strings pushed so far */
    size_t n;   /* bytes in buf */
    char buf[DO_FMT_BUF];
};

static void pushpiece(struct fmtbuf *b, const char *s, size_t len)
{
    lua_State *L = b->L;
    growstack1(L);
    str *ts = str_new(L, s, len);
    if (ts == NULL)
        do_memerror(L);
    set_gc(L->top, ts, ts->tt);
    L->top++;
    b->pieces++;
}

static void flushbuf(struct fmtbuf *b)
{
    if (b->n > 0) {
        pushpiece(b, b->buf, b->n);
        b->n = 0;
    }
}

static void addbytes(struct fmtbuf *b, const char *s, size_t len)
{
    if (len > DO_FMT_BUF / 2) { /* big: a piece of its own */
        flushbuf(b);
        pushpiece(b, s, len);
        return;
    }
    if (b->n + len > DO_FMT_BUF)
        flushbuf(b);
    memcpy(b->buf + b->n, s, len);
    b->n += len;
}

/* Join the pieces at the top into one string. */
static void joinpieces(lua_State *L, int n)
{
    if (n == 1)
        return;
    tvalue *first = L->top - n;
    size_t total = 0;
    for (int i = 0; i < n; i++)
        total += str_len(gco2str(gc_of(first + i)));
    str *ts;
    if (total <= STR_SHORT_MAX) {
        char tmp[STR_SHORT_MAX + 1];
        size_t at = 0;
        for (int i = 0; i < n; i++) {
            str *s = gco2str(gc_of(first + i));
            memcpy(tmp + at, str_data(s), str_len(s));
            at += str_len(s);
        }
        ts = str_new(L, tmp, total);
    } else {
        ts = str_newlong(L, total);
        if (ts != NULL) {
            char *d = str_data(ts);
            for (int i = 0; i < n; i++) {
                str *s = gco2str(gc_of(first + i));
                memcpy(d, str_data(s), str_len(s));
                d += str_len(s);
            }
        }
    }
    if (ts == NULL)
        do_memerror(L);
    set_gc(first, ts, ts->tt);
    L->top = first + 1;
}

static size_t utf8esc(char *buf, unsigned long x)
{
    /* Bytes from the end of an 8-byte buffer, as UTF-8 (up to 6 bytes,
     * 31 bits, as Lua accepts). */
    size_t n = 1;
    if (x < 0x80) {
        buf[7] = (char)x;
        return 1;
    }
    unsigned int mfb = 0x3f; /* largest value fitting the first byte */
    do {
        buf[8 - (n++)] = (char)(0x80 | (x & 0x3f));
        x >>= 6;
        mfb >>= 1;
    } while (x > mfb);
    buf[8 - n] = (char)((~mfb << 1) | x);
    return n;
}

static size_t ptr2str(char *buf, const void *p)
{
    if (p == NULL) {
        memcpy(buf, "(nil)", 5);
        return 5;
    }
    uintptr_t v = (uintptr_t)p;
    char tmp[2 * sizeof(uintptr_t)];
    size_t n = 0;
    while (v) {
        tmp[n++] = "0123456789abcdef"[v & 15u];
        v >>= 4;
    }
    buf[0] = '0';
    buf[1] = 'x';
    for (size_t i = 0; i < n; i++)
        buf[2 + i] = tmp[n - 1 - i];
    return n + 2;
}

/* lua_pushfstring met an unknown conversion: only C code calls it so
 * (the runtime's own formats are fixed), so the message gets no position
 * and is made without formatting (which would lead back here). */
_Noreturn static void badoption(lua_State *L, char c)
{
    static const char pre[] = "invalid option '%",
                      post[] = "' to 'lua_pushfstring'";
    char msg[sizeof pre + sizeof post];
    memcpy(msg, pre, sizeof pre - 1);
    msg[sizeof pre - 1] = c;
    memcpy(msg + sizeof pre, post, sizeof post);
    growstack1(L);
    str *s = str_newz(L, msg);
    if (s == NULL)
        do_memerror(L);
    set_gc(L->top, s, s->tt);
    L->top++;
    dbg_errormsg(L);
}

rt_cold const char *do_pushvfstring(lua_State *L, const char *fmt, va_list ap)
{
    struct fmtbuf b;
    b.L = L;
    b.pieces = 0;
    b.n = 0;
    const char *e;
    while ((e = strchr(fmt, '%')) != NULL) {
        addbytes(&b, fmt, (size_t)(e - fmt));
        char tmp[NUM_TOSTRING_MAX + 8];
        switch (e[1]) {
        case 's': {
            const char *s = va_arg(ap, const char *);
            if (s == NULL)
                s = "(null)";
            addbytes(&b, s, strlen(s));
            break;
        }
        case 'c': {
            char c = (char)va_arg(ap, int);
            addbytes(&b, &c, 1);
            break;
        }
        case 'd': {
            tvalue v;
            set_int(&v, (rt_int)va_arg(ap, int));
            int n = num_tostring(&v, tmp, sizeof tmp);
            addbytes(&b, tmp, (size_t)n);
            break;
        }
        case 'I': {
            tvalue v;
            set_int(&v, (rt_int)va_arg(ap, LUAI_UACINT));
            int n = num_tostring(&v, tmp, sizeof tmp);
            addbytes(&b, tmp, (size_t)n);
            break;
        }
        case 'f': {
            tvalue v;
            set_flt(&v, (rt_num)va_arg(ap, LUAI_UACNUMBER));
            int n = num_tostring(&v, tmp, sizeof tmp);
            addbytes(&b, tmp, (size_t)n);
            break;
        }
        case 'p': {
            size_t n = ptr2str(tmp, va_arg(ap, void *));
            addbytes(&b, tmp, n);
            break;
        }
        case 'U': {
            size_t n = utf8esc(tmp, (unsigned long)va_arg(ap, long));
            addbytes(&b, tmp + 8 - n, n);
            break;
        }
        case '%':
            addbytes(&b, "%", 1);
            break;
        default:
            flushbuf(&b);
            badoption(L, e[1]);
        }
        fmt = e + 2;
    }
    addbytes(&b, fmt, strlen(fmt));
    flushbuf(&b);
    if (b.pieces == 0)
        pushpiece(&b, "", 0);
    joinpieces(L, b.pieces);
    return str_data(gco2str(gc_of(L->top - 1)));
}

const char *do_pushfstring(lua_State *L, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const char *s = do_pushvfstring(L, fmt, ap);
    va_end(ap);
    return s;
}

/* ---- Stack -------------------------------------------------------------- */

static void correctstack(lua_State *L, tvalue *old, tvalue *s)
{
    /* The old block is gone; only the addresses are used, to move every
     * pointer by the same distance. */
    uintptr_t o = (uintptr_t)old;
#define MOVED(p) ((tvalue *)((uintptr_t)(s) + ((uintptr_t)(p)-o)))
    L->top = MOVED(L->top);
    L->lowmark = MOVED(L->lowmark);
    if (L->tbclist)
        L->tbclist = MOVED(L->tbclist);
    for (upval *uv = L->openupval; uv; uv = uv->u.open.next)
        uv->v = MOVED(uv->v);
    for (CallInfo *ci = L->ci; ci != NULL; ci = ci->previous) {
        ci->top = MOVED(ci->top);
        ci->func = MOVED(ci->func);
    }
#undef MOVED
}

/* The stack now at s, of newsize slots (it was at old, oldsize). */
static void movedstack(lua_State *L, tvalue *old, uint32_t oldsize, tvalue *s,
                       uint32_t newsize)
{
    for (uint32_t i = oldsize; i < newsize; i++)
        set_nil(&s[i]);
    L->stack = s;
    L->stacksize = newsize;
    if (L->stacklimit > newsize)
        L->stacklimit = newsize;
    if (L->deadfrom > newsize)
        L->deadfrom = newsize;
    if (s != old)
        correctstack(L, old, s);
}

/* Reallocate to newsize slots; 0 on memory failure (nothing changed). */
static int reallocstack(lua_State *L, uint32_t newsize)
{
    uint32_t oldsize = L->stacksize;
    tvalue *old = L->stack;
    tvalue *s =
        gc_realloc(L, old, sizeof(tvalue) * oldsize, sizeof(tvalue) * newsize);
    if (s == NULL)
        return 0;
    movedstack(L, old, oldsize, s, newsize);
    return 1;
}

/* Shrink to newsize slots (fewer than now): in place, never fails, never
 * collects (gc_shrink). */
static void shrinkstackto(lua_State *L, uint32_t newsize)
{
    uint32_t oldsize = L->stacksize;
    tvalue *old = L->stack;
    movedstack(
        L, old, oldsize,
        gc_shrink(L, old, sizeof(tvalue) * oldsize, sizeof(tvalue) * newsize),
        newsize);
}

/* Hand out slots up to `needed` (and DO_LIMIT_STEP more), within the
 * stack: the slots above the old limit are nil (see lua_State). */
static void raiselimit(lua_State *L, uint32_t needed)
{
    uint32_t limit = needed + DO_LIMIT_STEP;
    if (limit > L->stacksize)
        limit = L->stacksize;
    if (limit > L->stacklimit)
        L->stacklimit = limit;
}

/* After the doubled stack could not be had (its emergency collection
 * ran): as much as the arena has, and at least `needed` slots.  First in
 * place, halving the extra until it fits (O(1) tries, no collection, no
 * copy), then the arena's largest block, then `needed` itself.  So a
 * stack filling a full arena a slot at a time grows by a good part of
 * what is left each time, not by one slot a collection and a copy
 * (string.unpack of a million items in the fuzzers' 8 MiB arena: past
 * 4 MiB of stack, each item cost a whole collection and a 4 MiB copy,
 * for hours). */
static int growsome(lua_State *L, uint32_t needed, uint32_t want)
{
    uint32_t size = L->stacksize;
    for (uint32_t more = (want - needed) / 2; more > 0; more /= 2) {
        if (gc_grow(L, L->stack, sizeof(tvalue) * (needed + more))) {
            movedstack(L, L->stack, size, L->stack, needed + more);
            return 1;
        }
    }
    size_t fit = arena_largest_alloc(G(L)->arena) / sizeof(tvalue);
    if (fit > needed && fit < want && reallocstack(L, (uint32_t)fit))
        return 1;
    return reallocstack(L, needed);
}

/* What growstack found (do_growstack raises the matching error). */
enum { GROW_OK, GROW_NOMEM, GROW_OVERFLOW, GROW_ERRERR };

/* The growth itself, raising nothing: GROW_OK, GROW_NOMEM (the block
 * could not be had), GROW_OVERFLOW (past LUAI_MAXSTACK: the error's
 * extra space is given), GROW_ERRERR (already in that space: the
 * overflow's handler overflowed too). */
rt_cold static int growstack(lua_State *L, int n)
{
    uint32_t size = L->stacksize;
    if (n >= 0 && n < LUAI_MAXSTACK) {
        uint32_t needed =
            (uint32_t)(L->top - L->stack) + (uint32_t)n + DO_EXTRA_STACK;
        if (needed <= size) { /* the room is there: only the limit moves */
            raiselimit(L, needed);
            return GROW_OK;
        }
    }
    if (size > LUAI_MAXSTACK)
        return GROW_ERRERR;
    if (n < LUAI_MAXSTACK) {
        uint32_t needed =
            (uint32_t)(L->top - L->stack) + (uint32_t)n + DO_EXTRA_STACK;
        uint32_t newsize = 2 * size;
        if (newsize > LUAI_MAXSTACK)
            newsize = LUAI_MAXSTACK;
        if (newsize < needed)
            newsize = needed;
        if (newsize <= LUAI_MAXSTACK) {
            /* When the doubled block does not fit (a small or fragmented
             * arena, even after the emergency collection), less may:
             * the next growth doubles again. */
            if (reallocstack(L, newsize) ||
                (newsize > needed && growsome(L, needed, newsize))) {
                raiselimit(L, needed);
                return GROW_OK;
            }
            return GROW_NOMEM;
        }
    }
    /* Too big: give the error's handling some room. */
    if (reallocstack(L, DO_ERRORSTACKSIZE))
        L->stacklimit = L->stacksize;
    return GROW_OVERFLOW;
}

int do_trygrowstack(lua_State *L, int n)
{
    return growstack(L, n) == GROW_OK;
}

void do_growstack(lua_State *L, int n)
{
    switch (growstack(L, n)) {
    case GROW_OK:
        return;
    case GROW_NOMEM:
        do_memerror(L);
    case GROW_ERRERR:
        do_throw(L, LUA_ERRERR);
    default:
        do_runerror(L, "stack overflow");
    }
}

/* One more slot at top, raising nothing but a throw: the formatting of an
 * error's message needs it, and must not raise another message. */
static void growstack1(lua_State *L)
{
    if (L->stack + L->stacklimit - L->top > 1 + DO_EXTRA_STACK)
        return;
    int r = growstack(L, 1);
    if (r == GROW_OK ||
        (r == GROW_OVERFLOW &&
         L->stack + L->stacklimit - L->top > 1 + DO_EXTRA_STACK))
        return;
    do_throw(L, r == GROW_NOMEM ? LUA_ERRMEM : LUA_ERRERR);
}

int do_ensurestack(lua_State *L, uint32_t n)
{
    if (L->stack + L->stacklimit - L->top > (ptrdiff_t)n + DO_EXTRA_STACK)
        return 0;
    if (n >= LUAI_MAXSTACK ||
        (uint32_t)(L->top - L->stack) + n + DO_EXTRA_STACK > LUAI_MAXSTACK)
        return -1;
    return do_trygrowstack(L, (int)n) ? 0 : -1;
}

/* After an error: give back the overflow space and unused records. */
rt_cold static void shrinkstack(lua_State *L)
{
    if (L->stacksize > LUAI_MAXSTACK) {
        tvalue *lim = L->top;
        for (CallInfo *ci = L->ci; ci != NULL; ci = ci->previous)
            if (lim < ci->top)
                lim = ci->top;
        uint32_t inuse = (uint32_t)(lim - L->stack) + 1;
        uint32_t goal = inuse + inuse / 8 + 2 * DO_EXTRA_STACK;
        if (goal < STATE_STACK_INIT)
            goal = STATE_STACK_INIT;
        if (goal <= LUAI_MAXSTACK)
            shrinkstackto(L, goal);
    }
    do_freeci(L);
}

/* ---- CallInfo records --------------------------------------------------- */

#define blockbytes(n) (offsetof(CallInfoBlock, ci) + sizeof(CallInfo) * (n))

/* Records of the next block: as many as are in use (so a deep recursion
 * allocates O(log) times at first), within [DO_CIBLOCK_MIN, DO_CIBLOCK_MAX],
 * never crossing DO_MAXCALLS (the overflow zone is a block of its own). */
static uint32_t nextblocksize(uint32_t n)
{
    uint32_t want = n < DO_CIBLOCK_MIN ? DO_CIBLOCK_MIN : n;
    if (want > DO_CIBLOCK_MAX)
        want = DO_CIBLOCK_MAX;
    uint32_t limit =
        n < DO_MAXCALLS ? DO_MAXCALLS : DO_MAXCALLS + DO_ERROR_EXTRA;
    if (want > limit - n)
        want = limit - n;
    return want;
}

CallInfo *do_nextci(lua_State *L)
{
    CallInfo *ci = L->ci;
    if (ci->next != NULL)
        return ci->next;
    /* Every record is in use: the new one is at depth L->nci. */
    uint32_t n = L->nci;
    if (n >= DO_MAXCALLS + DO_ERROR_EXTRA)
        do_throw(L, LUA_ERRERR); /* the overflow's handler overflowed too */
    uint32_t want = nextblocksize(n);
    CallInfoBlock *b = gc_alloc(L, blockbytes(want));
    if (b == NULL) {
        /* The block of `want` records could not be had, even after the
         * emergency collection: the arena may still hold a smaller one
         * (a small or fragmented arena: on microbit a recursion 37 deep
         * asked 1,160 bytes with 1,832 free in blocks of up to 640).  As
         * many records as the largest block holds, the next block wants
         * more again. */
        size_t fit = arena_largest_alloc(G(L)->arena);
        fit =
            fit > blockbytes(0) ? (fit - blockbytes(0)) / sizeof(CallInfo) : 0;
        if (fit > 0 && fit < want) {
            want = (uint32_t)fit;
            b = gc_alloc(L, blockbytes(want));
        }
        if (b == NULL)
            do_memerror(L);
    }
    memset(b, 0, blockbytes(want));
    b->n = want;
    b->prev = L->ciblocks;
    L->ciblocks = b;
    for (uint32_t i = 0; i < want; i++) {
        b->ci[i].previous = i ? &b->ci[i - 1] : ci;
        b->ci[i].next = i + 1 < want ? &b->ci[i + 1] : NULL;
    }
    ci->next = &b->ci[0];
    L->nci += want;
    if (n == DO_MAXCALLS) /* records kept: the handler may use them */
        do_runerror(L, "stack overflow");
    return ci->next;
}

static int inblock(const CallInfoBlock *b, const CallInfo *ci)
{
    return ci >= &b->ci[0] && ci < &b->ci[b->n];
}

void do_freeci(lua_State *L)
{
    /* Blocks newer than the one holding L->ci are entirely above it. */
    CallInfoBlock *b;
    while ((b = L->ciblocks) != NULL && !inblock(b, L->ci)) {
        L->ciblocks = b->prev;
        L->nci -= b->n;
        gc_free(G(L), b, blockbytes(b->n));
    }
    if (b != NULL)
        b->ci[b->n - 1].next = NULL; /* the rest of L->ci's block is kept */
}

/* Free at most `max` of the record blocks above L->ci's (newest first). */
static void freeci_some(lua_State *L, int max)
{
    CallInfoBlock *b;
    int freed = 0;
    while (freed < max && (b = L->ciblocks) != NULL && !inblock(b, L->ci)) {
        L->ciblocks = b->prev;
        L->nci -= b->n;
        gc_free(G(L), b, blockbytes(b->n));
        freed++;
    }
    b = L->ciblocks; /* its last record led into the freed blocks */
    if (freed > 0 && b != NULL)
        b->ci[b->n - 1].next = NULL;
}

/* The highest slot L's frames use (their tops, and L->top), plus
 * DO_EXTRA_STACK, in slots; 0 when the stack is not built, a stack
 * overflow is being handled, or L is deeper than DO_SHRINK_WALK frames
 * (it uses its stack). */
static uint32_t frames_need(lua_State *L)
{
    if (L->stack == NULL || L->ci == NULL || L->stacksize > LUAI_MAXSTACK)
        return 0;
    tvalue *lim = L->top;
    int depth = 0;
    for (CallInfo *ci = L->ci; ci != NULL; ci = ci->previous) {
        if (++depth > DO_SHRINK_WALK)
            return 0;
        if (lim < ci->top)
            lim = ci->top;
    }
    return (uint32_t)(lim - L->stack) + DO_EXTRA_STACK;
}

void do_trimlimit(lua_State *L)
{
    /* One slot more than the frames reach: the stack checks want more
     * room than they ask for (do_checkstack compares with <=), so that the
     * frames that were there, made again (a coroutine's next call of
     * yield at the same depth), pass the check without the slow path,
     * which would raise the limit by DO_LIMIT_STEP for the next clear. */
    uint32_t need = frames_need(L);
    if (need != 0 && need + 1 < L->stacklimit)
        L->stacklimit = need + 1 <= L->stacksize ? need + 1 : L->stacksize;
}

rt_cold void do_shrinkthread(lua_State *L)
{
    uint32_t inuse = frames_need(L);
    if (inuse == 0)
        return;
    freeci_some(L, DO_SHRINK_BLOCKS);
    uint32_t goal = 2 * inuse;
    if (goal < STATE_STACK_INIT)
        goal = STATE_STACK_INIT;
    if (L->stacksize > 3 * inuse && goal < L->stacksize)
        shrinkstackto(L, goal);
}

int do_initthread(lua_State *L, lua_State *L1)
{
    CallInfoBlock *b = gc_alloc(L, blockbytes(1));
    if (b == NULL)
        return -1;
    memset(b, 0, blockbytes(1));
    b->n = 1;
    b->prev = NULL;
    L1->ciblocks = b;
    CallInfo *ci = &b->ci[0];
    L1->base_ci = L1->ci = ci;
    L1->nci = 1;
    ci->previous = ci->next = NULL;
    ci->callstatus = CIST_C;
    ci->nresults = 0;
    /* The bottom slot is the base record's "function". */
    ci->func = L1->top;
    set_nil(L1->top);
    L1->top++;
    ci->top = L1->top + LUA_MINSTACK;
    L1->errorJmp = NULL;
    L1->tbclist = NULL;
    L1->tbcslots = NULL;
    L1->ntbc = L1->sizetbc = 0;
    L1->errfunc = 0;
    L1->nCcalls = 0;
    L1->allowhook = 1;
    L1->status = LUA_OK;
    if (L1 == L) { /* the main thread: no hooks yet */
        L1->hookmask = 0;
        L1->basehookcount = 0;
        L1->hook = NULL;
    } else { /* a coroutine inherits its creator's hook */
        L1->hookmask = L->hookmask;
        L1->basehookcount = L->basehookcount;
        L1->hook = L->hook;
    }
    L1->hookcount = L1->basehookcount;
    L1->oldpc = 0;
    return 0;
}

int do_freesomeci(lua_State *L, lua_State *L1, int max)
{
    CallInfoBlock *b;
    for (int i = 0; i < max && (b = L1->ciblocks) != NULL && b->prev != NULL;
         i++) {
        L1->ciblocks = b->prev;
        gc_free(G(L), b, blockbytes(b->n));
    }
    return L1->ciblocks != NULL && L1->ciblocks->prev != NULL;
}

void do_freethread(lua_State *L, lua_State *L1)
{
    global_State *g = G(L);
    CallInfoBlock *b;
    while ((b = L1->ciblocks) != NULL) {
        L1->ciblocks = b->prev;
        gc_free(g, b, blockbytes(b->n));
    }
    L1->base_ci = L1->ci = NULL;
    L1->nci = 0;
    if (L1->tbcslots != NULL) {
        gc_free(g, L1->tbcslots, sizeof(uint32_t) * L1->sizetbc);
        L1->tbcslots = NULL;
        L1->sizetbc = L1->ntbc = 0;
    }
    L1->tbclist = NULL;
}

/* ---- Calls -------------------------------------------------------------- */

rt_cold __attribute__((noinline)) void do_cstackfail(lua_State *L, int isshort)
{
    uint32_t n = do_getCcalls(L);
    if (!isshort) {
        if (n >= do_maxccalls(L) + DO_CCALLS_EXTRA(L))
            do_throw(L, LUA_ERRERR); /* while handling the overflow */
        if (n > do_maxccalls(L))
            return; /* the overflow's handler runs in the extra levels */
    }
    /* (Short of stack, no message handler is called: dbg_errormsg.) */
    do_checkstack(L, 0); /* room for the message */
    do_runerror(L, "C stack overflow");
}

/* Insert the __call metamethod of the value at func below it. */
static tvalue *tryfunctm(lua_State *L, tvalue *func)
{
    ptrdiff_t off = do_savestack(L, func);
    do_checkstack(L, 1);
    func = do_restorestack(L, off);
    const tvalue *tm = tm_byobj(L, func, TM_CALL);
    if (is_nil(tm))
        dbg_callerror(L, func);
    for (tvalue *p = L->top; p > func; p--)
        set_obj(p, p - 1);
    L->top++;
    set_obj(func, tm);
    return func;
}

static void rethook(lua_State *L, CallInfo *ci, int nres)
{
    if (L->hookmask & LUA_MASKRET) {
        tvalue *first = L->top - nres;
        int delta = 0;
        if (ci_isLua(ci)) {
            proto *p = ci_func(ci)->p;
            /* A returning vararg frame is already back at its caller's
             * slot; the hook sees it where its body ran (above the extra
             * arguments), so getlocal finds its parameters and varargs. */
            if (p->is_vararg)
                delta = ci->u.l.nextraargs + p->numparams + 1;
        }
        ci->func += delta;
        dbg_hook(L, LUA_HOOKRET, -1, (int)(first - ci->func), nres);
        ci->func -= delta;
    }
    CallInfo *prev = ci->previous;
    if (prev != NULL && ci_isLua(prev))
        L->oldpc = (int32_t)(prev->u.l.savedpc - ci_func(prev)->p->code) - 1;
}

/* The rare parts of a return, out of line so that the common one keeps
 * few registers: a C function's pending to-be-closed slots, the return
 * hook.  Neither moves the results, which stay at the top. */
static __attribute__((noinline)) void poscall_extras(lua_State *L,
                                                     CallInfo *ci, int nres)
{
    if (!ci_isLua(ci) && L->tbclist != NULL && L->tbclist > ci->func) {
        /* A C function with pending to-be-closed slots (lua_toclose): the
         * __close calls run above the results, which stay at the top. */
        ci->callstatus |= CIST_CLSRET;
        ci->u2.nres = nres;
        do_closeyieldable(L, ci->func + 1, LUA_OK);
        ci->callstatus &= (uint16_t)~CIST_CLSRET;
    }
    if (L->hookmask)
        rethook(L, ci, nres);
}

/* do_poscall's body, inline in precallc too (every C function's return:
 * a call fewer). */
static inline __attribute__((always_inline)) void
poscall_(lua_State *L, CallInfo *ci, int nres)
{
    if (L->hookmask != 0 || L->tbclist != NULL)
        poscall_extras(L, ci, nres);
    tvalue *res = ci->func;
    int wanted = ci->nresults;
    switch (wanted) { /* the common counts first */
    case 0:
        L->top = res;
        break;
    case 1:
        if (nres == 0)
            set_nil(res);
        else
            set_obj(res, L->top - nres);
        L->top = res + 1;
        break;
    default: {
        tvalue *first = L->top - nres;
        if (wanted == LUA_MULTRET)
            wanted = nres;
        int i;
        for (i = 0; i < nres && i < wanted; i++)
            set_obj(res + i, first + i);
        for (; i < wanted; i++)
            set_nil(res + i);
        L->top = res + wanted;
        break;
    }
    }
    L->ci = ci->previous;
    gc_stack_lower(L, L->ci->func);
}

void do_poscall(lua_State *L, CallInfo *ci, int nres)
{
    poscall_(L, ci, nres);
}

/* Run a C function at func to completion; returns its number of results
 * (already moved to func).  Inline in do_precall, through which the
 * interpreter calls every C function. */
static inline __attribute__((always_inline)) int
precallc_(lua_State *L, tvalue *func, int nresults, rt_cfunction f)
{
    if (L->stack + L->stacklimit - L->top <= LUA_MINSTACK + DO_EXTRA_STACK) {
        ptrdiff_t off = do_savestack(L, func);
        do_growstack(L, LUA_MINSTACK);
        func = do_restorestack(L, off);
    }
    CallInfo *ci = L->ci->next; /* the common case: a kept record */
    if (ci == NULL) {
        ptrdiff_t off = do_savestack(L, func);
        ci = do_nextci(L);
        func = do_restorestack(L, off);
    }
    ci->func = func;
    ci->nresults = (int16_t)nresults;
    ci->callstatus = CIST_C;
    ci->top = L->top + LUA_MINSTACK;
    /* (u.c.k is not cleared: only a frame that set it is ever continued,
     * by lua_yieldk, lua_callk or lua_pcallk; a C function that calls
     * without a continuation makes its callees non-yieldable.) */
    L->ci = ci;
    if (L->hookmask & LUA_MASKCALL) {
        int narg = (int)(L->top - func) - 1;
        dbg_hook(L, LUA_HOOKCALL, -1, 1, narg);
    }
    int n = f(L);
    poscall_(L, ci, n);
    return n;
}

static int precallc(lua_State *L, tvalue *func, int nresults, rt_cfunction f)
{
    return precallc_(L, func, nresults, f);
}

/* The same for do_precall, whose C case is a jump here (no frame of its
 * own, so that its Lua case keeps its few registers). */
static __attribute__((noinline)) CallInfo *
precallc_ci(lua_State *L, tvalue *func, int nresults, rt_cfunction f)
{
    precallc_(L, func, nresults, f);
    return NULL;
}

/* A Lua function's new frame (do_precall's common case). */
static inline __attribute__((always_inline)) CallInfo *
precall_lua(lua_State *L, tvalue *func, int nresults)
{
    proto *p = gco2lcl(gc_of(func))->p;
    int narg = (int)(L->top - func) - 1;
    int fsize = p->maxstacksize;
    if (L->stack + L->stacklimit - L->top <= fsize + DO_EXTRA_STACK) {
        ptrdiff_t off = do_savestack(L, func);
        do_growstack(L, fsize);
        func = do_restorestack(L, off);
    }
    CallInfo *ci = L->ci->next; /* the common case: a kept record */
    if (ci == NULL) {
        ptrdiff_t off = do_savestack(L, func);
        ci = do_nextci(L);
        func = do_restorestack(L, off);
    }
    ci->func = func;
    ci->nresults = (int16_t)nresults;
    ci->callstatus = 0;
    ci->top = func + 1 + fsize;
    ci->u.l.savedpc = p->code;
    ci->u.l.trap = L->hookmask; /* (startfunc makes it 0 or 1) */
    ci->u.l.nextraargs = 0;
    for (; narg < p->numparams; narg++)
        set_nil(L->top++);
    L->ci = ci;
    return ci;
}

/* A value that is not a function: its __call handler goes in below it
 * (a chain of __call values one level at a time: each takes a stack
 * slot, so that a cycle ends in "stack overflow"), and that is called. */
static __attribute__((noinline)) CallInfo *
precall_tm(lua_State *L, tvalue *func, int nresults)
{
    for (;;) {
        func = tryfunctm(L, func);
        switch (tt_of(func)) {
        case V_CCL:
            return precallc_ci(L, func, nresults, gco2ccl(gc_of(func))->f);
        case V_LCF:
            return precallc_ci(L, func, nresults, func->v.f);
        case V_LCL:
            return precall_lua(L, func, nresults);
        default:
            break;
        }
    }
}

/* (No loop here, the __call case being precall_tm's: the C cases are
 * jumps made before any frame, and the Lua case keeps its registers.) */
CallInfo *do_precall(lua_State *L, tvalue *func, int nresults)
{
    switch (tt_of(func)) {
    case V_CCL:
        return precallc_ci(L, func, nresults, gco2ccl(gc_of(func))->f);
    case V_LCF:
        return precallc_ci(L, func, nresults, func->v.f);
    case V_LCL:
        return precall_lua(L, func, nresults);
    default:
        return precall_tm(L, func, nresults);
    }
}

int do_pretailcall(lua_State *L, CallInfo *ci, tvalue *func, int narg1,
                   int delta)
{
    for (;;) {
        switch (tt_of(func)) {
        case V_CCL:
            return precallc(L, func, LUA_MULTRET, gco2ccl(gc_of(func))->f);
        case V_LCF:
            return precallc(L, func, LUA_MULTRET, func->v.f);
        case V_LCL: {
            proto *p = gco2lcl(gc_of(func))->p;
            int fsize = p->maxstacksize;
            ptrdiff_t off = do_savestack(L, func);
            do_checkstack(L, fsize);
            func = do_restorestack(L, off);
            ci->func -= delta; /* back to the slot of a vararg frame */
            gc_stack_lower(L, ci->func);
            for (int i = 0; i < narg1; i++)
                set_obj(ci->func + i, func + i);
            func = ci->func;
            for (; narg1 <= p->numparams; narg1++)
                set_nil(func + narg1);
            ci->top = func + 1 + fsize;
            ci->u.l.savedpc = p->code;
            ci->u.l.trap = L->hookmask; /* (startfunc makes it 0 or 1) */
            ci->u.l.nextraargs = 0;
            ci->callstatus =
                (uint16_t)((ci->callstatus & ~CIST_VARARG) | CIST_TAIL);
            L->top = func + narg1;
            return -1;
        }
        default:
            func = tryfunctm(L, func);
            narg1++;
            break;
        }
    }
}

static void ccall(lua_State *L, tvalue *func, int nresults, uint32_t inc)
{
    L->nCcalls += inc;
    int isshort = 0;
    if (do_getCcalls(L) >= do_maxccalls(L) ||
        (isshort = do_cstackshort(call)) != 0) {
        ptrdiff_t off = do_savestack(L, func);
        do_cstackfail(L, isshort || do_cstackshort(call));
        func = do_restorestack(L, off);
    }
    CallInfo *ci = do_precall(L, func, nresults);
    if (ci != NULL) {
        ci->callstatus = CIST_FRESH;
        vm_execute(L, ci);
    }
    L->nCcalls -= inc;
}

void do_call(lua_State *L, tvalue *func, int nresults)
{
    ccall(L, func, nresults, 1);
}

void do_callnoyield(lua_State *L, tvalue *func, int nresults)
{
    ccall(L, func, nresults, 0x10001u);
}

/* ---- Protected calls ---------------------------------------------------- */

struct closep {
    tvalue *level;
    int status;
};

static void closepaux(lua_State *L, void *ud)
{
    struct closep *c = ud;
    do_close(L, c->level, c->status);
}

/* Close everything above level in protected mode; an error in a __close
 * replaces the error being handled, and closing goes on. */
static int closeprotected(lua_State *L, ptrdiff_t level, int status)
{
    CallInfo *old_ci = L->ci;
    uint8_t old_allowhook = L->allowhook;
    for (;;) {
        struct closep c;
        c.level = do_restorestack(L, level);
        c.status = status;
        int st = do_rawrunprotected(L, closepaux, &c);
        if (st == LUA_OK)
            return c.status;
        L->ci = old_ci;
        gc_stack_lower(L, old_ci->func);
        L->allowhook = old_allowhook;
        status = st;
    }
}

int do_pcall(lua_State *L, do_pfunc f, void *ud, ptrdiff_t oldtop,
             ptrdiff_t ef)
{
    CallInfo *old_ci = L->ci;
    uint8_t old_allowhook = L->allowhook;
    uint8_t old_gchold = G(L)->gchold;
    ptrdiff_t old_errfunc = L->errfunc;
    L->errfunc = ef;
    int status = do_rawrunprotected(L, f, ud);
    if (status != LUA_OK) {
        L->ci = old_ci;
        gc_stack_lower(L, old_ci->func);
        L->allowhook = old_allowhook;
        G(L)->gchold = old_gchold; /* an rt.loop body the error left */
        status = closeprotected(L, oldtop, status);
        seterrorobj(L, status, do_restorestack(L, oldtop));
        shrinkstack(L);
    }
    L->errfunc = old_errfunc;
    return status;
}

/* ---- To-be-closed variables --------------------------------------------- */

void do_newtbcupval(lua_State *L, tvalue *obj)
{
    if (is_false(obj))
        return; /* false and nil need no closing */
    if (is_nil(tm_byobj(L, obj, TM_CLOSE))) {
        CallInfo *ci = L->ci;
        const char *name = NULL;
        if (ci_isLua(ci)) {
            int n = (int)(obj - (ci->func + 1)) + 1;
            int pc = (int)(ci->u.l.savedpc - ci_func(ci)->p->code) - 1;
            name = dbg_getlocalname(ci_func(ci)->p, n, pc);
        }
        do_runerror(L, "variable '%s' got a non-closable value",
                    name ? name : "?");
    }
    if (L->ntbc == L->sizetbc) {
        uint32_t nsize = L->sizetbc ? 2u * L->sizetbc : DO_TBC_INIT;
        ptrdiff_t off = do_savestack(L, obj);
        uint32_t *a = gc_realloc(L, L->tbcslots, sizeof(uint32_t) * L->sizetbc,
                                 sizeof(uint32_t) * nsize);
        if (a == NULL)
            do_memerror(L);
        obj = do_restorestack(L, off);
        L->tbcslots = a;
        L->sizetbc = nsize;
    }
    L->tbcslots[L->ntbc++] = (uint32_t)(obj - L->stack);
    L->tbclist = obj;
}

/* Take the top tbc variable off the list. */
static void poptbc(lua_State *L)
{
    L->ntbc--;
    L->tbclist = L->ntbc ? L->stack + L->tbcslots[L->ntbc - 1] : NULL;
}

/* Call obj's __close; yy: the call may yield (the interpreter closing a
 * block or a return, a C function's return, the recovery of a yieldable
 * pcall in a coroutine); never from C code without a continuation. */
static void callclose(lua_State *L, tvalue *obj, int status, int yy)
{
    /* The error object (or nil) sits just above the variable. */
    ptrdiff_t off = do_savestack(L, obj);
    tvalue *top;
    if (status != LUA_OK) {
        seterrorobj(L, status, obj + 1); /* top = obj + 2 */
    }
    do_checkstack(L, 3);
    obj = do_restorestack(L, off);
    top = L->top;
    const tvalue *tm = tm_byobj(L, obj, TM_CLOSE);
    set_obj(top, tm);
    set_obj(top + 1, obj);
    if (status != LUA_OK)
        set_obj(top + 2, obj + 1);
    else
        set_nil(top + 2);
    L->top = top + 3;
    if (yy)
        do_call(L, top, 0);
    else
        do_callnoyield(L, top, 0);
}

static tvalue *closeall(lua_State *L, tvalue *level, int status, int yy)
{
    ptrdiff_t off = do_savestack(L, level);
    fn_closeupvals(L, level);
    while (L->tbclist != NULL && L->tbclist >= do_restorestack(L, off)) {
        tvalue *tbc = L->tbclist;
        poptbc(L); /* first: a yield or an error leaves it closed */
        callclose(L, tbc, status, yy);
        if (status != LUA_OK)
            status = LUA_ERRRUN; /* the error object is now on the stack */
    }
    return do_restorestack(L, off);
}

tvalue *do_close(lua_State *L, tvalue *level, int status)
{
    return closeall(L, level, status, 0);
}

tvalue *do_closeyieldable(lua_State *L, tvalue *level, int status)
{
    return closeall(L, level, status, 1);
}

/* ---- Coroutines --------------------------------------------------------- */

#define RECST_MASK (7u << CIST_RECST)
#define getrecst(ci) ((int)(((ci)->callstatus >> CIST_RECST) & 7u))
#define setrecst(ci, st)                                                      \
    ((ci)->callstatus = (uint16_t)(((ci)->callstatus & ~RECST_MASK) |         \
                                   ((unsigned)(st) << CIST_RECST)))

/* A yieldable pcall interrupted by a yield or an error: finish it.
 * Returns the status its continuation gets. */
static int finishpcallk(lua_State *L, CallInfo *ci)
{
    int status = getrecst(ci);
    if (status == LUA_OK) {
        status = LUA_YIELD; /* it was interrupted by a yield */
    } else {
        /* Recovering from an error: unwind to the called function.  A
         * __close may yield here (the coroutine is running, the pcall
         * has its continuation): the resume comes back to this frame
         * with the status still recorded, and closing goes on with the
         * variables left; one may raise an error, which precover records
         * in its place. */
        tvalue *func = do_restorestack(L, ci->u2.funcidx);
        L->allowhook = 1;
        func = do_closeyieldable(L, func, status);
        seterrorobj(L, status, func);
        shrinkstack(L);
        setrecst(ci, LUA_OK);
    }
    ci->callstatus &= (uint16_t)~CIST_YPCALL;
    L->errfunc = ci->u.c.old_errfunc;
    return status;
}

/* Finish a C function interrupted by a yield (or an error, for a
 * yieldable pcall): its continuation runs, then it returns. */
static void finishccall(lua_State *L, CallInfo *ci)
{
    int n;
    if (ci->callstatus & CIST_CLSRET) {
        n = ci->u2.nres; /* it was closing its tbc slots at return */
    } else {
        int status = LUA_YIELD;
        if (ci->callstatus & CIST_YPCALL)
            status = finishpcallk(L, ci);
        if (ci->top < L->top)
            ci->top = L->top;
        n = ci->u.c.k(L, status, ci->u.c.ctx);
    }
    do_poscall(L, ci, n);
}

/* Run every interrupted frame of the coroutine to completion (inline in
 * resume, which every resume of a yield runs). */
static inline __attribute__((always_inline)) void unroll_(lua_State *L)
{
    CallInfo *ci;
    while ((ci = L->ci) != L->base_ci) {
        if (!ci_isLua(ci)) {
            finishccall(L, ci);
        } else {
            vm_finishop(L);
            vm_execute(L, ci);
        }
    }
}

static void unroll(lua_State *L, void *ud)
{
    (void)ud;
    unroll_(L);
}

static CallInfo *findpcall(lua_State *L)
{
    for (CallInfo *ci = L->ci; ci != NULL; ci = ci->previous)
        if (ci->callstatus & CIST_YPCALL)
            return ci;
    return NULL;
}

static void resume(lua_State *L, void *ud)
{
    int n = *(int *)ud;
    tvalue *firstarg = L->top - n;
    CallInfo *ci = L->ci;
    if (L->status == LUA_OK) { /* starting */
        ccall(L, firstarg - 1, LUA_MULTRET, 0);
    } else { /* resuming after a yield */
        L->status = LUA_OK;
        if (ci_isLua(ci)) { /* the yield was in a hook */
            L->top = firstarg;
            vm_execute(L, ci);
        } else {
            if (ci->u.c.k != NULL)
                n = ci->u.c.k(L, LUA_YIELD, ci->u.c.ctx);
            poscall_(L, ci, n); /* (every resume of a yield: inline) */
        }
        unroll_(L);
    }
}

rt_cold static int resumeerror(lua_State *L, const char *msg, int narg)
{
    gc_thread_ran(L);
    L->top -= narg;
    str *s = str_newz(L, msg);
    if (s == NULL)
        s = G(L)->memerrmsg;
    set_gc(L->top, s, s->tt);
    L->top++;
    return LUA_ERRRUN;
}

/* After an error inside the coroutine: recover at the innermost
 * yieldable pcall, as often as errors keep coming. */
static int precover(lua_State *L, int status)
{
    CallInfo *ci;
    while (status > LUA_YIELD && (ci = findpcall(L)) != NULL) {
        L->ci = ci;
        gc_stack_lower(L, ci->func);
        setrecst(ci, status);
        status = do_rawrunprotected(L, unroll, NULL);
    }
    return status;
}

/* lua_resume's check of the C stack failed (a function of its own, which
 * tools/cstack.lua knows as a failure). */
static __attribute__((noinline)) int resumeshort(lua_State *L, int narg)
{
    gc_thread_enter(L);
    return resumeerror(L, "C stack overflow", narg);
}

int lua_resume(lua_State *L, lua_State *from, int nargs, int *nres)
{
    if (do_cstackshort(call)) /* before anything is called (vm/do.h) */
        return resumeshort(L, nargs);
    gc_thread_enter(L);
    if (L->status == LUA_YIELD) { /* the common case first */
    } else if (L->status == LUA_OK) {
        if (L->ci != L->base_ci)
            return resumeerror(L, "cannot resume non-suspended coroutine",
                               nargs);
        if (L->top - (L->ci->func + 1) == nargs) /* no function */
            return resumeerror(L, "cannot resume dead coroutine", nargs);
    } else {
        return resumeerror(L, "cannot resume dead coroutine", nargs);
    }
    L->nCcalls = from ? do_getCcalls(from) : 0;
    if (do_getCcalls(L) >= do_maxccalls(L))
        return resumeerror(L, "C stack overflow", nargs);
    L->nCcalls++;
    gc_thread_ran(L);
    int status = do_rawrunprotected(L, resume, &nargs);
    if (status == LUA_YIELD) { /* the common case first */
        /* (lua_yieldk set L->status before its throw) */
        *nres = L->ci->u2.nyield;
        if (gc_yielded_lazy(G(L), L)) /* (it checks L's marks first) */
            return LUA_YIELD;
        gc_thread_ran(L);
        gc_suspended(from != NULL ? from : L, L);
        return LUA_YIELD;
    }
    status = precover(L, status);
    if (status > LUA_YIELD) { /* an unrecovered error: the thread is dead */
        L->status = (uint8_t)status;
        seterrorobj(L, status, L->top);
        L->ci->top = L->top;
    }
    *nres = status == LUA_YIELD ? L->ci->u2.nyield
                                : (int)(L->top - (L->ci->func + 1));
    if (!gc_suspended_lazy(G(L), L)) {
        gc_thread_ran(L);
        gc_suspended(from != NULL ? from : L, L);
    }
    return status;
}

int lua_yieldk(lua_State *L, int nresults, lua_KContext ctx, lua_KFunction k)
{
    CallInfo *ci = L->ci;
    if (!do_isyieldable(L)) {
        if (L != &G(L)->mainthread)
            do_runerror(L, "attempt to yield across a C-call boundary");
        do_runerror(L, "attempt to yield from outside a coroutine");
    }
    L->status = LUA_YIELD;
    ci->u2.nyield = nresults;
    if (ci_isLua(ci)) { /* inside a hook: it returns, then the VM stops */
        return 0;
    }
    ci->u.c.k = k;
    if (k != NULL)
        ci->u.c.ctx = ctx;
    do_throw(L, LUA_YIELD);
}

int lua_status(lua_State *L)
{
    return L->status;
}

int lua_isyieldable(lua_State *L)
{
    return do_isyieldable(L);
}

rt_cold int lua_closethread(lua_State *L, lua_State *from)
{
    gc_thread_enter(L);
    L->nCcalls = from ? do_getCcalls(from) : 0;
    CallInfo *ci = L->ci = L->base_ci;
    int status = L->status;
    if (status == LUA_YIELD)
        status = LUA_OK;
    L->status = LUA_OK;
    set_nil(L->stack);
    ci->func = L->stack;
    ci->callstatus = CIST_C;
    L->errfunc = 0;
    gc_thread_ran(L);
    gc_stack_lower(L, L->stack);
    status = closeprotected(L, do_savestack(L, L->stack + 1), status);
    if (status != LUA_OK)
        seterrorobj(L, status, L->stack + 1);
    else
        L->top = L->stack + 1;
    ci->top = L->top + LUA_MINSTACK;
    shrinkstack(L);
    return status;
}

int lua_resetthread(lua_State *L)
{
    return lua_closethread(L, NULL);
}

/* ---- Finalizers --------------------------------------------------------- */

static void dofinalizer(lua_State *L, void *ud)
{
    (void)ud;
    do_callnoyield(L, L->top - 2, 0); /* a __gc never yields */
}

rt_cold int do_finalizer(lua_State *L, gcobj *o)
{
    tvalue v;
    set_gc(&v, o, o->tt);
    const tvalue *tm = tm_byobj(L, &v, TM_GC);
    if (is_nil(tm) ||
        !(tt_of(tm) == V_LCL || tt_of(tm) == V_CCL || tt_of(tm) == V_LCF))
        return 0; /* no __gc any more, or not callable: nothing to do */
    if (L->stack + L->stacklimit - L->top <= 2 + DO_EXTRA_STACK &&
        !do_trygrowstack(L, 2))
        return 0;
    uint8_t oldah = L->allowhook;
    L->allowhook = 0; /* no hooks inside a finalizer */
    set_obj(L->top, tm);
    set_obj(L->top + 1, &v);
    L->top += 2;
    CallInfo *ci = L->ci;
    ci->callstatus |= CIST_FIN;
    int status =
        do_pcall(L, dofinalizer, NULL, do_savestack(L, L->top - 2), 0);
    ci->callstatus &= (uint16_t)~CIST_FIN;
    L->allowhook = oldah;
    if (status != LUA_OK) {
        global_State *g = G(L);
        if (g->warnf != NULL) {
            const char *msg = is_str(L->top - 1)
                                  ? str_data(gco2str(gc_of(L->top - 1)))
                                  : "error object is not a string";
            g->warnf(g->warnud, "error in __gc (", 1);
            g->warnf(g->warnud, msg, 1);
            g->warnf(g->warnud, ")", 0);
        }
        L->top--;
    }
    return 0;
}
