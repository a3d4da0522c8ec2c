/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space shim of <linux/bits.h>, enough for the real
 * arch/x86/include/asm/msr-index.h of the kernel tree.
 */
#ifndef _SHIM_LINUX_BITS_H
#define _SHIM_LINUX_BITS_H

#define BITS_PER_LONG		(8 * (int)sizeof(long))
#define BITS_PER_LONG_LONG	64
#define BIT(nr)			(1UL << (nr))
#define BIT_ULL(nr)		(1ULL << (nr))
#define GENMASK(h, l) \
	(((~0UL) - (1UL << (l)) + 1) & (~0UL >> (BITS_PER_LONG - 1 - (h))))
#define GENMASK_ULL(h, l) \
	(((~0ULL) - (1ULL << (l)) + 1) & (~0ULL >> (BITS_PER_LONG_LONG - 1 - (h))))

#endif
