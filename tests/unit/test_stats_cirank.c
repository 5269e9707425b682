/*
 * Spearman's leave-one-out samples re-ranked (src/stats/stats_cirank.c,
 * issue 34): for every cluster, the sums (u, v, uu, vv, uv) of the other
 * pairs ranked among themselves equal a brute force that ranks each
 * leave-one-out sample by sorting it (average ranks: the mean position
 * of a tie group, as scipy's rankdata), on data with many ties and
 * none, clusters of 0, 1, a few and many pairs, and a second clustering
 * at once (the ops of a two-way interval): every way of the code
 * (the dominance counts of small clusters in square-root buckets and in
 * a Fenwick tree, the pass of large ones).
 * Spearman's interval through compare's path: tests/cli/compare_agree.sh
 * (against tests/ref/stats_jack_ref.py's re-ranking); its coverage:
 * tests/unit/test_stats_coverage.c.
 */
#include <stdio.h>

#include "check.h"
#include "sim_study.h"
#include "src/stats/stats_ci_int.h"

static const double *sort_by;

static int by_value(const void *a, const void *b)
{
	double x = sort_by[*(const size_t *)a], y = sort_by[*(const size_t *)b];

	return (x > y) - (x < y);
}

/* Average ranks of v[idx[0..m)] among themselves into rank[idx[.]]: the
 * pairs below plus half the ties plus one half (sorted, then a tie
 * group's mean position). */
static void avg_ranks(const double *v, size_t *idx, size_t m, double *rank)
{
	sort_by = v;
	qsort(idx, m, sizeof(*idx), by_value);
	for (size_t a = 0, b; a < m; a = b) {
		for (b = a + 1; b < m && v[idx[b]] == v[idx[a]]; b++)
			;
		for (size_t q = a; q < b; q++)
			rank[idx[q]] = 0.5 * (double)(a + 1 + b);
	}
}

/* Brute force of cluster g's corrections into o[5]: rank the other
 * pairs among themselves and sum. */
static void brute(const double *x, const double *y, const uint32_t *cl,
		  size_t n, uint32_t g, const struct ci_mgrp *G, double *o)
{
	size_t *idx = malloc((n + 1) * sizeof(*idx)), m = 0;
	double *rx = malloc((n + 1) * sizeof(*rx));
	double *ry = malloc((n + 1) * sizeof(*ry));
	double *fx = malloc((n + 1) * sizeof(*fx));
	double *fy = malloc((n + 1) * sizeof(*fy));
	double s[5] = { 0 };

	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	avg_ranks(x, idx, n, fx);
	avg_ranks(y, idx, n, fy);
	for (size_t i = 0; i < n; i++)
		if (cl[i] != g)
			idx[m++] = i;
	avg_ranks(x, idx, m, rx);
	avg_ranks(y, idx, m, ry);
	for (size_t q = 0; q < m; q++) {
		size_t i = idx[q];
		double u = (fx[i] - G->mx) / G->sx, v = (fy[i] - G->my) / G->sy;
		double u1 = (rx[i] - G->mx) / G->sx, v1 = (ry[i] - G->my) / G->sy;

		s[0] += u - u1;
		s[1] += v - v1;
		s[2] += u * u - u1 * u1;
		s[3] += v * v - v1 * v1;
		s[4] += u * v - u1 * v1;
	}
	memcpy(o, s, sizeof(s));
	free(idx);
	free(rx);
	free(ry);
	free(fx);
	free(fy);
}

/* n pairs with values in 0..levels (ties when levels is small), cluster
 * sizes from sizes[] in turn (0: an empty cluster), against brute. */
static void against_brute(size_t n, int levels, const size_t *sizes,
			  size_t nsizes, uint64_t seed)
{
	double *x = malloc(n * sizeof(*x)), *y = malloc(n * sizeof(*y));
	uint32_t *cl = malloc(n * sizeof(*cl)), *ocl = malloc(n * sizeof(*ocl));
	double *out, *oout, *ref = malloc(5 * sizeof(*ref)), worst = 0;
	struct ci_mgrp G = { 0, (double)(n + 1) / 2, (double)(n + 1) / 2,
			     (double)n / 2, (double)n / 2 };
	struct sim_rng r;
	size_t ng = 0, i = 0, k = 0;

	sim_rng_seed(&r, seed);
	while (i < n) {
		size_t sz = sizes[k++ % nsizes];

		for (size_t j = 0; j < sz && i < n; j++, i++)
			cl[i] = (uint32_t)ng;
		ng++;
	}
	for (i = 0; i < n; i++) {
		double z = sim_normal(&r);

		x[i] = levels ? (double)sim_index(&r, (size_t)levels) : z;
		y[i] = levels ? floor(x[i] + 3 * sim_uniform(&r)) :
		       z + 0.3 * sim_normal(&r);
	}
	/* clusters in a scattered order */
	for (i = n; i-- > 1;) {
		size_t j = sim_index(&r, i + 1);
		uint32_t t = cl[i];

		cl[i] = cl[j];
		cl[j] = t;
	}
	/* and a second clustering at once (ops, two-way): 5 of them */
	for (i = 0; i < n; i++)
		ocl[i] = (uint32_t)((i * 7 + (size_t)cl[i]) % 5);
	out = malloc((ng + 1) * 5 * sizeof(*out));
	oout = malloc(6 * 5 * sizeof(*oout));
	stats_cirank_loo(x, y, n, &G, cl, ng, out, ocl, 5, oout);
	for (int way = 0; way < 2; way++)
		for (uint32_t g = 0; g < (way ? 5 : ng); g++) {
			const double *o = way ? oout : out;

			brute(x, y, way ? ocl : cl, n, g, &G, ref);
			for (int q = 0; q < 5; q++) {
				double d = fabs(o[5 * g + q] - ref[q]) /
					   (1 + fabs(ref[q]));

				worst = fmax(worst, d);
				if (!(d < 1e-9))
					printf("# n %zu %s %u sum %d: %.17g, "
					       "brute %.17g\n", n,
					       way ? "op" : "cluster", g, q,
					       o[5 * g + q], ref[q]);
				CHECK(d < 1e-9);
			}
		}
	printf("# n %zu, %zu clusters, levels %d: worst relative "
	       "difference %.3g\n", n, ng, levels, worst);
	free(x);
	free(y);
	free(cl);
	free(ocl);
	free(out);
	free(oout);
	free(ref);
}

TEST(small_clusters_with_ties)
{
	static const size_t sz[] = { 1, 2, 3, 0, 5, 1 };

	against_brute(120, 7, sz, 6, 1);	/* heavy ties */
	against_brute(150, 0, sz, 6, 2);	/* none */
}

TEST(large_clusters_with_ties)
{
	/* 60 pairs of 200: the pass over all pairs */
	static const size_t sz[] = { 60, 4, 60, 1, 75 };

	against_brute(200, 5, sz, 5, 3);
	against_brute(200, 0, sz, 5, 4);
	against_brute(200, 40, sz, 5, 5);
}

TEST(one_cluster_and_all_singletons)
{
	static const size_t one[] = { 80 }, single[] = { 1 };

	against_brute(80, 6, one, 1, 6);	/* nothing left */
	against_brute(90, 9, single, 1, 7);	/* pair-level */
}

TEST(many_tiny_clusters)
{
	/* counts in a Fenwick tree (the square-root buckets cost more to
	 * fill than they save here), and one large cluster's pass */
	static const size_t sz[] = { 1, 1, 1, 1, 1, 1, 1, 2 };
	static const size_t big[] = { 1, 2, 400 };

	against_brute(1200, 0, sz, 8, 8);
	against_brute(1200, 30, sz, 8, 9);
	against_brute(1200, 0, big, 3, 10);
}

TEST_MAIN(CASE(small_clusters_with_ties), CASE(large_clusters_with_ties),
	  CASE(one_cluster_and_all_singletons), CASE(many_tiny_clusters))
