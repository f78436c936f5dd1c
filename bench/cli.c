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
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "mmscale/doorbell.h"
#include "mmscale/kernel/smp.h"
#include "mmscale/notice.h"
#include "mmscale/papi.h"
#include "mmscale/params.h"

/*
 * mmscale --help: every flag, in one place (docs/command-line.md is this
 * text, generated from the binary and checked by a test). The emulation
 * flags are parsed in bench/params.c, the rest below. The doorbells and the
 * kernel/smp.c generations are listed from their tables
 * (mmscale_print_help), so that a new row is in --help.
 */
const char mmscale_help[] =
"usage: mmscale [Google Benchmark flags] [--topology=SPEC] [--placement=compact|scatter]\n"
"               [--cpus=LIST] [--nodes=LIST] [--widen-affinity] [--sample=S]\n"
"               [--oversubscribe=K] [--threads=LIST] [--papi-events=LIST] [emulation flags]\n"
"               [--transfers [--transfer-line=64|128] [--project=FILE]]\n"
"               [--list[=json] | --describe[=json|xml] | --c2c-matrix[=json] | --verify-placement]\n"
"               [--help]\n"
"\n"
"Emulated Linux memory-management hot paths on pinned threads, one emulated CPU\n"
"per thread, with exact operation counts, PAPI counters where the machine has them,\n"
"and Google Benchmark's statistics plus the seeds' trimmed mean and stddev.\n"
"\n"
"  --topology=SPEC      the machine to plan for: real (default: this machine, from hwloc),\n"
"                       synthetic:STRING (any hwloc synthetic topology, e.g.\n"
"                       'synthetic:node:128 core:8 pu:1') or xml:FILE (an hwloc XML export).\n"
"                       Stand-ins plan placement as on that machine and run on this one's\n"
"                       PUs round-robin: their results are marked not for timing.\n"
"  --placement=P        compact: fill node by node (default); scatter: round-robin nodes\n"
"  --cpus=LIST          use only these PUs (OS numbers, cpulist syntax: 0-3,8-11)\n"
"  --nodes=LIST         use only the PUs of these NUMA nodes (OS numbers, the node numbers\n"
"                       numactl takes, or 'all'); with --cpus, the PUs in both.\n"
"                       By default a run uses only the CPUs it was started on (taskset,\n"
"                       numactl, a cgroup cpuset) and the memory nodes it may allocate on\n"
"                       (cgroup mems, numactl --membind): naming other CPUs is an error\n"
"  --widen-affinity     use every CPU and memory node of the cgroup cpuset, also those the\n"
"                       affinity and memory policy mmscale was started with leave out\n"
"  --sample=S           core, llc or node: one emulated CPU per core, last-level cache or\n"
"                       node of the selected PUs (the first of each), to sample a very\n"
"                       large machine instead of using every PU; none (default)\n"
"  --oversubscribe=K    K emulated CPUs on each PU of the plan (1 to 16, default 1), for\n"
"                       when oversubscription is the question: threads beyond the PUs\n"
"                       share them (the placement order again, K times over) and their\n"
"                       results say so; --threads=auto then also runs K x all\n"
"  --threads=LIST       thread counts for sweep cases (1,2,4 or 1-8, or auto: the\n"
"                       topology's boundaries - 1, one core's PUs, one last-level cache,\n"
"                       one node, 2, 3, 4 nodes and doubling node counts, 3/4 and all of\n"
"                       the plan; default 1,2,4,... and all CPUs of the plan), less the\n"
"                       CPUs a case's partner threads use; two-CPU floor cases run CPU 0\n"
"                       measured, CPU 1 as partner\n"
"  --papi-events=LIST   PAPI events counted in the timed region (default\n"
"                       " MMSCALE_PAPI_DEFAULT_EVENTS ";\n"
"                       'none' for none). Events this machine lacks are dropped with a note;\n"
"                       a name PAPI does not know is an error (where PAPI's perf_event\n"
"                       component is disabled, CPU event names cannot be checked: dropped).\n"
"  --transfers          count cache-line transfers instead of timing: runs the counting\n"
"                       build (mmscale-transfers, beside mmscale; scripts/setup builds it),\n"
"                       whose emulated kernel and cases are compiled with GCC's thread-\n"
"                       sanitizer hooks, and adds per operation: transfers (a line moved to\n"
"                       the requesting CPU, by mtrace's rule), transfers_read, _write,\n"
"                       _locked, upgrades (a write that only invalidated other copies), and\n"
"                       transfers_core, _cache, _node, _remote (where the previous holder\n"
"                       sat); the JSON's mmscale_runs get each run's hottest lines and its\n"
"                       (requester, holder) pairs, and stderr the hottest lines. Its times\n"
"                       are marked not for timing\n"
"  --transfer-line=B    the line --transfers counts: 64 (default) or 128 bytes\n"
"  --project=FILE       with --transfers: price each row's counts on the machine FILE\n"
"                       describes (machines/NAME.machine; mmscale --c2c-matrix --save-machine\n"
"                       writes one) by the model mmscale-proj 2 (docs/projection.md), added\n"
"                       as counters named projected_transfers_ns, projected_ipis_ns,\n"
"                       projected_targets_queueing_ns (an IPI's targets on the locks they\n"
"                       all take, by the row's counted lock kind) and projected_ns_excl_local:\n"
"                       one thread's ns per op there, projected, never measured. FILE is a\n"
"                       path. Left out: the local work (a timed run here) and the queueing\n"
"                       of a row's own threads on its locks, which scripts/project prices\n"
"                       (its --local and --here)\n"
"  --mem=SIZE           emulated memory, split evenly over the nodes (default 3G, the seeds'\n"
"                       box; K, M, G, T suffixes); sizes zones, stat thresholds, dirty limits\n"
"  --swap=yes|no        whether the emulated machine has swap (default yes, as the seeds'\n"
"                       servers had): 3.1's and 3.2's dirty limits then read the anon LRUs\n"
"                       too (8 global_page_state calls per unthrottled call, not 6)\n"
"  --counter-layout=L   packed: the kernel's contiguous vm_stat[] (default); padded: each\n"
"                       global counter on its own cache line, for comparison\n"
"  --congestion-wait-us=N  what congestion_wait(HZ/10) sleeps (default 100; kernel 100000)\n"
"  --vmstat-interval-ms=N  period of the per-CPU vmstat fold (default 1000, the kernel's\n"
"                       sysctl_stat_interval = HZ); the dirty/ cases scale it as their\n"
"                       congestion wait (x congestion-wait-us / 100000: 1 ms by default)\n"
"  --device-pages-per-ms=N emulated writeback bandwidth of the flusher (default 25 = 100 MiB/s)\n"
"  --ipi=M              the emulated IPI's doorbell; default: spin when every emulated CPU\n"
"                       has its own PU, futex when oversubscribed. A doorbell this machine\n"
"                       lacks rings as spin, said once. M is one of:\n"
"@DOORBELLS\n"
"  --ipi-timeout-ms=N   a cross-CPU call not answered within N ms fails, naming the CPU\n"
"                       (default 10000; 100000 in the counting build of --transfers)\n"
"  --smp-model=M        the kernel/smp.c generation of the emulated cross-CPU calls: auto\n"
"                       (default: each drain variant's own kernel's; the ipi/ cases and\n"
"                       c2c run percpu), or one of:\n"
"@GENERATIONS\n"
"  --set NAME=VALUE     (or --set=NAME=VALUE) a number the kernel computes or defaults, by\n"
"                       its kernel name:\n"
"                       auto (the default: what that generation computes on the run's\n"
"                       machine; --describe shows it) or a number in its range; repeat\n"
"                       for several. Each result's context records it. NAME is one of:\n"
"@KNOBS\n"
"  --throttle-seconds=N virtual seconds each throttle/ run simulates (default 60; 1 to 3600)\n"
"  --throttle-cpus=N    CPUs of the throttle/ world instead of the scenarios' 16 (1 to 4096):\n"
"                       ratelimit_pages and bdi_stat_error scale with them, and so do\n"
"                       bdi_stat_sum's walks\n"
"  --throttle-percpu-error=yes|no  throttle/: the world's reads carry the error of the\n"
"                       kernel's per-CPU counters (vm items folded at 3.2's stat_threshold\n"
"                       and each second, bdi items at BDI_STAT_BATCH; 6.18's wb items at\n"
"                       WB_STAT_BATCH, the same; --set changes both), as the machine\n"
"                       would have; default no: exact counts\n"
"  --throttle-trace=DIR throttle/: write each run's trace (every 200 ms of virtual time:\n"
"                       dirty pages, limits, setpoints, disk 0's ratelimits and pauses) to\n"
"                       DIR/<scenario>_<variant>.csv and, for 3.2 and the v11 variants,\n"
"                       their two control lines to <...>.lines.csv (the scenario's '/' as\n"
"                       '_'), for scripts/plot;\n"
"                       DIR, or its parent, must be a writable directory\n"
"  --claims=check|report  check (default): a run whose exact counts differ from its\n"
"                       variant row's claim fails; report: the run is kept, its label\n"
"                       and one note say how it differs (scripts/ab uses it, so that a\n"
"                       patch that changes a count shows the change)\n"
"  --list[=json]        print every case with its variants and exit; json: also each\n"
"                       case's baseline, the metrics its tables show (which are exact\n"
"                       counts) and its operation counts, for scripts\n"
"  --describe[=json|xml] print the topology and the placement plan and exit (runs\n"
"                       nothing); =json: the same as one JSON object, for scripts; =xml:\n"
"                       the topology as hwloc exports it (lstopo's XML, from the hwloc\n"
"                       mmscale uses; the real machine's includes its disallowed PUs)\n"
"  --c2c-matrix[=json]  print the node-by-node cache-line round trip matrix and exit (real\n"
"                       topology only): one row per reader node, one column per writer node\n"
"                       (MLC's idle-latency layout), '*' where the pair are SMT siblings;\n"
"                       on one node, one line that says so. json: for scripts/plot --c2c\n"
"  --save-machine=FILE  with --c2c-matrix: also write this machine's description for\n"
"                       scripts/project (a transfer's and a locked operation's ns per\n"
"                       class, from one pair each: SMT sibling, same LLC, same node, each\n"
"                       other node; an IPI's send and receive ns, timed with membarrier to\n"
"                       1 to 8 busy CPUs on PUs of their own off CPU 0's core, where the\n"
"                       plan has 2 or more)\n"
"  --verify-placement   check with move_pages where every emulated CPU's per-CPU data and\n"
"                       the global data really are, against the plan (real topology only)\n"
"  --help               this text\n"
"\n"
"Google Benchmark flags: --benchmark_filter=REGEX, --benchmark_min_time=S,\n"
"--benchmark_repetitions=N, --benchmark_format=console|json|csv, --benchmark_out=FILE,\n"
"--benchmark_out_format=..., --benchmark_report_aggregates_only=true, and the rest of\n"
"Google Benchmark's --benchmark_* flags.\n"
"\n"
"Exit status: 0 success; 2 bad input (one line on stderr, nothing run or written);\n"
"1 a failed case or check (each named on stderr and in the results, whose other\n"
"cases are valid), or another failure.\n";

/* One row of a table in --help: its name, then its text, wrapped under itself. */
static void help_row(FILE *out, const char *name, const char *text)
{
	const int indent = 25, width = 94, name_width = 14;
	int col = fprintf(out, "%*s%-*s", indent, "", name_width - 1, name);

	while (*text) {
		size_t word = strcspn(text, " ");

		if (col + 1 + (int)word > width) {
			col = fprintf(out, "\n%*s", indent + name_width, "") - 1;
		} else {
			fputc(' ', out);
			col++;
		}
		col += fprintf(out, "%.*s", (int)word, text);
		text += word;
		text += strspn(text, " ");
	}
	fputc('\n', out);
}

void mmscale_print_help(FILE *out)
{
	const char *p = mmscale_help;

	while (*p) {
		size_t len = strcspn(p, "\n");

		if (len == 10 && strncmp(p, "@DOORBELLS", len) == 0) {
			for (size_t i = 0; i < mmscale_nr_doorbells; i++)
				help_row(out, mmscale_doorbells[i].name, mmscale_doorbells[i].summary);
		} else if (len == 6 && strncmp(p, "@KNOBS", len) == 0) {
			for (int i = 0; i < MM_NR_KNOBS; i++) {
				const struct mm_knob_range *k = &mm_knob_ranges[i];
				char text[1024];

				snprintf(text, sizeof(text), "(%s; auto or %lld to %lld) %s",
					 mmscale_knob_help[i].generations, k->lo, k->hi,
					 mmscale_knob_help[i].summary);
				fprintf(out, "%*s%s\n", 25, "", k->name);
				help_row(out, "", text);
			}
		} else if (len == 12 && strncmp(p, "@GENERATIONS", len) == 0) {
			for (size_t i = 0; i < smp_nr_generations; i++)
				help_row(out, smp_generations[i]->name, smp_generations[i]->summary);
		} else {
			fprintf(out, "%.*s\n", (int)len, p);
		}
		p += len + (p[len] == '\n');
	}
}

int mmscale_usage_error(const char *fmt, ...)
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
const char *mmscale_option_value(const char *arg, const char *name)
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
	const char *v = mmscale_option_value(arg, name);

	if (!v)
		return 0;
	if (!strchr(arg, '=') || !*v)
		*status = mmscale_usage_error("%s needs a value", name);
	else if (*slot)
		*status = mmscale_usage_error("%s is given twice", name);
	else
		*slot = v;
	return 1;
}

static int take_flag(const char *arg, const char *name, bool *slot, int *status)
{
	if (strncmp(arg, name, strlen(name)) != 0)
		return 0;
	if (arg[strlen(name)] == '=')
		*status = mmscale_usage_error("%s takes no value", name);
	else if (arg[strlen(name)] != '\0')
		return 0;
	*slot = true;
	return 1;
}

/* "--list" or "--c2c-matrix", alone or "=text|json": given once, *json for json. */
static int take_text_or_json(const char *arg, const char *name, bool *given, bool *json,
			     int *status)
{
	const char *v = mmscale_option_value(arg, name);

	if (!v)
		return 0;
	if (*given)
		*status = mmscale_usage_error("%s is given twice", name);
	else if (strchr(arg, '=') && strcmp(v, "text") && strcmp(v, "json"))
		*status = mmscale_usage_error("%s: '%s' is not text or json", name, v);
	*given = true;
	*json = strcmp(v, "json") == 0;
	return 1;
}

/* "--describe", alone or "=text|json|xml": given once. */
static int take_describe(const char *arg, struct mmscale_cli *o, int *status)
{
	const char *v = mmscale_option_value(arg, "--describe");

	if (!v)
		return 0;
	if (o->describe)
		*status = mmscale_usage_error("%s", "--describe is given twice");
	else if (strchr(arg, '=') && strcmp(v, "text") && strcmp(v, "json") && strcmp(v, "xml"))
		*status = mmscale_usage_error("--describe: '%s' is not text, json or xml", v);
	o->describe = true;
	o->describe_json = strcmp(v, "json") == 0;
	o->describe_xml = strcmp(v, "xml") == 0;
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

	if ((v = mmscale_option_value(a, "--benchmark_min_time")) && (!parse_double(v, &d) || d <= 0))
		return mmscale_usage_error("--benchmark_min_time: '%s' is not a positive number of seconds", v);
	if ((v = mmscale_option_value(a, "--benchmark_min_warmup_time")) &&
	    (!parse_double(v, &d) || d < 0))
		return mmscale_usage_error("--benchmark_min_warmup_time: '%s' is not a number of seconds", v);
	if ((v = mmscale_option_value(a, "--benchmark_repetitions")) &&
	    (!parse_long(v, &n) || n < 1 || n > 100000))
		return mmscale_usage_error("--benchmark_repetitions: '%s' is not a count from 1 to 100000", v);
	if (((v = mmscale_option_value(a, "--benchmark_format")) ||
	     (v = mmscale_option_value(a, "--benchmark_out_format"))) &&
	    strcmp(v, "console") && strcmp(v, "json") && strcmp(v, "csv"))
		return mmscale_usage_error("%.*s: '%s' is not console, json or csv",
				   (int)(strchr(a, '=') ? strchr(a, '=') - a : (long)strlen(a)), a, v);
	if ((v = mmscale_option_value(a, "--benchmark_time_unit")) &&
	    strcmp(v, "ns") && strcmp(v, "us") && strcmp(v, "ms") && strcmp(v, "s"))
		return mmscale_usage_error("--benchmark_time_unit: '%s' is not ns, us, ms or s", v);
	if ((v = mmscale_option_value(a, "--benchmark_out")) && !writable_path(v))
		return mmscale_usage_error("--benchmark_out: cannot write '%s'", v);
	return 0;
}

/*
 * The command line as a shell would take it back: every result carries it
 * (mmscale_command), so a table can say how to reproduce it and
 * scripts/sweep can tell a unit run with other flags. argv[0] is written
 * as "mmscale": where the binary lives is not a parameter.
 */
static char *quoted_command(int argc, char **argv)
{
	size_t len = sizeof("mmscale");
	char *s, *p;

	for (int i = 1; i < argc; i++)
		len += 4 * strlen(argv[i]) + 3;
	s = malloc(len);
	if (!s)
		return NULL;
	p = s + sprintf(s, "mmscale");
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool plain = *a && strspn(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					 "0123456789_-=,./:+@%") == strlen(a);

		*p++ = ' ';
		if (plain) {
			p += sprintf(p, "%s", a);
			continue;
		}
		*p++ = '\'';
		for (; *a; a++) {
			if (*a == '\'')
				p += sprintf(p, "'\\''");
			else
				*p++ = *a;
		}
		*p++ = '\'';
	}
	*p = '\0';
	return s;
}

int mmscale_cli_parse(int argc, char **argv, struct mmscale_cli *o)
{
	int status = 0;

	o->command = quoted_command(argc, argv);
	if (!o->command)
		return mmscale_usage_error("%s", "out of memory");

	o->gb_argv = calloc((size_t)argc + 1, sizeof(*o->gb_argv));
	if (!o->gb_argv)
		return mmscale_usage_error("%s", "out of memory");
	o->gb_argv[o->gb_argc++] = argv[0];
	for (int i = 1; i < argc && !status; i++) {
		const char *a = argv[i];
		char joined[256];

		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			o->help = true;
			continue;
		}
		if (strcmp(a, "--set") == 0) {
			/* "--set NAME=VALUE", as sweep and compare write it: "--set=NAME=VALUE". */
			if (i + 1 == argc)
				return mmscale_usage_error("%s", "--set: give NAME=VALUE");
			if (snprintf(joined, sizeof(joined), "--set=%s", argv[++i]) >=
			    (int)sizeof(joined))
				return mmscale_usage_error("--set: '%.40s...' is too long", argv[i]);
			a = joined;
		}
		if (mmscale_option_value(a, "--ipi-timeout-ms"))
			o->ipi_timeout_given = true;
		{
			char perr[1024];
			int taken = mmscale_params_parse(a, perr, sizeof(perr));

			if (taken < 0)
				return mmscale_usage_error("%s", perr);
			if (taken)
				continue;
		}
		if (take_value(a, "--topology", &o->topology, &status) ||
		    take_value(a, "--placement", &o->placement, &status) ||
		    take_value(a, "--cpus", &o->cpus, &status) ||
		    take_value(a, "--nodes", &o->nodes, &status) ||
		    take_value(a, "--sample", &o->sample, &status) ||
		    take_value(a, "--oversubscribe", &o->oversubscribe, &status) ||
		    take_flag(a, "--widen-affinity", &o->widen_affinity, &status) ||
		    take_value(a, "--threads", &o->threads, &status) ||
		    take_value(a, "--papi-events", &o->papi_events, &status) ||
		    take_flag(a, "--transfers", &o->transfers, &status) ||
		    take_value(a, "--transfer-line", &o->transfer_line, &status) ||
		    take_value(a, "--project", &o->project, &status) ||
		    take_text_or_json(a, "--list", &o->list, &o->list_json, &status) ||
		    take_describe(a, o, &status) ||
		    take_text_or_json(a, "--c2c-matrix", &o->c2c_matrix, &o->c2c_matrix_json,
				      &status) ||
		    take_value(a, "--save-machine", &o->save_machine, &status) ||
		    take_flag(a, "--verify-placement", &o->verify_placement, &status))
			continue;
		if (strncmp(a, "--benchmark_", 12) == 0 || strncmp(a, "--v=", 4) == 0) {
			status = check_gb_flag(a);
			/* The results file and the formats are ours: see run_plan. */
			if (mmscale_option_value(a, "--benchmark_out_format"))
				o->out_format = mmscale_option_value(a, "--benchmark_out_format");
			else if (mmscale_option_value(a, "--benchmark_out"))
				o->out = mmscale_option_value(a, "--benchmark_out");
			else if (mmscale_option_value(a, "--benchmark_format"))
				o->format = mmscale_option_value(a, "--benchmark_format");
			else
				o->gb_argv[o->gb_argc++] = argv[i];
			continue;
		}
		if (a[0] == '-')
			return mmscale_usage_error("unknown option '%s'", a);
		return mmscale_usage_error("unexpected argument '%s'", a);
	}
	if (status)
		return status;
	if (o->transfer_line && !o->transfers)
		return mmscale_usage_error("%s", "--transfer-line sizes the lines --transfers counts: "
					   "give --transfers too");
	if (o->project && !o->transfers)
		return mmscale_usage_error("%s", "--project prices a counting run's counts: "
					   "give --transfers too");
	if (o->transfers && (o->c2c_matrix || o->verify_placement))
		return mmscale_usage_error("%s", "--transfers counts the emulation's accesses; "
					   "--c2c-matrix and --verify-placement measure this machine");
	if (o->save_machine && !o->c2c_matrix)
		return mmscale_usage_error("%s", "--save-machine writes what --c2c-matrix measures: "
					   "give --c2c-matrix too");
	if (o->list + o->describe + o->c2c_matrix + o->verify_placement > 1)
		return mmscale_usage_error("%s", "--list, --describe, --c2c-matrix and --verify-placement "
				   "exclude each other");
	return 0;
}

void mmscale_cli_free(struct mmscale_cli *o)
{
	free(o->gb_argv);
	free(o->command);
	o->gb_argv = NULL;
	o->command = NULL;
}
