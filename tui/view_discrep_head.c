/*
 * The discrepancy list's header line: the review's progress, the pair's
 * summary, the speed-of-light violations, the filter, the fingerprint
 * check and the intervals, as many as fit by priority (docs/tui.md): at
 * 80 columns "7 open of 9" always shows. A pairing whose model is a
 * roofline is a bound, not a model (issue 35): its header says the
 * fraction of speed of light the reference reaches and the violations,
 * never "N open of M" (nothing there is a discrepancy to review).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "src/pairidx/pairidx.h"
#include "tui/draw.h"
#include "tui/fmt.h"
#include "tui/tui.h"
#include "tui/view.h"
#include "tui/view_discrep.h"

/* One piece of the line: its full and brief text (brief may be ""), its
 * priority (0 first) and what fitted (0 nothing, 1 brief, 2 full). */
struct seg {
	char full[192], brief[96];
	int prio;
	enum theme_role role;
	int shown;
};

/* The summary's r is null because it spans several metrics. */
int discrep_mixed_metrics(const struct stats_summary *s)
{
	const char *why = stats_why(s, SF_PEARSON);

	return why && !strcmp(why, STATS_WHY_METRICS);
}

static void stats_seg(struct seg *g, const struct stats_summary *s,
		      const char *lead)
{
	char mape[16], bias[16], r[32];
	int mixed = discrep_mixed_metrics(s);

	fmt_pct(mape, sizeof(mape), s->mape, 0);
	fmt_pct(bias, sizeof(bias), s->bias, 1);
	fmt_num(r, sizeof(r), s->pearson, 3);
	/* one r never pools metrics: say why there is none, where it fits;
	 * "few pairs" below the policy's min_pairs (issue 19) */
	snprintf(g->full, sizeof(g->full), "%sn %ld%s  MAPE %s  bias %s  r %s%s",
		 lead, s->n, stats_few_pairs(s) ? " (few pairs)" : "", mape,
		 bias, mixed ? "-" : r, mixed ? " (several metrics)" : "");
	snprintf(g->brief, sizeof(g->brief), "%sn %ld%s MAPE %s bias %s r %s",
		 lead, s->n, stats_few_pairs(s) ? " (few)" : "", mape, bias,
		 mixed ? "-" : r);
}

/* The bound's summary: the geomean fraction of speed of light the
 * reference reaches (corr_summary's efficiency) and the violations. */
static void bound_seg(struct seg *g, const struct stats_summary *s)
{
	char f[48];

	fmt_pct(f, sizeof(f), s->efficiency, 0);
	if (isnan(s->efficiency))
		snprintf(f, sizeof(f), "-%s", discrep_mixed_metrics(s) ?
			 " (several metrics)" : "");
	snprintf(g->full, sizeof(g->full), "bound: n %ld  reaches %s of "
		 "speed of light (geomean)  %ld beat%s it", s->n, f,
		 s->sol_violations, s->sol_violations == 1 ? "s" : "");
	snprintf(g->brief, sizeof(g->brief), "bound: n %ld  %s of SoL  %ld "
		 "over", s->n, f, s->sol_violations);
}

static void progress_seg(struct view *v, struct seg *g)
{
	struct discrep *d = v->priv;
	const struct tui_data *data = &v->tui->data;
	size_t l;

	discrep_progress(v);
	snprintf(g->full, sizeof(g->full), "%zu open of %zu discrepanc%s",
		 d->nopen, d->ndisc, d->ndisc == 1 ? "y" : "ies");
	snprintf(g->brief, sizeof(g->brief), "%zu open of %zu", d->nopen,
		 d->ndisc);
	if (data->have_review) {
		l = strlen(g->full);
		snprintf(g->full + l, sizeof(g->full) - l, ", %zu new %zu "
			 "changed", data->nnew, data->nchanged);
		l = strlen(g->brief);
		snprintf(g->brief + l, sizeof(g->brief) - l, " +%zu !%zu",
			 data->nnew, data->nchanged);
	}
}

/* The fingerprint check (issue 37): pairs kept unverified (flag ?),
 * pairs refused as not comparable (never rows) with the first field,
 * pairs --allow-mismatch admitted. */
static void fp_seg(struct seg *g, const struct pidx *ix)
{
	size_t l;

	g->full[0] = g->brief[0] = '\0';
	if (!ix)
		return;
	if (ix->unverified) {
		l = strlen(g->full);
		snprintf(g->full + l, sizeof(g->full) - l, "%s? %ld", l ?
			 "  " : "", ix->unverified);
	}
	if (ix->not_comparable) {
		l = strlen(g->full);
		snprintf(g->full + l, sizeof(g->full) - l, "%srefused %ld (%s)",
			 l ? "  " : "", ix->not_comparable,
			 ix->not_comparable_field);
	}
	if (ix->admitted_pairs) {
		l = strlen(g->full);
		snprintf(g->full + l, sizeof(g->full) - l, "%smismatch-allowed "
			 "%ld", l ? "  " : "", ix->admitted_pairs);
	}
}

/* The intervals of the cached summary (issue 19): MAPE's over
 * workloads, r's; unknown with too few workloads (issue 34). */
static void ci_seg(struct seg *g, const struct stats_summary *s)
{
	char lo[16], hi[16], why[160];
	int n;

	g->full[0] = g->brief[0] = '\0';
	if (stats_ci_unknown(s, why, sizeof(why))) {
		snprintf(g->full, sizeof(g->full), "| CI unknown: %s", why);
		return;	/* no brief: shown where it fits, as the CI */
	}
	if (!isfinite(s->mape_ci.lo))
		return;
	fmt_pct(lo, sizeof(lo), s->mape_ci.lo, 0);
	fmt_pct(hi, sizeof(hi), s->mape_ci.hi, 0);
	n = snprintf(g->full, sizeof(g->full), "| 95%% CI MAPE [%s,%s]", lo,
		     hi);
	if (isfinite(s->pearson_ci.lo) && !discrep_mixed_metrics(s) && n > 0)
		snprintf(g->full + n, sizeof(g->full) - (size_t)n,
			 " r [%.3f,%.3f]%s", s->pearson_ci.lo,
			 s->pearson_ci.hi, s->ci_clustered ? "" :
			 " pair-level");
}

static void filter_seg(struct view *v, struct seg *g)
{
	struct discrep *d = v->priv;
	char f[160] = "";

	g->full[0] = g->brief[0] = '\0';
	if (!d->filter.n)
		return;
	if (d->have_fsum) {
		struct seg st;

		stats_seg(&st, &d->fsum, "");
		snprintf(f, sizeof(f), ": %s", st.brief);
	}
	snprintf(g->full, sizeof(g->full), "| filter '%s': %zu rows%s",
		 d->filter.text, d->rows.n, f);
	/* brief: the filter's text (cut with ~ past 32 characters) */
	snprintf(g->brief, sizeof(g->brief), "| filter '%.32s%s': %zu rows",
		 d->filter.text, strlen(d->filter.text) > 32 ? "~" : "",
		 d->rows.n);
}

/* The brief text: the full one up to its first double blank. */
static void brief_first(struct seg *g)
{
	const char *end = strstr(g->full, "  ");
	size_t n = end ? (size_t)(end - g->full) : strlen(g->full);

	if (n >= sizeof(g->brief))
		n = sizeof(g->brief) - 1;
	memcpy(g->brief, g->full, n);
	g->brief[n] = '\0';
}

/* Fit the pieces in w columns by priority, first brief, then full. */
static void fit(struct seg *g, size_t n, int w)
{
	int used = 0;

	for (int pass = 1; pass <= 2; pass++)
		for (int prio = 0; prio < 8; prio++)
			for (size_t i = 0; i < n; i++) {
				const char *t = pass == 1 ? g[i].brief :
						g[i].full;
				const char *was = g[i].shown == 1 ?
						  g[i].brief : "";
				int add = draw_width(t) - draw_width(was) +
					  (g[i].shown ? 0 : 2);

				if (g[i].prio != prio || !*t ||
				    g[i].shown >= pass || used + add > w)
					continue;
				used += add;
				g[i].shown = pass;
			}
}

void discrep_header(struct view *v, int y, int w)
{
	const struct tui_data *data = &v->tui->data;
	const struct stats_summary *s = &data->sum;
	struct seg g[7];
	size_t n = 0;
	int x = 0;

	memset(g, 0, sizeof(g));
	if (data_bound(data)) {
		bound_seg(&g[n], s);
		g[n].role = TH_HEADER;
		g[n++].prio = 0;
	} else {
		progress_seg(v, &g[n]);
		g[n].role = TH_HEADER;
		g[n++].prio = 0;
		stats_seg(&g[n], s, "");
		g[n].role = TH_HEADER;
		g[n++].prio = 2;
		if (s->sol_violations) {
			snprintf(g[n].full, sizeof(g[n].full), "SoL %ld",
				 s->sol_violations);
			brief_first(&g[n]);
			g[n].role = TH_HEADER;
			g[n++].prio = 2;
		}
	}
	/* a filter's text before the whole pair's figures in full */
	filter_seg(v, &g[n]);
	g[n].role = TH_NORMAL;
	g[n++].prio = 1;
	if (s->excluded_noisy) {
		snprintf(g[n].full, sizeof(g[n].full), "noisy-excluded %ld",
			 s->excluded_noisy);
		snprintf(g[n].brief, sizeof(g[n].brief), "noisy %ld",
			 s->excluded_noisy);
		g[n].role = TH_HEADER;
		g[n++].prio = 4;
	}
	fp_seg(&g[n], data->ix);
	brief_first(&g[n]);
	g[n].role = TH_HEADER;
	g[n++].prio = 5;
	ci_seg(&g[n], s);
	g[n].role = TH_NORMAL;
	g[n++].prio = 6;
	fit(g, n, w);
	for (size_t i = 0; i < n; i++) {
		if (!g[i].shown)
			continue;
		if (x)
			x += draw_text(y, x, w - x, "  ", TH_NORMAL);
		x += draw_text(y, x, w - x, g[i].shown == 2 ? g[i].full :
			       g[i].brief, g[i].role);
	}
}
