/* The HTML report's style sheet and figures (see report_fig.h). */
#include "src/report/report_fig.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "db/annot.h"
#include "src/corr/annot.h"
#include "src/corr/correlate.h"
#include "base/html.h"
#include "src/report/report_model.h"
#include "base/strbuf.h"
#include "src/report/svg.h"
#include "base/util.h"

const char report_fig_css[] =
	":root{--fg:#1f2328;--mut:#59636e;--bd:#d1d9e0;--bg2:#f6f8fa;"
	"--good:#1a7f37;--warn:#9a6700;--bad:#cf222e}\n"
	"*{box-sizing:border-box}\n"
	"body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,"
	"Helvetica,Arial,sans-serif;color:var(--fg);max-width:1240px;"
	"margin:0 auto;padding:24px}\n"
	"h1{font-size:24px;margin:0 0 6px}\n"
	"h2{font-size:19px;margin:34px 0 10px;padding-bottom:4px;"
	"border-bottom:1px solid var(--bd)}\n"
	"h3{font-size:15px;margin:20px 0 6px}\n"
	".meta{color:var(--mut);margin:0 0 8px}\n"
	".side{margin-right:18px;white-space:nowrap}\n"
	"nav a{margin-right:14px;color:#0969da;text-decoration:none}\n"
	".cards{display:flex;flex-wrap:wrap;gap:10px;margin:18px 0 8px}\n"
	".card{border:1px solid var(--bd);border-radius:8px;padding:8px 14px;"
	"min-width:112px;background:#fff}\n"
	".card b{display:block;font-size:22px;font-variant-numeric:"
	"tabular-nums}\n"
	".card span{color:var(--mut);font-size:12px}\n"
	".card.good b{color:var(--good)}.card.warn b{color:var(--warn)}"
	".card.bad b{color:var(--bad)}\n"	".card.minor{border-style:dashed}.card.minor b{font-size:17px}\n"
	"details{margin:8px 0 14px}summary{cursor:pointer;font-weight:600;"
	"margin:6px 0}\n"
	"ul.prov{padding-left:20px}ul.prov li{margin:3px 0}\n"
	".note{color:var(--mut);font-size:13px}\n"
	"table{border-collapse:collapse;width:100%;margin:6px 0 14px;"
	"font-size:13px}\n"
	"th,td{border-bottom:1px solid var(--bd);padding:4px 7px;"
	"text-align:left;vertical-align:top}\n"
	"th{background:var(--bg2);font-weight:600;white-space:nowrap}\n"
	"td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;"
	"white-space:nowrap}\n"
	"td.na{color:var(--mut)}\n"
	"tr.all td{font-weight:600;background:#fbfcfd}\n"
	"table.stats{table-layout:fixed}table.stats th:first-child{width:24%}\n"
	"table.status{width:auto;min-width:300px}\n"
	"td.pos{color:#b35900}td.neg{color:#0a58b0}\n"
	".wrap{overflow-wrap:anywhere;max-width:340px}\n"
	/* a key breaks after a '/' (<wbr/>), else anywhere but inside a
	 * word holding a '-' (a nowrap span, report_html_name): no cell is
	 * wider than its column (issue 35 item 6) */
	"td.wl{min-width:150px;max-width:330px;overflow-wrap:anywhere}\n"
	"td .few{display:block;font-weight:normal;color:var(--warn);"
	"font-size:12px}\n"
	".nw{white-space:nowrap}\n"
	"td.hash code{font-size:11px;overflow-wrap:anywhere}\n"
	"code{font:12px ui-monospace,SFMono-Regular,Menlo,Consolas,"
	"monospace}\n"
	".unit{color:var(--mut);font-weight:normal}\n"
	".tag{display:inline-block;border:1px solid var(--bd);"
	"border-radius:10px;padding:0 7px;margin:0 3px 2px 0;font-size:11px;"
	"background:var(--bg2);white-space:nowrap}\n"
	".st-unexplained{background:#ffebe9;border-color:#ffcecb}\n"
	".st-open,.st-investigating{background:#fff8c5;border-color:#f5e0a0}\n"
	".st-explained,.st-accepted{background:#dafbe1;border-color:#aceebb}\n"
	".st-fixed,.st-wontfix{background:#ddf4ff;border-color:#b6e3ff}\n"
	".fl-new{background:#fbefff;border-color:#ecd8f7}\n"
	".fl-sol{background:#ffebe9;border-color:#ffcecb}\n"
	".cpd-model{background:#ddf4ff;border-color:#b6e3ff}\n"
	".cpd-ref{background:#fff8c5;border-color:#f5e0a0}\n"
	".cpd-both{background:#fbefff;border-color:#ecd8f7}\n"
	".cat,.link{color:var(--mut);font-size:12px}\n"
	".verdict{font-weight:600}.g-pass{color:var(--good)}"
	".g-warn{color:var(--warn)}.g-fail{color:var(--bad)}\n"
	"ul.rules{margin:4px 0 0;padding-left:20px}\n"
	".notec{max-width:300px}\n"
	".figs{display:flex;flex-wrap:wrap;gap:8px 16px}\n"
	"figure{margin:8px 0;break-inside:avoid;width:550px;max-width:100%}\n"
	/* a metric's few pairs: as wide as its table needs, never wider
	 * than the page; the table wraps, never the figure beside it */
	"figure.few{width:auto;min-width:0;flex:0 1 auto}\n"
	"figure.few table{width:auto;max-width:100%}\n"
	"figcaption{color:var(--mut);font-size:12px}\n"
	"svg.fig{max-width:100%;height:auto;border:1px solid var(--bd);"
	"border-radius:6px}\n"
	"footer{margin-top:36px;color:var(--mut);font-size:12px}\n"
	/* print (A4): no navigation; headings kept with what follows them,
	 * figures, cards and table rows never cut; table heads repeated on
	 * each page; colours printed as on screen (status tags, heatmap);
	 * a link's address written after it (paper cannot be clicked);
	 * figures at most the page's width */
	"@media print{*{print-color-adjust:exact;-webkit-print-color-adjust:"
	"exact}body{max-width:none;padding:0;font-size:10pt}"
	"nav{display:none}h2,h3,h4,h2+p,h3+p{break-after:avoid}"
	"p,figcaption{orphans:3;widows:3}"
	"table{font-size:8.5pt}tr,figure,.card,.cards{break-inside:avoid}"
	"thead{display:table-header-group}svg.fig{border:none}"
	"figure{max-width:100%}svg.fig{max-width:100%;height:auto}"
	"a[href^=\"http\"]::after{content:\" (\" attr(href) \")\";"
	"font-size:7pt;color:var(--mut);overflow-wrap:anywhere}"
	".cards{gap:6px}.card{padding:4px 10px}"
	"@page{size:A4;margin:14mm}}\n";

static unsigned shape_of(const struct corr_point *p)
{
	const char *s = p->ann ? p->ann->status : NULL;

	/* not annotated is open (annot_state): one word, one shape */
	if (!s || !strcmp(s, "open"))
		return SVG_CIRCLE;
	if (!strcmp(s, "investigating"))
		return SVG_TRIANGLE;
	if (!strcmp(s, "explained"))
		return SVG_SQUARE;
	if (!strcmp(s, "accepted"))
		return SVG_DIAMOND;
	return SVG_CROSS;	/* fixed, wontfix */
}

static const char *const shape_names[SVG_NSHAPES] = {
	ANNOT_STATE_NONE, "investigating", "explained", "accepted (waived)",
	"fixed/wontfix",
};

static void figure(struct strbuf *sb, const char *caption)
{
	strbuf_addstr(sb, "<figcaption>");
	html_escape(sb, caption);
	strbuf_addstr(sb, "</figcaption></figure>\n");
}

/* Points of a metric that get a tooltip, largest |error| first. */
#define REPORT_FIG_TIPS 5000

/* The tooltip of a point: its key, both values, its error and status. */
static char *tip_of(const struct report *r, const struct corr_point *p)
{
	const char *unit = report_unit(r, p->metric);
	char m[48], f[48], e[32];

	svg_fmt_si(m, sizeof(m), p->model, unit);
	svg_fmt_si(f, sizeof(f), p->ref, unit);
	report_fmt_err(e, sizeof(e), p->err);
	return xasprintf("%s \xc2\xb7 %s \xc2\xb7 %s\nmodel %s, ref %s, "
			 "error %s\n%s%s", p->workload, p->op, p->metric, m, f,
			 e, report_status(p),
			 p->flags & CORR_SOL_VIOLATION ? "\nspeed-of-light "
			 "violation (faster than the roofline)" : "");
}

/* The points of the set grouped by metric, each metric's in set order:
 * metric m's are idx[start[m] .. start[m + 1]) (one pass, not one per
 * metric). */
static void by_metric(const struct report *r, size_t **idx, size_t **start)
{
	size_t nm = r->nmetrics, n = r->set->n, *at;

	*start = xcalloc(nm + 2, sizeof(**start));
	*idx = xmalloc((n + 1) * sizeof(**idx));
	at = xcalloc(nm + 1, sizeof(*at));
	for (size_t i = 0; i < n; i++)
		if (r->pmetric[i] < nm)
			(*start)[r->pmetric[i] + 1]++;
	for (size_t m = 0; m < nm; m++)
		(*start)[m + 1] += (*start)[m];
	memcpy(at, *start, nm * sizeof(*at));
	for (size_t i = 0; i < n; i++)
		if (r->pmetric[i] < nm)
			(*idx)[at[r->pmetric[i]]++] = i;
	free(at);
}

/* The points idx[0..len) of one metric in the figures (noisy and
 * invalid references left out), each with its tooltip; their op names
 * into *labels and the core's points into *src. */
static struct svg_point *fig_points(const struct report *r,
				    const size_t *idx, size_t len,
				    size_t *n, const char ***labels,
				    const struct corr_point ***src)
{
	const struct corr_set *s = r->set;
	struct svg_point *pts = xcalloc(len + 1, sizeof(*pts));

	*n = 0;
	*labels = xcalloc(len + 1, sizeof(**labels));
	*src = xcalloc(len + 1, sizeof(**src));
	for (size_t j = 0; j < len; j++) {
		size_t i = idx[j];
		const struct corr_point *p = &s->points[i];

		if (p->flags & (CORR_NOISY_REF | CORR_INVALID))
			continue;
		pts[*n].x = p->ref;
		pts[*n].y = p->model;
		pts[*n].cls = r->pclass[i];	/* its op class's index */
		pts[*n].shape = shape_of(p);
		pts[*n].sol = (p->flags & CORR_SOL_VIOLATION) != 0;
		/* tooltips for the largest errors only (set order): a
		 * million tooltips would be a hundred megabytes */
		pts[*n].tip = *n < REPORT_FIG_TIPS ? tip_of(r, p) : NULL;
		(*labels)[*n] = p->op;
		(*src)[*n] = p;
		(*n)++;
	}
	return pts;
}

static void free_points(struct svg_point *pts, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free((char *)pts[i].tip);
	free(pts);
}

static void scatter(struct strbuf *sb, const struct report *r, size_t m,
		    const struct svg_point *pts, size_t n)
{
	const struct corr_set *s = r->set;
	struct svg_scatter sc;
	char *title, *xl, *yl;

	title = xasprintf("%s: model vs reference (log-log)", r->metrics[m]);
	xl = xasprintf("reference: %s %s", s->ref.source, s->ref.version);
	yl = xasprintf("model: %s %s", s->model.source, s->model.version);
	memset(&sc, 0, sizeof(sc));
	sc.title = title;
	sc.unit = r->units[m];
	sc.xlabel = xl;
	sc.ylabel = yl;
	sc.classes = (const char *const *)r->classes;
	sc.nclasses = r->nclasses;
	sc.shapes = shape_names;
	sc.pts = pts;
	sc.n = n;
	sc.band = r->opts.limit;
	strbuf_addstr(sb, "<figure>");
	svg_scatter(sb, &sc);
	free(title);
	title = xasprintf("Each point is one (workload, op) pair of %s; on the "
			  "diagonal the model is exact, inside the band it is "
			  "within %g%%. Colour: op class; shape: annotation "
			  "status. Noisy and invalid references are left out. "
			  "Hover a point for its pair.",
			  r->metrics[m], r->opts.limit * 100);
	figure(sb, title);
	free(title);
	free(xl);
	free(yl);
}

/* The metric's statistics over every op class (its first group). */
static const struct stats_summary *metric_stats(const struct report *r,
						 size_t m)
{
	for (size_t i = 0; i < r->ngroups; i++)
		if (!r->groups[i].op_class &&
		    !strcmp(r->groups[i].metric, r->metrics[m]))
			return &r->groups[i].s;
	return NULL;
}

/* Signed error against the reference, then the Bland-Altman panel. */
static void errplots(struct strbuf *sb, const struct report *r, size_t m,
		     struct svg_point *pts, const char **labels,
		     const struct corr_point **src, size_t n)
{
	const struct stats_summary *st = metric_stats(r, m);
	const struct corr_set *s = r->set;
	struct svg_errplot ep;
	char *title, *xl;
	char lo[32], hi[32];

	for (size_t i = 0; i < n; i++)	/* y = the core's signed error */
		pts[i].y = src[i]->err;
	memset(&ep, 0, sizeof(ep));
	title = xasprintf("%s: error vs reference", r->metrics[m]);
	xl = xasprintf("reference: %s %s", s->ref.source, s->ref.version);
	ep.kind = SVG_ERR_SIGNED;
	ep.title = title;
	ep.unit = r->units[m];
	ep.xlabel = xl;
	ep.classes = (const char *const *)r->classes;
	ep.nclasses = r->nclasses;
	ep.shapes = shape_names;
	ep.pts = pts;
	ep.labels = labels;
	ep.n = n;
	ep.band = r->opts.limit;
	ep.nlabel = 3;
	strbuf_addstr(sb, "<figure>");
	svg_errplot(sb, &ep);
	free(title);
	title = xasprintf("Signed error of each %s pair against its reference "
			  "(log x), the \xc2\xb1%g%% band shaded: an outlier "
			  "stands out whatever the magnitude of its value. The "
			  "3 largest errors are named.", r->metrics[m],
			  r->opts.limit * 100);
	figure(sb, title);
	free(title);
	free(xl);
	for (size_t i = 0; i < n; i++) {	/* Bland-Altman's axes */
		double ref = src[i]->ref, model = src[i]->model;

		pts[i].x = model > 0 && ref > 0 ? sqrt(model * ref) : NAN;
		pts[i].y = model > 0 && ref > 0 ? log(model / ref) : NAN;
	}
	title = xasprintf("%s: Bland-Altman (model / ref)", r->metrics[m]);
	ep.kind = SVG_ERR_BA;
	ep.title = title;
	ep.xlabel = "geometric mean of model and reference";
	ep.band = 0;
	ep.lo = st ? st->loa_low : NAN;
	ep.hi = st ? st->loa_high : NAN;
	strbuf_addstr(sb, "<figure>");
	svg_errplot(sb, &ep);
	free(title);
	report_fmt_num(lo, sizeof(lo), isfinite(ep.lo) ? exp(ep.lo) : NAN);
	report_fmt_num(hi, sizeof(hi), isfinite(ep.hi) ? exp(ep.hi) : NAN);
	title = xasprintf("Model / reference of each %s pair against the size "
			  "of the pair (geometric mean); dashed: the mean ratio "
			  "and the 95%% limits of agreement (%s to %s, the "
			  "statistics' loa_low and loa_high on ln(model/ref)). "
			  "A slope in the cloud is a scale-dependent error.",
			  r->metrics[m], lo, hi);
	figure(sb, title);
	free(title);
}

/* The histogram of metric m's signed errors (one per metric: a
 * histogram over time, power and throughput at once would be a
 * statistic that mixes metrics). */
static void histogram(struct strbuf *sb, const struct report *r, size_t m,
		      const struct corr_point **src, size_t n)
{
	const struct stats_summary *st = metric_stats(r, m);
	double *e = xcalloc(n + 1, sizeof(*e));
	char *title, *caption;

	for (size_t i = 0; i < n; i++)
		e[i] = src[i]->err;
	title = xasprintf("%s: signed error", r->metrics[m]);
	strbuf_addstr(sb, "<figure>");
	svg_histogram(sb, title, e, n, r->opts.limit);
	caption = xasprintf("Distribution of (model - ref) / ref over the %s "
		"pairs in the figures: left of zero the model predicts less "
		"than the reference, right of it more. Which side is "
		"optimistic depends on the metric (less time is better, less "
		"throughput is worse): %ld pair%s optimistic (the model "
		"predicts better than measured), %ld pessimistic.",
		r->metrics[m], st ? st->optimistic : 0,
		st && st->optimistic == 1 ? " is" : "s are",
		st ? st->pessimistic : 0);
	figure(sb, caption);
	free(caption);
	free(title);
	free(e);
}

static void trend(struct strbuf *sb, const struct report *r)
{
	struct svg_series *ser;
	size_t ns = r->nmetrics < 6 ? r->nmetrics : 6;
	double *y;

	if (!r->opts.trend || !r->nversions)
		return;
	ser = xcalloc(ns + 1, sizeof(*ser));
	y = xcalloc(ns * r->nversions + 1, sizeof(*y));
	for (size_t m = 0; m < ns; m++) {
		for (size_t v = 0; v < r->nversions; v++)
			y[m * r->nversions + v] = r->trend[v * r->nmetrics + m];
		ser[m].name = r->metrics[m];
		ser[m].y = y + m * r->nversions;
	}
	strbuf_addstr(sb, "<figure>");
	svg_trend(sb, "MAPE by model version", (const char *const *)
		  r->versions, r->nversions, ser, ns);
	figure(sb, "MAPE of each model version against the same reference "
	       "version, oldest release first: is the model getting better?");
	free(y);
	free(ser);
}

/* A metric with fewer pairs than this gets a table of them, not a
 * scatter, an error plot and a Bland-Altman panel: a 2-point scatter
 * says nothing that a row does not say better. */
#define REPORT_FIG_MIN_POINTS 5
/* Figures for at most this many metrics (the tables carry all). */
#define REPORT_FIG_MAX_METRICS 8

/* A workload key that may break after each '/', never at a '-'. */
static void wl_text(struct strbuf *sb, const char *s)
{
	report_html_name(sb, s);
}

/* The pairs of metric m as table rows, in place of its figures. */
static void few_points(struct strbuf *sb, const struct report *r, size_t m,
		       const struct corr_point **src, size_t n)
{
	strbuf_addf(sb, "<figure class=\"few\"><table><thead><tr>"
		    "<th>workload</th><th>op</th><th class=\"n\">model</th>"
		    "<th class=\"n\">reference</th><th class=\"n\">error</th>"
		    "</tr></thead><tbody>\n");
	for (size_t i = 0; i < n; i++) {
		const struct corr_point *p = src[i];
		const char *unit = report_unit(r, p->metric);
		char mv[48], fv[48], e[32];

		svg_fmt_si(mv, sizeof(mv), p->model, unit);
		svg_fmt_si(fv, sizeof(fv), p->ref, unit);
		report_fmt_err(e, sizeof(e), p->err);
		strbuf_addstr(sb, "<tr><td class=\"wl\">");
		wl_text(sb, p->workload);
		strbuf_addstr(sb, "</td><td>");
		html_escape(sb, p->op);
		strbuf_addstr(sb, "</td><td class=\"n\">");
		html_escape(sb, mv);
		strbuf_addstr(sb, "</td><td class=\"n\">");
		html_escape(sb, fv);
		strbuf_addstr(sb, "</td><td class=\"n\">");
		html_escape(sb, e);
		strbuf_addstr(sb, "</td></tr>\n");
	}
	strbuf_addstr(sb, "</tbody></table>");
	{
		char *cap = n ? xasprintf("%s: %zu pair%s with a valid reference, "
					  "too few for a scatter (%d needed): "
					  "the pairs themselves.", r->metrics[m],
					  n, n == 1 ? "" : "s",
					  REPORT_FIG_MIN_POINTS)
			      : xasprintf("%s: no pair with a valid reference "
					  "(noisy or invalid references are left "
					  "out of the figures).", r->metrics[m]);
		figure(sb, cap);
		free(cap);
	}
}

void report_fig_html(struct strbuf *sb, const struct report *r)
{
	size_t *idx, *start;

	strbuf_addstr(sb, "<section id=\"figures\">\n<h2>Figures</h2>\n");
	if (r->nmetrics > REPORT_FIG_MAX_METRICS)
		strbuf_addf(sb, "<p class=\"meta\">Figures for the first %d of "
			    "%zu metrics; the tables above carry every metric.</p>\n",
			    REPORT_FIG_MAX_METRICS, r->nmetrics);
	strbuf_addstr(sb, "<div class=\"figs\">\n");
	by_metric(r, &idx, &start);
	for (size_t m = 0; m < r->nmetrics && m < REPORT_FIG_MAX_METRICS; m++) {
		const char **labels;
		const struct corr_point **src;
		size_t n;
		struct svg_point *pts = fig_points(r, idx + start[m],
						   start[m + 1] - start[m],
						   &n, &labels, &src);

		if (n < REPORT_FIG_MIN_POINTS) {
			few_points(sb, r, m, src, n);
		} else {
			scatter(sb, r, m, pts, n);
			errplots(sb, r, m, pts, labels, src, n);
			histogram(sb, r, m, src, n);
		}
		free_points(pts, n);
		free(labels);
		free(src);
	}
	free(idx);
	free(start);
	trend(sb, r);
	strbuf_addstr(sb, "</div>\n</section>\n");
}
