#ifndef PC_TESTS_SIM_STUDY_H
#define PC_TESTS_SIM_STUDY_H
/*
 * Simulated correlation studies for the simulation tests (issue 34: is
 * an interval's coverage, a test's false-alarm rate, what it says?).
 * Header only: #include "sim_study.h" from a unit test (tests/ is on
 * their include path) or a bench program.
 *
 * A study is every workload crossed with every op (n_workloads x n_ops
 * pairs, workload-major: pair k is workload k / n_ops, op k % n_ops), one
 * metric. The model's log error of pair (w, o) is
 *
 *     log(model / ref) = (1 + growth) * (a[w] + b[o] + e[w, o])
 *
 * with a[w] ~ N(0, sd_workload) shared by the ops of one workload (the
 * clustering of every real study), b[o] ~ N(0, sd_op) shared by one op
 * across the workloads (a crossed op effect: "our attention model is 10%
 * slow everywhere"; 0 for a purely workload-clustered design) and
 * e ~ N(0, sd_pair) independent. growth scales the log error: |error|
 * grows by about that fraction (0.3: a 30% error growth). The references
 * are ref = 1e-6 * exp(N(0, 1.5)), values spanning decades.
 *
 * sim_study_release draws a second model release against the same
 * references, workloads and ops: its effects keep a fraction `keep` of
 * the first release's (new = keep * old + sqrt(1 - keep^2) * fresh, the
 * same distribution for every keep; 0 = an independent release) and its
 * log error is scaled by (1 + growth). With growth 0 the two releases
 * have the same error distribution: the null of a release-change test.
 *
 * Everything comes from one seeded generator (splitmix64, the one the
 * product's bootstrap uses, reimplemented here so the simulation does not
 * depend on the code under test); the same seed gives the same study.
 * API stable: other tests build on it.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

struct sim_rng {
	uint64_t s;
};

struct sim_pair {
	size_t workload, op;	/* indexes: 0 .. n_workloads-1, n_ops-1 */
	double ref, model;	/* model > 0, ref > 0 */
	double log_err;		/* log(model / ref) */
	double err;		/* (model - ref) / ref, perfcorr's error */
};

struct sim_study {
	struct sim_pair *pairs;
	size_t n, n_workloads, n_ops;
	double sd_workload, sd_op, sd_pair, growth;
	double *workload_effect;	/* a[w], before the growth scaling */
	double *op_effect;		/* b[o] */
	double *pair_noise;		/* e[k] */
};

static inline void sim_rng_seed(struct sim_rng *r, uint64_t seed)
{
	r->s = seed;
}

static inline uint64_t sim_rng_next(struct sim_rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in (0, 1). */
static inline double sim_uniform(struct sim_rng *r)
{
	return ((double)(sim_rng_next(r) >> 11) + 0.5) * 0x1.0p-53;
}

/* Standard normal (Box-Muller, one value per call). */
static inline double sim_normal(struct sim_rng *r)
{
	double u = sim_uniform(r), v = sim_uniform(r);

	return sqrt(-2 * log(u)) * cos(6.283185307179586 * v);
}

/* An index in [0, n), n > 0. */
static inline size_t sim_index(struct sim_rng *r, size_t n)
{
	size_t k = (size_t)(sim_uniform(r) * (double)n);

	return k < n ? k : n - 1;
}

static inline void sim_study_fill(const struct sim_study *s, double growth,
				  const double *a, const double *b,
				  const double *e, double *model)
{
	for (size_t k = 0; k < s->n; k++) {
		const struct sim_pair *p = &s->pairs[k];
		double le = (1 + growth) * (a[p->workload] + b[p->op] + e[k]);

		model[k] = p->ref * exp(le);
	}
}

/* A new study (NULL only when out of memory); free with sim_study_free. */
static inline struct sim_study *sim_study_make(struct sim_rng *rng,
					       size_t n_workloads,
					       size_t n_ops,
					       double sd_workload, double sd_op,
					       double sd_pair, double growth)
{
	struct sim_study *s = calloc(1, sizeof(*s));
	size_t n = n_workloads * n_ops;
	double *model;

	if (!s)
		return NULL;
	s->n = n;
	s->n_workloads = n_workloads;
	s->n_ops = n_ops;
	s->sd_workload = sd_workload;
	s->sd_op = sd_op;
	s->sd_pair = sd_pair;
	s->growth = growth;
	s->pairs = calloc(n + 1, sizeof(*s->pairs));
	s->workload_effect = calloc(n_workloads + 1, sizeof(double));
	s->op_effect = calloc(n_ops + 1, sizeof(double));
	s->pair_noise = calloc(n + 1, sizeof(double));
	model = calloc(n + 1, sizeof(double));
	if (!s->pairs || !s->workload_effect || !s->op_effect ||
	    !s->pair_noise || !model) {
		free(model);
		free(s->pairs);
		free(s->workload_effect);
		free(s->op_effect);
		free(s->pair_noise);
		free(s);
		return NULL;
	}
	for (size_t w = 0; w < n_workloads; w++)
		s->workload_effect[w] = sd_workload * sim_normal(rng);
	for (size_t o = 0; o < n_ops; o++)
		s->op_effect[o] = sd_op * sim_normal(rng);
	for (size_t k = 0; k < n; k++) {
		s->pairs[k].workload = k / n_ops;
		s->pairs[k].op = k % n_ops;
		s->pairs[k].ref = 1e-6 * exp(1.5 * sim_normal(rng));
		s->pair_noise[k] = sd_pair * sim_normal(rng);
	}
	sim_study_fill(s, growth, s->workload_effect, s->op_effect,
		       s->pair_noise, model);
	for (size_t k = 0; k < n; k++) {
		struct sim_pair *p = &s->pairs[k];

		p->model = model[k];
		p->log_err = log(p->model / p->ref);
		p->err = (p->model - p->ref) / p->ref;
	}
	free(model);
	return s;
}

/* A second release of s's model (see the top): model_out[k] for pair k
 * (s->n values). Returns 0, or -1 when out of memory. */
static inline int sim_study_release(const struct sim_study *s,
				    struct sim_rng *rng, double keep,
				    double growth, double *model_out)
{
	double *a = calloc(s->n_workloads + 1, sizeof(double));
	double *b = calloc(s->n_ops + 1, sizeof(double));
	double *e = calloc(s->n + 1, sizeof(double));
	double f = sqrt(fmax(0, 1 - keep * keep));

	if (!a || !b || !e) {
		free(a);
		free(b);
		free(e);
		return -1;
	}
	for (size_t w = 0; w < s->n_workloads; w++)
		a[w] = keep * s->workload_effect[w] +
		       f * s->sd_workload * sim_normal(rng);
	for (size_t o = 0; o < s->n_ops; o++)
		b[o] = keep * s->op_effect[o] + f * s->sd_op * sim_normal(rng);
	for (size_t k = 0; k < s->n; k++)
		e[k] = keep * s->pair_noise[k] + f * s->sd_pair *
		       sim_normal(rng);
	sim_study_fill(s, growth, a, b, e, model_out);
	free(a);
	free(b);
	free(e);
	return 0;
}

/* perfcorr's error of a model value against pair k's reference. */
static inline double sim_study_err(const struct sim_study *s, size_t k,
				   double model)
{
	return (model - s->pairs[k].ref) / s->pairs[k].ref;
}

static inline void sim_study_free(struct sim_study *s)
{
	if (!s)
		return;
	free(s->pairs);
	free(s->workload_effect);
	free(s->op_effect);
	free(s->pair_noise);
	free(s);
}

#endif
