/*
 * mpu.c — the memory protection unit (PMSAv7, the M3/M4/M7 boards): what
 * the hardware enforces, so that a stray write or a runaway stack faults
 * at once instead of corrupting memory.
 *
 * Regions, lowest priority first (a higher number wins where they
 * overlap); the default map (PRIVDEFENA) covers everything else:
 *   MPU_R_SRAM   the SRAM area of the memory map (0x20000000, 512 MiB: RAM
 *                and the boards' PSRAM), read-write, never executed;
 *   MPU_R_FLASH  the flash, read-only (code and ROM objects: a write to a
 *                ROM string or table faults);
 *   MPU_R_NULL   the first NULL_GUARD bytes of the address space, no
 *                access (a null pointer's fields fault; on boards whose
 *                flash starts at 0 the vector table lies there, padded to
 *                the region, and the core's vector fetches do not go
 *                through the MPU);
 *   MPU_R_GUARD  the stack guard below the stack, no access (an overflow
 *                faults on its first push).
 * Execute-only code is not possible on PMSAv7 (an instruction fetch needs
 * read access), so the flash stays readable.
 *
 * The ARMv6-M core of microbit has no MPU: there the guard is a canary
 * (stack.c), and past it the stack leaves the RAM (linker/cortex-m.ld).
 */
#include "board.h"
#include "port/cortex-m/cm.h"
#include "port/port.h"

#include <stdint.h>

extern uint32_t _stack_guard[], _stack_bottom[];
extern uint32_t _flash_start[], _flash_end[];
extern uint32_t _null_guard_end[];

enum { MPU_R_SRAM, MPU_R_FLASH, MPU_R_NULL, MPU_R_GUARD, MPU_REGIONS };
/* The SRAM area of the ARMv7-M memory map. */
#define SRAM_AREA_BASE 0x20000000u
#define SRAM_AREA_LOG2 29u

static int mpu_on;

#if !CM_V6M && BOARD_HAS_MPU
static uint32_t log2_of(uint32_t v)
{
    uint32_t n = 0;
    while ((1u << n) < v)
        n++;
    return n;
}

static void region(uint32_t n, uint32_t base, uint32_t log2, uint32_t attr)
{
    MPU_RNR = n;
    MPU_RBAR = base;
    MPU_RASR = attr | MPU_RASR_SIZE(log2) | MPU_RASR_ENABLE;
}
#endif

void cm_mpu_init(void)
{
#if !CM_V6M && BOARD_HAS_MPU
    if (((MPU_TYPE >> 8) & 0xFFu) < MPU_REGIONS) {
        /* board.h says there is one: an image without it would run the
         * tests unprotected */
        port_puts("board.h says BOARD_HAS_MPU, but the core has no MPU\n");
        cm_semihost_exit(PORT_EXIT_FAULT);
    }
    uint32_t flash =
        (uint32_t)((uintptr_t)_flash_end - (uintptr_t)_flash_start);
    uint32_t guard =
        (uint32_t)((uintptr_t)_stack_bottom - (uintptr_t)_stack_guard);
    uint32_t null = (uint32_t)(uintptr_t)_null_guard_end;
    region(MPU_R_SRAM, SRAM_AREA_BASE, SRAM_AREA_LOG2,
           MPU_RASR_AP_RW | MPU_RASR_XN);
    region(MPU_R_FLASH, (uint32_t)(uintptr_t)_flash_start, log2_of(flash),
           MPU_RASR_AP_RO);
    region(MPU_R_NULL, 0, log2_of(null), MPU_RASR_AP_NONE | MPU_RASR_XN);
    region(MPU_R_GUARD, (uint32_t)(uintptr_t)_stack_guard, log2_of(guard),
           MPU_RASR_AP_NONE | MPU_RASR_XN);
    SCB_SHCSR |=
        SCB_SHCSR_MEMFAULTENA | SCB_SHCSR_BUSFAULTENA | SCB_SHCSR_USGFAULTENA;
    MPU_CTRL = MPU_CTRL_PRIVDEFENA | MPU_CTRL_ENABLE;
    cm_dsb_isb();
    mpu_on = 1;
#endif
}

int cm_mpu_enabled(void)
{
    return mpu_on && (MPU_CTRL & MPU_CTRL_ENABLE) != 0;
}

const char *cm_mpu_what(uint32_t addr)
{
    uintptr_t a = addr;
    if (a >= (uintptr_t)_stack_guard && a < (uintptr_t)_stack_bottom)
        return "the stack guard (stack overflow)";
    if (a < (uintptr_t)_null_guard_end)
        return "the null page (a null pointer)";
    if (a >= (uintptr_t)_flash_start && a < (uintptr_t)_flash_end)
        return "flash (read-only)";
    return NULL;
}
