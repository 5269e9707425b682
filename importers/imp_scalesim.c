/*
 * scalesim: SCALE-Sim reports. v2/v3 COMPUTE_REPORT.csv (", "
 * separators, a trailing comma on every line, v3's extra "Total Cycles
 * (incl. prefetch)"), BANDWIDTH_REPORT.csv (words per cycle) and v1's
 * "<net>_cycles.csv" / "<net>_avg_bw.csv" (",\t"). LayerID is an index:
 * --topology FILE (the topology CSV) gives the layer names.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/csv.h"
#include "importers/importer.h"
#include "base/error.h"
#include "base/util.h"

/* compute-report columns -> metric and unit; other columns that end in
 * "BW" become <name>_bw metrics in words/cycle */
static const struct {
	const char *col, *metric, *unit;
} known[] = {
	{ "Total Cycles", "cycles", "cycles" },
	{ "Cycles", "cycles", "cycles" },
	{ "Total Cycles (incl. prefetch)", "cycles_incl_prefetch", "cycles" },
	{ "Stall Cycles", "stall_cycles", "cycles" },
	{ "Overall Util %", "utilization", "%" },
	{ "% Utilization", "utilization", "%" },
	{ "Mapping Efficiency %", "mapping_efficiency", "%" },
	{ "Compute Util %", "compute_utilization", "%" },
};

#define N_KNOWN (sizeof(known) / sizeof(known[0]))

struct col {
	int idx;
	char *metric;
	const char *unit;
};

struct layout {
	struct col *cols;
	size_t ncols, nfields;
	int id_col, by_name;	/* LayerID index, or v1's Layer names */
};

static int probe(const char *head, size_t len, const char *filename)
{
	(void)len;
	(void)filename;
	if (!strncmp(head, "LayerID,", 8) && (strstr(head, "Total Cycles") ||
					       strstr(head, " BW,")))
		return 94;
	if (!strncmp(head, "Layer,", 6) && (strstr(head, "Cycles,") ||
					     strstr(head, " BW,")))
		return 90;
	return 0;
}

/* "Avg IFMAP SRAM BW" -> "ifmap_sram_bw" */
static char *bw_metric(const char *col)
{
	char *m = xmalloc(strlen(col) + 1), *o = m;

	if (!strncmp(col, "Avg ", 4))
		col += 4;
	for (; *col; col++) {
		if (isalnum((unsigned char)*col))
			*o++ = (char)tolower((unsigned char)*col);
		else if (o > m && o[-1] != '_')
			*o++ = '_';
	}
	while (o > m && o[-1] == '_')
		o--;
	*o = '\0';
	return m;
}

static int header(struct layout *l, struct csv *c)
{
	l->id_col = csv_col(c, "LayerID");
	l->by_name = l->id_col < 0;
	if (l->by_name)
		l->id_col = csv_col(c, "Layer");
	if (l->id_col < 0)
		return pc_error_set(PC_EINVALID, "%s:%ld: no 'LayerID' or "
				    "'Layer' column", c->path, c->line);
	l->cols = xcalloc(c->nfields, sizeof(*l->cols));
	l->nfields = c->nfields;
	for (size_t f = 0; f < c->nfields; f++) {
		const char *name = util_trim(c->fields[f]);
		size_t k, n = strlen(name);

		for (k = 0; k < N_KNOWN; k++)
			if (!strcmp(name, known[k].col))
				break;
		if (k < N_KNOWN) {
			l->cols[l->ncols].metric = xstrdup(known[k].metric);
			l->cols[l->ncols].unit = known[k].unit;
		} else if (n > 2 && !strcmp(name + n - 2, "BW")) {
			l->cols[l->ncols].metric = bw_metric(name);
			l->cols[l->ncols].unit = "";
		} else {
			continue;
		}
		l->cols[l->ncols++].idx = (int)f;
	}
	if (!l->ncols)
		return pc_error_set(PC_EINVALID, "%s:%ld: no cycle, utilisation "
				    "or bandwidth column", c->path, c->line);
	return 0;
}

/* The topology CSV's first column, one name per layer. */
static int topology(const char *path, char ***names, size_t *n)
{
	FILE *fp;
	struct csv c;
	int rc, hdr = 0;

	if ((rc = util_fopen_regular(&fp, path, "topology")) < 0)
		return rc;
	csv_init(&c, fp, path);
	c.trim_space = 1;
	while ((rc = csv_read(&c)) > 0) {
		const char *name = util_trim(c.fields[0]);

		if (csv_blank(&c))
			continue;
		if (!hdr++) {
			if (strncmp(name, "Layer", 5))
				rc = pc_error_set(PC_EINVALID, "%s:%ld: expected "
					"a 'Layer name' or 'Layer' header",
					path, c.line);
			if (rc < 0)
				break;
			continue;
		}
		if (!*name) {
			rc = pc_error_set(PC_EINVALID, "%s:%ld: empty layer "
					  "name", path, c.line);
			break;
		}
		*names = xrealloc(*names, (*n + 1) * sizeof(**names));
		(*names)[(*n)++] = xstrdup(name);
	}
	csv_release(&c);
	fclose(fp);
	return rc < 0 ? rc : 0;
}

static int emit(struct imp_sink *sink, long line, const char *raw,
		const char *op, const char *metric, double v, const char *unit,
		unsigned flags)
{
	struct imp_record r;

	imp_record_init(&r);
	r.raw_name = raw;
	r.op = op;
	r.metric = metric;
	r.value = v;
	r.unit = unit;
	r.flags = flags;
	r.line = line;
	return sink->emit(sink, &r);
}

/* The layer's name: v1 names it; otherwise the topology or layer<ID>. */
static int layer_name(struct layout *l, struct csv *c, char **names,
		      size_t nnames, char *buf, size_t len, const char **out)
{
	const char *id = util_trim(c->fields[l->id_col]);
	long i;

	if (l->by_name) {
		*out = id;
		return *id ? 0 : pc_error_set(PC_EINVALID, "%s:%ld: empty "
					      "layer name", c->path, c->line);
	}
	if (util_parse_long(id, &i) < 0 || i < 0)
		return pc_error_set(PC_EINVALID, "%s:%ld: column 'LayerID': '%s'"
				    " is not a layer index", c->path, c->line,
				    id);
	if (names && (size_t)i >= nnames)
		return pc_error_set(PC_EINVALID, "%s:%ld: layer %ld is not in "
				    "the topology (%zu layers)", c->path,
				    c->line, i, nnames);
	if (names)
		*out = names[i];
	else {
		snprintf(buf, len, "layer%ld", i);
		*out = buf;
	}
	return 0;
}

static int row(struct layout *l, struct csv *c, struct imp_sink *sink,
	       char **names, size_t nnames, double *total)
{
	const char *name = NULL;
	char buf[32];
	double v;
	int rc;

	if (c->nfields != l->nfields)
		return pc_error_set(PC_EINVALID, "%s:%ld: expected %zu fields, "
				    "found %zu", c->path, c->line, l->nfields,
				    c->nfields);
	if ((rc = layer_name(l, c, names, nnames, buf, sizeof(buf), &name)))
		return rc;
	for (size_t i = 0; i < l->ncols; i++) {
		const char *s = c->fields[l->cols[i].idx];

		if (csv_number(s, &v) < 0 || isnan(v))
			return pc_error_set(PC_EINVALID, "%s:%ld: column '%s': "
				"'%s' is not a number", c->path, c->line,
				l->cols[i].metric, s);
		if (!strcmp(l->cols[i].metric, "cycles"))
			*total += v;
		if ((rc = emit(sink, c->line, name, NULL, l->cols[i].metric, v,
			       l->cols[i].unit, 0)) < 0)
			return rc;
	}
	return 0;
}

static int import(struct imp_input *in, struct imp_sink *sink)
{
	struct layout l;
	struct csv c;
	char **names = NULL;
	size_t nnames = 0;
	const char *topo = imp_opt(in, "topology");
	double total = 0;
	int rc = 0, hdr = 0, rows = 0;
	long last = 0;

	memset(&l, 0, sizeof(l));
	if (topo && (rc = topology(topo, &names, &nnames)) < 0)
		goto done;
	csv_init(&c, in->fp, in->path);
	c.whole = 1;	/* the tool ends every row: a cut one is refused */
	c.trim_space = 1;
	while ((rc = csv_read(&c)) > 0) {
		if (csv_blank(&c))
			continue;
		if (!hdr++)
			rc = header(&l, &c);
		else
			rc = row(&l, &c, sink, names, nnames, &total);
		if (rc < 0)
			break;
		rows += hdr > 1;
		last = c.line;
	}
	csv_release(&c);
	if (rc == 0 && !rows)
		rc = pc_error_set(PC_EINVALID, "%s: no layer rows", in->path);
	for (size_t i = 0; rc == 0 && i < l.ncols; i++)
		if (!strcmp(l.cols[i].metric, "cycles"))
			rc = emit(sink, last, NULL, "e2e", "cycles", total,
				  "cycles", IMP_DERIVED);
done:
	for (size_t i = 0; i < l.ncols; i++)
		free(l.cols[i].metric);
	free(l.cols);
	for (size_t i = 0; i < nnames; i++)
		free(names[i]);
	free(names);
	return rc < 0 ? rc : 0;
}

static const char *const opt_keys[] = { "topology", NULL };

const struct importer imp_scalesim = {
	.name = "scalesim",
	.kind = "perfsim",
	.desc = "SCALE-Sim v1/v2/v3 COMPUTE_REPORT / BANDWIDTH_REPORT CSV "
		"(--topology FILE names the layers)",
	.probe = probe,
	.import = import,
	.options = opt_keys,
};
