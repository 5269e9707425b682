/* The report model: everything the writers show, from the core (see
 * report.h). */
#include "src/matrix/matrix.h"
#include "src/report/report_matrix.h"
#include "src/report/report.h"
#include "src/report/report_prev.h"
#include "src/report/report_review.h"
#include "src/report/report_tables.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/query.h"
#include "db/review.h"
#include "db/runinfo.h"
#include "db/annot.h"
#include "src/corr/corrcpd.h"
#include "src/corr/correlate.h"
#include "src/stats/stats_ci.h"
#include "base/error.h"
#include "src/report/report_gate.h"
#include "src/report/report_sens.h"
#include "src/report/report_tiers.h"
#include "src/report/report_calib.h"
#include "src/report/report_slo.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "src/corr/corr_roof.h"
#include "src/gate/policy.h"

/* The report's summaries carry compare's default intervals. */
static const struct stats_paired_opts report_ci = { STATS_CI_RESAMPLES,
	STATS_PAIRED_SEED, STATS_PAIRED_LEVEL, STATS_CI_AUTO };

#define EXCLUDED (CORR_NOISY_REF | CORR_INVALID)
#define REPORT_TREND_MAX 12	/* newest model versions in the trend */

/* Sort names by count, most first, then by name; counts move along, and
 * perm[old position] = new position. */
static void sort_by_count(char **names, long *cnt, size_t n, uint32_t *perm)
{
	size_t *at = xcalloc(n + 1, sizeof(*at));

	for (size_t i = 0; i < n; i++)
		at[i] = i;
	for (size_t i = 1; i < n; i++) {	/* insertion sort: few */
		char *c = names[i];
		long k = cnt[i];
		size_t o = at[i], j;

		for (j = i; j > 0 && (cnt[j - 1] < k || (cnt[j - 1] == k &&
		     strcmp(names[j - 1], c) > 0)); j--) {
			cnt[j] = cnt[j - 1];
			names[j] = names[j - 1];
			at[j] = at[j - 1];
		}
		cnt[j] = k;
		names[j] = c;
		at[j] = o;
	}
	for (size_t i = 0; i < n; i++)
		perm[at[i]] = (uint32_t)i;
	free(at);
}

/*
 * The position of each point's metric (field 0) or op class (field 1)
 * among *names, into idx[0..s->n). With add, a name not there yet is
 * appended and the list ends sorted by count, most points first (then
 * by name); without, an unknown name is *n (no bucket). The name is
 * found once per id (metric id; op id, whose class follows its op) and
 * a point only checks that it carries the same string as the point
 * that found it: no string compare per point (the report's tables
 * filtered every point by strcmp, once per metric x op class).
 */
static void point_names(const struct corr_set *s, int field, char ***names,
			size_t *n, int add, uint32_t *idx)
{
	struct memo {
		const char *str;
		uint32_t k;
	} *memo = NULL;
	int64_t max = -1;
	long *cnt = NULL;
	uint32_t *perm;

	for (size_t i = 0; i < s->n; i++) {
		int64_t id = field ? s->points[i].op_id : s->points[i].metric_id;

		max = id > max ? id : max;
	}
	if (max >= 0 && max <= (int64_t)(4 * s->n + 1024))
		memo = xcalloc((size_t)max + 1, sizeof(*memo));
	for (size_t i = 0; i < s->n; i++) {
		const struct corr_point *p = &s->points[i];
		int64_t id = field ? p->op_id : p->metric_id;
		const char *str = field ? p->op_class : p->metric;
		int known = memo && id >= 0;
		size_t k;

		if (known && memo[id].str == str) {
			idx[i] = memo[id].k;
		} else {
			for (k = 0; k < *n && strcmp((*names)[k], str); k++)
				;
			if (k == *n && add) {
				*names = xrealloc(*names, (k + 1) *
						  sizeof(**names));
				(*names)[k] = xstrdup(str);
				cnt = xrealloc(cnt, (k + 1) * sizeof(*cnt));
				cnt[k] = 0;
				(*n)++;
			}
			idx[i] = (uint32_t)k;
			if (known)
				memo[id] = (struct memo){ str, (uint32_t)k };
		}
		if (add)
			cnt[idx[i]]++;
	}
	free(memo);
	if (!add)
		return;
	perm = xcalloc(*n + 1, sizeof(*perm));
	sort_by_count(*names, cnt, *n, perm);
	for (size_t i = 0; i < s->n; i++)
		idx[i] = perm[idx[i]];
	free(perm);
	free(cnt);
}

/* Metrics (most pairs first) with their units from the metrics table. */
static int collect_metrics(struct report *r, struct db *db)
{
	struct db_cursor *c;
	int rc;

	r->pmetric = xcalloc(r->set->n + 1, sizeof(*r->pmetric));
	point_names(r->set, 0, &r->metrics, &r->nmetrics, 1, r->pmetric);
	r->units = xcalloc(r->nmetrics ? r->nmetrics : 1, sizeof(char *));
	if ((rc = db_list_open(&c, db, DB_LIST_METRICS, NULL)) < 0)
		return rc;
	while ((rc = db_cursor_next(c)) > 0)
		for (size_t i = 0; i < r->nmetrics; i++)
			if (!strcmp(r->metrics[i], db_cursor_text(c, 0)))
				r->units[i] = xstrdup(db_cursor_text(c, 2));
	db_cursor_close(c);
	for (size_t i = 0; i < r->nmetrics; i++)
		if (!r->units[i])
			r->units[i] = xstrdup("");
	return rc < 0 ? rc : 0;
}

/*
 * One row of the accuracy tables. md and html (opts.lean) print its
 * errors, Pearson, Spearman and the fit's slope, the figures its limits
 * of agreement and optimism (all of them stats_compute_lean's, each the
 * full computation's bits: tests/unit/test_corrout.c), and its interval
 * only as "few pairs" under a policy: a row is summarised without the
 * bootstrap, and again with it when it turns out to have few pairs (the
 * draws depend on the seed and the workloads only: the same interval as
 * in a report that bootstraps every row). csv and json: everything.
 */
static int group_summary(struct report *r, struct report_group *g,
			 const struct corr_rows *rows, size_t k)
{
	const struct stats_paired_opts *ci = r->set->ci;
	int rc;

	if (!r->opts.lean)
		return corr_rows_summary(&g->s, r->set, rows, k, 0);
	r->set->lean = CORR_LEAN_CORR;
	r->set->ci = NULL;
	rc = corr_rows_summary(&g->s, r->set, rows, k, 0);
	r->set->ci = ci;
	if (rc >= 0 && ci && r->min_pairs > 0 && g->s.n < r->min_pairs)
		rc = corr_rows_summary(&g->s, r->set, rows, k, 0);
	r->set->lean = 0;
	return rc;
}

/* Per metric: every op class, then each class that has points; each
 * table's points come from one bucketing of the set by metric and one
 * by (metric, op class), in set order (corr_rows). */
static int build_groups(struct report *r)
{
	size_t nm = r->nmetrics, nc = r->nclasses, n = r->set->n;
	size_t cap = nm * (nc + 1);
	uint32_t *key = xmalloc((n + 1) * sizeof(*key));
	struct corr_rows bym, bymc;
	int rc = 0;

	corr_rows_build(&bym, r->set, r->pmetric, nm);
	for (size_t i = 0; i < n; i++)
		key[i] = (uint32_t)(r->pmetric[i] * nc + r->pclass[i]);
	corr_rows_build(&bymc, r->set, key, nm * nc);
	free(key);
	r->groups = xcalloc(cap ? cap : 1, sizeof(*r->groups));
	for (size_t m = 0; m < nm && rc >= 0; m++) {
		for (size_t c = 0; c <= nc && rc >= 0; c++) {
			struct report_group *g = &r->groups[r->ngroups];
			size_t k = c ? m * nc + c - 1 : m;
			const struct corr_rows *rows = c ? &bymc : &bym;

			if (c && rows->start[k + 1] == rows->start[k])
				continue;
			g->metric = r->metrics[m];
			g->op_class = c ? r->classes[c - 1] : NULL;
			g->unit = r->units[m];
			rc = group_summary(r, g, rows, k);
			if (rc >= 0)
				r->ngroups++;
		}
	}
	corr_rows_release(&bym);
	corr_rows_release(&bymc);
	return rc < 0 ? rc : 0;
}

static int load_runs(struct report *r, struct db *db)
{
	const struct corr_set *s = r->set;
	size_t n = s->model.nruns + s->ref.nruns;
	int64_t *ids = xcalloc(n ? n : 1, sizeof(*ids));
	int rc;

	for (size_t i = 0; i < s->model.nruns; i++)
		ids[i] = s->model.runs[i];
	for (size_t i = 0; i < s->ref.nruns; i++)
		ids[s->model.nruns + i] = s->ref.runs[i];
	rc = db_runinfo_get(db, ids, n, &r->runs);
	free(ids);
	if (rc < 0)
		return rc;
	r->nruns = n;
	r->nmodel_runs = s->model.nruns;
	return 0;
}

static void push(size_t **v, size_t *n, size_t i)
{
	if (!(*n & (*n + 1)) || !*v)
		*v = xrealloc(*v, (*n * 2 + 2) * sizeof(**v));
	(*v)[(*n)++] = i;
}

/* The discrepancies (at most top; the open ones and the others apart),
 * the pairs closest to the limit below them, speed-of-light violations, noisy references (set order,
 * i.e. by |error|, largest first). */
static void classify(struct report *r)
{
	for (size_t i = 0; i < r->set->n; i++) {
		const struct corr_point *p = &r->set->points[i];

		if (p->flags & CORR_NOISY_REF)
			push(&r->noisy, &r->nnoisy, i);
		if (p->flags & CORR_SOL_VIOLATION)
			push(&r->sol, &r->nsol, i);
		if (p->flags & EXCLUDED || !isfinite(p->err))
			continue;
		if (!report_is_discrepancy(p, r->opts.limit)) {
			if (r->nnear < REPORT_NEAR_MAX)
				push(&r->near, &r->nnear, i);
			else if (p->ann)
				push(&r->noted, &r->nnoted, i);
			continue;
		}
		if (r->ntop < r->opts.top)
			push(&r->top, &r->ntop, i);
		r->ndiscrepancies++;
		if (!report_is_open(p)) {
			if (r->nsettled < r->opts.top)
				push(&r->settled, &r->nsettled, i);
		} else if (r->nopen_all++ < (long)r->opts.top) {
			push(&r->open, &r->nopen, i);
		}
	}
}

/* MAPE per metric of set s into t[0..nmetrics) (NaN: no pair). The
 * report's own set has it in its tables already (the metric's row over
 * every op class: the same points in the same order); another
 * version's set is bucketed by metric once. */
static void trend_row(struct report *r, const struct corr_set *s,
		      double *t)
{
	size_t nm = r->nmetrics;
	struct corr_rows rows;
	uint32_t *key;

	for (size_t m = 0; m < nm; m++)
		t[m] = NAN;
	if (s == r->set) {
		for (size_t i = 0; i < r->ngroups; i++) {
			const struct report_group *g = &r->groups[i];

			for (size_t m = 0; !g->op_class && m < nm; m++)
				if (g->metric == r->metrics[m] && g->s.n > 0)
					t[m] = g->s.mape;
		}
		return;
	}
	key = xmalloc((s->n + 1) * sizeof(*key));
	point_names(s, 0, &r->metrics, &nm, 0, key);
	corr_rows_build(&rows, s, key, nm);
	for (size_t m = 0; m < nm; m++) {
		struct stats_summary sum;

		if (corr_rows_summary(&sum, s, &rows, m, 0) == 0 && sum.n > 0)
			t[m] = sum.mape;
	}
	free(key);
	corr_rows_release(&rows);
}

/* MAPE of every model version against the same reference version. */
static int build_trend(struct report *r, struct db *db)
{
	struct corr_query q = CORR_QUERY_INIT;
	struct corr_cpd_series *series;
	char *ref = xasprintf("%s@%s", r->set->ref.source,
			      r->set->ref.version);
	int rc = corr_versions(db, r->set->model.source, &r->versions,
			       &r->nversions);

	if (rc == 0 && r->nversions > REPORT_TREND_MAX) {
		size_t drop = r->nversions - REPORT_TREND_MAX;

		for (size_t i = 0; i < drop; i++)
			free(r->versions[i]);
		memmove(r->versions, r->versions + drop,
			REPORT_TREND_MAX * sizeof(char *));
		r->nversions = REPORT_TREND_MAX;
	}
	r->trend = xcalloc(r->nversions * r->nmetrics + 1, sizeof(double));
	series = corr_cpd_series_new(0);
	corr_cpd_series_expect(series, r->nversions);
	q.ref = ref;
	q.max_ref_cv = r->opts.max_ref_cv;
	q.roofline = r->opts.roofline;
	q.allow_mismatch = r->allow;
	for (size_t v = 0; !rc && v < r->nversions; v++) {
		struct corr_set *s = NULL;
		char *model = xasprintf("%s@%s", r->set->model.source,
					r->versions[v]);

		q.model = model;
		if (!strcmp(r->versions[v], r->set->model.version))
			s = r->set;	/* the report's own set: no reload */
		else
			rc = corr_load(&s, db, &q);
		corr_cpd_series_add(series, rc ? NULL : s);
		if (!rc)
			trend_row(r, s, &r->trend[v * r->nmetrics]);
		else
			for (size_t m = 0; m < r->nmetrics; m++)
				r->trend[v * r->nmetrics + m] = NAN;
		if (rc == PC_ENOTFOUND)	/* this version pairs nothing */
			rc = 0;
		if (s != r->set)
			corr_set_free(s);
		free(model);
	}
	if (!rc) {
		r->cpd = xcalloc(1, sizeof(*r->cpd));
		corr_cpd_compute(r->cpd, series, NULL);
	}
	corr_cpd_series_free(series);
	free(ref);
	return rc;
}

static void set_defaults(struct report *r, const struct report_opts *o)
{
	r->opts = *o;
	if (!r->opts.top)
		r->opts.top = 20;
	if (!(r->opts.limit > 0))
		r->opts.limit = 0.10;
	if (!(r->opts.max_ref_cv > 0))
		r->opts.max_ref_cv = 0.30;
	r->gate_verdict = -1;
	r->last.limit = NAN;
	util_now_iso(r->generated_at, sizeof(r->generated_at));
}

int report_build(struct report **out, struct db *db,
		 const struct report_opts *o)
{
	struct report *r = xcalloc(1, sizeof(*r));
	struct corr_query q = CORR_QUERY_INIT;
	struct review_item *items = NULL;
	size_t nitems = 0;
	int rc;

	set_defaults(r, o);
	q.model = o->model;
	q.ref = o->ref;
	q.max_ref_cv = r->opts.max_ref_cv;
	q.roofline = o->roofline;
	/* no section groups by a workload parameter (the gate's param.
	 * rules read the workload key): the parameters are not loaded */
	q.no_params = 1;
	/* the fields allowed to differ: --allow-mismatch, else the
	 * policy's (as the gate's), in every pairing of the report */
	if (r->opts.policy && (rc = report_gate_load(r)) < 0)
		goto done;
	r->allow = o->allow_mismatch ? o->allow_mismatch : r->policy ?
		   (const char *const *)r->policy->allow_mismatch : NULL;
	q.allow_mismatch = r->allow;
	if ((rc = corr_load(&r->set, db, &q)) < 0 ||
	    (!r->opts.points_only && (rc = report_calib_build(r, db)) < 0))
		goto done;
	r->set->ci = &report_ci;	/* compare's default intervals */
	r->pclass = xcalloc(r->set->n + 1, sizeof(*r->pclass));
	point_names(r->set, 1, &r->classes, &r->nclasses, 1, r->pclass);
	if ((rc = collect_metrics(r, db)) < 0 || (rc = load_runs(r, db)) < 0)
		goto done;
	/* every summary below reads the compact copy of the points */
	corr_set_view(r->set);
	/* the few-pairs rows need the policy's min_pairs */
	if (r->opts.policy && !r->opts.points_only &&
	    (rc = report_gate_load(r)) < 0)
		goto done;
	/* html prints none of the overall summary's intervals */
	if (r->opts.lean == REPORT_LEAN_HTML)
		r->set->ci = NULL;
	if (!r->opts.points_only &&
	    (rc = corr_summary(&r->all, r->set, NULL, NULL, 0)) < 0)
		goto done;
	r->set->ci = &report_ci;
	if (!r->opts.points_only && (rc = build_groups(r)) < 0)
		goto done;
	classify(r);
	if (!r->opts.points_only) {
		/* no writer prints an interval per op: none is computed */
		const struct stats_paired_opts *ci = r->set->ci;

		r->set->ci = NULL;
		rc = report_ops_build(r);
		r->set->ci = ci;
		if (rc < 0)
			goto done;
	}
	corr_set_view_drop(r->set);
	/* like the trend, it loads another version: --no-trend skips it */
	if (!r->opts.points_only && r->opts.trend &&
	    (rc = report_prev_build(r, db)) < 0)
		goto done;
	if (r->opts.trend && !r->opts.points_only &&
	    (rc = build_trend(r, db)) < 0)
		goto done;
	if (r->opts.since_last_review &&
	    (rc = report_review_build(r, db, &items, &nitems)) < 0)
		goto done;
	if (r->opts.policy && !r->opts.points_only &&
	    (rc = report_gate(r, db)) < 0)
		goto done;
	if (!r->opts.points_only && (rc = report_sens_build(r, db)) < 0)
		goto done;
	if (!r->opts.points_only && (rc = report_slo_build(r)) < 0)
		goto done;
	if (!r->opts.points_only && (rc = report_tiers_build(r, db)) < 0)
		goto done;
	if (r->opts.matrix && !r->opts.points_only)
		rc = report_matrix_build(r, db);
done:
	if (rc < 0) {
		db_review_items_free(items, nitems);
		report_free(r);
		return rc;
	}
	/* resolved entries borrow the items' strings: keep them alive */
	r->last_items = items;
	r->nlast_items = nitems;
	*out = r;
	return 0;
}

int report_record(struct db *db, const struct report *r, int64_t *id_out)
{
	return report_review_record(db, r, id_out);
}

static void free_strv(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void report_free(struct report *r)
{
	if (!r)
		return;
	corr_set_free(r->set);
	free_strv(r->metrics, r->nmetrics);
	free_strv(r->units, r->nmetrics);
	free_strv(r->classes, r->nclasses);
	free_strv(r->versions, r->nversions);
	free(r->groups);
	free(r->pmetric);
	free(r->pclass);
	db_runinfo_free(r->runs, r->nruns);
	free(r->trend);
	if (r->cpd)
		corr_cpd_release(r->cpd);
	free(r->cpd);
	free(r->top);
	free(r->open);
	free(r->settled);
	free(r->near);
	free(r->noted);
	free(r->sol);
	free(r->noisy);
	free(r->is_new);
	free(r->news);
	free(r->resolved);
	db_review_release(&r->last);
	db_review_items_free(r->last_items, r->nlast_items);
	free(r->gate_text);
	report_gate_free(r);
	report_ops_free(r);
	report_prev_free(r);
	report_sens_free(r);
	report_tiers_free(r);
	report_calib_free(r);
	report_slo_free(r);
	matrix_free(r->matrix);
	free(r->matrix_note);
	free(r);
}
