/* The memory floor of exact statistics over compare's pairs (issue 21,
 * "<= 64 B of peak RSS per pair"): what any program must hold to give
 * an exact median |error| and an exact Spearman over all the pairs of
 * two sources in a perfcorr database, with nothing else.
 *   floor_compare_rss DB MODEL_SOURCE REF_SOURCE
 * It steps floor_compare.c's query (the same merge join) into three
 * arrays sized from runs.n_results up front (model 8 B, reference 8 B,
 * workload id 4 B per pair: the workload is what the bootstrap
 * resamples), then takes the median of the |relative errors| (a copy,
 * 8 B per pair, selected in place) and frees it, then Spearman's rho
 * (one index array, 4 B, and the two rank arrays, 8 B each). Peak:
 * about 40 B per pair plus the process and SQLite; no intervals, no
 * per-metric split, no Kendall, no points to list. Run it under
 * /usr/bin/time -f %M next to compare (tests/bench/notes.md,
 * miss-compare-rss); not part of the build:
 *   cc -O2 -o floor_compare_rss tests/bench/floor_compare_rss.c \
 *      -lsqlite3 -lm
 * Prints "pairs N median M spearman R". */
#include <math.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static const char *Q = "SELECT workload_id, op_id, metric_id, value "
	"FROM results WHERE run_id = ? ORDER BY workload_id, op_id, metric_id";

struct side {
	sqlite3_stmt *st;
	int live;
	int64_t k[3];
};

static void die(sqlite3 *db, const char *what)
{
	fprintf(stderr, "floor_compare_rss: %s: %s\n", what,
		db ? sqlite3_errmsg(db) : "out of memory");
	exit(1);
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die(NULL, "malloc");
	return p;
}

static int64_t latest_run(sqlite3 *db, const char *source, int64_t *n)
{
	sqlite3_stmt *st;
	int64_t id = 0;

	if (sqlite3_prepare_v2(db, "SELECT r.id, r.n_results FROM runs r JOIN "
			       "sources s ON s.id = r.source_id WHERE s.name "
			       "= ? ORDER BY r.id DESC LIMIT 1", -1, &st, NULL))
		die(db, "prepare");
	sqlite3_bind_text(st, 1, source, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		id = sqlite3_column_int64(st, 0);
		*n = sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	if (!id) {
		fprintf(stderr, "floor_compare_rss: no run of source '%s'\n",
			source);
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

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static const double *rank_of;	/* qsort's key array */

static int cmp_idx(const void *a, const void *b)
{
	return cmp_double(&rank_of[*(const uint32_t *)a],
			  &rank_of[*(const uint32_t *)b]);
}

/* ranks 1..n of v (ties: their mean rank) into r, ix as scratch */
static void ranks(const double *v, double *r, uint32_t *ix, size_t n)
{
	for (size_t i = 0; i < n; i++)
		ix[i] = (uint32_t)i;
	rank_of = v;
	qsort(ix, n, sizeof(*ix), cmp_idx);
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && v[ix[j]] == v[ix[i]]; j++)
			;
		for (size_t k = i; k < j; k++)
			r[ix[k]] = (double)(i + j + 1) / 2.0;
	}
}

int main(int argc, char **argv)
{
	sqlite3 *db;
	struct side s[2];
	int64_t nres[2] = { 0, 0 };
	size_t n = 0, cap;
	double *m, *r, *e, *rm, *rr, med, sxy = 0, sxx = 0, syy = 0, mean;
	uint32_t *w, *ix;

	if (argc != 4) {
		fprintf(stderr, "usage: floor_compare_rss DB MODEL REF\n");
		return 2;
	}
	if (sqlite3_open_v2(argv[1], &db, SQLITE_OPEN_READONLY, NULL))
		die(db, argv[1]);
	for (int i = 0; i < 2; i++) {
		int64_t run = latest_run(db, argv[2 + i], &nres[i]);

		if (sqlite3_prepare_v2(db, Q, -1, &s[i].st, NULL))
			die(db, "prepare");
		sqlite3_bind_int64(s[i].st, 1, run);
		s[i].live = 1;
		step(db, &s[i]);
	}
	cap = (size_t)(nres[0] < nres[1] ? nres[0] : nres[1]);
	m = xmalloc(cap * sizeof(*m));
	r = xmalloc(cap * sizeof(*r));
	w = xmalloc(cap * sizeof(*w));
	while (s[0].live && s[1].live && n < cap) {
		int c = cmp(&s[0], &s[1]);

		if (c) {
			step(db, &s[c < 0 ? 0 : 1]);
			continue;
		}
		m[n] = sqlite3_column_double(s[0].st, 3);
		r[n] = sqlite3_column_double(s[1].st, 3);
		w[n++] = (uint32_t)s[0].k[0];
		step(db, &s[0]);
		step(db, &s[1]);
	}
	for (int i = 0; i < 2; i++)
		sqlite3_finalize(s[i].st);
	sqlite3_close(db);
	if (!n) {
		fprintf(stderr, "floor_compare_rss: no pairs\n");
		return 1;
	}
	e = xmalloc(n * sizeof(*e));
	for (size_t i = 0; i < n; i++)
		e[i] = r[i] != 0 ? fabs((m[i] - r[i]) / r[i]) : 0;
	qsort(e, n, sizeof(*e), cmp_double);
	med = n % 2 ? e[n / 2] : (e[n / 2 - 1] + e[n / 2]) / 2;
	free(e);
	ix = xmalloc(n * sizeof(*ix));
	rm = xmalloc(n * sizeof(*rm));
	rr = xmalloc(n * sizeof(*rr));
	ranks(m, rm, ix, n);
	ranks(r, rr, ix, n);
	mean = (double)(n + 1) / 2.0;
	for (size_t i = 0; i < n; i++) {
		sxy += (rm[i] - mean) * (rr[i] - mean);
		sxx += (rm[i] - mean) * (rm[i] - mean);
		syy += (rr[i] - mean) * (rr[i] - mean);
	}
	printf("pairs %zu median %.17g spearman %.17g (workloads up to %u)\n",
	       n, med, sxy / sqrt(sxx * syy), w[n - 1]);
	free(m);
	free(r);
	free(w);
	free(ix);
	free(rm);
	free(rr);
	return 0;
}
