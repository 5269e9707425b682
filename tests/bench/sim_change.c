/*
 * The simulated error rates of the release-change test and the gate
 * (issue 34), the big version of tests/unit/test_stats_change.c and
 * test_gate_control.c: the figures of docs/statistics.md ("The
 * release-change test") and docs/gate.md ("What the gate's error rate
 * is"). Not in ctest (about a minute): tests/bench/sim_change.sh builds
 * and runs it.
 *
 *   sim_change [STUDIES]      (default 1000; seeded: the same figures)
 *
 * Studies from tests/sim_study.h: 20-60 workloads x 5-30 ops, two
 * releases of one model (the second keeps 90% of the first's effects);
 * designs: workload-clustered (sd workload 0.12, pair 0.04) and
 * workload x op crossed (0.08, op 0.08, pair 0.04).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_study.h"
#include "src/gate/gate.h"
#include "src/stats/stats_change.h"
#include "src/stats/stats_paired.h"

struct design {
	const char *name;
	double sd_w, sd_o, sd_p;
};

static const struct design D[] = {
	{ "workload-clustered", 0.12, 0, 0.04 },
	{ "workload x op crossed", 0.08, 0.08, 0.04 },
};

struct study {
	size_t n;
	double *b, *a;
	int64_t *w, *o;
};

static void draw(struct study *x, struct sim_rng *r, const struct design *d,
		 double growth, size_t wlo, size_t whi, size_t olo, size_t ohi)
{
	size_t nw = wlo + sim_index(r, whi - wlo + 1);
	size_t no = olo + sim_index(r, ohi - olo + 1);
	struct sim_study *s = sim_study_make(r, nw, no, d->sd_w, d->sd_o,
					     d->sd_p, 0);

	x->n = s->n;
	x->b = calloc(s->n, sizeof(double));
	x->a = calloc(s->n, sizeof(double));
	x->w = calloc(s->n, sizeof(int64_t));
	x->o = calloc(s->n, sizeof(int64_t));
	sim_study_release(s, r, 0.9, growth, x->a);
	for (size_t k = 0; k < s->n; k++) {
		x->b[k] = fabs(s->pairs[k].err);
		x->a[k] = fabs(sim_study_err(s, k, x->a[k]));
		x->w[k] = (int64_t)s->pairs[k].workload;
		x->o[k] = (int64_t)s->pairs[k].op;
	}
	sim_study_free(s);
}

static void study_free(struct study *x)
{
	free(x->b);
	free(x->a);
	free(x->w);
	free(x->o);
}

/* Rejections at 0.05 out of n: [0] the new test (two-sided), [1] the old
 * trend (pair bootstrap interval excludes 0 and two-sided Wilcoxon <
 * 0.05), [2] the old gate (max_mape_increase 0 + significance 0.05:
 * increase and one-sided Wilcoxon p < 0.05), [3] the new gate's fail
 * (one-sided p of "increase <= limit" < 0.05), [4] its unknown. */
static void rates(const struct design *d, double growth, int n, uint64_t seed,
		  int old, int *k, double limit)
{
	struct sim_rng r;

	memset(k, 0, 5 * sizeof(int));
	sim_rng_seed(&r, seed);
	for (int t = 0; t < n; t++) {
		struct study x;
		struct stats_change c;
		double pa;

		draw(&x, &r, d, growth, 20, 60, 5, 30);
		stats_change_compute(&c, x.b, x.a, x.w, x.o, x.n, 0.9);
		k[0] += c.p_two < 0.05;
		pa = stats_change_p_above(&c, limit);
		k[3] += pa < 0.05;
		k[4] += !(pa < 0.05) && !(1 - pa < 0.05);
		if (old) {
			struct stats_paired p;
			struct stats_paired_opts o = { 2000, 0, 0, 0 };

			stats_paired_compute(&p, x.b, x.a, x.n, &o);
			k[1] += (p.ci_lo > 0 || p.ci_hi < 0) &&
				2 * fmin(p.p_increase, p.p_decrease) < 0.05;
			k[2] += p.delta > 0 && p.p_increase < 0.05;
		}
		study_free(&x);
	}
}

/* Runs out of nruns where a 200-rule null policy (limit 0,
 * significance 0.05) fails the release. */
static int policy_fails(enum policy_error_control ec, int nruns,
			uint64_t seed)
{
	struct sim_rng r;
	double p[200], adj[200];
	int fails = 0;

	sim_rng_seed(&r, seed);
	for (int t = 0; t < nruns; t++) {
		int any = 0;

		for (int i = 0; i < 200; i++) {
			struct study x;
			struct stats_change c;

			draw(&x, &r, &D[i % 2], 0, 20, 40, 5, 15);
			stats_change_compute(&c, x.b, x.a, x.w, x.o, x.n, 0.9);
			p[i] = stats_change_p_above(&c, 0);
			study_free(&x);
		}
		gate_adjust(p, 200, ec, adj);
		for (int i = 0; i < 200; i++)
			any |= adj[i] < 0.05;
		fails += any;
	}
	return fails;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000, k[5];

	if (n < 10)
		n = 10;
	printf("release-change test, %d seeded studies per row, 20-60 "
	       "workloads x 5-30 ops, alpha 0.05\n", n);
	for (int i = 0; i < 2; i++) {
		rates(&D[i], 0, n, 1000 + (uint64_t)i, 1, k, 0);
		printf("null, %-22s: new test %5.1f%%  (old trend %5.1f%%, old "
		       "gate %5.1f%%; new gate fail %4.1f%%, unknown %4.1f%%)\n",
		       D[i].name, 100.0 * k[0] / n, 100.0 * k[1] / n,
		       100.0 * k[2] / n, 100.0 * k[3] / n, 100.0 * k[4] / n);
	}
	for (int i = 0; i < 2; i++)
		for (double g = 0.1; g < 0.35; g += 0.1) {
			rates(&D[i], g, n, 2000 + (uint64_t)i, 0, k, 0);
			printf("growth %2.0f%%, %-22s: rejects %5.1f%%, the gate "
			       "fails %5.1f%%\n", g * 100, D[i].name,
			       100.0 * k[0] / n, 100.0 * k[3] / n);
		}
	for (int i = 0; i < 2; i++) {
		rates(&D[i], 0, n, 1000 + (uint64_t)i, 0, k, 0.01);
		printf("null, %-22s, max_mape_increase 1 pp: fails %4.1f%%, "
		       "unknown %4.1f%%, passes %4.1f%%\n", D[i].name,
		       100.0 * k[3] / n, 100.0 * k[4] / n,
		       100.0 * (n - k[3] - k[4]) / n);
	}
	{
		int runs = n / 2 > 20 ? n / 2 : 20;
		int h = policy_fails(PEC_HOLM, runs, 3000);
		int b = policy_fails(PEC_BH, runs, 3000);
		int z = policy_fails(PEC_NONE, runs, 3000);

		printf("200-rule null policy (limit 0, significance 0.05), %d "
		       "runs: release fails holm %.1f%%, bh %.1f%%, none "
		       "%.1f%%\n", runs, 100.0 * h / runs, 100.0 * b / runs,
		       100.0 * z / runs);
	}
	return 0;
}
