// SPDX-License-Identifier: GPL-2.0
/* A real IPI through membarrier(2): see bench/include/mmscale/membarrier.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/membarrier.h>

#include "mmscale/membarrier.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int register_errno;

static int membarrier(int cmd, unsigned int flags, int cpu)
{
	return (int)syscall(__NR_membarrier, cmd, flags, cpu);
}

static void register_once(void)
{
	int cmds = membarrier(MEMBARRIER_CMD_QUERY, 0, 0);

	if (cmds < 0)
		register_errno = errno;
	else if (!(cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ))
		register_errno = ENOSYS;
	else if (membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_RSEQ, 0, 0) != 0)
		register_errno = errno;
}

bool mmscale_membarrier_available(char *why, size_t whylen)
{
	pthread_once(&once, register_once);
	if (register_errno && why && whylen)
		snprintf(why, whylen, "membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ) is refused "
			 "here: %s", strerror(register_errno));
	return register_errno == 0;
}

int mmscale_membarrier_ipi(int os_cpu)
{
	return membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ, MEMBARRIER_CMD_FLAG_CPU, os_cpu);
}

int mmscale_membarrier_ipi_all(void)
{
	return membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ, 0, 0);
}

long long mmscale_function_call_irqs(int os_cpu)
{
	FILE *f = fopen("/proc/interrupts", "r");
	char line[16384];
	int column = -1, n = 0;
	long long count = -1;

	if (!f)
		return -1;
	/* The header names the CPU columns: "CPU0 CPU1 ..." (offline CPUs have none). */
	if (fgets(line, sizeof(line), f)) {
		for (char *tok = strtok(line, " \t\n"); tok; tok = strtok(NULL, " \t\n"), n++)
			if (strncmp(tok, "CPU", 3) == 0 && atoi(tok + 3) == os_cpu)
				column = n;
	}
	while (column >= 0 && fgets(line, sizeof(line), f)) {
		char *tok = strtok(line, " \t\n");

		if (!tok || strcmp(tok, "CAL:") != 0)
			continue;
		for (int i = 0; i <= column && (tok = strtok(NULL, " \t\n")); i++)
			if (i == column)
				count = atoll(tok);
		break;
	}
	fclose(f);
	return count;
}
