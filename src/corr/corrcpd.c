/* Change points of a series of versions (see corrcpd.h). */
#include "src/corr/corrcpd.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "src/corr/corrout.h"

struct cpd_pair {
	int64_t w, o, m;
	double lm, lr, err;
};

struct cpd_version {
	struct cpd_pair *v;
	size_t n;
	int paired;
};

struct cpd_key {
	int64_t w, o, m;
};

struct corr_cpd_series {
	int skip_waived;
	struct cpd_version *v;
	size_t n;
	/* corr_cpd_series_expect: fewer versions than a search needs, so
	 * only the keys every paired version holds are kept (sorted), and
	 * how many versions paired */
	int counts_only;
	struct cpd_key *common;
	size_t ncommon, npaired;
};

static int key_cmp(const struct cpd_pair *x, const struct cpd_pair *y)
{
	if (x->w != y->w)
		return x->w < y->w ? -1 : 1;
	if (x->o != y->o)
		return x->o < y->o ? -1 : 1;
	return (x->m > y->m) - (x->m < y->m);
}

static int pair_cmp(const void *x, const void *y)
{
	return key_cmp(x, y);
}

struct corr_cpd_series *corr_cpd_series_new(int skip_waived)
{
	struct corr_cpd_series *b = xcalloc(1, sizeof(*b));

	b->skip_waived = skip_waived;
	return b;
}

void corr_cpd_series_expect(struct corr_cpd_series *b, size_t nversions)
{
	b->counts_only = b->n == 0 && nversions < CORR_CPD_MIN_VERSIONS;
}

static int ckey_cmp(const void *a, const void *b)
{
	const struct cpd_key *x = a, *y = b;

	if (x->w != y->w)
		return x->w < y->w ? -1 : 1;
	if (x->o != y->o)
		return x->o < y->o ? -1 : 1;
	return (x->m > y->m) - (x->m < y->m);
}

/* The rule of the release-change test (corrchange.c), and both values
 * positive for the logarithms. */
static int usable(const struct corr_point *p, int skip_waived)
{
	return !(p->flags & (CORR_INVALID | CORR_NOISY_REF)) &&
	       !(skip_waived && (p->flags & CORR_WAIVED)) &&
	       p->model > 0 && p->ref > 0 && isfinite(p->model) &&
	       isfinite(p->ref) && isfinite(p->err);
}

/* corr_cpd_series_add of a counts-only series: the keys s holds, then
 * the intersection with those before (as corr_cpd_compute's) */
static void add_keys(struct corr_cpd_series *b, const struct corr_set *s)
{
	struct cpd_key *k = xmalloc((s->n + 1) * sizeof(*k));
	size_t n = 0, i = 0, j = 0, c = 0;

	for (size_t x = 0; s->points && x < s->n; x++) {
		const struct corr_point *p = &s->points[x];

		if (usable(p, b->skip_waived))
			k[n++] = (struct cpd_key){ p->workload_id, p->op_id,
						   p->metric_id };
	}
	qsort(k, n, sizeof(*k), ckey_cmp);
	if (b->npaired++ == 0) {
		b->common = k;
		b->ncommon = n;
		return;
	}
	while (i < b->ncommon && j < n) {
		int d = ckey_cmp(&b->common[i], &k[j]);

		if (d == 0)
			b->common[c++] = b->common[i];
		if (d <= 0)
			i++;
		if (d >= 0)
			j++;
	}
	b->ncommon = c;
	free(k);
}

void corr_cpd_series_add(struct corr_cpd_series *b, const struct corr_set *s)
{
	struct cpd_version *v;

	if (b->counts_only) {
		b->n++;
		if (s)
			add_keys(b, s);
		return;
	}
	b->v = xrealloc(b->v, (b->n + 1) * sizeof(*b->v));
	v = &b->v[b->n++];
	memset(v, 0, sizeof(*v));
	if (!s)
		return;
	v->paired = 1;
	v->v = xmalloc((s->n + 1) * sizeof(*v->v));
	for (size_t i = 0; s->points && i < s->n; i++) {
		const struct corr_point *p = &s->points[i];

		if (usable(p, b->skip_waived))
			v->v[v->n++] = (struct cpd_pair){ p->workload_id,
				p->op_id, p->metric_id, log(p->model),
				log(p->ref), p->err };
	}
	qsort(v->v, v->n, sizeof(*v->v), pair_cmp);
}

void corr_cpd_series_free(struct corr_cpd_series *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->n && b->v; i++)
		free(b->v[i].v);
	free(b->v);
	free(b->common);
	free(b);
}

/* Keep in k[0..*nk) the keys v also holds (both sorted). */
static void intersect(struct cpd_pair *k, size_t *nk,
		      const struct cpd_version *v)
{
	size_t i = 0, j = 0, n = 0;

	while (i < *nk && j < v->n) {
		int c = key_cmp(&k[i], &v->v[j]);

		if (c == 0)
			k[n++] = k[i];
		if (c <= 0)
			i++;
		if (c >= 0)
			j++;
	}
	*nk = n;
}

/* Version indexes of the change points of series x (t = series index;
 * pt maps it to the version). */
static size_t *search(const double *x, size_t n, size_t d,
		      const struct stats_cpd_opts *o, const size_t *pt,
		      size_t *count, struct stats_cpd *keep)
{
	struct stats_cpd c;
	size_t *at;

	stats_cpd_edivisive(&c, x, n, d, o);
	at = xcalloc(c.n + 1, sizeof(*at));
	for (size_t i = 0; i < c.n; i++)
		at[i] = pt[c.v[i].at];
	*count = c.n;
	if (keep)
		*keep = c;
	else
		stats_cpd_release(&c);
	return at;
}

static int holds(const size_t *v, size_t n, size_t x)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == x)
			return 1;
	return 0;
}

/* Mean MAPE over the series positions [a, b). */
static double seg_mean(const struct corr_cpd *c, const size_t *pt, size_t a,
		       size_t b)
{
	double s = 0;

	for (size_t t = a; t < b; t++)
		s += c->mape[pt[t]];
	return b > a ? s / (double)(b - a) : NAN;
}

static void label_steps(struct corr_cpd *c, const struct stats_cpd *e,
			const size_t *pt, size_t npt)
{
	c->steps = xcalloc(e->n + 1, sizeof(*c->steps));
	for (size_t i = 0; i < e->n; i++) {
		struct corr_cpd_step *s = &c->steps[c->nsteps++];
		size_t t = e->v[i].at, lo = i ? e->v[i - 1].at : 0;
		size_t hi = i + 1 < e->n ? e->v[i + 1].at : npt;
		int m, r;

		s->version = pt[t];
		s->prev = pt[t - 1];
		s->q = e->v[i].q;
		s->p = e->v[i].p;
		s->mape_before = seg_mean(c, pt, lo, t);
		s->mape_after = seg_mean(c, pt, t, hi);
		m = holds(c->model_at, c->nmodel, s->version);
		r = holds(c->ref_at, c->nref, s->version);
		s->label = m && r ? "both" : m ? "model changed" :
			   r ? "reference moved" : "error only";
	}
}

int corr_cpd_compute(struct corr_cpd *out, const struct corr_cpd_series *b,
		     const struct stats_cpd_opts *opts)
{
	struct cpd_pair *k = NULL;
	size_t nk = 0, *pt, npt = 0, d;
	double *E, *Mo, *R;
	struct stats_cpd e;

	memset(out, 0, sizeof(*out));
	if (opts)
		out->opts = *opts;
	else
		stats_cpd_opts_default(&out->opts);
	out->p_stop = NAN;
	out->nversions = b->n;
	out->mape = xmalloc((b->n + 1) * sizeof(*out->mape));
	pt = xmalloc((b->n + 1) * sizeof(*pt));
	for (size_t i = 0; i < b->n; i++)
		out->mape[i] = NAN;
	if (b->counts_only) {	/* npaired < CORR_CPD_MIN_VERSIONS */
		npt = b->npaired;
		nk = b->ncommon;
	}
	for (size_t i = 0; !b->counts_only && i < b->n; i++) {
		if (!b->v[i].paired)
			continue;
		if (npt++ == 0) {
			nk = b->v[i].n;
			k = xmalloc((nk + 1) * sizeof(*k));
			memcpy(k, b->v[i].v, nk * sizeof(*k));
		} else {
			intersect(k, &nk, &b->v[i]);
		}
		pt[npt - 1] = i;
	}
	out->npoints = npt;
	out->common = nk;
	if (npt < CORR_CPD_MIN_VERSIONS) {
		out->why = "fewer than 4 versions paired";
		goto done;
	}
	if (nk == 0) {
		out->why = "no pair is common to every version that paired";
		goto done;
	}
	d = nk;
	E = xmalloc(npt * d * sizeof(*E));
	Mo = xmalloc(npt * d * sizeof(*Mo));
	R = xmalloc(npt * d * sizeof(*R));
	for (size_t t = 0; t < npt; t++) {
		const struct cpd_version *v = &b->v[pt[t]];
		double s = 0;

		for (size_t i = 0, j = 0; i < nk; i++) {
			while (key_cmp(&v->v[j], &k[i]) < 0)
				j++;	/* k[i] is in v: j stops on it */
			E[t * d + i] = v->v[j].lm - v->v[j].lr;
			Mo[t * d + i] = v->v[j].lm;
			R[t * d + i] = v->v[j].lr;
			s += fabs(v->v[j].err);
		}
		out->mape[pt[t]] = s / (double)nk;
	}
	out->model_at = search(Mo, npt, d, &out->opts, pt, &out->nmodel, NULL);
	out->ref_at = search(R, npt, d, &out->opts, pt, &out->nref, NULL);
	free(search(E, npt, d, &out->opts, pt, &nk, &e));
	out->p_stop = e.p_stop;
	label_steps(out, &e, pt, npt);
	stats_cpd_release(&e);
	free(E);
	free(Mo);
	free(R);
done:
	free(k);
	free(pt);
	return 0;
}

void corr_cpd_release(struct corr_cpd *c)
{
	free(c->mape);
	free(c->steps);
	free(c->model_at);
	free(c->ref_at);
	memset(c, 0, sizeof(*c));
}

const char *corr_cpd_label_at(const struct corr_cpd *c, size_t v)
{
	for (size_t i = 0; i < c->nsteps; i++)
		if (c->steps[i].version == v)
			return c->steps[i].label;
	return NULL;
}

static void jnum(struct strbuf *sb, double v)
{
	if (isfinite(v))
		strbuf_add_double(sb, v);
	else
		strbuf_addstr(sb, "null");
}

static void jversions(struct strbuf *sb, const char *key, const size_t *at,
		      size_t n, const char *const *versions)
{
	strbuf_addf(sb, ",\"%s\":[", key);
	for (size_t i = 0; i < n; i++) {
		if (i)
			strbuf_addch(sb, ',');
		strbuf_add_json_str(sb, versions[at[i]]);
	}
	strbuf_addch(sb, ']');
}

void corr_cpd_json(struct strbuf *sb, const struct corr_cpd *c,
		   const char *const *versions)
{
	strbuf_addstr(sb, "{\"method\":\"e-divisive\",\"alpha\":");
	jnum(sb, c->opts.alpha);
	strbuf_addf(sb, ",\"permutations\":%d,\"seed\":%llu,\"min_size\":%zu,"
		    "\"versions\":%zu,\"common\":%zu,\"steps\":[",
		    c->opts.permutations, (unsigned long long)c->opts.seed,
		    c->opts.min_size, c->npoints, c->common);
	for (size_t i = 0; i < c->nsteps; i++) {
		const struct corr_cpd_step *s = &c->steps[i];

		strbuf_addstr(sb, i ? ",{\"version\":" : "{\"version\":");
		strbuf_add_json_str(sb, versions[s->version]);
		strbuf_addstr(sb, ",\"after\":");
		strbuf_add_json_str(sb, versions[s->prev]);
		strbuf_addstr(sb, ",\"mape_before\":");
		jnum(sb, s->mape_before);
		strbuf_addstr(sb, ",\"mape_after\":");
		jnum(sb, s->mape_after);
		strbuf_addstr(sb, ",\"q\":");
		jnum(sb, s->q);
		strbuf_addstr(sb, ",\"p\":");
		jnum(sb, s->p);
		strbuf_addstr(sb, ",\"label\":");
		strbuf_add_json_str(sb, s->label);
		strbuf_addch(sb, '}');
	}
	strbuf_addch(sb, ']');
	jversions(sb, "model_steps", c->model_at, c->nmodel, versions);
	jversions(sb, "reference_steps", c->ref_at, c->nref, versions);
	strbuf_addstr(sb, ",\"p_stop\":");
	jnum(sb, c->p_stop);
	strbuf_addstr(sb, ",\"why\":");
	if (c->why)
		strbuf_add_json_str(sb, c->why);
	else
		strbuf_addstr(sb, "null");
	strbuf_addch(sb, '}');
}

void corr_cpd_text(struct strbuf *sb, const struct corr_cpd *c,
		   const char *const *versions)
{
	char a[48], b[48];

	if (c->why) {
		strbuf_addf(sb, "change points: not searched: %s\n", c->why);
		return;
	}
	strbuf_addf(sb, "change points (E-Divisive, permutation test: alpha "
		    "%g, %d permutations, seed %llu) on the %zu pair%s all %zu "
		    "paired versions hold:\n", c->opts.alpha,
		    c->opts.permutations, (unsigned long long)c->opts.seed,
		    c->common, c->common == 1 ? "" : "s", c->npoints);
	for (size_t i = 0; i < c->nsteps; i++) {
		const struct corr_cpd_step *s = &c->steps[i];

		strbuf_addf(sb, "  %s -> %s: MAPE %s -> %s, p %.3g: %s\n",
			    versions[s->prev], versions[s->version],
			    corrout_pct(a, sizeof(a), s->mape_before),
			    corrout_pct(b, sizeof(b), s->mape_after), s->p,
			    s->label);
	}
	if (!c->nsteps)
		strbuf_addf(sb, "  none (the best split has p %.3g > %g)\n",
			    c->p_stop, c->opts.alpha);
}
