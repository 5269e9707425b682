/*
 * The odd one out (see matrix.h and docs/statistics.md): which of a
 * key's non-roofline values agree within the tolerance, the pattern
 * that makes, and the cause the pattern and the source kinds suggest.
 */
#include "src/matrix/matrix.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/util.h"

static const char *const pattern_names[MP_COUNT] = {
	[MP_NONE] = "none", [MP_AGREE] = "agree", [MP_ODD] = "odd",
	[MP_SPLIT] = "split", [MP_SCATTERED] = "scattered",
	[MP_AMBIGUOUS] = "ambiguous",
};

const char *matrix_pattern_name(enum matrix_pattern p)
{
	return p < MP_COUNT ? pattern_names[p] : "?";
}

int matrix_agree(double a, double b, double tol)
{
	double lo = fmin(fabs(a), fabs(b));

	return fabs(a - b) <= tol * lo * (1 + 1e-12);
}

static int is_rtl(const char *kind)
{
	return !strcmp(kind, "rtl") || !strcmp(kind, "emulation");
}

void matrix_key_release(struct matrix_key *k)
{
	free(k->vals);
	free(k->label);
	free(k->group);
	free(k->sol);
	free(k->sol_by);
	free(k->unvoted);
	free(k->vote_why);
	k->unvoted = NULL;
	k->vote_why = NULL;
	k->sol_by = NULL;
	k->vals = NULL;
	k->label = k->sol = NULL;
	k->group = NULL;
}

static size_t find_root(size_t *parent, size_t i)
{
	while (parent[i] != i)
		i = parent[i] = parent[parent[i]];
	return i;
}

struct grp {
	size_t *m;	/* members (source indexes), sorted by label */
	size_t n;
};

static const struct matrix_source *sort_src;

static int member_cmp(const void *x, const void *y)
{
	return strcmp(sort_src[*(const size_t *)x].label,
		      sort_src[*(const size_t *)y].label);
}

static int grp_cmp(const void *x, const void *y)
{
	const struct grp *a = x, *b = y;

	if (a->n != b->n)
		return a->n < b->n ? 1 : -1;
	return strcmp(sort_src[a->m[0]].label, sort_src[b->m[0]].label);
}

/* The suggested cause of an odd source or a split, with its rule. */
static void suggest(struct matrix_key *k, const struct matrix_source *src,
		    const struct grp *g, size_t ng)
{
	k->cause = NULL;
	if (k->pattern == MP_AGREE) {
		k->rule = "the sources agree: nothing to explain";
		return;
	}
	if (k->pattern == MP_ODD) {
		const char *kind = src[k->odd].kind;
		int perfsim = 0, rtl = 0, silicon = 0;

		for (size_t i = 0; i < g[0].n; i++) {
			perfsim += !strcmp(src[g[0].m[i]].kind, "perfsim");
			rtl += is_rtl(src[g[0].m[i]].kind);
			silicon += !strcmp(src[g[0].m[i]].kind, "silicon");
		}
		if (!strcmp(kind, "perfsim")) {
			k->cause = "modeling-error";
			k->rule = "odd perfsim: the simulator alone disagrees "
				  "with sources that agree";
		} else if (is_rtl(kind)) {
			k->cause = "rtl-bug";
			k->rule = "odd rtl: the RTL alone disagrees with "
				  "sources that agree";
		} else if (!strcmp(kind, "silicon") && silicon) {
			k->cause = "measurement-issue";
			k->rule = "one silicon source against other silicon "
				  "that agrees";
		} else if (!strcmp(kind, "silicon") && perfsim && rtl &&
			   k->vals[k->odd].noisy) {
			k->cause = "measurement-issue";
			k->rule = "silicon alone against a perfsim and an rtl "
				  "that agree, but the silicon result is noisy";
		} else if (!strcmp(kind, "silicon") && perfsim && rtl) {
			k->cause = "specification-error";
			k->rule = "silicon alone against a perfsim and an rtl "
				  "that agree: both were built from one "
				  "specification";
		} else {
			k->rule = "no rule for this odd source and the kinds "
				  "that agree";
		}
		return;
	}
	if (k->pattern == MP_SPLIT && ng == 2) {
		for (size_t a = 0; a < 2; a++) {
			const struct grp *s = &g[a], *o = &g[1 - a];
			int all_si = 1, perfsim = 0, rtl = 0, si_other = 0;

			for (size_t i = 0; i < s->n; i++)
				all_si &= !strcmp(src[s->m[i]].kind, "silicon");
			for (size_t i = 0; i < o->n; i++) {
				perfsim += !strcmp(src[o->m[i]].kind,
						   "perfsim");
				rtl += is_rtl(src[o->m[i]].kind);
				si_other += !strcmp(src[o->m[i]].kind,
						    "silicon");
			}
			if (all_si && perfsim && rtl && !si_other) {
				k->cause = "specification-error";
				k->rule = "the silicon sources agree, a perfsim "
					  "and an rtl agree with each other: "
					  "both were built from one "
					  "specification";
				return;
			}
		}
	}
	k->rule = k->pattern == MP_AMBIGUOUS ?
		  "no rule: agreement is not transitive here" :
		  "no rule for this pattern";
}

static char *pattern_label(const struct matrix_key *k,
			   const struct matrix_source *src,
			   const struct grp *g, size_t ng)
{
	struct strbuf sb = STRBUF_INIT;

	switch (k->pattern) {
	case MP_ODD:
		strbuf_addf(&sb, "odd:%s", src[k->odd].label);
		break;
	case MP_SPLIT:
		strbuf_addstr(&sb, "split:");
		for (size_t a = 0; a < ng; a++) {
			if (a)
				strbuf_addch(&sb, '|');
			for (size_t i = 0; i < g[a].n; i++)
				strbuf_addf(&sb, "%s%s", i ? "+" : "",
					    src[g[a].m[i]].label);
		}
		break;
	default:
		strbuf_addstr(&sb, matrix_pattern_name(k->pattern));
	}
	return strbuf_detach(&sb);
}

void matrix_classify(struct matrix_key *k, const struct matrix_source *src,
		     size_t nsrc, double tolerance)
{
	size_t *vot = xmalloc((nsrc + 1) * sizeof(*vot));
	size_t *parent = xmalloc((nsrc + 1) * sizeof(*parent));
	size_t *gidx = xmalloc((nsrc + 1) * sizeof(*gidx));
	struct grp *g = xcalloc(nsrc + 1, sizeof(*g));
	size_t nv = 0, ng = 0;
	int clique = 1;
	double lo = INFINITY, hi = -INFINITY;

	free(k->label);
	free(k->group);
	k->label = NULL;
	k->group = NULL;
	k->pattern = MP_NONE;
	k->odd = k->tol_src = -1;
	k->cause = NULL;
	k->rule = NULL;
	k->ngroups = 0;
	k->spread = NAN;
	for (size_t i = 0; i < nsrc; i++)
		if (!src[i].roofline && k->vals[i].state == MV_OK &&
		    !(k->unvoted && k->unvoted[i]))	/* issue 37 */
			vot[nv++] = i;
	k->nvoters = nv;
	k->tol = tolerance;
	if (nv < 3)
		goto done;
	/* the spread of a value widens the tolerance of its key */
	for (size_t a = 0; a < nv; a++) {
		const struct matrix_val *v = &k->vals[vot[a]];
		double cv = v->v != 0 ? v->sd / fabs(v->v) : NAN;

		if (cv > k->tol) {
			k->tol = cv;
			k->tol_src = (long)vot[a];
		}
		lo = fmin(lo, v->v);
		hi = fmax(hi, v->v);
	}
	k->spread = lo > 0 ? hi / lo - 1 : NAN;
	for (size_t a = 0; a < nv; a++)
		parent[a] = a;
	for (size_t a = 0; a < nv; a++)
		for (size_t b = a + 1; b < nv; b++)
			if (matrix_agree(k->vals[vot[a]].v, k->vals[vot[b]].v,
					 k->tol))
				parent[find_root(parent, a)] =
					find_root(parent, b);
	/* components, each of which must be a clique */
	for (size_t a = 0; a < nv; a++)
		gidx[a] = (size_t)-1;
	for (size_t a = 0; a < nv; a++) {
		size_t r = find_root(parent, a);

		if (gidx[r] == (size_t)-1) {
			gidx[r] = ng;
			g[ng].m = xmalloc((nv + 1) * sizeof(size_t));
			g[ng++].n = 0;
		}
		g[gidx[r]].m[g[gidx[r]].n++] = vot[a];
	}
	for (size_t j = 0; j < ng; j++)
		for (size_t a = 0; a < g[j].n; a++)
			for (size_t b = a + 1; b < g[j].n; b++)
				if (!matrix_agree(k->vals[g[j].m[a]].v,
						  k->vals[g[j].m[b]].v, k->tol))
					clique = 0;
	sort_src = src;
	for (size_t j = 0; j < ng; j++)
		qsort(g[j].m, g[j].n, sizeof(size_t), member_cmp);
	qsort(g, ng, sizeof(*g), grp_cmp);
	k->group = xmalloc(nsrc * sizeof(int));
	for (size_t i = 0; i < nsrc; i++)
		k->group[i] = -1;
	for (size_t j = 0; j < ng; j++)
		for (size_t a = 0; a < g[j].n; a++)
			k->group[g[j].m[a]] = (int)j;
	k->ngroups = ng;
	if (!clique)
		k->pattern = MP_AMBIGUOUS;
	else if (ng == 1)
		k->pattern = MP_AGREE;
	else if (ng == nv)
		k->pattern = MP_SCATTERED;
	else if (ng == 2 && g[1].n == 1)
		k->pattern = MP_ODD;
	else
		k->pattern = MP_SPLIT;
	if (k->pattern == MP_ODD)
		k->odd = (long)g[1].m[0];
	k->label = pattern_label(k, src, g, ng);
	suggest(k, src, g, ng);
done:
	for (size_t j = 0; j < ng; j++)
		free(g[j].m);
	free(g);
	free(vot);
	free(parent);
	free(gidx);
}

static int label_cmp(const void *x, const void *y)
{
	const struct matrix_label *a = x, *b = y;

	if ((a->pattern == MP_AGREE) != (b->pattern == MP_AGREE))
		return a->pattern == MP_AGREE ? 1 : -1;
	if (a->count != b->count)
		return a->count < b->count ? 1 : -1;
	return strcmp(a->label, b->label);
}

static size_t label_scan(const struct matrix *m, struct matrix_label **out)
{
	struct matrix_label *v = NULL;
	size_t n = 0;

	for (size_t x = 0; x < m->nkeys; x++) {
		const struct matrix_key *k = &m->keys[x];
		size_t i;

		if (k->pattern == MP_NONE)
			continue;
		for (i = 0; i < n && strcmp(v[i].label, k->label); i++)
			;
		if (i == n) {
			v = xrealloc(v, (n + 1) * sizeof(*v));
			v[n].label = k->label;
			v[n].pattern = k->pattern;
			v[n].count = 0;
			v[n++].first = 0;
		}
		v[i].count++;
	}
	if (n > 1)
		qsort(v, n, sizeof(*v), label_cmp);
	*out = v;
	return n;
}

static const struct matrix *ord_m;
static const struct matrix_label *ord_l;
static size_t ord_nl;

static size_t rank_of(const char *label)
{
	for (size_t i = 0; i < ord_nl; i++)
		if (!strcmp(ord_l[i].label, label))
			return i;
	return ord_nl;
}

static int order_cmp(const void *x, const void *y)
{
	const struct matrix_key *a = &ord_m->keys[*(const size_t *)x];
	const struct matrix_key *b = &ord_m->keys[*(const size_t *)y];
	size_t ra = rank_of(a->label), rb = rank_of(b->label);
	double sa = isnan(a->spread) ? -1 : a->spread;
	double sb = isnan(b->spread) ? -1 : b->spread;

	if (ra != rb)
		return ra < rb ? -1 : 1;
	if (sa != sb)
		return sa < sb ? 1 : -1;
	return *(const size_t *)x < *(const size_t *)y ? -1 : 1;
}

size_t *matrix_order(const struct matrix *m, size_t *n)
{
	struct matrix_label *l = NULL;
	size_t nl = label_scan(m, &l), k = 0;
	size_t *idx = xmalloc((m->nkeys + 1) * sizeof(*idx));

	for (size_t x = 0; x < m->nkeys; x++)
		if (m->keys[x].pattern != MP_NONE)
			idx[k++] = x;
	ord_m = m;
	ord_l = l;
	ord_nl = nl;
	if (k > 1)
		qsort(idx, k, sizeof(*idx), order_cmp);
	free(l);
	*n = k;
	return idx;
}

size_t matrix_labels(const struct matrix *m, struct matrix_label **out)
{
	size_t nl = label_scan(m, out), at = 0;

	for (size_t i = 0; i < nl; i++) {
		(*out)[i].first = at;
		at += (size_t)(*out)[i].count;
	}
	return nl;
}
