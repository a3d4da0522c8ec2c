// SPDX-License-Identifier: GPL-2.0
/*
 * Check that schedutil steers the HWP_REQUEST register through the
 * ->adjust_perf() callback of intel_pstate in passive mode, in both modes
 * of intel_pstate/adjust_perf_mode.
 *
 * With intel_pstate in passive mode on a processor with HWP, schedutil
 * passes its required and desired performance to the driver, which writes
 * them to the MIN and DESIRED fields of HWP_REQUEST (MSR 0x774) and the
 * policy limit to MAX.  The test reads the register through
 * /dev/cpu/N/msr (it never writes an MSR) while a busy loop is pinned to
 * the CPU, and checks that, in the "hints" mode:
 *
 *  - under load, MIN <= DESIRED <= MAX, DESIRED above MIN (a frequency
 *    request puts the same level into both) and EPP is untouched;
 *  - DESIRED falls again after the CPU has been idle;
 *  - MAX follows a lowered scaling_max_freq (and MIN does not exceed it),
 *    and comes back when the limit is restored;
 *  - the performance governor goes through the frequency path (MIN =
 *    DESIRED = MAX), and switching back to schedutil steers DESIRED again;
 *  - where intel_pstate/adjust_perf_mode exists (the test selects "hints"
 *    first), a bad value is rejected with EINVAL; in the "floor" mode
 *    DESIRED is 0 and MIN follows the load (MIN <= MAX), within a lowered
 *    scaling_max_freq; back in the "hints" mode DESIRED is set again from
 *    the next update;
 *  - every setting it changed reads back as before, and where it switched
 *    intel_pstate from active to passive mode, DESIRED is 0 once the driver
 *    is back in active mode.
 *
 * Where Dynamic Efficiency Control is on (MSR_IA32_POWER_CTL bit 27), the
 * driver writes no DESIRED: the test then expects DESIRED 0 in every
 * sample and checks the hints through MIN and MAX instead.
 *
 * Without the msr driver, it takes the request from the latest
 * intel_pstate:intel_pstate_adjust_perf event for the CPU instead, traced
 * in a tracefs instance of its own (instances/hwp_request_selftest,
 * removed at exit), and runs the same checks, except that: the event has
 * no EPP; under the performance governor it expects no event at all; the
 * ratio MSRs cannot be read, so it skips where no event comes under load
 * (no frequency invariance: schedutil takes the frequency path); DEC is
 * taken from the kernel log, and it skips where the log no longer holds
 * the boot; and it does not switch from active mode, as it cannot see a
 * DESIRED level that passive mode would clear.
 *
 * It skips (exit code 4, the reason in the "# SKIP" line) wherever
 * schedutil may not use ->adjust_perf(): a hybrid processor or
 * Broadwell-style HWP (where a 5.10-only patch of the series leaves the
 * callback out, which user space cannot tell from a kernel without it), no
 * frequency invariance (schedutil takes the frequency path), no fast
 * switching or a shared policy (schedutil does not use the callback), and
 * where it cannot run: not root, no HWP, HWP not enabled, another cpufreq
 * driver, neither the msr driver nor the event, no schedutil governor.
 *
 * It tests one CPU per package and HWP highest level (a core type), at
 * most MAX_SAMPLE of them, so that its run time does not grow with the
 * number of CPUs.  In active mode it switches intel_pstate to passive and
 * back at the end.  Every sysfs value it changes is restored on exit,
 * including exits caused by SIGINT, SIGTERM or SIGHUP, the msr module is
 * unloaded again if the test loaded it, and the trace instance removed.
 *
 * Usage: hwp_request [-a | -c CPU]
 *   -a      test every online CPU (run time about 1.3 s per CPU)
 *   -c CPU  test that CPU only
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cpuid.h>

#include "../kselftest.h"

#define MSR_PLATFORM_INFO		0xce
#define MSR_IA32_POWER_CTL		0x1fc
#define MSR_TURBO_RATIO_LIMIT		0x1ad
#define MSR_TURBO_RATIO_LIMIT1		0x1ae
#define MSR_ATOM_CORE_RATIOS		0x66a
#define MSR_ATOM_CORE_TURBO_RATIOS	0x66c
#define MSR_PM_ENABLE			0x770
#define MSR_HWP_CAPABILITIES		0x771
#define MSR_HWP_REQUEST			0x774
#define POWER_CTL_DEC_ENABLE		27

#define HWP_MIN(r)		((unsigned int)((r) & 0xff))
#define HWP_MAX(r)		((unsigned int)(((r) >> 8) & 0xff))
#define HWP_DESIRED(r)		((unsigned int)(((r) >> 16) & 0xff))
#define HWP_EPP(r)		((unsigned int)(((r) >> 24) & 0xff))
#define HWP_HIGHEST(c)		((int)((c) & 0xff))

/* CPUID.(EAX=7,ECX=0):EDX[15], X86_FEATURE_HYBRID_CPU in later kernels */
#define CPUID_7_EDX_HYBRID	0x8000
#define CPUID_6_EAX_HWP		0x80

/* arch/x86/include/asm/intel-family.h, family 6 */
#define INTEL_FAM6_BROADWELL_X		0x4f
#define INTEL_FAM6_BROADWELL_D		0x56
#define INTEL_FAM6_SKYLAKE_X		0x55
#define INTEL_FAM6_XEON_PHI_KNL		0x57
#define INTEL_FAM6_XEON_PHI_KNM		0x85
#define INTEL_FAM6_ATOM_GOLDMONT	0x5c
#define INTEL_FAM6_ATOM_GOLDMONT_D	0x5f
#define INTEL_FAM6_ATOM_GOLDMONT_PLUS	0x7a

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define CPU_DIR			"/sys/devices/system/cpu"
#define PSTATE_DIR		CPU_DIR "/intel_pstate"
#define MODE_PATH		PSTATE_DIR "/adjust_perf_mode"
#define TRACE_INSTANCE		"instances/hwp_request_selftest"
#define TRACE_EVENT		"intel_pstate_adjust_perf"
/* CPUs tested by default: one per package and core type, at most this */
#define MAX_SAMPLE		16
/* per CPU: governor, limits and EPP saved around a mode switch; a few more */
#define MAX_SAVED		(4 * CPU_SETSIZE + 16)
#define LOAD_WARMUP_MS		400
#define SAMPLES			10
#define SAMPLE_MS		20
#define IDLE_MS			500
#define POKE_MS			40

struct saved_value {
	char path[96];
	char value[64];
};

static struct saved_value *saved;
static int nsaved;
static pid_t owner_pid;
static pid_t load_pid;
static bool msr_loaded_by_us;
static bool from_trace;		/* no msr driver: the request from the trace */
static char trace_dir[128];	/* the tracefs instance, while it exists */
static bool mode_switched;	/* intel_pstate was active: set to passive */
static bool dec;		/* Dynamic Efficiency Control: no DESIRED */
static unsigned int family, model;	/* CPUID.01H */
static int interrupted;		/* signal number, set by on_signal() */
static unsigned long spin_count;

static int read_str(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0) {
		n = -errno;
		close(fd);
		return n;
	}
	close(fd);
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

static int write_str(const char *path, const char *val)
{
	ssize_t len = strlen(val);
	ssize_t n;
	int fd;

	fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0)
		return -errno;
	n = write(fd, val, len);
	if (n != len) {
		n = n < 0 ? -errno : -EIO;
		close(fd);
		return n;
	}
	close(fd);
	return 0;
}

static int trace_write(const char *file, const char *val)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", trace_dir, file);
	return write_str(path, val);
}

static int cpufreq_path(char *buf, size_t len, int cpu, const char *file)
{
	return snprintf(buf, len, CPU_DIR "/cpu%d/cpufreq/%s", cpu, file);
}

static int cpufreq_read(int cpu, const char *file, char *buf, size_t len)
{
	char path[PATH_MAX];

	cpufreq_path(path, sizeof(path), cpu, file);
	return read_str(path, buf, len);
}

static long cpufreq_read_long(int cpu, const char *file)
{
	char buf[64];

	if (cpufreq_read(cpu, file, buf, sizeof(buf)))
		return -1;
	return strtol(buf, NULL, 10);
}

/*
 * Remember the value of @path, once, to be put back by restore_all().
 * Values are restored in the reverse order of saving, and only where they
 * differ from what the file reads then.  Returns 0 or a negative errno.
 */
static int save_value(const char *path)
{
	struct saved_value *s;
	int i, ret;

	for (i = 0; i < nsaved; i++)
		if (!strcmp(saved[i].path, path))
			return 0;
	if (nsaved == MAX_SAVED)
		return -ENOSPC;
	s = &saved[nsaved];
	if (strlen(path) >= sizeof(s->path))
		return -ENAMETOOLONG;
	ret = read_str(path, s->value, sizeof(s->value));
	if (ret)
		return ret;
	strcpy(s->path, path);
	nsaved++;
	return 0;
}

/* Write a sysfs attribute, remembering its first value for the restore. */
static int change_value(const char *path, const char *val)
{
	int ret = save_value(path);

	return ret ? ret : write_str(path, val);
}

static int cpufreq_change(int cpu, const char *file, const char *val)
{
	char path[PATH_MAX];

	cpufreq_path(path, sizeof(path), cpu, file);
	return change_value(path, val);
}

/* Put back one saved value; 0 if it reads back equal. */
static int restore_one(struct saved_value *s)
{
	char now[64];
	int ret;

	if (!read_str(s->path, now, sizeof(now)) && !strcmp(now, s->value))
		return 0;
	ret = write_str(s->path, s->value);
	if (ret)
		return ret;
	ret = read_str(s->path, now, sizeof(now));
	if (ret)
		return ret;
	return strcmp(now, s->value) ? -EAGAIN : 0;
}

static void stop_load(void)
{
	if (load_pid > 0) {
		kill(load_pid, SIGKILL);
		waitpid(load_pid, NULL, 0);
		load_pid = 0;
	}
}

/*
 * Put back everything the test changed, newest first: the governor and
 * limits of the tested CPUs, then intel_pstate/status, then what the mode
 * switch reset (the global limits and no_turbo, the governor, limits and
 * EPP of every CPU).  Returns the number of values that could not be
 * restored.
 */
static int restore_all(void)
{
	int i, ret, failed = 0;

	if (!saved || getpid() != owner_pid)
		return 0;
	stop_load();
	for (i = nsaved - 1; i >= 0; i--) {
		ret = restore_one(&saved[i]);
		if (ret) {
			ksft_print_msg("could not restore %s to %s: %s\n",
				       saved[i].path, saved[i].value,
				       strerror(-ret));
			failed++;
		}
	}
	nsaved = 0;
	if (msr_loaded_by_us) {
		msr_loaded_by_us = false;
		if (system("modprobe -r msr >/dev/null 2>&1"))
			ksft_print_msg("could not unload the msr module\n");
	}
	/* removing the instance undoes whatever the test set in it */
	if (trace_dir[0] && rmdir(trace_dir)) {
		ksft_print_msg("could not remove %s: %s\n", trace_dir,
			       strerror(errno));
		failed++;
	}
	trace_dir[0] = '\0';
	return failed;
}

static void restore_at_exit(void)
{
	restore_all();
}

static void on_signal(int sig)
{
	__atomic_store_n(&interrupted, sig, __ATOMIC_RELAXED);
}

static void install_cleanup(void)
{
	struct sigaction sa;

	saved = calloc(MAX_SAVED, sizeof(*saved));
	if (!saved)
		ksft_exit_fail_msg("out of memory\n");
	owner_pid = getpid();
	atexit(restore_at_exit);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* no SA_RESTART: a sleep returns early and the test bails out */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

static void check_interrupted(void)
{
	int sig = __atomic_load_n(&interrupted, __ATOMIC_RELAXED);

	if (sig)
		ksft_exit_fail_msg("interrupted by signal %d, state restored\n",
				   sig);
}

static void msleep(unsigned int ms)
{
	struct timespec ts = {
		.tv_sec = ms / 1000,
		.tv_nsec = (ms % 1000) * 1000000L,
	};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		check_interrupted();
	check_interrupted();
}

static int msr_open(int cpu)
{
	char path[64];

	snprintf(path, sizeof(path), "/dev/cpu/%d/msr", cpu);
	return open(path, O_RDONLY);
}

/* An MSR that raises #GP reads as -EIO, as rdmsrl_safe() fails on it. */
static int read_msr(int cpu, uint32_t reg, uint64_t *val)
{
	int fd, ret = 0;

	fd = msr_open(cpu);
	if (fd < 0)
		return -errno;
	if (pread(fd, val, sizeof(*val), reg) != sizeof(*val))
		ret = -EIO;
	close(fd);
	return ret;
}

static uint64_t read_hwp_request(int cpu)
{
	uint64_t val;
	int ret;

	ret = read_msr(cpu, MSR_HWP_REQUEST, &val);
	if (ret)
		ksft_exit_fail_msg("cpu%d: cannot read HWP_REQUEST: %s\n",
				   cpu, strerror(-ret));
	return val;
}

/*
 * Without the msr driver, the request comes from the
 * intel_pstate_adjust_perf event, traced in a tracefs instance of the
 * test's own: its buffer, events and tracing_on are separate from those of
 * anyone else tracing, and removing it at exit undoes every change.
 * Returns NULL, or why it cannot.
 */
static const char *trace_setup(void)
{
	static const char * const roots[] = {
		"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
	};
	char path[sizeof(trace_dir)];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(roots); i++) {
		snprintf(path, sizeof(path), "%s/instances", roots[i]);
		if (!access(path, F_OK))
			break;
	}
	if (i == ARRAY_SIZE(roots))
		return "no tracefs with instances";
	snprintf(path, sizeof(path), "%s/" TRACE_INSTANCE, roots[i]);
	/* one that exists was left by a killed run: the name is the test's */
	if (mkdir(path, 0700) &&
	    (errno != EEXIST || rmdir(path) || mkdir(path, 0700)))
		return "cannot create the tracefs " TRACE_INSTANCE;
	strcpy(trace_dir, path);
	/* the test reads only the events since the last clear: keep it small */
	trace_write("buffer_size_kb", "64");
	if (trace_write("events/intel_pstate/" TRACE_EVENT "/enable", "1"))
		return "no intel_pstate:" TRACE_EVENT " event";
	return NULL;
}

/*
 * The request of @cpu in the latest event for it since the trace was
 * cleared, EPP 0 (the event has none), or -ENODATA.  From the CPU's own
 * buffer: ->adjust_perf() runs on the CPU it is for.
 */
static int trace_last(int cpu, uint64_t *r)
{
	static const char ev[] = " " TRACE_EVENT ": cpu=";
	unsigned int c, lo, hi, des;
	char path[PATH_MAX], *line = NULL;
	int ret = -ENODATA;
	size_t size = 0;
	const char *p;
	FILE *f;

	snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/trace", trace_dir, cpu);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	while (getline(&line, &size, f) > 0) {
		p = strstr(line, ev);
		if (!p || sscanf(p + strlen(ev), "%u", &c) != 1 ||
		    c != (unsigned int)cpu)
			continue;
		p = strstr(p, " hwp_min=");
		if (p && sscanf(p, " hwp_min=%u hwp_max=%u hwp_desired=%u",
				&lo, &hi, &des) == 3) {
			*r = (lo & 0xff) | (hi & 0xff) << 8 |
			     (uint64_t)(des & 0xff) << 16;
			ret = 0;
		}
	}
	free(line);
	fclose(f);
	return ret;
}

static void start_load(int cpu)
{
	cpu_set_t set;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != owner_pid)
			_exit(1);
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			_exit(2);
		for (;;)
			__atomic_fetch_add(&spin_count, 1, __ATOMIC_RELAXED);
	}
	load_pid = pid;
	msleep(LOAD_WARMUP_MS);
	if (waitpid(pid, NULL, WNOHANG) == pid) {
		load_pid = 0;
		ksft_exit_fail_msg("cpu%d: cannot pin a busy loop there\n", cpu);
	}
}

/* Wake a short-lived task on @cpu a few times so schedutil sees it. */
static void poke_cpu(int cpu)
{
	cpu_set_t set;
	pid_t pid;
	int i;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (pid == 0) {
		struct timespec ts = { .tv_nsec = 2000000L };

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			_exit(2);
		for (i = 0; i < POKE_MS / 2; i++)
			nanosleep(&ts, NULL);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
}

/*
 * The request of @cpu: HWP_REQUEST, or from the trace, where an idle CPU
 * is poked once if it has had no event since the clear.
 */
static int read_request(int cpu, uint64_t *r)
{
	int ret;

	if (!from_trace)
		return read_msr(cpu, MSR_HWP_REQUEST, r);
	ret = trace_last(cpu, r);
	if (ret == -ENODATA) {
		poke_cpu(cpu);
		ret = trace_last(cpu, r);
	}
	return ret;
}

struct sample {
	unsigned int min, max, desired, epp;
	bool ordered;		/* MIN <= DESIRED <= MAX in every sample */
	bool minmax;		/* MIN <= MAX in every sample */
	bool below;		/* MIN < MAX in some sample */
	bool zero;		/* DESIRED == 0 in some sample */
	bool nonzero;		/* DESIRED != 0 in some sample */
	bool above;		/* MIN < DESIRED in some sample: a hint */
	bool pinned;		/* MIN == DESIRED == MAX in every sample */
	bool epp_changed;
	unsigned int missing;	/* samples without an event (trace) */
};

/*
 * Sample the request of @cpu; the reported fields are the last sample.  A
 * sample without an event since the start fails every check but "missing".
 */
static void sample_cpu(int cpu, unsigned int epp, struct sample *s)
{
	uint64_t r;
	int i, ret;

	memset(s, 0, sizeof(*s));
	s->ordered = true;
	s->minmax = true;
	s->pinned = true;
	if (from_trace && trace_write("trace", ""))
		ksft_exit_fail_msg("cannot clear %s/trace\n", trace_dir);
	for (i = 0; i < SAMPLES; i++) {
		if (i)
			msleep(SAMPLE_MS);
		ret = read_request(cpu, &r);
		if (ret == -ENODATA && from_trace) {
			s->missing++;
			s->ordered = false;
			s->minmax = false;
			s->pinned = false;
			continue;
		}
		if (ret)
			ksft_exit_fail_msg("cpu%d: cannot read the request: %s\n",
					   cpu, strerror(-ret));
		s->min = HWP_MIN(r);
		s->max = HWP_MAX(r);
		s->desired = HWP_DESIRED(r);
		s->epp = HWP_EPP(r);
		if (s->min > s->desired || s->desired > s->max)
			s->ordered = false;
		if (s->min > s->max)
			s->minmax = false;
		if (s->min < s->max)
			s->below = true;
		if (s->desired)
			s->nonzero = true;
		else
			s->zero = true;
		if (s->min < s->desired)
			s->above = true;
		if (s->min != s->desired || s->desired != s->max)
			s->pinned = false;
		if (s->epp != epp)
			s->epp_changed = true;
	}
}

static const char *sample_str(const struct sample *s)
{
	static char buf[96];
	int n;

	n = snprintf(buf, sizeof(buf), "MIN %u DESIRED %u MAX %u",
		     s->min, s->desired, s->max);
	if (!from_trace)
		snprintf(buf + n, sizeof(buf) - n, " EPP %u", s->epp);
	else if (s->missing)
		snprintf(buf + n, sizeof(buf) - n, ", %u of %d without event",
			 s->missing, SAMPLES);
	return buf;
}

/* Is @word a whole word of the first "flags" line of /proc/cpuinfo? */
static bool cpuinfo_flag(const char *word)
{
	size_t len = strlen(word);
	bool found = false;
	char *line = NULL;
	size_t size = 0;
	const char *p;
	FILE *f;

	f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return false;
	while (getline(&line, &size, f) > 0) {
		if (strncmp(line, "flags", 5))
			continue;
		for (p = strchr(line, ':'); p && (p = strstr(p, word)); p += len)
			if (p[-1] == ' ' && (p[len] == ' ' || p[len] == '\n' ||
					     !p[len])) {
				found = true;
				break;
			}
		break;
	}
	free(line);
	fclose(f);
	return found;
}

/*
 * Does the kernel log hold @msg?  -1 if it cannot be read (the message may
 * also have left the ring buffer since boot).
 */
static int kernel_log_has(const char *msg)
{
	int len, ret;
	char *buf;

	len = klogctl(10, NULL, 0);	/* SYSLOG_ACTION_SIZE_BUFFER */
	if (len <= 0)
		return -1;
	buf = malloc(len + 1);
	if (!buf)
		return -1;
	len = klogctl(3, buf, len);	/* SYSLOG_ACTION_READ_ALL */
	if (len < 0) {
		free(buf);
		return -1;
	}
	buf[len] = '\0';
	ret = !!strstr(buf, msg);
	free(buf);
	return ret;
}

static bool skx_ratio(int cpu, uint64_t *base, uint64_t *turbo, int size)
{
	uint64_t ratios, counts;
	int i;

	if (read_msr(cpu, MSR_PLATFORM_INFO, base))
		return false;
	*base = (*base >> 8) & 0xff;
	if (read_msr(cpu, MSR_TURBO_RATIO_LIMIT, &ratios) ||
	    read_msr(cpu, MSR_TURBO_RATIO_LIMIT1, &counts))
		return false;
	for (i = 0; i < 64; i += 8) {
		if (((counts >> i) & 0xff) >= (uint64_t)size) {
			*turbo = (ratios >> i) & 0xff;
			return true;
		}
	}
	return false;
}

static bool knl_ratio(int cpu, uint64_t *base, uint64_t *turbo)
{
	int fratio, delta, i;
	uint64_t msr;

	if (read_msr(cpu, MSR_PLATFORM_INFO, base))
		return false;
	*base = (*base >> 8) & 0xff;
	if (read_msr(cpu, MSR_TURBO_RATIO_LIMIT, &msr))
		return false;
	fratio = (msr >> 8) & 0xff;
	for (i = 16; i < 64; i += 8) {
		delta = (msr >> (i + 5)) & 0x7;
		if (delta) {
			*turbo = fratio - delta;
			return true;
		}
	}
	/* no step: the kernel leaves the ratio unset, assume it found one */
	*turbo = fratio;
	return true;
}

/*
 * Does the kernel find the frequency invariance ratio at boot?  This is
 * intel_set_max_freq_ratio() of arch/x86/kernel/smpboot.c, on the same
 * MSRs: the first of these that can be read decides, and a ratio of 0 means
 * that invariance stays off (silently: the kernel says so at debug level).
 */
static bool freq_ratio_found(int cpu)
{
	uint64_t base = 0, turbo = 0, msr;

	if (!read_msr(cpu, MSR_ATOM_CORE_RATIOS, &base) &&
	    !read_msr(cpu, MSR_ATOM_CORE_TURBO_RATIOS, &turbo)) {
		base = (base >> 16) & 0x3f;
		turbo &= 0x3f;
		goto out;
	}
	if (family == 6 && (model == INTEL_FAM6_ATOM_GOLDMONT ||
			    model == INTEL_FAM6_ATOM_GOLDMONT_D ||
			    model == INTEL_FAM6_ATOM_GOLDMONT_PLUS) &&
	    skx_ratio(cpu, &base, &turbo, 1))
		goto out;
	if (family == 6 && (model == INTEL_FAM6_XEON_PHI_KNL ||
			    model == INTEL_FAM6_XEON_PHI_KNM) &&
	    knl_ratio(cpu, &base, &turbo))
		goto out;
	if (family == 6 && model == INTEL_FAM6_SKYLAKE_X &&
	    skx_ratio(cpu, &base, &turbo, 4))
		goto out;
	if (read_msr(cpu, MSR_PLATFORM_INFO, &base) ||
	    read_msr(cpu, MSR_TURBO_RATIO_LIMIT, &msr))
		return false;
	base = (base >> 8) & 0xff;
	turbo = (msr >> 24) & 0xff;
	if (!turbo)
		turbo = msr & 0xff;
out:
	ksft_print_msg("frequency invariance reference: turbo ratio %llu, base ratio %llu\n",
		       (unsigned long long)turbo, (unsigned long long)base);
	return base && turbo && turbo * 1024 / base;
}

/*
 * Skip where the driver does not install ->adjust_perf() or schedutil
 * does not call it, judging from what user space can see, and where the
 * test cannot run.  First what CPUID and /proc/cpuinfo tell.
 */
static void skip_unless_hwp(void)
{
	unsigned int eax, ebx, ecx, edx, max_leaf;
	struct utsname u;

	if (geteuid() != 0)
		ksft_exit_skip("must be run as root\n");

	if (!__get_cpuid(0, &max_leaf, &ebx, &ecx, &edx) || max_leaf < 6)
		ksft_exit_skip("CPU has no HWP (no CPUID leaf 6)\n");
	__cpuid(6, eax, ebx, ecx, edx);
	if (!(eax & CPUID_6_EAX_HWP))
		ksft_exit_skip("CPU has no HWP (CPUID.06H:EAX bit 7 clear)\n");

	/* hybrid and Broadwell-style HWP: the callback may be left out */
	if (max_leaf >= 7) {
		__cpuid_count(7, 0, eax, ebx, ecx, edx);
		if (edx & CPUID_7_EDX_HYBRID)
			ksft_exit_skip("hybrid CPU (CPUID.07H:EDX[15]): callback may be off\n");
	}
	__cpuid(1, eax, ebx, ecx, edx);
	family = (eax >> 8) & 0xf;
	model = (eax >> 4) & 0xf;
	if (family == 6 || family == 0xf)
		model |= (eax >> 12) & 0xf0;
	if (family == 0xf)
		family += (eax >> 20) & 0xff;
	if (family == 6 && (model == INTEL_FAM6_BROADWELL_X ||
			    model == INTEL_FAM6_BROADWELL_D))
		ksft_exit_skip("Broadwell-style HWP (model 0x%x): callback may be off\n",
			       model);

	/* schedutil takes the frequency path without invariance */
	if (uname(&u) || strcmp(u.machine, "x86_64"))
		ksft_exit_skip("no frequency invariance: a 64-bit kernel has it, this one is %s\n",
			       u.machine);
	if (!cpuinfo_flag("aperfmperf"))
		ksft_exit_skip("no frequency invariance: no aperfmperf in /proc/cpuinfo\n");
	/* ... nor without fast switching: a transition notifier stops it */
	if (!cpuinfo_flag("constant_tsc"))
		ksft_exit_skip("no fast frequency switching: no constant_tsc in /proc/cpuinfo\n");
}

/*
 * Then what the MSRs of @cpu and the kernel log tell.  Loads the msr
 * driver, or without it sets up the trace.  Called before anything changes.
 */
static void skip_unless_steered(int cpu)
{
	char path[PATH_MAX];
	const char *why;
	uint64_t val;
	int fd, ret;

	fd = msr_open(cpu);
	if (fd < 0 && errno == ENOENT) {
		snprintf(path, sizeof(path), "/dev/cpu/%d/msr", cpu);
		if (!system("modprobe msr >/dev/null 2>&1") &&
		    !access(path, F_OK))
			msr_loaded_by_us = true;
		fd = msr_open(cpu);
	}
	if (fd < 0) {
		ret = errno;
		why = trace_setup();
		if (why)
			ksft_exit_skip("no /dev/cpu/%d/msr (%s, CONFIG_X86_MSR) and %s\n",
				       cpu, strerror(ret), why);
		from_trace = true;
		ksft_print_msg("no msr driver: request from %s\n", trace_dir);
		/* the driver exposes EPP where it runs HWP */
		cpufreq_path(path, sizeof(path), cpu,
			     "energy_performance_preference");
		if (access(path, F_OK))
			ksft_exit_skip("HWP is not in use: no %s\n", path);
	} else {
		close(fd);
		if (read_msr(cpu, MSR_PM_ENABLE, &val))
			ksft_exit_skip("cannot read MSR_PM_ENABLE on cpu%d\n",
				       cpu);
		if (!(val & 1))
			ksft_exit_skip("HWP is not enabled (MSR_PM_ENABLE bit 0 clear)\n");
		if (!freq_ratio_found(cpu))
			ksft_exit_skip("no frequency invariance: no turbo/base ratio in MSRs\n");
	}

	ret = kernel_log_has("Scheduler frequency invariance went wobbly");
	if (ret > 0)
		ksft_exit_skip("no frequency invariance: it \"went wobbly\" (kernel log)\n");
	if (ret < 0)
		ksft_print_msg("kernel log unreadable: frequency invariance assumed to be on\n");
	if (kernel_log_has("Fast frequency switching not enabled") == 1)
		ksft_exit_skip("no fast frequency switching (kernel log)\n");

	/*
	 * As the driver does, a failed read means DEC is off; without the msr
	 * driver, the message the driver prints at boot tells, if the log
	 * still holds the boot.
	 */
	if (from_trace) {
		if (kernel_log_has("Linux version ") != 1)
			ksft_exit_skip("no msr driver, and the boot log is gone: DEC unknown\n");
		dec = kernel_log_has("HWP DESIRED not used: DEC enabled") == 1;
	} else if (!read_msr(cpu, MSR_IA32_POWER_CTL, &val) &&
		 ((val >> POWER_CTL_DEC_ENABLE) & 1))
		dec = true;
	ksft_print_msg("Dynamic Efficiency Control is %s%s\n", dec ? "on" : "off",
		       dec ? ": expecting DESIRED 0 everywhere" : "");
}

/*
 * intel_pstate in active mode: save what a mode switch resets (the global
 * limits and no_turbo, which intel_pstate_register_driver() clears, and
 * the governor, limits and EPP of every policy, which are created anew),
 * and adjust_perf_mode, then switch to passive mode.  Not where a DESIRED
 * is set in active mode: passive mode clears it when it starts, and the
 * test cannot put it back.
 */
static void switch_to_passive(const int *cpus, int ncpus)
{
	static const char * const cpu_files[] = {
		"energy_performance_preference", "scaling_governor",
		"scaling_min_freq", "scaling_max_freq",
	};
	static const char * const global_files[] = {
		"min_perf_pct", "max_perf_pct", "no_turbo", "adjust_perf_mode",
	};
	char path[PATH_MAX], buf[32];
	unsigned int d;
	size_t j;
	int i, ret;

	if (from_trace)
		ksft_exit_skip("active mode: DESIRED, which passive mode clears, needs msr\n");
	for (i = 0; i < ncpus; i++) {
		d = HWP_DESIRED(read_hwp_request(cpus[i]));
		if (d)
			ksft_exit_skip("active mode, cpu%d DESIRED %u: passive mode clears it\n",
				       cpus[i], d);
	}
	/* every CPU with a policy: the switch resets them all */
	for (i = 0; i < sysconf(_SC_NPROCESSORS_CONF) && i < CPU_SETSIZE; i++) {
		cpufreq_path(path, sizeof(path), i, "scaling_driver");
		if (access(path, R_OK))
			continue;
		for (j = 0; j < ARRAY_SIZE(cpu_files); j++) {
			cpufreq_path(path, sizeof(path), i, cpu_files[j]);
			ret = save_value(path);
			if (ret && ret != -ENOENT)
				ksft_exit_fail_msg("cannot save %s: %s\n", path,
						   strerror(-ret));
		}
	}
	for (j = 0; j < ARRAY_SIZE(global_files); j++) {
		snprintf(path, sizeof(path), PSTATE_DIR "/%s", global_files[j]);
		ret = save_value(path);
		if (ret && ret != -ENOENT)
			ksft_exit_fail_msg("cannot save %s: %s\n", path,
					   strerror(-ret));
	}
	ret = change_value(PSTATE_DIR "/status", "passive");
	mode_switched = true;
	if (ret)
		ksft_exit_fail_msg("cannot switch intel_pstate to passive mode: %s\n",
				   strerror(-ret));
	if (read_str(PSTATE_DIR "/status", buf, sizeof(buf)) ||
	    strcmp(buf, "passive"))
		ksft_exit_fail_msg("intel_pstate/status is not passive after the switch\n");
	ksft_print_msg("intel_pstate switched from active to passive mode for the test\n");
	check_interrupted();
}

/*
 * The driver must be intel_cpufreq (intel_pstate in passive mode); switch
 * to it from active mode.
 */
static void select_passive(int cpu, const int *all, int nall)
{
	char buf[64];

	if (!read_str(PSTATE_DIR "/status", buf, sizeof(buf))) {
		if (!strcmp(buf, "off"))
			ksft_exit_skip("intel_pstate is off (intel_pstate/status)\n");
		if (!strcmp(buf, "active"))
			switch_to_passive(all, nall);
	}
	if (cpufreq_read(cpu, "scaling_driver", buf, sizeof(buf)))
		ksft_exit_skip("cpu%d has no cpufreq driver\n", cpu);
	if (strcmp(buf, "intel_cpufreq"))
		ksft_exit_skip("scaling_driver is %s, not intel_cpufreq\n",
			       buf);
}

/* Set schedutil on every CPU under test; the old governor is restored. */
static void select_schedutil(const int *cpus, int ncpus)
{
	char buf[256];
	int i, ret;

	for (i = 0; i < ncpus; i++) {
		if (cpufreq_read(cpus[i], "scaling_governor", buf, sizeof(buf)))
			ksft_exit_fail_msg("cpu%d: cannot read scaling_governor\n",
					   cpus[i]);
		if (!strcmp(buf, "schedutil"))
			continue;
		if (cpufreq_read(cpus[i], "scaling_available_governors", buf,
				 sizeof(buf)) || !strstr(buf, "schedutil"))
			ksft_exit_skip("cpu%d: no schedutil governor\n",
				       cpus[i]);
		ret = cpufreq_change(cpus[i], "scaling_governor", "schedutil");
		if (ret)
			ksft_exit_fail_msg("cpu%d: selecting schedutil: %s\n",
					   cpus[i], strerror(-ret));
		ksft_print_msg("cpu%d: governor set to schedutil for the test\n",
			       cpus[i]);
	}
}

/* Online CPUs with a cpufreq policy that this process may run on. */
static int find_cpus(int *cpus, int max)
{
	char path[PATH_MAX], buf[16];
	cpu_set_t allowed;
	int cpu, n = 0;
	long ncpu;

	ncpu = sysconf(_SC_NPROCESSORS_CONF);
	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		CPU_ZERO(&allowed);
	for (cpu = 0; cpu < ncpu && cpu < CPU_SETSIZE && n < max; cpu++) {
		if (!CPU_ISSET(cpu, &allowed))
			continue;
		snprintf(path, sizeof(path), CPU_DIR "/cpu%d/online", cpu);
		if (!read_str(path, buf, sizeof(buf)) && strcmp(buf, "1"))
			continue;
		cpufreq_path(path, sizeof(path), cpu, "scaling_driver");
		if (access(path, R_OK))
			continue;
		cpus[n++] = cpu;
	}
	return n;
}

/*
 * One CPU per package and core type, where the core type is the HWP
 * highest level (HWP_CAPABILITIES; cpuinfo_max_freq without the msr
 * driver): what makes the mapping differ between CPUs.  At most MAX_SAMPLE
 * CPUs.
 */
static int sample_cpus(int *cpus, int ncpus)
{
	int pkg[MAX_SAMPLE], top[MAX_SAMPLE];
	char path[PATH_MAX], buf[16];
	int i, j, n = 0, p, h;
	uint64_t cap;

	for (i = 0; i < ncpus && n < MAX_SAMPLE; i++) {
		snprintf(path, sizeof(path),
			 CPU_DIR "/cpu%d/topology/physical_package_id", cpus[i]);
		p = read_str(path, buf, sizeof(buf)) ? -1 : atoi(buf);
		if (from_trace)
			h = cpufreq_read_long(cpus[i], "cpuinfo_max_freq");
		else
			h = read_msr(cpus[i], MSR_HWP_CAPABILITIES, &cap) ? -1 :
				HWP_HIGHEST(cap);
		for (j = 0; j < n && (pkg[j] != p || top[j] != h); j++)
			;
		if (j < n)
			continue;
		pkg[n] = p;
		top[n] = h;
		ksft_print_msg("cpu%d: package %d, %s %d\n", cpus[i], p,
			       from_trace ? "cpuinfo_max_freq" : "HWP highest", h);
		cpus[n++] = cpus[i];
	}
	return n;
}

/* A policy of more than one CPU gets schedutil's shared hook. */
static bool policy_shared(int cpu)
{
	char buf[64], own[16];

	if (cpufreq_read(cpu, "related_cpus", buf, sizeof(buf)))
		return false;
	snprintf(own, sizeof(own), "%d", cpu);
	return strcmp(buf, own);
}

/*
 * Does the sample show schedutil's hints?  Without DEC: DESIRED is set,
 * MIN <= DESIRED <= MAX, and DESIRED is above MIN in some sample, where a
 * frequency request puts the same level into both.  With DEC: DESIRED is 0
 * in every sample, and MIN (the required level) is below MAX, where a
 * frequency request under load would put the target level into MIN.
 */
static bool steered(const struct sample *s)
{
	if (dec)
		return s->minmax && !s->nonzero && s->below;
	return s->ordered && !s->zero && s->above;
}

static const char *steered_str(void)
{
	return dec ? "DESIRED 0 (DEC), MIN < MAX" :
		     "MIN <= DESIRED <= MAX, DESIRED above MIN";
}

/*
 * Is the policy minimum at the maximum?  Then MIN is at MAX on both paths
 * and hints cannot be told from frequencies.
 */
static bool floor_at_max(int cpu)
{
	char lo[32], hi[32];

	if (cpufreq_read(cpu, "scaling_min_freq", lo, sizeof(lo)) ||
	    cpufreq_read(cpu, "scaling_max_freq", hi, sizeof(hi)))
		return false;
	return strtoul(lo, NULL, 10) >= strtoul(hi, NULL, 10);
}

/* DESIRED under load, then after idle. */
static unsigned int test_load_and_idle(int cpu, unsigned int epp)
{
	struct sample busy, idle;

	if (policy_shared(cpu)) {
		ksft_test_result_skip("cpu%d: shared policy, no ->adjust_perf()\n",
				      cpu);
		ksft_test_result_skip("cpu%d: DESIRED after idle not tested\n",
				      cpu);
		return 0;
	}
	start_load(cpu);
	sample_cpu(cpu, epp, &busy);
	stop_load();

	if (busy.min >= busy.max && floor_at_max(cpu)) {
		ksft_test_result_skip("cpu%d: scaling_min_freq at the maximum (%s)\n",
				      cpu, sample_str(&busy));
		ksft_test_result_skip("cpu%d: DESIRED after idle not tested\n",
				      cpu);
		return busy.max;
	}
	ksft_test_result(steered(&busy) && !busy.epp_changed,
			 "cpu%d: under load %s, EPP %s (%s)\n",
			 cpu, steered_str(), from_trace ? "not traced" : "kept",
			 sample_str(&busy));
	if (!dec && !busy.above)
		ksft_print_msg("cpu%d: DESIRED never above MIN under load: %s\n",
			       cpu, "->adjust_perf not used, invariance on");
	if (dec && busy.nonzero)
		ksft_print_msg("cpu%d: DESIRED written with DEC on\n", cpu);

	msleep(IDLE_MS);
	poke_cpu(cpu);
	sample_cpu(cpu, epp, &idle);
	if (dec) {
		ksft_test_result(!idle.nonzero && idle.minmax,
				 "cpu%d: after idle DESIRED still 0 (DEC), MIN <= MAX (%s)\n",
				 cpu, sample_str(&idle));
		return busy.max;
	}
	if (busy.desired <= busy.min) {
		ksft_test_result_skip("cpu%d: DESIRED cannot fall below MIN %u\n",
				      cpu, busy.min);
		return busy.max;
	}
	ksft_test_result(idle.desired < busy.desired && idle.ordered,
			 "cpu%d: DESIRED falls after idle (%u busy, %u idle)\n",
			 cpu, busy.desired, idle.desired);
	return busy.max;
}

/* @floor: in the floor mode of adjust_perf_mode, which sets no DESIRED */
static void test_max_freq(int cpu, unsigned int epp, unsigned int orig_max,
			  bool floor)
{
	const char *mode = floor ? "floor mode: " : "";
	long lo, orig, target;
	char buf[32], path[PATH_MAX];
	struct sample s;
	int ret;

	orig = cpufreq_read_long(cpu, "scaling_max_freq");
	lo = cpufreq_read_long(cpu, "scaling_min_freq");
	if (lo < cpufreq_read_long(cpu, "cpuinfo_min_freq"))
		lo = cpufreq_read_long(cpu, "cpuinfo_min_freq");
	target = (lo + orig) / 2;
	if (!orig_max || orig < 0 || lo < 0 || orig - target < 200000) {
		ksft_test_result_skip("cpu%d: %sno room to lower scaling_max_freq (%ld..%ld kHz)\n",
				      cpu, mode, lo, orig);
		ksft_test_result_skip("cpu%d: %sscaling_max_freq restore not tested\n",
				      cpu, mode);
		return;
	}

	snprintf(buf, sizeof(buf), "%ld", target);
	ret = cpufreq_change(cpu, "scaling_max_freq", buf);
	if (ret)
		ksft_exit_fail_msg("cpu%d: writing scaling_max_freq: %s\n",
				   cpu, strerror(-ret));
	start_load(cpu);
	sample_cpu(cpu, epp, &s);
	stop_load();
	ksft_test_result(s.max < orig_max && !s.epp_changed &&
			 (dec || floor ? s.minmax && !s.nonzero :
					 s.ordered && !s.zero),
			 "cpu%d: %sscaling_max_freq %ld -> %ld kHz lowers MAX %u -> %u, %s (%s)\n",
			 cpu, mode, orig, target, orig_max, s.max,
			 dec || floor ? "MIN <= MAX, DESIRED 0" :
					"MIN <= DESIRED <= MAX", sample_str(&s));

	/*
	 * Back to the value this test found, not to the one saved for the
	 * end: after a switch from active mode, that is the active mode's.
	 */
	snprintf(buf, sizeof(buf), "%ld", orig);
	cpufreq_path(path, sizeof(path), cpu, "scaling_max_freq");
	ret = write_str(path, buf);
	start_load(cpu);
	sample_cpu(cpu, epp, &s);
	stop_load();
	ksft_test_result(!ret && s.max == orig_max,
			 "cpu%d: %sscaling_max_freq restored to %ld kHz, MAX back to %u (now %u)\n",
			 cpu, mode, orig, orig_max, s.max);
}

/* @sched_max: MAX under load with schedutil, which must be the policy's */
static void test_governor_switch(int cpu, unsigned int epp,
				 unsigned int sched_max)
{
	struct sample s;
	char buf[32];
	int ret;

	if (!sched_max) {
		ksft_test_result_skip("cpu%d: governor switch not tested\n", cpu);
		ksft_test_result_skip("cpu%d: back to schedutil not tested\n", cpu);
		return;
	}
	ret = cpufreq_change(cpu, "scaling_governor", "performance");
	if (ret) {
		ksft_test_result_skip("cpu%d: cannot select the performance governor: %s\n",
				      cpu, strerror(-ret));
	} else {
		start_load(cpu);
		sample_cpu(cpu, epp, &s);
		stop_load();
		/* the frequency path has no event: none is all the trace shows */
		if (from_trace)
			ksft_test_result(s.missing == SAMPLES,
					 "cpu%d: performance governor: no %s event (%s)\n",
					 cpu, TRACE_EVENT, sample_str(&s));
		else
			ksft_test_result((dec ? s.minmax && !s.below && !s.nonzero :
						s.pinned && !s.zero) &&
					 !s.epp_changed && s.max == sched_max,
					 "cpu%d: performance governor: %s, MAX %u as under schedutil's load (%s)\n",
					 cpu, dec ? "MIN = MAX, DESIRED 0 (DEC)" :
					 "MIN = DESIRED = MAX", sched_max,
					 sample_str(&s));
	}

	ret = cpufreq_change(cpu, "scaling_governor", "schedutil");
	if (!ret)
		ret = cpufreq_read(cpu, "scaling_governor", buf, sizeof(buf));
	if (ret) {
		ksft_test_result_fail("cpu%d: restoring schedutil: %s\n",
				      cpu, strerror(-ret));
		return;
	}
	start_load(cpu);
	sample_cpu(cpu, epp, &s);
	stop_load();
	if (s.min >= s.max && !strcmp(buf, "schedutil") && floor_at_max(cpu)) {
		ksft_test_result_skip("cpu%d: back to schedutil, floor at the maximum (%s)\n",
				      cpu, sample_str(&s));
		return;
	}
	ksft_test_result(!strcmp(buf, "schedutil") && steered(&s),
			 "cpu%d: back to %s, steered again: %s (%s)\n",
			 cpu, buf, steered_str(), sample_str(&s));
}

/*
 * adjust_perf_mode "floor": DESIRED 0, and in MIN the level that the hints
 * mode puts into DESIRED, so MIN follows the load, within MAX as in the
 * hints mode.  A write applies from the next update of each CPU, which a
 * busy CPU makes at once: "hints" sets DESIRED again.  @sched_max: MAX
 * under load in the hints mode.
 */
static void test_floor_mode(int cpu, unsigned int epp, unsigned int sched_max)
{
	static const char * const cases[] = {
		"under load", "after idle", "scaling_max_freq lowered",
		"scaling_max_freq restored", "back to hints mode",
	};
	char old[16], now[16] = "";
	struct sample busy, idle, s;
	const char *why;
	size_t i;
	int ret;

	if (read_str(MODE_PATH, old, sizeof(old))) {
		ksft_test_result_skip("bad adjust_perf_mode: no %s\n", MODE_PATH);
		why = "no intel_pstate/adjust_perf_mode";
		goto skip;
	}
	ret = change_value(MODE_PATH, "bogus");
	read_str(MODE_PATH, now, sizeof(now));
	ksft_test_result(ret == -EINVAL && !strcmp(now, old),
			 "adjust_perf_mode \"bogus\": %s, still %s\n",
			 ret ? strerror(-ret) : "accepted", now);
	why = "not steered in the hints mode";
	if (!sched_max)
		goto skip;
	why = "scaling_min_freq at the maximum";
	if (floor_at_max(cpu))
		goto skip;

	ret = change_value(MODE_PATH, "floor");
	if (ret)
		ksft_exit_fail_msg("writing floor to %s: %s\n", MODE_PATH,
				   strerror(-ret));
	start_load(cpu);
	sample_cpu(cpu, epp, &busy);
	stop_load();
	ksft_test_result(busy.minmax && !busy.nonzero && !busy.epp_changed &&
			 busy.max == sched_max,
			 "cpu%d: floor mode %s: DESIRED 0, MIN <= MAX %u (%s)\n",
			 cpu, cases[0], sched_max, sample_str(&busy));
	msleep(IDLE_MS);
	poke_cpu(cpu);
	sample_cpu(cpu, epp, &idle);
	ksft_test_result(idle.minmax && !idle.nonzero && idle.min < busy.min,
			 "cpu%d: floor mode %s: MIN falls (%u busy, %u idle), DESIRED 0\n",
			 cpu, cases[1], busy.min, idle.min);
	test_max_freq(cpu, epp, sched_max, true);

	ret = change_value(MODE_PATH, "hints");
	if (ret)
		ksft_exit_fail_msg("writing hints to %s: %s\n", MODE_PATH,
				   strerror(-ret));
	start_load(cpu);
	sample_cpu(cpu, epp, &s);
	stop_load();
	ksft_test_result(steered(&s) && s.max == sched_max,
			 "cpu%d: %s: %s, MAX %u (%s)\n", cpu, cases[4],
			 steered_str(), sched_max, sample_str(&s));
	return;
skip:
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		ksft_test_result_skip("cpu%d: floor mode %s: %s\n", cpu,
				      cases[i], why);
}

/*
 * Restore everything now, and check it: each value reads back as saved,
 * and after a mode switch the driver, back in active mode, has cleared
 * DESIRED on the tested CPUs (no hint outlives passive mode).
 */
static void test_restore(const int *cpus, int ncpus)
{
	struct timespec ts = { .tv_nsec = 10000000L };
	int i, j, n = nsaved, failed;
	unsigned int d = 0, bad = 0;
	char buf[32] = "";

	failed = restore_all();
	if (!mode_switched) {
		ksft_test_result(!failed, "%d settings restored, %d failed\n",
				 n, failed);
		return;
	}
	read_str(PSTATE_DIR "/status", buf, sizeof(buf));
	for (i = 0; i < ncpus; i++) {
		/* cleared when the status write returns; allow 100 ms */
		for (j = 0; j < 10; j++) {
			d = HWP_DESIRED(read_hwp_request(cpus[i]));
			if (!d)
				break;
			nanosleep(&ts, NULL);
		}
		if (d) {
			ksft_print_msg("cpu%d: DESIRED %u in active mode\n",
				       cpus[i], d);
			bad++;
		}
	}
	ksft_test_result(!failed && !strcmp(buf, "active") && !bad,
			 "%d settings restored, %d failed; intel_pstate/status %s, DESIRED 0 on %d of %d CPUs\n",
			 n, failed, buf, ncpus - bad, ncpus);
}

int main(int argc, char **argv)
{
	static int all[CPU_SETSIZE], cpus[CPU_SETSIZE];
	int opt, nall, ncpus, i, ret, only = -1;
	unsigned int epp, first_max = 0;
	uint64_t first_req;
	bool every = false;
	char gov[32];

	while ((opt = getopt(argc, argv, "ac:h")) != -1) {
		switch (opt) {
		case 'a':
			every = true;
			break;
		case 'c':
			only = atoi(optarg);
			break;
		default:
			printf("usage: %s [-a | -c CPU]\n", argv[0]);
			return opt == 'h' ? KSFT_PASS : KSFT_FAIL;
		}
	}

	ksft_print_header();
	skip_unless_hwp();

	nall = find_cpus(all, CPU_SETSIZE);
	if (only >= 0) {
		for (i = 0; i < nall && all[i] != only; i++)
			;
		if (i == nall)
			ksft_exit_skip("cpu%d is not an online CPU with a cpufreq policy\n",
				       only);
	}
	if (!nall)
		ksft_exit_skip("no CPU with a cpufreq policy\n");

	install_cleanup();
	skip_unless_steered(only >= 0 ? only : all[0]);

	if (only >= 0) {
		cpus[0] = only;
		ncpus = 1;
	} else {
		memcpy(cpus, all, nall * sizeof(*all));
		ncpus = every ? nall : sample_cpus(cpus, nall);
	}

	select_passive(cpus[0], all, nall);
	select_schedutil(cpus, ncpus);
	/* the hints mode first, where the file exists */
	if (!read_str(MODE_PATH, gov, sizeof(gov)) && strcmp(gov, "hints")) {
		ret = change_value(MODE_PATH, "hints");
		if (ret)
			ksft_exit_fail_msg("writing hints to %s: %s\n",
					   MODE_PATH, strerror(-ret));
		ksft_print_msg("adjust_perf_mode %s set to hints for the test\n",
			       gov);
	}

	/*
	 * Without the msr driver the request is seen through the event only:
	 * none under load means that schedutil does not use ->adjust_perf()
	 * (no frequency invariance), and there is nothing to check.
	 */
	if (from_trace) {
		if (trace_write("trace", ""))
			ksft_exit_fail_msg("cannot clear %s/trace\n", trace_dir);
		start_load(cpus[0]);
		ret = trace_last(cpus[0], &first_req);
		stop_load();
		if (ret == -ENODATA)
			ksft_exit_skip("cpu%d: no %s under load (no invariance?)\n",
				       cpus[0], TRACE_EVENT);
	}

	ksft_set_plan(1 + 2 * ncpus + 4 + 6 + 1);
	ksft_print_msg("%d of %d CPUs, about %d ms\n", ncpus, nall,
		       (ncpus + 1) * (LOAD_WARMUP_MS +
				      2 * (SAMPLES - 1) * SAMPLE_MS +
				      IDLE_MS + POKE_MS) +
		       7 * (LOAD_WARMUP_MS + (SAMPLES - 1) * SAMPLE_MS));

	for (i = 0; i < ncpus; i++) {
		if (cpufreq_read(cpus[i], "scaling_governor", gov, sizeof(gov)) ||
		    strcmp(gov, "schedutil"))
			break;
	}
	ksft_test_result(i == ncpus,
			 "%d CPUs: scaling_driver intel_cpufreq, scaling_governor schedutil\n",
			 ncpus);
	if (i < ncpus)
		ksft_exit_fail_msg("cpu%d: schedutil did not stay selected\n",
				   cpus[i]);

	for (i = 0; i < ncpus; i++) {
		/* the event has no EPP: 0 on both sides of the check */
		epp = from_trace ? 0 : HWP_EPP(read_hwp_request(cpus[i]));
		if (!i)
			first_max = test_load_and_idle(cpus[i], epp);
		else
			test_load_and_idle(cpus[i], epp);
	}

	epp = from_trace ? 0 : HWP_EPP(read_hwp_request(cpus[0]));
	test_max_freq(cpus[0], epp, first_max, false);
	test_governor_switch(cpus[0], epp, first_max);
	test_floor_mode(cpus[0], epp, first_max);
	test_restore(cpus, ncpus);

	ksft_exit(!ksft_get_fail_cnt() && !ksft_get_error_cnt());
}
