/*
 * Spearman's delete-one-cluster values with the rest re-ranked (issue
 * 34; docs/statistics.md, "What each interval resamples"). The moments'
 * jackknife (stats_cijack.c) takes a cluster's five sums off the totals;
 * on the sample's ranks that keeps the full sample's ranks in every
 * leave-one-out sample, and the standard error falls 10-20% short. Here,
 * per cluster g, what else to take off the rank group's totals so that
 * they become the sums of the other pairs ranked among themselves.
 *
 * Removing g lowers the average rank of a pair i by c_i = sum over g's
 * pairs j of h(x_j, x_i), h = 1 below, 1/2 tied (scipy's average ranks),
 * and its y-rank by d_i likewise. The remaining pairs' sums of R - c,
 * S - d, their squares and product need, besides g's own sums:
 *   - one-dimensional terms, sum c, sum R c, sum S c, sum c^2 (and the
 *     y ones): c is a step function of the x-rank with a step at each
 *     of g's blocks, so O(g's pairs) from prefix sums along the x-order;
 *   - sum c d, two-dimensional: for a small cluster from dominance
 *     counts, sum over j, j' in g of #{i: x_i > x_j, y_i > y_j'} (halves
 *     at ties), answered offline by one sweep over the x-blocks with
 *     counts over the y-blocks (4 k^2 counts per cluster of k pairs: O(1)
 *     each in square-root buckets, 2 n sqrt n to fill, or O(log n) in a
 *     Fenwick tree); for a large one from a pass over all the pairs
 *     with c and d tabulated per block (3 n). Each cluster takes the
 *     cheaper.
 * O(n log n) once (two radix sorts) plus about min(5 k^2, 3 n) per
 * cluster (n sqrt n once when square-root buckets pay); checked against
 * a re-ranking by brute force in tests/unit/test_stats_cirank.c.
 */
#include "src/stats/stats_ci_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/radix.h"
#include "base/util.h"

/* One series in rank space. */
struct rside {
	uint32_t *ord;		/* the pair at position p, ascending */
	uint32_t *blk;		/* the tie block of pair i */
	uint32_t *start;	/* nb + 1: block b's first position */
	size_t nb;
	double *pre;		/* n + 1: prefix sums along ord of the
				   other series' ranks */
	uint32_t *list;		/* each cluster's pairs in this order */
};

static double brank(const struct rside *s, size_t b)	/* average rank */
{
	return 0.5 * ((double)s->start[b] + (double)s->start[b + 1] + 1);
}

static void side(struct rside *s, const double *x, size_t n,
		 struct radix_kv *kv)
{
	s->ord = xmalloc((n + 1) * sizeof(*s->ord));
	s->blk = xmalloc((n + 1) * sizeof(*s->blk));
	s->start = xmalloc((n + 2) * sizeof(*s->start));
	s->pre = xmalloc((n + 1) * sizeof(*s->pre));
	s->list = xmalloc((n + 1) * sizeof(*s->list));
	for (size_t i = 0; i < n; i++) {
		kv[i].k = radix_key(x[i]);
		kv[i].v = i;
	}
	radix_sort_kv(kv, kv + n, n);
	s->nb = 0;
	for (size_t p = 0; p < n; p++) {
		if (p == 0 || kv[p].k != kv[p - 1].k)
			s->start[s->nb++] = (uint32_t)p;
		s->ord[p] = (uint32_t)kv[p].v;
		s->blk[kv[p].v] = (uint32_t)(s->nb - 1);
	}
	s->start[s->nb] = (uint32_t)n;
}

/* The other series' prefix sums along s's order. */
static void prefix(struct rside *s, const struct rside *o, size_t n)
{
	s->pre[0] = 0;
	for (size_t p = 0; p < n; p++)
		s->pre[p + 1] = s->pre[p] + brank(o, o->blk[s->ord[p]]);
}

/* Each cluster's pairs in s's order (at: where each cluster's go next). */
static void lists(struct rside *s, const uint32_t *cl, size_t n, size_t *at)
{
	for (size_t p = 0; p < n; p++) {
		uint32_t i = s->ord[p];

		s->list[at[cl[i]]++] = i;
	}
}

static void side_free(struct rside *s)
{
	free(s->ord);
	free(s->blk);
	free(s->start);
	free(s->pre);
	free(s->list);
}

/* The one-dimensional terms of cluster g (its k pairs L in s's order):
 * t[0..4) = sum c, sum R c, sum S c, sum c^2 over the other pairs, R
 * the rank in s, S in the other series (o: s's prefix sums hold it). */
static void oned(const struct rside *s, const struct rside *o,
		 const uint32_t *L, size_t k, size_t n, double *t)
{
	double c = 0, pe = 0;
	size_t at = 0;

	t[0] = t[1] = t[2] = t[3] = 0;
	while (at <= k) {
		size_t b = at < k ? s->blk[L[at]] : s->nb, e = 0;
		double ps = b < s->nb ? s->start[b] : (double)n, so = 0;
		double cnt = ps - pe;

		/* the blocks strictly between: rank sum of positions pe..ps */
		t[0] += c * cnt;
		t[1] += c * (pe + 1 + ps) * cnt / 2;
		t[2] += c * (s->pre[(size_t)ps] - s->pre[(size_t)pe]);
		t[3] += c * c * cnt;
		if (b == s->nb)
			break;
		for (; at < k && s->blk[L[at]] == b; at++, e++)
			so += brank(o, o->blk[L[at]]);
		cnt = (double)(s->start[b + 1] - s->start[b]) - (double)e;
		c += 0.5 * (double)e;
		t[0] += c * cnt;
		t[1] += c * brank(s, b) * cnt;
		t[2] += c * (s->pre[s->start[b + 1]] - s->pre[s->start[b]] -
			     so);
		t[3] += c * c * cnt;
		c += 0.5 * (double)e;
		pe = s->start[b + 1];
	}
}

/* c of every block of s for cluster g's pairs L (k, in s's order):
 * the pairs below plus half the tied ones; constant between g's blocks
 * (filled as runs). */
static void table(const struct rside *s, const uint32_t *L, size_t k,
		  double *tab)
{
	size_t at = 0, q = 0;
	double c = 0;

	while (at < k) {
		size_t b = s->blk[L[at]], e = 0;

		for (; q < b; q++)
			tab[q] = c;
		for (; at < k && s->blk[L[at]] == b; at++)
			e++;
		tab[q++] = c + 0.5 * (double)e;
		c += (double)e;
	}
	for (; q < s->nb; q++)
		tab[q] = c;
}

/* sum c d over the pairs not in g, by a pass over all of them. */
static double cd_pass(const struct rside *x, const struct rside *y,
		      const uint32_t *Lx, const uint32_t *Ly, size_t k,
		      size_t n, double *tx, double *ty)
{
	double a[4] = { 0, 0, 0, 0 }, all, own = 0;
	const uint32_t *bx = x->blk, *by = y->blk;
	size_t i = 0;

	table(x, Lx, k, tx);
	table(y, Ly, k, ty);
	/* four sums (no chain of dependent adds); the products are
	 * multiples of 1/4 below 2^53: exact in any order */
	for (; i + 4 <= n; i += 4)
		for (int q = 0; q < 4; q++)
			a[q] += tx[bx[i + q]] * ty[by[i + q]];
	for (; i < n; i++)
		a[0] += tx[bx[i]] * ty[by[i]];
	all = (a[0] + a[1]) + (a[2] + a[3]);
	for (size_t j = 0; j < k; j++)
		own += tx[x->blk[Lx[j]]] * ty[y->blk[Lx[j]]];
	return all - own;
}

/* sum over g's own pairs of c~ d~ (h over all of g, itself a half):
 * what the dominance counts hold beyond the other pairs. */
static double cd_own(const struct rside *x, const struct rside *y,
		     const uint32_t *Lx, size_t k)
{
	double own = 0;

	for (size_t a = 0; a < k; a++) {
		double c = 0, d = 0;

		for (size_t b = 0; b < k; b++) {
			uint32_t i = Lx[a], j = Lx[b];

			c += x->blk[j] < x->blk[i] ? 1 :
			     x->blk[j] == x->blk[i] ? 0.5 : 0;
			d += y->blk[j] < y->blk[i] ? 1 :
			     y->blk[j] == y->blk[i] ? 0.5 : 0;
		}
		own += c * d;
	}
	return own;
}

/* How many inserted pairs have a y-block below B: a Fenwick tree
 * (O(log n) to insert and to count) or square-root buckets (O(sqrt n)
 * to insert, O(1) to count: when the counts outnumber the insertions
 * enough, clusters of tens of pairs). */
struct ycnt {
	uint32_t *a;	/* Fenwick; or per block, the bucket's count to it */
	uint32_t *bp;	/* per bucket, the count in the buckets below */
	size_t nb, sh, nbk;
};

static void yc_init(struct ycnt *c, size_t nb, int sq)
{
	c->nb = nb;
	c->sh = c->nbk = 0;
	c->a = xcalloc(nb + 1, sizeof(*c->a));
	c->bp = NULL;
	if (!sq)
		return;
	for (c->sh = 0; ((size_t)1 << (2 * c->sh)) < nb; c->sh++)
		;
	c->nbk = (nb >> c->sh) + 2;
	c->bp = xcalloc(c->nbk, sizeof(*c->bp));
}

static void yc_add(struct ycnt *c, size_t b)
{
	size_t q, end;

	if (!c->bp) {
		for (size_t t = b + 1; t <= c->nb; t += t & -t)
			c->a[t]++;
		return;
	}
	q = b >> c->sh;
	end = (q + 1) << c->sh;
	for (size_t t = b; t < end && t < c->nb; t++)
		c->a[t]++;
	for (size_t r = q + 1; r < c->nbk; r++)
		c->bp[r]++;
}

static inline uint32_t yc_below(const struct ycnt *c, size_t B)
{
	uint32_t s = 0;

	if (c->bp)
		return B ? c->bp[(B - 1) >> c->sh] + c->a[B - 1] : 0;
	for (size_t t = B; t > 0; t -= t & -t)
		s += c->a[t];
	return s;
}

/*
 * sum c d of the small clusters (small[g]) by dominance counts: Q(a, b)
 * = sum_i h(a, x_i) h(b, y_i) = 1/4 sum over P in {a, a + 1}, B in {b,
 * b + 1} of G(P, B) = #{i: bx_i >= P, by_i >= B} (block indexes); the
 * sweep lowers P from the last block, inserting each block's pairs into
 * the counts over the y-blocks, and answers at P the events (j, P) of
 * the clusters, summing G(P, .) over the cluster's y-blocks.
 */
static void cd_small(const struct rside *x, const struct rside *y,
		     const uint32_t *cl, const size_t *coff,
		     const unsigned char *small, size_t n, int sq,
		     double *cd)
{
	size_t nb = x->nb, ne = 0, *eoff = xcalloc(nb + 3, sizeof(*eoff));
	uint32_t *ev, *cby, ins = 0;
	struct ycnt yc;

	for (size_t i = 0; i < n; i++)
		if (small[cl[i]]) {
			eoff[x->blk[i] + 2]++;	/* P = bx */
			eoff[x->blk[i] + 3]++;	/* P = bx + 1 */
			ne += 2;
		}
	if (!ne) {
		free(eoff);
		return;
	}
	for (size_t p = 1; p <= nb + 2; p++)
		eoff[p] += eoff[p - 1];
	ev = xmalloc((ne + 1) * sizeof(*ev));
	cby = xmalloc((n + 1) * sizeof(*cby));
	for (size_t i = 0; i < n; i++)
		if (small[cl[i]]) {
			ev[eoff[x->blk[i] + 1]++] = cl[i];
			ev[eoff[x->blk[i] + 2]++] = cl[i];
		}
	/* each cluster's y-blocks, in its order */
	for (size_t j = 0; j < n; j++)
		cby[j] = y->blk[y->list[j]];
	yc_init(&yc, y->nb, sq);
	/* events at P now eoff[P]..eoff[P + 1] */
	for (size_t P = nb + 1; P-- > 0;) {
		if (P < nb)
			for (uint32_t p = x->start[P]; p < x->start[P + 1];
			     p++, ins++)
				yc_add(&yc, y->blk[x->ord[p]]);
		for (size_t e = eoff[P]; e < eoff[P + 1]; e++) {
			uint32_t g = ev[e];
			uint64_t below = 0;

			/* G(P, B) = ins - #{by < B}, B = by, by + 1 */
			if (yc.bp)
				for (size_t j = coff[g]; j < coff[g + 1]; j++)
					below += (uint64_t)yc.bp[cby[j] >>
								 yc.sh] +
						 yc.a[cby[j]] +
						 (cby[j] ? yc.bp[(cby[j] - 1) >>
								 yc.sh] +
						  yc.a[cby[j] - 1] : 0);
			else
				for (size_t j = coff[g]; j < coff[g + 1]; j++)
					below += (uint64_t)yc_below(&yc,
								    cby[j]) +
						 yc_below(&yc, cby[j] + 1);
			cd[g] += 0.25 * ((double)(2 * (uint64_t)ins *
						  (coff[g + 1] - coff[g])) -
					 (double)below);
		}
	}
	free(eoff);
	free(ev);
	free(cby);
	free(yc.a);
	free(yc.bp);
}

/* The corrections of the ng clusters cl into out (stats_cirank_loo). */
static void clusters(struct rside *sx, struct rside *sy, const uint32_t *cl,
		     size_t n, size_t ng, const struct ci_mgrp *G,
		     double *out)
{
	size_t *coff = xcalloc(ng + 2, sizeof(*coff));
	size_t *at = xmalloc((ng + 1) * sizeof(*at)), lg = 1;
	unsigned char *small = xcalloc(ng + 1, 1);
	double *cd = xcalloc(ng + 1, sizeof(*cd)), *tx = NULL, *ty = NULL;
	double ax = G->sx, ay = G->sy, q = 0;
	int sq;

	for (size_t i = 0; i < n; i++)
		coff[cl[i] + 1]++;
	for (size_t g = 0; g < ng; g++)
		coff[g + 1] += coff[g];
	memcpy(at, coff, ng * sizeof(*at));
	lists(sx, cl, n, at);
	memcpy(at, coff, ng * sizeof(*at));
	lists(sy, cl, n, at);
	while (((size_t)1 << lg) < n)
		lg++;
	/* a cluster of k pairs costs 4 k^2 counts (plus k^2 of its own),
	 * against 3 n for the pass; the counts are O(1) with square-root
	 * buckets (2 n sqrt n to insert) or O(log n) with a Fenwick tree
	 * (n log n), whichever costs less for these clusters */
	for (size_t g = 0; g < ng; g++) {
		double k = (double)(coff[g + 1] - coff[g]);

		small[g] = 5 * k * k <= 3.0 * (double)n;
		q += small[g] ? 4 * k * k : 0;
	}
	sq = 2 * (double)n * sqrt((double)n) + q <
	     ((double)n + q) * (double)lg;
	for (size_t g = 0; !sq && g < ng; g++) {
		double k = (double)(coff[g + 1] - coff[g]);

		small[g] = (4 * (double)lg + 1) * k * k <= 3.0 * (double)n;
	}
	cd_small(sx, sy, cl, coff, small, n, sq, cd);
	for (size_t g = 0; g < ng; g++) {
		size_t k = coff[g + 1] - coff[g];
		const uint32_t *Lx = sx->list + coff[g];
		const uint32_t *Ly = sy->list + coff[g];
		double tc[4], td[4], *o = out + 5 * g, Y;

		memset(o, 0, 5 * sizeof(*o));
		if (!k)
			continue;
		if (small[g]) {
			Y = cd[g] - cd_own(sx, sy, Lx, k);
		} else {
			if (!tx) {
				tx = xmalloc((sx->nb + 1) * sizeof(*tx));
				ty = xmalloc((sy->nb + 1) * sizeof(*ty));
			}
			Y = cd_pass(sx, sy, Lx, Ly, k, n, tx, ty);
		}
		oned(sx, sy, Lx, k, n, tc);
		oned(sy, sx, Ly, k, n, td);
		/* sum (R - c) etc. in the group's centred, scaled units:
		 * u' = u - c / ax, v' = v - d / ay */
		o[0] = tc[0] / ax;
		o[1] = td[0] / ay;
		o[2] = (2 * (tc[1] - G->mx * tc[0]) - tc[3]) / (ax * ax);
		o[3] = (2 * (td[1] - G->my * td[0]) - td[3]) / (ay * ay);
		o[4] = ((td[2] - G->mx * td[0]) + (tc[2] - G->my * tc[0]) -
			Y) / (ax * ay);
	}
	free(coff);
	free(at);
	free(small);
	free(cd);
	free(tx);
	free(ty);
}

void stats_cirank_loo(const double *x, const double *y, size_t n,
		      const struct ci_mgrp *G, const uint32_t *cl, size_t ng,
		      double *out, const uint32_t *ocl, size_t no,
		      double *oout)
{
	struct radix_kv *kv = xmalloc(2 * (n + 1) * sizeof(*kv));
	struct rside sx, sy;

	side(&sx, x, n, kv);
	side(&sy, y, n, kv);
	free(kv);
	prefix(&sx, &sy, n);
	prefix(&sy, &sx, n);
	clusters(&sx, &sy, cl, n, ng, G, out);
	if (ocl)
		clusters(&sx, &sy, ocl, n, no, G, oout);
	side_free(&sx);
	side_free(&sy);
}
