/* The review tables md and html share (see report_tables.h). */
#include "src/report/report_tables.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/annot.h"
#include "db/runinfo.h"
#include "src/corr/correlate.h"
#include "src/corr/corrgroup.h"
#include "src/corr/corrout.h"
#include "base/html.h"
#include "src/corr/annot.h"
#include "src/report/report_model.h"
#include "base/hmap.h"
#include "base/strbuf.h"
#include "base/util.h"

const char *const report_st_names[RST_COUNT] = {
	ANNOT_STATE_NONE, "investigating", "explained",
	"accepted with a note", "accepted without a note", "fixed",
	"wontfix",
};

static enum report_st status_of(const struct corr_point *p)
{
	const struct annot *a = p->ann;
	const char *s = a && a->status ? a->status : NULL;

	if (!s || !strcmp(s, "open"))
		return RST_OPEN;	/* not annotated is open (annot_state) */
	if (!strcmp(s, "explained"))
		return RST_EXPLAINED;
	if (!strcmp(s, "accepted"))
		return a->note && *a->note ? RST_ACCEPTED_NOTE :
		       RST_ACCEPTED_BARE;
	if (!strcmp(s, "fixed"))
		return RST_FIXED;
	if (!strcmp(s, "wontfix"))
		return RST_WONTFIX;
	return RST_INVESTIGATING;
}

void report_status_counts(const struct report *r, long counts[RST_COUNT])
{
	memset(counts, 0, RST_COUNT * sizeof(*counts));
	for (size_t i = 0; i < r->set->n; i++)
		if (report_is_discrepancy(&r->set->points[i], r->opts.limit))
			counts[status_of(&r->set->points[i])]++;
}

/* ---- per op ---- */

static const struct report *sort_r;	/* qsort has no context */

static size_t metric_rank(const struct report *r, const char *metric)
{
	for (size_t m = 0; m < r->nmetrics; m++)
		if (!strcmp(r->metrics[m], metric))
			return m;
	return r->nmetrics;
}

static int cmp_op(const void *a, const void *b)
{
	const struct corrgroup *g = sort_r->opg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	size_t mx = metric_rank(sort_r, g->values[x * 2]);
	size_t my = metric_rank(sort_r, g->values[y * 2]);
	double ex = g->stats[x].mape, ey = g->stats[y].mape;

	if (mx != my)
		return mx < my ? -1 : 1;
	if (isnan(ex) != isnan(ey))
		return isnan(ex) ? 1 : -1;
	if (ex != ey && !isnan(ex))
		return ex > ey ? -1 : 1;
	return strcmp(g->values[x * 2 + 1], g->values[y * 2 + 1]);
}

/*
 * The points grouped by (metric, op) in one pass: a point's group found
 * once per (metric, op id) (by the names "metric\x1fop" otherwise), the
 * groups in first-seen order, each group's points in set order
 * (corr_rows: one pass copies each point into its group), so each
 * summary adds in the order corrgroup_build's did; the order shown is op_order's (cmp_op), whatever the groups'.
 * The discrepancies and the op class of each group come in the same
 * pass. corrgroup_build formatted and hashed a composite key per point.
 */
int report_ops_build(struct report *r)
{
	const struct corr_set *s = r->set;
	struct corrgroup *g = xcalloc(1, sizeof(*g));
	const struct stats_paired_opts *ci = s->ci;
	size_t n = s->n, ng = 0, cap = 0;
	uint32_t *gi;
	struct corr_rows rows;
	struct hmap idx;
	int64_t k, maxop = -1, *memo = NULL;
	int rc = 0;

	g->nby = 2;
	r->opg = g;
	gi = xmalloc((n + 1) * sizeof(*gi));
	hmap_init(&idx);
	for (size_t i = 0; i < n; i++)
		maxop = s->points[i].op_id > maxop ? s->points[i].op_id : maxop;
	if (maxop >= 0 && maxop <= (int64_t)(4 * n + 1024))
		memo = xcalloc((size_t)(maxop + 1) * (r->nmetrics + 1),
			       sizeof(*memo));
	for (size_t i = 0; i < n; i++) {
		const struct corr_point *p = &s->points[i];
		int64_t *slot = memo && p->op_id >= 0 ?
			&memo[r->pmetric[i] * (size_t)(maxop + 1) +
			      (size_t)p->op_id] : NULL;

		if (slot && *slot) {
			k = *slot - 1;
		} else {
			char *key = xasprintf("%s\x1f%s", p->metric, p->op);

			if (!hmap_get(&idx, key, &k)) {
				k = (int64_t)ng++;
				hmap_put(&idx, key, k);
				if (ng > cap) {
					cap = cap ? 2 * cap : 64;
					g->values = xrealloc(g->values, 2 * cap *
							     sizeof(*g->values));
					r->op_class = xrealloc(r->op_class, cap *
							       sizeof(*r->op_class));
					r->op_disc = xrealloc(r->op_disc, cap *
							      sizeof(*r->op_disc));
				}
				g->values[k * 2] = xstrdup(p->metric);
				g->values[k * 2 + 1] = xstrdup(p->op);
				r->op_class[k] = p->op_class;
				r->op_disc[k] = 0;
			}
			free(key);
			if (slot)
				*slot = k + 1;
		}
		gi[i] = (uint32_t)k;
		r->op_disc[k] += report_is_discrepancy(p, r->opts.limit);
	}
	free(memo);
	hmap_release(&idx);
	if (!ng) {	/* the writers' arrays are never NULL */
		r->op_class = xcalloc(1, sizeof(*r->op_class));
		r->op_disc = xcalloc(1, sizeof(*r->op_disc));
	}
	g->n = ng;
	g->size = xcalloc(ng + 1, sizeof(*g->size));
	g->stats = xcalloc(ng + 1, sizeof(*g->stats));
	corr_rows_build(&rows, s, gi, ng);
	free(gi);
	/* the table shows no interval: skip the bootstrap of every op; and
	 * only error statistics (CORROUT_V_OPS) when md or html print it */
	r->set->ci = NULL;
	r->set->lean = r->opts.lean ? CORR_LEAN_ERR : 0;
	for (size_t j = 0; j < ng && rc >= 0; j++) {
		g->size[j] = rows.start[j + 1] - rows.start[j];
		rc = corr_rows_summary(&g->stats[j], s, &rows, j, 0);
	}
	r->set->ci = ci;
	r->set->lean = 0;
	corr_rows_release(&rows);
	if (rc < 0)
		return rc;
	r->op_order = xcalloc(ng + 1, sizeof(*r->op_order));
	for (size_t j = 0; j < ng; j++)
		r->op_order[j] = j;
	sort_r = r;
	qsort(r->op_order, ng, sizeof(*r->op_order), cmp_op);
	sort_r = NULL;
	return 0;
}

void report_ops_free(struct report *r)
{
	if (r->opg)
		corrgroup_release(r->opg);
	free(r->opg);
	free(r->op_order);
	free(r->op_disc);
	free(r->op_class);
}

static void md_cell(struct strbuf *sb, const char *s)
{
	strbuf_addch(sb, ' ');
	report_md_escape(sb, s);
	strbuf_addstr(sb, " |");
}

/* A cell of a statistic of the table (corrout.h): a count, an error in
 * percent or a number. */
static void md_stat(struct strbuf *sb, const struct corrout_stat *st,
		    const struct stats_summary *s)
{
	double v = corrout_stat_value(st, s);
	char b[32];

	if (st->count)
		snprintf(b, sizeof(b), "%.0f", v);
	else if (st->pct)
		report_fmt_pct(b, sizeof(b), v);
	else
		report_fmt_num(b, sizeof(b), v);
	strbuf_addf(sb, " %s |", b);
}

/* Calls row(sb, r, group, rank) for the listed ops of each metric,
 * head(sb, r, metric) before each metric, tail(sb, more) after. */
struct ops_out {
	void (*head)(struct strbuf *sb, const struct report *r, size_t m);
	void (*row)(struct strbuf *sb, const struct report *r, size_t g);
	void (*tail)(struct strbuf *sb, size_t more);
};

static void ops_walk(struct strbuf *sb, const struct report *r,
		     const struct ops_out *o)
{
	const struct corrgroup *g = r->opg;
	size_t i = 0;

	while (g && i < g->n) {
		const char *metric = g->values[r->op_order[i] * 2];
		size_t shown = 0, more = 0;

		o->head(sb, r, metric_rank(r, metric));
		for (; i < g->n && !strcmp(g->values[r->op_order[i] * 2],
					   metric); i++) {
			if (shown == r->opts.top) {
				more++;
				continue;
			}
			o->row(sb, r, r->op_order[i]);
			shown++;
		}
		o->tail(sb, more);
	}
}

static const char ops_intro[] = "Every op of each metric by MAPE, largest "
	"first (at most --top ops a metric): a problem of one op does not "
	"hide inside its op class.";

static void md_ops_head(struct strbuf *sb, const struct report *r, size_t m)
{
	strbuf_addstr(sb, "### ");
	report_md_escape(sb, m < r->nmetrics ? r->metrics[m] : "?");
	strbuf_addstr(sb, " by op\n\n| op | op class | n |");
	for (size_t k = 0; k < corrout_stats_count(); k++) {
		const struct corrout_stat *st = corrout_stats_at(k);

		if (st->views & CORROUT_V_OPS) {
			strbuf_addch(sb, ' ');
			report_md_escape(sb, st->label);
			strbuf_addstr(sb, " |");
		}
	}
	strbuf_addstr(sb, " discrepancies |\n|---|---|--:|");
	for (size_t k = 0; k < corrout_stats_count(); k++)
		if (corrout_stats_at(k)->views & CORROUT_V_OPS)
			strbuf_addstr(sb, "--:|");
	strbuf_addstr(sb, "--:|\n");
}

static void md_ops_row(struct strbuf *sb, const struct report *r, size_t k)
{
	const struct stats_summary *s = &r->opg->stats[k];

	strbuf_addch(sb, '|');
	md_cell(sb, r->opg->values[k * 2 + 1]);
	md_cell(sb, r->op_class[k] ? r->op_class[k] : "");
	strbuf_addf(sb, " %ld |", s->n);
	for (size_t j = 0; j < corrout_stats_count(); j++) {
		const struct corrout_stat *st = corrout_stats_at(j);

		if (st->views & CORROUT_V_OPS)
			md_stat(sb, st, s);
	}
	strbuf_addf(sb, " %ld |\n", r->op_disc[k]);
}

static void md_ops_tail(struct strbuf *sb, size_t more)
{
	if (more)
		strbuf_addf(sb, "\n... and %zu more ops.\n", more);
	strbuf_addch(sb, '\n');
}

void report_ops_md(struct strbuf *sb, const struct report *r)
{
	static const struct ops_out o = { md_ops_head, md_ops_row,
					  md_ops_tail };

	if (!r->opg || !r->opg->n)
		return;
	strbuf_addf(sb, "## Accuracy by op\n\n%s\n\n", ops_intro);
	ops_walk(sb, r, &o);
}

static void html_stat(struct strbuf *sb, const struct corrout_stat *st,
		      const struct stats_summary *s)
{
	double v = corrout_stat_value(st, s);
	char b[32];

	if (st->count)
		snprintf(b, sizeof(b), "%.0f", v);
	else if (st->pct)
		report_fmt_pct(b, sizeof(b), v);
	else
		report_fmt_num(b, sizeof(b), v);
	strbuf_addf(sb, "<td class=\"n%s\">%s</td>", isfinite(v) ? "" : " na",
		    b);
}

static void html_ops_head(struct strbuf *sb, const struct report *r,
			  size_t m)
{
	strbuf_addstr(sb, "<h3>");
	html_escape(sb, m < r->nmetrics ? r->metrics[m] : "?");
	strbuf_addstr(sb, " by op</h3>\n<table class=\"stats ops\">\n<thead>"
		      "<tr><th>op</th><th>op class</th><th class=\"n\">n</th>");
	for (size_t k = 0; k < corrout_stats_count(); k++) {
		const struct corrout_stat *st = corrout_stats_at(k);

		if (st->views & CORROUT_V_OPS) {
			strbuf_addstr(sb, "<th class=\"n\">");
			html_escape(sb, st->label);
			strbuf_addstr(sb, "</th>");
		}
	}
	strbuf_addstr(sb, "<th class=\"n\">discrepancies</th></tr></thead>\n"
		      "<tbody>\n");
}

static void html_ops_row(struct strbuf *sb, const struct report *r,
			 size_t k)
{
	const struct stats_summary *s = &r->opg->stats[k];

	strbuf_addstr(sb, "<tr><td>");
	html_escape(sb, r->opg->values[k * 2 + 1]);
	strbuf_addstr(sb, "</td><td>");
	html_escape(sb, r->op_class[k] ? r->op_class[k] : "");
	strbuf_addf(sb, "</td><td class=\"n\">%ld</td>", s->n);
	for (size_t j = 0; j < corrout_stats_count(); j++) {
		const struct corrout_stat *st = corrout_stats_at(j);

		if (st->views & CORROUT_V_OPS)
			html_stat(sb, st, s);
	}
	strbuf_addf(sb, "<td class=\"n%s\">%ld</td></tr>\n", r->op_disc[k] ?
		    " pos" : "", r->op_disc[k]);
}

static void html_ops_tail(struct strbuf *sb, size_t more)
{
	strbuf_addstr(sb, "</tbody>\n</table>\n");
	if (more)
		strbuf_addf(sb, "<p class=\"note\">&#8230; and %zu more ops."
			    "</p>\n", more);
}

void report_ops_html(struct strbuf *sb, const struct report *r)
{
	static const struct ops_out o = { html_ops_head, html_ops_row,
					  html_ops_tail };

	if (!r->opg || !r->opg->n)
		return;
	strbuf_addf(sb, "<section id=\"ops\">\n<h2>Accuracy by op</h2>\n<p "
		    "class=\"note\">%s</p>\n", ops_intro);
	ops_walk(sb, r, &o);
	strbuf_addstr(sb, "</section>\n");
}

/* ---- status breakdown ---- */

static long still_open(const long c[RST_COUNT])
{
	return c[RST_OPEN] + c[RST_INVESTIGATING];
}

void report_optimism(struct strbuf *sb, const struct report *r)
{
	/* optimism follows each metric's better direction, not the sign */
	strbuf_addf(sb, "The model is optimistic (predicts better than "
		    "measured: less time, more throughput) for %ld pair%s and "
		    "pessimistic for %ld.", r->all.optimistic,
		    r->all.optimistic == 1 ? "" : "s", r->all.pessimistic);
	if (r->all.excluded_zero_ref)
		strbuf_addf(sb, " %ld pair%s with a zero reference %s left "
			    "out of the statistics.", r->all.excluded_zero_ref,
			    r->all.excluded_zero_ref == 1 ? "" : "s",
			    r->all.excluded_zero_ref == 1 ? "is" : "are");
}

void report_status_md(struct strbuf *sb, const struct report *r)
{
	long c[RST_COUNT];

	if (!r->ndiscrepancies)
		return;
	report_status_counts(r, c);
	strbuf_addf(sb, "**%ld open of %ld discrepancies** (open: not "
		    "annotated or annotated open; or investigating).\n\n| status | discrepancies |\n"
		    "|---|--:|\n", still_open(c), r->ndiscrepancies);
	for (int i = 0; i < RST_COUNT; i++)
		strbuf_addf(sb, "| %s | %ld |\n", report_st_names[i], c[i]);
	strbuf_addch(sb, '\n');
}

void report_status_html(struct strbuf *sb, const struct report *r)
{
	static const char *const cls[RST_COUNT] = {
		"open", "open", "explained", "accepted", "accepted",
		"fixed", "wontfix",
	};
	long c[RST_COUNT];

	if (!r->ndiscrepancies)
		return;
	report_status_counts(r, c);
	strbuf_addf(sb, "<p><b>%ld open of %ld discrepancies</b> (open: not "
		    "annotated or annotated open; or investigating).</p>\n<table class=\"status\">\n"
		    "<thead><tr><th>status</th><th class=\"n\">discrepancies"
		    "</th></tr></thead>\n<tbody>\n", still_open(c),
		    r->ndiscrepancies);
	for (int i = 0; i < RST_COUNT; i++)
		strbuf_addf(sb, "<tr><td><span class=\"tag st-%s\">%s</span>"
			    "</td><td class=\"n\">%ld</td></tr>\n", cls[i],
			    report_st_names[i], c[i]);
	strbuf_addstr(sb, "</tbody>\n</table>\n");
}
