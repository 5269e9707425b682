/* The floor of `perfcorr compare` on this machine (issue 21): the least a
 * program can do to pair two sources stored in a perfcorr database.
 *   floor_compare DB MODEL_SOURCE REF_SOURCE
 * It steps the same query compare's cursors step (db/pairs.c: one range of
 * the clustered results table per run, the same 9 columns), merge-joins
 * the two sides on (workload, op, metric) as they advance, and keeps only
 * a running sum: MAPE over the pairs whose reference is not noisy
 * (stddev / value <= 0.30) and not flagged. No points, no sort, no
 * statistic beyond one mean: what is left of compare's time above this is
 * perfcorr's own. Built and run by tests/bench/bench.py; not part of the
 * build. Prints "pairs N used U mape M". */
#include <math.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static const char *Q = "SELECT workload_id, op_id, metric_id, value, n, "
	"stddev, min, max, flags FROM results WHERE run_id = ? "
	"ORDER BY workload_id, op_id, metric_id";

struct side {
	sqlite3_stmt *st;
	int live;
	int64_t k[3];
};

static void die(sqlite3 *db, const char *what)
{
	fprintf(stderr, "floor_compare: %s: %s\n", what, sqlite3_errmsg(db));
	exit(1);
}

static int64_t latest_run(sqlite3 *db, const char *source)
{
	sqlite3_stmt *st;
	int64_t id = 0;

	if (sqlite3_prepare_v2(db, "SELECT max(r.id) FROM runs r JOIN sources "
			       "s ON s.id = r.source_id WHERE s.name = ?", -1,
			       &st, NULL))
		die(db, "prepare");
	sqlite3_bind_text(st, 1, source, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (!id) {
		fprintf(stderr, "floor_compare: no run of source '%s'\n", source);
		exit(1);
	}
	return id;
}

static void step(sqlite3 *db, struct side *s)
{
	int rc = sqlite3_step(s->st);

	if (rc == SQLITE_DONE) {
		s->live = 0;
		return;
	}
	if (rc != SQLITE_ROW)
		die(db, "step");
	for (int i = 0; i < 3; i++)
		s->k[i] = sqlite3_column_int64(s->st, i);
}

static int cmp(const struct side *a, const struct side *b)
{
	for (int i = 0; i < 3; i++)
		if (a->k[i] != b->k[i])
			return a->k[i] < b->k[i] ? -1 : 1;
	return 0;
}

int main(int argc, char **argv)
{
	sqlite3 *db;
	struct side s[2];
	long pairs = 0, used = 0;
	double sum = 0;

	if (argc != 4) {
		fprintf(stderr, "usage: floor_compare DB MODEL REF\n");
		return 2;
	}
	if (sqlite3_open_v2(argv[1], &db, SQLITE_OPEN_READONLY, NULL))
		die(db, argv[1]);
	for (int i = 0; i < 2; i++) {
		if (sqlite3_prepare_v2(db, Q, -1, &s[i].st, NULL))
			die(db, "prepare");
		sqlite3_bind_int64(s[i].st, 1, latest_run(db, argv[2 + i]));
		s[i].live = 1;
		step(db, &s[i]);
	}
	while (s[0].live && s[1].live) {
		int c = cmp(&s[0], &s[1]);

		if (c < 0) {
			step(db, &s[0]);
			continue;
		}
		if (c > 0) {
			step(db, &s[1]);
			continue;
		}
		pairs++;
		double m = sqlite3_column_double(s[0].st, 3);
		double r = sqlite3_column_double(s[1].st, 3);
		double sd = sqlite3_column_double(s[1].st, 5);
		int64_t fl = sqlite3_column_int64(s[0].st, 8) |
			     sqlite3_column_int64(s[1].st, 8);
		if (!(fl & 1) && r != 0 && !(sd / r > 0.30)) {
			used++;
			sum += fabs((m - r) / r);
		}
		step(db, &s[0]);
		step(db, &s[1]);
	}
	printf("pairs %ld used %ld mape %.17g\n", pairs, used,
	       used ? sum / used : 0.0);
	for (int i = 0; i < 2; i++)
		sqlite3_finalize(s[i].st);
	sqlite3_close(db);
	return 0;
}
