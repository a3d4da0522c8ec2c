// SPDX-License-Identifier: GPL-2.0
/*
 * /init for a KUnit test kernel: built-in suites have run before init
 * starts. Report the online CPUs, load every module in /kunit-modules (in
 * name order; the KUnit suites, whose suites run at load), then print the
 * end marker that tools/qemu-run.sh waits for and power the guest off.
 * Static, no libc features beyond syscall wrappers, so it builds for any
 * guest architecture with the cross compiler alone.
 *
 * 5.10's KUnit prints a TAP header only for the built-in suites, at boot;
 * a module's suite prints none. So before each module this writes one into
 * the kernel log (/dev/kmsg), where the module's results follow it, for
 * tools/testing/kunit/kunit.py parse (later kernels print it themselves).
 * Each module holds one suite.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/syscall.h>
#include <termios.h>
#include <unistd.h>

static int fd_out = 1;

static void say(const char *a, const char *b, const char *c)
{
	char buf[512];

	snprintf(buf, sizeof(buf), "kunit-init: %s%s%s\n", a, b, c);
	if (write(fd_out, buf, strlen(buf)) < 0)
		return;
	/*
	 * The console is also where the kernel prints: let the line out
	 * before the next kernel message (a TAP header written to /dev/kmsg
	 * next), or the two can interleave within a line.
	 */
	tcdrain(fd_out);
}

/* one record per write(), at KERN_INFO, without a prefix of its own */
static void kmsg(int fd, const char *line)
{
	if (fd >= 0 && write(fd, line, strlen(line)) < 0)
		say("cannot write to /dev/kmsg: ", strerror(errno), "");
}

static void cpus_online(void)
{
	char buf[64] = "";
	ssize_t n = -1;
	int fd;

	if (mount("sysfs", "/sys", "sysfs", 0, NULL) == 0) {
		fd = open("/sys/devices/system/cpu/online", O_RDONLY);
		if (fd >= 0) {
			n = read(fd, buf, sizeof(buf) - 1);
			close(fd);
		}
	}
	if (n <= 0) {
		say("cpus online: unknown (", strerror(errno), ")");
		return;
	}
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	say("cpus online ", buf, "");
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char * const *)a, *(char * const *)b);
}

static void load_modules(void)
{
	char *names[64], path[320];
	struct dirent *e;
	int i, n = 0, km;
	DIR *d = opendir("/kunit-modules");

	if (!d)
		return;
	while ((e = readdir(d)) && n < 64) {
		size_t len = strlen(e->d_name);

		if (len > 3 && !strcmp(e->d_name + len - 3, ".ko"))
			names[n++] = strdup(e->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(names[0]), by_name);
	km = open("/dev/kmsg", O_WRONLY);
	if (km < 0)
		say("cannot open /dev/kmsg: ", strerror(errno), "");
	for (i = 0; i < n; i++) {
		int fd;

		snprintf(path, sizeof(path), "/kunit-modules/%s", names[i]);
		say("loading ", names[i], "");
		kmsg(km, "<6>TAP version 14\n");
		kmsg(km, "<6>1..1\n");
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || syscall(SYS_finit_module, fd, "", 0) != 0)
			say(names[i], ": not loaded: ", strerror(errno));
		else
			say(names[i], ": loaded", "");
		if (fd >= 0)
			close(fd);
	}
	if (km >= 0)
		close(km);
}

int main(void)
{
	static const char msg[] = "kunit-init: suites done\nQEMU-TEST-RC=0\nQEMU-TEST-END\n";
	int fd = open("/dev/console", O_WRONLY);

	if (fd >= 0)
		fd_out = fd;
	cpus_online();
	load_modules();
	if (write(fd_out, msg, strlen(msg)) < 0)
		return 1;
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}
