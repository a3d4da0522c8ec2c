/* SPDX-License-Identifier: GPL-2.0 */
/* Fixed CPU work shared by the hwp-ab workloads. */
#ifndef HWP_AB_WORK_H
#define HWP_AB_WORK_H

#include <stdint.h>
#include <time.h>

/* A dependent integer chain: its speed is the core clock, not memory. */
static inline uint64_t do_work(uint64_t iters, uint64_t x)
{
	while (iters--)
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	return x;
}

static inline double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

#endif
