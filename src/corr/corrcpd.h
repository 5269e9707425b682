#ifndef PC_SRC_CORRCPD_H
#define PC_SRC_CORRCPD_H
/*
 * Where did a long series of versions step? (issue 34 item 5; `trend`,
 * the TUI's trend view, the report's trend section.) The versions are
 * added in order, each with its pairing (or none when it paired
 * nothing). On the pairs every paired version holds (same workload, op,
 * metric; used in the statistics: not invalid, not noisy, not waived with
 * skip_waived; model and reference > 0) three series of vectors, one
 * value per common pair: the error ln(model / ref), the model ln(model)
 * and the reference ln(ref). Each goes through the E-Divisive search of
 * src/stats/stats_cpd.h (same options and seed). A step of the error
 * series is labelled by the other two at the same version: "model
 * changed" (only the model series steps there), "reference moved" (only
 * the reference's), "both", or "error only" (neither steps there alone
 * enough to be found). docs/statistics.md, "Change points".
 */
#include <stddef.h>

#include "base/strbuf.h"
#include "src/corr/correlate.h"
#include "src/stats/stats_cpd.h"

/* Fewer paired versions than this: no search (why says so). */
#define CORR_CPD_MIN_VERSIONS 4

struct corr_cpd_step {
	size_t version;		/* the first version after the step */
	size_t prev;		/* the paired version before it */
	double q, p;		/* the error series' split */
	double mape_before, mape_after;	/* mean common-pair MAPE of the
					   segments on either side */
	const char *label;	/* "model changed", "reference moved",
				   "both", "error only" */
};

struct corr_cpd {
	size_t nversions;	/* versions added */
	size_t npoints;		/* of them paired: the series' length */
	size_t common;		/* pairs every paired version holds */
	double *mape;		/* [version]: MAPE on the common pairs;
				   NaN for a version that paired nothing */
	struct corr_cpd_step *steps;
	size_t nsteps;
	size_t *model_at, nmodel;	/* the model series' change points */
	size_t *ref_at, nref;		/* the reference series' */
	double p_stop;		/* the error search's last p (NaN: none) */
	struct stats_cpd_opts opts;
	const char *why;	/* NULL, or why no search ran */
};

struct corr_cpd_series;

struct corr_cpd_series *corr_cpd_series_new(int skip_waived);
/* At most nversions versions will be added (before the first add):
 * fewer than CORR_CPD_MIN_VERSIONS cannot be searched, so the series
 * keeps only the keys every paired version holds, not their values
 * (24 bytes a pair once, not 48 a pair and version; corr_cpd_compute
 * says the same). */
void corr_cpd_series_expect(struct corr_cpd_series *b, size_t nversions);
/* The next version: its pairing s, or NULL when it paired nothing. s
 * is read now, not kept. */
void corr_cpd_series_add(struct corr_cpd_series *b, const struct corr_set *s);
void corr_cpd_series_free(struct corr_cpd_series *b);

/* Search b (opts NULL: the defaults of stats_cpd.h). Returns 0;
 * corr_cpd_release frees. */
int corr_cpd_compute(struct corr_cpd *out, const struct corr_cpd_series *b,
		     const struct stats_cpd_opts *opts);
void corr_cpd_release(struct corr_cpd *c);

/* The label of a step at version v, or NULL. */
const char *corr_cpd_label_at(const struct corr_cpd *c, size_t v);

/* JSON {method, alpha, permutations, seed, min_size, versions, common,
 * steps: [{version, after, mape_before, mape_after, q, p, label}],
 * model_steps: [version...], reference_steps: [...], p_stop, why};
 * versions[i] names version i. */
void corr_cpd_json(struct strbuf *sb, const struct corr_cpd *c,
		   const char *const *versions);
/* Text: a heading line and one line per step, or a line saying none
 * (or why none was searched). */
void corr_cpd_text(struct strbuf *sb, const struct corr_cpd *c,
		   const char *const *versions);

#endif
