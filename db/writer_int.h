#ifndef PC_DB_WRITER_INT_H
#define PC_DB_WRITER_INT_H
/*
 * Private to db/writer*.c, one module (db_writer) in four files whose
 * calls go one way, never back:
 *   writer.c          begin, run facts, settle, finish, abort
 *     -> writer_put.c     one result: checks, units, the batch, merged
 *                         results
 *       -> writer_dict.c    workload, op and metric ids (cached, queued),
 *                           the bulk load's dropped indexes
 *         -> writer_run.c     the source, the run and its identity
 *                             (duplicates), stepping a statement
 * The state of an import (struct db_writer) and what the files share.
 */
#include <stddef.h>
#include <stdint.h>

#include "base/hmap.h"
#include "base/strbuf.h"
#include "db/wbatch.h"
#include "db/writer.h"

struct db;
struct db_stmt;
struct unit;

struct metric_info {
	int64_t id;
	char *dim;
	int put;			/* a result of it was put */
};

/* One merged result being built (writer.h, "Merged results"). Counted
 * rows: n, total and the pooled sum of squares m2 (in unit u0); stage
 * rows: their total and variance; uncounted rows: plain sums. */
struct macc {
	int64_t wid, oid, mid;
	const struct unit *u0;
	char *what;			/* "workload', op 'x', metric 'y" */
	int rows, stages, counted;
	double n, total, m2, mean, min, max, median, sd1;
	double st_total, st_var;
	double s_value, s_mean, s_min, s_max, s_var, s_median;
	unsigned flags;
};

/* New workloads' parameters are queued and stored by one INSERT of up
 * to this many rows (a sweep adds a workload of 5 parameters every 8
 * results: a statement per workload was 13% of its import). */
#define WL_PAR_ROWS 32

struct par_row {
	int64_t wid;
	size_t name, value;		/* offsets into par_text */
};

/* New workloads, SQLite (db_local_ids): the writer gives each its id
 * (max(id) + 1 on, the id SQLite would give it), queues up to WL_QUEUE
 * of them and stores them sorted by key, WL_ROWS per INSERT: the UNIQUE
 * key index then takes them in order (one pass over its leaves per
 * flush) instead of one random leaf per workload, which a sweep's keys
 * need (a new key every 8 results; issue 21). */
#define WL_QUEUE 8192

#define WL_ROWS 64

/* ... and when the database held no workload before the import, a Bloom
 * filter of the keys it added (1 MiB, 4 probes: under 1% false
 * positives up to 800k new keys, then more, never a false negative): a
 * key the bounded caches forgot is looked up in the database only when
 * the filter has seen it (a sweep brings 125k keys per 1M results; the
 * lookup of each new key past the cache's 65536 was 6% of its import). */
#define WL_BLOOM_BITS (1u << 23)

struct wl_row {
	int64_t id;
	size_t key, name, params;	/* offsets into wl_text */
	const char *k;			/* the key, while sorting */
};

struct db_writer {
	struct db *db;
	int64_t source_id, run_id;
	char *version, *platform;
	int version_set, platform_set;
	double clock_hz;
	int clock_from_cli;
	double cost;			/* NaN: none (runs.cost NULL) */
	char cost_unit[8];
	int cost_from_cli;
	int calibration;		/* mark the run (import --calibration) */
	double clock_tol;		/* the file's clock resolution, Hz */
	char clock_src[160];		/* where the file's clock is written */
	char note[512];			/* the last note for the user */
	struct strbuf meta;		/* JSON members, no braces */
	struct hmap workloads, ops, metric_idx;
	struct metric_info *metrics;
	size_t nmetrics, metrics_cap;
	char *last_wkey;		/* cache of the last workload: key text */
	struct wkey last_wk;		/* ... its contents */
	int64_t last_wid;
	const char *cur_key;		/* the current result's workload key
					 * (last_wkey or r->workload_key) */
	/* statements prepared once per import (new workloads and ops) */
	struct db_stmt *wl_find, *wl_ins, *op_find, *op_ins;
	struct db_stmt *wl_par[WL_PAR_ROWS + 1];	/* n parameters */
	struct par_row par[WL_PAR_ROWS];	/* queued parameters */
	size_t npar;
	struct strbuf par_text;
	int local_ids;			/* new workloads queued (wl_row) */
	int64_t next_wid;		/* ... the next one's id */
	struct wl_row *wlq;		/* ... WL_QUEUE of them */
	size_t nwlq;
	struct strbuf wl_text;
	struct hmap wl_queued;		/* ... key -> id */
	struct db_stmt *wl_many;	/* ... WL_ROWS of them */
	uint64_t *wl_bloom;		/* ... the keys added (WL_BLOOM_BITS) */
	int wl_fresh;			/* no workload stored before this
					 * import: a key the run has not seen
					 * is new, no lookup needed */
	int names_locked;		/* holds the names lock (names_lock) */
	struct hmap unit_idx;		/* unit name -> units_at() index */
	struct db_stmt *merge, *raw;
	struct macc *acc;		/* merged results, stored at the end */
	size_t nacc, capacc;
	struct hmap acc_idx;		/* "wid:oid:mid" -> acc index */
	int acc_done;			/* stored: no more merges */
	long results, puts;
	int fk_off;			/* foreign_keys turned off by begin */
	struct wbatch batch;		/* plain result inserts, batched */
	int batch_ok;
	int batch_err;			/* a flush failed: finish refuses */
	int dup_found;			/* the last error: a repeated key
					 * found by storing queued results */
	long dup_line;			/* ... its result's line */
	/* a bulk load (see writer_bulk_drop): this import's count of stored
	 * results and new workloads at which results_key and
	 * workload_params_nv are dropped, and their CREATE statements, run
	 * again before the commit */
	long bulk_at[2], new_wl;
	char *bulk_sql[2];
};

/* writer_run.c */
int writer_step_done(struct db *db, struct db_stmt *st, const char *what);
int writer_find_source(struct db_writer *w, const struct db_run_info *ri);
char *writer_identity_text(const struct db_run_info *ri);
int writer_check_dup(struct db_writer *w, const struct db_run_info *ri,
		     const char *identity);
int writer_insert_run(struct db_writer *w, const struct db_run_info *ri,
		      const char *identity);

/* writer_dict.c */
int writer_load_metrics(struct db_writer *w);
int writer_bulk_drop(struct db_writer *w, int i);
int writer_params_flush(struct db_writer *w);
int writer_wl_flush(struct db_writer *w);
int writer_workload_id(struct db_writer *w, const struct wkey *k,
		       int64_t *out);
int writer_op_id(struct db_writer *w, const char *op, int64_t *out);
int writer_metric_id(struct db_writer *w, const char *metric,
		     const struct unit *u, int64_t *out);

/* writer_put.c */
int writer_batch_flush(struct db_writer *w);
int writer_acc_store(struct db_writer *w);

#endif
