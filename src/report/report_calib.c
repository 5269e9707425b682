/* The report's "Calibration and held out" (see report_calib.h). */
#include "src/report/report_calib.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/html.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "db/calib.h"
#include "src/corr/corr_calib.h"
#include "src/corr/corrout.h"
#include "src/corr/correlate.h"
#include "src/report/report_model.h"

int report_calib_build(struct report *r, struct db *db)
{
	struct corr_calib *c;
	int rc, any = 0;

	if ((rc = db_calib_any(db, r->set->model.source, &any)) < 0 || !any)
		return rc;
	c = xcalloc(1, sizeof(*c));
	if ((rc = corr_calib_build(c, r->set, db, 0)) < 0 || !c->have) {
		free(c);
		return rc;
	}
	r->calib = c;
	return 0;
}

void report_calib_free(struct report *r)
{
	free(r->calib);
	r->calib = NULL;
}

static void cells(const struct stats_summary *s, char b[3][32])
{
	corrout_pct(b[0], 32, s->mape);
	corrout_pct(b[1], 32, s->bias);
	corrout_pct(b[2], 32, s->max_abs_err);
}

static void headline(struct strbuf *sb, const struct corr_calib *c)
{
	strbuf_addf(sb, "%ld of the pairs are points the model was calibrated "
		    "or trained on (%ld calibration mark%s: perfcorr mark "
		    "--list); the error on them says how well it was fitted, "
		    "the error on the %ld held out how well it predicts.",
		    c->ncal, c->marks, c->marks == 1 ? "" : "s", c->nheld);
	if (!c->nheld || !c->held.n)
		strbuf_addstr(sb, " No pair is held out: no number of this "
			      "report shows how well the model predicts.");
}

void report_calib_md(struct strbuf *sb, const struct report *r)
{
	const struct corr_calib *c = r->calib;
	char a[3][32], b[3][32];

	if (!c)
		return;
	cells(&c->cal, a);
	cells(&c->held, b);
	strbuf_addstr(sb, "## Calibration and held out\n\n");
	headline(sb, c);
	strbuf_addf(sb, "\n\n| pairs | of them | n | MAPE | bias | max \\|err\\| "
		    "|\n|---|--:|--:|--:|--:|--:|\n| calibration | %ld | %ld | %s "
		    "| %s | %s |\n| held out | %ld | %ld | %s | %s | %s |\n\n",
		    c->ncal, c->cal.n, a[0], a[1], a[2], c->nheld, c->held.n,
		    b[0], b[1], b[2]);
}

void report_calib_html(struct strbuf *sb, const struct report *r)
{
	const struct corr_calib *c = r->calib;
	struct strbuf h = STRBUF_INIT;
	char a[3][32], b[3][32];

	if (!c)
		return;
	cells(&c->cal, a);
	cells(&c->held, b);
	headline(&h, c);
	strbuf_addstr(sb, "<section id=\"calibration\">\n<h2>Calibration and "
		      "held out</h2>\n<p>");
	html_escape(sb, h.buf);
	strbuf_addf(sb, "</p>\n<table class=\"pts\">\n<thead><tr><th>pairs</th>"
		    "<th class=\"n\">of them</th><th class=\"n\">n</th><th "
		    "class=\"n\">MAPE</th><th class=\"n\">bias</th><th class="
		    "\"n\">max |err|</th></tr></thead>\n<tbody>\n<tr><td>"
		    "calibration</td><td class=\"n\">%ld</td><td class=\"n\">"
		    "%ld</td><td class=\"n\">%s</td><td class=\"n\">%s</td><td "
		    "class=\"n\">%s</td></tr>\n<tr><td>held out</td><td class="
		    "\"n\">%ld</td><td class=\"n\">%ld</td><td class=\"n\">%s"
		    "</td><td class=\"n\">%s</td><td class=\"n\">%s</td></tr>\n"
		    "</tbody>\n</table>\n</section>\n", c->ncal, c->cal.n, a[0],
		    a[1], a[2], c->nheld, c->held.n, b[0], b[1], b[2]);
	strbuf_release(&h);
}

void report_calib_json(struct strbuf *sb, const struct report *r)
{
	const struct corr_calib *c = r->calib;
	char *a, *b;

	if (!c)
		return;
	a = corrout_stats_json_str(&c->cal);
	b = corrout_stats_json_str(&c->held);
	strbuf_addf(sb, ",\n\"calibration\":{\"marks\":%ld,\"points\":%ld,"
		    "\"calibration\":%s,\"held_out_points\":%ld,\"held_out\":%s}",
		    c->marks, c->ncal, a, c->nheld, b);
	free(a);
	free(b);
}
