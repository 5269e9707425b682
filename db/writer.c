/* The import writer (see writer.h). Ids are cached in hash maps so a
 * million-row import does one INSERT per result and nothing else. */
#include "db/writer.h"
#include "db/writer_int.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "db/calib.h"
#include "db/db.h"
#include "base/units.h"
#include "db/wbatch.h"
#include "base/error.h"
#include "base/hmap.h"
#include "base/strbuf.h"
#include "base/util.h"

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
	w->cost = ri->cost_unit ? ri->cost : NAN;
	snprintf(w->cost_unit, sizeof(w->cost_unit), "%s",
		 ri->cost_unit ? ri->cost_unit : "");
	w->cost_from_cli = ri->cost_unit != NULL;
	w->calibration = ri->calibration;
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
	identity = writer_identity_text(ri);
	if ((rc = writer_find_source(w, ri)) < 0 ||
	    (rc = writer_check_dup(w, ri, identity)) < 0 ||
	    (rc = writer_insert_run(w, ri, identity)) < 0 ||
	    (rc = writer_load_metrics(w)) < 0) {
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
	} else if (!strcmp(key, "cost_s")) {
		double s;

		if (util_parse_double(value, &s) || !isfinite(s) || s < 0)
			return pc_error_set(PC_EINVALID, "cost '%s' is not a "
					    "number of seconds", value);
		/* --cost says what the user paid for the run (core-hours,
		 * an emulator's hours): it wins; the tool's own figure
		 * stays in the metadata */
		if (!w->cost_from_cli) {
			w->cost = s;
			snprintf(w->cost_unit, sizeof(w->cost_unit), "s");
		}
		meta_add(w, key, value);
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

int db_writer_settle(struct db_writer *w, long *line)
{
	char *msg;
	enum pc_cause cause;

	if (!w)
		return 0;
	if (!w->dup_found && w->batch_ok && !w->batch_err && w->batch.n) {
		msg = xstrdup(pc_error_last());
		cause = pc_error_last_cause();
		if (writer_batch_flush(w) < 0 && !w->dup_found)
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
	return writer_acc_store(w);
}

struct db *db_writer_db(struct db_writer *w)
{
	/* the caller may query what this run stored: store the batch */
	if (w->batch_ok && !w->batch_err)
		w->batch_err = writer_batch_flush(w);
	if (w->batch_ok && !w->batch_err)
		w->batch_err = writer_params_flush(w);
	if (w->batch_ok && !w->batch_err)
		w->batch_err = writer_wl_flush(w);
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
		rc = writer_acc_store(w);
	if (rc == 0)
		rc = writer_batch_flush(w);
	if (rc == 0)
		rc = writer_params_flush(w);
	if (rc == 0)
		rc = writer_wl_flush(w);
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
		   "clock_hz = ?, metadata = ?, n_results = ?, cost = ?, "
		   "cost_unit = ? WHERE id = ?");
	if (!rc) {
		db_bind_text(st, 1, w->version);
		db_bind_text(st, 2, w->platform);
		db_bind_double(st, 3, w->clock_hz);
		db_bind_text(st, 4, meta.buf);
		db_bind_int64(st, 5, results);
		db_bind_double(st, 6, w->cost);
		db_bind_text(st, 7, *w->cost_unit ? w->cost_unit : NULL);
		db_bind_int64(st, 8, w->run_id);
		rc = writer_step_done(w->db, st, "finishing run");
		db_finalize(st);
	}
	strbuf_release(&meta);
	if (!rc && w->calibration) {
		char now[32];

		util_now_iso(now, sizeof(now));
		db_prepare(w->db, &rc, &st, db_calib_run_sql);
		if (!rc) {
			db_bind_int64(st, 1, w->run_id);
			db_bind_text(st, 2, "import --calibration");
			db_bind_text(st, 3, util_user());
			db_bind_text(st, 4, now);
			rc = writer_step_done(w->db, st, "marking the run "
					      "calibration");
			db_finalize(st);
		}
	}
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
