/* The HTML report's sections that list pairs (see report_html_int.h):
 * the open discrepancies and the rest folded, since the last review,
 * the speed-of-light violations, the noisy references. */
#include "src/report/report_html_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/html.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "db/annot.h"
#include "src/corr/annot.h"
#include "src/corr/correlate.h"
#include "src/report/report_model.h"
#include "src/report/report_tables.h"

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
	strbuf_add_lines(sb, a->note, html_escape, "<br/>");
	if (a->link && *a->link && html_link_ok(a->link)) {
		strbuf_addstr(sb, " <a class=\"link\" href=\"");
		html_escape(sb, a->link);
		strbuf_addstr(sb, "\" rel=\"noopener noreferrer\">");
		html_escape(sb, a->link);
		strbuf_addstr(sb, "</a>");
	} else if (a->link && *a->link) {
		strbuf_addstr(sb, " <span class=\"link\">[");
		html_escape(sb, a->link);
		strbuf_addstr(sb, "]</span>");
	}
	if (a->expires && *a->expires) {
		strbuf_addstr(sb, " <span class=\"cat\">(expires ");
		html_escape(sb, a->expires);
		strbuf_addstr(sb, ")</span>");
	}
	strbuf_addstr(sb, "</td><td class=\"nw\">");
	html_escape(sb, a->author);
	strbuf_addstr(sb, "<br/><span class=\"cat\" title=\"");
	html_escape(sb, a->created_at);
	strbuf_addstr(sb, "\">");
	if (a->created_at && strlen(a->created_at) > 10) {
		char day[11];

		snprintf(day, sizeof(day), "%.10s", a->created_at);
		html_escape(sb, day);
	} else {
		html_escape(sb, a->created_at);
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
		    "model</th><th class=\"n\">ref</th><th class=\"n\">ref "
		    "stddev</th><th class=\"n\">n</th><th class=\"n\">error"
		    "</th></tr></thead>\n<tbody>\n", r->opts.max_ref_cv * 100);
	for (size_t k = 0; k < r->nnoisy && k < r->opts.top; k++) {
		const struct corr_point *p = &r->set->points[r->noisy[k]];
		const char *unit = report_unit(r, p->metric);

		strbuf_addstr(sb, "<tr>");
		report_html_td_wl(sb, p->workload);
		report_html_td_name(sb, p->op);
		report_html_td_name(sb, p->metric);
		report_html_td_si(sb, p->model, unit);
		report_html_td_si(sb, p->ref, unit);
		report_html_td_si(sb, p->ref_sd, unit);
		if (isfinite(p->ref_n))
			strbuf_addf(sb, "<td class=\"n\">%g</td>", p->ref_n);
		else
			strbuf_addstr(sb, "<td class=\"n\">n/a</td>");
		report_html_td_err(sb, p->err);
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
		report_html_td_wl(sb, p->workload);
		report_html_td_name(sb, p->op);
		report_html_td_name(sb, p->metric);
		report_html_td_si(sb, p->model, unit);
		report_html_td_si(sb, p->ref, unit);
		report_html_td_err(sb, p->err);
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

/* The open discrepancies (worst first; the meeting's list), the others
 * folded under them, then the pairs closest to the limit, which are not
 * discrepancies, and the other annotated pairs. */
void report_html_pts_open(struct strbuf *sb, const struct report *r)
{
	long settled = r->ndiscrepancies - r->nopen_all;

	strbuf_addf(sb, "<section id=\"top\">\n<h2>Open discrepancies (%ld of "
		    "%ld)</h2>\n", r->nopen_all, r->ndiscrepancies);
	if (!r->ndiscrepancies)
		strbuf_addf(sb, "<p>None: no pair's |error| exceeds %g%% and the "
			    "reference's noise.</p>\n", r->opts.limit * 100);
	else if (!r->nopen_all)
		strbuf_addstr(sb, "<p>None open: every discrepancy is explained, "
			      "accepted, fixed or wontfix (below).</p>\n");
	else
		point_table(sb, r, r->open, (size_t)r->nopen_all, r->nopen);
	if (settled > 0) {
		strbuf_addf(sb, "<details><summary>Explained, accepted, fixed or "
			    "wontfix (%ld)</summary>\n", settled);
		report_status_html(sb, r);
		point_table(sb, r, r->settled, (size_t)settled, r->nsettled);
		strbuf_addstr(sb, "</details>\n");
	}
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
		report_html_td_wl(sb, c->workload);
		report_html_td_name(sb, c->op);
		report_html_td_name(sb, c->metric);
		report_html_td_err(sb, c->err_then);
		if (p)
			report_html_td_err(sb, p->err);
		else
			strbuf_addstr(sb, "<td class=\"n na\">n/a</td>");
		report_html_td_text(sb, NULL, c->reason);
		report_html_td_text(sb, NULL, p ? report_status(p) : "");
		strbuf_addstr(sb, "</tr>\n");
	}
	strbuf_addstr(sb, "</tbody>\n</table>\n");
	if (r->nresolved > r->opts.top)
		strbuf_addf(sb, "<p class=\"note\">&#8230; and %zu more.</p>\n",
			    r->nresolved - r->opts.top);
}

void report_html_pts_review(struct strbuf *sb, const struct report *r)
{
	if (!r->opts.since_last_review)
		return;
	strbuf_addstr(sb, "<section id=\"review\">\n<h2>Since the last review"
		      "</h2>\n<p>");
	if (r->have_review) {
		strbuf_addf(sb, "Last review #%lld on ", (long long)r->last.id);
		html_escape(sb, r->last.created_at);
		strbuf_addstr(sb, " by ");
		html_escape(sb, r->last.author);
		strbuf_addstr(sb, " (model ");
		html_escape(sb, r->last.model_version);
		strbuf_addstr(sb, ", reference ");
		html_escape(sb, r->last.ref_version);
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

void report_html_pts_sol(struct strbuf *sb, const struct report *r)
{
	struct strbuf t = STRBUF_INIT;

	strbuf_addf(sb, "<section id=\"sol\">\n<h2>Speed-of-light violations "
		    "(%zu)</h2>\n", r->nsol);
	report_sol_text(&t, r);
	strbuf_addstr(sb, "<p>");
	html_escape(sb, strbuf_str(&t));
	strbuf_addstr(sb, "</p>\n");
	strbuf_release(&t);
	if (r->nsol)
		point_table(sb, r, r->sol, r->nsol, r->opts.top);
	strbuf_addstr(sb, "</section>\n");
}

void report_html_pts_noisy(struct strbuf *sb, const struct report *r)
{
	strbuf_addf(sb, "<section id=\"noisy\">\n<h2>Excluded as noisy (%zu)"
		    "</h2>\n", r->nnoisy);
	if (r->nnoisy)
		noisy_table(sb, r);
	else
		strbuf_addf(sb, "<p>None: every reference's coefficient of "
			    "variation is within %g%%.</p>\n",
			    r->opts.max_ref_cv * 100);
	strbuf_addstr(sb, "</section>\n");
}
