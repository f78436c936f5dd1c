/* SPDX-License-Identifier: GPL-2.0 */
/* The command line (bench/cli.c). */
#ifndef MMSCALE_CLI_H
#define MMSCALE_CLI_H

#include <stdbool.h>
#include <stdio.h>

struct mmscale_cli {
	const char *out;		/* --benchmark_out: written atomically by us */
	const char *out_format;
	const char *format;
	const char *topology;
	const char *placement;
	const char *cpus;
	const char *nodes;
	const char *sample;
	const char *oversubscribe;
	bool widen_affinity;
	const char *threads;
	const char *papi_events;
	bool transfers;			/* --transfers: the counting build runs */
	const char *transfer_line;	/* --transfer-line=64|128 */
	const char *project;		/* --project=FILE: a machine file (with --transfers) */
	bool ipi_timeout_given;		/* --ipi-timeout-ms was given (the counting build's default differs) */
	bool list, describe, c2c_matrix, verify_placement, help;
	bool describe_json;		/* --describe=json */
	bool describe_xml;		/* --describe=xml */
	bool list_json;			/* --list=json */
	bool c2c_matrix_json;		/* --c2c-matrix=json */
	const char *save_machine;	/* --save-machine=FILE (with --c2c-matrix) */
	int gb_argc;
	char **gb_argv;
	char *command;			/* the command line, shell-quoted ("mmscale ...") */
};

/*
 * Parse argv: our flags into o, emulation parameters into mmscale_params,
 * Google Benchmark flags (values checked) into o->gb_argv. Returns 0, or
 * MMSCALE_EXIT_USAGE after one line on stderr.
 */
int mmscale_cli_parse(int argc, char **argv, struct mmscale_cli *o);
void mmscale_cli_free(struct mmscale_cli *o);

/* mmscale --help, with the doorbells' and the kernel/smp.c generations' rows. */
void mmscale_print_help(FILE *out);
extern const char mmscale_help[];

/* "mmscale: <message> (see mmscale --help)" on stderr; returns MMSCALE_EXIT_USAGE. */
int mmscale_usage_error(const char *fmt, ...) __attribute__((__format__(printf, 1, 2)));
/* "--name=value": returns value ("" when the = is missing), or NULL if arg is not this option. */
const char *mmscale_option_value(const char *arg, const char *name);

#endif /* MMSCALE_CLI_H */
