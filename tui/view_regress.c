/*
 * Regressions: what moved between two model versions against the same
 * reference (LNT's regressions page in a terminal): the pairs whose
 * |error| grew (regressions) then those whose |error| shrank
 * (improvements), each largest change first, with the cause (model or
 * reference value changed) and the current annotation. The numbers are
 * `perfcorr diff`'s (src/diff.c). Opened from the trend view: Enter on a
 * version compares it with the version before it; with the trend
 * grouped, only the group under the cursor.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/annot.h"
#include "src/corr/annot.h"
#include "src/corr/correlate.h"
#include "src/corr/corrgroup.h"
#include "src/corr/diff.h"
#include "src/corr/wabbr.h"
#include "src/matrix/matrix.h"
#include "src/pairidx/pairidx.h"
#include "base/error.h"
#include "base/util.h"
#include "tui/draw.h"
#include "tui/fmt.h"
#include "tui/keycol.h"
#include "tui/keys.h"
#include "tui/status.h"
#include "tui/tui.h"
#include "tui/view.h"

enum { RG_HEAD_REG, RG_REG, RG_HEAD_IMP, RG_IMP, RG_BLANK };

struct rrow {
	int kind;
	const struct diff_change *c;	/* RG_REG, RG_IMP */
};

struct regress {
	struct diff d;
	int built;
	struct rrow *rows;
	size_t nreg, nimp, nsame;
	int opw, mw, stw;		/* the longest op, metric, state */
	struct wabbr wa;		/* the listed keys' shared parts */
	int bound;			/* the model is a roofline: the
					   fraction of speed of light */
	const struct tui_data *data;	/* for the metrics' direction */
};

/* The columns, in the order shown. */
enum { RC_WL, RC_OPN, RC_MET, RC_BEFORE, RC_AFTER, RC_DELTA, RC_CAUSE,
       RC_ANN, RC_N };
static const char *const rc_head[RC_N] = { "workload", "op", "metric",
	"before", "after", "|err| d", "changed", "annotation" };

/*
 * Column widths at w columns, by the list's priority (docs/tui.md: err >
 * status > flag > ... > names): the change of |error|, the error after
 * and before, the annotation's state, what changed, each at its width
 * while it fits (else left out, width 0), after the names' minimum;
 * then the names get the rest: op and metric their longest name
 * (output_throughput whole), the workload its keys with the parts they
 * all share left out (keycol.h).
 */
static void layout(const struct regress *r, int w, int *cw, int *level)
{
	static const int prio[] = { RC_DELTA, RC_AFTER, RC_BEFORE, RC_ANN,
				    RC_CAUSE };
	int full[RC_N] = { 0 }, rest, give;

	full[RC_BEFORE] = full[RC_AFTER] = 7;
	full[RC_DELTA] = 9;
	full[RC_CAUSE] = 9;
	full[RC_ANN] = r->stw > 10 ? r->stw : 10;
	cw[RC_WL] = 12;
	cw[RC_OPN] = r->opw < 6 ? r->opw : 6;
	cw[RC_MET] = r->mw < 6 ? r->mw : 6;
	rest = w - 2 - (cw[RC_WL] + 1) - (cw[RC_OPN] + 1) - (cw[RC_MET] + 1);
	for (size_t i = 0; i < sizeof(prio) / sizeof(prio[0]); i++) {
		int c = prio[i];

		cw[c] = full[c] + 1 <= rest ? full[c] : 0;
		rest -= cw[c] ? cw[c] + 1 : 0;
	}
	/* op and metric their names while the workload keeps 12 */
	for (int c = RC_OPN; c <= RC_MET; c++) {
		give = (c == RC_OPN ? r->opw : r->mw) - cw[c];
		give = give > rest ? rest : give;
		if (give > 0) {
			cw[c] += give;
			rest -= give;
		}
	}
	*level = keycol_fit(&r->wa, cw[RC_WL] + rest, 1, &cw[RC_WL]);
}

static void regress_done(struct view *v)
{
	struct regress *r = v->priv;

	if (!r)
		return;
	if (r->built)
		diff_release(&r->d);
	wabbr_release(&r->wa);
	free(r->rows);
	free(r);
	v->priv = NULL;
	v->nrows = 0;
}

/* The change c's point is in the group the trend view selected. */
static int in_group(const struct tui *t, const struct diff *d,
		    const struct diff_change *c)
{
	char key[512];

	if (!t->regress_by[0])
		return 1;
	if (t->regress_metric[0] && strcmp(c->a->metric, t->regress_metric))
		return 0;
	if (corr_group_key(d->after, c->a, t->regress_by, key,
			   sizeof(key)) < 0)
		return 0;
	return !strcmp(key, t->regress_group);
}

static int maxi(int a, int b)
{
	return a > b ? a : b;
}

static void add_row(struct regress *r, size_t *n, int kind,
		    const struct diff_change *c)
{
	if (c) {
		r->opw = maxi(r->opw, draw_width(c->a->op));
		r->mw = maxi(r->mw, draw_width(c->a->metric));
		r->stw = maxi(r->stw, draw_width(annot_state(c->a->ann)));
	}
	r->rows[*n].kind = kind;
	r->rows[*n].c = c;
	(*n)++;
}

/* The shared parts of the listed keys (keycol.h). */
static void keys_of(struct regress *r, size_t n)
{
	const char **names = xcalloc(n + 1, sizeof(*names));
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (r->rows[i].c)
			names[k++] = r->rows[i].c->a->workload;
	wabbr_build(&r->wa, names, k);
	free(names);
}

static int regress_open(struct view *v)
{
	struct tui *t = v->tui;
	struct regress *r;
	struct corr_set *b = NULL, *a = NULL;
	struct corr_query q = CORR_QUERY_INIT;
	size_t n = 0;
	int rc;

	regress_done(v);
	r = v->priv = xcalloc(1, sizeof(*r));
	r->bound = data_bound(&t->data);
	r->data = &t->data;
	if (!t->regress_from[0] || !t->regress_ref[0])
		return 0;
	q.ref = t->regress_ref;
	q.model = t->regress_from;
	q.roofline = t->data.roofline;
	q.allow_mismatch = t->data.allow_mismatch;
	if ((rc = corr_load(&b, t->db, &q)) < 0)
		return rc;
	q.model = t->regress_to;
	if ((rc = corr_load(&a, t->db, &q)) < 0) {
		corr_set_free(b);
		return rc;
	}
	/* perfcorr diff's defaults: a value changed beyond 1e-9 relative,
	 * a pair moved by 1 point of error */
	rc = diff_build(&r->d, b, a, 1e-9, 0.01);
	r->built = 1;
	if (rc < 0)
		return rc;
	r->rows = xcalloc(r->d.n + 4, sizeof(*r->rows));
	for (int reg = 1; reg >= 0; reg--) {
		size_t *idx, k = diff_list(&r->d, reg, &idx);

		if (!reg)
			add_row(r, &n, RG_BLANK, NULL);
		add_row(r, &n, reg ? RG_HEAD_REG : RG_HEAD_IMP, NULL);
		for (size_t j = 0; j < k; j++) {
			const struct diff_change *c = &r->d.ch[idx[j]];

			if (!in_group(t, &r->d, c))
				continue;
			add_row(r, &n, reg ? RG_REG : RG_IMP, c);
			*(reg ? &r->nreg : &r->nimp) += 1;
		}
		free(idx);
	}
	r->opw = maxi(r->opw, 2);
	r->mw = maxi(r->mw, 6);
	r->opw = r->opw > 18 ? 18 : r->opw;
	r->mw = r->mw > 18 ? 18 : r->mw;
	keys_of(r, n);
	for (size_t i = 0; i < r->d.n; i++)
		r->nsame += in_group(t, &r->d, &r->d.ch[i]) &&
			    !diff_is_regression(&r->d, &r->d.ch[i]) &&
			    !diff_is_improvement(&r->d, &r->d.ch[i]);
	v->nrows = n;
	v->cursor = 0;
	v->top = 0;
	view_clamp(v);
	return 0;
}

static void regress_info(struct view *v, char *buf, size_t len)
{
	const struct tui *t = v->tui;

	snprintf(buf, len, "%s -> %s vs %s%s%s%s%s%s", t->regress_from,
		 strchr(t->regress_to, '@') ? strchr(t->regress_to, '@') + 1 :
		 t->regress_to, t->regress_ref, t->regress_by[0] ? " (" : "",
		 t->regress_by[0] ? t->regress_group : "",
		 t->regress_metric[0] ? " " : "", t->regress_metric,
		 t->regress_by[0] ? ")" : "");
}

static const char *status_of(const struct corr_point *p)
{
	return annot_state(p->ann);
}

/* A bound's point as the list shows it: the fraction of speed of light
 * the reference reaches (matrix_sol_fraction: roofline / measured for
 * a time, measured / roofline for a rate, by the metric's direction in
 * the pairing the TUI shows). */
static void sol_cell(const struct regress *r, char *buf, size_t len,
		     const struct corr_point *p)
{
	const struct pidx *x = r->data->ix;
	int higher = 0;

	for (int64_t m = 0; x && m <= x->max_id[2]; m++)
		if (!strcmp(pidx_metric(x, m), p->metric)) {
			higher = data_metric_higher(r->data, m);
			break;
		}
	fmt_pct(buf, len, matrix_sol_fraction(p->ref, p->model, higher), 0);
}

static void change_row(const struct regress *r, int y, int w,
		       const int *cw, int level, const struct diff_change *c,
		       int reg, int cursor)
{
	char t[RC_N][256];
	enum theme_role role = cursor ? TH_CURSOR : reg ? TH_SEV_FAIL :
			       TH_SEV_OK;
	char *safe = util_safe_dup(c->a->workload);
	int x = 2;

	if (cursor)
		draw_fill(y, 0, w, TH_CURSOR);
	snprintf(t[RC_WL], sizeof(t[RC_WL]), "%s", keycol_apply(&r->wa, level,
		 cw[RC_WL], safe, t[RC_OPN], sizeof(t[RC_OPN])));
	snprintf(t[RC_OPN], sizeof(t[RC_OPN]), "%s", c->a->op);
	snprintf(t[RC_MET], sizeof(t[RC_MET]), "%s", c->a->metric);
	if (r->bound) {
		sol_cell(r, t[RC_BEFORE], sizeof(t[RC_BEFORE]), c->b);
		sol_cell(r, t[RC_AFTER], sizeof(t[RC_AFTER]), c->a);
	} else {
		fmt_pct(t[RC_BEFORE], sizeof(t[RC_BEFORE]), c->b->err, 1);
		fmt_pct(t[RC_AFTER], sizeof(t[RC_AFTER]), c->a->err, 1);
	}
	snprintf(t[RC_DELTA], sizeof(t[RC_DELTA]), "%+.1f pt",
		 diff_abs_change(c) * 100);
	snprintf(t[RC_CAUSE], sizeof(t[RC_CAUSE]), "%s",
		 diff_cause_names[c->cause]);
	snprintf(t[RC_ANN], sizeof(t[RC_ANN]), "%s", status_of(c->a));
	for (int k = 0; k < RC_N; k++) {
		if (!cw[k])
			continue;
		if (k == RC_WL)
			draw_text_mid(y, x, cw[k], t[k], role);
		else if (k >= RC_BEFORE && k <= RC_DELTA)
			draw_text_right(y, x, cw[k], t[k], role);
		else
			draw_text_cut(y, x, cw[k], t[k], role);
		x += cw[k] + 1;
	}
	free(safe);
}

static void heads(const struct regress *r, int y, const int *cw, int level)
{
	int x = 2;

	for (int k = 0; k < RC_N; k++) {
		const char *h = k == RC_WL ? keycol_heading(&r->wa, level) :
				r->bound && k == RC_BEFORE ? "SoL bef" :
				r->bound && k == RC_AFTER ? "SoL aft" :
				rc_head[k];

		if (!cw[k])
			continue;
		if (k >= RC_BEFORE && k <= RC_DELTA)
			draw_text_right(y, x, cw[k], h, TH_COLHEAD);
		else
			draw_text_cut(y, x, cw[k], h, TH_COLHEAD);
		x += cw[k] + 1;
	}
}

/* A bound's header: the fraction of speed of light the reference
 * reaches in both versions (the core's efficiency, geomean; "-" over
 * several metrics) and the pairs that beat the bound, then the counts
 * (issue 35: a roofline speaks in fraction of speed of light). */
static void bound_line(const struct regress *r, char *line, size_t len,
		       int w)
{
	char fb[16], fa[16];

	fmt_pct(fb, sizeof(fb), r->d.sb.efficiency, 0);
	fmt_pct(fa, sizeof(fa), r->d.sa.efficiency, 0);
	snprintf(line, len, "  SoL %s -> %s (geomean), beat %ld -> %ld   %zu "
		 "further, %zu closer, %zu within 1 pt; only %zu/%zu", fb, fa,
		 r->d.sb.sol_violations, r->d.sa.sol_violations, r->nreg,
		 r->nimp, r->nsame, r->d.only_before, r->d.only_after);
	if (draw_width(line) > w)
		snprintf(line, len, "  SoL %s -> %s, beat %ld -> %ld  %zu "
			 "further, %zu closer, only %zu/%zu", fb, fa,
			 r->d.sb.sol_violations, r->d.sa.sol_violations,
			 r->nreg, r->nimp, r->d.only_before, r->d.only_after);
}

static void regress_draw(struct view *v, int y, int h, int w)
{
	struct regress *r = v->priv;
	int cw[RC_N], level;
	char mb[16], ma[16], line[256];

	if (!r || !r->built) {
		draw_text(y, 2, w - 2, "Enter on a version of the trend view "
			  "compares it with the version before it", TH_DIM);
		return;
	}
	layout(r, w, cw, &level);
	if (r->bound)
		bound_line(r, line, sizeof(line), w);
	else {
		fmt_pct(mb, sizeof(mb), r->d.sb.mape, 0);
		fmt_pct(ma, sizeof(ma), r->d.sa.mape, 0);
		snprintf(line, sizeof(line), "  MAPE %s -> %s   %zu regressed, "
			 "%zu improved, %zu within 1 pt; %zu pairs only before, "
			 "%zu only after", mb, ma, r->nreg, r->nimp, r->nsame,
			 r->d.only_before, r->d.only_after);
		if (draw_width(line) > w)	/* the counts first */
			snprintf(line, sizeof(line), "  MAPE %s -> %s  %zu "
				 "regressed, %zu improved, %zu within 1 pt, "
				 "only %zu/%zu", mb, ma, r->nreg, r->nimp,
				 r->nsame, r->d.only_before, r->d.only_after);
	}
	draw_text_cut(y, 0, w, line, TH_HEADER);
	heads(r, y + 1, cw, level);
	v->height = h - 2 > 1 ? h - 2 : 1;
	view_clamp(v);
	for (int k = 0; k < h - 2 && v->top + (size_t)k < v->nrows; k++) {
		size_t i = v->top + (size_t)k;
		const struct rrow *rw = &r->rows[i];
		int yy = y + 2 + k, cur = i == v->cursor;

		switch (rw->kind) {
		case RG_HEAD_REG:
			draw_textf(yy, 0, w, cur ? TH_CURSOR : TH_HEADER,
				   "%s (%zu): |error| grew by 1 point or more, "
				   "largest first%s", r->bound ? "Further from "
				   "the measured" : "Regressions", r->nreg, r->nreg ? "" :
				   ": none");
			break;
		case RG_HEAD_IMP:
			draw_textf(yy, 0, w, cur ? TH_CURSOR : TH_HEADER,
				   "%s (%zu): |error| shrank by 1 point or more, "
				   "largest first%s", r->bound ? "Closer to the "
				   "measured" : "Improvements", r->nimp,
				   r->nimp ? "" : ": none");
			break;
		case RG_BLANK:
			break;
		default:
			change_row(r, yy, w, cw, level, rw->c,
				   rw->kind == RG_REG, cur);
		}
	}
}

static int has(const char *s, const char *needle)
{
	size_t n = strlen(needle);

	for (; s && *s; s++) {
		size_t i = 0;

		while (i < n && s[i] && (s[i] | 0x20) == (needle[i] | 0x20))
			i++;
		if (i == n)
			return 1;
	}
	return !n;
}

static int regress_match(struct view *v, size_t row, const char *needle)
{
	struct regress *r = v->priv;
	const struct diff_change *c;

	if (!r || row >= v->nrows || !(c = r->rows[row].c))
		return 0;
	return has(c->a->workload, needle) ||
	       has(c->a->op, needle) ||
	       has(c->a->metric, needle);
}

static const int regress_footer[] = { ACT_SEARCH, ACT_VIEW_HELP, ACT_BACK,
	0 };

const struct view_ops regress_ops = {
	.name = "regressions",
	.title = "Regressions",
	.footer = regress_footer,
	.open = regress_open,
	.info = regress_info,
	.draw = regress_draw,
	.match = regress_match,
	.done = regress_done,
	.annotated = 1,
};
