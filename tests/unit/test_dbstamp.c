/* The quick_check stamp (db/dbstamp.c, docs/service.md "Crash safety"):
 * a write process skips PRAGMA quick_check while the database is as the
 * last perfcorr check or commit left it, and still runs it, and refuses
 * a damaged database, after anything else touched the file. The checks
 * are counted with SQLite's statement trace on the connection. */
#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db/db.h"
#include "db/db_int.h"
#include "base/error.h"
#include "base/util.h"

static char *path;

static int checks;	/* PRAGMA quick_check statements run */

static int trace(unsigned type, void *ctx, void *p, void *x)
{
	const char *sql = sqlite3_sql(p);

	(void)type;
	(void)ctx;
	(void)x;
	if (sql && strstr(sql, "quick_check"))
		checks++;
	return 0;
}

static struct db *open_traced(int flags)
{
	struct db *db = NULL;

	CHECK_INT(db_open(&db, path, flags), 0);
	if (db)
		sqlite3_trace_v2(db_sqlite(db), SQLITE_TRACE_STMT, trace, NULL);
	checks = 0;
	return db;
}

/* One small write through perfcorr's transaction functions. */
static int write_one(struct db *db, int i)
{
	char sql[128];
	int rc = db_begin(db);

	if (rc < 0)
		return rc;
	snprintf(sql, sizeof(sql), "INSERT INTO workloads (key, name) VALUES "
		 "('k%d', 'k')", i);
	return db_end(db, db_exec(db, sql));
}

static void setup(void)
{
	struct db *db = NULL;

	if (path)
		return;
	path = check_tmp_path("s.db");
	CHECK_INT(db_open(&db, path, DB_CREATE), 0);
	/* enough pages that one in the middle is a b-tree page */
	CHECK_INT(db_exec(db, "INSERT INTO workloads (key, name) SELECT "
			  "'w' || x, 'w' FROM (WITH RECURSIVE c(x) AS (SELECT 1 "
			  "UNION ALL SELECT x + 1 FROM c WHERE x < 20000) SELECT "
			  "x FROM c)"), 0);
	db_close(db);
}

TEST(unchanged_database_is_not_checked_again)
{
	struct db *db;
	char *stamp;

	setup();
	db = open_traced(0);
	CHECK_INT(write_one(db, 1), 0);
	db_close(db);
	stamp = xasprintf("%s-checked", path);
	CHECK(access(stamp, F_OK) == 0);
	free(stamp);
	/* a second process: the files are as the first one left them */
	db = open_traced(0);
	CHECK_INT(write_one(db, 2), 0);
	CHECK_INT(write_one(db, 3), 0);
	CHECK_INT(checks, 0);
	db_close(db);
	/* two connections at once: the -wal stays between them */
	{
		struct db *a = open_traced(0), *b;

		b = open_traced(0);
		CHECK_INT(write_one(a, 4), 0);
		CHECK_INT(write_one(b, 5), 0);
		CHECK_INT(write_one(a, 6), 0);
		CHECK_INT(checks, 0);
		db_close(a);
		db_close(b);
	}
	db = open_traced(0);
	CHECK_INT(write_one(db, 7), 0);
	CHECK_INT(checks, 0);
	db_close(db);
}

TEST(another_writer_means_a_check)
{
	struct db *db;
	sqlite3 *h;

	setup();
	/* a write that is not perfcorr's (the sqlite3 shell, a script) */
	CHECK_INT(sqlite3_open(path, &h), SQLITE_OK);
	CHECK_INT(sqlite3_exec(h, "INSERT INTO workloads (key, name) VALUES "
			       "('other', 'o')", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(h);
	db = open_traced(0);
	CHECK_INT(write_one(db, 8), 0);
	CHECK_INT(checks, 1);
	CHECK_INT(write_one(db, 9), 0);
	CHECK_INT(checks, 1);		/* once per connection, as before */
	db_close(db);
	db = open_traced(0);		/* and stamped again */
	CHECK_INT(write_one(db, 10), 0);
	CHECK_INT(checks, 0);
	db_close(db);
}

TEST(damage_after_a_stamp_is_refused)
{
	struct db *db;
	FILE *f;
	struct stat st;
	char junk[300];

	setup();
	db = open_traced(0);
	CHECK_INT(write_one(db, 11), 0);
	db_close(db);			/* stamped, -wal checkpointed */
	CHECK(stat(path, &st) == 0 && st.st_size > 4096 * 41);
	/* junk in the middle of a b-tree page (as tests/service/db_open.sh) */
	memset(junk, 0xff, sizeof(junk));
	f = fopen(path, "r+b");
	CHECK(f != NULL);
	if (!f)
		return;
	fseek(f, 4096 * 40 + 200, SEEK_SET);
	CHECK_INT(fwrite(junk, 1, sizeof(junk), f), sizeof(junk));
	fclose(f);
	db = open_traced(0);
	CHECK(write_one(db, 12) < 0);
	CHECK_INT(checks, 1);
	CHECK(strstr(pc_error_last(), "is damaged (PRAGMA quick_check:") != NULL);
	db_close(db);
	/* refused again by the next process: a failed check stamps nothing */
	db = open_traced(0);
	CHECK(write_one(db, 13) < 0);
	CHECK_INT(checks, 1);
	db_close(db);
}

TEST_MAIN(CASE(unchanged_database_is_not_checked_again),
	  CASE(another_writer_means_a_check),
	  CASE(damage_after_a_stamp_is_refused))
