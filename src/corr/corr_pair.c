/*
 * Pairing (see correlate_int.h): both sides stream from db/pairs.c already
 * reduced to one result per (workload, op, metric) in key order, with
 * the --metric and --op selections applied in the SQL; a merge join on
 * (workload, op) advances the two streams together and pairs the
 * metrics of each common (workload, op), converting cycles to time
 * through the clocks. Neither side is held whole: one (workload, op)
 * group of each at a time. Here: corr_pair, the join, the platforms;
 * the filters and points of one group are corr_pair_point.c, the
 * "nothing matched" explanation corr_pair_why.c (corr_pair_int.h).
 */
#include <stdlib.h>
#include <string.h>

#include "db/pairs.h"
#include "src/corr/annot.h"
#include "src/corr/corr_fp.h"
#include "base/error.h"
#include "src/corr/correlate_int.h"
#include "src/corr/corr_pair_int.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "src/corr/corr_roof.h"

static int wo_cmp(const struct db_result *a, const struct db_result *b)
{
	if (a->workload_id != b->workload_id)
		return a->workload_id < b->workload_id ? -1 : 1;
	if (a->op_id != b->op_id)
		return a->op_id < b->op_id ? -1 : 1;
	return 0;
}

/* One side's stream, read a (workload, op) group at a time: v[0..n) is
 * the current group (n = 0 at the end), next the row after it. */
struct group {
	struct db_pairs_cur *c;
	const struct db_result *next;
	struct db_result *v;
	size_t n, cap;
};

static int group_open(struct group *g, struct db *db,
		      const struct db_side *side, const struct pairing *pr,
		      const struct db_pairs_filter *f)
{
	int rc;

	memset(g, 0, sizeof(*g));
	if ((rc = db_pairs_open(&g->c, db, side, pr->q->pool, pr->q->only,
				f)) < 0)
		return rc;
	rc = db_pairs_next(g->c, &g->next);
	if (rc == 0)
		g->next = NULL;
	return rc < 0 ? rc : 0;
}

static int group_fill(struct group *g)
{
	int rc;

	g->n = 0;
	while (g->next && (g->n == 0 || !wo_cmp(g->next, &g->v[0]))) {
		g->v = xgrow(g->v, &g->cap, g->n, sizeof(*g->v));
		g->v[g->n++] = *g->next;
		if ((rc = db_pairs_next(g->c, &g->next)) < 0)
			return rc;
		if (rc == 0)
			g->next = NULL;
	}
	return 0;
}

static void group_close(struct group *g)
{
	db_pairs_close(g->c);
	free(g->v);
}

/* The --metric and --op selections as id lists for the SQL: the model
 * side also reads the metric that converts (time <-> cycles). An op
 * glob matching most ops is left to key_ok (a long IN list costs more
 * than it skips). */
struct sel {
	int64_t metrics[2], *ops;
	struct db_pairs_filter model, ref;
};

static void sel_make(struct sel *sl, const struct pairing *pr)
{
	const struct corr_query *q = pr->q;
	size_t nops = pr->st->ndict[DB_DICT_OPS], k = 0;

	memset(sl, 0, sizeof(*sl));
	if (pr->metric_id >= 0) {
		sl->metrics[0] = pr->metric_id;
		sl->ref.metrics = sl->model.metrics = sl->metrics;
		sl->ref.nmetrics = sl->model.nmetrics = 1;
		if (pr->metric_id == pr->time_id && pr->cycles_id >= 0)
			sl->metrics[sl->model.nmetrics++] = pr->cycles_id;
		else if (pr->metric_id == pr->cycles_id && pr->time_id >= 0)
			sl->metrics[sl->model.nmetrics++] = pr->time_id;
	}
	if (!q->op_glob)
		return;
	sl->ops = xmalloc((nops + 1) * sizeof(*sl->ops));
	for (size_t i = 0; i < nops; i++)
		if (util_glob(q->op_glob, pr->st->dict[DB_DICT_OPS][i].name))
			sl->ops[k++] = pr->st->dict[DB_DICT_OPS][i].id;
	if (k == 0)	/* nothing: an id no result has */
		sl->ops[k++] = 0;
	if (k <= 256) {
		sl->model.ops = sl->ref.ops = sl->ops;
		sl->model.nops = sl->ref.nops = k;
		sl->model.nworkloads = sl->ref.nworkloads =
			pr->st->ndict[DB_DICT_WORKLOADS];
	}
}

/* Advance both streams together; pair each common (workload, op). Both
 * are read to their ends: an error of a side (a key on two platforms,
 * cycles that cannot pool) holds wherever the key lies. */
static int merge_join(struct pairing *pr, struct db *db)
{
	struct group m, r;
	struct sel sl;
	int rc;

	sel_make(&sl, pr);
	memset(&r, 0, sizeof(r));
	if ((rc = group_open(&m, db, pr->ms, pr, &sl.model)) < 0 ||
	    (rc = group_open(&r, db, pr->rs, pr, &sl.ref)) < 0 ||
	    (rc = group_fill(&m)) < 0 || (rc = group_fill(&r)) < 0)
		goto out;
	while (m.n || r.n) {
		int c = !m.n ? 1 : !r.n ? -1 : wo_cmp(&m.v[0], &r.v[0]);

		if (c == 0 &&
		    corr_pair_key_ok(pr, m.v[0].workload_id, m.v[0].op_id) &&
		    (rc = corr_pair_group(pr, m.v, m.n, r.v, r.n)) < 0)
			break;
		if (c != 0)	/* one side only: its parameters count too */
			corr_pair_workload_ok(pr,
				(c < 0 ? m.v : r.v)[0].workload_id);
		if ((c <= 0 && (rc = group_fill(&m)) < 0) ||
		    (c >= 0 && (rc = group_fill(&r)) < 0))
			break;
	}
out:
	group_close(&m);
	group_close(&r);
	free(sl.ops);
	return rc;
}

/* The platforms both sides hold, when each holds several (and none was
 * chosen): the pairing then goes platform by platform. */
static size_t common_platforms(const struct db_side *ms,
			       const struct db_side *rs, const char ***out)
{
	const char **a, **b;
	size_t na = db_side_platforms(ms, &a), nb = db_side_platforms(rs, &b);
	size_t n = 0;

	*out = NULL;
	if (na >= 2 && nb >= 2) {
		*out = xmalloc((na + 1) * sizeof(**out));
		for (size_t i = 0; i < na; i++)
			for (size_t j = 0; a[i] && j < nb; j++)
				if (b[j] && !strcmp(a[i], b[j]))
					(*out)[n++] = a[i];
	}
	free(a);
	free(b);
	return n;
}

/* Pair platform by platform: each side restricted to one platform. */
static int pair_platforms(struct pairing *pr, struct db *db,
			  const char *const *plat, size_t np)
{
	int rc = 0;

	for (size_t i = 0; i < np && !rc; i++) {
		struct db_side ms, rs;
		const struct db_side *oms = pr->ms, *ors = pr->rs;

		memset(&ms, 0, sizeof(ms));
		memset(&rs, 0, sizeof(rs));
		if (!(rc = db_pairs_side(db, oms->source, oms->version, &ms)) &&
		    !(rc = db_side_restrict(&ms, plat[i])) &&
		    !(rc = db_pairs_side(db, ors->source, ors->version, &rs)) &&
		    !(rc = db_side_restrict(&rs, plat[i]))) {
			pr->ms = &ms;
			pr->rs = &rs;
			rc = merge_join(pr, db);
			pr->ms = oms;
			pr->rs = ors;
		}
		db_side_release(&ms);
		db_side_release(&rs);
	}
	if (!rc && pr->set->n == 0 && !pr->set->not_comparable) {
		struct strbuf sb = STRBUF_INIT;

		for (size_t i = 0; i < np; i++)
			strbuf_addf(&sb, "%s'%s'", i ? ", " : "", plat[i]);
		rc = pc_error_set(PC_ENOTFOUND, "nothing matched: '%s@%s' and "
				  "'%s@%s' were paired platform by platform "
				  "(%s) and no platform pairs anything",
				  pr->ms->source, pr->ms->version,
				  pr->rs->source, pr->rs->version,
				  np ? strbuf_str(&sb) : "none in common");
		strbuf_release(&sb);
	}
	return rc;
}

static int pair_all(struct pairing *pr, struct db *db)
{
	struct db_result *m = NULL, *r = NULL;
	size_t nm = 0, nr = 0, np = 0;
	const char **plat = NULL;
	int rc = 0, by_platform;

	pr->wl_ok = xmalloc(pr->st->ndict[DB_DICT_WORKLOADS] + 1);
	pr->wl_sel = xcalloc(pr->st->ndict[DB_DICT_WORKLOADS] + 1, 1);
	pr->op_ok = xmalloc(pr->st->ndict[DB_DICT_OPS] + 1);
	memset(pr->wl_ok, -1, pr->st->ndict[DB_DICT_WORKLOADS] + 1);
	memset(pr->op_ok, -1, pr->st->ndict[DB_DICT_OPS] + 1);
	/* both sides on several platforms, none chosen: pair on platform */
	if (!pr->q->model_platform && !pr->q->ref_platform)
		np = common_platforms(pr->ms, pr->rs, &plat);
	by_platform = plat != NULL;
	if (by_platform) {
		rc = pair_platforms(pr, db, plat, np);
	} else {
		rc = merge_join(pr, db);
	}
	if (!rc && pr->set->n == 0 && by_platform && pr->metric_unknown)
		rc = pc_error_set(PC_ENOTFOUND, "no metric named '%s'",
				  pr->q->metric);
	if (!rc && pr->set->n == 0 && pr->set->not_comparable)
		rc = pc_error_set(PC_EINVALID, "not comparable: all %ld pairs "
				  "of '%s@%s' and '%s@%s' were refused (%ld run "
				  "pairs): %s", pr->set->not_comparable,
				  pr->ms->source, pr->ms->version,
				  pr->rs->source, pr->rs->version,
				  pr->set->not_comparable_runs,
				  pr->set->not_comparable_why);
	if (!rc)
		rc = corr_pair_where_unknown(pr);
	if (!rc) {
		size_t nw = pr->st->ndict[DB_DICT_WORKLOADS];

		pr->st->wl_selected = xcalloc(nw + 1, 1);
		for (size_t k = 0; k < nw; k++)
			pr->st->wl_selected[k] = pr->wl_ok[k] > 0;
	}
	/* nothing paired: read both sides whole, unfiltered, to say what
	 * each filter left (only on this error path) */
	if (!rc && pr->set->n == 0 && !by_platform &&
	    (rc = db_pairs_results(db, pr->ms, pr->q->pool, pr->q->only, &m,
				   &nm)) == 0 &&
	    (rc = db_pairs_results(db, pr->rs, pr->q->pool, pr->q->only, &r,
				   &nr)) == 0)
		rc = corr_pair_nothing_matched(pr, m, nm, r, nr);
	free(plat);
	free(pr->wl_ok);
	free(pr->wl_sel);
	free(pr->op_ok);
	free(m);
	free(r);
	return rc;
}

static int prepare(struct pairing *pr)
{
	const struct corr_query *q = pr->q;

	pr->time_id = corr_metric_id(pr->st, "time");
	pr->cycles_id = corr_metric_id(pr->st, "cycles");
	pr->metric_id = -1;
	/* an unknown --metric pairs nothing; the refusal then lists the
	 * metrics each side has (issue 35 item 10) */
	if (q->metric && (pr->metric_id = corr_metric_id(pr->st, q->metric)) < 0) {
		pr->metric_unknown = 1;
		pr->metric_id = INT64_MAX;
	}
	annot_today(pr->today, sizeof(pr->today));
	return corr_pair_check_where(pr);
}

int corr_pair(struct corr_set *s, struct db *db, const struct corr_query *q,
	      const struct db_side *ms, const struct db_side *rs)
{
	struct pairing pr;
	int rc;

	memset(&pr, 0, sizeof(pr));
	pr = (struct pairing){ .q = q, .set = s, .st = s->store, .ms = ms,
			       .rs = rs };
	if (!(rc = prepare(&pr)) &&
	    !(rc = corr_fp_load(&pr.fp, db, ms, rs, q->allow_mismatch)) &&
	    !(rc = corr_roof_load(&pr.roof, db, q, ms, rs,
				  s->store->dict[DB_DICT_METRICS],
				  s->store->ndict[DB_DICT_METRICS])))
		rc = pair_all(&pr, db);
	if (!rc && pr.roof.nsides)
		corr_roof_note(s, &pr.roof);
	corr_roof_free(&pr.roof);
	corr_fp_free(pr.fp);
	for (size_t i = 0; i < pr.nwhere; i++) {
		free(pr.wname[i]);
		free(pr.wval[i]);
	}
	free(pr.wname);
	free(pr.wval);
	free(pr.wseen);
	return rc;
}
