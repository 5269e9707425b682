#ifndef PC_SRC_CORR_CORR_PAIR_INT_H
#define PC_SRC_CORR_CORR_PAIR_INT_H
/*
 * Private to the pairing (corr_pair*.c): its state and the calls
 * between its files, which go one way, never back:
 *   corr_pair.c        corr_pair: prepare, the merge join of the two
 *                      sides' streams, platform by platform, pair_all
 *     -> corr_pair_point.c  the filters of a (workload, op) and the
 *                           pairs of one group: conversion, flags, points
 *     -> corr_pair_why.c    "nothing matched": what each filter left
 *          -> corr_pair_point.c (the --workload and --where tests)
 * Not for other modules.
 */
#include <stddef.h>
#include <stdint.h>

#include "db/pairs.h"
#include "src/corr/corr_roof.h"
#include "src/corr/correlate_int.h"

struct corr_fp;

/* Pairing state for one corr_load. */
struct pairing {
	const struct corr_query *q;
	struct corr_set *set;
	struct corr_store *st;
	const struct db_side *ms, *rs;
	struct corr_fp *fp;	/* the runs' fingerprints (issue 37) */
	int64_t time_id, cycles_id, metric_id;	/* metric_id -1 = any */
	int metric_unknown;	/* --metric names no metric at all: matches
				   nothing (metric_id INT64_MAX), and
				   "nothing matched" lists the metrics */
	signed char *wl_ok, *op_ok;		/* per dict index: -1 unknown */
	unsigned char *wl_sel;			/* passed the globs */
	/* --where terms: canonical name, canonical value (NULL: "NAME="
	 * selects workloads without it), seen on a selected workload */
	size_t nwhere;
	char **wname, **wval;
	unsigned char *wseen;
	size_t cap;
	char today[16];
	struct corr_roof roof;	/* the speed-of-light bound */
	int roof_rc;		/* a key with several bounds (sticky) */
	/* the last id found in each dictionary (a (workload, op) group's
	 * metrics share the workload and op; the key order repeats the
	 * workload for many ops): its entry and index */
	int64_t last_id[3];
	const struct db_name *last[3];
	size_t last_at[3];
};

/* corr_pair_point.c */
/* Every --where term holds for workload wid (seen: see the definition). */
int corr_pair_where_ok(const struct pairing *pr, int64_t wid,
		       unsigned char *seen);
/* The --where terms parsed into pr (wname, wval, wseen); <0 on a bad one. */
int corr_pair_check_where(struct pairing *pr);
/* The --workload globs pass name. */
int corr_pair_workload_globs_ok(const struct corr_query *q, const char *name);
/* The workload filters for wid (cached); -1 when not in the dictionary. */
int corr_pair_workload_ok(struct pairing *pr, int64_t wid);
/* Workload and op filters (cached). */
int corr_pair_key_ok(struct pairing *pr, int64_t wid, int64_t oid);
/* Pair the metrics of one (workload, op) group into pr->set. */
int corr_pair_group(struct pairing *pr, const struct db_result *m,
		    size_t nm, const struct db_result *r, size_t nr);

/* corr_pair_why.c */
/* A --where parameter no selected workload has: the error, else 0. */
int corr_pair_where_unknown(const struct pairing *pr);
/* The "nothing matched" error over both sides' whole results. */
int corr_pair_nothing_matched(const struct pairing *pr,
			      const struct db_result *m, size_t nm,
			      const struct db_result *r, size_t nr);

#endif
