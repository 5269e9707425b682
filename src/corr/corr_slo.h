#ifndef PC_SRC_CORR_SLO_H
#define PC_SRC_CORR_SLO_H
/*
 * Verdict agreement against service-level limits (issue 38 item 1):
 * given limits on metrics (`--slo ttft_p99=2s,tpot_p99=100ms`, a gate
 * policy's "slo", or MLPerf Inference's server-scenario TTFT/TPOT
 * constraints by name, `mlperf:llama2-70b`), does the model agree with
 * the reference, key by key, on whether the limit is met? A confusion
 * matrix, the keys whose verdict flips (worst first: the reference
 * furthest across the limit), and the near-limit keys whose reference
 * lies within its own stated spread of the limit, which are no
 * confident verdict either way. docs/statistics.md, "Verdict
 * agreement".
 *
 * Ownership: a corr_slo owns its limits; a corr_slo_result owns its
 * arrays and refers to points by index into the set it judged (keep
 * the set).
 */
#include <stddef.h>

struct corr_set;
struct corr_point;

struct corr_slo_limit {
	char *metric;
	double limit;		/* SI (the unit's), > 0 */
	char *si;		/* SI unit of the written unit; "" for a
				   bare number */
	char op;		/* as written: '=' (the metric's better
				   direction decides), '<' (<=), '>' (>=) */
	int higher;		/* meets when value >= limit (a rate);
				   else value <= limit (a time); set by
				   corr_slo_resolve */
	char *text;		/* the limit as written, "ttft_p99=2s" */
	char *from;		/* the preset it came from, or NULL */
};

struct corr_slo {
	struct corr_slo_limit *lim;
	size_t n;
};

/* Parse spec: comma-separated items, each METRIC=VALUE[UNIT] (also <=
 * or >=), or mlperf:BENCHMARK (its ttft_p99 and tpot_p99 limits). Units
 * are base/units.h names. origin prefixes messages ("--slo"). A metric
 * given twice, an unknown unit or preset, a limit not > 0 are
 * PC_EINVALID saying so. Appends to out (zeroed by the caller). */
int corr_slo_parse(struct corr_slo *out, const char *spec,
		   const char *origin);
void corr_slo_release(struct corr_slo *s);
/* A deep copy of src into dst (a caller that resolves limits it does
 * not own: a gate policy's). */
void corr_slo_copy(struct corr_slo *dst, const struct corr_slo *src);

/* The MLPerf presets, for --help and messages: "llama2-70b, ..." */
const char *corr_slo_presets(void);

/* Check slo against s's pairs and settle each limit's direction: a
 * metric no pair has is PC_EINVALID naming the pairs' metrics; a unit
 * that is not the metric's stored SI unit (a bare number on a metric
 * that has a unit) is PC_EINVALID naming both. */
int corr_slo_resolve(struct corr_slo *slo, const struct corr_set *s,
		     const char *origin);

/* Nothing to assess (not an error: the caller says why and goes on):
 * every limit of slo is on a percentile ("<base>_pNN") and no pair of s
 * states any percentile. A new string saying so (naming the pairs'
 * metrics and the cure), or NULL: resolve, which refuses a metric no
 * pair has when the pairs do state percentiles (a misspelt one). */
char *corr_slo_nothing(const struct corr_slo *slo, const struct corr_set *s);

enum corr_slo_cell {
	SLO_BOTH_MEET,
	SLO_BOTH_MISS,
	SLO_MODEL_MEETS,	/* the model meets, the reference misses */
	SLO_MODEL_MISSES,	/* the model misses, the reference meets */
	SLO_NEAR,		/* the reference is within its spread of
				   the limit: no confident verdict */
	SLO_NCELLS
};

struct corr_slo_key {
	size_t point, lim;	/* index into s->points, slo->lim */
	const struct corr_point *p;	/* &s->points[point] */
	enum corr_slo_cell cell;
	int model_meets, ref_meets;
	double model_margin, ref_margin;	/* fraction of the limit
				   the value meets it by (< 0: misses) */
	int spread;		/* how the reference states its spread:
				   0 none, 1 stddev, 2 min..max */
};

struct corr_slo_counts {
	long cell[SLO_NCELLS];
	long keys;		/* judged (all cells) */
	long no_spread;		/* judged keys whose reference states
				   no spread (nearness unknown) */
};

struct corr_slo_result {
	struct corr_slo_counts all;
	struct corr_slo_counts *per;	/* per limit */
	size_t nper;
	struct corr_slo_key *keys;	/* flips (worst first), near-limit
					   keys (worst first), agreements
					   (closest to the limit first) */
	size_t nkeys, nflips, nnear;
	long excluded;		/* pairs of a limited metric left out:
				   invalid, noisy reference, waived */
};

/* Judge every point of s that keep selects (NULL = all; full points:
 * a slim set is PC_EINVALID) whose metric has a limit in slo (resolved).
 * Invalid and noisy-reference points, and waived ones when
 * skip_waived, are left out and counted. */
int corr_slo_judge(struct corr_slo_result *out, const struct corr_slo *slo,
		   const struct corr_set *s,
		   int (*keep)(const struct corr_point *p, void *arg),
		   void *arg, int skip_waived);
void corr_slo_result_release(struct corr_slo_result *r);

/* Confident agreement: (both meet + both miss) / the confident keys;
 * NaN when none. */
double corr_slo_agreement(const struct corr_slo_counts *c);
/* "both meet", "model meets, reference misses", ... */
const char *corr_slo_cell_name(enum corr_slo_cell c);
/* "<=" or ">=". */
const char *corr_slo_dir(const struct corr_slo_limit *l);

#endif
