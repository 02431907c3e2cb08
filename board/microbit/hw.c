/*
 * hw.c — the hw library's view of the BBC micro:bit (nRF51822): the 32
 * GPIO pins of port 0 with the board's names for its buttons and LED
 * matrix, timers 0-2, the peripheral map and the FICR's device id, from
 * the nRF51 reference manual and the micro:bit schematic, checked with
 * QEMU's `info mtree`.  No ADC in QEMU's model (the chip has one), no
 * second UART, no watchdog model.
 */
#include "board.h"
#include "drivers/hw_drivers.h"

static const hw_port ports[] = {
    {&hw_gpio_nrf51, 0x50000000u, {0, 0}, 0, 32, "P0."},
};

/* The buttons (active low) and the LED matrix's rows and columns. */
static const hw_alias aliases[] = {
    {"button_a", 17}, {"button_b", 26}, {"row1", 13}, {"row2", 14},
    {"row3", 15},     {"col1", 4},      {"col2", 5},  {"col3", 6},
    {"col4", 7},      {"col5", 8},      {"col6", 9},  {"col7", 10},
    {"col8", 11},     {"col9", 12},
};

static const hw_timer timers[] = {
    {&hw_timer_nrf51, 0x40008000u, {0, 0}, BOARD_CLOCK_HZ, 8},
    {&hw_timer_nrf51, 0x40009000u, {0, 0}, BOARD_CLOCK_HZ, 9},
    {&hw_timer_nrf51, 0x4000A000u, {0, 0}, BOARD_CLOCK_HZ, 10},
};

/* The factory and user information blocks, the APB peripherals (ids
 * 0-31 but the unused 5) and the GPIO. */
static const hw_range ranges[] = {
    {0x10000000u, 0x100000FFu}, {0x10001000u, 0x100010FFu},
    {0x40000000u, 0x40004FFFu}, {0x40006000u, 0x4001FFFFu},
    {0x50000000u, 0x50000FFFu},
};

/* FICR's DEVICEID[0..1]. */
#define FICR_DEVICEID 0x10000060u
#define FICR_DEVICEID_BYTES 8

static const hw_board desc = {
    .ports = ports,
    .nports = sizeof ports / sizeof ports[0],
    .aliases = aliases,
    .naliases = sizeof aliases / sizeof aliases[0],
    .timers = timers,
    .ntimers = sizeof timers / sizeof timers[0],
    .ranges = ranges,
    .nranges = sizeof ranges / sizeof ranges[0],
    .uid = FICR_DEVICEID,
    .uid_bytes = FICR_DEVICEID_BYTES,
};

const hw_board *hw_board_get(void)
{
    return &desc;
}
