/*
 * The Tiers view (issue 38 item 5): accuracy against cost per tier, the
 * table `perfcorr tiers` prints, built by the same code (tiers_build,
 * src/gate/tiers.c) against the current pair's reference, under the
 * --policy's limits: per workload class and tier below the reference its
 * status, its error (MAPE and bias; a roofline is graded as a bound: the
 * fraction of speed of light the reference reaches and the pairs over
 * it) and its cost per workload; then per class the cheapest tier that
 * meets the limits; then why a tier fails or is undecided. At 80 columns
 * the columns keep class, tier, status, error, cost (the source, cut
 * with ~, takes the room left). When there is nothing to compare (no
 * tier below the reference, one tier only, no cost recorded, no limits)
 * a line says why and what cures it. A text view: the table is built
 * once on open, rendered, and freed.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"
#include "src/gate/policy.h"
#include "src/gate/tiers.h"
#include "src/import/import.h"
#include "src/pairidx/pairidx.h"
#include "tui/actions.h"
#include "tui/fmt.h"
#include "tui/theme.h"
#include "tui/tui.h"
#include "tui/view.h"

/* The columns at 80: 2 + 12 + 1 + 9 + 1 + 9 + 1 + 9 + 1 + 9 + 1 + 7 +
 * 1 + 16 = 79 (class, tier, source, status, error, bias, cost). */
#define TIERS_ROW "  %-12s %-9s %-9s %-9s %9s %7s %s"

struct tiers_view {
	char ref[256];
	size_t classes, rows;
};

/* s in at most w columns, a cut one ending in "~" (docs/tui.md). */
static const char *cut(char *b, size_t len, const char *s, int w)
{
	if ((int)strlen(s) <= w)
		snprintf(b, len, "%s", s);
	else
		snprintf(b, len, "%.*s~", w - 1, s);
	return b;
}

/* The CLI's cost text (cmd_tiers.c): import_cost_fmt, or why none. */
static void cost_text(char *b, size_t len, const struct tiers_cost *c)
{
	if (!isnan(c->per_workload))
		import_cost_fmt(b, len, c->per_workload, c->unit);
	else if (c->mixed)
		snprintf(b, len, "- (units differ)");
	else if (c->uncosted)
		snprintf(b, len, "- (%ld of %ld runs)", c->uncosted, c->runs);
	else
		snprintf(b, len, "-");
}

static int status_role(enum tiers_status s)
{
	switch (s) {
	case TIERS_MEETS: return TH_SEV_OK;
	case TIERS_FAILS: return TH_SEV_FAIL;
	case TIERS_UNKNOWN: return TH_SEV_WARN;
	default: return TH_NORMAL;
	}
}

static void table(struct view *v, const struct tiers *t)
{
	struct tiers_view *x = v->priv;

	textbuf_add(&v->text, TH_COLHEAD, TIERS_ROW, "class", "tier",
		    "source", "status", "MAPE", "bias", "cost/workload");
	for (size_t k = 0; k < t->nclasses; k++) {
		const struct tiers_class *c = &t->classes[k];
		char cl[32], src[32], cost[48];

		cut(cl, sizeof(cl), c->name, 12);
		for (size_t i = 0; i < t->ntiers; i++) {
			const struct tiers_cell *e = &c->cells[i];
			char m[32], b[32];

			if (!e->npoints)
				continue;
			if (e->status == TIERS_BOUND) {
				char p[24];

				fmt_pct(p, sizeof(p), e->sol, 0);
				snprintf(m, sizeof(m), "%s SoL", p);
				snprintf(b, sizeof(b), "%ld over", e->over);
			} else {
				fmt_pct(m, sizeof(m), e->sum.mape, 0);
				fmt_pct(b, sizeof(b), e->sum.bias, 1);
			}
			cost_text(cost, sizeof(cost), &e->cost);
			textbuf_add(&v->text, status_role(e->status), TIERS_ROW,
				    cl, t->tiers[i].kind, cut(src, sizeof(src),
				    t->tiers[i].source, 9),
				    tiers_status_name(e->status), m, b, cost);
			x->rows++;
		}
		cost_text(cost, sizeof(cost), &c->ref_cost);
		textbuf_add(&v->text, TH_DIM, TIERS_ROW, cl, t->ref_kind,
			    cut(src, sizeof(src), t->ref_source, 9),
			    "reference", "", "", cost);
	}
}

static void cheapest(struct view *v, const struct tiers *t)
{
	textbuf_add(&v->text, TH_HEADER, "Cheapest tier that meets the "
		    "limits, per class");
	for (size_t k = 0; k < t->nclasses; k++) {
		const struct tiers_class *c = &t->classes[k];
		const struct tiers_tier *x = c->cheapest >= 0 ?
					     &t->tiers[c->cheapest] : NULL;
		char cost[48] = "-", what[320];

		if (x)
			cost_text(cost, sizeof(cost),
				  &c->cells[c->cheapest].cost);
		if (c->cheap == TIERS_NOLIMIT)
			snprintf(what, sizeof(what), "- (%s)", c->cheap_why ?
				 c->cheap_why : "no limits");
		else if (x)
			snprintf(what, sizeof(what), "%s%s %s (%s per workload; "
				 "%s)", c->cheap == TIERS_UNKNOWN ? "unknown; "
				 "the first that meets: " : "", x->kind,
				 x->source, cost, c->by_cost ? "by cost" :
				 "by the tier order");
		else if (c->cheap == TIERS_UNKNOWN)
			snprintf(what, sizeof(what), "unknown: no other tier "
				 "below the reference meets");
		else
			snprintf(what, sizeof(what), "none below the reference "
				 "meets: %s itself", t->ref_source);
		textbuf_add(&v->text, status_role(c->cheap), "  %-12s %s",
			    c->name, what);
		if (c->cheap == TIERS_UNKNOWN && c->cheap_why)
			textbuf_add(&v->text, TH_DIM, "    %s", c->cheap_why);
	}
}

/* The one-line "why" when the table has nothing to weigh, with the cure
 * (none when it has). */
static void whys_empty(struct view *v, const struct tiers *t)
{
	size_t paired = 0, costed = 0;

	for (size_t i = 0; i < t->ntiers; i++) {
		paired += t->tiers[i].set != NULL;
		costed += t->tiers[i].set && !isnan(t->tiers[i].cost.per_workload);
	}
	for (size_t k = 0; k < t->nclasses; k++)
		costed += !isnan(t->classes[k].ref_cost.per_workload);
	if (paired == 1)
		textbuf_add(&v->text, TH_SEV_WARN, "Only one tier below the "
			    "reference: import another (perfcorr import "
			    "--cost T)");
	if (!costed)
		textbuf_add(&v->text, TH_SEV_WARN, "No cost recorded: perfcorr "
			    "import --cost TIME [--cost-unit core-h|emu-h]");
	if (!t->has_policy)
		textbuf_add(&v->text, TH_SEV_WARN, "No limits, no cheapest "
			    "tier: perfcorr tui --policy FILE");
}

static void render(struct view *v, const struct tiers *t, const char *pol)
{
	struct tiers_view *x = v->priv;
	int whys = 0, bound = 0;

	x->classes = t->nclasses;
	textbuf_add(&v->text, TH_HEADER, "Reference %s (%s); classes by %s; "
		    "limits: %s", x->ref, t->ref_kind, t->class_by, pol ? pol :
		    "none");
	for (size_t i = 0; i < t->ntiers; i++)
		if (!t->tiers[i].set)
			textbuf_add(&v->text, TH_DIM, "  left out: %s (%s): %s",
				    t->tiers[i].source, t->tiers[i].kind ?
				    t->tiers[i].kind : "?", t->tiers[i].why);
	whys_empty(v, t);
	textbuf_add(&v->text, TH_NORMAL, "%s", "");
	table(v, t);
	for (size_t k = 0; k < t->nclasses; k++)
		for (size_t i = 0; i < t->ntiers; i++) {
			whys += t->classes[k].cells[i].npoints &&
				t->classes[k].cells[i].why;
			bound |= t->classes[k].cells[i].npoints &&
				 t->classes[k].cells[i].status == TIERS_BOUND;
		}
	if (bound)
		textbuf_add(&v->text, TH_DIM, "  roofline: a bound (the "
			    "reference's fraction of speed of light, the pairs "
			    "over it)");
	textbuf_add(&v->text, TH_NORMAL, "%s", "");
	cheapest(v, t);
	if (!whys)
		return;
	textbuf_add(&v->text, TH_NORMAL, "%s", "");
	textbuf_add(&v->text, TH_HEADER, "Why (limits not met, undecided, "
		    "warnings)");
	for (size_t k = 0; k < t->nclasses; k++)
		for (size_t i = 0; i < t->ntiers; i++)
			if (t->classes[k].cells[i].npoints &&
			    t->classes[k].cells[i].why)
				textbuf_add(&v->text, TH_NORMAL, "  %s %s: %s",
					    t->classes[k].name,
					    t->tiers[i].source,
					    t->classes[k].cells[i].why);
}

static void tiers_done(struct view *v)
{
	free(v->priv);
	v->priv = NULL;
	textbuf_clear(&v->text);
}

static int tiers_open(struct view *v)
{
	const struct pidx *ix = v->tui->data.ix;
	const struct policy *p = v->tui->data.policy;
	struct tiers_opts o;
	struct tiers_view *x;
	struct tiers t;

	tiers_done(v);
	if (!ix)
		return 0;
	x = v->priv = xcalloc(1, sizeof(*x));
	snprintf(x->ref, sizeof(x->ref), "%s@%s", ix->ref.source,
		 ix->ref.version);
	memset(&o, 0, sizeof(o));
	o.ref = x->ref;
	o.policy = p;
	o.allow_mismatch = v->tui->data.allow_mismatch;
	if (tiers_build(&t, v->tui->db, &o) < 0) {
		textbuf_add(&v->text, TH_ERROR, "  %s", pc_error_last());
		textbuf_add(&v->text, TH_SEV_WARN, "Nothing to weigh: import a "
			    "cheaper tier (perfcorr import -k KIND --cost T)");
		pc_error_clear();
	} else {
		render(v, &t, p ? p->name : NULL);
		tiers_release(&t);
	}
	v->nrows = v->text.n;
	v->top = v->cursor = 0;
	return 0;
}

static void tiers_info(struct view *v, char *buf, size_t len)
{
	struct tiers_view *x = v->priv;

	if (x)
		snprintf(buf, len, "below %s: %zu class%s, %zu row%s", x->ref,
			 x->classes, x->classes == 1 ? "" : "es", x->rows,
			 x->rows == 1 ? "" : "s");
}

static const int tiers_footer[] = { ACT_BACK, ACT_SEARCH, ACT_RELOAD, 0 };

const struct view_ops tiers_ops = {
	.name = "tiers",
	.title = "Tiers",
	.footer = tiers_footer,
	.open = tiers_open,
	.info = tiers_info,
	.draw = view_draw_text_wrap,	/* long lines wrap */
	.handle = view_wrap_scroll,
	.match = view_text_match,
	.done = tiers_done,
};
