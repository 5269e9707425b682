/* The floor of `perfcorr import` for perfcorr's schema on this machine
 * (issue 21): the least any program storing exactly the rows perfcorr
 * stores can cost SQLite, with no parsing, no units and no canonical keys.
 *   floor_import_schema SRC.db OUT.db [plain|bulk|bare|dict]
 * SRC.db is a database that `perfcorr import` made from the CSV (one run):
 * its schema, workloads, workload parameters, ops and results are read
 * into memory first (not timed). OUT.db is created with SRC.db's own
 * schema (every table, index and trigger, same text, same user_version),
 * WAL and synchronous = NORMAL as perfcorr opens it; then, timed
 * (getrusage of this process, user + sys): one transaction that inserts
 * the source, the run, the ops, the workloads, their parameters and the
 * results (file order: the run's seq), COMMIT, and the close (which
 * checkpoints the WAL into the database, as perfcorr's close does). Rows
 * are bound typed, 32 per INSERT statement, like perfcorr's batches; new
 * workloads are sorted by key 8192 at a time, as perfcorr's queue does
 * (FLOOR_WL_CHUNK=N: N at a time, 0: id order). MODE:
 *   plain  every index maintained row by row
 *   bulk   results_key and workload_params_nv dropped first and built
 *          again before the COMMIT (perfcorr's bulk load; the default)
 *   bare   results and workloads only, no parameter rows
 *   dict   bulk, with the parameters as (workload_id, value_id) rows and
 *          a param_values dictionary (one row per distinct name=value)
 * FLOOR_KEY_LATE=1: workloads without UNIQUE (key), the unique index on
 * key built before the COMMIT (with FLOOR_WL_CHUNK=0: ids and keys each
 * inserted in their own order). FLOOR_CACHE_KB=N: SQLite's page cache
 * (perfcorr keeps the default 2 MiB).
 * Prints "MODE cpu T s rows: ..." on stdout and the CPU of each phase
 * on stderr. Not part of the build; by hand (tests/bench/notes.md,
 * "miss-import-sweep"):
 *   cc -O2 -o floor_import_schema tests/bench/floor_import_schema.c -lsqlite3
 *   perfcorr --db src.db import -q -s sim -k perfsim model.csv
 *   floor_import_schema src.db out.db bulk */
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#define BATCH 32

struct res {
	int64_t wid, oid, mid, seq, flags;
	double v[8];		/* value n mean median min max stddev raw */
	int isnull[8];
	char *unit;
};

struct wl {
	int64_t id;
	char *key, *name, *params;
};

static int wl_cmp(const void *a, const void *b)
{
	return strcmp(((const struct wl *)a)->key, ((const struct wl *)b)->key);
}

static void die(sqlite3 *db, const char *what)
{
	fprintf(stderr, "floor_import_schema: %s: %s\n", what,
		db ? sqlite3_errmsg(db) : "failed");
	exit(1);
}

static char *dup_col(sqlite3_stmt *st, int c)
{
	const unsigned char *t = sqlite3_column_text(st, c);
	return t ? strdup((const char *)t) : NULL;
}

static double cpu(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static void exec(sqlite3 *db, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		fprintf(stderr, "floor_import_schema: %.60s: %s\n", sql, msg);
		exit(1);
	}
}

static sqlite3_stmt *prep(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		die(db, sql);
	return st;
}

static sqlite3_stmt *prep_many(sqlite3 *db, const char *head,
			       const char *row, int n)
{
	size_t len = strlen(head) + (size_t)n * (strlen(row) + 1) + 1;
	char *sql = malloc(len);
	sqlite3_stmt *st;

	strcpy(sql, head);
	for (int i = 0; i < n; i++) {
		if (i)
			strcat(sql, ",");
		strcat(sql, row);
	}
	st = prep(db, sql);
	free(sql);
	return st;
}

static void run_step(sqlite3 *db, sqlite3_stmt *st)
{
	if (sqlite3_step(st) != SQLITE_DONE)
		die(db, "insert");
	sqlite3_reset(st);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 3 ? argv[3] : "bulk";
	int dict = !strcmp(mode, "dict");
	int bulk = dict || !strcmp(mode, "bulk"), bare = !strcmp(mode, "bare");
	int64_t *pv = NULL;	/* dict: each parameter row's value id */
	size_t npv = 0;
	sqlite3 *src, *db;
	sqlite3_stmt *st;
	struct res *r = NULL;
	size_t nr = 0, cr = 0, nw = 0, cw = 0, np = 0, cp = 0, no = 0, co = 0;
	struct wl *w = NULL;
	size_t chunk = getenv("FLOOR_WL_CHUNK") ?
		(size_t)atol(getenv("FLOOR_WL_CHUNK")) : 8192;
	struct { int64_t wid; char *name, *value; } *p = NULL;
	struct { int64_t id; char *name, *cls; } *o = NULL;
	char **ddl = NULL;
	size_t nddl = 0;
	int uv = 0;
	char *rk = NULL, *nv = NULL;
	double t0, t1, ph[7];
	int nph = 0;

	if (argc < 3 || (!bulk && !bare && strcmp(mode, "plain"))) {
		fprintf(stderr, "usage: floor_import_schema SRC.db OUT.db "
			"[plain|bulk|bare|dict]\n");
		return 2;
	}
	if (sqlite3_open_v2(argv[1], &src, SQLITE_OPEN_READONLY, NULL))
		die(src, argv[1]);
	/* the schema, as perfcorr made it (sqlite_ tables excluded) */
	st = prep(src, "SELECT type, name, sql FROM sqlite_schema WHERE sql IS "
		  "NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY type = "
		  "'index', type = 'trigger', rowid");
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 1);

		ddl = realloc(ddl, (nddl + 1) * sizeof(*ddl));
		ddl[nddl++] = dup_col(st, 2);
		if (!strcmp(name, "results_key"))
			rk = dup_col(st, 2);
		if (!strcmp(name, "workload_params_nv"))
			nv = dup_col(st, 2);
	}
	sqlite3_finalize(st);
	st = prep(src, "PRAGMA user_version");
	if (sqlite3_step(st) == SQLITE_ROW)
		uv = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	st = prep(src, "SELECT id, name, class FROM ops ORDER BY id");
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (no == co)
			o = realloc(o, (co = co ? 2 * co : 64) * sizeof(*o));
		o[no].id = sqlite3_column_int64(st, 0);
		o[no].name = dup_col(st, 1);
		o[no++].cls = dup_col(st, 2);
	}
	sqlite3_finalize(st);
	st = prep(src, "SELECT id, key, name, params FROM workloads ORDER BY id");
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (nw == cw)
			w = realloc(w, (cw = cw ? 2 * cw : 1024) * sizeof(*w));
		w[nw].id = sqlite3_column_int64(st, 0);
		w[nw].key = dup_col(st, 1);
		w[nw].name = dup_col(st, 2);
		w[nw++].params = dup_col(st, 3);
	}
	sqlite3_finalize(st);
	if (!bare) {
		/* the table exists in schemas before a dictionary of values */
		if (sqlite3_prepare_v2(src, "SELECT workload_id, name, value FROM "
				       "workload_params ORDER BY workload_id, "
				       "rowid", -1, &st, NULL) != SQLITE_OK &&
		    sqlite3_prepare_v2(src, "SELECT workload_id, name, value FROM "
				       "workload_params ORDER BY workload_id",
				       -1, &st, NULL) != SQLITE_OK)
			die(src, "workload_params");
		while (sqlite3_step(st) == SQLITE_ROW) {
			if (np == cp)
				p = realloc(p, (cp = cp ? 2 * cp : 1024) *
					    sizeof(*p));
			p[np].wid = sqlite3_column_int64(st, 0);
			p[np].name = dup_col(st, 1);
			p[np++].value = dup_col(st, 2);
		}
		sqlite3_finalize(st);
	}
	st = prep(src, "SELECT workload_id, op_id, metric_id, seq, flags, value, "
		  "n, mean, median, min, max, stddev, raw_value, raw_unit FROM "
		  "results ORDER BY seq");
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct res *x;

		if (nr == cr)
			r = realloc(r, (cr = cr ? 2 * cr : 65536) * sizeof(*r));
		x = &r[nr++];
		x->wid = sqlite3_column_int64(st, 0);
		x->oid = sqlite3_column_int64(st, 1);
		x->mid = sqlite3_column_int64(st, 2);
		x->seq = sqlite3_column_int64(st, 3);
		x->flags = sqlite3_column_int64(st, 4);
		for (int c = 0; c < 8; c++) {
			x->isnull[c] = sqlite3_column_type(st, 5 + c) ==
				       SQLITE_NULL;
			x->v[c] = sqlite3_column_double(st, 5 + c);
		}
		x->unit = dup_col(st, 13);
	}
	sqlite3_finalize(st);
	sqlite3_close(src);

	if (dict) {	/* untimed: a hash lookup per row in a real writer */
		char **seen = NULL;

		pv = malloc(np * sizeof(*pv));
		for (size_t i = 0; i < np; i++) {
			size_t j;
			char buf[512];

			snprintf(buf, sizeof(buf), "%s=%s", p[i].name,
				 p[i].value);
			for (j = 0; j < npv && strcmp(seen[j], buf); j++)
				;
			if (j == npv) {
				seen = realloc(seen, (npv + 1) * sizeof(*seen));
				seen[npv++] = strdup(buf);
			}
			pv[i] = (int64_t)j + 1;
		}
	}
	remove(argv[2]);
	if (sqlite3_open_v2(argv[2], &db, SQLITE_OPEN_READWRITE |
			    SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL))
		die(db, argv[2]);
	exec(db, "PRAGMA journal_mode = WAL");
	exec(db, "PRAGMA synchronous = NORMAL");
	if (getenv("FLOOR_CACHE_KB")) {	/* perfcorr keeps SQLite's default */
		char sql[64];

		snprintf(sql, sizeof(sql), "PRAGMA cache_size = -%ld",
			 atol(getenv("FLOOR_CACHE_KB")));
		exec(db, sql);
	}
	exec(db, "BEGIN");
	for (size_t i = 0; i < nddl; i++)
		exec(db, ddl[i]);
	if (getenv("FLOOR_KEY_LATE")) {	/* the key index built at the end */
		exec(db, "DROP TABLE workloads");
		exec(db, "CREATE TABLE workloads (id INTEGER PRIMARY KEY, key "
		     "TEXT NOT NULL, name TEXT NOT NULL, params TEXT NOT NULL "
		     "DEFAULT '{}')");
	}
	if (dict) {	/* parameters as (workload, value id) pairs */
		exec(db, "DROP TABLE workload_params");
		exec(db, "CREATE TABLE param_values (id INTEGER PRIMARY KEY, "
		     "name TEXT NOT NULL, value TEXT NOT NULL, UNIQUE (name, "
		     "value))");
		exec(db, "CREATE TABLE workload_params (workload_id INTEGER NOT "
		     "NULL REFERENCES workloads(id), value_id INTEGER NOT NULL "
		     "REFERENCES param_values(id), PRIMARY KEY (workload_id, "
		     "value_id)) WITHOUT ROWID");
		free(nv);
		nv = strdup("CREATE INDEX workload_params_nv ON "
			    "workload_params(value_id)");
	}
	{
		char sql[64];

		snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", uv);
		exec(db, sql);
	}
	exec(db, "COMMIT");

	t0 = cpu();
	/* new workloads sorted by key, chunk at a time (perfcorr's queue:
	 * the key index takes each chunk in order); 0: in id order */
	for (size_t i = 0; chunk && i < nw; i += chunk)
		qsort(w + i, nw - i < chunk ? nw - i : chunk, sizeof(*w),
		      wl_cmp);
	exec(db, "BEGIN IMMEDIATE");
	if (bulk || bare) {
		if (rk)
			exec(db, "DROP INDEX IF EXISTS results_key");
		if (nv)
			exec(db, "DROP INDEX IF EXISTS workload_params_nv");
	}
	exec(db, "INSERT INTO sources (id, name, kind, created_at) VALUES "
	     "(1, 'sim', 'perfsim', '2026-12-02T00:00:00Z')");
	exec(db, "INSERT INTO runs (id, source_id, version, format, file_name, "
	     "sha256, file_size, imported_at) VALUES (1, 1, 'v', 'csv', "
	     "'model.csv', 'x', 0, '2026-12-02T00:00:00Z')");
	st = prep(db, "INSERT INTO ops (id, name, class) VALUES (?, ?, ?)");
	for (size_t i = 0; i < no; i++) {
		sqlite3_bind_int64(st, 1, o[i].id);
		sqlite3_bind_text(st, 2, o[i].name, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, o[i].cls, -1, SQLITE_STATIC);
		run_step(db, st);
	}
	sqlite3_finalize(st);
	{
		sqlite3_stmt *many = prep_many(db, "INSERT INTO workloads (id, "
			"key, name, params) VALUES ", "(?,?,?,?)", BATCH);
		sqlite3_stmt *one = prep_many(db, "INSERT INTO workloads (id, "
			"key, name, params) VALUES ", "(?,?,?,?)", 1);

		for (size_t i = 0; i < nw;) {
			size_t n = nw - i >= BATCH ? BATCH : 1;
			sqlite3_stmt *s = n == BATCH ? many : one;

			for (size_t j = 0; j < n; j++, i++) {
				sqlite3_bind_int64(s, 4 * j + 1, w[i].id);
				sqlite3_bind_text(s, 4 * j + 2, w[i].key, -1,
						  SQLITE_STATIC);
				sqlite3_bind_text(s, 4 * j + 3, w[i].name, -1,
						  SQLITE_STATIC);
				sqlite3_bind_text(s, 4 * j + 4, w[i].params, -1,
						  SQLITE_STATIC);
			}
			run_step(db, s);
		}
		sqlite3_finalize(many);
		sqlite3_finalize(one);
	}
	ph[nph++] = cpu();
	if (np && dict) {
		sqlite3_stmt *one = prep(db, "INSERT INTO param_values (id, "
			"name, value) VALUES (?, ?, ?)");
		sqlite3_stmt *many = prep_many(db, "INSERT INTO workload_params "
			"(workload_id, value_id) VALUES ", "(?,?)", BATCH);
		sqlite3_stmt *single = prep_many(db, "INSERT INTO "
			"workload_params (workload_id, value_id) VALUES ",
			"(?,?)", 1);

		for (size_t i = 0, k = 0; i < np && k < npv; i++)
			if (pv[i] == (int64_t)k + 1) {	/* first use */
				sqlite3_bind_int64(one, 1, pv[i]);
				sqlite3_bind_text(one, 2, p[i].name, -1,
						  SQLITE_STATIC);
				sqlite3_bind_text(one, 3, p[i].value, -1,
						  SQLITE_STATIC);
				run_step(db, one);
				k++;
			}
		for (size_t i = 0; i < np;) {
			size_t n = np - i >= BATCH ? BATCH : 1;
			sqlite3_stmt *s = n == BATCH ? many : single;

			for (size_t j = 0; j < n; j++, i++) {
				sqlite3_bind_int64(s, 2 * j + 1, p[i].wid);
				sqlite3_bind_int64(s, 2 * j + 2, pv[i]);
			}
			run_step(db, s);
		}
		sqlite3_finalize(one);
		sqlite3_finalize(many);
		sqlite3_finalize(single);
	} else if (np) {
		sqlite3_stmt *many = prep_many(db, "INSERT INTO workload_params "
			"(workload_id, name, value) VALUES ", "(?,?,?)", BATCH);
		sqlite3_stmt *one = prep_many(db, "INSERT INTO workload_params "
			"(workload_id, name, value) VALUES ", "(?,?,?)", 1);

		for (size_t i = 0; i < np;) {
			size_t n = np - i >= BATCH ? BATCH : 1;
			sqlite3_stmt *s = n == BATCH ? many : one;

			for (size_t j = 0; j < n; j++, i++) {
				sqlite3_bind_int64(s, 3 * j + 1, p[i].wid);
				sqlite3_bind_text(s, 3 * j + 2, p[i].name, -1,
						  SQLITE_STATIC);
				sqlite3_bind_text(s, 3 * j + 3, p[i].value, -1,
						  SQLITE_STATIC);
			}
			run_step(db, s);
		}
		sqlite3_finalize(many);
		sqlite3_finalize(one);
	}
	ph[nph++] = cpu();
	{
		const char *head = "INSERT INTO results (run_id, workload_id, "
			"op_id, metric_id, value, n, mean, median, min, max, "
			"stddev, raw_value, raw_unit, flags, seq) VALUES ";
		const char *row = "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
		sqlite3_stmt *many = prep_many(db, head, row, BATCH);
		sqlite3_stmt *one = prep_many(db, head, row, 1);

		for (size_t i = 0; i < nr;) {
			size_t n = nr - i >= BATCH ? BATCH : 1;
			sqlite3_stmt *s = n == BATCH ? many : one;

			for (size_t j = 0; j < n; j++, i++) {
				const struct res *x = &r[i];
				int b = 15 * (int)j;

				sqlite3_bind_int64(s, b + 1, 1);
				sqlite3_bind_int64(s, b + 2, x->wid);
				sqlite3_bind_int64(s, b + 3, x->oid);
				sqlite3_bind_int64(s, b + 4, x->mid);
				for (int c = 0; c < 8; c++) {
					if (x->isnull[c])
						sqlite3_bind_null(s, b + 5 + c);
					else if (c == 1)
						sqlite3_bind_int64(s, b + 6,
							(int64_t)x->v[c]);
					else
						sqlite3_bind_double(s,
							b + 5 + c, x->v[c]);
				}
				if (x->unit)
					sqlite3_bind_text(s, b + 13, x->unit,
							  -1, SQLITE_STATIC);
				else
					sqlite3_bind_null(s, b + 13);
				sqlite3_bind_int64(s, b + 14, x->flags);
				sqlite3_bind_int64(s, b + 15, x->seq);
			}
			run_step(db, s);
		}
		sqlite3_finalize(many);
		sqlite3_finalize(one);
	}
	ph[nph++] = cpu();
	if (bulk || bare) {
		if (rk)
			exec(db, rk);
		if (nv && !bare)
			exec(db, nv);
		if (getenv("FLOOR_KEY_LATE"))
			exec(db, "CREATE UNIQUE INDEX workloads_key ON "
			     "workloads(key)");
	}
	exec(db, "UPDATE runs SET n_results = (SELECT count(*) FROM results "
	     "WHERE run_id = 1) WHERE id = 1");
	ph[nph++] = cpu();
	exec(db, "COMMIT");
	ph[nph++] = cpu();
	sqlite3_close(db);
	t1 = cpu();
	fprintf(stderr, "%s phases (cpu s): workloads %.2f params %.2f "
		"results %.2f indexes %.2f commit %.2f close %.2f\n", mode,
		ph[0] - t0, ph[1] - ph[0], ph[2] - ph[1], ph[3] - ph[2],
		ph[4] - ph[3], t1 - ph[4]);
	printf("%s cpu %.2f s rows: workloads %zu params %zu results %zu\n",
	       mode, t1 - t0, nw, np, nr);
	return 0;
}
