// SPDX-License-Identifier: GPL-2.0
/*
 * spawn COUNT ITERS: COUNT short processes one after another (fork, exec, ITERS iterations,
 * exit, wait), as a shell script or configure runs. Prints key=value pairs on one line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "work.h"

int main(int argc, char **argv)
{
	long count, i;
	double t0, t1;
	int status;
	pid_t pid;

	if (argc == 3 && !strcmp(argv[1], "--child"))
		return (int)(do_work(strtoull(argv[2], NULL, 10), 1) & 0);
	if (argc != 3 || (count = atol(argv[1])) <= 0) {
		fprintf(stderr, "usage: spawn COUNT ITERS\n");
		return 2;
	}
	t0 = now_s();
	for (i = 0; i < count; i++) {
		pid = fork();
		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (!pid) {
			execl("/proc/self/exe", argv[0], "--child", argv[2],
			      (char *)NULL);
			_exit(127);
		}
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status)) {
			fprintf(stderr, "spawn: child failed\n");
			return 1;
		}
	}
	t1 = now_s();
	printf("seconds=%.6f processes=%ld processes_per_s=%.1f\n",
	       t1 - t0, count, count / (t1 - t0));
	return 0;
}
