/* Statistic blocks of the serving and profiling stacks (see stacks.h). */
#include "importers/stacks.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/csv.h"
#include "base/units.h"
#include "base/util.h"

void stk_stat_init(struct stk_stat *s)
{
	memset(s, 0, sizeof(*s));
	s->mean = s->median = s->min = s->max = s->std = s->n = NAN;
}

static int is(const char *s, const char *const *names)
{
	for (; *names; names++)
		if (!strcmp(s, *names))
			return 1;
	return 0;
}

int stk_stat_set(struct stk_stat *s, const char *stat, double v)
{
	static const char *const mean[] = { "mean", "avg", "average", NULL };
	static const char *const min[] = { "min", "minimum", NULL };
	static const char *const max[] = { "max", "maximum", NULL };
	static const char *const std[] = { "std", "stdev", "stddev", NULL };
	static const char *const n[] = { "n", "count", NULL };
	double d;

	if (!strncmp(stat, "quantiles_", 10))
		stat += 10;
	if (is(stat, mean))
		s->mean = isnan(v) ? s->mean : v;
	else if (!strcmp(stat, "median"))
		s->median = isnan(v) ? s->median : v;
	else if (is(stat, min))
		s->min = isnan(v) ? s->min : v;
	else if (is(stat, max))
		s->max = isnan(v) ? s->max : v;
	else if (is(stat, std))
		s->std = isnan(v) ? s->std : v;
	else if (is(stat, n))
		s->n = isnan(v) ? s->n : v;
	else if ((stat[0] == 'p' || stat[0] == 'P') &&
		 util_parse_double(stat + 1, &d) == 0 && d >= 0 && d <= 100) {
		if (isnan(v) || s->npct == STK_MAX_PCT)
			return 0;
		snprintf(s->pct[s->npct].name, sizeof(s->pct[0].name), "p%s",
			 stat + 1);
		s->pct[s->npct++].v = v;
		if (d == 50 && isnan(s->median))
			s->median = v;
	} else {
		return 1;
	}
	return 0;
}

int stk_stat_any(const struct stk_stat *s)
{
	return !isnan(s->mean) || !isnan(s->median) || !isnan(s->min) ||
	       !isnan(s->max) || s->npct;
}

static void rec_init(struct stk_out *o, struct imp_record *r, const char *op,
		     const char *metric, double v, const char *unit)
{
	imp_record_init(r);
	r->line = o->line;
	r->op = op ? op : o->op ? o->op : "e2e";
	r->metric = metric;
	r->value = v;
	r->unit = unit;
	r->params = o->params;
	r->nparams = o->nparams;
}

int stk_scalar(struct stk_out *o, const char *op, const char *metric,
	       double value, const char *unit)
{
	struct imp_record r;

	if (isnan(value))
		return 0;
	rec_init(o, &r, op, metric, value, unit);
	o->emitted++;
	return o->sink->emit(o->sink, &r);
}

int stk_stat_emit(struct stk_out *o, const char *metric, const char *unit,
		  const struct stk_stat *s)
{
	struct imp_record r;
	double v = isnan(s->mean) ? s->median : s->mean;
	int rc;

	if (!isnan(v)) {
		rec_init(o, &r, NULL, metric, v, unit);
		r.mean = s->mean;
		r.median = s->median;
		r.min = s->min;
		r.max = s->max;
		r.stddev = s->std;
		r.n = s->n;
		/* a statistic outside [min, max] is the tool's rounding */
		if (!isnan(r.min) && !isnan(r.max) && r.min > r.max)
			r.min = r.max = NAN;
		o->emitted++;
		if ((rc = o->sink->emit(o->sink, &r)) < 0)
			return rc;
	}
	for (size_t i = 0; i < s->npct; i++) {
		char m[64];

		snprintf(m, sizeof(m), "%s_%s", metric, s->pct[i].name);
		if ((rc = stk_scalar(o, NULL, m, s->pct[i].v, unit)) < 0)
			return rc;
	}
	return 0;
}

int stk_number(const char *s, double *out)
{
	char buf[64], *t;
	size_t n = 0;

	for (; *s && n + 1 < sizeof(buf); s++)
		if (*s != '"')
			buf[n++] = *s;
	buf[n] = '\0';
	t = util_trim(buf);
	if (*s || !*t || strchr(t, '%') || csv_number(t, out) < 0 ||
	    isnan(*out))
		return -1;
	return 0;
}

void stk_params_add(struct stk_params *p, const char *name,
		    const char *value)
{
	if (p->n == sizeof(p->p) / sizeof(*p->p) ||
	    p->nown + 2 > sizeof(p->own) / sizeof(*p->own))
		return;
	p->own[p->nown] = xstrdup(name);
	p->p[p->n].name = p->own[p->nown++];
	p->own[p->nown] = xstrdup(value);
	p->p[p->n++].value = p->own[p->nown++];
}

void stk_params_release(struct stk_params *p)
{
	for (size_t i = 0; i < p->nown; i++)
		free(p->own[i]);
	memset(p, 0, sizeof(*p));
}

long stk_key_line(FILE *fp, const char *key)
{
	return stk_nth_key_line(fp, key, 0);
}

long stk_nth_key_line(FILE *fp, const char *key, long nth)
{
	char pat[128];
	long line = 1;
	size_t k = 0, n;
	int c;

	n = (size_t)snprintf(pat, sizeof(pat), "\"%s\"", key);
	if (n >= sizeof(pat))
		return 1;
	rewind(fp);
	/* a naive matcher is enough: the pattern starts with '"' */
	while ((c = getc(fp)) != EOF) {
		if (c == '\n')
			line++;
		if (c == pat[k]) {
			if (++k == n) {
				if (nth-- == 0)
					return line;
				k = 0;
			}
		} else {
			k = c == pat[0];
		}
	}
	return 1;
}

const char *stk_unit(const char *u, const char *dim, const char *per_sec)
{
	static const struct {
		const char *spell, *unit;
	} rates[] = {
		{ "tokens/sec", "tokens/s" }, { "tokens/s", "tokens/s" },
		{ "tok/s", "tokens/s" }, { "tps/user", "tokens/s" },
		{ "tps/gpu", "tokens/s" }, { "tokens/sec/user", "tokens/s" },
		{ "token/sec", "tokens/s" }, { "token_per_s", "tokens/s" },
		{ "req/sec", "req/s" }, { "requests/sec", "req/s" },
		{ "req/s", "req/s" }, { "seq/sec", "req/s" },
		{ "samples/s", "samples/s" }, { "samples/sec", "samples/s" },
	};
	const struct unit *x;

	if (!strcmp(dim, "rate")) {
		if (per_sec && !strcmp(u, "per sec"))
			return per_sec;
		for (size_t i = 0; i < sizeof(rates) / sizeof(*rates); i++)
			if (!strcmp(rates[i].spell, u))
				return rates[i].unit;
		return NULL;
	}
	if (!strcmp(dim, "count"))
		return !*u || !strcmp(u, "tokens") || !strcmp(u, "count") ||
		       !strcmp(u, "requests") ? "" : NULL;
	x = units_lookup(u);
	return x && !strcmp(x->dim, dim) ? x->name : NULL;
}
