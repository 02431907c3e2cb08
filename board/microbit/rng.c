/* board_entropy on the nRF51: four bytes from its RNG (nRF51 Reference
 * Manual, RNG: START and STOP tasks, VALRDY event, VALUE register).  Bias
 * correction is left off (a byte every ~167 us instead of ~667 us): the
 * bytes are hashed into a seed, not used as they are. */
#include "board.h"
#include "port/cortex-m/cm.h"

#define RNG_TASKS_START REG32(BOARD_RNG_BASE + 0x000u)
#define RNG_TASKS_STOP REG32(BOARD_RNG_BASE + 0x004u)
#define RNG_EVENTS_VALRDY REG32(BOARD_RNG_BASE + 0x100u)
#define RNG_CONFIG REG32(BOARD_RNG_BASE + 0x504u)
#define RNG_VALUE REG32(BOARD_RNG_BASE + 0x508u)
/* Polls for one byte before the RNG counts as absent: about 40 times
 * the ~167 us a byte takes at 16 MHz, so a missing or stopped RNG costs
 * a few tens of milliseconds once, at boot. */
#define RNG_POLLS_MAX 100000u
#define RNG_BYTES 4

uint32_t board_entropy(void)
{
    uint32_t v = 0;
    RNG_CONFIG = 0;
    RNG_EVENTS_VALRDY = 0;
    RNG_TASKS_START = 1;
    for (int i = 0; i < RNG_BYTES; i++) {
        uint32_t polls = 0;
        while (RNG_EVENTS_VALRDY == 0 && polls < RNG_POLLS_MAX)
            polls++;
        if (RNG_EVENTS_VALRDY == 0)
            break;
        RNG_EVENTS_VALRDY = 0;
        v = v << 8 | (RNG_VALUE & 0xFFu);
    }
    RNG_TASKS_STOP = 1;
    return v;
}
