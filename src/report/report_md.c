/* The report as GitHub-flavoured markdown (see report.h). Untrusted
 * names are made visible (util_safe_dup) and escaped for table cells. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/annot.h"
#include "src/corr/annot.h"
#include "src/corr/diff.h"
#include "src/corr/corrcpd.h"
#include "src/report/report_matrix.h"
#include "src/corr/correlate.h"
#include "base/error.h"
#include "base/html.h"
#include "src/corr/corrout.h"
#include "src/report/report.h"
#include "src/report/report_prev.h"
#include "src/report/report_sens.h"
#include "src/report/report_tiers.h"
#include "src/report/report_calib.h"
#include "src/report/report_prov.h"
#include "src/report/report_slo.h"
#include "src/report/report_tables.h"
#include "base/strbuf.h"
#include "src/report/svg.h"
#include "base/util.h"

static void cell(struct strbuf *sb, const char *s)
{
	strbuf_addstr(sb, " ");
	report_md_escape(sb, s);
	strbuf_addstr(sb, " |");
}

/* A link in a table cell: characters that would end the link or the
 * cell are percent-encoded in the target. */
static void md_link(struct strbuf *sb, const char *url)
{
	strbuf_addch(sb, '[');
	report_md_escape(sb, url);
	strbuf_addstr(sb, "](");
	for (const unsigned char *p = (const unsigned char *)url; *p; p++) {
		if (strchr("()<>|\\`[]\"'", *p))
			strbuf_addf(sb, "%%%02X", *p);
		else
			strbuf_addch(sb, (char)*p);
	}
	strbuf_addch(sb, ')');
}

/* The note, one <br> per line break, then the link: a Markdown link for
 * http(s), plain text otherwise. */
static void note_cell(struct strbuf *sb, const struct annot *a)
{
	strbuf_addstr(sb, " ");
	strbuf_add_lines(sb, a->note, report_md_escape, "<br>");
	if (a->link && *a->link) {
		strbuf_addstr(sb, a->note && *a->note ? " " : "");
		if (html_link_ok(a->link))
			md_link(sb, a->link);
		else
			report_md_escape(sb, a->link);
	}
	strbuf_addstr(sb, " |");
}

static void cellf(struct strbuf *sb, const char *s)
{
	strbuf_addf(sb, " %s |", s);
}

static void pct_cell(struct strbuf *sb, double v)
{
	char b[32];

	report_fmt_pct(b, sizeof(b), v);
	cellf(sb, b);
}

/* a signed error: "+19.65%", as the html */
static void err_cell(struct strbuf *sb, double v)
{
	char b[32];

	report_fmt_err(b, sizeof(b), v);
	cellf(sb, b);
}

static void num_cell(struct strbuf *sb, double v)
{
	char b[32];

	report_fmt_num(b, sizeof(b), v);
	cellf(sb, b);
}

static void si_cell(struct strbuf *sb, double v, const char *unit)
{
	char b[48];

	svg_fmt_si(b, sizeof(b), v, unit);
	cellf(sb, b);
}

/* The labels of the table's statistics shown in view (corrout.h), as
 * header cells. */
static void stat_heads(struct strbuf *sb, unsigned view)
{
	for (size_t k = 0; k < corrout_stats_count(); k++) {
		const struct corrout_stat *st = corrout_stats_at(k);

		if (st->views & view)
			cell(sb, st->label);
	}
}

/* One cell a statistic of s: a count, an error in percent, a number. */
static void stat_cell(struct strbuf *sb, const struct corrout_stat *st,
		      const struct stats_summary *s)
{
	double v = corrout_stat_value(st, s);

	if (st->count)
		strbuf_addf(sb, " %.0f |", v);
	else if (st->pct)
		pct_cell(sb, v);
	else
		num_cell(sb, v);
}

static void stat_cells(struct strbuf *sb, const struct stats_summary *s,
		       unsigned view)
{
	for (size_t k = 0; k < corrout_stats_count(); k++) {
		const struct corrout_stat *st = corrout_stats_at(k);

		if (st->views & view)
			stat_cell(sb, st, s);
	}
}

/* Every statistic of the table for all pairs (issue 19: the Markdown
 * printed a chosen few): name, key, value (and interval), description,
 * or why it is undefined. */
static void md_all_stats(struct strbuf *sb, const struct report *r)
{
	strbuf_addstr(sb, "## All statistics\n\nEvery statistic of "
		      "`perfcorr compare` over all pairs (docs/statistics.md)."
		      "\n\n| statistic | key | value | interval | about |\n"
		      "|---|---|--:|--:|---|\n");
	for (size_t k = 0; k < corrout_stats_count(); k++) {
		const struct corrout_stat *st = corrout_stats_at(k);
		const struct stats_ci *ci = corrout_stat_ci(st, &r->all);
		const char *why = corrout_stat_why(st, &r->all);
		/* a statistic in the metric's unit (RMSE, an intercept)
		 * prints with it: one metric only, else it is undefined */
		const char *unit = st->unit == CORROUT_U_METRIC &&
				   r->nmetrics == 1 ? r->units[0] : NULL;
		char lo[48], hi[48], b[112];

		strbuf_addch(sb, '|');
		cell(sb, st->label);
		strbuf_addf(sb, " `%s` |", st->key);
		if (st->interval)
			cellf(sb, "");
		else if (unit)
			si_cell(sb, corrout_stat_value(st, &r->all), unit);
		else
			stat_cell(sb, st, &r->all);
		if (ci && isfinite(ci->lo) && isfinite(ci->hi)) {
			if (unit) {
				svg_fmt_si(lo, sizeof(lo), ci->lo, unit);
				svg_fmt_si(hi, sizeof(hi), ci->hi, unit);
			} else if (st->pct) {
				report_fmt_pct(lo, sizeof(lo), ci->lo);
				report_fmt_pct(hi, sizeof(hi), ci->hi);
			} else {
				report_fmt_num(lo, sizeof(lo), ci->lo);
				report_fmt_num(hi, sizeof(hi), ci->hi);
			}
			snprintf(b, sizeof(b), "[%s, %s]", lo, hi);
			cellf(sb, b);
		} else if (ci && stats_ci_unknown(&r->all, b, sizeof(b))) {
			cellf(sb, "unknown");	/* the reason: md_intro */
		} else {
			cellf(sb, "");
		}
		if (why && (st->interval || !isfinite(corrout_stat_value(st,
							   &r->all)))) {
			strbuf_addstr(sb, " undefined: ");
			report_md_escape(sb, why);
			strbuf_addstr(sb, " |\n");
		} else {
			cell(sb, st->desc);
			strbuf_addch(sb, '\n');
		}
	}
	strbuf_addch(sb, '\n');
}

/* Is the pair comparable? (issue 37): said only when a pair was refused,
 * kept unverified or admitted by --allow-mismatch. */
static void md_fp(struct strbuf *sb, const struct report *r)
{
	struct strbuf t = STRBUF_INIT;

	if (report_fp_text(&t, r)) {
		strbuf_addstr(sb, "**Workload fingerprints:** ");
		report_md_escape(sb, strbuf_str(&t));
		strbuf_addstr(sb, "\n\n");
	}
	strbuf_release(&t);
}

/* The verdict line, then one bullet per rule. */
static void md_gate(struct strbuf *sb, const char *text)
{
	char *t = xstrdup(text), *save = NULL;
	int first = 1;

	strbuf_addstr(sb, "## Gate\n\n");
	for (char *l = strtok_r(t, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save)) {
		strbuf_addstr(sb, first ? "**" : "- ");
		report_md_escape(sb, l);
		strbuf_addstr(sb, first ? "**\n\n" : "\n");
		first = 0;
	}
	strbuf_addch(sb, '\n');
	free(t);
}

/* The html's cards as one line: the verdict, then what the meeting
 * acts on (open, new, regressions, speed of light). */
static void md_cards(struct strbuf *sb, const struct report *r)
{
	static const char *const verdict[] = { "PASS", "WARN", "FAIL",
		"UNKNOWN" };

	if (r->gate_text && r->gate_verdict >= 0 && r->gate_verdict <= 3)
		strbuf_addf(sb, "**Gate: %s** \xc2\xb7 ",
			    verdict[r->gate_verdict]);
	strbuf_addf(sb, "**%ld open** of %ld discrepanc%s", r->nopen_all,
		    r->ndiscrepancies, r->ndiscrepancies == 1 ? "y" : "ies");
	if (r->opts.since_last_review)
		strbuf_addf(sb, " \xc2\xb7 **%zu new** %s", r->nnew,
			    r->have_review ? "since the last review" :
			    "(no review recorded yet)");
	if (r->prev) {
		strbuf_addf(sb, " \xc2\xb7 **%zu regression%s** vs ",
			    report_prev_count(r, 1),
			    report_prev_count(r, 1) == 1 ? "" : "s");
		report_md_escape(sb, r->prev->before->model.version);
	}
	strbuf_addf(sb, " \xc2\xb7 **%ld speed-of-light violation%s**\n\n",
		    r->set->sol_violations, r->set->sol_violations == 1 ? "" :
		    "s");
}

static void md_intro(struct strbuf *sb, const struct report *r)
{
	const struct corr_set *s = r->set;
	char b[3][32];

	strbuf_addstr(sb, "# Correlation review: ");
	report_md_escape(sb, s->model.source);
	strbuf_addch(sb, ' ');
	report_md_escape(sb, s->model.version);
	strbuf_addstr(sb, " vs ");
	report_md_escape(sb, s->ref.source);
	strbuf_addch(sb, ' ');
	report_md_escape(sb, s->ref.version);
	strbuf_addf(sb, "\n\nGenerated %s. Model **", r->generated_at);
	report_md_escape(sb, s->model.source);
	strbuf_addf(sb, "** (%s), reference **", s->model.kind);
	report_md_escape(sb, s->ref.source);
	strbuf_addf(sb, "** (%s). Errors are (model - ref) / ref; a "
		    "*discrepancy* is a pair whose |error| exceeds %g%% and "
		    "the reference's own noise.\n\n", s->ref.kind,
		    r->opts.limit * 100);
	md_cards(sb, r);
	report_fmt_pct(b[0], sizeof(b[0]), r->all.mape);
	report_fmt_pct(b[1], sizeof(b[1]), r->all.bias);
	report_fmt_pct(b[2], sizeof(b[2]), r->all.p95_abs_err);
	strbuf_addf(sb, "**Overall:** %ld pairs, MAPE %s, bias %s, p95 "
		    "|error| %s; %ld discrepancies, %ld speed-of-light "
		    "violations, %ld excluded as noisy, %ld invalid.\n\n",
		    r->all.n, b[0], b[1], b[2], r->ndiscrepancies,
		    s->sol_violations, s->excluded_noisy, s->invalid);
	report_optimism(sb, r);
	strbuf_addstr(sb, "\n\n");
	md_fp(sb, r);
	{	/* issue 34: too few workloads for an interval */
		char why[160];

		if (stats_ci_unknown(&r->all, why, sizeof(why))) {
			strbuf_addstr(sb, "**Intervals unknown:** ");
			report_md_escape(sb, why);
			strbuf_addstr(sb, ".\n\n");
		}
	}
	if (r->gate_text)
		md_gate(sb, r->gate_text);
}

static void md_groups(struct strbuf *sb, const struct report *r)
{
	const char *metric = NULL;

	strbuf_addstr(sb, "## Accuracy by metric and op class\n");
	for (size_t i = 0; i < r->ngroups; i++) {
		const struct report_group *g = &r->groups[i];

		if (!metric || strcmp(metric, g->metric)) {
			metric = g->metric;
			strbuf_addstr(sb, "\n### ");
			report_md_escape(sb, g->metric);
			if (*g->unit)
				strbuf_addf(sb, " (%s)", g->unit);
			strbuf_addstr(sb, "\n\n| op class | n |");
			stat_heads(sb, CORROUT_V_REPORT);
			strbuf_addstr(sb, "\n|---|--:|");
			for (size_t k = 0; k < corrout_stats_count(); k++)
				if (corrout_stats_at(k)->views &
				    CORROUT_V_REPORT)
					strbuf_addstr(sb, "--:|");
			strbuf_addch(sb, '\n');
		}
		if (g->op_class)
			strbuf_addch(sb, '|'), cell(sb, g->op_class);
		else
			strbuf_addstr(sb, "| **all** |");
		strbuf_addf(sb, " %ld", g->s.n);
		if (stats_few_pairs(&g->s)) {
			/* issue 19: a bare MAPE over few pairs misleads */
			char b[160];

			strbuf_addstr(sb, " (few pairs");
			if (stats_ci_unknown(&g->s, b, sizeof(b)))
				strbuf_addf(sb, ": MAPE CI unknown, %ld "
					    "workloads", g->s.workloads);
			else if (isfinite(g->s.mape_ci.lo))
				strbuf_addf(sb, ": MAPE CI [%.2f%%, %.2f%%]",
					    g->s.mape_ci.lo * 100,
					    g->s.mape_ci.hi * 100);
			strbuf_addch(sb, ')');
		}
		strbuf_addstr(sb, " |");
		stat_cells(sb, &g->s, CORROUT_V_REPORT);
		strbuf_addch(sb, '\n');
	}
	strbuf_addch(sb, '\n');
}

static void md_trend(struct strbuf *sb, const struct report *r)
{
	if (!r->opts.trend || !r->nversions)
		return;
	strbuf_addstr(sb, "## MAPE by model version\n\n| version |");
	for (size_t m = 0; m < r->nmetrics; m++)
		cell(sb, r->metrics[m]);
	strbuf_addstr(sb, "\n|---|");
	for (size_t m = 0; m < r->nmetrics; m++)
		strbuf_addstr(sb, "--:|");
	strbuf_addch(sb, '\n');
	for (size_t v = 0; v < r->nversions; v++) {
		strbuf_addch(sb, '|');
		cell(sb, r->versions[v]);
		for (size_t m = 0; m < r->nmetrics; m++)
			pct_cell(sb, r->trend[v * r->nmetrics + m]);
		strbuf_addch(sb, '\n');
	}
	strbuf_addch(sb, '\n');
	/* where the series stepped (4 or more paired versions) */
	if (r->cpd && r->cpd->npoints >= CORR_CPD_MIN_VERSIONS) {
		struct strbuf t = STRBUF_INIT;

		corr_cpd_text(&t, r->cpd, (const char *const *)r->versions);
		strbuf_addstr(sb, "```\n");
		strbuf_addstr(sb, strbuf_str(&t));
		strbuf_addstr(sb, "```\n\n");
		strbuf_release(&t);
	}
}

static void flags_text(struct strbuf *sb, const struct report *r, size_t i)
{
	const struct corr_point *p = &r->set->points[i];
	size_t start = sb->len;

	if (r->is_new && r->is_new[i])
		strbuf_addstr(sb, "new, ");
	if (p->flags & CORR_WITHIN_NOISE)
		strbuf_addstr(sb, "within noise, ");
	if (p->flags & CORR_SOL_VIOLATION)
		strbuf_addstr(sb, "speed-of-light violation, ");
	if (p->flags & CORR_WAIVED)
		strbuf_addstr(sb, "waived, ");
	if (sb->len > start)
		sb->len -= 2, sb->buf[sb->len] = '\0';
}

static void md_point_row(struct strbuf *sb, const struct report *r,
			 size_t i, size_t rank)
{
	const struct corr_point *p = &r->set->points[i];
	const struct annot *a = p->ann;
	const char *unit = report_unit(r, p->metric);
	struct strbuf fl = STRBUF_INIT;

	strbuf_addf(sb, "| %zu |", rank);
	cell(sb, p->workload);
	cell(sb, p->op);
	cell(sb, p->metric);
	si_cell(sb, p->model, unit);
	si_cell(sb, p->ref, unit);
	err_cell(sb, p->err);
	flags_text(&fl, r, i);
	cellf(sb, strbuf_str(&fl));
	strbuf_release(&fl);
	if (a) {
		strbuf_addf(sb, " **%s** %s |", a->status, a->category);
		note_cell(sb, a);
		cell(sb, a->author);
		cell(sb, a->created_at);
	} else {
		strbuf_addstr(sb, " " ANNOT_STATE_NONE " | | | |");
	}
	strbuf_addch(sb, '\n');
}

static void md_list(struct strbuf *sb, const struct report *r,
		    const size_t *idx, size_t n, size_t cap)
{
	strbuf_addstr(sb, "| # | workload | op | metric | model | ref | error "
		      "| flags | annotation | note | by | date |\n"
		      "|--:|---|---|---|--:|--:|--:|---|---|---|---|---|\n");
	for (size_t k = 0; k < n && k < cap; k++)
		md_point_row(sb, r, idx[k], k + 1);
	if (n > cap)
		strbuf_addf(sb, "\n... and %zu more (every pair is in the csv "
			    "and json formats).\n", n - cap);
	strbuf_addch(sb, '\n');
}

/* The open discrepancies (worst first), the others folded, then the
 * pairs closest to the limit, which are not discrepancies. */
static void md_discrepancies(struct strbuf *sb, const struct report *r)
{
	long settled = r->ndiscrepancies - r->nopen_all;

	strbuf_addf(sb, "## Open discrepancies (%ld of %ld)\n\n",
		    r->nopen_all, r->ndiscrepancies);
	if (!r->ndiscrepancies)
		strbuf_addf(sb, "None: no pair's |error| exceeds %g%% and the "
			    "reference's noise.\n\n", r->opts.limit * 100);
	else if (!r->nopen_all)
		strbuf_addstr(sb, "None open: every discrepancy is explained, "
			      "accepted, fixed or wontfix (below).\n\n");
	else
		md_list(sb, r, r->open, (size_t)r->nopen_all, r->nopen);
	if (settled > 0) {
		strbuf_addf(sb, "<details><summary>Explained, accepted, fixed or "
			    "wontfix (%ld)</summary>\n\n", settled);
		report_status_md(sb, r);
		md_list(sb, r, r->settled, (size_t)settled, r->nsettled);
		strbuf_addstr(sb, "</details>\n\n");
	}
	if (r->nnear) {
		strbuf_addf(sb, "### Closest to the limit (not discrepancies)"
			    "\n\nThe %zu pair%s with the largest |error| that %s "
			    "within %g%% or within the reference's noise.\n\n",
			    r->nnear, r->nnear == 1 ? "" : "s", r->nnear == 1 ?
			    "is" : "are", r->opts.limit * 100);
		md_list(sb, r, r->near, r->nnear, r->nnear);
	}
	if (!r->nnoted)
		return;
	strbuf_addf(sb, "### Annotated, not discrepancies (%zu)\n\n",
		    r->nnoted);
	md_list(sb, r, r->noted, r->nnoted, r->opts.top);
}

static void md_changes(struct strbuf *sb, const struct report *r)
{
	if (!r->opts.since_last_review)
		return;
	strbuf_addstr(sb, "## Since the last review\n\n");
	if (r->have_review) {
		strbuf_addf(sb, "Last review: #%lld on %s by ",
			    (long long)r->last.id, r->last.created_at);
		report_md_escape(sb, r->last.author);
		strbuf_addstr(sb, " (model ");
		report_md_escape(sb, r->last.model_version);
		strbuf_addstr(sb, ", reference ");
		report_md_escape(sb, r->last.ref_version);
		strbuf_addf(sb, "). %zu new, %zu resolved, %ld still listed."
			    "\n\n", r->nnew, r->nresolved, r->nstill);
	} else {
		strbuf_addf(sb, "No review recorded yet for these sources: "
			    "all %zu discrepancies are new.\n\n", r->nnew);
	}
	strbuf_addf(sb, "### New discrepancies (%zu)\n\n", r->nnew);
	if (r->nnew) {
		size_t *idx = xcalloc(r->nnew, sizeof(*idx));

		for (size_t i = 0; i < r->nnew; i++)
			idx[i] = (size_t)r->news[i].point;
		md_list(sb, r, idx, r->nnew, r->opts.top);
		free(idx);
	}
	strbuf_addf(sb, "### Resolved (%zu)\n\n", r->nresolved);
	if (!r->nresolved)
		return;
	strbuf_addstr(sb, "| workload | op | metric | error then | error now "
		      "| why | annotation |\n|---|---|---|--:|--:|---|---|\n");
	for (size_t i = 0; i < r->nresolved && i < r->opts.top; i++) {
		const struct report_change *c = &r->resolved[i];
		const struct corr_point *p = c->point >= 0 ?
			&r->set->points[c->point] : NULL;

		strbuf_addch(sb, '|');
		cell(sb, c->workload);
		cell(sb, c->op);
		cell(sb, c->metric);
		err_cell(sb, c->err_then);
		err_cell(sb, p ? p->err : NAN);
		cellf(sb, c->reason);
		cell(sb, p ? report_status(p) : "");
		strbuf_addch(sb, '\n');
	}
	if (r->nresolved > r->opts.top)
		strbuf_addf(sb, "\n... and %zu more.\n", r->nresolved -
			    r->opts.top);
	strbuf_addch(sb, '\n');
}

static void md_sol(struct strbuf *sb, const struct report *r)
{
	strbuf_addf(sb, "## Speed-of-light violations (%zu)\n\n", r->nsol);
	report_sol_text(sb, r);
	strbuf_addstr(sb, "\n\n");
	if (r->nsol)
		md_list(sb, r, r->sol, r->nsol, r->opts.top);
}

static void md_noisy(struct strbuf *sb, const struct report *r)
{
	strbuf_addf(sb, "## Excluded as noisy (%zu)\n\n", r->nnoisy);
	if (!r->nnoisy) {
		strbuf_addf(sb, "None: every reference's coefficient of "
			    "variation is within %g%%.\n\n",
			    r->opts.max_ref_cv * 100);
		return;
	}
	strbuf_addf(sb, "References whose run-to-run coefficient of variation "
		    "exceeds %g%% are left out of every statistic.\n\n"
		    "| workload | op | metric | model | ref | ref stddev | n |"
		    "\n|---|---|---|--:|--:|--:|--:|\n",
		    r->opts.max_ref_cv * 100);
	for (size_t k = 0; k < r->nnoisy && k < r->opts.top; k++) {
		const struct corr_point *p = &r->set->points[r->noisy[k]];
		const char *unit = report_unit(r, p->metric);

		strbuf_addch(sb, '|');
		cell(sb, p->workload);
		cell(sb, p->op);
		cell(sb, p->metric);
		si_cell(sb, p->model, unit);
		si_cell(sb, p->ref, unit);
		si_cell(sb, p->ref_sd, unit);
		if (isfinite(p->ref_n))
			strbuf_addf(sb, " %g |\n", p->ref_n);
		else
			strbuf_addstr(sb, " n/a |\n");
	}
	if (r->nnoisy > r->opts.top)
		strbuf_addf(sb, "\n... and %zu more.\n", r->nnoisy -
			    r->opts.top);
	strbuf_addch(sb, '\n');
}

int report_write_md(const struct report *r, FILE *fp)
{
	struct strbuf sb = STRBUF_INIT;
	int rc = 0;

	/* the meeting's order (issue 35 item 6), as the html */
	md_intro(&sb, r);
	md_discrepancies(&sb, r);
	md_changes(&sb, r);
	report_prev_md(&sb, r);
	md_sol(&sb, r);
	report_slo_md(&sb, r);
	md_groups(&sb, r);
	report_calib_md(&sb, r);
	md_all_stats(&sb, r);
	report_ops_md(&sb, r);
	md_trend(&sb, r);
	report_sens_md(&sb, r);
	report_tiers_md(&sb, r);
	report_matrix_md(&sb, r);
	md_noisy(&sb, r);
	report_prov_md(&sb, r);
	if (fwrite(sb.buf, 1, sb.len, fp) != sb.len || ferror(fp))
		rc = pc_error_set(PC_EIO, "cannot write the report");
	strbuf_release(&sb);
	return rc;
}
