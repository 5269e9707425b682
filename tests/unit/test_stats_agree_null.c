/*
 * The false-alarm rate and power of the agreement tests on clustered
 * data (issue 34): Deming's joint test of the identity (p_identity) and
 * the proportional bias's p, on seeded studies of tests/sim_agree.h
 * (20-40 workloads x 5-15 ops, magnitudes spanning decades and shared by
 * a workload's and an op's pairs, log errors shared by a workload's ops
 * and, crossed, by an op's workloads; model and reference exchangeable
 * around the truth: the null of both tests). At alpha 0.05:
 *   - null, what compare prints (--cluster auto: two-way, every op being
 *     in every workload), workload-clustered and crossed designs, and
 *     --cluster workload on the clustered design: each test rejects
 *     2-8% of the studies;
 *   - the same tests with every pair independent (one workload: the
 *     pair-level p) reject over 20%: the design is one where ignoring
 *     the clustering fails; and workloads alone on the crossed design
 *     over 10% (an op's error shared across workloads);
 *   - power, auto: a proportional bias of 0.04 (the log error rising 4%
 *     per e-fold of size, 9% per decade) is found in >= 80% of studies,
 *     a model 0.8 x the reference everywhere by Deming's test in >= 80%
 *     (and the proportional bias stays quiet there: it has none).
 * At 1000 studies a rate of 5% has a standard error of 0.7 points. The
 * big version: tests/bench/sim_coverage.sh.
 */
#include <stdio.h>

#include "check.h"
#include "sim_agree.h"

#define NNULL 1000
#define NPOW 400
#define ALPHA 0.05

static const struct sim_agree_design clustered = {
	"workload-clustered", 0.10, 0, 0.05, 1.0, 0.8, 0.8 };
static const struct sim_agree_design crossed = {
	"workload x op crossed", 0.08, 0.08, 0.04, 1.0, 0.8, 0.8 };

static const char *const what[2] = { "Deming p_identity", "prop. bias p" };

static void run(const struct sim_agree_design *d, double prop, double scale,
		int n, uint64_t seed, int cluster, int how, const char *label,
		struct sim_agree *a)
{
	/* the p-values do not read the bootstrap: few resamples */
	struct stats_paired_opts o = { 10, 20261204, 0.95, cluster };

	CHECK_INT(sim_agree_run(d, prop, scale, n, seed, ALPHA, &o, how, a),
		  0);
	CHECK_INT(a->studies, n);
	for (int j = 0; j < 2; j++) {
		printf("# %-22s %-34s %-18s %5.1f%% of %d\n", d->name, label,
		       what[j], sim_agree_pct(a, j), a->studies);
		CHECK_INT(a->defined[j], n);
	}
}

static void nominal(const struct sim_agree *a)
{
	for (int j = 0; j < 2; j++)
		CHECK(sim_agree_pct(a, j) >= 2 && sim_agree_pct(a, j) <= 8);
}

TEST(null_clustered_design)
{
	struct sim_agree aut, wl, pair;

	run(&clustered, 0, 1, NNULL, 34201, STATS_CI_AUTO, SA_CLUSTERED,
	    "null, auto (workload+op)", &aut);
	run(&clustered, 0, 1, NNULL, 34201, STATS_CI_WORKLOAD, SA_CLUSTERED,
	    "null, --cluster workload", &wl);
	run(&clustered, 0, 1, NNULL / 2, 34201, STATS_CI_WORKLOAD,
	    SA_PAIR_LEVEL, "null, pair-level (one workload)", &pair);
	CHECK_INT(aut.basis[2], NNULL);
	CHECK_INT(wl.basis[1], NNULL);
	CHECK_INT(pair.basis[0], NNULL / 2);
	nominal(&aut);
	nominal(&wl);
	for (int j = 0; j < 2; j++)
		CHECK(sim_agree_pct(&pair, j) > 20);
}

TEST(null_crossed_design)
{
	struct sim_agree aut, wl;

	run(&crossed, 0, 1, NNULL, 34202, STATS_CI_AUTO, SA_CLUSTERED,
	    "null, auto (workload+op)", &aut);
	run(&crossed, 0, 1, NNULL / 2, 34202, STATS_CI_WORKLOAD, SA_CLUSTERED,
	    "null, --cluster workload", &wl);
	CHECK_INT(aut.basis[2], NNULL);
	nominal(&aut);
	for (int j = 0; j < 2; j++)
		CHECK(sim_agree_pct(&wl, j) > 10);
}

TEST(power)
{
	const struct sim_agree_design *d[2] = { &clustered, &crossed };

	for (int k = 0; k < 2; k++) {
		struct sim_agree prop, scale;

		run(d[k], 0.04, 1, NPOW, 34203 + (uint64_t)k, STATS_CI_AUTO,
		    SA_CLUSTERED, "proportional bias 0.04, auto", &prop);
		run(d[k], 0, 0.8, NPOW, 34205 + (uint64_t)k, STATS_CI_AUTO,
		    SA_CLUSTERED, "model 0.8 x reference, auto", &scale);
		CHECK(sim_agree_pct(&prop, 1) >= 80);
		CHECK(sim_agree_pct(&scale, 0) >= 80);
		/* a model 0.8 x the reference has no proportional bias */
		CHECK(sim_agree_pct(&scale, 1) <= 8);
	}
}

TEST_MAIN(CASE(null_clustered_design), CASE(null_crossed_design),
	  CASE(power))
