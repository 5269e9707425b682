/* Sensitivity to each knob: elasticities along sweeps (corr_sens.h). */
#include "src/corr/corr_sens.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"
#include "src/corr/correlate.h"
#include "src/stats/stats.h"

/* The points a build reads (corr_sens_build_keep). */
struct sel {
	int (*keep)(const struct corr_point *p, void *arg);
	void *arg;
};

/* One point along one knob, before grouping. */
struct entry {
	char *id;		/* op \x1f metric \x1f fixed key */
	const char *op, *metric;
	size_t fixed_at;	/* where the fixed key starts in id */
	double x, model, ref, model_noise;
};

static int entry_cmp(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	int c = strcmp(x->id, y->id);

	if (c)
		return c;
	return (x->x > y->x) - (x->x < y->x);
}

/* The workload key without the knob's "/NAME=VALUE" segment. */
static char *fixed_key(const char *key, const char *knob, const char *val)
{
	char *seg = xasprintf("/%s=%s", knob, val);
	const char *at = strstr(key, seg);
	size_t len = strlen(seg);
	char *out;

	while (at && at[len] && at[len] != '/')
		at = strstr(at + 1, seg);
	if (at)
		out = xasprintf("%.*s%s", (int)(at - key), key, at + len);
	else
		out = xasprintf("%s (%s varies)", key, knob);
	free(seg);
	return out;
}

/* The least-squares slope of ln y on ln x. */
static double log_slope(const double *x, const double *y, size_t n)
{
	double mx = 0, my = 0, sxx = 0, sxy = 0;

	for (size_t i = 0; i < n; i++) {
		mx += log(x[i]);
		my += log(y[i]);
	}
	mx /= (double)n;
	my /= (double)n;
	for (size_t i = 0; i < n; i++) {
		double dx = log(x[i]) - mx;

		sxx += dx * dx;
		sxy += dx * (log(y[i]) - my);
	}
	return sxx > 0 ? sxy / sxx : NAN;
}

static double log_range(const double *v, size_t n)
{
	double lo = v[0], hi = v[0];

	for (size_t i = 1; i < n; i++) {
		lo = fmin(lo, v[i]);
		hi = fmax(hi, v[i]);
	}
	return log(hi / lo);
}

static enum corr_sens_flag classify(const struct corr_sweep *w, double noise)
{
	double flat = fmax(CORR_SENS_FLAT_SHARE * w->ref_move, noise);

	if (w->ref_move < log(CORR_SENS_REF_MOVES))
		return SENS_OK;
	if (w->model_move < flat)
		return SENS_BLIND;
	if (w->e_model * w->e_ref < 0)
		return SENS_WRONG;
	return SENS_OK;
}

static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), dbl_cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int sweep_cmp(const void *a, const void *b)
{
	const struct corr_sweep *x = a, *y = b;
	double dx = fabs(x->e_model - x->e_ref), dy = fabs(y->e_model - y->e_ref);

	if ((x->flag != SENS_OK) != (y->flag != SENS_OK))
		return x->flag != SENS_OK ? -1 : 1;
	if (dx != dy)
		return dx > dy ? -1 : 1;
	return strcmp(x->fixed, y->fixed);
}

static int knob_cmp(const void *a, const void *b)
{
	const struct corr_knob *x = a, *y = b;
	size_t fx = x->blind + x->wrong, fy = y->blind + y->wrong;
	int c;

	if (fx != fy)
		return fx > fy ? -1 : 1;
	if ((c = strcmp(x->knob, y->knob)))
		return c;
	if ((c = strcmp(x->op, y->op)))
		return c;
	return strcmp(x->metric, y->metric);
}

/* Close the sweep e[0..n) (one id, x ascending) into knob k. */
static void add_sweep(struct corr_knob *k, const struct entry *e, size_t n)
{
	struct corr_sweep *w;
	double noise = 0;
	size_t distinct = 1;

	for (size_t i = 1; i < n; i++)
		distinct += e[i].x != e[i - 1].x;
	if (distinct < 3)
		return;
	k->sweeps = xrealloc(k->sweeps, (k->nsweeps + 1) * sizeof(*w));
	w = &k->sweeps[k->nsweeps++];
	memset(w, 0, sizeof(*w));
	w->fixed = xstrdup(e[0].id + e[0].fixed_at);
	w->n = n;
	w->x = xmalloc(3 * n * sizeof(double));
	w->model = w->x + n;
	w->ref = w->x + 2 * n;
	for (size_t i = 0; i < n; i++) {
		w->x[i] = e[i].x;
		w->model[i] = e[i].model;
		w->ref[i] = e[i].ref;
		noise = fmax(noise, e[i].model_noise);
	}
	w->e_model = log_slope(w->x, w->model, n);
	w->e_ref = log_slope(w->x, w->ref, n);
	w->tau = stats_kendall_tau_b(w->model, w->ref, n);
	w->model_move = log_range(w->model, n);
	w->ref_move = log_range(w->ref, n);
	w->flag = classify(w, noise);
	k->blind += w->flag == SENS_BLIND;
	k->wrong += w->flag == SENS_WRONG;
}

static void knob_finish(struct corr_knob *k)
{
	double *v = xmalloc(2 * k->nsweeps * sizeof(*v)), t = 0;
	size_t nt = 0;

	for (size_t i = 0; i < k->nsweeps; i++) {
		v[i] = k->sweeps[i].e_model;
		v[k->nsweeps + i] = k->sweeps[i].e_ref;
		if (isfinite(k->sweeps[i].tau)) {
			t += k->sweeps[i].tau;
			nt++;
		}
	}
	k->e_model_med = median(v, k->nsweeps);
	k->e_ref_med = median(v + k->nsweeps, k->nsweeps);
	k->tau_mean = nt ? t / (double)nt : NAN;
	qsort(k->sweeps, k->nsweeps, sizeof(*k->sweeps), sweep_cmp);
	free(v);
}

/* The entries of s along knob (points whose value of it is a positive
 * number); *skipped counts the points no sweep can use. */
static struct entry *entries_of(const struct corr_set *s, const char *knob,
				const struct sel *sel, size_t *n,
				long *skipped)
{
	struct entry *e = xmalloc((s->n ? s->n : 1) * sizeof(*e));
	char by[128], val[256];
	size_t len = 0;

	snprintf(by, sizeof(by), "param.%s", knob);
	*skipped = 0;
	for (size_t i = 0; i < s->n; i++) {
		const struct corr_point *p = &s->points[i];
		double x;
		char *fixed;

		if (sel->keep && !sel->keep(p, sel->arg))
			continue;
		if ((p->flags & (CORR_INVALID | CORR_NOISY_REF)) ||
		    !(p->model > 0) || !(p->ref > 0)) {
			(*skipped)++;
			continue;
		}
		if (corr_group_key(s, p, by, val, sizeof(val)) < 0 ||
		    util_parse_double(val, &x) < 0 || !isfinite(x) || !(x > 0))
			continue;
		fixed = fixed_key(p->workload, knob, val);
		e[len].op = p->op;
		e[len].metric = p->metric;
		e[len].id = xasprintf("%s\x1f%s\x1f%s", p->op, p->metric, fixed);
		e[len].fixed_at = strlen(p->op) + strlen(p->metric) + 2;
		e[len].x = x;
		e[len].model = p->model;
		e[len].ref = p->ref;
		/* twice the model's stated relative spread, in log units */
		e[len].model_noise = p->model_sd > 0 ?
			2 * log1p(p->model_sd / p->model) : 0;
		len++;
		free(fixed);
	}
	*n = len;
	return e;
}

static void knob_sweeps(struct corr_sens *c, const struct corr_set *s,
			const char *knob, const struct sel *sel)
{
	size_t n, i = 0;
	long skipped;
	struct entry *e = entries_of(s, knob, sel, &n, &skipped);

	c->skipped = skipped;
	qsort(e, n, sizeof(*e), entry_cmp);
	while (i < n) {
		size_t j = i + 1;
		struct corr_knob *k;

		while (j < n && !strcmp(e[j].id, e[i].id))
			j++;
		/* one knob entry per (op, metric): ids sort by op, metric */
		k = c->n ? &c->knobs[c->n - 1] : NULL;
		if (!k || strcmp(k->knob, knob) || strcmp(k->op, e[i].op) ||
		    strcmp(k->metric, e[i].metric)) {
			c->knobs = xrealloc(c->knobs, (c->n + 1) *
					    sizeof(*c->knobs));
			k = &c->knobs[c->n++];
			memset(k, 0, sizeof(*k));
			k->knob = knob;
			k->op = e[i].op;
			k->metric = e[i].metric;
		}
		add_sweep(k, e + i, j - i);
		i = j;
	}
	for (i = 0; i < n; i++)
		free(e[i].id);
	free(e);
}

int corr_sens_build(struct corr_sens *out, const struct corr_set *s,
		    const char *knob)
{
	return corr_sens_build_keep(out, s, knob, NULL, NULL);
}

int corr_sens_build_keep(struct corr_sens *out, const struct corr_set *s,
			 const char *knob,
			 int (*keep)(const struct corr_point *p, void *arg),
			 void *arg)
{
	struct sel sel = { keep, arg };
	char **names = NULL;
	size_t nn = 0, kept = 0;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (!s->points)
		return pc_error_set(PC_EINVALID, "sensitivity needs the pairs' "
				    "points (a slim set has none)");
	corr_param_names(s, &names, &nn);
	if (knob) {
		char by[128];

		snprintf(by, sizeof(by), "param.%s", knob);
		if ((rc = corr_check_key(s, by)) < 0)
			goto done;
	}
	for (size_t i = 0; i < nn; i++)
		if (!knob || !strcmp(names[i], knob))
			knob_sweeps(out, s, names[i], &sel);
	/* drop (op, metric) entries without a sweep; keep the names alive */
	for (size_t i = 0; i < out->n; i++) {
		struct corr_knob *k = &out->knobs[i];

		if (!k->nsweeps)
			continue;
		knob_finish(k);
		out->blind += k->blind;
		out->wrong += k->wrong;
		out->sweeps += k->nsweeps;
		out->knobs[kept++] = *k;
	}
	out->n = kept;
	if (!kept) {
		rc = pc_error_set(PC_ENOTFOUND, "no sweep to measure: a sweep "
			"is one op and metric over >= 3 positive values of one "
			"parameter%s%s with every other part of the workload "
			"key fixed", knob ? " " : "", knob ? knob : "");
		goto done;
	}
	qsort(out->knobs, out->n, sizeof(*out->knobs), knob_cmp);
done:
	/* the names list is freed below: the knobs keep copies */
	for (size_t i = 0; i < out->n; i++)
		out->knobs[i].knob = xstrdup(out->knobs[i].knob);
	for (size_t i = 0; i < nn; i++)
		free(names[i]);
	free(names);
	if (rc < 0)
		corr_sens_release(out);
	return rc;
}

void corr_sens_release(struct corr_sens *c)
{
	for (size_t i = 0; i < c->n; i++) {
		for (size_t j = 0; j < c->knobs[i].nsweeps; j++) {
			free(c->knobs[i].sweeps[j].fixed);
			free(c->knobs[i].sweeps[j].x);
		}
		free(c->knobs[i].sweeps);
		free((char *)c->knobs[i].knob);
	}
	free(c->knobs);
	memset(c, 0, sizeof(*c));
}

const char *corr_sens_flag_name(enum corr_sens_flag f)
{
	return f == SENS_BLIND ? "blind" : f == SENS_WRONG ? "wrong direction" :
	       "ok";
}
