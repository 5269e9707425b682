/* The report against the previous model version (see report_prev.h). */
#include "src/report/report_prev.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/annot.h"
#include "src/corr/annot.h"
#include "src/corr/correlate.h"
#include "src/corr/diff.h"
#include "base/html.h"
#include "src/report/report_model.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"

/* perfcorr diff's defaults: a value changed beyond 1e-9 relative, a
 * pair moved when its |error| changed by a point */
#define PREV_TOL 1e-9
#define PREV_MIN_DELTA 0.01

int report_prev_build(struct report *r, struct db *db)
{
	struct corr_query q = CORR_QUERY_INIT;
	const struct stats_paired_opts *ci = r->set->ci;
	struct corr_set *before = NULL;
	char **v = NULL, *model = NULL, *ref;
	size_t n = 0, at = 0;
	int rc = corr_versions(db, r->set->model.source, &v, &n);

	while (rc == 0 && at < n && strcmp(v[at], r->set->model.version))
		at++;
	if (rc < 0 || at == 0 || at == n)
		goto done;	/* no earlier version */
	model = xasprintf("%s@%s", r->set->model.source, v[at - 1]);
	ref = xasprintf("%s@%s", r->set->ref.source, r->set->ref.version);
	q.model = model;
	q.ref = ref;
	q.max_ref_cv = r->opts.max_ref_cv;
	q.roofline = r->opts.roofline;
	q.allow_mismatch = r->allow;
	rc = corr_load(&before, db, &q);
	free(ref);
	if (rc == PC_ENOTFOUND) {	/* it pairs nothing: no section */
		pc_error_clear();
		rc = 0;
		goto done;
	}
	if (rc < 0)
		goto done;
	r->prev = xcalloc(1, sizeof(*r->prev));
	r->set->ci = NULL;	/* no interval shown: no bootstrap */
	rc = diff_build(r->prev, before, r->set, PREV_TOL, PREV_MIN_DELTA);
	r->prev->borrowed = 1;	/* the report's own set */
	r->set->ci = ci;
done:
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
	free(model);
	return rc < 0 ? rc : 0;
}

void report_prev_free(struct report *r)
{
	if (!r->prev)
		return;
	diff_release(r->prev);
	free(r->prev);
	r->prev = NULL;
}

size_t report_prev_count(const struct report *r, int reg)
{
	const struct diff *d = r->prev;
	size_t k = 0;

	for (size_t i = 0; i < d->n; i++)
		k += reg ? diff_is_regression(d, &d->ch[i]) :
		     diff_is_improvement(d, &d->ch[i]);
	return k;
}

static const char *status_of(const struct corr_point *p)
{
	return annot_state(p->ann);
}

static void pct(char *b, size_t len, double v)
{
	report_fmt_pct(b, len, v);
}

static void md_table(struct strbuf *sb, const struct report *r, int reg)
{
	const struct diff *d = r->prev;
	size_t *idx, shown = 0, total = diff_list(d, reg, &idx);
	char eb[32], ea[32];

	/* the meeting reads the regressions; the improvements fold */
	strbuf_addf(sb, reg ? "### %s (%zu)\n\n" : "<details><summary>%s "
		    "(%zu)</summary>\n\n", reg ? "Regressions" :
		    "Improvements", total);
	if (!total) {
		strbuf_addstr(sb, reg ? "None.\n\n" : "None.\n\n</details>"
			      "\n\n");
		free(idx);
		return;
	}
	strbuf_addstr(sb, "| workload | op | metric | error before | error "
		      "after | \\|error\\| change | changed | annotation |\n"
		      "|---|---|---|--:|--:|--:|---|---|\n");
	for (; shown < total && shown < r->opts.top; shown++) {
		const struct diff_change *c = &d->ch[idx[shown]];

		strbuf_addstr(sb, "| ");
		report_md_escape(sb, c->a->workload);
		strbuf_addstr(sb, " | ");
		report_md_escape(sb, c->a->op);
		strbuf_addstr(sb, " | ");
		report_md_escape(sb, c->a->metric);
		report_fmt_err(eb, sizeof(eb), c->b->err);
		report_fmt_err(ea, sizeof(ea), c->a->err);
		strbuf_addf(sb, " | %s | %s | %+.2f pt | %s | %s |\n", eb, ea,
			    diff_abs_change(c) * 100,
			    diff_cause_names[c->cause], status_of(c->a));
	}
	if (total > shown)
		strbuf_addf(sb, "\n... and %zu more.\n", total - shown);
	strbuf_addstr(sb, reg ? "\n" : "\n</details>\n\n");
	free(idx);
}

static void headline(struct strbuf *sb, const struct report *r,
		     void (*esc)(struct strbuf *, const char *))
{
	const struct diff *d = r->prev;
	char mb[32], ma[32];

	pct(mb, sizeof(mb), d->sb.mape);
	pct(ma, sizeof(ma), d->sa.mape);
	strbuf_addstr(sb, "Version ");
	esc(sb, d->before->model.version);
	strbuf_addstr(sb, " to ");
	esc(sb, d->after->model.version);
	strbuf_addf(sb, ", both against the same reference: MAPE %s to %s; "
		    "%zu pairs in both, %zu regressed and %zu improved (their "
		    "|error| changed by 1 point or more), %zu only in the "
		    "previous version, %zu only in this one (as perfcorr "
		    "diff computes it).", mb, ma, d->n, report_prev_count(r, 1),
		    report_prev_count(r, 0), d->only_before, d->only_after);
}

void report_prev_md(struct strbuf *sb, const struct report *r)
{
	if (!r->prev)
		return;
	strbuf_addstr(sb, "## Against the previous model version\n\n");
	headline(sb, r, report_md_escape);
	strbuf_addstr(sb, "\n\n");
	corr_change_line(sb, &r->prev->change);
	strbuf_addstr(sb, " (the release-change test, as trend and diff).\n\n");
	md_table(sb, r, 1);
	md_table(sb, r, 0);
}

static void html_table(struct strbuf *sb, const struct report *r, int reg)
{
	const struct diff *d = r->prev;
	size_t *idx, shown = 0, total = diff_list(d, reg, &idx);
	char eb[32], ea[32];

	strbuf_addf(sb, reg ? "<h3>%s (%zu)</h3>\n" : "<details><summary>%s "
		    "(%zu)</summary>\n", reg ? "Regressions" : "Improvements",
		    total);
	if (!total) {
		strbuf_addstr(sb, reg ? "<p>None.</p>\n" : "<p>None.</p>\n"
			      "</details>\n");
		free(idx);
		return;
	}
	strbuf_addf(sb, "<table class=\"pts %s\">\n<thead><tr><th>workload"
		    "</th><th>op</th><th>metric</th><th class=\"n\">error "
		    "before</th><th class=\"n\">error after</th><th class=\"n\">"
		    "|error| change</th><th>changed</th><th>annotation</th>"
		    "</tr></thead>\n<tbody>\n", reg ? "reg" : "imp");
	for (; shown < total && shown < r->opts.top; shown++) {
		const struct diff_change *c = &d->ch[idx[shown]];

		strbuf_addstr(sb, "<tr><td class=\"wl\">");
		report_html_name(sb, c->a->workload);
		strbuf_addstr(sb, "</td><td>");
		report_html_name(sb, c->a->op);
		strbuf_addstr(sb, "</td><td>");
		report_html_name(sb, c->a->metric);
		report_fmt_err(eb, sizeof(eb), c->b->err);
		report_fmt_err(ea, sizeof(ea), c->a->err);
		strbuf_addf(sb, "</td><td class=\"n\">%s</td><td class=\"n\">%s"
			    "</td><td class=\"n %s\">%+.2f pt</td><td>%s</td>"
			    "<td><span class=\"tag st-%s\">%s</span></td></tr>\n",
			    eb, ea, reg ? "pos" : "neg",
			    diff_abs_change(c) * 100,
			    diff_cause_names[c->cause],
			    annot_state(c->a->ann),
			    status_of(c->a));
	}
	strbuf_addstr(sb, "</tbody>\n</table>\n");
	if (total > shown)
		strbuf_addf(sb, "<p class=\"note\">&#8230; and %zu more.</p>\n",
			    total - shown);
	if (!reg)
		strbuf_addstr(sb, "</details>\n");
	free(idx);
}

void report_prev_html(struct strbuf *sb, const struct report *r)
{
	if (!r->prev)
		return;
	strbuf_addstr(sb, "<section id=\"previous\">\n<h2>Against the "
		      "previous model version</h2>\n<p>");
	headline(sb, r, html_escape);
	strbuf_addstr(sb, "</p>\n<p class=\"change\">");
	{
		struct strbuf line = STRBUF_INIT;

		corr_change_line(&line, &r->prev->change);
		html_escape(sb, line.buf);
		strbuf_release(&line);
	}
	strbuf_addstr(sb, " (the release-change test, as trend and diff).</p>\n");
	html_table(sb, r, 1);
	html_table(sb, r, 0);
	strbuf_addstr(sb, "</section>\n");
}

void report_prev_json(struct strbuf *sb, const struct report *r)
{
	const struct diff *d = r->prev;

	if (!d) {
		strbuf_addstr(sb, "null");
		return;
	}
	strbuf_addstr(sb, "{\"version\":");
	strbuf_add_json_str(sb, d->before->model.version);
	strbuf_addf(sb, ",\"common\":%zu,\"regressed\":%zu,\"improved\":%zu,"
		    "\"only_before\":%zu,\"only_after\":%zu,\"change\":", d->n,
		    report_prev_count(r, 1), report_prev_count(r, 0), d->only_before, d->only_after);
	{	/* corr_change_json's object, as trend and diff print it */
		char *text = NULL;
		size_t len = 0;
		FILE *fp = open_memstream(&text, &len);

		if (fp) {
			corr_change_json(fp, &d->change);
			fclose(fp);
		}
		strbuf_addstr(sb, text && len ? text : "null");
		free(text);
	}
	strbuf_addch(sb, '}');
}
