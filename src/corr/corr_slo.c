/* Verdict agreement against service-level limits (corr_slo.h). */
#include "src/corr/corr_slo.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/strbuf.h"
#include "base/units.h"
#include "base/util.h"
#include "src/corr/corr_tail.h"
#include "src/corr/correlate.h"
#include "src/corr/correlate_int.h"

/*
 * MLPerf Inference's server-scenario latency constraints of the LLM
 * benchmarks: the 99th percentile (*.Server.target_latency_percentile =
 * 99) of time to first token and of time per output token, in ms, as
 * loadgen/mlperf.conf of mlcommons/inference states them
 * (<model>.Server.ttft_latency / tpot_latency; read at commit 001712e9,
 * docs/statistics.md). alias: the file's own spelling.
 */
static const struct preset {
	const char *name, *alias;
	double ttft_ms, tpot_ms;
} presets[] = {
	{ "llama2-70b", NULL, 2000, 200 },
	{ "llama2-70b-interactive", NULL, 450, 40 },
	{ "mixtral-8x7b", NULL, 2000, 200 },
	{ "llama3.1-405b", "llama3_1-405b", 6000, 175 },
	{ "llama3.1-405b-interactive", "llama3_1-405b-interactive", 4500, 80 },
	{ "llama3.1-8b", "llama3_1-8b", 2000, 100 },
	{ "llama3.1-8b-interactive", "llama3_1-8b-interactive", 500, 30 },
	{ "deepseek-r1", NULL, 2000, 80 },
	{ "deepseek-r1-interactive", NULL, 1500, 15 },
};

#define NPRESETS (sizeof(presets) / sizeof(presets[0]))

const char *corr_slo_presets(void)
{
	return "llama2-70b, llama2-70b-interactive, mixtral-8x7b, "
	       "llama3.1-405b, llama3.1-405b-interactive, llama3.1-8b, "
	       "llama3.1-8b-interactive, deepseek-r1, deepseek-r1-interactive";
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = 0;
	return s;
}

static int add(struct corr_slo *out, const char *metric, double v,
	       const char *si, char op, const char *text, const char *from,
	       const char *origin)
{
	struct corr_slo_limit *l;

	for (size_t i = 0; i < out->n; i++)
		if (!strcmp(out->lim[i].metric, metric))
			return pc_error_set(PC_EINVALID, "%s: a limit on '%s' "
				"is given twice ('%s' and '%s')", origin,
				metric, out->lim[i].text, text);
	out->lim = xrealloc(out->lim, (out->n + 1) * sizeof(*out->lim));
	l = &out->lim[out->n++];
	memset(l, 0, sizeof(*l));
	l->metric = xstrdup(metric);
	l->limit = v;
	l->si = xstrdup(si);
	l->op = op;
	l->text = xstrdup(text);
	l->from = from ? xstrdup(from) : NULL;
	return 0;
}

static int preset(struct corr_slo *out, const char *name, const char *origin)
{
	for (size_t i = 0; i < NPRESETS; i++) {
		const struct preset *p = &presets[i];
		char from[80], t[80], m[80];
		int rc;

		if (strcmp(name, p->name) && (!p->alias ||
					      strcmp(name, p->alias)))
			continue;
		snprintf(from, sizeof(from), "mlperf:%s", p->name);
		snprintf(t, sizeof(t), "ttft_p99<=%gms", p->ttft_ms);
		snprintf(m, sizeof(m), "tpot_p99<=%gms", p->tpot_ms);
		if ((rc = add(out, "ttft_p99", p->ttft_ms * 1e-3, "s", '<', t,
			      from, origin)) < 0)
			return rc;
		return add(out, "tpot_p99", p->tpot_ms * 1e-3, "s", '<', m,
			   from, origin);
	}
	return pc_error_set(PC_EINVALID, "%s: unknown MLPerf benchmark '%s' "
			    "(mlperf: takes %s)", origin, name,
			    corr_slo_presets());
}

/* One item METRIC(=|<=|>=)VALUE[UNIT]. */
static int item(struct corr_slo *out, char *it, const char *origin)
{
	char *eq = strpbrk(it, "<>="), *num, *end, *unit;
	char op = '=';
	const struct unit *u = NULL;
	double v;

	if (!eq)
		return pc_error_set(PC_EINVALID, "%s: '%s' is not "
			"METRIC=VALUE[UNIT] (e.g. ttft_p99=2s) or "
			"mlperf:BENCHMARK", origin, it);
	num = eq + 1;
	if (*eq != '=') {
		op = *eq;
		if (*num != '=')
			return pc_error_set(PC_EINVALID, "%s: '%s': write "
				"'%c=' (the limit is met at the value too)",
				origin, it, op);
		num++;
	}
	*eq = 0;
	it = trim(it);
	num = trim(num);
	if (!*it)
		return pc_error_set(PC_EINVALID, "%s: a limit without a "
				    "metric name", origin);
	v = strtod(num, &end);
	if (end == num)
		return pc_error_set(PC_EINVALID, "%s: '%s': the limit '%s' is "
				    "not a number", origin, it, num);
	unit = trim(end);
	if (*unit && !(u = units_resolve(unit)))
		return pc_error_set(PC_EINVALID, "%s: '%s': unknown unit '%s' "
				    "(a unit perfcorr reads: s, ms, us, "
				    "tokens/s, req/s, W ...)", origin, it,
				    unit);
	if (u)
		v = units_to_si(v, u->factor);
	if (!(v > 0) || !isfinite(v))
		return pc_error_set(PC_EINVALID, "%s: '%s': a limit must be "
				    "a positive number (got '%s')", origin, it,
				    num);
	{
		char *text = xasprintf("%s%s%.*s%s", it, op == '<' ? "<=" :
				       op == '>' ? ">=" : "=", (int)(end - num),
				       num, unit);
		int rc = add(out, it, v, u ? u->si : "", op, text, NULL,
			     origin);

		free(text);
		return rc;
	}
}

int corr_slo_parse(struct corr_slo *out, const char *spec, const char *origin)
{
	char *dup = xstrdup(spec ? spec : ""), *save = NULL, *tok;
	int rc = 0, n = 0;

	for (tok = strtok_r(dup, ",", &save); tok && rc >= 0;
	     tok = strtok_r(NULL, ",", &save)) {
		char *t = trim(tok);

		n++;
		if (!strncmp(t, "mlperf:", 7))
			rc = preset(out, trim(t + 7), origin);
		else
			rc = item(out, t, origin);
	}
	if (rc >= 0 && !n)
		rc = pc_error_set(PC_EINVALID, "%s: no limit given (e.g. "
				  "ttft_p99=2s,tpot_p99=100ms or "
				  "mlperf:llama2-70b)", origin);
	free(dup);
	return rc;
}

void corr_slo_release(struct corr_slo *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->lim[i].metric);
		free(s->lim[i].si);
		free(s->lim[i].text);
		free(s->lim[i].from);
	}
	free(s->lim);
	memset(s, 0, sizeof(*s));
}

void corr_slo_copy(struct corr_slo *dst, const struct corr_slo *src)
{
	memset(dst, 0, sizeof(*dst));
	dst->lim = xcalloc(src->n + 1, sizeof(*dst->lim));
	dst->n = src->n;
	for (size_t i = 0; i < src->n; i++) {
		const struct corr_slo_limit *s = &src->lim[i];
		struct corr_slo_limit *d = &dst->lim[i];

		*d = *s;
		d->metric = xstrdup(s->metric);
		d->si = xstrdup(s->si);
		d->text = xstrdup(s->text);
		d->from = s->from ? xstrdup(s->from) : NULL;
	}
}

/* "'a', 'b'" of the distinct metrics of s's points. */
static char *metrics_of(const struct corr_set *s)
{
	const struct corr_store *st = s->store;
	size_t nm = st->ndict[DB_DICT_METRICS];
	unsigned char *used = xcalloc(nm + 1, 1);
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < s->n; i++) {
		int64_t w, o, m;
		size_t k;

		corr_point_ids(s, i, &w, &o, &m);
		if (corr_dict_find(st, DB_DICT_METRICS, m, &k))
			used[k] = 1;
	}
	for (size_t k = 0; k < nm; k++)
		if (used[k])
			strbuf_addf(&sb, "%s'%s'", sb.len ? ", " : "",
				    st->dict[DB_DICT_METRICS][k].name);
	free(used);
	return strbuf_detach(&sb);
}

static int metric_paired(const struct corr_set *s, int64_t id)
{
	for (size_t i = 0; i < s->n; i++) {
		int64_t w, o, m;

		corr_point_ids(s, i, &w, &o, &m);
		if (m == id)
			return 1;
	}
	return 0;
}

static int is_pct(const char *metric)
{
	char base[64];
	double u;

	return corr_tail_level(metric, base, sizeof(base), &u);
}

char *corr_slo_nothing(const struct corr_slo *slo, const struct corr_set *s)
{
	const struct corr_store *st = s->store;
	struct strbuf lims = STRBUF_INIT;
	char *have, *why;

	for (size_t i = 0; i < slo->n; i++) {
		if (!is_pct(slo->lim[i].metric)) {
			strbuf_release(&lims);
			return NULL;
		}
		strbuf_addf(&lims, "%s%s", i ? ", " : "", slo->lim[i].metric);
	}
	for (size_t i = 0; i < s->n; i++) {
		int64_t w, o, m;
		size_t k;

		corr_point_ids(s, i, &w, &o, &m);
		if (corr_dict_find(st, DB_DICT_METRICS, m, &k) &&
		    is_pct(st->dict[DB_DICT_METRICS][k].name)) {
			strbuf_release(&lims);
			return NULL;
		}
	}
	have = metrics_of(s);
	why = xasprintf("nothing to assess: the limits are on percentiles "
			"(%s) and no pair states a percentile (the pairs' "
			"metrics: %s); import a serving benchmark's "
			"percentiles (ttft_p99, tpot_p99, ...) of both sides "
			"to judge verdicts", lims.buf, *have ? have : "none");
	free(have);
	strbuf_release(&lims);
	return why;
}

int corr_slo_resolve(struct corr_slo *slo, const struct corr_set *s,
		     const char *origin)
{
	for (size_t i = 0; i < slo->n; i++) {
		struct corr_slo_limit *l = &slo->lim[i];
		int64_t id = corr_metric_id(s->store, l->metric);
		const struct db_name *d = id < 0 ? NULL :
			corr_dict_find(s->store, DB_DICT_METRICS, id, NULL);
		const char *unit;

		if (!d || !metric_paired(s, id)) {
			char *have = metrics_of(s);
			int rc = pc_error_set(PC_EINVALID, "%s: no pair has "
				"metric '%s' (the pairs' metrics: %s): a limit "
				"can only judge pairs of its metric", origin,
				l->metric, *have ? have : "none");

			free(have);
			return rc;
		}
		unit = d->extra ? d->extra : "";
		if (!*l->si && *unit && strcmp(unit, "1"))
			return pc_error_set(PC_EINVALID, "%s: '%s': give the "
				"limit a unit ('%s' is stored in %s)", origin,
				l->text, l->metric, unit);
		if (*l->si && strcmp(l->si, unit))
			return pc_error_set(PC_EINVALID, "%s: '%s': the limit "
				"is in %s, '%s' is stored in %s", origin,
				l->text, l->si, l->metric, *unit ? unit :
				"no unit");
		l->higher = l->op == '>' ? 1 : l->op == '<' ? 0 : d->higher;
		if (l->op == '=') {	/* the direction, said */
			char *t = xasprintf("%s%s%s", l->metric,
					    corr_slo_dir(l),
					    strchr(l->text, '=') + 1);

			free(l->text);
			l->text = t;
			l->op = l->higher ? '>' : '<';
		}
	}
	return 0;
}

const char *corr_slo_dir(const struct corr_slo_limit *l)
{
	return l->higher ? ">=" : "<=";
}

const char *corr_slo_cell_name(enum corr_slo_cell c)
{
	static const char *const names[SLO_NCELLS] = {
		"both meet", "both miss", "model meets, reference misses",
		"model misses, reference meets", "near the limit",
	};

	return c < SLO_NCELLS ? names[c] : "?";
}

double corr_slo_agreement(const struct corr_slo_counts *c)
{
	long agree = c->cell[SLO_BOTH_MEET] + c->cell[SLO_BOTH_MISS];
	long conf = agree + c->cell[SLO_MODEL_MEETS] +
		    c->cell[SLO_MODEL_MISSES];

	return conf ? (double)agree / (double)conf : NAN;
}

static double margin(double v, const struct corr_slo_limit *l)
{
	return l->higher ? (v - l->limit) / l->limit :
	       (l->limit - v) / l->limit;
}

/* Judge point p against limit l into k. */
static void judge(struct corr_slo_key *k, const struct corr_point *p,
		  const struct corr_slo_limit *l)
{
	int near;

	k->model_margin = margin(p->model, l);
	k->ref_margin = margin(p->ref, l);
	k->model_meets = k->model_margin >= 0;
	k->ref_meets = k->ref_margin >= 0;
	/* the rule of CORR_WITHIN_NOISE, with the limit for the model */
	if (p->ref_sd >= 0) {
		k->spread = 1;
		near = fabs(p->ref - l->limit) <= p->ref_sd;
	} else if (p->ref_min <= p->ref_max) {
		k->spread = 2;
		near = p->ref_min <= l->limit && l->limit <= p->ref_max;
	} else {
		k->spread = 0;
		near = 0;
	}
	if (near)
		k->cell = SLO_NEAR;
	else if (k->model_meets == k->ref_meets)
		k->cell = k->ref_meets ? SLO_BOTH_MEET : SLO_BOTH_MISS;
	else
		k->cell = k->model_meets ? SLO_MODEL_MEETS : SLO_MODEL_MISSES;
}

/* flips, then near-limit keys, each with the reference furthest across
 * the limit first; then the agreements, closest to the limit first */
static int rank(const struct corr_slo_key *k)
{
	return k->cell == SLO_MODEL_MEETS || k->cell == SLO_MODEL_MISSES ? 0 :
	       k->cell == SLO_NEAR ? 1 : 2;
}

static int key_cmp(const void *a, const void *b)
{
	const struct corr_slo_key *x = a, *y = b;
	const struct corr_point *p = x->p, *q = y->p;
	double dx = fabs(x->ref_margin), dy = fabs(y->ref_margin);
	int c;

	if (rank(x) != rank(y))
		return rank(x) - rank(y);
	if (dx != dy)
		return (rank(x) < 2) == (dx > dy) ? -1 : 1;
	if ((c = strcmp(p->workload, q->workload)) ||
	    (c = strcmp(p->op, q->op)))
		return c;
	return strcmp(p->metric, q->metric);
}

int corr_slo_judge(struct corr_slo_result *out, const struct corr_slo *slo,
		   const struct corr_set *s,
		   int (*keep)(const struct corr_point *p, void *arg),
		   void *arg, int skip_waived)
{
	memset(out, 0, sizeof(*out));
	if (!s->points)
		return pc_error_set(PC_EINVALID, "verdict agreement needs the "
				    "pairs' points (a slim set has none)");
	out->per = xcalloc(slo->n + 1, sizeof(*out->per));
	out->nper = slo->n;
	out->keys = xmalloc((s->n + 1) * sizeof(*out->keys));
	for (size_t i = 0; i < s->n; i++) {
		const struct corr_point *p = &s->points[i];
		struct corr_slo_key *k;
		size_t l;

		for (l = 0; l < slo->n; l++)
			if (!strcmp(slo->lim[l].metric, p->metric))
				break;
		if (l == slo->n || (keep && !keep(p, arg)))
			continue;
		if ((p->flags & (CORR_INVALID | CORR_NOISY_REF)) ||
		    (skip_waived && (p->flags & CORR_WAIVED))) {
			out->excluded++;
			continue;
		}
		k = &out->keys[out->nkeys++];
		memset(k, 0, sizeof(*k));
		k->point = i;
		k->p = p;
		k->lim = l;
		judge(k, p, &slo->lim[l]);
		out->all.cell[k->cell]++;
		out->per[l].cell[k->cell]++;
		out->all.keys++;
		out->per[l].keys++;
		out->all.no_spread += !k->spread;
		out->per[l].no_spread += !k->spread;
		out->nflips += rank(k) == 0;
		out->nnear += rank(k) == 1;
	}
	if (out->nkeys)
		qsort(out->keys, out->nkeys, sizeof(*out->keys), key_cmp);
	return 0;
}

void corr_slo_result_release(struct corr_slo_result *r)
{
	free(r->per);
	free(r->keys);
	memset(r, 0, sizeof(*r));
}
