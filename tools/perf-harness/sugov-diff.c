// SPDX-License-Identifier: GPL-2.0
/*
 * schedutil's perf path, the series' (KSRC) against 7.3's (sugov.c): from the same state,
 * sugov_update_single_perf() once; compared are the arguments it passes to
 * cpufreq_driver_adjust_perf() and sg_cpu->util, over every combination of run()'s sets per
 * capacity ((c + 1024)/2: 7.3's clamp of CFS to c). KTAP, one result per capacity and one for
 * the domain ("# diff:" counts differing inputs); exit 1 on any difference.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "sugov.h"

#define NDIM	12
#define MAXV	8

static const unsigned long caps[] = { 1024, 446, 3 };
#define NR_CAP	(int)(sizeof(caps) / sizeof(caps[0]))

struct example {
	struct sg_in in;
	struct sg_out s, m;
};

static unsigned long inputs, want, differ, calls_bad, field[5];
static struct example ex[3];

static void print_ex(const struct example *e)
{
	const struct sg_in *i = &e->in;

	printf("#   cap %lu cfs %lu rt %lu dl %lu irq %lu bw_dl %lu uclamp %lu..%lu used %lu rt_runnable %lu boost %lu prev %lu busy %lu\n",
	       i->cap, i->cfs, i->rt, i->dl, i->irq, i->bw_dl, i->uclamp_min,
	       i->uclamp_max, i->uclamp_used, i->rt_runnable, i->boost,
	       i->prev, i->busy);
	printf("#     series min %lu target %lu max %lu capacity %lu util %lu; 7.3 min %lu target %lu max %lu capacity %lu util %lu\n",
	       e->s.min, e->s.target, e->s.max, e->s.cap, e->s.util,
	       e->m.min, e->m.target, e->m.max, e->m.cap, e->m.util);
}

static unsigned long run(unsigned long c)
{
	const unsigned long sig[] = { 0, 1, c / 4, c / 2, c - 1, c, c + 1, 1024 };
	const unsigned long ucl[] = { 0, c / 4, c / 2, c, (c + 1024) / 2, 1024 };
	const unsigned long bin[] = { 0, 1 }, boost[] = { 0, 512, 1024 };
	const unsigned long prev[] = { 0, c / 2, c, c + 1, 1280, 2048 };
	struct sg_in in = { .cap = c };
	const struct { unsigned long *f; const unsigned long *c; int nc; } dim[NDIM] = {
		{ &in.cfs, sig, 8 }, { &in.rt, sig, 8 }, { &in.dl, sig, 8 },
		{ &in.irq, sig, 8 }, { &in.bw_dl, sig, 8 },
		{ &in.uclamp_min, ucl, 6 }, { &in.uclamp_max, ucl, 6 },
		{ &in.uclamp_used, bin, 2 }, { &in.rt_runnable, bin, 2 },
		{ &in.boost, boost, 3 }, { &in.prev, prev, 6 }, { &in.busy, bin, 2 },
	};
	unsigned long v[NDIM][MAXV], before = differ, w = 1;
	struct sg_out s, m;
	int n[NDIM], k[NDIM] = { 0 }, d, i, j;

	/* each dimension's values, repeats (at small capacities) dropped */
	for (d = 0; d < NDIM; d++) {
		for (i = n[d] = 0; i < dim[d].nc; i++) {
			for (j = 0; j < n[d] && v[d][j] != dim[d].c[i]; j++)
				;
			if (j == n[d])
				v[d][n[d]++] = dim[d].c[i];
		}
		w *= n[d];
	}
	want += w;
	do {
		for (d = 0; d < NDIM; d++)
			*dim[d].f = v[d][k[d]];
		sg_series.update(&in, &s);
		sg_m73.update(&in, &m);
		inputs++;
		calls_bad += s.calls != 1 || m.calls != 1;
		if (memcmp(&s, &m, sizeof(s))) {
			field[0] += s.min != m.min;
			field[1] += s.target != m.target;
			field[2] += s.max != m.max;
			field[3] += s.cap != m.cap;
			field[4] += s.util != m.util;
			if (differ < 3)
				ex[differ] = (struct example){ in, s, m };
			differ++;
		}
		for (d = NDIM - 1; d >= 0 && ++k[d] == n[d]; d--)
			k[d] = 0;
	} while (d >= 0);
	return differ - before;
}

int main(void)
{
	unsigned long last = 0, dc;
	struct timespec t0, t1;
	int ci, i, ok;

	printf("TAP version 13\n1..%d\n", NR_CAP + 1);
	printf("# schedutil perf path: series (%s) against mainline 7.3 (%s)\n",
	       sg_series.name, sg_m73.name);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (ci = 0; ci < NR_CAP; ci++) {
		dc = run(caps[ci]);
		printf("# capacity=%lu: %lu of %lu inputs differ\n",
		       caps[ci], dc, inputs - last);
		last = inputs;
		printf("%s %d capacity=%lu\n", dc ? "not ok" : "ok", ci + 1, caps[ci]);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("# diff: %lu of %lu inputs differ (min_perf %lu, target_perf %lu, max_perf %lu, capacity %lu, stored target %lu; %.1f s)\n",
	       differ, inputs, field[0], field[1], field[2], field[3], field[4],
	       (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	for (i = 0; i < 3 && i < (int)differ; i++)
		print_ex(&ex[i]);
	ok = inputs == want && inputs > 0 && !calls_bad;
	printf("# domain: %lu inputs (expected %lu), %lu without exactly one cpufreq_driver_adjust_perf() call\n",
	       inputs, want, calls_bad);
	printf("%s %d domain covered, one cpufreq_driver_adjust_perf() call per input\n",
	       ok ? "ok" : "not ok", NR_CAP + 1);
	return differ || !ok;
}
