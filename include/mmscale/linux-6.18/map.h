/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Linux 6.18's names, mapped in one place (as liburcu's urcu/map/ headers
 * do): 6.18's functions and globals share the kernel's names with 2.6.31's
 * and 3.2's, which the same program links, so each is defined under the
 * suffix _6_18; built for the virtual-time world of throttle/
 * (MMSCALE_WB_6_18_WORLD, kernel/linux-6.18/world/throttle.c) the suffix is
 * _6_18_world. A 6.18 header with names here asks for its section
 * (MMSCALE_6_18_MAP_WANT_<header>) and includes this file after its own
 * includes, so its names are mapped from there on and the shared headers
 * it includes keep theirs; a file sees exactly the names of the 6.18
 * headers it includes. A new 6.18 function whose name clashes gets its
 * line here, under its header.
 *
 * No include guard: each section is applied once, where it is asked for.
 */

/* mm/vmstat.h */
#if defined(MMSCALE_6_18_MAP_WANT_VMSTAT) && !defined(MMSCALE_6_18_MAP_VMSTAT)
#define MMSCALE_6_18_MAP_VMSTAT
#define node_data			node_data_6_18
#define calculate_normal_threshold	calculate_normal_threshold_6_18
#define refresh_zone_stat_thresholds	refresh_zone_stat_thresholds_6_18
#define __mod_zone_page_state		__mod_zone_page_state_6_18
#define __mod_node_page_state		__mod_node_page_state_6_18
#define __inc_node_state		__inc_node_state_6_18
#define __dec_node_state		__dec_node_state_6_18
#define mod_zone_page_state		mod_zone_page_state_6_18
#define mod_node_page_state		mod_node_page_state_6_18
#define inc_node_state			inc_node_state_6_18
#define refresh_cpu_vm_stats		refresh_cpu_vm_stats_6_18
#define cpu_vm_stats_fold		cpu_vm_stats_fold_6_18
#define fold_vm_numa_events		fold_vm_numa_events_6_18
#define need_update			need_update_6_18
#define vmstat_shepherd			vmstat_shepherd_6_18
#endif

/* mm/page_alloc.h */
#if defined(MMSCALE_6_18_MAP_WANT_PAGE_ALLOC) && !defined(MMSCALE_6_18_MAP_PAGE_ALLOC)
#define MMSCALE_6_18_MAP_PAGE_ALLOC
#define zone_batchsize			zone_batchsize_6_18
#define zone_highsize			zone_highsize_6_18
#endif

/* mm/pcp.h */
#if defined(MMSCALE_6_18_MAP_WANT_PCP) && !defined(MMSCALE_6_18_MAP_PCP)
#define MMSCALE_6_18_MAP_PCP
#define pcpu_drain_mutex		pcpu_drain_mutex_6_18
#define cpus_with_pcps			cpus_with_pcps_6_18
#define drain_pages_zone		drain_pages_zone_6_18
#define drain_pages			drain_pages_6_18
#define free_pcppages_bulk		free_pcppages_bulk_6_18
#endif

/* mm/writeback.h */
#if defined(MMSCALE_6_18_MAP_WANT_WRITEBACK) && !defined(MMSCALE_6_18_MAP_WRITEBACK)
#define MMSCALE_6_18_MAP_WRITEBACK
#define dirty_background_ratio		dirty_background_ratio_6_18
#define dirty_background_bytes		dirty_background_bytes_6_18
#define vm_dirty_ratio			vm_dirty_ratio_6_18
#define vm_dirty_bytes			vm_dirty_bytes_6_18
#define ratelimit_pages			ratelimit_pages_6_18
#define laptop_mode			laptop_mode_6_18
#define global_wb_domain		global_wb_domain_6_18
#define totalreserve_pages		totalreserve_pages_6_18
#define global_dirty_limits		global_dirty_limits_6_18
#define writeback_set_ratelimit		writeback_set_ratelimit_6_18
#define wb_domain_init			wb_domain_init_6_18
#define wb_domain_exit			wb_domain_exit_6_18
#define writeout_period			writeout_period_6_18
#define wb_writeout_inc			wb_writeout_inc_6_18
#define wb_calc_thresh			wb_calc_thresh_6_18
#define domain_dirty_limits		domain_dirty_limits_6_18
#define __wb_calc_thresh		__wb_calc_thresh_6_18
#define pos_ratio_polynom		pos_ratio_polynom_6_18
#define wb_position_ratio		wb_position_ratio_6_18
#define wb_update_dirty_ratelimit	wb_update_dirty_ratelimit_6_18
#define wb_max_pause			wb_max_pause_6_18
#define wb_min_pause			wb_min_pause_6_18
#define dirty_poll_interval		dirty_poll_interval_6_18
#define balance_dirty_pages		balance_dirty_pages_6_18
#define balance_dirty_pages_variant	balance_dirty_pages_variant_6_18
#define balance_dirty_pages_loop	balance_dirty_pages_loop_6_18
#define balance_domain_limits		balance_domain_limits_6_18
#define balance_wb_limits		balance_wb_limits_6_18
#define domain_poll_intv		domain_poll_intv_6_18
#define __wb_update_bandwidth		__wb_update_bandwidth_6_18
#define balance_dirty_pages_resume	balance_dirty_pages_resume_6_18
#define balance_dirty_pages_ratelimited_flags balance_dirty_pages_ratelimited_flags_6_18
#define bdp_ratelimits			bdp_ratelimits_6_18
#define dirty_throttle_leaks		dirty_throttle_leaks_6_18
#endif

/* mm/writeback.h, built for the virtual-time world */
#if defined(MMSCALE_6_18_MAP_WANT_WRITEBACK) && defined(MMSCALE_WB_6_18_WORLD) && !defined(MMSCALE_6_18_MAP_WRITEBACK_WORLD)
#define MMSCALE_6_18_MAP_WRITEBACK_WORLD
#define __wb_calc_thresh_6_18			__wb_calc_thresh_6_18_world
#define __wb_update_bandwidth_6_18		__wb_update_bandwidth_6_18_world
#define balance_dirty_pages_6_18		balance_dirty_pages_6_18_world
#define balance_dirty_pages_loop_6_18		balance_dirty_pages_loop_6_18_world
#define balance_dirty_pages_ratelimited_flags_6_18 balance_dirty_pages_ratelimited_flags_6_18_world
#define balance_dirty_pages_resume_6_18		balance_dirty_pages_resume_6_18_world
#define balance_dirty_pages_variant_6_18	balance_dirty_pages_variant_6_18_world
#define balance_domain_limits_6_18		balance_domain_limits_6_18_world
#define balance_wb_limits_6_18			balance_wb_limits_6_18_world
#define bdi_exit_6_18				bdi_exit_6_18_world
#define bdi_init_6_18				bdi_init_6_18_world
#define bdp_ratelimits_6_18			bdp_ratelimits_6_18_world
#define dirty_background_bytes_6_18		dirty_background_bytes_6_18_world
#define dirty_background_ratio_6_18		dirty_background_ratio_6_18_world
#define dirty_poll_interval_6_18		dirty_poll_interval_6_18_world
#define dirty_throttle_leaks_6_18		dirty_throttle_leaks_6_18_world
#define domain_dirty_limits_6_18		domain_dirty_limits_6_18_world
#define domain_poll_intv_6_18			domain_poll_intv_6_18_world
#define global_dirty_limits_6_18		global_dirty_limits_6_18_world
#define global_wb_domain_6_18			global_wb_domain_6_18_world
#define laptop_mode_6_18			laptop_mode_6_18_world
#define pos_ratio_polynom_6_18			pos_ratio_polynom_6_18_world
#define ratelimit_pages_6_18			ratelimit_pages_6_18_world
#define totalreserve_pages_6_18			totalreserve_pages_6_18_world
#define vm_dirty_bytes_6_18			vm_dirty_bytes_6_18_world
#define vm_dirty_ratio_6_18			vm_dirty_ratio_6_18_world
#define wb_calc_thresh_6_18			wb_calc_thresh_6_18_world
#define wb_domain_exit_6_18			wb_domain_exit_6_18_world
#define wb_domain_init_6_18			wb_domain_init_6_18_world
#define wb_max_pause_6_18			wb_max_pause_6_18_world
#define wb_min_pause_6_18			wb_min_pause_6_18_world
#define wb_position_ratio_6_18			wb_position_ratio_6_18_world
#define wb_update_dirty_ratelimit_6_18		wb_update_dirty_ratelimit_6_18_world
#define wb_writeout_inc_6_18			wb_writeout_inc_6_18_world
#define writeback_6_18_reset			writeback_6_18_reset_world
#define writeback_set_ratelimit_6_18		writeback_set_ratelimit_6_18_world
#define writeout_period_6_18			writeout_period_6_18_world
#define wb_start_background_writeback_6_18	wb_start_background_writeback_6_18_world
#define wb_6_18_mod_period_timer		wb_6_18_mod_period_timer_world
#define global_zone_page_state			global_zone_page_state_6_18_world
#define global_node_page_state			global_node_page_state_6_18_world
#define wb_update_bandwidth		wb_update_bandwidth_6_18_world
#define wb_over_bg_thresh		wb_over_bg_thresh_6_18_world
#define do_writepages_start		do_writepages_start_6_18_world
#define do_writepages_end		do_writepages_end_6_18_world
#define wb_inode_writeback_start	wb_inode_writeback_start_6_18_world
#define wb_inode_writeback_end		wb_inode_writeback_end_6_18_world
#endif

/* lib/percpu_counter.h, built for the virtual-time world */
#if defined(MMSCALE_6_18_MAP_WANT_PERCPU_COUNTER) && defined(MMSCALE_WB_6_18_WORLD) && !defined(MMSCALE_6_18_MAP_PERCPU_COUNTER_WORLD)
#define MMSCALE_6_18_MAP_PERCPU_COUNTER_WORLD
#define percpu_counter_batch_6_18		percpu_counter_batch_6_18_world
#define compute_batch_value_6_18		compute_batch_value_6_18_world
#define __percpu_counter_init_many_6_18		__percpu_counter_init_many_6_18_world
#define percpu_counter_destroy_many_6_18	percpu_counter_destroy_many_6_18_world
#define percpu_counter_add_batch_6_18		percpu_counter_add_batch_6_18_world
#define __percpu_counter_sum_6_18		__percpu_counter_sum_6_18_world
/* Not in the world (nothing there calls them): a use fails to link. */
#define __percpu_counter_compare_6_18		__percpu_counter_compare_6_18_world
#define __percpu_counter_limited_add_6_18	__percpu_counter_limited_add_6_18_world
/* The world's own (kernel/linux-6.18/world/throttle_percpu_counter.c). */
#define percpu_counter_set_6_18		percpu_counter_set_6_18_world
#define percpu_counter_read_positive_6_18	percpu_counter_read_positive_6_18_world
#endif

/* lib/flex_proportions.h, built for the virtual-time world */
#if defined(MMSCALE_6_18_MAP_WANT_FLEX_PROPORTIONS) && defined(MMSCALE_WB_6_18_WORLD) && !defined(MMSCALE_6_18_MAP_FLEX_PROPORTIONS_WORLD)
#define MMSCALE_6_18_MAP_FLEX_PROPORTIONS_WORLD
#define fprop_global_init_6_18		fprop_global_init_6_18_world
#define fprop_global_destroy_6_18	fprop_global_destroy_6_18_world
#define fprop_new_period_6_18		fprop_new_period_6_18_world
#define fprop_local_init_percpu_6_18	fprop_local_init_percpu_6_18_world
#define fprop_local_destroy_percpu_6_18	fprop_local_destroy_percpu_6_18_world
#define __fprop_add_percpu_6_18		__fprop_add_percpu_6_18_world
#define __fprop_add_percpu_max_6_18	__fprop_add_percpu_max_6_18_world
#define fprop_fraction_percpu_6_18	fprop_fraction_percpu_6_18_world
#endif
