/*
 * hw.c — template: what the hw library may touch on this board (port/hw.h;
 * docs/porting.md says how to fill it in).  As it is, the MPS2 FPGA's
 * LEDs and its peripheral range: replace every entry.
 */
#include "board.h"
#include "board/drivers/hw_drivers.h"

static const hw_port ports[] = {
    {&hw_gpio_reg_out, 0x40028000u, {0, 0}, 0, 2, "led"},
};

static const hw_alias aliases[] = {{"led", 0}};

static const hw_range ranges[] = {{0x40000000u, 0x4002FFFFu}};

static const hw_board desc = {
    .ports = ports,
    .nports = sizeof ports / sizeof ports[0],
    .aliases = aliases,
    .naliases = sizeof aliases / sizeof aliases[0],
    .ranges = ranges,
    .nranges = sizeof ranges / sizeof ranges[0],
};

const hw_board *hw_board_get(void)
{
    return &desc;
}
