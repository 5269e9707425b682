#ifndef PC_SRC_REPORT_H
#define PC_SRC_REPORT_H
/*
 * The weekly review report: a model built once from the correlation core
 * (corr_load, corr_summary; nothing here computes an error), then written
 * as markdown, self-contained HTML, CSV or JSON (report_md.c,
 * report_html.c, report_data.c). A struct report owns its corr_set and
 * every array; points are referred to by index into set->points.
 */
#include <stdint.h>
#include <stdio.h>

#include "src/report/report_model.h"

struct db;

/* Build the report. Errors of the correlation core pass through
 * (PC_ENOTFOUND when nothing matched, with what exists). */
int report_build(struct report **out, struct db *db,
		 const struct report_opts *o);
void report_free(struct report *r);

/* Record the review: the sides, their runs and every current
 * discrepancy. id_out may be NULL. */
int report_record(struct db *db, const struct report *r, int64_t *id_out);

/* Writers. Each returns 0 or PC_EIO when fp could not be written. */
int report_write_md(const struct report *r, FILE *fp);
int report_write_html(const struct report *r, FILE *fp);
int report_write_csv(const struct report *r, FILE *fp);
int report_write_json(const struct report *r, FILE *fp);

#endif
