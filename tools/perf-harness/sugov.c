// SPDX-License-Identifier: GPL-2.0
/*
 * schedutil's perf path compiled from kernel text (SG_TEXT: sugov-series.fns or
 * sugov-m73.fns extracted by the Makefile), included below after its shims;
 * sg_series from KSRC (SG_M73=0), sg_m73 from mainline 7.3 (SG_M73=1).
 * Shims (the rest is kernel text, the rq accessors included):
 *  - struct rq, struct rt_rq: the fields the text reads, set from struct
 *    sg_in by sg_update(); the members of struct sugov_cpu and struct
 *    sugov_policy (kernel text) that the perf path leaves alone are empty;
 *  - arch_scale_cpu_capacity(): the capacity; arch_scale_freq_invariant():
 *    true; tick_nohz_get_idle_calls_cpu(): the saved count when busy;
 *  - 7.3's cpu_util_cfs{,_boost}() (fair.c): 5.10's CFS input at most the
 *    capacity, as 7.3's cpu_util() returns it; scx_*(): false/0;
 *  - sugov_should_update_freq(): true; sugov_iowait_boost() and
 *    ignore_dl_rate_limit(): empty (the pending sg_cpu->iowait_boost is
 *    what each side's own sugov_iowait_apply() uses);
 *  - cpufreq_driver_adjust_perf(): records its arguments.
 */
#include <stdlib.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/types.h>

#include "sugov.h"

#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
#define container_of(p, type, member) \
	((type *)((char *)(p) - offsetof(type, member)))
#define static_branch_likely(key)	(*(key))
#define sched_feat(x)		1	/* 5.10 UTIL_EST: on by default */
#define arch_scale_freq_invariant()	true
#define BW_SHIFT		20	/* kernel/sched/sched.h */
#define TICK_NSEC		1000000ULL	/* HZ=1000 */
/* kernel/sched/cpufreq_schedutil.c; only sugov_iowait_reset() uses it */
#define IOWAIT_BOOST_MIN	(SCHED_CAPACITY_SCALE / 8)

enum uclamp_id { UCLAMP_MIN, UCLAMP_MAX, UCLAMP_CNT };	/* include/linux/sched.h */
enum schedutil_type { FREQUENCY_UTIL, ENERGY_UTIL };	/* 5.10 kernel/sched/sched.h */

struct task_struct;
struct cpufreq_policy { int cpu; };
struct update_util_data { void *func; };
struct rt_rq { unsigned int rt_nr_running; int rt_queued; };
struct sched_avg {
	unsigned long util_avg;
	struct { unsigned int enqueued; } util_est;
};
struct rq {
	int cpu;
	struct { struct sched_avg avg; } cfs;
	struct rt_rq rt;
	struct { u64 running_bw; } dl;
	struct sched_avg avg_rt, avg_dl, avg_irq;
	struct { unsigned int value; } uclamp[UCLAMP_CNT];
};
/* what struct sugov_policy embeds (kernel text), unused by the perf path */
struct list_head { struct list_head *next, *prev; };
typedef struct { } raw_spinlock_t;
struct irq_work { };
struct kthread_work { };
struct mutex { };
struct kthread_worker { };
struct sugov_tunables;
struct sugov_policy;
struct sugov_cpu;

static const struct sg_in *sg_in;
static struct sg_out *sg_out;
static struct rq sg_rq;
static bool sched_uclamp_used;

#define cpu_rq(cpu)	(&sg_rq)

static inline unsigned long arch_scale_cpu_capacity(int cpu) { return sg_in->cap; }
static inline unsigned long tick_nohz_get_idle_calls_cpu(int cpu)
{
	return sg_in->busy ? 1000 : 1001;	/* saved_idle_calls is 1000 */
}
static inline bool sugov_should_update_freq(struct sugov_policy *p, u64 t) { return true; }
static inline void sugov_iowait_boost(struct sugov_cpu *c, u64 t, unsigned int f) { }

static void cpufreq_driver_adjust_perf(struct cpufreq_policy *policy,
				       unsigned long min_perf, unsigned long target_perf,
				       unsigned long max_perf, unsigned long capacity)
{
	*sg_out = (struct sg_out){ min_perf, target_perf, max_perf, capacity,
				   0, sg_out->calls + 1 };
}

/* The frequency path: not reached, arch_scale_freq_invariant() is true. */
static void sugov_update_single_freq(struct update_util_data *hook, u64 time,
				     unsigned int flags)
{
	abort();
}

#if SG_M73
static inline void ignore_dl_rate_limit(struct sugov_cpu *sg_cpu) { }
/* 7.3's cpu_util() returns at most the capacity (fair.c) */
static inline unsigned long cpu_util_cfs(int cpu) { return min(sg_in->cfs, sg_in->cap); }
static inline unsigned long cpu_util_cfs_boost(int cpu) { return min(sg_in->cfs, sg_in->cap); }
static inline bool scx_switched_all(void) { return false; }
static inline unsigned long scx_cpuperf_target(int cpu) { return 0; }
#else
static inline void ignore_dl_rate_limit(struct sugov_cpu *c, struct sugov_policy *p) { }

/* Only for FREQUENCY_UTIL; the perf path asks for ENERGY_UTIL. */
static inline unsigned long uclamp_rq_util_with(struct rq *rq, unsigned long util,
						struct task_struct *p)
{
	abort();
}
#endif

#include SG_TEXT

static struct cpufreq_policy sg_cpufreq_policy;
static struct sugov_policy sg_policy = { .policy = &sg_cpufreq_policy };
static struct sugov_cpu sg_cpu;

static void sg_update(const struct sg_in *in, struct sg_out *out)
{
	sg_in = in;
	sg_out = out;
	*out = (struct sg_out){ 0 };
	sg_rq = (struct rq){ 0 };
	sg_rq.cfs.avg.util_avg = in->cfs;
	sg_rq.avg_rt.util_avg = in->rt;
	sg_rq.avg_dl.util_avg = in->dl;
	sg_rq.avg_irq.util_avg = in->irq;
	sg_rq.dl.running_bw = (u64)in->bw_dl << (BW_SHIFT - SCHED_CAPACITY_SHIFT);
	sg_rq.rt.rt_queued = in->rt_runnable;
	sg_rq.rt.rt_nr_running = in->rt_runnable;
	sg_rq.uclamp[UCLAMP_MIN].value = in->uclamp_min;
	sg_rq.uclamp[UCLAMP_MAX].value = in->uclamp_max;
	sched_uclamp_used = in->uclamp_used;
	sg_cpu = (struct sugov_cpu){
		.sg_policy = &sg_policy, .util = in->prev,
		.iowait_boost = in->boost, .iowait_boost_pending = true,
		.last_update = 1, .saved_idle_calls = 1000,
	};
	sugov_update_single_perf(&sg_cpu.update_util, 2, 0);
	out->util = sg_cpu.util;
}

const struct sg_side SG_SYM = {
	.name = SG_NAME,
	.update = sg_update,
};
