/* The SQLite floor of a `compare --metric` / `--op` selection (issue 21):
 * CPU time of stepping each given query for runs 1 and 2 (bound to ?1)
 * and fetching every column of every row, nothing else.
 *   floor_select DB MMAP SQL...     (MMAP 1: PRAGMA mmap_size first)
 * Prints "CPU-seconds s ROWS rows [SQL]" per query. Used by hand for
 * tests/bench/notes.md ("Selections: layouts measured"), on a copy of a
 * bench study and on copies of its results table in other key orders;
 * not part of the build: cc -O2 floor_select.c -lsqlite3. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

static double cpu(void)
{
	struct rusage u;

	getrusage(RUSAGE_SELF, &u);
	return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
	       (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

int main(int argc, char **argv)
{
	sqlite3 *db;

	if (argc < 4 || sqlite3_open_v2(argv[1], &db, SQLITE_OPEN_READONLY,
					NULL) != SQLITE_OK) {
		fprintf(stderr, "usage: floor_select DB MMAP SQL...\n");
		return 2;
	}
	if (atoi(argv[2]))
		sqlite3_exec(db, "PRAGMA mmap_size = 1099511627776", NULL,
			     NULL, NULL);
	for (int a = 3; a < argc; a++) {
		double t = cpu(), sum = 0;
		long rows = 0;

		for (int run = 1; run <= 2; run++) {
			sqlite3_stmt *st;

			if (sqlite3_prepare_v2(db, argv[a], -1, &st, NULL)) {
				fprintf(stderr, "floor_select: %s\n",
					sqlite3_errmsg(db));
				return 1;
			}
			sqlite3_bind_int64(st, 1, run);
			while (sqlite3_step(st) == SQLITE_ROW) {
				rows++;
				for (int c = 0; c < sqlite3_column_count(st);
				     c++)
					sum += sqlite3_column_type(st, c) ==
						       SQLITE_FLOAT ?
						       sqlite3_column_double(st, c) :
						       (double)sqlite3_column_int64(st, c);
			}
			sqlite3_finalize(st);
		}
		printf("%.3f s %ld rows (sum %g) [%s]\n", cpu() - t, rows, sum,
		       argv[a]);
	}
	sqlite3_close(db);
	return 0;
}
