/* bm.h - the few services startup.c gives the bare-metal example. */
#ifndef BM_H
#define BM_H

#include <stdint.h>

/* Write a NUL-terminated string to the host's stdout (semihosting). */
void bm_puts(const char *s);
/* End the program: status 0 makes qemu exit 0, anything else exits 1. */
void bm_exit(int status) __attribute__((noreturn));

/* Bytes of stack used so far (deepest point since reset, painted-stack method). */
uint32_t bm_stack_used(void);

#endif
