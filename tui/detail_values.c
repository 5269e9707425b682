/* The detail's Values and Pairwise errors sections (see detail_values.h). */
#include "tui/detail_values.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/strbuf.h"
#include "db/detail.h"
#include "src/corr/correlate.h"
#include "src/matrix/matrix.h"
#include "src/pairidx/pairidx.h"
#include "tui/draw.h"
#include "tui/fmt.h"
#include "tui/theme.h"
#include "tui/tui.h"
#include "tui/view.h"

static const char *const kinds[] = { "roofline", "perfsim", "rtl",
				     "emulation", "silicon" };

static int tier(const char *kind)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(*kinds); i++)
		if (!strcmp(kinds[i], kind))
			return (int)i;
	return -1;
}

/* Spaces that right-align s in w columns (printf pads bytes, and µ is
 * two bytes in one column). */
static int pad(const char *s, int w)
{
	int cols = draw_width(s);

	return w > cols ? w - cols : 0;
}

/* A value with its unit; the roofline's limiter as the word it codes
 * (docs/importers-models.md: 0 memory, 1 compute, 2 collective). */
static void value_text(char *buf, size_t len, const char *metric, double v,
		       const char *unit)
{
	static const char *const limiter[] = { "memory", "compute",
		"collective" };

	if (metric && !strcmp(metric, "limiter") && (v == 0 || v == 1 ||
						     v == 2))
		snprintf(buf, len, "%s", limiter[(int)v]);
	else
		fmt_si_unit(buf, len, v, unit, draw_ascii());
}

static int same_run(const struct db_detail_row *a,
		    const struct db_detail_row *b)
{
	return a->run_id == b->run_id && !strcmp(a->source, b->source);
}

/* The widest metric name of the run starting at rows[i]. */
static int metric_width(const struct db_detail_row *rows, size_t n, size_t i)
{
	int w = 6;

	for (size_t k = i; k < n && same_run(&rows[k], &rows[i]); k++)
		w = (int)strlen(rows[k].metric) > w ? (int)strlen(rows[k].metric)
						     : w;
	return w > 22 ? 22 : w;
}

/* One metric of a run: "time  166.4 µs  n 2048  stddev 3.095 µs"; cycles
 * with the time the run's clock makes of them. */
static void value_line(struct view *v, const struct db_detail_row *r, int mw)
{
	char val[32], sd[32], cnt[16], extra[128] = "";
	size_t l;

	value_text(val, sizeof(val), r->metric, r->value, r->unit);
	if (!isnan(r->n)) {
		fmt_num(cnt, sizeof(cnt), r->n, 0);
		snprintf(extra, sizeof(extra), "  n %s", cnt);
	}
	if (!isnan(r->stddev)) {
		fmt_si_unit(sd, sizeof(sd), r->stddev, r->unit, draw_ascii());
		l = strlen(extra);
		snprintf(extra + l, sizeof(extra) - l, "  stddev %s", sd);
	}
	if (!strcmp(r->metric, "cycles") && r->clock_hz > 0) {
		char t[32], mhz[32];

		fmt_si_unit(t, sizeof(t), r->value / r->clock_hz, "s",
			    draw_ascii());
		fmt_num(mhz, sizeof(mhz), r->clock_hz / 1e6, 0);
		l = strlen(extra);
		snprintf(extra + l, sizeof(extra) - l, "  = %s at %s MHz", t,
			 mhz);
	}
	textbuf_add(&v->text, TH_NORMAL, "    %-*.*s %*s%s%s", mw, mw, r->metric,
		    pad(val, 13), "", val, extra);
}

void detail_values_add(struct view *v, const struct db_detail_row *rows,
		       size_t n)
{
	textbuf_add(&v->text, TH_NORMAL, "%s", "");
	textbuf_add(&v->text, TH_HEADER, "Values (every source and run)");
	for (size_t i = 0; i < n;) {
		const struct db_detail_row *r = &rows[i];
		int mw = metric_width(rows, n, i);

		/* the run once: kind, source@version, run, file, platform */
		textbuf_add(&v->text, TH_COLHEAD, "  %s %s@%s  run %lld  %s%s%s",
			    r->kind, r->source, r->version,
			    (long long)r->run_id, r->file, *r->platform ?
			    "  " : "", r->platform);
		for (; i < n && same_run(&rows[i], r); i++)
			value_line(v, &rows[i], mw);
	}
	if (!n)
		textbuf_add(&v->text, TH_DIM, "  (no stored results)");
}

/* Sources present, latest first per source (rows are ordered by kind). */
static size_t sources_of(const struct db_detail_row *rows, size_t n,
			 const char **src, const char **kind, size_t max)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		size_t j;

		for (j = 0; j < k; j++)
			if (!strcmp(src[j], rows[i].source))
				break;
		if (j == k && k < max) {
			src[k] = rows[i].source;
			kind[k++] = rows[i].kind;
		}
	}
	return k;
}

/* The row of source's metric for the key (rows are the key's; the
 * source's latest run last), or NULL. */
static const struct db_detail_row *holds(const struct db_detail_row *rows,
					 size_t n, const char *source,
					 const char *metric)
{
	const struct db_detail_row *r = NULL;

	for (size_t i = 0; i < n; i++)
		if (!strcmp(rows[i].source, source) &&
		    !strcmp(rows[i].metric, metric))
			r = &rows[i];
	return r;
}

static const char *side_spec(struct view *v, const char *source, char *buf,
			     size_t len)
{
	const struct pidx *s = v->tui->data.ix;

	if (!strcmp(source, s->model.source))
		snprintf(buf, len, "%s@%s", source, s->model.version);
	else if (!strcmp(source, s->ref.source))
		snprintf(buf, len, "%s@%s", source, s->ref.version);
	else
		snprintf(buf, len, "%s", source);
	return buf;
}

/* A glob that matches s literally. */
static char *glob_escape(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	for (; *s; s++) {
		if (*s == '*' || *s == '?' || *s == '[') {
			strbuf_addch(&sb, '[');
			strbuf_addch(&sb, *s);
			strbuf_addch(&sb, ']');
		} else {
			strbuf_addch(&sb, *s);
		}
	}
	return strbuf_detach(&sb);
}

/* hz > 0: the values are cycles, shown as the time they are at hz. A
 * roofline model (bound) is a bound, not a model (issue 35): the line
 * says the fraction of speed of light the reference reaches, not an
 * error. */
static void pair_line(struct view *v, const char *ms, const char *rs,
		      const struct corr_point *x, const char *unit, double hz,
		      int bound)
{
	char a[32], b[32], e[24];

	fmt_si_unit(a, sizeof(a), hz > 0 ? x->model / hz : x->model,
		    hz > 0 ? "s" : unit, draw_ascii());
	fmt_si_unit(b, sizeof(b), hz > 0 ? x->ref / hz : x->ref,
		    hz > 0 ? "s" : unit, draw_ascii());
	fmt_pct(e, sizeof(e), x->err, 1);
	if (bound) {
		char f[16];

		fmt_pct(f, sizeof(f), matrix_sol_fraction(x->ref, x->model,
			data_metric_higher(&v->tui->data, x->metric_id) ||
			(unit[0] && strstr(unit, "/s"))), 0);
		snprintf(e, sizeof(e), "%s SoL", f);
	}
	textbuf_add(&v->text, TH_NORMAL, "  %-21s %-21s %*s%s %*s%s %9s%s", ms,
		    rs, pad(a, 11), "", a, pad(b, 11), "", b, e,
		    x->flags & CORR_WITHIN_NOISE ? "  within noise" : "");
}

/*
 * The error of model vs ref on p's key. The pair on show is the loaded
 * one; another runs the core on this key alone. A reference that holds
 * the key in cycles where p is a time (an RTL) pairs in cycles: --metric
 * time converts a model's cycles, not a reference's, and said "nothing
 * matched" (issue 35); the core pairs the model's time with the
 * reference's cycles through its clock, and the line shows both as the
 * time they are at that clock (the error is the same).
 */
static void add_pair(struct view *v, const struct corr_point *p,
		     const char *model, const char *ref, int bound,
		     const struct db_detail_row *rows, size_t n)
{
	struct tui_data *d = &v->tui->data;
	const struct pidx *cur = d->ix;
	struct corr_query q = CORR_QUERY_INIT;
	struct corr_set *s = NULL;
	char ms[128], rs[128];
	char *wg, *og;
	const char *unit = data_metric_unit(d, p->metric_id);
	const struct db_detail_row *cyc;
	double hz = 0;

	q.model = side_spec(v, model, ms, sizeof(ms));
	q.ref = side_spec(v, ref, rs, sizeof(rs));
	q.roofline = d->roofline;
	if (!strcmp(model, cur->model.source) && !strcmp(ref, cur->ref.source)) {
		pair_line(v, ms, rs, p, unit, 0, bound);	/* the loaded one */
		return;
	}
	wg = glob_escape(p->workload);
	og = glob_escape(p->op);
	q.metric = p->metric;
	if (!strcmp(p->metric, "time") && !holds(rows, n, ref, "time") &&
	    (cyc = holds(rows, n, ref, "cycles"))) {
		q.metric = "cycles";
		unit = "cycles";
		hz = cyc->clock_hz > 0 ? cyc->clock_hz : 0;
	}
	q.workload_glob = wg;
	q.op_glob = og;
	q.only[0] = p->workload_id;	/* read just this key's results */
	q.only[1] = p->op_id;
	if (corr_load(&s, v->tui->db, &q) == 0 && s->n) {
		pair_line(v, ms, rs, &s->points[0], unit, hz, bound);
	} else {
		textbuf_add(&v->text, TH_DIM, "  %-21s %-21s  (%s)", ms, rs,
			    s ? "no pair" : pc_error_last());
	}
	corr_set_free(s);
	free(wg);
	free(og);
}

void detail_pairs_add(struct view *v, const struct corr_point *p,
		      const struct db_detail_row *rows, size_t n)
{
	const char *src[16], *kind[16];
	size_t k = sources_of(rows, n, src, kind, 16);

	textbuf_add(&v->text, TH_NORMAL, "%s", "");
	textbuf_add(&v->text, TH_HEADER, "Pairwise errors (metric %s, from the "
		    "core; a roofline: %% of speed of light)", p->metric);
	textbuf_add(&v->text, TH_COLHEAD, "  %-21s %-21s %11s %11s %9s",
		    "model", "reference", "model", "ref", "err");
	for (size_t i = 0; i < k; i++)
		for (size_t j = 0; j < k; j++)
			if (tier(kind[i]) >= 0 && tier(kind[i]) < tier(kind[j]))
				add_pair(v, p, src[i], src[j],
					 !strcmp(kind[i], "roofline"), rows, n);
}
