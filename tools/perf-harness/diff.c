// SPDX-License-Identifier: GPL-2.0
/*
 * The series' ->adjust_perf callback against 7.3's intel_cpufreq_adjust_perf(), both from
 * kernel text behind callback.c's shims, with the same driver state and hints. Usage, the
 * domain (run(), run_parts()), output and causes: perf-harness.md, "The differential check".
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "callback.h"

#define LEVELS		4
#define MAX_HINTS	256

#define REQ_MIN(v)	((int)((v) & 0xff))
#define REQ_MAX(v)	((int)(((v) >> 8) & 0xff))
#define REQ_DES(v)	((int)(((v) >> 16) & 0xff))
#define REQ_LEVELS	0xffffffULL

enum { TURBO_ON, TURBO_NO_TURBO, TURBO_FW, NR_TURBO };
static const char * const turbo_name[] = { "on", "no_turbo", "firmware" };

static const unsigned long capacities[] = { 1024, 446, 3 };
#define NR_CAP (int)(sizeof(capacities) / sizeof(capacities[0]))

/* Level sets of the kinds of real parts the driver meets (illustrative values). */
static const struct part {
	int lowest, guaranteed, highest, ref;
} parts[] = {
	{ 8, 36, 42, 40 },	/* client, 4-core turbo reference */
	{ 8, 37, 52, 49 },	/* desktop, large turbo range */
	{ 5, 11, 24, 22 },	/* Atom-like, low levels */
	{ 8, 23, 40, 37 },	/* server */
	{ 8, 24, 30, 32 },	/* reference above highest (a slower part) */
	{ 10, 28, 28, 28 },	/* guaranteed equal to highest */
	{ 8, 30, 46, 46 },	/* reference at highest */
	{ 12, 21, 31, 21 },	/* reference at guaranteed */
};
#define NR_PARTS (int)(sizeof(parts) / sizeof(parts[0]))

static const u64 reqs[] = {
	0,
	0x80ULL << 24 | 0x3ffULL << 32 | 1ULL << 42 |
		2ULL << 16 | 3ULL << 8 | 2ULL,
};
#define NR_REQ (int)(sizeof(reqs) / sizeof(reqs[0]))

struct out {
	u64 req;		/* HWP_REQUEST after the first call */
	bool written;		/* the first call wrote the MSR */
	const char *bad;	/* an invariant it broke, or NULL */
};

struct input {
	struct h6_model m;
	int cap;
	unsigned long h[4];	/* min_perf, target_perf, max_perf, capacity */
};

enum { C_REF, C_CAP, C_REF_CAP, C_OTHER, NR_CAUSE };
static const char * const cause_name[] = {
	"ref-scaling", "min-cap", "ref-scaling+min-cap", "unexplained"
};
static const char * const cause_why[] = {
	"the series scales hints to lim->ref (the invariance reference), 7.3 to the capacity level",
	"the series caps MIN at the capacity level, 7.3 lets the policy minimum take MIN (and MAX) above it",
	"both: the series with its reference at the capacity level agrees with 7.3 with its policy limits at most the capacity level",
	"no known cause",
};

struct example {
	struct input in;
	struct out s, m;
};

static int nr_examples = 3;
static bool strict;

static struct {
	unsigned long inputs, differ, cause[NR_CAUSE];
	unsigned long fields[3], written;
} cls[NR_CAP][NR_TURBO];
static struct example ex[NR_CAUSE][8];
static unsigned long nr_ex[NR_CAUSE];
static unsigned long states, inputs, bad[2], above_s, above_s_reach, above_m,
		     above_m_reach;
static unsigned long agree_inputs, agree_differ;
static unsigned long part_states, part_inputs, part_differ;
static struct example bad_ex[2], agree_ex, above_ex;

static void call(const struct h6_callback *cb, const struct h6_model *m,
		 const unsigned long *h, struct out *o)
{
	u64 prev = m->req, cached;
	unsigned long w;

	cb->init(m);
	cb->adjust_perf(cb->policy, h[0], h[1], h[2], h[3]);
	w = cb->writes();
	cached = cb->cached();
	o->written = w != 0;
	o->req = o->written ? cb->msr() : prev;
	o->bad = NULL;
	if (w > 1)
		o->bad = "more than one write";
	else if (cached != o->req)
		o->bad = "cached request differs from the MSR";
	else if (o->written == (o->req == prev))
		o->bad = o->written ? "written, unchanged" : "changed, not written";
	else if ((o->req & ~REQ_LEVELS) != (prev & ~REQ_LEVELS))
		o->bad = "EPP or another field changed";
	else if (REQ_MIN(o->req) > REQ_MAX(o->req))
		o->bad = "MIN > MAX";
	else if (m->dec ? REQ_DES(o->req) != 0 :
		 REQ_DES(o->req) < REQ_MIN(o->req) ||
		 REQ_DES(o->req) > REQ_MAX(o->req))
		o->bad = m->dec ? "DESIRED not 0 with DEC" :
				  "DESIRED outside [MIN, MAX]";
	if (o->bad)
		return;
	cb->adjust_perf(cb->policy, h[0], h[1], h[2], h[3]);
	if (cb->writes() != w)
		o->bad = "repeated call wrote";
	else if (cb->cached() != cached)
		o->bad = "repeated call changed the request";
}

static bool same(const struct out *a, const struct out *b)
{
	return (a->req & REQ_LEVELS) == (b->req & REQ_LEVELS) &&
	       a->written == b->written;
}

static void add(unsigned long *v, int *n, unsigned long x)
{
	int i;

	for (i = 0; i < *n; i++)
		if (v[i] == x)
			return;
	if (*n == MAX_HINTS) {
		fprintf(stderr, "diff: more than %d hint values\n", MAX_HINTS);
		exit(2);
	}
	v[(*n)++] = x;
}

static int cmp_ul(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/* Both sides of every step of ceil(X * p / c) for X in xs, and the bounds. */
static int hints(unsigned long c, const int *xs, int nx, unsigned long *v)
{
	int n = 0, i, j;

	add(v, &n, 0);
	add(v, &n, c - 1);
	add(v, &n, c);
	add(v, &n, c + 1);
	add(v, &n, ULONG_MAX);
	for (i = 0; i < nx; i++) {
		for (j = 0; j <= xs[i]; j++) {
			unsigned long b = j * c / xs[i];

			add(v, &n, b);
			add(v, &n, b + 1);
		}
	}
	qsort(v, n, sizeof(*v), cmp_ul);
	return n;
}

/* Policy ratios at 0 and either side of every level of @p, sorted. */
static int ratios(const struct part *p, unsigned long *v)
{
	const int at[4] = { p->lowest, p->guaranteed, p->highest, p->ref };
	int n = 0, i, d;

	add(v, &n, 0);
	for (i = 0; i < 4; i++)
		for (d = -1; d <= 1; d++)
			if (at[i] + d >= 0)
				add(v, &n, at[i] + d);
	qsort(v, n, sizeof(*v), cmp_ul);
	return n;
}

static void print_in(const char *pfx, const struct example *e)
{
	const struct input *in = &e->in;
	const struct h6_model *m = &in->m;

	printf("%s lowest %d guaranteed %d highest %d cap %d ref %d policy %d..%d turbo %s dec %d req %#llx;"
	       " hints min %lu target %lu max %lu capacity %lu\n",
	       pfx, m->lowest, m->guaranteed, m->highest, in->cap, m->ref,
	       m->min_ratio, m->max_ratio,
	       turbo_name[m->turbo_disabled ? TURBO_FW :
			  m->no_turbo ? TURBO_NO_TURBO : TURBO_ON],
	       m->dec, (unsigned long long)m->req,
	       in->h[0], in->h[1], in->h[2], in->h[3]);
	printf("%s   series MIN %d MAX %d DESIRED %d written %d%s%s; 7.3 MIN %d MAX %d DESIRED %d written %d%s%s\n",
	       pfx, REQ_MIN(e->s.req), REQ_MAX(e->s.req), REQ_DES(e->s.req),
	       e->s.written, e->s.bad ? ": " : "", e->s.bad ? e->s.bad : "",
	       REQ_MIN(e->m.req), REQ_MAX(e->m.req), REQ_DES(e->m.req),
	       e->m.written, e->m.bad ? ": " : "", e->m.bad ? e->m.bad : "");
}

static int classify(const struct input *in, const struct h6_model *mm,
		    const struct out *s, const struct out *m)
{
	struct h6_model r = in->m, c73 = *mm;
	struct out sr, mc;

	/* the series with its reference at the capacity level */
	r.ref = in->cap;
	call(&h6_cb_series, &r, in->h, &sr);
	/* 7.3 with no policy limit above the capacity level */
	c73.min_ratio = c73.min_ratio < in->cap ? c73.min_ratio : in->cap;
	c73.max_ratio = c73.max_ratio < in->cap ? c73.max_ratio : in->cap;
	call(&h6_cb_m73, &c73, in->h, &mc);
	if (same(&sr, m))
		return C_REF;
	if (same(s, &mc))
		return C_CAP;
	if (same(&sr, &mc))
		return C_REF_CAP;
	return C_OTHER;
}

static void model_73(struct h6_model *mm, int t)
{
	/* 7.3 sets no_turbo whenever the firmware disables turbo */
	mm->no_turbo = t != TURBO_ON;
	mm->turbo_disabled = t == TURBO_FW;
}

static int one_case(char **a)
{
	struct example e;
	struct h6_model mm;
	int t = atoi(a[6]), i;

	memset(&e, 0, sizeof(e));
	e.in.m = (struct h6_model){
		.lowest = atoi(a[0]), .guaranteed = atoi(a[1]),
		.highest = atoi(a[2]), .ref = atoi(a[3]),
		.min_ratio = atoi(a[4]), .max_ratio = atoi(a[5]),
		.scaling = 100000, .no_turbo = t == TURBO_NO_TURBO,
		.turbo_disabled = t == TURBO_FW, .dec = atoi(a[7]),
	};
	for (i = 0; i < 4; i++)
		e.in.h[i] = strtoul(a[8 + i], NULL, 0);
	e.in.cap = t == TURBO_ON ? e.in.m.highest : e.in.m.guaranteed;
	mm = e.in.m;
	model_73(&mm, t);
	call(&h6_cb_series, &e.in.m, e.in.h, &e.s);
	call(&h6_cb_m73, &mm, e.in.h, &e.m);
	print_in("", &e);
	if (same(&e.s, &e.m))
		printf("same\n");
	else
		printf("differ: %s\n", cause_name[classify(&e.in, &mm, &e.s, &e.m)]);
	return 0;
}

static void one(int ci, int t, struct input *in)
{
	struct h6_model mm = in->m;
	struct out s, m;
	int cause;

	model_73(&mm, t);

	call(&h6_cb_series, &in->m, in->h, &s);
	call(&h6_cb_m73, &mm, in->h, &m);
	inputs++;
	cls[ci][t].inputs++;

	if (s.bad && !bad[0]++)
		bad_ex[0] = (struct example){ *in, s, m };
	if (m.bad && !bad[1]++)
		bad_ex[1] = (struct example){ *in, s, m };
	if (REQ_MIN(s.req) > in->cap || REQ_MAX(s.req) > in->cap) {
		above_s++;
		if (in->m.max_ratio <= in->cap && !above_s_reach++)
			above_ex = (struct example){ *in, s, m };
	}
	if (REQ_MIN(m.req) > in->cap || REQ_MAX(m.req) > in->cap) {
		above_m++;
		if (in->m.max_ratio <= in->cap)
			above_m_reach++;
	}
	if (in->m.ref == in->cap && in->m.max_ratio <= in->cap) {
		agree_inputs++;
		if (!same(&s, &m) && !agree_differ++)
			agree_ex = (struct example){ *in, s, m };
	}

	if (same(&s, &m))
		return;

	cls[ci][t].differ++;
	cls[ci][t].fields[0] += REQ_MIN(s.req) != REQ_MIN(m.req);
	cls[ci][t].fields[1] += REQ_MAX(s.req) != REQ_MAX(m.req);
	cls[ci][t].fields[2] += REQ_DES(s.req) != REQ_DES(m.req);
	cls[ci][t].written += s.written != m.written;

	cause = classify(in, &mm, &s, &m);
	cls[ci][t].cause[cause]++;
	if (nr_ex[cause] < (unsigned long)nr_examples && nr_ex[cause] < 8)
		ex[cause][nr_ex[cause]++] = (struct example){ *in, s, m };
}

static void set_model(struct input *in, int lo, int g, int hi, int ref,
		      int mn, int mx, int t, int dec, int rq)
{
	in->m = (struct h6_model){
		.lowest = lo, .guaranteed = g, .highest = hi,
		.min_ratio = mn, .max_ratio = mx, .ref = ref,
		.scaling = 100000,
		.no_turbo = t == TURBO_NO_TURBO,
		.turbo_disabled = t == TURBO_FW,
		.dec = dec, .req = reqs[rq],
	};
}

/* The first part: every level set in 1..LEVELS, every hint triple. */
static void run(int ci, int t)
{
	unsigned long c = capacities[ci], v[MAX_HINTS];
	struct input in;
	int lo, g, hi, ref, mn, mx, dec, rq, a, b, d, n;

	memset(&in, 0, sizeof(in));
	for (hi = 1; hi <= LEVELS; hi++)
	for (g = 1; g <= hi; g++)
	for (lo = 1; lo <= g; lo++)
	for (ref = 1; ref <= LEVELS + 1; ref++) {
		int xs[2];

		in.cap = t == TURBO_ON ? hi : g;
		xs[0] = in.cap;
		xs[1] = ref;
		n = hints(c, xs, 2, v);
		for (mn = 0; mn <= LEVELS + 1; mn++)
		for (mx = 0; mx <= LEVELS + 1; mx++)
		for (dec = 0; dec <= 1; dec++)
		for (rq = 0; rq < NR_REQ; rq++) {
			set_model(&in, lo, g, hi, ref, mn, mx, t, dec, rq);
			states++;
			in.h[3] = c;
			for (a = 0; a < n; a++)
			for (b = 0; b < n; b++)
			for (d = 0; d < n; d++) {
				in.h[0] = v[a];
				in.h[1] = v[b];
				in.h[2] = v[d];
				one(ci, t, &in);
			}
		}
	}
}

/* parts[] and ratios(); each hint over hints(), the others at 0, capacity/2, capacity. */
static void run_parts(int ci, int t)
{
	unsigned long c = capacities[ci], v[MAX_HINTS], r[MAX_HINTS];
	const unsigned long s[3] = { 0, c / 2, c };
	unsigned long before = inputs, differ = cls[ci][t].differ;
	struct input in;
	int pi, mn, mx, dec, rq, k, a, i, j, n, nr;

	memset(&in, 0, sizeof(in));
	for (pi = 0; pi < NR_PARTS; pi++) {
		const struct part *p = &parts[pi];
		int xs[2];

		in.cap = t == TURBO_ON ? p->highest : p->guaranteed;
		xs[0] = in.cap;
		xs[1] = p->ref;
		n = hints(c, xs, 2, v);
		add(v, &n, s[1]);
		nr = ratios(p, r);
		for (mn = 0; mn < nr; mn++)
		for (mx = 0; mx < nr; mx++)
		for (dec = 0; dec <= 1; dec++)
		for (rq = 0; rq < NR_REQ; rq++) {
			set_model(&in, p->lowest, p->guaranteed, p->highest,
				  p->ref, r[mn], r[mx], t, dec, rq);
			states++;
			part_states++;
			in.h[3] = c;
			for (k = 0; k < 3; k++)
			for (a = 0; a < n; a++) {
				/* all three in s[]: once, with k == 0 */
				if (k && (v[a] == s[0] || v[a] == s[1] ||
					  v[a] == s[2]))
					continue;
				for (i = 0; i < 3; i++)
				for (j = 0; j < 3; j++) {
					in.h[k] = v[a];
					in.h[(k + 1) % 3] = s[i];
					in.h[(k + 2) % 3] = s[j];
					one(ci, t, &in);
				}
			}
		}
	}
	part_inputs += inputs - before;
	part_differ += cls[ci][t].differ - differ;
}

int main(int argc, char **argv)
{
	unsigned long differ = 0, cause[NR_CAUSE] = { 0 }, want_states;
	struct timespec t0, t1;
	int ci, t, i, k = 0, fails = 0;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--strict"))
			strict = true;
		else if (!strcmp(argv[i], "--case") && argc - i == 13)
			return one_case(argv + i + 1);
		else if (!strcmp(argv[i], "--examples") && i + 1 < argc)
			nr_examples = atoi(argv[++i]);
		else {
			fprintf(stderr, "usage: %s [--strict] [--examples N] | --case L G H REF MINR MAXR TURBO DEC MIN TARGET MAX CAPACITY\n",
				argv[0]);
			return 2;
		}
	}

	printf("TAP version 13\n1..%d\n", NR_CAP * NR_TURBO + 4);
	printf("# series (%s) against mainline 7.3 (%s): %s differences %s\n",
	       h6_cb_series.name, h6_cb_m73.name,
	       strict ? "--strict:" : "known",
	       strict ? "fail" : "reported, unexplained ones fail");
	clock_gettime(CLOCK_MONOTONIC, &t0);

	for (ci = 0; ci < NR_CAP; ci++) {
		for (t = 0; t < NR_TURBO; t++) {
			unsigned long before[NR_CAUSE], *cc = cls[ci][t].cause;
			bool ok;

			memcpy(before, nr_ex, sizeof(before));
			run(ci, t);
			run_parts(ci, t);
			differ += cls[ci][t].differ;
			for (i = 0; i < NR_CAUSE; i++)
				cause[i] += cc[i];
			printf("# capacity=%lu turbo=%s: %lu of %lu inputs differ (MIN %lu, MAX %lu, DESIRED %lu, written %lu; %s %lu, %s %lu, %s %lu, %s %lu)\n",
			       capacities[ci], turbo_name[t],
			       cls[ci][t].differ, cls[ci][t].inputs,
			       cls[ci][t].fields[0], cls[ci][t].fields[1],
			       cls[ci][t].fields[2], cls[ci][t].written,
			       cause_name[0], cc[0], cause_name[1], cc[1],
			       cause_name[2], cc[2], cause_name[3], cc[3]);
			ok = cls[ci][t].inputs > 0 && !cc[C_OTHER] &&
			     !(strict && cls[ci][t].differ);
			fails += !ok;
			printf("%s %d class capacity=%lu turbo=%s\n", ok ? "ok" : "not ok",
			       ++k, capacities[ci], turbo_name[t]);
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);

	want_states = LEVELS * (LEVELS + 1) * (LEVELS + 2) / 6 * (LEVELS + 1) *
		      (LEVELS + 2) * (LEVELS + 2);
	for (i = 0; i < NR_PARTS; i++) {
		unsigned long r[MAX_HINTS];
		unsigned long nr = ratios(&parts[i], r);

		want_states += nr * nr;
	}
	want_states *= (unsigned long)NR_CAP * NR_TURBO * 2 * NR_REQ;
	printf("# diff: %lu of %lu inputs differ: %s %lu, %s %lu, %s %lu, %s %lu (%lu driver states, %.1f s)\n",
	       differ, inputs, cause_name[0], cause[0], cause_name[1], cause[1],
	       cause_name[2], cause[2], cause_name[3], cause[3], states,
	       (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	for (i = 0; i < NR_CAUSE; i++) {
		unsigned long j;

		if (!cause[i])
			continue;
		printf("# cause %s: %lu inputs: %s\n", cause_name[i], cause[i], cause_why[i]);
		for (j = 0; j < nr_ex[i]; j++)
			print_in("#  ", &ex[i][j]);
	}

	i = inputs > 0 && part_inputs > 0 && states == want_states;
	fails += !i;
	printf("# domain: %lu inputs over %lu driver states (expected %lu states); of them the %d level sets of real parts: %lu inputs over %lu driver states, %lu differ\n",
	       inputs, states, want_states, NR_PARTS, part_inputs,
	       part_states, part_differ);
	printf("%s %d domain covered\n", i ? "ok" : "not ok", ++k);

	printf("# invariants broken: series %lu, 7.3 %lu inputs\n", bad[0], bad[1]);
	for (i = 0; i < 2; i++)
		if (bad[i])
			print_in("#  ", &bad_ex[i]);
	fails += bad[0] || bad[1];
	printf("%s %d both: MIN <= DESIRED <= MAX, DESIRED 0 with DEC, other fields kept, written iff changed\n",
	       !bad[0] && !bad[1] ? "ok" : "not ok", ++k);

	printf("# above the capacity level: series %lu, 7.3 %lu inputs (with the policy maximum at most the capacity level: series %lu, 7.3 %lu)\n",
	       above_s, above_m, above_s_reach, above_m_reach);
	if (above_s_reach)
		print_in("#  ", &above_ex);
	fails += above_s_reach || above_m_reach;
	printf("%s %d MIN and MAX never above the usable level where the policy maximum is within it (both)\n",
	       !above_s_reach && !above_m_reach ? "ok" : "not ok", ++k);

	printf("# reference at the capacity level, policy maximum within it: %lu inputs, %lu differ\n",
	       agree_inputs, agree_differ);
	if (agree_differ)
		print_in("#  ", &agree_ex);
	i = agree_inputs > 0 && !agree_differ;
	fails += !i;
	printf("%s %d identical where the series' reference is the capacity level and the policy maximum within it\n",
	       i ? "ok" : "not ok", ++k);

	return fails ? 1 : 0;
}
