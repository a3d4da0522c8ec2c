/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * intel_pstate: mapping of the scheduler's performance hints onto HWP levels.
 *
 * This is arithmetic only, with no access to the hardware or to the driver's
 * state, so that it can be tested on its own, in KUnit and in user space.
 */
#ifndef __INTEL_PSTATE_PERF_H__
#define __INTEL_PSTATE_PERF_H__

#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/types.h>
#include <asm/msr-index.h>

/**
 * struct hwp_perf_limits - Bounds of an HWP request, as HWP levels.
 * @ref: Level at which the CPU has its full capacity in frequency-invariant
 *	 utilization; performance hints below the capacity are scaled to it.
 * @cap: Highest level the CPU can run at: the highest HWP level, or the
 *	 guaranteed one when turbo is not available.  No hint asks for more,
 *	 and full demand asks for it.  It may be above @ref (a highest level
 *	 above the turbo ratio that invariance uses) and below it (a CPU slower
 *	 than the others, HWP guaranteed below the base level, turbo turned off
 *	 before the reference follows).
 * @lowest: Lowest level the driver requests.
 * @min_ratio: Policy minimum.
 * @max_ratio: Policy maximum.
 */
struct hwp_perf_limits {
	int ref;
	int cap;
	int lowest;
	int min_ratio;
	int max_ratio;
};

/**
 * struct hwp_perf_levels - Levels for the MIN, MAX and DESIRED HWP fields.
 * @min: Lowest level the processor may select.
 * @max: Highest level the processor may select.
 * @desired: Level the processor is asked to run at.
 */
struct hwp_perf_levels {
	int min;
	int max;
	int desired;
};

/**
 * hwp_perf_scale - Convert a performance hint into an HWP level.
 * @perf: Performance hint, in the units of @capacity.
 * @capacity: Capacity of the CPU, at most ULONG_MAX / 256 (the scheduler
 *	      never uses more than SCHED_CAPACITY_SCALE).
 * @level: HWP level corresponding to @capacity, at most 255.
 *
 * Return: the lowest HWP level that provides at least @perf, that is
 * @level * @perf / @capacity rounded up, or @level if @perf is not below
 * @capacity.  There is no division when @capacity is SCHED_CAPACITY_SCALE,
 * the capacity of every CPU of a symmetric system.
 */
static inline int hwp_perf_scale(unsigned long perf, unsigned long capacity,
				 int level)
{
	if (perf >= capacity)
		return level;

	if (!perf)
		return 0;

	if (capacity == SCHED_CAPACITY_SCALE)
		return ((unsigned long)level * perf + SCHED_CAPACITY_SCALE - 1) >>
			SCHED_CAPACITY_SHIFT;

	return DIV_ROUND_UP((unsigned long)level * perf, capacity);
}

/**
 * hwp_perf_hint - The HWP level for one performance hint.
 * @lim: Bounds of the request.
 * @perf: Performance hint, in the units of @capacity.
 * @capacity: Capacity of the CPU (see hwp_perf_scale()).
 *
 * Utilization is frequency-invariant against @lim->ref: a CPU running at
 * level L reports L / @lim->ref of its capacity while busy.  So a hint below
 * @capacity is scaled to @lim->ref, which gives the level that provides it,
 * and lowered to @lim->cap; a hint at or above @capacity asks for @lim->cap,
 * since utilization saturates at the capacity once the CPU runs at the
 * reference, and no hint can ask for more.
 *
 * Return: @perf scaled to @lim->ref, rounded up, at most @lim->cap;
 * @lim->cap for a hint at or above @capacity.
 */
static inline int hwp_perf_hint(const struct hwp_perf_limits *lim,
				unsigned long perf, unsigned long capacity)
{
	if (perf >= capacity)
		return lim->cap;

	return min(hwp_perf_scale(perf, capacity, lim->ref), lim->cap);
}

/**
 * hwp_perf_select - Choose HWP levels for a set of performance hints.
 * @lim: Bounds of the request.
 * @min_perf: Required performance, in the units of @capacity.
 * @target_perf: Desired performance, in the units of @capacity.
 * @max_perf: Highest performance allowed, in the units of @capacity.
 * @capacity: Capacity of the CPU (see hwp_perf_scale()).
 *
 * Each hint is mapped by hwp_perf_hint().  The minimum is the level required
 * by @min_perf, raised to the lowest level and to the policy minimum, and
 * then lowered to @lim->cap and to the policy maximum, which takes precedence
 * over everything else: a floor never asks for more than the CPU can run at.
 * The maximum is the level allowed by @max_perf, lowered to the policy
 * maximum, but never below the minimum.  The desired level is the one that
 * provides @target_perf, within the minimum and the maximum.  So
 * MIN <= DESIRED <= MAX <= min(@lim->cap, policy maximum) for every input.
 *
 * Return: the levels to put into the HWP request.
 */
static inline struct hwp_perf_levels
hwp_perf_select(const struct hwp_perf_limits *lim, unsigned long min_perf,
		unsigned long target_perf, unsigned long max_perf,
		unsigned long capacity)
{
	struct hwp_perf_levels l;

	l.min = max3(hwp_perf_hint(lim, min_perf, capacity), lim->lowest,
		     lim->min_ratio);
	l.min = min3(l.min, lim->cap, lim->max_ratio);

	l.max = min(hwp_perf_hint(lim, max_perf, capacity), lim->max_ratio);
	l.max = max(l.max, l.min);

	l.desired = clamp(hwp_perf_hint(lim, target_perf, capacity), l.min,
			  l.max);

	return l;
}

/**
 * hwp_perf_request - Put HWP levels into an HWP_REQUEST value.
 * @req: Current value of the HWP_REQUEST register.
 * @l: Levels to put into it.
 *
 * Return: @req with its MIN, MAX and DESIRED fields replaced by those in @l;
 * the energy-performance preference and all other fields are kept.
 */
static inline u64 hwp_perf_request(u64 req, const struct hwp_perf_levels *l)
{
	req &= ~(u64)(HWP_MIN_PERF(~0L) | HWP_MAX_PERF(~0L) |
		      HWP_DESIRED_PERF(~0L));

	return req | HWP_MIN_PERF(l->min) | HWP_MAX_PERF(l->max) |
	       HWP_DESIRED_PERF(l->desired);
}

/**
 * hwp_perf_floor - Turn the levels for a set of hints into a floor request.
 * @l: Levels chosen by hwp_perf_select().
 *
 * The level that provides the desired performance becomes the minimum, and
 * DESIRED is left at 0, so that the processor may select any level between
 * that floor and the maximum, as the request for a target frequency let it
 * before the driver set DESIRED on the frequency path.  MIN stays within
 * [the required level, MAX], because DESIRED was.
 */
static inline void hwp_perf_floor(struct hwp_perf_levels *l)
{
	l->min = l->desired;
	l->desired = 0;
}

#endif /* __INTEL_PSTATE_PERF_H__ */
