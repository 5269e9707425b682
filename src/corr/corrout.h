#ifndef PC_SRC_CORROUT_H
#define PC_SRC_CORROUT_H
/*
 * Printing correlation results the same way in every command (compare,
 * trend, diff, gate, report): the JSON statistics object of the compare
 * contract, CSV columns, and a table for people (errors in percent,
 * undefined statistics as "-" with their reason). Never prints NaN.
 */
#include <stdio.h>

#include "src/corr/correlate.h"

/* The statistics keys of the contract, comma-separated, no braces:
 * "n":..,"mape":..,...,"fit":{..},...,"sol_violations":.. */
void corrout_stats_json(FILE *fp, const struct stats_summary *s);
/* {"source":..,"version":..,"kind":..} */
void corrout_side_json(FILE *fp, const struct corr_side *side);
/* One point object of the contract (annotation object or null). */
void corrout_point_json(FILE *fp, const struct corr_point *p);

/* CSV: the statistics column names, and one row of values (empty field
 * for undefined), each preceded by a comma. */
void corrout_stats_csv_header(FILE *fp);
void corrout_stats_csv_row(FILE *fp, const struct stats_summary *s);

/* "12.34%" or "-" for NaN, into buf. */
const char *corrout_pct(char *buf, size_t len, double v);
/* The same keys as one JSON object "{...}" in a malloc'd string (the one
 * writer for consumers that build cJSON trees: the gate). */
char *corrout_stats_json_str(const struct stats_summary *s);

/* The pairs of s (full points) as compare --points prints them: workload,
 * op, metric, both values in their unit, error, the reference's cv, the
 * flags (unverified, noise, SoL!, noisy-ref, invalid, waived,
 * calibration) and the annotation. */
void corrout_points_text(FILE *fp, const struct corr_set *s);
/* "workload+op" when the summary's intervals treat workloads and ops
 * as independent (two-way), "workload" when workloads holding several
 * pairs, else "pair-level" (stats_summary.ci_clustered). */
const char *corrout_ci_basis(const struct stats_summary *s);
/* Where the Deming error ratio came from (stats_deming.lambda_known). */
const char *corrout_lambda_from(const struct stats_summary *s);
/* "%.4g" or "-" for NaN, into buf. */
const char *corrout_num(char *buf, size_t len, double v);

/* The summary as a two-column table "statistic  value  note"; when
 * roofline, adds the efficiency (roofline / measured). unit (the
 * metric's SI unit, or NULL for a summary over several metrics): the
 * statistics in the metric's unit (RMSE, fit and Deming intercepts,
 * their intervals) print with it and an SI prefix (units_fmt). */
void corrout_stats_table(FILE *fp, const struct stats_summary *s,
			 int roofline, const char *unit);

/*
 * The one table of statistics, flattened (every key of the JSON
 * statistics object, nested ones as "fit.slope"; docs/statistics.md):
 * for the writers that choose columns (report, TUI) and the docs check.
 */
enum corrout_unit {
	CORROUT_U_COUNT,	/* a count */
	CORROUT_U_ERR,		/* a fraction of the reference; % in tables */
	CORROUT_U_RATIO,	/* dimensionless */
	CORROUT_U_METRIC,	/* in the metric's SI unit */
	CORROUT_U_LOG,		/* in ln(model / ref) */
	CORROUT_U_FLAG,		/* true / false */
};
/* Where a statistic is a column besides compare (every statistic is in
 * compare's JSON, CSV and table, report JSON and the report's "All
 * statistics"). */
enum {
	CORROUT_V_REPORT = 1,	/* report: accuracy by metric and op class */
	CORROUT_V_OPS = 2,	/* report: accuracy by op */
	CORROUT_V_TUI = 4,	/* TUI: Summary view */
};
struct corrout_stat {
	const char *key;	/* JSON key ("fit.slope" inside "fit") */
	const char *label;	/* for people: "MAPE", "p95 |err|" */
	const char *abbr;	/* a narrow column's: "r", "p90" */
	const char *desc;	/* one line */
	enum corrout_unit unit;
	unsigned views;		/* CORROUT_V_* */
	int pct;		/* an error: percent in tables */
	int count;		/* a count */
	int interval;		/* the row is an interval only ([lo, hi]) */
	int has_ci;		/* "KEY_ci" follows it in JSON */
	const void *priv;
};
size_t corrout_stats_count(void);
const struct corrout_stat *corrout_stats_at(size_t i);
/* The value of st in s (a count as a double; NaN when undefined and for
 * an interval-only row), the reason it is undefined (or NULL), its
 * interval (NULL when it has none). */
double corrout_stat_value(const struct corrout_stat *st,
			  const struct stats_summary *s);
const char *corrout_stat_why(const struct corrout_stat *st,
			     const struct stats_summary *s);
const struct stats_ci *corrout_stat_ci(const struct corrout_stat *st,
				       const struct stats_summary *s);
const char *corrout_unit_text(enum corrout_unit u);
/* The Markdown list of docs/statistics.md ("| key | name | unit |
 * description |"), generated from the table. */
void corrout_stats_doc(FILE *fp);

/* "name@version (kind, runs 1,2)" into a new string; caller frees. */
char *corrout_side_text(const struct corr_side *side);

#endif
