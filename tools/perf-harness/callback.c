// SPDX-License-Identifier: GPL-2.0
/*
 * One ->adjust_perf callback from kernel text (H6_CB_TEXT: series.fns or m73.fns extracted
 * from an intel_pstate.c), after its shims (perf-harness.md); h6_cb_series from KSRC,
 * h6_cb_m73 from 7.3. h6_init() writes the statics, so the compiler cannot assume them;
 * the trace calls are empty, as the kernel's behind their static keys.
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/types.h>
#include <asm/msr-index.h>

#include "intel_pstate_perf.h"	/* series: hwp_perf_select() etc.; unused by 7.3 */
#include "callback.h"

#define __read_mostly
#define __ro_after_init

struct pstate_data {
	int	current_pstate;
	int	min_pstate;
	int	max_pstate;
	int	max_pstate_physical;
	int	scaling;
	int	turbo_pstate;
	unsigned int max_freq;
	unsigned int turbo_freq;
};

struct cpudata {
	int cpu;
	struct pstate_data pstate;
	int32_t	min_perf_ratio;
	int32_t	max_perf_ratio;
	u64 hwp_req_cached;
	u64 hwp_cap_cached;
	int hwp_perf_ref;	/* series */
	u32 hwp_perf_ratios;	/* series */
};

struct global_params {
	bool no_turbo;
	bool turbo_disabled;
	int max_perf_pct;
	int min_perf_pct;
};

struct cpufreq_policy {
	unsigned int cpu;
	unsigned int cur;
};

static struct cpudata **all_cpu_data;
static struct global_params global;
static bool hwp_dec __ro_after_init;
static bool adjust_perf_floor __read_mostly;	/* series */
static u32 hwp_desired_mask __read_mostly = ~0U;

static u64 h6_msr_value;
static unsigned long h6_msr_count;

static inline void h6_wrmsr(unsigned int msr, u64 val)
{
	WRITE_ONCE(h6_msr_value, val);
	h6_msr_count++;
}
#define wrmsrl(msr, val)		h6_wrmsr((msr), (val))
#define wrmsrq(msr, val)		h6_wrmsr((msr), (val))
#define wrmsrq_on_cpu(cpu, msr, val)	h6_wrmsr((msr), (val))

#define	INTEL_PSTATE_TRACE_TARGET 10
#define	INTEL_PSTATE_TRACE_FAST_SWITCH 90

static inline void intel_cpufreq_trace(struct cpudata *cpu, unsigned int trace_type,
				       int old_pstate)
{
}

static inline void trace_intel_pstate_adjust_perf(unsigned int cpu, unsigned long min_perf,
						  unsigned long target_perf, unsigned long max_perf,
						  unsigned long capacity, u64 request, bool written)
{
}

#include H6_CB_TEXT

static struct cpudata h6_cpudata;
static struct cpudata *h6_cpus[1] = { &h6_cpudata };
static struct cpufreq_policy h6_policy;

static void h6_init(const struct h6_model *m)
{
	struct cpudata *cpu = &h6_cpudata;

	cpu->cpu = 0;
	cpu->pstate.min_pstate = m->lowest;
	cpu->pstate.max_pstate = m->guaranteed;
	cpu->pstate.max_pstate_physical = m->guaranteed;
	cpu->pstate.turbo_pstate = m->highest;
	cpu->pstate.scaling = m->scaling;
	cpu->pstate.current_pstate = m->lowest;
	cpu->pstate.max_freq = m->guaranteed * m->scaling;
	cpu->pstate.turbo_freq = m->highest * m->scaling;
	cpu->min_perf_ratio = m->min_ratio;
	cpu->max_perf_ratio = m->max_ratio;
	/* intel_pstate_publish_perf_ratios() of the series */
	cpu->hwp_perf_ratios = (u32)(m->min_ratio & 0xffff) |
			       (u32)(m->max_ratio & 0xffff) << 16;
	cpu->hwp_cap_cached = (u64)m->highest | (u64)m->guaranteed << 8 |
			      (u64)m->lowest << 16 | (u64)m->lowest << 24;
	cpu->hwp_perf_ref = m->ref;
	cpu->hwp_req_cached = m->req;
	all_cpu_data = h6_cpus;
	global.no_turbo = m->no_turbo;
	global.turbo_disabled = m->turbo_disabled;
	/* as the drivers' init does with Dynamic Efficiency Control */
	hwp_dec = m->dec;
	adjust_perf_floor = false;	/* the series' default: mainline's request */
	hwp_desired_mask = m->dec ? 0 : ~0U;
	h6_policy.cpu = 0;
	h6_policy.cur = m->lowest * m->scaling;
	h6_msr_value = m->req;
	h6_msr_count = 0;
}

static u64 h6_msr(void) { return h6_msr_value; }
static u64 h6_cached(void) { return READ_ONCE(h6_cpudata.hwp_req_cached); }
static unsigned long h6_writes(void) { return h6_msr_count; }
static unsigned int h6_policy_cur(void) { return READ_ONCE(h6_policy.cur); }

/* The address escapes, as into struct cpufreq_driver: a function of its own. */
const struct h6_callback H6_CB_SYM = {
	.name = H6_CB_NAME,
	.adjust_perf = intel_cpufreq_adjust_perf,
	.policy = &h6_policy,
	.init = h6_init,
	.msr = h6_msr,
	.cached = h6_cached,
	.writes = h6_writes,
	.policy_cur = h6_policy_cur,
};
