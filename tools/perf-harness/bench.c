// SPDX-License-Identifier: GPL-2.0
/*
 * Cost and trace-replay driver for the update paths of paths.c (the trace
 * replay runs the first three: the series, the 5.10 frequency path and v2).
 *
 *   bench cost PATH CAPACITY   run every update of every trace through one
 *                              path (perf, freq, v2 or m73) at that capacity and
 *                              print the counts; run it under callgrind with
 *                              --toggle-collect=h6_path_PATH for the cost
 *   bench replay OUTDIR        replay every trace through the three paths,
 *                              print the writes table, write OUTDIR/NAME.dat
 *   bench cycles CAPACITY N    time the four paths side by side in one run:
 *                              N rounds, each running every update of every
 *                              trace through each path in turn, and print the
 *                              median TSC ticks per update of each path
 *
 * The utilization model is documented in Documentation/project/perf-harness.md:
 * PELT-like geometric averaging with y^32 = 1/2 per 1 ms period, util in
 * 0..1024, work counted in full-capacity time (frequency invariance), and
 * schedutil updates at scheduler events (1 ms ticks while running, wake-ups,
 * sleeps) rate-limited to the policy's transition delay.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "paths.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define HAVE_TSC 1
#endif

#ifdef H6_COUNT_DIV
extern unsigned long h6_div_count;
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
	int max_ratio;		/* policy max ratio, 0 = highest */
	struct update *u;
	int n;
};

static struct trace traces[] = {
	{ "p73",    "periodic 73 Hz, 30% work",  0, 73,  0.30, 0, 0, NULL, 0 },
	{ "p113",   "periodic 113 Hz, 30% work", 0, 113, 0.30, 0, 0, NULL, 0 },
	{ "p211",   "periodic 211 Hz, 30% work", 0, 211, 0.30, 0, 0, NULL, 0 },
	{ "p347",   "periodic 347 Hz, 30% work", 0, 347, 0.30, 0, 0, NULL, 0 },
	{ "p401",   "periodic 401 Hz, 30% work", 0, 401, 0.30, 0, 0, NULL, 0 },
	{ "ramp",   "ramp 0->100% work, 10 ms period", 1, 100, 0, 0, 0, NULL, 0 },
	{ "bursty", "bursty short tasks (0.2-3 ms, mean gap 15 ms)", 2, 0, 0, 0, 0, NULL, 0 },
	{ "dl",     "bursty + deadline reservation 25%", 2, 0, 0, 256, 0, NULL, 0 },
	{ "dlcap",  "bursty + deadline 85% (min_perf >= capacity), scaling_max 2.4 GHz", 2, 0, 0, 870, 24, NULL, 0 },
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
		/*
		 * schedutil_cpu_util(FREQUENCY_UTIL): the deadline bandwidth is
		 * added to the CFS utilization, capped at the capacity; the perf
		 * path also passes it alone as the required minimum.
		 */
		tr->u[tr->n++] = (struct update){ t,
			(unsigned int)fmin(1024.0, util + tr->dl), tr->dl };
	}
}

static void setup(const struct trace *tr)
{
	h6_model_init(HWP_LOWEST, HWP_GUARANTEED, HWP_HIGHEST);
	if (tr && tr->max_ratio) {
		h6_cpu.max_perf_ratio = tr->max_ratio;
		h6_cpu.policy_max = tr->max_ratio * h6_cpu.scaling;
	}
}

#define FIELD(v, s) ((int)(((v) >> (s)) & 0xff))

static int cost(const char *path, unsigned long capacity)
{
	void (*fn)(unsigned long, unsigned long, unsigned long);
	unsigned long updates = 0;
	int i, k;

	if (!strcmp(path, "perf"))
		fn = h6_path_perf;
	else if (!strcmp(path, "freq"))
		fn = h6_path_freq;
	else if (!strcmp(path, "v2"))
		fn = h6_path_v2;
	else if (!strcmp(path, "m73"))
		fn = h6_path_m73;
	else
		return 2;

	setup(NULL);
	for (k = 0; k < NTRACES; k++) {
		/* the unlimited traces only: the policy is the same throughout */
		if (traces[k].max_ratio)
			continue;
		for (i = 0; i < traces[k].n; i++) {
			const struct update *u = &traces[k].u[i];

			fn(u->util * capacity / 1024, u->dl * capacity / 1024, capacity);
			updates++;
		}
	}
	printf("path=%s capacity=%lu updates=%lu msr_reads=%lu msr_writes=%lu",
	       path, capacity, updates, h6_msr_reads, h6_msr_writes);
#ifdef H6_COUNT_DIV
	printf(" src_divs=%lu", h6_div_count);
#endif
	printf("\n");
	return 0;
}

#ifdef HAVE_TSC
static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int cycles(unsigned long capacity, int rounds)
{
	static const char *names[4] = { "(a) series adjust_perf", "(b) 5.10 freq path",
					"(c) v2 Dec 2020", "(d) mainline 7.3" };
	void (*fns[4])(unsigned long, unsigned long, unsigned long) = {
		h6_path_perf, h6_path_freq, h6_path_v2, h6_path_m73 };
	double *t[4];
	int r, p, k, i;

	if (rounds < 1 || rounds > 100000)
		return 2;
	for (p = 0; p < 4; p++) {
		t[p] = calloc(rounds, sizeof(double));
		if (!t[p])
			return 1;
	}
	for (r = 0; r < rounds; r++) {
		for (p = 0; p < 4; p++) {
			unsigned long updates = 0;
			uint64_t t0, t1;

			setup(NULL);
			_mm_lfence();
			t0 = __rdtsc();
			for (k = 0; k < NTRACES; k++) {
				if (traces[k].max_ratio)
					continue;
				for (i = 0; i < traces[k].n; i++) {
					const struct update *u = &traces[k].u[i];

					fns[p](u->util * capacity / 1024,
					       u->dl * capacity / 1024, capacity);
					updates++;
				}
			}
			_mm_lfence();
			t1 = __rdtsc();
			t[p][r] = (double)(t1 - t0) / updates;
		}
	}
	printf("%-28s %8s %7s %14s %12s %12s\n", "path", "capacity", "rounds",
	       "ticks/upd med", "min", "max");
	for (p = 0; p < 4; p++) {
		qsort(t[p], rounds, sizeof(double), cmp_double);
		printf("%-28s %8lu %7d %14.2f %12.2f %12.2f\n", names[p], capacity, rounds,
		       t[p][rounds / 2], t[p][0], t[p][rounds - 1]);
		free(t[p]);
	}
	return 0;
}
#endif

static int replay(const char *outdir)
{
	static const char *names[3] = { "perf", "freq", "v2" };
	void (*fns[3])(unsigned long, unsigned long, unsigned long) = {
		h6_path_perf, h6_path_freq, h6_path_v2 };
	unsigned long tot_u = 0, tot_w[3] = { 0 };
	int k, p, i;

	printf("%-8s %-64s %7s %8s %8s %8s\n", "trace", "description", "updates",
	       "(a)perf", "(b)freq", "(c)v2");
	for (k = 0; k < NTRACES; k++) {
		struct trace *tr = &traces[k];
		unsigned long w[3];
		int (*lv)[10] = calloc(tr->n, sizeof(*lv));
		char fn[4096];
		FILE *f;

		for (p = 0; p < 3; p++) {
			setup(tr);
			for (i = 0; i < tr->n; i++) {
				u64 r;

				fns[p](tr->u[i].util, tr->u[i].dl, 1024);
				r = h6_msr_hwp_request;
				lv[i][p * 3 + 0] = FIELD(r, 0);
				lv[i][p * 3 + 1] = FIELD(r, 16);
				lv[i][p * 3 + 2] = FIELD(r, 8);
			}
			w[p] = h6_msr_writes;
			tot_w[p] += w[p];
			if (h6_msr_hwp_request >> 24 != 0x80) {
				fprintf(stderr, "%s/%s: EPP or high bits changed\n",
					tr->name, names[p]);
				return 1;
			}
		}
		tot_u += tr->n;
		printf("%-8s %-64s %7d %8.1f %8.1f %8.1f\n", tr->name, tr->desc, tr->n,
		       1000.0 * w[0] / tr->n, 1000.0 * w[1] / tr->n,
		       1000.0 * w[2] / tr->n);

		snprintf(fn, sizeof(fn), "%s/%s.dat", outdir, tr->name);
		f = fopen(fn, "w");
		if (!f) {
			perror(fn);
			return 1;
		}
		fprintf(f, "# %s; levels: lowest %d guaranteed %d highest %d, policy max %d\n",
			tr->desc, HWP_LOWEST, HWP_GUARANTEED, HWP_HIGHEST,
			tr->max_ratio ? tr->max_ratio : HWP_HIGHEST);
		fprintf(f, "# t_ms util(cfs+dl) dl a_min a_desired a_max b_min b_desired b_max c_min c_desired c_max\n");
		for (i = 0; i < tr->n; i++)
			fprintf(f, "%.3f %u %u %d %d %d %d %d %d %d %d %d\n",
				tr->u[i].t_us / 1000.0, tr->u[i].util, tr->u[i].dl,
				lv[i][0], lv[i][1], lv[i][2], lv[i][3], lv[i][4],
				lv[i][5], lv[i][6], lv[i][7], lv[i][8]);
		fclose(f);
		free(lv);
	}
	printf("%-8s %-64s %7lu %8.1f %8.1f %8.1f\n", "all", "HWP_REQUEST writes per 1000 updates",
	       tot_u, 1000.0 * tot_w[0] / tot_u, 1000.0 * tot_w[1] / tot_u,
	       1000.0 * tot_w[2] / tot_u);
	return 0;
}

int main(int argc, char **argv)
{
	int k;

	for (k = 0; k < NTRACES; k++)
		gen(&traces[k]);

	if (argc == 4 && !strcmp(argv[1], "cost"))
		return cost(argv[2], strtoul(argv[3], NULL, 0));
	if (argc == 3 && !strcmp(argv[1], "replay"))
		return replay(argv[2]);
#ifdef HAVE_TSC
	if (argc == 4 && !strcmp(argv[1], "cycles"))
		return cycles(strtoul(argv[2], NULL, 0), atoi(argv[3]));
#endif
	fprintf(stderr, "usage: %s cost perf|freq|v2|m73 CAPACITY | replay OUTDIR | cycles CAPACITY ROUNDS\n",
		argv[0]);
	return 2;
}
