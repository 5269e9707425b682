/*
 * Test helper for the tests/service scripts (not installed): concurrent writers
 * and readers against one database through the same db/ layer perfcorr
 * uses.
 *   pc_stress annotate DB TAG N   N annotations, one short transaction
 *                                 each; note = "TAG-<i>"
 *   pc_stress read DB SECONDS     list runs and annotations in a loop
 * Any error (for instance "database is locked") is printed and exits 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "db/annot.h"
#include "db/db.h"
#include "db/query.h"
#include "base/error.h"

static int die(const char *what)
{
	fprintf(stderr, "pc_stress %s: %s\n", what, pc_error_last());
	return 1;
}

static int annotate(const char *path, const char *tag, long n)
{
	struct db *db;
	char note[64], wl[64];

	if (db_open(&db, path, 0) < 0)
		return die("annotate");
	for (long i = 0; i < n; i++) {
		struct annot a;

		memset(&a, 0, sizeof(a));
		snprintf(note, sizeof(note), "%s-%ld", tag, i);
		snprintf(wl, sizeof(wl), "w-%s-%ld", tag, i % 7);
		a.workload = wl;
		a.op = "gemm";
		a.metric = "time";
		a.status = "investigating";
		a.category = "modeling-error";
		a.note = note;
		a.author = (char *)tag;
		if (db_annot_add(db, &a, 1, NULL) < 0) {
			db_close(db);
			return die("annotate");
		}
	}
	db_close(db);
	return 0;
}

static int read_loop(const char *path, double seconds)
{
	struct timespec t0, t;
	long rounds = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		struct db *db;
		struct db_cursor *c;
		struct annot *all;
		size_t n;

		if (db_open(&db, path, DB_READONLY) < 0)
			return die("read");
		if (db_list_open(&c, db, DB_LIST_RUNS, NULL) < 0) {
			db_close(db);
			return die("read");
		}
		while (db_cursor_next(c) > 0)
			;
		db_cursor_close(c);
		if (db_annot_all(db, &all, &n) < 0) {
			db_close(db);
			return die("read");
		}
		db_annot_free(all, n);
		db_close(db);
		rounds++;
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((double)(t.tv_sec - t0.tv_sec) +
		 (double)(t.tv_nsec - t0.tv_nsec) / 1e9 < seconds);
	printf("%ld read rounds\n", rounds);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "annotate"))
		return annotate(argv[2], argv[3], atol(argv[4]));
	if (argc == 4 && !strcmp(argv[1], "read"))
		return read_loop(argv[2], atof(argv[3]));
	fprintf(stderr, "usage: pc_stress annotate DB TAG N | read DB SECONDS\n");
	return 2;
}
