// SPDX-License-Identifier: GPL-2.0
/*
 * Exhaustive checks of the series' HWP mapping (intel_pstate_perf.h, compiled
 * from the kernel tree) against a reference written from DESIGN.md section 4,
 * with the hints scaled to the invariance reference ref; cap is the highest
 * usable level, independent of ref.  The properties E1-P7 and R1 and the
 * sweeps S1-S5: perf-harness.md, "What is tested".
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

static inline int ref_map(unsigned long p, unsigned long capacity, int ref)
{
	if (p >= capacity)
		return ref;
	if (capacity <= 1UL << 32)	/* ref * p < 2^40: exact in 64 bits */
		return (int)(((unsigned long)ref * p + capacity - 1) / capacity);
	return (int)(((unsigned __int128)ref * p + capacity - 1) / capacity);
}

static inline int imin(int a, int b) { return a < b ? a : b; }
static inline int imax(int a, int b) { return a > b ? a : b; }

struct lim5 { int ref, cap, lowest, min_ratio, max_ratio; };

/* One select() case: check E2, P1-P5, P7; return the levels for P6. */
static inline struct hwp_perf_levels one(const struct lim5 *q, unsigned long mp,
					 unsigned long tp, unsigned long capacity)
{
	struct hwp_perf_limits lim = {
		.ref = q->ref, .cap = q->cap, .lowest = q->lowest,
		.min_ratio = q->min_ratio, .max_ratio = q->max_ratio,
	};
	struct hwp_perf_levels l = hwp_perf_select(&lim, mp, tp, capacity, capacity);
	int M = mp >= capacity ? q->cap : ref_map(mp, capacity, q->ref);
	int T = tp >= capacity ? q->cap : ref_map(tp, capacity, q->ref);
	int F = imax(imax(M, q->lowest), q->min_ratio);
	int capmax = imin(q->cap, q->max_ratio);
	int rmin = imin(F, capmax);
	int rmax = imax(capmax, rmin);
	int rdes = imin(imax(T, rmin), rmax);

	n_select++;
	if (l.min != rmin || l.max != rmax || l.desired != rdes)
		FAIL("E2 ref=%d cap=%d lowest=%d min_ratio=%d max_ratio=%d min_perf=%lu target=%lu capacity=%lu: got %d/%d/%d want %d/%d/%d",
		     q->ref, q->cap, q->lowest, q->min_ratio, q->max_ratio, mp, tp,
		     capacity, l.min, l.max, l.desired, rmin, rmax, rdes);
	if (!(l.min <= l.desired && l.desired <= l.max))
		FAIL("P1 min<=desired<=max: %d %d %d", l.min, l.desired, l.max);
	if (l.min > q->max_ratio || l.desired > q->max_ratio || l.max > q->max_ratio)
		FAIL("P2 above max_ratio %d: %d/%d/%d", q->max_ratio, l.min, l.max, l.desired);
	if (l.min > l.max || l.max > q->cap || l.max > capmax)
		FAIL("P3 ref=%d cap=%d lowest=%d min_ratio=%d max_ratio=%d min_perf=%lu capacity=%lu: min %d max %d, not min <= max <= min(cap, max_ratio) %d",
		     q->ref, q->cap, q->lowest, q->min_ratio, q->max_ratio, mp,
		     capacity, l.min, l.max, capmax);
	if (l.min < imin(M, capmax) || l.min < imin(q->lowest, capmax) ||
	    l.min < imin(q->min_ratio, capmax) ||
	    (l.min < F && l.min != capmax))
		FAIL("P4 min %d below a floor (M %d lowest %d min_ratio %d cap %d max_ratio %d)",
		     l.min, M, q->lowest, q->min_ratio, q->cap, q->max_ratio);
	if (l.min <= T && T <= l.max && l.desired != T)
		FAIL("P5 desired %d != unconstrained %d", l.desired, T);
	if (tp >= capacity && l.desired != l.max)
		FAIL("P7 ref=%d cap=%d max_ratio=%d full demand: desired %d, min %d max %d",
		     q->ref, q->cap, q->max_ratio, l.desired, l.min, l.max);
	return l;
}

/* Every ordering of cap and the three policy bounds; the sweeps set ref. */
static const struct lim5 grid[] = {
	/* no limit applies: lowest 1, policy wide open */
	{ 0, 255, 1, 1, 255 }, { 0, 46, 1, 1, 255 }, { 0, 1, 1, 1, 255 }, { 0, 2, 1, 1, 2 },
	/* typical: lowest 8, policy 8..46 */
	{ 0, 46, 8, 8, 46 },
	/* scaling_max below cap: the 48/48/48-while-24 pitfall */
	{ 0, 48, 8, 8, 24 },
	/* scaling_min raised */
	{ 0, 46, 8, 30, 46 },
	/* min_ratio above max_ratio (max wins) */
	{ 0, 46, 8, 40, 20 },
	/* lowest above max_ratio */
	{ 0, 100, 50, 1, 30 },
	/* floors above cap, max_ratio above cap: MIN lowered to cap */
	{ 0, 20, 8, 40, 255 }, { 0, 20, 30, 1, 25 },
	/* everything equal */
	{ 0, 37, 37, 37, 37 },
	/* zeros where a caller could pass them */
	{ 0, 46, 0, 0, 46 }, { 0, 255, 255, 255, 255 },
};
#define NGRID (int)(sizeof(grid) / sizeof(grid[0]))

/* The levels of cand[0..nc) in 1..255, without repeats, into out; the count. */
static int levels(const int *cand, int nc, int *out)
{
	int n = 0, i, j;

	for (i = 0; i < nc; i++) {
		if (cand[i] < 1 || cand[i] > 255)
			continue;
		for (j = 0; j < n && out[j] != cand[i]; j++)
			;
		if (j == n)
			out[n++] = cand[i];
	}
	return n;
}

/* References for a cap, cap first; cap -/+ 9: turbo off with turbo on's and back. */
static int refs(int cap, int *out)
{
	int cand[] = { cap, cap - 9, cap + 9, 1, 255 };

	return levels(cand, 5, out);
}

/* Capacities for ref != cap in S1/S2 (E1 covers the mapping's every one). */
static int sparse_capacity(unsigned long c)
{
	return c <= 32 || c % 11 == 0 || c == 446 || c == 512 || c >= 1020;
}

static void check_scale(void)
{
	unsigned long capacity, p;
	int ref;

	/* E1: every capacity 1..1024, perf 0..2048, ref 0..255 */
	for (capacity = 1; capacity <= 1024; capacity++)
		for (ref = 0; ref <= 255; ref++) {
			int prev = 0;

			for (p = 0; p <= 2048; p++) {
				int v = hwp_perf_scale(p, capacity, ref);

				n_scale++;
				if (v != ref_map(p, capacity, ref) || v < prev ||
				    (p < capacity && p &&
				     ((unsigned long)ref * p > (unsigned long)v * capacity ||
				      (v > 0 && (unsigned long)(v - 1) * capacity >= (unsigned long)ref * p))))
					FAIL("E1 scale(%lu, %lu, %d) = %d", p, capacity, ref, v);
				prev = v;
			}
		}
	/* capacity 0 maps everything to ref; the documented upper bound */
	for (ref = 0; ref <= 255; ref++) {
		unsigned long big = ULONG_MAX / 256;
		unsigned long ps[] = { 0, 1, 1024, big - 1, big, ULONG_MAX };
		unsigned int i;

		for (i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
			n_scale += 2;
			if (hwp_perf_scale(ps[i], 0, ref) != ref)
				FAIL("E1 capacity 0: scale(%lu) != ref %d", ps[i], ref);
			if (hwp_perf_scale(ps[i], big, ref) != ref_map(ps[i], big, ref))
				FAIL("E1 capacity ULONG_MAX/256: scale(%lu, ref %d)", ps[i], ref);
		}
	}
}

/* target_perf 0..tmax through one limit set, P6 along it */
static inline __attribute__((always_inline)) void
sweep_target(const struct lim5 *q, unsigned long mp, unsigned long tmax,
			 unsigned long capacity, const char *what)
{
	unsigned long tp;
	int prev = -1;

	for (tp = 0; tp <= tmax; tp++) {
		struct hwp_perf_levels l = one(q, mp, tp, capacity);

		if (l.desired < prev)
			FAIL("P6 %s: desired falls at target %lu capacity %lu ref %d cap %d",
			     what, tp, capacity, q->ref, q->cap);
		prev = l.desired;
	}
}

/* min_perf 0..mmax through one limit set, P6 on MIN and MAX along it */
static inline __attribute__((always_inline)) void
sweep_min(const struct lim5 *q, unsigned long tp, unsigned long mmax,
		      unsigned long capacity, const char *what)
{
	unsigned long mp;
	int pmin = -1, pmax = -1;

	for (mp = 0; mp <= mmax; mp++) {
		struct hwp_perf_levels l = one(q, mp, tp, capacity);

		if (l.min < pmin || l.max < pmax)
			FAIL("P6 %s: min/max fall at min_perf %lu capacity %lu ref %d cap %d",
			     what, mp, capacity, q->ref, q->cap);
		pmin = l.min;
		pmax = l.max;
	}
}

/* S3, S4: lowest, min_ratio, max_ratio each over r[0..nr), capacity = ref. */
static void sweep_policies(int ref, int cap, const int *r, int nr, const char *what)
{
	int a, b, c, k;

	for (a = 0; a < nr; a++)
		for (b = 0; b < nr; b++)
			for (c = 0; c < nr; c++) {
				struct lim5 q = { ref, cap, r[a], r[b], r[c] };
				unsigned long ms[] = { 0, 1, ref / 2, ref - 1, ref, ref + 1 };

				for (k = 0; k < 6; k++)
					sweep_target(&q, ms[k], ref + 1, ref, what);
			}
}

static void check_select(void)
{
	static const int r3[] = { 1, 2, 7, 8, 24, 37, 46, 64, 100, 128, 200, 254, 255 };
	unsigned long capacity;
	int g, k, i, nref, rv[5], cap, ref, p;

	/* S1: every (capacity, target_perf); S2: every (capacity, min_perf) */
	for (capacity = 1; capacity <= 1024; capacity++) {
		unsigned long mps[] = { 0, 1, capacity / 4, capacity / 2, capacity - 1,
					capacity, capacity + 1, 2048 };
		unsigned long tps[] = { 0, 1, capacity / 3, capacity - 1, capacity,
					capacity + 1, 2048 };

		for (g = 0; g < NGRID; g++) {
			nref = sparse_capacity(capacity) ? refs(grid[g].cap, rv) : 1;
			for (i = 0; i < nref; i++) {
				struct lim5 q = grid[g];

				q.ref = i ? rv[i] : q.cap;
				for (k = 0; k < 8; k++)
					sweep_target(&q, mps[k], 2048, capacity, "S1");
				for (k = 0; k < 7; k++)
					sweep_min(&q, tps[k], 2048, capacity, "S2");
			}
		}
	}
	/* S3: ref == cap, the policy over a grid; S4: the other refs() */
	for (cap = 1; cap <= 255; cap++)
		sweep_policies(cap, cap, r3, sizeof(r3) / sizeof(r3[0]), "S3");
	for (cap = 1; cap <= 255; cap++) {
		nref = refs(cap, rv);
		for (i = 1; i < nref; i++) {
			int ref = rv[i], lo = imin(ref, cap), hi = imax(ref, cap);
			int cand[] = { 1, lo - 1, lo, lo + 1, (lo + hi) / 2,
				       hi - 1, hi, hi + 1, 255 };
			int r[9];

			sweep_policies(ref, cap, r, levels(cand, 9, r), "S4");
		}
	}
	/* S5: every (ref, cap) on four policies */
	for (ref = 1; ref <= 255; ref++)
		for (cap = 1; cap <= 255; cap++) {
			int mid = (ref + cap) / 2;
			struct lim5 qs[4] = {
				{ ref, cap, 1, 1, 255 },
				{ ref, cap, 8, 8, 46 },
				{ ref, cap, 1, 1, mid },
				{ ref, cap, 1, mid, 255 },
			};

			for (p = 0; p < 4; p++) {
				sweep_target(&qs[p], 0, ref + 1, ref, "S5");
				sweep_target(&qs[p], ref / 2, ref + 1, ref, "S5");
				sweep_target(&qs[p], ref, ref + 1, ref, "S5");
				sweep_min(&qs[p], ref, ref + 1, ref, "S5");
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
