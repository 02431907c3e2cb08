/*
 * obj.h — tagged values, the common object header, and the layout of every
 * collectable object.
 *
 * A value is a union plus a one-byte tag.  Two number models, chosen at
 * build time: RTLUA_NUM=32 (int32 + float: 8-byte values, the default on
 * the boards) and RTLUA_NUM=64 (int64 + double: 16-byte values, the
 * default on the host, the one that matches reference Lua exactly).
 *
 * Every collectable object begins with GCHEADER: the `next` link of the
 * list it lives on (allgc, finobj, tobefnz, or a string-table chain), its
 * type tag, and the mark byte.  Mark bits:
 *   WHITE0, WHITE1  the two whites; the current one flips each cycle, the
 *                   other one is "dead" during the sweep
 *   BLACK           marked and traversed
 *   (neither)       gray: marked, on a gray list, not yet traversed
 *   FINALIZED       its __gc has been queued once (never again)
 *   FIXED           never collected (kept black-or-white but not swept)
 *   ROM             lives in flash: header const, on no list, never
 *                   written; always also BLACK and FIXED
 *   SUPER           the static main state: never collected, freed last
 *   EPHKEY          while marking: a white object seen as the key of an
 *                   ephemeron entry whose value was white; its traversal
 *                   looks it up in the cycle's ephemeron tables (gc.c)
 * Invariant (during propagate and atomic): a black object never points to
 * a white one.  ROM objects point only to ROM objects.
 */
#ifndef RTLUA_OBJ_H
#define RTLUA_OBJ_H

#include <stddef.h>
#include <stdint.h>

#include "include/luaconf.h" /* RTLUA_NUM, from the build's rtlua_config.h */

#if RTLUA_NUM == 64
typedef int64_t rt_int;
typedef uint64_t rt_uint;
typedef double rt_num;
#define RT_INT_MAX INT64_MAX
#define RT_INT_MIN INT64_MIN
#elif RTLUA_NUM == 32
typedef int32_t rt_int;
typedef uint32_t rt_uint;
typedef float rt_num;
#define RT_INT_MAX INT32_MAX
#define RT_INT_MIN INT32_MIN
#else
#error "RTLUA_NUM must be 32 or 64"
#endif

/* A function the files built for speed (the Makefile's BOARD_HOT) run
 * rarely or never on a program's hot paths: errors, finalizers, weak
 * tables, start-up and shutdown.  GCC compiles it for size, as -Os
 * would, and takes the branches that lead to it as unlikely; no
 * benchmark spends a measurable share in one (bench/profile). */
#if defined(__GNUC__)
#define rt_cold __attribute__((cold))
#else
#define rt_cold
#endif

struct lua_State;
typedef int (*rt_cfunction)(struct lua_State *L);

/* ---- Type tags ---------------------------------------------------------
 * The low nibble is the Lua type (LUA_T* numbering), the next bits the
 * variant; BIT_COLLECTABLE marks values whose union holds a gcobj. */
#define T_NIL 0x00
#define T_BOOLEAN 0x01
#define T_LIGHTUSERDATA 0x02
#define T_NUMBER 0x03
#define T_STRING 0x04
#define T_TABLE 0x05
#define T_FUNCTION 0x06
#define T_USERDATA 0x07
#define T_THREAD 0x08
#define T_PROTO 0x09   /* internal */
#define T_UPVAL 0x0A   /* internal */
#define T_DEADKEY 0x0B /* internal: a hash key whose entry was removed */
#define T_FINREF 0x0C  /* internal: gc.c's stand-in on finobj/tobefnz */

#define VARIANT(t, v) ((t) | ((v) << 4))
#define BIT_COLLECTABLE 0x40

#define V_NIL VARIANT(T_NIL, 0)
#define V_EMPTY VARIANT(T_NIL, 1) /* an empty table slot */
#define V_FALSE VARIANT(T_BOOLEAN, 0)
#define V_TRUE VARIANT(T_BOOLEAN, 1)
#define V_LIGHTUD VARIANT(T_LIGHTUSERDATA, 0)
#define V_INT VARIANT(T_NUMBER, 0)
#define V_FLT VARIANT(T_NUMBER, 1)
#define V_LCF VARIANT(T_FUNCTION, 1) /* light C function */
#define V_SHRSTR (VARIANT(T_STRING, 0) | BIT_COLLECTABLE)
#define V_LNGSTR (VARIANT(T_STRING, 1) | BIT_COLLECTABLE)
#define V_TABLE (VARIANT(T_TABLE, 0) | BIT_COLLECTABLE)
#define V_LCL (VARIANT(T_FUNCTION, 0) | BIT_COLLECTABLE) /* Lua closure */
#define V_CCL (VARIANT(T_FUNCTION, 2) | BIT_COLLECTABLE) /* C closure */
#define V_UDATA (VARIANT(T_USERDATA, 0) | BIT_COLLECTABLE)
#define V_THREAD (VARIANT(T_THREAD, 0) | BIT_COLLECTABLE)
#define V_PROTO (VARIANT(T_PROTO, 0) | BIT_COLLECTABLE)
#define V_UPVAL (VARIANT(T_UPVAL, 0) | BIT_COLLECTABLE)
#define V_DEADKEY (VARIANT(T_DEADKEY, 0) | BIT_COLLECTABLE)
#define V_FINREF (VARIANT(T_FINREF, 0) | BIT_COLLECTABLE)

#define ttype(tt) ((tt)&0x0F)

/* ---- Values ------------------------------------------------------------ */
typedef struct gcobj gcobj;

typedef union {
    gcobj *gc;
    void *p;
    rt_cfunction f;
    rt_int i;
    rt_num n;
} value;

typedef struct {
    value v;
    uint8_t tt;
} tvalue;

#define tt_of(o) ((o)->tt)
#define is_nil(o) (ttype(tt_of(o)) == T_NIL) /* nil or empty */
#define is_collectable(o) ((tt_of(o) & BIT_COLLECTABLE) != 0)
#define gc_of(o) ((o)->v.gc)
#define is_int(o) (tt_of(o) == V_INT)
#define is_flt(o) (tt_of(o) == V_FLT)
#define is_str(o) (ttype(tt_of(o)) == T_STRING)
#define is_table(o) (tt_of(o) == V_TABLE)
#define is_false(o) (tt_of(o) == V_FALSE || is_nil(o))

#define set_nil(o) ((o)->tt = V_NIL)
#define set_empty(o) ((o)->tt = V_EMPTY)
#define set_bool(o, b) ((o)->tt = (b) ? V_TRUE : V_FALSE)
#define set_int(o, x) ((o)->v.i = (x), (o)->tt = V_INT)
#define set_flt(o, x) ((o)->v.n = (x), (o)->tt = V_FLT)
#define set_lightud(o, x) ((o)->v.p = (x), (o)->tt = V_LIGHTUD)
#define set_lcf(o, x) ((o)->v.f = (x), (o)->tt = V_LCF)
#define set_gc(o, x, t) ((o)->v.gc = (gcobj *)(x), (o)->tt = (uint8_t)(t))
#define set_obj(d, s) (*(d) = *(s))

/* ---- The common header ------------------------------------------------- */
#define GCHEADER                                                              \
    struct gcobj *next;                                                       \
    uint8_t tt;                                                               \
    uint8_t marked

struct gcobj {
    GCHEADER;
};

#define MARK_WHITE0 (1u << 0)
#define MARK_WHITE1 (1u << 1)
#define MARK_BLACK (1u << 2)
#define MARK_FINALIZED (1u << 3)
#define MARK_FIXED (1u << 4)
#define MARK_ROM (1u << 5)
#define MARK_SUPER (1u << 6)
/* (Tables; threads use the bit for MARK_SUPER.) A weak table the cycle
 * traversed: while the collector clears the weak tables, its dead entries
 * read as absent (vm/tab.c: the slow case). */
#define MARK_CLEARING (1u << 6)
#define MARK_EPHKEY (1u << 7)
#define MARK_WHITES (MARK_WHITE0 | MARK_WHITE1)
#define MARK_COLOR (MARK_WHITES | MARK_BLACK)
/* The header ROM objects are built with. */
#define MARK_ROM_PRESET (MARK_BLACK | MARK_FIXED | MARK_ROM)

#define is_white(o) (((o)->marked & MARK_WHITES) != 0)
#define is_black(o) (((o)->marked & MARK_BLACK) != 0)
#define is_gray(o) (((o)->marked & MARK_COLOR) == 0)
#define is_rom(o) (((o)->marked & MARK_ROM) != 0)
#define is_fixed(o) (((o)->marked & MARK_FIXED) != 0)

/* ---- Strings ------------------------------------------------------------
 * Short strings (len <= STR_SHORT_MAX) are interned: equal short strings
 * are the same object, ROM or RAM.  Long strings are not interned; their
 * hash is computed on demand (`extra` says whether it has been).  The
 * bytes follow the header, NUL-terminated. */
#define STR_SHORT_MAX 40

typedef struct str {
    GCHEADER;
    uint8_t extra;  /* short: reserved-word index + 1, or 0; long: hashed */
    uint8_t shrlen; /* short: length; long: 0xFF */
    uint32_t hash;
    union {
        size_t lnglen;     /* long strings */
        struct str *hnext; /* short strings: next in the string-table chain */
    } u;
    char data[]; /* len + 1 bytes */
} str;

#define str_len(s) ((s)->shrlen != 0xFF ? (size_t)(s)->shrlen : (s)->u.lnglen)
#define str_data(s) ((s)->data)

/* ---- Tables -------------------------------------------------------------
 * An array part (t->array[0..asize-1] holds keys 1..asize) and a hash part
 * of 2^lsizenode nodes with chained scatter (Brent's variation is not
 * required; see vm/tab.c).  `flags` caches absent metamethods. */
/* A node: its value, its key, the key's tag and the offset (in nodes) of
 * the next node of its chain (0: none).  Read and write the last two
 * through node_keytt/node_next and node_setkeytt/node_setnext (and
 * NODE_INIT in initialisers): in the 32-bit model they share one word,
 * the tag in its low byte and the offset in the 24 bits above (so a hash
 * part has at most 2^23 nodes: vm/tab.h, TAB_MAXHBITS), which makes a
 * node 16 bytes, as stock Lua's. */
#if RTLUA_NUM == 32
typedef struct node {
    tvalue val;
    value key_val;
    uint32_t kn; /* key tag | next << 8 (next signed) */
} node;
#define node_keytt(n) ((uint8_t)(n)->kn)
#define node_next(n) ((int32_t)(n)->kn >> 8)
#define node_setkeytt(n, t)                                                   \
    ((n)->kn = ((n)->kn & ~(uint32_t)0xFF) | (uint8_t)(t))
#define node_setnext(n, x) ((n)->kn = ((uint32_t)(x) << 8) | ((n)->kn & 0xFFu))
#define NODE_INIT(tt, nx) .kn = (((uint32_t)(nx) << 8) | (uint8_t)(tt))
_Static_assert(sizeof(struct node) == 2 * sizeof(tvalue),
               "a node of the 32-bit model is two values long: 16 bytes "
               "where pointers are 4");
#else
typedef struct node {
    tvalue val;
    value key_val;
    int32_t next;
    uint8_t key_tt;
} node;
#define node_keytt(n) ((n)->key_tt)
#define node_next(n) ((n)->next)
#define node_setkeytt(n, t) ((n)->key_tt = (uint8_t)(t))
#define node_setnext(n, x) ((n)->next = (int32_t)(x))
#define NODE_INIT(tt, nx) .key_tt = (tt), .next = (nx)
_Static_assert(sizeof(struct node) == 2 * sizeof(tvalue),
               "a node of the 64-bit model is two values long");
#endif
/* The node whose value slot v is (a hash lookup returns the slot), const
 * as v is: the value is a node's first field. */
#define node_of_val(v)                                                        \
    _Generic((v),                                                             \
        const tvalue *: (const node *)(const void *)(v),                      \
        tvalue *: (node *)(void *)(v))
_Static_assert(offsetof(node, val) == 0, "a node's value is its first field");

typedef struct table {
    GCHEADER;
    uint8_t flags;      /* 1<<event: that metamethod is absent */
    uint8_t lsizenode;  /* log2 of the hash part's size */
    uint8_t weak;       /* TAB_WEAK_* from __mode, set when marked */
    uint8_t moving;     /* entries are moving: a miss looks in old parts */
    uint16_t weakwhite; /* a weak table, the collector: its weak slots that
                           held a white object when traversed (gc.c) */
    uint32_t asize;     /* array part size */
    tvalue *array;
    node *node;
    node *lastfree; /* every free node is below this */
    struct table *metatable;
    gcobj *gclist;
    struct tabmig *mig; /* a big table's growth state (vm/tab.c), or NULL */
} table;

#define TAB_WEAK_KEYS 1u
#define TAB_WEAK_VALUES 2u

/* ---- Upvalues ---------------------------------------------------------- */
typedef struct upval {
    GCHEADER;
    tvalue *v; /* points into a stack while open, to u.value when closed */
    union {
        struct {
            struct upval *next; /* the thread's open list, by level */
            struct upval **prev;
        } open;
        tvalue value;
    } u;
} upval;

#define upval_is_open(uv) ((uv)->v != &(uv)->u.value)

/* ---- Prototypes --------------------------------------------------------- */
typedef struct upvaldesc {
    str *name;
    uint8_t instack; /* in the enclosing function's registers? */
    uint8_t idx;
    uint8_t kind;
} upvaldesc;

typedef struct locvar {
    str *name;
    int32_t startpc;
    int32_t endpc;
} locvar;

typedef uint32_t instr;

/* An absolute line for instruction pc (vm/opcodes.h: line information). */
typedef struct absline {
    int32_t pc;
    int32_t line;
} absline;

typedef struct proto {
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
} proto;

/* ---- Closures ----------------------------------------------------------- */
typedef struct lclosure {
    GCHEADER;
    uint8_t nupvalues;
    gcobj *gclist;
    proto *p;
    upval *upvals[]; /* nupvalues */
} lclosure;

typedef struct cclosure {
    GCHEADER;
    uint8_t nupvalues;
    gcobj *gclist;
    rt_cfunction f;
    tvalue upvalue[]; /* nupvalues */
} cclosure;

/* ---- Full userdata ------------------------------------------------------ */
typedef struct udata {
    GCHEADER;
    uint16_t nuvalue; /* user values */
    size_t len;       /* bytes of the block */
    table *metatable;
    gcobj *gclist;
    tvalue uv[]; /* nuvalue user values, then the block (aligned) */
} udata;

/* The user block of a userdata, after its user values. */
#define udata_mem(u) ((void *)((char *)(u) + udata_offset((u)->nuvalue)))
#define udata_offset(nuv)                                                     \
    ((offsetof(udata, uv) + sizeof(tvalue) * (size_t)(nuv) + 7u) & ~(size_t)7u)

/* ---- The layouts, where pointers are 4 bytes (the boards) ---------------
 * What every object costs in the arena (gc/arena.h: slots of a 4-byte
 * grain up to ARENA_SMALL_MAX) and what ROM objects built at compile time
 * rely on: a change here is a change of those, made on purpose.  A table
 * is 40 bytes, its hash nodes 16 (32-bit model) or 32, a Lua closure 16
 * bytes and 4 per upvalue, an upvalue 20 (32-bit model) or 32, a string
 * 16 and its bytes. */
#if UINTPTR_MAX == 0xFFFFFFFFu
_Static_assert(sizeof(tvalue) == (RTLUA_NUM == 32 ? 8 : 16) &&
                   sizeof(node) == (RTLUA_NUM == 32 ? 16 : 32),
               "values and nodes");
_Static_assert(sizeof(table) == 40 && offsetof(table, array) == 16,
               "the table header");
_Static_assert(sizeof(lclosure) == 16 && sizeof(cclosure) == 16 &&
                   offsetof(lclosure, upvals) == 16,
               "closures: 16 bytes and their upvalues");
_Static_assert(sizeof(upval) == (RTLUA_NUM == 32 ? 20 : 32),
               "an upvalue: its pointer and the closed value");
_Static_assert(sizeof(str) == 16 && offsetof(str, data) == 16,
               "a string's header");
_Static_assert(sizeof(udata) == (RTLUA_NUM == 32 ? 20 : 24),
               "a userdata's header");
#endif

/* ---- Object casts ------------------------------------------------------- */
#define obj2gc(o) ((gcobj *)(o))
#define gco2str(o) ((str *)(o))
#define gco2tab(o) ((table *)(o))
#define gco2uv(o) ((upval *)(o))
#define gco2proto(o) ((proto *)(o))
#define gco2lcl(o) ((lclosure *)(o))
#define gco2ccl(o) ((cclosure *)(o))
#define gco2ud(o) ((udata *)(o))
#define gco2th(o) ((struct lua_State *)(o))

#endif
