/*
 * Test helper for tests/service/pg_*.sh (not installed): the engine seam
 * of db/ on PostgreSQL, below the commands.
 *   pc_pgprobe stream DB N   the streaming reads (db_prepare_scan) on
 *                            a scratch table of N rows: interleaved
 *                            streams, a write between steps, abandoned
 *                            streams, commit and rollback midway, an
 *                            error midway; one line per case
 *   pc_pgprobe changes DB    the change counter (db_data_version) as
 *                            the TUI's live refresh reads it, driven by
 *                            lines on stdin: "wait MS" polls until it
 *                            moves or MS pass and prints it; "commit"
 *                            commits an annotation of its own (not
 *                            another's change)
 * Prints what it saw; the script compares it with what it must be.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <time.h>

#include "db/annot.h"
#include "db/db.h"
#include "db/engine.h"
#include "base/error.h"

static int die(const char *what)
{
	fprintf(stderr, "pc_pgprobe %s: %s\n", what, pc_error_last());
	return 1;
}

static struct db_stmt *stream(struct db *db, const char *sql)
{
	struct db_stmt *st = NULL;
	int rc = 0;

	db_prepare_scan(db, &rc, &st, sql);
	return rc ? NULL : st;
}

/* One row of a one-column query; -1 when none. */
static int64_t one(struct db *db, const char *sql)
{
	struct db_stmt *st = NULL;
	int rc = 0;
	int64_t v = -1;

	db_prepare(db, &rc, &st, sql);
	if (!rc && db_step(st) == DB_ROW)
		v = db_column_int64(st, 0);
	db_finalize(st);
	return v;
}

/* Step st up to max rows (all when max < 0): rows read, their sum. */
static int walk(struct db *db, struct db_stmt *st, long max, long *rows,
		int64_t *sum)
{
	int rc = DB_ROW;

	while ((max < 0 || *rows < max) && (rc = db_step(st)) == DB_ROW) {
		*sum += db_column_int64(st, 0);
		(*rows)++;
	}
	return rc == DB_ROW || rc == DB_DONE ? 0 : db_fail(db, "reading");
}

static int streams(const char *path, long n)
{
	struct db *db, *other;
	struct db_stmt *a, *b;
	long ra = 0, rb = 0;
	int64_t sa = 0, sb = 0;
	char sql[128];
	int rc;

	if (db_open(&db, path, 0) < 0 || db_open(&other, path, 0) < 0)
		return die("open");
	snprintf(sql, sizeof(sql), "DROP TABLE IF EXISTS probe; CREATE TABLE "
		 "probe AS SELECT i FROM generate_series(1, %ld) i", n);
	if (db_exec(db, sql) < 0)
		return die("setup");

	/* two streams stepped in turn (the pairing walk's merge) */
	a = stream(db, "SELECT i FROM probe ORDER BY i");
	b = stream(db, "SELECT i FROM probe ORDER BY i DESC");
	if (!a || !b)
		return die("prepare");
	for (;;) {
		long ka = ra, kb = rb;

		if (walk(db, a, ra + 1, &ra, &sa) < 0 || walk(db, b, rb + 1, &rb, &sb) < 0)
			return die("interleave");
		if (ka == ra && kb == rb)
			break;
	}
	printf("interleaved: %ld rows sum %" PRId64 ", %ld rows sum %" PRId64
	       "\n", ra, sa, rb, sb);

	/* a write between two steps is committed at once, not held in a
	 * read transaction; the stream reads the table as it was */
	db_reset(a);
	ra = 0;
	sa = 0;
	if (walk(db, a, 100, &ra, &sa) < 0)
		return die("write between");
	if (db_exec(db, "INSERT INTO probe VALUES (0)") < 0)
		return die("write between");
	printf("write seen by another connection: %" PRId64 " rows\n",
	       one(other, "SELECT count(*) FROM probe"));
	if (walk(db, a, -1, &ra, &sa) < 0)
		return die("write between");
	printf("stream after the write: %ld rows sum %" PRId64 "\n", ra, sa);

	/* abandoned midway: reset and finalise close the cursors; the next
	 * statement runs; nothing stays open */
	db_reset(a);
	db_reset(b);
	ra = rb = 0;
	sa = sb = 0;
	if (walk(db, a, 10, &ra, &sa) < 0 || walk(db, b, 15000, &rb, &sb) < 0)
		return die("abandon");
	db_reset(a);
	printf("after an abandoned stream: %" PRId64 " rows\n",
	       one(db, "SELECT count(*) FROM probe"));
	db_finalize(b);
	printf("open cursors %" PRId64 ", in a transaction %d\n",
	       one(db, "SELECT count(*) FROM pg_cursors WHERE name <> ''"),
	       db_in_transaction(db));
	ra = 0;
	sa = 0;
	if (walk(db, a, -1, &ra, &sa) < 0)
		return die("abandon");
	printf("again from the start: %ld rows sum %" PRId64 "\n", ra, sa);

	/* the caller's transaction commits midway: the stream goes on */
	db_reset(a);
	ra = 0;
	sa = 0;
	if (db_begin(db) < 0 || walk(db, a, 7, &ra, &sa) < 0 ||
	    db_exec(db, "DELETE FROM probe WHERE i = 0") < 0 ||
	    db_commit(db) < 0 || walk(db, a, -1, &ra, &sa) < 0)
		return die("commit midway");
	printf("commit midway: %ld rows sum %" PRId64 "\n", ra, sa);

	/* the caller's transaction rolls back midway: the rest is an
	 * error, not a short result */
	db_reset(a);
	ra = 0;
	sa = 0;
	if (db_begin(db) < 0 || walk(db, a, 7, &ra, &sa) < 0)
		return die("rollback midway");
	db_rollback(db);
	rc = walk(db, a, -1, &ra, &sa);
	printf("rollback midway: %s after %ld rows\n", rc < 0 ? "error" :
	       "no error", ra);
	if (rc < 0)
		printf("  %s\n", pc_error_last());
	db_finalize(a);

	/* an error after the first batches: reported, the connection
	 * stays usable and outside any transaction */
	/* (no ORDER BY: a sort would fail before the first row) */
	snprintf(sql, sizeof(sql), "SELECT 1 / (i - %ld) FROM probe",
		 n / 2 + n / 4);
	a = stream(db, sql);
	ra = 0;
	sa = 0;
	rc = a ? walk(db, a, -1, &ra, &sa) : -1;
	printf("error midway: %s after %ld rows\n", rc < 0 ? "error" :
	       "no error", ra);
	if (rc < 0)
		printf("  %s\n", pc_error_last());
	db_finalize(a);
	printf("then: %" PRId64 " rows, in a transaction %d\n",
	       one(db, "SELECT count(*) FROM probe"), db_in_transaction(db));
	if (db_exec(db, "DROP TABLE probe") < 0)
		return die("cleanup");
	db_close(other);
	db_close(db);
	return 0;
}

static int changes(const char *path)
{
	struct db *db;
	char line[64];
	long v, first;

	if (db_open(&db, path, 0) < 0 || db_data_version(db, &first) < 0)
		return die("changes");
	printf("listening %ld\n", first);
	fflush(stdout);
	while (fgets(line, sizeof(line), stdin)) {
		if (!strncmp(line, "wait ", 5)) {
			long ms = atol(line + 5), was = -1;

			for (long t = 0; t <= ms; t += 20) {
				struct timespec ts = { 0, 20 * 1000000L };

				if (db_data_version(db, &v) < 0)
					return die("changes");
				if (was < 0)
					was = v;
				else if (v != was)
					break;
				nanosleep(&ts, NULL);
			}
			printf("%ld\n", v - first);
		} else if (!strncmp(line, "commit", 6)) {
			struct annot a;

			memset(&a, 0, sizeof(a));
			a.workload = "probe";
			a.status = "open";
			a.category = "unknown";
			a.note = "the probe's own";
			a.author = "probe";
			if (db_annot_add(db, &a, 1, NULL) < 0)
				return die("commit");
			printf("committed\n");
		}
		fflush(stdout);
	}
	db_close(db);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "changes"))
		return changes(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "stream"))
		return streams(argv[2], atol(argv[3]));
	fprintf(stderr, "usage: pc_pgprobe stream DB N | changes DB\n");
	return 2;
}
