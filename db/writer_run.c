/* The source and the run of an import (see writer_int.h): the kind, find
 * or create the source, the run's identity (what makes two imports the
 * same run) and the duplicate check, the run's row; stepping a statement
 * that returns no row, for every writer file. */
#include "db/writer_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"

static const char *const kinds[] = { "roofline", "perfsim", "rtl",
				     "emulation", "silicon", NULL };

static int kind_ok(const char *k)
{
	for (int i = 0; kinds[i]; i++)
		if (!strcmp(kinds[i], k))
			return 1;
	return 0;
}

int writer_step_done(struct db *db, struct db_stmt *st, const char *what)
{
	int rc = db_step(st);

	db_reset(st);
	if (rc != DB_DONE && rc != DB_ROW)
		return db_fail(db, what);
	return 0;
}

int writer_find_source(struct db_writer *w, const struct db_run_info *ri)
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
char *writer_identity_text(const struct db_run_info *ri)
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
int writer_check_dup(struct db_writer *w, const struct db_run_info *ri,
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
	rc = writer_step_done(w->db, st, "replacing run");
	db_finalize(st);
	return rc;
}

int writer_insert_run(struct db_writer *w, const struct db_run_info *ri,
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
