#ifndef PC_SRC_CORROUT_H
#define PC_SRC_CORROUT_H
/*
 * Printing correlation results the same way in every command (compare,
 * trend, diff, gate, report): the JSON statistics object of the compare
 * contract, CSV columns, and a table for people (errors in percent,
 * undefined statistics as "-" with their reason). Never prints NaN.
 */
#include <stdio.h>

#include "src/correlate.h"

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
/* Where the Deming error ratio came from (stats_deming.lambda_known). */
const char *corrout_lambda_from(const struct stats_summary *s);
/* "%.4g" or "-" for NaN, into buf. */
const char *corrout_num(char *buf, size_t len, double v);

/* The summary as a two-column table "statistic  value  note"; when
 * roofline, adds the efficiency (roofline / measured). */
void corrout_stats_table(FILE *fp, const struct stats_summary *s,
			 int roofline);

/* "name@version (kind, runs 1,2)" into a new string; caller frees. */
char *corrout_side_text(const struct corr_side *side);

#endif
