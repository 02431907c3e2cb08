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
 * segments, whose RAM part lies in flash's address space).  A note is two
 * words, the cause and its complement under a magic, so the random RAM of
 * a power-up is not taken for one.  Start-up reads it and clears it.
 */
#include "board.h"
#include "port/cortex-m/cm.h"
#include "port/port.h"

#include <stddef.h>

/* First exception number of the external interrupts (IRQ 0). */
#define EXC_IRQ0 16
/* A reset note's marker, and what a note that is not there reads. */
#define NOTE_MAGIC 0x52534E54u /* "RSNT" */

typedef struct irq_slot {
    volatile uint32_t exc; /* 0: free */
    void (*fn)(void *);
    void *arg;
} irq_slot;

static irq_slot slots[PORT_IRQ_SLOTS];

int port_irq_attach(int line, void (*fn)(void *), void *arg)
{
    uint32_t exc = (uint32_t)(line + EXC_IRQ0);
    if (line + EXC_IRQ0 <= 0 || line >= BOARD_IRQ_COUNT)
        return -1;
    port_irq_detach(line);
    for (int i = 0; i < PORT_IRQ_SLOTS; i++) {
        if (slots[i].exc == 0) {
            slots[i].fn = fn;
            slots[i].arg = arg;
            __asm volatile("dmb" ::: "memory");
            slots[i].exc = exc;
            return 0;
        }
    }
    return -1;
}

void port_irq_detach(int line)
{
    uint32_t exc = (uint32_t)(line + EXC_IRQ0);
    for (int i = 0; i < PORT_IRQ_SLOTS; i++)
        if (slots[i].exc == exc)
            slots[i].exc = 0;
}

int cm_irq_dispatch(uint32_t exc)
{
    for (int i = 0; i < PORT_IRQ_SLOTS; i++) {
        if (slots[i].exc == exc) {
            slots[i].fn(slots[i].arg);
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

static volatile uint32_t note[3] __attribute__((section(".noinit")));
static int boot_cause;

void port_reset_note(int cause)
{
    if (cause == PORT_RESET_POWER) {
        note[0] = 0;
        return;
    }
    note[1] = (uint32_t)cause;
    note[2] = ~(uint32_t)cause;
    note[0] = NOTE_MAGIC;
}

void cm_reset_init(void)
{
    boot_cause = PORT_RESET_POWER;
    if (note[0] == NOTE_MAGIC && note[1] == ~note[2] &&
        note[1] <= PORT_RESET_SOFTWARE)
        boot_cause = (int)note[1];
    note[0] = 0;
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
