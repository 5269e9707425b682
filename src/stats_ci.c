/* Workload bootstrap intervals of the headline statistics (stats_ci.h). */
#include "src/stats_ci.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "src/radix.h"
#include "src/stats_agree.h"
#include "src/base/util.h"

/* Dense workload numbers 0..nc-1 of wkey[0..n) into cl, in key order;
 * returns nc. Keys are dictionary ids: when their range is at most a few
 * times n, a table indexed by key numbers them in O(n + range), else a
 * sort does (the same numbers either way). */
static size_t densify(const int64_t *wkey, size_t n, uint32_t *cl)
{
	struct radix_kv *a, *tmp;
	int64_t lo, hi;
	size_t nc = 0;

	if (n == 0)
		return 0;
	lo = hi = wkey[0];
	for (size_t i = 1; i < n; i++) {
		lo = wkey[i] < lo ? wkey[i] : lo;
		hi = wkey[i] > hi ? wkey[i] : hi;
	}
	if ((uint64_t)(hi - lo) < 4 * (uint64_t)n + 4096) {
		size_t range = (size_t)(hi - lo) + 1;
		uint32_t *num = xcalloc(range, sizeof(*num));

		for (size_t i = 0; i < n; i++)
			num[wkey[i] - lo] = 1;
		for (size_t k = 0; k < range; k++)
			if (num[k])
				num[k] = (uint32_t)++nc;
		for (size_t i = 0; i < n; i++)
			cl[i] = num[wkey[i] - lo] - 1;
		free(num);
		return nc;
	}
	a = xmalloc(n * sizeof(*a));
	tmp = xmalloc(n * sizeof(*tmp));
	for (size_t i = 0; i < n; i++)
		a[i] = (struct radix_kv){ (uint64_t)wkey[i] ^ (1ULL << 63), i };
	radix_sort_kv(a, tmp, n);
	for (size_t i = 0; i < n; i++) {
		if (i && a[i].k != a[i - 1].k)
			nc++;
		cl[a[i].v] = (uint32_t)nc;
	}
	free(a);
	free(tmp);
	return nc + 1;
}

/* The sorted values val[] of workloads cl[] (n of them); a resample's
 * median walks from the middle, mid = n / 2, whose weighted rank the
 * pass computes from each workload's count of values below mid. */
struct wsorted {
	const double *val;
	const uint32_t *cl;
	size_t n, mid;
};

/*
 * The draws. Resample b draws nc workloads with stats_paired_draw from
 * the state the generator reaches after b * nc draws (splitmix64's state
 * advances by one constant per draw, so row b starts at seed + b * nc *
 * 0x9e3779b97f4a7c15): the same draws as one stream over every resample.
 * Each row becomes counts w[c] (how often workload c was drawn). They
 * depend only on (seed, nc, resamples), so a cache holds them for every
 * summary with as many workloads (compare's summary and its by_metric
 * blocks, the groups of --group-by op): drawn once, read as bytes.
 */
struct stats_ci_draws {
	uint64_t seed;
	size_t nc;
	unsigned nb;
	uint8_t *w;		/* nb rows of nc counts, or NULL */
	size_t cap;		/* bytes at w */
	int full;		/* every row of (seed, nc, nb) is at w */
	int broken;		/* a count passed 255 while filling */		/* every row stored (no count above 255) */
};

/* Cache at most this many bytes of counts (one per workload and
 * resample): 1000 resamples of 67,000 workloads. */
#define DRAWS_MAX ((size_t)64 << 20)

static inline size_t draw(uint64_t *state, size_t n)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
	double u;
	size_t k;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	u = (double)(z >> 11) * 0x1.0p-53;	/* = stats_paired_draw */
	k = (size_t)(u * (double)n);
	return k < n ? k : n - 1;
}

/* The state of the generator at the start of row b. */
static uint64_t row_state(uint64_t seed, size_t nc, unsigned b)
{
	return seed + (uint64_t)b * (uint64_t)nc * 0x9e3779b97f4a7c15ULL;
}

/* Counts of row b into w[0..nc) (cleared here), a byte each: a smaller
 * array takes the random increments faster. -1 when a count passed 255
 * (a workload drawn 256 times of nc: never seen; the caller then counts
 * in 32 bits). */
static int draw_row8(uint8_t *w, size_t nc, uint64_t seed, unsigned b)
{
	uint64_t st = row_state(seed, nc, b), sum = 0;

	memset(w, 0, nc);
	for (size_t j = 0; j < nc; j++)
		w[draw(&st, nc)]++;
	if (nc < 256)
		return 0;
	/* a count that wrapped lost 256 of the nc draws */
	for (size_t c = 0; c < nc; c++)
		sum += w[c];
	return sum == nc ? 0 : -1;
}

static void draw_row32(uint32_t *w, size_t nc, uint64_t seed, unsigned b)
{
	uint64_t st = row_state(seed, nc, b);

	memset(w, 0, nc * sizeof(*w));
	for (size_t j = 0; j < nc; j++)
		w[draw(&st, nc)]++;
}

struct stats_ci_draws *stats_ci_draws_new(void)
{
	return xcalloc(1, sizeof(struct stats_ci_draws));
}

void stats_ci_draws_free(struct stats_ci_draws *d)
{
	if (!d)
		return;
	free(d->w);
	free(d);
}

enum { D_NONE, D_FILL, D_HIT };

/* Row b of the (seed, nc, nb) draws: the cache's own row (D_HIT), else
 * drawn into the cache (D_FILL) or into w8 (D_NONE). NULL when a count
 * passed 255 (the caller counts in 32 bits; the cache stops filling). */
static const uint8_t *get_row(struct stats_ci_draws *d, int mode,
			      uint8_t *w8, size_t nc, uint64_t seed,
			      unsigned b)
{
	uint8_t *row = mode == D_NONE ? w8 : d->w + (size_t)b * nc;

	if (mode == D_HIT)
		return row;
	if (draw_row8(row, nc, seed, b) == 0)
		return row;
	if (mode == D_FILL)
		d->broken = 1;
	return NULL;
}

/* D_HIT when the cache d holds (seed, nc, nb); D_FILL when the summary
 * before asked for the same draws (a second summary with as many
 * workloads: the next ones will hit), and the cache can hold them; else
 * D_NONE (summaries whose numbers of workloads differ, as compare's
 * by_metric blocks often do, draw into a small row rather than fill a
 * large table nobody reads). */
static int draws_use(struct stats_ci_draws *d, uint64_t seed, size_t nc,
		     unsigned nb)
{
	int again;

	if (!d)
		return D_NONE;
	if (d->full && d->seed == seed && d->nc == nc && d->nb == nb)
		return D_HIT;
	again = d->seed == seed && d->nc == nc && d->nb == nb;
	d->full = 0;
	d->seed = seed;
	d->nc = nc;
	d->nb = nb;
	if (!again || nc > DRAWS_MAX / nb)
		return D_NONE;
	if (!d->w || d->cap < nc * (size_t)nb) {
		free(d->w);
		d->cap = nc * (size_t)nb;
		d->w = xmalloc(d->cap);
	}
	d->broken = 0;
	return D_FILL;
}

static void interval(struct stats_ci *ci, double *v, size_t nb, double a)
{
	stats_paired_sort(v, nb);
	ci->lo = stats_paired_quantile(v, nb, a);
	ci->hi = stats_paired_quantile(v, nb, 1 - a);
}

/* Fisher-z interval of a correlation r over n pairs: tanh(atanh r -+
 * z_q * sqrt(c / (n - 3))); NaN when r is or n <= 3, [r, r] when |r| = 1. */
static void fisher(struct stats_ci *ci, double r, size_t n, double c,
		   double zq)
{
	double z, h;

	if (!isfinite(r) || n <= 3)
		return;
	if (fabs(r) >= 1) {
		ci->lo = ci->hi = r;
		return;
	}
	z = atanh(r);
	h = zq * sqrt(c / (double)(n - 3));
	ci->lo = tanh(z - h);
	ci->hi = tanh(z + h);
}

/* Per-workload sums, one array each (the pass reads them in order):
 * pairs, pairs below the middle of the sorted |errors|, sum |e|, sum e,
 * sum ln(m / r). */
struct wsums {
	uint32_t *cnt, *mcnt;
	double *sabs, *serr, *slog;
};

/* One resample's totals: sum over workloads of w[c] times each sum. */
struct rtot {
	uint64_t N, M;
	double A, E, L;
};

/*
 * For rows of counts of type T (bytes, or 32 bits when a count passed
 * 255): pass##S, the totals of one resample, in one pass in workload
 * order; wmedian##S, its median: the sorted values, each of workload c
 * counted w[c] times, W in all (numpy's median: the mean of the two
 * middle ranks), walking from the middle: acc = t.M, the weighted rank
 * of mid (sum_c w[c] times the values of c below mid), then to rank
 * (W - 1) / 2. A resample's median lies near the sample's, so the walk
 * is short; the element found is the same as a walk from 0 (the unique
 * i with rank(i) <= r1 < rank(i + 1)).
 */
#define ROW_FUNCS(T, S)							\
static struct rtot pass##S(const struct wsums *x, const T *w, size_t nc,	\
			   int med)					\
{									\
	struct rtot t = { 0, 0, 0, 0, 0 };				\
									\
	for (size_t c = 0; c < nc; c++) {				\
		double dk = (double)w[c];				\
									\
		t.N += (uint64_t)w[c] * x->cnt[c];			\
		t.A += dk * x->sabs[c];					\
		t.E += dk * x->serr[c];					\
		t.L += dk * x->slog[c];					\
	}								\
	if (med)							\
		for (size_t c = 0; c < nc; c++)				\
			t.M += (uint64_t)w[c] * x->mcnt[c];		\
	return t;							\
}									\
									\
static double wmedian##S(const struct wsorted *ws, const T *w,		\
			 uint64_t acc, uint64_t W)			\
{									\
	const double *val = ws->val;					\
	const uint32_t *cl = ws->cl;					\
	uint64_t r1 = (W - 1) / 2, r2 = W / 2;				\
	size_t i = ws->mid;						\
	double v1;							\
									\
	while (acc > r1)						\
		acc -= w[cl[--i]];					\
	while (acc + w[cl[i]] <= r1)					\
		acc += w[cl[i++]];					\
	v1 = val[i];							\
	while (acc + w[cl[i]] <= r2)					\
		acc += w[cl[i++]];					\
	return (v1 + val[i]) / 2;					\
}
ROW_FUNCS(uint8_t, 8)
ROW_FUNCS(uint32_t, 32)

/* ROWS resamples in one pass (each row's sums in workload order, as
 * pass8): the per-workload sums are read once for ROWS rows; the
 * accumulators are scalars (kept in registers: an array of them went
 * through memory on every step). */
#define ROWS 4
static void pass8_rows(const struct wsums *x, const uint8_t *const *r,
		       size_t nc, struct rtot *t)
{
	const uint8_t *r0 = r[0], *r1 = r[1], *r2 = r[2], *r3 = r[3];
	double A0 = 0, A1 = 0, A2 = 0, A3 = 0, E0 = 0, E1 = 0, E2 = 0,
	       E3 = 0, L0 = 0, L1 = 0, L2 = 0, L3 = 0;
	uint64_t N0 = 0, N1 = 0, N2 = 0, N3 = 0, M0 = 0, M1 = 0, M2 = 0,
		 M3 = 0;

	for (size_t c = 0; c < nc; c++) {
		uint64_t cnt = x->cnt[c], mc = x->mcnt[c];
		double a = x->sabs[c], e = x->serr[c], l = x->slog[c];
		uint64_t w0 = r0[c], w1 = r1[c], w2 = r2[c], w3 = r3[c];
		double d0 = (double)w0, d1 = (double)w1, d2 = (double)w2,
		       d3 = (double)w3;

		N0 += w0 * cnt;
		N1 += w1 * cnt;
		N2 += w2 * cnt;
		N3 += w3 * cnt;
		M0 += w0 * mc;
		M1 += w1 * mc;
		M2 += w2 * mc;
		M3 += w3 * mc;
		A0 += d0 * a;
		A1 += d1 * a;
		A2 += d2 * a;
		A3 += d3 * a;
		E0 += d0 * e;
		E1 += d1 * e;
		E2 += d2 * e;
		E3 += d3 * e;
		L0 += d0 * l;
		L1 += d1 * l;
		L2 += d2 * l;
		L3 += d3 * l;
	}
	t[0] = (struct rtot){ N0, M0, A0, E0, L0 };
	t[1] = (struct rtot){ N1, M1, A1, E1, L1 };
	t[2] = (struct rtot){ N2, M2, A2, E2, L2 };
	t[3] = (struct rtot){ N3, M3, A3, E3, L3 };
}

void stats_ci_compute(struct stats_summary *s, const double *model,
		      const double *ref, const int64_t *wkey, size_t n,
		      const struct stats_paired_opts *opts)
{
	stats_ci_compute_shared(s, model, ref, wkey, n, opts, NULL);
}

void stats_ci_compute_shared(struct stats_summary *s, const double *model,
			     const double *ref, const int64_t *wkey, size_t n,
			     const struct stats_paired_opts *opts,
			     struct stats_ci_draws *draws)
{
	unsigned nb = opts && opts->resamples ? opts->resamples :
		      STATS_CI_RESAMPLES;
	uint64_t seed = opts && opts->seed ? opts->seed : STATS_PAIRED_SEED;
	double level = opts && opts->level > 0 && opts->level < 1 ?
		       opts->level : STATS_PAIRED_LEVEL;
	int do_err = isfinite(s->bias), do_mape = isfinite(s->mape);
	int do_med = do_err && isfinite(s->median_abs_err);
	int do_geo = isfinite(s->geomean_ratio);
	uint32_t *cl, *scl = NULL, *w32 = NULL;
	uint8_t *w8;
	double *sval = NULL, *res;
	struct wsorted wso = { NULL, NULL, 0, 0 };
	struct wsums ws;
	size_t nc;
	int mode;

	s->workloads = 0;
	if (n == 0)
		return;
	{
		double zq = gsl_cdf_ugaussian_Pinv((1 + level) / 2);

		fisher(&s->pearson_ci, s->pearson, n, 1, zq);
		fisher(&s->pearson_log_ci, s->pearson_log, n, 1, zq);
		fisher(&s->spearman_ci, s->spearman, n, 1.06, zq);
	}
	stats_agree_ci(s, model, ref, n, level);
	cl = xmalloc(n * sizeof(*cl));
	nc = densify(wkey, n, cl);
	s->workloads = (long)nc;
	if (nc < 2 || (!do_err && !do_geo)) {
		free(cl);
		return;
	}
	ws.cnt = xcalloc(nc, sizeof(*ws.cnt));
	ws.mcnt = xcalloc(nc, sizeof(*ws.mcnt));
	ws.sabs = xcalloc(nc, sizeof(*ws.sabs));
	ws.serr = xcalloc(nc, sizeof(*ws.serr));
	ws.slog = xcalloc(nc, sizeof(*ws.slog));
	for (size_t i = 0; i < n; i++) {
		uint32_t c = cl[i];
		double e = stats_err(model[i], ref[i]);

		ws.cnt[c]++;
		if (do_err) {
			ws.sabs[c] += fabs(e);
			ws.serr[c] += e;
		}
		if (do_geo)
			ws.slog[c] += log(model[i] / ref[i]);
	}
	if (do_med) {
		struct radix_kv *a = xmalloc(n * sizeof(*a));
		struct radix_kv *tmp = xmalloc(n * sizeof(*tmp));

		for (size_t i = 0; i < n; i++)
			a[i] = (struct radix_kv){
				radix_key(fabs(stats_err(model[i], ref[i]))),
				cl[i] };
		radix_sort_kv(a, tmp, n);
		free(tmp);
		sval = xmalloc(n * sizeof(*sval));
		scl = xmalloc(n * sizeof(*scl));
		for (size_t i = 0; i < n; i++) {
			sval[i] = radix_unkey(a[i].k);
			scl[i] = (uint32_t)a[i].v;
		}
		free(a);
		wso = (struct wsorted){ sval, scl, n, n / 2 };
		for (size_t i = 0; i < wso.mid; i++)
			ws.mcnt[scl[i]]++;
	}
	mode = draws_use(draws, seed, nc, nb);
	w8 = mode == D_NONE ? xmalloc(ROWS * nc) : NULL;
	res = xmalloc(4 * (size_t)nb * sizeof(*res));
	for (unsigned b0 = 0; b0 < nb; b0 += ROWS) {
		unsigned k = nb - b0 < ROWS ? nb - b0 : ROWS;
		const uint8_t *row[ROWS];
		struct rtot t[ROWS];
		int all = k == ROWS;

		for (unsigned j = 0; j < k; j++) {
			row[j] = get_row(draws, mode, w8 ? w8 + j * nc : NULL,
					 nc, seed, b0 + j);
			all &= row[j] != NULL;
		}
		if (all)
			pass8_rows(&ws, row, nc, t);
		for (unsigned j = 0; j < k; j++) {
			unsigned b = b0 + j;
			double med = NAN;

			if (row[j]) {
				if (!all)
					t[j] = pass8(&ws, row[j], nc, do_med);
				if (do_med)
					med = wmedian8(&wso, row[j], t[j].M,
						       t[j].N);
			} else {
				if (!w32)
					w32 = xmalloc(nc * sizeof(*w32));
				draw_row32(w32, nc, seed, b);
				t[j] = pass32(&ws, w32, nc, do_med);
				if (do_med)
					med = wmedian32(&wso, w32, t[j].M,
							t[j].N);
			}
			res[b] = t[j].A / (double)t[j].N;
			res[nb + b] = t[j].E / (double)t[j].N;
			res[2 * (size_t)nb + b] = exp(t[j].L / (double)t[j].N);
			res[3 * (size_t)nb + b] = med;
		}
	}
	if (mode == D_FILL)
		draws->full = !draws->broken;
	{
		double a = (1 - level) / 2;

		if (do_mape)
			interval(&s->mape_ci, res, nb, a);
		if (do_err)
			interval(&s->bias_ci, res + nb, nb, a);
		if (do_geo)
			interval(&s->geomean_ratio_ci, res + 2 * (size_t)nb,
				 nb, a);
		if (do_med)
			interval(&s->median_abs_err_ci, res + 3 * (size_t)nb,
				 nb, a);
	}
	free(res);
	free(w8);
	free(w32);
	free(ws.cnt);
	free(ws.mcnt);
	free(ws.sabs);
	free(ws.serr);
	free(ws.slog);
	free(cl);
	free(sval);
	free(scl);
}
