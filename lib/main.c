/*
 * main.c — the rtlua program, on the host and on every board.  Until the
 * interpreter exists it prints the banner: board, core, clock, arena.
 */
#include "port/port.h"
#ifdef RTLUA_HOST
#include "port/host/host.h"
#endif

static void banner(void)
{
    void *heap;
    size_t bytes;
    port_heap(&heap, &bytes);
    port_printf("rtlua 0.1 on %s (%s, %u Hz, cycles from %s), arena %u bytes "
                "at %p\n",
                port_board(), port_core(), (unsigned)port_clock_hz(),
                port_cycle_source(), (unsigned)bytes, heap);
}

#ifdef RTLUA_HOST
int main(int argc, char **argv)
{
    port_host_set_args(argc, argv);
    port_init();
    banner();
    return 0;
}
#else
int main(void)
{
    banner();
    return 0;
}
#endif
