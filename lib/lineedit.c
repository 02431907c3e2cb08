/*
 * lineedit.c — the line editor of the REPL on a board's UART (lib/repl.c):
 * a terminal's keys as ANSI sequences, a history, a paste mode.
 *
 *   left, right          move by a character (UTF-8 sequences are one)
 *   Home, End            to the start, to the end (ESC [ H, ESC [ F,
 *                        ESC O H, ESC O F, ESC [ 1 ~, ESC [ 4 ~, 7 ~, 8 ~)
 *   Backspace, Delete    the character before, under the cursor (ESC [ 3 ~)
 *   up, down             the history: the last EDIT_HISTORY lines entered
 *   Ctrl-C               drops the line ("^C", a new prompt)
 *   Ctrl-D               the end of input on an empty line, else Delete
 *   Ctrl-A               raw mode, for tools (lib/rawmode.c), which the
 *                        REPL runs once this returns (the C stack the
 *                        editor holds is free again)
 *   Ctrl-E               paste mode: lines are taken as they come, no
 *                        editing, each after "=== ", until Ctrl-D, and
 *                        run as one chunk; Ctrl-C cancels
 *
 * The line is edited in a buffer of EDIT_LINE_MAX bytes on the C stack
 * (a key that would overflow it rings the bell); after a change that is
 * not typing at the end, the line is drawn again: carriage return,
 * prompt, line, clear to the end, cursor back.  Typing at the end only
 * echoes, so a transcript of plain typing has no escapes in it.  The
 * history is a table in the registry, made by the first line kept.
 */
#include <string.h>

#include "lauxlib.h"
#include "lib/lib.h"
#include "lua.h"
#include "port/port.h"
#include "rtlua.h"

/* Bytes of a line being edited (a longer one is refused, byte by byte). */
#define EDIT_LINE_MAX 256
/* Lines kept for up and down. */
#define EDIT_HISTORY 16
/* Parameter bytes of an escape sequence read before it is dropped. */
#define EDIT_ESC_MAX 8
/* Bytes of pasted text gathered before they move into a Lua string. */
#define EDIT_PASTE_PIECE 128

#define KEY_CTRL_A 0x01
#define KEY_CTRL_C 0x03
#define KEY_CTRL_D 0x04
#define KEY_CTRL_E 0x05
#define KEY_BACKSPACE 0x08
#define KEY_ESC 0x1B
#define KEY_DELETE 0x7F

enum { K_NONE = 256, K_LEFT, K_RIGHT, K_HOME, K_END, K_DEL, K_UP, K_DOWN };

static const char history_key = 0;

typedef struct Edit {
    char buf[EDIT_LINE_MAX];
    size_t len, pos;
    const char *prompt;
    int (*next)(void);
    lua_Integer browse; /* history entry shown (0: the new line) */
} Edit;

static void out(const char *s)
{
    port_write(s, strlen(s));
}

static int is_cont(unsigned char c)
{
    return (c & 0xC0) == 0x80;
}

/* Columns (characters) in buf[from..to). */
static size_t columns(const char *s, size_t from, size_t to)
{
    size_t n = 0;
    for (size_t i = from; i < to; i++)
        n += !is_cont((unsigned char)s[i]);
    return n;
}

static void redraw(Edit *e)
{
    port_putc('\r');
    out(e->prompt);
    port_write(e->buf, e->len);
    out("\x1b[K");
    size_t back = columns(e->buf, e->pos, e->len);
    if (back > 0) {
        char seq[16];
        port_snprintf(seq, sizeof seq, "\x1b[%uD", (unsigned)back);
        out(seq);
    }
}

/* The key after ESC: an arrow, Home, End, Delete, or K_NONE. */
static int escape(Edit *e)
{
    int c = e->next();
    if (c != '[' && c != 'O')
        return K_NONE;
    int num = 0, n = 0;
    for (;;) {
        c = e->next();
        if (c < 0)
            return K_NONE;
        if (c >= '0' && c <= '9' && n < EDIT_ESC_MAX) {
            num = num * 10 + (c - '0');
            n++;
            continue;
        }
        if (c == ';' && n < EDIT_ESC_MAX) {
            n++;
            continue;
        }
        break;
    }
    switch (c) {
    case 'A':
        return K_UP;
    case 'B':
        return K_DOWN;
    case 'C':
        return K_RIGHT;
    case 'D':
        return K_LEFT;
    case 'H':
        return K_HOME;
    case 'F':
        return K_END;
    case '~':
        return num == 1 || num == 7   ? K_HOME
               : num == 4 || num == 8 ? K_END
               : num == 3             ? K_DEL
                                      : K_NONE;
    default:
        return K_NONE;
    }
}

static void set_line(Edit *e, const char *s, size_t n)
{
    if (n > sizeof e->buf)
        n = sizeof e->buf;
    memcpy(e->buf, s, n);
    e->len = e->pos = n;
    redraw(e);
}

/* Up (dir -1) and down (+1) through the history. */
static void browse(lua_State *L, Edit *e, int dir)
{
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &history_key) != LUA_TTABLE) {
        lua_pop(L, 1);
        return;
    }
    lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
    lua_Integer at = e->browse == 0 ? n + 1 : e->browse;
    at += dir;
    if (at >= 1 && at <= n) {
        lua_rawgeti(L, -1, at);
        size_t len;
        const char *s = lua_tolstring(L, -1, &len);
        set_line(e, s, len);
        lua_pop(L, 1);
        e->browse = at;
    } else if (at > n && e->browse != 0) {
        e->browse = 0;
        set_line(e, "", 0);
    }
    lua_pop(L, 1);
}

/* Keeps the line on top in the history (not empty, not the last again). */
static void remember(lua_State *L)
{
    if (lua_rawlen(L, -1) == 0)
        return;
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &history_key) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_createtable(L, EDIT_HISTORY, 0);
        lua_pushvalue(L, -1);
        lua_rawsetp(L, LUA_REGISTRYINDEX, &history_key);
    }
    lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
    if (n > 0) {
        lua_rawgeti(L, -1, n);
        int same = lua_rawequal(L, -1, -3);
        lua_pop(L, 1);
        if (same) {
            lua_pop(L, 1);
            return;
        }
    }
    if (n == EDIT_HISTORY) { /* drop the oldest */
        for (lua_Integer i = 1; i < n; i++) {
            lua_rawgeti(L, -1, i + 1);
            lua_rawseti(L, -2, i);
        }
        n--;
    }
    lua_pushvalue(L, -2);
    lua_rawseti(L, -2, n + 1);
    lua_pop(L, 1);
}

/* Paste mode: lines until Ctrl-D, pushed as one string (1), or 0 when
 * cancelled (Ctrl-C) or at the end of input. */
static int paste(lua_State *L, Edit *e)
{
    char piece[EDIT_PASTE_PIECE];
    size_t n = 0;
    int have = 0;
    out("\npaste mode; Ctrl-D runs, Ctrl-C cancels\n=== ");
    for (;;) {
        int c = e->next();
        if (c < 0 || c == KEY_CTRL_C) {
            if (have)
                lua_pop(L, 1);
            out(c < 0 ? "\n" : "^C\n");
            return 0;
        }
        if (c == KEY_CTRL_D) {
            out("\n");
            break;
        }
        if (c == '\r')
            c = '\n';
        if (c == '\n') {
            out("\n=== ");
        } else {
            char ch = (char)c;
            port_write(&ch, 1);
        }
        if (n == sizeof piece) {
            lua_pushlstring(L, piece, n);
            if (have)
                lua_concat(L, 2);
            have = 1;
            n = 0;
        }
        piece[n++] = (char)c;
    }
    lua_pushlstring(L, piece, n);
    if (have)
        lua_concat(L, 2);
    return 1;
}

int edit_line(lua_State *L, const char *prompt, int (*next)(void))
{
    Edit e;
    e.len = e.pos = 0;
    e.prompt = prompt;
    e.next = next;
    e.browse = 0;
    luaL_checkstack(L, 4, "no room for the line editor");
    for (;;) {
        int c = next();
        if (c == KEY_ESC)
            c = escape(&e);
        switch (c) {
        case -1:
            if (e.len == 0)
                return EDIT_EOF;
            __attribute__((fallthrough)); /* the end of input ends the line */
        case '\r':
        case '\n':
            lua_pushlstring(L, e.buf, e.len);
            remember(L);
            return EDIT_LINE;
        case KEY_CTRL_A:
            return EDIT_RAW;
        case KEY_CTRL_E:
            if (paste(L, &e))
                return EDIT_PASTE;
            e.len = e.pos = 0;
            out(prompt);
            continue;
        case KEY_CTRL_C:
            out("^C\n");
            out(prompt);
            e.len = e.pos = 0;
            e.browse = 0;
            continue;
        case KEY_CTRL_D:
            if (e.len == 0)
                return EDIT_EOF;
            c = K_DEL;
            break;
        default:
            break;
        }
        switch (c) {
        case K_LEFT:
            if (e.pos > 0) {
                do
                    e.pos--;
                while (e.pos > 0 && is_cont((unsigned char)e.buf[e.pos]));
                out("\x1b[D");
            }
            break;
        case K_RIGHT:
            if (e.pos < e.len) {
                do
                    e.pos++;
                while (e.pos < e.len && is_cont((unsigned char)e.buf[e.pos]));
                out("\x1b[C");
            }
            break;
        case K_HOME:
            e.pos = 0;
            redraw(&e);
            break;
        case K_END:
            e.pos = e.len;
            redraw(&e);
            break;
        case K_UP:
        case K_DOWN:
            browse(L, &e, c == K_UP ? -1 : 1);
            break;
        case KEY_BACKSPACE:
        case KEY_DELETE:
        case K_DEL: {
            size_t from = e.pos, to = e.pos;
            if (c == K_DEL) {
                if (to == e.len)
                    break;
                do
                    to++;
                while (to < e.len && is_cont((unsigned char)e.buf[to]));
            } else {
                if (from == 0)
                    break;
                do
                    from--;
                while (from > 0 && is_cont((unsigned char)e.buf[from]));
            }
            memmove(e.buf + from, e.buf + to, e.len - to);
            e.len -= to - from;
            e.pos = from;
            redraw(&e);
            break;
        }
        case K_NONE:
            break;
        default:
            if (c < 0x20 && c != '\t')
                break; /* other control keys: nothing */
            if (e.len == sizeof e.buf) {
                port_putc('\a');
                break;
            }
            memmove(e.buf + e.pos + 1, e.buf + e.pos, e.len - e.pos);
            e.buf[e.pos++] = (char)c;
            e.len++;
            if (e.pos == e.len) {
                char ch = (char)c;
                port_write(&ch, 1);
            } else {
                redraw(&e);
            }
            break;
        }
    }
}
