/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Trace event of intel_pstate: what ->adjust_perf() was given and the HWP
 * request it made of it.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM intel_pstate

#if !defined(_INTEL_PSTATE_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _INTEL_PSTATE_TRACE_H

#include <linux/tracepoint.h>
#include <linux/types.h>

/**
 * intel_pstate_adjust_perf - One call of intel_pstate's ->adjust_perf().
 * @cpu: CPU whose request was composed.
 * @min_perf: Required performance, in the units of @capacity.
 * @target_perf: Desired performance, in the units of @capacity.
 * @max_perf: Highest performance allowed, in the units of @capacity.
 * @capacity: Capacity of the CPU.
 * @request: HWP_REQUEST value after the call (the cached value: no MSR is
 *	     read for the event); its MIN, MAX and DESIRED fields are recorded.
 * @written: Whether the request differed from the previous one, so that the
 *	     register was written.
 */
TRACE_EVENT(intel_pstate_adjust_perf,
	    TP_PROTO(unsigned int cpu, unsigned long min_perf,
		     unsigned long target_perf, unsigned long max_perf,
		     unsigned long capacity, u64 request, bool written),
	    TP_ARGS(cpu, min_perf, target_perf, max_perf, capacity, request,
		    written),
	    TP_STRUCT__entry(__field(unsigned long, min_perf)
			     __field(unsigned long, target_perf)
			     __field(unsigned long, max_perf)
			     __field(unsigned long, capacity)
			     __field(unsigned int, cpu)
			     __field(u8, hwp_min)
			     __field(u8, hwp_max)
			     __field(u8, hwp_desired)
			     __field(bool, written)),
	    TP_fast_assign(__entry->cpu = cpu;
			   __entry->min_perf = min_perf;
			   __entry->target_perf = target_perf;
			   __entry->max_perf = max_perf;
			   __entry->capacity = capacity;
			   __entry->hwp_min = request & 0xff;
			   __entry->hwp_max = (request >> 8) & 0xff;
			   __entry->hwp_desired = (request >> 16) & 0xff;
			   __entry->written = written;),
	    TP_printk("cpu=%u min_perf=%lu target_perf=%lu max_perf=%lu capacity=%lu hwp_min=%u hwp_max=%u hwp_desired=%u written=%u",
		      __entry->cpu, __entry->min_perf, __entry->target_perf,
		      __entry->max_perf, __entry->capacity, __entry->hwp_min,
		      __entry->hwp_max, __entry->hwp_desired, __entry->written)
);

#endif /* _INTEL_PSTATE_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE intel_pstate_trace

#include <trace/define_trace.h>
