/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space shim of <linux/kernel.h> for the perf harness: only what the
 * mapping code uses, with the kernel's semantics (type-checked min/max are
 * reduced to GNU C statement expressions without the type check).
 */
#ifndef _SHIM_LINUX_KERNEL_H
#define _SHIM_LINUX_KERNEL_H

#include <limits.h>
#include <linux/types.h>

#define min(x, y) ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x < _y ? _x : _y; })
#define max(x, y) ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x > _y ? _x : _y; })
#define max3(x, y, z) max((__typeof__(x))max(x, y), z)
#define min3(x, y, z) min((__typeof__(x))min(x, y), z)
#define clamp(val, lo, hi) min((__typeof__(val))max(val, lo), hi)
#define min_t(type, x, y) ({ type __x = (x); type __y = (y); __x < __y ? __x : __y; })
#define max_t(type, x, y) ({ type __x = (x); type __y = (y); __x > __y ? __x : __y; })
#define clamp_t(type, val, lo, hi) min_t(type, max_t(type, val, lo), hi)
#define clamp_val(val, lo, hi) clamp_t(__typeof__(val), val, lo, hi)

#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))

#define READ_ONCE(x) (*(volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, val) (*(volatile __typeof__(x) *)&(x) = (val))

#endif
