/* The report's verdicts against limits and tails (see report_slo.h). */
#include "src/report/report_slo.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/html.h"
#include "base/strbuf.h"
#include "base/units.h"
#include "base/util.h"
#include "src/corr/corr_slo.h"
#include "src/corr/corr_slo_out.h"
#include "src/corr/corr_tail.h"
#include "base/error.h"
#include "src/corr/correlate.h"
#include "src/gate/policy.h"
#include "src/report/report_model.h"

struct report_slo {
	struct corr_slo slo;		/* n 0: no limits */
	char *why;			/* the policy's limits cannot judge
					   these pairs, or --slo's have
					   nothing to assess: why (owned),
					   or NULL */
	struct corr_slo_result res;
	struct corr_tails tails;	/* npct 0: no stated percentile */
};

int report_slo_build(struct report *r)
{
	struct report_slo *x = xcalloc(1, sizeof(*x));
	const struct stats_paired_opts *ci = r->set->ci;
	int lean = r->set->lean, rc = 0;

	/* --slo on percentiles where no pair states one: nothing to assess,
	 * said in the section (as compare --slo says it), not an error */
	if (r->opts.slo &&
	    ((rc = corr_slo_parse(&x->slo, r->opts.slo, "--slo")) < 0 ||
	     (!(x->why = corr_slo_nothing(&x->slo, r->set)) &&
	      ((rc = corr_slo_resolve(&x->slo, r->set, "--slo")) < 0 ||
	       (rc = corr_slo_judge(&x->res, &x->slo, r->set, NULL, NULL,
				    0)) < 0))))
		goto done;
	/* else the policy's: a limit these pairs lack is said in the
	 * section (the gate's rules say n/a), not an error of the report */
	if (!r->opts.slo && r->policy && r->policy->slo.n) {
		corr_slo_copy(&x->slo, &r->policy->slo);
		if (corr_slo_resolve(&x->slo, r->set, "the policy's slo") < 0) {
			x->why = xstrdup(pc_error_last());
			pc_error_clear();
		} else if ((rc = corr_slo_judge(&x->res, &x->slo, r->set, NULL,
						NULL, 0)) < 0) {
			goto done;
		}
	}
	/* the writers print errors only, no interval */
	r->set->ci = NULL;
	r->set->lean = CORR_LEAN_ERR;
	rc = corr_tails_build(&x->tails, r->set, 0);
	r->set->ci = ci;
	r->set->lean = lean;
done:
	if (rc < 0 || (!x->slo.n && !x->tails.npct)) {
		r->slo = x;
		report_slo_free(r);
		return rc;
	}
	r->slo = x;
	return 0;
}

const char *report_slo_why(const struct report *r)
{
	return r->slo ? r->slo->why : NULL;
}

void report_slo_free(struct report *r)
{
	if (!r->slo)
		return;
	corr_slo_result_release(&r->slo->res);
	corr_slo_release(&r->slo->slo);
	corr_tails_release(&r->slo->tails);
	free(r->slo->why);
	free(r->slo);
	r->slo = NULL;
}

/* One table row (or the header) in md or html. */
struct tab {
	struct strbuf *sb;
	int html;
};

/* Columns [right_from, right_to) are numbers, right-aligned. */
static void cells(struct tab *t, const char *const *c, int n, int head,
		  int right_from, int right_to)
{
	if (!t->html) {
		strbuf_addch(t->sb, '|');
		for (int i = 0; i < n; i++) {
			strbuf_addch(t->sb, ' ');
			report_md_escape(t->sb, c[i]);
			strbuf_addstr(t->sb, " |");
		}
		strbuf_addch(t->sb, '\n');
		if (head) {
			strbuf_addch(t->sb, '|');
			for (int i = 0; i < n; i++)
				strbuf_addstr(t->sb, i >= right_from &&
					      i < right_to ? "--:|" :
					      "---|");
			strbuf_addch(t->sb, '\n');
		}
		return;
	}
	strbuf_addstr(t->sb, head ? "<thead><tr>" : "<tr>");
	for (int i = 0; i < n; i++) {
		strbuf_addf(t->sb, "<%s%s>", head ? "th" : "td",
			    i >= right_from && i < right_to ?
			    " class=\"n\"" : "");
		html_escape(t->sb, c[i]);
		strbuf_addf(t->sb, "</%s>", head ? "th" : "td");
	}
	strbuf_addstr(t->sb, head ? "</tr></thead>\n<tbody>\n" : "</tr>\n");
}

static void open_table(struct tab *t)
{
	if (t->html)
		strbuf_addstr(t->sb, "<table class=\"pts\">\n");
}

static void close_table(struct tab *t)
{
	strbuf_addstr(t->sb, t->html ? "</tbody>\n</table>\n" : "\n");
}

static void para(struct tab *t, const char *text)
{
	if (t->html) {
		strbuf_addstr(t->sb, "<p>");
		html_escape(t->sb, text);
		strbuf_addstr(t->sb, "</p>\n");
	} else {
		strbuf_addf(t->sb, "%s\n\n", text);
	}
}

static void counts(struct tab *t, const char *name,
		   const struct corr_slo_counts *c)
{
	char b[SLO_NCELLS + 2][32];
	const char *row[SLO_NCELLS + 3];

	row[0] = name;
	snprintf(b[0], 32, "%ld", c->keys);
	row[1] = b[0];
	for (int i = 0; i < SLO_NCELLS; i++) {
		snprintf(b[i + 1], 32, "%ld", c->cell[i]);
		row[i + 2] = b[i + 1];
	}
	report_fmt_pct(b[SLO_NCELLS + 1], 32, corr_slo_agreement(c));
	row[SLO_NCELLS + 2] = b[SLO_NCELLS + 1];
	cells(t, row, SLO_NCELLS + 3, 0, 1, SLO_NCELLS + 3);
}

static void margin(char *b, size_t len, double v)
{
	if (isfinite(v))
		snprintf(b, len, "%+.2f%%", 100 * v);
	else
		snprintf(b, len, "n/a");
}

/* units_fmt, as the CLI and the TUI ("480 ms", not "0.48 s") */
static void value(char *b, size_t len, double v, const char *unit)
{
	if (isfinite(v))
		units_fmt(b, len, v, unit, 0);
	else
		snprintf(b, len, "n/a");
}

static void keys(struct tab *t, const struct report *r,
		 const struct corr_slo_key *k, size_t n, int near)
{
	static const char *const head[] = { "workload", "op", "metric",
		"limit", "model", "ref", "model margin", "ref margin",
		"verdict" };
	const struct report_slo *x = r->slo;

	open_table(t);
	cells(t, head, 9, 1, 4, 8);
	for (size_t i = 0; i < n && i < r->opts.top; i++) {
		const struct corr_point *p = k[i].p;
		const char *unit = corr_metric_unit(r->set, p->metric);
		char m[48], v[48], mm[32], rm[32], vd[64];
		const char *row[9];

		value(m, sizeof(m), p->model, unit);
		value(v, sizeof(v), p->ref, unit);
		margin(mm, sizeof(mm), k[i].model_margin);
		margin(rm, sizeof(rm), k[i].ref_margin);
		if (near)
			snprintf(vd, sizeof(vd), "near; model %s",
				 k[i].model_meets ? "meets" : "misses");
		else
			snprintf(vd, sizeof(vd), "%s",
				 corr_slo_cell_name(k[i].cell));
		row[0] = p->workload;
		row[1] = p->op;
		row[2] = p->metric;
		row[3] = x->slo.lim[k[i].lim].text;
		row[4] = m;
		row[5] = v;
		row[6] = mm;
		row[7] = rm;
		row[8] = vd;
		cells(t, row, 9, 0, 4, 8);
	}
	close_table(t);
	if (n > r->opts.top) {
		char more[96];

		snprintf(more, sizeof(more), "... and %zu more (the JSON "
			 "report lists every one).", n - r->opts.top);
		para(t, more);
	}
}

static void slo_section(struct tab *t, const struct report *r)
{
	static const char *const head[] = { "limit", "keys", "both meet",
		"both miss", "model meets, ref misses",
		"model misses, ref meets", "near limit", "agreement" };
	const struct report_slo *x = r->slo;
	struct strbuf s = STRBUF_INIT;

	if (x->why) {
		para(t, x->why);
		return;
	}
	strbuf_addstr(&s, "Does the model agree with the reference on whether "
		      "each key meets its limit (a time at or below it, a "
		      "rate at or above it)? A key whose reference lies within "
		      "its own spread (stddev, or min..max) of the limit is "
		      "near the limit: no confident verdict either way. "
		      "Agreement: the share of the confident verdicts where "
		      "both agree.");
	para(t, s.buf);
	open_table(t);
	cells(t, head, 8, 1, 1, 8);
	for (size_t i = 0; i < x->slo.n; i++) {
		char name[160];

		snprintf(name, sizeof(name), "%s%s%s%s", x->slo.lim[i].text,
			 x->slo.lim[i].from ? " (" : "",
			 x->slo.lim[i].from ? x->slo.lim[i].from : "",
			 x->slo.lim[i].from ? ")" : "");
		counts(t, name, &x->res.per[i]);
	}
	if (x->slo.n > 1)
		counts(t, "all", &x->res.all);
	close_table(t);
	strbuf_reset(&s);
	if (x->res.nflips) {
		strbuf_addf(&s, "Verdict flips (%zu), the reference furthest "
			    "across the limit first (margin: the fraction of "
			    "the limit a value meets it by; negative misses):",
			    x->res.nflips);
		para(t, s.buf);
		keys(t, r, x->res.keys, x->res.nflips, 0);
	} else {
		para(t, "No verdict flips.");
	}
	if (x->res.nnear) {
		strbuf_reset(&s);
		strbuf_addf(&s, "Near the limit (%zu):", x->res.nnear);
		para(t, s.buf);
		keys(t, r, x->res.keys + x->res.nflips, x->res.nnear, 1);
	}
	if (x->res.all.no_spread) {
		strbuf_reset(&s);
		strbuf_addf(&s, "%ld of %ld verdicts rest on references that "
			    "state no spread: how near their limit they are is "
			    "unknown.", x->res.all.no_spread, x->res.all.keys);
		para(t, s.buf);
	}
	strbuf_release(&s);
}

static void tails_section(struct tab *t, const struct report *r)
{
	static const char *const ph[] = { "metric", "level", "n", "MAPE",
		"bias", "max abs err" };
	static const char *const kh[] = { "workload", "op", "metric",
		"levels", "W1 (log)", "x", "err at lowest", "err at highest" };
	const struct corr_tails *tl = &r->slo->tails;
	struct strbuf s = STRBUF_INIT;
	char lv[24], b[6][32];
	size_t shown = 0;

	para(t, "The error at each stated percentile, over the keys that "
	     "state it:");
	open_table(t);
	cells(t, ph, 6, 1, 2, 6);
	for (size_t i = 0; i < tl->npct; i++) {
		const struct corr_tail_pct *p = &tl->pct[i];
		const char *row[6];

		snprintf(b[0], 32, "%ld", p->sum.n);
		report_fmt_pct(b[1], 32, p->sum.mape);
		report_fmt_pct(b[2], 32, p->sum.bias);
		report_fmt_pct(b[3], 32, p->sum.max_abs_err);
		row[0] = p->base;
		row[1] = corr_tail_name(lv, sizeof(lv), p->u);
		row[2] = b[0];
		row[3] = b[1];
		row[4] = b[2];
		row[5] = b[3];
		cells(t, row, 6, 0, 2, 6);
	}
	close_table(t);
	if (!tl->nw) {
		para(t, "No key states two common percentiles on both sides: "
		     "no distance between distributions.");
		strbuf_release(&s);
		return;
	}
	strbuf_addf(&s, "The keys whose distributions differ most: W1, the "
		    "Wasserstein-1 distance of ln value over the percentiles "
		    "both sides state (each quantile function linear between "
		    "them; x = e^W1, a typical quantile's factor); %zu of %zu "
		    "keys have one.", tl->nw, tl->nkeys);
	para(t, s.buf);
	open_table(t);
	cells(t, kh, 8, 1, 4, 8);
	for (size_t i = 0; i < tl->nw && shown < r->opts.top; i++, shown++) {
		const struct corr_tail_key *k = &tl->keys[i];
		struct strbuf l = STRBUF_INIT;
		const char *row[8];

		for (size_t j = 0; j < k->k; j++)
			strbuf_addf(&l, "%s%s", j ? "," : "",
				    corr_tail_name(lv, sizeof(lv), k->u[j]));
		snprintf(b[0], 32, "%.4f", k->w1);
		snprintf(b[1], 32, "%.3f", exp(k->w1));
		report_fmt_pct(b[2], 32, k->err_lo);
		report_fmt_pct(b[3], 32, k->err_hi);
		row[0] = k->workload;
		row[1] = k->op;
		row[2] = k->base;
		row[3] = l.buf;
		row[4] = b[0];
		row[5] = b[1];
		row[6] = b[2];
		row[7] = b[3];
		cells(t, row, 8, 0, 4, 8);
		strbuf_release(&l);
	}
	close_table(t);
	strbuf_release(&s);
}

void report_slo_md(struct strbuf *sb, const struct report *r)
{
	struct tab t = { sb, 0 };

	if (!r->slo)
		return;
	if (r->slo->slo.n) {
		strbuf_addstr(sb, "## Verdicts against the limits\n\n");
		slo_section(&t, r);
	}
	if (r->slo->tails.npct) {
		strbuf_addstr(sb, "## Tails and distributions\n\n");
		tails_section(&t, r);
	}
}

void report_slo_html(struct strbuf *sb, const struct report *r)
{
	struct tab t = { sb, 1 };

	if (!r->slo)
		return;
	if (r->slo->slo.n) {
		strbuf_addstr(sb, "<section id=\"slo\">\n<h2>Verdicts against "
			      "the limits</h2>\n");
		slo_section(&t, r);
		strbuf_addstr(sb, "</section>\n");
	}
	if (r->slo->tails.npct) {
		strbuf_addstr(sb, "<section id=\"tails\">\n<h2>Tails and "
			      "distributions</h2>\n");
		tails_section(&t, r);
		strbuf_addstr(sb, "</section>\n");
	}
}

void report_slo_json(struct strbuf *sb, const struct report *r)
{
	if (!r->slo)
		return;
	if (r->slo->why) {
		strbuf_addstr(sb, ",\n\"slo\":{\"why\":");
		strbuf_add_json_str(sb, r->slo->why);
		strbuf_addch(sb, '}');
	} else if (r->slo->slo.n) {
		strbuf_addstr(sb, ",\n\"slo\":");
		corr_slo_json(sb, &r->slo->slo, &r->slo->res, r->set, 0);
	}
	if (r->slo->tails.npct) {
		strbuf_addstr(sb, ",\n\"tails\":");
		corr_tails_json(sb, &r->slo->tails, 0);
	}
}
