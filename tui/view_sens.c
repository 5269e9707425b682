/*
 * The Sensitivity view (issue 38 item 3): the current pair's knob sweeps
 * as `perfcorr sensitivity` measures them (src/corr/corr_sens.c): the
 * sweeps flagged blind or wrong direction first, worst (largest
 * |e_model - e_ref|) first, then the median elasticities per knob, op
 * and metric, then the sweeps that follow. Each sweep shows both
 * elasticities, Kendall's tau-b and a sparkline of each side along the
 * knob. A text view: the pairing is loaded once on open (corr_load),
 * rendered, and freed.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"
#include "src/corr/corr_sens.h"
#include "src/corr/correlate.h"
#include "src/pairidx/pairidx.h"
#include "tui/actions.h"
#include "tui/draw.h"
#include "tui/fmt.h"
#include "tui/plot.h"
#include "tui/theme.h"
#include "tui/tui.h"
#include "tui/view.h"

/* Glyphs of a sparkline: a longer sweep is drawn at this many points,
 * evenly spaced along it, the first and the last always. */
#define SENS_SPARK 8

struct sens_view {
	char model[256], ref[256];
	size_t sweeps, flagged;
};

struct item {
	const struct corr_knob *k;
	const struct corr_sweep *w;
};

static double gap(const struct item *it)
{
	return fabs(it->w->e_model - it->w->e_ref);
}

/* Flagged first, then the largest |e_model - e_ref| (the report's order
 * among the flagged ones), then knob, op, metric, fixed key. */
static int item_cmp(const void *a, const void *b)
{
	const struct item *x = a, *y = b;
	double dx = gap(x), dy = gap(y);
	int fx = x->w->flag != SENS_OK, fy = y->w->flag != SENS_OK, c;

	if (fx != fy)
		return fx ? -1 : 1;
	if (dx != dy)
		return dx > dy ? -1 : 1;
	if ((c = strcmp(x->k->knob, y->k->knob)) ||
	    (c = strcmp(x->k->op, y->k->op)) ||
	    (c = strcmp(x->k->metric, y->k->metric)))
		return c;
	return strcmp(x->w->fixed, y->w->fixed);
}

/* s in at most w columns, a cut one ending in "~" (docs/tui.md). */
static const char *cut(char *b, size_t len, const char *s, int w)
{
	if ((int)strlen(s) <= w)
		snprintf(b, len, "%s", s);
	else
		snprintf(b, len, "%.*s~", w - 1, s);
	return b;
}

static const char *num(char *b, size_t len, double x)
{
	if (isfinite(x))
		snprintf(b, len, "%+.3f", x);
	else
		snprintf(b, len, "-");
	return b;
}

/* The sparkline of ln v along the sweep on a span of `span` log units
 * centred on the side's own range, so both sides' moves compare whatever
 * the offset between them; the span is at least the move that counts
 * (CORR_SENS_REF_MOVES, 20%), so a flat pair draws flat, not its noise
 * magnified to the full height. */
static void spark(char *buf, size_t len, const double *v, size_t n,
		  double span)
{
	double l[SENS_SPARK], lo = INFINITY, hi = -INFINITY, mid;
	size_t m = n < SENS_SPARK ? n : SENS_SPARK;

	for (size_t i = 0; i < m; i++) {
		size_t at = m > 1 ? (size_t)lround((double)i * (double)(n - 1) /
						   (double)(m - 1)) : 0;

		l[i] = log(v[at]);
		lo = fmin(lo, l[i]);
		hi = fmax(hi, l[i]);
	}
	mid = (lo + hi) / 2;
	plot_sparkline_range(l, m, mid - span / 2, mid + span / 2,
			     draw_ascii(), buf, len);
}

/* s padded with blanks to w display columns: a UTF-8 glyph is 3 bytes,
 * so printf's %-8s would pad a 3-glyph sparkline by bytes (9: none) and
 * move the next column 5 to the left (QA finding). */
static const char *pad(char *b, size_t len, const char *s, int w)
{
	int n = snprintf(b, len, "%s", s);

	for (int c = draw_width(s); c < w && n > 0 && (size_t)n + 1 < len;
	     c++) {
		b[n++] = ' ';
		b[n] = '\0';
	}
	return b;
}

/* "1 pair", "2 pairs" */
static const char *plural(long n)
{
	return n == 1 ? "" : "s";
}

static void sweep_lines(struct view *v, const struct item *it)
{
	const struct corr_sweep *w = it->w;
	const struct corr_knob *k = it->k;
	double span = fmax(fmax(w->model_move, w->ref_move),
			   log(CORR_SENS_REF_MOVES));
	char em[24], er[24], t[24], sm[64], sr[64], om[64], kb[16], ob[24];
	char smp[80];
	char lo[32], hi[32];
	int role = w->flag == SENS_BLIND ? TH_SEV_FAIL :
		   w->flag == SENS_WRONG ? TH_SEV_WARN : TH_NORMAL;

	spark(sm, sizeof(sm), w->model, w->n, span);
	spark(sr, sizeof(sr), w->ref, w->n, span);
	snprintf(om, sizeof(om), "%s %s", k->op, k->metric);
	textbuf_add(&v->text, role, "  %-5s %-10s %-19s %7s %7s %5s  "
		    "%s %s", w->flag == SENS_BLIND ? "blind" :
		    w->flag == SENS_WRONG ? "wrong" : "ok",
		    cut(kb, sizeof(kb), k->knob, 10), cut(ob, sizeof(ob), om, 19),
		    num(em, sizeof(em), w->e_model), num(er, sizeof(er),
		    w->e_ref), isfinite(w->tau) ? (snprintf(t, sizeof(t),
		    "%.2f", w->tau), t) : "-", pad(smp, sizeof(smp), sm,
		    SENS_SPARK), sr);
	/* a knob's values are dimensionless: 131072, not 1.311e+05 */
	fmt_si_unit(lo, sizeof(lo), w->x[0], "", draw_ascii());
	fmt_si_unit(hi, sizeof(hi), w->x[w->n - 1], "", draw_ascii());
	textbuf_add(&v->text, TH_DIM, "        %s %s..%s (%zu): %s",
		    k->knob, lo, hi, w->n, w->fixed);
}

static void head_line(struct view *v)
{
	textbuf_add(&v->text, TH_COLHEAD, "  %-5s %-10s %-19s %7s %7s %5s  "
		    "%-*s %s", "flag", "knob", "op metric", "e_model", "e_ref",
		    "tau", SENS_SPARK, "model", "ref");
}

static void knob_table(struct view *v, const struct corr_sens *c)
{
	textbuf_add(&v->text, TH_HEADER, "Per knob: median elasticities over "
		    "its sweeps, mean tau");
	textbuf_add(&v->text, TH_COLHEAD, "  %-14s %-21s %6s %7s %7s %5s "
		    "%5s %5s", "knob", "op metric", "sweeps", "e_model",
		    "e_ref", "tau", "blind", "wrong");
	for (size_t i = 0; i < c->n; i++) {
		const struct corr_knob *k = &c->knobs[i];
		char om[64], em[24], er[24], t[24], kb[24], ob[24];

		snprintf(om, sizeof(om), "%s %s", k->op, k->metric);
		if (isfinite(k->tau_mean))
			snprintf(t, sizeof(t), "%.2f", k->tau_mean);
		else
			snprintf(t, sizeof(t), "-");
		textbuf_add(&v->text, k->blind + k->wrong ? TH_SEV_WARN :
			    TH_NORMAL, "  %-14s %-21s %6zu %7s %7s %5s "
			    "%5zu %5zu", cut(kb, sizeof(kb), k->knob, 14),
			    cut(ob, sizeof(ob), om, 21), k->nsweeps,
			    num(em, sizeof(em), k->e_model_med),
			    num(er, sizeof(er), k->e_ref_med), t, k->blind,
			    k->wrong);
	}
}

static void render(struct view *v, const struct corr_sens *c)
{
	struct sens_view *x = v->priv;
	struct item *it = xcalloc(c->sweeps ? c->sweeps : 1, sizeof(*it));
	size_t n = 0, i;

	for (i = 0; i < c->n; i++)
		for (size_t j = 0; j < c->knobs[i].nsweeps; j++)
			it[n++] = (struct item){ &c->knobs[i],
						 &c->knobs[i].sweeps[j] };
	qsort(it, n, sizeof(*it), item_cmp);
	x->sweeps = c->sweeps;
	x->flagged = c->blind + c->wrong;
	textbuf_add(&v->text, x->flagged ? TH_SEV_FAIL : TH_SEV_OK, "%zu "
		    "sweep%s: %zu blind, %zu wrong direction; %ld pair%s left "
		    "out (noisy, invalid, <= 0)", c->sweeps,
		    plural((long)c->sweeps), c->blind, c->wrong, c->skipped,
		    plural(c->skipped));
	textbuf_add(&v->text, TH_DIM, "  e: elasticity d ln y / d ln knob; "
		    "tau: Kendall tau-b; sparklines: ln y");
	textbuf_add(&v->text, TH_DIM, "  blind: ref moves >= 20%%, model < "
		    "1/4 of it; wrong: the slopes' signs differ");
	textbuf_add(&v->text, TH_HEADER, "Flagged sweeps (%zu), the largest "
		    "|e_model - e_ref| first", x->flagged);
	if (x->flagged)
		head_line(v);
	else
		textbuf_add(&v->text, TH_SEV_OK, "  none: the model moves with "
			    "every knob the reference moves along");
	for (i = 0; i < x->flagged; i++)
		sweep_lines(v, &it[i]);
	textbuf_add(&v->text, TH_NORMAL, "%s", "");
	knob_table(v, c);
	if (n > x->flagged) {
		textbuf_add(&v->text, TH_NORMAL, "%s", "");
		textbuf_add(&v->text, TH_HEADER, "The sweeps that follow (%zu)",
			    n - x->flagged);
		head_line(v);
	}
	for (; i < n; i++)
		sweep_lines(v, &it[i]);
	free(it);
}

static void sens_done(struct view *v)
{
	free(v->priv);
	v->priv = NULL;
	textbuf_clear(&v->text);
}

static int sens_open(struct view *v)
{
	const struct pidx *ix = v->tui->data.ix;
	struct corr_query q = CORR_QUERY_INIT;
	struct corr_set *s = NULL;
	struct sens_view *x;
	struct corr_sens c;

	sens_done(v);
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
	if (corr_load(&s, v->tui->db, &q) < 0 || corr_sens_build(&c, s, NULL)
	    < 0) {
		textbuf_add(&v->text, TH_ERROR, "  %s", pc_error_last());
		pc_error_clear();
	} else {
		render(v, &c);
		corr_sens_release(&c);
	}
	corr_set_free(s);
	v->nrows = v->text.n;
	v->top = v->cursor = 0;
	return 0;
}

static void sens_info(struct view *v, char *buf, size_t len)
{
	struct sens_view *x = v->priv;

	if (x)
		snprintf(buf, len, "%s vs %s: %zu/%zu flagged", x->model,
			 x->ref, x->flagged, x->sweeps);
}

static const int sens_footer[] = { ACT_BACK, ACT_SEARCH, ACT_RELOAD, 0 };

const struct view_ops sens_ops = {
	.name = "sensitivity",
	.title = "Sensitivity",
	.footer = sens_footer,
	.open = sens_open,
	.info = sens_info,
	.draw = view_draw_text_wrap,	/* long lines wrap */
	.handle = view_wrap_scroll,
	.match = view_text_match,
	.done = sens_done,
};
