/*
 * host.h — what only the Linux port offers: handing main's argv to
 * port_args, mapping a flash image file.  Programs built for both call
 * them under RTLUA_HOST.
 */
#ifndef RTLUA_PORT_HOST_H
#define RTLUA_PORT_HOST_H

#include <stdio.h>

void port_host_set_args(int argc, char **argv);
/* The stdio stream behind a port file (io's luaL_Stream.f), or NULL. */
FILE *port_host_file(int fd);
/* Map the file at path read-only at address `at` (a flash image: its
 * pointers are absolute), at most max bytes; 0 with its length in *len,
 * or -1 with what went wrong in *err (static). */
int port_host_map(const char *path, void *at, size_t max, size_t *len,
                  const char **err);

#endif
