/* Tails and distributions: per-percentile summaries, W1 per key
 * (corr_tail.h). */
#include "src/corr/corr_tail.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"
#include "src/corr/correlate.h"
#include "src/corr/correlate_int.h"
#include "src/stats/stats_dist.h"

int corr_tail_level(const char *metric, char *base, size_t len, double *u)
{
	const char *at = strrchr(metric, '_'), *p;
	double v;
	int dot = 0;

	if (!at || at == metric || at[1] != 'p' || !at[2])
		return 0;
	for (p = at + 2; *p; p++) {
		if (*p == '.' && !dot++ && p > at + 2 && p[1])
			continue;
		if (*p < '0' || *p > '9')
			return 0;
	}
	v = strtod(at + 2, NULL);
	if (!(v > 0 && v < 100) || (size_t)(at - metric) >= len)
		return 0;
	memcpy(base, metric, (size_t)(at - metric));
	base[at - metric] = 0;
	*u = v / 100;
	return 1;
}

const char *corr_tail_name(char *buf, size_t len, double u)
{
	snprintf(buf, len, "p%.10g", u * 100);
	return buf;
}

/* One point as the tails read it, from either layout. */
struct pv {
	size_t w, o, m;		/* dictionary indices */
	double model, ref;
	unsigned flags;
};

static void point_at(const struct corr_set *s, size_t i, struct pv *v)
{
	if (s->slim) {
		v->w = s->slim[i].w;
		v->o = s->slim[i].o;
		v->m = s->slim[i].m;
		v->model = s->slim[i].model;
		v->ref = s->slim[i].ref;
		v->flags = s->slim[i].flags;
		return;
	}
	v->w = v->o = v->m = SIZE_MAX;	/* every point's ids are in the
					   dictionaries; never read else */
	corr_dict_find(s->store, DB_DICT_WORKLOADS, s->points[i].workload_id,
		       &v->w);
	corr_dict_find(s->store, DB_DICT_OPS, s->points[i].op_id, &v->o);
	corr_dict_find(s->store, DB_DICT_METRICS, s->points[i].metric_id,
		       &v->m);
	v->model = s->points[i].model;
	v->ref = s->points[i].ref;
	v->flags = s->points[i].flags;
}

static int pct_cmp(const void *a, const void *b)
{
	const struct corr_tail_pct *x = a, *y = b;
	int c = strcmp(x->base, y->base);

	if (c)
		return c;
	return (x->u > y->u) - (x->u < y->u);
}

/* The percentile metrics of s's dictionary that some point has, sorted;
 * mpct[dictionary index] = its index in out->pct, or -1. */
static long *find_pcts(struct corr_tails *out, const struct corr_set *s)
{
	const struct corr_store *st = s->store;
	size_t nm = st->ndict[DB_DICT_METRICS];
	long *mpct = xmalloc((nm + 1) * sizeof(*mpct));
	unsigned char *used = xcalloc(nm + 1, 1);
	char base[128];
	double u;
	struct pv v;

	for (size_t i = 0; i < s->n; i++) {
		point_at(s, i, &v);
		if (v.m < nm)
			used[v.m] = 1;
	}
	for (size_t j = 0; j < nm; j++) {
		const struct db_name *d = &st->dict[DB_DICT_METRICS][j];

		mpct[j] = -1;
		if (!used[j] || !corr_tail_level(d->name, base, sizeof(base),
						 &u))
			continue;
		out->pct = xrealloc(out->pct, (out->npct + 1) *
				    sizeof(*out->pct));
		memset(&out->pct[out->npct], 0, sizeof(*out->pct));
		out->pct[out->npct].base = xstrdup(base);
		out->pct[out->npct].metric = d->name;
		out->pct[out->npct].u = u;
		out->npct++;
	}
	if (out->npct)
		qsort(out->pct, out->npct, sizeof(*out->pct), pct_cmp);
	for (size_t j = 0; j < nm; j++)
		for (size_t k = 0; used[j] && k < out->npct; k++)
			if (out->pct[k].metric ==
			    st->dict[DB_DICT_METRICS][j].name)
				mpct[j] = (long)k;
	free(used);
	return mpct;
}

/* One percentile pair of a key, before grouping. */
struct entry {
	size_t w, o, p;		/* dictionary indices; p: out->pct */
	double model, ref;
};

static int entry_cmp(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	if (x->w != y->w)
		return x->w < y->w ? -1 : 1;
	if (x->o != y->o)
		return x->o < y->o ? -1 : 1;
	return (x->p > y->p) - (x->p < y->p);
}

static double rel_err(double m, double r)
{
	return r != 0 ? (m - r) / fabs(r) : NAN;
}

/* Close the key e[0..n) (one workload, op and base, levels ascending). */
static void add_key(struct corr_tails *out, const struct corr_set *s,
		    const struct entry *e, size_t n)
{
	const struct corr_store *st = s->store;
	struct corr_tail_key *k;
	size_t bad;

	out->keys = xrealloc(out->keys, (out->nkeys + 1) * sizeof(*k));
	k = &out->keys[out->nkeys++];
	memset(k, 0, sizeof(*k));
	k->workload = st->dict[DB_DICT_WORKLOADS][e[0].w].name;
	k->op = st->dict[DB_DICT_OPS][e[0].o].name;
	k->base = out->pct[e[0].p].base;
	k->k = n;
	k->u = xmalloc(3 * n * sizeof(double));
	k->model = k->u + n;
	k->ref = k->u + 2 * n;
	for (size_t j = 0; j < n; j++) {
		k->u[j] = out->pct[e[j].p].u;
		k->model[j] = e[j].model;
		k->ref[j] = e[j].ref;
	}
	k->err_lo = rel_err(k->model[0], k->ref[0]);
	k->err_hi = rel_err(k->model[n - 1], k->ref[n - 1]);
	k->w1 = NAN;
	for (size_t j = 1; j < n; j++)
		if (k->u[j] == k->u[j - 1]) {
			k->why = "two metrics state one percentile";
			return;
		}
	if ((bad = stats_quantiles_ordered(k->model, n))) {
		k->why = "the model's stated percentiles decrease with the "
			 "level";
		return;
	}
	if ((bad = stats_quantiles_ordered(k->ref, n))) {
		k->why = "the reference's stated percentiles decrease with "
			 "the level";
		return;
	}
	k->w1 = stats_w1_log_quantiles(k->u, k->model, k->ref, n, &k->why);
	out->nw += isfinite(k->w1);
}

static int key_cmp(const void *a, const void *b)
{
	const struct corr_tail_key *x = a, *y = b;
	int c;

	if (isnan(x->w1) != isnan(y->w1))
		return isnan(x->w1) ? 1 : -1;
	if (x->w1 != y->w1 && !isnan(x->w1))
		return x->w1 > y->w1 ? -1 : 1;
	if ((c = strcmp(x->workload, y->workload)) ||
	    (c = strcmp(x->op, y->op)))
		return c;
	return strcmp(x->base, y->base);
}

static void build_keys(struct corr_tails *out, const struct corr_set *s,
		       const long *mpct, int skip_waived)
{
	struct entry *e = xmalloc((s->n + 1) * sizeof(*e));
	size_t n = 0, i = 0;
	struct pv v;

	for (size_t p = 0; p < s->n; p++) {
		point_at(s, p, &v);
		if (v.m == SIZE_MAX || mpct[v.m] < 0)
			continue;
		if ((v.flags & (CORR_INVALID | CORR_NOISY_REF)) ||
		    (skip_waived && (v.flags & CORR_WAIVED))) {
			out->excluded++;
			continue;
		}
		e[n++] = (struct entry){ v.w, v.o, (size_t)mpct[v.m],
					 v.model, v.ref };
	}
	qsort(e, n, sizeof(*e), entry_cmp);
	while (i < n) {
		size_t j = i + 1;

		while (j < n && e[j].w == e[i].w && e[j].o == e[i].o &&
		       !strcmp(out->pct[e[j].p].base, out->pct[e[i].p].base))
			j++;
		add_key(out, s, e + i, j - i);
		i = j;
	}
	free(e);
	if (out->nkeys)
		qsort(out->keys, out->nkeys, sizeof(*out->keys), key_cmp);
}

int corr_tails_build(struct corr_tails *out, const struct corr_set *s,
		     int skip_waived)
{
	struct corr_rows rows;
	uint32_t *key;
	long *mpct;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	mpct = find_pcts(out, s);
	if (!out->npct) {
		free(mpct);
		return 0;
	}
	key = xmalloc((s->n + 1) * sizeof(*key));
	for (size_t i = 0; i < s->n; i++) {
		struct pv v;

		point_at(s, i, &v);
		key[i] = v.m == SIZE_MAX || mpct[v.m] < 0 ?
			 (uint32_t)out->npct :
			 (uint32_t)mpct[v.m];
	}
	corr_rows_build(&rows, s, key, out->npct);
	for (size_t k = 0; k < out->npct && rc >= 0; k++)
		rc = corr_rows_summary(&out->pct[k].sum, s, &rows, k,
				       skip_waived);
	corr_rows_release(&rows);
	free(key);
	if (rc >= 0)
		build_keys(out, s, mpct, skip_waived);
	free(mpct);
	if (rc < 0)
		corr_tails_release(out);
	return rc < 0 ? rc : 0;
}

void corr_tails_release(struct corr_tails *t)
{
	for (size_t i = 0; i < t->npct; i++)
		free(t->pct[i].base);
	for (size_t i = 0; i < t->nkeys; i++)
		free(t->keys[i].u);
	free(t->pct);
	free(t->keys);
	memset(t, 0, sizeof(*t));
}
