/*
 * nvidia-smi: `nvidia-smi --query-gpu=... --format=csv[,noheader]
 * [,nounits] -l 1 | -lms 100` logs. ", " separators; units in the header
 * ("power.draw [W]") and/or in each cell ("154.88 W"); [N/A] and
 * [Not Supported] are missing samples. Per GPU (index, else uuid): power
 * mean/max/stddev and energy by trapezoid integration over the
 * timestamps (power.draw.instant preferred, then power.draw, then
 * power.draw.average), utilisation, memory, clocks, temperature. Without
 * a header give the columns with --opt query=...; without timestamps the
 * interval with --opt interval_ms=N. A log without power is imported
 * with a warning (utilisation/memory only).
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"
#include "base/csv.h"
#include "importers/hwutil.h"
#include "importers/importer.h"
#include "importers/lines.h"
#include "importers/powerlog.h"
#include "base/error.h"
#include "base/util.h"

enum role { R_METRIC, R_TIME, R_GPU, R_NAME, R_TEXT, R_SKIP };

static const struct {
	const char *query, *metric;
} names[] = {
	{ "utilization.gpu", "utilization" },
	{ "utilization.memory", "memory_utilization" },
	{ "memory.used", "memory_used" }, { "memory.total", "memory_total" },
	{ "memory.free", "memory_free" },
	{ "temperature.gpu", "temperature" },
	{ "temperature.memory", "memory_temperature" },
	{ "clocks.current.sm", "sm_clock" }, { "clocks.sm", "sm_clock" },
	{ "clocks.current.memory", "memory_clock" },
	{ "clocks.mem", "memory_clock" },
	{ "clocks.current.graphics", "graphics_clock" },
	{ "clocks.gr", "graphics_clock" },
	{ "power.limit", "power_limit" },
	{ "enforced.power.limit", "enforced_power_limit" },
};

static const char *const powers[] = { "power.draw.instant", "power.draw",
				      "power.draw.average", NULL };

static const char *const text_cols[] = { "uuid", "pci.bus_id", "pstate",
	"driver_version", "serial", "vbios_version", "compute_mode",
	"persistence_mode", "display_mode", "gpu_name", NULL };

struct col {
	char name[64], unit[16], metric[64];
	enum role role;
	int numeric;		/* 1 seen a number, -1 text */
};

struct ctx {
	const char *path;
	struct col *c;
	size_t n;
	int gpu_col, power_col, platform_set;
	const char *window_ms, *on_short;	/* the sensor's --opt */
	double interval;	/* --opt interval_ms, s */
	long rows;
	struct powerlog pl;
};

static int probe(const char *head, size_t len, const char *filename)
{
	static const char *const a[] = { "power.draw", NULL };
	static const char *const b[] = { "utilization.gpu", NULL };
	static const char *const c[] = { "memory.used", ", ", NULL };

	(void)len;
	(void)filename;
	int y, mo, d, h, mi, sec;
	char sep[3];

	if (strstr(head, "#Entity"))
		return 0;
	if (hwutil_line_has(head, a) || hwutil_line_has(head, b) ||
	    hwutil_line_has(head, c))
		return 88;
	/* a noheader log: "2025/06/12 09:14:20.104, ..." */
	return sscanf(head, "%4d/%2d/%2d %2d:%2d:%2d.%*d%2c", &y, &mo, &d, &h,
		      &mi, &sec, sep) == 7 && sep[0] == ',' ? 60 : 0;
}

static const char *default_unit(const char *q)
{
	if (!strncmp(q, "power.", 6) || strstr(q, "power.limit"))
		return "W";
	if (!strncmp(q, "memory.", 7))
		return "MiB";
	if (!strncmp(q, "clocks.", 7))
		return "MHz";
	if (!strncmp(q, "utilization.", 12))
		return "%";
	if (!strncmp(q, "temperature.", 12))
		return "C";
	return "";
}

static int in_list(const char *const *l, const char *s)
{
	for (; *l; l++)
		if (!strcmp(*l, s))
			return 1;
	return 0;
}

static void classify(struct col *c)
{
	const char *q = c->name;

	snprintf(c->metric, sizeof(c->metric), "%s", q);
	for (char *p = c->metric; *p; p++)
		if (*p == '.')
			*p = '_';
	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
		if (!strcmp(names[i].query, q))
			snprintf(c->metric, sizeof(c->metric), "%s",
				 names[i].metric);
	if (!*c->unit)
		snprintf(c->unit, sizeof(c->unit), "%s", default_unit(q));
	c->role = !strcmp(q, "timestamp") ? R_TIME :
		  !strcmp(q, "index") ? R_GPU :
		  !strcmp(q, "name") ? R_NAME :
		  in_list(text_cols, q) ? R_TEXT : R_METRIC;
}

static int set_columns(struct ctx *x, char **fields, size_t n)
{
	int best = 99;

	x->c = xcalloc(n, sizeof(*x->c));
	x->n = n;
	x->gpu_col = x->power_col = -1;
	for (size_t i = 0; i < n; i++) {
		hwutil_split_unit(fields[i], x->c[i].name, sizeof(x->c[i].name),
				  x->c[i].unit, sizeof(x->c[i].unit));
		classify(&x->c[i]);
		if (x->c[i].role == R_GPU)
			x->gpu_col = (int)i;
		for (int k = 0; powers[k]; k++)
			if (!strcmp(x->c[i].name, powers[k]) && k < best) {
				best = k;
				x->power_col = (int)i;
			}
	}
	if (x->gpu_col < 0)
		for (size_t i = 0; i < n; i++)
			if (!strcmp(x->c[i].name, "uuid"))
				x->gpu_col = (int)i;
	for (size_t i = 0; i < n; i++)
		if (x->c[i].role == R_METRIC && !strncmp(x->c[i].name,
					"power.draw", 10))
			x->c[i].role = (int)i == x->power_col ? R_METRIC : R_SKIP;
	if (x->power_col >= 0)
		snprintf(x->c[x->power_col].metric,
			 sizeof(x->c[x->power_col].metric), "power");
	return 0;
}

static int is_header(const struct csv *c)
{
	for (size_t i = 0; i < c->nfields; i++) {
		const char *f = c->fields[i];

		if (!strcmp(f, "timestamp") || !strcmp(f, "index") ||
		    !strncmp(f, "power.", 6) || !strncmp(f, "utilization.", 12) ||
		    !strncmp(f, "memory.", 7) || !strncmp(f, "clocks.", 7) ||
		    !strncmp(f, "temperature.", 12))
			return 1;
	}
	return 0;
}

/* Days from 1970-01-01 of a proleptic Gregorian date. */
static long days_from_civil(long y, long m, long d)
{
	long era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

/* "2025/06/12 09:14:20.104" (local time; only differences matter). */
static int parse_time(const char *s, double *out)
{
	int y, mo, d, h, mi, n = 0;
	double sec;

	if (sscanf(s, "%d/%d/%d %d:%d:%lf%n", &y, &mo, &d, &h, &mi, &sec,
		   &n) != 6 || s[n] || mo < 1 || mo > 12 || d < 1 || d > 31 ||
	    h > 23 || mi > 59 || sec >= 61)
		return -1;
	*out = (double)days_from_civil(y, mo, d) * 86400.0 + h * 3600.0 +
	       mi * 60.0 + sec;
	return 0;
}

/* "154.88 W" -> 154.88 and unit "W"; 1 for a missing value. */
static int parse_cell(const char *s, double *v, char *unit, size_t ulen)
{
	const char *end;

	while (isspace((unsigned char)*s))
		s++;
	if (csv_is_missing(s) || *s == '[')
		return 1;	/* [N/A], [Not Supported], [Unknown Error] */
	if (lines_quantity(s, v, unit, ulen, &end) < 0)
		return -1;
	while (isspace((unsigned char)*end))
		end++;
	return *end ? -1 : 0;
}

static int cell(struct ctx *x, struct csv *c, size_t i, const char *gpu,
		double t)
{
	struct col *col = &x->c[i];
	char unit[16];
	double v;
	int rc = parse_cell(c->fields[i], &v, unit, sizeof(unit));

	if (rc == 1)
		return 0;
	if (rc < 0) {
		if (col->numeric == 0 && !*col->unit) {	/* a text column */
			col->numeric = -1;
			return 0;
		}
		return pc_error_set(PC_EINVALID, "%s:%ld: column '%s': '%s' is "
				    "not a number", c->path, c->line,
				    col->name, c->fields[i]);
	}
	col->numeric = 1;
	if (*unit && strcmp(unit, col->unit)) {
		const struct unit *u = units_lookup(unit);

		if (!u)
			return pc_error_set(PC_EINVALID, "%s:%ld: column '%s': "
				"unknown unit '%s'", c->path, c->line,
				col->name, unit);
		if (*col->unit)
			return pc_error_set(PC_EINVALID, "%s:%ld: column '%s': "
				"unit '%s' but the header says '%s'", c->path,
				c->line, col->name, unit, col->unit);
		snprintf(col->unit, sizeof(col->unit), "%s", unit);
	}
	if (*col->unit && !units_lookup(col->unit))
		return pc_error_set(PC_EINVALID, "%s:%ld: column '%s': unknown "
				    "unit '%s'", c->path, c->line, col->name,
				    col->unit);
	powerlog_sample(&x->pl, gpu, col->metric, col->unit, t, v, c->line);
	return 0;
}

static int row(struct ctx *x, struct csv *c, struct imp_sink *sink)
{
	const char *gpu = "0";
	double t = NAN;
	int rc;

	if (c->nfields != x->n)
		return pc_error_set(PC_EINVALID, "%s:%ld: expected %zu fields, "
				    "found %zu", c->path, c->line, x->n,
				    c->nfields);
	if (x->gpu_col >= 0 && !*(gpu = util_trim(c->fields[x->gpu_col])))
		return pc_error_set(PC_EINVALID, "%s:%ld: column '%s' is empty",
				    c->path, c->line, x->c[x->gpu_col].name);
	for (size_t i = 0; i < x->n; i++) {
		if (x->c[i].role == R_TIME &&
		    parse_time(util_trim(c->fields[i]), &t) < 0)
			return pc_error_set(PC_EINVALID, "%s:%ld: column "
				"'timestamp': '%s' is not YYYY/MM/DD "
				"HH:MM:SS.mmm", c->path, c->line, c->fields[i]);
		if (x->c[i].role == R_NAME && !x->platform_set) {
			x->platform_set = 1;
			if (*util_trim(c->fields[i]) &&
			    (rc = sink->meta(sink, "platform", c->fields[i])) < 0)
				return rc;
		}
	}
	if ((rc = powerlog_row(&x->pl, gpu, &t, x->interval, c->path,
			       c->line)) < 0)
		return rc;
	for (size_t i = 0; i < x->n; i++)
		if (x->c[i].role == R_METRIC && (rc = cell(x, c, i, gpu, t)) < 0)
			return rc;
	x->rows++;
	return 0;
}

static int options(struct ctx *x, struct imp_input *in)
{
	const char *iv = imp_opt(in, "interval_ms");
	double ms;
	int rc;

	x->interval = NAN;
	x->pl.path = in->path;
	x->window_ms = imp_opt(in, "sensor_window_ms");
	x->on_short = imp_opt(in, "short_window");
	if ((rc = powerlog_options(&x->pl, x->window_ms, x->on_short, 1,
			"nvidia-smi power.draw: a 1 s average on Ampere/Hopper")) < 0)
		return rc;
	if (iv) {
		if (util_parse_double(iv, &ms) < 0 || !(ms > 0))
			return pc_error_set(PC_EUSAGE, "--opt interval_ms='%s': "
					    "expected a positive number", iv);
		x->interval = ms / 1000;
	}
	return 0;
}

/* Columns from --opt query=a,b,c for a log written with noheader. */
static int query_columns(struct ctx *x, const char *q)
{
	char *copy = xstrdup(q), *save = NULL, *tok;
	char *f[256];
	size_t n = 0;

	for (tok = strtok_r(copy, ",", &save); tok && n < 256;
	     tok = strtok_r(NULL, ",", &save))
		f[n++] = util_trim(tok);
	set_columns(x, f, n);
	free(copy);
	return 0;
}

static int finish_log(struct ctx *x, struct imp_sink *sink)
{
	char buf[64];
	double dt = powerlog_interval(&x->pl);
	int rc = 0;

	if (!x->rows)
		return pc_error_set(PC_EINVALID, "%s: no samples", x->path);
	if (!powerlog_has_power(&x->pl))
		sink->warn(sink, "%s: no power.draw column: utilisation and "
			   "memory only, no power or energy", x->path);
	if (!isnan(dt)) {
		snprintf(buf, sizeof(buf), "%.6g", dt);
		rc = sink->meta(sink, "sample_interval_s", buf);
	}
	if (!rc && x->power_col >= 0)
		rc = sink->meta(sink, "power_column",
				x->c[x->power_col].name);
	/* power.draw is power.draw.average on current drivers: NVML's 1 s
	 * moving average on Ampere and Hopper (docs/importers.md, "Sensor
	 * limits"); .instant is the sample */
	if (!rc && x->power_col >= 0 &&
	    !strcmp(x->c[x->power_col].name, "power.draw.instant"))
		rc = powerlog_options(&x->pl, x->window_ms, x->on_short, 0,
			"nvidia-smi power.draw.instant: instantaneous samples");
	if (!rc)
		rc = powerlog_emit(&x->pl, sink);
	return rc;
}

static int import(struct imp_input *in, struct imp_sink *sink)
{
	struct csv c;
	struct ctx x;
	const char *query = imp_opt(in, "query");
	int rc;

	memset(&x, 0, sizeof(x));
	x.path = in->path;
	powerlog_init(&x.pl);
	if ((rc = options(&x, in)) < 0)
		return rc;
	if (query)
		query_columns(&x, query);
	csv_init(&c, in->fp, in->path);
	c.whole = 1;	/* the tool ends every row: a cut one is refused */
	c.trim_space = 1;
	while ((rc = csv_read(&c)) > 0) {
		if (csv_blank(&c))
			continue;
		if (is_header(&c)) {
			if (!x.c)
				set_columns(&x, c.fields, c.nfields);
			continue;	/* printed again by a restarted logger */
		}
		if (!x.c) {
			rc = pc_error_set(PC_EINVALID, "%s:%ld: no header line "
				"(--format=csv,noheader?): give the columns "
				"with --opt query=timestamp,index,power.draw,...",
				c.path, c.line);
			break;
		}
		if ((rc = row(&x, &c, sink)) < 0)
			break;
	}
	if (rc == 0)
		rc = finish_log(&x, sink);
	powerlog_release(&x.pl);
	free(x.c);
	csv_release(&c);
	return rc < 0 ? rc : 0;
}

static const char *const opt_keys[] = { "interval_ms", "query",
					 "sensor_window_ms", "short_window",
					 NULL };

const struct importer imp_nvsmi = {
	.name = "nvidia-smi",
	.kind = "silicon",
	.desc = "nvidia-smi --query-gpu --format=csv logs: power (trapezoid "
		"energy), utilisation, memory, clocks per GPU",
	.probe = probe,
	.import = import,
	.options = opt_keys,
};
