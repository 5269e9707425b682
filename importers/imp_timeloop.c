/*
 * timeloop: timeloop-model.stats.txt / timeloop-mapper.stats.txt. The
 * "Summary Stats" block gives cycles, energy (uJ), utilisation and
 * "Computes = N" (MACs); the Operational Intensity section's "Total ops"
 * gives FLOPs; the Total of the fJ/Compute (older: pJ/Compute) table
 * gives the energy per compute. All on op e2e. Timeloop's cycles have
 * no clock of their own ("GFLOPs (@1GHz)" assumes one): use --clock-mhz.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "importers/importer.h"
#include "importers/lines.h"
#include "base/error.h"
#include "base/util.h"

struct state {
	struct imp_sink *sink;
	struct lines *l;
	int summary, per_compute, results;
	char pc_unit[8];	/* "fJ" or "pJ" per compute */
};

static int probe(const char *head, size_t len, const char *filename)
{
	(void)len;
	(void)filename;
	if (strstr(head, "Summary Stats\n-------------") ||
	    strstr(head, "GFLOPs (@1GHz)") ||
	    (strstr(head, "=== ") && (strstr(head, "Op per Byte") ||
				      strstr(head, "Total scalar accesses"))))
		return 88;
	return 0;
}

static int put(struct state *st, const char *metric, double v,
	       const char *unit)
{
	struct imp_record r;

	imp_record_init(&r);
	r.op = "e2e";
	r.metric = metric;
	r.value = v;
	r.unit = unit;
	r.line = st->l->line;
	st->results++;
	return st->sink->emit(st->sink, &r);
}

/* "<number>[ unit]" after a label; the unit is checked by the writer. */
static int value(struct state *st, const char *label, const char *s,
		 const char *metric, const char *unit)
{
	const char *end;
	char u[16];
	double x;

	if (lines_number(s, &x, &end, 0) < 0)
		return pc_error_set(PC_EINVALID, "%s:%ld: '%s': '%s' is not a "
				    "number", st->l->path, st->l->line, label,
				    s);
	while (*end == ' ')
		end++;
	if (unit && *end)
		return pc_error_set(PC_EINVALID, "%s:%ld: '%s': '%s' is not a "
				    "number", st->l->path, st->l->line, label,
				    s);
	if (!unit) {
		snprintf(u, sizeof(u), "%s", end);
		unit = util_trim(u);
	}
	return put(st, metric, x, unit);
}

static int summary_line(struct state *st, const char *s)
{
	const char *v;

	if ((v = lines_after(s, "Cycles:")) != NULL)
		return value(st, "Cycles", v, "cycles", "cycles");
	if ((v = lines_after(s, "Energy:")) != NULL)
		return value(st, "Energy", v, "energy", NULL);
	if ((v = lines_after(s, "Utilization:")) != NULL)
		return value(st, "Utilization", v, "utilization", NULL);
	if ((v = lines_after(s, "Computes =")) != NULL)
		return value(st, "Computes", v, "macs", "");
	if (lines_after(s, "fJ/Compute") || lines_after(s, "pJ/Compute")) {
		snprintf(st->pc_unit, sizeof(st->pc_unit), "%.2s",
			 lines_after(s, ""));
		st->per_compute = 1;
		return 0;
	}
	if (st->per_compute && (v = lines_after(s, "Total")) != NULL &&
	    *v == '=')
		return value(st, "Total", v + 1, "energy_per_compute",
			     st->pc_unit);
	return 0;
}

static int line(struct state *st, const char *s)
{
	const char *v;

	if (!strcmp(s, "Summary Stats")) {
		st->summary = 1;
		return 0;
	}
	if (!st->summary) {
		if ((v = lines_after(s, "Total ops")) != NULL && *v == ':')
			return value(st, "Total ops", v + 1, "flops", "FLOP");
		return 0;
	}
	return summary_line(st, s);
}

static int import(struct imp_input *in, struct imp_sink *sink)
{
	struct state st;
	struct lines l;
	char *s;
	int rc;

	memset(&st, 0, sizeof(st));
	st.sink = sink;
	st.l = &l;
	lines_init(&l, in->fp, in->path);
	l.whole = 1;	/* every line ends: a cut last line is refused */
	while ((rc = lines_read(&l, &s)) > 0)
		if ((rc = line(&st, s)) < 0)
			break;
	if (rc == 0 && !st.summary)
		rc = pc_error_set(PC_EINVALID, "%s: no 'Summary Stats' block",
				  in->path);
	lines_release(&l);
	return rc < 0 ? rc : 0;
}

const struct importer imp_timeloop = {
	.name = "timeloop",
	.kind = "perfsim",
	.desc = "Timeloop stats summary (cycles, energy, utilization)",
	.probe = probe,
	.import = import,
};
