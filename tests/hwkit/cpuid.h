/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test double for <cpuid.h>, used only by tests/60-hwkit.sh to build the
 * cpufreq_hwp selftest against an emulated HWP machine: CPUID leaf 6
 * reports HWP (EAX bit 7).  Put first on the include path with -I.
 */
#ifndef HWKIT_FAKE_CPUID_H
#define HWKIT_FAKE_CPUID_H

static inline int __get_cpuid(unsigned int leaf, unsigned int *a,
			      unsigned int *b, unsigned int *c,
			      unsigned int *d)
{
	*a = leaf == 0 ? 0x16 : (1U << 7);
	*b = 0;
	*c = 0;
	*d = 0;
	return 1;
}

#define __cpuid(leaf, a, b, c, d) __get_cpuid(leaf, &(a), &(b), &(c), &(d))

#endif
