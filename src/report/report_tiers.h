#ifndef PC_SRC_REPORT_TIERS_H
#define PC_SRC_REPORT_TIERS_H
/*
 * The report's "Accuracy against cost per tier" (issue 38 item 5): the
 * table of perfcorr tiers against the report's reference (every source
 * below it, per op class; the limits the report's --policy), the
 * cheapest tier per class, and in html a figure of MAPE against cost per
 * workload (svg_tiers). Only when some run behind it has a recorded
 * cost: a study without costs gets an unchanged report.
 */
struct db;
struct strbuf;
struct report;

/* Fill r->tiers (NULL: no tier below the reference, or no cost). */
int report_tiers_build(struct report *r, struct db *db);
void report_tiers_free(struct report *r);
void report_tiers_md(struct strbuf *sb, const struct report *r);
void report_tiers_html(struct strbuf *sb, const struct report *r);
/* ",\n\"tiers\":{...}" (tiers_json), or nothing when r->tiers is NULL. */
void report_tiers_json(struct strbuf *sb, const struct report *r);

#endif
