// SPDX-License-Identifier: GPL-2.0
/*
 * The per-update paths of the trace replay, in user space.
 *
 * (a) the series is compiled from kernel text: h6_path_perf() computes
 * schedutil's hints (7.3's bounds without uclamp, as the series' governor
 * does) and calls the series' own intel_cpufreq_adjust_perf(), extracted
 * from KSRC's intel_pstate.c into callback.c (see callback.c, extract.awk).
 *
 * (b) and (c) are models, re-expressed here because the code they model is
 * not in any tree the harness has (c) or is static in a file that the
 * harness does not extract (b); they serve the replay table and the plots,
 * not a cost claim:
 *  - (b) the 5.10 frequency path: intel_cpufreq_fast_switch(),
 *    update_turbo_state(), intel_cpufreq_update_pstate(),
 *    intel_pstate_prepare_request() and intel_cpufreq_adjust_hwp() of base
 *    5.10, cpufreq_driver_resolve_freq() (for intel_cpufreq, which has
 *    neither ->target_index nor ->resolve_freq, exactly clamp_val(freq,
 *    policy->min, policy->max)), with map_util_freq() from KSRC's
 *    include/linux/sched/cpufreq.h;
 *  - (c) the December 2020 v2 ->adjust_perf() written from DESIGN.md
 *    section 5.
 * rdmsrl()/wrmsrl() of the models are counters on an in-memory register.
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/types.h>
#include <asm/msr-index.h>

#define CONFIG_CPU_FREQ 1
#include <linux/sched/cpufreq.h>
#include "intel_pstate_perf.h"

#include "paths.h"
#include "callback.h"

struct h6_cpu h6_cpu;
struct h6_global h6_global;
u64 h6_msr_misc_enable, h6_msr_hwp_request;
unsigned long h6_msr_reads, h6_msr_writes;
#ifdef H6_COUNT_DIV
unsigned long h6_div_count;
#endif

#define rdmsrl(msr, val) do {						\
	h6_msr_reads++;							\
	(val) = (msr) == MSR_IA32_MISC_ENABLE ? READ_ONCE(h6_msr_misc_enable) : 0; \
} while (0)
#define wrmsrl(msr, val) do {						\
	h6_msr_writes++;						\
	if ((msr) == MSR_HWP_REQUEST)					\
		WRITE_ONCE(h6_msr_hwp_request, (val));			\
} while (0)

#define H6_PATH __attribute__((noinline, noipa, used))

/*
 * intel_pstate_perf_ref() of the series, cached by intel_pstate_get_hwp_max()
 * with the capabilities: round(max_pstate_physical * arch_get_max_freq_ratio()
 * / 1024), clamped to 1..255.  The model's base level (max_pstate_physical) is
 * the guaranteed one.
 */
static int h6_perf_ref(int max_pstate_physical, unsigned long max_freq_ratio)
{
	u64 ref = (u64)max_pstate_physical * max_freq_ratio;

	ref = (ref + SCHED_CAPACITY_SCALE / 2) / SCHED_CAPACITY_SCALE;

	return clamp_t(u64, ref, 1, HWP_HIGHEST_PERF(~0ULL));
}

void h6_model_init(int lowest, int guaranteed, int highest)
{
	struct h6_cpu *cpu = &h6_cpu;

	cpu->min_pstate = lowest;
	cpu->max_pstate = guaranteed;
	cpu->turbo_pstate = highest;
	cpu->scaling = 100000;
	cpu->current_pstate = lowest;
	cpu->min_perf_ratio = lowest;
	cpu->max_perf_ratio = highest;
	cpu->hwp_cap_cached = (u64)highest | (u64)guaranteed << 8 |
			      (u64)lowest << 24 | (u64)lowest << 16;
	/*
	 * Turbo on, and the invariance reference ratio that of the highest
	 * level, highest * 1024 / guaranteed (truncated, as the kernel
	 * computes it): the reference rounds back to exactly the highest level
	 * (for any guaranteed level below 512), so ref == cap and the levels
	 * are those of the series before the reference existed.
	 */
	cpu->hwp_perf_ref = h6_perf_ref(guaranteed,
					(unsigned long)highest * SCHED_CAPACITY_SCALE / guaranteed);
	/* EPP 0x80 (balance_performance) and the rest as the driver leaves it */
	cpu->hwp_req_cached = 0x80ULL << 24 | (u64)highest << 8 | lowest;
	cpu->policy_min = lowest * cpu->scaling;
	cpu->policy_max = highest * cpu->scaling;
	cpu->cpuinfo_max_freq = highest * cpu->scaling;
	cpu->strict_target = false;
	h6_global.no_turbo = false;
	h6_global.turbo_disabled = false;
	h6_msr_misc_enable = 0;
	h6_msr_hwp_request = cpu->hwp_req_cached;
	h6_msr_reads = h6_msr_writes = 0;
}

/* The state of the model as the callbacks of callback.c take it. */
void h6_model_get(struct h6_model *m)
{
	const struct h6_cpu *cpu = &h6_cpu;

	*m = (struct h6_model){
		.lowest = cpu->min_pstate,
		.guaranteed = cpu->max_pstate,
		.highest = cpu->turbo_pstate,
		.min_ratio = cpu->min_perf_ratio,
		.max_ratio = cpu->max_perf_ratio,
		.ref = cpu->hwp_perf_ref,
		.scaling = cpu->scaling,
		.no_turbo = h6_global.no_turbo,
		.turbo_disabled = h6_global.turbo_disabled,
		.dec = false,
		.req = cpu->hwp_req_cached,
	};
}

/* ---- (a) the series: its own callback (callback.c) ----------------------- */

H6_PATH void h6_path_perf(unsigned long util, unsigned long dl_bw,
			  unsigned long capacity)
{
	/*
	 * sugov_update_single_perf() without uclamp: the DEADLINE bandwidth
	 * required, without headroom; the capacity allowed; the target with
	 * headroom within them.
	 */
	unsigned long target = min(map_util_perf(util), capacity);

	h6_cb_series.adjust_perf(h6_cb_series.policy, dl_bw, max(target, dl_bw),
				 capacity, capacity);
}

/* ---- (b) the 5.10 frequency path ---------------------------------------- */

/* update_turbo_state() of 5.10: an MSR read on every fast switch */
static inline void h6_update_turbo_state(struct h6_cpu *cpu)
{
	u64 misc_en;

	rdmsrl(MSR_IA32_MISC_ENABLE, misc_en);
	h6_global.turbo_disabled =
		(misc_en & MSR_IA32_MISC_ENABLE_TURBO_DISABLE ||
		 cpu->max_pstate == cpu->turbo_pstate);
}

/* intel_pstate_prepare_request() */
static int h6_prepare_request(struct h6_cpu *cpu, int pstate)
{
	int min_pstate = max(cpu->min_pstate, cpu->min_perf_ratio);
	int max_pstate = max(min_pstate, cpu->max_perf_ratio);

	return clamp_t(int, pstate, min_pstate, max_pstate);
}

/* intel_cpufreq_adjust_hwp(), fast_switch = true */
static void h6_adjust_hwp(struct h6_cpu *cpu, u32 target_pstate, bool strict)
{
	u64 prev = READ_ONCE(cpu->hwp_req_cached), value = prev;

	value &= ~HWP_MIN_PERF(~0L);
	value |= HWP_MIN_PERF(target_pstate);

	value &= ~HWP_MAX_PERF(~0L);
	value |= HWP_MAX_PERF(strict ? target_pstate : cpu->max_perf_ratio);

	if (value == prev)
		return;

	WRITE_ONCE(cpu->hwp_req_cached, value);
	wrmsrl(MSR_HWP_REQUEST, value);
}

/* intel_cpufreq_fast_switch() + intel_cpufreq_update_pstate() (hwp_active) */
static unsigned int h6_fast_switch(struct h6_cpu *cpu, unsigned int target_freq)
{
	int target_pstate;

	h6_update_turbo_state(cpu);

	target_pstate = DIV_ROUND_UP(target_freq, cpu->scaling);

	target_pstate = h6_prepare_request(cpu, target_pstate);
	h6_adjust_hwp(cpu, target_pstate, cpu->strict_target);
	cpu->current_pstate = target_pstate;

	return target_pstate * cpu->scaling;
}

H6_PATH void h6_path_freq(unsigned long util, unsigned long dl_bw,
			  unsigned long capacity)
{
	struct h6_cpu *cpu = &h6_cpu;
	unsigned long freq;

	/*
	 * get_next_freq(): util already includes the deadline bandwidth
	 * (schedutil_cpu_util() adds it); the frequency path has no separate
	 * minimum, so dl_bw is not used here.
	 */
	(void)dl_bw;
	freq = map_util_freq(util, cpu->cpuinfo_max_freq, capacity);
#ifdef H6_COUNT_DIV
	h6_div_count++;		/* the '/' in map_util_freq() */
#endif
	/* cpufreq_driver_resolve_freq() for intel_cpufreq: a clamp */
	freq = clamp_val(freq, cpu->policy_min, cpu->policy_max);
	h6_fast_switch(cpu, freq);
}

/* ---- (c) the December 2020 v2 ->adjust_perf() ----------------------------- */

/*
 * Written from DESIGN.md section 5: turbo state refreshed by an MSR read on
 * every call; cap from the static P-state limits (pstate.turbo_pstate, or
 * pstate.max_pstate with turbo off) instead of the cached HWP capabilities;
 * min not capped at the policy maximum.  Its mapping divides whenever
 * perf < capacity (no shortcut at full scale).
 */
static void h6_adjust_hwp_v2(struct h6_cpu *cpu, u32 min, u32 max, u32 desired)
{
	u64 prev = READ_ONCE(cpu->hwp_req_cached), value = prev;

	value &= ~HWP_MIN_PERF(~0L);
	value |= HWP_MIN_PERF(min);

	value &= ~HWP_MAX_PERF(~0L);
	value |= HWP_MAX_PERF(max);

	value &= ~HWP_DESIRED_PERF(~0L);
	value |= HWP_DESIRED_PERF(desired);

	if (value == prev)
		return;

	WRITE_ONCE(cpu->hwp_req_cached, value);
	wrmsrl(MSR_HWP_REQUEST, value);
}

static void h6_adjust_perf_v2(unsigned long min_perf, unsigned long target_perf,
			      unsigned long capacity)
{
	struct h6_cpu *cpu = &h6_cpu;
	int cap_pstate, min_pstate, max_pstate, target_pstate;

	h6_update_turbo_state(cpu);
	cap_pstate = h6_global.turbo_disabled ? cpu->max_pstate :
						cpu->turbo_pstate;

	target_pstate = cap_pstate;
	if (target_perf < capacity)
		target_pstate = DIV_ROUND_UP(cap_pstate * target_perf, capacity);

	min_pstate = cap_pstate;
	if (min_perf < capacity)
		min_pstate = DIV_ROUND_UP(cap_pstate * min_perf, capacity);

	if (min_pstate < cpu->min_pstate)
		min_pstate = cpu->min_pstate;

	if (min_pstate < cpu->min_perf_ratio)
		min_pstate = cpu->min_perf_ratio;

	max_pstate = min(cap_pstate, cpu->max_perf_ratio);
	if (max_pstate < min_pstate)
		max_pstate = min_pstate;

	target_pstate = clamp_t(int, target_pstate, min_pstate, max_pstate);

	h6_adjust_hwp_v2(cpu, min_pstate, max_pstate, target_pstate);
	cpu->current_pstate = target_pstate;
}

H6_PATH void h6_path_v2(unsigned long util, unsigned long dl_bw,
			unsigned long capacity)
{
	h6_adjust_perf_v2(map_util_perf(dl_bw), map_util_perf(util), capacity);
}
