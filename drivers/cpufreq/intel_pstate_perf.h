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
 *	 utilization; performance hints are scaled to it.
 * @cap: Highest level the CPU can run at: the highest HWP level, or the
 *	 guaranteed one when turbo is not available.  No level of the request
 *	 is above it.  It may be below @ref (on a CPU slower than the others,
 *	 with HWP guaranteed below the base level of the invariance reference,
 *	 or when turbo was turned off without updating the reference yet), and
 *	 above it.
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
 * @ref: HWP level corresponding to @capacity, at most 255.
 *
 * Return: the lowest HWP level that provides at least @perf, that is
 * @ref * @perf / @capacity rounded up, or @ref if @perf is not below
 * @capacity.  There is no division when @capacity is SCHED_CAPACITY_SCALE,
 * the capacity of every CPU of a symmetric system.
 */
static inline int hwp_perf_scale(unsigned long perf, unsigned long capacity,
				 int ref)
{
	if (perf >= capacity)
		return ref;

	if (!perf)
		return 0;

	if (capacity == SCHED_CAPACITY_SCALE)
		return ((unsigned long)ref * perf + SCHED_CAPACITY_SCALE - 1) >>
			SCHED_CAPACITY_SHIFT;

	return DIV_ROUND_UP((unsigned long)ref * perf, capacity);
}

/**
 * hwp_perf_select - Choose HWP levels for a set of performance hints.
 * @lim: Bounds of the request.
 * @min_perf: Required performance, in the units of @capacity.
 * @target_perf: Desired performance, in the units of @capacity.
 * @max_perf: Highest performance allowed, in the units of @capacity.
 * @capacity: Capacity of the CPU (see hwp_perf_scale()).
 *
 * The hints are scaled to @lim->ref; a hint at or above @capacity asks for
 * @lim->cap (for @max_perf: no limit).  The minimum is the level required by
 * @min_perf, raised to the lowest level and to the policy minimum, and then
 * lowered to @lim->cap and to the policy maximum: neither a hint nor a floor
 * asks for more than the CPU can run at, and the policy maximum takes
 * precedence over everything else.  The maximum is the level allowed by
 * @max_perf, lowered to @lim->cap and to the policy maximum, but never below
 * the minimum.  The desired level is the one that provides @target_perf (the
 * maximum for a hint at or above @capacity), within the minimum and the
 * maximum.  So MIN <= DESIRED <= MAX <= min(@lim->cap, policy maximum) for
 * every input.
 *
 * Return: the levels to put into the HWP request.
 */
static inline struct hwp_perf_levels
hwp_perf_select(const struct hwp_perf_limits *lim, unsigned long min_perf,
		unsigned long target_perf, unsigned long max_perf,
		unsigned long capacity)
{
	struct hwp_perf_levels l;

	/*
	 * Full demand asks for the highest level the CPU can run at, which may
	 * be above the reference: utilization saturates at the capacity once
	 * the CPU runs at the reference level, so no hint can ask for more.
	 * Where the reference is above that level, a hint below the capacity
	 * may map above it, and so may a floor: none of them may take MIN
	 * (and with it MAX) above what the CPU can run at.
	 */
	if (min_perf >= capacity)
		l.min = lim->cap;
	else
		l.min = hwp_perf_scale(min_perf, capacity, lim->ref);
	l.min = max3(l.min, lim->lowest, lim->min_ratio);
	l.min = min3(l.min, lim->cap, lim->max_ratio);

	l.max = min(lim->cap, lim->max_ratio);
	if (max_perf < capacity)
		l.max = min(l.max, hwp_perf_scale(max_perf, capacity, lim->ref));
	l.max = max(l.max, l.min);

	if (target_perf >= capacity)
		l.desired = l.max;
	else
		l.desired = hwp_perf_scale(target_perf, capacity, lim->ref);
	l.desired = clamp(l.desired, l.min, l.max);

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
	req &= ~(u64)(HWP_MIN_PERF(~0UL) | HWP_MAX_PERF(~0UL) |
		      HWP_DESIRED_PERF(~0UL));

	return req | HWP_MIN_PERF(l->min) | HWP_MAX_PERF(l->max) |
	       HWP_DESIRED_PERF(l->desired);
}

#endif /* __INTEL_PSTATE_PERF_H__ */
