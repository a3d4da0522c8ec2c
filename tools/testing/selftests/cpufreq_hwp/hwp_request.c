// SPDX-License-Identifier: GPL-2.0
/*
 * Check that schedutil steers the HWP_REQUEST register through the
 * ->adjust_perf() callback of intel_pstate in passive mode.
 *
 * With intel_pstate=passive on a processor with HWP, schedutil passes its
 * required and desired performance to the driver, which writes them to the
 * MIN and DESIRED fields of HWP_REQUEST (MSR 0x774) and the policy limit to
 * MAX.  This test reads the register through /dev/cpu/N/msr (it never writes
 * an MSR) while a busy loop is pinned to the CPU, and checks that:
 *
 *  - scaling_driver is intel_cpufreq; the governor is set to schedutil
 *    where it is not (and put back at the end);
 *  - under load, MIN <= DESIRED <= MAX, DESIRED above MIN (a frequency
 *    request puts the same level into both) and EPP is untouched; skipped
 *    when scaling_min_freq is at scaling_max_freq, where hints and
 *    frequencies look alike;
 *  - DESIRED falls again after the CPU has been idle;
 *  - MAX follows a lowered scaling_max_freq (and MIN does not exceed it),
 *    and comes back when the limit is restored;
 *  - the performance governor goes through the frequency path (MIN =
 *    DESIRED = MAX), and switching back to schedutil steers DESIRED again.
 *
 * Where Dynamic Efficiency Control is on (MSR_IA32_POWER_CTL bit 27, read
 * once), the driver writes no DESIRED: the test then expects DESIRED 0 in
 * every sample, and checks the hints through MIN and MAX instead (MIN the
 * required level below MAX under load, MAX at the policy maximum, MAX
 * following scaling_max_freq).
 *
 * It skips (exit code 4, one line) where it cannot run: not root, no HWP,
 * no cpufreq driver, intel_pstate in active mode, another cpufreq driver,
 * no msr driver, HWP not enabled, no schedutil governor.  Every sysfs value it changes is restored
 * on exit, including exits caused by SIGINT, SIGTERM or SIGHUP, and the msr
 * module is unloaded again if the test loaded it.
 *
 * Usage: hwp_request [-c CPU]   (default: every online CPU it may run on;
 *        the limit and governor checks use the first of them)
 */
#define _GNU_SOURCE
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
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cpuid.h>

#include "../kselftest.h"

#define MSR_PM_ENABLE		0x770
#define MSR_HWP_REQUEST		0x774
#define MSR_IA32_POWER_CTL	0x1fc
#define POWER_CTL_DEC_ENABLE	27

#define HWP_MIN(r)		((unsigned int)((r) & 0xff))
#define HWP_MAX(r)		((unsigned int)(((r) >> 8) & 0xff))
#define HWP_DESIRED(r)		((unsigned int)(((r) >> 16) & 0xff))
#define HWP_EPP(r)		((unsigned int)(((r) >> 24) & 0xff))

#define CPU_DIR			"/sys/devices/system/cpu"
/* a governor per CPU, and a few more values */
#define MAX_SAVED		(CPU_SETSIZE + 8)
#define LOAD_WARMUP_MS		400
#define SAMPLES			10
#define SAMPLE_MS		20
#define IDLE_MS			500

struct saved_value {
	char path[128];
	char value[64];
	bool valid;
};

static struct saved_value saved[MAX_SAVED];
static pid_t owner_pid;
static pid_t load_pid;
static bool msr_loaded_by_us;
static bool dec;		/* Dynamic Efficiency Control: no DESIRED */
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

/* Only async-signal-safe calls here: it also runs from the exit path. */
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

/* Write a cpufreq attribute, remembering its first value for the restore. */
static int cpufreq_change(int cpu, const char *file, const char *val)
{
	char path[PATH_MAX];
	int i, ret, free_slot = -1;

	cpufreq_path(path, sizeof(path), cpu, file);
	for (i = 0; i < MAX_SAVED; i++) {
		if (saved[i].valid && !strcmp(saved[i].path, path))
			break;
		if (!saved[i].valid && free_slot < 0)
			free_slot = i;
	}
	if (i == MAX_SAVED) {
		if (free_slot < 0)
			return -ENOSPC;
		i = free_slot;
		if (strlen(path) >= sizeof(saved[i].path))
			return -ENAMETOOLONG;
		ret = read_str(path, saved[i].value, sizeof(saved[i].value));
		if (ret)
			return ret;
		strcpy(saved[i].path, path);
		saved[i].valid = true;
	}
	return write_str(path, val);
}

/* Put one attribute back now; returns 0 if the value reads back equal. */
static int cpufreq_restore(int cpu, const char *file)
{
	char path[PATH_MAX], now[64];
	int i, ret;

	cpufreq_path(path, sizeof(path), cpu, file);
	for (i = 0; i < MAX_SAVED; i++) {
		if (!saved[i].valid || strcmp(saved[i].path, path))
			continue;
		ret = write_str(path, saved[i].value);
		if (ret)
			return ret;
		ret = read_str(path, now, sizeof(now));
		if (ret)
			return ret;
		if (strcmp(now, saved[i].value))
			return -EAGAIN;
		saved[i].valid = false;
		return 0;
	}
	return 0;
}

static void stop_load(void)
{
	if (load_pid > 0) {
		kill(load_pid, SIGKILL);
		waitpid(load_pid, NULL, 0);
		load_pid = 0;
	}
}

static void restore_all(void)
{
	int i;

	if (getpid() != owner_pid)
		return;
	stop_load();
	for (i = MAX_SAVED - 1; i >= 0; i--) {
		if (!saved[i].valid)
			continue;
		if (write_str(saved[i].path, saved[i].value))
			ksft_print_msg("could not restore %s to %s\n",
				       saved[i].path, saved[i].value);
		saved[i].valid = false;
	}
	if (msr_loaded_by_us) {
		msr_loaded_by_us = false;
		if (system("modprobe -r msr >/dev/null 2>&1"))
			ksft_print_msg("could not unload the msr module\n");
	}
}

static void on_signal(int sig)
{
	__atomic_store_n(&interrupted, sig, __ATOMIC_RELAXED);
}

static void install_cleanup(void)
{
	struct sigaction sa;

	owner_pid = getpid();
	atexit(restore_all);

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
		for (i = 0; i < 20; i++)
			nanosleep(&ts, NULL);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
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
};

/* Sample HWP_REQUEST on @cpu; the reported fields are the last sample. */
static void sample_cpu(int cpu, unsigned int epp, struct sample *s)
{
	uint64_t r;
	int i;

	memset(s, 0, sizeof(*s));
	s->ordered = true;
	s->minmax = true;
	s->pinned = true;
	for (i = 0; i < SAMPLES; i++) {
		if (i)
			msleep(SAMPLE_MS);
		r = read_hwp_request(cpu);
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

	snprintf(buf, sizeof(buf), "MIN %u DESIRED %u MAX %u EPP %u",
		 s->min, s->desired, s->max, s->epp);
	return buf;
}

static void skip_unless_runnable(const int *cpus, int ncpus)
{
	unsigned int eax, ebx, ecx, edx;
	char buf[64], path[64];
	int fd, cpu = cpus[0];
	uint64_t val;

	if (geteuid() != 0)
		ksft_exit_skip("must be run as root\n");

	if (!__get_cpuid(0, &eax, &ebx, &ecx, &edx) || eax < 6)
		ksft_exit_skip("CPU has no HWP (no CPUID leaf 6)\n");
	__cpuid(6, eax, ebx, ecx, edx);
	if (!(eax & (1U << 7)))
		ksft_exit_skip("CPU has no HWP (CPUID.06H:EAX bit 7 clear)\n");

	if (!ncpus)
		ksft_exit_skip("no CPU with a cpufreq policy, boot with intel_pstate=passive\n");
	if (cpufreq_read(cpu, "scaling_driver", buf, sizeof(buf)))
		ksft_exit_skip("cpu%d has no cpufreq driver, boot with intel_pstate=passive\n",
			       cpu);
	if (!strcmp(buf, "intel_pstate"))
		ksft_exit_skip("intel_pstate is in active mode, boot with intel_pstate=passive\n");
	if (strcmp(buf, "intel_cpufreq"))
		ksft_exit_skip("scaling_driver is %s, not intel_cpufreq (intel_pstate=passive)\n",
			       buf);

	fd = msr_open(cpu);
	if (fd < 0 && errno == ENOENT) {
		snprintf(path, sizeof(path), "/dev/cpu/%d/msr", cpu);
		if (!system("modprobe msr >/dev/null 2>&1") &&
		    !access(path, F_OK))
			msr_loaded_by_us = true;
		fd = msr_open(cpu);
	}
	if (fd < 0)
		ksft_exit_skip("no msr driver: /dev/cpu/%d/msr: %s (CONFIG_X86_MSR)\n",
			       cpu, strerror(errno));
	close(fd);

	if (read_msr(cpu, MSR_PM_ENABLE, &val))
		ksft_exit_skip("cannot read MSR_PM_ENABLE on cpu%d\n", cpu);
	if (!(val & 1))
		ksft_exit_skip("HWP is not enabled (MSR_PM_ENABLE bit 0 clear)\n");

	/* as the driver does: a failed read means DEC is off */
	if (!read_msr(cpu, MSR_IA32_POWER_CTL, &val) && ((val >> POWER_CTL_DEC_ENABLE) & 1))
		dec = true;
	ksft_print_msg("Dynamic Efficiency Control is %s%s\n", dec ? "on" : "off",
		       dec ? ": expecting DESIRED 0 everywhere" : "");
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
			 "cpu%d: under load %s, EPP kept (%s)\n",
			 cpu, steered_str(), sample_str(&busy));
	if (!dec && !busy.above)
		ksft_print_msg("cpu%d: DESIRED never above MIN under load: %s\n",
			       cpu, "->adjust_perf not used (frequency invariance off?)");
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

static void test_max_freq(int cpu, unsigned int epp, unsigned int orig_max)
{
	long lo, orig, target;
	struct sample s;
	char buf[32];
	int ret;

	orig = cpufreq_read_long(cpu, "scaling_max_freq");
	lo = cpufreq_read_long(cpu, "scaling_min_freq");
	if (lo < cpufreq_read_long(cpu, "cpuinfo_min_freq"))
		lo = cpufreq_read_long(cpu, "cpuinfo_min_freq");
	target = (lo + orig) / 2;
	if (orig < 0 || lo < 0 || orig - target < 200000) {
		ksft_test_result_skip("cpu%d: no room to lower scaling_max_freq (%ld..%ld kHz)\n",
				      cpu, lo, orig);
		ksft_test_result_skip("cpu%d: scaling_max_freq restore not tested\n",
				      cpu);
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
			 (dec ? s.minmax && !s.nonzero : s.ordered && !s.zero),
			 "cpu%d: scaling_max_freq %ld -> %ld kHz lowers MAX %u -> %u, %s (%s)\n",
			 cpu, orig, target, orig_max, s.max,
			 dec ? "MIN <= MAX, DESIRED 0 (DEC)" : "MIN <= DESIRED <= MAX",
			 sample_str(&s));

	ret = cpufreq_restore(cpu, "scaling_max_freq");
	start_load(cpu);
	sample_cpu(cpu, epp, &s);
	stop_load();
	ksft_test_result(!ret && s.max == orig_max,
			 "cpu%d: scaling_max_freq restored to %ld kHz, MAX back to %u (now %u)\n",
			 cpu, orig, orig_max, s.max);
}

/* @sched_max: MAX under load with schedutil, which must be the policy's */
static void test_governor_switch(int cpu, unsigned int epp,
				 unsigned int sched_max)
{
	struct sample s;
	char buf[32];
	int ret;

	ret = cpufreq_change(cpu, "scaling_governor", "performance");
	if (ret) {
		ksft_test_result_skip("cpu%d: cannot select the performance governor: %s\n",
				      cpu, strerror(-ret));
	} else {
		start_load(cpu);
		sample_cpu(cpu, epp, &s);
		stop_load();
		ksft_test_result((dec ? s.minmax && !s.below && !s.nonzero :
					s.pinned && !s.zero) &&
				 !s.epp_changed && s.max == sched_max,
				 "cpu%d: performance governor: %s, MAX %u as under schedutil's load (%s)\n",
				 cpu, dec ? "MIN = MAX, DESIRED 0 (DEC)" :
				 "MIN = DESIRED = MAX", sched_max, sample_str(&s));
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

int main(int argc, char **argv)
{
	static int cpus[CPU_SETSIZE];
	unsigned int epp, first_max = 0;
	int opt, ncpus, i, only = -1;
	bool all_schedutil = true;
	char gov[32];

	while ((opt = getopt(argc, argv, "c:h")) != -1) {
		switch (opt) {
		case 'c':
			only = atoi(optarg);
			break;
		default:
			printf("usage: %s [-c CPU]\n", argv[0]);
			return opt == 'h' ? KSFT_PASS : KSFT_FAIL;
		}
	}

	ksft_print_header();

	ncpus = find_cpus(cpus, CPU_SETSIZE);
	if (only >= 0) {
		for (i = 0; i < ncpus && cpus[i] != only; i++)
			;
		ncpus = i < ncpus;
		cpus[0] = only;
	}

	install_cleanup();
	skip_unless_runnable(cpus, ncpus);

	select_schedutil(cpus, ncpus);

	ksft_set_plan(1 + 2 * ncpus + 4);

	for (i = 0; i < ncpus; i++) {
		if (cpufreq_read(cpus[i], "scaling_governor", gov, sizeof(gov)))
			strcpy(gov, "unreadable");
		if (strcmp(gov, "schedutil")) {
			ksft_print_msg("cpu%d: scaling_governor is %s\n",
				       cpus[i], gov);
			all_schedutil = false;
		}
	}
	ksft_test_result(all_schedutil,
			 "%d CPUs: scaling_driver intel_cpufreq, scaling_governor schedutil\n",
			 ncpus);
	if (!all_schedutil)
		ksft_exit_fail_msg("schedutil did not stay selected\n");

	for (i = 0; i < ncpus; i++) {
		epp = HWP_EPP(read_hwp_request(cpus[i]));
		if (!i)
			first_max = test_load_and_idle(cpus[i], epp);
		else
			test_load_and_idle(cpus[i], epp);
	}

	epp = HWP_EPP(read_hwp_request(cpus[0]));
	test_max_freq(cpus[0], epp, first_max);
	test_governor_switch(cpus[0], epp, first_max);

	restore_all();
	ksft_exit(!ksft_get_fail_cnt() && !ksft_get_error_cnt());
}
