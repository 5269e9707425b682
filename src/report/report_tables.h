#ifndef PC_SRC_REPORT_TABLES_H
#define PC_SRC_REPORT_TABLES_H
/*
 * The review tables the md and html reports share (report_tables.c):
 * the status breakdown of the discrepancies and the accuracy per op (an
 * op's problem does not hide inside its op class). The numbers are the
 * correlation core's (corrgroup_build by metric and op). The provenance
 * is report_prov.h.
 */
struct strbuf;
struct report;

/* The statuses of the breakdown, in the order shown. */
enum report_st {
	RST_OPEN, RST_INVESTIGATING, RST_EXPLAINED, RST_ACCEPTED_NOTE,
	RST_ACCEPTED_BARE, RST_FIXED, RST_WONTFIX, RST_COUNT
};
extern const char *const report_st_names[RST_COUNT];

/* Count the discrepancies of r per status. */
void report_status_counts(const struct report *r, long counts[RST_COUNT]);
/* The overview's sentence on optimistic and pessimistic pairs (and
 * zero references left out): plain text, the same in md and html. */
void report_optimism(struct strbuf *sb, const struct report *r);

/* Per (metric, op) statistics into r->ops (at build time). */
int report_ops_build(struct report *r);
void report_ops_free(struct report *r);

void report_status_md(struct strbuf *sb, const struct report *r);
void report_status_html(struct strbuf *sb, const struct report *r);
void report_ops_md(struct strbuf *sb, const struct report *r);
void report_ops_html(struct strbuf *sb, const struct report *r);

#endif
