/*
 * lauxlib.c — the auxiliary library (include/lauxlib.h), written on the
 * public API of lua.h, with reference Lua 5.4's messages byte for byte:
 * argument errors, tracebacks, tostring, buffers, references,
 * metatables by name, loading chunks from strings and host files, the
 * default panic and warning functions.
 *
 * A luaL_Buffer starts in its own inline storage (on the C stack) and
 * occupies one stack slot, a light userdata placeholder; when it grows,
 * the slot gets a full userdata holding the bytes (each growth replaces
 * it with a bigger one), so an error anywhere leaves only garbage for the
 * collector: nothing leaks and nothing needs closing.
 *
 * Files are read through port/port.h (semihosting on the boards, stdio
 * on the host), never stdio here.
 */
#include "include/lauxlib.h"
#include "include/rtlua.h"
#include "port/port.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>

#ifdef RTLUA_HOST
#include <sys/wait.h>
#endif

/* Traceback: levels shown before and after the elided middle part. */
#define TB_LEVELS_FIRST 10
#define TB_LEVELS_LAST 11
/* Bytes read from a file per port_file_read call. */
#define LOADF_CHUNK 512

/* ---- Errors ------------------------------------------------------------- */

/* Find the value at objidx among the string keys of the table on top:
 * on success the key is pushed (the table stays below it) and 1 is
 * returned; otherwise the stack is as it was. */
static int find_key(lua_State *L, int objidx)
{
    if (!lua_istable(L, -1))
        return 0;
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        if (lua_type(L, -2) == LUA_TSTRING && lua_rawequal(L, objidx, -1)) {
            lua_pop(L, 1); /* the value; the key is the name */
            return 1;
        }
        lua_pop(L, 1);
    }
    return 0;
}

/* The same two tables deep ("module.function"), as find_key leaves it.
 * (Two loops, not a recursion: tools/cstack.lua bounds the C stack.) */
static int find_field(lua_State *L, int objidx)
{
    if (!lua_istable(L, -1))
        return 0;
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        if (lua_type(L, -2) == LUA_TSTRING) {
            if (lua_rawequal(L, objidx, -1)) {
                lua_pop(L, 1); /* the value; the key is the name */
                return 1;
            }
            if (find_key(L, objidx)) {
                /* stack: table key value name */
                lua_pushliteral(L, ".");
                lua_replace(L, -3); /* table key "." name */
                lua_concat(L, 3);   /* table "key.name" */
                return 1;
            }
        }
        lua_pop(L, 1);
    }
    return 0;
}

/* Push the name under which the function of `ar` is known in
 * package.loaded ("string.rep", or "print" for _G.print). */
static int push_global_funcname(lua_State *L, lua_Debug *ar)
{
    int top = lua_gettop(L);
    lua_getinfo(L, "f", ar); /* the function */
    lua_getfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    luaL_checkstack(L, 6, "not enough stack");
    if (find_field(L, top + 1)) {
        const char *name = lua_tostring(L, -1);
        if (strncmp(name, LUA_GNAME ".", 3) == 0) {
            lua_pushstring(L, name + 3);
            lua_remove(L, -2);
        }
        lua_copy(L, -1, top + 1);
        lua_settop(L, top + 1);
        return 1;
    }
    lua_settop(L, top);
    return 0;
}

/* An error raised short of C stack (port/port.h, kind error) is "C stack
 * overflow" (a ROM string: nothing to format or allocate), not the
 * message whose making would need the stack. */
static __attribute__((noinline)) int cstack_error(lua_State *L)
{
    lua_pushliteral(L, "C stack overflow");
    return lua_error(L);
}

static __attribute__((noinline)) int argerror(lua_State *L, int arg,
                                              const char *extramsg)
{
    lua_Debug ar;
    if (!lua_getstack(L, 0, &ar)) /* no stack frame? */
        return luaL_error(L, "bad argument #%d (%s)", arg, extramsg);
    lua_getinfo(L, "n", &ar);
    if (ar.namewhat != NULL && strcmp(ar.namewhat, "method") == 0) {
        arg--; /* self does not count */
        if (arg == 0)
            return luaL_error(L, "calling '%s' on bad self (%s)", ar.name,
                              extramsg);
    }
    if (ar.name == NULL)
        ar.name = push_global_funcname(L, &ar) ? lua_tostring(L, -1) : "?";
    return luaL_error(L, "bad argument #%d to '%s' (%s)", arg, ar.name,
                      extramsg);
}

/* (The check of the stack before argerror's frame is made.)  The error
 * functions are never inlined: each checks the stack before it calls
 * anything (tools/cstack.lua). */
__attribute__((noinline)) int luaL_argerror(lua_State *L, int arg,
                                            const char *extramsg)
{
    if (port_cstack_short(error))
        return cstack_error(L);
    return argerror(L, arg, extramsg);
}

__attribute__((noinline)) int luaL_typeerror(lua_State *L, int arg,
                                             const char *tname)
{
    if (port_cstack_short(error))
        return cstack_error(L);
    const char *got;
    if (luaL_getmetafield(L, arg, "__name") == LUA_TSTRING)
        got = lua_tostring(L, -1);
    else if (lua_type(L, arg) == LUA_TLIGHTUSERDATA)
        got = "light userdata";
    else
        got = luaL_typename(L, arg);
    const char *msg = lua_pushfstring(L, "%s expected, got %s", tname, got);
    return luaL_argerror(L, arg, msg);
}

static int tag_error(lua_State *L, int arg, int tag)
{
    return luaL_typeerror(L, arg, lua_typename(L, tag));
}

void luaL_where(lua_State *L, int level)
{
    lua_Debug ar;
    if (lua_getstack(L, level, &ar)) {
        lua_getinfo(L, "Sl", &ar);
        if (ar.currentline > 0) {
            lua_pushfstring(L, "%s:%d: ", ar.short_src, ar.currentline);
            return;
        }
    }
    lua_pushliteral(L, "");
}

__attribute__((noinline)) int luaL_error(lua_State *L, const char *fmt, ...)
{
    if (port_cstack_short(error))
        return cstack_error(L);
    va_list ap;
    va_start(ap, fmt);
    luaL_where(L, 1);
    lua_pushvfstring(L, fmt, ap);
    va_end(ap);
    lua_concat(L, 2);
    return lua_error(L);
}

/* ---- Tracebacks --------------------------------------------------------- */

/* The number of levels of L's stack (a binary search on lua_getstack). */
static int last_level(lua_State *L)
{
    lua_Debug ar;
    int lo = 1, hi = 1;
    while (lua_getstack(L, hi, &ar)) {
        lo = hi;
        hi *= 2;
    }
    while (lo < hi) { /* lo exists, hi does not */
        int m = (lo + hi) / 2;
        if (lua_getstack(L, m, &ar))
            lo = m + 1;
        else
            hi = m;
    }
    return hi - 1;
}

static void push_funcname(lua_State *L, lua_Debug *ar)
{
    if (push_global_funcname(L, ar)) {
        lua_pushfstring(L, "function '%s'", lua_tostring(L, -1));
        lua_remove(L, -2);
    } else if (*ar->namewhat != '\0') {
        lua_pushfstring(L, "%s '%s'", ar->namewhat, ar->name);
    } else if (*ar->what == 'm') {
        lua_pushliteral(L, "main chunk");
    } else if (*ar->what != 'C') {
        lua_pushfstring(L, "function <%s:%d>", ar->short_src, ar->linedefined);
    } else {
        lua_pushliteral(L, "?");
    }
}

void luaL_traceback(lua_State *L, lua_State *L1, const char *msg, int level)
{
    /* Pieces are concatenated on the stack level by level rather than
     * in a luaL_Buffer: this keeps the C frame small (the boards' stacks
     * are a few KiB and tracebacks are made deep inside errors). */
    lua_Debug ar;
    int base = lua_gettop(L);
    int last = last_level(L1);
    /* Levels [level + TB_LEVELS_FIRST, last - TB_LEVELS_LAST] are elided
     * when there are too many. */
    int skip_at = last - level > TB_LEVELS_FIRST + TB_LEVELS_LAST
                      ? level + TB_LEVELS_FIRST
                      : -1;
    if (msg) {
        lua_pushstring(L, msg);
        lua_pushliteral(L, "\n");
    }
    lua_pushliteral(L, "stack traceback:");
    while (lua_getstack(L1, level, &ar)) {
        if (level == skip_at) {
            /* This level and n more are left out; lua5.4 reports n. */
            int n = last - level - TB_LEVELS_LAST;
            lua_pushfstring(L, "\n\t...\t(skipping %d levels)", n);
            level += n + 1;
        } else {
            lua_getinfo(L1, "Slnt", &ar);
            if (ar.currentline <= 0)
                lua_pushfstring(L, "\n\t%s: in ", ar.short_src);
            else
                lua_pushfstring(L, "\n\t%s:%d: in ", ar.short_src,
                                ar.currentline);
            push_funcname(L, &ar);
            if (ar.istailcall)
                lua_pushliteral(L, "\n\t(...tail calls...)");
            level++;
        }
        lua_concat(L, lua_gettop(L) - base);
    }
    lua_concat(L, lua_gettop(L) - base);
}

/* ---- Arguments ---------------------------------------------------------- */

static void int_error(lua_State *L, int arg)
{
    if (lua_isnumber(L, arg))
        luaL_argerror(L, arg, "number has no integer representation");
    else
        tag_error(L, arg, LUA_TNUMBER);
}

const char *luaL_checklstring(lua_State *L, int arg, size_t *len)
{
    const char *s = lua_tolstring(L, arg, len);
    if (s == NULL)
        tag_error(L, arg, LUA_TSTRING);
    return s;
}

const char *luaL_optlstring(lua_State *L, int arg, const char *def,
                            size_t *len)
{
    if (lua_isnoneornil(L, arg)) {
        if (len)
            *len = def ? strlen(def) : 0;
        return def;
    }
    return luaL_checklstring(L, arg, len);
}

lua_Number luaL_checknumber(lua_State *L, int arg)
{
    int ok;
    lua_Number n = lua_tonumberx(L, arg, &ok);
    if (!ok)
        tag_error(L, arg, LUA_TNUMBER);
    return n;
}

lua_Number luaL_optnumber(lua_State *L, int arg, lua_Number def)
{
    return luaL_opt(L, luaL_checknumber, arg, def);
}

lua_Integer luaL_checkinteger(lua_State *L, int arg)
{
    int ok;
    lua_Integer i = lua_tointegerx(L, arg, &ok);
    if (!ok)
        int_error(L, arg);
    return i;
}

lua_Integer luaL_optinteger(lua_State *L, int arg, lua_Integer def)
{
    return luaL_opt(L, luaL_checkinteger, arg, def);
}

void luaL_checkstack(lua_State *L, int space, const char *msg)
{
    if (!lua_checkstack(L, space)) {
        if (msg)
            luaL_error(L, "stack overflow (%s)", msg);
        else
            luaL_error(L, "stack overflow");
    }
}

void luaL_checktype(lua_State *L, int arg, int t)
{
    if (lua_type(L, arg) != t)
        tag_error(L, arg, t);
}

void luaL_checkany(lua_State *L, int arg)
{
    if (lua_type(L, arg) == LUA_TNONE)
        luaL_argerror(L, arg, "value expected");
}

int luaL_checkoption(lua_State *L, int arg, const char *def,
                     const char *const lst[])
{
    const char *name =
        def ? luaL_optstring(L, arg, def) : luaL_checkstring(L, arg);
    for (int i = 0; lst[i]; i++)
        if (strcmp(lst[i], name) == 0)
            return i;
    return luaL_argerror(L, arg,
                         lua_pushfstring(L, "invalid option '%s'", name));
}

/* ---- Metatables --------------------------------------------------------- */

int luaL_newmetatable(lua_State *L, const char *tname)
{
    if (luaL_getmetatable(L, tname) != LUA_TNIL)
        return 0; /* the name is taken: its value is pushed */
    lua_pop(L, 1);
    lua_createtable(L, 0, 2);
    lua_pushstring(L, tname);
    lua_setfield(L, -2, "__name");
    lua_pushvalue(L, -1);
    lua_setfield(L, LUA_REGISTRYINDEX, tname);
    return 1;
}

void luaL_setmetatable(lua_State *L, const char *tname)
{
    luaL_getmetatable(L, tname);
    lua_setmetatable(L, -2);
}

void *luaL_testudata(lua_State *L, int ud, const char *tname)
{
    void *p = lua_touserdata(L, ud);
    if (p == NULL || !lua_getmetatable(L, ud))
        return NULL;
    luaL_getmetatable(L, tname);
    if (!lua_rawequal(L, -1, -2))
        p = NULL;
    lua_pop(L, 2);
    return p;
}

void *luaL_checkudata(lua_State *L, int ud, const char *tname)
{
    void *p = luaL_testudata(L, ud, tname);
    if (p == NULL)
        luaL_typeerror(L, ud, tname);
    return p;
}

int luaL_getmetafield(lua_State *L, int obj, const char *event)
{
    if (!lua_getmetatable(L, obj))
        return LUA_TNIL; /* nothing pushed */
    lua_pushstring(L, event);
    int tt = lua_rawget(L, -2);
    if (tt == LUA_TNIL)
        lua_pop(L, 2);
    else
        lua_remove(L, -2);
    return tt;
}

int luaL_callmeta(lua_State *L, int obj, const char *event)
{
    obj = lua_absindex(L, obj);
    if (luaL_getmetafield(L, obj, event) == LUA_TNIL)
        return 0;
    lua_pushvalue(L, obj);
    lua_call(L, 1, 1);
    return 1;
}

const char *luaL_tolstring(lua_State *L, int idx, size_t *len)
{
    idx = lua_absindex(L, idx);
    if (luaL_callmeta(L, idx, "__tostring")) {
        if (!lua_isstring(L, -1))
            luaL_error(L, "'__tostring' must return a string");
    } else {
        switch (lua_type(L, idx)) {
        case LUA_TNUMBER:
        case LUA_TSTRING:
            lua_pushvalue(L, idx); /* a number is converted in the copy */
            break;
        case LUA_TBOOLEAN:
            lua_pushstring(L, lua_toboolean(L, idx) ? "true" : "false");
            break;
        case LUA_TNIL:
            lua_pushliteral(L, "nil");
            break;
        default: {
            int tt = luaL_getmetafield(L, idx, "__name");
            const char *kind = tt == LUA_TSTRING ? lua_tostring(L, -1)
                                                 : luaL_typename(L, idx);
            lua_pushfstring(L, "%s: %p", kind, lua_topointer(L, idx));
            if (tt != LUA_TNIL)
                lua_remove(L, -2);
            break;
        }
        }
    }
    return lua_tolstring(L, -1, len);
}

/* ---- Buffers ------------------------------------------------------------ */

/* Make room for sz more bytes; the buffer's slot is at boxidx. */
static char *prep_buffer(luaL_Buffer *B, size_t sz, int boxidx)
{
    if (B->size - B->n >= sz)
        return B->b + B->n;
    lua_State *L = B->L;
    size_t newsize = B->size / 2 * 3; /* grow by half: the old box is
                                         garbage until the next cycle */
    if ((size_t)-1 - sz < B->n)
        luaL_error(L, "buffer too large");
    if (newsize < B->n + sz)
        newsize = B->n + sz;
    boxidx = lua_absindex(L, boxidx);
    /* The box is a string being built (rtlua_pushbuffer): the result
     * becomes it in place, with no copy (luaL_pushresult). */
    char *nb = rtlua_pushbuffer(L, newsize);
    memcpy(nb, B->b, B->n);
    lua_replace(L, boxidx); /* the old box (or placeholder) is dropped */
    B->b = nb;
    B->size = newsize;
    return nb + B->n;
}

void luaL_buffinit(lua_State *L, luaL_Buffer *B)
{
    B->L = L;
    B->b = B->init.b;
    B->n = 0;
    B->size = LUAL_BUFFERSIZE;
    lua_pushlightuserdata(L, (void *)B); /* the buffer's slot */
}

char *luaL_buffinitsize(lua_State *L, luaL_Buffer *B, size_t sz)
{
    luaL_buffinit(L, B);
    return prep_buffer(B, sz, -1);
}

char *luaL_prepbuffsize(luaL_Buffer *B, size_t sz)
{
    return prep_buffer(B, sz, -1);
}

void luaL_addlstring(luaL_Buffer *B, const char *s, size_t l)
{
    if (l > 0) {
        char *p = prep_buffer(B, l, -1);
        memcpy(p, s, l);
        luaL_addsize(B, l);
    }
}

void luaL_addstring(luaL_Buffer *B, const char *s)
{
    luaL_addlstring(B, s, strlen(s));
}

void luaL_addvalue(luaL_Buffer *B)
{
    lua_State *L = B->L;
    size_t len;
    const char *s = lua_tolstring(L, -1, &len);
    char *p = prep_buffer(B, len, -2);
    memcpy(p, s, len);
    luaL_addsize(B, len);
    lua_pop(L, 1);
}

void luaL_pushresult(luaL_Buffer *B)
{
    lua_State *L = B->L;
    if (B->b != B->init.b) {
        /* The box, on top, is the result: shortened in place (or, short,
         * interned). */
        rtlua_finishbuffer(L, -1, B->n);
    } else {
        lua_pushlstring(L, B->b, B->n);
        lua_remove(L, -2); /* the placeholder */
    }
    B->b = B->init.b;
    B->size = LUAL_BUFFERSIZE;
}

void luaL_pushresultsize(luaL_Buffer *B, size_t sz)
{
    luaL_addsize(B, sz);
    luaL_pushresult(B);
}

void luaL_addgsub(luaL_Buffer *b, const char *s, const char *p, const char *r)
{
    size_t lp = strlen(p);
    const char *w;
    while (lp > 0 && (w = strstr(s, p)) != NULL) { /* "" matches nothing */
        luaL_addlstring(b, s, (size_t)(w - s));
        luaL_addstring(b, r);
        s = w + lp;
    }
    luaL_addstring(b, s);
}

const char *luaL_gsub(lua_State *L, const char *s, const char *p,
                      const char *r)
{
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    luaL_addgsub(&b, s, p, r);
    luaL_pushresult(&b);
    return lua_tostring(L, -1);
}

/* ---- References ------------------------------------------------------------
 * t[0] heads the free list (0: empty); a free slot t[r] holds the next
 * free reference.  New references are #t + 1, so they stay small. */

#define REF_FREELIST 0

int luaL_ref(lua_State *L, int t)
{
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        return LUA_REFNIL;
    }
    t = lua_absindex(L, t);
    int ref = 0;
    if (lua_rawgeti(L, t, REF_FREELIST) == LUA_TNIL) {
        /* First use: an empty list, stored so slot 0 is taken. */
        lua_pushinteger(L, 0);
        lua_rawseti(L, t, REF_FREELIST);
    } else {
        ref = (int)lua_tointeger(L, -1);
    }
    lua_pop(L, 1);
    if (ref != 0) { /* reuse a freed one: t[0] = t[ref] */
        lua_rawgeti(L, t, ref);
        lua_rawseti(L, t, REF_FREELIST);
    } else {
        ref = (int)lua_rawlen(L, t) + 1;
    }
    lua_rawseti(L, t, ref);
    return ref;
}

void luaL_unref(lua_State *L, int t, int ref)
{
    if (ref < 0)
        return; /* LUA_NOREF, LUA_REFNIL */
    t = lua_absindex(L, t);
    lua_rawgeti(L, t, REF_FREELIST);
    lua_rawseti(L, t, ref); /* t[ref] = t[0] */
    lua_pushinteger(L, ref);
    lua_rawseti(L, t, REF_FREELIST); /* t[0] = ref */
}

/* ---- Loading ------------------------------------------------------------ */

int luaL_loadbufferx(lua_State *L, const char *buff, size_t size,
                     const char *name, const char *mode)
{
    return rtlua_loadbuffer(L, buff, size, name, mode);
}

int luaL_loadstring(lua_State *L, const char *s)
{
    return luaL_loadbuffer(L, s, strlen(s), s);
}

/* "cannot <what> <file>[: reason]" replaces the chunk name at fnameidx. */
static int file_error(lua_State *L, const char *what, int fnameidx, int err)
{
    const char *filename = lua_tostring(L, fnameidx) + 1;
#ifdef RTLUA_HOST
    lua_pushfstring(L, "cannot %s %s: %s", what, filename, strerror(err));
#else
    (void)err; /* semihosting gives no reason */
    lua_pushfstring(L, "cannot %s %s", what, filename);
#endif
    lua_remove(L, fnameidx);
    return LUA_ERRFILE;
}

/* luaL_loadfilex's reader: the file (or standard input) in pieces of
 * LOADF_CHUNK bytes, read into a userdata (not the C stack) and handed to
 * lua_load, which compiles each as it comes. */
typedef struct loadf {
    int fd;    /* the file, or -1: standard input (port_getc) */
    char *buf; /* LOADF_CHUNK bytes */
    size_t at; /* the next byte of buf to hand out */
    size_t n;  /* bytes of buf from `at` not handed out yet */
    int err;   /* a read failed: its errno (or -1) */
    int eof;   /* nothing more to read */
} loadf;

/* Read the next piece into buf + from; its length (0 at the end). */
static size_t loadf_read(loadf *lf, size_t from)
{
    size_t n = 0;
    if (lf->eof)
        return 0;
    if (lf->fd < 0) {
        int c;
        while (from + n < LOADF_CHUNK && (c = port_getc()) >= 0)
            lf->buf[from + n++] = (char)c;
    } else {
        errno = 0;
        long got = port_file_read(lf->fd, lf->buf + from, LOADF_CHUNK - from);
        if (got < 0)
            lf->err = errno != 0 ? errno : -1;
        n = got > 0 ? (size_t)got : 0;
    }
    if (n == 0)
        lf->eof = 1;
    return n;
}

static const char *loadf_reader(lua_State *L, void *ud, size_t *size)
{
    loadf *lf = ud;
    (void)L;
    if (lf->n == 0) {
        lf->at = 0;
        lf->n = loadf_read(lf, 0);
    }
    *size = lf->n;
    lf->n = 0;
    return *size > 0 ? lf->buf + lf->at : NULL;
}

/* The first piece, past a UTF-8 byte-order mark and then a first line
 * starting with '#': that line's newline stays, so that line numbers are
 * right, unless a binary chunk follows it. */
static void loadf_start(loadf *lf)
{
    lf->n = loadf_read(lf, 0);
    if (lf->n >= 3 && memcmp(lf->buf, "\xEF\xBB\xBF", 3) == 0) {
        lf->at += 3;
        lf->n -= 3;
    }
    if (lf->n == 0 || lf->buf[lf->at] != '#')
        return;
    for (;;) { /* to the newline, through as many pieces as the line takes */
        const char *nl = memchr(lf->buf + lf->at, '\n', lf->n);
        if (nl != NULL) {
            lf->n -= (size_t)(nl - (lf->buf + lf->at));
            lf->at = (size_t)(nl - lf->buf);
            break;
        }
        lf->at = 0;
        lf->n = loadf_read(lf, 0);
        if (lf->n == 0)
            return;
    }
    if (lf->n == 1) { /* the newline ends the piece: see what follows */
        lf->buf[0] = '\n';
        lf->at = 0;
        lf->n = 1 + loadf_read(lf, 1);
    }
    if (lf->n > 1 && lf->buf[lf->at + 1] == LUA_SIGNATURE[0]) {
        lf->at++; /* a binary chunk */
        lf->n--;
    }
}

int luaL_loadfilex(lua_State *L, const char *filename, const char *mode)
{
    int fnameidx = lua_gettop(L) + 1;
    loadf lf;
    memset(&lf, 0, sizeof lf);
    lf.fd = -1;
    if (filename == NULL)
        lua_pushliteral(L, "=stdin");
    else
        lua_pushfstring(L, "@%s", filename);
    /* (the buffer before the file: a memory error then leaks no file) */
    lf.buf = lua_newuserdatauv(L, LOADF_CHUNK, 0);
    if (filename != NULL) {
        errno = 0;
        lf.fd = port_file_open(filename, "rb");
        if (lf.fd < 0) {
            int err = errno;
            lua_pop(L, 1);
            return file_error(L, "open", fnameidx, err);
        }
    }
    loadf_start(&lf);
    int status = lf.err != 0 ? LUA_ERRFILE
                             : lua_load(L, loadf_reader, &lf,
                                        lua_tostring(L, fnameidx), mode);
    if (lf.fd >= 0)
        port_file_close(lf.fd);
    if (lf.err != 0) {
        lua_settop(L, fnameidx);
        return file_error(L, "read", fnameidx, lf.err);
    }
    /* Leave only the result: drop the chunk name and the buffer. */
    lua_replace(L, fnameidx); /* result over the name */
    lua_settop(L, fnameidx);
    return status;
}

/* ---- Results of os/io functions ----------------------------------------- */

int luaL_fileresult(lua_State *L, int stat, const char *fname)
{
    int en = errno; /* before any call that could change it */
    if (stat) {
        lua_pushboolean(L, 1);
        return 1;
    }
    luaL_pushfail(L);
#ifdef RTLUA_HOST
    const char *msg = en != 0 ? strerror(en) : "error";
#else
    const char *msg = "error";
#endif
    if (fname)
        lua_pushfstring(L, "%s: %s", fname, msg);
    else
        lua_pushstring(L, msg);
    lua_pushinteger(L, en);
    return 3;
}

int luaL_execresult(lua_State *L, int stat)
{
    const char *what = "exit";
    if (stat != 0 && errno != 0)
        return luaL_fileresult(L, 0, NULL);
#ifdef RTLUA_HOST
    if (WIFEXITED(stat)) {
        stat = WEXITSTATUS(stat);
    } else if (WIFSIGNALED(stat)) {
        stat = WTERMSIG(stat);
        what = "signal";
    }
#endif
    if (*what == 'e' && stat == 0)
        lua_pushboolean(L, 1);
    else
        luaL_pushfail(L);
    lua_pushstring(L, what);
    lua_pushinteger(L, stat);
    return 3;
}

/* ---- Tables of functions, modules --------------------------------------- */

lua_Integer luaL_len(lua_State *L, int idx)
{
    int ok;
    lua_len(L, idx);
    lua_Integer l = lua_tointegerx(L, -1, &ok);
    if (!ok)
        luaL_error(L, "object length is not an integer");
    lua_pop(L, 1);
    return l;
}

void luaL_setfuncs(lua_State *L, const luaL_Reg *l, int nup)
{
    luaL_checkstack(L, nup, "too many upvalues");
    for (; l->name != NULL; l++) {
        if (l->func == NULL) {
            lua_pushboolean(L, 0); /* a placeholder field */
        } else {
            for (int i = 0; i < nup; i++)
                lua_pushvalue(L, -nup);
            lua_pushcclosure(L, l->func, nup);
        }
        lua_setfield(L, -(nup + 2), l->name);
    }
    lua_pop(L, nup);
}

int luaL_getsubtable(lua_State *L, int idx, const char *fname)
{
    if (lua_getfield(L, idx, fname) == LUA_TTABLE)
        return 1;
    lua_pop(L, 1);
    idx = lua_absindex(L, idx);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_setfield(L, idx, fname);
    return 0;
}

void luaL_requiref(lua_State *L, const char *modname, lua_CFunction openf,
                   int glb)
{
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    lua_getfield(L, -1, modname);
    if (!lua_toboolean(L, -1)) { /* not loaded yet */
        lua_pop(L, 1);
        lua_pushcfunction(L, openf);
        lua_pushstring(L, modname);
        lua_call(L, 1, 1);
        lua_pushvalue(L, -1);
        lua_setfield(L, -3, modname); /* LOADED[modname] = module */
    }
    lua_remove(L, -2); /* the LOADED table */
    if (glb) {
        lua_pushvalue(L, -1);
        lua_setglobal(L, modname);
    }
}

void luaL_checkversion_(lua_State *L, lua_Number ver, size_t sz)
{
    lua_Number v = lua_version(L);
    if (sz != LUAL_NUMSIZES)
        luaL_error(L, "core and library have incompatible numeric types");
    else if (v != ver)
        luaL_error(L, "version mismatch: app. needs %f, Lua core provides %f",
                   (LUAI_UACNUMBER)ver, (LUAI_UACNUMBER)v);
}

void rtlua_checkversion_(lua_State *L, int ver, size_t sz, const char *config)
{
    if (sz != LUAL_NUMSIZES || config == NULL ||
        strcmp(config, RTLUA_CONFIG) != 0)
        luaL_error(L,
                   "C module built for another rtlua configuration: it has "
                   "%d-byte integers and %d-byte floats (\"%s\"), this "
                   "runtime %d and %d (\"%s\"); rebuild the module against "
                   "the runtime's include directory (build/%s/include)",
                   (int)(sz / 16), (int)(sz % 16), config ? config : "?",
                   (int)sizeof(lua_Integer), (int)sizeof(lua_Number),
                   RTLUA_CONFIG, RTLUA_CONFIG_TARGET);
    else if (ver != LUA_VERSION_NUM)
        luaL_error(L, "version mismatch: app. needs %d, Lua core provides %d",
                   ver, LUA_VERSION_NUM);
}

/* ---- The state: panic and warnings -------------------------------------- */

void lua_writestring_(const char *s, size_t l)
{
    port_write(s, l);
}

void lua_writestringerror_(const char *fmt, ...)
{
    char msg[LUAL_BUFFERSIZE];
    va_list ap;
    va_start(ap, fmt);
    int n = port_vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (n > 0)
        port_write_err(msg,
                       (size_t)n < sizeof msg ? (size_t)n : sizeof msg - 1);
}

/* Panics and warnings go to the error console, as lua5.4's go to
 * stderr. */
static void write_z(const char *s)
{
    port_write_err(s, strlen(s));
}

/* The core prints "PANIC: unprotected error in call to Lua API (msg)"
 * when the panic function returns, and exits: so this one only returns.
 * (Printing here would call lua_tolstring, which may convert, allocate
 * and run a safe point, at the deepest point of the C stack.) */
static int panic(lua_State *L)
{
    (void)L;
    return 0;
}

static void warn_off(void *ud, const char *msg, int tocont);
static void warn_on(void *ud, const char *msg, int tocont);
static void warn_cont(void *ud, const char *msg, int tocont);

/* "@on" / "@off" switch warnings; any other "@..." message is a control
 * message for someone else and is ignored.  Returns 1 for a control
 * message. */
static int warn_control(lua_State *L, const char *msg, int tocont)
{
    if (tocont || msg[0] != '@')
        return 0;
    if (strcmp(msg + 1, "off") == 0)
        lua_setwarnf(L, warn_off, L);
    else if (strcmp(msg + 1, "on") == 0)
        lua_setwarnf(L, warn_on, L);
    return 1;
}

static void warn_off(void *ud, const char *msg, int tocont)
{
    (void)warn_control(ud, msg, tocont);
}

/* The middle or end of a message being written. */
static void warn_cont(void *ud, const char *msg, int tocont)
{
    lua_State *L = ud;
    write_z(msg);
    if (tocont) {
        lua_setwarnf(L, warn_cont, L);
    } else {
        write_z("\n");
        lua_setwarnf(L, warn_on, L);
    }
}

static void warn_on(void *ud, const char *msg, int tocont)
{
    if (warn_control(ud, msg, tocont))
        return;
    write_z("Lua warning: ");
    warn_cont(ud, msg, tocont);
}

lua_State *luaL_newstate(void)
{
    lua_State *L = lua_newstate(NULL, NULL);
    if (L != NULL) {
        lua_atpanic(L, panic);
        lua_setwarnf(L, warn_off, L); /* off by default, as in lua5.4 */
    }
    return L;
}
