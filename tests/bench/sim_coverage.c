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
 */
#include <stdio.h>
#include <stdlib.h>

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

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 4000;
	unsigned nb = argc > 2 ? (unsigned)atoi(argv[2]) : 1000;
	static struct sim_cov c[2][3];

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
	return 0;
}
