/* SPDX-License-Identifier: GPL-2.0 */
/*
 * schedutil's perf path compiled from kernel text (sugov.c, once per
 * source: the series' KSRC and mainline 7.3), as sugov-diff.c sees it.
 */
#ifndef SG_SUGOV_H
#define SG_SUGOV_H

/* What the scheduler reports when the update runs; shared by both sides. */
struct sg_in {
	unsigned long cap;		/* arch_scale_cpu_capacity() */
	unsigned long cfs, rt, dl, irq;	/* cpu_util_{cfs,rt,dl,irq}() */
	unsigned long bw_dl;		/* cpu_bw_dl() */
	unsigned long uclamp_min, uclamp_max;	/* rq->uclamp[].value */
	unsigned long uclamp_used, rt_runnable;
	unsigned long boost;		/* sg_cpu->iowait_boost, 0..1024, pending */
	unsigned long prev;		/* sg_cpu->util: the previous target */
	unsigned long busy;		/* no idle call since the last update */
};

/* The arguments of cpufreq_driver_adjust_perf(), and sg_cpu->util after. */
struct sg_out {
	unsigned long min, target, max, cap, util;
	unsigned long calls;
};

struct sg_side {
	const char *name;
	void (*update)(const struct sg_in *in, struct sg_out *out);
};

extern const struct sg_side sg_series, sg_m73;

#endif
