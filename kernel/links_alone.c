// SPDX-License-Identifier: GPL-2.0
/*
 * The build's check that the emulated kernel stands alone (CMakeLists.txt,
 * kernel_links_alone): this program is every object of the kernel layer
 * and nothing of the harness, so a kernel file that calls a harness
 * function or reads a harness global (the command line's parameters, the
 * plan, a notice) is an undefined reference and the build fails. What the
 * kernel needs from its machine comes through include/mmscale/kernel/machine.h.
 */
int main(void)
{
	return 0;
}
