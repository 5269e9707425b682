/* E-Divisive change points with a permutation test (see stats_cpd.h). */
#include "src/stats/stats_cpd.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

void stats_cpd_opts_default(struct stats_cpd_opts *o)
{
	o->alpha = STATS_CPD_ALPHA;
	o->permutations = STATS_CPD_PERMUTATIONS;
	o->seed = STATS_CPD_SEED;
	o->min_size = STATS_CPD_MIN_SIZE;
}

static uint64_t next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Shuffle v[0..m) (Fisher-Yates from the end). */
static void shuffle(size_t *v, size_t m, uint64_t *state)
{
	for (size_t i = m; i-- > 1;) {
		double u = (double)(next(state) >> 11) * 0x1.0p-53;
		size_t j = (size_t)(u * (double)(i + 1)), t;

		if (j > i)
			j = i;
		t = v[i];
		v[i] = v[j];
		v[j] = t;
	}
}

/* The n x n distances (root mean square of the differences). */
static double *distances(const double *x, size_t n, size_t d)
{
	double *D = xcalloc(n * n + 1, sizeof(*D));

	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			double s = 0;

			for (size_t k = 0; k < d; k++) {
				double e = x[i * d + k] - x[j * d + k];

				s += e * e;
			}
			D[i * n + j] = D[j * n + i] = sqrt(s / (double)(d ? d : 1));
		}
	return D;
}

static double q_of(double B, double WL, double WR, size_t m1, size_t m2)
{
	double e = 2 * B / ((double)m1 * (double)m2);

	if (m1 > 1)
		e -= WL / ((double)m1 * (double)(m1 - 1) / 2);
	if (m2 > 1)
		e -= WR / ((double)m2 * (double)(m2 - 1) / 2);
	return (double)m1 * (double)m2 / (double)(m1 + m2) * e;
}

/* Q of every split of the observations ord[0..m) (indexes into D, n
 * wide), each the largest over the right part's end kappa: into q[tau]
 * when q is not NULL; the largest (earliest tau, then kappa, on a tie)
 * into *best_q, its tau returned. m >= 2 min. C is (m + 1)^2 scratch:
 * C[x][y] = sum of D over the rows ord[0..x) and columns ord[0..y), so
 * every sum over a block is four lookups. */
static size_t scan(const double *D, size_t n, const size_t *ord, size_t m,
		   size_t min, double *C, double *q, double *best_q)
{
	size_t w = m + 1, at = 0;
	double best = -INFINITY;

	for (size_t y = 0; y <= m; y++)
		C[y] = 0;
	for (size_t x = 1; x <= m; x++) {
		double row = 0;
		const double *d = D + ord[x - 1] * n;

		C[x * w] = 0;
		for (size_t y = 1; y <= m; y++) {
			row += d[ord[y - 1]];
			C[x * w + y] = C[(x - 1) * w + y] + row;
		}
	}
#define BLOCK(a, b, c, e) (C[(b) * w + (e)] - C[(a) * w + (e)] - \
			   C[(b) * w + (c)] + C[(a) * w + (c)])
	for (size_t tau = min; tau + min <= m; tau++) {
		double wl = BLOCK(0, tau, 0, tau) / 2, top = -INFINITY;

		for (size_t k = tau + min; k <= m; k++) {
			double v = q_of(BLOCK(0, tau, tau, k),
					wl, BLOCK(tau, k, tau, k) / 2, tau,
					k - tau);

			if (v > top)
				top = v;
		}
		if (q)
			q[tau] = top;
		if (top > best) {
			best = top;
			at = tau;
		}
	}
#undef BLOCK
	*best_q = best;
	return at;
}

void stats_cpd_q_curve(const double *x, size_t n, size_t d, size_t min_size,
		       double *q)
{
	double *D, *C, best;
	size_t *ord;

	for (size_t i = 0; i <= n; i++)
		q[i] = NAN;
	if (min_size < 1)
		min_size = 1;
	if (n < 2 * min_size)
		return;
	D = distances(x, n, d);
	C = xmalloc((n + 1) * (n + 1) * sizeof(*C));
	ord = xmalloc(n * sizeof(*ord));
	for (size_t i = 0; i < n; i++)
		ord[i] = i;
	scan(D, n, ord, n, min_size, C, q, &best);
	free(ord);
	free(C);
	free(D);
}

/* The permutation p of the best split (Q = obs) of segment [a, b). */
static double permutation_p(const double *D, size_t n, size_t a, size_t b,
			    double obs, const struct stats_cpd_opts *o,
			    double *C, uint64_t *state)
{
	size_t m = b - a, *ord = xmalloc(m * sizeof(*ord));
	long hits = 0;

	for (int r = 0; r < o->permutations; r++) {
		double best;

		for (size_t i = 0; i < m; i++)
			ord[i] = a + i;
		shuffle(ord, m, state);
		scan(D, n, ord, m, o->min_size, C, NULL, &best);
		if (best >= obs - 1e-9 * fabs(obs))
			hits++;
	}
	free(ord);
	return (1.0 + (double)hits) / (1.0 + o->permutations);
}

static int by_at(const void *x, const void *y)
{
	size_t a = ((const struct stats_cpd_point *)x)->at;
	size_t b = ((const struct stats_cpd_point *)y)->at;

	return (a > b) - (a < b);
}

int stats_cpd_edivisive(struct stats_cpd *out, const double *x, size_t n,
			size_t d, const struct stats_cpd_opts *opts)
{
	struct stats_cpd_opts o;
	double *D, *C;
	size_t *bound, nb = 2, *ord;	/* segment boundaries, sorted */
	uint64_t state;

	if (opts)
		o = *opts;
	else
		stats_cpd_opts_default(&o);
	if (o.min_size < 1)
		o.min_size = 1;
	memset(out, 0, sizeof(*out));
	out->p_stop = out->q_stop = NAN;
	if (n < 2 * o.min_size)
		return 0;
	state = o.seed;
	D = distances(x, n, d);
	C = xmalloc((n + 1) * (n + 1) * sizeof(*C));
	bound = xmalloc((n + 2) * sizeof(*bound));
	ord = xmalloc(n * sizeof(*ord));
	for (size_t i = 0; i < n; i++)
		ord[i] = i;
	bound[0] = 0;
	bound[1] = n;
	for (;;) {
		double best = -INFINITY, q, p;
		size_t at = 0, seg = 0;

		for (size_t s = 0; s + 1 < nb; s++) {
			size_t a = bound[s], b = bound[s + 1], t;

			if (b - a < 2 * o.min_size)
				continue;
			t = a + scan(D, n, ord + a, b - a, o.min_size, C, NULL,
				     &q);
			if (q > best) {
				best = q;
				at = t;
				seg = s;
			}
		}
		if (!at)
			break;
		p = permutation_p(D, n, bound[seg], bound[seg + 1], best, &o, C,
				  &state);
		if (!(p <= o.alpha)) {
			out->p_stop = p;
			out->q_stop = best;
			out->at_stop = at;
			break;
		}
		out->v = xrealloc(out->v, (out->n + 1) * sizeof(*out->v));
		out->v[out->n++] = (struct stats_cpd_point){ at, best, p };
		memmove(bound + seg + 2, bound + seg + 1,
			(nb - seg - 1) * sizeof(*bound));
		bound[seg + 1] = at;
		nb++;
	}
	if (out->n)	/* qsort(NULL, 0) is undefined */
		qsort(out->v, out->n, sizeof(*out->v), by_at);
	free(ord);
	free(bound);
	free(C);
	free(D);
	return 0;
}

void stats_cpd_release(struct stats_cpd *c)
{
	free(c->v);
	memset(c, 0, sizeof(*c));
}
