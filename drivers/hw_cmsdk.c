/*
 * hw_cmsdk.c — ARM CMSDK peripherals (the MPS2 boards): the AHB GPIO, the
 * APB timer and the APB UART, as the CMSDK technical reference manual
 * (DDI 0479) describes them.  QEMU models the timer and the UART; its
 * mps2 machines leave the GPIO unimplemented (reads 0, writes ignored).
 */
#include "drivers/hw_drivers.h"
#include "drivers/uart_drivers.h"

#define REG(base, off) (*(volatile uint32_t *)((base) + (off)))

/* ---- GPIO --------------------------------------------------------------- */

#define GPIO_DATA 0x000u
#define GPIO_OUTENSET 0x010u
#define GPIO_OUTENCLR 0x014u
#define GPIO_ALTFUNCCLR 0x01Cu
/* Masked writes of one byte: the mask's bits, shifted by 2, added. */
#define GPIO_LB_MASKED 0x400u
#define GPIO_UB_MASKED 0x800u

static int gpio_mode(uintptr_t base, unsigned bit, int mode)
{
    uint32_t m = 1u << bit;
    if (mode != HW_IN && mode != HW_OUT)
        return -1; /* no pull resistors */
    REG(base, GPIO_ALTFUNCCLR) = m;
    REG(base, mode == HW_OUT ? GPIO_OUTENSET : GPIO_OUTENCLR) = m;
    return 0;
}

/* One bit through the masked view: no read-modify-write to race. */
static void gpio_write(uintptr_t base, unsigned bit, int level)
{
    uint32_t m = 1u << bit;
    uint32_t off =
        bit < 8 ? GPIO_LB_MASKED + (m << 2) : GPIO_UB_MASKED + ((m >> 8) << 2);
    REG(base, off) = level ? m : 0;
}

static int gpio_read(uintptr_t base, unsigned bit)
{
    return (int)((REG(base, GPIO_DATA) >> bit) & 1u);
}

const hw_gpio_ops hw_gpio_cmsdk = {gpio_mode, gpio_write, gpio_read};

/* ---- APB timer ---------------------------------------------------------- */

#define TIMER_CTRL 0x00u
#define TIMER_VALUE 0x04u
#define TIMER_RELOAD 0x08u
#define TIMER_INTCLEAR 0x0Cu
#define TIMER_CTRL_ENABLE (1u << 0)
#define TIMER_CTRL_IRQEN (1u << 3)

/* Down-counts from RELOAD to 0 at the clock; the interrupt comes as it
 * reaches 0 and it reloads: a period is RELOAD + 1 ticks. */
static int timer_start(const hw_timer *t, uint32_t hz)
{
    uint32_t ticks = t->clk_hz / hz;
    if (ticks < 2)
        return -1;
    REG(t->base, TIMER_CTRL) = 0;
    REG(t->base, TIMER_INTCLEAR) = 1;
    REG(t->base, TIMER_RELOAD) = ticks - 1u;
    REG(t->base, TIMER_VALUE) = ticks - 1u;
    REG(t->base, TIMER_CTRL) = TIMER_CTRL_ENABLE | TIMER_CTRL_IRQEN;
    return 0;
}

static void timer_stop(const hw_timer *t)
{
    REG(t->base, TIMER_CTRL) = 0;
    REG(t->base, TIMER_INTCLEAR) = 1;
}

static void timer_ack(const hw_timer *t)
{
    REG(t->base, TIMER_INTCLEAR) = 1;
}

const hw_timer_ops hw_timer_cmsdk = {timer_start, timer_stop, timer_ack};

/* ---- APB UART ----------------------------------------------------------- */

#define UART_INTCLEAR 0x0Cu
#define UART_CTRL_TXINTEN (1u << 2)
#define UART_CTRL_RXINTEN (1u << 3)
#define UART_INT_ALL 0xFu

static int uart_open(const hw_uart *u, uint32_t baud)
{
    uint32_t div = u->clk_hz / baud;
    if (div < CMSDK_BAUDDIV_MIN)
        return -1;
    REG(u->base, CMSDK_CTRL) = 0;
    REG(u->base, CMSDK_BAUDDIV) = div;
    REG(u->base, UART_INTCLEAR) = UART_INT_ALL;
    REG(u->base, CMSDK_CTRL) =
        CMSDK_CTRL_TXEN | CMSDK_CTRL_RXEN | UART_CTRL_RXINTEN;
    return 0;
}

static void uart_close(const hw_uart *u)
{
    REG(u->base, CMSDK_CTRL) = 0;
    REG(u->base, UART_INTCLEAR) = UART_INT_ALL;
}

static int uart_getc(const hw_uart *u)
{
    return cmsdk_uart_getc(u->base);
}

static int uart_putc(const hw_uart *u, int c)
{
    if (REG(u->base, CMSDK_STATE) & CMSDK_STATE_TXFULL)
        return 0;
    REG(u->base, CMSDK_DATA) = (uint8_t)c;
    return 1;
}

static void uart_txirq(const hw_uart *u, int on)
{
    uint32_t ctrl = REG(u->base, CMSDK_CTRL);
    REG(u->base, CMSDK_CTRL) =
        on ? ctrl | UART_CTRL_TXINTEN : ctrl & ~UART_CTRL_TXINTEN;
}

static void uart_ack(const hw_uart *u)
{
    REG(u->base, UART_INTCLEAR) = UART_INT_ALL;
}

const hw_uart_ops hw_uart_cmsdk = {uart_open, uart_close, uart_getc,
                                   uart_putc, uart_txirq, uart_ack};
