/* What `perfcorr report --format html` must add to `compare` (issue 21's
 * "report html <= compare + 0.5 s"): a lower bound measured on this
 * machine. Not part of the build or of `make bench`:
 *   cc -O2 -I. tests/bench/floor_report.c build/libpc_core.a \
 *      build/libpc_db.a $(pkg-config --cflags --libs gsl sqlite3 \
 *      libcjson) -lm -o floor_report
 *   floor_report DB MODEL REF
 * compare already loads the pairs and summarises all of them and each
 * metric (the report's overall and per-metric rows: no more than that).
 * What it does not do and md/html print: (1) the rows per (metric, op
 * class): errors, Pearson, Spearman and the fit (stats_compute_lean);
 * (2) the rows per (metric, op): the error statistics
 * (stats_compute_mixed); (3) the figures: per pair and metric, the
 * scatter's and the error plots' coordinates (log10 of both values, the
 * Bland-Altman mean and log ratio) and the 98% range of |error| (one
 * selection per plot). Each is timed alone (CPU time) on arrays already
 * gathered contiguous per row (the gathering itself is not counted),
 * with no output, no names, no SVG: the least that computing those
 * printed numbers costs. Prints the three times and their sum. */
#include <gsl/gsl_errno.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "db/db.h"
#include "src/corr/correlate.h"
#include "src/stats/stats.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The points of s bucketed by key (contiguous m, r, sd per row), noisy,
 * invalid and zero references left out as the summaries do. */
struct rows {
	double *m, *r, *sd;
	size_t *start, n;
};

static void rows_of(struct rows *o, const struct corr_set *s,
		    const size_t *key, size_t nk)
{
	size_t *at = calloc(nk + 1, sizeof(*at));

	o->start = calloc(nk + 2, sizeof(*o->start));
	o->n = nk;
	for (size_t i = 0; i < s->n; i++) {
		const struct corr_point *p = &s->points[i];

		if (!(p->flags & (CORR_NOISY_REF | CORR_INVALID)) && p->ref)
			o->start[key[i] + 1]++;
	}
	for (size_t k = 0; k < nk; k++)
		o->start[k + 1] += o->start[k];
	memcpy(at, o->start, nk * sizeof(*at));
	o->m = malloc((o->start[nk] + 1) * sizeof(double));
	o->r = malloc((o->start[nk] + 1) * sizeof(double));
	o->sd = malloc((o->start[nk] + 1) * sizeof(double));
	for (size_t i = 0; i < s->n; i++) {
		const struct corr_point *p = &s->points[i];

		if (!(p->flags & (CORR_NOISY_REF | CORR_INVALID)) && p->ref) {
			size_t j = at[key[i]]++;

			o->m[j] = p->model;
			o->r[j] = p->ref;
			o->sd[j] = p->ref_sd;
		}
	}
	free(at);
}

/* A dense key per distinct (metric, op) or (metric, op class), in
 * first-seen order. */
struct seen {
	int64_t metric, op;
	const char *cls;
};

static int same(const struct seen *k, const struct corr_point *p, int by_op)
{
	return k->metric == p->metric_id && (by_op ? k->op == p->op_id :
		k->cls == p->op_class || !strcmp(k->cls, p->op_class));
}

static size_t keys(const struct corr_set *s, int by_op, size_t *key)
{
	struct seen *seen = NULL;
	size_t n = 0;

	for (size_t i = 0; i < s->n; i++) {
		const struct corr_point *p = &s->points[i];
		size_t k = 0;

		while (k < n && !same(&seen[k], p, by_op))
			k++;
		if (k == n) {
			seen = realloc(seen, (n + 1) * sizeof(*seen));
			seen[n++] = (struct seen){ p->metric_id, p->op_id,
						   p->op_class };
		}
		key[i] = k;
	}
	free(seen);
	return n;
}

int main(int argc, char **argv)
{
	struct corr_query q = CORR_QUERY_INIT;
	struct corr_set *s = NULL;
	struct db *db = NULL;
	struct rows cl, op, me;
	struct stats_summary sum;
	size_t *key, ncl, nop, nme = 0;
	double t0, tcl, top, tfig, sink = 0;

	if (argc != 4) {
		fprintf(stderr, "usage: floor_report DB MODEL REF\n");
		return 2;
	}
	gsl_set_error_handler_off();
	q.model = argv[2];
	q.ref = argv[3];
	q.no_params = 1;
	if (db_open(&db, argv[1], DB_READONLY) < 0 ||
	    corr_load(&s, db, &q) < 0 || !s->points) {
		fprintf(stderr, "floor_report: cannot load the pairs\n");
		return 1;
	}
	key = malloc((s->n + 1) * sizeof(*key));
	ncl = keys(s, 0, key);
	rows_of(&cl, s, key, ncl);
	nop = keys(s, 1, key);
	rows_of(&op, s, key, nop);
	for (size_t i = 0; i < s->n; i++) {	/* metric ids: few */
		key[i] = (size_t)s->points[i].metric_id;
		nme = key[i] + 1 > nme ? key[i] + 1 : nme;
	}
	rows_of(&me, s, key, nme);
	/* (1) the op class rows */
	t0 = now();
	for (size_t k = 0; k < cl.n; k++) {
		size_t a = cl.start[k], n = cl.start[k + 1] - a;

		stats_compute_lean(&sum, cl.m + a, cl.r + a, cl.sd + a, n);
		sink += sum.mape;
	}
	tcl = now() - t0;
	/* (2) the op rows */
	t0 = now();
	for (size_t k = 0; k < op.n; k++) {
		size_t a = op.start[k], n = op.start[k + 1] - a;

		stats_compute_mixed(&sum, op.m + a, op.r + a, op.sd + a, n, 0);
		sink += sum.mape;
	}
	top = now() - t0;
	/* (3) the figures' coordinates and ranges, per metric */
	t0 = now();
	for (size_t k = 0; k < me.n; k++) {
		size_t a = me.start[k], n = me.start[k + 1] - a;
		double *x = malloc((n + 1) * sizeof(*x));
		double *y = malloc((n + 1) * sizeof(*y));
		double *e = malloc((n + 1) * sizeof(*e));

		for (size_t i = 0; i < n; i++) {	/* scatter */
			x[i] = log10(me.r[a + i]);
			y[i] = log10(me.m[a + i]);
			sink += x[i] + y[i];
		}
		for (size_t i = 0; i < n; i++)	/* error plot */
			e[i] = fabs((me.m[a + i] - me.r[a + i]) / me.r[a + i]);
		if (n)
			sink += gsl_stats_select(e, 1, n, (size_t)(0.98 *
						 (double)(n - 1)));
		for (size_t i = 0; i < n; i++) {	/* Bland-Altman */
			double mm = me.m[a + i], rr = me.r[a + i];

			x[i] = log10(sqrt(mm * rr));
			e[i] = fabs(log(mm / rr));
			sink += x[i];
		}
		if (n)
			sink += gsl_stats_select(e, 1, n, (size_t)(0.98 *
						 (double)(n - 1)));
		free(x);
		free(y);
		free(e);
	}
	tfig = now() - t0;
	printf("pairs %zu: op class rows %zu %.3f s, op rows %zu %.3f s, "
	       "figures %.3f s, sum %.3f s (%g)\n", s->n, ncl, tcl, nop, top,
	       tfig, tcl + top + tfig, sink);
	corr_set_free(s);
	db_close(db);
	return 0;
}
