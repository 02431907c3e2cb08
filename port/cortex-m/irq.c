/*
 * irq.c — interrupts attached at run time, and resets with their cause
 * (port.h).
 *
 * Attached lines: a small table of (exception number, function, argument)
 * that the default handler (startup.c) searches when an interrupt has no
 * handler of its own.  A slot is filled completely before its exception
 * number is published, and emptied by unpublishing first, so the handler
 * never calls a half-written slot; the caller enables the line only after
 * attaching it and detaches it only after disabling it.
 *
 * Reset causes: a note in .noinit RAM, which start-up does not clear (and
 * QEMU's system reset does not either: it reloads only the image's load
 * segments, whose RAM part lies in flash's address space).  A note is a
 * word, the cause and its complement under a magic, so the random RAM of
 * a power-up is not taken for one.  Start-up reads it and clears it.
 */
#include "board.h"
#include "port/cortex-m/cm.h"
#include "port/port.h"

#include <stddef.h>

/* First exception number of the external interrupts (IRQ 0). */
#define EXC_IRQ0 16
/* A reset note's marker, and what a note that is not there reads. */
#define NOTE_MAGIC 0x52530000u /* "RS" */

/* The slots, as three arrays (no padding: RAM is scarce on the M0). */
static volatile uint8_t slot_exc[PORT_IRQ_SLOTS]; /* 0: free */
static void (*slot_fn[PORT_IRQ_SLOTS])(void *);
static void *slot_arg[PORT_IRQ_SLOTS];
_Static_assert(EXC_IRQ0 + BOARD_IRQ_COUNT <= 256,
               "exception numbers in a byte");

int port_irq_attach(int line, void (*fn)(void *), void *arg)
{
    if (line + EXC_IRQ0 <= 0 || line >= BOARD_IRQ_COUNT)
        return -1;
    port_irq_detach(line);
    for (int i = 0; i < PORT_IRQ_SLOTS; i++) {
        if (slot_exc[i] == 0) {
            slot_fn[i] = fn;
            slot_arg[i] = arg;
            __asm volatile("dmb" ::: "memory");
            slot_exc[i] = (uint8_t)(line + EXC_IRQ0);
            return 0;
        }
    }
    return -1;
}

void port_irq_detach(int line)
{
    for (int i = 0; i < PORT_IRQ_SLOTS; i++)
        if (slot_exc[i] == line + EXC_IRQ0)
            slot_exc[i] = 0;
}

void *port_irq_arg(int line)
{
    for (int i = 0; i < PORT_IRQ_SLOTS; i++)
        if (slot_exc[i] == line + EXC_IRQ0)
            return slot_arg[i];
    return NULL;
}

int cm_irq_dispatch(uint32_t exc)
{
    for (int i = 0; i < PORT_IRQ_SLOTS; i++) {
        if (slot_exc[i] == exc) {
            slot_fn[i](slot_arg[i]);
            return 1;
        }
    }
    return 0;
}

void port_irq_enable(int line, int on)
{
    if (line < 0 || line >= BOARD_IRQ_COUNT)
        return;
    uint32_t bit = 1u << ((unsigned)line % 32u);
    unsigned word = (unsigned)line / 32u;
    if (on) {
        NVIC_ISER(word) = bit;
    } else {
        NVIC_ICER(word) = bit;
        cm_dsb_isb();
        NVIC_ICPR(word) = bit;
    }
}

/* ---- Resets ------------------------------------------------------------ */

/* The magic in the top half, the cause and its complement below. */
static volatile uint32_t note __attribute__((section(".noinit")));
static uint8_t boot_cause;

void port_reset_note(int cause)
{
    uint32_t c = (uint32_t)cause & 0xFFu;
    note = cause == PORT_RESET_POWER ? 0 : NOTE_MAGIC | (~c & 0xFFu) << 8 | c;
}

void cm_reset_init(void)
{
    uint32_t c = note & 0xFFu;
    boot_cause = PORT_RESET_POWER;
    if ((note & 0xFFFF0000u) == NOTE_MAGIC &&
        ((note >> 8) & 0xFFu) == (~c & 0xFFu) && c <= PORT_RESET_SOFTWARE)
        boot_cause = (uint8_t)c;
    note = 0;
}

int port_reset_cause(void)
{
    return boot_cause;
}

int port_reset(void)
{
    port_reset_note(PORT_RESET_SOFTWARE);
    cm_dsb_isb();
    SCB_AIRCR = SCB_AIRCR_VECTKEY | SCB_AIRCR_SYSRESETREQ;
    cm_dsb_isb();
    for (;;)
        ;
}
