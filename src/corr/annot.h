#ifndef PC_SRC_ANNOT_H
#define PC_SRC_ANNOT_H
/*
 * Finding a pair's current annotation among the rows of db_annot_all().
 * An index owns its rows. Matching (docs/statistics.md, "Annotations"):
 * a row matches when each key part is NULL (any), equal (exact rows) or
 * a glob that matches (pattern rows, util_glob). Exact rows naming
 * workload, op and metric win over exact rows with NULL parts, which win
 * over pattern rows; within a tier the newest matching row wins.
 * A row that says "no annotation" (annot_is_undo_none: the row the TUI's
 * undo appends when the key had none before) wins like any row of its
 * tier but is no annotation: the lookup goes on with the lower tiers, so
 * the pair reads as never annotated in every output (issue 35 QA).
 */
#include <stddef.h>

#include "db/annot.h"

struct db;
struct annot_index;

/* Build an index; takes ownership of rows (n may be 0, rows NULL). */
struct annot_index *annot_index_new(struct annot *rows, size_t n);
/* Load every annotation of db into a new index. */
int annot_index_load(struct annot_index **out, struct db *db);
void annot_index_free(struct annot_index *ix);
/* How many annotations ix holds (0 for NULL). */
size_t annot_index_count(const struct annot_index *ix);

/* The current annotation of a pair, or NULL; borrowed from ix. */
const struct annot *annot_index_find(const struct annot_index *ix,
				     const char *workload, const char *op,
				     const char *metric,
				     const char *model_source,
				     const char *ref_source);

/* Many points at once (the pair index): the points of one pairing by
 * ids, with callbacks for names by id, ids by name and the point with
 * given ids. out[i] receives point i's current annotation (as
 * annot_index_find would answer) or NULL. Costs one lookup per exact row
 * and, per other row, a glob per name id and a pass over the points. */
struct annot_targets {
	size_t n;
	const int32_t *ids;	/* point i: ids[i*stride + 0..2] = w, o, m */
	size_t stride;		/* in int32s */
	int64_t max_id[3];
	const char *model_source, *ref_source;
	void *arg;
	const char *(*name)(void *arg, int part, int64_t id);
	int (*lookup)(void *arg, const char *w, const char *o, const char *m,
		      int64_t ids[3]);
	long (*find)(void *arg, const int64_t ids[3]);
};
void annot_index_assign(const struct annot_index *ix,
			const struct annot_targets *t,
			const struct annot **out);

/* The note of the row that records "no annotation" for a key (the TUI's
 * undo of a first annotation appends it: status open, category unknown;
 * the history keeps every row, nothing is deleted). */
#define ANNOT_UNDO_NONE_NOTE "undo: it had no annotation before"
/* 1 when row a is such a "no annotation" row. */
int annot_is_undo_none(const struct annot *a);
/* 1 when a pair whose current annotation is a has none: a is NULL, has
 * no status or is a "no annotation" row. The one definition every
 * output uses (the lookups above already answer NULL for such rows). */
int annot_none(const struct annot *a);

/* 1 when a pair of this annotation status still needs a look: none
 * (NULL, ""), open or investigating. What "open" counts everywhere
 * (compare, report, the TUI's "N open of M"). */
int annot_status_open(const char *status);

/* The one word for a pair's review state in every output (TUI, report,
 * gate, CSV; issue 35): the annotation's status, and "open" when nobody
 * annotated the pair (the state of an annotation "open": not explained
 * yet). Never "-", "unexplained" or "unknown" for it. */
#define ANNOT_STATE_NONE "open"
const char *annot_state(const struct annot *a);

/* 1 when a is 'accepted' and not expired on today ("YYYY-MM-DD"; NULL =
 * the current UTC date): no expiry, or expires >= today. */
int annot_waived(const struct annot *a, const char *today);

/* 1 + the index of s in a NULL-terminated list (db_annot_statuses,
 * db_annot_categories), 0 when absent or NULL: a compact code. */
unsigned annot_code(const char *const *list, const char *s);

/* Today's UTC date as "YYYY-MM-DD" into buf (>= 11 bytes). */
void annot_today(char *buf, size_t len);

#endif
