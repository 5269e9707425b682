#ifndef PC_SRC_REPORT_PREV_H
#define PC_SRC_REPORT_PREV_H
/*
 * The report's "Against the previous model version": what moved between
 * the version before the reported one (release order) and it, against
 * the same reference version, as `perfcorr diff` computes it
 * (src/diff.c): regressions (|error| grew by 1 point or more) and
 * improvements (shrank by as much), largest change first.
 */
#include <stddef.h>

struct db;
struct strbuf;
struct report;

/* Fill r->prev; none (NULL) when the model has no earlier version or
 * that version pairs nothing with the reference. */
int report_prev_build(struct report *r, struct db *db);
void report_prev_free(struct report *r);
/* How many pairs regressed (reg) or improved; r->prev must be set. */
size_t report_prev_count(const struct report *r, int reg);
void report_prev_md(struct strbuf *sb, const struct report *r);
void report_prev_html(struct strbuf *sb, const struct report *r);
/* The JSON value of "previous": an object, or null. */
void report_prev_json(struct strbuf *sb, const struct report *r);

#endif
