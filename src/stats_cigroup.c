/* Many summaries resampled together (stats_ci.h, stats_ci_batch). */
#include "src/stats_ci_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/util.h"

/*
 * Resampled alone, each summary of --group-by op reads its workloads'
 * base counts from every row of the draws' cache: 50 groups stream the
 * whole cache (62 MB at 125k workloads) 50 times, at random places.
 * Here the summaries that gather from the cache (fewer than half of its
 * workloads; the larger ones unpack its rows, which costs less alone:
 * tests/bench/notes.md, "Intervals") are queued, and
 * each resample's cached row is read once for all of them, in place
 * order: for four resamples at a time,
 *   1. every occurrence of a workload in a queued summary (its place in
 *      the cache, its summary, its sums) gets its base count, and each
 *      summary its total (integers);
 *   2. each summary's fix-up (stats_ci_fix8, the same stream and draws
 *      as alone), on the counts of its own occurrences;
 *   3. one walk of the occurrences adds count x sums into the summary's
 *      accumulators, four resamples to a vector: each summary's sums in
 *      the order of its workloads' places, as its own pass does (a
 *      summary resampled alone in the cache's numbering adds 0 at the
 *      places it lacks; that changes no sum), so the same bits;
 *   4. each summary's median, walking its sorted values over the
 *      counts of its occurrences.
 * A count that would pass 255 (never seen) sends that summary's
 * resample to the 32-bit path of stats_ci_resample.
 */

/* Queue at most this many workload occurrences (44 bytes each) and
 * resampled values (4 x resamples per summary, 8 bytes each). */
#define BATCH_OCC ((size_t)2 << 20)
#define BATCH_RES ((size_t)8 << 20)
/* Accumulators per summary: N, M, A, E, L, a lane per resample. */
#define ACC (5 * STATS_CI_ROWS)

struct stats_ci_batch {
	const struct stats_paired_opts *opts;
	struct stats_ci_draws *draws;
	struct ci_sum **cs;
	size_t n, cap;
	size_t occ, res;	/* what the queued summaries hold */
};

/* The workload occurrences of the queued summaries in the order of
 * their places in the cache (at one place, in the order queued):
 * occurrence k is place[k] of summary sum[k], with its sums. */
struct occ {
	size_t n;
	uint32_t *place, *sum, *cnt, *mcnt;
	double *sabs, *serr, *slog;
};

typedef double v2d __attribute__((vector_size(16)));

static inline void add2(double *p, v2d x)
{
	v2d y;

	memcpy(&y, p, sizeof(y));
	y += x;
	memcpy(p, &y, sizeof(y));
}

/* Step 3, two resamples to a vector (no FMA, as stats_ci.c's pass). */
static void accumulate(const struct occ *o, uint8_t *const *w, double *acc)
{
	const uint8_t *w0 = w[0], *w1 = w[1], *w2 = w[2], *w3 = w[3];

	for (size_t k = 0; k < o->n; k++) {
		double *a = acc + (size_t)o->sum[k] * ACC;
		v2d d01 = { (double)w0[k], (double)w1[k] };
		v2d d23 = { (double)w2[k], (double)w3[k] };
		double cn = (double)o->cnt[k], mc = (double)o->mcnt[k];
		v2d n = { cn, cn }, m = { mc, mc };
		v2d s = { o->sabs[k], o->sabs[k] };
		v2d e = { o->serr[k], o->serr[k] };
		v2d l = { o->slog[k], o->slog[k] };

		add2(a, d01 * n);
		add2(a + 2, d23 * n);
		add2(a + 4, d01 * m);
		add2(a + 6, d23 * m);
		add2(a + 8, d01 * s);
		add2(a + 10, d23 * s);
		add2(a + 12, d01 * e);
		add2(a + 14, d23 * e);
		add2(a + 16, d01 * l);
		add2(a + 18, d23 * l);
	}
}

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define HAVE_AVX2_CLONE 1
typedef double v4d __attribute__((vector_size(32)));

__attribute__((target("avx2")))
static inline void add4(double *p, v4d x)
{
	v4d y;

	memcpy(&y, p, sizeof(y));
	y += x;
	memcpy(p, &y, sizeof(y));
}

__attribute__((target("avx2")))
static void accumulate_avx2(const struct occ *o, uint8_t *const *w,
			    double *acc)
{
	const uint8_t *w0 = w[0], *w1 = w[1], *w2 = w[2], *w3 = w[3];

	for (size_t k = 0; k < o->n; k++) {
		double *a = acc + (size_t)o->sum[k] * ACC;
		v4d d = { (double)w0[k], (double)w1[k], (double)w2[k],
			  (double)w3[k] };

		add4(a, d * (double)o->cnt[k]);
		add4(a + 4, d * (double)o->mcnt[k]);
		add4(a + 8, d * o->sabs[k]);
		add4(a + 12, d * o->serr[k]);
		add4(a + 16, d * o->slog[k]);
	}
}
#endif

/* The occurrences of cs[0..ns) (whose places are in [0, nu)) into o;
 * oidx[i][j]: the occurrence of workload j of summary i. The medians'
 * sorted workloads become occurrences too. */
static void occ_build(struct occ *o, struct ci_sum **cs, size_t ns,
		      size_t nu, size_t nocc, uint32_t **oidx)
{
	uint32_t *start = xcalloc(nu + 1, sizeof(*start));

	for (size_t i = 0; i < ns; i++)
		for (size_t j = 0; j < cs[i]->nc; j++)
			start[cs[i]->pick[j] + 1]++;
	for (size_t p = 0; p < nu; p++)
		start[p + 1] += start[p];
	o->n = nocc;
	o->place = xmalloc((nocc + 1) * sizeof(*o->place));
	o->sum = xmalloc((nocc + 1) * sizeof(*o->sum));
	o->cnt = xmalloc((nocc + 1) * sizeof(*o->cnt));
	o->mcnt = xmalloc((nocc + 1) * sizeof(*o->mcnt));
	o->sabs = xmalloc((nocc + 1) * sizeof(*o->sabs));
	o->serr = xmalloc((nocc + 1) * sizeof(*o->serr));
	o->slog = xmalloc((nocc + 1) * sizeof(*o->slog));
	for (size_t i = 0; i < ns; i++) {
		struct ci_sum *c = cs[i];
		/* its sums and sorted workloads are in its row's numbering:
		 * its own (j) when it gathers, else the cache's places */
		int own = c->g.gather != NULL;
		uint32_t *at = own ? NULL : xmalloc(c->nw * sizeof(*at));

		oidx[i] = xmalloc(c->nc * sizeof(**oidx));
		for (size_t j = 0; j < c->nc; j++) {
			uint32_t p = c->pick[j], k = start[p]++;
			size_t r = own ? j : p;

			o->place[k] = p;
			o->sum[k] = (uint32_t)i;
			o->cnt[k] = c->ws.cnt[r];
			o->mcnt[k] = c->ws.mcnt[r];
			o->sabs[k] = c->ws.sabs[r];
			o->serr[k] = c->ws.serr[r];
			o->slog[k] = c->ws.slog[r];
			oidx[i][j] = k;
			if (at)
				at[p] = k;
		}
		for (size_t t = 0; c->scl && t < c->wso.n; t++)
			c->scl[t] = own ? oidx[i][c->scl[t]] : at[c->scl[t]];
		free(at);
	}
	free(start);
}

static void occ_free(struct occ *o)
{
	free(o->place);
	free(o->sum);
	free(o->cnt);
	free(o->mcnt);
	free(o->sabs);
	free(o->serr);
	free(o->slog);
}

/* Resample b of c alone in 32 bits (a count passed 255), its median
 * over the counts moved to its occurrences (oidx). */
static void alone32(struct ci_sum *c, const uint32_t *oidx, size_t nocc,
		    unsigned b)
{
	uint8_t *w8 = xmalloc(c->nw + 1);
	uint32_t *w32 = xmalloc((c->nw + 1) * sizeof(*w32));
	uint32_t *wo = xcalloc(nocc + 1, sizeof(*wo));
	struct rtot t;
	double med = NAN;

	stats_ci_get_row32(&c->g, b, w8, w32);
	t = stats_ci_pass32(&c->ws, w32, c->nw, c->do_med);
	if (c->do_med) {
		for (size_t j = 0; j < c->nc; j++)
			wo[oidx[j]] = w32[c->g.gather ? j : c->pick[j]];
		med = stats_ci_wmedian32(&c->wso, wo, t.M, t.N);
	}
	stats_ci_store(c, b, &t, med);
	free(w8);
	free(w32);
	free(wo);
}

/* Every resample of the queued summaries, which read the cache d. */
static void pass_all(struct ci_sum **cs, size_t ns, size_t nocc,
		     const struct stats_ci_draws *d)
{
	unsigned nb = cs[0]->nb;
	size_t nstride = d->nw / 2;
	uint32_t **oidx = xmalloc(ns * sizeof(*oidx));
	struct rowgen *fg = xmalloc(ns * sizeof(*fg));
	uint64_t *tot = xmalloc(ns * STATS_CI_ROWS * sizeof(*tot));
	double *acc = xmalloc(ns * ACC * sizeof(*acc));
	uint8_t *bad = xmalloc(ns), *w[STATS_CI_ROWS];
	struct occ o;
	int avx2 = stats_ci_avx2();

	occ_build(&o, cs, ns, d->nu, nocc, oidx);
	for (size_t i = 0; i < ns; i++)	/* step 2 reads seed, nc, pick */
		fg[i] = (struct rowgen){ NULL, cs[i]->nc, cs[i]->g.seed, NULL,
					 0, oidx[i], NULL, 0, NULL, NULL, 0,
					 NULL };
	for (int r = 0; r < STATS_CI_ROWS; r++)
		w[r] = xcalloc(nocc + 1, 1);
	for (unsigned b0 = 0; b0 < nb; b0 += STATS_CI_ROWS) {
		unsigned kr = nb - b0 < STATS_CI_ROWS ? nb - b0 :
			      STATS_CI_ROWS;

		memset(tot, 0, ns * STATS_CI_ROWS * sizeof(*tot));
		for (unsigned r = 0; r < kr; r++) {
			const uint8_t *row = d->nib + (size_t)(b0 + r) * nstride;
			uint8_t *wr = w[r];

			for (size_t k = 0; k < nocc; k++) {
				unsigned v = stats_ci_nibble(row, o.place[k]);

				wr[k] = (uint8_t)v;
				tot[(size_t)o.sum[k] * STATS_CI_ROWS + r] += v;
			}
		}
		for (unsigned r = kr; r < STATS_CI_ROWS; r++)
			memset(w[r], 0, nocc);
		memset(bad, 0, ns);
		for (size_t i = 0; i < ns; i++)
			for (unsigned r = 0; r < kr; r++)
				if (stats_ci_fix8(w[r], &fg[i],
						  tot[i * STATS_CI_ROWS + r],
						  b0 + r))
					bad[i] |= (uint8_t)(1u << r);
		memset(acc, 0, ns * ACC * sizeof(*acc));
#ifdef HAVE_AVX2_CLONE
		if (avx2)
			accumulate_avx2(&o, w, acc);
		else
#endif
			accumulate(&o, w, acc);
		for (size_t i = 0; i < ns; i++) {
			const double *a = acc + i * ACC;

			for (unsigned r = 0; r < kr; r++) {
				struct rtot t = { (uint64_t)a[r],
						  (uint64_t)a[4 + r], a[8 + r],
						  a[12 + r], a[16 + r] };
				double med = NAN;

				if (bad[i] >> r & 1) {
					alone32(cs[i], oidx[i], nocc, b0 + r);
					continue;
				}
				if (cs[i]->do_med)
					med = stats_ci_wmedian8(&cs[i]->wso, w[r],
								t.M, t.N);
				stats_ci_store(cs[i], b0 + r, &t, med);
			}
		}
	}
	(void)avx2;
	for (int r = 0; r < STATS_CI_ROWS; r++)
		free(w[r]);
	for (size_t i = 0; i < ns; i++)
		free(oidx[i]);
	free(oidx);
	free(fg);
	free(tot);
	free(acc);
	free(bad);
	occ_free(&o);
}

struct stats_ci_batch *stats_ci_batch_new(const struct stats_paired_opts *opts,
					  struct stats_ci_draws *draws)
{
	struct stats_ci_batch *b = xcalloc(1, sizeof(*b));

	b->opts = opts;
	b->draws = draws;
	return b;
}

/* Resample the queued summaries, fill their intervals, empty the queue. */
static void flush(struct stats_ci_batch *b)
{
	if (b->n)
		pass_all(b->cs, b->n, b->occ, b->draws);
	for (size_t i = 0; i < b->n; i++) {
		stats_ci_finish(b->cs[i]);
		free(b->cs[i]);
	}
	b->n = b->occ = b->res = 0;
}

void stats_ci_batch_add(struct stats_ci_batch *b, struct stats_summary *s,
			const double *model, const double *ref,
			const int64_t *wkey, size_t n)
{
	struct ci_sum *cs = xmalloc(sizeof(*cs));
	size_t res;

	/* a summary that would fill the cache (replacing the rows that
	 * the queued ones read) does so only when none is queued */
	if (!stats_ci_prepare(cs, s, model, ref, wkey, n, b->opts, b->draws,
			      b->n == 0)) {
		free(cs);
		return;
	}
	/* it hashes its own, fills the cache, or reads it in the cache's
	 * numbering (at least half of its workloads: the unpacked row and
	 * its sums stay in cache; measured faster alone, notes.md) */
	if (!cs->g.nib || !cs->g.gather) {
		stats_ci_resample(cs);
		stats_ci_finish(cs);
		free(cs);
		return;
	}
	res = 4 * (size_t)cs->nb;
	if (b->n && (b->occ + cs->nc > BATCH_OCC ||
		     b->res + res > BATCH_RES))
		flush(b);
	if (b->n == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 16;
		b->cs = xrealloc(b->cs, b->cap * sizeof(*b->cs));
	}
	b->cs[b->n++] = cs;
	b->occ += cs->nc;
	b->res += res;
}

void stats_ci_batch_run(struct stats_ci_batch *b)
{
	if (!b)
		return;
	flush(b);
	free(b->cs);
	free(b);
}

void stats_ci_batch_free(struct stats_ci_batch *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->n; i++) {
		struct ci_sum *cs = b->cs[i];

		/* no interval from resamples never drawn */
		cs->do_mape = cs->do_err = cs->do_geo = cs->do_med = 0;
		stats_ci_finish(cs);
		free(cs);
	}
	free(b->cs);
	free(b);
}
