/*
 * vcs: the Synopsys VCS simulation report ("V C S   S i m u l a t i o n
 * R e p o r t" then "Time: 102 ns"). The simulated time becomes time on
 * op e2e; "CPU Time" is the host's and is not imported.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "importers/importer.h"
#include "importers/lines.h"
#include "base/error.h"

static int probe(const char *head, size_t len, const char *filename)
{
	(void)len;
	(void)filename;
	return strstr(head, "V C S   S i m u l a t i o n   R e p o r t") ?
	       84 : 0;
}

static int import(struct imp_input *in, struct imp_sink *sink)
{
	struct lines l;
	struct imp_record r;
	char *s, unit[8];
	int rc, report = 0, found = 0;

	lines_init(&l, in->fp, in->path);
	l.whole = 1;	/* every line ends: a cut last line is refused */
	while ((rc = lines_read(&l, &s)) > 0) {
		const char *v;
		double t;

		if (strstr(s, "V C S   S i m u l a t i o n   R e p o r t")) {
			report = 1;
			continue;
		}
		if (!report || !(v = lines_after(s, "Time:")))
			continue;
		if (lines_quantity(v, &t, unit, sizeof(unit), NULL) < 0 ||
		    t < 0) {
			rc = pc_error_set(PC_EINVALID, "%s:%ld: 'Time': '%s' is "
					  "not a simulated time", l.path,
					  l.line, v);
			break;
		}
		if (!*unit) {
			rc = pc_error_set(PC_EINVALID, "%s:%ld: 'Time': no unit "
					  "after %g", l.path, l.line, t);
			break;
		}
		imp_record_init(&r);
		r.op = "e2e";
		r.metric = "time";
		r.value = t;
		r.unit = unit;
		r.line = l.line;
		found++;
		if ((rc = sink->emit(sink, &r)) < 0)
			break;
		report = 0;
	}
	if (rc == 0 && !found)
		rc = pc_error_set(PC_EINVALID, "%s: no 'Time: N unit' line in a "
				  "VCS simulation report", in->path);
	lines_release(&l);
	return rc < 0 ? rc : 0;
}

const struct importer imp_vcs = {
	.name = "vcs",
	.kind = "rtl",
	.desc = "Synopsys VCS simulation report (Time: N ns)",
	.probe = probe,
	.import = import,
};
