/*
 * Coverage of the printed 95% intervals on clustered data (issue 34,
 * item 2): 1000 seeded studies of tests/sim_study.h per design, 20-40
 * workloads x 5-15 ops, references spanning decades, the true values in
 * closed form (tests/sim_coverage.h). Every interval (MAPE, bias, median
 * |e|, geomean, Pearson, Pearson log, Spearman, CCC, CCC log, both
 * limits of agreement, the fit's slope and intercept) must hold its true
 * value in 90-98% of the studies:
 *   - workload-clustered design (log error = workload effect sd 0.10 +
 *     pair noise sd 0.05), the intervals compare prints (--cluster auto:
 *     two-way, every op being in every workload) and workloads only;
 *   - workload x op crossed design (workload 0.08, op effect 0.08 shared
 *     across the workloads, pair 0.04, tests/bench/sim_change.c's), the
 *     intervals compare prints (two-way). Workloads only there covers
 *     MAPE in about 73% (the failure two-way intervals fix: asserted
 *     below 85%).
 * The pair-level intervals (one workload: Fisher-z, t, Lin's z, Bland
 * and Altman's) cover 16-66%: the clustered ones must beat them by 20
 * points. At 1000 studies a coverage of 95% has a standard error of 0.7
 * points. The big version: tests/bench/sim_coverage.sh.
 */
#include <stdio.h>

#include "check.h"
#include "sim_coverage.h"

#define NSTUDY 1000
#define RESAMPLES 400

static const struct sim_cov_design clustered = { "workload-clustered",
						  0.10, 0, 0.05 };
static const struct sim_cov_design crossed = { "workload x op crossed",
					       0.08, 0.08, 0.04 };

static void run(const struct sim_cov_design *d, uint64_t seed, int cluster,
		int one_workload, struct sim_cov *c)
{
	struct stats_paired_opts o = { RESAMPLES, 20261204, 0.95, cluster };

	CHECK_INT(sim_cov_run(d, NSTUDY, seed, &o, one_workload, 0, c), 0);
	CHECK_INT(c->studies, NSTUDY);
}

static void show(const char *what, const struct sim_cov *c)
{
	for (int k = 0; k < SC_N; k++)
		printf("# %-40s %-13s %5.1f%% (truth below %d, above %d)\n",
		       what, sim_cov_name[k], sim_cov_pct(c, k), c->low[k],
		       c->high[k]);
}

/* Every interval of c within [90%, 98%]. */
static void within(const struct sim_cov *c)
{
	for (int k = 0; k < SC_N; k++) {
		double p = sim_cov_pct(c, k);

		if (!(p >= 90 && p <= 98))
			printf("# out of [90, 98]: %s %.1f%%\n",
			       sim_cov_name[k], p);
		CHECK(p >= 90 && p <= 98);
	}
}

TEST(clustered_design)
{
	static struct sim_cov aut, wl, pair;

	run(&clustered, 34001, STATS_CI_AUTO, 0, &aut);
	run(&clustered, 34001, STATS_CI_WORKLOAD, 0, &wl);
	run(&clustered, 34001, STATS_CI_WORKLOAD, 1, &pair);
	show("clustered, auto (workload+op)", &aut);
	show("clustered, --cluster workload", &wl);
	show("clustered, pair-level (one workload)", &pair);
	/* every op is in every workload: auto is two-way */
	CHECK_INT(aut.basis[2], NSTUDY);
	CHECK_INT(wl.basis[1], NSTUDY);
	CHECK_INT(pair.basis[0], NSTUDY);
	within(&aut);
	within(&wl);
	for (int k = 0; k < SC_N; k++)
		CHECK(wl.hit[k] >= pair.hit[k] + NSTUDY / 5);
}

TEST(crossed_design)
{
	static struct sim_cov aut, wl;

	run(&crossed, 34002, STATS_CI_AUTO, 0, &aut);
	run(&crossed, 34002, STATS_CI_WORKLOAD, 0, &wl);
	show("crossed, auto (workload+op)", &aut);
	show("crossed, --cluster workload", &wl);
	CHECK_INT(aut.basis[2], NSTUDY);
	within(&aut);
	/* an op's error shared across workloads: workloads alone are not
	 * enough (issue 34: 68-79%) */
	CHECK(sim_cov_pct(&wl, SC_MAPE) < 85);
	CHECK(sim_cov_pct(&wl, SC_LOA_HI) < 85);
}

TEST_MAIN(CASE(clustered_design), CASE(crossed_design))
