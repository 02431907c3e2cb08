/*
 * cm.h — Cortex-M system registers by name (the subset rtlua uses), and the
 * board interface that port/cortex-m calls.  No bare addresses elsewhere.
 *
 * Architecture facts: ARMv6-M (M0) has SysTick, NVIC and the SCB but no
 * MPU on the chips we support, no DWT cycle counter, no configurable
 * fault handlers (everything is HardFault).  ARMv7-M (M3/M4/M7) has all.
 */
#ifndef RTLUA_CM_H
#define RTLUA_CM_H

#include <stdint.h>

#define REG32(addr) (*(volatile uint32_t *)(uintptr_t)(addr))

/* SysTick */
#define SYST_CSR REG32(0xE000E010u)
#define SYST_RVR REG32(0xE000E014u)
#define SYST_CVR REG32(0xE000E018u)
#define SYST_CSR_ENABLE (1u << 0)
#define SYST_CSR_TICKINT (1u << 1)
#define SYST_CSR_CLKSOURCE (1u << 2) /* 1 = processor clock */
#define SYST_RELOAD_MAX 0x00FFFFFFu

/* System control block */
#define SCB_ICSR REG32(0xE000ED04u)
#define SCB_ICSR_PENDSTSET (1u << 26)
#define SCB_VTOR REG32(0xE000ED08u)
#define SCB_AIRCR REG32(0xE000ED0Cu)
#define SCB_SHCSR REG32(0xE000ED24u)
#define SCB_SHCSR_MEMFAULTENA (1u << 16)
#define SCB_SHCSR_BUSFAULTENA (1u << 17)
#define SCB_SHCSR_USGFAULTENA (1u << 18)
#define SCB_CFSR REG32(0xE000ED28u)
#define SCB_CFSR_IACCVIOL (1u << 0)
#define SCB_CFSR_MSTKERR (1u << 4)
#define SCB_CFSR_MMARVALID (1u << 7)
#define SCB_CFSR_BFARVALID (1u << 15)
#define SCB_HFSR REG32(0xE000ED2Cu)
#define SCB_MMFAR REG32(0xE000ED34u)
#define SCB_BFAR REG32(0xE000ED38u)
#define SCB_CPACR REG32(0xE000ED88u)
#define SCB_CPACR_CP10_CP11_FULL (0xFu << 20)

/* NVIC: set-enable, clear-enable and clear-pending, 32 lines a word */
#define NVIC_ISER(n) REG32(0xE000E100u + 4u * (n))
#define NVIC_ICER(n) REG32(0xE000E180u + 4u * (n))
#define NVIC_ICPR(n) REG32(0xE000E280u + 4u * (n))
#define SCB_AIRCR_VECTKEY (0x05FAu << 16)
#define SCB_AIRCR_SYSRESETREQ (1u << 2)

/* Debug: DWT cycle counter */
#define DEMCR REG32(0xE000EDFCu)
#define DEMCR_TRCENA (1u << 24)
#define DWT_CTRL REG32(0xE0001000u)
#define DWT_CTRL_CYCCNTENA (1u << 0)
#define DWT_CYCCNT REG32(0xE0001004u)

/* MPU (PMSAv7) */
#define MPU_TYPE REG32(0xE000ED90u)
#define MPU_CTRL REG32(0xE000ED94u)
#define MPU_CTRL_ENABLE (1u << 0)
#define MPU_CTRL_PRIVDEFENA (1u << 2)
#define MPU_RNR REG32(0xE000ED98u)
#define MPU_RBAR REG32(0xE000ED9Cu)
#define MPU_RASR REG32(0xE000EDA0u)
#define MPU_RASR_ENABLE (1u << 0)
#define MPU_RASR_SIZE(log2) ((uint32_t)((log2)-1) << 1)
#define MPU_RASR_AP_NONE (0u << 24)
#define MPU_RASR_AP_RW (3u << 24)
#define MPU_RASR_AP_RO (6u << 24)
#define MPU_RASR_XN (1u << 28)

/* Architecture selection from the compiler. */
#if defined(__ARM_ARCH_6M__)
#define CM_V6M 1
#else
#define CM_V6M 0
#endif

static inline void cm_dsb_isb(void)
{
    __asm volatile("dsb\n\tisb" ::: "memory");
}

/* The board layer: board.h, the console UART's driver that board.mk's
 * BOARD_UART picks (drivers/uart_NAME.c), and the board's own files. */
/* The chip's clocks and the console UART's clock gate, first thing in
 * port_init; weak default: nothing (the reset clocks serve). */
void board_clock_init(void);
void board_uart_init(void);  /* the console UART, after the clocks */
void board_uart_putc(int c); /* blocks while the transmitter is full */
int board_uart_getc(void);   /* a byte, or -1 when none is waiting */
/* The UART stops receiving, so QEMU stops feeding it the host's stdin
 * (piped input is read over semihosting then); weak default: nothing. */
void board_uart_rx_off(void);
/* 32 bits from the board's random number generator, for port_entropy;
 * weak default: 0 (no RNG).  Called once, from port_init. */
uint32_t board_entropy(void);

/* Exception handlers the vector table names. */
void Reset_Handler(void);
void HardFault_Handler(void);
void MemManage_Handler(void);
void BusFault_Handler(void);
void UsageFault_Handler(void);
void SysTick_Handler(void);

/* Between the port's files. */
void cm_tick_init(void);
/* The tick's look at the console UART (port_console_onbreak). */
void cm_console_tick(void);
void cm_cycles_init(void);
void cm_entropy_init(void);
void cm_stack_init(void);
void cm_reset_init(void);
/* The handler of run-time attached interrupts (irq.c): 1 when exception
 * `exc` (IPSR) had one and it ran. */
int cm_irq_dispatch(uint32_t exc);
int cm_stack_intact(void);
/* mpu.c: program the MPU (where the board has one); is it on; the region
 * an address lies in, as a fault report names it (NULL: none of ours). */
void cm_mpu_init(void);
int cm_mpu_enabled(void);
const char *cm_mpu_what(uint32_t addr);
_Noreturn void cm_stack_overflow(const char *where);
void cm_semihost_exit(int status) __attribute__((noreturn));

#endif
