#ifndef PC_SRC_CORR_SLO_OUT_H
#define PC_SRC_CORR_SLO_OUT_H
/*
 * Writing verdict agreement (corr_slo.h) and tails (corr_tail.h) the
 * same way wherever they appear: compare's text and JSON, the report's
 * JSON. The JSON writers append to a strbuf; the text writers print
 * tables to a FILE. Nothing here computes a statistic.
 */
#include <stddef.h>
#include <stdio.h>

struct strbuf;
struct corr_set;
struct corr_slo;
struct corr_slo_result;
struct corr_tails;

/* {"limits":[...],"keys":N,"both_meet":N,...,"agreement":x,
 * "by_limit":[...],"flips":[...],"near":[...]}; at most max keys in each
 * list (0: every one). */
void corr_slo_json(struct strbuf *sb, const struct corr_slo *slo,
		   const struct corr_slo_result *r, const struct corr_set *s,
		   size_t max);
/* {"percentiles":[...],"keys":N,"with_distance":N,"worst":[...]} */
void corr_tails_json(struct strbuf *sb, const struct corr_tails *t,
		     size_t max);

/* The confusion table per limit, the flips and the near-limit keys (at
 * most top of each, the rest counted). */
void corr_slo_text(FILE *fp, const struct corr_slo *slo,
		   const struct corr_slo_result *r, const struct corr_set *s,
		   size_t top);
/* The per-percentile table and the keys with the largest distance. */
void corr_tails_text(FILE *fp, const struct corr_tails *t, size_t top);

/* "2s", "100ms" style short text of a limit's value: the limit as the
 * user wrote it after its operator (borrowed from l->text). */
const char *corr_slo_limit_value(const char *text);

#endif
