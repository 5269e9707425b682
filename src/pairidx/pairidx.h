#ifndef PC_SRC_PAIRIDX_H
#define PC_SRC_PAIRIDX_H
/*
 * The pair index: one pairing of the correlation core (corr_load) in a
 * compact, cacheable form for the TUI and anything else that browses a
 * million pairs. Built once from a corr_set, it is stored in the
 * database's pair cache (db/paircache.h) under a digest of everything
 * the pairing depends on (each side's runs and clocks, the query), so
 * the next open reads a few blobs instead of pairing 2M results again.
 *
 * What is kept per point: the packed key (ids, flags, err) and the two
 * values, in the core's order (|err| descending); the detail (spreads,
 * runs) in chunks read on demand; ascending orders of every sortable
 * column; the summary; a log-log occupancy grid for the scatter plot;
 * the group keys (op_class, op, metric, workload, param.NAME), and the
 * statistics per group of each key once a view asked for them
 * (pidx_groups groups then and adds them to the cache entry: an open
 * does only what the first screen needs). Annotations are not cached: they change while
 * the index lives, so each open assigns them afresh (status, category
 * and the waived flag per point).
 *
 * Ownership: a pidx owns everything it hands out; pointers stay valid
 * until pidx_free.
 */
#include <stddef.h>
#include <stdint.h>

#include "src/corr/correlate.h"
#include "src/corr/corrgroup.h"
#include "src/stats/stats.h"

struct db;
struct annot;
struct wabbr;

/* The parts of a point's name, as the name lookups and the names.D
 * cache parts address them. The first PIDX_KEY_PARTS have their own id
 * in struct pidx_key (w, o, m); the op class is named by the op id. */
enum pidx_name_part {
	PIDX_NAME_WORKLOAD, PIDX_NAME_OP, PIDX_NAME_METRIC, PIDX_NAME_OP_CLASS,
	PIDX_NAME_PARTS,			/* how many */
	PIDX_KEY_PARTS = PIDX_NAME_OP_CLASS	/* parts with an id of their own */
};

/* What filters and sorts read of each point (24 bytes). */
struct pidx_key {
	int32_t w, o, m;	/* workload, op, metric id */
	uint32_t flags;		/* enum corr_flags */
	double err;
};

struct pidx_val {
	double model, ref;
};

/* The sortable columns, in the TUI's column order. The index caches
 * the orders of the first PIDX_NORDERS; flags carry the waived bit,
 * which follows the annotations, so their order is the TUI's to build
 * (a counting sort, O(n)). */
enum pidx_col {
	PIDX_WORKLOAD, PIDX_OP, PIDX_METRIC, PIDX_MODEL, PIDX_REF,
	PIDX_ABSERR, PIDX_FLAGS, PIDX_NCOLS,
	PIDX_NORDERS = PIDX_FLAGS
};

#define PIDX_GRID 256		/* scatter occupancy grid, cells a side */

struct pidx_scatter {
	double lo, hi;			/* log10 axis range (whole decades) */
	unsigned char cell[PIDX_GRID][PIDX_GRID / 8];	/* [y][x bit] */
	int empty;			/* no point with both values > 0 */
};

struct pidx_store;

struct pidx {
	struct corr_side model, ref;
	size_t n;
	struct pidx_key *keys;		/* |err| desc, NaN last, ties by key
					   (an open checks the order) */
	struct pidx_val *vals;
	unsigned char *status, *category;	/* per point: 0 none, else
						   db_annot_statuses[i-1] */
	struct stats_summary sum;	/* every point (waived included) */
	long excluded_noisy, sol_violations, invalid;
	/* the fingerprint check (issue 37): pairs refused (never points),
	 * their run pairs and the first refusing field; points flagged
	 * CORR_UNVERIFIED; pairs --allow-mismatch admitted, per field */
	long not_comparable, not_comparable_runs, unverified;
	long admitted_pairs, admitted[FP_NFIELDS];
	char not_comparable_field[32];
	int64_t max_id[PIDX_KEY_PARTS];	/* largest workload, op, metric id */
	char **group_keys;		/* op_class op metric workload param.X */
	size_t ngroup_keys;
	int built;			/* this open paired (cache was cold) */
	int cached;			/* the index is in the pair cache */
	char *repaired;			/* the damage found in the cache
					 * entry (it was paired again and
					 * replaced), or NULL */
	struct pidx_store *st;		/* private */
};

enum pidx_flags {
	PIDX_NO_WRITE = 1 << 0,		/* never write the cache */
	/* write the cache only when the write lock is free at once: a
	 * reader (the TUI) never waits behind an import */
	PIDX_NO_WAIT = 1 << 1,
};

/* Open the pairing of q: from the pair cache when it holds it, else
 * corr_load + build, and store it unless PIDX_NO_WRITE (a failed store,
 * e.g. a read-only database, is not an error). Errors are corr_load's. */
int pidx_open(struct pidx **out, struct db *db, const struct corr_query *q,
	      unsigned flags);
void pidx_free(struct pidx *x);

/* 1 when q's pairing is in the pair cache (opening it is a read). */
int pidx_cached(struct db *db, const struct corr_query *q);

/* Only the summary of q's pairing (cached, or built and stored). */
int pidx_summary(struct db *db, const struct corr_query *q,
		 struct stats_summary *out);

/* Names by id ("" for an unknown id). */
const char *pidx_workload(const struct pidx *x, int64_t id);
const char *pidx_op(const struct pidx *x, int64_t id);
const char *pidx_op_class(const struct pidx *x, int64_t id);
const char *pidx_metric(const struct pidx *x, int64_t id);

/* All names of one part, ASCII-lowercased, in one buffer: name id at
 * chars + off[id], NUL-terminated, ids 0..count-1 (built on first use;
 * borrowed). For one substring search over every name at once. */
int pidx_names_lower(struct pidx *x, enum pidx_name_part part,
		     const char **chars, const uint32_t **off,
		     uint64_t *count);

/* Point i as a corr_point (strings borrowed from x): keys, values,
 * names and the current annotation; the detail fields are NaN/0 unless
 * full, which reads them from the cache (or the kept set). */
int pidx_point(struct pidx *x, size_t i, struct corr_point *out, int full);

/* The point with these ids, or -1 (binary search in key order). */
long pidx_find(struct pidx *x, int64_t w, int64_t o, int64_t m);

/* The ascending order of col (ties keep the core's order) and a bitmap
 * whose bit k is set when position k starts a new key value; borrowed.
 * PC_ENOTFOUND for a column without a cached order. */
int pidx_order(struct pidx *x, int col, const uint32_t **perm,
	       const unsigned char **starts);

/* Statistics per group for one of group_keys; borrowed. The first ask
 * for a key the cache entry does not hold pairs the open's query again
 * (slim: ~a compare) and groups, then stores the part for later opens;
 * PC_EINVALID when the sides' runs changed since the open (reopen). */
int pidx_groups(struct pidx *x, const char *key, const struct corrgroup **out);

/* The workload column's abbreviation (src/wabbr.h) over the workload
 * keys the points use, built with the index and stored in the cache
 * (part "wabbr"); found from the points when the part is missing or
 * damaged. *out is the caller's (wabbr_release). */
void pidx_wabbr(struct pidx *x, struct wabbr *out);

/* The scatter occupancy grid; borrowed. */
const struct pidx_scatter *pidx_scatter(struct pidx *x);

/* n, MAPE, bias and r of the points with mask[i] set (NULL = all) by
 * corr_summary's rules (stats_basic: O(n) in index order, for a header
 * that follows each keystroke). */
int pidx_basic(struct pidx *x, const unsigned char *mask,
	       struct stats_summary *out);

/* Re-assign annotations (after another process wrote some). */
int pidx_annotations(struct pidx *x, struct db *db);

#endif
