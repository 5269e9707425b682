#ifndef PC_IMPORTERS_MLPERF_H
#define PC_IMPORTERS_MLPERF_H
/*
 * MLPerf LoadGen results shared by the summary and detail importers:
 * values are collected (min/mean/max/percentiles of one latency become
 * one record plus "<m>_pNN" records; a metric seen twice keeps the first)
 * and emitted at the end, flagged invalid when LoadGen said INVALID.
 */
#include <stddef.h>

#include "importers/importer.h"

struct mlperf_rec {
	char metric[48];
	char unit[16];
	double value, mean, min, max, median;
	long line;
};

struct mlperf {
	struct mlperf_rec *r;
	size_t n, cap;
	int invalid;		/* LoadGen: INVALID */
	int validity_seen;
	/* what the log says of the load (the workload fingerprint, issue
	 * 37): the scenario, the Server target QPS (NaN: not given), the
	 * LoadGen version */
	char scenario[24], version[64];
	double target_qps;
};

void mlperf_init(struct mlperf *m);
void mlperf_release(struct mlperf *m);

/* A plain value of metric (first one wins). */
void mlperf_value(struct mlperf *m, const char *metric, const char *unit,
		  double v, long line);

/* One statistic of metric: which is "min", "max" or "mean" (the value). */
void mlperf_stat(struct mlperf *m, const char *metric, const char *which,
		 const char *unit, double v, long line);

/* Percentile pct ("99.90", "90.0", "90") of metric -> "<metric>_p99.9";
 * the 50th is also the median of metric. -1 when pct is not a number. */
int mlperf_percentile(struct mlperf *m, const char *metric, const char *pct,
		      const char *unit, double v, long line);

/* The fingerprint of the load the scenario states (issue 37): Offline
 * issues every query at once (request_rate inf), Server at target_qps
 * (request_rate; LoadGen's Poisson arrivals, a query a sample), and
 * SingleStream one query at a time (concurrency 1); MultiStream states
 * none of them. tool mlperf-loadgen, tool_version its version. */
int mlperf_fp(struct mlperf *m, struct imp_sink *sink);

/* Emit everything; 0 records is an error naming path. */
int mlperf_emit(struct mlperf *m, struct imp_sink *sink, const char *path);

#endif
