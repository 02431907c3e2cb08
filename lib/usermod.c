/*
 * usermod.c — the ROM tables of user C modules (make USER_C_MODULES),
 * and rtlua_romtable, through which a module's opener finds them.
 *
 * A module that lists a file of ROM tables in its module.mk
 * (MODULE_ROMTAB, tools/romtab.c's format) gets them laid out by romgen
 * in this build's generated files, compiled here (the block
 * ROMTAB_FILE_usermod of romtab.inc, with the list romtab_user of their
 * names): const tables in flash whose keys are ROM strings and whose
 * functions are the module's.  Its opener asks for them by name and
 * falls back to luaL_newlib when they are not there (a .so on the host,
 * lua5.4), so one source serves both.
 */
#include "rtlua.h"

#include <string.h>

#define ROMTAB_FILE_usermod
#include "romtab.inc"

int rtlua_romtable(lua_State *L, const char *name)
{
#if ROMTAB_USER_COUNT > 0
    for (int i = 0; i < ROMTAB_USER_COUNT; i++)
        if (strcmp(romtab_user[i].name, name) == 0) {
            rtlua_pushrom(L, romtab_user[i].t);
            return 1;
        }
#else
    (void)L;
    (void)name;
#endif
    return 0;
}
