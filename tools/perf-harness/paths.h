/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The update paths of the trace replay; (b) and (c) on a model of the
 * driver state they read.  See paths.c and Documentation/project/perf-harness.md.
 */
#ifndef H6_PATHS_H
#define H6_PATHS_H

#include <linux/types.h>

/* The fields of intel_pstate's struct cpudata / global state the paths read. */
struct h6_cpu {
	/* cpu->pstate */
	int min_pstate;		/* hardware lowest */
	int max_pstate;		/* guaranteed (non-turbo) */
	int turbo_pstate;	/* highest */
	int scaling;		/* kHz per P-state */
	int current_pstate;
	/* policy limits as ratios (cpu->min_perf_ratio, max_perf_ratio) */
	int min_perf_ratio;
	int max_perf_ratio;
	u64 hwp_cap_cached;	/* cached MSR_HWP_CAPABILITIES */
	int hwp_perf_ref;	/* cached intel_pstate_perf_ref(), with the above */
	u64 hwp_req_cached;	/* cached MSR_HWP_REQUEST */
	/* cpufreq policy (kHz) */
	unsigned int policy_min;
	unsigned int policy_max;
	unsigned int cpuinfo_max_freq;
	bool strict_target;
};

struct h6_global {
	bool no_turbo;
	bool turbo_disabled;
};

extern struct h6_cpu h6_cpu;
extern struct h6_global h6_global;
/* MSR model: the registers and access counters. */
extern u64 h6_msr_misc_enable, h6_msr_hwp_request;
extern unsigned long h6_msr_reads, h6_msr_writes;

/* (a) the series: schedutil's hints + its own ->adjust_perf() (callback.c) */
void h6_path_perf(unsigned long util, unsigned long dl_bw, unsigned long capacity);
/* (b) 5.10: map_util_freq + resolve + ->fast_switch() */
void h6_path_freq(unsigned long util, unsigned long dl_bw, unsigned long capacity);
/* (c) the December 2020 v2 ->adjust_perf(), from DESIGN.md section 5 */
void h6_path_v2(unsigned long util, unsigned long dl_bw, unsigned long capacity);

void h6_model_init(int lowest, int guaranteed, int highest);
struct h6_model;
void h6_model_get(struct h6_model *m);

#endif
