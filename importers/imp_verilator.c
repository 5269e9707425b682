/*
 * verilator: the end-of-simulation report of a Verilator-built model
 * ("- Verilator: $finish at 3us; walltime ...", newer releases "End at
 * simtime ..."). The simulated time becomes time on op e2e. Verilator
 * rounds it to whole units, so a cycle count printed by the testbench is
 * better (regex-log, chipyard): a warning says so. The run's cost: the
 * report's "walltime N s", meta "cost_s".
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "importers/importer.h"
#include "importers/lines.h"
#include "base/error.h"

static int probe(const char *head, size_t len, const char *filename)
{
	(void)len;
	(void)filename;
	if (strstr(head, "- S i m u l a t i o n   R e p o r t: Verilator") ||
	    strstr(head, "- Verilator: $finish at") ||
	    strstr(head, "- Verilator: End at"))
		return 85;
	return 0;
}

/* "<number><unit>" with the unit glued or after blanks. */
static int sim_time(const char *s, double *v, char *unit, size_t len)
{
	if (lines_quantity(s, v, unit, len, NULL) < 0 || *v < 0)
		return -1;
	return *unit ? 0 : -1;
}

/* "...; walltime 0.412 s; ...": the run's cost, when the line says it. */
static int walltime(struct lines *l, struct imp_sink *sink, const char *s)
{
	const char *w = strstr(s, "walltime ");
	char unit[8], v[32], src[192];
	const char *end;
	double t;
	int rc;

	if (!w)
		return 0;
	if (lines_quantity(w + 9, &t, unit, sizeof(unit), &end) < 0 || t < 0 ||
	    strcmp(unit, "s"))
		return pc_error_set(PC_EINVALID, "%s:%ld: 'walltime %.*s' is "
				    "not a number of seconds", l->path, l->line,
				    (int)strcspn(w + 9, ";"), w + 9);
	snprintf(src, sizeof(src), "%s:%ld walltime", l->path, l->line);
	snprintf(v, sizeof(v), "%.17g", t);
	if ((rc = sink->meta(sink, "cost_source", src)) < 0)
		return rc;
	return sink->meta(sink, "cost_s", v);
}

static int import(struct imp_input *in, struct imp_sink *sink)
{
	struct lines l;
	struct imp_record r;
	char *s, unit[8], *at;
	double t;
	int rc, found = 0;

	lines_init(&l, in->fp, in->path);
	l.whole = 1;	/* every line ends: a cut last line is refused */
	while ((rc = lines_read(&l, &s)) > 0) {
		const char *v;

		if ((v = lines_after(s, "- S i m u l a t i o n   R e p o r t:")))
			rc = sink->meta(sink, "simulator", v);
		if (rc < 0 || !lines_after(s, "- Verilator:"))
			continue;
		at = strstr(s, "$finish at ");
		at = at ? at + 11 : (at = strstr(s, "End at simtime ")) ?
		     at + 15 : (at = strstr(s, "End at ")) ? at + 7 : NULL;
		if (!at)
			continue;
		if (found++) {
			rc = pc_error_set(PC_EINVALID, "%s:%ld: a second "
					  "end-of-simulation line", l.path,
					  l.line);
			break;
		}
		if ((rc = walltime(&l, sink, s)) < 0)
			break;
		if (sim_time(at, &t, unit, sizeof(unit)) < 0) {
			rc = pc_error_set(PC_EINVALID, "%s:%ld: '%.*s' is not "
					  "a simulated time like 3us", l.path,
					  l.line, (int)strcspn(at, ";"), at);
			break;
		}
		sink->warn(sink, "%s:%ld: Verilator rounds the simulated time "
			   "to whole units (%.15g%s); a testbench cycle print is "
			   "more exact", l.path, l.line, t, unit);
		imp_record_init(&r);
		r.op = "e2e";
		r.metric = "time";
		r.value = t;
		r.unit = unit;
		r.line = l.line;
		if ((rc = sink->emit(sink, &r)) < 0)
			break;
	}
	if (rc == 0 && !found)
		rc = pc_error_set(PC_EINVALID, "%s: no '- Verilator: $finish at "
				  "...' line", in->path);
	lines_release(&l);
	return rc < 0 ? rc : 0;
}

const struct importer imp_verilator = {
	.name = "verilator",
	.kind = "rtl",
	.desc = "Verilator end-of-simulation report ($finish at <time>)",
	.probe = probe,
	.import = import,
};
