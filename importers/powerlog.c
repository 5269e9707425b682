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

int powerlog_options(struct powerlog *p, const char *window_ms,
		     const char *on_short, double default_s, const char *why)
{
	double ms;

	p->window = default_s;
	snprintf(p->window_why, sizeof(p->window_why), "%s", why);
	if (window_ms) {
		if (util_parse_double(window_ms, &ms) < 0 || !(ms >= 0) ||
		    !isfinite(ms))
			return pc_error_set(PC_EUSAGE, "--opt sensor_window_ms="
				"'%s': expected a number of milliseconds >= 0 "
				"(0: instantaneous samples)", window_ms);
		p->window = ms / 1000;
		snprintf(p->window_why, sizeof(p->window_why),
			 "--opt sensor_window_ms");
	}
	if (!on_short || !strcmp(on_short, "refuse"))
		p->on_short = POWERLOG_SHORT_REFUSE;
	else if (!strcmp(on_short, "drop"))
		p->on_short = POWERLOG_SHORT_DROP;
	else if (!strcmp(on_short, "keep"))
		p->on_short = POWERLOG_SHORT_KEEP;
	else
		return pc_error_set(PC_EUSAGE, "--opt short_window='%s': "
				    "expected refuse, drop or keep", on_short);
	return 0;
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

/* The resolution (s) of gpu g's energy and the window it covers (*span,
 * s): the mean interval of its power samples, at least the sensor's
 * averaging window unless the energy is a counter's; NaN when the GPU
 * has no timed power samples (a counter alone is not checked). */
static double resolution(const struct powerlog *p, const struct powerlog_gpu *g,
			 double *span, int *is_window)
{
	const struct powerlog_metric *m = find(g, "power");
	double dt;

	*span = NAN;
	*is_window = 0;
	if (!m || !m->s.nint)
		return NAN;
	dt = m->s.dt_sum / (double)m->s.nint;
	*span = m->s.tlast - m->s.t0;
	if (isnan(g->energy) && p->window > dt) {
		*is_window = 1;
		return p->window;
	}
	return dt;
}

static int put_meta(struct imp_sink *sink, const char *key, double v)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.6g", v);
	return sink->meta(sink, key, buf);
}

/* The sensor limits (powerlog.h): metadata, then 1 when the energy is
 * to be dropped, <0 when it is refused. */
static int check_window(struct powerlog *p, struct imp_sink *sink)
{
	double res = NAN, span = NAN;
	int win = 0, rc;

	for (size_t i = 0; i < p->n; i++) {
		double s, r;
		int w;

		if (isnan(energy_of(p, &p->g[i])))
			continue;
		r = resolution(p, &p->g[i], &s, &w);
		if (isnan(r))
			continue;
		if (isnan(span) || s / r < span / res) {
			span = s;
			res = r;
			win = w;
		}
	}
	if ((rc = sink->meta(sink, "sensor_window_source", p->window_why)) < 0 ||
	    (rc = put_meta(sink, "sensor_window_s", p->window)) < 0)
		return rc;
	if (isnan(res))
		return 0;
	if (!p->no_integral &&	/* else the times are sample counts */
	    ((rc = put_meta(sink, "sensor_resolution_s", res)) < 0 ||
	     (rc = put_meta(sink, "energy_window_s", span)) < 0))
		return rc;
	if (span >= POWERLOG_MIN_RESOLUTIONS * res * (1 - 1e-9))
		return 0;
	switch (p->on_short) {
	case POWERLOG_SHORT_KEEP:
		return sink->meta(sink, "energy_window", "shorter than the "
			"sensor's limit: kept by --opt short_window=keep");
	case POWERLOG_SHORT_DROP:
		/* db/derive.c reads this: no tokens/J from this power */
		if ((rc = sink->meta(sink, "energy_window", "dropped: shorter "
			"than the sensor's limit (--opt short_window=drop)")) < 0)
			return rc;
		sink->warn(sink, "%s: energy not stored: the log covers %.3g "
			   "s, under %d x the sensor's %.3g s resolution",
			   p->path, span, POWERLOG_MIN_RESOLUTIONS, res);
		return 1;
	default:
		break;
	}
	if (p->no_integral)
		return pc_error_set(PC_EINVALID, "%s: an energy over %.0f "
			"samples is not a measurement: it needs %d sample "
			"intervals at least; log longer, or give --opt "
			"short_window=drop (power without energy) or =keep",
			p->path, span, POWERLOG_MIN_RESOLUTIONS);
	return pc_error_set(PC_EINVALID, "%s: an energy over %.3g s is not a "
		"measurement: the power sensor's resolution is %.3g s (%s) and "
		"an energy window needs %d of them (%.3g s); log a longer "
		"window, give --opt sensor_window_ms=N when the sensor averages "
		"over less, or --opt short_window=drop (power without energy) "
		"or =keep (stored, said in the run's metadata)", p->path, span,
		res, win ? p->window_why : "the mean sample interval",
		POWERLOG_MIN_RESOLUTIONS, POWERLOG_MIN_RESOLUTIONS * res);
}

int powerlog_emit(struct powerlog *p, struct imp_sink *sink)
{
	char op[64];
	double e = 0;
	int rc;

	if ((rc = check_window(p, sink)) < 0)
		return rc;
	if (rc == 1)	/* dropped: no energy, and no mean from it */
		for (size_t i = 0; i < p->n; i++)
			p->g[i].energy = NAN;
	if (rc == 1)
		p->no_integral = 1;

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
