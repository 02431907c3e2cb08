/* The clocks, and the console USART1's clock and pins.
 *
 * A chip starts on its 16 MHz internal oscillator (HSI); QEMU's model
 * runs at 168 MHz from the start and leaves the RCC unimplemented (it
 * reads 0).  So on a chip (RCC_CR's HSIRDY set) the PLL makes 168 MHz
 * from the HSI (no crystal assumed), with APB1 at 42 MHz and APB2 at
 * 84 MHz, the rates BOARD_CLOCK_HZ and BOARD_USART_BRR are for; under
 * QEMU nothing is changed.  USART1's pins are PB6 (TX) and PB7 (RX),
 * alternate function 7 (the Netduino Plus 2's SCL and SDA header pins:
 * PA10, USART1's other RX, is its LED); QEMU ignores the GPIO. */
#include "board.h"
#include "port/cortex-m/cm.h"

#define RCC 0x40023800u
#define RCC_CR (RCC + 0x00u)
#define RCC_PLLCFGR (RCC + 0x04u)
#define RCC_CFGR (RCC + 0x08u)
#define RCC_AHB1ENR (RCC + 0x30u)
#define CR_HSIRDY (1u << 1)
#define CR_PLLON (1u << 24)
#define CR_PLLRDY (1u << 25)
/* PLL from HSI: 16 MHz / M 16 * N 336 / P 2 = 168 MHz (Q 7: 48 MHz).
 * Bit 29 is reserved, kept at its reset value 1. */
#define PLLCFGR_168_FROM_HSI                                                  \
    ((1u << 29) | (7u << 24) | (0u << 22) | (0u << 16) | (336u << 6) | 16u)
#define CFGR_PPRE1_DIV4 (5u << 10)
#define CFGR_PPRE2_DIV2 (4u << 13)
#define CFGR_SW_MASK 3u
#define CFGR_SW_PLL 2u
#define CFGR_SWS_MASK (3u << 2)
#define CFGR_SWS_PLL (2u << 2)
#define AHB1ENR_GPIOB (1u << 1)
/* Flash: 5 wait states at 168 MHz and 3.3 V, prefetch and caches on. */
#define FLASH_ACR 0x40023C00u
#define ACR_168MHZ (5u | (1u << 8) | (1u << 9) | (1u << 10))
#define GPIOB 0x40020400u
#define GPIO_MODER 0x00u
#define GPIO_PUPDR 0x0Cu
#define GPIO_AFRL 0x20u
/* Polls of a ready flag before giving up (the chip stays on the HSI). */
#define CLOCK_POLLS 100000

static int wait_set(uint32_t reg, uint32_t mask, uint32_t want)
{
    for (int i = 0; i < CLOCK_POLLS; i++)
        if ((REG32(reg) & mask) == want)
            return 1;
    return 0;
}

static void clock_init(void)
{
    if (!(REG32(RCC_CR) & CR_HSIRDY))
        return; /* QEMU's model */
    REG32(FLASH_ACR) = ACR_168MHZ;
    if (!wait_set(FLASH_ACR, 7u, 5u))
        return;
    REG32(RCC_CFGR) = (REG32(RCC_CFGR) & ~((7u << 10) | (7u << 13))) |
                      CFGR_PPRE1_DIV4 | CFGR_PPRE2_DIV2;
    REG32(RCC_PLLCFGR) = PLLCFGR_168_FROM_HSI;
    REG32(RCC_CR) |= CR_PLLON;
    if (!wait_set(RCC_CR, CR_PLLRDY, CR_PLLRDY))
        return;
    REG32(RCC_CFGR) = (REG32(RCC_CFGR) & ~CFGR_SW_MASK) | CFGR_SW_PLL;
    (void)wait_set(RCC_CFGR, CFGR_SWS_MASK, CFGR_SWS_PLL);
}

/* PB6 and PB7 to alternate function 7 (USART1), RX pulled up. */
static void usart1_pins(void)
{
    REG32(RCC_AHB1ENR) |= AHB1ENR_GPIOB;
    (void)REG32(RCC_AHB1ENR); /* the gate opens a clock later */
    REG32(GPIOB + GPIO_AFRL) =
        (REG32(GPIOB + GPIO_AFRL) & ~(0xFFu << 24)) | (7u << 24) | (7u << 28);
    REG32(GPIOB + GPIO_PUPDR) =
        (REG32(GPIOB + GPIO_PUPDR) & ~(3u << 14)) | (1u << 14);
    REG32(GPIOB + GPIO_MODER) =
        (REG32(GPIOB + GPIO_MODER) & ~(0xFu << 12)) | (2u << 12) | (2u << 14);
}

void board_clock_init(void)
{
    clock_init();
    REG32(BOARD_RCC_APB2ENR) |= BOARD_APB2ENR_USART1;
    usart1_pins();
}
