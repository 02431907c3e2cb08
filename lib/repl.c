/*
 * repl.c — the interactive prompt (rtlua_repl), on the host's terminal and
 * on a board's console, behaving as lua5.4's:
 *
 * - "> " asks for a line, which is first compiled as "return <line>" (an
 *   expression: its values are printed with the global print, several
 *   tab-separated), else as a statement.  A line starting with '=' is
 *   "return" and the rest, as in lua5.4.
 * - A statement whose syntax error ends in "<eof>" is incomplete: ">> "
 *   asks for another line, joined with "\n", until it compiles or fails.
 *   The end of input there reports the syntax error, as Lua 5.4.8 does.
 * - The globals _PROMPT and _PROMPT2, when not nil, replace the two
 *   prompts (through tostring, so a number or a __tostring works).
 * - Errors (compile or run) are printed on the error console with the
 *   message (and, for run-time errors, a traceback) and the prompt comes
 *   back; the end of input prints "\n" and returns.  The chunk is "=stdin".
 *
 * Input: on the host, stdin through port_getc (a terminal echoes and
 * edits).  When the host's stdin is not a terminal, each line read is
 * echoed after the prompt, as by Debian's lua5.4 (GNU readline, which it
 * is linked with, echoes what it reads from a pipe), so that a piped
 * session prints the same transcript under both.  On a board, the
 * console UART, which does not echo: lib/lineedit.c edits each line
 * (the cursor keys, Home and End, Backspace and Delete, a history, a
 * paste mode, Ctrl-C to drop the line, Ctrl-D on an empty line for the
 * end of input), and Ctrl-A there enters the raw mode of tools
 * (lib/rawmode.c).  When the board runs under QEMU with the host's stdin
 * piped (port_stdin_piped), lines come from the host's stdin over
 * semihosting, which sees the end of the input; they are echoed so the
 * transcript reads as on a terminal.
 *
 * Interrupting: on a board reading the UART, Ctrl-C while a line runs
 * calls rtlua_interrupt from the tick's interrupt (port_console_onbreak),
 * so the next safe point raises "interrupted!" wherever the code is: in
 * a __gc metamethod or a hook too, where no hook runs, and in a library's
 * C loop (rtlua_poll).  A count hook polls the console every
 * REPL_POLL_COUNT instructions, and keeps the other bytes as type-ahead
 * (REPL_TYPEAHEAD of them; the port's ring and the console keep the rest,
 * unread, until the prompt reads them).
 * On the host, SIGINT arms the same hook.  A hook the code installs itself
 * (debug.sethook) replaces this one for the rest of that line.
 *
 * rtlua_docall, with which lib/main.c runs every chunk too, is where
 * SIGINT (on the host) and the console poll (on a board, in the REPL
 * only) interrupt the running code.
 *
 * One REPL runs at a time (the input state is static: a hook cannot be
 * given a pointer).  Everything the REPL holds between calls that allocate
 * lives on the Lua stack.
 */
#include <string.h>

#include "lauxlib.h"
#include "lib/lib.h"
#include "lua.h"
#include "port/port.h"
#include "rtlua.h"
#ifdef RTLUA_HOST
#include <signal.h>
#include <unistd.h>
#endif

#define REPL_CHUNKNAME "=stdin"
#define REPL_PROMPT "> "
#define REPL_PROMPT2 ">> "
/* Bytes of a line gathered on the C stack before they move into a Lua
 * string (a line may be longer; backspace edits only this piece). */
#define REPL_LINE_PIECE 128
/* VM instructions between two polls of the console while a line runs. */
#define REPL_POLL_COUNT 4096
/* Bytes of piped input read at once. */
#define REPL_PIPE_BUF 64
/* Bytes typed while a line runs, kept for the next prompt (power of 2). */
#define REPL_TYPEAHEAD 32

#define KEY_CTRL_C 0x03

typedef struct ReplInput {
    int piped;    /* lines come from port_stdin_read */
    int editing;  /* the line editor (a board's UART) */
    int echo;     /* echo each line read (nothing else echoes it) */
    int polling;  /* the count hook polls the console */
    int after_cr; /* the last byte was '\r': a '\n' right after is eaten */
    int ended;    /* end of input seen */
    volatile int interrupted; /* Ctrl-C or SIGINT while a line runs */
    int was_interrupted;      /* the last rtlua_docall ended so */
    int discard;              /* bytes other than Ctrl-C are dropped */
    unsigned ahead_head, ahead_tail;
    unsigned char ahead[REPL_TYPEAHEAD];
    int pipe_pos, pipe_len;
    unsigned char pipe[REPL_PIPE_BUF];
} ReplInput;

static ReplInput in;

/* ---- Input -------------------------------------------------------------- */

static int ahead_full(void)
{
    return in.ahead_head - in.ahead_tail == REPL_TYPEAHEAD;
}

static void keep_ahead(int c)
{
    if (!ahead_full())
        in.ahead[in.ahead_head++ % REPL_TYPEAHEAD] = (unsigned char)c;
}

void repl_typeahead(int keep)
{
    in.ahead_head = in.ahead_tail = 0;
    in.discard = !keep;
}

/* The next input byte, or -1 at the end of input. */
static int next_byte(void)
{
    if (in.ended)
        return -1;
    if (in.ahead_head != in.ahead_tail)
        return in.ahead[in.ahead_tail++ % REPL_TYPEAHEAD];
#ifndef RTLUA_HOST
    if (in.piped) {
        if (in.pipe_pos == in.pipe_len) {
            long n = port_stdin_read(in.pipe, sizeof in.pipe);
            if (n <= 0) {
                in.ended = 1;
                return -1;
            }
            in.pipe_pos = 0;
            in.pipe_len = (int)n;
        }
        return in.pipe[in.pipe_pos++];
    }
#endif
    int c = port_getc();
    if (c < 0)
        in.ended = 1;
    return c;
}

static void write_prompt(const char *prompt)
{
    lua_writestring(prompt, strlen(prompt));
}

/* Pushes and returns the prompt: the global _PROMPT (first line of a
 * statement) or _PROMPT2 as tostring makes it, or the default. */
static const char *push_prompt(lua_State *L, int first)
{
    if (lua_getglobal(L, first ? "_PROMPT" : "_PROMPT2") == LUA_TNIL) {
        lua_pop(L, 1);
        return lua_pushstring(L, first ? REPL_PROMPT : REPL_PROMPT2);
    }
    const char *prompt = luaL_tolstring(L, -1, NULL);
    lua_remove(L, -2);
    return prompt;
}

/* Moves the bytes gathered in piece onto the Lua stack, joined with the
 * string already there when *have is set. */
static void flush_piece(lua_State *L, const char *piece, size_t n, int *have)
{
    lua_pushlstring(L, piece, n);
    if (*have)
        lua_concat(L, 2);
    *have = 1;
}

/* The next byte for the line editor: a '\n' right after a '\r' is the
 * rest of one line end, not an empty line. */
static int next_edit_byte(void)
{
    for (;;) {
        int c = next_byte();
        if (c == '\n' && in.after_cr) {
            in.after_cr = 0;
            continue;
        }
        in.after_cr = c == '\r';
        return c;
    }
}

/* A line from piped input or the host's terminal (without its end),
 * pushed; 0 at the end of input before any byte. */
static int read_plain_line(lua_State *L)
{
    char piece[REPL_LINE_PIECE];
    size_t n = 0;
    int have = 0; /* part of the line is on the stack */
    int got = 0;  /* a byte of this line was read */
    for (;;) {
        int c = next_byte();
        if (c < 0) {
            if (!got) {
                if (have)
                    lua_pop(L, 1);
                return 0;
            }
            break;
        }
        if (c == '\n' && in.after_cr) { /* the rest of a "\r\n" */
            in.after_cr = 0;
            continue;
        }
        in.after_cr = c == '\r';
        if (c == '\r' || c == '\n')
            break;
        got = 1;
        if (n == sizeof piece) {
            flush_piece(L, piece, n, &have);
            n = 0;
        }
        piece[n++] = (char)c;
    }
    flush_piece(L, piece, n, &have);
    if (in.echo) {
        size_t len;
        const char *line = lua_tolstring(L, -1, &len);
        port_write(line, len);
        port_putc('\n');
    }
    return 1;
}

/* Shows the prompt (of a statement's first line or of a continuation)
 * and reads a line (without its end): pushes it and returns EDIT_LINE,
 * or a block pasted in the line editor's paste mode (EDIT_PASTE); or
 * pushes nothing and returns EDIT_EOF (the end of input before any byte)
 * or EDIT_RAW (the line editor's Ctrl-A). */
static int read_line(lua_State *L, int first)
{
    luaL_checkstack(L, 3, "no room for an input line");
    const char *prompt = push_prompt(L, first);
    write_prompt(prompt);
    int r = in.editing           ? edit_line(L, prompt, next_edit_byte)
            : read_plain_line(L) ? EDIT_LINE
                                 : EDIT_EOF;
    if (r == EDIT_EOF || r == EDIT_RAW) {
        if (r == EDIT_EOF)
            in.ended = 1;
        lua_pop(L, 1); /* the prompt */
        return r;
    }
    lua_remove(L, -2); /* the prompt */
    if (in.editing && r == EDIT_LINE)
        port_putc('\n');
    return r;
}

/* ---- Compiling ---------------------------------------------------------- */

/* A syntax error whose message ends in "<eof>": more lines may finish it. */
static int incomplete(lua_State *L, int status)
{
    static const char mark[] = "<eof>";
    const size_t k = sizeof mark - 1;
    size_t len;
    const char *msg;
    if (status != LUA_ERRSYNTAX)
        return 0;
    msg = lua_tolstring(L, -1, &len);
    return msg != NULL && len >= k && memcmp(msg + len - k, mark, k) == 0;
}

static int load_top(lua_State *L)
{
    size_t len;
    const char *s = lua_tolstring(L, -1, &len);
    return luaL_loadbuffer(L, s, len, REPL_CHUNKNAME);
}

/* Reads a statement: the function compiled from it on top and LUA_OK, the
 * error message and the compiler's status; or -1 at the end of input, -2
 * for raw mode. */
static int read_statement(lua_State *L)
{
    int r = read_line(L, 1);
    if (r == EDIT_EOF || r == EDIT_RAW)
        return r == EDIT_EOF ? -1 : -2;
    if (r == EDIT_PASTE) { /* a pasted block: one chunk */
        int status = load_top(L);
        lua_remove(L, -2);
        return status;
    }
    size_t len;
    const char *line = lua_tolstring(L, -1, &len);
    if (len > 0 && line[0] == '=') { /* "=expr": lua5.4's old shorthand */
        lua_pushliteral(L, "return ");
        lua_pushlstring(L, line + 1, len - 1);
        lua_concat(L, 2);
        lua_remove(L, -2);
    }
    /* As an expression first: its values will be printed. */
    lua_pushliteral(L, "return ");
    lua_pushvalue(L, -2);
    lua_concat(L, 2);
    int status = load_top(L);
    lua_remove(L, -2); /* "return " .. line */
    if (status == LUA_OK) {
        lua_remove(L, -2); /* the line */
        return LUA_OK;
    }
    lua_pop(L, 1);
    for (;;) { /* as a statement, while the lines leave it unfinished */
        status = load_top(L);
        if (status == LUA_OK || !incomplete(L, status)) {
            lua_remove(L, -2);
            return status;
        }
        r = read_line(L, 0);
        if (r == EDIT_EOF || r == EDIT_RAW) { /* the end inside a statement */
            lua_remove(L, -2);
            if (r == EDIT_RAW) {
                lua_pop(L, 1);
                return -2;
            }
            return status;
        }
        lua_remove(L, -2); /* the message */
        lua_pushliteral(L, "\n");
        lua_insert(L, -2);
        lua_concat(L, 3);
    }
}

/* ---- Running ------------------------------------------------------------ */

static void repl_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    if (in.polling) {
        int c;
        while ((in.discard || !ahead_full()) && (c = port_pollc()) >= 0) {
            if (c == KEY_CTRL_C)
                in.interrupted = 1;
            else if (!in.discard)
                keep_ahead(c);
        }
    }
    if (in.interrupted) {
        in.interrupted = 0;
        in.was_interrupted = 1;
        lua_sethook(L, NULL, 0, 0);
        luaL_error(L, "interrupted!");
    }
}

#ifndef RTLUA_HOST
static lua_State *volatile break_state;

/* Ctrl-C while a line runs, from the tick's interrupt: one store. */
static void on_break(void)
{
    in.was_interrupted = 1;
    rtlua_interrupt(break_state, 1);
}
#endif

#ifdef RTLUA_HOST
static lua_State *volatile signalled_state;

/* SIGINT while a line runs: the next instruction runs the hook, which
 * raises the error (a signal handler cannot). */
static void on_sigint(int sig)
{
    signal(sig, SIG_DFL); /* a second Ctrl-C ends the program */
    in.interrupted = 1;
    lua_sethook(signalled_state, repl_hook,
                LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
}
#endif

/* The message plus a traceback from where the error was raised (the
 * REPL's and the rtlua program's message handler). */
int rtlua_msghandler(lua_State *L)
{
    const char *msg = lua_tostring(L, 1);
    if (msg == NULL) {
        if (luaL_callmeta(L, 1, "__tostring") &&
            lua_type(L, -1) == LUA_TSTRING)
            return 1;
        msg = lua_pushfstring(L, "(error object is a %s value)",
                              luaL_typename(L, 1));
    }
    luaL_traceback(L, L, msg, 1);
    return 1;
}

int rtlua_docall(lua_State *L, int narg, int nres)
{
    int base = lua_gettop(L) - narg;
    lua_pushcfunction(L, rtlua_msghandler);
    lua_insert(L, base);
    in.interrupted = in.was_interrupted = 0;
    /* The tick's Ctrl-C for the REPL's lines, not in the raw mode
     * (in.discard), whose tools send frames in which a 0x03 may be data:
     * with it, a 0x03 that arrived while a script ran interrupted it
     * once (mps2-an500's remote.no_memory, under load); there the count
     * hook polls, as it always did. */
#ifndef RTLUA_HOST
    int tickbreak = in.polling && !in.discard;
#endif
    if (in.polling) {
        lua_sethook(L, repl_hook, LUA_MASKCOUNT, REPL_POLL_COUNT);
#ifndef RTLUA_HOST
        if (tickbreak) {
            break_state = L;
            port_console_onbreak(on_break);
        }
#endif
    }
#ifdef RTLUA_HOST
    signalled_state = L;
    signal(SIGINT, on_sigint);
#endif
    int status = lua_pcall(L, narg, nres, base);
#ifdef RTLUA_HOST
    signal(SIGINT, SIG_DFL);
#else
    if (tickbreak) {
        port_console_onbreak(NULL);
        rtlua_interrupt(L, 0); /* raised, or came too late to be */
    }
#endif
    if (lua_gethook(L) == repl_hook)
        lua_sethook(L, NULL, 0, 0);
    in.interrupted = 0;
    lua_remove(L, base);
    return status;
}

int repl_interrupted(void)
{
    return in.was_interrupted;
}

static void report_text(const char *msg)
{
    port_write_err(msg, strlen(msg));
    port_write_err("\n", 1);
}

/* Prints the error message on top and pops it. */
static void report(lua_State *L)
{
    int top = lua_gettop(L);
    const char *msg = lua_tostring(L, -1);
    if (msg == NULL)
        msg = lua_pushfstring(L, "(error object is a %s value)",
                              luaL_typename(L, -1));
    report_text(msg);
    lua_settop(L, top - 1);
}

/* Prints the values above base with the global print. */
static void print_results(lua_State *L, int base)
{
    int n = lua_gettop(L) - base;
    if (n <= 0)
        return;
    luaL_checkstack(L, LUA_MINSTACK, "too many results to print");
    lua_getglobal(L, "print");
    lua_insert(L, base + 1);
    if (lua_pcall(L, n, 0, 0) != LUA_OK) {
        /* An error object that is no string shows as "(null)", as in
         * lua5.4 (lua_pushfstring's text for a NULL "%s"). */
        report_text(lua_pushfstring(L, "error calling 'print' (%s)",
                                    lua_tostring(L, -1)));
        lua_pop(L, 2);
    }
}

/* One prompt: read, run, print.  Returns false at the end of input. */
static int repl_step(lua_State *L)
{
    int base = lua_gettop(L);
    int status = read_statement(L);
    if (status == -2) { /* Ctrl-A: raw mode, then the prompt again */
        lua_settop(L, base);
        rtlua_rawmode(L);
        return 1;
    }
    if (status < 0)
        return 0;
    if (status == LUA_OK)
        status = rtlua_docall(L, 0, LUA_MULTRET);
    if (status == LUA_OK)
        print_results(L, base);
    else
        report(L);
    lua_settop(L, base);
    return 1;
}

int rtlua_repl(lua_State *L)
{
    memset(&in, 0, sizeof in);
#ifdef RTLUA_HOST
    in.echo = !isatty(0);
#else
    in.piped = port_stdin_piped();
    in.editing = !in.piped;
    in.echo = 1;
    in.polling = !in.piped;
#endif
    /* Steps run straight from the caller's frame, as lua5.4's REPL runs
     * from its main function: a traceback ends in one "[C]: in ?". */
    while (repl_step(L))
        ;
    lua_writeline();
    return 0;
}
