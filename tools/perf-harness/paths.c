// SPDX-License-Identifier: GPL-2.0
/*
 * The three per-update paths, compiled in user space.
 *
 * What comes from the kernel tree (KSRC), unmodified:
 *  - drivers/cpufreq/intel_pstate_perf.h: hwp_perf_select(), hwp_perf_scale(),
 *    hwp_perf_request() (the series);
 *  - include/linux/sched/cpufreq.h: map_util_perf() and map_util_freq()
 *    (map_util_freq() is arithmetically the base's (freq + (freq >> 2)) *
 *    util / cap; the series only names the headroom);
 *  - arch/x86/include/asm/msr-index.h: HWP_* field macros, MSR numbers.
 *
 * What is re-expressed here, because it is static in intel_pstate.c (which
 * cannot be built in user space): intel_cpufreq_adjust_perf() with
 * intel_cpufreq_perf_request()/intel_cpufreq_hwp_limits() and the
 * invariance reference of intel_pstate_perf_ref() (series),
 * intel_cpufreq_fast_switch(), update_turbo_state(),
 * intel_cpufreq_update_pstate(), intel_pstate_prepare_request() and
 * intel_cpufreq_adjust_hwp() (base 5.10), cpufreq_driver_resolve_freq()
 * (for intel_cpufreq, which has neither ->target_index nor ->resolve_freq,
 * it is exactly clamp_val(freq, policy->min, policy->max)), and the v2
 * ->adjust_perf() written from DESIGN.md section 5.  Tracing (a disabled
 * tracepoint, a patched-out jump) and the schedutil bookkeeping around the
 * driver call are left out of all three alike.
 *
 * rdmsrl()/wrmsrl() are modelled as counters on an in-memory register.
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/types.h>
#include <asm/msr-index.h>

#define CONFIG_CPU_FREQ 1
#include <linux/sched/cpufreq.h>
#include "intel_pstate_perf.h"

#include "paths.h"

struct h6_cpu h6_cpu;
struct h6_global h6_global;
u64 h6_msr_misc_enable, h6_msr_hwp_request;
unsigned long h6_msr_reads, h6_msr_writes;
unsigned int h6_policy_cur;
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

/* ---- (a) the series ---------------------------------------------------- */

/* intel_cpufreq_hwp_limits() of the series: cached values only */
static struct hwp_perf_limits h6_hwp_limits(struct h6_cpu *cpu)
{
	u64 hwp_cap = READ_ONCE(cpu->hwp_cap_cached);
	struct hwp_perf_limits lim = {
		.ref = READ_ONCE(cpu->hwp_perf_ref),
		.lowest = cpu->min_pstate,
		.min_ratio = READ_ONCE(cpu->min_perf_ratio),
		.max_ratio = READ_ONCE(cpu->max_perf_ratio),
	};

	if (READ_ONCE(h6_global.no_turbo) || READ_ONCE(h6_global.turbo_disabled))
		lim.cap = HWP_GUARANTEED_PERF(hwp_cap);
	else
		lim.cap = HWP_HIGHEST_PERF(hwp_cap);

	return lim;
}

/* intel_cpufreq_perf_request() + intel_cpufreq_adjust_perf() of the series */
static void h6_adjust_perf(unsigned long min_perf, unsigned long target_perf,
			   unsigned long max_perf, unsigned long capacity)
{
	struct h6_cpu *cpu = &h6_cpu;
	struct hwp_perf_limits lim = h6_hwp_limits(cpu);
	struct hwp_perf_levels l;
	u64 prev = READ_ONCE(cpu->hwp_req_cached), value;

	l = hwp_perf_select(&lim, min_perf, target_perf, max_perf, capacity);
	value = hwp_perf_request(prev, &l);
	cpu->current_pstate = l.desired;

	if (value != prev) {
		WRITE_ONCE(cpu->hwp_req_cached, value);
		wrmsrl(MSR_HWP_REQUEST, value);
	}
	/* policy->cur follows the request */
	WRITE_ONCE(h6_policy_cur, cpu->current_pstate * cpu->scaling);
}

H6_PATH void h6_path_perf(unsigned long util, unsigned long dl_bw,
			  unsigned long capacity)
{
	/*
	 * sugov_update_single_perf() without uclamp: the DEADLINE bandwidth
	 * required, without headroom; the capacity allowed; the target with
	 * headroom within them.
	 */
	unsigned long target = min(map_util_perf(util), capacity);

	h6_adjust_perf(dl_bw, max(target, dl_bw), capacity, capacity);
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

/* ---- (d) mainline 7.3 ->adjust_perf() ------------------------------------ */

/*
 * Written from Debian's linux-source-7.3 (7.3.4), intel_cpufreq_adjust_perf()
 * and intel_cpufreq_hwp_update(), in our words: the capacity level is the
 * highest HWP level from the cached capabilities, or the guaranteed one with
 * no_turbo (no MSR read, no reference ratio: the hints are scaled to the
 * capacity level itself); a hint below the capacity is scaled with a
 * rounded-up division; MIN is raised to the lowest level and the policy
 * minimum and capped at the policy maximum; MAX comes from max_perf the same
 * way, is capped at the policy maximum and raised to MIN; DESIRED is
 * clamped to them and masked with a global mask (0 where DESIRED is not
 * used); policy->cur is not updated.  The governor's side is 7.3's
 * schedutil without uclamp: the DEADLINE bandwidth required, without
 * headroom, the capacity allowed, the target with headroom within them.
 */
static u32 h6_hwp_desired_mask = ~0U;

static void h6_hwp_update_m73(struct h6_cpu *cpu, u32 min, u32 max, u32 desired)
{
	u64 prev = READ_ONCE(cpu->hwp_req_cached), value;

	value = prev & ~(u64)(HWP_MIN_PERF(~0L) | HWP_MAX_PERF(~0L) |
			      HWP_DESIRED_PERF(~0L));
	value |= HWP_MIN_PERF(min) | HWP_MAX_PERF(max) |
		 HWP_DESIRED_PERF(desired & READ_ONCE(h6_hwp_desired_mask));

	if (value == prev)
		return;

	WRITE_ONCE(cpu->hwp_req_cached, value);
	wrmsrl(MSR_HWP_REQUEST, value);
}

static int h6_scale_m73(unsigned long perf, unsigned long capacity, int cap_pstate)
{
	if (perf >= capacity)
		return cap_pstate;
	return DIV_ROUND_UP(cap_pstate * perf, capacity);
}

static void h6_adjust_perf_m73(unsigned long min_perf, unsigned long target_perf,
			       unsigned long max_perf, unsigned long capacity)
{
	struct h6_cpu *cpu = &h6_cpu;
	u64 hwp_cap = READ_ONCE(cpu->hwp_cap_cached);
	int cap_pstate, min_pstate, max_pstate, target_pstate;

	cap_pstate = READ_ONCE(h6_global.no_turbo) ? HWP_GUARANTEED_PERF(hwp_cap) :
						      HWP_HIGHEST_PERF(hwp_cap);

	target_pstate = h6_scale_m73(target_perf, capacity, cap_pstate);
	min_pstate = h6_scale_m73(min_perf, capacity, cap_pstate);
	min_pstate = max(min_pstate, cpu->min_pstate);
	min_pstate = max(min_pstate, cpu->min_perf_ratio);
	min_pstate = min(min_pstate, cpu->max_perf_ratio);

	max_pstate = h6_scale_m73(max_perf, capacity, cap_pstate);
	max_pstate = min(max_pstate, cpu->max_perf_ratio);
	max_pstate = max(max_pstate, min_pstate);

	target_pstate = clamp_t(int, target_pstate, min_pstate, max_pstate);

	h6_hwp_update_m73(cpu, min_pstate, max_pstate, target_pstate);
	cpu->current_pstate = target_pstate;
}

H6_PATH void h6_path_m73(unsigned long util, unsigned long dl_bw,
			 unsigned long capacity)
{
	unsigned long target = min(map_util_perf(util), capacity);

	h6_adjust_perf_m73(dl_bw, max(target, dl_bw), capacity, capacity);
}
