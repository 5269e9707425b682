/* The import writer (see writer.h). Ids are cached in hash maps so a
 * million-row import does one INSERT per result and nothing else. */
#include "db/writer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "base/units.h"
#include "db/wbatch.h"
#include "base/error.h"
#include "base/hmap.h"
#include "base/strbuf.h"
#include "base/util.h"

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
	/* a bulk load (see bulk_drop): this import's count of stored
	 * results and new workloads at which results_key and
	 * workload_params_nv are dropped, and their CREATE statements, run
	 * again before the commit */
	long bulk_at[2], new_wl;
	char *bulk_sql[2];
};

/* A bulk load drops the two secondary indexes whose inserts are random
 * (the sweep shape's keys change every row: each result and parameter
 * row seeks its own leaf, and the 2 MiB page cache spills them to the
 * WAL again and again) and builds them once, sorted, at the end of the
 * import's transaction: results_key (the pairing index; duplicate
 * detection uses the primary key, not it) when the import has stored
 * more results than the database held before it, and
 * workload_params_nv when it has added more workloads than the database
 * held; at least BULK_MIN_RESULTS / BULK_MIN_WORKLOADS, so that a small
 * import changes no schema. Rebuilding costs a sort of the whole index,
 * at most about what the import itself inserted. A failure rolls the
 * drop back with the rest. SQLite only (db_index_suspend). */
#define BULK_MIN_RESULTS 32768
#define BULK_MIN_WORKLOADS 4096
static const char *const bulk_index[2] = { "results_key",
					   "workload_params_nv" };

static const char *const kinds[] = { "roofline", "perfsim", "rtl",
				     "emulation", "silicon", NULL };

static int kind_ok(const char *k)
{
	for (int i = 0; kinds[i]; i++)
		if (!strcmp(kinds[i], k))
			return 1;
	return 0;
}

static int step_done(struct db *db, struct db_stmt *st, const char *what)
{
	int rc = db_step(st);

	db_reset(st);
	if (rc != DB_DONE && rc != DB_ROW)
		return db_fail(db, what);
	return 0;
}

static int find_source(struct db_writer *w, const struct db_run_info *ri)
{
	struct db_stmt *st = NULL;
	int rc = 0, found = 0;
	char now[32];

	db_prepare(w->db, &rc, &st,
		   "SELECT id, kind FROM sources WHERE name = ?");
	if (rc)
		return rc;
	/* a new source: look again under the lock of its name (another
	 * importer may be adding it; db_lock_name) */
	for (int pass = 0; !found && !rc && pass < 2; pass++) {
		if (pass && (rc = db_lock_name(w->db, ri->source)) < 0)
			break;
		db_bind_text(st, 1, ri->source);
		found = db_step(st) == DB_ROW;
		if (found) {
			const char *k = db_column_text(st, 1);

			w->source_id = db_column_int64(st, 0);
			if (ri->kind && strcmp(ri->kind, k))
				rc = pc_error_set(PC_EINVALID, "source '%s' is "
					"of kind '%s', not '%s'", ri->source, k,
					ri->kind);
		}
		db_reset(st);
	}
	db_finalize(st);
	if (found || rc)
		return rc;
	if (!ri->kind)
		return pc_error_set(PC_EINVALID, "source '%s' is new: say "
			"what it is with --kind roofline|perfsim|rtl|emulation|silicon",
			ri->source);
	if (!kind_ok(ri->kind))
		return pc_error_set(PC_EINVALID, "unknown kind '%s' (expected "
			"roofline, perfsim, rtl, emulation or silicon)", ri->kind);
	util_now_iso(now, sizeof(now));
	db_prepare(w->db, &rc, &st, "INSERT INTO sources (name, kind, "
		   "created_at) VALUES (?, ?, ?) RETURNING id");
	if (rc)
		return rc;
	db_bind_text(st, 1, ri->source);
	db_bind_text(st, 2, ri->kind);
	db_bind_text(st, 3, now);
	rc = db_step_id(w->db, st, "adding source", &w->source_id);
	db_finalize(st);
	return rc;
}

/* The identity of an import beside its bytes: what the command line
 * said (not what the file says: the same bytes always say the same),
 * one "name=value" line each, empty when not given. */
static char *identity_text(const struct db_run_info *ri)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "version=%s\nworkload=%s\nplatform=%s\nclock_hz=",
		    ri->version ? ri->version : "",
		    ri->workload ? ri->workload : "",
		    ri->platform ? ri->platform : "");
	if (!isnan(ri->clock_hz))
		strbuf_addf(&sb, "%.17g", ri->clock_hz);
	return strbuf_detach(&sb);
}

/* The value of "name=" in an identity text, into buf ("-" if empty). */
static const char *identity_part(const char *id, const char *name,
				 char *buf, size_t len)
{
	size_t n = strlen(name);
	const char *p = id;

	snprintf(buf, len, "-");
	while (p && *p) {
		const char *e = strchr(p, '\n');
		size_t l = e ? (size_t)(e - p) : strlen(p);

		if (l > n && !strncmp(p, name, n) && p[n] == '=' && l > n + 1)
			snprintf(buf, len, "%.*s", (int)(l - n - 1), p + n + 1);
		p = e ? e + 1 : NULL;
	}
	return buf;
}

/* An earlier run of the same identity: refused, or deleted by replace.
 * A run from before schema 3 has no identity (NULL): its bytes alone
 * identify it, as they did when it was imported. */
static int check_dup(struct db_writer *w, const struct db_run_info *ri,
		     const char *identity)
{
	struct db_stmt *st = NULL;
	int rc = 0;
	int64_t id = 0;

	/* two importers of the same bytes: the second waits for the first
	 * and finds its run */
	if ((rc = db_lock_name(w->db, ri->sha256 ? ri->sha256 : "")) < 0)
		return rc;
	db_prepare(w->db, &rc, &st, "SELECT id, file_name, version, identity "
		   "FROM runs WHERE source_id = ? AND sha256 = ? AND "
		   "(identity = ? OR identity IS NULL) ORDER BY id LIMIT 1");
	if (rc)
		return rc;
	db_bind_int64(st, 1, w->source_id);
	db_bind_text(st, 2, ri->sha256);
	db_bind_text(st, 3, identity);
	if (db_step(st) == DB_ROW) {
		char wl[512];

		id = db_column_int64(st, 0);
		if (!ri->replace)
			rc = pc_error_set(PC_EEXISTS, "already imported as run "
				"%lld (file '%s', workload '%s', version '%s'); "
				"use --replace to replace it, or give a "
				"different --version, --workload, --param, "
				"--platform or --clock-mhz to import it as "
				"another run", (long long)id,
				db_column_text(st, 1), identity_part(
				db_column_null(st, 3) ? "" :
				db_column_text(st, 3), "workload", wl,
				sizeof(wl)), db_column_text(st, 2));
	}
	db_finalize(st);
	if (rc || !id)
		return rc;
	db_prepare(w->db, &rc, &st, "DELETE FROM runs WHERE id = ?");
	if (rc)
		return rc;
	db_bind_int64(st, 1, id);
	rc = step_done(w->db, st, "replacing run");
	db_finalize(st);
	return rc;
}

static int insert_run(struct db_writer *w, const struct db_run_info *ri,
		      const char *identity)
{
	struct db_stmt *st = NULL;
	int rc = 0;
	char now[32];

	util_now_iso(now, sizeof(now));
	db_prepare(w->db, &rc, &st, "INSERT INTO runs (source_id, version, "
		   "format, file_name, sha256, file_size, imported_at, "
		   "imported_by, identity) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
		   "RETURNING id");
	if (rc)
		return rc;
	db_bind_int64(st, 1, w->source_id);
	db_bind_text(st, 2, w->version);
	db_bind_text(st, 3, ri->format ? ri->format : "unknown");
	db_bind_text(st, 4, ri->file_name ? ri->file_name : "-");
	db_bind_text(st, 5, ri->sha256 ? ri->sha256 : "");
	db_bind_int64(st, 6, ri->file_size);
	db_bind_text(st, 7, now);
	db_bind_text(st, 8, util_user());
	db_bind_text(st, 9, identity);
	rc = db_step_id(w->db, st, "adding run", &w->run_id);
	db_finalize(st);
	return rc;
}

static int load_metrics(struct db_writer *w)
{
	struct db_stmt *st = NULL;
	int rc = 0;

	db_prepare(w->db, &rc, &st, "SELECT id, name, dimension FROM metrics");
	while (!rc && db_step(st) == DB_ROW) {
		struct metric_info *m;
		int64_t known;

		if (hmap_get(&w->metric_idx, db_column_text(st, 1), &known))
			continue;	/* loaded before (names_lock) */
		w->metrics = xgrow(w->metrics, &w->metrics_cap, w->nmetrics,
				   sizeof(*w->metrics));
		m = &w->metrics[w->nmetrics];
		m->id = db_column_int64(st, 0);
		m->dim = db_column_dup(st, 2);
		m->put = 0;	/* none of this import's results yet */
		hmap_put(&w->metric_idx, db_column_text(st, 1),
			 (int64_t)w->nmetrics++);
	}
	db_finalize(st);
	return rc;
}

int db_writer_begin(struct db_writer **out, struct db *db,
		    const struct db_run_info *ri)
{
	struct db_writer *w = xcalloc(1, sizeof(*w));
	char *identity;
	int rc;

	w->db = db;
	w->version = xstrdup(ri->version ? ri->version : "unversioned");
	w->version_set = ri->version != NULL;
	w->platform = ri->platform ? xstrdup(ri->platform) : NULL;
	w->platform_set = ri->platform != NULL;
	w->clock_hz = ri->clock_hz;
	w->clock_from_cli = !isnan(ri->clock_hz);
	hmap_init(&w->workloads);
	hmap_init(&w->ops);
	hmap_init(&w->metric_idx);
	hmap_init(&w->unit_idx);
	hmap_init(&w->acc_idx);
	wkey_init(&w->last_wk);
	strbuf_init(&w->meta);
	strbuf_init(&w->par_text);
	strbuf_init(&w->wl_text);
	hmap_init(&w->wl_queued);
	/* Every id the writer binds comes from its own inserts or lookups
	 * in this transaction, so per-row foreign-key checks (a parent
	 * lookup per key column, a third of the insert cost) prove nothing.
	 * A replace keeps them on: its delete relies on ON DELETE CASCADE.
	 * Engines switch them per connection, outside a transaction. */
	if (!ri->replace && db_fk_relax(db))
		w->fk_off = 1;
	if ((rc = db_begin(db)) < 0) {
		db_writer_abort(w);
		return rc;
	}
	identity = identity_text(ri);
	if ((rc = find_source(w, ri)) < 0 ||
	    (rc = check_dup(w, ri, identity)) < 0 ||
	    (rc = insert_run(w, ri, identity)) < 0 ||
	    (rc = load_metrics(w)) < 0) {
		free(identity);
		goto fail;
	}
	free(identity);
	rc = 0;
	if ((rc = wbatch_init(&w->batch, db, w->run_id)) < 0)
		goto fail;
	w->batch_ok = 1;
	db_prepare_bulk(db, &rc, &w->merge, "INSERT INTO results (run_id, "
		"workload_id, op_id, metric_id, value, n, mean, median, min, "
		"max, stddev, raw_value, raw_unit, flags, seq) "
		"VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
	db_prepare(db, &rc, &w->raw, "INSERT INTO op_raw_names (run_id, "
		"op_id, raw_name) VALUES (?, ?, ?) ON CONFLICT (run_id, "
		"raw_name) DO UPDATE SET instances = op_raw_names.instances "
		"+ 1");
	/* a workload or op new to this run: looked up once, inserted
	 * plainly when the database lacks it (statements prepared here,
	 * not an upsert prepared per workload) */
	db_prepare(db, &rc, &w->wl_find, "SELECT id FROM workloads WHERE "
		   "key = ?");
	db_prepare(db, &rc, &w->wl_ins, "INSERT INTO workloads (key, name, "
		   "params) VALUES (?, ?, ?) RETURNING id");
	db_prepare(db, &rc, &w->op_find, "SELECT id FROM ops WHERE name = ?");
	db_prepare(db, &rc, &w->op_ins, "INSERT INTO ops (name, class) "
		   "VALUES (?, ?) RETURNING id");
	if (!rc) {
		struct db_stmt *st = NULL;
		int64_t stored = 0, wls = 0;

		db_prepare(db, &rc, &st, "SELECT (SELECT coalesce(sum("
			   "n_results), 0) FROM runs), (SELECT coalesce("
			   "max(id), 0) FROM workloads)");
		if (!rc && db_step(st) == DB_ROW) {
			stored = db_column_int64(st, 0);
			wls = db_column_int64(st, 1);
		}
		db_finalize(st);
		w->wl_fresh = wls == 0;
		/* queued new workloads need the foreign keys off: a result
		 * or parameter may be stored before its workload */
		w->local_ids = w->fk_off && db_local_ids(db);
		w->next_wid = wls + 1;
		if (w->local_ids && wls == 0)
			w->wl_bloom = xcalloc(WL_BLOOM_BITS / 64,
					      sizeof(*w->wl_bloom));
		w->bulk_at[0] = stored > BULK_MIN_RESULTS ? (long)stored + 1 :
				BULK_MIN_RESULTS;
		w->bulk_at[1] = wls > BULK_MIN_WORKLOADS ? (long)wls + 1 :
				BULK_MIN_WORKLOADS;
	}
	if (rc)
		goto fail;
	*out = w;
	return 0;
fail:
	db_writer_abort(w);
	return rc;
}

static void meta_add(struct db_writer *w, const char *key, const char *val)
{
	if (w->meta.len)
		strbuf_addch(&w->meta, ',');
	strbuf_add_json_str(&w->meta, key);
	strbuf_addch(&w->meta, ':');
	strbuf_add_json_str(&w->meta, val);
}

int db_writer_meta(struct db_writer *w, const char *key, const char *value)
{
	if (!strcmp(key, "version") && !w->version_set) {
		free(w->version);
		w->version = xstrdup(value);
		w->version_set = 1;
	} else if (!strcmp(key, "platform") && !w->platform_set) {
		free(w->platform);
		w->platform = xstrdup(value);
		w->platform_set = 1;
	} else if (!strcmp(key, "clock_tolerance_hz")) {
		if (util_parse_double(value, &w->clock_tol) || w->clock_tol < 0)
			return pc_error_set(PC_EINVALID, "clock tolerance '%s' "
					    "is not a frequency", value);
	} else if (!strcmp(key, "clock_source")) {
		snprintf(w->clock_src, sizeof(w->clock_src), "%s", value);
	} else if (!strcmp(key, "clock_hz")) {
		double hz, tol, d;

		if (util_parse_double(value, &hz) || hz <= 0)
			return pc_error_set(PC_EINVALID, "clock '%s' is not a "
					    "positive frequency", value);
		/* a file writes its clock to a resolution (gem5: a whole
		 * number of picoseconds, 1.5 GHz is 667 ps = 1499.25 MHz):
		 * a --clock-mhz within it agrees, and the file's exact clock
		 * is kept; a larger difference is a conflict */
		tol = fmax(w->clock_tol, 1e-6 * hz);
		d = w->clock_from_cli ? fabs(hz - w->clock_hz) : 0;
		if (d > tol)
			return pc_error_set(PC_EINVALID, "the file's clock "
				"(%.10g MHz%s%s) conflicts with --clock-mhz %g: "
				"drop --clock-mhz, the file states its clock",
				hz / 1e6, *w->clock_src ? ", from " : "",
				w->clock_src, w->clock_hz / 1e6);
		if (d > 1e-9 * hz) {
			snprintf(w->note, sizeof(w->note), "keeping the file's "
				 "clock %.10g MHz%s%s: --clock-mhz %g agrees "
				 "within the file's resolution (%.4g MHz)",
				 hz / 1e6, *w->clock_src ? ", from " : "",
				 w->clock_src, w->clock_hz / 1e6, tol / 1e6);
			w->clock_hz = hz;
			return 1;
		}
		w->clock_hz = hz;
	} else {
		meta_add(w, key, value);
	}
	return 0;
}

int64_t db_writer_run_id(const struct db_writer *w)
{
	return w->run_id;
}

const char *db_writer_meta_text(const struct db_writer *w)
{
	return strbuf_str(&w->meta);
}

int64_t db_writer_source_id(const struct db_writer *w)
{
	return w->source_id;
}

static int acc_store(struct db_writer *w);
static int params_flush(struct db_writer *w);
static int wl_flush(struct db_writer *w);

/* Index i of bulk_index[] goes for the rest of the import (bulk_at). */
static int bulk_drop(struct db_writer *w, int i)
{
	int rc = db_index_suspend(w->db, bulk_index[i], &w->bulk_sql[i]);

	return rc < 0 ? rc : 0;
}

/* The batch found a repeated key (b->dup): the message it had when the
 * key was checked at its own result, names read back by id. */
static int dup_error(struct db_writer *w)
{
	const struct wbatch_row *r = &w->batch.dup;
	struct db_stmt *st = NULL;
	int rc = wl_flush(w);

	db_prepare(w->db, &rc, &st, "SELECT (SELECT key FROM workloads WHERE "
		   "id = ?1), (SELECT name FROM ops WHERE id = ?2), (SELECT "
		   "name FROM metrics WHERE id = ?3)");
	if (rc)
		return rc;
	db_bind_int64(st, 1, r->wid);
	db_bind_int64(st, 2, r->oid);
	db_bind_int64(st, 3, r->mid);
	if (db_step(st) != DB_ROW) {
		rc = db_fail(w->db, "naming a duplicate result");
	} else {
		rc = pc_error_set(PC_EINVALID, "duplicate result for workload "
			"'%s', op '%s', metric '%s'", db_column_text(st, 0),
			db_column_text(st, 1), db_column_text(st, 2));
		w->dup_found = 1;
		w->dup_line = r->line;
	}
	db_finalize(st);
	return rc;
}

/* Store the queued results; a repeated key among them is the error. */
static int batch_flush(struct db_writer *w)
{
	int rc = wbatch_flush(&w->batch);

	return rc == 1 ? dup_error(w) : rc;
}

int db_writer_settle(struct db_writer *w, long *line)
{
	char *msg;
	enum pc_cause cause;

	if (!w)
		return 0;
	if (!w->dup_found && w->batch_ok && !w->batch_err && w->batch.n) {
		msg = xstrdup(pc_error_last());
		cause = pc_error_last_cause();
		if (batch_flush(w) < 0 && !w->dup_found)
			w->batch_err = PC_EDB;
		if (!w->dup_found) {
			pc_error_set(PC_EINVALID, "%s", msg);
			pc_error_cause(cause);
		}
		free(msg);
	}
	if (!w->dup_found)
		return 0;
	w->dup_found = 0;
	*line = w->dup_line;
	return 1;
}

int db_writer_input_done(struct db_writer *w)
{
	return acc_store(w);
}

struct db *db_writer_db(struct db_writer *w)
{
	/* the caller may query what this run stored: store the batch */
	if (w->batch_ok && !w->batch_err)
		w->batch_err = batch_flush(w);
	if (w->batch_ok && !w->batch_err)
		w->batch_err = params_flush(w);
	if (w->batch_ok && !w->batch_err)
		w->batch_err = wl_flush(w);
	return w->db;
}

int db_writer_put_metric(const struct db_writer *w, const char *name)
{
	int64_t idx;

	return hmap_get(&w->metric_idx, name, &idx) && w->metrics[idx].put;
}

const char *db_writer_note(const struct db_writer *w)
{
	return w->note;
}

double db_writer_clock(const struct db_writer *w)
{
	return w->clock_hz;
}

static int wkey_same(const struct wkey *a, const struct wkey *b)
{
	if (a->n != b->n || !a->name != !b->name ||
	    (a->name && strcmp(a->name, b->name)))
		return 0;
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->params[i].name, b->params[i].name) ||
		    strcmp(a->params[i].value, b->params[i].value))
			return 0;
	return 1;
}

/* Step a prepared lookup of one id (bound by the caller):
 * 1 and *id when found, 0 when not, or the error. */
static int find_id(struct db *db, struct db_stmt *st, const char *what,
		   int64_t *id)
{
	int step = db_step(st);

	if (step == DB_ROW)
		*id = db_column_int64(st, 0);
	db_reset(st);
	if (step != DB_ROW && step != DB_DONE)
		return db_fail(db, what);
	return step == DB_ROW;
}

/* Store the queued workload parameters (one INSERT). */
static int params_flush(struct db_writer *w)
{
	size_t n = w->npar;
	struct db_stmt **st = &w->wl_par[n];
	int rc = 0;

	if (!n)
		return 0;
	if (!*st) {
		struct strbuf sql = STRBUF_INIT;

		strbuf_addstr(&sql, "INSERT INTO workload_params (workload_id, "
			      "name, value) VALUES ");
		for (size_t j = 0; j < n; j++)
			strbuf_addstr(&sql, j ? ",(?,?,?)" : "(?,?,?)");
		strbuf_addstr(&sql, " ON CONFLICT DO NOTHING");
		db_prepare(w->db, &rc, st, sql.buf);
		strbuf_release(&sql);
		if (rc)
			return rc;
	}
	for (size_t j = 0; j < n; j++) {
		const struct par_row *p = &w->par[j];

		db_bind_int64(*st, (int)j * 3 + 1, p->wid);
		db_bind_text_static(*st, (int)j * 3 + 2, w->par_text.buf +
				    p->name);
		db_bind_text_static(*st, (int)j * 3 + 3, w->par_text.buf +
				    p->value);
	}
	rc = step_done(w->db, *st, "adding workload parameter");
	w->npar = 0;
	strbuf_reset(&w->par_text);
	return rc;
}

static int wl_cmp(const void *a, const void *b)
{
	const struct wl_row *x = a, *y = b;

	return strcmp(x->k, y->k);
}

/* Store the queued new workloads, sorted by key (wl_row). */
static int wl_flush(struct db_writer *w)
{
	const char *t = w->wl_text.buf;
	int rc = 0;

	if (!w->nwlq)
		return 0;
	for (size_t i = 0; i < w->nwlq; i++)
		w->wlq[i].k = t + w->wlq[i].key;
	qsort(w->wlq, w->nwlq, sizeof(*w->wlq), wl_cmp);
	for (size_t i = 0; i < w->nwlq && !rc; i += WL_ROWS) {
		size_t n = w->nwlq - i < WL_ROWS ? w->nwlq - i : WL_ROWS;
		struct db_stmt *st = n == WL_ROWS ? w->wl_many : NULL;

		if (!st) {
			struct strbuf sql = STRBUF_INIT;

			strbuf_addstr(&sql, "INSERT INTO workloads (id, key, "
				      "name, params) VALUES ");
			for (size_t j = 0; j < n; j++)
				strbuf_addstr(&sql, j ? ",(?,?,?,?)" :
					      "(?,?,?,?)");
			db_prepare_bulk(w->db, &rc, &st, sql.buf);
			strbuf_release(&sql);
			if (rc)
				break;
			if (n == WL_ROWS)
				w->wl_many = st;
		}
		for (size_t j = 0; j < n; j++) {
			const struct wl_row *q = &w->wlq[i + j];
			int o = (int)j * 4;

			db_bind_int64(st, o + 1, q->id);
			db_bind_text_static(st, o + 2, t + q->key);
			db_bind_text_static(st, o + 3, t + q->name);
			db_bind_text_static(st, o + 4, t + q->params);
		}
		rc = step_done(w->db, st, "adding workload");
		if (st != w->wl_many)
			db_finalize(st);
	}
	w->nwlq = 0;
	strbuf_reset(&w->wl_text);
	hmap_release(&w->wl_queued);
	hmap_init(&w->wl_queued);
	return rc;
}

/* The filter's probes of key (WL_BLOOM_BITS): FNV-1a, split in two for
 * double hashing. */
static void bloom_probes(const char *key, uint32_t p[4])
{
	uint64_t h = 14695981039346656037u;

	for (const unsigned char *c = (const unsigned char *)key; *c; c++)
		h = (h ^ *c) * 1099511628211u;
	h ^= h >> 29;
	for (uint32_t i = 0, a = (uint32_t)h, b = (uint32_t)(h >> 32) | 1;
	     i < 4; i++)
		p[i] = (a + i * b) & (WL_BLOOM_BITS - 1);
}

/* 0 when no workload with this key was added by this import. */
static int bloom_has(const uint64_t *f, const char *key)
{
	uint32_t p[4];

	bloom_probes(key, p);
	for (int i = 0; i < 4; i++)
		if (!(f[p[i] / 64] >> (p[i] % 64) & 1))
			return 0;
	return 1;
}

static void bloom_add(uint64_t *f, const char *key)
{
	uint32_t p[4];

	bloom_probes(key, p);
	for (int i = 0; i < 4; i++)
		f[p[i] / 64] |= (uint64_t)1 << (p[i] % 64);
}

/* A new workload: its id now, its row queued (wl_flush). */
static int wl_queue(struct db_writer *w, const struct wkey *k,
		    const char *key, int64_t *out)
{
	struct wl_row *q;
	char *params;
	int rc;

	if (w->nwlq == WL_QUEUE && (rc = wl_flush(w)) < 0)
		return rc;
	if (!w->wlq)
		w->wlq = xmalloc(WL_QUEUE * sizeof(*w->wlq));
	q = &w->wlq[w->nwlq++];
	q->id = *out = w->next_wid++;
	q->key = w->wl_text.len;
	strbuf_add(&w->wl_text, key, strlen(key) + 1);
	q->name = w->wl_text.len;
	strbuf_add(&w->wl_text, k->name, strlen(k->name) + 1);
	params = wkey_params_json(k);
	q->params = w->wl_text.len;
	strbuf_add(&w->wl_text, params, strlen(params) + 1);
	free(params);
	hmap_put(&w->wl_queued, key, q->id);
	if (w->wl_bloom)
		bloom_add(w->wl_bloom, key);
	return 0;
}

/* The parameters of workload id: queued (params_flush). */
static int workload_params(struct db_writer *w, const struct wkey *k,
			   int64_t id)
{
	int rc;

	for (size_t i = 0; i < k->n; i++) {
		struct par_row *p;

		if (w->npar == WL_PAR_ROWS && (rc = params_flush(w)) < 0)
			return rc;
		p = &w->par[w->npar++];
		p->wid = id;
		p->name = w->par_text.len;
		strbuf_add(&w->par_text, k->params[i].name,
			   strlen(k->params[i].name) + 1);
		p->value = w->par_text.len;
		strbuf_add(&w->par_text, k->params[i].value,
			   strlen(k->params[i].value) + 1);
	}
	return 0;
}

/* A workload, op or metric new to the database is inserted under one
 * lock on the names (db_lock_name), taken at the import's first new
 * name and held to its end. On PostgreSQL importers run side by side:
 * without it, two first imports of the same names fail on each other's
 * uncommitted key ("duplicate key value violates unique constraint"),
 * and per-name locks taken in different orders would deadlock. With it,
 * importers that add names run one after the other from their first
 * new name on; importers of known names never wait. SQLite's write
 * transaction already excludes every other writer. Returns 1 when the
 * lock was just taken: what this import looked up before it may have
 * been stored since by an import that has committed, so the metrics are
 * loaded again here, the caller looks its name up again, and a "fresh"
 * database may no longer be fresh. */
static int names_lock(struct db_writer *w)
{
	struct db_stmt *st = NULL;
	int rc = 0;

	if (w->names_locked)
		return 0;
	if ((rc = db_lock_name(w->db, "perfcorr: workload, op and metric "
			       "names")) < 0)
		return rc;
	w->names_locked = 1;
	if ((rc = load_metrics(w)) < 0)	/* the metrics known at begin */
		return rc;
	if (w->wl_fresh) {
		db_prepare(w->db, &rc, &st, "SELECT count(*) FROM (SELECT 1 "
			   "FROM workloads LIMIT 1) AS t");
		if (!rc && db_step(st) == DB_ROW)
			w->wl_fresh = db_column_int64(st, 0) == 0;
		else if (!rc)
			rc = db_fail(w->db, "finding workloads");
		db_finalize(st);
	}
	return rc < 0 ? rc : 1;
}

/* The id of the workload with canonical key `key`: found in the
 * database (unless none was stored before this import), or inserted
 * with its parameters. */
static int workload_insert(struct db_writer *w, const struct wkey *k,
			   const char *key, int64_t *out)
{
	struct db_stmt *st = w->wl_find;
	int rc;

	/* queued by this import: its parameters too */
	if (w->nwlq && hmap_get(&w->wl_queued, key, out))
		return 0;
	db_bind_text(st, 1, key);
	if (w->wl_fresh || (w->wl_bloom && !bloom_has(w->wl_bloom, key)))
		rc = 0;
	else if ((rc = find_id(w->db, st, "finding workload", out)) < 0)
		return rc;
	if (!rc && (rc = names_lock(w)) > 0) {
		db_bind_text(st, 1, key);
		rc = w->wl_fresh ? 0 : find_id(w->db, st, "finding workload",
					       out);
	}
	if (rc < 0)
		return rc;
	if (!rc) {	/* new: queued with its id (SQLite) or inserted */
		if (w->local_ids) {
			rc = wl_queue(w, k, key, out);
		} else {
			char *params = wkey_params_json(k);

			st = w->wl_ins;
			db_bind_text(st, 1, key);
			db_bind_text(st, 2, k->name);
			db_bind_text(st, 3, params);
			rc = db_step_id(w->db, st, "adding workload", out);
			free(params);
		}
		if (rc)
			return rc;
		if (++w->new_wl == w->bulk_at[1] && (rc = bulk_drop(w, 1)) < 0)
			return rc;
	}
	return workload_params(w, k, *out);
}

/* The workload and op id caches hold at most this many names: they are
 * caches, not the truth (the database is asked for a name not cached),
 * so a file of millions of distinct workloads imports in bounded memory
 * instead of ~80 bytes per name (docs/service.md, "Memory"). 4096, not
 * 65536: with src/import.c's record cache of the same size the two held
 * ~260 B per workload, 13 MB at 50k workloads (a 10M-row kernel CSV:
 * peak RSS 35 MB against 17 MB for its first 40 MB); a kernel file's
 * rows come grouped by workload and a sweep's keys come back within a
 * few hundred rows, so a hit needs only the recent keys. A file that
 * cycles through more workloads than this (op-major order) misses on
 * every row: measured at 1M rows x 5000 workloads, no slower than with
 * 65536 (2026-12-02: the results B-tree's scattered inserts dominate). */
#define CACHE_MAX 4096

static void cache_put(struct hmap *m, const char *key, int64_t id)
{
	if (m->len >= CACHE_MAX) {
		hmap_release(m);
		hmap_init(m);
	}
	hmap_put(m, key, id);
}

/* Importers send runs of results with one workload: comparing the wkey
 * with the last one is much cheaper than formatting its key per result. */
static int workload_id(struct db_writer *w, const struct wkey *k,
		       int64_t *out)
{
	char *key;
	int rc;

	if (w->last_wkey && wkey_same(k, &w->last_wk)) {
		*out = w->last_wid;
		return 0;
	}
	key = wkey_format(k);
	if (!*key || !k->name || !*k->name) {
		rc = pc_error_set(PC_EINVALID, "no workload%s: give one in the "
				  "file or with --workload", *key ? " name" :
				  "");
		free(key);
		return rc;
	}
	if (!hmap_get(&w->workloads, key, out)) {
		if ((rc = workload_insert(w, k, key, out)) < 0) {
			free(key);
			return rc;
		}
		/* the cache starts over: a key it forgets may come back, and
		 * is then looked up (a fresh database has it now) */
		if (w->workloads.len >= CACHE_MAX)
			w->wl_fresh = 0;
		cache_put(&w->workloads, key, *out);
	}
	free(w->last_wkey);
	w->last_wkey = key;
	wkey_copy(&w->last_wk, k);
	w->last_wid = *out;
	return 0;
}

void db_writer_last_workload(const struct db_writer *w, int64_t *id,
			     const char **key)
{
	*id = w->last_wkey ? w->last_wid : 0;
	*key = w->last_wkey;
}

static const char *op_class(const char *op, char *buf, size_t len)
{
	static const struct {
		const char *needle, *cls;
	} fam[] = {
		{ "gemm", "gemm" }, { "matmul", "gemm" }, { "linear", "gemm" },
		{ "qkv", "gemm" }, { "proj", "gemm" }, { "lm_head", "gemm" },
		{ "attn", "attention" }, { "attention", "attention" },
		{ "allreduce", "comm" }, { "all_reduce", "comm" },
		{ "allgather", "comm" }, { "nccl", "comm" }, { "comm", "comm" },
		{ "norm", "norm" }, { "softmax", "softmax" },
		{ "mlp", "mlp" }, { "ffn", "mlp" }, { "e2e", "e2e" },
	};
	size_t i;

	for (i = 0; i < sizeof(fam) / sizeof(fam[0]); i++)
		if (strstr(op, fam[i].needle))
			return fam[i].cls;
	for (i = 0; op[i] && op[i] != '_' && op[i] != '.' && i < len - 1; i++)
		buf[i] = op[i];
	buf[i] = '\0';
	return buf;
}

static int op_id(struct db_writer *w, const char *op, int64_t *out)
{
	struct db_stmt *st = w->op_find;
	int rc;
	char buf[64];

	if (hmap_get(&w->ops, op, out))
		return 0;
	if (!*op)
		return pc_error_set(PC_EINVALID, "empty op name");
	db_bind_text(st, 1, op);
	if ((rc = find_id(w->db, st, "finding op", out)) < 0)
		return rc;
	if (!rc && (rc = names_lock(w)) > 0) {
		db_bind_text(st, 1, op);
		rc = find_id(w->db, st, "finding op", out);
	}
	if (rc < 0)
		return rc;
	if (!rc) {
		st = w->op_ins;
		db_bind_text(st, 1, op);
		db_bind_text(st, 2, op_class(op, buf, sizeof(buf)));
		if ((rc = db_step_id(w->db, st, "adding op", out)))
			return rc;
	}
	cache_put(&w->ops, op, *out);
	return 0;
}

static int metric_id(struct db_writer *w, const char *metric,
		     const struct unit *u, int64_t *out)
{
	struct db_stmt *st = NULL;
	int64_t idx;
	int rc = 0;
	const char *better;

	if (hmap_get(&w->metric_idx, metric, &idx)) {
		const char *dim = w->metrics[idx].dim;

		if (strcmp(dim, u->dim) &&
		    !(!strcmp(dim, "ratio") && !strcmp(u->dim, "count")))
			return pc_error_set(PC_EINVALID, "unit '%s' is %s, but "
				"metric '%s' is %s%s", u->name, u->dim, metric,
				dim, !strcmp(u->dim, "cycles") ?
				" (use metric 'cycles')" : "");
		*out = w->metrics[idx].id;
		w->metrics[idx].put = 1;
		return 0;
	}
	if (!*metric)
		return pc_error_set(PC_EINVALID, "empty metric name");
	/* another import may have committed it since they were loaded */
	if ((rc = names_lock(w)) > 0 &&
	    hmap_get(&w->metric_idx, metric, &idx))
		return metric_id(w, metric, u, out);
	if (rc < 0)
		return rc;
	rc = 0;
	better = !strcmp(u->dim, "rate") || !strcmp(u->dim, "efficiency") ||
		 !strcmp(u->dim, "flop_rate") || !strcmp(u->dim, "bandwidth") ?
		 "higher" : "lower";
	db_prepare(w->db, &rc, &st, "INSERT INTO metrics (name, dimension, "
		   "unit, better) VALUES (?, ?, ?, ?) RETURNING id");
	if (rc)
		return rc;
	db_bind_text(st, 1, metric);
	db_bind_text(st, 2, u->dim);
	db_bind_text(st, 3, u->si);
	db_bind_text(st, 4, better);
	rc = db_step_id(w->db, st, "adding metric", out);
	db_finalize(st);
	if (rc)
		return rc;
	w->metrics = xgrow(w->metrics, &w->metrics_cap, w->nmetrics,
			   sizeof(*w->metrics));
	w->metrics[w->nmetrics].id = *out;
	w->metrics[w->nmetrics].dim = xstrdup(u->dim);
	w->metrics[w->nmetrics].put = 1;
	hmap_put(&w->metric_idx, metric, (int64_t)w->nmetrics++);
	return 0;
}

static double to_si(double v, double f)
{
	return isnan(v) ? v : units_to_si(v, f);
}

static int nonneg_dim(const char *dim)
{
	static const char *const d[] = { "time", "cycles", "energy", "bytes",
		"flops", "power", "rate", "efficiency", "bandwidth",
		"flop_rate", "frequency", NULL };

	for (int i = 0; d[i]; i++)
		if (!strcmp(d[i], dim))
			return 1;
	return 0;
}

static int check_stat(const char *what, double v)
{
	if (isinf(v))
		return pc_error_set(PC_EINVALID, "%s is not finite", what);
	return 0;
}

/* n is a count of samples: a whole number a double holds exactly. */
#define N_MAX 9007199254740992.0	/* 2^53 */

/* One statistic v inside [min, max] (either may be unknown), with a
 * relative slack of 1e-9 for a mean or median computed in floating
 * point. */
static int in_range(const char *what, double v, double lo, double hi)
{
	double slack = 1e-9 * fmax(isnan(lo) ? 0 : fabs(lo),
				   isnan(hi) ? 0 : fabs(hi));

	if (isnan(v))
		return 0;
	if (!isnan(lo) && v < lo - slack)
		return pc_error_set(PC_EINVALID, "%s %.17g is below min %.17g",
				    what, v, lo);
	if (!isnan(hi) && v > hi + slack)
		return pc_error_set(PC_EINVALID, "%s %.17g is above max %.17g",
				    what, v, hi);
	return 0;
}

/* Values that are not values: a sample count that is negative, not
 * whole or too large to count, min > max, a value outside [min, max]. */
static int check_sample(const struct db_result_in *r)
{
	int rc;

	if (!isnan(r->n) && (r->n < 0 || r->n != floor(r->n) ||
			     r->n > N_MAX))
		return pc_error_set(PC_EINVALID, "n %.17g is not a count of "
				    "samples (a whole number from 0 to 2^53)",
				    r->n);
	if (!isnan(r->min) && !isnan(r->max) && r->min > r->max)
		return pc_error_set(PC_EINVALID, "min %.17g is above max "
				    "%.17g", r->min, r->max);
	if ((rc = in_range("value", r->value, r->min, r->max)) < 0 ||
	    (rc = in_range("mean", r->mean, r->min, r->max)) < 0 ||
	    (rc = in_range("median", r->median, r->min, r->max)) < 0)
		return rc;
	return 0;
}

/* units_lookup() scans the unit table; a result's unit is one of a few. */
static const struct unit *unit_cached(struct db_writer *w, const char *name)
{
	const struct unit *u;
	int64_t i;

	if (hmap_get(&w->unit_idx, name, &i))
		return units_at((int)i);
	u = units_resolve(name);
	for (i = 0; u && units_at((int)i); i++)
		if (units_at((int)i) == u) {
			hmap_put(&w->unit_idx, name, i);
			break;
		}
	return u;
}

static struct macc *acc_find(struct db_writer *w, int64_t wid, int64_t oid,
			     int64_t mid, const struct unit *u, const char *op,
			     const char *metric)
{
	char key[80];
	int64_t i;
	struct macc *a;

	snprintf(key, sizeof(key), "%lld:%lld:%lld", (long long)wid,
		 (long long)oid, (long long)mid);
	if (hmap_get(&w->acc_idx, key, &i))
		return &w->acc[i];
	if (w->nacc == w->capacc) {
		w->capacc = w->capacc ? w->capacc * 2 : 64;
		w->acc = xrealloc(w->acc, w->capacc * sizeof(*w->acc));
	}
	a = &w->acc[w->nacc];
	memset(a, 0, sizeof(*a));
	a->wid = wid;
	a->oid = oid;
	a->mid = mid;
	a->u0 = u;
	a->what = xasprintf("workload '%s', op '%s', metric '%s'",
			    w->cur_key ? w->cur_key : "", op, metric);
	a->min = INFINITY;
	a->max = -INFINITY;
	hmap_put(&w->acc_idx, key, (int64_t)w->nacc);
	return &w->acc[w->nacc++];
}

/* A merged result: added to its key's accumulator (writer.h). Values are
 * kept in the unit of the key's first row. */
static int put_merge(struct db_writer *w, const struct db_result_in *r,
		     const struct unit *u, int64_t wid, int64_t oid,
		     int64_t mid)
{
	struct macc *a = acc_find(w, wid, oid, mid, u, r->op, r->metric);
	double f = u->factor / a->u0->factor, v = r->value * f;
	int counted = !isnan(r->n);

	if (w->acc_done)
		return pc_error_set(PC_EINVALID, "%s: merged after the run "
				    "was stored", a->what);
	if (a->rows && counted != a->counted)
		return pc_error_set(PC_EINVALID, "%s: '%s' %s a launch count "
			"but the earlier rows merged into this op %s: rows "
			"with and without counts cannot be one op (map them "
			"to different ops)", a->what, r->raw_name ? r->raw_name :
			r->op, counted ? "has" : "has no",
			a->counted ? "have one" : "do not");
	if (counted && !(r->n > 0))
		return pc_error_set(PC_EINVALID, "%s: launch count %g is not "
				    "positive", a->what, r->n);
	a->counted = counted;
	a->flags |= r->flags;
	if (!counted) {
		a->s_value += v;
		a->s_mean += r->mean * f;
		a->s_min += r->min * f;
		a->s_max += r->max * f;
		a->s_var += r->stddev * f * r->stddev * f;
		a->s_median = a->rows ? NAN : r->median * f;
	} else if (r->stage) {
		double t = isnan(r->total) ? v * r->n : r->total * f;

		a->st_total += t;
		a->st_var += r->stddev * f * r->stddev * f;
		a->stages++;
	} else {
		double t = isnan(r->total) ? v * r->n : r->total * f;
		double sd = r->stddev * f, m2 = (r->n - 1) * sd * sd;
		double n0 = a->n, d = v - a->mean;

		/* Chan et al.: the pooled sum of squared deviations of the
		 * union is m2a + m2b + d^2 * na * nb / (na + nb) */
		if (n0 > 0)
			m2 += a->m2 + d * d * n0 * r->n / (n0 + r->n);
		a->m2 = m2;
		a->n = n0 + r->n;
		a->mean += d * r->n / a->n;
		a->total += t;
		a->min = fmin(a->min, r->min * f);
		a->max = fmax(a->max, r->max * f);
		if (isnan(r->min) || (a->rows && isnan(a->min)))
			a->min = NAN;
		if (isnan(r->max) || (a->rows && isnan(a->max)))
			a->max = NAN;
		a->median = a->rows - a->stages ? NAN : r->median * f;
		a->sd1 = sd;
	}
	a->rows++;
	return 0;
}

static int acc_insert(struct db_writer *w, const struct macc *a, int64_t mid,
		      double value, double n, double mean, double median,
		      double min, double max, double sd)
{
	struct db_stmt *st = w->merge;
	double f = a->u0->factor;
	int rc, uniq;

	db_bind_int64(st, 1, w->run_id);
	db_bind_int64(st, 2, a->wid);
	db_bind_int64(st, 3, a->oid);
	db_bind_int64(st, 4, mid);
	db_bind_double(st, 5, to_si(value, f));
	if (isnan(n))
		db_bind_null(st, 6);
	else
		db_bind_int64(st, 6, (int64_t)llround(n));
	db_bind_double(st, 7, to_si(mean, f));
	db_bind_double(st, 8, to_si(median, f));
	db_bind_double(st, 9, to_si(min, f));
	db_bind_double(st, 10, to_si(max, f));
	db_bind_double(st, 11, to_si(sd, f));
	db_bind_double(st, 12, value);
	db_bind_text_static(st, 13, a->u0->name);
	db_bind_int(st, 14, (int)a->flags);
	db_bind_int64(st, 15, ++w->batch.seq);
	rc = db_step(st);
	uniq = rc != DB_DONE && db_unique_violation(w->db);
	db_reset(st);
	if (uniq)
		return pc_error_set(PC_EINVALID, "%s: a result read as it is "
			"and results merged into it (kernels mapped to the "
			"op): rename the op or the mapping rule", a->what);
	if (rc != DB_DONE)
		return db_fail(w->db, "storing result");
	w->results++;
	return 0;
}

/* Store every merged result (writer.h): once, after the importer. */
static int acc_store(struct db_writer *w)
{
	int64_t ktime = 0, time_id = -1, idx;
	int rc = 0;

	if (w->acc_done)
		return 0;
	if (hmap_get(&w->metric_idx, "time", &idx))
		time_id = w->metrics[idx].id;
	w->acc_done = 1;
	if ((rc = batch_flush(w)) < 0)
		return rc;
	/* what comes now (derived results) is stored as it comes, so that
	 * its caller names a duplicate */
	w->batch.eager = 1;
	for (size_t i = 0; i < w->nacc && !rc; i++) {
		const struct macc *a = &w->acc[i];
		double value, sd, mean;

		if (!a->counted) {
			if (a->rows == 1)
				rc = acc_insert(w, a, a->mid, a->s_value, NAN,
					a->s_mean, a->s_median, a->s_min,
					a->s_max, sqrt(a->s_var));
			else
				rc = acc_insert(w, a, a->mid, a->s_value, NAN,
					a->s_mean, NAN, a->s_min, a->s_max,
					sqrt(a->s_var));
			continue;
		}
		if (a->n <= 0) {
			rc = pc_error_set(PC_EINVALID, "%s: only stage kernels "
				"(mapping rules with \"stage\": true) and no "
				"kernel that counts the calls of the op", a->what);
			break;
		}
		/* one row, no stage: the tool's own value and statistics */
		if (a->rows == 1) {
			value = mean = a->mean;
			sd = a->sd1;
		} else {
			value = mean = (a->total + a->st_total) / a->n;
			sd = a->n > 1 ? sqrt(a->m2 / (a->n - 1)) : 0;
		}
		if (a->stages)
			sd = sqrt(sd * sd + a->st_var);
		rc = acc_insert(w, a, a->mid, value, a->n, mean,
				a->stages ? NAN : a->median,
				a->stages ? NAN : a->min,
				a->stages ? NAN : a->max, sd);
		if (rc || a->mid != time_id)
			continue;
		if (!ktime &&
		    (rc = metric_id(w, "kernel_time", a->u0, &ktime)) < 0)
			break;
		rc = acc_insert(w, a, ktime, a->total + a->st_total, NAN, NAN,
				NAN, NAN, NAN, NAN);
	}
	return rc;
}

/* An export read back: its raw value and unit must be the value. */
static int check_raw(struct db_writer *w, const struct db_result_in *r,
		     const struct unit *u)
{
	const struct unit *ru = unit_cached(w, r->raw_unit);
	double si = to_si(r->value, u->factor), rsi;

	/* a count labelled with the tool's own word ("warp") */
	if (!ru && !strcmp(u->dim, "count") && r->raw_value == r->value)
		ru = units_word(r->raw_unit);
	if (!ru)
		return pc_error_set(PC_EINVALID, "unknown raw unit '%s'",
				    r->raw_unit);
	if (strcmp(ru->dim, u->dim) &&
	    !(!strcmp(ru->dim, "ratio") && !strcmp(u->dim, "count")) &&
	    !(!strcmp(ru->dim, "count") && !strcmp(u->dim, "ratio")))
		return pc_error_set(PC_EINVALID, "raw unit '%s' is %s, unit "
			"'%s' is %s", ru->name, ru->dim, u->name, u->dim);
	if (!isfinite(r->raw_value))
		return pc_error_set(PC_EINVALID, "raw value is not finite");
	rsi = to_si(r->raw_value, ru->factor);
	if (fabs(rsi - si) > 1e-9 * fmax(fabs(si), fabs(rsi)))
		return pc_error_set(PC_EINVALID, "raw value %.17g %s is not "
			"value %.17g %s", r->raw_value, ru->name, r->value,
			u->name);
	return 0;
}

int db_writer_put(struct db_writer *w, const struct db_result_in *r)
{
	const struct unit *u = unit_cached(w, r->unit ? r->unit : ""), *mu;
	int64_t wid = 0, oid = 0, mid = 0;
	double f;
	int rc;

	w->puts++;
	if (!u)
		return pc_error_set(PC_EINVALID, "unknown unit '%s'", r->unit);
	if (!isfinite(r->value))
		return pc_error_set(PC_EINVALID, "value is not finite");
	if (r->value < 0 && nonneg_dim(u->dim))
		return pc_error_set(PC_EINVALID, "negative %s %g", u->dim,
				    r->value);
	if ((rc = check_stat("n", r->n)) || (rc = check_stat("mean", r->mean)) ||
	    (rc = check_stat("median", r->median)) ||
	    (rc = check_stat("min", r->min)) || (rc = check_stat("max", r->max)) ||
	    (rc = check_stat("stddev", r->stddev)))
		return rc;
	if (r->stddev < 0)
		return pc_error_set(PC_EINVALID, "negative stddev %g", r->stddev);
	if ((rc = check_sample(r)) < 0)
		return rc;
	if (r->raw_unit && (rc = check_raw(w, r, u)) < 0)
		return rc;
	/* a new metric takes its dimension from the unit; a fraction read
	 * back in SI ("1") keeps the ratio of its raw "%" */
	mu = r->raw_unit ? unit_cached(w, r->raw_unit) : u;
	if (strcmp(mu->dim, "ratio") || strcmp(u->dim, "count"))
		mu = u;
	if (r->workload_id > 0) {
		/* resolved by the caller from an earlier result */
		wid = r->workload_id;
		w->cur_key = r->workload_key;
	} else if ((rc = workload_id(w, r->workload, &wid)) < 0) {
		return rc;
	} else {
		w->cur_key = w->last_wkey;
	}
	if ((rc = op_id(w, r->op, &oid)) < 0 ||
	    (rc = metric_id(w, r->metric, mu, &mid)) < 0)
		return rc;
	f = u->factor;
	if (r->raw_unit && r->merge)
		return pc_error_set(PC_EINVALID, "a raw value is given for a "
				    "result merged into an op");
	if (!r->merge) {
		const struct unit *ru = r->raw_unit ?
					unit_cached(w, r->raw_unit) : u;
		struct wbatch_row row = { wid, oid, mid, to_si(r->value, f),
			r->n, to_si(r->mean, f), to_si(r->median, f),
			to_si(r->min, f), to_si(r->max, f), to_si(r->stddev, f),
			r->raw_unit ? r->raw_value : r->value, ru->name,
			r->flags, r->line };

		/* a repeated key is found when the batch is stored: then it
		 * is this result's or one queued before it (dup_line) */
		if ((rc = wbatch_add(&w->batch, &row)) == 1)
			return dup_error(w);
		if (rc < 0)
			return rc;
		if (++w->results == w->bulk_at[0] &&
		    (rc = bulk_drop(w, 0)) < 0)
			return rc;
	} else if ((rc = put_merge(w, r, u, wid, oid, mid)) < 0) {
		return rc;
	}
	if (r->raw_name && *r->raw_name) {
		db_bind_int64(w->raw, 1, w->run_id);
		db_bind_int64(w->raw, 2, oid);
		db_bind_text(w->raw, 3, r->raw_name);
		if ((rc = step_done(w->db, w->raw, "storing raw name")) < 0)
			return rc;
	}
	return 0;
}

static void writer_free(struct db_writer *w)
{
	if (w->fk_off)
		db_fk_restore(w->db);
	if (w->batch_ok)
		wbatch_release(&w->batch);
	db_finalize(w->merge);
	db_finalize(w->raw);
	db_finalize(w->wl_find);
	db_finalize(w->wl_ins);
	db_finalize(w->wl_many);
	free(w->wlq);
	free(w->wl_bloom);
	strbuf_release(&w->wl_text);
	hmap_release(&w->wl_queued);
	for (int i = 0; i <= WL_PAR_ROWS; i++)
		db_finalize(w->wl_par[i]);
	db_finalize(w->op_find);
	db_finalize(w->op_ins);
	hmap_release(&w->workloads);
	hmap_release(&w->ops);
	hmap_release(&w->metric_idx);
	hmap_release(&w->unit_idx);
	hmap_release(&w->acc_idx);
	for (size_t i = 0; i < w->nacc; i++)
		free(w->acc[i].what);
	free(w->acc);
	wkey_release(&w->last_wk);
	for (size_t i = 0; i < w->nmetrics; i++)
		free(w->metrics[i].dim);
	free(w->metrics);
	strbuf_release(&w->meta);
	strbuf_release(&w->par_text);
	free(w->version);
	free(w->platform);
	free(w->last_wkey);
	free(w->bulk_sql[0]);
	free(w->bulk_sql[1]);
	free(w);
}

int db_writer_finish(struct db_writer *w, struct db_writer_summary *out)
{
	struct db_stmt *st = NULL;
	int rc = 0;
	struct strbuf meta = STRBUF_INIT;
	long results = 0;

	if (!w->puts) {
		db_writer_abort(w);
		return pc_error_set(PC_EINVALID, "no results in the file");
	}
	if ((rc = w->batch_err) == 0)
		rc = acc_store(w);
	if (rc == 0)
		rc = batch_flush(w);
	if (rc == 0)
		rc = params_flush(w);
	if (rc == 0)
		rc = wl_flush(w);
	for (int i = 0; i < 2 && rc == 0; i++)	/* a bulk load's indexes */
		if (w->bulk_sql[i])
			rc = db_index_rebuild(w->db, w->bulk_sql[i]);
	if (rc < 0) {
		db_writer_abort(w);
		return rc;
	}
	db_prepare(w->db, &rc, &st, "SELECT count(*) FROM results WHERE "
		   "run_id = ?");
	if (!rc) {
		db_bind_int64(st, 1, w->run_id);
		if (db_step(st) == DB_ROW)
			results = db_column_int64(st, 0);
		db_finalize(st);
		st = NULL;
	}
	strbuf_addf(&meta, "{%s}", strbuf_str(&w->meta));
	db_prepare(w->db, &rc, &st, "UPDATE runs SET version = ?, platform = ?, "
		   "clock_hz = ?, metadata = ?, n_results = ? WHERE id = ?");
	if (!rc) {
		db_bind_text(st, 1, w->version);
		db_bind_text(st, 2, w->platform);
		db_bind_double(st, 3, w->clock_hz);
		db_bind_text(st, 4, meta.buf);
		db_bind_int64(st, 5, results);
		db_bind_int64(st, 6, w->run_id);
		rc = step_done(w->db, st, "finishing run");
		db_finalize(st);
	}
	strbuf_release(&meta);
	if (!rc)
		rc = db_commit(w->db);
	if (rc) {
		db_writer_abort(w);
		return rc;
	}
	if (out) {
		out->run_id = w->run_id;
		out->results = results;
		out->puts = w->puts;
		out->workloads = (long)w->workloads.len;
		out->ops = (long)w->ops.len;
	}
	writer_free(w);
	return 0;
}

void db_writer_abort(struct db_writer *w)
{
	if (!w)
		return;
	db_rollback(w->db);
	writer_free(w);
}
