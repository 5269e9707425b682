/* The report as one self-contained HTML file (see report.h): inline CSS
 * with print styles, inline SVG figures, no script and no external
 * reference. The markup is XHTML-compatible, so the file is also
 * well-formed XML; every untrusted string goes through html_escape. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/corr/diff.h"
#include "src/report/report_matrix.h"
#include "src/corr/correlate.h"
#include "base/error.h"
#include "base/html.h"
#include "src/corr/corrout.h"
#include "src/report/report.h"
#include "src/report/report_cpd.h"
#include "src/report/report_prev.h"
#include "src/report/report_sens.h"
#include "src/report/report_tiers.h"
#include "src/report/report_calib.h"
#include "src/report/report_prov.h"
#include "src/report/report_slo.h"
#include "src/report/report_tables.h"
#include "src/report/report_fig.h"
#include "src/report/report_html_int.h"
#include "base/strbuf.h"
#include "src/report/svg.h"
#include "base/util.h"

static void esc(struct strbuf *sb, const char *s)
{
	html_escape(sb, s);
}

/* A workload key: breakable after each '/', never inside a part. */
void report_html_td_wl(struct strbuf *sb, const char *s)
{
	strbuf_addstr(sb, "<td class=\"wl\">");
	report_html_name(sb, s);
	strbuf_addstr(sb, "</td>");
}

void report_html_td_text(struct strbuf *sb, const char *cls, const char *s)
{
	if (cls)
		strbuf_addf(sb, "<td class=\"%s\">", cls);
	else
		strbuf_addstr(sb, "<td>");
	esc(sb, s);
	strbuf_addstr(sb, "</td>");
}

/* A cell of a name (op, metric): never broken at a '-'. */
void report_html_td_name(struct strbuf *sb, const char *s)
{
	strbuf_addstr(sb, "<td>");
	report_html_name(sb, s);
	strbuf_addstr(sb, "</td>");
}

/* A numeric cell; an undefined value says why in its tooltip. */
void report_html_td_val(struct strbuf *sb, double v, int pct,
			const char *why)
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

void report_html_td_err(struct strbuf *sb, double e)
{
	char b[32];

	report_fmt_err(b, sizeof(b), e);
	strbuf_addf(sb, "<td class=\"n %s\">%s</td>", e > 0 ? "pos" : e < 0 ?
		    "neg" : "", b);
}

void report_html_td_si(struct strbuf *sb, double v, const char *unit)
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

/* The page's links, in the order of the sections. */
static void nav(struct strbuf *sb, const struct report *r)
{
	strbuf_addstr(sb, "<nav><a href=\"#top\">Open discrepancies</a>");
	if (r->opts.since_last_review)
		strbuf_addstr(sb, "<a href=\"#review\">Since last review</a>");
	if (r->prev)
		strbuf_addstr(sb, "<a href=\"#previous\">Regressions</a>");
	strbuf_addstr(sb, "<a href=\"#sol\">Speed of light</a><a href=\"#"
		      "figures\">Figures</a><a href=\"#accuracy\">Accuracy</a>"
		      "<a href=\"#ops\">By op</a>");
	if (r->opts.trend && r->nversions)
		strbuf_addstr(sb, "<a href=\"#trend\">Trend</a>");
	if (r->opts.matrix)
		strbuf_addstr(sb, "<a href=\"#matrix\">Who disagrees</a>");
	strbuf_addstr(sb, "<a href=\"#noisy\">Noisy</a><a href=\"#provenance"
		      "\">Provenance</a></nav>\n");
}

/* The verdict and what the meeting acts on first: open, new since the
 * last review, regressions against the previous version, speed of
 * light; then the summary numbers. */
static void cards(struct strbuf *sb, const struct report *r)
{
	const struct corr_set *s = r->set;
	char b[64], l[96];

	strbuf_addstr(sb, "<section class=\"cards\">\n");
	if (r->gate_text)
		card(sb, r->gate_verdict == 0 ? "PASS" : r->gate_verdict == 1 ?
		     "WARN" : r->gate_verdict == 2 ? "FAIL" :
		     r->gate_verdict == 3 ? "UNKNOWN" : "n/a",
		     "gate verdict", r->gate_verdict == 0 ? "good" :
		     r->gate_verdict == 1 || r->gate_verdict == 3 ? "warn" :
		     r->gate_verdict == 2 ? "bad" : NULL);
	snprintf(b, sizeof(b), "%ld", r->nopen_all);
	snprintf(l, sizeof(l), "open of %ld discrepanc%s", r->ndiscrepancies,
		 r->ndiscrepancies == 1 ? "y" : "ies");
	card(sb, b, l, r->nopen_all ? "warn" : "good");
	if (r->opts.since_last_review) {
		snprintf(b, sizeof(b), "%zu", r->nnew);
		card(sb, b, r->have_review ? "new since the last review" :
		     "new (no review recorded yet)", r->nnew ? "warn" : "good");
	}
	if (r->prev) {
		size_t reg = report_prev_count(r, 1);

		snprintf(b, sizeof(b), "%zu", reg);
		snprintf(l, sizeof(l), "regressions vs %.40s",
			 r->prev->before->model.version);
		card(sb, b, l, reg ? "warn" : "good");
	}
	snprintf(b, sizeof(b), "%ld", s->sol_violations);
	card(sb, b, "speed-of-light violations", s->sol_violations ? "bad" :
	     NULL);
	snprintf(b, sizeof(b), "%ld", r->all.n);
	card(sb, b, "pairs compared", "minor");
	report_fmt_pct(b, sizeof(b), r->all.mape);
	card(sb, b, "MAPE (all metrics)", "minor");
	report_fmt_pct(b, sizeof(b), r->all.bias);
	card(sb, b, "bias (mean signed error)", "minor");
	report_fmt_pct(b, sizeof(b), r->all.p95_abs_err);
	card(sb, b, "p95 |error|", "minor");
	snprintf(b, sizeof(b), "%ld", s->excluded_noisy);
	card(sb, b, "excluded as noisy", "minor");
	strbuf_addstr(sb, "</section>\n");
}

static void header(struct strbuf *sb, const struct report *r)
{
	const struct corr_set *s = r->set;

	strbuf_addstr(sb, "<header>\n<h1>Correlation review: ");
	esc(sb, s->model.source);
	strbuf_addstr(sb, " vs ");
	esc(sb, s->ref.source);
	strbuf_addstr(sb, "</h1>\n<p class=\"meta\">");
	side_line(sb, &s->model, "model");
	side_line(sb, &s->ref, "reference");
	strbuf_addf(sb, "<span class=\"side\">generated %s</span></p>\n",
		    r->generated_at);
	nav(sb, r);
	strbuf_addstr(sb, "</header>\n");
	cards(sb, r);
	strbuf_addf(sb, "<p class=\"note\">Errors are (model "
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
		strbuf_addstr(sb, "<tr><td>");
		esc(sb, g->op_class);
	} else {
		strbuf_addstr(sb, "<tr class=\"all\"><td>all op classes");
	}
	if (stats_few_pairs(s)) {
		/* issue 19: a bare MAPE over few pairs misleads; under the
		 * name, where it has the room (not in the n column) */
		char why[160];

		strbuf_addstr(sb, " <span class=\"few\">few pairs");
		if (stats_ci_unknown(s, why, sizeof(why)))
			strbuf_addf(sb, ": MAPE CI unknown, %ld workloads",
				    s->workloads);
		else if (isfinite(s->mape_ci.lo))
			strbuf_addf(sb, ": MAPE CI [%.2f%%, %.2f%%]",
				    s->mape_ci.lo * 100, s->mape_ci.hi * 100);
		strbuf_addstr(sb, "</span>");
	}
	strbuf_addf(sb, "</td><td class=\"n\">%ld</td>", s->n);
	for (size_t k = 0; k < corrout_stats_count(); k++) {
		const struct corrout_stat *st = corrout_stats_at(k);
		double v;

		if (!(st->views & CORROUT_V_REPORT))
			continue;
		v = corrout_stat_value(st, s);
		if (st->count)
			strbuf_addf(sb, "<td class=\"n\">%.0f</td>", v);
		else
			report_html_td_val(sb, v, st->pct, corrout_stat_why(st, s));
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
		report_html_td_text(sb, NULL, r->versions[v]);
		for (size_t m = 0; m < r->nmetrics; m++)
			report_html_td_val(sb, r->trend[v * r->nmetrics + m], 1, NULL);
		report_cpd_cell(sb, r, v);
		strbuf_addstr(sb, "</tr>\n");
	}
	strbuf_addstr(sb, "</tbody>\n</table>\n<p class=\"note\">Each version "
		      "against the same reference version; the reported "
		      "version is in bold.</p>\n");
	report_cpd_html(sb, r);
	strbuf_addstr(sb, "</section>\n");
}

int report_write_html(const struct report *r, FILE *fp)
{
	struct strbuf sb = STRBUF_INIT;
	int rc = 0;

	head(&sb, r);
	/* the meeting's order (issue 35 item 6): the verdict and the
	 * cards, what is open, what changed, then the evidence, then where
	 * the numbers come from */
	header(&sb, r);
	report_html_pts_open(&sb, r);
	report_html_pts_review(&sb, r);
	report_prev_html(&sb, r);
	report_html_pts_sol(&sb, r);
	report_fig_html(&sb, r);
	report_slo_html(&sb, r);
	accuracy(&sb, r);
	report_calib_html(&sb, r);
	report_ops_html(&sb, r);
	trend_table(&sb, r);
	report_sens_html(&sb, r);
	report_tiers_html(&sb, r);
	report_matrix_html(&sb, r);
	report_html_pts_noisy(&sb, r);
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
