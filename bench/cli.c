// SPDX-License-Identifier: GPL-2.0
/*
 * The command line, parsed (our flags; the values of Google Benchmark's
 * flags we check ourselves) without touching the machine: bench/main.c
 * runs what it says, fuzz/fuzz_cli.c feeds it anything.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "mmscale/notice.h"
#include "mmscale/params.h"

int usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("mmscale: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputs(" (see mmscale --help)\n", stderr);
	va_end(ap);
	return MMSCALE_EXIT_USAGE;
}

/* "--name=value": returns value, or NULL if arg is not this option. */
const char *option_value(const char *arg, const char *name)
{
	size_t len = strlen(name);

	if (strncmp(arg, name, len) != 0)
		return NULL;
	if (arg[len] == '=')
		return arg + len + 1;
	if (arg[len] == '\0')
		return "";	/* present without a value: caught below */
	return NULL;
}

static int take_value(const char *arg, const char *name, const char **slot, int *status)
{
	const char *v = option_value(arg, name);

	if (!v)
		return 0;
	if (!strchr(arg, '=') || !*v)
		*status = usage_error("%s needs a value", name);
	else if (*slot)
		*status = usage_error("%s is given twice", name);
	else
		*slot = v;
	return 1;
}

static int take_flag(const char *arg, const char *name, bool *slot, int *status)
{
	if (strncmp(arg, name, strlen(name)) != 0)
		return 0;
	if (arg[strlen(name)] == '=')
		*status = usage_error("%s takes no value", name);
	else if (arg[strlen(name)] != '\0')
		return 0;
	*slot = true;
	return 1;
}

/* "--list" or "--describe", alone or "=text|json": given once, *json for json. */
static int take_text_or_json(const char *arg, const char *name, bool *given, bool *json,
			     int *status)
{
	const char *v = option_value(arg, name);

	if (!v)
		return 0;
	if (*given)
		*status = usage_error("%s is given twice", name);
	else if (strchr(arg, '=') && strcmp(v, "text") && strcmp(v, "json"))
		*status = usage_error("%s: '%s' is not text or json", name, v);
	*given = true;
	*json = strcmp(v, "json") == 0;
	return 1;
}

static bool parse_double(const char *s, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	return *s && !*end && !errno && isfinite(*out);
}

static bool parse_long(const char *s, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(s, &end, 10);
	return *s && !*end && !errno;
}

/* An output file must be creatable, and is not created until results exist. */
static bool writable_path(const char *path)
{
	char *copy = strdup(path);
	struct stat st;
	bool ok;

	if (!copy)
		return false;
	ok = *path && !(stat(path, &st) == 0 && S_ISDIR(st.st_mode)) &&
	     access(dirname(copy), W_OK) == 0;
	free(copy);
	return ok;
}

/*
 * Check the values of the Google Benchmark flags whose bad values GB would
 * otherwise report in its own words (and then we in ours), ignore, or
 * abort on: one line from us instead, before anything runs.
 */
static int check_gb_flag(const char *a)
{
	const char *v;
	double d;
	long n;

	if ((v = option_value(a, "--benchmark_min_time")) && (!parse_double(v, &d) || d <= 0))
		return usage_error("--benchmark_min_time: '%s' is not a positive number of seconds", v);
	if ((v = option_value(a, "--benchmark_min_warmup_time")) &&
	    (!parse_double(v, &d) || d < 0))
		return usage_error("--benchmark_min_warmup_time: '%s' is not a number of seconds", v);
	if ((v = option_value(a, "--benchmark_repetitions")) &&
	    (!parse_long(v, &n) || n < 1 || n > 100000))
		return usage_error("--benchmark_repetitions: '%s' is not a count from 1 to 100000", v);
	if (((v = option_value(a, "--benchmark_format")) ||
	     (v = option_value(a, "--benchmark_out_format"))) &&
	    strcmp(v, "console") && strcmp(v, "json") && strcmp(v, "csv"))
		return usage_error("%.*s: '%s' is not console, json or csv",
				   (int)(strchr(a, '=') ? strchr(a, '=') - a : (long)strlen(a)), a, v);
	if ((v = option_value(a, "--benchmark_time_unit")) &&
	    strcmp(v, "ns") && strcmp(v, "us") && strcmp(v, "ms") && strcmp(v, "s"))
		return usage_error("--benchmark_time_unit: '%s' is not ns, us, ms or s", v);
	if ((v = option_value(a, "--benchmark_out")) && !writable_path(v))
		return usage_error("--benchmark_out: cannot write '%s'", v);
	return 0;
}

int mmscale_cli_parse(int argc, char **argv, struct mmscale_cli *o)
{
	int status = 0;

	o->gb_argv = calloc((size_t)argc + 1, sizeof(*o->gb_argv));
	if (!o->gb_argv)
		return usage_error("%s", "out of memory");
	o->gb_argv[o->gb_argc++] = argv[0];
	for (int i = 1; i < argc && !status; i++) {
		const char *a = argv[i];

		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			o->help = true;
			continue;
		}
		{
			char perr[256];
			int taken = mmscale_params_parse(a, perr, sizeof(perr));

			if (taken < 0)
				return usage_error("%s", perr);
			if (taken)
				continue;
		}
		if (take_value(a, "--topology", &o->topology, &status) ||
		    take_value(a, "--placement", &o->placement, &status) ||
		    take_value(a, "--cpus", &o->cpus, &status) ||
		    take_value(a, "--threads", &o->threads, &status) ||
		    take_value(a, "--papi-events", &o->papi_events, &status) ||
		    take_text_or_json(a, "--list", &o->list, &o->list_json, &status) ||
		    take_text_or_json(a, "--describe", &o->describe, &o->describe_json,
				      &status) ||
		    take_flag(a, "--c2c-matrix", &o->c2c_matrix, &status) ||
		    take_flag(a, "--verify-placement", &o->verify_placement, &status))
			continue;
		if (strncmp(a, "--benchmark_", 12) == 0 || strncmp(a, "--v=", 4) == 0) {
			status = check_gb_flag(a);
			/* The results file and the formats are ours: see run_plan. */
			if (option_value(a, "--benchmark_out_format"))
				o->out_format = option_value(a, "--benchmark_out_format");
			else if (option_value(a, "--benchmark_out"))
				o->out = option_value(a, "--benchmark_out");
			else if (option_value(a, "--benchmark_format"))
				o->format = option_value(a, "--benchmark_format");
			else
				o->gb_argv[o->gb_argc++] = argv[i];
			continue;
		}
		if (a[0] == '-')
			return usage_error("unknown option '%s'", a);
		return usage_error("unexpected argument '%s'", a);
	}
	if (status)
		return status;
	if (o->list + o->describe + o->c2c_matrix + o->verify_placement > 1)
		return usage_error("%s", "--list, --describe, --c2c-matrix and --verify-placement "
				   "exclude each other");
	return 0;
}

void mmscale_cli_free(struct mmscale_cli *o)
{
	free(o->gb_argv);
	o->gb_argv = NULL;
}
