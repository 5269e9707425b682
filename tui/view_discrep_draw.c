/* Drawing the discrepancy list: header, column heads, visible rows. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "src/corr/correlate.h"
#include "src/matrix/matrix.h"
#include "tui/draw.h"
#include "tui/fmt.h"
#include "tui/keycol.h"
#include "tui/tui.h"
#include "tui/view.h"
#include "tui/view_discrep.h"

const char *const discrep_col_names[RC_COUNT] = {
	[RC_WORKLOAD] = "workload", [RC_OP] = "op", [RC_METRIC] = "metric",
	[RC_MODEL] = "model", [RC_REF] = "ref", [RC_ERR] = "err",
	[RC_FLAGS] = "flag", [RC_STATUS] = "status",
};

static int clampi(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* The status column as wide as the widest state word any point has (a
 * state word is never cut: "investigating", not "investig"), counted
 * again when the data or the annotations changed: one pass over a byte
 * a point. */
static int status_width(struct view *v)
{
	struct discrep *d = v->priv;
	const struct tui_data *t = &v->tui->data;
	unsigned char seen[256] = { 0 };
	size_t n = data_npoints(t);
	int w = (int)strlen(discrep_col_names[RC_STATUS]);

	if (d->stw && d->stw_gen == t->gen && d->stw_ann == t->ann_gen)
		return d->stw;
	seen[0] = 1;
	for (size_t i = 0; t->src.status && i < n; i++)
		seen[t->src.status[i]] = 1;
	for (unsigned c = 0; c < 256; c++)
		if (seen[c] && (c == 0 || data_status_name(c)[0]))
			w = w > (int)strlen(data_status_word(c)) ? w :
			    (int)strlen(data_status_word(c));
	d->stw = w;
	d->stw_gen = t->gen;
	d->stw_ann = t->ann_gen;
	return w;
}

/* The error column as wide as the largest |error| needs (the index is
 * in |error| order: the first point). */
static int err_width(struct view *v)
{
	const struct tui_data *t = &v->tui->data;
	char buf[32];
	int w;

	if (!data_npoints(t))
		return 6;
	fmt_pct(buf, sizeof(buf), t->ix->keys[0].err, 1);
	w = draw_width(buf);
	return w > 6 ? w : 6;
}

/*
 * Column widths for a screen w wide, by the documented priority
 * (docs/tui.md): err > status > flag > ref > model > names. The names
 * (workload, op, metric) always keep a minimum, so that a row says what
 * it is; then err, status, flag, ref and model in that order get their
 * full width (a number or a state word is never cut) while they fit, and
 * are left out (width 0) when they do not: at 50 columns model goes
 * first, err last. What is left widens the names to their own widths,
 * op and metric first (short names), then the workload: as wide as its
 * longest key and no wider; when the
 * keys do not fit, *abbr is set and the rows leave out the parts every
 * workload shares (wabbr.h), the heading showing them once.
 */
static void layout(struct view *v, int w, int *cw, int *abbr)
{
	static const int prio[] = { RC_ERR, RC_STATUS, RC_FLAGS, RC_REF,
				    RC_MODEL };
	struct discrep *d = v->priv;
	int full[RC_COUNT] = { 0 }, rest, room, need, keep;

	full[RC_ERR] = err_width(v);
	/* a bound's rows are not discrepancies to review: no status */
	full[RC_STATUS] = data_bound(&v->tui->data) ? 0 : status_width(v);
	full[RC_FLAGS] = 4;
	full[RC_MODEL] = full[RC_REF] = d->vw;
	cw[RC_WORKLOAD] = 12;
	cw[RC_OP] = clampi(d->opw, 2, 6);
	cw[RC_METRIC] = clampi(d->mw, 2, 4);
	/* the mark column, then the names at their minimum */
	rest = w - 2 - (cw[RC_WORKLOAD] + 1) - (cw[RC_OP] + 1) -
	       (cw[RC_METRIC] + 1);
	for (size_t i = 0; i < sizeof(prio) / sizeof(prio[0]); i++) {
		int c = prio[i];

		cw[c] = full[c] && full[c] + 1 <= rest ? full[c] : 0;
		rest -= cw[c] ? cw[c] + 1 : 0;
	}
	/* the names' room; the workload's at op and metric's minimum */
	room = rest + cw[RC_WORKLOAD] + cw[RC_OP] + cw[RC_METRIC];
	rest = room - cw[RC_OP] - cw[RC_METRIC];
	need = d->wa.fullw > 8 ? d->wa.fullw : 8;
	*abbr = 0;
	if (need > rest && d->wa.ncommon) {
		*abbr = 1;
		need = d->wa.abbrw > 8 ? d->wa.abbrw : 8;
	}
	if (need > rest && d->wa.ngroups > 1 && d->wa.abbrw2 < need) {
		*abbr = 2;
		need = d->wa.abbrw2 > 8 ? d->wa.abbrw2 : 8;
	}
	/* op and metric names (short: gemm_down, ttft) get their own
	 * widths while the workload keeps 12 (decode/bs=32), then the
	 * workload the rest */
	keep = need < 12 ? need : 12;
	for (int c = RC_OP; c <= RC_METRIC; c++) {
		int want = clampi(c == RC_OP ? d->opw : d->mw, c == RC_OP ? 2 :
				  6, 18);	/* the heading "metric" */
		int give = want - cw[c];

		if (give > rest - keep)
			give = rest - keep;
		if (give > 0) {
			cw[c] += give;
			rest -= give;
		}
	}
	/* the heading of shared parts is worth the spare columns first */
	if (*abbr == 1 && d->wa.templ && wabbr_width(d->wa.templ) + 1 > need)
		need = wabbr_width(d->wa.templ) + 1;
	cw[RC_WORKLOAD] = rest > need ? need : rest > 4 ? rest : 4;
}

static void flags_text(unsigned f, char *buf)
{
	int n = 0;

	if (f & CORR_WITHIN_NOISE)
		buf[n++] = 'N';
	if (f & CORR_SOL_VIOLATION)
		buf[n++] = 'S';
	if (f & CORR_NOISY_REF)
		buf[n++] = 'X';
	if (f & CORR_WAIVED)
		buf[n++] = 'W';
	if (f & CORR_INVALID)
		buf[n++] = 'I';
	if (f & CORR_UNVERIFIED)
		buf[n++] = '?';
	buf[n] = '\0';
}

static void draw_heads(struct view *v, int y, const int *cw, int abbr)
{
	struct discrep *d = v->priv;
	int x = 2;
	char head[160];

	for (int c = 0; c < RC_COUNT; c++) {
		const char *arrow = "";

		if (!cw[c])
			continue;	/* left out at this width */
		if (c == d->rows.col || (d->rows.col < 0 && c == RC_ERR))
			arrow = d->rows.col < 0 || d->rows.desc ?
				(draw_ascii() ? " v" : "\xe2\x96\xbc") :
				(draw_ascii() ? " ^" : "\xe2\x96\xb2");
		snprintf(head, sizeof(head), "%s%s", c == RC_WORKLOAD &&
			 abbr == 1 ? d->wa.templ : c == RC_ERR &&
			 data_bound(&v->tui->data) ? "SoL" :
			 discrep_col_names[c], arrow);
		if (c == RC_WORKLOAD && abbr == 1 && draw_width(head) > cw[c]) {
			/* the model name first; "~" says there is more */
			int used = draw_text(y, x, cw[c] - 1, head, c == v->col ?
					     TH_COLSEL : TH_COLHEAD);

			draw_text(y, x + used, 1, "~", c == v->col ? TH_COLSEL :
				  TH_COLHEAD);
		} else if (c >= RC_MODEL && c <= RC_ERR)
			draw_text_right(y, x, cw[c], head, c == v->col ?
					TH_COLSEL : TH_COLHEAD);
		else
			draw_text_cut(y, x, cw[c], head, c == v->col ?
				      TH_COLSEL : TH_COLHEAD);
		x += cw[c] + 1;
	}
}

/* The search's match in a cell that shows text whole, highlighted. */
static void highlight(int y, int x, int w, const char *shown,
		      const char *needle)
{
	size_t n = strlen(needle);
	char buf[160];
	int col = 0;

	if (!n || n >= sizeof(buf) || draw_width(shown) > w)
		return;
	for (const char *p = shown; *p; p++) {
		if (!strncasecmp(p, needle, n)) {
			snprintf(buf, sizeof(buf), "%.*s", (int)n, p);
			draw_text(y, x + col, w - col, buf, TH_MATCH);
			return;
		}
		col += ((unsigned char)*p & 0xc0) != 0x80;
	}
}

/* One cell at *x, advancing *x past it and a separator; a column left
 * out at this width (w 0) draws nothing. Text cut to fit ends in "~". */
static void cell(int y, int *x, int w, const char *text, enum theme_role role,
		 int right)
{
	if (!w)
		return;
	if (right)
		draw_text_right(y, *x, w, text, role);
	else
		draw_text_cut(y, *x, w, text, role);
	*x += w + 1;
}

/* A name cell with the search's match highlighted. */
static void name_cell(struct view *v, int y, int *x, int w, const char *text,
		      enum theme_role role)
{
	int at = *x;

	cell(y, x, w, text, role, 0);
	if (w && v->search[0])
		highlight(y, at, w, text, v->search);
}

static void draw_row(struct view *v, size_t row, int y, int w, const int *cw,
		     int abbr)
{
	struct discrep *d = v->priv;
	struct tui_data *data = &v->tui->data;
	uint32_t i = d->rows.idx[row];
	struct corr_point tmp;
	const struct corr_point *p = data_point(data, i, &tmp);
	int cur = row == v->cursor, x = 2, sev = data_point_severity(data, p);
	enum theme_role base = cur ? TH_CURSOR : TH_NORMAL, erole;
	const char *unit = data_metric_unit(data, p->metric_id), *shown;
	char buf[256];

	erole = cur ? TH_CURSOR : (p->flags & (CORR_WITHIN_NOISE | CORR_WAIVED))
		? TH_DIM : sev == 2 ? TH_SEV_FAIL : sev == 1 ? TH_SEV_WARN :
		TH_SEV_OK;
	if (cur)
		draw_fill(y, 0, w, TH_CURSOR);
	if (d->marked[i])
		draw_text(y, 0, 1, "*", cur ? TH_CURSOR : TH_MARK);
	/* new (+) or changed (!) since the last review; ~ is only a cut */
	if (data->since && data->since[i])
		draw_text(y, 1, 1, data->since[i] == DATA_NEW ? "+" : "!",
			  cur ? TH_CURSOR : TH_MARK);
	shown = keycol_apply(&d->wa, abbr, cw[RC_WORKLOAD], p->workload, buf,
			     sizeof(buf));
	draw_text_mid(y, x, cw[RC_WORKLOAD], shown, base);
	if (v->search[0])
		highlight(y, x, cw[RC_WORKLOAD], shown, v->search);
	x += cw[RC_WORKLOAD] + 1;
	name_cell(v, y, &x, cw[RC_OP], p->op, base);
	name_cell(v, y, &x, cw[RC_METRIC], p->metric, base);
	fmt_si_unit(buf, sizeof(buf), p->model, unit, draw_ascii());
	cell(y, &x, cw[RC_MODEL], buf, base, 1);
	fmt_si_unit(buf, sizeof(buf), p->ref, unit, draw_ascii());
	cell(y, &x, cw[RC_REF], buf, base, 1);
	if (data_bound(data)) {
		/* the fraction of speed of light the reference reaches; over
		 * 100% beats the bound */
		double f = matrix_sol_fraction(p->ref, p->model,
					       data_metric_higher(data,
								  p->metric_id));

		fmt_pct(buf, sizeof(buf), f, 0);
		if (!cur)
			erole = f > 1 ? TH_SEV_FAIL : TH_NORMAL;
	} else {
		fmt_pct(buf, sizeof(buf), p->err, 1);
	}
	cell(y, &x, cw[RC_ERR], buf, erole, 1);
	flags_text(p->flags, buf);
	cell(y, &x, cw[RC_FLAGS], buf, base, 0);
	cell(y, &x, cw[RC_STATUS], data_status_word(data->src.status ?
		data->src.status[i] : 0), base, 0);
}

void discrep_draw(struct view *v, int y, int h, int w)
{
	struct discrep *d = discrep_priv(v);
	int cw[RC_COUNT], abbr;

	if (!d->have_rows) {
		draw_text(y, 0, w, "nothing to show", TH_DIM);
		return;
	}
	layout(v, w, cw, &abbr);
	memcpy(d->cw, cw, sizeof(cw));
	d->have_cw = 1;
	discrep_header(v, y, w);
	draw_heads(v, y + 1, cw, abbr);
	v->height = h - 2;
	view_clamp(v);
	if (!d->rows.n)
		draw_text(y + 2, 2, w - 2, d->filter.n ? "no rows match the "
			  "filter (F clears it)" : "no pairs", TH_DIM);
	for (int k = 0; k < v->height && v->top + (size_t)k < d->rows.n; k++)
		draw_row(v, v->top + (size_t)k, y + 2 + k, w, cw, abbr);
	discrep_remember_cursor(v);
}

