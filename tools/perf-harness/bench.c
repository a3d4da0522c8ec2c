// SPDX-License-Identifier: GPL-2.0
/*
 * Cost driver of the ->adjust_perf callbacks (callback.c, CB series or m73):
 *   bench cost CB CAPACITY     every update's hints once (run under callgrind)
 *   bench cycles CAPACITY N    TSC ticks per call, N rounds of both callbacks
 * What and how it measures: perf-harness.md, "Cost per call of the
 * callback"; the utilization model: "The traces".
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callback.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define HAVE_TSC 1
#endif

#define HWP_LOWEST	8	/* 800 MHz */
#define HWP_GUARANTEED	37	/* 3.7 GHz */
#define HWP_HIGHEST	46	/* 4.6 GHz: an i5-9600K-like part */
#define STEP_US		10
#define TRACE_US	(10 * 1000 * 1000)
#define TICK_US		1000	/* HZ=1000 */
#define RATE_LIMIT_US	5000	/* INTEL_CPUFREQ_TRANSITION_DELAY_HWP (5.10) */

struct update { unsigned int t_us, util, dl; };

struct trace {
	const char *name;
	const char *desc;
	int kind;		/* 0 periodic, 1 ramp, 2 bursty */
	double hz, duty;	/* periodic */
	unsigned int dl;	/* deadline bandwidth, 0..1024 */
	struct update *u;
	int n;
};

static struct trace traces[] = {
	{ "p73",    "periodic 73 Hz, 30% work",  0, 73,  0.30, 0, NULL, 0 },
	{ "p113",   "periodic 113 Hz, 30% work", 0, 113, 0.30, 0, NULL, 0 },
	{ "p211",   "periodic 211 Hz, 30% work", 0, 211, 0.30, 0, NULL, 0 },
	{ "p347",   "periodic 347 Hz, 30% work", 0, 347, 0.30, 0, NULL, 0 },
	{ "p401",   "periodic 401 Hz, 30% work", 0, 401, 0.30, 0, NULL, 0 },
	{ "ramp",   "ramp 0->100% work, 10 ms period", 1, 100, 0, 0, NULL, 0 },
	{ "bursty", "bursty short tasks (0.2-3 ms, mean gap 15 ms)", 2, 0, 0, 0, NULL, 0 },
	{ "dl",     "bursty + deadline reservation 25%", 2, 0, 0, 256, NULL, 0 },
};
#define NTRACES (int)(sizeof(traces) / sizeof(traces[0]))

static unsigned long long lcg = 88172645463325252ULL;
static double rnd(void)
{
	lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
	return (double)(lcg >> 11) / 9007199254740992.0;
}

/* Is the task running at time t (us)?  Work in full-capacity time. */
static int running(const struct trace *tr, unsigned int t, unsigned int *burst_end,
		   unsigned int *next_burst)
{
	if (tr->kind == 0) {
		double period = 1e6 / tr->hz;
		double ph = fmod((double)t, period);

		return ph < tr->duty * period;
	}
	if (tr->kind == 1) {
		double period = 1e6 / tr->hz;
		double duty = (double)t / TRACE_US;

		return fmod((double)t, period) < duty * period;
	}
	/* bursty */
	if (t >= *next_burst) {
		*burst_end = t + 200 + (unsigned int)(rnd() * 2800);
		*next_burst = *burst_end + (unsigned int)(-log(1.0 - rnd()) * 15000);
	}
	return t < *burst_end;
}

static void gen(struct trace *tr)
{
	double d = pow(0.5, (double)STEP_US / 1000.0 / 32.0);	/* y per step */
	double util = 0;
	unsigned int t, last_update = 0, burst_end = 0, next_burst = 0;
	int was_running = 0, cap = TRACE_US / TICK_US * 3 + 16;
	int have = 0;

	lcg = 88172645463325252ULL;
	tr->u = calloc(cap, sizeof(*tr->u));
	tr->n = 0;
	for (t = 0; t < TRACE_US; t += STEP_US) {
		int run = running(tr, t, &burst_end, &next_burst);
		int event = run != was_running || (run && t % TICK_US == 0);

		util = util * d + (run ? 1024.0 * (1.0 - d) : 0);
		was_running = run;
		if (!event)
			continue;
		if (have && t - last_update < RATE_LIMIT_US)
			continue;
		have = 1;
		last_update = t;
		/* DEADLINE bandwidth added to CFS, capped; alone: min_perf */
		tr->u[tr->n++] = (struct update){ t,
			(unsigned int)fmin(1024.0, util + tr->dl), tr->dl };
	}
}

/* Before the first call: the full range, turbo on, EPP 0x80; reference = highest */
static void setup_cb(const struct h6_callback *cb)
{
	struct h6_model m = {
		.lowest = HWP_LOWEST, .guaranteed = HWP_GUARANTEED,
		.highest = HWP_HIGHEST, .min_ratio = HWP_LOWEST,
		.max_ratio = HWP_HIGHEST, .scaling = 100000,
		.ref = (HWP_GUARANTEED * (HWP_HIGHEST * 1024 / HWP_GUARANTEED) + 512) / 1024,
		.req = 0x80ULL << 24 | (u64)HWP_HIGHEST << 8 | HWP_LOWEST,
	};

	cb->init(&m);
}

struct hints { unsigned long min, target, max, capacity; };

/* The hints of every update of the traces, at @capacity. */
static struct hints *hints_of(unsigned long capacity, unsigned long *n)
{
	struct hints *h;
	unsigned long c = 0;
	int k, i;

	for (k = 0; k < NTRACES; k++)
		c += traces[k].n;
	h = calloc(c, sizeof(*h));
	if (!h)
		exit(1);
	*n = 0;
	for (k = 0; k < NTRACES; k++) {
		for (i = 0; i < traces[k].n; i++) {
			const struct update *u = &traces[k].u[i];
			unsigned long util = u->util * capacity / 1024;
			unsigned long dl = u->dl * capacity / 1024;
			/* map_util_perf(): util + util / 4 */
			unsigned long target = util + (util >> 2);

			if (target > capacity)
				target = capacity;
			if (target < dl)
				target = dl;
			h[(*n)++] = (struct hints){ dl, target, capacity, capacity };
		}
	}
	return h;
}

static const struct h6_callback *cb_of(const char *name)
{
	if (!strcmp(name, "series"))
		return &h6_cb_series;
	if (!strcmp(name, "m73"))
		return &h6_cb_m73;
	return NULL;
}

static int cost(const char *name, unsigned long capacity)
{
	const struct h6_callback *cb = cb_of(name);
	struct hints *h;
	unsigned long n, i;

	if (!cb)
		return 2;
	h = hints_of(capacity, &n);
	setup_cb(cb);
	for (i = 0; i < n; i++)
		cb->adjust_perf(cb->policy, h[i].min, h[i].target, h[i].max,
				h[i].capacity);
	printf("callback=%s capacity=%lu calls=%lu msr_writes=%lu last=%#llx cur=%u\n",
	       cb->name, capacity, n, cb->writes(),
	       (unsigned long long)cb->msr(), cb->policy_cur());
	free(h);
	return 0;
}

#ifdef HAVE_TSC
static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The overhead of the measurement: a call through the same kind of pointer. */
static __attribute__((noinline, noipa)) void empty_cb(struct cpufreq_policy *policy,
	unsigned long min_perf, unsigned long target_perf, unsigned long max_perf,
	unsigned long capacity)
{
	(void)policy; (void)min_perf; (void)target_perf; (void)max_perf; (void)capacity;
}

static int cycles(unsigned long capacity, int rounds)
{
	const struct h6_callback *cbs[2] = { &h6_cb_series, &h6_cb_m73 };
	static const char *names[3] = { "series intel_cpufreq_adjust_perf",
					"7.3 intel_cpufreq_adjust_perf",
					"empty (loop + indirect call)" };
	h6_adjust_perf_fn *volatile fns[3] = { h6_cb_series.adjust_perf,
					       h6_cb_m73.adjust_perf, empty_cb };
	struct hints *h;
	unsigned long n;
	double *t[3], *ratio;
	int r, p, q;

	if (rounds < 1 || rounds > 100000)
		return 2;
	h = hints_of(capacity, &n);
	for (p = 0; p < 3; p++) {
		t[p] = calloc(rounds, sizeof(double));
		if (!t[p])
			return 1;
	}
	ratio = calloc(rounds, sizeof(double));
	for (r = 0; r < rounds; r++) {
		for (q = 0; q < 3; q++) {
			/* series, 7.3, empty; then 7.3, series, empty */
			struct cpufreq_policy *policy;
			h6_adjust_perf_fn *fn;
			unsigned long i;
			uint64_t t0, t1;

			p = q == 2 ? 2 : (q ^ (r & 1));
			fn = fns[p];
			policy = p < 2 ? cbs[p]->policy : NULL;
			if (p < 2)
				setup_cb(cbs[p]);
			_mm_lfence();
			t0 = __rdtsc();
			_mm_lfence();
			for (i = 0; i < n; i++)
				fn(policy, h[i].min, h[i].target, h[i].max, h[i].capacity);
			_mm_lfence();
			t1 = __rdtsc();
			t[p][r] = (double)(t1 - t0) / n;
		}
		ratio[r] = t[0][r] / t[1][r];
	}
	printf("%-36s %8s %7s %7s %14s %10s %10s\n", "callback (TSC ticks per call)",
	       "capacity", "calls", "rounds", "median", "min", "max");
	for (p = 0; p < 3; p++) {
		qsort(t[p], rounds, sizeof(double), cmp_double);
		printf("%-36s %8lu %7lu %7d %14.2f %10.2f %10.2f\n", names[p], capacity,
		       n, rounds, t[p][rounds / 2], t[p][0], t[p][rounds - 1]);
	}
	qsort(ratio, rounds, sizeof(double), cmp_double);
	printf("capacity %lu: series/7.3 ticks per call, median of the rounds' ratios = %.3f (min %.3f, max %.3f)\n",
	       capacity, ratio[rounds / 2], ratio[0], ratio[rounds - 1]);
	for (p = 0; p < 3; p++)
		free(t[p]);
	free(ratio);
	free(h);
	return 0;
}
#endif

int main(int argc, char **argv)
{
	int k;

	for (k = 0; k < NTRACES; k++)
		gen(&traces[k]);

	if (argc == 4 && !strcmp(argv[1], "cost"))
		return cost(argv[2], strtoul(argv[3], NULL, 0));
#ifdef HAVE_TSC
	if (argc == 4 && !strcmp(argv[1], "cycles"))
		return cycles(strtoul(argv[2], NULL, 0), atoi(argv[3]));
#endif
	fprintf(stderr, "usage: %s cost series|m73 CAPACITY | cycles CAPACITY ROUNDS\n",
		argv[0]);
	return 2;
}
