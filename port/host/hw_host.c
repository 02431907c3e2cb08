/*
 * hw_host.c — the host's hw board: simulated, so that the `hw` library's
 * Lua side runs in the host's tests (both number models, the torture and
 * sanitizer builds).
 *
 * The "peripherals" are one page of memory, mapped at HOST_HW_BASE when
 * the address is free (so that hw.mem32 takes the same small addresses as
 * a board's, in both number models), else wherever mmap puts it.  It
 * holds a GPIO port of HOST_HW_PINS pins (P0..P7, registers below, whose
 * "outside world" a test drives through EXT and EXTEN with hw.mem32) and
 * a register of two LEDs (led0, led1, the MPS2 FPGA's driver).  No ADC,
 * UART, timer or watchdog: hw.adc and the others raise "no ...".
 */
#define _GNU_SOURCE /* MAP_ANONYMOUS, MAP_FIXED_NOREPLACE */
#include "drivers/hw_drivers.h"
#include "port/hw.h"

#include <sys/mman.h>

#define HOST_HW_BASE 0x40000000u
#define HOST_HW_PAGE 4096u
#define HOST_HW_PINS 8
/* The simulated port's registers (offsets), and where the LEDs are. */
#define SIM_OUT 0x00u    /* output latch */
#define SIM_DIR 0x04u    /* 1: output */
#define SIM_PULLUP 0x08u /* input pulled up */
#define SIM_PULLDN 0x0Cu /* input pulled down */
#define SIM_EXT 0x10u    /* the level the outside world drives */
#define SIM_EXTEN 0x14u  /* 1: the outside world drives the pin */
#define SIM_LEDS 0x100u

#define REG(base, off) (*(volatile uint32_t *)((base) + (off)))

static int sim_mode(uintptr_t base, unsigned bit, int mode)
{
    uint32_t m = 1u << bit;
    REG(base, SIM_DIR) =
        mode == HW_OUT ? REG(base, SIM_DIR) | m : REG(base, SIM_DIR) & ~m;
    REG(base, SIM_PULLUP) = mode == HW_PULLUP ? REG(base, SIM_PULLUP) | m
                                              : REG(base, SIM_PULLUP) & ~m;
    REG(base, SIM_PULLDN) = mode == HW_PULLDOWN ? REG(base, SIM_PULLDN) | m
                                                : REG(base, SIM_PULLDN) & ~m;
    return 0;
}

static void sim_write(uintptr_t base, unsigned bit, int level)
{
    uint32_t m = 1u << bit;
    REG(base, SIM_OUT) =
        level ? REG(base, SIM_OUT) | m : REG(base, SIM_OUT) & ~m;
}

static int sim_read(uintptr_t base, unsigned bit)
{
    uint32_t m = 1u << bit;
    if (REG(base, SIM_DIR) & m)
        return (REG(base, SIM_OUT) & m) != 0;
    if (REG(base, SIM_EXTEN) & m)
        return (REG(base, SIM_EXT) & m) != 0;
    return (REG(base, SIM_PULLUP) & m) != 0;
}

static const hw_gpio_ops sim_gpio = {sim_mode, sim_write, sim_read};

/* The page, when mmap could not place it at HOST_HW_BASE. */
static _Alignas(HOST_HW_PAGE) uint8_t fallback[HOST_HW_PAGE];

static uintptr_t page(void)
{
    static uintptr_t base;
    if (base == 0) {
        void *p =
            mmap((void *)(uintptr_t)HOST_HW_BASE, HOST_HW_PAGE,
                 PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
        base = p == MAP_FAILED || p != (void *)(uintptr_t)HOST_HW_BASE
                   ? (uintptr_t)fallback
                   : (uintptr_t)p;
    }
    return base;
}

/* The tables need the page's address, known only at run time: they are
 * filled once, on the first look (the library reads the board's
 * description only through hw_board_get()). */
static hw_port ports[2];
static hw_range ranges[1];
static const hw_alias aliases[] = {{"led", HOST_HW_PINS}};

const hw_board *hw_board_get(void)
{
    static hw_board b;
    if (b.ports == NULL) {
        uintptr_t base = page();
        ports[0] = (hw_port){&sim_gpio, base, {0, 0}, 0, HOST_HW_PINS, "P"};
        ports[1] = (hw_port){
            &hw_gpio_reg_out, base + SIM_LEDS, {0, 0}, HOST_HW_PINS, 2, "led"};
        ranges[0] = (hw_range){base, base + HOST_HW_PAGE - 1};
        b.ports = ports;
        b.nports = 2;
        b.aliases = aliases;
        b.naliases = 1;
        b.ranges = ranges;
        b.nranges = 1;
    }
    return &b;
}

void hw_memory(size_t *flash, size_t *ram)
{
    *flash = 0;
    *ram = 0;
}
