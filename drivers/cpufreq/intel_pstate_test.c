// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the passive mode of intel_pstate with HWP: the mapping of
 * schedutil's performance hints onto HWP levels, and the HWP_REQUEST values
 * that the driver composes from them.
 *
 * This file is included at the end of intel_pstate.c, so that it can call the
 * driver's static functions.  Every test runs on a struct cpudata of its own
 * and checks the cached request, hwp_req_cached, never the register, so no
 * HWP hardware is needed.  Some of the functions under test also write
 * HWP_REQUEST: the tests that call them run only where the processor has no
 * HWP and the register can be read (in QEMU, where it reads 0 and ignores
 * writes), and the suite saves it before each test and restores it afterwards.
 * They never run where HWP is present.
 *
 * The driver's callbacks take a policy and find the CPU in all_cpu_data.  They
 * are called only where the driver is not running and HWP is absent, as in
 * QEMU: all_cpu_data is then NULL and nothing else uses it, so a test may point
 * it at the test CPU, with hwp_active set, and put both back afterwards.
 */

#include <kunit/test.h>

#define PSTATE_TEST_EPP		0x80
/* Fields that the tested code must not touch: activity window and above. */
#define PSTATE_TEST_OTHER	(GENMASK_ULL(42, 32) | GENMASK_ULL(63, 59))
/* The MIN, MAX and DESIRED fields. */
#define PSTATE_TEST_LEVELS	GENMASK_ULL(23, 0)

/**
 * struct pstate_test_limits - What intel_cpufreq_hwp_limits() reads.
 * @name: Label in failure messages.
 * @highest: Highest HWP level, in the cached HWP capabilities.
 * @guaranteed: Guaranteed HWP level, in the cached HWP capabilities.
 * @lowest: Lowest level the driver uses (cpu->pstate.min_pstate).
 * @min_ratio: Policy minimum (cpu->min_perf_ratio).
 * @max_ratio: Policy maximum (cpu->max_perf_ratio).
 * @no_turbo: Turbo disabled by the user (as with global.no_turbo).
 * @turbo_disabled: Turbo disabled by the firmware (global.turbo_disabled).
 * @ref: Frequency invariance reference level (cpu->hwp_perf_ref); 0 stands
 *	 for the capacity level, that is, a reference that follows the turbo
 *	 state as intel_pstate makes it do.
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

/* The emulated HWP machine of the project's tests, with no_turbo. */
static const struct pstate_test_limits lim_emu_no_turbo = {
	.name = "no_turbo 30/18", .highest = 30, .guaranteed = 18,
	.lowest = 8, .min_ratio = 8, .max_ratio = 18, .no_turbo = true,
};

/**
 * struct pstate_test_case - One call of ->adjust_perf() and its outcome.
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
 * struct pstate_test_ctx - State of one test.
 * @cpu: The test CPU's driver data.
 * @hwp_req: Saved HWP_REQUEST of the test CPU, if @hwp_req_ok.
 * @hwp_req_ok: Whether the functions that write HWP_REQUEST may be called:
 *	        the processor has no HWP, and the register reads (as in QEMU).
 * @hwp_active: Saved hwp_active, if @installed.
 * @turbo_off: Turbo state the arithmetic cases pass to the driver's code
 *	       instead of the driver's globals, which the tests never write.
 * @dec: Dynamic Efficiency Control state passed the same way, instead of
 *	 hwp_dec.
 * @installed: Whether all_cpu_data points at the test CPU.
 */
struct pstate_test_ctx {
	struct cpudata cpu;
	u64 hwp_req;
	bool hwp_req_ok;
	int hwp_active;
	bool installed;
	bool turbo_off;
	bool dec;
};

static u64 pstate_test_hwp_cap(const struct pstate_test_limits *lim)
{
	return (u64)lim->highest | (u64)lim->guaranteed << 8 |
	       (u64)lim->guaranteed << 16 | (u64)lim->lowest << 24;
}

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

static struct cpudata *pstate_test_cpu(struct kunit *test,
				       const struct pstate_test_limits *lim,
				       u64 req)
{
	struct pstate_test_ctx *ctx = test->priv;
	struct cpudata *cpu = &ctx->cpu;

	cpu->hwp_cap_cached = pstate_test_hwp_cap(lim);
	cpu->hwp_perf_ref = pstate_test_ref(lim);
	cpu->pstate.min_pstate = lim->lowest;
	cpu->min_perf_ratio = lim->min_ratio;
	cpu->max_perf_ratio = lim->max_ratio;
	intel_pstate_publish_perf_ratios(cpu);
	cpu->epp_cached = PSTATE_TEST_EPP;
	cpu->hwp_req_cached = req;
	ctx->turbo_off = lim->no_turbo || lim->turbo_disabled;

	return cpu;
}

/*
 * intel_cpufreq_perf_request() on the test CPU, with the turbo state of the
 * limits pstate_test_cpu() set and the test's DEC state: the driver's globals
 * are not touched, so that a running intel_pstate never sees the tests'
 * values.
 */
static bool pstate_test_perf(struct cpudata *cpu, unsigned long min_perf,
			     unsigned long target_perf, unsigned long max_perf,
			     unsigned long capacity, u64 *value)
{
	struct pstate_test_ctx *ctx = container_of(cpu, struct pstate_test_ctx,
						   cpu);

	return intel_cpufreq_perf_request(cpu, ctx->turbo_off, ctx->dec,
					  min_perf, target_perf, max_perf,
					  capacity, value);
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
	struct hwp_perf_levels l;
	struct cpudata *cpu;
	u64 before = pstate_test_request(0, 0, 0), value = 0;
	bool write;

	for (c = cases; c < cases + n; c++) {
		cpu = pstate_test_cpu(test, c->lim, before);
		write = pstate_test_perf(cpu, c->min_perf,
					 c->target_perf,
					 c->max_perf ?: c->capacity,
					 c->capacity, &value);
		l = pstate_test_levels(cpu->hwp_req_cached);

		KUNIT_EXPECT_EQ_MSG(test, l.min, c->min, "%s: MIN", c->name);
		KUNIT_EXPECT_EQ_MSG(test, l.max, c->max, "%s: MAX", c->name);
		KUNIT_EXPECT_EQ_MSG(test, l.desired, c->desired,
				    "%s: DESIRED", c->name);
		KUNIT_EXPECT_TRUE_MSG(test, write, "%s: not written", c->name);
		KUNIT_EXPECT_EQ_MSG(test, value, cpu->hwp_req_cached,
				    "%s: written value", c->name);
		KUNIT_EXPECT_EQ_MSG(test, value & ~PSTATE_TEST_LEVELS,
				    before & ~PSTATE_TEST_LEVELS,
				    "%s: other fields", c->name);
	}
}

static int pstate_test_init(struct kunit *test)
{
	struct pstate_test_ctx *ctx;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;

	/*
	 * Any online CPU: the MSR writes go there.  Never where HWP is
	 * present: the register is the real one there, and the driver may be
	 * using it.
	 */
	ctx->cpu.cpu = cpumask_first(cpu_online_mask);
	ctx->hwp_req_ok = !boot_cpu_has(X86_FEATURE_HWP) &&
			  !rdmsrl_safe_on_cpu(ctx->cpu.cpu, MSR_HWP_REQUEST,
					      &ctx->hwp_req);

	test->priv = ctx;
	return 0;
}

static void pstate_test_exit(struct kunit *test)
{
	struct pstate_test_ctx *ctx = test->priv;

	if (ctx->installed) {
		mutex_lock(&intel_pstate_driver_lock);
		all_cpu_data = NULL;
		hwp_active = ctx->hwp_active;
		mutex_unlock(&intel_pstate_driver_lock);
	}

	if (ctx->hwp_req_ok)
		wrmsrl_safe_on_cpu(ctx->cpu.cpu, MSR_HWP_REQUEST, ctx->hwp_req);
}

/* Whether the functions that write HWP_REQUEST may be called. */
static bool pstate_test_hwp_req_ok(struct kunit *test)
{
	struct pstate_test_ctx *ctx = test->priv;

	if (!ctx->hwp_req_ok)
		kunit_info(test, "HWP present or HWP_REQUEST unreadable: test not run\n");

	return ctx->hwp_req_ok;
}

/*
 * Let the driver's callbacks find the test CPU, as a CPU with HWP, and return
 * a policy for it; return NULL where the driver runs or HWP is present.
 */
static struct cpufreq_policy *pstate_test_install(struct kunit *test)
{
	struct pstate_test_ctx *ctx = test->priv;
	struct cpufreq_policy *policy;
	struct cpudata **cpus;

	policy = kunit_kzalloc(test, sizeof(*policy), GFP_KERNEL);
	cpus = kunit_kzalloc(test, array_size(nr_cpu_ids, sizeof(*cpus)),
			     GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, policy);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cpus);

	policy->cpu = ctx->cpu.cpu;
	cpus[policy->cpu] = &ctx->cpu;

	if (!pstate_test_hwp_req_ok(test))
		return NULL;

	mutex_lock(&intel_pstate_driver_lock);
	if (!all_cpu_data && !intel_pstate_driver &&
	    !boot_cpu_has(X86_FEATURE_HWP)) {
		ctx->hwp_active = hwp_active;
		hwp_active = 1;
		all_cpu_data = cpus;
		ctx->installed = true;
	}
	mutex_unlock(&intel_pstate_driver_lock);

	if (!ctx->installed) {
		kunit_info(test, "intel_pstate is running or HWP is present: callbacks not called\n");
		return NULL;
	}

	return policy;
}

struct pstate_test_call {
	struct cpufreq_policy *policy;
	unsigned long min_perf, target_perf, max_perf, capacity;
};

static void pstate_test_adjust_perf_fn(void *data)
{
	struct pstate_test_call *c = data;

	intel_cpufreq_adjust_perf(c->policy, c->min_perf, c->target_perf,
				  c->max_perf, c->capacity);
}

/*
 * ->adjust_perf() as the scheduler calls it: on the CPU of @policy (the test
 * CPU, whose HWP_REQUEST was saved), with interrupts off.
 */
static void pstate_test_adjust_perf(struct cpufreq_policy *policy,
				    unsigned long min_perf,
				    unsigned long target_perf,
				    unsigned long max_perf,
				    unsigned long capacity)
{
	struct pstate_test_call c = {
		.policy = policy, .min_perf = min_perf,
		.target_perf = target_perf, .max_perf = max_perf,
		.capacity = capacity,
	};

	smp_call_function_single(policy->cpu, pstate_test_adjust_perf_fn, &c,
				 true);
}

/* hwp_perf_scale() on its own: the level is the ceiling, never one short. */
static void intel_pstate_test_scale(struct kunit *test)
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
static void intel_pstate_test_hint_edges(struct kunit *test)
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
static void intel_pstate_test_rounding(struct kunit *test)
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
 * The hints are scaled to the invariance reference; MAX is the capacity level:
 * highest, or guaranteed with turbo disabled.
 */
static void intel_pstate_test_cap(struct kunit *test)
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
	struct cpudata *cpu;
	u64 value;

	pstate_test_run_cases(test, cases, ARRAY_SIZE(cases));

	/* MAX follows the cached capabilities when the platform changes them. */
	cpu = pstate_test_cpu(test, &lim_no_turbo, pstate_test_request(0, 0, 0));
	pstate_test_perf(cpu, 0, 1024, 1024, 1024, &value);
	KUNIT_EXPECT_EQ(test, pstate_test_levels(value).desired, 30);

	cpu->hwp_cap_cached = (cpu->hwp_cap_cached & ~GENMASK_ULL(15, 8)) |
			      (u64)20 << 8;
	pstate_test_perf(cpu, 0, 1024, 1024, 1024, &value);
	KUNIT_EXPECT_EQ(test, pstate_test_levels(value).desired, 20);
	KUNIT_EXPECT_EQ(test, pstate_test_levels(value).max, 20);

	/*
	 * Turbo back: MAX and full demand follow at once, partial hints follow
	 * the reference when the limits update refreshes it.
	 */
	((struct pstate_test_ctx *)test->priv)->turbo_off = false;
	pstate_test_perf(cpu, 0, 1024, 1024, 1024, &value);
	KUNIT_EXPECT_EQ(test, pstate_test_levels(value).desired, 40);
	KUNIT_EXPECT_EQ(test, pstate_test_levels(value).max, 40);
	pstate_test_perf(cpu, 0, 512, 1024, 1024, &value);
	KUNIT_EXPECT_EQ(test, pstate_test_levels(value).desired, 15);

	cpu->hwp_perf_ref = 40;
	pstate_test_perf(cpu, 0, 512, 1024, 1024, &value);
	KUNIT_EXPECT_EQ(test, pstate_test_levels(value).desired, 20);
	KUNIT_EXPECT_EQ(test, pstate_test_levels(value).max, 40);
}

/* Floors and policy limits, and which of them wins. */
static void intel_pstate_test_limits(struct kunit *test)
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
static void intel_pstate_test_max_perf(struct kunit *test)
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
	struct cpudata *cpu;
	u64 value;

	pstate_test_run_cases(test, cases, ARRAY_SIZE(cases));

	/* A uclamp maximum of 0: everything at the floor. */
	cpu = pstate_test_cpu(test, &lim_typical, pstate_test_request(0, 0, 0));
	pstate_test_perf(cpu, 0, 1024, 0, 1024, &value);
	KUNIT_EXPECT_EQ(test, value & PSTATE_TEST_LEVELS,
			(u64)(HWP_MIN_PERF(8) | HWP_MAX_PERF(8) |
			      HWP_DESIRED_PERF(8)));
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
				    const struct cpudata *cpu, int *last)
{
	struct hwp_perf_levels l = pstate_test_levels(cpu->hwp_req_cached);
	int cap = pstate_test_cap(lim);
	int ref = pstate_test_ref(lim);
	int allowed = max_perf >= capacity ? cap :
		      min(cap, pstate_test_ceil(max_perf, capacity, ref));
	int exact = target_perf >= capacity ? cap :
		    pstate_test_ceil(target_perf, capacity, ref);
	int floor = max3(min_perf >= capacity ? cap :
			 pstate_test_ceil(min_perf, capacity, ref),
			 lim->lowest, lim->min_ratio);
	int top = min(cap, lim->max_ratio);
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
		why = "MAX not min(cap, max_perf, policy maximum) raised to MIN";
	else if (l.desired < *last)
		why = "DESIRED decreased";
	else if (exact >= l.min && exact <= l.max && l.desired != exact)
		why = "DESIRED not the exact ceiling";
	else if ((cpu->hwp_req_cached & ~PSTATE_TEST_LEVELS) !=
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
 *   MAX == max(min(cap, ceiling of max_perf, policy maximum), MIN);
 * - DESIRED never decreases as target_perf grows;
 * - DESIRED == the exact ceiling of ref * target_perf / capacity (cap when
 *   target_perf >= capacity) whenever that lies within [MIN, MAX];
 * - the fields other than MIN, MAX and DESIRED are never touched.
 */
static void intel_pstate_test_sweep(struct kunit *test)
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
	struct cpudata *cpu;
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
				cpu = pstate_test_cpu(test, lims[i],
						      pstate_test_request(0, 0, 0));
				last = 0;
				for (target_perf = 0; target_perf <= 2 * capacity;
				     target_perf++) {
					pstate_test_perf(cpu, min_perf,
							 target_perf,
							 max_perf,
							 capacity,
							 &value);
					if (!pstate_test_sweep_point(test, lims[i],
								     capacity,
								     min_perf,
								     target_perf,
								     max_perf,
								     cpu, &last))
						return;
				}
			}
		}
	}
}

/*
 * The loop of a CPU busy 99% of the time: its frequency-invariant utilization
 * is 99% of the level it runs at, relative to the invariance reference, and
 * schedutil asks for 1.25 times that.  Starting from the lowest level, the
 * request must climb to the highest level the CPU can run at and stay there,
 * wherever that level is relative to the reference.  Scaling the hints to a
 * level below the reference (the guaranteed level with no_turbo against a
 * turbo reference) makes such a loop decay.
 */
static void intel_pstate_test_busy_loop(struct kunit *test)
{
	static const struct pstate_test_limits *const lims[] = {
		&lim_open, &lim_typical, &lim_emu_no_turbo, &lim_slow_cpu,
		&lim_stale_ref, &lim_ref_below_highest, &lim_no_turbo_window,
		&lim_guaranteed_below_base,
	};
	struct hwp_perf_levels l;
	struct cpudata *cpu;
	unsigned long util;
	unsigned int i, n;
	int level, ref, cap;
	u64 value;

	for (i = 0; i < ARRAY_SIZE(lims); i++) {
		cpu = pstate_test_cpu(test, lims[i], pstate_test_request(0, 0, 0));
		ref = pstate_test_ref(lims[i]);
		cap = min(pstate_test_cap(lims[i]), lims[i]->max_ratio);
		level = lims[i]->lowest;
		for (n = 0; n < 100; n++) {
			util = min(1024UL * 99 * level / (100UL * ref), 1024UL);
			pstate_test_perf(cpu, 0, util + (util >> 2),
					 1024, 1024, &value);
			l = pstate_test_levels(value);
			level = l.desired;
		}
		KUNIT_EXPECT_EQ_MSG(test, level, cap, "%s: settled at %d",
				    lims[i]->name, level);
	}
}

/* The reference level follows the ratio of frequency invariance. */
static void intel_pstate_test_perf_ref(struct kunit *test)
{
	struct pstate_test_ctx *ctx = test->priv;
	u64 ratio = arch_get_max_freq_ratio();

	ctx->cpu.pstate.max_pstate_physical = 18;
	KUNIT_EXPECT_EQ(test, intel_pstate_perf_ref(&ctx->cpu),
			(int)clamp_t(u64, DIV_ROUND_CLOSEST_ULL(18 * ratio, 1024),
				     1, 255));
	if (ratio == SCHED_CAPACITY_SCALE)
		KUNIT_EXPECT_EQ(test, intel_pstate_perf_ref(&ctx->cpu), 18);

	ctx->cpu.pstate.max_pstate_physical = 0;
	KUNIT_EXPECT_EQ(test, intel_pstate_perf_ref(&ctx->cpu), 1);
}

/* EPP and the other fields are kept; only MIN, MAX and DESIRED change. */
static void intel_pstate_test_fields(struct kunit *test)
{
	u64 before = pstate_test_request(3, 7, 5);
	struct cpudata *cpu = pstate_test_cpu(test, &lim_typical, before);
	u64 value;

	KUNIT_EXPECT_TRUE(test, pstate_test_perf(cpu, 256, 512, 1024,
						 1024, &value));
	KUNIT_EXPECT_EQ(test, value, cpu->hwp_req_cached);
	KUNIT_EXPECT_EQ(test, value & ~PSTATE_TEST_LEVELS,
			before & ~PSTATE_TEST_LEVELS);
	/* 45 * 256 / 1024 = 11.25, 45 * 512 / 1024 = 22.5 */
	KUNIT_EXPECT_EQ(test, value & PSTATE_TEST_LEVELS,
			(u64)(HWP_MIN_PERF(12) | HWP_MAX_PERF(45) |
			      HWP_DESIRED_PERF(23)));
	KUNIT_EXPECT_EQ(test, cpu->pstate.current_pstate, 23);

	/* With every other bit set as well. */
	before = ~PSTATE_TEST_LEVELS;
	cpu->hwp_req_cached = before;
	KUNIT_EXPECT_TRUE(test, pstate_test_perf(cpu, 0, 1024, 1024,
						 1024, &value));
	KUNIT_EXPECT_EQ(test, value,
			before | HWP_MIN_PERF(8) | HWP_MAX_PERF(45) |
			HWP_DESIRED_PERF(45));
}

/* An unchanged request is not written: count what would be written. */
static void intel_pstate_test_no_write(struct kunit *test)
{
	struct cpudata *cpu = pstate_test_cpu(test, &lim_lowest8,
					      pstate_test_request(0, 0, 0));
	unsigned long target_perf;
	unsigned int writes = 0;
	u64 prev, value;

	KUNIT_EXPECT_TRUE(test, pstate_test_perf(cpu, 0, 512, 1024,
						 1024, &value));
	prev = cpu->hwp_req_cached;

	/* The same hints, and other hints that map to the same levels. */
	KUNIT_EXPECT_FALSE(test, pstate_test_perf(cpu, 0, 512, 1024,
						  1024, &value));
	KUNIT_EXPECT_FALSE(test, pstate_test_perf(cpu, 0, 500, 1024,
						  1024, &value));
	KUNIT_EXPECT_FALSE(test, pstate_test_perf(cpu, 1, 512, 1024,
						  1024, &value));
	KUNIT_EXPECT_EQ(test, cpu->hwp_req_cached, prev);

	KUNIT_EXPECT_TRUE(test, pstate_test_perf(cpu, 0, 513, 1024,
						 1024, &value));
	KUNIT_EXPECT_EQ(test, pstate_test_levels(cpu->hwp_req_cached).desired, 21);

	/*
	 * Going up from 0 to 2 x capacity visits DESIRED 8 to 40 once each:
	 * 33 writes, starting from a request that has none of them.
	 */
	cpu->hwp_req_cached = pstate_test_request(0, 0, 0);
	for (target_perf = 0; target_perf <= 2048; target_perf++)
		writes += pstate_test_perf(cpu, 0, target_perf, 1024,
					   1024, &value);
	KUNIT_EXPECT_EQ(test, writes, 33U);
}

/*
 * With Dynamic Efficiency Control enabled, DESIRED stays 0, also where the
 * request had one, while MIN, MAX and the other fields are those of the same
 * hints without DEC; the level the CPU is reported at is still the selected
 * one, and an unchanged request is not written again.
 */
static void intel_pstate_test_dec(struct kunit *test)
{
	static const struct {
		unsigned long min_perf, target_perf, max_perf;
	} hints[] = {
		{ 0, 0, 1024 }, { 0, 512, 1024 }, { 256, 768, 1024 },
		{ 0, 1024, 512 }, { 1024, 1024, 1024 }, { 0, 2048, 2048 },
	};
	struct pstate_test_ctx *ctx = test->priv;
	struct cpudata *cpu;
	u64 plain, value;
	unsigned int i;
	int level;

	for (i = 0; i < ARRAY_SIZE(hints); i++) {
		cpu = pstate_test_cpu(test, &lim_typical,
				      pstate_test_request(0, 0, 23));
		ctx->dec = false;
		pstate_test_perf(cpu, hints[i].min_perf, hints[i].target_perf,
				 hints[i].max_perf, 1024, &plain);
		level = cpu->pstate.current_pstate;
		KUNIT_EXPECT_NE_MSG(test, pstate_test_levels(plain).desired, 0,
				    "hints %u without DEC", i);

		cpu = pstate_test_cpu(test, &lim_typical,
				      pstate_test_request(0, 0, 23));
		ctx->dec = true;
		KUNIT_EXPECT_TRUE_MSG(test,
				      pstate_test_perf(cpu, hints[i].min_perf,
						       hints[i].target_perf,
						       hints[i].max_perf, 1024,
						       &value),
				      "hints %u", i);
		KUNIT_EXPECT_EQ_MSG(test, value,
				    plain & ~(u64)HWP_DESIRED_PERF(~0UL),
				    "hints %u", i);
		KUNIT_EXPECT_EQ(test, cpu->hwp_req_cached, value);
		KUNIT_EXPECT_EQ(test, cpu->pstate.current_pstate, level);
		KUNIT_EXPECT_FALSE_MSG(test,
				       pstate_test_perf(cpu, hints[i].min_perf,
							hints[i].target_perf,
							hints[i].max_perf, 1024,
							&value),
				       "hints %u: written again", i);
	}
	ctx->dec = false;
}

/*
 * intel_pstate_hwp_offline() is what ->offline() runs for a CPU with HWP, on
 * CPU offline and also when the driver is unregistered, which goes through
 * cpufreq_remove_dev() and __cpufreq_offline(): that is how the passive mode
 * is left for the active mode.  The cached request is written back when the
 * CPU comes online again, so DESIRED must be cleared in it too.
 */
static void intel_pstate_test_offline(struct kunit *test)
{
	u64 before = pstate_test_request(12, 45, 23);
	struct cpudata *cpu = pstate_test_cpu(test, &lim_typical, before);

	if (!pstate_test_hwp_req_ok(test))
		return;

	intel_pstate_hwp_offline(cpu);
	KUNIT_EXPECT_EQ(test, pstate_test_levels(cpu->hwp_req_cached).desired, 0);
	KUNIT_EXPECT_EQ(test, cpu->hwp_req_cached,
			before & ~(u64)HWP_DESIRED_PERF(~0UL));

	/* A request with DESIRED at 0 stays as it is. */
	before = pstate_test_request(12, 45, 0);
	cpu->hwp_req_cached = before;
	intel_pstate_hwp_offline(cpu);
	KUNIT_EXPECT_EQ(test, cpu->hwp_req_cached, before);
}

/*
 * The helper behind ->suspend(), which runs everywhere: DESIRED is cleared,
 * the rest is kept, and the register needs writing only if DESIRED was set.
 */
static void intel_pstate_test_suspend(struct kunit *test)
{
	u64 before = pstate_test_request(12, 45, 23);
	struct cpudata *cpu = pstate_test_cpu(test, &lim_typical, before);

	KUNIT_EXPECT_TRUE(test, intel_pstate_hwp_clear_desired(cpu));
	KUNIT_EXPECT_EQ(test, cpu->hwp_req_cached,
			before & ~(u64)HWP_DESIRED_PERF(~0UL));

	before = cpu->hwp_req_cached;
	KUNIT_EXPECT_FALSE(test, intel_pstate_hwp_clear_desired(cpu));
	KUNIT_EXPECT_EQ(test, cpu->hwp_req_cached, before);
}

/*
 * A frequency request (another governor, or schedutil without invariance)
 * puts the target into MIN and DESIRED, replacing what ->adjust_perf() left.
 */
static void intel_pstate_test_frequency_path(struct kunit *test)
{
	struct cpudata *cpu = pstate_test_cpu(test, &lim_typical,
					      pstate_test_request(0, 0, 0));
	u64 value, other;

	if (!pstate_test_hwp_req_ok(test))
		return;

	pstate_test_perf(cpu, 256, 512, 1024, 1024, &value);
	KUNIT_EXPECT_EQ(test, pstate_test_levels(value).desired, 23);
	other = value & ~PSTATE_TEST_LEVELS;

	intel_cpufreq_adjust_hwp(cpu, 17, false, false);
	KUNIT_EXPECT_EQ(test, cpu->hwp_req_cached,
			other | HWP_MIN_PERF(17) | HWP_MAX_PERF(45) |
			HWP_DESIRED_PERF(17));

	/* Strict target: MAX at the target as well. */
	pstate_test_perf(cpu, 256, 512, 1024, 1024, &value);
	intel_cpufreq_adjust_hwp(cpu, 30, true, false);
	KUNIT_EXPECT_EQ(test, cpu->hwp_req_cached,
			other | HWP_MIN_PERF(30) | HWP_MAX_PERF(30) |
			HWP_DESIRED_PERF(30));

	/* The next frequency request moves DESIRED with MIN. */
	intel_cpufreq_adjust_hwp(cpu, 8, false, false);
	KUNIT_EXPECT_EQ(test, cpu->hwp_req_cached,
			other | HWP_MIN_PERF(8) | HWP_MAX_PERF(45) |
			HWP_DESIRED_PERF(8));
}

/*
 * The frequency path as the cpufreq core calls it, through
 * intel_cpufreq_update_pstate(): the target is clamped to the policy limits
 * (and the lowest level) first, and policy->strict_target selects MAX.
 */
static void intel_pstate_test_frequency_callback(struct kunit *test)
{
	struct cpudata *cpu = pstate_test_cpu(test, &lim_typical,
					      pstate_test_request(0, 0, 0));
	struct cpufreq_policy *policy = pstate_test_install(test);
	u64 other;

	if (!policy)
		return;

	other = cpu->hwp_req_cached & ~PSTATE_TEST_LEVELS;

	/* Above the policy maximum (45): clamped to it. */
	KUNIT_EXPECT_EQ(test, intel_cpufreq_update_pstate(policy, 60, false), 45);
	KUNIT_EXPECT_EQ(test, cpu->hwp_req_cached,
			other | HWP_MIN_PERF(45) | HWP_MAX_PERF(45) |
			HWP_DESIRED_PERF(45));

	/* Below the lowest level (8): raised to it; MAX at the policy maximum. */
	KUNIT_EXPECT_EQ(test, intel_cpufreq_update_pstate(policy, 3, false), 8);
	KUNIT_EXPECT_EQ(test, cpu->hwp_req_cached,
			other | HWP_MIN_PERF(8) | HWP_MAX_PERF(45) |
			HWP_DESIRED_PERF(8));

	/* A strict target puts MAX at the target too. */
	policy->strict_target = true;
	KUNIT_EXPECT_EQ(test, intel_cpufreq_update_pstate(policy, 30, false), 30);
	KUNIT_EXPECT_EQ(test, cpu->hwp_req_cached,
			other | HWP_MIN_PERF(30) | HWP_MAX_PERF(30) |
			HWP_DESIRED_PERF(30));
	KUNIT_EXPECT_EQ(test, cpu->pstate.current_pstate, 30);
}

/*
 * ->adjust_perf() puts the request into the cache, for the CPU it is given,
 * and ->suspend() clears DESIRED in it.  While the CPU is suspended, ->offline()
 * leaves the request alone.
 */
static void intel_pstate_test_suspend_callback(struct kunit *test)
{
	struct cpudata *cpu = pstate_test_cpu(test, &lim_typical,
					      pstate_test_request(0, 0, 0));
	struct cpufreq_policy *policy = pstate_test_install(test);
	u64 value;

	if (!policy)
		return;

	cpu->pstate.scaling = 100000;
	pstate_test_adjust_perf(policy, 256, 512, 1024, 1024);
	value = cpu->hwp_req_cached;
	KUNIT_EXPECT_EQ(test, value & PSTATE_TEST_LEVELS,
			(u64)(HWP_MIN_PERF(12) | HWP_MAX_PERF(45) |
			      HWP_DESIRED_PERF(23)));
	/* policy->cur follows the request. */
	KUNIT_EXPECT_EQ(test, policy->cur, 2300000U);

	KUNIT_EXPECT_EQ(test, intel_pstate_suspend(policy), 0);
	KUNIT_EXPECT_TRUE(test, cpu->suspended);
	KUNIT_EXPECT_EQ(test, cpu->hwp_req_cached,
			value & ~(u64)HWP_DESIRED_PERF(~0UL));

	value = cpu->hwp_req_cached;
	KUNIT_EXPECT_EQ(test, intel_pstate_cpu_offline(policy), 0);
	KUNIT_EXPECT_EQ(test, cpu->hwp_req_cached, value);
}

/*
 * ->offline() is what cpufreq_remove_dev() runs, through __cpufreq_offline(),
 * for every CPU when the driver is unregistered: on the switch from the passive
 * to the active mode, and on CPU offline.  DESIRED must not survive it.
 */
static void intel_pstate_test_offline_callback(struct kunit *test)
{
	struct cpudata *cpu = pstate_test_cpu(test, &lim_typical,
					      pstate_test_request(0, 0, 0));
	struct cpufreq_policy *policy = pstate_test_install(test);
	u64 value;

	if (!policy)
		return;

	pstate_test_adjust_perf(policy, 0, 1024, 1024, 1024);
	value = cpu->hwp_req_cached;
	KUNIT_EXPECT_EQ(test, pstate_test_levels(value).desired, 45);

	KUNIT_EXPECT_EQ(test, intel_pstate_cpu_offline(policy), 0);
	KUNIT_EXPECT_EQ(test, cpu->hwp_req_cached,
			value & ~(u64)HWP_DESIRED_PERF(~0UL));
}

static struct kunit_case intel_pstate_test_cases[] = {
	KUNIT_CASE(intel_pstate_test_scale),
	KUNIT_CASE(intel_pstate_test_hint_edges),
	KUNIT_CASE(intel_pstate_test_rounding),
	KUNIT_CASE(intel_pstate_test_cap),
	KUNIT_CASE(intel_pstate_test_limits),
	KUNIT_CASE(intel_pstate_test_max_perf),
	KUNIT_CASE(intel_pstate_test_sweep),
	KUNIT_CASE(intel_pstate_test_busy_loop),
	KUNIT_CASE(intel_pstate_test_perf_ref),
	KUNIT_CASE(intel_pstate_test_fields),
	KUNIT_CASE(intel_pstate_test_no_write),
	KUNIT_CASE(intel_pstate_test_dec),
	KUNIT_CASE(intel_pstate_test_offline),
	KUNIT_CASE(intel_pstate_test_suspend),
	KUNIT_CASE(intel_pstate_test_frequency_path),
	KUNIT_CASE(intel_pstate_test_frequency_callback),
	KUNIT_CASE(intel_pstate_test_suspend_callback),
	KUNIT_CASE(intel_pstate_test_offline_callback),
	{}
};

static struct kunit_suite intel_pstate_test_suite = {
	.name = "intel_pstate",
	.init = pstate_test_init,
	.exit = pstate_test_exit,
	.test_cases = intel_pstate_test_cases,
};

kunit_test_suite(intel_pstate_test_suite);
