/* Shared helpers of the measured-hardware importers (see hwutil.h). */
#include "importers/hwutil.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base/units.h"
#include "base/csv.h"
#include "base/error.h"
#include "base/util.h"

struct hwutil_kernel {
	char *name, *metric, *unit;
	double factor;		/* unit -> unit of the first instance */
	double *d;
	size_t n, cap;
	long line;
};

static void copy_trim(char *dst, size_t len, const char *s, size_t n)
{
	while (n && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	if (n >= len)
		n = len - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

void hwutil_split_unit(const char *hdr, char *name, size_t nlen,
		       char *unit, size_t ulen)
{
	size_t n = strlen(hdr);
	const char *open = NULL;
	char close;

	while (n && isspace((unsigned char)hdr[n - 1]))
		n--;
	close = n ? hdr[n - 1] : '\0';
	if (close == ')' || close == ']') {
		char want = close == ')' ? '(' : '[';

		for (size_t i = n - 1; i-- > 0;)
			if (hdr[i] == want) {
				open = hdr + i;
				break;
			}
	}
	if (!open) {
		copy_trim(name, nlen, hdr, n);
		unit[0] = '\0';
		return;
	}
	copy_trim(name, nlen, hdr, (size_t)(open - hdr));
	copy_trim(unit, ulen, open + 1, (size_t)(hdr + n - 1 - open - 1));
}

int hwutil_line_has(const char *head, const char *const *needles)
{
	const char *p = head;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		int all = 1;

		for (const char *const *n = needles; *n && all; n++) {
			size_t k = strlen(*n);

			all = 0;
			for (size_t i = 0; i + k <= len; i++)
				if (!memcmp(p + i, *n, k)) {
					all = 1;
					break;
				}
		}
		if (all)
			return 1;
		if (!nl)
			break;
		p = nl + 1;
	}
	return 0;
}

int hwutil_emit(struct imp_sink *s, long line, const char *op,
		const char *raw, const char *metric, double value,
		const char *unit)
{
	struct imp_record r;

	imp_record_init(&r);
	r.line = line;
	r.op = op;
	r.raw_name = raw;
	r.metric = metric;
	r.value = value;
	r.unit = unit;
	return s->emit(s, &r);
}

void hwutil_agg_init(struct hwutil_agg *a)
{
	memset(a, 0, sizeof(*a));
	hmap_init(&a->idx);
}

void hwutil_agg_release(struct hwutil_agg *a)
{
	for (size_t i = 0; i < a->n; i++) {
		free(a->k[i].name);
		free(a->k[i].metric);
		free(a->k[i].unit);
		free(a->k[i].d);
	}
	free(a->k);
	hmap_release(&a->idx);
	memset(a, 0, sizeof(*a));
}

static struct hwutil_kernel *agg_entry(struct hwutil_agg *a, const char *name,
				       const char *metric, const char *unit,
				       long line)
{
	char *key = xasprintf("%s\x1f%s", name, metric);
	struct hwutil_kernel *k;
	int64_t i;

	if (!hmap_get(&a->idx, key, &i)) {
		if (a->n == a->cap) {
			a->cap = a->cap ? a->cap * 2 : 64;
			a->k = xrealloc(a->k, a->cap * sizeof(*a->k));
		}
		i = (int64_t)a->n++;
		k = &a->k[i];
		memset(k, 0, sizeof(*k));
		k->name = xstrdup(name);
		k->metric = xstrdup(metric);
		k->unit = xstrdup(unit);
		k->line = line;
		hmap_put(&a->idx, key, i);
	}
	free(key);
	return &a->k[i];
}

int hwutil_agg_add(struct hwutil_agg *a, const char *name,
		   const char *metric, const char *unit, double value,
		   long line)
{
	struct hwutil_kernel *k = agg_entry(a, name, metric, unit, line);
	double f = 1;

	if (strcmp(k->unit, unit)) {
		const struct unit *u0 = units_resolve(k->unit);
		const struct unit *u1 = units_resolve(unit);

		if (!u0 || !u1 || strcmp(u0->dim, u1->dim))
			return pc_error_set(PC_EINVALID, "metric '%s' of '%s' "
				"in '%s' here but '%s' before", metric, name,
				unit, k->unit);
		f = u1->factor / u0->factor;
	}
	if (k->n == k->cap) {
		k->cap = k->cap ? k->cap * 2 : 16;
		k->d = xrealloc(k->d, k->cap * sizeof(*k->d));
	}
	k->d[k->n++] = value * f;
	return 0;
}

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return a < b ? -1 : a > b;
}

static int emit_kernel(struct hwutil_kernel *k, struct imp_sink *s)
{
	struct imp_record r;
	double sum = 0, ss = 0, mean;
	size_t n = k->n;

	qsort(k->d, n, sizeof(*k->d), cmp_double);
	for (size_t i = 0; i < n; i++)
		sum += k->d[i];
	mean = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (k->d[i] - mean) * (k->d[i] - mean);
	imp_record_init(&r);
	r.line = k->line;
	r.raw_name = k->name;
	r.metric = k->metric;
	r.unit = k->unit;
	r.value = r.mean = mean;
	r.total = sum;
	r.n = (double)n;
	r.min = k->d[0];
	r.max = k->d[n - 1];
	r.median = n % 2 ? k->d[n / 2] : (k->d[n / 2 - 1] + k->d[n / 2]) / 2;
	r.stddev = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
	return s->emit(s, &r);
}

int hwutil_agg_emit(struct hwutil_agg *a, struct imp_sink *s)
{
	int rc;

	for (size_t i = 0; i < a->n; i++)
		if ((rc = emit_kernel(&a->k[i], s)) < 0)
			return rc;
	return 0;
}

void hwutil_series_init(struct hwutil_series *s)
{
	memset(s, 0, sizeof(*s));
	s->max = -INFINITY;
	s->min = INFINITY;
}

void hwutil_series_add(struct hwutil_series *s, double t, double v)
{
	if (s->n == 0) {
		s->t0 = t;
	} else if (!isnan(t) && !isnan(s->tlast)) {
		s->integral += (v + s->vlast) / 2 * (t - s->tlast);
		s->dt_sum += t - s->tlast;
		s->nint++;
	}
	s->tlast = t;
	s->vlast = v;
	s->sum += v;
	s->sumsq += v * v;
	if (v > s->max)
		s->max = v;
	if (v < s->min)
		s->min = v;
	s->n++;
}

double hwutil_series_mean(const struct hwutil_series *s)
{
	return s->n ? s->sum / (double)s->n : NAN;
}

double hwutil_series_stddev(const struct hwutil_series *s)
{
	double m, var;

	if (s->n < 2)
		return s->n ? 0 : NAN;
	m = s->sum / (double)s->n;
	var = (s->sumsq - (double)s->n * m * m) / (double)(s->n - 1);
	return var > 0 ? sqrt(var) : 0;
}

static int name_is(const char *names, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = names; *p;) {
		const char *bar = strchr(p, '|');
		size_t len = bar ? (size_t)(bar - p) : strlen(p);

		if (len == n && !strncmp(p, name, n))
			return 1;
		if (!bar)
			break;
		p = bar + 1;
	}
	return 0;
}

int hwutil_cols_match(const struct csv *c, struct hwutil_col *cols,
		      size_t ncols)
{
	int found = 0;

	for (size_t i = 0; i < ncols; i++) {
		cols[i].idx = -1;
		cols[i].unit[0] = '\0';
	}
	for (size_t f = 0; f < c->nfields; f++) {
		char name[128], unit[24];

		hwutil_split_unit(c->fields[f], name, sizeof(name), unit,
				  sizeof(unit));
		for (size_t i = 0; i < ncols; i++) {
			if (cols[i].idx >= 0 || !name_is(cols[i].names, name))
				continue;
			cols[i].idx = (int)f;
			memcpy(cols[i].unit, unit, sizeof(unit));
			found += cols[i].required;
			break;
		}
	}
	return found;
}

const char *hwutil_cols_missing(const struct hwutil_col *cols,
				size_t ncols)
{
	for (size_t i = 0; i < ncols; i++)
		if (cols[i].required && cols[i].idx < 0)
			return cols[i].names;
	return NULL;
}

int hwutil_num(const struct csv *c, const struct hwutil_col *col,
	       double *out, int required)
{
	const char *s;

	if (col->idx < 0 || (size_t)col->idx >= c->nfields) {
		*out = NAN;
		if (!required)
			return 0;
		return pc_error_set(PC_EINVALID, "%s:%ld: column '%.*s' is "
				    "missing", c->path, c->line,
				    (int)strcspn(col->names, "|"), col->names);
	}
	s = c->fields[col->idx];
	if (csv_number(s, out) < 0)
		return pc_error_set(PC_EINVALID, "%s:%ld: column '%.*s': '%s' "
				    "is not a number", c->path, c->line,
				    (int)strcspn(col->names, "|"), col->names,
				    s);
	if (required && isnan(*out))
		return pc_error_set(PC_EINVALID, "%s:%ld: column '%.*s' is "
				    "empty", c->path, c->line,
				    (int)strcspn(col->names, "|"), col->names);
	return 0;
}

int hwutil_trace_finish(struct hwutil_agg *a, struct imp_sink *s,
			long memops, const char *path)
{
	int rc;

	if (a->n == 0)
		return pc_error_set(PC_EINVALID, "%s: the trace has no kernel "
				    "rows", path);
	if (memops) {
		char buf[32];

		snprintf(buf, sizeof(buf), "%ld", memops);
		if ((rc = s->meta(s, "memory_ops_skipped", buf)) < 0)
			return rc;
	}
	return hwutil_agg_emit(a, s);
}
