// SPDX-License-Identifier: GPL-2.0
/*
 * pingpong ROUNDTRIPS: two threads pass one byte back and forth over two
 * pipes; each side wakes the other, so the CPUs idle briefly all the time
 * (the pattern of tbench-like loads).  Prints key=value pairs on one line.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "work.h"

static int ab[2], ba[2];
static long rounds;

static void *pong(void *arg)
{
	char c;
	long i;

	for (i = 0; i < rounds; i++) {
		if (read(ab[0], &c, 1) != 1 || write(ba[1], &c, 1) != 1) {
			perror("pong");
			exit(1);
		}
	}
	return arg;
}

int main(int argc, char **argv)
{
	pthread_t t;
	double t0, t1;
	char c = 'x';
	long i;

	if (argc != 2 || (rounds = atol(argv[1])) <= 0) {
		fprintf(stderr, "usage: pingpong ROUNDTRIPS\n");
		return 2;
	}
	if (pipe(ab) || pipe(ba) || pthread_create(&t, NULL, pong, NULL)) {
		perror("pingpong");
		return 1;
	}
	t0 = now_s();
	for (i = 0; i < rounds; i++) {
		if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1) {
			perror("ping");
			return 1;
		}
	}
	t1 = now_s();
	pthread_join(t, NULL);
	printf("seconds=%.6f roundtrips=%ld roundtrips_per_s=%.0f\n",
	       t1 - t0, rounds, rounds / (t1 - t0));
	return 0;
}
