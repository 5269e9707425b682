/* Workload bootstrap intervals of the headline statistics (stats_ci.h). */
#include "src/stats_ci.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "src/radix.h"
#include "src/stats_agree.h"
#include "src/base/util.h"

/* Dense workload numbers 0..nc-1 of wkey[0..n) into cl, in key order,
 * and the key of each number into dkey[0..nc); returns nc. Keys are
 * dictionary ids: when their range is at most a few times n, a table
 * indexed by key numbers them in O(n + range), else a sort does (the
 * same numbers either way). */
static size_t densify(const int64_t *wkey, size_t n, uint32_t *cl,
		      int64_t *dkey)
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
			if (num[k]) {
				dkey[nc] = lo + (int64_t)k;
				num[k] = (uint32_t)++nc;
			}
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
		dkey[nc] = wkey[a[i].v];
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
 * The draws (docs/statistics.md, "Confidence intervals"). Resample b of
 * a summary whose workloads have the keys k_1 < ... < k_nc counts how
 * often it draws each workload:
 *   1. a base count per workload, Poisson(1) by inversion of 32 bits of
 *      mix(R_b + (k >> 1) gamma) (the top half for an even key k, the
 *      low half for an odd one), R_b = mix(seed + (b + 1) gamma) (the
 *      b-th output of splitmix64 seeded with seed): a function of (seed,
 *      b, workload key) alone, so every summary that holds a workload
 *      gets the same base count for it;
 *   2. fixed up to exactly nc draws with the stream stats_paired_draw
 *      seeded with R_b ^ FIX: while the total is below nc, one more draw
 *      of a workload uniform among the nc; while above, remove one draw
 *      chosen uniformly among all the draws (a workload j uniform, kept
 *      when a second draw v uniform in [0, 12) falls below its count:
 *      rejection; 12 is the largest base count).
 * Independent Poisson counts given their total T are multinomial(T,
 * uniform); adding uniform draws or removing uniformly chosen ones keeps
 * them so: the counts are multinomial(nc, 1/nc), the same bootstrap as
 * nc draws with replacement, for every summary, whatever its workloads
 * (to within the 2^-32 quantisation of the Poisson table). The fix-up
 * moves about 0.8 sqrt(nc) draws.
 *
 * The base counts are shared: the first summary of a set (usually over
 * all its workloads) keeps its rows as nibbles in a cache, and a later
 * summary whose workloads the cache holds, at least half of them
 * (compare's by_metric blocks, whose workload sets differ by the noisy
 * references they drop; the large groups of --group-by), works in the
 * cache's numbering: its row is the cached row unpacked, then fixed up
 * on its own workloads; its per-workload sums are 0 where it has no
 * workload, so those places add nothing. A smaller summary hashes its own base counts.
 */
struct stats_ci_draws {
	uint64_t seed;
	unsigned nb;
	int64_t *keys;		/* the cached workloads, ascending */
	size_t nu, nw;		/* how many; nu rounded up to 16 */
	uint8_t *nib;		/* nb rows of nw / 2 bytes, or NULL */
	size_t cap;		/* bytes at nib */
	int full;		/* every row of (seed, nb, keys) is at nib */
};

/* Cache at most this many bytes of base counts (a nibble per workload
 * and resample): 1000 resamples of 134,000 workloads. */
#define DRAWS_MAX ((size_t)64 << 20)

#define GAMMA 0x9e3779b97f4a7c15ULL
#define FIX 0x5851f42d4c957f2dULL
#define POIS_MAX 12

static inline uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline size_t draw(uint64_t *state, size_t n)
{
	double u = (double)(mix64(*state += GAMMA) >> 11) * 0x1.0p-53;
	size_t k = (size_t)(u * (double)n);	/* = stats_paired_draw */

	return k < n ? k : n - 1;
}

/* T_j = round(2^32 P(X <= j)), X ~ Poisson(1), j = 0..11 (those below
 * 2^32; tests/ref/stats_ci_ref.py computes them to 60 digits), and 2^32:
 * the count of p (32 bits) is the number of T_j <= p, at most 12. */
static const uint64_t pois_t[POIS_MAX + 1] = {
	1580030169u, 3160060337u, 3950075422u, 4213413783u, 4279248374u,
	4292415292u, 4294609778u, 4294923276u, 4294962463u, 4294966817u,
	4294967253u, 4294967292u, (uint64_t)1 << 32
};

/* bucket[h]: the count of the smallest p with top byte h; at most one
 * T_j lies inside a bucket but the last (T_4..T_11). */
static void pois_buckets(uint8_t *bucket)
{
	for (unsigned h = 0, k = 0; h < 256; h++) {
		while (pois_t[k] <= (uint64_t)h << 24)
			k++;
		bucket[h] = (uint8_t)k;
	}
}

static inline unsigned pois(uint64_t p, const uint8_t *bucket)
{
	unsigned h = (unsigned)(p >> 24), k = bucket[h];

	k += p >= pois_t[k];
	if (h == 255)
		while (p >= pois_t[k])
			k++;
	return k;
}

/* Where a summary's base counts come from, and its row's numbering. */
struct rowgen {
	const int64_t *key;	/* its workloads' keys, ascending */
	size_t nc;
	uint64_t seed;
	const uint8_t *bucket;
	size_t nw;		/* counts per row (nc, or the cache's) */
	const uint32_t *pick;	/* workload j's place in a row (NULL: j) */
	const uint32_t *absent;	/* places of the cache it lacks */
	size_t nabsent;
	const uint8_t *nib;	/* cached rows to read */
	const uint32_t *gather;	/* or only these places of them */
	size_t nstride;		/* bytes per cached row */
	uint8_t *fill;		/* cache rows to write */
};

static uint64_t row_key(uint64_t seed, unsigned b)
{
	return mix64(seed + ((uint64_t)b + 1) * GAMMA);
}

#define LO_NIBBLES 0x0f0f0f0f0f0f0f0fULL

/* A cache row holds 16 counts per 8 bytes: byte k of block i has count
 * 16 i + k in its low nibble and 16 i + 8 + k in its high one, so a
 * block unpacks with two masks. nw is a multiple of 16. */
static uint64_t unpack_row(const uint8_t *r, uint8_t *w, size_t nw)
{
	uint64_t tot = 0;

	for (size_t i = 0; i < nw; i += 16) {
		uint64_t x, lo, hi;

		memcpy(&x, r + i / 2, 8);
		lo = x & LO_NIBBLES;
		hi = (x >> 4) & LO_NIBBLES;
		memcpy(w + i, &lo, 8);
		memcpy(w + i + 8, &hi, 8);
		/* the 16 counts' sum (at most 192) in the top byte */
		tot += ((lo + hi) * 0x0101010101010101ULL) >> 56;
	}
	return tot;
}

static void pack_row(const uint8_t *w, uint8_t *r, size_t nw)
{
	for (size_t i = 0; i < nw; i += 16) {
		uint64_t lo, hi;

		memcpy(&lo, w + i, 8);
		memcpy(&hi, w + i + 8, 8);
		lo |= hi << 4;
		memcpy(r + i / 2, &lo, 8);
	}
}

/* The base counts of row b into w[0..nw); returns their total (over the
 * summary's workloads). */
static uint64_t base_row(const struct rowgen *g, unsigned b, uint8_t *w)
{
	uint64_t tot = 0;

	if (g->gather) {
		const uint8_t *r = g->nib + (size_t)b * g->nstride;

		for (size_t c = 0; c < g->nc; c++) {
			uint32_t u = g->gather[c];
			unsigned v = r[(u >> 4) * 8 + (u & 7)] >> (u & 8 ? 4 : 0);

			w[c] = (uint8_t)(v & 15);
			tot += v & 15;
		}
		return tot;
	}
	if (g->nib) {
		tot = unpack_row(g->nib + (size_t)b * g->nstride, w, g->nw);
		/* the places it lacks add nothing: their sums are 0 */
		for (size_t i = 0; i < g->nabsent; i++)
			tot -= w[g->absent[i]];
		return tot;
	}
	{
		uint64_t rk = row_key(g->seed, b), q = 0, z = 0;

		for (size_t c = 0; c < g->nc; c++) {
			uint64_t k = (uint64_t)g->key[c];
			unsigned v;

			/* keys 2q and 2q + 1 share a hash: dictionary ids
			 * are dense, so most pairs of keys hash once */
			if (c == 0 || k >> 1 != q) {
				q = k >> 1;
				z = mix64(rk + q * GAMMA);
			}
			v = pois(k & 1 ? z & 0xffffffffu : z >> 32, g->bucket);
			w[c] = (uint8_t)v;
			tot += v;
		}
	}
	if (g->fill) {
		memset(w + g->nc, 0, g->nw - g->nc);
		pack_row(w, g->fill + (size_t)b * g->nstride, g->nw);
	}
	return tot;
}

/* Step 2 on counts of type T: -1 when a count would pass T's largest
 * value (a byte: then the caller counts in 32 bits). */
#define FIX_FUNC(T, S)							\
static int fix##S(T *w, const struct rowgen *g, uint64_t tot,		\
		  unsigned b)						\
{									\
	uint64_t st = row_key(g->seed, b) ^ FIX;			\
	size_t nc = g->nc;						\
									\
	while (tot < nc) {						\
		size_t j = draw(&st, nc);				\
									\
		if (g->pick)						\
			j = g->pick[j];					\
		if (w[j] == (T)-1)					\
			return -1;					\
		w[j]++;							\
		tot++;							\
	}								\
	while (tot > nc) {						\
		size_t j = draw(&st, nc);				\
									\
		if (g->pick)						\
			j = g->pick[j];					\
		if (draw(&st, POIS_MAX) < w[j]) {			\
			w[j]--;						\
			tot--;						\
		}							\
	}								\
	return 0;							\
}
FIX_FUNC(uint8_t, 8)
FIX_FUNC(uint32_t, 32)

/* Row b's counts into w (bytes); NULL when a count passed 255 (never
 * seen: it takes 243 added draws on one workload). */
static const uint8_t *get_row(const struct rowgen *g, unsigned b,
			      uint8_t *w)
{
	return fix8(w, g, base_row(g, b, w), b) ? NULL : w;
}

/* Row b's counts in 32 bits (w8: scratch of nw bytes). */
static void get_row32(const struct rowgen *g, unsigned b, uint8_t *w8,
		      uint32_t *w)
{
	uint64_t tot = base_row(g, b, w8);

	for (size_t c = 0; c < g->nw; c++)
		w[c] = w8[c];
	(void)fix32(w, g, tot, b);
}

struct stats_ci_draws *stats_ci_draws_new(void)
{
	return xcalloc(1, sizeof(struct stats_ci_draws));
}

void stats_ci_draws_free(struct stats_ci_draws *d)
{
	if (!d)
		return;
	free(d->keys);
	free(d->nib);
	free(d);
}

/* The place in the cache of each of key[0..nc) (ascending) into pick;
 * 0 when one is not there. */
static int cache_places(const struct stats_ci_draws *d, const int64_t *key,
			size_t nc, uint32_t *pick)
{
	size_t lo = 0;

	for (size_t c = 0; c < nc; c++) {
		size_t hi = d->nu;

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (d->keys[mid] < key[c])
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo == d->nu || d->keys[lo] != key[c])
			return 0;
		pick[c] = (uint32_t)lo;
	}
	return 1;
}

/* Set g up for a summary with workloads g->key[0..nc): the cache's
 * numbering when d holds every row of (seed, nb) for all of them and
 * they are at least half of it (*pick, *absent: the caller frees them);
 * its own numbering, the base counts read from those places of the
 * cache, when they are fewer (*pick, as g->gather); else its own, the
 * base counts hashed and, when it has more workloads than d holds and
 * the rows fit, written into d (the first summary of a set, usually
 * over all of them: its workloads hold the later ones'). */
static void draws_use(struct stats_ci_draws *d, struct rowgen *g,
		      unsigned nb, uint32_t **pick, uint32_t **absent)
{
	size_t nc = g->nc, nw = (nc + 15) / 16 * 16;

	*pick = NULL;
	*absent = NULL;
	g->nw = nc;
	if (!d)
		return;
	if (d->full && d->seed == g->seed && d->nb == nb && nc <= d->nu) {
		uint32_t *u;
		uint8_t *has;

		u = xmalloc(nc * sizeof(*u));
		if (!cache_places(d, g->key, nc, u)) {
			free(u);
			return;
		}
		*pick = u;
		g->nib = d->nib;
		g->nstride = d->nw / 2;
		if (2 * nc < d->nu) {
			g->gather = u;
			return;
		}
		has = xcalloc(d->nw, 1);
		for (size_t c = 0; c < nc; c++)
			has[u[c]] = 1;
		*absent = xmalloc((d->nw - nc) * sizeof(**absent) + 1);
		for (size_t i = 0; i < d->nu; i++)
			if (!has[i])
				(*absent)[g->nabsent++] = (uint32_t)i;
		free(has);
		g->pick = u;
		g->absent = *absent;
		g->nw = d->nw;
		return;
	}
	if (nw / 2 > DRAWS_MAX / nb)
		return;
	if (!d->nib || d->cap < nw / 2 * nb) {
		free(d->nib);
		d->cap = nw / 2 * nb;
		d->nib = xmalloc(d->cap);
	}
	free(d->keys);
	d->keys = xmalloc(nc * sizeof(*d->keys));
	memcpy(d->keys, g->key, nc * sizeof(*d->keys));
	d->nu = nc;
	d->nw = nw;
	d->seed = g->seed;
	d->nb = nb;
	d->full = 0;
	g->fill = d->nib;
	g->nw = nw;
	g->nstride = nw / 2;
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
 * pass8, the same operations lane by lane, so every path gives the same
 * bits): the per-workload sums are read once for ROWS rows, two rows to
 * a vector (GCC's vector extension: SSE2 on x86-64, scalar code where
 * there is none), or four with AVX2 where the processor has it (a clone
 * for x86 chosen at run time; no FMA: a fused multiply-add would round
 * differently). The integer totals are summed as doubles: exact below
 * 2^53. */
#define ROWS 4
typedef double v2d __attribute__((vector_size(16)));

static void pass8_rows(const struct wsums *x, const uint8_t *const *r,
		       size_t nc, struct rtot *t)
{
	const uint8_t *r0 = r[0], *r1 = r[1], *r2 = r[2], *r3 = r[3];
	v2d A01 = { 0, 0 }, A23 = { 0, 0 }, E01 = { 0, 0 }, E23 = { 0, 0 },
	    L01 = { 0, 0 }, L23 = { 0, 0 }, N01 = { 0, 0 }, N23 = { 0, 0 },
	    M01 = { 0, 0 }, M23 = { 0, 0 };

	for (size_t c = 0; c < nc; c++) {
		v2d d01 = { (double)r0[c], (double)r1[c] };
		v2d d23 = { (double)r2[c], (double)r3[c] };
		double cn = (double)x->cnt[c], mc = (double)x->mcnt[c];
		v2d a = { x->sabs[c], x->sabs[c] };
		v2d e = { x->serr[c], x->serr[c] };
		v2d l = { x->slog[c], x->slog[c] };
		v2d n = { cn, cn }, m = { mc, mc };

		N01 += d01 * n;
		N23 += d23 * n;
		M01 += d01 * m;
		M23 += d23 * m;
		A01 += d01 * a;
		A23 += d23 * a;
		E01 += d01 * e;
		E23 += d23 * e;
		L01 += d01 * l;
		L23 += d23 * l;
	}
	t[0] = (struct rtot){ (uint64_t)N01[0], (uint64_t)M01[0], A01[0],
			      E01[0], L01[0] };
	t[1] = (struct rtot){ (uint64_t)N01[1], (uint64_t)M01[1], A01[1],
			      E01[1], L01[1] };
	t[2] = (struct rtot){ (uint64_t)N23[0], (uint64_t)M23[0], A23[0],
			      E23[0], L23[0] };
	t[3] = (struct rtot){ (uint64_t)N23[1], (uint64_t)M23[1], A23[1],
			      E23[1], L23[1] };
}

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define HAVE_AVX2_CLONE 1
typedef double v4d __attribute__((vector_size(32)));

__attribute__((target("avx2")))
static void pass8_rows_avx2(const struct wsums *x, const uint8_t *const *r,
			    size_t nc, struct rtot *t)
{
	const uint8_t *r0 = r[0], *r1 = r[1], *r2 = r[2], *r3 = r[3];
	v4d A = { 0, 0, 0, 0 }, E = A, L = A, N = A, M = A;

	for (size_t c = 0; c < nc; c++) {
		v4d d = { (double)r0[c], (double)r1[c], (double)r2[c],
			  (double)r3[c] };

		N += d * (double)x->cnt[c];
		M += d * (double)x->mcnt[c];
		A += d * x->sabs[c];
		E += d * x->serr[c];
		L += d * x->slog[c];
	}
	for (int k = 0; k < ROWS; k++)
		t[k] = (struct rtot){ (uint64_t)N[k], (uint64_t)M[k], A[k],
				      E[k], L[k] };
}
#endif

static void pass_rows(const struct wsums *x, const uint8_t *const *r,
		      size_t nc, struct rtot *t, int avx2)
{
#ifdef HAVE_AVX2_CLONE
	if (avx2) {
		pass8_rows_avx2(x, r, nc, t);
		return;
	}
#endif
	(void)avx2;
	pass8_rows(x, r, nc, t);
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
	uint32_t *cl, *scl = NULL, *w32 = NULL, *pick, *absent;
	uint8_t *w8, bucket[256];
	int64_t *dkey;
	struct rowgen g;
	double *sval = NULL, *res;
	struct wsorted wso = { NULL, NULL, 0, 0 };
	struct wsums ws;
	size_t nc, nw;
	int avx2 = 0;

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
	dkey = xmalloc(n * sizeof(*dkey));
	nc = densify(wkey, n, cl, dkey);
	s->workloads = (long)nc;
	if (nc < 2 || (!do_err && !do_geo)) {
		free(cl);
		free(dkey);
		return;
	}
	pois_buckets(bucket);
	g = (struct rowgen){ dkey, nc, seed, bucket, nc, NULL, NULL, 0,
			     NULL, NULL, 0, NULL };
	draws_use(draws, &g, nb, &pick, &absent);
	nw = g.nw;
	if (g.pick)	/* the cache's numbering */
		for (size_t i = 0; i < n; i++)
			cl[i] = pick[cl[i]];
	ws.cnt = xcalloc(nw, sizeof(*ws.cnt));
	ws.mcnt = xcalloc(nw, sizeof(*ws.mcnt));
	ws.sabs = xcalloc(nw, sizeof(*ws.sabs));
	ws.serr = xcalloc(nw, sizeof(*ws.serr));
	ws.slog = xcalloc(nw, sizeof(*ws.slog));
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
		size_t down = 1;

		for (size_t i = 0; i < n; i++) {
			a[i] = (struct radix_kv){
				radix_key(fabs(stats_err(model[i], ref[i]))),
				cl[i] };
			down += i && a[i].k <= a[i - 1].k;
		}
		sval = xmalloc(n * sizeof(*sval));
		scl = xmalloc(n * sizeof(*scl));
		if (down == n) {
			/* already descending (a correlation set's points are
			 * sorted by |error|): reversed, no sort (ties may
			 * come in another order: the same values) */
			for (size_t i = 0; i < n; i++) {
				sval[i] = radix_unkey(a[n - 1 - i].k);
				scl[i] = (uint32_t)a[n - 1 - i].v;
			}
		} else {
			struct radix_kv *tmp = xmalloc(n * sizeof(*tmp));

			radix_sort_kv(a, tmp, n);
			free(tmp);
			for (size_t i = 0; i < n; i++) {
				sval[i] = radix_unkey(a[i].k);
				scl[i] = (uint32_t)a[i].v;
			}
		}
		free(a);
		wso = (struct wsorted){ sval, scl, n, n / 2 };
		for (size_t i = 0; i < wso.mid; i++)
			ws.mcnt[scl[i]]++;
	}
	w8 = xmalloc(ROWS * nw);
#ifdef HAVE_AVX2_CLONE
	avx2 = __builtin_cpu_supports("avx2");
#endif
	res = xmalloc(4 * (size_t)nb * sizeof(*res));
	for (unsigned b0 = 0; b0 < nb; b0 += ROWS) {
		unsigned k = nb - b0 < ROWS ? nb - b0 : ROWS;
		const uint8_t *row[ROWS];
		struct rtot t[ROWS];
		int all = k == ROWS;

		for (unsigned j = 0; j < k; j++) {
			row[j] = get_row(&g, b0 + j, w8 + j * nw);
			all &= row[j] != NULL;
		}
		if (all)
			pass_rows(&ws, row, nw, t, avx2);
		for (unsigned j = 0; j < k; j++) {
			unsigned b = b0 + j;
			double med = NAN;

			if (row[j]) {
				if (!all)
					t[j] = pass8(&ws, row[j], nw, do_med);
				if (do_med)
					med = wmedian8(&wso, row[j], t[j].M,
						       t[j].N);
			} else {
				if (!w32)
					w32 = xmalloc(nw * sizeof(*w32));
				get_row32(&g, b, w8 + j * nw, w32);
				t[j] = pass32(&ws, w32, nw, do_med);
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
	if (g.fill)
		draws->full = 1;
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
	free(dkey);
	free(pick);
	free(absent);
	free(sval);
	free(scl);
}
