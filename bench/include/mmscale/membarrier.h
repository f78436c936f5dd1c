/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A real inter-processor interrupt from user space: membarrier(2) with
 * MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ and MEMBARRIER_CMD_FLAG_CPU (Linux
 * 5.10+) makes the kernel's own smp_call_function_single interrupt one CPU,
 * if a thread of this process runs there (the emulated CPU's thread, busy
 * on its PU). Used by the --ipi=kernel doorbell and the c2c/membarrier
 * probe (bench/membarrier.c).
 */
#ifndef MMSCALE_MEMBARRIER_H
#define MMSCALE_MEMBARRIER_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Register this process for expedited RSEQ membarriers, once; later calls
 * return the first answer. false, with the kernel's reason in why, where
 * the kernel refuses (older than 5.10, seccomp, a sandbox).
 */
bool mmscale_membarrier_available(char *why, size_t whylen);

/* Interrupt the real CPU os_cpu (an OS PU number); 0 or -1 with errno. */
int mmscale_membarrier_ipi(int os_cpu);

/*
 * Interrupt every CPU where a thread of this process runs, and wait for
 * every answer (the kernel's smp_call_function_many with wait: --save-machine's
 * IPI figures); 0 or -1 with errno.
 */
int mmscale_membarrier_ipi_all(void);

/*
 * The witness that interrupts really arrived: the kernel's count of
 * function call interrupts (the CAL row of /proc/interrupts) on os_cpu; -1
 * where it cannot be read. membarrier sends nothing to a CPU where no
 * thread of this process runs at that moment, so a time alone proves
 * nothing.
 */
long long mmscale_function_call_irqs(int os_cpu);

#endif /* MMSCALE_MEMBARRIER_H */
