/* compare --points: the pairs as a table, largest |error| first (split
 * from cmd_compare.c). */
#include "src/corr/corrout.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"
#include "base/util.h"
#include "db/annot.h"
#include "src/corr/correlate.h"
#include "src/out/out.h"

static void flags_text(char *buf, size_t len, unsigned f)
{
	snprintf(buf, len, "%s%s%s%s%s%s%s%s",
		 f & CORR_UNVERIFIED ? "unverified " : "",
		 f & CORR_WITHIN_NOISE ? "noise " : "",
		 f & CORR_SOL_VIOLATION ? "SoL!" : "",
		 !(f & CORR_SOL_VIOLATION) ? "" :
		 (f & CORR_SOL_MODEL) && (f & CORR_SOL_REF) ? "(model+ref) " :
		 f & CORR_SOL_MODEL ? "(model) " : "(ref) ",
		 f & CORR_NOISY_REF ? "noisy-ref " : "",
		 f & CORR_INVALID ? "invalid " : "",
		 f & CORR_WAIVED ? "waived " : "",
		 f & CORR_CALIBRATION ? "calibration " : "");
	if (*buf)
		buf[strlen(buf) - 1] = 0;
}

void corrout_points_text(FILE *fp, const struct corr_set *s)
{
	static const char *const head[] = { "workload", "op", "metric",
		"model", "ref", "err", "ref cv", "flags", "annotation" };
	struct out_table *t = out_table_new(9, head);
	char m[32], r[32], e[32], cv[32], fl[128], *ann;
	const char *unit;

	for (int c = 3; c < 7; c++)
		out_table_right(t, c);
	for (size_t i = 0; i < s->n; i++) {
		const struct corr_point *p = &s->points[i];
		const char *row[9];

		ann = p->ann ? xasprintf("%s/%s: %s", p->ann->status,
					 p->ann->category, p->ann->note) :
			       xstrdup("");
		flags_text(fl, sizeof(fl), p->flags);
		row[0] = p->workload;
		row[1] = p->op;
		row[2] = p->metric;
		/* in units, as the TUI shows them ("10.09 µs"); the JSON
		 * keeps the SI numbers */
		unit = corr_metric_unit(s, p->metric);
		units_fmt(m, sizeof(m), p->model, unit, 0);
		units_fmt(r, sizeof(r), p->ref, unit, 0);
		row[3] = m;
		row[4] = r;
		row[5] = isnan(p->err) ? "- (ref is 0)" :
			 corrout_pct(e, sizeof(e), p->err);
		row[6] = corrout_pct(cv, sizeof(cv), p->ref != 0 ?
				     p->ref_sd / fabs(p->ref) : NAN);
		row[7] = fl;
		row[8] = ann;
		out_table_add(t, row);
		free(ann);
	}
	out_table_print(t, fp);
	out_table_free(t);
}
