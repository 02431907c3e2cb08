/*
 * host.h — what only the Linux port offers: handing main's argv to
 * port_args.  Programs built for both call it under RTLUA_HOST.
 */
#ifndef RTLUA_PORT_HOST_H
#define RTLUA_PORT_HOST_H

#include <stdio.h>

void port_host_set_args(int argc, char **argv);
/* The stdio stream behind a port file (io's luaL_Stream.f), or NULL. */
FILE *port_host_file(int fd);

#endif
