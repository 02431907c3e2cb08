/*
 * host.h — what only the Linux port offers: handing main's argv to
 * port_args.  Programs built for both call it under RTLUA_HOST.
 */
#ifndef RTLUA_PORT_HOST_H
#define RTLUA_PORT_HOST_H

void port_host_set_args(int argc, char **argv);

#endif
