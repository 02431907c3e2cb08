/*
 * stream.c — a third-party-style module on file handles, as a file
 * system binding (locking, fileno) or a POSIX binding (fdopen) is: it
 * looks into io's handles through luaL_Stream, and makes handles of its
 * own that io.type, io.close, tostring, __gc and __close accept.
 *
 *   stream.state(fh)     -> "open" or "closed" (closef), error if no file
 *   stream.put(fh, s)    -> fwrite on the handle's FILE * (host stdio)
 *   stream.flush(fh)     -> fflush
 *   stream.fileno(fh)    -> fileno (what a locking call would take)
 *   stream.new(tag)      -> a handle made here (its f is this module's)
 *   stream.closes()      -> how many of its handles it closed
 */
#define _POSIX_C_SOURCE 200809L /* fileno */
#include <stdio.h>
#include <string.h>

#include "lauxlib.h"
#include "lua.h"

typedef struct my_stream {
    luaL_Stream s; /* first, as io requires */
    char tag[16];
} my_stream;

/* What f of a handle made here points to: this module's own device,
 * which it never hands to stdio. */
static char device;
static lua_Integer closes;

static luaL_Stream *check_stream(lua_State *L)
{
    return (luaL_Stream *)luaL_checkudata(L, 1, LUA_FILEHANDLE);
}

static luaL_Stream *check_open(lua_State *L)
{
    luaL_Stream *p = check_stream(L);
    if (p->closef == NULL || p->f == NULL)
        luaL_error(L, "attempt to use a closed file");
    return p;
}

static int st_state(lua_State *L)
{
    luaL_Stream *p = check_stream(L);
    lua_pushstring(L, p->closef == NULL ? "closed" : "open");
    return 1;
}

static int st_put(lua_State *L)
{
    luaL_Stream *p = check_open(L);
    size_t len;
    const char *s = luaL_checklstring(L, 2, &len);
    luaL_argcheck(L, p->f != (FILE *)(void *)&device, 1, "not a stdio stream");
    return luaL_fileresult(L, fwrite(s, 1, len, p->f) == len, NULL);
}

static int st_flush(lua_State *L)
{
    luaL_Stream *p = check_open(L);
    luaL_argcheck(L, p->f != (FILE *)(void *)&device, 1, "not a stdio stream");
    return luaL_fileresult(L, fflush(p->f) == 0, NULL);
}

static int st_fileno(lua_State *L)
{
    luaL_Stream *p = check_open(L);
    luaL_argcheck(L, p->f != (FILE *)(void *)&device, 1, "not a stdio stream");
    lua_pushinteger(L, fileno(p->f));
    return 1;
}

/* closef of the handles made here: called by io with the handle at 1,
 * after io set closef to NULL. */
static int my_close(lua_State *L)
{
    luaL_Stream *p = check_stream(L);
    p->f = NULL;
    closes++;
    return luaL_fileresult(L, 1, NULL);
}

static int st_new(lua_State *L)
{
    size_t len;
    const char *tag = luaL_optlstring(L, 1, "", &len);
    luaL_argcheck(L, len < sizeof(((my_stream *)0)->tag), 1, "tag too long");
    my_stream *m = (my_stream *)lua_newuserdatauv(L, sizeof(my_stream), 0);
    m->s.closef = NULL; /* closed until set up, as io does */
    luaL_setmetatable(L, LUA_FILEHANDLE);
    memcpy(m->tag, tag, len + 1);
    m->s.f = (FILE *)(void *)&device;
    m->s.closef = my_close;
    return 1;
}

static int st_closes(lua_State *L)
{
    lua_pushinteger(L, closes);
    return 1;
}

static const luaL_Reg funcs[] = {{"state", st_state}, {"put", st_put},
                                 {"flush", st_flush}, {"fileno", st_fileno},
                                 {"new", st_new},     {"closes", st_closes},
                                 {NULL, NULL}};

int luaopen_stream(lua_State *L);

int luaopen_stream(lua_State *L)
{
    luaL_newlib(L, funcs);
    return 1;
}
