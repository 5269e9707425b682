/* MLPerf LoadGen result collection (see mlperf.h). */
#include "importers/mlperf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "importers/fpstate.h"
#include "base/error.h"
#include "base/util.h"

void mlperf_init(struct mlperf *m)
{
	memset(m, 0, sizeof(*m));
	m->target_qps = NAN;
}

int mlperf_fp(struct mlperf *m, struct imp_sink *sink)
{
	struct fpstate f = { 0 };

	if (!strcmp(m->scenario, "Offline"))
		fpstate_note(&f, "request_rate", "inf");
	else if (!strcmp(m->scenario, "Server") && m->target_qps > 0)
		fpstate_num(&f, "request_rate", m->target_qps);
	else if (!strcmp(m->scenario, "SingleStream"))
		fpstate_note(&f, "concurrency", "1");
	fpstate_note(&f, "tool", "mlperf-loadgen");
	fpstate_note(&f, "tool_version", m->version);
	return fpstate_flush(&f, sink);
}

void mlperf_release(struct mlperf *m)
{
	free(m->r);
	mlperf_init(m);
}

static struct mlperf_rec *rec(struct mlperf *m, const char *metric,
			      const char *unit, long line, int *is_new)
{
	struct mlperf_rec *r;

	for (size_t i = 0; i < m->n; i++)
		if (!strcmp(m->r[i].metric, metric)) {
			*is_new = 0;
			return &m->r[i];
		}
	if (m->n == m->cap) {
		m->cap = m->cap ? m->cap * 2 : 32;
		m->r = xrealloc(m->r, m->cap * sizeof(*m->r));
	}
	r = &m->r[m->n++];
	snprintf(r->metric, sizeof(r->metric), "%s", metric);
	snprintf(r->unit, sizeof(r->unit), "%s", unit);
	r->value = r->mean = r->min = r->max = r->median = NAN;
	r->line = line;
	*is_new = 1;
	return r;
}

void mlperf_value(struct mlperf *m, const char *metric, const char *unit,
		  double v, long line)
{
	int is_new;
	struct mlperf_rec *r = rec(m, metric, unit, line, &is_new);

	if (is_new || isnan(r->value))
		r->value = v;
}

void mlperf_stat(struct mlperf *m, const char *metric, const char *which,
		 const char *unit, double v, long line)
{
	int is_new;
	struct mlperf_rec *r = rec(m, metric, unit, line, &is_new);
	double *dst = !strcmp(which, "min") ? &r->min :
		      !strcmp(which, "max") ? &r->max : &r->mean;

	if (isnan(*dst))
		*dst = v;
	if (dst == &r->mean && isnan(r->value))
		r->value = v;
}

int mlperf_percentile(struct mlperf *m, const char *metric, const char *pct,
		      const char *unit, double v, long line)
{
	char name[48], num[16];
	double p;

	if (util_parse_double(pct, &p) < 0 || p <= 0 || p >= 100)
		return -1;
	snprintf(num, sizeof(num), "%.4g", p);
	snprintf(name, sizeof(name), "%s_p%s", metric, num);
	mlperf_value(m, name, unit, v, line);
	if (p == 50) {
		int is_new;
		struct mlperf_rec *r = rec(m, metric, unit, line, &is_new);

		if (isnan(r->median))
			r->median = v;
	}
	return 0;
}

int mlperf_emit(struct mlperf *m, struct imp_sink *sink, const char *path)
{
	size_t emitted = 0;
	int rc;

	for (size_t i = 0; i < m->n; i++) {
		struct mlperf_rec *r = &m->r[i];
		struct imp_record ir;

		if (isnan(r->value))
			continue;	/* only a median (p50) was given */
		imp_record_init(&ir);
		ir.line = r->line;
		ir.op = "e2e";
		ir.metric = r->metric;
		ir.unit = r->unit;
		ir.value = r->value;
		if (!isnan(r->mean) || !isnan(r->min) || !isnan(r->max)) {
			ir.mean = r->mean;
			ir.min = r->min;
			ir.max = r->max;
			ir.median = r->median;
		}
		ir.flags = m->invalid ? IMP_INVALID : 0;
		if ((rc = sink->emit(sink, &ir)) < 0)
			return rc;
		emitted++;
	}
	if (!emitted)
		return pc_error_set(PC_EINVALID, "%s: no MLPerf results",
				    path);
	return 0;
}
