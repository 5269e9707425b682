/* The report's flagged knob sweeps (see report_sens.h). */
#include "src/report/report_sens.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/html.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "src/corr/corr_sens.h"
#include "src/corr/correlate.h"
#include "src/report/report_model.h"

struct flagged {
	const struct corr_knob *k;
	const struct corr_sweep *w;
};

struct report_sens {
	struct corr_sens c;
	struct flagged *f;	/* worst first */
	size_t n;
};

static double gap(const struct flagged *f)
{
	return fabs(f->w->e_model - f->w->e_ref);
}

static int flagged_cmp(const void *a, const void *b)
{
	const struct flagged *x = a, *y = b;
	double dx = gap(x), dy = gap(y);
	int c;

	if (dx != dy)
		return dx > dy ? -1 : 1;
	if ((c = strcmp(x->k->knob, y->k->knob)) ||
	    (c = strcmp(x->k->op, y->k->op)) ||
	    (c = strcmp(x->k->metric, y->k->metric)))
		return c;
	return strcmp(x->w->fixed, y->w->fixed);
}

int report_sens_build(struct report *r, struct db *db)
{
	struct report_sens *s;
	int rc;

	if ((rc = corr_params_load(r->set, db)) < 0)
		return rc;
	s = xcalloc(1, sizeof(*s));
	rc = corr_sens_build(&s->c, r->set, NULL);
	if (rc == PC_ENOTFOUND || (!rc && !(s->c.blind + s->c.wrong))) {
		pc_error_clear();
		if (!rc)
			corr_sens_release(&s->c);
		free(s);
		return 0;
	}
	if (rc < 0) {
		free(s);
		return rc;
	}
	s->f = xcalloc(s->c.blind + s->c.wrong, sizeof(*s->f));
	for (size_t i = 0; i < s->c.n; i++)
		for (size_t j = 0; j < s->c.knobs[i].nsweeps; j++)
			if (s->c.knobs[i].sweeps[j].flag != SENS_OK)
				s->f[s->n++] = (struct flagged){
					&s->c.knobs[i], &s->c.knobs[i].sweeps[j] };
	qsort(s->f, s->n, sizeof(*s->f), flagged_cmp);
	r->sens = s;
	return 0;
}

void report_sens_free(struct report *r)
{
	if (!r->sens)
		return;
	corr_sens_release(&r->sens->c);
	free(r->sens->f);
	free(r->sens);
	r->sens = NULL;
}

static size_t shown(const struct report *r)
{
	return r->sens->n < r->opts.top ? r->sens->n : r->opts.top;
}

static void headline(struct strbuf *sb, const struct report_sens *s)
{
	strbuf_addf(sb, "%zu of %zu knob sweeps flagged (%zu blind, %zu wrong "
		    "direction): along these the model does not follow the "
		    "reference (a sweep: one op and metric over >= 3 values "
		    "of one workload parameter, the rest of the key fixed; "
		    "elasticity d ln y / d ln x; as perfcorr sensitivity).",
		    s->n, s->c.sweeps, s->c.blind, s->c.wrong);
}

static void fmt(char *b, size_t len, double v, const char *f)
{
	if (isfinite(v))
		snprintf(b, len, f, v);
	else
		snprintf(b, len, "n/a");
}

void report_sens_md(struct strbuf *sb, const struct report *r)
{
	const struct report_sens *s = r->sens;

	if (!s)
		return;
	strbuf_addstr(sb, "## Sensitivity to each knob\n\n");
	headline(sb, s);
	strbuf_addstr(sb, "\n\n| flag | knob | op | metric | fixed | points | "
		      "elasticity model | elasticity ref | tau |\n"
		      "|---|---|---|---|---|--:|--:|--:|--:|\n");
	for (size_t i = 0; i < shown(r); i++) {
		const struct flagged *f = &s->f[i];
		char em[32], er[32], t[32];

		fmt(em, sizeof(em), f->w->e_model, "%+.3f");
		fmt(er, sizeof(er), f->w->e_ref, "%+.3f");
		fmt(t, sizeof(t), f->w->tau, "%.3f");
		strbuf_addf(sb, "| %s | ", corr_sens_flag_name(f->w->flag));
		report_md_escape(sb, f->k->knob);
		strbuf_addstr(sb, " | ");
		report_md_escape(sb, f->k->op);
		strbuf_addstr(sb, " | ");
		report_md_escape(sb, f->k->metric);
		strbuf_addstr(sb, " | ");
		report_md_escape(sb, f->w->fixed);
		strbuf_addf(sb, " | %zu | %s | %s | %s |\n", f->w->n, em, er, t);
	}
	if (s->n > shown(r))
		strbuf_addf(sb, "\n... and %zu more (perfcorr sensitivity "
			    "lists every one).\n", s->n - shown(r));
	strbuf_addch(sb, '\n');
}

void report_sens_html(struct strbuf *sb, const struct report *r)
{
	const struct report_sens *s = r->sens;
	struct strbuf h = STRBUF_INIT;

	if (!s)
		return;
	headline(&h, s);
	strbuf_addstr(sb, "<section id=\"sensitivity\">\n<h2>Sensitivity to "
		      "each knob</h2>\n<p>");
	html_escape(sb, h.buf);
	strbuf_addstr(sb, "</p>\n<table class=\"pts\">\n<thead><tr><th>flag"
		      "</th><th>knob</th><th>op</th><th>metric</th><th>fixed"
		      "</th><th class=\"n\">points</th><th class=\"n\">"
		      "elasticity model</th><th class=\"n\">elasticity ref"
		      "</th><th class=\"n\">tau</th></tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < shown(r); i++) {
		const struct flagged *f = &s->f[i];
		char em[32], er[32], t[32];

		fmt(em, sizeof(em), f->w->e_model, "%+.3f");
		fmt(er, sizeof(er), f->w->e_ref, "%+.3f");
		fmt(t, sizeof(t), f->w->tau, "%.3f");
		strbuf_addf(sb, "<tr><td>%s</td><td>",
			    corr_sens_flag_name(f->w->flag));
		html_escape(sb, f->k->knob);
		strbuf_addstr(sb, "</td><td>");
		html_escape(sb, f->k->op);
		strbuf_addstr(sb, "</td><td>");
		html_escape(sb, f->k->metric);
		strbuf_addstr(sb, "</td><td class=\"wl\">");
		html_escape(sb, f->w->fixed);
		strbuf_addf(sb, "</td><td class=\"n\">%zu</td><td class=\"n\">"
			    "%s</td><td class=\"n\">%s</td><td class=\"n\">%s"
			    "</td></tr>\n", f->w->n, em, er, t);
	}
	strbuf_addstr(sb, "</tbody>\n</table>\n");
	if (s->n > shown(r))
		strbuf_addf(sb, "<p class=\"note\">&#8230; and %zu more.</p>\n",
			    s->n - shown(r));
	strbuf_addstr(sb, "</section>\n");
	strbuf_release(&h);
}

static void jnum(struct strbuf *sb, double v)
{
	if (isfinite(v))
		strbuf_addf(sb, "%.17g", v);
	else
		strbuf_addstr(sb, "null");
}

void report_sens_json(struct strbuf *sb, const struct report *r)
{
	const struct report_sens *s = r->sens;

	if (!s)
		return;
	strbuf_addf(sb, ",\n\"sensitivity\":{\"sweeps\":%zu,\"blind\":%zu,"
		    "\"wrong_direction\":%zu,\"flagged\":[", s->c.sweeps,
		    s->c.blind, s->c.wrong);
	for (size_t i = 0; i < s->n; i++) {
		const struct flagged *f = &s->f[i];

		strbuf_addstr(sb, i ? ",\n{\"knob\":" : "\n{\"knob\":");
		strbuf_add_json_str(sb, f->k->knob);
		strbuf_addstr(sb, ",\"op\":");
		strbuf_add_json_str(sb, f->k->op);
		strbuf_addstr(sb, ",\"metric\":");
		strbuf_add_json_str(sb, f->k->metric);
		strbuf_addstr(sb, ",\"fixed\":");
		strbuf_add_json_str(sb, f->w->fixed);
		strbuf_addstr(sb, ",\"flag\":");
		strbuf_add_json_str(sb, corr_sens_flag_name(f->w->flag));
		strbuf_addf(sb, ",\"points\":%zu,\"e_model\":", f->w->n);
		jnum(sb, f->w->e_model);
		strbuf_addstr(sb, ",\"e_ref\":");
		jnum(sb, f->w->e_ref);
		strbuf_addstr(sb, ",\"tau\":");
		jnum(sb, f->w->tau);
		strbuf_addch(sb, '}');
	}
	strbuf_addstr(sb, "]}");
}
