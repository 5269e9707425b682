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

/*
 * The clustered variances (stats_cimom.c, stats_cijack.c; issue 34):
 * every interval but the bootstrap's four rests on delete-one jackknife
 * variances over workloads (V_w) and, two-way, over ops (V_o), from
 * per-cluster sums: a leave-one-out statistic is the statistic of the
 * totals less one cluster's sums, O(clusters). Two-way, the pairs'
 * residual term V_e (each pair's influence less its workload's and op's
 * means, linearised) is taken off once: V = V_w + V_o - V_e, at least
 * max(V_w, V_o) (Cameron, Gelbach and Miller 2011 with the intersection
 * term of the residuals). docs/statistics.md, "What each interval
 * resamples".
 */
/* The clusters of a summary's pairs: the workload of pair i, cl[i] <
 * nw (the row's numbering, some possibly empty), and its op, ocl[i] <
 * no, when the intervals are two-way (ocl NULL: workloads only). */
struct ci_clus {
	const uint32_t *cl, *ocl;
	size_t n, nw, no, nc;	/* pairs; rows; ops; workloads present */
};

/* A variance's parts: the jackknife's over workloads and ops, the
 * pairs' residual term, the effective numbers of workloads and ops. */
struct ci_var {
	double vw, vo, ve, gw, go;
	size_t nw, no;		/* workloads and ops the jackknives had */
};

/* The variance of v (one-way: vw; two-way: vw + vo - ve, at least the
 * larger of vw, vo) and its degrees of freedom (gw - 1; two-way the
 * Satterthwaite df of vw + vo, at most nw + no - 2), at least 1. */
void stats_ci_var(const struct ci_var *v, int two_way, double *var,
		  double *df);
/* Kish's effective number of clusters of weights with sum a and sum of
 * squares b: a^2 / b (NaN when b is 0). */
static inline double stats_ci_kish(double a, double b)
{
	return b > 0 ? a * a / b : NAN;
}

/* The error statistics' variances (stats_cijack.c): MAPE (on the log
 * scale), bias and the mean log ratio from per-cluster sums x of nw
 * workloads and, two-way, o of no ops (o NULL: one-way); r2[3]: the
 * pairs' residual sums of squares of |e|, e, ln(m / r). v[0..3). */
void stats_ci_errvar(const struct wsums *x, size_t nw, const struct wsums *o,
		     size_t no, const double *r2, struct ci_var *v);

/* The moments (stats_cimom.c): groups of five per-cluster sums (u, v,
 * uu, vv, uv) of centred, scaled (ref, model) series. */
enum { MOM_VAL, MOM_LOG, MOM_RANK, MOM_WFIT, MOM_NGRP };
/* Its statistics of a set of totals (MS_LMEAN, MS_LSD: the mean and the
 * log of the sd of the log ratios, the limits' parts). */
enum { MS_PEARSON, MS_PEARSON_LOG, MS_SPEARMAN, MS_CCC, MS_CCC_LOG,
       MS_LOA_LO, MS_LOA_HI, MS_SLOPE, MS_ICPT, MS_DEM_A, MS_DEM_B, MS_PROP,
       MS_LMEAN, MS_LSD, MOM_NSTAT };
/* the count, 4 groups of 5, the weights' sum */
#define MOM_MAXK (1 + 5 * MOM_NGRP + 1)
/* the six sums of a group's residual term: its count (or weights), then
 * its five */
#define MOM_RES 6

struct ci_mgrp {
	size_t off;		/* first of its five sums */
	double mx, my, sx, sy;	/* centre and scale of ref (x), model (y) */
};

struct ci_mom {
	int has[MOM_NGRP];
	struct ci_mgrp g[MOM_NGRP];
	size_t K, wtot;		/* sums per cluster; the weights' sum */
	double *sum;		/* nw x K: the count, then the groups */
	double *osum;		/* no x K, per op (two-way; else NULL) */
	/* two-way: the residual cross products of each group's six sums */
	double res[MOM_NGRP][MOM_RES][MOM_RES];
	double lam;		/* Deming's lambda, scaled (0: none) */
	/* Spearman re-ranked: per workload (nw x 5) and op (no x 5), what
	 * else the rank group's totals lose with the cluster
	 * (stats_cirank_loo); NULL: no Spearman */
	double *rk, *ork;
};

/* Spearman's leave-one-out corrections (stats_cirank.c): for the n
 * pairs (x = ref, y = model) in clusters cl[i] < ng, out[5 g .. 5 g + 5)
 * = what to take off the rank group G's totals besides cluster g's own
 * sums so that they are the sums (u, v, uu, vv, uv) of the other pairs
 * ranked among themselves (average ranks), in G's centred, scaled
 * units; the same for the no clusters ocl into oout when ocl (two-way).
 * O(n) sorts, then about min(5 k^2, 3 n) per cluster of k pairs. */
void stats_cirank_loo(const double *x, const double *y, size_t n,
		      const struct ci_mgrp *G, const uint32_t *cl, size_t ng,
		      double *out, const uint32_t *ocl, size_t no,
		      double *oout);

/* Whether s has a statistic the moments resample. */
int stats_cimom_wanted(const struct stats_summary *s);
/* The sums of summary s's series over clusters c into m (1), or 0 when
 * none of its statistics is defined (m then holds nothing). */
int stats_cimom_prepare(struct ci_mom *m, const struct stats_summary *s,
			const double *model, const double *ref,
			const double *ref_se, const struct ci_clus *c);
/* The statistics of totals t into out[MOM_NSTAT] (NaN: undefined). */
void stats_cimom_of(const struct ci_mom *m, const double *t, double *out);
/* The intervals of the moments, Deming's and the proportional bias's p
 * into s from m's sums (stats_cijack.c); frees what m holds. */
void stats_cimom_finish(struct ci_mom *m, struct stats_summary *s,
			const struct ci_clus *c, double level);

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
	double *res;		/* nb: the medians */
	/* the clustering: 0 pair-level, 1 workloads, 2 workloads and ops
	 * (stats_summary.ci_clustered) */
	int clustered;
	/* the variances of log MAPE, bias and the mean log ratio (two-way:
	 * the intervals; one-way: the workloads' effective number) */
	struct ci_var ev[3];
};

/* Everything stats_ci_compute_shared does to s but the four bootstrap
 * intervals (the moments' intervals included; okey: each pair's op, NULL
 * for workloads only); 1 when those are due (cs is then set up: stats_ci_resample
 * or a pass over many, then stats_ci_finish), 0 when there is none to
 * compute (cs holds nothing). may_fill: as stats_ci_draws_use. model
 * and ref stay alive until stats_ci_finish (a median may read them). */
int stats_ci_prepare(struct ci_sum *cs, struct stats_summary *s,
		     const double *model, const double *ref,
		     const double *ref_se, const int64_t *wkey,
		     const int64_t *okey, size_t n,
		     const struct stats_paired_opts *opts,
		     struct stats_ci_draws *draws, int may_fill);
/* The statistics of each resample of cs into cs->res, alone. */
void stats_ci_resample(struct ci_sum *cs);
/* The intervals from cs->res into cs->s; frees what cs holds. */
void stats_ci_finish(struct ci_sum *cs);
/* Whether the processor runs the AVX2 clones. */
int stats_ci_avx2(void);

/* The error statistics' clustered intervals (stats_cierr.c). */
void stats_ci_wsums_alloc(struct wsums *x, size_t nw);
void stats_ci_wsums_free(struct wsums *x);
/* The error sums of the n pairs per cluster c[i] into x (|e| and e when
 * err, ln(m / r) when geo). */
void stats_ci_wsums_fill(struct wsums *x, const double *model,
			 const double *ref, const uint32_t *c, size_t n,
			 int err, int geo);
/* Ops (ocl[i] < no) found in at least 2 workloads (cl). */
size_t stats_ci_crossed_ops(const uint32_t *cl, const uint32_t *ocl,
			    size_t n, size_t no);
/* The moments' intervals into cs->s and the error statistics' variance
 * parts into cs->ev (two-way when ocl), cl in the row's numbering. */
void stats_ci_jackknives(struct ci_sum *cs, const double *model,
			 const double *ref, const double *ref_se,
			 const uint32_t *cl, const uint32_t *ocl, size_t no,
			 size_t n);
/* est's t interval from its variance parts (one- or two-way), on the
 * log scale when lg. */
void stats_ci_wald(struct stats_ci *ci, double est, const struct ci_var *v,
		   int two, double level, int lg);
/* The arms of interval ci around est scaled by f (the log scale when
 * both ends are positive). */
void stats_ci_widen(struct stats_ci *ci, double est, double f);

/* Resample b's median into cs->res (MAPE, bias and the geomean have
 * jackknife intervals: stats_cijack.c). */
static inline void stats_ci_store(struct ci_sum *cs, unsigned b, double med)
{
	cs->res[b] = med;
}

#endif
