/*
 * Coverage of every printed interval on simulated studies (issue 34),
 * the big version of tests/unit/test_stats_coverage.c: the figures of
 * docs/statistics.md ("What each interval resamples"). Not in ctest:
 * tests/bench/sim_coverage.sh builds and runs it.
 *
 *   sim_coverage [STUDIES [RESAMPLES]]   (default 4000, 1000; seeded,
 *                                          other seeds than the unit test)
 *
 * Studies from tests/sim_study.h through tests/sim_coverage.h (the true
 * values in closed form): 20-40 workloads x 5-15 ops; designs
 * workload-clustered (sd workload 0.10, pair 0.05, as the unit test)
 * and workload x op crossed (0.08, op 0.08, pair 0.04, as
 * tests/bench/sim_change.c); each with the intervals the data get by
 * default (--cluster auto: two-way, the ops being crossed), workloads
 * only (--cluster workload), and pair-level (one workload).
 *
 * Then the false-alarm rate and power at alpha 0.05 of Deming's joint
 * test and the proportional bias's p on tests/sim_agree.h's studies
 * (model and reference exchangeable around the truth, magnitudes shared
 * by workloads and ops): the null, proportional biases of 0.02-0.05 and
 * models 0.95-0.8 x the reference; the same three clusterings, and
 * magnitudes independent across pairs (sim_study.h's references) for the
 * null. STUDIES / 2 studies per cell (SIM_AGREE_STUDIES overrides).
 *
 * SIM_COVERAGE_FEW=1: instead, the coverage with 2-10 workloads x 5-15
 * ops, no minimum of workloads (stats_ci_bound's), as computed and cut to
 * the range: docs/statistics.md, "How few workloads".
 */
#include <stdio.h>
#include <stdlib.h>

#include "sim_agree.h"
#include "sim_coverage.h"

static const struct sim_cov_design D[] = {
	{ "workload-clustered", 0.10, 0, 0.05 },
	{ "workload x op crossed", 0.08, 0.08, 0.04 },
};

static const struct {
	const char *name;
	int cluster, one_workload;
} M[] = {
	{ "auto", STATS_CI_AUTO, 0 },
	{ "workload", STATS_CI_WORKLOAD, 0 },
	{ "pair-level", STATS_CI_WORKLOAD, 1 },
};

static const struct sim_agree_design AD[] = {
	{ "workload-clustered", 0.10, 0, 0.05, 1.0, 0.8, 0.8 },
	{ "workload x op crossed", 0.08, 0.08, 0.04, 1.0, 0.8, 0.8 },
	{ "clustered, magnitudes per pair", 0.10, 0, 0.05, 0, 0, 1.5 },
	{ "crossed, magnitudes per pair", 0.08, 0.08, 0.04, 0, 0, 1.5 },
};

/* The agreement tests' rejection rates (docs/statistics.md, "The
 * agreement tests' error rates"): 0, or 1 (main's exit code) when out
 * of memory. */
static int agree(int n)
{
	static const struct {
		const char *name;
		double prop, scale;
		int designs;		/* of AD[] */
	} A[] = {
		{ "null", 0, 1, 4 }, { "prop. bias 0.02", 0.02, 1, 2 },
		{ "prop. bias 0.03", 0.03, 1, 2 },
		{ "prop. bias 0.04", 0.04, 1, 2 },
		{ "prop. bias 0.05", 0.05, 1, 2 },
		{ "model 0.95 x ref", 0, 0.95, 2 },
		{ "model 0.90 x ref", 0, 0.90, 2 },
		{ "model 0.85 x ref", 0, 0.85, 2 },
		{ "model 0.80 x ref", 0, 0.80, 2 },
	};

	if (n < 1)
		return 0;
	printf("\nagreement tests: %% of %d seeded studies rejected at 0.05 "
	       "(Deming p_identity / proportional bias p; tests/sim_agree.h)"
	       "\n\n| design | truth | auto | workload | pair-level |\n"
	       "|---|---|---|---|---|\n", n);
	for (size_t a = 0; a < sizeof(A) / sizeof(A[0]); a++)
		for (int d = 0; d < A[a].designs; d++) {
			printf("| %s | %s |", AD[d].name, A[a].name);
			for (int m = 0; m < 3; m++) {
				struct stats_paired_opts o = { 10, 20261204,
							       0.95,
							       M[m].cluster };
				struct sim_agree r;

				if (sim_agree_run(&AD[d], A[a].prop,
						  A[a].scale, n,
						  34301 + 10 * a + (uint64_t)d,
						  0.05, &o, M[m].one_workload ?
						  SA_PAIR_LEVEL : SA_CLUSTERED,
						  &r) < 0) {
					fprintf(stderr, "sim_coverage: out of "
						"memory\n");
					return 1;
				}
				printf(" %.1f / %.1f |", sim_agree_pct(&r, 0),
				       sim_agree_pct(&r, 1));
			}
			printf("\n");
		}
	return 0;
}

/* Coverage with few workloads (docs/statistics.md, "How few
 * workloads"): n workloads x 5-15 ops, no minimum of workloads, the
 * intervals cut to their range (cut = 0: as computed), --cluster auto.
 * 0, or 1 when out of memory. */
static int few(int n, unsigned nb, int cut)
{
	static const size_t NW[] = { 2, 3, 4, 5, 6, 8, 10 };
	enum { NNW = sizeof(NW) / sizeof(NW[0]) };
	static struct sim_cov c[2][NNW];

	for (int d = 0; d < 2; d++)
		for (int j = 0; j < NNW; j++) {
			struct stats_paired_opts o = { nb, 20261204, 0.95,
						       STATS_CI_AUTO };
			struct sim_cov_shape sh = { NW[j], NW[j],
						    cut ? 0 : -1 };

			if (sim_cov_run_shape(&D[d], n, 34401 + 10 *
					      (uint64_t)d + NW[j], &o, &sh,
					      0, 0, &c[d][j]) < 0) {
				fprintf(stderr, "sim_coverage: out of "
					"memory\n");
				return 1;
			}
		}
	printf("\ncoverage of 95%% intervals with few workloads, %d seeded "
	       "studies per column (N workloads x 5-15 ops, --cluster auto, "
	       "%u resamples, no minimum of workloads, %s)\n\n| statistic |",
	       n, nb, cut ? "cut to their range" : "not cut");
	for (int d = 0; d < 2; d++)
		for (int j = 0; j < NNW; j++)
			printf(" %s %zu |", d ? "crossed" : "clustered", NW[j]);
	printf("\n|---|");
	for (int j = 0; j < 2 * NNW; j++)
		printf("---|");
	printf("\n");
	for (int k = 0; k < SC_N + 1; k++) {
		printf("| ");
		if (k == SC_N)
			printf("lowest");
		for (const char *p = k < SC_N ? sim_cov_name[k] : ""; *p; p++)
			printf(*p == '|' ? "\\|" : "%c", *p);
		printf(" |");
		for (int d = 0; d < 2; d++)
			for (int j = 0; j < NNW; j++) {
				double lo = 100;

				if (k < SC_N && !c[d][j].defined[k]) {
					printf(" none |");
					continue;
				}
				if (k < SC_N) {
					printf(" %.1f |",
					       sim_cov_pct(&c[d][j], k));
					continue;
				}
				for (int i = 0; i < SC_N; i++)
					if (c[d][j].defined[i] &&
					    sim_cov_pct(&c[d][j], i) < lo)
						lo = sim_cov_pct(&c[d][j], i);
				printf(" %.1f |", lo);
			}
		printf("\n");
	}
	return 0;
}

/* The agreement tests' false-alarm rates with few workloads (kept with
 * 3-4: docs/statistics.md, "How few workloads"). 0, or 1. */
static int agree_few(int n)
{
	static const size_t NW[] = { 3, 4, 5, 6, 8 };

	printf("\nagreement tests with few workloads: %% of %d seeded null "
	       "studies rejected at 0.05 (Deming p_identity / proportional "
	       "bias p; --cluster auto)\n\n| design | 3 | 4 | 5 | 6 | 8 |\n"
	       "|---|---|---|---|---|---|\n", n);
	for (int d = 0; d < 2; d++) {
		printf("| %s |", AD[d].name);
		for (size_t j = 0; j < sizeof(NW) / sizeof(NW[0]); j++) {
			struct stats_paired_opts o = { 10, 20261204, 0.95,
						       STATS_CI_AUTO };
			struct sim_agree r;

			if (sim_agree_run_nw(&AD[d], 0, 1, n, 34601 + 10 *
					     (uint64_t)d + NW[j], 0.05, &o,
					     SA_CLUSTERED, NW[j], &r) < 0) {
				fprintf(stderr, "sim_coverage: out of "
					"memory\n");
				return 1;
			}
			printf(" %.1f / %.1f |", sim_agree_pct(&r, 0),
			       sim_agree_pct(&r, 1));
		}
		printf("\n");
	}
	return 0;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 4000;
	unsigned nb = argc > 2 ? (unsigned)atoi(argv[2]) : 1000;
	static struct sim_cov c[2][3];

	if (getenv("SIM_COVERAGE_FEW"))	/* only the few-workloads tables */
		return few(n, nb, 0) || few(n, nb, 1) || agree_few(n);
	if (n < 1 || nb < 1) {
		fprintf(stderr, "usage: sim_coverage [STUDIES [RESAMPLES]]\n");
		return 2;
	}
	for (int d = 0; d < 2; d++)
		for (int m = 0; m < 3; m++) {
			struct stats_paired_opts o = { nb, 20261204, 0.95,
						       M[m].cluster };

			if (sim_cov_run(&D[d], n, 34101 + (uint64_t)d, &o,
					M[m].one_workload, 0, &c[d][m]) < 0) {
				fprintf(stderr, "sim_coverage: out of "
					"memory\n");
				return 1;
			}
		}
	printf("coverage of 95%% intervals, %d seeded studies per column "
	       "(20-40 workloads x 5-15 ops, %u resamples; %% of studies "
	       "whose interval holds the true value)\n\n", n, nb);
	printf("| statistic | clustered: auto | clustered: workload | "
	       "clustered: pair-level | crossed: auto | crossed: workload "
	       "| crossed: pair-level |\n|---|---|---|---|---|---|---|\n");
	for (int k = 0; k < SC_N; k++) {
		printf("| ");
		for (const char *p = sim_cov_name[k]; *p; p++)	/* markdown */
			printf(*p == '|' ? "\\|" : "%c", *p);
		printf(" |");
		for (int d = 0; d < 2; d++)
			for (int m = 0; m < 3; m++)
				if (c[d][m].defined[k])
					printf(" %.1f |",
					       sim_cov_pct(&c[d][m], k));
				else
					printf(" none |");
		printf("\n");
	}
	if (getenv("SIM_COVERAGE_TAILS")) {
		printf("\nmisses, truth below / above the interval:\n");
		for (int k = 0; k < SC_N; k++) {
			printf("| %s |", sim_cov_name[k]);
			for (int d = 0; d < 2; d++)
				for (int m = 0; m < 3; m++)
					printf(" %d/%d |", c[d][m].low[k],
					       c[d][m].high[k]);
			printf("\n");
		}
	}
	printf("\nci_basis (studies pair-level/workload/workload+op):");
	for (int d = 0; d < 2; d++)
		for (int m = 0; m < 3; m++)
			printf(" %d/%d/%d", c[d][m].basis[0], c[d][m].basis[1],
			       c[d][m].basis[2]);
	printf("\n");
	return agree(getenv("SIM_AGREE_STUDIES") ?
		     atoi(getenv("SIM_AGREE_STUDIES")) : n / 2);
}
