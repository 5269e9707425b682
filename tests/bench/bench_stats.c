/*
 * Benchmark (not a test): stats_compute over N pairs (default 1,000,000)
 * with realistic spread and ties, best of R runs, one core.
 *   tests/bench/run_bench.sh builds and runs it.
 */
#include <gsl/gsl_errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "src/stats/stats.h"

/* CPU time of this process: the machine may be shared. */
static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static double uniform(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (double)(rng >> 11) / 9007199254740992.0;
}

int main(int argc, char **argv)
{
	size_t n = argc > 1 ? (size_t)atol(argv[1]) : 1000000;
	int reps = argc > 2 ? atoi(argv[2]) : 5;
	double *m = malloc(n * sizeof(*m)), *r = malloc(n * sizeof(*r));
	double *sd = malloc(n * sizeof(*sd)), best = 1e9, t;
	struct stats_summary s;

	gsl_set_error_handler_off();
	for (size_t i = 0; i < n; i++) {
		/* references 1us..10ms, rounded to 10 ns (ties), model +-30% */
		r[i] = 1e-8 * (double)(long)(100 + uniform() * 1e6);
		m[i] = r[i] * (0.7 + 0.6 * uniform());
		sd[i] = r[i] * 0.02;
	}
	for (int k = 0; k < reps; k++) {
		t = now();
		if (stats_compute(&s, m, r, sd, n) < 0)
			return 1;
		t = now() - t;
		if (t < best)
			best = t;
	}
	printf("stats_compute: n=%zu best of %d: %.3f s CPU (%.0f ns/pair); "
	       "mape=%.6f kendall=%.6f weighted=%d\n", n, reps, best,
	       best * 1e9 / (double)n, s.mape, s.kendall_tau_b,
	       s.fit.weighted);
	free(m);
	free(r);
	free(sd);
	return 0;
}
