// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the mapping of schedutil's performance hints onto HWP
 * levels in intel_pstate's passive mode: hwp_perf_scale(), hwp_perf_select(),
 * hwp_perf_request() and hwp_perf_floor() of intel_pstate_perf.h.
 *
 * Those are pure functions of their arguments.  The tests call them on limits
 * of their own, as intel_pstate would pass them for a CPU, and check the
 * levels and the HWP_REQUEST values they return.  They touch no state of the
 * driver and no register, so the module can be loaded on any machine, with or
 * without HWP, and whether intel_pstate is running or not.
 */

#include <kunit/test.h>
#include <linux/module.h>

#include "intel_pstate_perf.h"

#define PSTATE_TEST_EPP		0x80
/* Fields that the tested code must not touch: activity window and above. */
#define PSTATE_TEST_OTHER	(GENMASK_ULL(42, 32) | GENMASK_ULL(63, 59))
/* The MIN, MAX and DESIRED fields. */
#define PSTATE_TEST_LEVELS	GENMASK_ULL(23, 0)

/**
 * struct pstate_test_limits - A CPU as the driver describes it to the mapping.
 * @name: Label in failure messages.
 * @highest: Highest HWP level, in the cached HWP capabilities.
 * @guaranteed: Guaranteed HWP level, in the cached HWP capabilities.
 * @lowest: Lowest level the driver requests.
 * @min_ratio: Policy minimum.
 * @max_ratio: Policy maximum.
 * @no_turbo: Turbo disabled by the user (intel_pstate's no_turbo).
 * @turbo_disabled: Turbo disabled by the firmware.
 * @ref: Frequency invariance reference level, the level at which the CPU
 *	 reports its full capacity in frequency-invariant utilization; 0
 *	 stands for the capacity level, that is, a reference that follows the
 *	 turbo state as intel_pstate makes it do.  The mapping scales the hints
 *	 below the capacity to it; the busy loop takes from it the
 *	 utilization that a CPU running at a given level reports.
 */
struct pstate_test_limits {
	const char *name;
	int highest;
	int guaranteed;
	int lowest;
	int min_ratio;
	int max_ratio;
	bool no_turbo;
	bool turbo_disabled;
	int ref;
};

/* Only the mapping matters: no floor above level 1, no policy limit. */
static const struct pstate_test_limits lim_open = {
	.name = "open", .highest = 40, .guaranteed = 30,
	.lowest = 1, .min_ratio = 1, .max_ratio = 40,
};

static const struct pstate_test_limits lim_no_turbo = {
	.name = "no_turbo", .highest = 40, .guaranteed = 30,
	.lowest = 1, .min_ratio = 1, .max_ratio = 40, .no_turbo = true,
};

static const struct pstate_test_limits lim_turbo_disabled = {
	.name = "turbo_disabled", .highest = 40, .guaranteed = 30,
	.lowest = 1, .min_ratio = 1, .max_ratio = 40, .turbo_disabled = true,
};

/* A processor as found in the field. */
static const struct pstate_test_limits lim_typical = {
	.name = "typical", .highest = 45, .guaranteed = 34,
	.lowest = 8, .min_ratio = 8, .max_ratio = 45,
};

static const struct pstate_test_limits lim_lowest8 = {
	.name = "lowest 8", .highest = 40, .guaranteed = 30,
	.lowest = 8, .min_ratio = 1, .max_ratio = 40,
};

static const struct pstate_test_limits lim_policy_min16 = {
	.name = "policy min 16", .highest = 40, .guaranteed = 30,
	.lowest = 1, .min_ratio = 16, .max_ratio = 40,
};

static const struct pstate_test_limits lim_policy_max24 = {
	.name = "policy max 24", .highest = 40, .guaranteed = 30,
	.lowest = 1, .min_ratio = 1, .max_ratio = 24,
};

/* The case reported in the field: 48/48/48 written with a limit of 24. */
static const struct pstate_test_limits lim_highest48_max24 = {
	.name = "highest 48, policy max 24", .highest = 48, .guaranteed = 36,
	.lowest = 8, .min_ratio = 8, .max_ratio = 24,
};

static const struct pstate_test_limits lim_max_below_min = {
	.name = "policy max below policy min", .highest = 40, .guaranteed = 30,
	.lowest = 1, .min_ratio = 30, .max_ratio = 24,
};

static const struct pstate_test_limits lim_max_below_lowest = {
	.name = "policy max below lowest", .highest = 40, .guaranteed = 30,
	.lowest = 8, .min_ratio = 8, .max_ratio = 5,
};

/* Floors above the capacity level: MIN is lowered to it, not MAX raised. */
static const struct pstate_test_limits lim_min_above_cap = {
	.name = "policy min above cap", .highest = 40, .guaranteed = 24,
	.lowest = 1, .min_ratio = 30, .max_ratio = 40, .no_turbo = true,
};

static const struct pstate_test_limits lim_lowest_above_cap = {
	.name = "lowest above cap", .highest = 40, .guaranteed = 24,
	.lowest = 28, .min_ratio = 1, .max_ratio = 40, .no_turbo = true,
};

/* A CPU whose highest level is below the invariance reference of all CPUs. */
static const struct pstate_test_limits lim_slow_cpu = {
	.name = "slow CPU", .highest = 24, .guaranteed = 18,
	.lowest = 8, .min_ratio = 8, .max_ratio = 24, .ref = 30,
};

/* Turbo turned off by the firmware, the reference not updated (yet). */
static const struct pstate_test_limits lim_stale_ref = {
	.name = "turbo off, stale reference", .highest = 30, .guaranteed = 18,
	.lowest = 8, .min_ratio = 8, .max_ratio = 18, .turbo_disabled = true,
	.ref = 30,
};

/*
 * no_turbo just written: the guaranteed level is the highest usable one, but
 * the reference and the policy maximum are still those of turbo until the
 * policy update that follows.
 */
static const struct pstate_test_limits lim_no_turbo_window = {
	.name = "no_turbo, ref 30 above cap 18", .highest = 30, .guaranteed = 18,
	.lowest = 8, .min_ratio = 8, .max_ratio = 30, .no_turbo = true,
	.ref = 30,
};

/* HWP guaranteed 18 below the base level 20 that no_turbo makes the reference. */
static const struct pstate_test_limits lim_guaranteed_below_base = {
	.name = "no_turbo, guaranteed 18 below base 20", .highest = 30,
	.guaranteed = 18, .lowest = 8, .min_ratio = 8, .max_ratio = 20,
	.no_turbo = true, .ref = 20,
};

/* Highest (1-core turbo) above the reference (4-core turbo), as is common. */
static const struct pstate_test_limits lim_ref_below_highest = {
	.name = "ref 42 below highest 45", .highest = 45, .guaranteed = 34,
	.lowest = 8, .min_ratio = 8, .max_ratio = 45, .ref = 42,
};

/* Highest 30, guaranteed 18, with no_turbo. */
static const struct pstate_test_limits lim_emu_no_turbo = {
	.name = "no_turbo 30/18", .highest = 30, .guaranteed = 18,
	.lowest = 8, .min_ratio = 8, .max_ratio = 18, .no_turbo = true,
};

/**
 * struct pstate_test_case - One set of hints and the levels expected for it.
 * @name: Label in failure messages.
 * @lim: Limits of the CPU.
 * @capacity: Capacity of the CPU.
 * @min_perf: Required performance.
 * @target_perf: Desired performance.
 * @min: Expected MIN field.
 * @max: Expected MAX field.
 * @desired: Expected DESIRED field.
 * @max_perf: Allowed performance; 0 (not given) stands for @capacity, no
 *	      limit, which is what schedutil passes without uclamp.
 */
struct pstate_test_case {
	const char *name;
	const struct pstate_test_limits *lim;
	unsigned long capacity;
	unsigned long min_perf;
	unsigned long target_perf;
	int min;
	int max;
	int desired;
	unsigned long max_perf;
};

/**
 * struct pstate_test_cpu - A CPU in a test: its limits and its last request.
 * @lim: Bounds passed to hwp_perf_select().
 * @req: The last HWP_REQUEST value composed for the CPU, as the driver keeps
 *	 it (a plain variable here: nothing is written anywhere).
 */
struct pstate_test_cpu {
	struct hwp_perf_limits lim;
	u64 req;
};

static struct hwp_perf_levels pstate_test_levels(u64 req)
{
	struct hwp_perf_levels l = {
		.min = req & 0xff,
		.max = (req >> 8) & 0xff,
		.desired = (req >> 16) & 0xff,
	};

	return l;
}

/* A request as the driver may have left it, with all other fields set. */
static u64 pstate_test_request(int min, int max, int desired)
{
	return PSTATE_TEST_OTHER | HWP_ENERGY_PERF_PREFERENCE(PSTATE_TEST_EPP) |
	       HWP_MIN_PERF(min) | HWP_MAX_PERF(max) |
	       HWP_DESIRED_PERF(desired);
}

/*
 * The highest level the CPU can run at: the guaranteed level with turbo off,
 * the highest one otherwise, as intel_pstate takes it from the capabilities.
 */
static int pstate_test_cap(const struct pstate_test_limits *lim)
{
	if (lim->no_turbo || lim->turbo_disabled)
		return lim->guaranteed;

	return lim->highest;
}

static int pstate_test_ref(const struct pstate_test_limits *lim)
{
	return lim->ref ? lim->ref : pstate_test_cap(lim);
}

/* Set up @cpu with the bounds of @lim and @req as its last request. */
static void pstate_test_cpu(struct pstate_test_cpu *cpu,
			    const struct pstate_test_limits *lim, u64 req)
{
	cpu->lim.ref = pstate_test_ref(lim);
	cpu->lim.cap = pstate_test_cap(lim);
	cpu->lim.lowest = lim->lowest;
	cpu->lim.min_ratio = lim->min_ratio;
	cpu->lim.max_ratio = lim->max_ratio;
	cpu->req = req;
}

/*
 * Select the levels for a set of hints and compose the request from the last
 * one, as the driver does; keep it in @cpu and in *@value.  Return true if it
 * differs from the last request, that is, if the driver would write it.
 */
static bool pstate_test_perf(struct pstate_test_cpu *cpu,
			     unsigned long min_perf, unsigned long target_perf,
			     unsigned long max_perf, unsigned long capacity,
			     u64 *value)
{
	struct hwp_perf_levels l = hwp_perf_select(&cpu->lim, min_perf,
						   target_perf, max_perf,
						   capacity);
	u64 prev = cpu->req;

	*value = hwp_perf_request(prev, &l);
	cpu->req = *value;

	return *value != prev;
}

/*
 * The lowest level k with k * capacity >= perf * cap, found by counting rather
 * than by dividing, as a reference for hwp_perf_scale().
 */
static int pstate_test_ceil(unsigned long perf, unsigned long capacity, int cap)
{
	int k = 0;

	if (perf >= capacity)
		return cap;

	while ((unsigned long)k * capacity < perf * cap)
		k++;

	return k;
}

static void pstate_test_run_cases(struct kunit *test,
				  const struct pstate_test_case *cases,
				  unsigned int n)
{
	const struct pstate_test_case *c;
	struct pstate_test_cpu cpu;
	struct hwp_perf_levels l;
	u64 before = pstate_test_request(0, 0, 0), value = 0;
	bool changed;

	for (c = cases; c < cases + n; c++) {
		pstate_test_cpu(&cpu, c->lim, before);
		changed = pstate_test_perf(&cpu, c->min_perf, c->target_perf,
					   c->max_perf ?: c->capacity,
					   c->capacity, &value);
		l = pstate_test_levels(value);

		KUNIT_EXPECT_EQ_MSG(test, l.min, c->min, "%s: MIN", c->name);
		KUNIT_EXPECT_EQ_MSG(test, l.max, c->max, "%s: MAX", c->name);
		KUNIT_EXPECT_EQ_MSG(test, l.desired, c->desired,
				    "%s: DESIRED", c->name);
		KUNIT_EXPECT_TRUE_MSG(test, changed, "%s: unchanged", c->name);
		KUNIT_EXPECT_EQ_MSG(test, value & ~PSTATE_TEST_LEVELS,
				    before & ~PSTATE_TEST_LEVELS,
				    "%s: other fields", c->name);
	}
}

/* hwp_perf_scale() on its own: the level is the ceiling, never one short. */
static void intel_pstate_perf_test_scale(struct kunit *test)
{
	static const struct {
		unsigned long perf;
		unsigned long capacity;
		int cap;
		int level;
	} cases[] = {
		{ 0,         1024,  40,   0 },
		{ 1,         1024,  40,   1 },
		{ 25,        1024,  40,   1 },
		{ 26,        1024,  40,   2 },
		{ 512,       1024,  40,  20 },
		{ 513,       1024,  40,  21 },
		{ 1023,      1024,  40,  40 },
		{ 1024,      1024,  40,  40 },
		{ 1025,      1024,  40,  40 },
		{ ULONG_MAX, 1024,  40,  40 },
		{ 0,            1,  40,   0 },
		{ 1,            1,  40,  40 },
		{ ULONG_MAX,    1,  40,  40 },
		{ 1,          446,  40,   1 },
		{ 223,        446,  40,  20 },
		{ 224,        446,  40,  21 },
		{ 445,        446,  40,  40 },
		{ 446,        446,  40,  40 },
		{ ULONG_MAX,  446,  40,  40 },
		{ 100,        446,  17,   4 },
		{ 1,          768,  40,   1 },
		{ 384,        768,  40,  20 },
		{ 385,        768,  40,  21 },
		{ 767,        768,  40,  40 },
		{ 768,        768,  40,  40 },
		{ ULONG_MAX,  768,  40,  40 },
		{ 1,         1024, 255,   1 },
		{ 4,         1024, 255,   1 },
		{ 5,         1024, 255,   2 },
		{ 1019,      1024, 255, 254 },
		{ 1023,      1024, 255, 255 },
		{ 0,         1024,   1,   0 },
		{ 1,         1024,   1,   1 },
		{ 1023,      1024,   1,   1 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		KUNIT_EXPECT_EQ_MSG(test,
				    hwp_perf_scale(cases[i].perf,
						   cases[i].capacity,
						   cases[i].cap),
				    cases[i].level,
				    "perf %lu of capacity %lu, cap %d",
				    cases[i].perf, cases[i].capacity,
				    cases[i].cap);
}

/* target_perf and min_perf at the edges, for symmetric and asymmetric CPUs. */
static void intel_pstate_perf_test_hint_edges(struct kunit *test)
{
	static const struct pstate_test_case cases[] = {
		/* name                  limits   capacity min_perf target MIN MAX DES */
		{ "target 0",            &lim_open, 1024, 0, 0,            1, 40,  1 },
		{ "target 1",            &lim_open, 1024, 0, 1,            1, 40,  1 },
		{ "target capacity-1",   &lim_open, 1024, 0, 1023,         1, 40, 40 },
		{ "target capacity",     &lim_open, 1024, 0, 1024,         1, 40, 40 },
		{ "target above",        &lim_open, 1024, 0, 1025,         1, 40, 40 },
		{ "target ULONG_MAX",    &lim_open, 1024, 0, ULONG_MAX,    1, 40, 40 },
		{ "min 1",               &lim_open, 1024, 1, 0,            1, 40,  1 },
		{ "min capacity-1",      &lim_open, 1024, 1023, 0,        40, 40, 40 },
		{ "min capacity",        &lim_open, 1024, 1024, 0,        40, 40, 40 },
		{ "min above",           &lim_open, 1024, 2048, 2048,     40, 40, 40 },
		{ "min ULONG_MAX",       &lim_open, 1024, ULONG_MAX, 0,   40, 40, 40 },
		{ "both ULONG_MAX",      &lim_open, 1024, ULONG_MAX, ULONG_MAX, 40, 40, 40 },
		{ "1: target 0",         &lim_open, 1, 0, 0,               1, 40,  1 },
		{ "1: target 1",         &lim_open, 1, 0, 1,               1, 40, 40 },
		{ "1: target above",     &lim_open, 1, 0, 2,               1, 40, 40 },
		{ "1: min 1",            &lim_open, 1, 1, 0,              40, 40, 40 },
		{ "1: ULONG_MAX",        &lim_open, 1, ULONG_MAX, ULONG_MAX, 40, 40, 40 },
		{ "446: target 1",       &lim_open, 446, 0, 1,             1, 40,  1 },
		{ "446: target cap-1",   &lim_open, 446, 0, 445,           1, 40, 40 },
		{ "446: target cap",     &lim_open, 446, 0, 446,           1, 40, 40 },
		{ "446: target above",   &lim_open, 446, 0, 447,           1, 40, 40 },
		{ "446: target ULONG_MAX", &lim_open, 446, 0, ULONG_MAX,   1, 40, 40 },
		{ "446: min 1",          &lim_open, 446, 1, 0,             1, 40,  1 },
		{ "446: min cap-1",      &lim_open, 446, 445, 0,          40, 40, 40 },
		{ "446: min ULONG_MAX",  &lim_open, 446, ULONG_MAX, 0,    40, 40, 40 },
		{ "768: target 1",       &lim_open, 768, 0, 1,             1, 40,  1 },
		{ "768: target cap-1",   &lim_open, 768, 0, 767,           1, 40, 40 },
		{ "768: target cap",     &lim_open, 768, 0, 768,           1, 40, 40 },
		{ "768: target above",   &lim_open, 768, 0, 769,           1, 40, 40 },
		{ "768: target ULONG_MAX", &lim_open, 768, 0, ULONG_MAX,   1, 40, 40 },
		{ "768: min cap-1",      &lim_open, 768, 767, 0,          40, 40, 40 },
		{ "768: min cap",        &lim_open, 768, 768, 0,          40, 40, 40 },
	};

	pstate_test_run_cases(test, cases, ARRAY_SIZE(cases));
}

/* Both hints are rounded up: the request never provides less than asked. */
static void intel_pstate_perf_test_rounding(struct kunit *test)
{
	static const struct pstate_test_case cases[] = {
		/* name                  limits   capacity min_perf target MIN MAX DES */
		{ "1024: 26 -> 2",       &lim_open, 1024, 0, 26,           1, 40,  2 },
		{ "1024: 512 -> 20",     &lim_open, 1024, 0, 512,          1, 40, 20 },
		{ "1024: 513 -> 21",     &lim_open, 1024, 0, 513,          1, 40, 21 },
		{ "1024: min 513 -> 21", &lim_open, 1024, 513, 0,         21, 40, 21 },
		{ "446: 223 -> 20",      &lim_open, 446, 0, 223,           1, 40, 20 },
		{ "446: 224 -> 21",      &lim_open, 446, 0, 224,           1, 40, 21 },
		{ "446: min 224 -> 21",  &lim_open, 446, 224, 0,          21, 40, 21 },
		{ "768: 384 -> 20",      &lim_open, 768, 0, 384,           1, 40, 20 },
		{ "768: 385 -> 21",      &lim_open, 768, 0, 385,           1, 40, 21 },
		{ "768: min 385 -> 21",  &lim_open, 768, 385, 0,          21, 40, 21 },
		{ "cap 30: 513 -> 16",   &lim_no_turbo, 1024, 0, 513,      1, 30, 16 },
	};

	pstate_test_run_cases(test, cases, ARRAY_SIZE(cases));
}

/*
 * The hints are scaled to the invariance reference, at most the capacity
 * level: highest, or guaranteed with turbo disabled.  Full demand asks for
 * the capacity level.
 */
static void intel_pstate_perf_test_cap(struct kunit *test)
{
	static const struct pstate_test_case cases[] = {
		/* name                  limits   capacity min_perf target MIN MAX DES */
		{ "turbo: highest",      &lim_open, 1024, 0, 1024,         1, 40, 40 },
		{ "slow CPU: full",      &lim_slow_cpu, 1024, 0, 1024,     8, 24, 24 },
		{ "slow CPU: half of 30", &lim_slow_cpu, 1024, 0, 512,     8, 24, 15 },
		{ "slow CPU: 24 of 30",  &lim_slow_cpu, 1024, 0, 820,      8, 24, 24 },
		{ "slow CPU: min half",  &lim_slow_cpu, 1024, 512, 0,     15, 24, 15 },
		{ "stale ref: half of 30", &lim_stale_ref, 1024, 0, 512,   8, 18, 15 },
		{ "stale ref: full",     &lim_stale_ref, 1024, 0, 1024,    8, 18, 18 },
		{ "stale ref: min full", &lim_stale_ref, 1024, 1024, 0,   18, 18, 18 },
		{ "ref 30, cap 18: min full", &lim_no_turbo_window, 1024, 1024, 0,
		  18, 18, 18 },
		{ "ref 30, cap 18: min ULONG_MAX", &lim_no_turbo_window, 1024,
		  ULONG_MAX, ULONG_MAX, 18, 18, 18 },
		{ "ref 30, cap 18: min 3/4", &lim_no_turbo_window, 1024, 768, 0,
		  18, 18, 18 },
		{ "ref 30, cap 18: min half", &lim_no_turbo_window, 1024, 512, 0,
		  15, 18, 15 },
		{ "ref 30, cap 18: 446 min full", &lim_no_turbo_window, 446, 446,
		  446, 18, 18, 18 },
		{ "ref 20, cap 18: min full", &lim_guaranteed_below_base, 1024,
		  1024, 0, 18, 18, 18 },
		{ "ref 20, cap 18: min 1000", &lim_guaranteed_below_base, 1024,
		  1000, 1000, 18, 18, 18 },
		{ "ref 20, cap 18: target full", &lim_guaranteed_below_base, 1024,
		  0, 1024, 8, 18, 18 },
		{ "ref below highest: full", &lim_ref_below_highest, 1024, 0, 1024, 8, 45, 45 },
		{ "ref below highest: 1023", &lim_ref_below_highest, 1024, 0, 1023, 8, 45, 42 },
		{ "ref below highest: min", &lim_ref_below_highest, 1024, 1024, 0, 45, 45, 45 },
		{ "ref below highest: half", &lim_ref_below_highest, 1024, 0, 512, 8, 45, 21 },
		{ "no_turbo: guaranteed", &lim_no_turbo, 1024, 0, 1024,    1, 30, 30 },
		{ "no_turbo: half",      &lim_no_turbo, 1024, 0, 512,      1, 30, 15 },
		{ "no_turbo: min ULONG_MAX", &lim_no_turbo, 1024, ULONG_MAX, 0, 30, 30, 30 },
		{ "turbo_disabled: guaranteed", &lim_turbo_disabled, 1024, 0, 1024, 1, 30, 30 },
		{ "turbo_disabled: 446 half", &lim_turbo_disabled, 446, 0, 223, 1, 30, 15 },
	};
	struct pstate_test_cpu cpu;
	u64 value;

	pstate_test_run_cases(test, cases, ARRAY_SIZE(cases));

	/*
	 * The platform lowers the guaranteed level, the capacity level with
	 * turbo off: MAX and full demand follow it.
	 */
	pstate_test_cpu(&cpu, &lim_no_turbo, pstate_test_request(0, 0, 0));
	pstate_test_perf(&cpu, 0, 1024, 1024, 1024, &value);
	KUNIT_EXPECT_EQ(test, pstate_test_levels(value).desired, 30);

	cpu.lim.cap = 20;
	pstate_test_perf(&cpu, 0, 1024, 1024, 1024, &value);
	KUNIT_EXPECT_EQ(test, pstate_test_levels(value).desired, 20);
	KUNIT_EXPECT_EQ(test, pstate_test_levels(value).max, 20);

	/*
	 * Turbo back: the capacity level is the highest level again, and MAX
	 * and full demand follow at once; partial hints follow the reference
	 * when it is updated (the driver does that on the next limits update).
	 */
	cpu.lim.cap = lim_no_turbo.highest;
	pstate_test_perf(&cpu, 0, 1024, 1024, 1024, &value);
	KUNIT_EXPECT_EQ(test, pstate_test_levels(value).desired, 40);
	KUNIT_EXPECT_EQ(test, pstate_test_levels(value).max, 40);
	pstate_test_perf(&cpu, 0, 512, 1024, 1024, &value);
	KUNIT_EXPECT_EQ(test, pstate_test_levels(value).desired, 15);

	cpu.lim.ref = 40;
	pstate_test_perf(&cpu, 0, 512, 1024, 1024, &value);
	KUNIT_EXPECT_EQ(test, pstate_test_levels(value).desired, 20);
	KUNIT_EXPECT_EQ(test, pstate_test_levels(value).max, 40);
}

/* Floors and policy limits, and which of them wins. */
static void intel_pstate_perf_test_limits(struct kunit *test)
{
	static const struct pstate_test_case cases[] = {
		/* name                  limits   capacity min_perf target MIN MAX DES */
		{ "policy min above mapped min", &lim_policy_min16, 1024, 256, 128, 16, 40, 16 },
		{ "policy min, target above", &lim_policy_min16, 1024, 256, 768, 16, 40, 30 },
		{ "policy max below target", &lim_policy_max24, 1024, 0, 1024, 1, 24, 24 },
		{ "policy max above target", &lim_policy_max24, 1024, 0, 512, 1, 24, 20 },
		{ "policy max below mapped min", &lim_policy_max24, 1024, 1024, 0, 24, 24, 24 },
		{ "policy max, hints saturated", &lim_highest48_max24, 1024,
		  ULONG_MAX, ULONG_MAX, 24, 24, 24 },
		{ "policy max below policy min", &lim_max_below_min, 1024, 0, 0, 24, 24, 24 },
		{ "lowest as floor", &lim_lowest8, 1024, 0, 64,             8, 40,  8 },
		{ "lowest, target above", &lim_lowest8, 1024, 64, 256,     8, 40, 10 },
		{ "policy max below lowest", &lim_max_below_lowest, 1024, 0, 1024, 5, 5, 5 },
		{ "min_perf > target_perf", &lim_open, 1024, 768, 256,    30, 40, 30 },
		{ "446: min_perf > target_perf", &lim_open, 446, 224, 1,  21, 40, 21 },
		{ "policy min above cap", &lim_min_above_cap, 1024, 0, 1024, 24, 24, 24 },
		{ "policy min above cap, min_perf", &lim_min_above_cap, 1024,
		  1024, 0, 24, 24, 24 },
		{ "lowest above cap", &lim_lowest_above_cap, 1024, 0, 0, 24, 24, 24 },
	};

	pstate_test_run_cases(test, cases, ARRAY_SIZE(cases));
}

/*
 * max_perf (a uclamp maximum) caps MAX, and DESIRED with it, rounded up like
 * the other hints; at or above the capacity it sets no limit.  The policy
 * maximum still wins over it, and the minimum wins over both.
 */
static void intel_pstate_perf_test_max_perf(struct kunit *test)
{
	static const struct pstate_test_case cases[] = {
		/* name                  limits   capacity min_perf target MIN MAX DES max_perf */
		{ "max half, full target", &lim_open, 1024, 0, 1024,       1, 20, 20, 512 },
		{ "max half, target below", &lim_open, 1024, 0, 256,       1, 20, 10, 512 },
		{ "max quarter, target 1023", &lim_open, 1024, 0, 1023,    1, 10, 10, 256 },
		{ "max 1",               &lim_open, 1024, 0, 1024,         1,  1,  1, 1 },
		{ "max 513 rounds up",   &lim_open, 1024, 0, 1024,         1, 21, 21, 513 },
		{ "max capacity-1",      &lim_open, 1024, 0, 1024,         1, 40, 40, 1023 },
		{ "max above capacity",  &lim_open, 1024, 0, 1024,         1, 40, 40, 2048 },
		{ "max ULONG_MAX",       &lim_open, 1024, 0, 1024,         1, 40, 40, ULONG_MAX },
		{ "max below min",       &lim_open, 1024, 768, 0,         30, 30, 30, 256 },
		{ "max below lowest",    &lim_lowest8, 1024, 0, 1024,      8,  8,  8, 64 },
		{ "max above policy max", &lim_policy_max24, 1024, 0, 1024, 1, 24, 24, 768 },
		{ "max below policy max", &lim_policy_max24, 1024, 0, 1024, 1, 20, 20, 512 },
		{ "max below policy min", &lim_policy_min16, 1024, 0, 1024, 16, 16, 16, 256 },
		{ "ref 42: max capacity", &lim_ref_below_highest, 1024, 0, 1024, 8, 45, 45, 1024 },
		{ "ref 42: max 1023",    &lim_ref_below_highest, 1024, 0, 1024, 8, 42, 42, 1023 },
		{ "no_turbo: max half",  &lim_no_turbo, 1024, 0, 1024,     1, 15, 15, 512 },
		{ "446: max half",       &lim_open, 446, 0, 446,           1, 20, 20, 223 },
		{ "446: max 224",        &lim_open, 446, 0, 446,           1, 21, 21, 224 },
	};
	struct pstate_test_cpu cpu;
	u64 value;

	pstate_test_run_cases(test, cases, ARRAY_SIZE(cases));

	/* A uclamp maximum of 0: everything at the floor. */
	pstate_test_cpu(&cpu, &lim_typical, pstate_test_request(0, 0, 0));
	pstate_test_perf(&cpu, 0, 1024, 0, 1024, &value);
	KUNIT_EXPECT_EQ(test, value & PSTATE_TEST_LEVELS,
			(u64)(HWP_MIN_PERF(8) | HWP_MAX_PERF(8) |
			      HWP_DESIRED_PERF(8)));
}

/*
 * The highest level MIN may take: where a floor is above it, MIN is this
 * level.  The policy maximum takes precedence over everything else, and a
 * floor never asks for more than the CPU can run at.
 */
static int pstate_test_top(const struct pstate_test_limits *lim)
{
	return min(pstate_test_cap(lim), lim->max_ratio);
}

/*
 * Check one point of a sweep; on the first violation, report it and return
 * false, so that a broken property is reported once and not a thousand times.
 */
static bool pstate_test_sweep_point(struct kunit *test,
				    const struct pstate_test_limits *lim,
				    unsigned long capacity,
				    unsigned long min_perf,
				    unsigned long target_perf,
				    unsigned long max_perf,
				    const struct pstate_test_cpu *cpu, int *last)
{
	struct hwp_perf_levels l = pstate_test_levels(cpu->req);
	int cap = pstate_test_cap(lim);
	int ref = pstate_test_ref(lim);
	int allowed = max_perf >= capacity ? cap :
		      min(cap, pstate_test_ceil(max_perf, capacity, ref));
	int exact = target_perf >= capacity ? cap :
		    min(cap, pstate_test_ceil(target_perf, capacity, ref));
	int floor = max3(min_perf >= capacity ? cap :
			 min(cap, pstate_test_ceil(min_perf, capacity, ref)),
			 lim->lowest, lim->min_ratio);
	int top = pstate_test_top(lim);
	const char *why = NULL;

	if (l.min > l.desired || l.desired > l.max)
		why = "not MIN <= DESIRED <= MAX";
	else if (l.max > lim->max_ratio)
		why = "MAX above the policy maximum";
	else if (l.max > cap)
		why = "MAX above cap";
	else if (floor <= top && l.min < floor)
		why = "MIN below a floor";
	else if (floor > top && l.min != top)
		why = "MIN not at min(cap, policy maximum) below a floor";
	else if (l.min != min(floor, top))
		why = "MIN above the highest floor";
	else if (l.max != max(min(allowed, lim->max_ratio), l.min))
		why = "MAX not min(max_perf, policy maximum) raised to MIN";
	else if (l.desired < *last)
		why = "DESIRED decreased";
	else if (exact >= l.min && exact <= l.max && l.desired != exact)
		why = "DESIRED not the exact ceiling";
	else if ((cpu->req & ~PSTATE_TEST_LEVELS) !=
		 (pstate_test_request(0, 0, 0) & ~PSTATE_TEST_LEVELS))
		why = "other fields changed";

	*last = l.desired;
	if (!why)
		return true;

	KUNIT_FAIL(test,
		   "%s, capacity %lu, min_perf %lu, target_perf %lu, max_perf %lu: %s (MIN %d MAX %d DESIRED %d, cap %d, ceiling %d, floor %d, allowed %d)",
		   lim->name, capacity, min_perf, target_perf, max_perf, why,
		   l.min, l.max, l.desired, cap, exact, floor, allowed);
	return false;
}

/*
 * For every target_perf from 0 to 2 x capacity, over several capacities,
 * minimum hints, maximum hints (none, and half the capacity) and limit sets:
 *
 * - MIN <= DESIRED <= MAX;
 * - MAX <= policy maximum and MAX <= cap, whatever the hints and floors;
 * - MIN >= every floor (mapped min_perf, lowest, policy minimum), unless cap
 *   or the policy maximum is below one of them, in which case MIN is the
 *   lower of those two;
 * - exactly: MIN == min(highest floor, cap, policy maximum) and
 *   MAX == max(min(ceiling of max_perf, policy maximum), MIN);
 * - the fields other than MIN, MAX and DESIRED are never touched;
 * - DESIRED never decreases as target_perf grows;
 * - DESIRED == the exact ceiling of ref * target_perf / capacity, at most cap
 *   (cap when target_perf >= capacity), whenever that lies within [MIN, MAX].
 */
static void intel_pstate_perf_test_sweep(struct kunit *test)
{
	static const struct pstate_test_limits *const lims[] = {
		&lim_open, &lim_no_turbo, &lim_turbo_disabled, &lim_typical,
		&lim_lowest8, &lim_policy_min16, &lim_policy_max24,
		&lim_highest48_max24, &lim_max_below_min, &lim_max_below_lowest,
		&lim_min_above_cap, &lim_lowest_above_cap, &lim_slow_cpu,
		&lim_stale_ref, &lim_emu_no_turbo, &lim_ref_below_highest,
		&lim_no_turbo_window, &lim_guaranteed_below_base,
	};
	static const unsigned long capacities[] = { 1024, 768, 446, 160, 1 };
	unsigned long capacity, min_perf, target_perf, max_perf, mins[3];
	unsigned int i, j, k;
	struct pstate_test_cpu cpu;
	int last;
	u64 value;

	for (i = 0; i < ARRAY_SIZE(lims); i++) {
		for (j = 0; j < ARRAY_SIZE(capacities); j++) {
			capacity = capacities[j];
			mins[0] = 0;
			mins[1] = capacity / 3;
			mins[2] = capacity + 1;
			for (k = 0; k < ARRAY_SIZE(mins) * 2; k++) {
				min_perf = mins[k / 2];
				max_perf = k % 2 ? capacity / 2 : capacity;
				pstate_test_cpu(&cpu, lims[i],
						pstate_test_request(0, 0, 0));
				last = 0;
				for (target_perf = 0; target_perf <= 2 * capacity;
				     target_perf++) {
					pstate_test_perf(&cpu, min_perf,
							 target_perf,
							 max_perf,
							 capacity,
							 &value);
					if (!pstate_test_sweep_point(test, lims[i],
								     capacity,
								     min_perf,
								     target_perf,
								     max_perf,
								     &cpu, &last))
						return;
				}
			}
		}
	}
}

/*
 * The loop of a CPU busy 99% of the time: its frequency-invariant utilization
 * is 99% of the level it runs at, relative to the invariance reference, and
 * schedutil asks for 1.25 times that.  Starting from the lowest level, run
 * the loop 100 times and return the level it settles at.
 */
static int pstate_test_busy_loop(const struct pstate_test_limits *lim)
{
	struct pstate_test_cpu cpu;
	int level = lim->lowest, ref = pstate_test_ref(lim);
	unsigned long util;
	unsigned int n;
	u64 value;

	pstate_test_cpu(&cpu, lim, pstate_test_request(0, 0, 0));
	for (n = 0; n < 100; n++) {
		util = min(1024UL * 99 * level / (100UL * ref), 1024UL);
		pstate_test_perf(&cpu, 0, util + (util >> 2), 1024, 1024,
				 &value);
		level = pstate_test_levels(value).desired;
	}

	return level;
}

/*
 * With the hints scaled to the invariance reference, the busy loop climbs to
 * the highest level the CPU can run at and stays there, wherever that level
 * is relative to the reference: also on a CPU slower than the reference and
 * with turbo off while the reference is still the turbo ratio, where hints
 * scaled to the capacity level make it decay.
 */
static void intel_pstate_perf_test_busy_loop(struct kunit *test)
{
	static const struct pstate_test_limits *const climb[] = {
		&lim_open, &lim_typical, &lim_emu_no_turbo,
		&lim_ref_below_highest, &lim_guaranteed_below_base,
		&lim_slow_cpu, &lim_stale_ref, &lim_no_turbo_window,
	};
	unsigned int i;
	int cap;

	for (i = 0; i < ARRAY_SIZE(climb); i++) {
		cap = min(pstate_test_cap(climb[i]), climb[i]->max_ratio);
		KUNIT_EXPECT_EQ_MSG(test, pstate_test_busy_loop(climb[i]), cap,
				    "%s: settled below %d", climb[i]->name,
				    cap);
	}
}

/* EPP and the other fields are kept; only MIN, MAX and DESIRED change. */
static void intel_pstate_perf_test_fields(struct kunit *test)
{
	u64 before = pstate_test_request(3, 7, 5);
	struct pstate_test_cpu cpu;
	struct hwp_perf_levels l;
	u64 value;

	pstate_test_cpu(&cpu, &lim_typical, before);
	KUNIT_EXPECT_TRUE(test, pstate_test_perf(&cpu, 256, 512, 1024, 1024,
						 &value));
	KUNIT_EXPECT_EQ(test, value & ~PSTATE_TEST_LEVELS,
			before & ~PSTATE_TEST_LEVELS);
	/* 45 * 256 / 1024 = 11.25, 45 * 512 / 1024 = 22.5 */
	KUNIT_EXPECT_EQ(test, value & PSTATE_TEST_LEVELS,
			(u64)(HWP_MIN_PERF(12) | HWP_MAX_PERF(45) |
			      HWP_DESIRED_PERF(23)));

	/* With every other bit set as well. */
	before = ~PSTATE_TEST_LEVELS;
	cpu.req = before;
	KUNIT_EXPECT_TRUE(test, pstate_test_perf(&cpu, 0, 1024, 1024, 1024,
						 &value));
	KUNIT_EXPECT_EQ(test, value,
			before | HWP_MIN_PERF(8) | HWP_MAX_PERF(45) |
			HWP_DESIRED_PERF(45));

	/* Levels wider than their fields do not spill into the others. */
	l.min = 0x1ff;
	l.max = 0x1ff;
	l.desired = 0x1ff;
	KUNIT_EXPECT_EQ(test, hwp_perf_request(0, &l), (u64)PSTATE_TEST_LEVELS);
}

/*
 * Hints that map to the levels of the last request give that request again,
 * bit for bit, so that the driver, which writes the register only when the
 * value changes, does not write it.
 */
static void intel_pstate_perf_test_unchanged(struct kunit *test)
{
	struct pstate_test_cpu cpu;
	unsigned long target_perf;
	unsigned int changes = 0;
	u64 prev, value;

	pstate_test_cpu(&cpu, &lim_lowest8, pstate_test_request(0, 0, 0));
	KUNIT_EXPECT_TRUE(test, pstate_test_perf(&cpu, 0, 512, 1024, 1024,
						 &value));
	prev = value;

	/* The same hints, and other hints that map to the same levels. */
	KUNIT_EXPECT_FALSE(test, pstate_test_perf(&cpu, 0, 512, 1024, 1024,
						  &value));
	KUNIT_EXPECT_FALSE(test, pstate_test_perf(&cpu, 0, 500, 1024, 1024,
						  &value));
	KUNIT_EXPECT_FALSE(test, pstate_test_perf(&cpu, 1, 512, 1024, 1024,
						  &value));
	KUNIT_EXPECT_EQ(test, value, prev);

	KUNIT_EXPECT_TRUE(test, pstate_test_perf(&cpu, 0, 513, 1024, 1024,
						 &value));
	KUNIT_EXPECT_EQ(test, pstate_test_levels(value).desired, 21);

	/*
	 * Going up from 0 to 2 x capacity visits DESIRED 8 to 40 once each:
	 * 33 changes, starting from a request that has none of them.
	 */
	cpu.req = pstate_test_request(0, 0, 0);
	for (target_perf = 0; target_perf <= 2048; target_perf++)
		changes += pstate_test_perf(&cpu, 0, target_perf, 1024, 1024,
					    &value);
	KUNIT_EXPECT_EQ(test, changes, 33U);
}

/*
 * With Dynamic Efficiency Control, intel_pstate keeps the levels that
 * hwp_perf_select() chose but sets DESIRED to 0 before hwp_perf_request():
 * the request then carries no DESIRED, also where the last one had one,
 * while MIN, MAX and the other fields are those of the same hints without
 * DEC, and the same hints give the same request again.
 */
static void intel_pstate_perf_test_desired_zero(struct kunit *test)
{
	static const struct {
		unsigned long min_perf, target_perf, max_perf;
	} hints[] = {
		{ 0, 0, 1024 }, { 0, 512, 1024 }, { 256, 768, 1024 },
		{ 0, 1024, 512 }, { 1024, 1024, 1024 }, { 0, 2048, 2048 },
	};
	const u64 before = pstate_test_request(0, 0, 23);
	struct pstate_test_cpu cpu;
	struct hwp_perf_levels l;
	unsigned int i;
	u64 plain, value;

	pstate_test_cpu(&cpu, &lim_typical, before);
	for (i = 0; i < ARRAY_SIZE(hints); i++) {
		l = hwp_perf_select(&cpu.lim, hints[i].min_perf,
				    hints[i].target_perf, hints[i].max_perf,
				    1024);
		plain = hwp_perf_request(before, &l);
		KUNIT_EXPECT_NE_MSG(test, pstate_test_levels(plain).desired, 0,
				    "hints %u without DEC", i);

		l.desired = 0;
		value = hwp_perf_request(before, &l);
		KUNIT_EXPECT_EQ_MSG(test, value,
				    plain & ~(u64)HWP_DESIRED_PERF(~0L),
				    "hints %u", i);
		KUNIT_EXPECT_EQ_MSG(test, hwp_perf_request(value, &l), value,
				    "hints %u: changed again", i);
	}
}

/*
 * The floor mode: the level that the hints mode puts into DESIRED goes into
 * MIN, DESIRED is 0, and MAX and the other fields are those of the hints
 * mode.  For every target_perf from 0 to 2 x capacity, with a required
 * level and with and without a maximum hint, MIN is at least the required
 * level, at most MAX, and never decreases as target_perf grows.
 */
static void intel_pstate_perf_test_floor(struct kunit *test)
{
	static const struct {
		unsigned long min_perf, target_perf, max_perf;
		int min, max;
	} cases[] = {
		/* 45 * 512 / 1024 = 22.5 */
		{ 256, 512, 1024, 23, 45 },
		{ 0, 0, 1024, 8, 45 },
		{ 0, 1024, 512, 23, 23 },
		{ 0, 2048, 1024, 45, 45 },
		{ 1024, 1024, 1024, 45, 45 },
	};
	static const unsigned long max_perf[] = { 1024, 512 };
	const u64 before = pstate_test_request(0, 0, 23);
	struct hwp_perf_levels hints, l;
	struct pstate_test_cpu cpu;
	unsigned long target_perf;
	unsigned int i;
	u64 value;
	int last;

	pstate_test_cpu(&cpu, &lim_typical, before);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		l = hwp_perf_select(&cpu.lim, cases[i].min_perf,
				    cases[i].target_perf, cases[i].max_perf,
				    1024);
		hwp_perf_floor(&l);
		value = hwp_perf_request(before, &l);
		KUNIT_EXPECT_EQ_MSG(test, value,
				    (before & ~PSTATE_TEST_LEVELS) |
				    HWP_MIN_PERF(cases[i].min) |
				    HWP_MAX_PERF(cases[i].max), "case %u", i);
	}

	for (i = 0; i < ARRAY_SIZE(max_perf); i++) {
		last = 0;
		for (target_perf = 0; target_perf <= 2048; target_perf++) {
			hints = hwp_perf_select(&cpu.lim, 128, target_perf,
						max_perf[i], 1024);
			l = hints;
			hwp_perf_floor(&l);
			value = hwp_perf_request(before, &l);
			l = pstate_test_levels(value);
			if (l.min != hints.desired || l.max != hints.max ||
			    l.desired || l.min < hints.min || l.min > l.max ||
			    l.min < last ||
			    (value & ~PSTATE_TEST_LEVELS) !=
			    (before & ~PSTATE_TEST_LEVELS)) {
				KUNIT_FAIL(test,
					   "max_perf %lu, target_perf %lu: MIN %d MAX %d DESIRED %d (hints mode: MIN %d MAX %d DESIRED %d)",
					   max_perf[i], target_perf, l.min,
					   l.max, l.desired, hints.min,
					   hints.max, hints.desired);
				break;
			}
			last = l.min;
		}
	}
}

/*
 * Switching between the modes leaves no field of the other mode behind: the
 * driver composes each request from the last one, and the mode changes
 * between two updates.  From a hints-mode request, the same hints in the
 * floor mode change the request (DESIRED 0, MIN raised), the same hints
 * again do not, and back in the hints mode the request is the hints-mode
 * one again, bit for bit.
 */
static void intel_pstate_perf_test_mode_switch(struct kunit *test)
{
	struct hwp_perf_levels hints, floor;
	struct pstate_test_cpu cpu;
	u64 value, floor_value;

	pstate_test_cpu(&cpu, &lim_typical, pstate_test_request(0, 0, 0));
	KUNIT_EXPECT_TRUE(test, pstate_test_perf(&cpu, 256, 512, 1024, 1024,
						 &value));
	hints = pstate_test_levels(value);
	KUNIT_EXPECT_EQ(test, hints.min, 12);
	KUNIT_EXPECT_EQ(test, hints.desired, 23);

	floor = hwp_perf_select(&cpu.lim, 256, 512, 1024, 1024);
	hwp_perf_floor(&floor);
	floor_value = hwp_perf_request(value, &floor);
	KUNIT_EXPECT_NE(test, floor_value, value);
	KUNIT_EXPECT_EQ(test, floor_value,
			(value & ~PSTATE_TEST_LEVELS) | HWP_MIN_PERF(23) |
			HWP_MAX_PERF(45));
	KUNIT_EXPECT_EQ(test, hwp_perf_request(floor_value, &floor),
			floor_value);

	cpu.req = floor_value;
	KUNIT_EXPECT_TRUE(test, pstate_test_perf(&cpu, 256, 512, 1024, 1024,
						 &floor_value));
	KUNIT_EXPECT_EQ(test, floor_value, value);
}

static struct kunit_case intel_pstate_perf_test_cases[] = {
	KUNIT_CASE(intel_pstate_perf_test_scale),
	KUNIT_CASE(intel_pstate_perf_test_hint_edges),
	KUNIT_CASE(intel_pstate_perf_test_rounding),
	KUNIT_CASE(intel_pstate_perf_test_cap),
	KUNIT_CASE(intel_pstate_perf_test_limits),
	KUNIT_CASE(intel_pstate_perf_test_max_perf),
	KUNIT_CASE(intel_pstate_perf_test_sweep),
	KUNIT_CASE(intel_pstate_perf_test_busy_loop),
	KUNIT_CASE(intel_pstate_perf_test_fields),
	KUNIT_CASE(intel_pstate_perf_test_unchanged),
	KUNIT_CASE(intel_pstate_perf_test_desired_zero),
	KUNIT_CASE(intel_pstate_perf_test_floor),
	KUNIT_CASE(intel_pstate_perf_test_mode_switch),
	{}
};

static struct kunit_suite intel_pstate_perf_test_suite = {
	.name = "intel_pstate_perf",
	.test_cases = intel_pstate_perf_test_cases,
};

kunit_test_suite(intel_pstate_perf_test_suite);

MODULE_DESCRIPTION("KUnit tests for the HWP mapping of intel_pstate's performance hints");
MODULE_LICENSE("GPL");
