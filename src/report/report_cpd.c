/* The HTML report's change points (see report_cpd.h). */
#include "src/report/report_cpd.h"

#include <string.h>

#include "base/html.h"
#include "base/strbuf.h"
#include "src/corr/corrcpd.h"
#include "src/corr/corrout.h"
#include "src/report/report_model.h"

/* The tag's class of a label: one colour per side that moved. */
static const char *label_class(const char *label)
{
	if (!strcmp(label, "model changed"))
		return "cpd-model";
	if (!strcmp(label, "reference moved"))
		return "cpd-ref";
	if (!strcmp(label, "both"))
		return "cpd-both";
	return "cpd-err";
}

static void td(struct strbuf *sb, const char *s)
{
	strbuf_addstr(sb, "<td class=\"n\">");
	html_escape(sb, s);
	strbuf_addstr(sb, "</td>");
}

int report_cpd_any(const struct report *r)
{
	return r->cpd && r->cpd->npoints >= CORR_CPD_MIN_VERSIONS &&
	       !r->cpd->why && r->cpd->nsteps > 0;
}

void report_cpd_cell(struct strbuf *sb, const struct report *r, size_t v)
{
	const char *l;

	if (!report_cpd_any(r))
		return;
	l = corr_cpd_label_at(r->cpd, v);
	if (!l) {
		strbuf_addstr(sb, "<td></td>");
		return;
	}
	strbuf_addf(sb, "<td class=\"cpd-at\"><span class=\"tag %s\">",
		    label_class(l));
	html_escape(sb, l);
	strbuf_addstr(sb, "</span></td>");
}

void report_cpd_html(struct strbuf *sb, const struct report *r)
{
	const struct corr_cpd *c = r->cpd;
	char b[48];

	if (!c || c->npoints < CORR_CPD_MIN_VERSIONS)
		return;
	strbuf_addstr(sb, "<h3 id=\"change-points\">Change points</h3>\n");
	if (c->why) {
		strbuf_addstr(sb, "<p class=\"note\">Change points not searched: ");
		html_escape(sb, c->why);
		strbuf_addstr(sb, ".</p>\n");
		return;
	}
	strbuf_addf(sb, "<p class=\"note\">E-Divisive means (permutation test:"
		    " alpha %g, %d permutations, seed %llu) on the error, model "
		    "and reference series of the %zu pair%s all %zu paired "
		    "versions hold; a step is labelled by the side whose own "
		    "series stepped there.</p>\n", c->opts.alpha,
		    c->opts.permutations, (unsigned long long)c->opts.seed,
		    c->common, c->common == 1 ? "" : "s", c->npoints);
	if (!c->nsteps) {
		strbuf_addf(sb, "<p class=\"cpd-none\">No change point: the best "
			    "split has p %.3g &gt; %g.</p>\n", c->p_stop,
			    c->opts.alpha);
		return;
	}
	strbuf_addstr(sb, "<table class=\"stats cpd\">\n<thead><tr><th>after"
		      "</th><th>step at</th><th class=\"n\">MAPE before</th>"
		      "<th class=\"n\">MAPE after</th><th class=\"n\">p</th>"
		      "<th>what moved</th></tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < c->nsteps; i++) {
		const struct corr_cpd_step *s = &c->steps[i];

		strbuf_addstr(sb, "<tr class=\"cpd-step\"><td>");
		html_escape(sb, r->versions[s->prev]);
		strbuf_addstr(sb, "</td><td>");
		html_escape(sb, r->versions[s->version]);
		strbuf_addstr(sb, "</td>");
		td(sb, corrout_pct(b, sizeof(b), s->mape_before));
		td(sb, corrout_pct(b, sizeof(b), s->mape_after));
		strbuf_addf(sb, "<td class=\"n\">%.3g</td><td><span class=\"tag "
			    "%s\">", s->p, label_class(s->label));
		html_escape(sb, s->label);
		strbuf_addstr(sb, "</span></td></tr>\n");
	}
	strbuf_addstr(sb, "</tbody>\n</table>\n");
}
