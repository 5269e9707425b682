/*
 * perfcorr-csv: the native long-form CSV (docs/formats.md).
 * Header: workload,op,metric,value,unit plus optional n,stddev,min,max,
 * median,mean,raw_name,flags and param.<name> columns. The columns of
 * `export results` import back without loss: version, platform and
 * clock_hz are run facts (the same on every row), raw_value/raw_unit are
 * stored as they are (they must agree with value), flags are words;
 * run_id, source, kind and file are accepted and ignored.
 */
#include <stdlib.h>
#include <string.h>

#include "base/csv.h"
#include "importers/importer.h"
#include "importers/native.h"
#include "base/error.h"
#include "base/util.h"

enum col { C_WORKLOAD, C_OP, C_METRIC, C_VALUE, C_UNIT, C_N, C_STDDEV,
	   C_MIN, C_MAX, C_MEDIAN, C_MEAN, C_RAW_NAME, C_FLAGS, C_RAW_VALUE,
	   C_RAW_UNIT, C_VERSION, C_PLATFORM, C_CLOCK, N_COLS };

static const char *const col_names[N_COLS] = {
	"workload", "op", "metric", "value", "unit", "n", "stddev", "min",
	"max", "median", "mean", "raw_name", "flags", "raw_value", "raw_unit",
	"version", "platform", "clock_hz",
};

/* Columns of `export results` that carry no new information on import
 * (the source and kind come from the command line). */
static const char *const ignored[] = { "run_id", "source", "kind", "file",
	NULL };

static int probe(const char *head, size_t len, const char *filename)
{
	const char *p = head, *nl;

	(void)len;
	(void)filename;
	if (!strncmp(p, "\xef\xbb\xbf", 3))
		p += 3;
	while (*p == '\n' || *p == '\r')
		p++;
	nl = strpbrk(p, "\r\n");
	if (!nl)
		nl = p + strlen(p);
	/* the header line must name the four key columns */
	{
		char *line = xstrndup(p, (size_t)(nl - p));
		/* value/unit may be missing: import then names the column */
		int ok = strstr(line, "workload") && strstr(line, "metric") &&
			 strstr(line, "op");
		free(line);
		return ok ? 90 : 0;
	}
}

static int is_ignored(const char *name)
{
	for (int i = 0; ignored[i]; i++)
		if (!strcmp(ignored[i], name))
			return 1;
	return 0;
}

struct layout {
	int col[N_COLS];
	int *param_col;
	char **param_name;
	size_t nparams;
	size_t ncols;
};

static int read_header(struct csv *c, struct layout *l)
{
	int i;

	for (i = 0; i < N_COLS; i++)
		l->col[i] = -1;
	l->ncols = c->nfields;
	l->param_col = xcalloc(c->nfields, sizeof(*l->param_col));
	l->param_name = xcalloc(c->nfields, sizeof(*l->param_name));
	for (size_t f = 0; f < c->nfields; f++) {
		char *name = util_trim(c->fields[f]);

		for (i = 0; i < N_COLS; i++)
			if (!strcmp(name, col_names[i]))
				break;
		if (i < N_COLS) {
			if (l->col[i] >= 0)
				return pc_error_set(PC_EINVALID, "%s:%ld: column "
					"'%s' appears twice", c->path, c->line,
					name);
			l->col[i] = (int)f;
		} else if (!strncmp(name, "param.", 6) && name[6]) {
			l->param_col[l->nparams] = (int)f;
			l->param_name[l->nparams++] = xstrdup(name + 6);
		} else if (!is_ignored(name)) {
			return pc_error_set(PC_EINVALID, "%s:%ld: unknown column "
				"'%s' (expected workload, op, metric, value, "
				"unit, n, stddev, min, max, median, mean, "
				"raw_name, flags, raw_value, raw_unit, version, "
				"platform, clock_hz or param.NAME)", c->path,
				c->line,
				name);
		}
	}
	for (i = 0; i <= C_UNIT; i++)
		if (l->col[i] < 0)
			return pc_error_set(PC_EINVALID, "%s:%ld: missing column "
				"'%s'", c->path, c->line, col_names[i]);
	return 0;
}

static int number(struct csv *c, const char *col, const char *s, double *out,
		  int required)
{
	if (csv_number(s, out) < 0)
		return pc_error_set(PC_EINVALID, "%s:%ld: column '%s': '%s' is "
				    "not a number", c->path, c->line, col, s);
	if (required && *out != *out && *s && strspn(s, " \t") < strlen(s))
		return pc_error_set(PC_EINVALID, "%s:%ld: column '%s': '%s' is "
				    "not a value (a missing-value spelling: "
				    "leave the row out)", c->path, c->line, col,
				    s);
	if (required && *out != *out)
		return pc_error_set(PC_EINVALID, "%s:%ld: column '%s' is empty",
				    c->path, c->line, col);
	return 0;
}

static const char *field(struct csv *c, struct layout *l, int i)
{
	return l->col[i] >= 0 ? util_trim(c->fields[l->col[i]]) : "";
}

/* flags, raw value and unit, run facts: what an export adds. */
static int export_cols(struct csv *c, struct layout *l, struct imp_sink *sink,
		       struct native_run *run, struct imp_record *r)
{
	static const int facts[] = { C_VERSION, C_PLATFORM, C_CLOCK };
	char bad[32];
	int rc;

	if (native_flags(field(c, l, C_FLAGS), &r->flags, bad, sizeof(bad)))
		return pc_error_set(PC_EINVALID, "%s:%ld: column 'flags': "
			"unknown flag '%s' (expected %s)", c->path, c->line,
			bad, NATIVE_FLAG_WORDS);
	if (*field(c, l, C_RAW_VALUE)) {	/* raw unit "" = a count */
		if ((rc = number(c, "raw_value", field(c, l, C_RAW_VALUE),
				 &r->raw_value, 1)))
			return rc;
		r->raw_unit = field(c, l, C_RAW_UNIT);
	}
	for (size_t i = 0; i < sizeof(facts) / sizeof(*facts); i++)
		if ((rc = native_run_fact(run, sink, col_names[facts[i]],
					  field(c, l, facts[i]), c->path,
					  c->line)) < 0)
			return rc;
	return 0;
}

static int row(struct csv *c, struct layout *l, struct imp_sink *sink,
	       struct imp_param *params, struct native_run *run)
{
	struct imp_record r;
	double *stat[N_COLS] = { 0 };
	size_t np = 0;
	int rc, i;

	if (c->nfields != l->ncols)
		return pc_error_set(PC_EINVALID, "%s:%ld: expected %zu fields, "
				    "found %zu", c->path, c->line, l->ncols,
				    c->nfields);
	imp_record_init(&r);
	r.line = c->line;
	for (i = C_WORKLOAD; i <= C_METRIC; i++)
		if (!*util_trim(c->fields[l->col[i]]))
			return pc_error_set(PC_EINVALID, "%s:%ld: column '%s' "
				"is empty", c->path, c->line, col_names[i]);
	r.workload = c->fields[l->col[C_WORKLOAD]];
	r.op = c->fields[l->col[C_OP]];
	r.metric = c->fields[l->col[C_METRIC]];
	r.unit = util_trim(c->fields[l->col[C_UNIT]]);
	if ((rc = number(c, "value", c->fields[l->col[C_VALUE]], &r.value, 1)))
		return rc;
	stat[C_N] = &r.n;
	stat[C_STDDEV] = &r.stddev;
	stat[C_MIN] = &r.min;
	stat[C_MAX] = &r.max;
	stat[C_MEDIAN] = &r.median;
	stat[C_MEAN] = &r.mean;
	for (i = C_N; i <= C_MEAN; i++)
		if (l->col[i] >= 0 && (rc = number(c, col_names[i],
				c->fields[l->col[i]], stat[i], 0)))
			return rc;
	if (l->col[C_RAW_NAME] >= 0 && *c->fields[l->col[C_RAW_NAME]])
		r.raw_name = c->fields[l->col[C_RAW_NAME]];
	for (size_t p = 0; p < l->nparams; p++) {
		const char *v = util_trim(c->fields[l->param_col[p]]);

		if (!*v)
			continue;
		params[np].name = l->param_name[p];
		params[np++].value = v;
	}
	r.params = params;
	r.nparams = np;
	if ((rc = export_cols(c, l, sink, run, &r)) < 0)
		return rc;
	return sink->emit(sink, &r);
}

static int import(struct imp_input *in, struct imp_sink *sink)
{
	struct csv c;
	struct layout l = { 0 };
	struct imp_param *params = NULL;
	struct native_run run = { 0 };
	int rc, header = 0;

	csv_init(&c, in->fp, in->path);
	while ((rc = csv_read(&c)) > 0) {
		if (csv_blank(&c))
			continue;
		if (!header) {
			if ((rc = read_header(&c, &l)) < 0)
				break;
			params = xcalloc(l.nparams + 1, sizeof(*params));
			header = 1;
			continue;
		}
		/* what csv_cell neutralised on export comes back as it was */
		for (size_t i = 0; i < c.nfields; i++)
			csv_unquote_formula(c.fields[i]);
		if ((rc = row(&c, &l, sink, params, &run)) < 0)
			break;
	}
	if (rc == 0 && !header)
		rc = pc_error_set(PC_EINVALID, "%s: empty file", in->path);
	for (size_t p = 0; p < l.nparams; p++)
		free(l.param_name[p]);
	free(l.param_name);
	free(l.param_col);
	free(params);
	native_run_release(&run);
	csv_release(&c);
	return rc < 0 ? rc : 0;
}

const struct importer imp_perfcorr_csv = {
	.name = "perfcorr-csv",
	.kind = NULL,
	.desc = "perfcorr native long-form CSV (workload,op,metric,value,unit"
		",...)",
	.probe = probe,
	.import = import,
};
