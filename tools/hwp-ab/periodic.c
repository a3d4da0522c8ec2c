// SPDX-License-Identifier: GPL-2.0
/*
 * periodic HZ PERIODS ITERS: every 1/HZ s, ITERS iterations of fixed work, then sleep
 * until the next period (absolute deadlines); periodic -c SECONDS: iterations per
 * second flat out (sizes the work once). Prints key=value pairs on one line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "work.h"

static void ts_add(struct timespec *t, long ns)
{
	t->tv_nsec += ns;
	while (t->tv_nsec >= 1000000000L) {
		t->tv_nsec -= 1000000000L;
		t->tv_sec++;
	}
}

int main(int argc, char **argv)
{
	uint64_t x = 1, iters, chunk = 100000, done = 0;
	long period_ns, periods, i, overruns = 0;
	double t0, t1, rel, lat, lat_sum = 0, lat_max = 0, hz;
	struct timespec next, nowts;

	if (argc == 3 && !strcmp(argv[1], "-c")) {
		double secs = atof(argv[2]);

		t0 = now_s();
		do {
			x = do_work(chunk, x);
			done += chunk;
		} while ((t1 = now_s()) - t0 < secs);
		printf("iters_per_s=%.0f check=%llu\n", done / (t1 - t0),
		       (unsigned long long)(x & 1));
		return 0;
	}
	if (argc != 4) {
		fprintf(stderr, "usage: periodic HZ PERIODS ITERS | periodic -c SECONDS\n");
		return 2;
	}
	hz = atof(argv[1]);
	periods = atol(argv[2]);
	iters = strtoull(argv[3], NULL, 10);
	if (hz <= 0 || periods <= 0) {
		fprintf(stderr, "periodic: bad arguments\n");
		return 2;
	}
	period_ns = (long)(1e9 / hz);

	clock_gettime(CLOCK_MONOTONIC, &next);
	t0 = now_s();
	for (i = 0; i < periods; i++) {
		rel = next.tv_sec + next.tv_nsec / 1e9;
		x = do_work(iters, x);
		lat = now_s() - rel;
		lat_sum += lat;
		if (lat > lat_max)
			lat_max = lat;
		ts_add(&next, period_ns);
		clock_gettime(CLOCK_MONOTONIC, &nowts);
		if (nowts.tv_sec > next.tv_sec ||
		    (nowts.tv_sec == next.tv_sec && nowts.tv_nsec > next.tv_nsec)) {
			overruns++;
			continue;	/* late: start the next packet at once */
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
	}
	t1 = now_s();
	printf("seconds=%.6f periods=%ld overruns=%ld work_us_mean=%.1f work_us_max=%.1f check=%llu\n",
	       t1 - t0, periods, overruns, lat_sum / periods * 1e6,
	       lat_max * 1e6, (unsigned long long)(x & 1));
	return 0;
}
