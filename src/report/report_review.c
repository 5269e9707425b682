/* The report's reviews (see report_review.h): what is new and what was
 * resolved since the last recorded review, and recording this one. */
#include "src/report/report_review.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/hmap.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "db/annot.h"
#include "db/review.h"
#include "db/runinfo.h"
#include "src/corr/correlate.h"
#include "src/report/report_model.h"

static char *point_key(const char *w, const char *op, const char *metric)
{
	return xasprintf("%s\x1f%s\x1f%s", w, op, metric);
}

static const char *resolved_reason(const struct corr_point *p, double lim)
{
	if (!p)
		return "no longer paired";
	if (p->flags & CORR_INVALID)
		return "excluded: invalid result";
	if (p->flags & CORR_NOISY_REF)
		return "excluded: noisy reference";
	if (p->flags & CORR_WITHIN_NOISE)
		return "within the reference's noise";
	if (p->ann && p->ann->status && !strcmp(p->ann->status, "fixed") &&
	    fabs(p->err) <= lim)
		return "fixed, now within the limit";
	return "now within the limit";
}

/* Current discrepancies whose key the last review did not list. */
static void mark_new(struct report *r, const struct hmap *prev)
{
	const struct corr_set *s = r->set;
	int64_t idx;

	r->news = xcalloc((size_t)r->ndiscrepancies + 1, sizeof(*r->news));
	for (size_t i = 0; i < s->n; i++) {
		const struct corr_point *p = &s->points[i];
		struct report_change *c;
		char *k;

		if (!report_is_discrepancy(p, r->opts.limit))
			continue;
		k = point_key(p->workload, p->op, p->metric);
		if (!hmap_get(prev, k, &idx)) {
			r->is_new[i] = 1;
			c = &r->news[r->nnew++];
			c->workload = p->workload;
			c->op = p->op;
			c->metric = p->metric;
			c->err_then = NAN;
			c->point = (long)i;
		}
		free(k);
	}
}

/* New since the last review, resolved since, still listed. */
static void diff_review(struct report *r, struct review_item *it, size_t n)
{
	struct hmap cur, prev;
	const struct corr_set *s = r->set;
	int64_t idx;

	hmap_init(&cur);
	hmap_init(&prev);
	r->is_new = xcalloc(s->n + 1, 1);
	for (size_t i = 0; i < s->n; i++) {
		char *k = point_key(s->points[i].workload, s->points[i].op,
				    s->points[i].metric);

		hmap_put(&cur, k, (int64_t)i);
		free(k);
	}
	r->resolved = xcalloc(n + 1, sizeof(*r->resolved));
	for (size_t j = 0; j < n; j++) {
		char *k = point_key(it[j].workload, it[j].op, it[j].metric);
		const struct corr_point *p = NULL;
		struct report_change *c;

		hmap_put(&prev, k, (int64_t)j);
		if (hmap_get(&cur, k, &idx))
			p = &s->points[idx];
		free(k);
		if (p && report_is_discrepancy(p, r->opts.limit)) {
			r->nstill++;
			continue;
		}
		c = &r->resolved[r->nresolved++];
		c->workload = it[j].workload;
		c->op = it[j].op;
		c->metric = it[j].metric;
		c->err_then = it[j].err;
		c->point = p ? (long)(p - s->points) : -1;
		c->reason = resolved_reason(p, r->opts.limit);
	}
	mark_new(r, &prev);
	hmap_release(&cur);
	hmap_release(&prev);
}

int report_review_build(struct report *r, struct db *db,
			struct review_item **items, size_t *n)
{
	int rc = db_review_last(db, r->set->model.source, r->set->ref.source,
				&r->last, items, n);

	if (rc == PC_ENOTFOUND) {
		pc_error_clear();
		*items = NULL;
		*n = 0;
		diff_review(r, NULL, 0);	/* everything is new */
		return 0;
	}
	if (rc < 0)
		return rc;
	r->have_review = 1;
	diff_review(r, *items, *n);
	return 0;
}

int report_review_record(struct db *db, const struct report *r,
			 int64_t *id_out)
{
	const struct corr_set *s = r->set;
	struct review rv = { 0 };
	struct review_item *it = xcalloc((size_t)r->ndiscrepancies + 1,
					 sizeof(*it));
	struct strbuf runs = STRBUF_INIT;
	size_t n = 0;
	int rc;

	for (size_t i = 0; i < s->n; i++) {
		const struct corr_point *p = &s->points[i];

		if (!report_is_discrepancy(p, r->opts.limit))
			continue;
		it[n].workload = (char *)p->workload;
		it[n].op = (char *)p->op;
		it[n].metric = (char *)p->metric;
		it[n].model = p->model;
		it[n].ref = p->ref;
		it[n].err = p->err;
		n++;
	}
	strbuf_addch(&runs, '[');
	for (size_t i = 0; i < r->nruns; i++)
		strbuf_addf(&runs, "%s%lld", i ? "," : "",
			    (long long)r->runs[i].id);
	strbuf_addch(&runs, ']');
	rv.model_source = s->model.source;
	rv.model_version = s->model.version;
	rv.ref_source = s->ref.source;
	rv.ref_version = s->ref.version;
	rv.runs = runs.buf;
	rv.created_at = (char *)r->generated_at;
	rv.limit = r->opts.limit;
	rc = db_review_add(db, &rv, it, n, id_out);
	strbuf_release(&runs);
	free(it);
	return rc;
}
