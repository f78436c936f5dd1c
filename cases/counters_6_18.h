/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Linux 6.18 rows of the counter cases (vmstat/global_read, vmstat/mod)
 * as functions without kernel types, so that cases/counters.c, which sees
 * 2.6.31's structures, can hold them beside the seed kernels' rows: the
 * code behind them (cases/counters_6_18.c) sees 6.18's, which have the
 * same names.
 */
#ifndef MMSCALE_COUNTERS_CASES_6_18_H
#define MMSCALE_COUNTERS_CASES_6_18_H

#include <stddef.h>
#include <stdint.h>

/* The 6.18 world for a run: mm_config()'s memory over the machine's nodes. */
int vmstat_6_18_run_setup(char *err, size_t errlen);
/* Fold every CPU, check the accounting, free: -1 with what differs. */
int vmstat_6_18_run_teardown(char *err, size_t errlen);

/*
 * vmstat/global_read: k items, READ_USES uses each: global_node_page_state
 * at every use, or once into a local. The items share vm_node_stat[]'s
 * line with NR_FILE_DIRTY.
 */
unsigned long vmstat_6_18_read_repeated(int k, int uses);
unsigned long vmstat_6_18_read_cached(int k, int uses);
/*
 * The calling CPU's node in the 6.18 world: a pg_data_t *, which a file
 * that sees 2.6.31's types cannot name. Looked up once, outside a loop.
 */
void *vmstat_6_18_local_node(void);

/* The writer: node's threshold + 1, then __mod_node_page_state of item i by delta and back: two folds. */
int vmstat_6_18_fold_delta(void *node);
void vmstat_6_18_fold_step(void *node, int delta, unsigned int i);

/* vmstat/mod: one update of NR_FILE_DIRTY on the node (the CPU's own). */
void vmstat_6_18_inc(void *node);	/* inc_node_state: cmpxchg, half-threshold overstep */
void vmstat_6_18_mod(void *node);	/* mod_node_page_state(+1): cmpxchg, no overstep */
void vmstat_6_18_mod_irqoff(void *node);	/* __mod_node_page_state(+1): irqs off, plain RMW */
/*
 * The memcg rows: 6.18's memcg hierarchy on the 6.18 world (after
 * vmstat_6_18_run_setup), and its check and teardown (before
 * vmstat_6_18_run_teardown): -1 with what differs.
 */
int vmstat_6_18_memcg_run_setup(char *err, size_t errlen);
int vmstat_6_18_memcg_run_teardown(char *err, size_t errlen);
/* The calling CPU's node's page-cache folio, charged to the task's memcg (a struct folio *). */
void *vmstat_6_18_local_folio(void);
/*
 * The locked ops of nr_ops memcg updates on one CPU right after set-up,
 * but for the node diff's folds: the first update puts the memcg's css on
 * the CPU's updated list (one llist_add); then every MEMCG_CHARGE_BATCH
 * updates each level from the task's memcg to the root adds the CPU's
 * batch into its shared stats_updates (an atomic_add), until that passes
 * MEMCG_CHARGE_BATCH x online CPUs (online CPUs + 1 batches from one CPU),
 * where the walk stops until a flush.
 */
uint64_t vmstat_6_18_memcg_claim_locked_ops(uint64_t nr_ops);
/* __lruvec_stat_mod_folio(+1), irqs off by the caller (folio_account_dirtied). */
void vmstat_6_18_lruvec_mod_irqoff(void *folio);
/* lruvec_stat_mod_folio(+1): the same with local_irq_save/restore (folio_end_writeback's form). */
void vmstat_6_18_lruvec_mod(void *folio);
/* 6.18's vmstat_update on the calling CPU when its period has passed (vmstat_work_due). */
void vmstat_6_18_work_tick(uint64_t interval_ns);

#endif /* MMSCALE_COUNTERS_CASES_6_18_H */
