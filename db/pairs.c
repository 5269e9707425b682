/* Resolving the sides of a pairing and reading the dictionaries (see
 * pairs.h); the pairing streams are pairs_stream.c. */
#include "db/pairs.h"
#include "db/pairs_int.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "db/db.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"

int db_pairs_versions(struct db *db, const char *source, char ***out,
		      size_t *n)
{
	struct db_stmt *st = NULL;
	char **v = NULL;
	size_t len = 0, cap = 0;
	int rc = 0;

	db_prepare(db, &rc, &st, "SELECT r.version FROM runs r JOIN sources s "
		   "ON s.id = r.source_id WHERE s.name = ? GROUP BY r.version "
		   "ORDER BY min(r.imported_at), min(r.id)");
	if (rc)
		return rc;
	db_bind_text(st, 1, source);
	while ((rc = db_step(st)) == DB_ROW) {
		v = xgrow(v, &cap, len, sizeof(*v));
		v[len++] = db_column_dup(st, 0);
	}
	db_finalize(st);
	if (rc != DB_DONE) {
		for (size_t i = 0; i < len; i++)
			free(v[i]);
		free(v);
		return db_fail(db, "reading versions");
	}
	*out = v;
	*n = len;
	return 0;
}

/* "a, b, c" of the names a query returns (for messages). */
static void list_names(struct db *db, const char *sql, const char *arg,
		       struct strbuf *sb)
{
	struct db_stmt *st = NULL;
	int rc = 0, i = 0;

	db_prepare(db, &rc, &st, sql);
	if (rc)
		return;
	if (arg)
		db_bind_text(st, 1, arg);
	while (db_step(st) == DB_ROW) {
		if (i++ == 12) {
			strbuf_addstr(sb, ", ...");
			break;
		}
		strbuf_addf(sb, "%s'%s'", i > 1 ? ", " : "",
			    db_column_text(st, 0));
	}
	if (i == 0)
		strbuf_addstr(sb, "none");
	db_finalize(st);
}

static int find_source(struct db *db, const char *source,
		       struct db_side *out)
{
	struct db_stmt *st = NULL;
	struct strbuf sb = STRBUF_INIT;
	int rc = 0;

	db_prepare(db, &rc, &st, "SELECT id, kind FROM sources WHERE name = ?");
	if (rc)
		return rc;
	db_bind_text(st, 1, source);
	rc = db_step(st);
	if (rc == DB_ROW) {
		out->source_id = db_column_int64(st, 0);
		out->kind = db_column_dup(st, 1);
		db_finalize(st);
		return 0;
	}
	db_finalize(st);
	if (rc != DB_DONE)
		return db_fail(db, "reading sources");
	list_names(db, "SELECT name FROM sources ORDER BY name", NULL, &sb);
	rc = pc_error_set(PC_ENOTFOUND, "no source named '%s' (sources: %s)",
			  source, strbuf_str(&sb));
	strbuf_release(&sb);
	return rc;
}

static int pick_version(struct db *db, const char *source,
			const char *version, struct db_side *out)
{
	char **v = NULL;
	size_t n = 0, i;
	int rc = db_pairs_versions(db, source, &v, &n);

	if (rc < 0)
		return rc;
	if (n == 0) {
		rc = pc_error_set(PC_ENOTFOUND, "source '%s' has no runs",
				  source);
	} else if (!version) {
		out->version = xstrdup(v[n - 1]);
	} else {
		for (i = 0; i < n && strcmp(v[i], version); i++)
			;
		if (i < n) {
			out->version = xstrdup(version);
		} else {
			struct strbuf sb = STRBUF_INIT;

			for (i = 0; i < n; i++)
				strbuf_addf(&sb, "%s'%s'", i ? ", " : "", v[i]);
			rc = pc_error_set(PC_ENOTFOUND, "source '%s' has no "
					  "version '%s' (versions: %s)", source,
					  version, strbuf_str(&sb));
			strbuf_release(&sb);
		}
	}
	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
	return rc;
}

static int load_runs(struct db *db, struct db_side *out)
{
	struct db_stmt *st = NULL;
	size_t cap = 0;
	int rc = 0;

	db_prepare(db, &rc, &st, "SELECT id, clock_hz, file_name, platform "
		   "FROM runs WHERE source_id = ? AND version = ? ORDER BY id");
	if (rc)
		return rc;
	db_bind_int64(st, 1, out->source_id);
	db_bind_text(st, 2, out->version);
	while ((rc = db_step(st)) == DB_ROW) {
		size_t k = out->nruns++;

		if (k == cap) {	/* three arrays, one capacity */
			out->runs = xgrow(out->runs, &cap, k,
					  sizeof(*out->runs));
			out->clock_hz = xrealloc(out->clock_hz,
						 cap * sizeof(*out->clock_hz));
			out->files = xrealloc(out->files,
					      cap * sizeof(*out->files));
			out->platforms = xrealloc(out->platforms,
						  cap * sizeof(*out->platforms));
		}
		out->runs[k] = db_column_int64(st, 0);
		out->clock_hz[k] = db_column_double(st, 1);
		out->files[k] = db_column_dup(st, 2);
		out->platforms[k] = db_column_dup(st, 3);
	}
	db_finalize(st);
	return rc == DB_DONE ? 0 : db_fail(db, "reading runs");
}

int db_pairs_side(struct db *db, const char *source, const char *version,
		  struct db_side *out)
{
	struct db_side s;
	int rc;

	memset(&s, 0, sizeof(s));
	s.source = xstrdup(source);
	if ((rc = find_source(db, source, &s)) < 0 ||
	    (rc = pick_version(db, source, version, &s)) < 0 ||
	    (rc = load_runs(db, &s)) < 0) {
		db_side_release(&s);
		return rc;
	}
	*out = s;
	return 0;
}

void db_side_release(struct db_side *s)
{
	for (size_t i = 0; i < s->nruns; i++) {
		free(s->files[i]);
		free(s->platforms[i]);
	}
	free(s->files);
	free(s->platforms);
	free(s->runs);
	free(s->clock_hz);
	free(s->source);
	free(s->kind);
	free(s->version);
	memset(s, 0, sizeof(*s));
}

int pairs_same_platform(const char *a, const char *b)
{
	return a ? b && !strcmp(a, b) : !b;
}

size_t db_side_platforms(const struct db_side *s, const char ***out)
{
	const char **v = xmalloc((s->nruns + 1) * sizeof(*v));
	size_t n = 0;

	for (size_t i = 0; i < s->nruns; i++) {
		size_t k;

		for (k = 0; k < n && !pairs_same_platform(v[k], s->platforms[i]); k++)
			;
		if (k == n)
			v[n++] = s->platforms[i];
	}
	*out = v;
	return n;
}

/* "'A100', 'V100', (none)" */
void pairs_platform_list(struct strbuf *sb, const char *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		strbuf_addstr(sb, i ? ", " : "");
		if (v[i])
			strbuf_addf(sb, "'%s'", v[i]);
		else
			strbuf_addstr(sb, "(none)");
	}
}

int db_side_restrict(struct db_side *s, const char *platform)
{
	const char **all;
	size_t n = db_side_platforms(s, &all), k = 0;
	int rc = 0;

	for (size_t i = 0; i < s->nruns; i++)
		if (pairs_same_platform(s->platforms[i], platform))
			k++;
	if (k == 0) {
		struct strbuf sb = STRBUF_INIT;

		pairs_platform_list(&sb, all, n);
		rc = pc_error_set(PC_ENOTFOUND, "'%s@%s' has no run on "
				  "platform '%s' (its platforms: %s)",
				  s->source, s->version, platform,
				  strbuf_str(&sb));
		strbuf_release(&sb);
		free(all);
		return rc;
	}
	free(all);
	k = 0;
	for (size_t i = 0; i < s->nruns; i++) {
		if (!pairs_same_platform(s->platforms[i], platform)) {
			free(s->files[i]);
			free(s->platforms[i]);
			continue;
		}
		s->runs[k] = s->runs[i];
		s->clock_hz[k] = s->clock_hz[i];
		s->files[k] = s->files[i];
		s->platforms[k++] = s->platforms[i];
	}
	s->nruns = k;
	return 0;
}

int db_pairs_results(struct db *db, const struct db_side *side, int pool,
		     const int64_t only[2], struct db_result **out, size_t *n)
{
	struct db_pairs_cur *pc = NULL;
	const struct db_result *row;
	struct db_result *v = NULL;
	size_t len = 0, cap = 0;
	int rc = db_pairs_open(&pc, db, side, pool, only, NULL);

	while (rc == 0 && (rc = db_pairs_next(pc, &row)) == 1) {
		v = xgrow(v, &cap, len, sizeof(*v));
		v[len++] = *row;
		rc = 0;
	}
	db_pairs_close(pc);
	if (rc < 0) {
		free(v);
		return rc;
	}
	*out = v;
	*n = len;
	return 0;
}

int db_pairs_names(struct db *db, enum db_dict what, struct db_name **out,
		   size_t *n)
{
	static const char *const sql[] = {
		[DB_DICT_WORKLOADS] = "SELECT id, key, name, 0 FROM "
				      "workloads ORDER BY id",
		[DB_DICT_OPS] = "SELECT id, name, class, 0 FROM ops ORDER BY id",
		[DB_DICT_METRICS] = "SELECT id, name, unit, better = 'higher' "
				    "FROM metrics ORDER BY id",
	};
	struct db_stmt *st = NULL;
	struct db_name *v = NULL;
	size_t len = 0, cap = 0;
	int rc = 0;

	db_prepare(db, &rc, &st, sql[what]);
	if (rc)
		return rc;
	while ((rc = db_step(st)) == DB_ROW) {
		v = xgrow(v, &cap, len, sizeof(*v));
		v[len].id = db_column_int64(st, 0);
		v[len].name = db_column_dup(st, 1);
		v[len].extra = db_column_dup(st, 2);
		v[len++].higher = db_column_int(st, 3);
	}
	db_finalize(st);
	if (rc != DB_DONE) {
		db_names_free(v, len);
		return db_fail(db, "reading names");
	}
	*out = v;
	*n = len;
	return 0;
}

void db_names_free(struct db_name *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].extra);
	}
	free(v);
}

int db_pairs_params(struct db *db, struct db_param **out, size_t *n)
{
	struct db_stmt *st = NULL;
	struct db_param *v = NULL;
	size_t len = 0, cap = 0;
	int rc = 0;

	db_prepare(db, &rc, &st, "SELECT workload_id, name, value FROM "
		   "workload_params ORDER BY workload_id, name");
	if (rc)
		return rc;
	while ((rc = db_step(st)) == DB_ROW) {
		v = xgrow(v, &cap, len, sizeof(*v));
		v[len].workload_id = db_column_int64(st, 0);
		v[len].name = db_column_dup(st, 1);
		v[len++].value = db_column_dup(st, 2);
	}
	db_finalize(st);
	if (rc != DB_DONE) {
		db_params_free(v, len);
		return db_fail(db, "reading workload parameters");
	}
	*out = v;
	*n = len;
	return 0;
}

void db_params_free(struct db_param *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].value);
	}
	free(v);
}

int db_pairs_ids(struct db *db, const char *workload, const char *op,
		 const char *metric, int64_t ids[3])
{
	static const char *const sql[3] = {
		"SELECT id FROM workloads WHERE key = ?",
		"SELECT id FROM ops WHERE name = ?",
		"SELECT id FROM metrics WHERE name = ?",
	};
	const char *name[3] = { workload, op, metric };
	int rc = 0;

	for (int k = 0; k < 3 && !rc; k++) {
		struct db_stmt *st = NULL;
		int step;

		db_prepare(db, &rc, &st, sql[k]);
		if (rc)
			break;
		db_bind_text(st, 1, name[k]);
		step = db_step(st);
		if (step == DB_ROW)
			ids[k] = db_column_int64(st, 0);
		else if (step == DB_DONE)
			rc = PC_ENOTFOUND;
		else
			rc = db_fail(db, "looking up names");
		db_finalize(st);
	}
	return rc;
}
