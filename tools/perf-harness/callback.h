/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ->adjust_perf callbacks compiled from kernel text (callback.c, once
 * per source: the series' KSRC and mainline 7.3), as the bench sees them.
 */
#ifndef H6_CALLBACK_H
#define H6_CALLBACK_H

#include <linux/types.h>

/* What the driver has cached when the callback runs (HWP levels, kHz). */
struct h6_model {
	int lowest, guaranteed, highest;	/* HWP capabilities */
	int min_ratio, max_ratio;		/* policy limits as levels */
	int ref;				/* series: invariance reference level */
	int scaling;				/* kHz per level */
	bool no_turbo, turbo_disabled, dec;
	u64 req;				/* HWP_REQUEST before the first call */
};

struct cpufreq_policy;
typedef void h6_adjust_perf_fn(struct cpufreq_policy *policy,
			       unsigned long min_perf, unsigned long target_perf,
			       unsigned long max_perf, unsigned long capacity);

struct h6_callback {
	const char *name;
	h6_adjust_perf_fn *adjust_perf;		/* the kernel's function */
	struct cpufreq_policy *policy;
	void (*init)(const struct h6_model *m);
	u64 (*msr)(void);			/* last value written to HWP_REQUEST */
	u64 (*cached)(void);			/* cpu->hwp_req_cached */
	unsigned long (*writes)(void);		/* wrmsr count since init */
	unsigned int (*policy_cur)(void);
};

extern const struct h6_callback h6_cb_series, h6_cb_m73;

#endif
