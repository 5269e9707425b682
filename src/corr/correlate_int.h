#ifndef PC_SRC_CORRELATE_INT_H
#define PC_SRC_CORRELATE_INT_H
/*
 * Internals of the correlation core (module correlate) shared by its
 * files, whose calls go one way, never back:
 *   correlate.c     load, points, dictionaries, group keys
 *     -> corr_pair.c    filters, pairing, the "nothing matched" explanation
 *                       (its parts: corr_pair_int.h)
 *     -> corr_summary.c summaries, rows, per metric
 *   corr_pair.c, corr_summary.c -> corr_store.c  the store's lookups
 * Not for other modules.
 */
#include <stddef.h>
#include <stdint.h>

#include "db/pairs.h"
#include "src/corr/correlate.h"

struct annot_index;

/* What a set's points point into: the dictionaries (by id), the
 * workload parameters and the annotations. */
struct corr_store {
	struct db_name *dict[3];	/* enum db_dict */
	size_t ndict[3];
	struct db_param *params;
	size_t nparams;
	int params_loaded;	/* 0: corr_query.no_params (nothing to
				   ask of params) */
	struct annot_index *annots;
	/* per workload dictionary index: 1 when a result of either side
	 * (paired or not) has that workload and it passes the workload
	 * filters (--workload, --where); NULL before pairing. The group
	 * keys and features param.NAME are checked against these, so a
	 * parameter only one side's workloads carry is a key, not a
	 * misspelling (issue 39). */
	unsigned char *wl_selected;
};

/* The dictionary entry of id (its index in *idx when idx is not NULL),
 * or NULL. */
const struct db_name *corr_dict_find(const struct corr_store *st,
				     enum db_dict d, int64_t id, size_t *idx);
/* The id of a metric name, or -1. */
int64_t corr_metric_id(const struct corr_store *st, const char *name);
/* The value of parameter name of workload wid, or NULL. */
const char *corr_param_of(const struct corr_store *st, int64_t wid,
			  const char *name);
/* A roofline bounds times (lower) and rates (higher), not counts. */
int corr_sol_metric(const char *unit);

/* Pair the sides ms and rs (resolved, restricted to their platforms)
 * into s->points, in (workload, op, metric) order, with s->store
 * loaded; the errors of corr_load. */
int corr_pair(struct corr_set *s, struct db *db, const struct corr_query *q,
	      const struct db_side *ms, const struct db_side *rs);

#endif
