#ifndef PC_TUI_DATA_H
#define PC_TUI_DATA_H
/*
 * What the TUI shows, without a terminal: the source pairs present, the
 * current pair's pair index (src/pairidx.h: the correlation core's
 * pairing, cached in the database, so the numbers are those `perfcorr
 * compare` prints), the rows_src views filter and sort, annotation state
 * per point, and change detection through db_data_version (SQLite's
 * PRAGMA data_version, PostgreSQL's LISTEN/NOTIFY). The TUI
 * never computes an error itself.
 *
 * Ownership: struct tui_data owns the index; views borrow it and its
 * arrays until the next data_load (gen changes).
 *
 * Two files, whose calls go one way: data.c (open, load, points, names)
 * -> data_review.c (the review's progress, status names and what is new
 * since the last review), which never calls back into data.c.
 */
#include <stddef.h>
#include <stdint.h>

#include "src/stats/stats.h"
#include "src/pairidx/candidates.h"
#include "tui/rows.h"

struct db;
struct annot;
struct corr_point;
struct pidx;
struct policy;

struct tui_data {
	struct db *db;
	struct candidate *pairs;
	size_t npairs, pair;		/* candidates, current */
	struct pidx *ix;		/* the current pairing; NULL when
					   nothing is loaded */
	struct stats_summary sum;	/* corr_summary over every point */
	struct rows_src src;		/* over ix's arrays */
	long data_version;
	unsigned gen;			/* bumps on every load */
	double warn, fail;		/* default severity limits on |err| */
	struct policy *policy;		/* per-point limits, or NULL */
	/* told before a pairing that is not cached yet (seconds a million
	 * pairs), so the user knows why they wait; may be NULL; set before
	 * data_open, which keeps them */
	void (*note)(void *arg, const char *msg);
	void *note_arg;
	/* the speed-of-light bound (SRC[@V]) or NULL: the core's default;
	 * set before data_open, which keeps it */
	const char *roofline;
	/* the workload-fingerprint fields whose mismatch is meant (issue
	 * 37, corr_query.allow_mismatch; NULL-terminated or NULL): set
	 * before data_open, which keeps them */
	const char *const *allow_mismatch;
	/* --slo (the Verdicts view's limits, corr_slo.h) or NULL: the
	 * policy's; set before data_open, which keeps it */
	const char *slo;
	/* the SI unit of each metric id of ix ("s", "W", "tokens/s"; "" for
	 * a dimensionless or unknown one), from the metrics table */
	char **units;
	unsigned char *higher;		/* per metric id: higher is better */
	size_t nunits;
	/* the review's progress (tui/data_review.c): a discrepancy is what
	 * `perfcorr report` calls one (report_is_discrepancy: |error| over
	 * limit, not within noise, not excluded); limit is the last
	 * recorded review's, else the report's default 0.10 */
	double limit;
	int have_review;		/* a review of these sources exists */
	char review_at[32];		/* its date */
	unsigned char *since;		/* per point: enum data_since, or
					   NULL without a review */
	size_t nnew, nchanged;
	unsigned ann_gen;		/* bumps on every annotation saved */
	struct data_undo *undo;		/* the last save, to undo (or NULL) */
};

/* A pair against the last recorded review (report --since-last-review):
 * new = a discrepancy now that the review did not list; changed = listed
 * then, and the model or reference value differs now. Both carry
 * ROWS_FLAG_NEW in the index's flags (the filter's flag=new). */
enum data_since { DATA_SAME = 0, DATA_NEW = 1, DATA_CHANGED = 2 };

/* List the sources, build the candidate pairs (perfsim vs silicon,
 * roofline vs silicon, rtl vs silicon, perfsim vs rtl ...) and load the
 * first that pairs anything. model/ref (may be NULL) choose the pair;
 * policy_path (may be NULL) adds per-point limits and, when model/ref
 * are not given, the policy's sides.
 * PC_ENOTFOUND when no pair matches anything. */
int data_open(struct tui_data *d, struct db *db, const char *model,
	      const char *ref, const char *policy_path);
void data_release(struct tui_data *d);

/* (Re)load the current pair. On error the previous set stays. */
int data_load(struct tui_data *d);

/* Switch to the next pair that pairs anything; PC_ENOTFOUND (and the
 * current pair kept) when no other does. */
int data_cycle_pair(struct tui_data *d);

/* 1 when another connection committed since the last load or poll. */
int data_changed(struct tui_data *d);

/* Append one annotation per listed point (same status, category, note,
 * link, expiry from tmpl) in one transaction, keyed by the point's
 * workload, op, metric and the pair's sources; update the per-point
 * state. */
int data_annotate(struct tui_data *d, const uint32_t *points, size_t n,
		  const struct annot *tmpl);

/* Undo the last data_annotate of this session: append, per point it
 * annotated, a row that restores the annotation the point had before
 * (the history keeps both; nothing is deleted). A point that had none
 * gets status open, category unknown and a note saying so. Only in the
 * pair it was made in. *n_out: rows written. PC_ENOTFOUND when there is
 * nothing to undo (or it was undone). */
int data_undo(struct tui_data *d, size_t *n_out);
/* A point that had no annotation gets a row of ANNOT_UNDO_NONE_NOTE
 * (src/corr/annot.h): every lookup reads it as none (annot_none). */
void data_undo_free(struct tui_data *d);

/* Point i with names and current annotation (detail fields NaN), in
 * *tmp; returns tmp. */
const struct corr_point *data_point(const struct tui_data *d, size_t i,
				    struct corr_point *tmp);
/* The same with the detail fields (spread, runs) read from the cache. */
int data_point_full(const struct tui_data *d, size_t i,
		    struct corr_point *out);
/* Points in the current pairing. */
size_t data_npoints(const struct tui_data *d);

/* Names for the per-point codes ("" for none). */
const char *data_status_name(unsigned code);
/* The state shown for a status code: its name, "open" for none (the
 * word of every output, annot_state). */
const char *data_status_word(unsigned code);
const char *data_category_name(unsigned code);
/* The code of a status/category name, 0 when unknown. */
unsigned data_status_code(const char *name);
unsigned data_category_code(const char *name);

/* Severity of an error: 0 ok, 1 warn, 2 fail (NaN is 2), against the
 * default limits (5% / 15%). */
int data_severity(const struct tui_data *d, double err);
/* The same for a point: the policy's rules that select the point
 * (metric, op, op class, workload globs; rules on parameters are left
 * to the gate) set its limits by severity, the strictest winning: a
 * rule's max_abs_err, else its max_mape as a guide. Other points use
 * the defaults. */
int data_point_severity(const struct tui_data *d, const struct corr_point *p);

/* 1 when a higher value of metric id is better (a rate), from the
 * metrics table; 0 for a time or unknown. */
int data_metric_higher(const struct tui_data *d, int64_t metric_id);
/* The SI unit of point metric id ("" when unknown or dimensionless). */
const char *data_metric_unit(const struct tui_data *d, int64_t metric_id);

/* Read the last review of the current pair's sources and mark every
 * point new/changed (data_load calls it). Errors leave no marks. */
int data_review_load(struct tui_data *d);
/* 1 when point i is a discrepancy (the report's definition, d->limit). */
int data_is_discrepancy(const struct tui_data *d, size_t i);
/* 1 when point i is a discrepancy still open: not annotated, or its
 * status is open or investigating. */
int data_is_open(const struct tui_data *d, size_t i);
/* 1 for a status that leaves a discrepancy open (none, open,
 * investigating). */
int data_status_open(unsigned code);
/* How many points are discrepancies, and how many of them are open: a
 * pass over the points with |err| > d->limit only (the index's order). */
void data_progress(const struct tui_data *d, size_t *ndisc, size_t *nopen);

/* 1 when the pairing's model is a roofline: a bound, not a model
 * (issue 35). The list shows the fraction of speed of light the
 * reference reaches and the violations instead of errors to review. */
int data_bound(const struct tui_data *d);

/* The pair as text into buf: "model@v (kind) vs ref@v (kind)", brief
 * "model@v vs ref@v" (a narrow title); a roofline model reads "(bound)"
 * in both. */
const char *data_pair_label(const struct tui_data *d, char *buf, size_t len,
			    int brief);

#endif
