/* The report as one self-contained HTML file (see report.h): inline CSS
 * with print styles, inline SVG figures, no script and no external
 * reference. The markup is XHTML-compatible, so the file is also
 * well-formed XML; every untrusted string goes through html_escape. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/annot.h"
#include "src/corr/annot.h"
#include "db/runinfo.h"
#include "src/report/report_matrix.h"
#include "src/corr/correlate.h"
#include "base/error.h"
#include "base/html.h"
#include "src/corr/corrout.h"
#include "src/report/report.h"
#include "src/report/report_cpd.h"
#include "src/report/report_prev.h"
#include "src/report/report_sens.h"
#include "src/report/report_slo.h"
#include "src/report/report_tables.h"
#include "src/report/report_fig.h"
#include "base/strbuf.h"
#include "src/report/svg.h"
#include "base/util.h"

static void esc(struct strbuf *sb, const char *s)
{
	html_escape(sb, s);
}

/* A workload key: breakable after each '/', never inside a part. */
static void td_wl(struct strbuf *sb, const char *s)
{
	char *e = html_escape_dup(s);

	strbuf_addstr(sb, "<td class=\"wl\">");
	for (const char *p = e; *p; p++) {
		strbuf_addch(sb, *p);
		if (*p == '/' && p[1])
			strbuf_addstr(sb, "<wbr/>");
	}
	strbuf_addstr(sb, "</td>");
	free(e);
}

static void td_text(struct strbuf *sb, const char *cls, const char *s)
{
	if (cls)
		strbuf_addf(sb, "<td class=\"%s\">", cls);
	else
		strbuf_addstr(sb, "<td>");
	esc(sb, s);
	strbuf_addstr(sb, "</td>");
}

/* A numeric cell; an undefined value says why in its tooltip. */
static void td_val(struct strbuf *sb, double v, int pct, const char *why)
{
	char b[32];

	if (pct)
		report_fmt_pct(b, sizeof(b), v);
	else
		report_fmt_num(b, sizeof(b), v);
	if (!isfinite(v) && why) {
		strbuf_addstr(sb, "<td class=\"n na\" title=\"");
		esc(sb, why);
		strbuf_addf(sb, "\">%s</td>", b);
		return;
	}
	strbuf_addf(sb, "<td class=\"n%s\">%s</td>", !isfinite(v) ? " na" : "",
		    b);
}

static void td_err(struct strbuf *sb, double e)
{
	char b[32];

	report_fmt_pct(b, sizeof(b), e);
	strbuf_addf(sb, "<td class=\"n %s\">%s%s</td>", e > 0 ? "pos" : e < 0 ?
		    "neg" : "", e > 0 ? "+" : "", b);
}

static void td_si(struct strbuf *sb, double v, const char *unit)
{
	char b[48];

	svg_fmt_si(b, sizeof(b), v, unit);
	strbuf_addstr(sb, "<td class=\"n\">");
	esc(sb, b);
	strbuf_addstr(sb, "</td>");
}

static void head(struct strbuf *sb, const struct report *r)
{
	const struct corr_set *s = r->set;

	strbuf_addstr(sb, "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/"
		      "1999/xhtml\" lang=\"en\">\n<head>\n<meta charset=\"utf-8\""
		      "/>\n<meta name=\"viewport\" content=\"width=device-width, "
		      "initial-scale=1\"/>\n<meta name=\"generator\" content="
		      "\"perfcorr report\"/>\n<title>Correlation review: ");
	esc(sb, s->model.source);
	strbuf_addch(sb, ' ');
	esc(sb, s->model.version);
	strbuf_addstr(sb, " vs ");
	esc(sb, s->ref.source);
	strbuf_addch(sb, ' ');
	esc(sb, s->ref.version);
	strbuf_addstr(sb, "</title>\n<style>");
	strbuf_addstr(sb, report_fig_css);
	strbuf_addstr(sb, "</style>\n</head>\n<body>\n");
}

static void side_line(struct strbuf *sb, const struct corr_side *s,
		      const char *role)
{
	strbuf_addf(sb, "<span class=\"side\">%s <b>", role);
	esc(sb, s->source);
	strbuf_addstr(sb, "</b> ");
	esc(sb, s->version);
	strbuf_addf(sb, " <span class=\"tag\">%s</span></span>", s->kind);
}

static void card(struct strbuf *sb, const char *value, const char *label,
		 const char *cls)
{
	strbuf_addf(sb, "<div class=\"card%s%s\"><b>", cls ? " " : "",
		    cls ? cls : "");
	esc(sb, value);
	strbuf_addf(sb, "</b><span>%s</span></div>\n", label);
}

/* The verdict, then one list item per rule, coloured by status. */
static void gate_section(struct strbuf *sb, const struct report *r)
{
	char *t = xstrdup(r->gate_text), *save = NULL;
	int first = 1;

	strbuf_addstr(sb, "<section id=\"gate\">\n<h2>Gate</h2>\n");
	for (char *l = strtok_r(t, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save)) {
		const char *st = !strncmp(l, "PASS", 4) ? "pass" :
				 !strncmp(l, "WARN", 4) ? "warn" :
				 !strncmp(l, "FAIL", 4) ? "fail" :
				 !strncmp(l, "UNKNOWN", 7) ? "warn" : "na";

		strbuf_addf(sb, first ? "<p class=\"verdict g-%s\">" :
			    "<li class=\"g-%s\">", st);
		esc(sb, l);
		strbuf_addstr(sb, first ? "</p>\n<ul class=\"rules\">\n" :
			      "</li>\n");
		first = 0;
	}
	strbuf_addstr(sb, first ? "" : "</ul>\n");
	strbuf_addstr(sb, "</section>\n");
	free(t);
}

static void header(struct strbuf *sb, const struct report *r)
{
	const struct corr_set *s = r->set;
	char b[64];

	strbuf_addstr(sb, "<header>\n<h1>Correlation review: ");
	esc(sb, s->model.source);
	strbuf_addstr(sb, " vs ");
	esc(sb, s->ref.source);
	strbuf_addstr(sb, "</h1>\n<p class=\"meta\">");
	side_line(sb, &s->model, "model");
	side_line(sb, &s->ref, "reference");
	strbuf_addf(sb, "<span class=\"side\">generated %s</span></p>\n"
		    "<nav><a href=\"#figures\">Figures</a><a href=\"#accuracy\">"
		    "Accuracy</a><a href=\"#ops\">By op</a>%s<a href=\"#previous\">Previous version</a><a href=\"#top\">Discrepancies</a>%s"
		    "<a href=\"#sol\">Speed of light</a><a href=\"#noisy\">"
		    "Noisy</a><a href=\"#provenance\">Provenance</a></nav>\n"
		    "</header>\n<section class=\"cards\">\n", r->generated_at,
		    r->opts.trend && r->nversions ? "<a href=\"#trend\">Trend"
		    "</a>" : "", r->opts.since_last_review ? "<a href=\"#review\">Since last"
		    " review</a>" : "");
	if (r->gate_text)
		card(sb, r->gate_verdict == 0 ? "PASS" : r->gate_verdict == 1 ?
		     "WARN" : r->gate_verdict == 2 ? "FAIL" :
		     r->gate_verdict == 3 ? "UNKNOWN" : "n/a",
		     "gate verdict", r->gate_verdict == 0 ? "good" :
		     r->gate_verdict == 1 || r->gate_verdict == 3 ? "warn" :
		     r->gate_verdict == 2 ? "bad" : NULL);
	snprintf(b, sizeof(b), "%ld", r->all.n);
	card(sb, b, "pairs compared", NULL);
	report_fmt_pct(b, sizeof(b), r->all.mape);
	card(sb, b, "MAPE (all metrics)", NULL);
	report_fmt_pct(b, sizeof(b), r->all.bias);
	card(sb, b, "bias (mean signed error)", NULL);
	report_fmt_pct(b, sizeof(b), r->all.p95_abs_err);
	card(sb, b, "p95 |error|", NULL);
	snprintf(b, sizeof(b), "%ld", r->ndiscrepancies);
	card(sb, b, "discrepancies", r->ndiscrepancies ? "warn" : "good");
	snprintf(b, sizeof(b), "%ld", s->sol_violations);
	card(sb, b, "speed-of-light violations", s->sol_violations ? "bad" :
	     NULL);
	snprintf(b, sizeof(b), "%ld", s->excluded_noisy);
	card(sb, b, "excluded as noisy", NULL);
	strbuf_addf(sb, "</section>\n<p class=\"note\">Errors are (model "
		    "&#8722; ref) / ref. A <em>discrepancy</em> is a pair whose "
		    "|error| exceeds %g%% and the reference's own run-to-run "
		    "spread; references with a coefficient of variation above "
		    "%g%% are left out of every statistic. ",
		    r->opts.limit * 100, r->opts.max_ref_cv * 100);
	/* the per-metric histograms' captions give each metric's counts */
	report_optimism(sb, r);
	strbuf_addstr(sb, "</p>\n");
	{	/* is the pair comparable? (issue 37) */
		struct strbuf t = STRBUF_INIT;

		if (report_fp_text(&t, r)) {
			strbuf_addstr(sb, "<p class=\"note\" id=\"fingerprint\">"
				      "<strong>Workload fingerprints:</strong> ");
			html_escape(sb, strbuf_str(&t));
			strbuf_addstr(sb, "</p>\n");
		}
		strbuf_release(&t);
	}
	if (r->gate_text)
		gate_section(sb, r);
}

static void group_row(struct strbuf *sb, const struct report_group *g)
{
	const struct stats_summary *s = &g->s;

	if (g->op_class) {
		strbuf_addstr(sb, "<tr>");
		td_text(sb, NULL, g->op_class);
	} else {
		strbuf_addstr(sb, "<tr class=\"all\"><td>all op classes</td>");
	}
	strbuf_addf(sb, "<td class=\"n\">%ld", s->n);
	if (stats_few_pairs(s)) {
		/* issue 19: a bare MAPE over few pairs misleads */
		strbuf_addstr(sb, " <span class=\"few\">few pairs");
		if (isfinite(s->mape_ci.lo))
			strbuf_addf(sb, ": MAPE CI [%.2f%%, %.2f%%]",
				    s->mape_ci.lo * 100, s->mape_ci.hi * 100);
		strbuf_addstr(sb, "</span>");
	}
	strbuf_addstr(sb, "</td>");
	for (size_t k = 0; k < corrout_stats_count(); k++) {
		const struct corrout_stat *st = corrout_stats_at(k);
		double v;

		if (!(st->views & CORROUT_V_REPORT))
			continue;
		v = corrout_stat_value(st, s);
		if (st->count)
			strbuf_addf(sb, "<td class=\"n\">%.0f</td>", v);
		else
			td_val(sb, v, st->pct, corrout_stat_why(st, s));
	}
	strbuf_addstr(sb, "</tr>\n");
}

static void accuracy(struct strbuf *sb, const struct report *r)
{
	const char *metric = NULL;

	strbuf_addstr(sb, "<section id=\"accuracy\">\n<h2>Accuracy by metric "
		      "and op class</h2>\n");
	for (size_t i = 0; i < r->ngroups; i++) {
		const struct report_group *g = &r->groups[i];

		if (!metric || strcmp(metric, g->metric)) {
			if (metric)
				strbuf_addstr(sb, "</tbody>\n</table>\n");
			metric = g->metric;
			strbuf_addstr(sb, "<h3>");
			esc(sb, g->metric);
			if (*g->unit) {
				strbuf_addstr(sb, " <span class=\"unit\">(");
				esc(sb, g->unit);
				strbuf_addstr(sb, ")</span>");
			}
			strbuf_addstr(sb, "</h3>\n<table class=\"stats\">\n"
				      "<thead><tr><th>op class</th><th class="
				      "\"n\">n</th>");
			for (size_t k = 0; k < corrout_stats_count(); k++) {
				const struct corrout_stat *st =
					corrout_stats_at(k);

				if (!(st->views & CORROUT_V_REPORT))
					continue;
				strbuf_addstr(sb, "<th class=\"n\">");
				esc(sb, st->label);
				strbuf_addstr(sb, "</th>");
			}
			strbuf_addstr(sb, "</tr></thead>\n<tbody>\n");
		}
		group_row(sb, g);
	}
	if (metric)
		strbuf_addstr(sb, "</tbody>\n</table>\n");
	strbuf_addstr(sb, "<p class=\"note\">Slope of the fit model = a + b "
		      "&#215; ref (1 = no scale error). n/a: undefined for the "
		      "data (hover for the reason).</p>\n</section>\n");
}

/* The trend's numbers, for print and for readers of tables. */
static void trend_table(struct strbuf *sb, const struct report *r)
{
	if (!r->opts.trend || !r->nversions)
		return;
	strbuf_addstr(sb, "<section id=\"trend\">\n<h2>MAPE by model version"
		      "</h2>\n<table class=\"stats\">\n<thead><tr><th>version"
		      "</th>");
	for (size_t m = 0; m < r->nmetrics; m++) {
		strbuf_addstr(sb, "<th class=\"n\">");
		esc(sb, r->metrics[m]);
		strbuf_addstr(sb, "</th>");
	}
	if (report_cpd_any(r))
		strbuf_addstr(sb, "<th>step</th>");
	strbuf_addstr(sb, "</tr></thead>\n<tbody>\n");
	for (size_t v = 0; v < r->nversions; v++) {
		int cur = !strcmp(r->versions[v], r->set->model.version);

		strbuf_addstr(sb, cur ? "<tr class=\"all\">" : "<tr>");
		td_text(sb, NULL, r->versions[v]);
		for (size_t m = 0; m < r->nmetrics; m++)
			td_val(sb, r->trend[v * r->nmetrics + m], 1, NULL);
		report_cpd_cell(sb, r, v);
		strbuf_addstr(sb, "</tr>\n");
	}
	strbuf_addstr(sb, "</tbody>\n</table>\n<p class=\"note\">Each version "
		      "against the same reference version; the reported "
		      "version is in bold.</p>\n");
	report_cpd_html(sb, r);
	strbuf_addstr(sb, "</section>\n");
}

static void annot_cells(struct strbuf *sb, const struct corr_point *p)
{
	const struct annot *a = p->ann;

	if (!a) {
		strbuf_addstr(sb, "<td><span class=\"tag st-unexplained\">"
			      ANNOT_STATE_NONE "</span></td><td></td><td></td>");
		return;
	}
	strbuf_addf(sb, "<td><span class=\"tag st-%s\">%s</span> <span "
		    "class=\"cat\">%s</span></td><td class=\"notec\">",
		    a->status, a->status, a->category);
	strbuf_add_lines(sb, a->note, esc, "<br/>");
	if (a->link && *a->link && html_link_ok(a->link)) {
		strbuf_addstr(sb, " <a class=\"link\" href=\"");
		esc(sb, a->link);
		strbuf_addstr(sb, "\" rel=\"noopener noreferrer\">");
		esc(sb, a->link);
		strbuf_addstr(sb, "</a>");
	} else if (a->link && *a->link) {
		strbuf_addstr(sb, " <span class=\"link\">[");
		esc(sb, a->link);
		strbuf_addstr(sb, "]</span>");
	}
	if (a->expires && *a->expires) {
		strbuf_addstr(sb, " <span class=\"cat\">(expires ");
		esc(sb, a->expires);
		strbuf_addstr(sb, ")</span>");
	}
	strbuf_addstr(sb, "</td><td class=\"nw\">");
	esc(sb, a->author);
	strbuf_addstr(sb, "<br/><span class=\"cat\" title=\"");
	esc(sb, a->created_at);
	strbuf_addstr(sb, "\">");
	if (a->created_at && strlen(a->created_at) > 10) {
		char day[11];

		snprintf(day, sizeof(day), "%.10s", a->created_at);
		esc(sb, day);
	} else {
		esc(sb, a->created_at);
	}
	strbuf_addstr(sb, "</span></td>");
}

static void flag_tags(struct strbuf *sb, const struct report *r, size_t i)
{
	const struct corr_point *p = &r->set->points[i];

	strbuf_addstr(sb, "<td>");
	if (r->is_new && r->is_new[i])
		strbuf_addstr(sb, "<span class=\"tag fl-new\">new</span>");
	if (p->flags & CORR_WITHIN_NOISE)
		strbuf_addstr(sb, "<span class=\"tag\">within noise</span>");
	if (p->flags & CORR_SOL_VIOLATION)
		strbuf_addstr(sb, "<span class=\"tag fl-sol\">SoL</span>");
	if (p->flags & CORR_WAIVED)
		strbuf_addstr(sb, "<span class=\"tag\">waived</span>");
	if (p->flags & CORR_NOISY_REF)
		strbuf_addstr(sb, "<span class=\"tag\">noisy ref</span>");
	strbuf_addstr(sb, "</td>");
}

/* The references left out as noisy, with the facts the Markdown has:
 * the reference, its run-to-run stddev and n. */
static void noisy_table(struct strbuf *sb, const struct report *r)
{
	strbuf_addf(sb, "<p class=\"note\">References whose run-to-run "
		    "coefficient of variation exceeds %g%% are left out of "
		    "every statistic.</p>\n<table class=\"pts\">\n<thead><tr>"
		    "<th>workload</th><th>op</th><th>metric</th><th class=\"n\">"
		    "ref</th><th class=\"n\">ref stddev</th><th class=\"n\">n"
		    "</th><th class=\"n\">model</th><th class=\"n\">error</th>"
		    "</tr></thead>\n<tbody>\n", r->opts.max_ref_cv * 100);
	for (size_t k = 0; k < r->nnoisy && k < r->opts.top; k++) {
		const struct corr_point *p = &r->set->points[r->noisy[k]];
		const char *unit = report_unit(r, p->metric);

		strbuf_addstr(sb, "<tr>");
		td_wl(sb, p->workload);
		td_text(sb, NULL, p->op);
		td_text(sb, NULL, p->metric);
		td_si(sb, p->ref, unit);
		td_si(sb, p->ref_sd, unit);
		if (isfinite(p->ref_n))
			strbuf_addf(sb, "<td class=\"n\">%g</td>", p->ref_n);
		else
			strbuf_addstr(sb, "<td class=\"n\">n/a</td>");
		td_si(sb, p->model, unit);
		td_err(sb, p->err);
		strbuf_addstr(sb, "</tr>\n");
	}
	strbuf_addstr(sb, "</tbody>\n</table>\n");
	if (r->nnoisy > r->opts.top)
		strbuf_addf(sb, "<p class=\"note\">&#8230; and %zu more.</p>\n",
			    r->nnoisy - r->opts.top);
}

/* A table of points (indexes into the set), at most cap rows. */
static void point_table(struct strbuf *sb, const struct report *r,
			const size_t *idx, size_t n, size_t cap)
{
	strbuf_addstr(sb, "<table class=\"pts\">\n<thead><tr><th class=\"n\">#"
		      "</th><th>workload</th><th>op</th><th>metric</th><th "
		      "class=\"n\">model</th><th class=\"n\">ref</th><th class="
		      "\"n\">error</th><th>flags</th><th>annotation</th><th>note"
		      "</th><th>by</th></tr></thead>\n<tbody>\n");
	for (size_t k = 0; k < n && k < cap; k++) {
		const struct corr_point *p = &r->set->points[idx[k]];
		const char *unit = report_unit(r, p->metric);

		strbuf_addf(sb, "<tr><td class=\"n\">%zu</td>", k + 1);
		td_wl(sb, p->workload);
		td_text(sb, NULL, p->op);
		td_text(sb, NULL, p->metric);
		td_si(sb, p->model, unit);
		td_si(sb, p->ref, unit);
		td_err(sb, p->err);
		flag_tags(sb, r, idx[k]);
		annot_cells(sb, p);
		strbuf_addstr(sb, "</tr>\n");
	}
	strbuf_addstr(sb, "</tbody>\n</table>\n");
	if (n > cap)
		strbuf_addf(sb, "<p class=\"note\">&#8230; and %zu more; every "
			    "pair is in the csv and json formats.</p>\n",
			    n - cap);
}

/* The discrepancies (the overall count, worst first), then the pairs
 * closest to the limit, which are not discrepancies. */
static void top_section(struct strbuf *sb, const struct report *r)
{
	strbuf_addf(sb, "<section id=\"top\">\n<h2>Discrepancies (%ld)</h2>\n",
		    r->ndiscrepancies);
	report_status_html(sb, r);
	if (r->ndiscrepancies)
		point_table(sb, r, r->top, (size_t)r->ndiscrepancies, r->ntop);
	else
		strbuf_addf(sb, "<p>None: no pair's |error| exceeds %g%% and the "
			    "reference's noise.</p>\n", r->opts.limit * 100);
	if (r->nnear) {
		strbuf_addf(sb, "<h3 id=\"near\">Closest to the limit (not "
			    "discrepancies)</h3>\n<p class=\"note\">The %zu "
			    "pair%s with the largest |error| that %s within %g%% "
			    "or within the reference's noise.</p>\n", r->nnear,
			    r->nnear == 1 ? "" : "s", r->nnear == 1 ? "is" :
			    "are", r->opts.limit * 100);
		point_table(sb, r, r->near, r->nnear, r->nnear);
	}
	if (r->nnoted) {
		strbuf_addf(sb, "<h3 id=\"noted\">Annotated, not discrepancies "
			    "(%zu)</h3>\n", r->nnoted);
		point_table(sb, r, r->noted, r->nnoted, r->opts.top);
	}
	strbuf_addstr(sb, "</section>\n");
}

static void resolved_table(struct strbuf *sb, const struct report *r)
{
	strbuf_addstr(sb, "<table>\n<thead><tr><th>workload</th><th>op</th>"
		      "<th>metric</th><th class=\"n\">error then</th><th class="
		      "\"n\">error now</th><th>why</th><th>annotation</th></tr>"
		      "</thead>\n<tbody>\n");
	for (size_t i = 0; i < r->nresolved && i < r->opts.top; i++) {
		const struct report_change *c = &r->resolved[i];
		const struct corr_point *p = c->point >= 0 ?
			&r->set->points[c->point] : NULL;

		strbuf_addstr(sb, "<tr>");
		td_wl(sb, c->workload);
		td_text(sb, NULL, c->op);
		td_text(sb, NULL, c->metric);
		td_err(sb, c->err_then);
		if (p)
			td_err(sb, p->err);
		else
			strbuf_addstr(sb, "<td class=\"n na\">n/a</td>");
		td_text(sb, NULL, c->reason);
		td_text(sb, NULL, p ? report_status(p) : "");
		strbuf_addstr(sb, "</tr>\n");
	}
	strbuf_addstr(sb, "</tbody>\n</table>\n");
	if (r->nresolved > r->opts.top)
		strbuf_addf(sb, "<p class=\"note\">&#8230; and %zu more.</p>\n",
			    r->nresolved - r->opts.top);
}

static void review_section(struct strbuf *sb, const struct report *r)
{
	if (!r->opts.since_last_review)
		return;
	strbuf_addstr(sb, "<section id=\"review\">\n<h2>Since the last review"
		      "</h2>\n<p>");
	if (r->have_review) {
		strbuf_addf(sb, "Last review #%lld on ", (long long)r->last.id);
		esc(sb, r->last.created_at);
		strbuf_addstr(sb, " by ");
		esc(sb, r->last.author);
		strbuf_addstr(sb, " (model ");
		esc(sb, r->last.model_version);
		strbuf_addstr(sb, ", reference ");
		esc(sb, r->last.ref_version);
		strbuf_addf(sb, "): <b>%zu new</b>, <b>%zu resolved</b>, %ld "
			    "still listed.", r->nnew, r->nresolved, r->nstill);
	} else {
		strbuf_addf(sb, "No review recorded yet for these sources: all "
			    "%zu discrepancies are new.", r->nnew);
	}
	strbuf_addf(sb, "</p>\n<h3>New discrepancies (%zu)</h3>\n", r->nnew);
	if (r->nnew) {
		size_t *idx = xcalloc(r->nnew, sizeof(*idx));

		for (size_t i = 0; i < r->nnew; i++)
			idx[i] = (size_t)r->news[i].point;
		point_table(sb, r, idx, r->nnew, r->opts.top);
		free(idx);
	}
	strbuf_addf(sb, "<h3>Resolved (%zu)</h3>\n", r->nresolved);
	if (r->nresolved)
		resolved_table(sb, r);
	strbuf_addstr(sb, "</section>\n");
}

static void excluded_sections(struct strbuf *sb, const struct report *r)
{
	strbuf_addf(sb, "<section id=\"sol\">\n<h2>Speed-of-light violations "
		    "(%zu)</h2>\n", r->nsol);
	{
		struct strbuf t = STRBUF_INIT;

		report_sol_text(&t, r);
		strbuf_addstr(sb, "<p>");
		html_escape(sb, strbuf_str(&t));
		strbuf_addstr(sb, "</p>\n");
		strbuf_release(&t);
	}
	if (r->nsol)
		point_table(sb, r, r->sol, r->nsol, r->opts.top);
	strbuf_addf(sb, "</section>\n<section id=\"noisy\">\n<h2>Excluded as "
		    "noisy (%zu)</h2>\n", r->nnoisy);
	if (r->nnoisy)
		noisy_table(sb, r);
	else
		strbuf_addf(sb, "<p>None: every reference's coefficient of "
			    "variation is within %g%%.</p>\n",
			    r->opts.max_ref_cv * 100);
	strbuf_addstr(sb, "</section>\n");
}

int report_write_html(const struct report *r, FILE *fp)
{
	struct strbuf sb = STRBUF_INIT;
	int rc = 0;

	head(&sb, r);
	header(&sb, r);
	report_fig_html(&sb, r);
	accuracy(&sb, r);
	report_ops_html(&sb, r);
	trend_table(&sb, r);
	report_prev_html(&sb, r);
	report_sens_html(&sb, r);
	report_slo_html(&sb, r);
	top_section(&sb, r);
	review_section(&sb, r);
	report_matrix_html(&sb, r);
	excluded_sections(&sb, r);
	report_prov_html(&sb, r);
	strbuf_addf(&sb, "<footer>Generated by perfcorr report on %s. Numbers "
		    "come from the correlation core, the same as <code>perfcorr"
		    " compare</code>.</footer>\n</body>\n</html>\n",
		    r->generated_at);
	if (fwrite(sb.buf, 1, sb.len, fp) != sb.len || ferror(fp))
		rc = pc_error_set(PC_EIO, "cannot write the report");
	strbuf_release(&sb);
	return rc;
}
