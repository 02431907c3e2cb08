/*
 * hw_reg.c — pins that are bits of one plain register: the MPS2 FPGA's
 * LEDs (LED0, read-write, outputs only) and its push buttons (BUTTON,
 * read-only, inputs only), and the host's simulated LEDs.
 */
#include "port/hw.h"

#define REG(base) (*(volatile uint32_t *)(base))

static int out_mode(uintptr_t base, unsigned bit, int mode)
{
    (void)base;
    (void)bit;
    return mode == HW_OUT ? 0 : -1;
}

static int in_mode(uintptr_t base, unsigned bit, int mode)
{
    (void)base;
    (void)bit;
    return mode == HW_IN ? 0 : -1;
}

static void reg_write(uintptr_t base, unsigned bit, int level)
{
    uint32_t v = REG(base);
    REG(base) = level ? v | (1u << bit) : v & ~(1u << bit);
}

static void no_write(uintptr_t base, unsigned bit, int level)
{
    (void)base;
    (void)bit;
    (void)level;
}

static int reg_read(uintptr_t base, unsigned bit)
{
    return (int)((REG(base) >> bit) & 1u);
}

const hw_gpio_ops hw_gpio_reg_out = {out_mode, reg_write, reg_read};
const hw_gpio_ops hw_gpio_reg_in = {in_mode, no_write, reg_read};
