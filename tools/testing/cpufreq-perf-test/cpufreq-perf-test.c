// SPDX-License-Identifier: GPL-2.0
/*
 * A cpufreq driver that records its callbacks' arguments, and a KUnit suite of
 * what schedutil asks of it under a kthread's load: ->adjust_perf() where
 * utilization is frequency-invariant (arm64), ->fast_switch() where not (x86
 * under TCG; the x86 cases force invariance on and off). HARNESS ONLY, built by
 * tools/build-test-module.sh; it refuses to load over another cpufreq driver.
 */

#define pr_fmt(fmt) "cpufreq-perf-test: " fmt

#include <kunit/test.h>
#include <linux/cpufreq.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/irqflags.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/topology.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/topology.h>
#include <uapi/linux/sched/types.h>

/* Rate limit that schedutil derives from policy->transition_delay_us. */
#define PT_RATE_LIMIT_US	20000
/* The shortest gap between ->adjust_perf() calls, less rq clock vs local_clock() skew. */
#define PT_MIN_GAP_NS	((u64)PT_RATE_LIMIT_US * NSEC_PER_USEC - 2 * NSEC_PER_MSEC)

static struct cpufreq_frequency_table pt_freq_table[] = {
	{ .frequency = 400000 },
	{ .frequency = 800000 },
	{ .frequency = 1200000 },
	{ .frequency = 1600000 },
	{ .frequency = CPUFREQ_TABLE_END },
};

#define PT_MIN_FREQ	400000
#define PT_MAX_FREQ	1600000

/* What the driver saw for one CPU. */
struct pt_record {
	unsigned long adjust_perf_calls;
	unsigned long fast_switch_calls;
	unsigned long target_calls;
	/* calls with interrupts on, or for another CPU than the local one */
	unsigned long bad_context;
	/* calls breaking min <= target <= max (unless min > max) <= capacity */
	unsigned long bad_hints;
	unsigned long last_min_perf;
	unsigned long last_target_perf;
	unsigned long last_max_perf;
	unsigned long last_capacity;
	unsigned long max_target_perf;
	unsigned long max_min_perf;
	u64 last_adjust_ns;
	u64 min_adjust_gap_ns;
	unsigned int last_freq;
};

struct pt_cpu {
	raw_spinlock_t lock;
	unsigned int cur_freq;	/* device state, not reset */
	struct pt_record rec;
};

static DEFINE_PER_CPU(struct pt_cpu, pt_cpus);

/* How the next registration of the driver behaves. */
static struct {
	bool shared;		/* one policy for all CPUs */
	bool fast_switch;	/* policy->fast_switch_possible */
	unsigned int rate_limit_us;
} pt_cfg;

static atomic_t pt_inits = ATOMIC_INIT(0);
static atomic_t pt_exits = ATOMIC_INIT(0);

static void pt_reset(unsigned int cpu)
{
	struct pt_cpu *pc = per_cpu_ptr(&pt_cpus, cpu);
	unsigned long flags;

	raw_spin_lock_irqsave(&pc->lock, flags);
	memset(&pc->rec, 0, sizeof(pc->rec));
	pc->rec.min_adjust_gap_ns = U64_MAX;
	raw_spin_unlock_irqrestore(&pc->lock, flags);
}

static void pt_snapshot(unsigned int cpu, struct pt_record *rec)
{
	struct pt_cpu *pc = per_cpu_ptr(&pt_cpus, cpu);
	unsigned long flags;

	raw_spin_lock_irqsave(&pc->lock, flags);
	*rec = pc->rec;
	raw_spin_unlock_irqrestore(&pc->lock, flags);
}

static void pt_set_cur_freq(const struct cpumask *cpus, unsigned int freq)
{
	unsigned long flags;
	unsigned int cpu;

	for_each_cpu(cpu, cpus) {
		struct pt_cpu *pc = per_cpu_ptr(&pt_cpus, cpu);

		raw_spin_lock_irqsave(&pc->lock, flags);
		pc->cur_freq = freq;
		raw_spin_unlock_irqrestore(&pc->lock, flags);
	}
}

static int pt_cpufreq_init(struct cpufreq_policy *policy)
{
	if (pt_cfg.shared)
		cpumask_copy(policy->cpus, cpu_possible_mask);

	policy->freq_table = pt_freq_table;
	policy->cpuinfo.transition_latency = 100 * NSEC_PER_USEC;
	policy->transition_delay_us = pt_cfg.rate_limit_us;
	policy->fast_switch_possible = pt_cfg.fast_switch;
	/* Start low, so that load has to raise the frequency. */
	pt_set_cur_freq(policy->cpus, PT_MIN_FREQ);
	atomic_inc(&pt_inits);

	return 0;
}

static int pt_cpufreq_exit(struct cpufreq_policy *policy)
{
	atomic_inc(&pt_exits);
	return 0;
}

static unsigned int pt_cpufreq_get(unsigned int cpu)
{
	return READ_ONCE(per_cpu_ptr(&pt_cpus, cpu)->cur_freq);
}

static int pt_cpufreq_target_index(struct cpufreq_policy *policy,
				   unsigned int index)
{
	struct pt_cpu *pc = per_cpu_ptr(&pt_cpus, policy->cpu);
	unsigned int freq = policy->freq_table[index].frequency;
	unsigned long flags;

	raw_spin_lock_irqsave(&pc->lock, flags);
	pc->rec.target_calls++;
	pc->rec.last_freq = freq;
	raw_spin_unlock_irqrestore(&pc->lock, flags);
	pt_set_cur_freq(policy->cpus, freq);

	return 0;
}

static unsigned int pt_cpufreq_fast_switch(struct cpufreq_policy *policy,
					   unsigned int target_freq)
{
	struct pt_cpu *pc = per_cpu_ptr(&pt_cpus, policy->cpu);

	raw_spin_lock(&pc->lock);
	pc->rec.fast_switch_calls++;
	if (!irqs_disabled())
		pc->rec.bad_context++;
	pc->rec.last_freq = target_freq;
	raw_spin_unlock(&pc->lock);
	pt_set_cur_freq(policy->cpus, target_freq);

	return target_freq;
}

static void pt_cpufreq_adjust_perf(struct cpufreq_policy *policy,
				   unsigned long min_perf,
				   unsigned long target_perf,
				   unsigned long max_perf,
				   unsigned long capacity)
{
	struct pt_cpu *pc = per_cpu_ptr(&pt_cpus, policy->cpu);
	u64 now = local_clock();
	struct pt_record *rec = &pc->rec;

	raw_spin_lock(&pc->lock);
	rec->adjust_perf_calls++;
	if (!irqs_disabled() || policy->cpu != smp_processor_id() ||
	    !cpumask_equal(policy->cpus, cpumask_of(policy->cpu)))
		rec->bad_context++;
	if (min_perf > target_perf || max_perf > capacity ||
	    target_perf > max(min_perf, max_perf))
		rec->bad_hints++;
	rec->last_min_perf = min_perf;
	rec->last_target_perf = target_perf;
	rec->last_max_perf = max_perf;
	rec->last_capacity = capacity;
	if (target_perf > rec->max_target_perf)
		rec->max_target_perf = target_perf;
	if (min_perf > rec->max_min_perf)
		rec->max_min_perf = min_perf;
	if (rec->last_adjust_ns && now - rec->last_adjust_ns < rec->min_adjust_gap_ns)
		rec->min_adjust_gap_ns = now - rec->last_adjust_ns;
	rec->last_adjust_ns = now;
	raw_spin_unlock(&pc->lock);
}

static struct cpufreq_driver pt_driver = {
	.name		= "perf-test",
	/* As intel_pstate with HWP: hear about every change of the limits. */
	.flags		= CPUFREQ_NEED_UPDATE_LIMITS,
	.init		= pt_cpufreq_init,
	.exit		= pt_cpufreq_exit,
	.verify		= cpufreq_generic_frequency_table_verify,
	.get		= pt_cpufreq_get,
	.target_index	= pt_cpufreq_target_index,
	.fast_switch	= pt_cpufreq_fast_switch,
	.adjust_perf	= pt_cpufreq_adjust_perf,
	.attr		= cpufreq_generic_attr,
};

/* What pt_test_exit() undoes, however a case ends. */
struct pt_ctx {
	bool registered;
	/* x86 invariance key state to restore, if a case changed it */
	bool inv_saved;
	bool inv_was_on;
	/* the load kthread, one at a time */
	struct task_struct *hog;
};

static int pt_hog_fn(void *data)
{
	while (!kthread_should_stop()) {
		cpu_relax();
		cond_resched();
	}
	return 0;
}

/* A kthread running @fn on @cpu, bound after getting @attr (DEADLINE admission). */
static void pt_start(struct kunit *test, int (*fn)(void *), unsigned int cpu,
		     const struct sched_attr *attr)
{
	struct pt_ctx *ctx = test->priv;
	struct task_struct *task;

	KUNIT_ASSERT_FALSE(test, ctx->hog);
	task = kthread_create(fn, NULL, "pt_load/%u", cpu);
	KUNIT_ASSERT_FALSE(test, IS_ERR(task));
	ctx->hog = task;
	if (attr)
		KUNIT_ASSERT_EQ(test, sched_setattr_nocheck(task, attr), 0);
	kthread_bind(task, cpu);
	wake_up_process(task);
}

static void pt_stop(struct kunit *test)
{
	struct pt_ctx *ctx = test->priv;

	if (ctx->hog)
		kthread_stop(ctx->hog);
	ctx->hog = NULL;
}

static void pt_register(struct kunit *test, bool shared, bool fast_switch,
			bool adjust_perf, unsigned int rate_limit_us)
{
	struct pt_ctx *ctx = test->priv;
	unsigned int cpu;
	int ret;

	pt_cfg.shared = shared;
	pt_cfg.fast_switch = fast_switch;
	pt_cfg.rate_limit_us = rate_limit_us;
	pt_driver.adjust_perf = adjust_perf ? pt_cpufreq_adjust_perf : NULL;
	for_each_possible_cpu(cpu)
		pt_reset(cpu);

	ret = cpufreq_register_driver(&pt_driver);
	KUNIT_ASSERT_EQ_MSG(test, ret, 0,
			    "cannot register the test driver (another cpufreq driver registered?)");
	ctx->registered = true;
}

static unsigned int pt_load_cpu(void)
{
	return cpumask_last(cpu_online_mask);
}

/* Whether schedutil's single-CPU updates must reach ->adjust_perf(). */
static bool pt_perf_path_expected(struct kunit *test)
{
	bool invariant = arch_scale_freq_invariant();

	if (IS_ENABLED(CONFIG_ARM64))
		KUNIT_EXPECT_TRUE_MSG(test, invariant,
				      "arm64: a registered ->target_index() driver must make utilization frequency-invariant");
	kunit_info(test, "frequency invariance is %s\n", invariant ? "on" : "off");
	return invariant;
}

/* Check that schedutil's updates for @cpu took the expected path. */
static void pt_expect_path(struct kunit *test, const struct pt_record *rec,
			   unsigned int cpu, bool perf)
{
	KUNIT_EXPECT_EQ(test, rec->bad_context, 0UL);
	KUNIT_EXPECT_EQ(test, rec->bad_hints, 0UL);
	KUNIT_EXPECT_EQ(test, rec->target_calls, 0UL);
	if (perf) {
		KUNIT_EXPECT_GT_MSG(test, rec->adjust_perf_calls, 0UL,
				    "no ->adjust_perf() call for CPU%u", cpu);
		KUNIT_EXPECT_EQ(test, rec->fast_switch_calls, 0UL);
	} else {
		KUNIT_EXPECT_GT_MSG(test, rec->fast_switch_calls, 0UL,
				    "no ->fast_switch() call for CPU%u", cpu);
		KUNIT_EXPECT_EQ(test, rec->adjust_perf_calls, 0UL);
	}
}

/* TCG timing is unsteady: wait up to PT_WAIT_MS for what a case expects, not a fixed time. */
#define PT_WAIT_MS	5000

typedef bool (*pt_pred_t)(const struct pt_record *rec, unsigned long arg);

static void pt_wait_for(unsigned int cpu, pt_pred_t pred, unsigned long arg,
			struct pt_record *rec)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(PT_WAIT_MS);

	for (;;) {
		pt_snapshot(cpu, rec);
		if (pred(rec, arg) || time_after(jiffies, deadline))
			return;
		msleep(20);
	}
}

/* From a fresh record, run @fn on the load CPU for @settle_ms, then until @pred(@arg). */
static void pt_run(struct kunit *test, int (*fn)(void *),
		   const struct sched_attr *attr, unsigned int settle_ms,
		   pt_pred_t pred, unsigned long arg, struct pt_record *rec)
{
	unsigned int cpu = pt_load_cpu();

	pt_reset(cpu);
	pt_start(test, fn, cpu, attr);
	if (settle_ms)
		msleep(settle_ms);
	pt_wait_for(cpu, pred, arg, rec);
	pt_stop(test);
}

static bool pt_at_freq(const struct pt_record *rec, unsigned long freq)
{
	return rec->last_freq == freq;
}

/* A CPU-bound load until the driver was asked for the highest frequency. */
static void pt_run_to_max(struct kunit *test, struct pt_record *rec)
{
	pt_run(test, pt_hog_fn, NULL, 100, pt_at_freq, PT_MAX_FREQ, rec);
	KUNIT_EXPECT_EQ(test, rec->last_freq, (unsigned int)PT_MAX_FREQ);
}

/* The core refuses ->adjust_perf() without ->fast_switch() to fall back to. */
static void pt_test_adjust_perf_needs_fast_switch(struct kunit *test)
{
	struct cpufreq_driver drv = pt_driver;
	int ret;

	drv.adjust_perf = pt_cpufreq_adjust_perf;
	drv.fast_switch = NULL;
	ret = cpufreq_register_driver(&drv);
	KUNIT_EXPECT_EQ(test, ret, -EINVAL);
	if (!ret)
		cpufreq_unregister_driver(&drv);
	KUNIT_EXPECT_TRUE(test, cpufreq_get_current_driver() != drv.name);
}

#ifdef CONFIG_ARM64
/* A kthread that sleeps most of the time, to wake an idle CPU up now and then. */
static int pt_ticker_fn(void *data)
{
	while (!kthread_should_stop())
		usleep_range(4000, 6000);
	return 0;
}

/* One policy per CPU with ->adjust_perf(), and the perf path required. */
static void pt_register_perf(struct kunit *test)
{
	pt_register(test, false, true, true, PT_RATE_LIMIT_US);
	KUNIT_ASSERT_TRUE(test, pt_perf_path_expected(test));
	msleep(100);
}

/* Under load: enough ->adjust_perf() calls, the target up to capacity. */
static bool pt_loaded(const struct pt_record *rec, unsigned long capacity)
{
	return rec->adjust_perf_calls >= 5 && rec->max_target_perf >= capacity;
}

/* After idle: the target down below a quarter of capacity. */
static bool pt_idled(const struct pt_record *rec, unsigned long capacity)
{
	return rec->adjust_perf_calls && rec->last_target_perf < capacity / 4;
}

/* Under load and after idle: the hints in order, the target up then down, rate-limited. */
static void pt_test_perf_path(struct kunit *test)
{
	unsigned int cpu = pt_load_cpu();
	unsigned long capacity = arch_scale_cpu_capacity(cpu);
	struct pt_record load, idle;

	pt_register_perf(test);
	pt_run(test, pt_hog_fn, NULL, 300, pt_loaded, capacity, &load);
	kunit_info(test, "CPU%u under load: %lu adjust_perf calls, max target %lu, capacity %lu, min gap %llu ns\n",
		   cpu, load.adjust_perf_calls, load.max_target_perf,
		   load.last_capacity, load.min_adjust_gap_ns);
	pt_expect_path(test, &load, cpu, true);
	KUNIT_EXPECT_GE(test, load.adjust_perf_calls, 5UL);
	KUNIT_EXPECT_GT(test, capacity, 0UL);
	KUNIT_EXPECT_EQ(test, load.last_capacity, capacity);
	/* with the headroom, a CPU-bound task's target reaches capacity, the most allowed */
	KUNIT_EXPECT_EQ(test, load.max_target_perf, capacity);
	KUNIT_EXPECT_EQ(test, load.last_max_perf, capacity);
	KUNIT_EXPECT_LE(test, load.last_min_perf, load.last_target_perf);
	KUNIT_EXPECT_GE(test, load.min_adjust_gap_ns, PT_MIN_GAP_NS);

	/* Idle, with a sleeper waking the CPU up so that updates happen. */
	pt_run(test, pt_ticker_fn, NULL, 300, pt_idled, capacity, &idle);
	kunit_info(test, "CPU%u after idle: %lu adjust_perf calls, last target %lu\n",
		   cpu, idle.adjust_perf_calls, idle.last_target_perf);
	pt_expect_path(test, &idle, cpu, true);
	KUNIT_EXPECT_LT(test, idle.last_target_perf, capacity / 4);
	KUNIT_EXPECT_LT(test, idle.last_target_perf, load.max_target_perf);
	KUNIT_EXPECT_GE(test, idle.min_adjust_gap_ns, PT_MIN_GAP_NS);
}

/* Some ->adjust_perf() calls, one of which required at least @min. */
static bool pt_floored(const struct pt_record *rec, unsigned long min)
{
	return rec->adjust_perf_calls >= 5 && rec->max_min_perf >= min;
}

/* The last call required a DEADLINE bandwidth @bw, without headroom. */
static bool pt_dl_bw(const struct pt_record *rec, unsigned long bw)
{
	return rec->adjust_perf_calls >= 5 && rec->last_min_perf >= bw &&
	       rec->last_min_perf < bw + bw / 8;
}

/* A runnable RT task requires the full capacity (governor, or RT default uclamp). */
static void pt_test_perf_rt(struct kunit *test)
{
	static const struct sched_attr attr = {
		.size		= sizeof(attr),
		.sched_policy	= SCHED_FIFO,
		.sched_priority	= 1,
	};
	unsigned int cpu = pt_load_cpu();
	unsigned long capacity = arch_scale_cpu_capacity(cpu);
	struct pt_record rec;

	pt_register_perf(test);
	pt_run(test, pt_ticker_fn, &attr, 0, pt_floored, capacity, &rec);
	kunit_info(test, "CPU%u, RT task: highest min %lu\n", cpu,
		   rec.max_min_perf);
	pt_expect_path(test, &rec, cpu, true);
	KUNIT_EXPECT_EQ(test, rec.max_min_perf, capacity);
}

/* A DEADLINE task (2 ms every 10 ms) requires its bandwidth without headroom. */
static void pt_test_perf_deadline(struct kunit *test)
{
	static const struct sched_attr attr = {
		.size		= sizeof(attr),
		.sched_policy	= SCHED_DEADLINE,
		.sched_runtime	= 2 * NSEC_PER_MSEC,
		.sched_deadline	= 10 * NSEC_PER_MSEC,
		.sched_period	= 10 * NSEC_PER_MSEC,
	};
	unsigned int cpu = pt_load_cpu();
	unsigned long capacity = arch_scale_cpu_capacity(cpu);
	unsigned long bw = capacity * 2 / 10;
	struct pt_record rec;

	pt_register_perf(test);
	pt_run(test, pt_ticker_fn, &attr, 0, pt_dl_bw, bw, &rec);
	kunit_info(test, "CPU%u, DEADLINE 2/10 ms: highest min %lu, last min %lu, of %lu\n",
		   cpu, rec.max_min_perf, rec.last_min_perf, capacity);
	pt_expect_path(test, &rec, cpu, true);
	/* not 1.25 * bw (headroom) nor capacity (RT); IRQ pressure adds a few units */
	KUNIT_EXPECT_GE(test, rec.last_min_perf, bw);
	KUNIT_EXPECT_LT(test, rec.last_min_perf, bw + bw / 8);
}
#endif /* CONFIG_ARM64 */

#ifdef CONFIG_X86
/* The x86 invariance key off, saved for pt_test_exit(); never under another driver. */
static void pt_invariance_off(struct kunit *test)
{
	struct pt_ctx *ctx = test->priv;

	KUNIT_ASSERT_TRUE_MSG(test, !cpufreq_get_current_driver(),
			      "another cpufreq driver is registered: invariance left alone");
	ctx->inv_was_on = arch_scale_freq_invariant();
	ctx->inv_saved = true;
	static_branch_disable(&arch_scale_freq_key);
}

/* Without frequency invariance the perf setup falls back to ->fast_switch(). */
static void pt_test_fallback_without_invariance(struct kunit *test)
{
	struct pt_record load;

	/* Real hardware with APERF/MPERF is invariant: take it away. */
	pt_invariance_off(test);
	pt_register(test, false, true, true, PT_RATE_LIMIT_US);
	KUNIT_EXPECT_FALSE(test, pt_perf_path_expected(test));
	pt_run_to_max(test, &load);
	pt_expect_path(test, &load, pt_load_cpu(), false);
}

/*
 * Invariance lost under load: the key forced on, ->adjust_perf() used; off again
 * (by the kernel at the next tick under TCG, else by the test), not used any more.
 */
static void pt_test_invariance_lost_under_load(struct kunit *test)
{
	unsigned long perf_calls = 0;
	unsigned int cpu = pt_load_cpu();
	struct pt_record rec;
	int i, j;

	pt_invariance_off(test);
	/* A short rate limit, so that the short invariant window sees updates. */
	pt_register(test, false, true, true, 1000);
	pt_start(test, pt_hog_fn, cpu, NULL);
	msleep(100);

	for (i = 0; i < 20 && !perf_calls; i++) {
		pt_reset(cpu);
		static_branch_enable(&arch_scale_freq_key);
		for (j = 0; j < 50 && arch_scale_freq_invariant(); j++)
			usleep_range(2000, 3000);
		if (arch_scale_freq_invariant())
			static_branch_disable(&arch_scale_freq_key);
		pt_snapshot(cpu, &rec);
		KUNIT_EXPECT_EQ(test, rec.bad_context, 0UL);
		KUNIT_EXPECT_EQ(test, rec.bad_hints, 0UL);
		perf_calls += rec.adjust_perf_calls;
	}
	kunit_info(test, "%lu ->adjust_perf() calls in %d invariant window(s)\n",
		   perf_calls, i);
	KUNIT_EXPECT_GT_MSG(test, perf_calls, 0UL,
			    "schedutil never used ->adjust_perf() while invariance was on");

	/* frequency path again: no ->adjust_perf(); it may stay silent, as in mainline */
	msleep(20);
	pt_snapshot(cpu, &rec);
	perf_calls = rec.adjust_perf_calls;
	msleep(200);
	pt_snapshot(cpu, &rec);
	KUNIT_EXPECT_FALSE(test, arch_scale_freq_invariant());
	KUNIT_EXPECT_EQ(test, rec.adjust_perf_calls, perf_calls);
	KUNIT_EXPECT_EQ(test, rec.target_calls, 0UL);
	KUNIT_EXPECT_EQ(test, rec.bad_context, 0UL);
}
#endif /* CONFIG_X86 */

/* A policy shared by all CPUs keeps the shared hook: ->fast_switch() only. */
static void pt_test_shared_policy(struct kunit *test)
{
	unsigned int cpu = pt_load_cpu(), pcpu, i;
	struct cpufreq_policy *policy;
	unsigned long adjust = 0, fast = 0, target = 0, bad = 0;
	struct pt_record rec;

	KUNIT_ASSERT_GT(test, num_online_cpus(), 1U);
	pt_register(test, true, true, true, PT_RATE_LIMIT_US);
	/* With invariance the single-CPU hook would call ->adjust_perf(). */
	pt_perf_path_expected(test);

	policy = cpufreq_cpu_get(cpu);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, policy);
	KUNIT_EXPECT_EQ(test, cpumask_weight(policy->cpus), num_online_cpus());
	KUNIT_EXPECT_TRUE(test, policy_is_shared(policy));
	KUNIT_EXPECT_TRUE(test, policy->fast_switch_enabled);
	/* ->fast_switch() calls are recorded for the policy's CPU */
	pcpu = policy->cpu;
	cpufreq_cpu_put(policy);

	pt_start(test, pt_hog_fn, cpu, NULL);
	msleep(100);
	pt_wait_for(pcpu, pt_at_freq, PT_MAX_FREQ, &rec);
	pt_stop(test);

	for_each_online_cpu(i) {
		pt_snapshot(i, &rec);
		adjust += rec.adjust_perf_calls;
		fast += rec.fast_switch_calls;
		target += rec.target_calls;
		bad += rec.bad_context;
	}
	KUNIT_EXPECT_EQ(test, adjust, 0UL);
	KUNIT_EXPECT_GT(test, fast, 0UL);
	KUNIT_EXPECT_EQ(test, target, 0UL);
	KUNIT_EXPECT_EQ(test, bad, 0UL);
}

/* A driver without ->adjust_perf() keeps the frequency hook. */
static void pt_test_no_adjust_perf(struct kunit *test)
{
	struct pt_record rec;

	pt_register(test, false, true, false, PT_RATE_LIMIT_US);
	KUNIT_EXPECT_FALSE(test, cpufreq_driver_has_adjust_perf());
	/* With invariance the perf hook would be chosen if the check were wrong. */
	pt_perf_path_expected(test);
	pt_run_to_max(test, &rec);
	pt_expect_path(test, &rec, pt_load_cpu(), false);
}

/* Without fast switching, ->adjust_perf() is never used: ->target_index() is. */
static void pt_test_no_fast_switch(struct kunit *test)
{
	struct cpufreq_policy *policy;
	struct pt_record rec;

	pt_register(test, false, false, true, PT_RATE_LIMIT_US);
	KUNIT_EXPECT_TRUE(test, cpufreq_driver_has_adjust_perf());
	pt_perf_path_expected(test);

	policy = cpufreq_cpu_get(pt_load_cpu());
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, policy);
	KUNIT_EXPECT_FALSE(test, policy->fast_switch_enabled);
	cpufreq_cpu_put(policy);

	pt_run_to_max(test, &rec);
	KUNIT_EXPECT_EQ(test, rec.adjust_perf_calls, 0UL);
	KUNIT_EXPECT_EQ(test, rec.fast_switch_calls, 0UL);
	KUNIT_EXPECT_GT(test, rec.target_calls, 0UL);
}

static int pt_test_init(struct kunit *test)
{
	struct pt_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);

	if (!ctx)
		return -ENOMEM;
	test->priv = ctx;
	atomic_set(&pt_inits, 0);
	atomic_set(&pt_exits, 0);

	return 0;
}

static void pt_test_exit(struct kunit *test)
{
	struct pt_ctx *ctx = test->priv;

	pt_stop(test);
	if (ctx->registered)
		KUNIT_EXPECT_EQ(test, cpufreq_unregister_driver(&pt_driver), 0);
#ifdef CONFIG_X86
	if (ctx->inv_saved) {
		if (ctx->inv_was_on)
			static_branch_enable(&arch_scale_freq_key);
		else
			static_branch_disable(&arch_scale_freq_key);
	}
#endif
	KUNIT_EXPECT_EQ(test, atomic_read(&pt_inits), atomic_read(&pt_exits));
}

static struct kunit_case pt_test_cases[] = {
	KUNIT_CASE(pt_test_adjust_perf_needs_fast_switch),
#ifdef CONFIG_ARM64
	KUNIT_CASE(pt_test_perf_path),
	KUNIT_CASE(pt_test_perf_rt),
	KUNIT_CASE(pt_test_perf_deadline),
#endif
#ifdef CONFIG_X86
	KUNIT_CASE(pt_test_fallback_without_invariance),
	KUNIT_CASE(pt_test_invariance_lost_under_load),
#endif
	KUNIT_CASE(pt_test_shared_policy),
	KUNIT_CASE(pt_test_no_adjust_perf),
	KUNIT_CASE(pt_test_no_fast_switch),
	{}
};

static struct kunit_suite pt_test_suite = {
	.name = "cpufreq-perf-test",
	.init = pt_test_init,
	.exit = pt_test_exit,
	.test_cases = pt_test_cases,
};

static struct kunit_suite *pt_test_suites[] = { &pt_test_suite, NULL };

static int __init pt_module_init(void)
{
	const char *other = cpufreq_get_current_driver();
	unsigned int cpu;

	if (other) {
		pr_err("not loaded: another cpufreq driver (%s) is registered; nothing changed\n",
		       other);
		return -EBUSY;
	}
	for_each_possible_cpu(cpu)
		raw_spin_lock_init(&per_cpu_ptr(&pt_cpus, cpu)->lock);
	/* 5.10 prints no TAP header for it: tools/kunit-init.sh does. */
	return __kunit_test_suites_init(pt_test_suites);
}
module_init(pt_module_init);

static void __exit pt_module_exit(void)
{
	__kunit_test_suites_exit(pt_test_suites);
}
module_exit(pt_module_exit);

MODULE_DESCRIPTION("Test-only cpufreq driver and KUnit suite for ->adjust_perf() (make check harness only)");
MODULE_LICENSE("GPL");
