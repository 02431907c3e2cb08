/*
 * hw.c — template: what the hw library may touch on this board
 * (port/hw.h; docs/porting.md says how to fill it in).  As it is, an
 * empty machine: no pins, no devices, no address hw.mem32 may touch.
 */
#include "board.h"
#include "drivers/hw_drivers.h"

static const hw_board desc = {0};

const hw_board *hw_board_get(void)
{
    return &desc;
}
