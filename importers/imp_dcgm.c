/*
 * dcgm-dmon: `dcgmi dmon -e <fieldIds> [-d ms]` text. Header "#Entity
 * NAME..." and a unit line "ID UNIT..." (units may be empty, so they are
 * matched to fields by column position), reprinted every 14 samples;
 * data rows "GPU 0 v v ..." split on blanks, N/A = missing. Energy is the
 * TOTEC (mJ, monotonic) difference; without TOTEC, power is integrated
 * with --opt interval_ms=N (the -d value; the text has no timestamps).
 * The sampling interval is recorded: the option's, else estimated from
 * TOTEC and the power samples (energy / sum of sample-pair means).
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/units.h"
#include "importers/hwutil.h"
#include "importers/importer.h"
#include "importers/lines.h"
#include "importers/powerlog.h"
#include "base/error.h"
#include "base/util.h"

#define MAX_FIELDS 64

static const struct {
	const char *field, *metric, *unit;
} fields[] = {
	{ "POWER", "power", "W" }, { "POWINST", "power_instant", "W" },
	{ "TMPTR", "temperature", "C" }, { "MMTMP", "memory_temperature", "C" },
	{ "GPUTL", "utilization", "%" }, { "MCUTL", "memory_utilization", "%" },
	{ "SMCLK", "sm_clock", "MHz" }, { "MMCLK", "memory_clock", "MHz" },
	{ "GRACT", "gr_engine_active", "ratio" },
	{ "SMACT", "sm_active", "ratio" }, { "SMOCC", "sm_occupancy", "ratio" },
	{ "TENSO", "tensor_active", "ratio" }, { "DRAMA", "dram_active", "ratio" },
	{ "FB_USED", "memory_used", "MiB" }, { "FBUSD", "memory_used", "MiB" },
};

static int probe(const char *head, size_t len, const char *filename)
{
	(void)len;
	(void)filename;
	return strstr(head, "#Entity") ? 89 : 0;
}

struct ctx {
	const char *path;
	char *name[MAX_FIELDS], *metric[MAX_FIELDS];
	char unit[MAX_FIELDS][16];
	size_t start[MAX_FIELDS];	/* column of each header name */
	size_t n;
	int totec, power, expect_units, named;
	int fake_time;			/* rows x 1 s, only to estimate */
	double interval;
	char *header;			/* the first header line */
	const char *window_ms, *on_short;	/* the sensor's --opt */
	struct powerlog pl;
	long rows;
};

static void free_fields(struct ctx *x)
{
	for (size_t i = 0; i < x->n; i++) {
		free(x->name[i]);
		free(x->metric[i]);
	}
	x->n = 0;
}

static int header(struct ctx *x, const char *line, long lineno)
{
	const char *p = line + strlen("#Entity");

	if (x->header) {
		if (strcmp(x->header, line))
			return pc_error_set(PC_EINVALID, "%s:%ld: the header "
				"changed (fields differ from the first header)",
				x->path, lineno);
		x->expect_units = 1;
		return 0;
	}
	x->header = xstrdup(line);
	x->totec = x->power = -1;
	while (*p) {
		const char *s;

		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		if (x->n == MAX_FIELDS)
			return pc_error_set(PC_EINVALID, "%s:%ld: more than %d "
				"fields", x->path, lineno, MAX_FIELDS);
		s = p;
		while (*p && !isspace((unsigned char)*p))
			p++;
		x->start[x->n] = (size_t)(s - line);
		x->name[x->n] = xstrndup(s, (size_t)(p - s));
		x->metric[x->n] = NULL;
		x->unit[x->n][0] = '\0';
		if (!strcmp(x->name[x->n], "TOTEC"))
			x->totec = (int)x->n;
		for (size_t k = 0; k < sizeof(fields) / sizeof(*fields); k++)
			if (!strcmp(fields[k].field, x->name[x->n])) {
				x->metric[x->n] = xstrdup(fields[k].metric);
				snprintf(x->unit[x->n], sizeof(x->unit[0]),
					 "%s", fields[k].unit);
			}
		if (!strcmp(x->name[x->n], "POWER") ||
		    (x->power < 0 && !strcmp(x->name[x->n], "POWINST")))
			x->power = (int)x->n;
		x->n++;
	}
	if (!x->n)
		return pc_error_set(PC_EINVALID, "%s:%ld: no fields in the "
				    "header", x->path, lineno);
	x->expect_units = 1;
	return 0;
}

/* The unit line: tokens matched to the field whose name starts at or
 * before the token's column. */
static int unit_line(struct ctx *x, const char *line, long lineno)
{
	const char *p = line;

	while (*p && !isspace((unsigned char)*p))
		p++;		/* "ID" */
	x->expect_units = 0;
	while (*p) {
		const char *s;
		size_t col;
		int f = -1;
		char tok[16];

		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		s = p;
		while (*p && !isspace((unsigned char)*p))
			p++;
		col = (size_t)(s - line);
		for (size_t i = 0; i < x->n; i++)
			if (x->start[i] <= col)
				f = (int)i;
		if (f < 0)
			return pc_error_set(PC_EINVALID, "%s:%ld: unit '%.*s' "
				"before the first field", x->path, lineno,
				(int)(p - s), s);
		snprintf(tok, sizeof(tok), "%.*s", (int)(p - s), s);
		/* a known field in another unit would be read in its own */
		if (x->metric[f] && f != x->totec && x->unit[f][0] &&
		    strcasecmp(tok, x->unit[f]))
			return pc_error_set(PC_EINVALID, "%s:%ld: field '%s': "
				"unit '%s', but dcgmi dmon writes '%s' (convert "
				"the column to %s and write that unit)",
				x->path, lineno, x->name[f], tok, x->unit[f],
				x->unit[f]);
		if (!x->metric[f] && units_lookup(tok))
			snprintf(x->unit[f], sizeof(x->unit[0]), "%s", tok);
		if (f == x->totec)
			snprintf(x->unit[f], sizeof(x->unit[0]), "%s", tok);
	}
	return 0;
}

static void name_metrics(struct ctx *x)
{
	for (size_t i = 0; i < x->n; i++) {
		if (x->metric[i])
			continue;
		x->metric[i] = xstrdup(x->name[i]);
		for (char *p = x->metric[i]; *p; p++)
			*p = (char)tolower((unsigned char)*p);
	}
	if (x->power >= 0 && strcmp(x->metric[x->power], "power")) {
		free(x->metric[x->power]);	/* POWINST when no POWER */
		x->metric[x->power] = xstrdup("power");
	}
	if (x->totec >= 0 && !x->unit[x->totec][0])
		snprintf(x->unit[x->totec], sizeof(x->unit[0]), "mJ");
}

static int data_row(struct ctx *x, char *line, long lineno)
{
	char *tok[MAX_FIELDS + 3], *save = NULL, gpu[64];
	size_t n = 0;
	double t = NAN, v;
	int rc;

	for (char *s = strtok_r(line, " \t", &save); s;
	     s = strtok_r(NULL, " \t", &save))
		if (n < MAX_FIELDS + 3)
			tok[n++] = s;
	if (n != x->n + 2)
		return pc_error_set(PC_EINVALID, "%s:%ld: expected %zu values "
				    "after the entity, found %zu", x->path,
				    lineno, x->n, n < 2 ? 0 : n - 2);
	snprintf(gpu, sizeof(gpu), "%s%s", strcmp(tok[0], "GPU") ? tok[0] :
		 "", tok[1]);
	for (char *p = gpu; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	if ((rc = powerlog_row(&x->pl, gpu, &t, x->interval, x->path,
			       lineno)) < 0)
		return rc;
	for (size_t i = 0; i < x->n; i++) {
		const char *s = tok[i + 2];

		if (!strcmp(s, "N/A"))
			continue;
		if (util_parse_double(s, &v) < 0)
			return pc_error_set(PC_EINVALID, "%s:%ld: field '%s': "
				"'%s' is not a number", x->path, lineno,
				x->name[i], s);
		if ((int)i == x->totec) {
			const struct unit *u = units_lookup(x->unit[i]);

			if (!u || strcmp(u->dim, "energy"))
				return pc_error_set(PC_EINVALID, "%s: TOTEC unit "
					"'%s' is not an energy unit", x->path,
					x->unit[i]);
			rc = powerlog_counter(&x->pl, gpu, v, u->factor,
					      x->path, lineno);
			if (rc < 0)
				return rc;
			continue;
		}
		powerlog_sample(&x->pl, gpu, x->metric[i], x->unit[i], t, v,
				lineno);
	}
	x->rows++;
	return 0;
}

static int line_of(struct ctx *x, char *buf, long lineno)
{
	char *p = buf;

	while (isspace((unsigned char)*p))
		p++;
	if (!*p || strstr(p, "dmon was stopped"))
		return 0;
	if (!strncmp(p, "#Entity", 7))
		return header(x, p, lineno);
	if (!x->header)
		return pc_error_set(PC_EINVALID, "%s:%ld: data before the "
				    "'#Entity' header", x->path, lineno);
	if (x->expect_units && !strncmp(p, "ID", 2) &&
	    (!p[2] || isspace((unsigned char)p[2]))) {
		int rc = unit_line(x, p, lineno);

		if (!rc && !x->named) {
			x->named = 1;
			name_metrics(x);
		}
		return rc;
	}
	if (x->expect_units)
		return pc_error_set(PC_EINVALID, "%s:%ld: expected the unit line "
				    "('ID ...') after the header", x->path,
				    lineno);
	return data_row(x, p, lineno);
}

/* The sampling interval: the option's, else estimated per GPU as the
 * TOTEC energy over the sum of sample-pair mean powers (rows 1 s apart). */
static double estimate_interval(const struct ctx *x)
{
	double sum = 0;
	long n = 0;

	for (size_t i = 0; i < x->pl.n; i++) {
		const struct powerlog_gpu *g = &x->pl.g[i];

		for (size_t j = 0; j < g->n; j++)
			if (!strcmp(g->m[j].name, "power") &&
			    g->m[j].s.integral > 0 && !isnan(g->energy)) {
				sum += g->energy / g->m[j].s.integral;
				n++;
			}
	}
	return n ? sum / (double)n : NAN;
}

static int finish_log(struct ctx *x, struct imp_sink *sink)
{
	char buf[64];
	double dt = x->fake_time ? estimate_interval(x) : x->interval;
	int rc = 0;

	if (!x->rows)
		return pc_error_set(PC_EINVALID, "%s: no samples", x->path);
	if (!isnan(dt)) {
		snprintf(buf, sizeof(buf), "%.6g", dt);
		rc = sink->meta(sink, "sample_interval_s", buf);
		if (!rc)
			rc = sink->meta(sink, "sample_interval_source",
					x->fake_time ? "estimated from TOTEC" :
					"--opt interval_ms");
	}
	if (x->totec < 0 && isnan(x->interval))
		sink->warn(sink, "%s: no TOTEC field and no --opt interval_ms: "
			   "power only, no energy", x->path);
	if (!rc && x->power >= 0 && !strcmp(x->name[x->power], "POWINST"))
		rc = powerlog_options(&x->pl, x->window_ms, x->on_short, 0,
				      "DCGM POWINST: instantaneous samples");
	if (!rc)
		rc = powerlog_emit(&x->pl, sink);
	return rc;
}

/* A line; once a header with TOTEC and no interval is known, the
 * interval is estimated (samples 1 s apart, energy from TOTEC only). */
static int log_line(void *arg, long line, char *buf)
{
	struct ctx *x = arg;
	int rc = line_of(x, buf, line);

	if (rc >= 0 && x->header && !x->fake_time && isnan(x->interval) &&
	    x->totec >= 0) {
		x->fake_time = 1;	/* estimate the interval */
		x->interval = 1;
		x->pl.no_integral = 1;
	}
	return rc;
}

static int import(struct imp_input *in, struct imp_sink *sink)
{
	struct ctx x;
	const char *iv = imp_opt(in, "interval_ms");
	double ms;
	int rc;

	memset(&x, 0, sizeof(x));
	x.path = in->path;
	x.interval = NAN;
	powerlog_init(&x.pl);
	x.pl.path = in->path;
	x.window_ms = imp_opt(in, "sensor_window_ms");
	x.on_short = imp_opt(in, "short_window");
	/* field 155, NVML's power usage: a 1 s average on Ampere and Hopper
	 * (docs/importers.md, "Sensor limits") */
	if ((rc = powerlog_options(&x.pl, x.window_ms, x.on_short, 1,
			"DCGM POWER: a 1 s average on Ampere/Hopper")) < 0)
		return rc;
	if (iv) {
		if (util_parse_double(iv, &ms) < 0 || !(ms > 0))
			return pc_error_set(PC_EUSAGE, "--opt interval_ms='%s': "
					    "expected a positive number", iv);
		x.interval = ms / 1000;
	}
	rc = lines_each_whole(in, log_line, &x);
	if (rc > 0)
		rc = 0;
	if (rc == 0 && !x.header)
		rc = pc_error_set(PC_EINVALID, "%s: no '#Entity' header",
				  in->path);
	if (rc == 0)
		rc = finish_log(&x, sink);
	free(x.header);
	free_fields(&x);
	powerlog_release(&x.pl);
	return rc < 0 ? rc : 0;
}

static const char *const opt_keys[] = { "interval_ms", "sensor_window_ms",
					 "short_window", NULL };

const struct importer imp_dcgm = {
	.name = "dcgm-dmon",
	.kind = "silicon",
	.desc = "DCGM dcgmi dmon text: power, TOTEC energy, utilisation per "
		"GPU",
	.probe = probe,
	.import = import,
	.options = opt_keys,
};
