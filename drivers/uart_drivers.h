/*
 * uart_drivers.h — polled drivers for the UARTs QEMU emulates on our
 * boards, as static inline functions taking the peripheral's base address.
 * The console's drivers (uart_NAME.c, which board.mk's BOARD_UART picks)
 * and the hw library's UART drivers use them; board.h names the base.
 */
#ifndef RTLUA_UART_DRIVERS_H
#define RTLUA_UART_DRIVERS_H

#include <stdint.h>

#define UART_REG(base, off) (*(volatile uint32_t *)(uintptr_t)((base) + (off)))

/* The polled UARTs below differ only in their registers and bits: a
 * status register whose bits under `txmask` read `txready` when the data
 * register takes a byte, and under `rxmask` read `rxready` when it holds
 * one. */
static inline void uart_reg_putc(uint32_t base, uint32_t status, uint32_t data,
                                 uint32_t txmask, uint32_t txready, int c)
{
    while ((UART_REG(base, status) & txmask) != txready)
        ;
    UART_REG(base, data) = (uint8_t)c;
}

static inline int uart_reg_getc(uint32_t base, uint32_t status, uint32_t data,
                                uint32_t rxmask, uint32_t rxready)
{
    if ((UART_REG(base, status) & rxmask) != rxready)
        return -1;
    return (int)(UART_REG(base, data) & 0xFFu);
}

/* ARM CMSDK APB UART (MPS2). */
#define CMSDK_DATA 0x00u
#define CMSDK_STATE 0x04u
#define CMSDK_CTRL 0x08u
#define CMSDK_BAUDDIV 0x10u
#define CMSDK_STATE_TXFULL (1u << 0)
#define CMSDK_STATE_RXFULL (1u << 1)
#define CMSDK_CTRL_TXEN (1u << 0)
#define CMSDK_CTRL_RXEN (1u << 1)
/* The smallest divider the CMSDK UART accepts. */
#define CMSDK_BAUDDIV_MIN 16u

static inline void cmsdk_uart_init(uint32_t base)
{
    UART_REG(base, CMSDK_BAUDDIV) = CMSDK_BAUDDIV_MIN;
    UART_REG(base, CMSDK_CTRL) = CMSDK_CTRL_TXEN | CMSDK_CTRL_RXEN;
}

static inline void cmsdk_uart_putc(uint32_t base, int c)
{
    uart_reg_putc(base, CMSDK_STATE, CMSDK_DATA, CMSDK_STATE_TXFULL, 0, c);
}

static inline int cmsdk_uart_getc(uint32_t base)
{
    return uart_reg_getc(base, CMSDK_STATE, CMSDK_DATA, CMSDK_STATE_RXFULL,
                         CMSDK_STATE_RXFULL);
}

/* ARM PL011 (Stellaris). */
#define PL011_DR 0x00u
#define PL011_FR 0x18u
#define PL011_IBRD 0x24u
#define PL011_FBRD 0x28u
#define PL011_LCRH 0x2Cu
#define PL011_CR 0x30u
#define PL011_FR_RXFE (1u << 4)
#define PL011_FR_TXFF (1u << 5)
#define PL011_LCRH_8N1 (3u << 5) /* 8 bits, no parity, one stop bit */
#define PL011_CR_UARTEN (1u << 0)
#define PL011_CR_TXE (1u << 8)
#define PL011_CR_RXE (1u << 9)

/* 115200 baud 8N1 from the UART's clock CLK_HZ: the divisor clk / (16 *
 * baud) in 64ths, rounded; the line control written after it latches
 * both (QEMU ignores the rate, a chip does not: its reset state is 5-bit
 * characters). */
static inline void pl011_init(uint32_t base, uint32_t clk_hz)
{
    uint32_t div64 = (clk_hz * 4u + 115200u / 2u) / 115200u;
    UART_REG(base, PL011_IBRD) = div64 >> 6;
    UART_REG(base, PL011_FBRD) = div64 & 63u;
    UART_REG(base, PL011_LCRH) = PL011_LCRH_8N1;
    UART_REG(base, PL011_CR) = PL011_CR_UARTEN | PL011_CR_TXE | PL011_CR_RXE;
}

static inline void pl011_putc(uint32_t base, int c)
{
    uart_reg_putc(base, PL011_FR, PL011_DR, PL011_FR_TXFF, 0, c);
}

static inline int pl011_getc(uint32_t base)
{
    return uart_reg_getc(base, PL011_FR, PL011_DR, PL011_FR_RXFE, 0);
}

/* ST STM32F2/F4 USART. */
#define STM32_SR 0x00u
#define STM32_DR 0x04u
#define STM32_BRR 0x08u
#define STM32_CR1 0x0Cu
#define STM32_SR_RXNE (1u << 5)
#define STM32_SR_TXE (1u << 7)
#define STM32_CR1_RE (1u << 2)
#define STM32_CR1_TE (1u << 3)
#define STM32_CR1_UE (1u << 13)

static inline void stm32_usart_init(uint32_t base, uint32_t brr)
{
    UART_REG(base, STM32_BRR) = brr;
    UART_REG(base, STM32_CR1) = STM32_CR1_UE | STM32_CR1_TE | STM32_CR1_RE;
}

static inline void stm32_usart_putc(uint32_t base, int c)
{
    uart_reg_putc(base, STM32_SR, STM32_DR, STM32_SR_TXE, STM32_SR_TXE, c);
}

static inline int stm32_usart_getc(uint32_t base)
{
    return uart_reg_getc(base, STM32_SR, STM32_DR, STM32_SR_RXNE,
                         STM32_SR_RXNE);
}

/* Nordic nRF51 UART (tasks and events). */
#define NRF_STARTRX 0x000u
#define NRF_STARTTX 0x008u
#define NRF_RXDRDY 0x108u
#define NRF_TXDRDY 0x11Cu
#define NRF_ENABLE 0x500u
#define NRF_PSELTXD 0x50Cu
#define NRF_PSELRXD 0x514u
#define NRF_RXD 0x518u
#define NRF_TXD 0x51Cu
#define NRF_BAUDRATE 0x524u
#define NRF_ENABLE_UART 4u
#define NRF_BAUD_115200 0x01D7E000u

/* The GPIO's configuration of the UART's pins, as the reference manual
 * asks: TXD an output driven high (the line's idle level), RXD an
 * input. */
#define NRF_GPIO 0x50000000u
#define NRF_GPIO_OUTSET 0x508u
#define NRF_GPIO_PIN_CNF(n) (0x700u + 4u * (n))
#define NRF_PIN_OUT_NOINPUT 3u /* DIR output, input buffer disconnected */
#define NRF_PIN_IN 0u

static inline void nrf51_uart_init(uint32_t base, uint32_t txpin,
                                   uint32_t rxpin)
{
    UART_REG(NRF_GPIO, NRF_GPIO_OUTSET) = 1u << txpin;
    UART_REG(NRF_GPIO, NRF_GPIO_PIN_CNF(txpin)) = NRF_PIN_OUT_NOINPUT;
    UART_REG(NRF_GPIO, NRF_GPIO_PIN_CNF(rxpin)) = NRF_PIN_IN;
    UART_REG(base, NRF_PSELTXD) = txpin;
    UART_REG(base, NRF_PSELRXD) = rxpin;
    UART_REG(base, NRF_BAUDRATE) = NRF_BAUD_115200;
    UART_REG(base, NRF_ENABLE) = NRF_ENABLE_UART;
    UART_REG(base, NRF_STARTTX) = 1;
    UART_REG(base, NRF_STARTRX) = 1;
}

static inline void nrf51_uart_putc(uint32_t base, int c)
{
    UART_REG(base, NRF_TXDRDY) = 0;
    UART_REG(base, NRF_TXD) = (uint8_t)c;
    while (!UART_REG(base, NRF_TXDRDY))
        ;
}

static inline int nrf51_uart_getc(uint32_t base)
{
    if (!UART_REG(base, NRF_RXDRDY))
        return -1;
    UART_REG(base, NRF_RXDRDY) = 0;
    return (int)(UART_REG(base, NRF_RXD) & 0xFFu);
}

#endif
