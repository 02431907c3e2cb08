/*
 * rawmode.c — the console's raw mode, for tools (tools/rtlua-remote):
 * scripts sent in checksummed frames, run, their output and status sent
 * back in frames.  Ctrl-A at the REPL's prompt enters it (the REPL of a
 * board's UART: lib/repl.c); there is no prompt and no echo.
 *
 * A frame, both ways:
 *
 *   STX  type  seq  len (2, little-endian)  hcheck  payload (len)  crc (4)
 *
 * hcheck is a CRC-8 (polynomial 0x07) of type, seq and len, so a length
 * damaged in transit is found before the payload is waited for; crc is
 * the CRC-32 (IEEE) of type, seq, len and the payload, little-endian.
 * len is at most RAW_MAX_PAYLOAD.  The tool sends:
 *
 *   S  start a script: total length (4), CRC-32 of the whole script (4),
 *      then the chunk name and the arguments, each ending in a NUL
 *   D  the script's next bytes
 *   E  run it: the board answers K, runs it, and sends X
 *   Q  leave raw mode (back to the REPL's prompt)
 *   Z  reset the board (hw.reset's software reset)
 *
 * and the board answers each frame it takes with K (the frame's seq), or
 * with N (its seq, 0xFF when the header was bad; the reason as payload)
 * for a frame that fails a check, which is then not acted on.  While a
 * script runs it sends its output as O (stdout) and W (stderr) frames,
 * numbered from 0 in seq so the tool sees a lost one, and ends with X
 * (E's seq): 'e' and the status (0, or 1 after an error; os.exit's
 * code), 'i' when Ctrl-C interrupted it, or 'r' when the script was
 * refused: status 0 when its length or checksum is not the announced
 * one, 2 when the board had no memory for it (or another error ended the
 * session), then that error's text; the X of a refusal answers the frame
 * in flight (S, D or E).  A refused script never runs.  H (the hello:
 * "raw=1;board=NAME;max=N") is the answer to Ctrl-A, which may be sent again
 * at any time a frame is not being read.
 *
 * Surviving a line that drops or repeats bytes: the tool sends a frame
 * and waits for its answer (stop and wait); the board acts on a frame
 * only when every check passes, and a frame whose seq is the last one
 * taken is a repeat: it is answered again (K, or the same X for a run)
 * but not acted on, so a script runs once however often its E frame
 * comes.  A frame cut short leaves the board reading its payload; the
 * tool, hearing nothing, sends bytes that start no frame, which complete
 * it (its check then fails) and are skipped by the search for the next
 * STX.  Bytes other than Ctrl-C that arrive while a script runs are
 * dropped.
 *
 * Memory: the script is kept as a table of chunks on the Lua stack, its
 * CRC taken as they come, and compiled from them where they lie (a
 * reader over the table: no joined copy, which on the micro:bit's 6.7 KiB
 * arena refused scripts over about 1 KiB); a session runs in a protected
 * call: running out of memory refuses the script ('r'), the session
 * starts again and nothing else is lost.
 */
#include <string.h>

#include "lauxlib.h"
#include "lib/lib.h"
#include "lua.h"
#include "port/port.h"
#include "rtlua.h"

#define RAW_STX 0x02
#define RAW_CTRL_A 0x01
#define RAW_PROTOCOL 1
/* The most payload bytes a frame carries. */
#define RAW_MAX_PAYLOAD 256
/* Output bytes gathered before a frame goes out (also at a newline). */
#define RAW_OUT_CHUNK 128
#define RAW_HEADER 5
#define RAW_SEQ_NONE 0xFFu
/* S frame: length and CRC before the words. */
#define RAW_START_FIXED 8
/* X frame: what ended the run, the status (4), output frames sent. */
#define RAW_X_BYTES 6
/* Sessions ended by an error (no memory) before raw mode gives up. */
#define RAW_SESSION_TRIES 8
/* X's status for a script refused because an error (no memory) ended the
 * session, and the most bytes of the error's text it carries. */
#define RAW_REFUSED_ERROR 2
#define RAW_REASON_MAX 80

/* Stack slots of a session, above its base. */
enum { SLOT_WORDS = 1, SLOT_CHUNKS, SLOT_TOP = SLOT_CHUNKS };

typedef struct RawFrame {
    char kind;
    uint8_t seq;
    size_t len;
    uint8_t payload[RAW_MAX_PAYLOAD];
} RawFrame;

/* A session's state: a userdata on its stack (arena memory only while
 * raw mode runs). */
typedef struct RawState {
    RawFrame in; /* the frame being read */
    /* Output gathered for the next O or W frame, the count sent. */
    int out_stream; /* 1 or 2 while bytes wait */
    uint8_t out_seq;
    size_t out_len;
    char out[RAW_OUT_CHUNK];
    /* The last frame taken, and the X an E was answered with. */
    int last_seq;
    char last_kind;
    uint8_t last_x[RAW_X_BYTES];
    /* The script being received: announced length and CRC, bytes and the
     * CRC (not yet complemented) so far. */
    uint32_t want_len, want_crc, got_len, got_crc;
    int started;
    uint8_t run_seq; /* the E frame of the run in progress */
} RawState;

/* The session's state, for the output sink (a plain function). */
static RawState *raw;
/* The seq of the frame being acted on, for the refusal when an error ends
 * the session (its state is then gone). */
static uint8_t in_flight = RAW_SEQ_NONE;

/* ---- Checks ------------------------------------------------------------- */

static uint8_t crc8(const uint8_t *p, size_t n)
{
    uint8_t c = 0;
    while (n--) {
        c ^= *p++;
        for (int k = 0; k < 8; k++)
            c = (uint8_t)(c & 0x80 ? (c << 1) ^ 0x07 : c << 1);
    }
    return c;
}

/* CRC-32 (IEEE, reflected), a nibble at a time: a 64-byte table. */
static const uint32_t crc_nibble[16] = {
    0x00000000u, 0x1DB71064u, 0x3B6E20C8u, 0x26D930ACu,
    0x76DC4190u, 0x6B6B51F4u, 0x4DB26158u, 0x5005713Cu,
    0xEDB88320u, 0xF00F9344u, 0xD6D6A3E8u, 0xCB61B38Cu,
    0x9B64C2B0u, 0x86D3D2D4u, 0xA00AE278u, 0xBDBDF21Cu};

static uint32_t crc32_more(uint32_t c, const uint8_t *p, size_t n)
{
    while (n--) {
        c ^= *p++;
        c = (c >> 4) ^ crc_nibble[c & 15u];
        c = (c >> 4) ^ crc_nibble[c & 15u];
    }
    return c;
}

/* ---- Frames out --------------------------------------------------------- */

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

static void send_frame(char kind, uint8_t seq, const void *payload, size_t n)
{
    uint8_t head[1 + RAW_HEADER], tail[4];
    head[0] = RAW_STX;
    head[1] = (uint8_t)kind;
    head[2] = seq;
    head[3] = (uint8_t)n;
    head[4] = (uint8_t)(n >> 8);
    head[5] = crc8(head + 1, 4);
    uint32_t c = crc32_more(0xFFFFFFFFu, head + 1, 4);
    c = crc32_more(c, payload, n);
    put32(tail, ~c);
    port_raw_write((const char *)head, sizeof head);
    port_raw_write(payload, n);
    port_raw_write((const char *)tail, sizeof tail);
}

static void send_text(char kind, uint8_t seq, const char *text)
{
    send_frame(kind, seq, text, strlen(text));
}

static void hello(void)
{
    char buf[64];
    int n = port_snprintf(buf, sizeof buf, "raw=%d;board=%s;max=%d",
                          RAW_PROTOCOL, port_board(), RAW_MAX_PAYLOAD);
    send_frame('H', 0, buf, (size_t)n < sizeof buf ? (size_t)n : 0);
}

static void out_flush(RawState *r)
{
    if (r->out_len > 0) {
        send_frame(r->out_stream == 2 ? 'W' : 'O', r->out_seq++, r->out,
                   r->out_len);
        r->out_len = 0;
    }
}

/* The end of a run: X with what happened, the status and the count of
 * output frames (so the tool knows when one was lost). */
static void send_x(RawState *r, uint8_t seq, char what, int32_t status)
{
    out_flush(r);
    r->last_x[0] = (uint8_t)what;
    put32(r->last_x + 1, (uint32_t)status);
    r->last_x[5] = r->out_seq;
    send_frame('X', seq, r->last_x, sizeof r->last_x);
}

/* Console output while a script runs (port_console_sink): frames at each
 * newline and every RAW_OUT_CHUNK bytes. */
static void sink(int stream, const char *s, size_t n)
{
    RawState *r = raw;
    if (stream == 0) { /* os.exit: the program ends with status n */
        send_x(r, r->run_seq, 'e', (int32_t)n);
        return;
    }
    while (n > 0) {
        if (r->out_len > 0 && r->out_stream != stream)
            out_flush(r);
        r->out_stream = stream;
        size_t k = 0;
        int line = 0;
        while (k < n && r->out_len < RAW_OUT_CHUNK) {
            char c = s[k++];
            r->out[r->out_len++] = c;
            if (c == '\n') {
                line = 1;
                break;
            }
        }
        s += k;
        n -= k;
        if (line || r->out_len == RAW_OUT_CHUNK)
            out_flush(r);
    }
}

/* ---- Frames in ---------------------------------------------------------- */

static uint8_t next_byte(void)
{
    return (uint8_t)port_getc();
}

/* Reads the next frame that passes its checks; a hello for each Ctrl-A
 * met between frames (a tool starting: its frames are new ones), an N
 * for each frame that fails. */
static void read_frame(RawState *r)
{
    RawFrame *f = &r->in;
    for (;;) {
        uint8_t c = next_byte();
        if (c == RAW_CTRL_A) {
            r->last_seq = -1;
            hello();
            continue;
        }
        if (c != RAW_STX)
            continue;
        uint8_t head[RAW_HEADER];
        for (int i = 0; i < RAW_HEADER; i++)
            head[i] = next_byte();
        size_t n = (size_t)head[2] | (size_t)head[3] << 8;
        if (crc8(head, 4) != head[4] || n > RAW_MAX_PAYLOAD) {
            send_text('N', RAW_SEQ_NONE, "header");
            continue;
        }
        uint8_t tail[4];
        for (size_t i = 0; i < n; i++)
            f->payload[i] = next_byte();
        for (int i = 0; i < 4; i++)
            tail[i] = next_byte();
        uint32_t crc =
            ~crc32_more(crc32_more(0xFFFFFFFFu, head, 4), f->payload, n);
        if (crc != get32(tail)) {
            send_text('N', head[1], "checksum");
            continue;
        }
        f->kind = (char)head[0];
        f->seq = head[1];
        f->len = n;
        return;
    }
}

/* ---- Sessions ----------------------------------------------------------- */

/* S: a new script; the words (chunk name, arguments) in a table. */
static int start(lua_State *L, int base, RawState *r)
{
    const RawFrame *f = &r->in;
    if (f->len < RAW_START_FIXED + 1 || f->payload[f->len - 1] != '\0')
        return 0;
    r->want_len = get32(f->payload);
    r->want_crc = get32(f->payload + 4);
    r->got_len = 0;
    r->got_crc = 0xFFFFFFFFu;
    lua_createtable(L, 2, 0);
    int i = 0;
    for (size_t p = RAW_START_FIXED; p < f->len; i++) {
        const char *w = (const char *)f->payload + p;
        lua_pushstring(L, w);
        lua_rawseti(L, -2, i);
        p += strlen(w) + 1;
    }
    lua_replace(L, base + SLOT_WORDS);
    lua_createtable(L, 4, 0);
    lua_replace(L, base + SLOT_CHUNKS);
    r->started = 1;
    return 1;
}

static void append(lua_State *L, int base, RawState *r)
{
    const RawFrame *f = &r->in;
    lua_pushlstring(L, (const char *)f->payload, f->len);
    lua_rawseti(L, base + SLOT_CHUNKS, luaL_len(L, base + SLOT_CHUNKS) + 1);
    r->got_len += (uint32_t)f->len;
    r->got_crc = crc32_more(r->got_crc, f->payload, f->len);
}

/* lua_load's reader over the chunks table, which keeps the chunk it
 * returned alive until the next call, as lua_load needs; the one before
 * is let go then, so that the compiler's allocations may reuse it. */
typedef struct ChunkReader {
    int chunks;
    lua_Integer next, n;
} ChunkReader;

static const char *read_chunk(lua_State *L, void *ud, size_t *size)
{
    ChunkReader *cr = ud;
    if (cr->next > 1) {
        lua_pushnil(L);
        lua_rawseti(L, cr->chunks, cr->next - 1);
    }
    if (cr->next > cr->n) {
        *size = 0;
        return NULL;
    }
    lua_rawgeti(L, cr->chunks, cr->next++);
    const char *s = lua_tolstring(L, -1, size);
    lua_pop(L, 1);
    return s;
}

/* E: the script, checked, run; X says how it ended. */
static void run(lua_State *L, int base, RawState *r, uint8_t seq)
{
    r->out_len = 0;
    r->out_seq = 0;
    if (!r->started || r->got_len != r->want_len) {
        send_x(r, seq, 'r', 0);
        return;
    }
    int chunks = base + SLOT_CHUNKS;
    if (~r->got_crc != r->want_crc) {
        send_x(r, seq, 'r', 0);
        return;
    }
    r->started = 0;
    /* arg: the chunk name (without its '@' or '=') at 0, the arguments. */
    int words = base + SLOT_WORDS;
    lua_rawgeti(L, words, 0);
    const char *name = lua_tostring(L, -1);
    ChunkReader cr = {chunks, 1, luaL_len(L, chunks)};
    int status = lua_load(L, read_chunk, &cr, name, NULL);
    lua_pushnil(L);
    lua_replace(L, chunks);
    /* No memory to compile it: refused unrun, as when it could not be
     * received (the error ends the session: rtlua_rawmode's refusal). */
    if (status == LUA_ERRMEM)
        lua_error(L);
    lua_remove(L, -2); /* the name */
    lua_Integer nargs = luaL_len(L, words);
    lua_pushvalue(L, words);
    lua_pushstring(L, name + 1);
    lua_rawseti(L, -2, 0);
    lua_setglobal(L, "arg");
    r->run_seq = seq;
    send_frame('K', seq, NULL, 0);
    repl_typeahead(0);
    port_console_sink(sink);
    if (status == LUA_OK) {
        luaL_checkstack(L, (int)nargs + LUA_MINSTACK, "too many arguments");
        for (lua_Integer i = 1; i <= nargs; i++)
            lua_rawgeti(L, words, i);
        status = rtlua_docall(L, (int)nargs, 0);
    }
    char what = 'e';
    if (status != LUA_OK) {
        what = repl_interrupted() ? 'i' : 'e';
        const char *msg = lua_tostring(L, -1);
        if (msg == NULL)
            msg = "(error object is not a string)";
        port_write_err(msg, strlen(msg));
        port_write_err("\n", 1);
        lua_pop(L, 1);
    }
    port_console_sink(NULL);
    send_x(r, seq, what, status == LUA_OK ? 0 : 1);
    repl_typeahead(1);
}

/* One session: frames until Q (returns), or an error (no memory) that
 * ends it: rtlua_rawmode starts another. */
static int session(lua_State *L)
{
    int base = lua_gettop(L);
    lua_settop(L, base + SLOT_TOP);
    RawState *r = lua_newuserdatauv(L, sizeof(RawState), 0);
    memset(r, 0, sizeof *r);
    r->last_seq = -1;
    raw = r;
    RawFrame *f = &r->in;
    for (;;) {
        read_frame(r);
        in_flight = f->seq;
        if ((int)f->seq == r->last_seq && f->kind == r->last_kind) {
            /* A repeat: the answer again, nothing done again. */
            if (f->kind == 'E')
                send_frame('X', f->seq, r->last_x, sizeof r->last_x);
            else
                send_frame('K', f->seq, NULL, 0);
            continue;
        }
        switch (f->kind) {
        case 'S':
            if (!start(L, base, r)) {
                send_text('N', f->seq, "start frame");
                continue;
            }
            break;
        case 'D':
            if (!r->started || r->got_len + f->len > r->want_len) {
                r->started = 0;
                send_text('N', f->seq, "data beyond the script");
                continue;
            }
            append(L, base, r);
            break;
        case 'E':
            r->last_seq = f->seq;
            r->last_kind = 'E';
            run(L, base, r, f->seq);
            continue;
        case 'Q':
            send_frame('K', f->seq, NULL, 0);
            return 0;
        case 'Z':
            send_frame('K', f->seq, NULL, 0);
            port_reset();
            send_text('N', f->seq, "no reset here");
            continue;
        default:
            send_text('N', f->seq, "unknown frame");
            continue;
        }
        r->last_seq = f->seq;
        r->last_kind = f->kind;
        send_frame('K', f->seq, NULL, 0);
    }
}

/* X 'r' for the frame in flight, with `msg` (or none) as the reason.
 * Not inlined: its buffer is off the C stack while a session runs (the
 * micro:bit's 4 KiB of stack hold the REPL, raw mode and the compiler). */
static __attribute__((noinline)) void refuse(const char *msg)
{
    uint8_t x[RAW_X_BYTES + RAW_REASON_MAX] = {'r'};
    put32(x + 1, RAW_REFUSED_ERROR);
    size_t n = msg != NULL ? strlen(msg) : 0;
    if (n > RAW_REASON_MAX)
        n = RAW_REASON_MAX;
    if (n > 0)
        memcpy(x + RAW_X_BYTES, msg, n);
    send_frame('X', in_flight, x, RAW_X_BYTES + n);
}

void rtlua_rawmode(lua_State *L)
{
    int top = lua_gettop(L);
    hello();
    for (int tries = 0;; tries++) {
        raw = NULL;
        in_flight = RAW_SEQ_NONE;
        lua_pushcfunction(L, session);
        int status = lua_pcall(L, 0, 0, 0);
        port_console_sink(NULL);
        if (status == LUA_OK) {
            lua_settop(L, top);
            break;
        }
        /* The script is dropped, and the frame in flight answered with
         * the refusal and the error's text; a session that could not
         * even start (no memory for its state) gives up raw mode. */
        refuse(lua_tostring(L, -1));
        lua_settop(L, top);
        if (raw == NULL || tries >= RAW_SESSION_TRIES)
            break;
    }
    raw = NULL;
}
