/*
 * startup.c - vector table, reset handler and semihosting for the bare-metal
 * example. No C library start-up code and no heap: reset copies .data from
 * flash, zeroes .bss, calls main(), and reports main's result to the
 * debugger/emulator through ARM semihosting (qemu-system-arm -semihosting).
 */
#include <stdint.h>

#include "bm.h"

extern uint32_t _bm_data_start[], _bm_data_end[], _bm_data_load[];
extern uint32_t _bm_bss_start[], _bm_bss_end[], _bm_stack_top[];
extern char _bm_stack_size[]; /* linker symbol: its address is the size */

#define STACK_PAINT 0xa5a5a5a5u

int main(void);
void bm_reset(void);
void bm_fault(void);

/* Semihosting: operation in r0, argument block in r1, 'bkpt 0xab' traps to
 * the host (on ARMv6-M/v7-M the BKPT form is the semihosting call). */
static uint32_t semihost(uint32_t op, const void *arg)
{
    register uint32_t r0 __asm__("r0") = op;
    register const void *r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

#define SYS_WRITE0 0x04u
#define SYS_EXIT 0x18u
#define ADP_STOPPED_APPLICATION_EXIT 0x20026u /* qemu exits with status 0 */
#define ADP_STOPPED_RUNTIME_ERROR 0x20023u    /* qemu exits with status 1 */

void bm_puts(const char *s)
{
    (void)semihost(SYS_WRITE0, s);
}

void bm_exit(int status)
{
    /* On 32-bit ARM the reason code itself is the argument, not a block. */
    uintptr_t reason = status == 0 ? ADP_STOPPED_APPLICATION_EXIT : ADP_STOPPED_RUNTIME_ERROR;
    (void)semihost(SYS_EXIT, (const void *)reason);
    for (;;) {
    }
}

static uint32_t *stack_limit(void)
{
    return _bm_stack_top - (uintptr_t)_bm_stack_size / sizeof(uint32_t);
}

/* Paint the unused stack so bm_stack_used() can find the deepest point. */
static void paint_stack(void)
{
    uint32_t *sp;
    __asm__ volatile("mov %0, sp" : "=r"(sp));
    for (uint32_t *p = stack_limit(); p < sp - 16; p++) {
        *p = STACK_PAINT;
    }
}

uint32_t bm_stack_used(void)
{
    const uint32_t *p = stack_limit();
    while (p < _bm_stack_top && *p == STACK_PAINT) {
        p++;
    }
    return (uint32_t)((uintptr_t)_bm_stack_top - (uintptr_t)p);
}

void bm_reset(void)
{
#if defined(__ARM_FP)
    /* An M4F comes out of reset with its FPU off: grant CP10/CP11 full
     * access (CPACR) before any floating-point or VFP load/store runs, as
     * every M4F start-up does. gcc also moves 64-bit values through the
     * d registers, so integer code needs this too. */
    *(volatile uint32_t *)0xE000ED88u |= 0xFu << 20;
    __asm__ volatile("dsb\n\tisb" ::: "memory");
#endif
    paint_stack();
    const uint32_t *src = _bm_data_load;
    for (uint32_t *dst = _bm_data_start; dst < _bm_data_end; dst++) {
        *dst = *src++;
    }
    for (uint32_t *dst = _bm_bss_start; dst < _bm_bss_end; dst++) {
        *dst = 0;
    }
    bm_exit(main());
}

/* Any fault (e.g. an unaligned access on ARMv6-M) ends the run as a failure. */
void bm_fault(void)
{
    bm_puts("FAULT: hard fault (unaligned access or bad pointer?)\n");
    bm_exit(1);
}

typedef void (*bm_handler)(void);

/* Cortex-M vector table: initial stack pointer, then exception handlers
 * (reset, NMI, hard fault, and the v7-M memory/bus/usage faults). */
__attribute__((section(".vectors"), used)) static const struct {
    uint32_t *stack_top;
    bm_handler handlers[7];
} bm_vectors = {
    _bm_stack_top,
    {bm_reset, bm_fault, bm_fault, bm_fault, bm_fault, bm_fault, bm_fault},
};
