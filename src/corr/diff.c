/* What moved between two pairings (see diff.h). */
#include "src/corr/diff.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

const char *const diff_cause_names[4] = { "none", "model", "reference",
	"both" };

static const struct corr_point **by_key(const struct corr_set *s)
{
	const struct corr_point **v = xmalloc((s->n + 1) * sizeof(*v));

	for (size_t i = 0; i < s->n; i++)
		v[i] = &s->points[i];
	qsort(v, s->n, sizeof(*v), diff_ptr_cmp);
	return v;
}

static int changed(double tol, double x, double y)
{
	return fabs(y - x) > tol * fmax(fabs(x), fabs(y));
}

static int usable(const struct corr_point *p)
{
	return !(p->flags & (CORR_INVALID | CORR_NOISY_REF));
}

static void add_change(struct diff *d, const struct corr_point *b,
		       const struct corr_point *p)
{
	struct diff_change *c = &d->ch[d->n++];
	int mc = changed(d->tol, b->model, p->model);
	int rc = changed(d->tol, b->ref, p->ref);

	c->b = b;
	c->a = p;
	c->delta = p->err - b->err;
	c->cause = mc && rc ? DIFF_BOTH : mc ? DIFF_MODEL : rc ? DIFF_REF :
		   DIFF_NONE;
	d->causes[c->cause]++;
	if (fabs(c->delta) >= d->min_delta)
		d->moved++;
}

static int delta_desc(const void *x, const void *y)
{
	double p = fabs(((const struct diff_change *)x)->delta);
	double q = fabs(((const struct diff_change *)y)->delta);

	if (isnan(p) || isnan(q))
		return isnan(p) - isnan(q);
	return (p < q) - (p > q);
}

/* MAPE split: new model vs old reference, old model vs new reference. */
static int split_stats(struct diff *d)
{
	size_t n = 0;
	double *m1 = xmalloc((d->n + 1) * sizeof(double) * 4);
	double *r1 = m1 + d->n + 1, *m2 = r1 + d->n + 1, *r2 = m2 + d->n + 1;
	int rc;

	for (size_t i = 0; i < d->n; i++) {
		if (!usable(d->ch[i].b) || !usable(d->ch[i].a))
			continue;
		m1[n] = d->ch[i].b->model;
		r1[n] = d->ch[i].b->ref;
		m2[n] = d->ch[i].a->model;
		r2[n++] = d->ch[i].a->ref;
	}
	rc = stats_compute(&d->model_only, m2, r1, NULL, n);
	if (!rc)
		rc = stats_compute(&d->ref_only, m1, r2, NULL, n);
	free(m1);
	return rc;
}

static int match(struct diff *d)
{
	const struct corr_point **b = by_key(d->before), **p = by_key(d->after);
	size_t i = 0, j = 0, nb = d->before->n, na = d->after->n;
	int rc;

	d->ch = xcalloc(nb + 1, sizeof(*d->ch));
	d->gone = xcalloc(nb + 1, sizeof(*d->gone));
	d->added = xcalloc(na + 1, sizeof(*d->added));
	while (i < nb || j < na) {
		int c = i == nb ? 1 : j == na ? -1 : diff_key_cmp(b[i], p[j]);

		if (c < 0) {
			d->gone[d->only_before++] = b[i++];
		} else if (c > 0) {
			d->added[d->only_after++] = p[j++];
		} else {
			add_change(d, b[i++], p[j++]);
		}
	}
	free(b);
	free(p);
	qsort(d->ch, d->n, sizeof(*d->ch), delta_desc);
	if ((rc = corr_summary(&d->sb, d->before, NULL, NULL, 0)) < 0 ||
	    (rc = corr_summary(&d->sa, d->after, NULL, NULL, 0)) < 0)
		return rc;
	corr_change_compute(&d->change, d->before, d->after, 0, 0);
	return split_stats(d);
}


int diff_build(struct diff *d, struct corr_set *before,
	       struct corr_set *after, double tol, double min_delta)
{
	memset(d, 0, sizeof(*d));
	d->before = before;
	d->after = after;
	d->tol = tol;
	d->min_delta = min_delta;
	return match(d);
}

void diff_release(struct diff *d)
{
	free(d->ch);
	free(d->gone);
	free(d->added);
	corr_set_free(d->before);
	if (!d->borrowed)
		corr_set_free(d->after);
	memset(d, 0, sizeof(*d));
}

int diff_is_regression(const struct diff *d, const struct diff_change *c)
{
	return diff_abs_change(c) >= d->min_delta;
}

int diff_is_improvement(const struct diff *d, const struct diff_change *c)
{
	return -diff_abs_change(c) >= d->min_delta;
}

double diff_abs_change(const struct diff_change *c)
{
	return fabs(c->a->err) - fabs(c->b->err);
}

static const struct diff *list_d;	/* qsort has no context */

static int by_abs_change(const void *x, const void *y)
{
	size_t i = *(const size_t *)x, j = *(const size_t *)y;
	double p = fabs(diff_abs_change(&list_d->ch[i]));
	double q = fabs(diff_abs_change(&list_d->ch[j]));

	if (p != q)
		return p > q ? -1 : 1;
	return (i > j) - (i < j);
}

size_t diff_list(const struct diff *d, int reg, size_t **out)
{
	size_t n = 0;

	*out = xcalloc(d->n + 1, sizeof(**out));
	for (size_t i = 0; i < d->n; i++)
		if (reg ? diff_is_regression(d, &d->ch[i]) :
		    diff_is_improvement(d, &d->ch[i]))
			(*out)[n++] = i;
	list_d = d;
	qsort(*out, n, sizeof(**out), by_abs_change);
	list_d = NULL;
	return n;
}
