// SPDX-License-Identifier: GPL-2.0
/*
 * In the test VM: end QEMU through its isa-debug-exit device (port 0xf4),
 * so the host sees the guest's verdict as QEMU's exit status
 * ((code << 1) | 1). Built statically by scripts/vmtest.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/io.h>

int main(int argc, char **argv)
{
	int code = argc > 1 ? atoi(argv[1]) : 0;

	if (ioperm(0xf4, 4, 1) != 0) {
		perror("ioperm");
		return 1;
	}
	outl((unsigned int)code, 0xf4);
	return 0;
}
