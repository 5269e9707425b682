#ifndef PC_IMPORTERS_STACKS_H
#define PC_IMPORTERS_STACKS_H
/*
 * Shared by the serving and profiling stack importers (TensorRT-LLM,
 * Triton perf_analyzer, genai-perf, llmperf, optimum-benchmark): one
 * statistic block of a metric (mean, median, min, max, stddev, n and
 * percentiles) emitted the way serving.h does for vLLM and SGLang, so
 * that any two of them pair: metric <m> with value = mean and the
 * statistics on the record, plus one record <m>_pNN per percentile.
 * Records have op "e2e" unless said otherwise.
 */
#include <stddef.h>

#include "importers/importer.h"

#define STK_MAX_PCT 16

struct stk_stat {
	double mean, median, min, max, std, n;
	struct {
		char name[12];	/* "p99", "p99.9" */
		double v;
	} pct[STK_MAX_PCT];
	size_t npct;
};

/* Where records go: the sink, the workload parameters of the records
 * (may be none), the source line for messages. */
struct stk_out {
	struct imp_sink *sink;
	const struct imp_param *params;
	size_t nparams;
	long line;
	long emitted;
	const char *op;		/* of statistic blocks; NULL = "e2e" */
};

void stk_stat_init(struct stk_stat *s);

/* Set one statistic by the tool's name: mean|avg|average, median,
 * min|minimum, max|maximum, std|stdev|stddev, n|count, pNN (p50 also
 * gives the median when there is none) or quantiles_pNN. 0 when taken,
 * 1 when stat is not a statistic name. NaN is ignored. */
int stk_stat_set(struct stk_stat *s, const char *stat, double v);

/* 1 when s holds anything. */
int stk_stat_any(const struct stk_stat *s);

/* Emit the block of metric in unit (a units.h name): nothing when it is
 * empty; value = mean, else median. */
int stk_stat_emit(struct stk_out *o, const char *metric, const char *unit,
		  const struct stk_stat *s);

/* Emit one scalar; NaN is skipped. op NULL = "e2e". */
int stk_scalar(struct stk_out *o, const char *op, const char *metric,
	       double value, const char *unit);

/* A number written by a person or a Python script: blanks, quotes and
 * thousands separators ("1,019.69") allowed, a trailing '%' refused. 0
 * and *out, -1 when it is not a number. */
int stk_number(const char *s, double *out);

/* Workload parameters collected for a record (owned copies). */
struct stk_params {
	struct imp_param p[16];
	char *own[32];
	size_t n, nown;
};

void stk_params_add(struct stk_params *p, const char *name,
		    const char *value);
void stk_params_release(struct stk_params *p);



/* The 1-based line of the first "key" in the file (rewound, scanned,
 * left at its end); 1 when not found. For messages about a JSON tree. */
long stk_key_line(FILE *fp, const char *key);

/* The SI-convertible units.h name for a serving tool's unit spelling in
 * dimension dim ("time", "rate", "count"): "tokens/sec", "tok/s",
 * "tps/user" -> tokens/s, "req/sec", "requests/sec" -> req/s, "per sec"
 * -> the rate given in per_sec; time units by units.h. NULL when
 * unknown or of another dimension. */
/* The line of the nth (0-based) occurrence of "key"; 1 when not found. */
long stk_nth_key_line(FILE *fp, const char *key, long nth);

const char *stk_unit(const char *u, const char *dim, const char *per_sec);
#endif
