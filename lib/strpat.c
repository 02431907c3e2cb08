/*
 * strpat.c — Lua 5.4 patterns (§6.4.1) for string.find, match, gmatch
 * and gsub.
 *
 * The matcher is recursive backtracking over the subject; a single
 * character item without a quantifier loops instead of recursing.  Its
 * depth is bounded by PAT_MAXDEPTH and by the C stack left (the match
 * kind's reserve, port/port.h: a floor address read once a match and
 * compared at each level; "pattern too complex") because each level costs
 * C stack, which on the boards is a few KiB.  Captures live
 * in the match state on the C stack (PAT_MAXCAPTURES of them); a
 * capture's length is CAP_UNFINISHED while open and CAP_POSITION for a
 * position capture "()".
 */
#include <string.h>

#include "lauxlib.h"
#include "lib/lib.h"
#include "lib/strlib.h"
#include "lua.h"
#include "port/port.h"

/* Most captures in a pattern. */
#define PAT_MAXCAPTURES 32

/* Deepest recursion of the matcher. */
#define PAT_MAXDEPTH LUAI_MAXCCALLS

static int is_digit(int c)
{
    return c >= '0' && c <= '9';
}

#define PAT_ESC '%'
#define PAT_SPECIALS "^$*+?.([%-"
/* Capture lengths that are not lengths. */
#define CAP_UNFINISHED (-1)
#define CAP_POSITION (-2)

typedef struct {
    const char *src_init; /* subject */
    const char *src_end;
    const char *p_end; /* pattern end */
    lua_State *L;
    int depth; /* recursion levels left */
    int level; /* captures in use */
    /* The lowest C stack address a level may start at: below it fewer
     * than LUAI_CSTACK_KEEP(match) bytes would be left (port_cstack_floor,
     * at ms_init; 0 where the stack is not bounded). */
    uintptr_t floor;
    /* The item every match begins with, a single character class that
     * must match one character (ms_init; NULL: none known): where it does
     * not, the callers' loops skip the position without a pat_match. */
    const char *first, *firstend;
    struct {
        const char *init;
        ptrdiff_t len;
    } capture[PAT_MAXCAPTURES];
} match_state;

static const char *pat_match(match_state *ms, const char *s, const char *p);

static int capture_index(match_state *ms, int l)
{
    l -= '1';
    if (l < 0 || l >= ms->level || ms->capture[l].len == CAP_UNFINISHED)
        return luaL_error(ms->L, "invalid capture index %%%d", l + 1);
    return l;
}

static int capture_to_close(match_state *ms)
{
    int level = ms->level;
    while (--level >= 0)
        if (ms->capture[level].len == CAP_UNFINISHED)
            return level;
    return luaL_error(ms->L, "invalid pattern capture");
}

/* The end of the single-character class at p. */
static const char *class_end(match_state *ms, const char *p)
{
    if (*p == PAT_ESC) {
        if (p + 1 >= ms->p_end)
            luaL_error(ms->L, "malformed pattern (ends with '%%')");
        return p + 2;
    }
    if (*p++ == '[') {
        if (*p == '^')
            p++;
        do {
            /* The first ']' is a member, not the end. */
            if (p >= ms->p_end)
                luaL_error(ms->L, "malformed pattern (missing ']')");
            if (*p++ == PAT_ESC && p < ms->p_end)
                p++;
        } while (*p != ']');
        return p + 1;
    }
    return p;
}

static int in_class(int c, int cl)
{
    int r;
    switch (cl | 0x20) {
    case 'a':
        r = (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
        break;
    case 'c':
        r = c < 32 || c == 127;
        break;
    case 'd':
        r = c >= '0' && c <= '9';
        break;
    case 'g':
        r = c > 32 && c < 127;
        break;
    case 'l':
        r = c >= 'a' && c <= 'z';
        break;
    case 'p':
        r = (c > 32 && c < 48) || (c >= 58 && c <= 64) ||
            (c >= 91 && c <= 96) || (c >= 123 && c <= 126);
        break;
    case 's':
        r = c == ' ' || (c >= '\t' && c <= '\r');
        break;
    case 'u':
        r = c >= 'A' && c <= 'Z';
        break;
    case 'w':
        r = ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || (c >= '0' && c <= '9');
        break;
    case 'x':
        r = (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
        break;
    case 'z':
        /* Deprecated since 5.2 (a pattern may hold "\0") but still a
         * class in 5.4's matcher. */
        r = c == 0;
        break;
    default:
        return cl == c;
    }
    if (cl >= 'A' && cl <= 'Z')
        r = !r;
    return r;
}

/* c in the set [p .. ec], p at '[', ec at the closing ']'. */
static int in_set(int c, const char *p, const char *ec)
{
    int yes = 1;
    if (*++p == '^') {
        yes = 0;
        p++;
    }
    while (p < ec) {
        if (*p == PAT_ESC) {
            p++;
            if (in_class(c, (unsigned char)*p))
                return yes;
            p++;
        } else if (p[1] == '-' && p + 2 < ec) {
            if ((unsigned char)p[0] <= c && c <= (unsigned char)p[2])
                return yes;
            p += 3;
        } else {
            if ((unsigned char)*p == c)
                return yes;
            p++;
        }
    }
    return !yes;
}

static int single_match(match_state *ms, const char *s, const char *p,
                        const char *ep)
{
    if (s >= ms->src_end)
        return 0;
    int c = (unsigned char)*s;
    switch (*p) {
    case '.':
        return 1;
    case PAT_ESC:
        return in_class(c, (unsigned char)p[1]);
    case '[':
        return in_set(c, p, ep - 1);
    default:
        return (unsigned char)*p == c;
    }
}

static const char *match_balance(match_state *ms, const char *s, const char *p)
{
    if (p + 1 >= ms->p_end)
        luaL_error(ms->L, "malformed pattern (missing arguments to '%%b')");
    if (s >= ms->src_end || *s != *p)
        return NULL;
    int open = *p, close = p[1], depth = 1;
    while (++s < ms->src_end) {
        if (*s == close) {
            if (--depth == 0)
                return s + 1;
        } else if (*s == open) {
            depth++;
        }
    }
    return NULL;
}

static const char *max_expand(match_state *ms, const char *s, const char *p,
                              const char *ep)
{
    ptrdiff_t i = 0;
    while (single_match(ms, s + i, p, ep))
        i++;
    for (; i >= 0; i--) {
        const char *r = pat_match(ms, s + i, ep + 1);
        if (r != NULL)
            return r;
    }
    return NULL;
}

static const char *min_expand(match_state *ms, const char *s, const char *p,
                              const char *ep)
{
    for (;;) {
        const char *r = pat_match(ms, s, ep + 1);
        if (r != NULL)
            return r;
        if (!single_match(ms, s, p, ep))
            return NULL;
        s++;
    }
}

static const char *start_capture(match_state *ms, const char *s, const char *p,
                                 ptrdiff_t what)
{
    if (ms->level >= PAT_MAXCAPTURES)
        luaL_error(ms->L, "too many captures");
    ms->capture[ms->level].init = s;
    ms->capture[ms->level].len = what;
    ms->level++;
    const char *r = pat_match(ms, s, p);
    if (r == NULL)
        ms->level--;
    return r;
}

static const char *end_capture(match_state *ms, const char *s, const char *p)
{
    int l = capture_to_close(ms);
    ms->capture[l].len = s - ms->capture[l].init;
    const char *r = pat_match(ms, s, p);
    if (r == NULL)
        ms->capture[l].len = CAP_UNFINISHED;
    return r;
}

static const char *match_capture(match_state *ms, const char *s, int l)
{
    l = capture_index(ms, l);
    size_t len = (size_t)ms->capture[l].len;
    if ((size_t)(ms->src_end - s) >= len &&
        memcmp(ms->capture[l].init, s, len) == 0)
        return s + len;
    return NULL;
}

/* A level refused: the message is pushed as it is, not formatted by
 * luaL_error, whose own check wants the error kind's reserve and, short
 * of it, would say "C stack overflow" instead (the match kind's reserve,
 * left here, covers this path: tools/cstack.lua). */
static int too_complex(lua_State *L)
{
    lua_pushliteral(L, "pattern too complex");
    return lua_error(L);
}

/* The end of a match of p at s, or NULL.  Single-character items with
 * no quantifier loop here instead of recursing. */
static const char *pat_match(match_state *ms, const char *s, const char *p)
{
    char here; /* where this level's frame is */
    PORT_CSTACK_CHECKED(match);
    if (ms->depth-- == 0 || (uintptr_t)&here < ms->floor)
        too_complex(ms->L);
    LOOP_STEP(ms->L); /* backtracking: the caller's pattern sets its length */
    while (p != ms->p_end) {
        const char *ep;
        switch (*p) {
        case '(':
            s = p[1] == ')' ? start_capture(ms, s, p + 2, CAP_POSITION)
                            : start_capture(ms, s, p + 1, CAP_UNFINISHED);
            goto done;
        case ')':
            s = end_capture(ms, s, p + 1);
            goto done;
        case '$':
            if (p + 1 == ms->p_end) {
                s = s == ms->src_end ? s : NULL;
                goto done;
            }
            break;
        case PAT_ESC:
            if (p[1] == 'b') {
                s = match_balance(ms, s, p + 2);
                if (s == NULL)
                    goto done;
                p += 4;
                continue;
            }
            if (p[1] == 'f') {
                p += 2;
                if (*p != '[')
                    luaL_error(ms->L, "missing '[' after '%%f' in pattern");
                ep = class_end(ms, p);
                int prev = s == ms->src_init ? 0 : (unsigned char)s[-1];
                int cur = s < ms->src_end ? (unsigned char)*s : 0;
                if (!in_set(prev, p, ep - 1) && in_set(cur, p, ep - 1)) {
                    p = ep;
                    continue;
                }
                s = NULL;
                goto done;
            }
            if (is_digit((unsigned char)p[1])) {
                s = match_capture(ms, s, (unsigned char)p[1]);
                if (s == NULL)
                    goto done;
                p += 2;
                continue;
            }
            break;
        default:
            break;
        }
        ep = class_end(ms, p);
        if (!single_match(ms, s, p, ep)) {
            if (*ep == '*' || *ep == '?' || *ep == '-') {
                p = ep + 1;
                continue;
            }
            s = NULL;
            goto done;
        }
        switch (*ep) {
        case '?': {
            const char *r = pat_match(ms, s + 1, ep + 1);
            if (r != NULL) {
                s = r;
                goto done;
            }
            p = ep + 1;
            continue;
        }
        case '+':
            s = max_expand(ms, s + 1, p, ep);
            goto done;
        case '*':
            s = max_expand(ms, s, p, ep);
            goto done;
        case '-':
            s = min_expand(ms, s, p, ep);
            goto done;
        default:
            s++;
            p = ep;
            continue;
        }
    }
done:
    ms->depth++;
    return s;
}

static void push_capture(match_state *ms, int i, const char *s, const char *e)
{
    if (i >= ms->level) {
        if (i != 0)
            luaL_error(ms->L, "invalid capture index %%%d", i + 1);
        lua_pushlstring(ms->L, s, (size_t)(e - s));
        return;
    }
    ptrdiff_t l = ms->capture[i].len;
    if (l == CAP_UNFINISHED)
        luaL_error(ms->L, "unfinished capture");
    if (l == CAP_POSITION)
        lua_pushinteger(ms->L,
                        (lua_Integer)(ms->capture[i].init - ms->src_init) + 1);
    else
        lua_pushlstring(ms->L, ms->capture[i].init, (size_t)l);
}

/* Pushes every capture (or the whole match when there are none and s is
 * not NULL); returns how many. */
static int push_captures(match_state *ms, const char *s, const char *e)
{
    int n = (ms->level == 0 && s != NULL) ? 1 : ms->level;
    luaL_checkstack(ms->L, n, "too many captures");
    for (int i = 0; i < n; i++)
        push_capture(ms, i, s, e);
    return n;
}

static void ms_setfirst(match_state *ms, const char *p);

static void ms_init(match_state *ms, lua_State *L, const char *s, size_t ls,
                    const char *p, size_t lp)
{
    ms->L = L;
    ms->src_init = s;
    ms->src_end = s + ls;
    ms->p_end = p + lp;
    ms->depth = PAT_MAXDEPTH;
    ms->level = 0;
    ms->floor = port_cstack_floor(match);
    ms_setfirst(ms, p);
}

/* ms->first for pattern p: its first item after any leading captures'
 * '(' (they consume nothing), when that is a literal character or a
 * class escape such as %a, with no '*', '?' or '-' after it.  Not a set,
 * '.', an anchor, %b, %f or a back reference (nor a malformed item:
 * pat_match raises its error as before). */
static void ms_setfirst(match_state *ms, const char *p)
{
    ms->first = NULL;
    while (p < ms->p_end && *p == '(')
        p += p + 1 < ms->p_end && p[1] == ')' ? 2 : 1;
    if (p >= ms->p_end)
        return;
    const char *ep = p + 1;
    switch (*p) {
    case PAT_ESC:
        if (p + 1 >= ms->p_end || p[1] == 'b' || p[1] == 'f' ||
            is_digit((unsigned char)p[1]))
            return;
        ep = p + 2;
        break;
    case ')':
    case '[':
    case '.':
    case '$':
        return;
    default:
        break;
    }
    /* (the pattern is a Lua string: *p_end is its '\0') */
    if (*ep == '*' || *ep == '?' || *ep == '-')
        return;
    ms->first = p;
    ms->firstend = ep;
}

/* The first position from s on (at most the subject's end) where a match
 * may begin, ms->first set: each position skipped is a loop step, so a
 * long subject still lets the hook run. */
static const char *skip_to_first(match_state *ms, const char *s)
{
    const char *p = ms->first, *ep = ms->firstend, *e = ms->src_end;
    while (s < e) {
        const char *s0 = s;
        const char *lim = e - s > RTLUA_POLL_EVERY ? s + RTLUA_POLL_EVERY : e;
        while (s < lim && !single_match(ms, s, p, ep))
            s++;
        LOOP_STEPS(ms->L, s - s0);
        if (s < lim)
            break;
    }
    return s;
}

static void ms_reset(match_state *ms)
{
    ms->level = 0;
    ms->depth = PAT_MAXDEPTH;
}

static int no_specials(const char *p, size_t l)
{
    size_t i = 0;
    do {
        if (strpbrk(p + i, PAT_SPECIALS) != NULL)
            return 0;
        i += strlen(p + i) + 1;
    } while (i <= l);
    return 1;
}

static const char *plain_find(const char *s, size_t ls, const char *p,
                              size_t lp)
{
    if (lp == 0)
        return s;
    if (lp > ls)
        return NULL;
    const char *last = s + (ls - lp);
    for (; s <= last; s++) {
        s = memchr(s, *p, (size_t)(last - s) + 1);
        if (s == NULL)
            return NULL;
        if (memcmp(s + 1, p + 1, lp - 1) == 0)
            return s;
    }
    return NULL;
}

static int find_or_match(lua_State *L, int find)
{
    size_t ls, lp;
    const char *s = luaL_checklstring(L, 1, &ls);
    const char *p = luaL_checklstring(L, 2, &lp);
    size_t init = strlib_posstart(luaL_optinteger(L, 3, 1), ls) - 1;
    if (init > ls) {
        luaL_pushfail(L);
        return 1;
    }
    if (find && (lua_toboolean(L, 4) || no_specials(p, lp))) {
        const char *r = plain_find(s + init, ls - init, p, lp);
        if (r != NULL) {
            lua_pushinteger(L, (lua_Integer)(r - s) + 1);
            lua_pushinteger(L, (lua_Integer)(r - s + (ptrdiff_t)lp));
            return 2;
        }
    } else {
        match_state ms;
        const char *s1 = s + init;
        int anchor = *p == '^';
        if (anchor) {
            p++;
            lp--;
        }
        ms_init(&ms, L, s, ls, p, lp);
        if (anchor)
            ms.first = NULL;
        do {
            if (ms.first != NULL) {
                s1 = skip_to_first(&ms, s1);
                if (s1 == ms.src_end)
                    break; /* an item must match a character */
            }
            ms_reset(&ms);
            const char *e = pat_match(&ms, s1, p);
            if (e != NULL) {
                if (find) {
                    lua_pushinteger(L, (lua_Integer)(s1 - s) + 1);
                    lua_pushinteger(L, (lua_Integer)(e - s));
                    return push_captures(&ms, NULL, NULL) + 2;
                }
                return push_captures(&ms, s1, e);
            }
        } while (s1++ < ms.src_end && !anchor);
    }
    luaL_pushfail(L);
    return 1;
}

int strlib_find(lua_State *L)
{
    return find_or_match(L, 1);
}

int strlib_match(lua_State *L)
{
    return find_or_match(L, 0);
}

/* gmatch's state, a userdata kept as the iterator's third upvalue (the
 * subject and pattern strings are the first two: they stay alive). */
typedef struct {
    const char *src;
    const char *p;
    const char *lastmatch;
    match_state ms;
} gmatch_state;

static int gmatch_step(lua_State *L)
{
    gmatch_state *gm = lua_touserdata(L, lua_upvalueindex(3));
    gm->ms.L = L;
    for (const char *src = gm->src; src <= gm->ms.src_end; src++) {
        if (gm->ms.first != NULL) {
            src = skip_to_first(&gm->ms, src);
            if (src == gm->ms.src_end)
                break; /* an item must match a character */
        }
        ms_reset(&gm->ms);
        const char *e = pat_match(&gm->ms, src, gm->p);
        if (e != NULL && e != gm->lastmatch) {
            gm->src = gm->lastmatch = e;
            return push_captures(&gm->ms, src, e);
        }
    }
    return 0;
}

int strlib_gmatch(lua_State *L)
{
    size_t ls, lp;
    const char *s = luaL_checklstring(L, 1, &ls);
    const char *p = luaL_checklstring(L, 2, &lp);
    size_t init = strlib_posstart(luaL_optinteger(L, 3, 1), ls) - 1;
    lua_settop(L, 2);
    gmatch_state *gm = lua_newuserdatauv(L, sizeof *gm, 0);
    if (init > ls)
        init = ls + 1;
    ms_init(&gm->ms, L, s, ls, p, lp);
    gm->src = s + init;
    gm->p = p;
    gm->lastmatch = NULL;
    lua_pushcclosure(L, gmatch_step, 3);
    return 1;
}

static void add_replacement_string(match_state *ms, luaL_Buffer *b,
                                   const char *s, const char *e)
{
    size_t l;
    lua_State *L = ms->L;
    const char *r = lua_tolstring(L, 3, &l);
    const char *re = r + l;
    while (r < re) {
        const char *q = memchr(r, PAT_ESC, (size_t)(re - r));
        if (q == NULL) {
            luaL_addlstring(b, r, (size_t)(re - r));
            return;
        }
        luaL_addlstring(b, r, (size_t)(q - r));
        q++;
        if (*q == PAT_ESC) {
            luaL_addchar(b, *q);
        } else if (*q == '0') {
            luaL_addlstring(b, s, (size_t)(e - s));
        } else if (is_digit((unsigned char)*q)) {
            push_capture(ms, *q - '1', s, e);
            luaL_tolstring(L, -1, NULL);
            lua_remove(L, -2);
            luaL_addvalue(b);
        } else {
            luaL_error(L, "invalid use of '%c' in replacement string",
                       PAT_ESC);
        }
        r = q + 1;
    }
}

/* Adds the replacement for the match s..e; returns whether it changed
 * the subject (a false/nil result keeps the original text). */
static int add_replacement(match_state *ms, luaL_Buffer *b, const char *s,
                           const char *e, int tr)
{
    lua_State *L = ms->L;
    if (tr == LUA_TFUNCTION) {
        lua_pushvalue(L, 3);
        int n = push_captures(ms, s, e);
        lua_call(L, n, 1);
    } else if (tr == LUA_TTABLE) {
        push_capture(ms, 0, s, e);
        lua_gettable(L, 3);
    } else {
        add_replacement_string(ms, b, s, e);
        return 1;
    }
    if (!lua_toboolean(L, -1)) {
        lua_pop(L, 1);
        luaL_addlstring(b, s, (size_t)(e - s));
        return 0;
    }
    if (!lua_isstring(L, -1))
        return luaL_error(L, "invalid replacement value (a %s)",
                          luaL_typename(L, -1));
    luaL_addvalue(b);
    return 1;
}

int strlib_gsub(lua_State *L)
{
    size_t srcl, lp;
    const char *src = luaL_checklstring(L, 1, &srcl);
    const char *p = luaL_checklstring(L, 2, &lp);
    const char *lastmatch = NULL;
    int tr = lua_type(L, 3);
    lua_Integer max_s = luaL_optinteger(L, 4, (lua_Integer)srcl + 1);
    int anchor = *p == '^';
    lua_Integer n = 0;
    int changed = 0;
    luaL_argexpected(L,
                     tr == LUA_TNUMBER || tr == LUA_TSTRING ||
                         tr == LUA_TFUNCTION || tr == LUA_TTABLE,
                     3, "string/function/table");
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    if (anchor) {
        p++;
        lp--;
    }
    match_state ms;
    ms_init(&ms, L, src, srcl, p, lp);
    if (anchor)
        ms.first = NULL;
    while (n < max_s) {
        if (ms.first != NULL) {
            const char *t = skip_to_first(&ms, src);
            luaL_addlstring(&b, src, (size_t)(t - src));
            src = t;
            if (src == ms.src_end)
                break; /* an item must match a character */
        }
        ms_reset(&ms);
        const char *e = pat_match(&ms, src, p);
        if (e != NULL && e != lastmatch) {
            n++;
            changed = add_replacement(&ms, &b, src, e, tr) | changed;
            src = lastmatch = e;
        } else if (src < ms.src_end) {
            luaL_addchar(&b, *src++);
        } else {
            break;
        }
        if (anchor)
            break;
    }
    if (!changed) {
        lua_pushvalue(L, 1);
    } else {
        luaL_addlstring(&b, src, (size_t)(ms.src_end - src));
        luaL_pushresult(&b);
    }
    lua_pushinteger(L, n);
    return 2;
}
