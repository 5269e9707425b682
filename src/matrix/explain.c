/* Error attribution by multiple regression (see explain.h). */
#include "src/matrix/explain.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_multifit.h>
#include <gsl/gsl_sf_gamma.h>
#include <gsl/gsl_vector.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/hmap.h"
#include "base/strbuf.h"
#include "base/util.h"

#define KEYLEN 512
#define RANK_TOL 1e-10

/* One feature: a level per used point, and how it enters the fit. */
struct feature {
	const char *name;
	size_t *lv;		/* per point: index into levels */
	char **levels;		/* distinct values, sorted after classify */
	size_t nlevels;
	struct hmap map;	/* value -> level (first-seen order) */
	int numeric;		/* every level a positive number */
};

static const char *const *sort_levels;

static int idx_cmp(const void *x, const void *y)
{
	return strcmp(sort_levels[*(const size_t *)x],
		      sort_levels[*(const size_t *)y]);
}

/* Sort the levels and renumber the points; decide numeric. */
static void classify(struct feature *f, size_t n)
{
	size_t *order = xmalloc((f->nlevels + 1) * sizeof(*order));
	size_t *rank = xmalloc((f->nlevels + 1) * sizeof(*rank));
	char **sorted = xmalloc((f->nlevels + 1) * sizeof(*sorted));

	for (size_t k = 0; k < f->nlevels; k++)
		order[k] = k;
	sort_levels = (const char *const *)f->levels;
	qsort(order, f->nlevels, sizeof(*order), idx_cmp);
	for (size_t k = 0; k < f->nlevels; k++) {
		rank[order[k]] = k;
		sorted[k] = f->levels[order[k]];
	}
	for (size_t i = 0; i < n; i++)
		f->lv[i] = rank[f->lv[i]];
	free(f->levels);
	f->levels = sorted;
	f->numeric = f->nlevels > 0;
	for (size_t k = 0; k < f->nlevels && f->numeric; k++) {
		double v;

		f->numeric = !util_parse_double(f->levels[k], &v) && v > 0;
	}
	free(order);
	free(rank);
}

static size_t ncols_of(const struct feature *f)
{
	if (f->nlevels < 2)
		return 0;	/* constant: dropped */
	return f->numeric ? 1 : f->nlevels - 1;
}

static void add_term(struct explain_result *r, char *name)
{
	r->terms = xrealloc(r->terms, (r->nterms + 1) * sizeof(*r->terms));
	memset(&r->terms[r->nterms], 0, sizeof(*r->terms));
	r->terms[r->nterms++].name = name;
}

/* Fill columns j.. of X for feature f; returns the next column. */
static size_t fill(gsl_matrix *X, size_t j, const struct feature *f,
		   size_t n, struct explain_result *r)
{
	if (ncols_of(f) == 0) {
		r->dropped = xrealloc(r->dropped, (r->ndropped + 1) *
				      sizeof(*r->dropped));
		r->dropped[r->ndropped++] = xasprintf("%s (constant)", f->name);
		return j;
	}
	if (f->numeric) {
		double *lg = xmalloc(f->nlevels * sizeof(*lg));

		for (size_t k = 0; k < f->nlevels; k++) {
			util_parse_double(f->levels[k], &lg[k]);
			lg[k] = log(lg[k]);
		}
		add_term(r, xasprintf("ln %s", f->name));
		for (size_t i = 0; i < n; i++)
			gsl_matrix_set(X, i, j, lg[f->lv[i]]);
		free(lg);
		return j + 1;
	}
	for (size_t k = 1; k < f->nlevels; k++) {
		add_term(r, xasprintf("%s=%s", f->name, f->levels[k]));
		for (size_t i = 0; i < n; i++)
			gsl_matrix_set(X, i, j, f->lv[i] == k);
		j++;
	}
	return j;
}

static int usable(const struct corr_point *p)
{
	return !(p->flags & (CORR_INVALID | CORR_NOISY_REF)) &&
	       p->model > 0 && p->ref > 0;
}

static int read_features(struct feature *f, const struct corr_set *s,
			 const char *const *names, size_t nf, size_t *n)
{
	char val[KEYLEN];
	int rc = 0;

	*n = 0;
	for (size_t k = 0; k < nf; k++) {
		f[k].name = names[k];
		f[k].lv = xmalloc((s->n + 1) * sizeof(*f[k].lv));
		hmap_init(&f[k].map);
	}
	for (size_t i = 0; i < s->n && !rc; i++) {
		if (!usable(&s->points[i]))
			continue;
		for (size_t k = 0; k < nf && !rc; k++) {
			struct feature *x = &f[k];
			int64_t lv;

			rc = corr_group_key(s, &s->points[i], names[k], val,
					    sizeof(val));
			if (!hmap_get(&x->map, val, &lv)) {
				lv = (int64_t)x->nlevels++;
				x->levels = xrealloc(x->levels, x->nlevels *
						     sizeof(*x->levels));
				x->levels[lv] = xstrdup(val);
				hmap_put(&x->map, val, lv);
			}
			x->lv[*n] = (size_t)lv;
		}
		(*n)++;
	}
	for (size_t k = 0; k < nf && !rc; k++)
		classify(&f[k], *n);
	return rc;
}

/*
 * Two-sided Student-t p-value as the regularised incomplete beta
 * I_x(dof/2, 1/2), x = dof / (dof + t^2): exact where 2 *
 * gsl_cdf_tdist_Q(|t|) loses digits for large t (checked against scipy).
 */
static double p_value(double t, double dof)
{
	gsl_sf_result r;

	if (!isfinite(t))
		return NAN;
	if (gsl_sf_beta_inc_e(dof / 2, 0.5, dof / (dof + t * t), &r) !=
	    GSL_SUCCESS)
		return NAN;
	return r.val;
}

/* Dense cluster numbers of the workload ids wid[0..n) into cl; returns
 * the number of clusters. */
static const int64_t *cmp_wid;

static int wid_cmp(const void *x, const void *y)
{
	int64_t a = cmp_wid[*(const size_t *)x], b = cmp_wid[*(const size_t *)y];

	return (a > b) - (a < b);
}

static size_t clusters_of(const int64_t *wid, size_t n, size_t *cl)
{
	size_t *o = xmalloc((n + 1) * sizeof(*o)), g = 0;

	for (size_t i = 0; i < n; i++)
		o[i] = i;
	cmp_wid = wid;
	qsort(o, n, sizeof(*o), wid_cmp);
	for (size_t i = 0; i < n; i++) {
		if (i && wid[o[i]] != wid[o[i - 1]])
			g++;
		cl[o[i]] = g;
	}
	free(o);
	return n ? g + 1 : 0;
}

static size_t clusters_of_count(const int64_t *wid, size_t n)
{
	size_t *cl = xmalloc((n + 1) * sizeof(*cl)), g = clusters_of(wid, n, cl);

	free(cl);
	return g;
}

/*
 * Cluster-robust (sandwich) covariance by workload, CR1 (Stata's
 * vce(cluster)): V = c B M B, B = (X'X)^-1, M = sum over workloads g of
 * s_g s_g', s_g = sum of x_i u_i over the pairs of g (u the residuals),
 * c = G / (G - 1) (n - 1) / (n - p). t = estimate / sqrt(V_kk) with G - 1
 * degrees of freedom. B is the OLS covariance / s^2.
 */
static void cluster_se(struct explain_result *r, const gsl_matrix *X,
		       const gsl_vector *y, const gsl_vector *c,
		       const gsl_matrix *cov, double s2, const int64_t *wid)
{
	size_t n = X->size1, p = X->size2, *cl = xmalloc((n + 1) * sizeof(*cl));
	size_t G = clusters_of(wid, n, cl);
	double *sg, *M, *BM, cf;

	r->clusters = G;
	if (G < 2 || !(s2 > 0)) {
		free(cl);
		return;
	}
	sg = xcalloc(G * p, sizeof(*sg));
	M = xcalloc(p * p, sizeof(*M));
	BM = xcalloc(p * p, sizeof(*BM));
	for (size_t i = 0; i < n; i++) {
		double u = gsl_vector_get(y, i);

		for (size_t k = 0; k < p; k++)
			u -= gsl_matrix_get(X, i, k) * gsl_vector_get(c, k);
		for (size_t k = 0; k < p; k++)
			sg[cl[i] * p + k] += gsl_matrix_get(X, i, k) * u;
	}
	for (size_t g = 0; g < G; g++)
		for (size_t a = 0; a < p; a++)
			for (size_t b = 0; b < p; b++)
				M[a * p + b] += sg[g * p + a] * sg[g * p + b];
	for (size_t a = 0; a < p; a++)
		for (size_t b = 0; b < p; b++)
			for (size_t k = 0; k < p; k++)
				BM[a * p + b] += gsl_matrix_get(cov, a, k) /
						 s2 * M[k * p + b];
	cf = (double)G / (double)(G - 1) * (double)(n - 1) / (double)(n - p);
	for (size_t a = 0; a < p; a++) {
		struct explain_term *t = &r->terms[a];
		double v = 0;

		for (size_t k = 0; k < p; k++)
			v += BM[a * p + k] * gsl_matrix_get(cov, k, a) / s2;
		v *= cf;
		t->se = v >= 0 ? sqrt(v) : NAN;
		t->t = t->se > 0 ? t->est / t->se : NAN;
		t->p = p_value(t->t, (double)(G - 1));
	}
	free(sg);
	free(M);
	free(BM);
	free(cl);
}

static int solve(struct explain_result *r, const gsl_matrix *X,
		 const gsl_vector *y, const int64_t *wid)
{
	size_t n = X->size1, p = X->size2, dof = n - p;
	gsl_multifit_linear_workspace *w = gsl_multifit_linear_alloc(n, p);
	gsl_vector *c = gsl_vector_alloc(p);
	gsl_matrix *cov = gsl_matrix_alloc(p, p);
	double chisq = 0, tss = 0, ym = 0, ymax = 0;
	int st = gsl_multifit_linear(X, y, c, cov, &chisq, w);
	size_t rank = st ? 0 : gsl_multifit_linear_rank(RANK_TOL, w);
	int rc = 0;

	if (st != GSL_SUCCESS) {
		rc = pc_error_set(PC_ERR, "regression failed: %s",
				  gsl_strerror(st));
	} else if (rank < p) {
		rc = pc_error_set(PC_EINVALID, "the features are collinear "
				  "(rank %zu of %zu columns): leave out one "
				  "that another determines (e.g. op_class "
				  "with op)", rank, p);
	}
	for (size_t i = 0; !rc && i < n; i++) {
		ym += gsl_vector_get(y, i) / (double)n;
		ymax = fmax(ymax, fabs(gsl_vector_get(y, i)));
	}
	for (size_t i = 0; !rc && i < n; i++)
		tss += (gsl_vector_get(y, i) - ym) * (gsl_vector_get(y, i) - ym);
	/* residuals of the size of the rounding of y: an exact fit, whose
	 * standard errors and t statistics would be made of round-off */
	r->exact = !rc && sqrt(chisq / (double)n) <= 1e-12 * ymax;
	for (size_t k = 0; !rc && k < p; k++) {
		struct explain_term *t = &r->terms[k];

		t->est = gsl_vector_get(c, k);
		t->se = t->t = t->p = NAN;
		if (r->exact) {
			t->se_ols = t->t_ols = t->p_ols = NAN;
			continue;
		}
		t->se_ols = sqrt(gsl_matrix_get(cov, k, k));
		t->t_ols = t->se_ols > 0 ? t->est / t->se_ols : NAN;
		t->p_ols = p_value(t->t_ols, (double)dof);
	}
	if (!rc) {
		r->r2 = tss > 0 ? 1 - chisq / tss : NAN;
		r->adj_r2 = 1 - (1 - r->r2) * (double)(n - 1) / (double)dof;
		r->sigma = sqrt(chisq / (double)dof);
		if (r->exact)
			r->clusters = clusters_of_count(wid, n);
		else
			cluster_se(r, X, y, c, cov, chisq / (double)dof, wid);
	}
	gsl_multifit_linear_free(w);
	gsl_vector_free(c);
	gsl_matrix_free(cov);
	return rc;
}

#define ALIAS_TOL 1e-9

/* Keep the columns of X that the kept ones before them do not
 * determine; name each other one in r->dropped with the combination of
 * kept terms it equals (R's alias()): "op=x (aliased: = +1 (intercept)
 * -1 param.phase=y)". Modified Gram-Schmidt, each column orthogonalised
 * twice; keep[j] says. Returns the number kept. */
static size_t drop_aliased(struct explain_result *r, const gsl_matrix *X,
			   int *keep)
{
	size_t n = X->size1, p = X->size2, k = 0;
	double *Q = xcalloc(n * p + 1, sizeof(double));
	double *R = xcalloc(p * p + 1, sizeof(double));
	double *x = xcalloc(n + 1, sizeof(double));
	size_t *col = xcalloc(p + 1, sizeof(size_t));

	for (size_t j = 0; j < p; j++) {
		double nx = 0, nr = 0;

		for (size_t i = 0; i < n; i++) {
			x[i] = gsl_matrix_get(X, i, j);
			nx += x[i] * x[i];
		}
		for (size_t m = 0; m < k; m++)
			R[m * p + k] = 0;
		for (int pass = 0; pass < 2; pass++)
			for (size_t m = 0; m < k; m++) {
				double d = 0;

				for (size_t i = 0; i < n; i++)
					d += Q[i * p + m] * x[i];
				for (size_t i = 0; i < n; i++)
					x[i] -= d * Q[i * p + m];
				R[m * p + k] += d;
			}
		for (size_t i = 0; i < n; i++)
			nr += x[i] * x[i];
		keep[j] = nx > 0 && sqrt(nr) > ALIAS_TOL * sqrt(nx);
		if (keep[j]) {
			R[k * p + k] = sqrt(nr);
			for (size_t i = 0; i < n; i++)
				Q[i * p + k] = x[i] / sqrt(nr);
			col[k++] = j;
			continue;
		}
		{
			/* x = sum b_m kept_m: back-substitute R b = Q'x */
			double *b = xcalloc(k + 1, sizeof(double));
			struct strbuf sb = STRBUF_INIT;
			int shown = 0;

			for (size_t m = k; m-- > 0;) {
				double v = R[m * p + k];

				for (size_t l = m + 1; l < k; l++)
					v -= R[m * p + l] * b[l];
				b[m] = v / R[m * p + m];
			}
			strbuf_addf(&sb, "%s (aliased: =", r->terms[j].name);
			for (size_t m = 0; m < k; m++) {
				if (fabs(b[m]) < 1e-7)
					continue;
				if (shown++ == 4) {
					strbuf_addstr(&sb, " ...");
					break;
				}
				strbuf_addf(&sb, " %+.4g %s", b[m],
					    r->terms[col[m]].name);
			}
			if (!shown)
				strbuf_addstr(&sb, " 0");
			strbuf_addstr(&sb, ": left out)");
			r->dropped = xrealloc(r->dropped, (r->ndropped + 1) *
					      sizeof(*r->dropped));
			r->dropped[r->ndropped++] = strbuf_detach(&sb);
			free(b);
		}
	}
	free(Q);
	free(R);
	free(x);
	free(col);
	return k;
}

/* X without the columns keep says are aliased, and their terms. */
static gsl_matrix *keep_columns(struct explain_result *r, gsl_matrix *X,
				const int *keep, size_t kept)
{
	size_t n = X->size1, p = X->size2, c = 0;
	gsl_matrix *Y;

	if (kept == p)
		return X;
	Y = gsl_matrix_alloc(n, kept);
	for (size_t j = 0; j < p; j++) {
		if (!keep[j]) {
			free(r->terms[j].name);
			continue;
		}
		for (size_t i = 0; i < n; i++)
			gsl_matrix_set(Y, i, c, gsl_matrix_get(X, i, j));
		r->terms[c++] = r->terms[j];
	}
	r->nterms = kept;
	gsl_matrix_free(X);
	return Y;
}

static int build(struct explain_result *r, const struct corr_set *s,
		 struct feature *f, size_t nf, size_t n)
{
	size_t p = 1, j = 1, i = 0;
	gsl_matrix *X;
	gsl_vector *y;
	int64_t *wid;
	int *keep;
	int rc;

	for (size_t k = 0; k < nf; k++)
		p += ncols_of(&f[k]);
	if (n <= p)
		return pc_error_set(PC_EINVALID, "%zu pairs cannot fit %zu "
				    "coefficients: use fewer features or more "
				    "data", n, p);
	X = gsl_matrix_alloc(n, p);
	y = gsl_vector_alloc(n);
	wid = xmalloc((n + 1) * sizeof(*wid));
	add_term(r, xstrdup("(intercept)"));
	for (size_t k = 0; k < n; k++)
		gsl_matrix_set(X, k, 0, 1.0);
	for (size_t k = 0; k < nf; k++)
		j = fill(X, j, &f[k], n, r);
	/* a column the others determine (one feature's levels spelling
	 * another's, a parameter only some workloads have) is left out and
	 * said, not a refusal of the whole fit (issue 35 item 10) */
	keep = xcalloc(p + 1, sizeof(int));
	X = keep_columns(r, X, keep, drop_aliased(r, X, keep));
	free(keep);
	for (size_t k = 0; k < s->n; k++)
		if (usable(&s->points[k])) {
			wid[i] = s->points[k].workload_id;
			gsl_vector_set(y, i++, log(s->points[k].model /
						   s->points[k].ref));
		}
	rc = solve(r, X, y, wid);
	free(wid);
	gsl_matrix_free(X);
	gsl_vector_free(y);
	return rc;
}

int explain_fit(struct explain_result *out, const struct corr_set *s,
		const char *const *features, size_t nf)
{
	struct explain_result r;
	struct feature *f = xcalloc(nf + 1, sizeof(*f));
	size_t n = 0;
	int rc;

	memset(&r, 0, sizeof(r));
	rc = 0;
	for (size_t k = 0; k < nf && !rc; k++)
		rc = corr_check_key(s, features[k]);
	if (!rc)
		rc = read_features(f, s, features, nf, &n);
	r.n = n;
	r.skipped = (long)(s->n - n);
	if (!rc)
		rc = build(&r, s, f, nf, n);
	for (size_t k = 0; k < nf; k++) {
		for (size_t l = 0; l < f[k].nlevels; l++)
			free(f[k].levels[l]);
		free(f[k].levels);
		free(f[k].lv);
		hmap_release(&f[k].map);
	}
	free(f);
	if (rc)
		explain_release(&r);
	else
		*out = r;
	return rc;
}

void explain_release(struct explain_result *r)
{
	for (size_t i = 0; i < r->nterms; i++)
		free(r->terms[i].name);
	free(r->terms);
	for (size_t i = 0; i < r->ndropped; i++)
		free(r->dropped[i]);
	free(r->dropped);
	memset(r, 0, sizeof(*r));
}
