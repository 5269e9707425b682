/*
 * The Verdicts view (issue 38 items 1 and 2): the current pair judged
 * against the limits (--slo, else the --policy's slo) as `compare --slo`
 * judges it (src/corr/corr_slo.c): the confusion counts per limit, the
 * verdict flips and the near-limit keys worst first; and the tails of
 * the stated percentiles (src/corr/corr_tail.c): the error at each
 * percentile and the keys whose distributions differ most. A text view:
 * the pairing is loaded once on open (corr_load), rendered, and freed.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"
#include "src/corr/corr_slo.h"
#include "src/corr/corr_tail.h"
#include "src/corr/correlate.h"
#include "src/gate/policy.h"
#include "src/pairidx/pairidx.h"
#include "tui/actions.h"
#include "tui/draw.h"
#include "tui/fmt.h"
#include "tui/theme.h"
#include "tui/tui.h"
#include "tui/view.h"

/* Rows of each list drawn (the rest counted: compare lists them all). */
#define VERDICTS_TOP 12

struct verdicts {
	char model[256], ref[256];
	const char *from;		/* "--slo", "the policy", or NULL */
};

static void add_err(struct view *v, const char *what)
{
	textbuf_add(&v->text, TH_ERROR, "  %s: %s", what, pc_error_last());
	pc_error_clear();
}

static const char *pct(char *b, size_t len, double x)
{
	if (isfinite(x))
		snprintf(b, len, "%+.1f%%", 100 * x);
	else
		snprintf(b, len, "-");
	return b;
}

static void counts_line(struct view *v, const char *name,
			const struct corr_slo_counts *c)
{
	char a[16];
	double ag = corr_slo_agreement(c);

	if (isfinite(ag))
		snprintf(a, sizeof(a), "%.1f%%", 100 * ag);
	else
		snprintf(a, sizeof(a), "-");
	textbuf_add(&v->text, TH_NORMAL, "  %-30.30s %5ld %5ld %5ld %5ld %5ld "
		    "%5ld %7s", name, c->keys, c->cell[SLO_BOTH_MEET],
		    c->cell[SLO_BOTH_MISS], c->cell[SLO_MODEL_MEETS],
		    c->cell[SLO_MODEL_MISSES], c->cell[SLO_NEAR], a);
}

static void key_line(struct view *v, const struct corr_set *s,
		     const struct corr_slo_key *k)
{
	const struct corr_point *p = k->p;
	const char *u = corr_metric_unit(s, p->metric);
	const char *code = k->cell == SLO_MODEL_MEETS ? "M+R-" :
			   k->cell == SLO_MODEL_MISSES ? "M-R+" :
			   k->model_meets ? "near M+" : "near M-";
	char mm[24], rm[24], mv[32], rv[32];

	/* in the unit as the list shows it (480 ms, not 0.48 s) */
	fmt_si_unit(mv, sizeof(mv), p->model, u, draw_ascii());
	fmt_si_unit(rv, sizeof(rv), p->ref, u, draw_ascii());
	textbuf_add(&v->text, k->cell == SLO_NEAR ? TH_SEV_WARN : TH_SEV_FAIL,
		    "  %-7s %-12.12s model %s (%s)  ref %s (%s)", code,
		    p->metric, mv, pct(mm, sizeof(mm), k->model_margin), rv,
		    pct(rm, sizeof(rm), k->ref_margin));
	textbuf_add(&v->text, TH_DIM, "        %s %s", p->op, p->workload);
}

static void more(struct view *v, size_t n)
{
	if (n > VERDICTS_TOP)
		textbuf_add(&v->text, TH_DIM, "  ... and %zu more (perfcorr "
			    "compare --slo lists every one)", n - VERDICTS_TOP);
}

static void show_verdicts(struct view *v, const struct corr_set *s,
			  const struct corr_slo *slo,
			  const struct corr_slo_result *r)
{
	textbuf_add(&v->text, TH_NORMAL, "  %-30s %5s %5s %5s %5s %5s %5s %7s",
		    "limit", "keys", "meet", "miss", "M+R-", "M-R+", "near",
		    "agree");
	for (size_t i = 0; i < slo->n; i++)
		counts_line(v, slo->lim[i].text, &r->per[i]);
	if (slo->n > 1)
		counts_line(v, "all", &r->all);
	textbuf_add(&v->text, TH_DIM, "  M+R-: model meets, ref misses; M-R+: "
		    "the reverse; near: within ref's spread");
	if (r->all.no_spread)
		textbuf_add(&v->text, TH_DIM, "  %ld of %ld verdicts rest on "
			    "references that state no spread", r->all.no_spread,
			    r->all.keys);
	textbuf_add(&v->text, TH_NORMAL, "%s", "");
	textbuf_add(&v->text, TH_HEADER, "Verdict flips (%zu), worst first "
		    "(margin: the share of the limit met by)", r->nflips);
	for (size_t i = 0; i < r->nflips && i < VERDICTS_TOP; i++)
		key_line(v, s, &r->keys[i]);
	more(v, r->nflips);
	if (!r->nflips)
		textbuf_add(&v->text, TH_SEV_OK, "  none: the model gives every "
			    "confident verdict the reference gives");
	if (r->nnear) {
		textbuf_add(&v->text, TH_HEADER, "Near the limit (%zu): no "
			    "confident verdict either way", r->nnear);
		for (size_t i = 0; i < r->nnear && i < VERDICTS_TOP; i++)
			key_line(v, s, &r->keys[r->nflips + i]);
		more(v, r->nnear);
	}
}

static void show_tails(struct view *v, const struct corr_tails *t)
{
	char lv[24], a[24], b[24], c[24];

	if (!t->npct) {
		textbuf_add(&v->text, TH_DIM, "  no pair states percentiles "
			    "(metrics named NAME_pNN: ttft_p50, ttft_p99 ...)");
		return;
	}
	textbuf_add(&v->text, TH_NORMAL, "  %-14s %-6s %5s %8s %8s %9s",
		    "metric", "level", "n", "MAPE", "bias", "max|err|");
	for (size_t i = 0; i < t->npct; i++) {
		const struct corr_tail_pct *p = &t->pct[i];

		snprintf(a, sizeof(a), isfinite(p->sum.mape) ? "%.2f%%" : "-",
			 100 * p->sum.mape);
		snprintf(c, sizeof(c), isfinite(p->sum.max_abs_err) ?
			 "%.1f%%" : "-", 100 * p->sum.max_abs_err);
		textbuf_add(&v->text, TH_NORMAL, "  %-14.14s %-6s %5ld %8s "
			    "%8s %9s", p->base, corr_tail_name(lv, sizeof(lv),
			    p->u), p->sum.n, a, pct(b, sizeof(b), p->sum.bias),
			    c);
	}
	textbuf_add(&v->text, TH_NORMAL, "%s", "");
	textbuf_add(&v->text, TH_HEADER, "Distributions that differ most: W1 "
		    "of ln value (%zu of %zu keys)", t->nw, t->nkeys);
	if (!t->nw)
		textbuf_add(&v->text, TH_DIM, "  no key states two percentiles "
			    "on both sides");
	else
		textbuf_add(&v->text, TH_NORMAL, "  %7s %6s %8s %8s  %-11s %s",
			    "W1(log)", "x", "err low", "err high", "levels",
			    "metric op / workload");
	for (size_t i = 0; i < t->nw && i < VERDICTS_TOP; i++) {
		const struct corr_tail_key *k = &t->keys[i];
		char lo[24], hi[24], lvl[48];

		snprintf(lvl, sizeof(lvl), "%s..%s",
			 corr_tail_name(lo, sizeof(lo), k->u[0]),
			 corr_tail_name(hi, sizeof(hi), k->u[k->k - 1]));
		textbuf_add(&v->text, k->w1 > 0.1 ? TH_SEV_WARN : TH_NORMAL,
			    "  %7.4f %6.3f %8s %8s  %-11s %s %s", k->w1,
			    exp(k->w1), pct(a, sizeof(a), k->err_lo),
			    pct(b, sizeof(b), k->err_hi), lvl, k->base, k->op);
		textbuf_add(&v->text, TH_DIM, "          %s", k->workload);
	}
	more(v, t->nw);
}

/* The limits: --slo, else the policy's; 0 with none, <0 refused. */
static int limits(struct view *v, struct corr_slo *slo,
		  const struct corr_set *s)
{
	const struct tui_data *d = &v->tui->data;
	struct verdicts *x = v->priv;

	if (d->slo) {
		x->from = "--slo";
		if (corr_slo_parse(slo, d->slo, "--slo") < 0)
			return PC_EINVALID;
	} else if (d->policy && d->policy->slo.n) {
		x->from = "policy";
		corr_slo_copy(slo, &d->policy->slo);
	} else {
		return 0;
	}
	return corr_slo_resolve(slo, s, d->slo ? "--slo" : "the policy's slo");
}

static void render(struct view *v, struct corr_set *s)
{
	struct verdicts *x = v->priv;
	struct corr_slo slo = { 0 };
	struct corr_slo_result r = { 0 };
	struct corr_tails t;
	int rc;

	textbuf_add(&v->text, TH_HEADER, "Verdicts against the limits (a time "
		    "meets at or below, a rate at or above)");
	rc = limits(v, &slo, s);
	if (rc < 0)
		add_err(v, "limits");
	else if (!slo.n)
		textbuf_add(&v->text, TH_DIM, "  no limits: perfcorr tui --slo "
			    "ttft_p99=2s,tpot_p99=100ms (or mlperf:BENCHMARK), "
			    "or a --policy with an slo");
	else if (corr_slo_judge(&r, &slo, s, NULL, NULL, 0) < 0)
		add_err(v, "verdicts");
	else
		show_verdicts(v, s, &slo, &r);
	textbuf_add(&v->text, TH_NORMAL, "%s", "");
	textbuf_add(&v->text, TH_HEADER, "Tails: the error at each stated "
		    "percentile");
	s->lean = CORR_LEAN_ERR;
	if (corr_tails_build(&t, s, 0) < 0) {
		add_err(v, "tails");
	} else {
		show_tails(v, &t);
		corr_tails_release(&t);
	}
	corr_slo_result_release(&r);
	corr_slo_release(&slo);
	(void)x;
}

static void verdicts_done(struct view *v)
{
	free(v->priv);
	v->priv = NULL;
	textbuf_clear(&v->text);
}

static int verdicts_open(struct view *v)
{
	const struct pidx *ix = v->tui->data.ix;
	struct corr_query q = CORR_QUERY_INIT;
	struct corr_set *s = NULL;
	struct verdicts *x;

	verdicts_done(v);
	if (!ix)
		return 0;
	x = v->priv = xcalloc(1, sizeof(*x));
	snprintf(x->model, sizeof(x->model), "%s@%s", ix->model.source,
		 ix->model.version);
	snprintf(x->ref, sizeof(x->ref), "%s@%s", ix->ref.source,
		 ix->ref.version);
	q.model = x->model;
	q.ref = x->ref;
	q.roofline = v->tui->data.roofline;
	q.allow_mismatch = v->tui->data.allow_mismatch;
	q.no_params = 1;
	if (corr_load(&s, v->tui->db, &q) < 0)
		add_err(v, "pairing");
	else
		render(v, s);
	corr_set_free(s);
	v->nrows = v->text.n;
	v->top = v->cursor = 0;
	return 0;
}

static void verdicts_info(struct view *v, char *buf, size_t len)
{
	struct verdicts *x = v->priv;

	if (x)
		snprintf(buf, len, "%s vs %s%s%s", x->model, x->ref,
			 x->from ? "; limits: " : "", x->from ? x->from : "");
}

static const int verdicts_footer[] = { ACT_BACK, ACT_SEARCH, ACT_RELOAD,
				       0 };

const struct view_ops verdicts_ops = {
	.name = "verdicts",
	.title = "Verdicts",
	.footer = verdicts_footer,
	.open = verdicts_open,
	.info = verdicts_info,
	/* long lines (a refused limit's reason and cure, a serving key)
	 * wrap rather than end at the edge */
	.draw = view_draw_text_wrap,
	.handle = view_wrap_scroll,
	.match = view_text_match,
	.done = verdicts_done,
};
