/* GPU telemetry series -> power, energy and utilisation (see powerlog.h). */
#include "importers/powerlog.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"

void powerlog_init(struct powerlog *p)
{
	memset(p, 0, sizeof(*p));
}

void powerlog_release(struct powerlog *p)
{
	for (size_t i = 0; i < p->n; i++) {
		for (size_t j = 0; j < p->g[i].n; j++)
			free(p->g[i].m[j].name);
		free(p->g[i].m);
		free(p->g[i].id);
	}
	free(p->g);
	powerlog_init(p);
}

static struct powerlog_gpu *gpu_of(struct powerlog *p, const char *id,
				   long line)
{
	struct powerlog_gpu *g;

	for (size_t i = 0; i < p->n; i++)
		if (!strcmp(p->g[i].id, id))
			return &p->g[i];
	p->g = xrealloc(p->g, (p->n + 1) * sizeof(*p->g));
	g = &p->g[p->n++];
	memset(g, 0, sizeof(*g));
	g->id = xstrdup(id);
	g->energy = g->e_first = g->e_last = g->t_last = NAN;
	g->line = line;
	return g;
}

static struct powerlog_metric *metric_of(struct powerlog_gpu *g,
					 const char *name, const char *unit)
{
	struct powerlog_metric *m;

	for (size_t i = 0; i < g->n; i++)
		if (!strcmp(g->m[i].name, name))
			return &g->m[i];
	g->m = xrealloc(g->m, (g->n + 1) * sizeof(*g->m));
	m = &g->m[g->n++];
	memset(m, 0, sizeof(*m));
	m->name = xstrdup(name);
	snprintf(m->unit, sizeof(m->unit), "%s", unit);
	m->sum = !strncmp(name, "power", 5) || !strcmp(name, "energy") ||
		 !strcmp(name, "memory_used") || !strcmp(name, "memory_total") ||
		 !strcmp(name, "memory_free");
	hwutil_series_init(&m->s);
	return m;
}

void powerlog_sample(struct powerlog *p, const char *gpu, const char *metric,
		     const char *unit, double t, double v, long line)
{
	struct powerlog_gpu *g = gpu_of(p, gpu, line);

	hwutil_series_add(&metric_of(g, metric, unit)->s, t, v);
}

int powerlog_row(struct powerlog *p, const char *gpu, double *t,
		 double interval, const char *path, long line)
{
	struct powerlog_gpu *g = gpu_of(p, gpu, line);

	if (isnan(*t) && interval > 0)
		*t = (double)g->rows * interval;
	if (!isnan(*t) && !isnan(g->t_last) && *t < g->t_last)
		return pc_error_set(PC_EINVALID, "%s:%ld: time goes backwards "
				    "for GPU '%s'", path, line, gpu);
	if (!isnan(*t))
		g->t_last = *t;
	g->rows++;
	return 0;
}

int powerlog_counter(struct powerlog *p, const char *gpu, double value,
		     double factor, const char *path, long line)
{
	struct powerlog_gpu *g = gpu_of(p, gpu, line);

	if (!isnan(g->e_last) && value < g->e_last)
		return pc_error_set(PC_EINVALID, "%s:%ld: the energy counter of "
			"'%s' goes backwards (%.17g after %.17g)", path,
			line, gpu, value, g->e_last);
	if (isnan(g->e_first))
		g->e_first = value;
	g->e_last = value;
	g->energy = (g->e_last - g->e_first) * factor;
	return 0;
}

static const struct powerlog_metric *find(const struct powerlog_gpu *g,
					  const char *name)
{
	for (size_t i = 0; i < g->n; i++)
		if (!strcmp(g->m[i].name, name))
			return &g->m[i];
	return NULL;
}

int powerlog_has_power(const struct powerlog *p)
{
	for (size_t i = 0; i < p->n; i++)
		if (find(&p->g[i], "power"))
			return 1;
	return 0;
}

double powerlog_interval(const struct powerlog *p)
{
	double dt = 0;
	long n = 0;

	for (size_t i = 0; i < p->n; i++) {
		const struct powerlog_metric *m = find(&p->g[i], "power");

		if (m && m->s.nint) {
			dt += m->s.dt_sum;
			n += m->s.nint;
		}
	}
	return n ? dt / (double)n : NAN;
}

static double energy_of(const struct powerlog *p, const struct powerlog_gpu *g)
{
	const struct powerlog_metric *m = find(g, "power");

	if (!isnan(g->energy))
		return g->energy;
	if (m && m->s.nint && !p->no_integral)
		return m->s.integral;	/* W x s */
	return NAN;
}

static int put(struct imp_sink *sink, const char *op, const char *metric,
	       const char *unit, double v, double n,
	       const struct hwutil_series *s, long line)
{
	struct imp_record r;

	imp_record_init(&r);
	r.line = line;
	r.op = op;
	r.metric = metric;
	r.unit = unit;
	r.value = v;
	r.n = n;
	if (s) {
		r.mean = v;
		r.min = s->min;
		r.max = s->max;
		r.stddev = hwutil_series_stddev(s);
	}
	return sink->emit(sink, &r);
}

/* The mean of a GPU's power: the samples' mean, or, when samples are
 * missing ([N/A] rows) and they have times, the time-weighted mean
 * energy / span, which a gap cannot bias. */
static double power_mean(const struct powerlog *p, const struct powerlog_gpu *g,
			 const struct powerlog_metric *m, int *weighted)
{
	double e = energy_of(p, g), span = m->s.tlast - m->s.t0;

	*weighted = 0;
	if (strcmp(m->name, "power") || m->s.n >= g->rows || isnan(e) ||
	    !(span > 0) || p->no_integral)
		return hwutil_series_mean(&m->s);
	*weighted = 1;
	return e / span;
}

static int emit_gpu(const struct powerlog *p, const struct powerlog_gpu *g,
		    struct imp_sink *sink, const char *op)
{
	double e = energy_of(p, g);
	int rc;

	for (size_t i = 0; i < g->n; i++) {
		const struct powerlog_metric *m = &g->m[i];

		if (!m->s.n)
			continue;
		int weighted;
		double v = power_mean(p, g, m, &weighted);

		if (weighted) {
			char note[96];

			snprintf(note, sizeof(note), "time-weighted (energy / "
				 "span: %ld of %ld samples missing)",
				 g->rows - m->s.n, g->rows);
			if ((rc = sink->meta(sink, "power_mean", note)) < 0)
				return rc;
		}
		rc = put(sink, op, m->name, m->unit, v, (double)m->s.n, &m->s,
			 g->line);
		if (rc < 0)
			return rc;
	}
	if (!isnan(e))
		return put(sink, op, "energy", "J", e, NAN, NULL, g->line);
	return 0;
}

/* The node ("e2e") value of metric name over all GPUs. */
static int emit_node_metric(const struct powerlog *p, const char *name,
			    struct imp_sink *sink)
{
	const struct powerlog_metric *m0 = NULL;
	double v = 0;
	long n = 0, gpus = 0;

	for (size_t i = 0; i < p->n; i++) {
		const struct powerlog_metric *m = find(&p->g[i], name);

		if (!m || !m->s.n)
			continue;
		m0 = m0 ? m0 : m;
		{
			int weighted;

			v += power_mean(p, &p->g[i], m, &weighted);
		}
		n += m->s.n;
		gpus++;
	}
	if (!m0 || (m0->sum && gpus != (long)p->n))
		return 0;	/* a sum needs every GPU */
	if (!m0->sum)
		v /= (double)gpus;
	return put(sink, "e2e", name, m0->unit, v, (double)n, NULL,
		   p->g[0].line);
}

int powerlog_emit(struct powerlog *p, struct imp_sink *sink)
{
	char op[64];
	double e = 0;
	int rc;

	if (p->n == 1)
		return emit_gpu(p, &p->g[0], sink, "e2e");
	for (size_t i = 0; i < p->n; i++) {
		snprintf(op, sizeof(op), "gpu%s", p->g[i].id);
		if ((rc = emit_gpu(p, &p->g[i], sink, op)) < 0)
			return rc;
		e += energy_of(p, &p->g[i]);
	}
	for (size_t i = 0; i < p->n; i++)
		for (size_t j = 0; j < p->g[i].n; j++) {
			const char *name = p->g[i].m[j].name;
			int seen = 0;

			for (size_t k = 0; k < i && !seen; k++)
				seen = find(&p->g[k], name) != NULL;
			if (!seen && (rc = emit_node_metric(p, name, sink)) < 0)
				return rc;
		}
	if (p->n && !isnan(e))
		return put(sink, "e2e", "energy", "J", e, NAN, NULL,
			   p->g[0].line);
	return 0;
}
