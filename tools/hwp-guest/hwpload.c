// SPDX-License-Identifier: GPL-2.0-only
/*
 * hwpload: loads and probes for the emulated HWP machine's guests (static, busybox
 * initramfs); its commands: usage() and harness.md, "Tool reference".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MARK_BASE 0x4f4d0000u

/* sched_setattr(2), which glibc does not wrap: the uclamp part of it */
#define HWPLOAD_SCHED_FLAG_KEEP_ALL	0x18	/* KEEP_POLICY | KEEP_PARAMS */
#define HWPLOAD_SCHED_FLAG_UTIL_CLAMP	0x60	/* UTIL_CLAMP_MIN | _MAX */

struct hwpload_sched_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
	uint32_t sched_util_min;
	uint32_t sched_util_max;
};

static void usage(void)
{
	fprintf(stderr,
		"usage: hwpload spin CPU SECS | duty CPU WORK_US SLEEP_US SECS |\n"
		"       mark N | rdmsr CPU MSR | wrmsr CPU MSR VALUE |\n"
		"       counters CPU |\n"
		"       uclamp MIN MAX COMMAND... | fifo CPU PRIO PROGRAM...\n");
	exit(2);
}

static unsigned long num(const char *s)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || end == s || *end) {
		fprintf(stderr, "hwpload: not a number: '%s'\n", s);
		exit(2);
	}
	return v;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

static void pin(unsigned long cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "hwpload: cannot pin to CPU %lu: %s\n", cpu,
			strerror(errno));
		exit(1);
	}
}

static void spin_until(uint64_t end)
{
	while (now_ns() < end)
		;
}

static int msr_fd(unsigned long cpu, int flags)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/dev/cpu/%lu/msr", cpu);
	fd = open(path, flags);
	if (fd < 0) {
		fprintf(stderr, "hwpload: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	return fd;
}

static void uclamp(unsigned long min, unsigned long max)
{
	struct hwpload_sched_attr attr = {
		.size = sizeof(attr),
		.sched_flags = HWPLOAD_SCHED_FLAG_KEEP_ALL |
			       HWPLOAD_SCHED_FLAG_UTIL_CLAMP,
		.sched_util_min = min,
		.sched_util_max = max,
	};

	if (min > max || max > 1024)
		usage();
	if (syscall(SYS_sched_setattr, 0, &attr, 0)) {
		fprintf(stderr, "hwpload: uclamp %lu %lu: %s\n", min, max,
			strerror(errno));
		exit(1);
	}
}

int main(int argc, char **argv)
{
	uint64_t end, v;
	int fd;

	if (argc < 2)
		usage();
	if (!strcmp(argv[1], "uclamp") && argc >= 5 && strcmp(argv[4], "uclamp")) {
		uclamp(num(argv[2]), num(argv[3]));
		argv[3] = argv[0];
		return main(argc - 3, argv + 3);
	}
	if (!strcmp(argv[1], "fifo") && argc >= 5) {
		struct sched_param sp = { .sched_priority = (int)num(argv[3]) };

		pin(num(argv[2]));
		if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
			fprintf(stderr, "hwpload: fifo %s: %s\n", argv[3], strerror(errno));
			return 1;
		}
		execvp(argv[4], argv + 4);
		fprintf(stderr, "hwpload: %s: %s\n", argv[4], strerror(errno));
		return 127;
	}
	if (!strcmp(argv[1], "spin") && argc == 4) {
		pin(num(argv[2]));
		spin_until(now_ns() + num(argv[3]) * 1000000000ull);
		return 0;
	}
	if (!strcmp(argv[1], "duty") && argc == 6) {
		unsigned long work = num(argv[3]), sleep_us = num(argv[4]);
		struct timespec ts = { sleep_us / 1000000, (sleep_us % 1000000) * 1000 };

		pin(num(argv[2]));
		end = now_ns() + num(argv[5]) * 1000000000ull;
		while (now_ns() < end) {
			spin_until(now_ns() + work * 1000ull);
			if (sleep_us)
				nanosleep(&ts, NULL);
		}
		return 0;
	}
	if (!strcmp(argv[1], "mark") && argc == 3) {
		unsigned long n = num(argv[2]);

		if (n > 0xffff)
			usage();
		fd = msr_fd(0, O_RDONLY);
		if (pread(fd, &v, sizeof(v), MARK_BASE + n) == sizeof(v)) {
			fprintf(stderr, "hwpload: MSR 0x%x reads: not the HWP machine?\n",
				MARK_BASE + (unsigned int)n);
			return 1;
		}
		close(fd);
		return 0;
	}
	if (!strcmp(argv[1], "rdmsr") && argc == 4) {
		fd = msr_fd(num(argv[2]), O_RDONLY);
		if (pread(fd, &v, sizeof(v), num(argv[3])) != sizeof(v)) {
			fprintf(stderr, "hwpload: rdmsr %s on CPU %s: %s\n", argv[3],
				argv[2], strerror(errno));
			return 1;
		}
		printf("0x%" PRIx64 "\n", v);
		return 0;
	}
	if (!strcmp(argv[1], "counters") && argc == 3) {
		uint64_t m, a;
		uint32_t lo, hi;

		pin(num(argv[2]));
		fd = msr_fd(num(argv[2]), O_RDONLY);
		__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
		if (pread(fd, &m, sizeof(m), 0xe7) != sizeof(m) ||
		    pread(fd, &a, sizeof(a), 0xe8) != sizeof(a)) {
			fprintf(stderr, "hwpload: MPERF/APERF on CPU %s: %s\n", argv[2],
				strerror(errno));
			return 1;
		}
		printf("%" PRIu64 " %" PRIu64 " %" PRIu64 "\n", (uint64_t)hi << 32 | lo, m, a);
		return 0;
	}
	if (!strcmp(argv[1], "wrmsr") && argc == 5) {
		v = num(argv[4]);
		fd = msr_fd(num(argv[2]), O_WRONLY);
		if (pwrite(fd, &v, sizeof(v), num(argv[3])) != sizeof(v)) {
			fprintf(stderr, "hwpload: wrmsr %s %s on CPU %s: %s\n", argv[3],
				argv[4], argv[2], strerror(errno));
			return 1;
		}
		return 0;
	}
	usage();
	return 2;
}
