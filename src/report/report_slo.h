#ifndef PC_SRC_REPORT_SLO_H
#define PC_SRC_REPORT_SLO_H
/*
 * The report's "Verdicts against the limits" (issue 38 item 1: with
 * report --slo, the judgement of src/corr/corr_slo.c, as compare --slo
 * gives it) and "Tails and distributions" (item 2: when the pairs state
 * percentiles, src/corr/corr_tail.c): the confusion table, the flips and
 * near-limit keys worst first, the error at each percentile and the
 * keys whose distributions differ most. Absent when there is nothing to
 * show: a report without limits or stated percentiles is unchanged.
 */
struct strbuf;
struct report;

/* Fill r->slo (NULL: neither section). A limit the pairs cannot judge
 * is the error of corr_slo_resolve, unless there is nothing to assess
 * (corr_slo_nothing: the section says so, not an error). */
int report_slo_build(struct report *r);
/* Why the verdicts section judged nothing (the policy's slo cannot
 * judge these pairs, or --slo has nothing to assess), or NULL. */
const char *report_slo_why(const struct report *r);
void report_slo_free(struct report *r);
void report_slo_md(struct strbuf *sb, const struct report *r);
void report_slo_html(struct strbuf *sb, const struct report *r);
/* ",\n\"slo\":{...}" and ",\n\"tails\":{...}", each when present. */
void report_slo_json(struct strbuf *sb, const struct report *r);

#endif
