/*
 * loadlib.c — the package library and `require` (Lua 5.4 §6.3), plus
 * rtlua_preload, through which rtlua's built-in (flash) modules offer
 * themselves to `require`.
 *
 * Modules come from the four searchers of Lua 5.4, in order (after a
 * fifth, first, when a flash image is attached: its modules; then
 * package.searchers is the ROM table searchers_image):
 * package.preload (the registry's LUA_PRELOAD_TABLE); Lua source files
 * found along package.path by package.searchpath and loaded by
 * luaL_loadfilex, which reads through port_file_* (host files, or host
 * files over semihosting on a board); C libraries along package.cpath,
 * for the whole name and then for the first component of a dotted name.
 * The host loads them (port_loadlib: dlopen; the CLI exports the API to
 * them).  A board has no dynamic linker: its C searchers look for the
 * files all the same, so that the "module not found" message lists
 * every file tried as lua5.4's does, and a file they find fails to load
 * with the reference's "dynamic libraries not enabled" message, as
 * package.loadlib does there.
 * package.loaded is the registry's LUA_LOADED_TABLE, the same table
 * luaL_requiref fills, so libraries opened by luaL_openlibs are already
 * "required".
 *
 * require and each searcher read the package table itself (a ROM table,
 * lib/lib.h): a script that replaces package.path or package.searchers
 * in that table changes what require does, while a script that rebinds
 * the global `package` does not.
 */
#include <stdlib.h>
#include <string.h>

#include "lauxlib.h"
#include "lib/lib.h"
#include "lua.h"
#include "lualib.h"
#include "port/port.h"
#include "romtab.h"
#include "rtlua.h"

/* Separator of templates in a path, the mark replaced by the module
 * name, and what stands for the default path in LUA_PATH. */
#define PKG_PATH_SEP ";"
#define PKG_PATH_MARK "?"
#define PKG_DEFAULT_MARK ";;"

/* The reference's message for a build without dynamic libraries. */
#define PKG_NO_DLL "dynamic libraries not enabled; check your Lua installation"

/* ---- searchpath ------------------------------------------------------- */

static int readable(const char *path)
{
    int fd = port_file_open(path, "r");
    if (fd < 0)
        return 0;
    port_file_close(fd);
    return 1;
}

/* Looks for name along path; pushes the first readable file name and
 * returns it, or pushes "no file 'a'\n\tno file 'b'..." and returns
 * NULL. */
static const char *search_path(lua_State *L, const char *name,
                               const char *path, const char *sep,
                               const char *dirsep)
{
    if (*sep != '\0' && strstr(name, sep) != NULL)
        name = luaL_gsub(L, name, sep, dirsep);     /* "a.b" -> "a/b" */
    path = luaL_gsub(L, path, PKG_PATH_MARK, name); /* every candidate */
    const char *p = path;
    for (;;) {
        while (*p == *PKG_PATH_SEP)
            p++; /* empty templates are skipped */
        if (*p == '\0')
            break;
        const char *end = strchr(p, *PKG_PATH_SEP);
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *file = lua_pushlstring(L, p, len);
        if (readable(file))
            return file;
        lua_pop(L, 1);
        p += len;
    }
    /* Nothing found: the message lists every candidate, even empty ones,
     * as the reference does. */
    luaL_Buffer tried;
    luaL_buffinit(L, &tried);
    luaL_addstring(&tried, "no file '");
    luaL_addgsub(&tried, path, PKG_PATH_SEP, "'\n\tno file '");
    luaL_addstring(&tried, "'");
    luaL_pushresult(&tried);
    return NULL;
}

static int pkg_searchpath(lua_State *L)
{
    const char *name = luaL_checkstring(L, 1);
    const char *path = luaL_checkstring(L, 2);
    const char *sep = luaL_optstring(L, 3, ".");
    const char *rep = luaL_optstring(L, 4, LUA_DIRSEP);
    if (search_path(L, name, path, sep, rep) != NULL)
        return 1;
    luaL_pushfail(L);
    lua_insert(L, -2);
    return 2; /* nil, message */
}

/* Loads the library at path and pushes its function sym (true for sym
 * "*": the library is only loaded, its symbols global); or pushes the
 * failure's message and returns its PORT_LIB_ kind. */
static int load_func(lua_State *L, const char *path, const char *sym)
{
    port_fn fn = NULL;
    const char *err = NULL;
    int st = port_loadlib(path, sym, &fn, &err);
    if (st == PORT_LIB_ABSENT)
        lua_pushliteral(L, PKG_NO_DLL);
    else if (st != PORT_LIB_OK)
        lua_pushstring(L, err ? err : "cannot load");
    else if (fn == NULL)
        lua_pushboolean(L, 1);
    else
        lua_pushcfunction(L, (lua_CFunction)fn);
    return st;
}

static int pkg_loadlib(lua_State *L)
{
    const char *path = luaL_checkstring(L, 1);
    const char *sym = luaL_checkstring(L, 2);
    int st = load_func(L, path, sym);
    if (st == PORT_LIB_OK)
        return 1;
    luaL_pushfail(L);
    lua_insert(L, -2);
    lua_pushstring(L, st == PORT_LIB_INIT   ? "init"
                      : st == PORT_LIB_OPEN ? "open"
                                            : "absent");
    return 3;
}

/* ---- Searchers -------------------------------------------------------- */

/* Pushes package[k] (the ROM package table, with what scripts stored in
 * it): searchers and require read package.path and package.searchers
 * there, so a script rebinding the global `package` changes nothing. */
static int package_field(lua_State *L, const char *k)
{
    rtlua_pushrom(L, &romtab_package);
    int t = lua_getfield(L, -1, k);
    lua_remove(L, -2);
    return t;
}

/* The attached flash image's modules (docs/images.md): the closure of
 * the module's main function and its source name, as the Lua searcher
 * gives a file's chunk and name.  A module not in the image adds nothing
 * to "module not found": the message is the one a run from source gives. */
static int searcher_image(lua_State *L)
{
    const char *name = luaL_checkstring(L, 1);
    return rtlua_image_pushmodule(L, name) ? 2 : 0;
}

static int searcher_preload(lua_State *L)
{
    const char *name = luaL_checkstring(L, 1);
    lua_getfield(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
    if (lua_getfield(L, -1, name) == LUA_TNIL) {
        lua_pushfstring(L, "no field package.preload['%s']", name);
        return 1;
    }
    lua_pushliteral(L, ":preload:");
    return 2;
}

/* Pushes package[field] and returns it: a searcher's path, which must
 * be a string (or a number). */
static const char *package_path(lua_State *L, const char *field)
{
    package_field(L, field);
    const char *path = lua_tostring(L, -1);
    if (path == NULL)
        luaL_error(L, "'package.%s' must be a string", field);
    return path;
}

static int searcher_lua(lua_State *L)
{
    const char *name = luaL_checkstring(L, 1);
    const char *path = package_path(L, "path");
    const char *file = search_path(L, name, path, ".", LUA_DIRSEP);
    if (file == NULL)
        return 1; /* the "no file" list */
    if (luaL_loadfilex(L, file, NULL) != LUA_OK)
        return luaL_error(L, "error loading module '%s' from file '%s':\n\t%s",
                          lua_tostring(L, 1), file, lua_tostring(L, -1));
    lua_pushstring(L, file); /* the loader's second argument */
    return 2;
}

/* The opener of module name in the C library at file: luaopen_ and the
 * name with its dots as underscores; for a name with a hyphen, first the
 * part before it, then the part after it.  Returns the searcher's
 * results (the loader and file), or raises the reference's error for a
 * library that does not load. */
static int c_load(lua_State *L, const char *file, const char *name)
{
    const char *u = luaL_gsub(L, name, ".", "_");
    const char *mark = strchr(u, '-');
    int st;
    if (mark != NULL) {
        lua_pushfstring(L, "luaopen_%s", lua_pushlstring(L, u, mark - u));
        st = load_func(L, file, lua_tostring(L, -1));
        if (st != PORT_LIB_INIT)
            goto done;
        u = mark + 1;
    }
    lua_pushfstring(L, "luaopen_%s", u);
    st = load_func(L, file, lua_tostring(L, -1));
done:
    if (st != PORT_LIB_OK)
        return luaL_error(L, "error loading module '%s' from file '%s':\n\t%s",
                          lua_tostring(L, 1), file, lua_tostring(L, -1));
    lua_pushstring(L, file);
    return 2;
}

static int searcher_c(lua_State *L)
{
    const char *name = luaL_checkstring(L, 1);
    const char *cpath = package_path(L, "cpath");
    const char *file = search_path(L, name, cpath, ".", LUA_DIRSEP);
    if (file == NULL)
        return 1; /* the "no file" list */
    return c_load(L, file, name);
}

/* The all-in-one searcher: a library named by the first component of
 * a dotted name, which would hold the submodules' luaopen_ functions. */
static int searcher_croot(lua_State *L)
{
    const char *name = luaL_checkstring(L, 1);
    const char *dot = strchr(name, '.');
    if (dot == NULL)
        return 0; /* no excuse: the C searcher tried this name */
    const char *root = lua_pushlstring(L, name, (size_t)(dot - name));
    const char *cpath = package_path(L, "cpath");
    const char *file = search_path(L, root, cpath, ".", LUA_DIRSEP);
    if (file == NULL)
        return 1;
    return c_load(L, file, name);
}

/* ---- require ---------------------------------------------------------- */

/* Runs the searchers in turn for name; leaves the loader and its data on
 * the top, or raises "module not found" with every searcher's excuse. */
static void find_loader(lua_State *L, const char *name)
{
    if (package_field(L, "searchers") != LUA_TTABLE)
        luaL_error(L, "'package.searchers' must be a table");
    int searchers = lua_gettop(L);
    lua_pushliteral(L, ""); /* the excuses so far */
    int why = searchers + 1;
    for (int i = 1;; i++) {
        if (lua_rawgeti(L, searchers, i) == LUA_TNIL)
            luaL_error(L, "module '%s' not found:%s", name,
                       lua_tostring(L, why));
        lua_pushstring(L, name);
        lua_call(L, 1, 2);
        if (lua_isfunction(L, -2))
            return;
        if (lua_isstring(L, -2)) {
            lua_pop(L, 1);
            lua_pushliteral(L, "\n\t");
            lua_insert(L, -2);
            lua_concat(L, 3); /* why .. "\n\t" .. excuse */
        } else {
            lua_pop(L, 2);
        }
    }
}

int pkg_require(lua_State *L)
{
    const char *name = luaL_checkstring(L, 1);
    lua_settop(L, 1);
    lua_getfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE); /* 2 */
    lua_getfield(L, 2, name);
    if (lua_toboolean(L, -1))
        return 1; /* already loaded */
    lua_pop(L, 1);
    find_loader(L, name);
    int loader = lua_gettop(L) - 1;
    lua_pushvalue(L, loader);     /* the loader */
    lua_pushvalue(L, 1);          /* name */
    lua_pushvalue(L, loader + 1); /* its data */
    lua_call(L, 2, 1);
    if (!lua_isnil(L, -1))
        lua_setfield(L, 2, name); /* loaded[name] = result */
    else
        lua_pop(L, 1);
    if (lua_getfield(L, 2, name) == LUA_TNIL) { /* nothing stored */
        lua_pop(L, 1);
        lua_pushboolean(L, 1);
        lua_pushvalue(L, -1);
        lua_setfield(L, 2, name);
    }
    lua_pushvalue(L, loader + 1);
    return 2; /* the module, the loader data */
}

/* ---- Opening ---------------------------------------------------------- */

/* package.path (cpath): the environment's LUA_PATH_5_4 or LUA_PATH
 * (LUA_CPATH...) on the host unless the registry's LUA_NOENV is set (lua
 * -E), ";;" standing for the default, stored as field of the table on
 * the top; else the ROM table's default stays.  Both are read as lua5.4
 * does (the C searchers look along package.cpath, though no C library
 * loads). */
static void set_path(lua_State *L, const char *field, const char *versioned,
                     const char *plain, const char *dflt)
{
    const char *env = NULL;
#ifdef RTLUA_HOST
    lua_getfield(L, LUA_REGISTRYINDEX, "LUA_NOENV");
    int noenv = lua_toboolean(L, -1);
    lua_pop(L, 1);
    if (!noenv) {
        env = getenv(versioned);
        if (env == NULL)
            env = getenv(plain);
    }
#else
    (void)versioned;
    (void)plain;
#endif
    if (env == NULL)
        return;
    const char *mark = strstr(env, PKG_DEFAULT_MARK);
    if (mark == NULL) {
        lua_pushstring(L, env);
    } else {
        luaL_Buffer b;
        size_t len = strlen(env);
        luaL_buffinit(L, &b);
        if (mark > env) {
            luaL_addlstring(&b, env, (size_t)(mark - env));
            luaL_addchar(&b, *PKG_PATH_SEP);
        }
        luaL_addstring(&b, dflt);
        const char *rest = mark + 2;
        if (rest < env + len) {
            luaL_addchar(&b, *PKG_PATH_SEP);
            luaL_addlstring(&b, rest, (size_t)(env + len - rest));
        }
        luaL_pushresult(&b);
    }
    lua_setfield(L, -2, field);
}

/* The tables are ROM tables (tools/romtab.txt): the searchers and
 * require are light functions, and package.preload is installed as the
 * registry's _PRELOAD unless C code made one already. */
int luaopen_package(lua_State *L)
{
    if (lua_getfield(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE) == LUA_TNIL) {
        rtlua_pushrom(L, &romtab_preload);
        lua_setfield(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
    }
    lua_pop(L, 1);
    rtlua_pushrom(L, &romtab_package);
    if (rtlua_image_attached(L)) { /* its searcher first */
        rtlua_pushrom(L, &romtab_searchers_image);
        lua_setfield(L, -2, "searchers");
    }
    set_path(L, "path", "LUA_PATH" LUA_VERSUFFIX, "LUA_PATH",
             LUA_PATH_DEFAULT);
    set_path(L, "cpath", "LUA_CPATH" LUA_VERSUFFIX, "LUA_CPATH",
             LUA_CPATH_DEFAULT);
    return 1;
}

#define ROMTAB_FILE_loadlib
#include "romtab.inc"

void rtlua_preload(lua_State *L, const char *name, lua_CFunction openf)
{
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
    lua_pushcfunction(L, openf);
    lua_setfield(L, -2, name);
    lua_pop(L, 1);
}
