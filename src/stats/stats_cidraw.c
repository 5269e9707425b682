/* The bootstrap's draws: base counts, fix-up, the cache of base counts
 * (src/stats_ci_int.h; docs/statistics.md, "The draws"). */
#include "src/stats/stats_ci_int.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

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
void stats_ci_buckets(uint8_t *bucket)
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

/* The filler's fix-up of a row, recorded (FIX_DEL: a removal). */
static void fix_log(struct stats_ci_draws *d, uint32_t op)
{
	if (d->nfop == d->fopcap) {
		d->fopcap = d->fopcap ? 2 * d->fopcap : 4096;
		d->fop = xrealloc(d->fop, d->fopcap * sizeof(*d->fop));
	}
	d->fop[d->nfop++] = op;
}

/* Step 2 on counts of type T: -1 when a count would pass T's largest
 * value (a byte: then the caller counts in 32 bits). Each change goes
 * to rec when not NULL. */
#define FIX_FUNC(T, S)							\
static int fix##S(T *w, const struct rowgen *g, uint64_t tot,		\
		  unsigned b, struct stats_ci_draws *rec)		\
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
		if (rec)						\
			fix_log(rec, (uint32_t)j);			\
	}								\
	while (tot > nc) {						\
		size_t j = draw(&st, nc);				\
									\
		if (g->pick)						\
			j = g->pick[j];					\
		if (draw(&st, POIS_MAX) < w[j]) {			\
			w[j]--;						\
			tot--;						\
			if (rec)					\
				fix_log(rec, (uint32_t)j | FIX_DEL);	\
		}							\
	}								\
	return 0;							\
}
FIX_FUNC(uint8_t, 8)
FIX_FUNC(uint32_t, 32)

/* Row b's counts into w (bytes); NULL when a count passed 255 (never
 * seen: it takes 243 added draws on one workload). Over exactly the
 * cached workloads (g->replay) the filler's fix-up is replayed: the
 * same draws would make the same changes. */
const uint8_t *stats_ci_get_row(const struct rowgen *g, unsigned b,
				uint8_t *w)
{
	uint64_t tot = base_row(g, b, w);
	const struct stats_ci_draws *d = g->replay;
	struct stats_ci_draws *rec = g->rec;
	int rc;

	if (d && d->flen[b] != FIX_NONE) {
		const uint32_t *op = d->fop + d->fstart[b];

		for (uint32_t k = 0; k < d->flen[b]; k++) {
			if (op[k] & FIX_DEL)
				w[op[k] & ~FIX_DEL]--;
			else
				w[op[k]]++;
		}
		return w;
	}
	if (rec)
		rec->fstart[b] = rec->nfop;
	rc = fix8(w, g, tot, b, rec);
	if (rec)
		rec->flen[b] = rc ? FIX_NONE :
			       (uint32_t)(rec->nfop - rec->fstart[b]);
	if (rc && rec)
		rec->nfop = rec->fstart[b];
	return rc ? NULL : w;
}

/* Row b's counts in 32 bits (w8: scratch of nw bytes). */
void stats_ci_get_row32(const struct rowgen *g, unsigned b, uint8_t *w8,
			uint32_t *w)
{
	uint64_t tot = base_row(g, b, w8);

	for (size_t c = 0; c < g->nw; c++)
		w[c] = w8[c];
	(void)fix32(w, g, tot, b, NULL);
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
	free(d->fop);
	free(d->fstart);
	free(d->flen);
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
 * base counts hashed and, when may_fill and the rows fit, written into
 * d (the first summary of a set, usually over all of them: its
 * workloads hold the later ones'; a summary d cannot serve replaces
 * what d holds, so a caller that keeps summaries reading d passes
 * may_fill 0). */
void stats_ci_draws_use(struct stats_ci_draws *d, struct rowgen *g,
			unsigned nb, uint32_t **pick, uint32_t **absent,
			int may_fill)
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
		if (nc == d->nu && d->fixed)
			g->replay = d;
		return;
	}
	if (!may_fill || nw / 2 > DRAWS_MAX / nb)
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
	d->fixed = 0;
	d->nfop = 0;
	free(d->fstart);
	free(d->flen);
	d->fstart = xmalloc(nb * sizeof(*d->fstart));
	d->flen = xmalloc(nb * sizeof(*d->flen));
	for (unsigned b = 0; b < nb; b++)
		d->flen[b] = FIX_NONE;
	g->rec = d;
	g->fill = d->nib;
	g->nw = nw;
	g->nstride = nw / 2;
}

