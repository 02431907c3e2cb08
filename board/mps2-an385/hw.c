/*
 * hw.c — the hw library's view of the MPS2 FPGA images (AN385, and the
 * AN386 and AN500 boards, which share it: the same CMSDK peripherals at
 * the same addresses and interrupt lines).  From the application notes
 * and checked with QEMU's `info mtree` / `info qtree`; in QEMU the GPIO
 * is unimplemented (reads 0) and so are the FPGA's buttons.
 */
#include "board.h"
#include "drivers/hw_drivers.h"

/* The FPGA's system registers (LED0 bits 1:0, BUTTON bits 1:0). */
#define FPGAIO_LED0 0x40028000u
#define FPGAIO_BUTTON 0x40028008u

static const hw_port ports[] = {
    {&hw_gpio_cmsdk, 0x40010000u, {0, 0}, 0, 16, "GPIO0_"},
    {&hw_gpio_cmsdk, 0x40011000u, {0, 0}, 16, 16, "GPIO1_"},
    {&hw_gpio_cmsdk, 0x40012000u, {0, 0}, 32, 16, "GPIO2_"},
    {&hw_gpio_cmsdk, 0x40013000u, {0, 0}, 48, 16, "GPIO3_"},
    {&hw_gpio_reg_out, FPGAIO_LED0, {0, 0}, 64, 2, "led"},
    {&hw_gpio_reg_in, FPGAIO_BUTTON, {0, 0}, 66, 2, "button"},
};

static const hw_alias aliases[] = {{"led", 64}, {"button", 66}};

/* UART1..4; QEMU routes its -serial ports 2..5 to them.  Receive and
 * transmit have a line each. */
static const hw_uart uarts[] = {
    {&hw_uart_cmsdk, 0x40005000u, {0, 0}, BOARD_CLOCK_HZ, 2, 3, 1},
    {&hw_uart_cmsdk, 0x40006000u, {0, 0}, BOARD_CLOCK_HZ, 4, 5, 2},
    {&hw_uart_cmsdk, 0x40007000u, {0, 0}, BOARD_CLOCK_HZ, 18, 19, 3},
    {&hw_uart_cmsdk, 0x40009000u, {0, 0}, BOARD_CLOCK_HZ, 20, 21, 4},
};

static const hw_timer timers[] = {
    {&hw_timer_cmsdk, 0x40000000u, {0, 0}, BOARD_CLOCK_HZ, 8},
    {&hw_timer_cmsdk, 0x40001000u, {0, 0}, BOARD_CLOCK_HZ, 9},
};

/* Its warning interrupt is the NMI. */
static const hw_wdog wdog = {
    &hw_wdog_sp805, 0x40008000u, {0, 0}, BOARD_CLOCK_HZ, -14};

/* APB (timers, UARTs, watchdog), AHB GPIO, and the extra peripherals
 * (SPI, I2C, FPGA system registers, SCC). */
static const hw_range ranges[] = {{0x40000000u, 0x4002FFFFu}};

static const hw_board desc = {
    .ports = ports,
    .nports = sizeof ports / sizeof ports[0],
    .aliases = aliases,
    .naliases = sizeof aliases / sizeof aliases[0],
    .uarts = uarts,
    .nuarts = sizeof uarts / sizeof uarts[0],
    .timers = timers,
    .ntimers = sizeof timers / sizeof timers[0],
    .wdog = &wdog,
    .ranges = ranges,
    .nranges = sizeof ranges / sizeof ranges[0],
};

const hw_board *hw_board_get(void)
{
    return &desc;
}
