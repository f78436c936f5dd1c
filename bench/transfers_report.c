// SPDX-License-Identifier: GPL-2.0
/*
 * A counting run's report beyond its counts (mmscale/transfers_report.h):
 * the hottest lines with their names, the pairs, the distances. Names come
 * from this program's own symbols: `nm` once for the data symbols (static
 * ones too, which dladdr does not see) and `addr2line` for an instruction's
 * function and source line, read back from the source file; the per-CPU
 * areas are the machine's (bench/cpu.c). Only counting runs come here.
 */
#define _GNU_SOURCE
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mmscale/cpu.h"
#include "mmscale/transfers_report.h"

static int pair_distance_add(struct mmscale_xfer_report *r, uint64_t distance, uint64_t n)
{
	for (int i = 0; i < r->nr_distances; i++)
		if (r->by_distance[i].distance == distance) {
			r->by_distance[i].transfers += n;
			return 0;
		}
	if (r->nr_distances == MMSCALE_XFER_DISTANCES)
		return -1;
	r->by_distance[r->nr_distances].distance = distance;
	r->by_distance[r->nr_distances++].transfers = n;
	return 0;
}

void mmscale_xfer_report_take(struct mmscale_xfer_report *r, const struct mmscale_plan *p,
			      double ops)
{
	size_t all = mmscale_transfers_nr_pairs();
	struct mmscale_xfer_pair *pairs = all ? malloc(all * sizeof(*pairs)) : NULL;

	memset(r, 0, sizeof(*r));
	r->taken = true;
	r->ops = ops;
	r->nr_hot = mmscale_transfers_hottest(r->hot, MMSCALE_XFER_HOT);
	for (int i = 0; i < r->nr_hot; i++) {
		uintptr_t addr = r->hot[i].addr + r->hot[i].offset;
		size_t unit_offset;
		int cpu = mmscale_machine_percpu_owner(addr, &unit_offset);

		r->hot_alloc[i].known = cpu >= 0 ?
			mmscale_transfers_alloc_of(true, unit_offset, &r->hot_alloc[i].caller,
						   &r->hot_alloc[i].offset) :
			mmscale_transfers_alloc_of(false, addr, &r->hot_alloc[i].caller,
						   &r->hot_alloc[i].offset);
	}
	r->unattributed = mmscale_transfers_unattributed();
	if (!pairs)
		return;
	{
		size_t room = all;

		/* A partner may have moved a line since the count: more pairs than room. */
		all = mmscale_transfers_pairs(pairs, room);
		r->nr_pairs_all = all;
		if (all > room)
			all = room;
	}
	for (size_t i = 0; i < all; i++) {
		int a = p->cpu[pairs[i].requester].node, b = p->cpu[pairs[i].holder].node;

		if (a != b)
			pair_distance_add(r, mmscale_node_distance(p->topo, a, b), pairs[i].transfers);
	}
	r->nr_pairs = all < MMSCALE_XFER_PAIRS ? all : MMSCALE_XFER_PAIRS;
	memcpy(r->pairs, pairs, r->nr_pairs * sizeof(*pairs));
	free(pairs);
}

/* This program's data symbols, sorted by address, read once with nm. */
static struct data_symbol {
	uintptr_t start, size;
	char *name;
} *data_symbols;
static size_t nr_data_symbols;
static bool data_symbols_read;

static int symbol_cmp(const void *a, const void *b)
{
	const struct data_symbol *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* The program's first entry: its relocation bias (0 for a program not built as PIE). */
static int first_object(struct dl_phdr_info *info, size_t size, void *bias)
{
	*(uintptr_t *)bias = (uintptr_t)info->dlpi_addr;
	return 1;
}

/* What to take from a runtime address for nm's and addr2line's addresses. */
static uintptr_t load_base(void)
{
	uintptr_t bias = 0;

	dl_iterate_phdr(first_object, &bias);
	return bias;
}

static void read_data_symbols(void)
{
	FILE *nm;
	char line[1024], cmd[96];
	size_t cap = 0;
	uintptr_t base = load_base();

	data_symbols_read = true;
	/* The program's own file: /proc/self in the shell popen starts would be the shell's. */
	snprintf(cmd, sizeof(cmd), "nm -S --defined-only /proc/%d/exe 2>/dev/null", (int)getpid());
	nm = popen(cmd, "r");
	if (!nm)
		return;
	while (fgets(line, sizeof(line), nm)) {
		unsigned long long start, size;
		char type, name[512];

		if (sscanf(line, "%llx %llx %c %511s", &start, &size, &type, name) != 4 ||
		    !strchr("dDbBrR", type))
			continue;
		if (nr_data_symbols == cap) {
			struct data_symbol *more;

			cap = cap ? cap * 2 : 1024;
			more = realloc(data_symbols, cap * sizeof(*more));
			if (!more)
				break;
			data_symbols = more;
		}
		data_symbols[nr_data_symbols++] = (struct data_symbol){
			.start = base + (uintptr_t)start, .size = (uintptr_t)size,
			.name = strdup(name),
		};
	}
	pclose(nm);
	qsort(data_symbols, nr_data_symbols, sizeof(*data_symbols), symbol_cmp);
}

/* "fn (file:line)" of an allocation's caller, for the line's name. */
static void caller_name(uintptr_t caller, char *buf, size_t len)
{
	char code[8];

	/* name_code takes a return address, as a caller's is. */
	mmscale_xfer_name_code(caller, buf, len, code, sizeof(code));
}

void mmscale_xfer_name_data(uintptr_t addr, uintptr_t caller, size_t in, char *buf, size_t len)
{
	size_t lo = 0, hi, offset;
	char who[160];
	int cpu;

	if (!data_symbols_read)
		read_data_symbols();
	hi = nr_data_symbols;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (data_symbols[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo > 0 && addr - data_symbols[lo - 1].start < data_symbols[lo - 1].size) {
		snprintf(buf, len, "%s+0x%lx", data_symbols[lo - 1].name,
			 (unsigned long)(addr - data_symbols[lo - 1].start));
		return;
	}
	cpu = mmscale_machine_percpu_owner(addr, &offset);
	if (cpu >= 0 && caller) {
		caller_name(caller, who, sizeof(who));
		snprintf(buf, len, "CPU %d's per-CPU +0x%zx of what %s allocated", cpu, in, who);
	} else if (cpu >= 0) {
		snprintf(buf, len, "CPU %d's per-CPU area +0x%zx", cpu, offset);
	} else if (caller) {
		caller_name(caller, who, sizeof(who));
		snprintf(buf, len, "+0x%zx of what %s allocated", in, who);
	} else {
		snprintf(buf, len, "memory the emulated kernel did not allocate");
	}
}

/* An instruction's names, remembered: addr2line costs a process. */
static struct code_name {
	uintptr_t pc;
	char where[160], code[96];
} code_names[64];
static int nr_code_names;

/* The source file's path from the source tree's top, as the tree names it. */
static const char *tree_path(const char *path)
{
	static const char *const tops[] = { "/kernel/", "/drain/", "/counters/", "/cases/",
					    "/bench/", "/include/" };
	const char *best = NULL;

	for (size_t i = 0; i < sizeof(tops) / sizeof(tops[0]); i++) {
		const char *at = strstr(path, tops[i]);

		if (at && (!best || at < best))
			best = at;
	}
	return best ? best + 1 : path;
}

static void source_line(const char *file, long line, char *code, size_t clen)
{
	FILE *f = fopen(file, "r");
	char text[512];
	long n = 0;

	code[0] = '\0';
	if (!f)
		return;
	while (fgets(text, sizeof(text), f))
		if (++n == line) {
			char *s = text, *e;

			while (*s == ' ' || *s == '\t')
				s++;
			e = s + strlen(s);
			while (e > s && (e[-1] == '\n' || e[-1] == ' ' || e[-1] == '\t'))
				*--e = '\0';
			snprintf(code, clen, "%s", s);
			break;
		}
	fclose(f);
}

/* The kernel layer's primitives (atomics, locks, bitops): a frame to look past. */
static bool primitive(const char *loc)
{
	return strncmp(tree_path(loc), "include/mmscale/kernel/", 23) == 0;
}

/*
 * "function (file:line)" and that line's code: the first frame, from the
 * instruction outwards through what was inlined into it, that is not a
 * primitive of the kernel layer (an atomic_long_read says less than the
 * global_page_state it is in), with " via <primitive>" where it looked past one.
 */
void mmscale_xfer_name_code(uintptr_t pc, char *where, size_t wlen, char *code, size_t clen)
{
	char cmd[256], fn[8][256], loc[8][512];
	int frames = 0, at = 0;
	struct code_name *c;
	FILE *a2l;

	for (int i = 0; i < nr_code_names; i++)
		if (code_names[i].pc == pc) {
			snprintf(where, wlen, "%s", code_names[i].where);
			snprintf(code, clen, "%s", code_names[i].code);
			return;
		}
	/* pc is a return address: the hook's call is the instruction before it. */
	snprintf(cmd, sizeof(cmd), "addr2line -f -i -e /proc/%d/exe 0x%lx 2>/dev/null",
		 (int)getpid(), (unsigned long)(pc - 1 - load_base()));
	a2l = popen(cmd, "r");
	code[0] = '\0';
	while (a2l && frames < 8 && fgets(fn[frames], sizeof(fn[0]), a2l) &&
	       fgets(loc[frames], sizeof(loc[0]), a2l)) {
		fn[frames][strcspn(fn[frames], "\n")] = '\0';
		loc[frames][strcspn(loc[frames], "\n")] = '\0';
		frames++;
	}
	if (a2l)
		pclose(a2l);
	while (at < frames - 1 && primitive(loc[at]))
		at++;
	if (!frames) {
		snprintf(where, wlen, "?");
	} else {
		char *colon = strrchr(loc[at], ':');
		long line = colon ? strtol(colon + 1, NULL, 10) : 0;

		if (colon)
			*colon = '\0';
		source_line(loc[at], line, code, clen);
		snprintf(where, wlen, "%s (%s:%ld)%s%s", fn[at], tree_path(loc[at]), line,
			 at ? " via " : "", at ? fn[0] : "");
	}
	c = &code_names[nr_code_names < 64 ? nr_code_names++ : (int)(pc % 64)];
	c->pc = pc;
	snprintf(c->where, sizeof(c->where), "%s", where);
	snprintf(c->code, sizeof(c->code), "%s", code);
}

static const char *access_kind(const struct mmscale_hot_line *h)
{
	static const char *const kinds[] = {
		[MMSCALE_XFER_BY_READ] = "read",
		[MMSCALE_XFER_BY_WRITE] = "write",
		[MMSCALE_XFER_BY_LOCKED] = "locked",
	};

	return kinds[h->most];
}

void mmscale_xfer_report_json(struct mmscale_json *j, const struct mmscale_xfer_report *r)
{
	char buf[400], where[160], code[96];

	mmscale_json_object(j, "transfers");
	mmscale_json_int(j, "line_bytes", mmscale_transfers_line());
	mmscale_json_double(j, "operations", r->ops);
	mmscale_json_array(j, "hottest_lines");
	for (int i = 0; i < r->nr_hot; i++) {
		const struct mmscale_hot_line *h = &r->hot[i];

		mmscale_json_object(j, NULL);
		snprintf(buf, sizeof(buf), "0x%lx", (unsigned long)h->addr);
		mmscale_json_str(j, "line", buf);
		mmscale_xfer_name_data(h->addr + h->offset,
				       r->hot_alloc[i].known ? r->hot_alloc[i].caller : 0,
				       r->hot_alloc[i].offset, buf, sizeof(buf));
		mmscale_json_str(j, "data", buf);
		mmscale_json_double(j, "transfers_per_op", r->ops > 0 ? h->transfers / r->ops : 0);
		mmscale_json_uint(j, "transfers", h->transfers);
		mmscale_json_uint(j, "reads", h->reads);
		mmscale_json_uint(j, "writes", h->writes);
		mmscale_json_uint(j, "locked", h->locked);
		mmscale_json_uint(j, "upgrades", h->upgrades);
		mmscale_xfer_name_code(h->pc, where, sizeof(where), code, sizeof(code));
		mmscale_json_str(j, "latest_by", where);
		mmscale_json_str(j, "code", code);
		mmscale_json_int(j, "offset", h->offset);
		mmscale_json_int(j, "access_bytes", h->access_bytes);
		mmscale_json_end(j);
	}
	mmscale_json_end(j);
	/* [requester, previous holder, transfers], the most first. */
	mmscale_json_array(j, "pairs");
	for (size_t i = 0; i < r->nr_pairs; i++) {
		mmscale_json_array(j, NULL);
		mmscale_json_int(j, NULL, r->pairs[i].requester);
		mmscale_json_int(j, NULL, r->pairs[i].holder);
		mmscale_json_uint(j, NULL, r->pairs[i].transfers);
		mmscale_json_end(j);
	}
	mmscale_json_end(j);
	mmscale_json_uint(j, "pairs_in_all", r->nr_pairs_all);
	mmscale_json_object(j, "other_node_by_distance");
	for (int i = 0; i < r->nr_distances; i++) {
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)r->by_distance[i].distance);
		mmscale_json_uint(j, buf, r->by_distance[i].transfers);
	}
	mmscale_json_end(j);
	mmscale_json_uint(j, "unattributed_accesses", r->unattributed);
	mmscale_json_end(j);
}

void mmscale_xfer_report_print(FILE *out, const char *title, const struct mmscale_xfer_report *r)
{
	char data[400], where[160], code[96];

	if (!r->nr_hot) {
		fprintf(out, "  %s: no line moved\n", title);
		return;
	}
	fprintf(out, "  %s: hottest lines (transfers per operation, by which access, of what, "
		"latest at):\n", title);
	for (int i = 0; i < r->nr_hot; i++) {
		const struct mmscale_hot_line *h = &r->hot[i];

		mmscale_xfer_name_data(h->addr + h->offset,
				       r->hot_alloc[i].known ? r->hot_alloc[i].caller : 0,
				       r->hot_alloc[i].offset, data, sizeof(data));
		mmscale_xfer_name_code(h->pc, where, sizeof(where), code, sizeof(code));
		fprintf(out, "    %10.4g  %-6s  line 0x%lx: %s, bytes %lu-%lu\n%24s%s%s%s%s\n",
			r->ops > 0 ? h->transfers / r->ops : 0, access_kind(h),
			(unsigned long)h->addr, data, (unsigned long)h->offset,
			(unsigned long)(h->offset + (h->access_bytes ? h->access_bytes - 1 : 0)),
			"", where, code[0] ? ": `" : "", code, code[0] ? "`" : "");
	}
	if (r->unattributed)
		fprintf(out, "    (%llu accesses could not be attributed: a hook was interrupted)\n",
			(unsigned long long)r->unattributed);
}
