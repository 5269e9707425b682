#ifndef PC_TUI_TREND_SERIES_H
#define PC_TUI_TREND_SERIES_H
/*
 * What the trend view (view_trend.c) shows beside each version's
 * summary: the release-change test against the previous version that
 * paired (src/corr/corrchange.h, the test `perfcorr trend`, diff, gate
 * and report use: its MAPE change on the common pairs, p and verdict)
 * and the change points of the whole series (src/corr/corrcpd.h, the
 * E-Divisive search `perfcorr trend` prints, each step labelled by the
 * side that moved). Each version is paired once (corr_load), in
 * release order.
 */
#include <stddef.h>

#include "src/corr/corrchange.h"
#include "src/corr/corrcpd.h"

struct db;

struct trend_series {
	size_t n;
	struct corr_change *ch;	/* [version]: against has_ch's previous */
	size_t *prev;		/* [version]: the version it is against */
	int *has_ch;		/* [version]: 1 when a previous one paired */
	struct corr_cpd cpd;	/* the change points (cpd.why: none) */
};

/* Pair model@versions[i] with ref (SRC@V) for every i; roofline and
 * allow as corr_query.roofline and .allow_mismatch. Returns 0 or an
 * error code (the series is then released). */
int trend_series_load(struct trend_series *ts, struct db *db,
		      const char *model, const char *ref,
		      const char *roofline, const char *const *allow,
		      char *const *versions, size_t n);
void trend_series_release(struct trend_series *ts);

/* A step's short label for a table cell: "model", "ref", "both",
 * "error" (NULL: no step at version v). */
const char *trend_series_step(const struct trend_series *ts, size_t v);

#endif
