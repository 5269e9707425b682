#ifndef PC_SRC_STATS_CI_INT_H
#define PC_SRC_STATS_CI_INT_H
/*
 * Private to src/stats_ci*.c: the draws (stats_cidraw.c: base counts,
 * fix-up, the cache of base counts), one summary's resampling state
 * (stats_ci.c) and the pass that resamples many summaries at once
 * (stats_cigroup.c). docs/statistics.md, "The draws".
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "base/radix.h"
#include "src/stats/stats.h"
#include "src/stats/stats_ci.h"

/* The base counts of the first summary of a set, as nibbles: nb rows of
 * nw / 2 bytes, a row's counts in the order of keys[]. */
struct stats_ci_draws {
	uint64_t seed;
	unsigned nb;
	int64_t *keys;		/* the cached workloads, ascending */
	size_t nu, nw;		/* how many; nu rounded up to 16 */
	uint8_t *nib;		/* nb rows of nw / 2 bytes, or NULL */
	size_t cap;		/* bytes at nib */
	int full;		/* every row of (seed, nb, keys) is at nib */
	/* The fix-up (step 2) of each row as the filling summary made it
	 * (issue 21): row b's changes are fop[fstart[b]..+flen[b]), a
	 * place with FIX_DEL set for a removal, flen[b] FIX_NONE when the
	 * row was not fixed in bytes. A later summary over exactly the
	 * cached workloads draws the same fix-up (same seed, nc and
	 * places), so it replays them instead. */
	uint32_t *fop;
	size_t nfop, fopcap;
	size_t *fstart;
	uint32_t *flen;
	int fixed;		/* fstart / flen hold every row */
};

#define FIX_DEL 0x80000000u
#define FIX_NONE UINT32_MAX

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
	struct stats_ci_draws *rec;	/* the filler: its fix-ups here */
	const struct stats_ci_draws *replay;	/* or replay these */
};

/* A cached row holds 16 counts per 8 bytes: byte k of block i has
 * count 16 i + k in its low nibble, 16 i + 8 + k in its high one. */

/* The Poisson inversion's first step: bucket[256] (stats_cidraw.c). */
void stats_ci_buckets(uint8_t *bucket);
/* Row b's counts into w (bytes); NULL when a count passed 255 (never
 * seen: it takes 243 added draws on one workload). */
const uint8_t *stats_ci_get_row(const struct rowgen *g, unsigned b,
				uint8_t *w);
/* Row b's counts in 32 bits (w8: scratch of g->nw bytes). */
void stats_ci_get_row32(const struct rowgen *g, unsigned b, uint8_t *w8,
			uint32_t *w);
/* Step 2 of the draws on w (bytes) whose base counts total tot: the
 * fix-up of row b to exactly g->nc draws, workload j at w[g->pick[j]]
 * (w[j] when pick is NULL); only g->seed, nc and pick are read. -1 when
 * a count would pass 255 (w is then partly fixed). */
int stats_ci_fix8(uint8_t *w, const struct rowgen *g, uint64_t tot,
		  unsigned b);
/* Set g up for a summary with workloads g->key[0..nc) (stats_cidraw.c):
 * read the cache d when it holds them (*pick: their places; *absent:
 * the places they lack, when g works in the cache's numbering), else
 * hash, and fill d when may_fill and the summary is larger than what d
 * holds. The caller frees *pick and *absent. */
void stats_ci_draws_use(struct stats_ci_draws *d, struct rowgen *g,
			unsigned nb, uint32_t **pick, uint32_t **absent,
			int may_fill);

/* The sorted values val[] of workloads cl[] (n of them); a resample's
 * median walks from the middle, mid = n / 2, whose weighted rank the
 * pass computes from each workload's count of values below mid. val
 * NULL: the values are the |errors| of m[], r[] reversed (the pairs came
 * sorted by |error|, descending: issue 21, no copy of them), read at
 * the two places a median needs. */
struct wsorted {
	const double *val;
	const uint32_t *cl;
	size_t n, mid;
	const double *m, *r;
};

/* Sorted value i of ws (radix_key's +0.0 for -0, as a copy through
 * the sort's keys would hold it). */
static inline double stats_ci_sval(const struct wsorted *ws, size_t i)
{
	size_t j;

	if (ws->val)
		return ws->val[i];
	j = ws->n - 1 - i;
	return radix_unkey(radix_key(fabs(stats_err(ws->m[j], ws->r[j]))));
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
 * 255): stats_ci_pass##S, the totals of one resample, in one pass in
 * workload order; stats_ci_wmedian##S, its median: the sorted values,
 * each of workload c counted w[c] times, W in all (numpy's median: the
 * mean of the two middle ranks), walking from the middle: acc = t.M,
 * the weighted rank of mid (sum_c w[c] times the values of c below
 * mid), then to rank (W - 1) / 2. A resample's median lies near the
 * sample's, so the walk is short; the element found is the same as a
 * walk from 0 (the unique i with rank(i) <= r1 < rank(i + 1)).
 */
#define STATS_CI_ROW_FUNCS(T, S)					\
static inline struct rtot stats_ci_pass##S(const struct wsums *x,	\
					   const T *w, size_t nc,	\
					   int med)			\
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
static inline double stats_ci_wmedian##S(const struct wsorted *ws,	\
					 const T *w, uint64_t acc,	\
					 uint64_t W)			\
{									\
	const uint32_t *cl = ws->cl;					\
	uint64_t r1 = (W - 1) / 2, r2 = W / 2;				\
	size_t i = ws->mid;						\
	double v1;							\
									\
	while (acc > r1)						\
		acc -= w[cl[--i]];					\
	while (acc + w[cl[i]] <= r1)					\
		acc += w[cl[i++]];					\
	v1 = stats_ci_sval(ws, i);					\
	while (acc + w[cl[i]] <= r2)					\
		acc += w[cl[i++]];					\
	return (v1 + stats_ci_sval(ws, i)) / 2;				\
}
STATS_CI_ROW_FUNCS(uint8_t, 8)
STATS_CI_ROW_FUNCS(uint32_t, 32)

/* Resamples per pass (four to an AVX2 vector, two to an SSE2 one). */
#define STATS_CI_ROWS 4

/* The moments bootstrap (stats_cimom.c): groups of five per-workload
 * sums (u, v, uu, vv, uv) of centred, scaled (ref, model) series. */
enum { MOM_VAL, MOM_LOG, MOM_RANK, MOM_WFIT, MOM_NGRP };
/* Its statistics per resample. */
enum { MS_PEARSON, MS_PEARSON_LOG, MS_SPEARMAN, MS_CCC, MS_CCC_LOG,
       MS_LOA_LO, MS_LOA_HI, MS_SLOPE, MS_ICPT, MS_DEM_A, MS_DEM_B, MS_PROP,
       MOM_NSTAT };
/* the count, 4 groups of 5, the weights' sum */
#define MOM_MAXK (1 + 5 * MOM_NGRP + 1)

struct ci_mgrp {
	size_t off;		/* first of its five sums */
	double mx, my, sx, sy;	/* centre and scale of ref (x), model (y) */
};

struct ci_mom {
	int on, has[MOM_NGRP];
	struct ci_mgrp g[MOM_NGRP];
	size_t K, nw, wtot;	/* sums per workload; workloads; weights */
	double *sum;		/* nw x K: the count, then the groups */
	double lam;		/* Deming's lambda, scaled (0: none) */
	unsigned nb;
	double *res;		/* MOM_NSTAT x nb */
};

/* Whether s has a statistic the moments bootstrap resamples. */
int stats_cimom_wanted(const struct stats_summary *s);
/* Set m up for summary s (1), or 0 when none of its statistics is
 * defined; cl: each pair's workload in the row's numbering (nw). */
int stats_cimom_prepare(struct ci_mom *m, const struct stats_summary *s,
			const double *model, const double *ref,
			const double *ref_se, const uint32_t *cl, size_t n,
			size_t nw, unsigned nb);
/* The statistics of rows[0..k) (resamples b0..b0 + k), bytes. */
void stats_cimom_rows(struct ci_mom *m, const uint8_t *const *rows,
		      unsigned k, unsigned b0);
void stats_cimom_row32(struct ci_mom *m, const uint32_t *w, unsigned b);
/* The intervals, Deming's and the proportional bias's p into s over nc
 * workloads; frees what m holds. */
void stats_cimom_finish(struct ci_mom *m, struct stats_summary *s,
			double level, size_t nc);

/* One summary between stats_ci_prepare and stats_ci_finish. It holds
 * g.bucket: it does not move. */
struct ci_sum {
	struct stats_summary *s;
	unsigned nb;
	double level;
	int do_err, do_mape, do_med, do_geo;
	size_t nc, nw;		/* workloads; counts per row */
	int64_t *dkey;		/* the workloads' keys, ascending */
	uint32_t *pick, *absent;	/* from stats_ci_draws_use */
	uint8_t bucket[256];
	struct rowgen g;
	struct stats_ci_draws *draws;
	struct wsums ws;	/* indexed in the row's numbering */
	struct wsorted wso;
	double *sval;
	uint32_t *scl;
	double *res;		/* 4 x nb: MAPE, bias, geomean, median */
	struct ci_mom mom;	/* the correlations and agreement */
	int clustered;		/* a workload holds more than one pair */
};

/* Everything stats_ci_compute_shared does to s but the four bootstrap
 * intervals; 1 when those are due (cs is then set up: stats_ci_resample
 * or a pass over many, then stats_ci_finish), 0 when there is none to
 * compute (cs holds nothing). may_fill: as stats_ci_draws_use. model
 * and ref stay alive until stats_ci_finish (a median may read them). */
int stats_ci_prepare(struct ci_sum *cs, struct stats_summary *s,
		     const double *model, const double *ref,
		     const double *ref_se, const int64_t *wkey, size_t n,
		     const struct stats_paired_opts *opts,
		     struct stats_ci_draws *draws, int may_fill);
/* The statistics of each resample of cs into cs->res, alone. */
void stats_ci_resample(struct ci_sum *cs);
/* The intervals from cs->res into cs->s; frees what cs holds. */
void stats_ci_finish(struct ci_sum *cs);
/* Whether the processor runs the AVX2 clones. */
int stats_ci_avx2(void);

/* Resample b's statistics from its totals and median into cs->res. */
static inline void stats_ci_store(struct ci_sum *cs, unsigned b,
				  const struct rtot *t, double med)
{
	size_t nb = cs->nb;

	cs->res[b] = t->A / (double)t->N;
	cs->res[nb + b] = t->E / (double)t->N;
	cs->res[2 * nb + b] = exp(t->L / (double)t->N);
	cs->res[3 * nb + b] = med;
}

#endif
