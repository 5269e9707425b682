#ifndef PC_SRC_REPORT_CALIB_H
#define PC_SRC_REPORT_CALIB_H
/*
 * The report's "Calibration and held out" (issue 38 item 4): the error
 * on the points the model was calibrated on and on those held out
 * (src/corr/corr_calib.h), when some calibration mark applies; the
 * report is unchanged otherwise. The gate section warns as perfcorr gate
 * does (gate_calib_check).
 */
struct db;
struct strbuf;
struct report;

/* Apply the marks to r->set and fill r->calib (NULL: no point is
 * calibration). */
int report_calib_build(struct report *r, struct db *db);
void report_calib_free(struct report *r);
void report_calib_md(struct strbuf *sb, const struct report *r);
void report_calib_html(struct strbuf *sb, const struct report *r);
/* ",\n\"calibration\":{...}" (compare's keys), or nothing. */
void report_calib_json(struct strbuf *sb, const struct report *r);

#endif
