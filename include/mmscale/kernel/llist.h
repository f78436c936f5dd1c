/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lock-less NULL terminated single linked lists (include/linux/llist.h):
 * a lock-free push, and take-all, on which call_single_queue is built
 * since 3.14 (kernel/linux-6.18/kernel/smp.c).
 */
#ifndef MMSCALE_KERNEL_LLIST_H
#define MMSCALE_KERNEL_LLIST_H

#include <stdatomic.h>
#include "compiler.h"
#include "../opcount.h"

struct llist_node {
	struct llist_node *_Atomic next;
};

struct llist_head {
	struct llist_node *_Atomic first;
};

/* A node not on a list points to itself (llist.h of 6.18, 84-101). */
static inline void init_llist_node(struct llist_node *node)
{
	atomic_store_explicit(&node->next, node, memory_order_relaxed);
}

static inline bool llist_on_list(const struct llist_node *node)
{
	return atomic_load_explicit(&((struct llist_node *)node)->next,
				    memory_order_relaxed) != node;
}

static __always_inline bool llist_empty(const struct llist_head *head)
{
	return atomic_load_explicit(&((struct llist_head *)head)->first,
				    memory_order_relaxed) == NULL;
}

/*
 * Returns true if the list was empty before (the sender then sends the IPI).
 * Each cmpxchg tried is a locked op (one, when no other CPU adds meanwhile).
 */
static inline bool llist_add(struct llist_node *new, struct llist_head *head)
{
	struct llist_node *first = atomic_load_explicit(&head->first, memory_order_relaxed);

	do {
		atomic_store_explicit(&new->next, first, memory_order_relaxed);
		mmscale_count_inc(MMSCALE_LOCKED_OPS);
	} while (!atomic_compare_exchange_weak_explicit(&head->first, &first, new,
							memory_order_release,
							memory_order_relaxed));
	return first == NULL;
}

/* One xchg: a locked op. */
static inline struct llist_node *llist_del_all(struct llist_head *head)
{
	mmscale_count_inc(MMSCALE_LOCKED_OPS);
	return atomic_exchange_explicit(&head->first, NULL, memory_order_acquire);
}

static inline struct llist_node *llist_reverse_order(struct llist_node *head)
{
	struct llist_node *new_head = NULL;

	while (head) {
		struct llist_node *tmp = head;

		head = atomic_load_explicit(&head->next, memory_order_relaxed);
		atomic_store_explicit(&tmp->next, new_head, memory_order_relaxed);
		new_head = tmp;
	}
	return new_head;
}

#endif /* MMSCALE_KERNEL_LLIST_H */
