// SPDX-License-Identifier: GPL-2.0
/*
 * Cache-line transfers by mtrace's rule: the counting build's hooks and
 * their shadow of every line (include/mmscale/kernel/transfers.h says what
 * is counted and why). Built into both programs; everything but the
 * answer "not counting" only with MMSCALE_TRANSFERS (build/mmscale-transfers),
 * and never instrumented itself.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "mmscale/kernel/processor.h"
#include "mmscale/kernel/transfers.h"
#include "mmscale/opcount.h"

#ifndef MMSCALE_TRANSFERS

bool mmscale_transfers_counting(void) { return false; }
int mmscale_transfers_set_line(int bytes, char *err, size_t errlen)
{
	return mmscale_errorf(err, errlen, "transfers are counted by build/mmscale-transfers only");
}
int mmscale_transfers_line(void) { return 0; }
int mmscale_transfers_boot(const struct mmscale_xfer_topology *t, char *err, size_t errlen)
{
	return 0;
}
void mmscale_transfers_halt(void) {}
enum mmscale_xfer_class mmscale_transfers_class(int requester, int holder)
{
	return MMSCALE_XFER_OTHER_NODE;
}
void mmscale_transfers_window_begin(void) {}
void mmscale_transfers_pause(bool paused) {}
int mmscale_transfers_hottest(struct mmscale_hot_line *out, int max) { return 0; }
size_t mmscale_transfers_pairs(struct mmscale_xfer_pair *out, size_t max) { return 0; }
size_t mmscale_transfers_nr_pairs(void) { return 0; }
uint64_t mmscale_transfers_unattributed(void) { return 0; }
void mmscale_transfers_note_alloc(bool percpu, uintptr_t start, size_t size, uintptr_t caller) {}
void mmscale_transfers_note_free(bool percpu, uintptr_t start) {}
bool mmscale_transfers_alloc_of(bool percpu, uintptr_t key, uintptr_t *caller, size_t *offset)
{
	return false;
}

#else /* MMSCALE_TRANSFERS: the counting build */

/*
 * The shadow: lines hashed over stripes, each an open-addressing table
 * under its own mutex (a mutex, not a spin lock: counting runs are often
 * oversubscribed stand-ins, where a preempted holder must not be spun on).
 */
#define NR_STRIPES	4096
#define STRIPE_MIN	64

struct line_state {
	uintptr_t tag;			/* the line's number + 1; 0: a free slot */
	int32_t last_writer;		/* the CPU with the dirty copy; -1: memory */
	int32_t last_accessor;
	int32_t holder[2];		/* the holders, while there are at most two */
	uint32_t nr_holders;
	uint64_t *holders;		/* a bit per CPU, once a third came (in_bitmap) */
	bool in_bitmap;
	uint32_t gen;			/* the window the tallies below belong to */
	uint64_t transfers, reads, writes, locked, upgrades;
	/* The latest transfer's instruction, its size and offset in the line, by access. */
	uintptr_t pc[3];
	uint8_t access_bytes[3], offset[3];
};

struct stripe {
	pthread_mutex_t lock;
	struct line_state *slots;
	size_t mask;			/* slots - 1; 0: none allocated */
	size_t used;
} __attribute__((aligned(64)));

/* Each requester's pairs: previous holder -> transfers, this window's. */
struct pair_row {
	pthread_mutex_t lock;
	uint32_t gen;
	uint32_t used, cap;
	struct { int32_t holder; uint64_t transfers; } *slot;	/* holder -1: free */
};

static struct stripe stripes[NR_STRIPES];
static struct pair_row *pair_rows;
static int line_shift = 6;
static int nr_cpus;			/* booted: > 0 */
static size_t bitmap_words;
static int *cpu_core, *cpu_llc, *cpu_node;
static _Atomic uint32_t window_gen = 1;
static _Atomic bool tally_paused;
static _Atomic uint64_t unattributed;
static _Thread_local bool in_hook;

/* The allocations, sorted by (percpu, start), under their own lock. */
static struct alloc_note {
	bool percpu;
	uintptr_t start, size, caller;
} *allocs;
static size_t nr_allocs, cap_allocs;
static pthread_mutex_t allocs_lock = PTHREAD_MUTEX_INITIALIZER;

bool mmscale_transfers_counting(void) { return true; }

int mmscale_transfers_set_line(int bytes, char *err, size_t errlen)
{
	if (bytes != 64 && bytes != 128)
		return mmscale_errorf(err, errlen, "--transfer-line: %d bytes (want 64 or 128)", bytes);
	if (nr_cpus)
		return mmscale_errorf(err, errlen, "--transfer-line: the machine is booted already");
	line_shift = bytes == 64 ? 6 : 7;
	return 0;
}

int mmscale_transfers_line(void) { return 1 << line_shift; }

static void free_shadow(void)
{
	for (int s = 0; s < NR_STRIPES; s++) {
		struct stripe *st = &stripes[s];

		for (size_t i = 0; st->mask && i <= st->mask; i++)
			free(st->slots[i].holders);
		free(st->slots);
		st->slots = NULL;
		st->mask = st->used = 0;
	}
	for (int cpu = 0; pair_rows && cpu < nr_cpus; cpu++)
		free(pair_rows[cpu].slot);
	free(pair_rows);
	free(cpu_core);
	free(cpu_llc);
	free(cpu_node);
	pair_rows = NULL;
	cpu_core = cpu_llc = cpu_node = NULL;
}

int mmscale_transfers_boot(const struct mmscale_xfer_topology *t, char *err, size_t errlen)
{
	size_t n = (size_t)t->nr_cpus;

	mmscale_transfers_halt();
	for (int s = 0; s < NR_STRIPES; s++)
		pthread_mutex_init(&stripes[s].lock, NULL);
	cpu_core = malloc(n * sizeof(int));
	cpu_llc = malloc(n * sizeof(int));
	cpu_node = malloc(n * sizeof(int));
	pair_rows = calloc(n, sizeof(*pair_rows));
	if (!cpu_core || !cpu_llc || !cpu_node || !pair_rows) {
		free_shadow();
		return mmscale_errorf(err, errlen, "out of memory for the transfer counts");
	}
	memcpy(cpu_core, t->core, n * sizeof(int));
	memcpy(cpu_llc, t->llc, n * sizeof(int));
	memcpy(cpu_node, t->node, n * sizeof(int));
	for (size_t cpu = 0; cpu < n; cpu++)
		pthread_mutex_init(&pair_rows[cpu].lock, NULL);
	bitmap_words = (n + 63) / 64;
	atomic_store(&window_gen, 1);
	atomic_store(&unattributed, 0);
	nr_cpus = t->nr_cpus;
	return 0;
}

void mmscale_transfers_halt(void)
{
	if (!nr_cpus)
		return;
	free_shadow();			/* its loops run to nr_cpus */
	nr_cpus = 0;
	/* The allocations' names go with the machine (the per-CPU units are freed next). */
	pthread_mutex_lock(&allocs_lock);
	nr_allocs = 0;
	pthread_mutex_unlock(&allocs_lock);
}

enum mmscale_xfer_class mmscale_transfers_class(int requester, int holder)
{
	if (cpu_core[requester] == cpu_core[holder])
		return MMSCALE_XFER_SAME_CORE;
	if (cpu_llc[requester] >= 0 && cpu_llc[requester] == cpu_llc[holder])
		return MMSCALE_XFER_SAME_CACHE;
	if (cpu_node[requester] == cpu_node[holder])
		return MMSCALE_XFER_SAME_NODE;
	return MMSCALE_XFER_OTHER_NODE;
}

void mmscale_transfers_window_begin(void)
{
	atomic_fetch_add(&window_gen, 1);
}

void mmscale_transfers_pause(bool paused)
{
	atomic_store(&tally_paused, paused);
}

uint64_t mmscale_transfers_unattributed(void)
{
	return atomic_load(&unattributed);
}

static inline uint64_t hash_tag(uintptr_t tag)
{
	return (uint64_t)tag * 0x9E3779B97F4A7C15ull;
}

static struct line_state *slot_for(struct stripe *st, uintptr_t tag, uint64_t h)
{
	size_t i = (size_t)(h >> 20) & st->mask;

	while (st->slots[i].tag && st->slots[i].tag != tag)
		i = (i + 1) & st->mask;
	return &st->slots[i];
}

/* Grow a stripe's table at half full; false if out of memory. */
static bool stripe_reserve(struct stripe *st)
{
	size_t cap = st->mask ? (st->mask + 1) * 2 : STRIPE_MIN;
	struct line_state *old = st->slots;
	size_t old_cap = st->mask ? st->mask + 1 : 0;

	if (st->mask && (st->used + 1) * 2 <= st->mask + 1)
		return true;
	st->slots = calloc(cap, sizeof(*st->slots));
	if (!st->slots) {
		st->slots = old;
		return false;
	}
	st->mask = cap - 1;
	for (size_t i = 0; i < old_cap; i++)
		if (old[i].tag)
			*slot_for(st, old[i].tag, hash_tag(old[i].tag)) = old[i];
	free(old);
	return true;
}

static bool holds(const struct line_state *e, int cpu)
{
	if (e->in_bitmap)
		return e->holders[cpu / 64] >> (cpu % 64) & 1;
	return (e->nr_holders > 0 && e->holder[0] == cpu) ||
	       (e->nr_holders > 1 && e->holder[1] == cpu);
}

/* Add cpu, not a holder yet; false if a bitmap was needed and not had. */
static bool add_holder(struct line_state *e, int cpu)
{
	if (!e->in_bitmap && e->nr_holders < 2) {
		e->holder[e->nr_holders++] = cpu;
		return true;
	}
	if (!e->in_bitmap) {
		if (!e->holders) {
			e->holders = calloc(bitmap_words, sizeof(uint64_t));
			if (!e->holders)
				return false;
		}
		for (uint32_t i = 0; i < e->nr_holders; i++)
			e->holders[e->holder[i] / 64] |= 1ull << (e->holder[i] % 64);
		e->in_bitmap = true;
	}
	e->holders[cpu / 64] |= 1ull << (cpu % 64);
	e->nr_holders++;
	return true;
}

static void only_holder(struct line_state *e, int cpu)
{
	if (e->in_bitmap)
		memset(e->holders, 0, bitmap_words * sizeof(uint64_t));
	e->in_bitmap = false;
	e->nr_holders = cpu >= 0;
	e->holder[0] = cpu;
}

static void pair_add(int requester, int holder)
{
	struct pair_row *row = &pair_rows[requester];
	uint32_t gen = atomic_load_explicit(&window_gen, memory_order_relaxed);

	pthread_mutex_lock(&row->lock);
	if (row->gen != gen) {
		for (uint32_t i = 0; i < row->cap; i++)
			row->slot[i].holder = -1;
		row->used = 0;
		row->gen = gen;
	}
	if ((row->used + 1) * 2 > row->cap) {
		uint32_t cap = row->cap ? row->cap * 2 : 16;
		__typeof__(row->slot) slot = malloc(cap * sizeof(*slot));

		if (!slot) {
			pthread_mutex_unlock(&row->lock);
			atomic_fetch_add(&unattributed, 1);
			return;
		}
		for (uint32_t i = 0; i < cap; i++)
			slot[i].holder = -1;
		for (uint32_t i = 0; i < row->cap; i++) {
			uint32_t j = (uint32_t)row->slot[i].holder & (cap - 1);

			if (row->slot[i].holder < 0)
				continue;
			while (slot[j].holder >= 0)
				j = (j + 1) & (cap - 1);
			slot[j] = row->slot[i];
		}
		free(row->slot);
		row->slot = slot;
		row->cap = cap;
	}
	uint32_t j = (uint32_t)holder & (row->cap - 1);

	while (row->slot[j].holder >= 0 && row->slot[j].holder != holder)
		j = (j + 1) & (row->cap - 1);
	if (row->slot[j].holder < 0) {
		row->slot[j].holder = holder;
		row->slot[j].transfers = 0;
		row->used++;
	}
	row->slot[j].transfers++;
	pthread_mutex_unlock(&row->lock);
}

/*
 * One access by cpu to one line, by the rule; for an atomic access, op runs
 * under the line's stripe lock, so that the shadow's order is the order in
 * which the values were seen.
 */
static void account_line(int cpu, uintptr_t line, enum mmscale_xfer_access kind, uintptr_t pc,
			 uintptr_t addr, size_t size, void (*op)(void *), void *op_arg)
{
	uintptr_t tag = line + 1;
	uint64_t h = hash_tag(tag);
	struct stripe *st = &stripes[h & (NR_STRIPES - 1)];
	struct line_state *e;
	int holder = -1;
	bool moved = false, upgrade = false;

	pthread_mutex_lock(&st->lock);
	if (op)
		op(op_arg);
	if (cpu < 0) {
		/* Outside the machine: a write puts a line it knows back in memory. */
		e = st->mask ? slot_for(st, tag, h) : NULL;
		if (e && e->tag && kind != MMSCALE_XFER_BY_READ) {
			only_holder(e, -1);
			e->last_writer = e->last_accessor = -1;
		}
		pthread_mutex_unlock(&st->lock);
		return;
	}
	if (!stripe_reserve(st)) {
		pthread_mutex_unlock(&st->lock);
		atomic_fetch_add(&unattributed, 1);
		return;
	}
	e = slot_for(st, tag, h);
	if (!e->tag) {
		*e = (struct line_state){ .tag = tag, .last_writer = -1, .last_accessor = -1 };
		st->used++;
	}
	if (kind == MMSCALE_XFER_BY_READ) {
		if (!holds(e, cpu)) {
			if (e->last_writer >= 0) {
				moved = true;
				holder = e->last_writer;
			}
			if (!add_holder(e, cpu))
				atomic_fetch_add(&unattributed, 1);
		}
	} else {
		if (!holds(e, cpu)) {
			if (e->nr_holders) {
				moved = true;
				holder = e->last_writer >= 0 ? e->last_writer : e->last_accessor;
			}
		} else if (e->nr_holders > 1) {
			upgrade = true;
		}
		only_holder(e, cpu);
		e->last_writer = cpu;
	}
	e->last_accessor = cpu;
	if ((moved || upgrade) && !atomic_load_explicit(&tally_paused, memory_order_relaxed)) {
		uint32_t gen = atomic_load_explicit(&window_gen, memory_order_relaxed);

		if (e->gen != gen) {
			e->gen = gen;
			e->transfers = e->reads = e->writes = e->locked = e->upgrades = 0;
		}
		if (upgrade) {
			e->upgrades++;
		} else {
			e->transfers++;
			e->reads += kind == MMSCALE_XFER_BY_READ;
			e->writes += kind == MMSCALE_XFER_BY_WRITE;
			e->locked += kind == MMSCALE_XFER_BY_LOCKED;
			e->pc[kind] = pc;
			uintptr_t at = addr > (line << line_shift) ? addr - (line << line_shift) : 0;
			size_t in_line = (size_t)(1 << line_shift) - at;

			e->access_bytes[kind] = (uint8_t)(size < in_line ? size : in_line);
			e->offset[kind] = (uint8_t)at;
		}
	}
	pthread_mutex_unlock(&st->lock);
	if (upgrade) {
		mmscale_count_inc(MMSCALE_XFER_UPGRADES);
		return;
	}
	if (!moved)
		return;
	mmscale_count_inc(MMSCALE_XFERS);
	mmscale_count_inc(kind == MMSCALE_XFER_BY_READ ? MMSCALE_XFER_READS :
			  kind == MMSCALE_XFER_BY_WRITE ? MMSCALE_XFER_WRITES : MMSCALE_XFER_LOCKED);
	mmscale_count_inc((enum mmscale_count)(MMSCALE_XFER_CORE +
					       mmscale_transfers_class(cpu, holder)));
	if (!atomic_load_explicit(&tally_paused, memory_order_relaxed))
		pair_add(cpu, holder);
}

/* The calling thread's own counts are the harness's, not the kernel's memory. */
static inline bool is_own_counts(uintptr_t a)
{
	return a - (uintptr_t)&mmscale_this_counts < sizeof(mmscale_this_counts);
}

static void on_access(const volatile void *p, size_t size, enum mmscale_xfer_access kind,
		      uintptr_t pc, void (*op)(void *), void *op_arg)
{
	uintptr_t a = (uintptr_t)p;
	int cpu = mmscale_this_cpu;

	if (!nr_cpus || is_own_counts(a) || in_hook || size == 0 || cpu >= nr_cpus) {
		if (in_hook && !is_own_counts(a))
			atomic_fetch_add(&unattributed, 1);
		if (op)
			op(op_arg);
		return;
	}
	in_hook = true;
	for (uintptr_t line = a >> line_shift; line <= (a + size - 1) >> line_shift; line++) {
		account_line(cpu, line, kind, pc, a, size, op, op_arg);
		op = NULL;
	}
	in_hook = false;
}

static bool alloc_before(const struct alloc_note *a, bool percpu, uintptr_t start)
{
	return a->percpu != percpu ? a->percpu < percpu : a->start < start;
}

/* The first allocation not before (percpu, start). */
static size_t alloc_index(bool percpu, uintptr_t start)
{
	size_t lo = 0, hi = nr_allocs;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (alloc_before(&allocs[mid], percpu, start))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void mmscale_transfers_note_alloc(bool percpu, uintptr_t start, size_t size, uintptr_t caller)
{
	size_t i;

	pthread_mutex_lock(&allocs_lock);
	if (nr_allocs == cap_allocs) {
		size_t cap = cap_allocs ? 2 * cap_allocs : 256;
		struct alloc_note *more = realloc(allocs, cap * sizeof(*more));

		if (!more) {
			pthread_mutex_unlock(&allocs_lock);
			return;		/* its lines go unnamed: "allocated memory" */
		}
		allocs = more;
		cap_allocs = cap;
	}
	i = alloc_index(percpu, start);
	if (i < nr_allocs && allocs[i].percpu == percpu && allocs[i].start == start) {
		allocs[i] = (struct alloc_note){ percpu, start, size, caller };
	} else {
		memmove(&allocs[i + 1], &allocs[i], (nr_allocs - i) * sizeof(*allocs));
		allocs[i] = (struct alloc_note){ percpu, start, size, caller };
		nr_allocs++;
	}
	pthread_mutex_unlock(&allocs_lock);
}

void mmscale_transfers_note_free(bool percpu, uintptr_t start)
{
	size_t i;

	pthread_mutex_lock(&allocs_lock);
	i = alloc_index(percpu, start);
	if (i < nr_allocs && allocs[i].percpu == percpu && allocs[i].start == start) {
		memmove(&allocs[i], &allocs[i + 1], (nr_allocs - i - 1) * sizeof(*allocs));
		nr_allocs--;
	}
	pthread_mutex_unlock(&allocs_lock);
}

bool mmscale_transfers_alloc_of(bool percpu, uintptr_t key, uintptr_t *caller, size_t *offset)
{
	bool found = false;
	size_t i;

	pthread_mutex_lock(&allocs_lock);
	i = alloc_index(percpu, key + 1);	/* past every allocation starting at or before key */
	if (i > 0 && allocs[i - 1].percpu == percpu && key - allocs[i - 1].start < allocs[i - 1].size) {
		*caller = allocs[i - 1].caller;
		*offset = key - allocs[i - 1].start;
		found = true;
	}
	pthread_mutex_unlock(&allocs_lock);
	return found;
}

/* The window's hottest lines, by a scan of every stripe. */
int mmscale_transfers_hottest(struct mmscale_hot_line *out, int max)
{
	uint32_t gen = atomic_load(&window_gen);
	int n = 0;

	for (int s = 0; nr_cpus && s < NR_STRIPES; s++) {
		struct stripe *st = &stripes[s];

		pthread_mutex_lock(&st->lock);
		for (size_t i = 0; st->mask && i <= st->mask; i++) {
			const struct line_state *e = &st->slots[i];
			enum mmscale_xfer_access most =
				e->locked >= e->reads && e->locked >= e->writes ? MMSCALE_XFER_BY_LOCKED :
				e->writes > e->reads ? MMSCALE_XFER_BY_WRITE : MMSCALE_XFER_BY_READ;
			int at;

			if (!e->tag || e->gen != gen || !e->transfers)
				continue;
			at = n < max ? n++ : max;
			if (at == max && (max == 0 || out[max - 1].transfers >= e->transfers))
				continue;
			if (at == max)
				at = max - 1;
			while (at > 0 && out[at - 1].transfers < e->transfers) {
				out[at] = out[at - 1];
				at--;
			}
			out[at] = (struct mmscale_hot_line){
				.addr = (e->tag - 1) << line_shift,
				.transfers = e->transfers, .reads = e->reads,
				.writes = e->writes, .locked = e->locked,
				.upgrades = e->upgrades,
				.most = most, .pc = e->pc[most],
				.access_bytes = e->access_bytes[most],
				.offset = e->offset[most],
			};
		}
		pthread_mutex_unlock(&st->lock);
	}
	return n;
}

static int pair_cmp(const void *a, const void *b)
{
	const struct mmscale_xfer_pair *x = a, *y = b;

	if (x->transfers != y->transfers)
		return x->transfers < y->transfers ? 1 : -1;
	if (x->requester != y->requester)
		return x->requester - y->requester;
	return x->holder - y->holder;
}

size_t mmscale_transfers_nr_pairs(void)
{
	uint32_t gen = atomic_load(&window_gen);
	size_t all = 0;

	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		pthread_mutex_lock(&pair_rows[cpu].lock);
		if (pair_rows[cpu].gen == gen)
			all += pair_rows[cpu].used;
		pthread_mutex_unlock(&pair_rows[cpu].lock);
	}
	return all;
}

size_t mmscale_transfers_pairs(struct mmscale_xfer_pair *out, size_t max)
{
	uint32_t gen = atomic_load(&window_gen);
	size_t n = 0, all = 0, room = max;
	struct mmscale_xfer_pair *keep = NULL;

	/* Every pair first, sorted, then the first max: the most, not the first found. */
	all = mmscale_transfers_nr_pairs();
	if (all == 0)
		return 0;
	if (all > max) {
		keep = malloc(all * sizeof(*keep));
		if (!keep)
			return all;
		room = all;
	} else {
		keep = out;
	}
	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		struct pair_row *row = &pair_rows[cpu];

		pthread_mutex_lock(&row->lock);
		for (uint32_t i = 0; row->gen == gen && i < row->cap && n < room; i++)
			if (row->slot[i].holder >= 0)
				keep[n++] = (struct mmscale_xfer_pair){
					.requester = cpu, .holder = row->slot[i].holder,
					.transfers = row->slot[i].transfers,
				};
		pthread_mutex_unlock(&row->lock);
	}
	qsort(keep, n, sizeof(*keep), pair_cmp);
	if (keep != out) {
		memcpy(out, keep, (n < max ? n : max) * sizeof(*out));
		free(keep);
	}
	return n;
}

/*
 * The hooks GCC's -fsanitize=thread calls (the ABI of libtsan's
 * tsan_interface.h, as the kernel's KCSAN also implements it). Plain
 * accesses are recorded before they happen: the ones the emulation races
 * on purpose are atomics, below, which happen under the line's lock.
 */
#define PC()	((uintptr_t)__builtin_return_address(0))

/* The hooks are called by instrumented objects only: their prototypes are these. */
#define HOOK_READ	MMSCALE_XFER_BY_READ
#define HOOK_WRITE	MMSCALE_XFER_BY_WRITE
#define PLAIN_HOOKS(n)							\
	void __tsan_read##n(void *p);					\
	void __tsan_write##n(void *p);					\
	void __tsan_unaligned_read##n(void *p);				\
	void __tsan_unaligned_write##n(void *p);			\
	void __tsan_read##n(void *p) { on_access(p, n, HOOK_READ, PC(), NULL, NULL); } \
	void __tsan_write##n(void *p) { on_access(p, n, HOOK_WRITE, PC(), NULL, NULL); } \
	void __tsan_unaligned_read##n(void *p) { on_access(p, n, HOOK_READ, PC(), NULL, NULL); } \
	void __tsan_unaligned_write##n(void *p) { on_access(p, n, HOOK_WRITE, PC(), NULL, NULL); }
PLAIN_HOOKS(1)
PLAIN_HOOKS(2)
PLAIN_HOOKS(4)
PLAIN_HOOKS(8)
PLAIN_HOOKS(16)

void __tsan_read_range(void *p, unsigned long size);
void __tsan_write_range(void *p, unsigned long size);
void __tsan_read_range(void *p, unsigned long size)
{
	on_access(p, size, MMSCALE_XFER_BY_READ, PC(), NULL, NULL);
}
void __tsan_write_range(void *p, unsigned long size)
{
	on_access(p, size, MMSCALE_XFER_BY_WRITE, PC(), NULL, NULL);
}

void __tsan_init(void);
void __tsan_func_entry(void *pc);
void __tsan_func_exit(void);
void __tsan_init(void) {}
void __tsan_func_entry(void *pc) {}
void __tsan_func_exit(void) {}

/* Fences order nothing the shadow sees: every atomic below is under a lock. */
void __tsan_atomic_thread_fence(int mo);
void __tsan_atomic_signal_fence(int mo);
void __tsan_atomic_thread_fence(int mo) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
void __tsan_atomic_signal_fence(int mo) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }

/*
 * The atomics: each runs its operation (sequentially consistent: stronger
 * than asked, which no emulated algorithm minds) inside account_line. A
 * load is a read, a store a plain write, anything else a locked
 * read-modify-write (a failed cmpxchg too: x86's takes the line either way).
 */
#define ATOMIC_HOOKS(n, T)							\
struct op##n { volatile T *a; T v, *expected, r; int kind; bool ok; };	\
static void run##n(void *arg)							\
{										\
	struct op##n *o = arg;							\
	T *a = (T *)o->a;							\
	switch (o->kind) {							\
	case 0: o->r = __atomic_load_n(a, __ATOMIC_SEQ_CST); break;		\
	case 1: __atomic_store_n(a, o->v, __ATOMIC_SEQ_CST); break;		\
	case 2: o->r = __atomic_exchange_n(a, o->v, __ATOMIC_SEQ_CST); break;	\
	case 3: o->r = __atomic_fetch_add(a, o->v, __ATOMIC_SEQ_CST); break;	\
	case 4: o->r = __atomic_fetch_sub(a, o->v, __ATOMIC_SEQ_CST); break;	\
	case 5: o->r = __atomic_fetch_and(a, o->v, __ATOMIC_SEQ_CST); break;	\
	case 6: o->r = __atomic_fetch_or(a, o->v, __ATOMIC_SEQ_CST); break;	\
	case 7: o->r = __atomic_fetch_xor(a, o->v, __ATOMIC_SEQ_CST); break;	\
	case 8: o->r = __atomic_fetch_nand(a, o->v, __ATOMIC_SEQ_CST); break;	\
	case 9: o->ok = __atomic_compare_exchange_n(a, o->expected, o->v, false,	\
				__ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); break;	\
	}									\
}										\
static T do##n(volatile T *a, T v, T *expected, int kind, uintptr_t pc, bool *ok) \
{										\
	struct op##n o = { .a = a, .v = v, .expected = expected, .kind = kind };	\
										\
	on_access(a, n / 8, kind == 0 ? HOOK_READ : kind == 1 ? HOOK_WRITE :	\
		  MMSCALE_XFER_BY_LOCKED, pc, run##n, &o);			\
	if (ok)									\
		*ok = o.ok;							\
	return o.r;								\
}										\
T __tsan_atomic##n##_load(const volatile T *a, int mo);				\
void __tsan_atomic##n##_store(volatile T *a, T v, int mo);			\
T __tsan_atomic##n##_exchange(volatile T *a, T v, int mo);			\
T __tsan_atomic##n##_fetch_add(volatile T *a, T v, int mo);			\
T __tsan_atomic##n##_fetch_sub(volatile T *a, T v, int mo);			\
T __tsan_atomic##n##_fetch_and(volatile T *a, T v, int mo);			\
T __tsan_atomic##n##_fetch_or(volatile T *a, T v, int mo);			\
T __tsan_atomic##n##_fetch_xor(volatile T *a, T v, int mo);			\
T __tsan_atomic##n##_fetch_nand(volatile T *a, T v, int mo);			\
int __tsan_atomic##n##_compare_exchange_strong(volatile T *a, T *c, T v, int mo, int fmo); \
int __tsan_atomic##n##_compare_exchange_weak(volatile T *a, T *c, T v, int mo, int fmo); \
T __tsan_atomic##n##_compare_exchange_val(volatile T *a, T c, T v, int mo, int fmo); \
T __tsan_atomic##n##_load(const volatile T *a, int mo)				\
{ return do##n((volatile T *)a, 0, NULL, 0, PC(), NULL); }			\
void __tsan_atomic##n##_store(volatile T *a, T v, int mo)			\
{ do##n(a, v, NULL, 1, PC(), NULL); }						\
T __tsan_atomic##n##_exchange(volatile T *a, T v, int mo)			\
{ return do##n(a, v, NULL, 2, PC(), NULL); }					\
T __tsan_atomic##n##_fetch_add(volatile T *a, T v, int mo)			\
{ return do##n(a, v, NULL, 3, PC(), NULL); }					\
T __tsan_atomic##n##_fetch_sub(volatile T *a, T v, int mo)			\
{ return do##n(a, v, NULL, 4, PC(), NULL); }					\
T __tsan_atomic##n##_fetch_and(volatile T *a, T v, int mo)			\
{ return do##n(a, v, NULL, 5, PC(), NULL); }					\
T __tsan_atomic##n##_fetch_or(volatile T *a, T v, int mo)			\
{ return do##n(a, v, NULL, 6, PC(), NULL); }					\
T __tsan_atomic##n##_fetch_xor(volatile T *a, T v, int mo)			\
{ return do##n(a, v, NULL, 7, PC(), NULL); }					\
T __tsan_atomic##n##_fetch_nand(volatile T *a, T v, int mo)			\
{ return do##n(a, v, NULL, 8, PC(), NULL); }					\
int __tsan_atomic##n##_compare_exchange_strong(volatile T *a, T *c, T v, int mo, int fmo) \
{ bool ok; do##n(a, v, c, 9, PC(), &ok); return ok; }				\
int __tsan_atomic##n##_compare_exchange_weak(volatile T *a, T *c, T v, int mo, int fmo) \
{ bool ok; do##n(a, v, c, 9, PC(), &ok); return ok; }				\
T __tsan_atomic##n##_compare_exchange_val(volatile T *a, T c, T v, int mo, int fmo) \
{ do##n(a, v, &c, 9, PC(), NULL); return c; }

ATOMIC_HOOKS(8, uint8_t)
ATOMIC_HOOKS(16, uint16_t)
ATOMIC_HOOKS(32, uint32_t)
ATOMIC_HOOKS(64, uint64_t)

/*
 * memset, memcpy and memmove in instrumented files (a forced include,
 * include/mmscale/kernel/transfers_builtins.h, renames them to these): the
 * compiler's instrumentation does not see inside a library call.
 */
void *mmscale_xfer_memset(void *d, int c, size_t n);
void *mmscale_xfer_memcpy(void *d, const void *s, size_t n);
void *mmscale_xfer_memmove(void *d, const void *s, size_t n);
void *mmscale_xfer_memset(void *d, int c, size_t n)
{
	on_access(d, n, MMSCALE_XFER_BY_WRITE, PC(), NULL, NULL);
	return memset(d, c, n);
}
void *mmscale_xfer_memcpy(void *d, const void *s, size_t n)
{
	on_access(s, n, MMSCALE_XFER_BY_READ, PC(), NULL, NULL);
	on_access(d, n, MMSCALE_XFER_BY_WRITE, PC(), NULL, NULL);
	return memcpy(d, s, n);
}
void *mmscale_xfer_memmove(void *d, const void *s, size_t n)
{
	on_access(s, n, MMSCALE_XFER_BY_READ, PC(), NULL, NULL);
	on_access(d, n, MMSCALE_XFER_BY_WRITE, PC(), NULL, NULL);
	return memmove(d, s, n);
}

#endif /* MMSCALE_TRANSFERS */
