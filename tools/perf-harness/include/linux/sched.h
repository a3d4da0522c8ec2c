/* SPDX-License-Identifier: GPL-2.0 */
/* User-space shim of <linux/sched.h>: the capacity scale (include/linux/sched.h). */
#ifndef _SHIM_LINUX_SCHED_H
#define _SHIM_LINUX_SCHED_H

#define SCHED_FIXEDPOINT_SHIFT	10
#define SCHED_CAPACITY_SHIFT	SCHED_FIXEDPOINT_SHIFT
#define SCHED_CAPACITY_SCALE	(1L << SCHED_CAPACITY_SHIFT)

#endif
