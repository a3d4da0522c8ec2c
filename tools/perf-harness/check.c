// SPDX-License-Identifier: GPL-2.0
/*
 * Exhaustive checks of the series' HWP mapping (intel_pstate_perf.h, compiled
 * from the kernel tree) against a reference written from DESIGN.md section 4.
 *
 * Let M = map(min_perf), T = map(target_perf), map(p) = cap if p >= capacity,
 * else ceil(cap * p / capacity) (0 for p = 0; everything maps to cap when
 * capacity is 0), and F = max(M, lowest, min_ratio) (the floors).  Checked:
 *
 *  E1 hwp_perf_scale(p, capacity, cap) == map(p), and it is the lowest level
 *     providing p: cap*p <= level*capacity and (level-1)*capacity < cap*p.
 *  E2 MIN == min(F, max_ratio); MAX == max(min(cap, max_ratio), MIN);
 *     DESIRED == clamp(T, MIN, MAX)  (the specification itself);
 *  P1 MIN <= DESIRED <= MAX;
 *  P2 MIN, DESIRED, MAX <= max_ratio (the policy maximum always wins);
 *  P3 MAX <= min(cap, max_ratio) unless MIN > min(cap, max_ratio), which
 *     happens exactly when a floor (lowest or min_ratio) exceeds cap while
 *     max_ratio exceeds cap; then MAX == MIN;
 *  P4 MIN >= min(x, max_ratio) for every floor x in {M, lowest, min_ratio},
 *     and MIN < a floor only if MIN == max_ratio;
 *  P5 DESIRED == T whenever MIN <= T <= MAX (no limit applies);
 *  P6 DESIRED is non-decreasing in target_perf, MIN (and so MAX) in min_perf;
 *  R1 hwp_perf_request() keeps every bit outside 0-23 of the old value and
 *     sets bits 0-7, 8-15, 16-23 to exactly MIN, MAX, DESIRED.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/types.h>
#include "intel_pstate_perf.h"

static unsigned long long n_scale, n_select, n_request;
static int failures;

#define FAIL(...) do {							\
	if (failures++ < 20) {						\
		fprintf(stderr, "FAIL: " __VA_ARGS__);			\
		fputc('\n', stderr);					\
	}								\
} while (0)

static inline int ref_map(unsigned long p, unsigned long capacity, int cap)
{
	if (p >= capacity)
		return cap;
	if (capacity <= 1UL << 32)	/* cap * p < 2^40: exact in 64 bits */
		return (int)(((unsigned long)cap * p + capacity - 1) / capacity);
	return (int)(((unsigned __int128)cap * p + capacity - 1) / capacity);
}

static inline int imin(int a, int b) { return a < b ? a : b; }
static inline int imax(int a, int b) { return a > b ? a : b; }

struct lim4 { int cap, lowest, min_ratio, max_ratio; };

/* One select() case: check E2, P1-P5; return the levels for P6. */
static inline struct hwp_perf_levels one(const struct lim4 *q, unsigned long mp,
					 unsigned long tp, unsigned long capacity)
{
	struct hwp_perf_limits lim = { q->cap, q->lowest, q->min_ratio, q->max_ratio };
	struct hwp_perf_levels l = hwp_perf_select(&lim, mp, tp, capacity);
	int M = ref_map(mp, capacity, q->cap), T = ref_map(tp, capacity, q->cap);
	int F = imax(imax(M, q->lowest), q->min_ratio);
	int rmin = imin(F, q->max_ratio);
	int capmax = imin(q->cap, q->max_ratio);
	int rmax = imax(capmax, rmin);
	int rdes = imin(imax(T, rmin), rmax);

	n_select++;
	if (l.min != rmin || l.max != rmax || l.desired != rdes)
		FAIL("E2 cap=%d lowest=%d min_ratio=%d max_ratio=%d min_perf=%lu target=%lu capacity=%lu: got %d/%d/%d want %d/%d/%d",
		     q->cap, q->lowest, q->min_ratio, q->max_ratio, mp, tp, capacity,
		     l.min, l.max, l.desired, rmin, rmax, rdes);
	if (!(l.min <= l.desired && l.desired <= l.max))
		FAIL("P1 min<=desired<=max: %d %d %d", l.min, l.desired, l.max);
	if (l.min > q->max_ratio || l.desired > q->max_ratio || l.max > q->max_ratio)
		FAIL("P2 above max_ratio %d: %d/%d/%d", q->max_ratio, l.min, l.max, l.desired);
	if (l.max > capmax &&
	    !(l.min > capmax && l.max == l.min &&
	      imax(q->lowest, q->min_ratio) > q->cap && q->max_ratio > q->cap))
		FAIL("P3 max %d > min(cap,max_ratio) %d without a floor forcing it", l.max, capmax);
	if (l.min < imin(M, q->max_ratio) || l.min < imin(q->lowest, q->max_ratio) ||
	    l.min < imin(q->min_ratio, q->max_ratio) ||
	    (l.min < F && l.min != q->max_ratio))
		FAIL("P4 min %d below a floor (M %d lowest %d min_ratio %d max_ratio %d)",
		     l.min, M, q->lowest, q->min_ratio, q->max_ratio);
	if (l.min <= T && T <= l.max && l.desired != T)
		FAIL("P5 desired %d != unconstrained %d", l.desired, T);
	return l;
}

/* The limits grid: every interesting ordering of the four bounds. */
static const struct lim4 grid[] = {
	/* no limit applies: lowest 1, policy wide open */
	{ 255, 1, 1, 255 }, { 46, 1, 1, 255 }, { 1, 1, 1, 255 }, { 2, 1, 1, 2 },
	/* typical: lowest 8, policy 8..46 */
	{ 46, 8, 8, 46 },
	/* scaling_max below cap: the 48/48/48-while-24 pitfall */
	{ 48, 8, 8, 24 },
	/* scaling_min raised */
	{ 46, 8, 30, 46 },
	/* min_ratio above max_ratio (max wins) */
	{ 46, 8, 40, 20 },
	/* lowest above max_ratio */
	{ 100, 50, 1, 30 },
	/* floors above cap, max_ratio above cap: MAX forced up to MIN */
	{ 20, 8, 40, 255 }, { 20, 30, 1, 25 },
	/* everything equal */
	{ 37, 37, 37, 37 },
	/* zeros where a caller could pass them */
	{ 46, 0, 0, 46 }, { 255, 255, 255, 255 },
};
#define NGRID (int)(sizeof(grid) / sizeof(grid[0]))

static void check_scale(void)
{
	unsigned long capacity, p;
	int cap;

	/* E1: every capacity 1..1024, perf 0..2048, cap 0..255 */
	for (capacity = 1; capacity <= 1024; capacity++)
		for (cap = 0; cap <= 255; cap++) {
			int prev = 0;

			for (p = 0; p <= 2048; p++) {
				int v = hwp_perf_scale(p, capacity, cap);

				n_scale++;
				if (v != ref_map(p, capacity, cap) || v < prev ||
				    (p < capacity && p &&
				     ((unsigned long)cap * p > (unsigned long)v * capacity ||
				      (v > 0 && (unsigned long)(v - 1) * capacity >= (unsigned long)cap * p))))
					FAIL("E1 scale(%lu, %lu, %d) = %d", p, capacity, cap, v);
				prev = v;
			}
		}
	/* capacity 0 maps everything to cap; the documented upper bound */
	for (cap = 0; cap <= 255; cap++) {
		unsigned long big = ULONG_MAX / 256;
		unsigned long ps[] = { 0, 1, 1024, big - 1, big, ULONG_MAX };
		unsigned int i;

		for (i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
			n_scale += 2;
			if (hwp_perf_scale(ps[i], 0, cap) != cap)
				FAIL("E1 capacity 0: scale(%lu) != cap %d", ps[i], cap);
			if (hwp_perf_scale(ps[i], big, cap) != ref_map(ps[i], big, cap))
				FAIL("E1 capacity ULONG_MAX/256: scale(%lu, cap %d)", ps[i], cap);
		}
	}
}

static void check_select(void)
{
	unsigned long capacity, tp, mp;
	int g, k;

	/* S1: every (capacity, target_perf), min_perf from a grid, P6 on target */
	for (capacity = 1; capacity <= 1024; capacity++) {
		unsigned long mps[] = { 0, 1, capacity / 4, capacity / 2, capacity - 1,
					capacity, capacity + 1, 2048 };

		for (g = 0; g < NGRID; g++)
			for (k = 0; k < 8; k++) {
				int prev = -1;

				for (tp = 0; tp <= 2048; tp++) {
					struct hwp_perf_levels l = one(&grid[g], mps[k], tp, capacity);

					if (l.desired < prev)
						FAIL("P6 desired falls at target %lu capacity %lu", tp, capacity);
					prev = l.desired;
				}
			}
	}
	/* S2: every (capacity, min_perf), target_perf from a grid, P6 on min */
	for (capacity = 1; capacity <= 1024; capacity++) {
		unsigned long tps[] = { 0, 1, capacity / 3, capacity - 1, capacity,
					capacity + 1, 2048 };

		for (g = 0; g < NGRID; g++)
			for (k = 0; k < 7; k++) {
				int pmin = -1, pmax = -1;

				for (mp = 0; mp <= 2048; mp++) {
					struct hwp_perf_levels l = one(&grid[g], mp, tps[k], capacity);

					if (l.min < pmin || l.max < pmax)
						FAIL("P6 min/max fall at min_perf %lu capacity %lu", mp, capacity);
					pmin = l.min;
					pmax = l.max;
				}
			}
	}
	/*
	 * S3: every cap 1..255 with lowest, min_ratio and max_ratio over a
	 * 1..255 grid; capacity = cap makes every level 0..cap reachable as
	 * map(perf) = perf, so every (T, M) level pair on a grid is covered.
	 */
	{
		static const int r[] = { 1, 2, 7, 8, 24, 37, 46, 64, 100, 128, 200, 254, 255 };
		const int nr = sizeof(r) / sizeof(r[0]);
		int cap, a, b, c;

		for (cap = 1; cap <= 255; cap++)
			for (a = 0; a < nr; a++)
				for (b = 0; b < nr; b++)
					for (c = 0; c < nr; c++) {
						struct lim4 q = { cap, r[a], r[b], r[c] };
						unsigned long ms[] = { 0, 1, cap / 2, cap - 1, cap, cap + 1 };

						for (k = 0; k < 6; k++) {
							int prev = -1;

							for (tp = 0; tp <= (unsigned long)cap + 1; tp++) {
								struct hwp_perf_levels l = one(&q, ms[k], tp, cap);

								if (l.desired < prev)
									FAIL("P6 S3");
								prev = l.desired;
							}
						}
					}
	}
}

static void check_request(void)
{
	static const u64 reqs[] = { 0, ~0ULL, 0x80ULL << 24, 0xdeadbeef12345678ULL,
				    0x0000000100ffffffULL };
	unsigned int i;
	int mn, mx, de;

	/* R1: every (MIN, MAX, DESIRED) in 0..255^3 on a set of old values */
	for (i = 0; i < sizeof(reqs) / sizeof(reqs[0]); i++)
		for (mn = 0; mn <= 255; mn++)
			for (mx = 0; mx <= 255; mx++)
				for (de = 0; de <= 255; de++) {
					struct hwp_perf_levels l = { mn, mx, de };
					u64 v = hwp_perf_request(reqs[i], &l);

					n_request++;
					if ((v & ~0xffffffULL) != (reqs[i] & ~0xffffffULL) ||
					    (v & 0xff) != (u64)mn || ((v >> 8) & 0xff) != (u64)mx ||
					    ((v >> 16) & 0xff) != (u64)de)
						FAIL("R1 request(%#llx, %d/%d/%d) = %#llx",
						     (unsigned long long)reqs[i], mn, mx, de,
						     (unsigned long long)v);
				}
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(void)
{
	double t0 = now(), t1, t2, t3;

	check_scale();
	t1 = now();
	check_select();
	t2 = now();
	check_request();
	t3 = now();

	printf("hwp_perf_scale:   %llu cases in %.2f s\n", n_scale, t1 - t0);
	printf("hwp_perf_select:  %llu cases in %.2f s\n", n_select, t2 - t1);
	printf("hwp_perf_request: %llu cases in %.2f s\n", n_request, t3 - t2);
	printf("total: %llu cases in %.2f s, %d failures\n",
	       n_scale + n_select + n_request, t3 - t0, failures);
	return failures ? 1 : 0;
}
