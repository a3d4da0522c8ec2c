// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target over intel_pstate_perf.h (kernel tree), with ASan and UBSan; the
 * input's layout and the invariants: perf-harness.md, "The fuzzer".
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/types.h>
#include "intel_pstate_perf.h"

static int ref_map(unsigned long p, unsigned long capacity, int ref)
{
	if (p >= capacity)
		return ref;
	return (int)(((unsigned __int128)ref * p + capacity - 1) / capacity);
}

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "invariant failed: %s\n", #c); abort(); } } while (0)

static struct hwp_perf_levels sel(const struct hwp_perf_limits *lim, unsigned long mp,
				  unsigned long tp, unsigned long mx, unsigned long capacity)
{
	struct hwp_perf_levels l = hwp_perf_select(lim, mp, tp, mx, capacity);
	int X = mx >= capacity ? lim->cap : min(lim->cap, ref_map(mx, capacity, lim->ref));
	int M = mp >= capacity ? lim->cap : ref_map(mp, capacity, lim->ref);
	int T = tp >= capacity ? lim->cap : ref_map(tp, capacity, lim->ref);
	int F = max3(M, lim->lowest, lim->min_ratio);
	int capmax = min(lim->cap, lim->max_ratio);
	int rmin = min(F, capmax);
	int rmax = max(min(capmax, X), rmin);

	/* E1 */
	CHECK(hwp_perf_scale(tp, capacity, lim->ref) == ref_map(tp, capacity, lim->ref));
	CHECK(hwp_perf_scale(mp, capacity, lim->ref) == ref_map(mp, capacity, lim->ref));
	/* E2 */
	CHECK(l.min == rmin && l.max == rmax && l.desired == clamp(T, rmin, rmax));
	/* P1, P2 */
	CHECK(l.min <= l.desired && l.desired <= l.max);
	CHECK(l.min <= lim->max_ratio && l.desired <= lim->max_ratio && l.max <= lim->max_ratio);
	/* P3: MIN <= MAX <= cap, whatever the hints and floors */
	CHECK(l.min <= l.max && l.max <= lim->cap && l.max <= capmax);
	/* P4 */
	CHECK(l.min >= min(M, capmax) && l.min >= min(lim->lowest, capmax) &&
	      l.min >= min(lim->min_ratio, capmax));
	CHECK(l.min >= F || l.min == capmax);
	/* P5 */
	CHECK(!(l.min <= T && T <= l.max) || l.desired == T);
	/* P7: full demand gets MAX, whatever ref is */
	CHECK(tp < capacity || l.desired == l.max);
	return l;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t buf[46] = { 0 };
	u64 capacity, mp, tp, req, mx, v;
	struct hwp_perf_limits lim;
	struct hwp_perf_levels l, l2;

	memcpy(buf, data, size < sizeof(buf) ? size : sizeof(buf));
	memcpy(&capacity, buf, 8);
	memcpy(&mp, buf + 8, 8);
	memcpy(&tp, buf + 16, 8);
	memcpy(&req, buf + 24, 8);
	lim.cap = buf[32];
	lim.lowest = buf[33];
	lim.min_ratio = buf[34];
	lim.max_ratio = buf[35];
	lim.ref = buf[37];
	memcpy(&mx, buf + 38, 8);

	if (buf[36] & 1) {
		capacity %= 2049;
		mp %= 4097;
		tp %= 4097;
		mx %= 4097;
	} else {
		capacity %= ULONG_MAX / 256 + 1;
	}

	if (!(buf[36] & 2))
		mx = capacity;

	l = sel(&lim, mp, tp, mx, capacity);

	/* P6: monotone in target_perf and in min_perf */
	if (tp < ULONG_MAX) {
		l2 = sel(&lim, mp, tp + 1, mx, capacity);
		CHECK(l2.desired >= l.desired);
	}
	if (mp < ULONG_MAX) {
		l2 = sel(&lim, mp + 1, tp, mx, capacity);
		CHECK(l2.min >= l.min && l2.max >= l.max);
	}
	/* P8: monotone in max_perf */
	if (mx < ULONG_MAX) {
		l2 = sel(&lim, mp, tp, mx + 1, capacity);
		CHECK(l2.max >= l.max && l2.desired >= l.desired && l2.min == l.min);
	}

	/* R1 */
	v = hwp_perf_request(req, &l);
	CHECK((v & ~0xffffffULL) == (req & ~0xffffffULL));
	CHECK((v & 0xff) == (u64)l.min && ((v >> 8) & 0xff) == (u64)l.max &&
	      ((v >> 16) & 0xff) == (u64)l.desired);
	return 0;
}
