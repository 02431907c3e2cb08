/*
 * capi.c — the C API's functions that are the compiler's: lua_load and
 * lua_dump of include/lua.h, rtlua_loadbuffer of include/rtlua.h.
 *
 * They live above the rest of the C API (vm/api.c), with the compiler
 * they call: lang/ uses the core's API, never the other way round
 * (docs/architecture.md, "The layers").
 */
#include "include/lua.h"
#include "include/rtlua.h"
#include "lang/dump.h"
#include "lang/load.h"

int lua_load(lua_State *L, lua_Reader reader, void *data,
             const char *chunkname, const char *mode)
{
    return load_chunk(L, NULL, 0, reader, data,
                      chunkname != NULL ? chunkname : "?", mode);
}

int rtlua_loadbuffer(lua_State *L, const char *s, size_t len,
                     const char *chunkname, const char *mode)
{
    return load_chunk(L, s, len, NULL, NULL,
                      chunkname != NULL ? chunkname : "?", mode);
}

int lua_dump(lua_State *L, lua_Writer writer, void *data, int strip)
{
    const tvalue *o = L->top - 1;
    if (tt_of(o) != V_LCL)
        return 1;
    return dump_function(L, gco2lcl(gc_of(o))->p, writer, data, strip);
}
