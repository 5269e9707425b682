/* Drawing the discrepancy list: header, column heads, visible rows. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "src/corr/correlate.h"
#include "tui/draw.h"
#include "tui/fmt.h"
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

/* Column widths for a screen w wide: op and metric as wide as their
 * longest names within bounds, the values as wide as a value with its
 * unit, the workload as wide as its longest key and no wider (a wide
 * screen keeps the values next to the names). When the keys do not fit,
 * *abbr is set: the rows leave out the parts every workload shares
 * (wabbr.h) and the heading shows them once. Spare columns go to the
 * status and flags (investigating, NSXWI) last. */
static void layout(const struct discrep *d, int w, int *cw, int *abbr)
{
	static const int wide[RC_COUNT] = {
		[RC_WORKLOAD] = 0, [RC_OP] = 12, [RC_METRIC] = 8,
		[RC_MODEL] = 0, [RC_REF] = 0, [RC_ERR] = 8, [RC_FLAGS] = 5,
		[RC_STATUS] = 13,
	};
	static const int narrow[RC_COUNT] = {
		[RC_WORKLOAD] = 0, [RC_OP] = 10, [RC_METRIC] = 6,
		[RC_MODEL] = 0, [RC_REF] = 0, [RC_ERR] = 7, [RC_FLAGS] = 4,
		[RC_STATUS] = 11,
	};
	const int *fixed = w < 110 ? narrow : wide;
	int rest = w - 2;	/* the mark column and its space */
	int need, keep;

	for (int c = 0; c < RC_COUNT; c++) {
		cw[c] = fixed[c];
		if (c == RC_MODEL || c == RC_REF)
			cw[c] = d->vw + (w >= 110);
		if (c != RC_WORKLOAD)
			rest -= cw[c] + 1;
	}
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
	/* op and metric names get room while the workload keeps its own */
	keep = need < 36 ? need : 36;
	for (int c = RC_OP; c <= RC_METRIC; c++) {
		int want = clampi(c == RC_OP ? d->opw : d->mw, 6, 18);
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
	cw[RC_WORKLOAD] = rest > need ? need : rest > 12 ? rest : 12;
	rest -= cw[RC_WORKLOAD];
	for (int c = RC_STATUS; c >= RC_FLAGS && rest > 0; c--) {
		int give = clampi((c == RC_STATUS ? 13 : 5) - cw[c], 0, rest);

		cw[c] += give;
		rest -= give;
	}
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

/* The summary's r is null because it spans several metrics. */
static int mixed_metrics(const struct stats_summary *s)
{
	const char *why = stats_why(s, SF_PEARSON);

	return why && !strcmp(why, STATS_WHY_METRICS);
}

static int draw_progress(struct view *v, int y, int x, int w);

/* The intervals of the cached summary (issue 19), last on the header
 * line where they fit: MAPE's bootstrap over workloads, r's Fisher-z. */
static void draw_ci(const struct stats_summary *s, int y, int x, int w)
{
	char buf[96], lo[16], hi[16];
	int n = 0;

	if (!isfinite(s->mape_ci.lo))
		return;
	fmt_pct(lo, sizeof(lo), s->mape_ci.lo, 0);
	fmt_pct(hi, sizeof(hi), s->mape_ci.hi, 0);
	n = snprintf(buf, sizeof(buf), "  | 95%% CI MAPE [%s,%s]", lo, hi);
	if (isfinite(s->pearson_ci.lo) && !mixed_metrics(s) && n > 0)
		snprintf(buf + n, sizeof(buf) - (size_t)n, " r [%.3f,%.3f]%s",
			 s->pearson_ci.lo, s->pearson_ci.hi,
			 s->ci_clustered ? "" : " pair-level");
	if (draw_width(buf) <= w - x)
		draw_text(y, x, w - x, buf, TH_NORMAL);
}

/* The fingerprint check (issue 37): pairs kept unverified (flag ?),
 * pairs refused as not comparable (never rows) with the first field,
 * pairs --allow-mismatch admitted. Returns the columns drawn. */
static int draw_fp(struct view *v, int y, int x, int w)
{
	const struct pidx *ix = v->tui->data.ix;
	int x0 = x;

	if (!ix)
		return 0;
	if (ix->unverified)
		x += draw_textf(y, x, w - x, TH_HEADER, "  ? %ld",
				ix->unverified);
	if (ix->not_comparable)
		x += draw_textf(y, x, w - x, TH_HEADER, "  refused %ld (%s)",
				ix->not_comparable, ix->not_comparable_field);
	if (ix->admitted_pairs)
		x += draw_textf(y, x, w - x, TH_HEADER, "  mismatch-allowed "
				"%ld", ix->admitted_pairs);
	return x - x0;
}

static void draw_header(struct view *v, int y, int w)
{
	struct discrep *d = v->priv;
	const struct stats_summary *s = &v->tui->data.sum;
	char mape[16], bias[16], r[32];
	int x;

	fmt_pct(mape, sizeof(mape), s->mape, 0);
	fmt_pct(bias, sizeof(bias), s->bias, 1);
	fmt_num(r, sizeof(r), s->pearson, 3);
	/* one r never pools metrics: say why there is none */
	if (mixed_metrics(s))
		snprintf(r, sizeof(r), "- (several metrics)");
	/* "few pairs" below the policy's min_pairs (issue 19) */
	x = draw_textf(y, 0, w, TH_HEADER, "n %ld%s  MAPE %s  bias %s  r %s",
		       s->n, stats_few_pairs(s) ? " (few pairs)" : "", mape,
		       bias, r);
	/* speed-of-light violations first: a value beats the roofline */
	if (s->sol_violations)
		x += draw_textf(y, x, w - x, TH_HEADER, "  SoL %ld",
				s->sol_violations);
	if (s->excluded_noisy)
		x += draw_textf(y, x, w - x, TH_HEADER, "  noisy-excluded %ld",
				s->excluded_noisy);
	x += draw_fp(v, y, x, w);
	if (!d->filter.n) {
		draw_ci(s, y, draw_progress(v, y, x, w), w);
		return;
	}
	x += draw_textf(y, x, w - x, TH_NORMAL, "  | filter '%s': %zu rows",
			d->filter.text, d->rows.n);
	if (d->have_fsum) {
		fmt_pct(mape, sizeof(mape), d->fsum.mape, 0);
		fmt_pct(bias, sizeof(bias), d->fsum.bias, 1);
		fmt_num(r, sizeof(r), d->fsum.pearson, 3);
		if (mixed_metrics(&d->fsum))
			snprintf(r, sizeof(r), "- (several metrics)");
		x += draw_textf(y, x, w - x, TH_NORMAL, "  MAPE %s bias %s "
				"r %s", mape, bias, r);
	}
	draw_ci(s, y, draw_progress(v, y, x, w), w);
}

/* The review's progress after the header's figures, as much as fits:
 * "6 open of 7 discrepancies, 3 new 2 changed", else "6/7 open +3 !2". */
static int draw_progress(struct view *v, int y, int x, int w)
{
	struct discrep *d = v->priv;
	const struct tui_data *data = &v->tui->data;
	char full[128], brief[64];

	discrep_progress(v);
	snprintf(full, sizeof(full), "  | %zu open of %zu discrepanc%s",
		 d->nopen, d->ndisc, d->ndisc == 1 ? "y" : "ies");
	snprintf(brief, sizeof(brief), "  | %zu/%zu open", d->nopen,
		 d->ndisc);
	if (data->have_review) {
		snprintf(full + strlen(full), sizeof(full) - strlen(full),
			 ", %zu new %zu changed", data->nnew, data->nchanged);
		snprintf(brief + strlen(brief), sizeof(brief) - strlen(brief),
			 " +%zu !%zu", data->nnew, data->nchanged);
	}
	if (draw_width(full) <= w - x) {
		draw_text(y, x, w - x, full, TH_HEADER);
		return x + draw_width(full);
	}
	if (draw_width(brief) <= w - x) {
		draw_text(y, x, w - x, brief, TH_HEADER);
		return x + draw_width(brief);
	}
	return x;
}

static void draw_heads(struct view *v, int y, const int *cw, int abbr)
{
	struct discrep *d = v->priv;
	int x = 2;
	char head[160];

	for (int c = 0; c < RC_COUNT; c++) {
		const char *arrow = "";

		if (c == d->rows.col || (d->rows.col < 0 && c == RC_ERR))
			arrow = d->rows.col < 0 || d->rows.desc ?
				(draw_ascii() ? " v" : "\xe2\x96\xbc") :
				(draw_ascii() ? " ^" : "\xe2\x96\xb2");
		snprintf(head, sizeof(head), "%s%s", c == RC_WORKLOAD &&
			 abbr == 1 ? d->wa.templ : discrep_col_names[c], arrow);
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
			draw_text(y, x, cw[c], head, c == v->col ? TH_COLSEL :
				  TH_COLHEAD);
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

/* One cell at *x, advancing *x past it and a separator. */
static void cell(int y, int *x, int w, const char *text, enum theme_role role,
		 int right)
{
	if (right)
		draw_text_right(y, *x, w, text, role);
	else
		draw_text(y, *x, w, text, role);
	*x += w + 1;
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
	shown = abbr == 2 ? wabbr_apply2(&d->wa, p->workload, cw[RC_WORKLOAD],
					 buf, sizeof(buf)) : abbr ?
		wabbr_apply(&d->wa, p->workload, buf, sizeof(buf)) :
		p->workload;
	/* still too wide: leave out the KEY=VALUE parts that are the same
	 * in every key holding KEY too (decode/bs=32/seq=2048 ->
	 * decode/bs=32), before the cut in the middle hides the batch */
	if (abbr == 1 && draw_width(shown) > cw[RC_WORKLOAD])
		shown = wabbr_apply_tight(&d->wa, p->workload, buf,
					  sizeof(buf));
	draw_text_mid(y, x, cw[RC_WORKLOAD], shown, base);
	if (v->search[0])
		highlight(y, x, cw[RC_WORKLOAD], shown, v->search);
	x += cw[RC_WORKLOAD] + 1;
	cell(y, &x, cw[RC_OP], p->op, base, 0);
	if (v->search[0])
		highlight(y, x - cw[RC_OP] - 1, cw[RC_OP], p->op, v->search);
	cell(y, &x, cw[RC_METRIC], p->metric, base, 0);
	if (v->search[0])
		highlight(y, x - cw[RC_METRIC] - 1, cw[RC_METRIC], p->metric,
			  v->search);
	fmt_si_unit(buf, sizeof(buf), p->model, unit, draw_ascii());
	cell(y, &x, cw[RC_MODEL], buf, base, 1);
	fmt_si_unit(buf, sizeof(buf), p->ref, unit, draw_ascii());
	cell(y, &x, cw[RC_REF], buf, base, 1);
	fmt_pct(buf, sizeof(buf), p->err, 1);
	cell(y, &x, cw[RC_ERR], buf, erole, 1);
	flags_text(p->flags, buf);
	cell(y, &x, cw[RC_FLAGS], buf, base, 0);
	cell(y, &x, cw[RC_STATUS], data_status_word(data->src.status[i]),
	     base, 0);
}

void discrep_draw(struct view *v, int y, int h, int w)
{
	struct discrep *d = discrep_priv(v);
	int cw[RC_COUNT], abbr;

	if (!d->have_rows) {
		draw_text(y, 0, w, "nothing to show", TH_DIM);
		return;
	}
	layout(d, w, cw, &abbr);
	draw_header(v, y, w);
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

