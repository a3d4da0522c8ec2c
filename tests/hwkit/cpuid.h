/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test double for <cpuid.h>, used only by tests/60-hwkit.sh to build the
 * HWP selftest (hwp_request) against an emulated HWP machine: CPUID leaf 6
 * reports HWP (EAX bit 7); leaf 1 a family 0 model 8 CPU, so that no
 * model-specific path of the selftest applies; leaf 7 EDX is
 * $HWKIT_CPUID7_EDX (default 0; 0x8000 is the hybrid bit).  Put first on
 * the include path with -I.
 */
#ifndef HWKIT_FAKE_CPUID_H
#define HWKIT_FAKE_CPUID_H

#include <stdlib.h>

static inline int __get_cpuid(unsigned int leaf, unsigned int *a,
			      unsigned int *b, unsigned int *c,
			      unsigned int *d)
{
	const char *edx7 = getenv("HWKIT_CPUID7_EDX");

	*a = leaf == 0 ? 0x16 : (1U << 7);
	*b = 0;
	*c = 0;
	*d = leaf == 7 && edx7 ? strtoul(edx7, NULL, 0) : 0;
	return 1;
}

#define __cpuid(leaf, a, b, c, d) __get_cpuid(leaf, &(a), &(b), &(c), &(d))
#define __cpuid_count(leaf, sub, a, b, c, d) \
	__get_cpuid(leaf, &(a), &(b), &(c), &(d))

#endif
