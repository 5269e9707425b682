#ifndef PC_SRC_REPORT_SENS_H
#define PC_SRC_REPORT_SENS_H
/*
 * The report's "Sensitivity to each knob" (issue 38 item 3): the knob
 * sweeps where the model does not follow the reference (flagged blind
 * or wrong direction by src/corr/corr_sens.c, as `perfcorr sensitivity`
 * finds them), worst (largest |e_model - e_ref|) first. Only when there
 * are any: a report without a flagged sweep is unchanged.
 */
struct db;
struct strbuf;
struct report;

/* Fill r->sens (NULL: no sweep, or none flagged). Loads the workload
 * parameters the report otherwise does without. */
int report_sens_build(struct report *r, struct db *db);
void report_sens_free(struct report *r);
void report_sens_md(struct strbuf *sb, const struct report *r);
void report_sens_html(struct strbuf *sb, const struct report *r);
/* ",\n\"sensitivity\":{...}", or nothing when r->sens is NULL. */
void report_sens_json(struct strbuf *sb, const struct report *r);

#endif
