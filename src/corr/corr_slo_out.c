/* Verdict agreement and tails, written (corr_slo_out.h). */
#include "src/corr/corr_slo_out.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/units.h"
#include "base/util.h"
#include "src/corr/corr_slo.h"
#include "src/corr/corr_tail.h"
#include "src/corr/corrout.h"
#include "src/corr/correlate.h"
#include "src/out/out.h"

static void jnum(struct strbuf *sb, double v)
{
	if (isfinite(v))
		strbuf_addf(sb, "%.17g", v);
	else
		strbuf_addstr(sb, "null");
}

static const char *const cell_keys[SLO_NCELLS] = {
	"both_meet", "both_miss", "model_meets_ref_misses",
	"model_misses_ref_meets", "near_limit",
};

static void counts_json(struct strbuf *sb, const struct corr_slo_counts *c)
{
	strbuf_addf(sb, "\"keys\":%ld", c->keys);
	for (int i = 0; i < SLO_NCELLS; i++)
		strbuf_addf(sb, ",\"%s\":%ld", cell_keys[i], c->cell[i]);
	strbuf_addf(sb, ",\"flips\":%ld,\"no_spread\":%ld,\"agreement\":",
		    c->cell[SLO_MODEL_MEETS] + c->cell[SLO_MODEL_MISSES],
		    c->no_spread);
	jnum(sb, corr_slo_agreement(c));
}

static void key_json(struct strbuf *sb, const struct corr_slo *slo,
		     const struct corr_slo_key *k)
{
	const struct corr_point *p = k->p;
	const struct corr_slo_limit *l = &slo->lim[k->lim];

	strbuf_addstr(sb, "{\"workload\":");
	strbuf_add_json_str(sb, p->workload);
	strbuf_addstr(sb, ",\"op\":");
	strbuf_add_json_str(sb, p->op);
	strbuf_addstr(sb, ",\"metric\":");
	strbuf_add_json_str(sb, p->metric);
	strbuf_addstr(sb, ",\"limit\":");
	jnum(sb, l->limit);
	strbuf_addf(sb, ",\"meets\":\"%s\",\"model\":", corr_slo_dir(l));
	jnum(sb, p->model);
	strbuf_addstr(sb, ",\"ref\":");
	jnum(sb, p->ref);
	strbuf_addstr(sb, ",\"ref_stddev\":");
	jnum(sb, p->ref_sd);
	strbuf_addstr(sb, ",\"ref_min\":");
	jnum(sb, p->ref_min);
	strbuf_addstr(sb, ",\"ref_max\":");
	jnum(sb, p->ref_max);
	strbuf_addstr(sb, ",\"model_margin\":");
	jnum(sb, k->model_margin);
	strbuf_addstr(sb, ",\"ref_margin\":");
	jnum(sb, k->ref_margin);
	strbuf_addf(sb, ",\"model_meets\":%s,\"ref_meets\":%s,\"verdict\":",
		    k->model_meets ? "true" : "false",
		    k->ref_meets ? "true" : "false");
	strbuf_add_json_str(sb, corr_slo_cell_name(k->cell));
	strbuf_addch(sb, '}');
}

static void keys_json(struct strbuf *sb, const struct corr_slo *slo,
		      const struct corr_slo_key *k, size_t n, size_t max)
{
	strbuf_addch(sb, '[');
	for (size_t i = 0; i < n && (!max || i < max); i++) {
		if (i)
			strbuf_addch(sb, ',');
		key_json(sb, slo, &k[i]);
	}
	strbuf_addch(sb, ']');
}

void corr_slo_json(struct strbuf *sb, const struct corr_slo *slo,
		   const struct corr_slo_result *r, const struct corr_set *s,
		   size_t max)
{
	strbuf_addstr(sb, "{\"limits\":[");
	for (size_t i = 0; i < slo->n; i++) {
		const struct corr_slo_limit *l = &slo->lim[i];

		strbuf_addstr(sb, i ? ",{\"metric\":" : "{\"metric\":");
		strbuf_add_json_str(sb, l->metric);
		strbuf_addstr(sb, ",\"limit\":");
		jnum(sb, l->limit);
		strbuf_addstr(sb, ",\"unit\":");
		strbuf_add_json_str(sb, corr_metric_unit(s, l->metric));
		strbuf_addf(sb, ",\"meets\":\"%s\",\"text\":", corr_slo_dir(l));
		strbuf_add_json_str(sb, l->text);
		strbuf_addstr(sb, ",\"from\":");
		if (l->from)
			strbuf_add_json_str(sb, l->from);
		else
			strbuf_addstr(sb, "null");
		strbuf_addch(sb, '}');
	}
	strbuf_addstr(sb, "],");
	counts_json(sb, &r->all);
	strbuf_addf(sb, ",\"excluded\":%ld,\"by_limit\":[", r->excluded);
	for (size_t i = 0; i < r->nper; i++) {
		strbuf_addstr(sb, i ? ",{\"metric\":" : "{\"metric\":");
		strbuf_add_json_str(sb, slo->lim[i].metric);
		strbuf_addch(sb, ',');
		counts_json(sb, &r->per[i]);
		strbuf_addch(sb, '}');
	}
	strbuf_addstr(sb, "],\"flipped\":");
	keys_json(sb, slo, r->keys, r->nflips, max);
	strbuf_addstr(sb, ",\"near\":");
	keys_json(sb, slo, r->keys + r->nflips, r->nnear, max);
	strbuf_addch(sb, '}');
}

const char *corr_slo_limit_value(const char *text)
{
	const char *eq = strchr(text, '=');

	return eq ? eq + 1 : text;
}

static void counts_row(struct out_table *t, const char *name,
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
	row[SLO_NCELLS + 2] = corrout_pct(b[SLO_NCELLS + 1], 32,
					  corr_slo_agreement(c));
	out_table_add(t, row);
}

static void pct_margin(char *b, size_t len, double v)
{
	if (isfinite(v))
		snprintf(b, len, "%+.2f%%", 100 * v);
	else
		snprintf(b, len, "-");
}

/* A value in the metric's unit, as everywhere else (units_fmt: "480 ms",
 * not "0.48"); "-" when undefined. */
static const char *val_unit(char *b, size_t len, double v, const char *unit)
{
	if (isfinite(v))
		units_fmt(b, len, v, unit, 0);
	else
		snprintf(b, len, "-");
	return b;
}

static void keys_text(FILE *fp, const struct corr_slo *slo,
		      const struct corr_slo_key *k, size_t n, size_t top,
		      int near, const struct corr_set *s)
{
	static const char *const head[] = { "workload", "op", "metric",
		"limit", "model", "ref", "ref spread", "model margin",
		"ref margin", "verdict" };
	struct out_table *t = out_table_new(10, head);

	for (int c = 4; c < 9; c++)
		out_table_right(t, c);
	for (size_t i = 0; i < n && i < top; i++) {
		const struct corr_point *p = k[i].p;
		const char *u = corr_metric_unit(s, p->metric);
		char m[48], r[48], sp[112], mm[32], rm[32], lo[48], hi[48];
		const char *row[10];

		if (k[i].spread == 1)
			snprintf(sp, sizeof(sp), "sd %s",
				 val_unit(lo, sizeof(lo), p->ref_sd, u));
		else if (k[i].spread == 2)
			snprintf(sp, sizeof(sp), "%s..%s",
				 val_unit(lo, sizeof(lo), p->ref_min, u),
				 val_unit(hi, sizeof(hi), p->ref_max, u));
		else
			snprintf(sp, sizeof(sp), "-");
		pct_margin(mm, sizeof(mm), k[i].model_margin);
		pct_margin(rm, sizeof(rm), k[i].ref_margin);
		row[0] = p->workload;
		row[1] = p->op;
		row[2] = p->metric;
		row[3] = slo->lim[k[i].lim].text;
		row[4] = val_unit(m, sizeof(m), p->model, u);
		row[5] = val_unit(r, sizeof(r), p->ref, u);
		row[6] = sp;
		row[7] = mm;
		row[8] = rm;
		row[9] = near ? (k[i].model_meets ? "model meets" :
				 "model misses") :
			 corr_slo_cell_name(k[i].cell);
		out_table_add(t, row);
	}
	out_table_print(t, fp);
	out_table_free(t);
	if (n > top)
		fprintf(fp, "... and %zu more (--format json lists every "
			"one)\n", n - top);
}

void corr_slo_text(FILE *fp, const struct corr_slo *slo,
		   const struct corr_slo_result *r, const struct corr_set *s,
		   size_t top)
{
	static const char *const head[] = { "limit", "keys", "both meet",
		"both miss", "model meets/ref misses",
		"model misses/ref meets", "near limit", "agreement" };
	struct out_table *t = out_table_new(8, head);

	fputs("verdicts against the limits (meets: a time <= its limit, a "
	      "rate >= it):\n", fp);
	for (int c = 1; c < 8; c++)
		out_table_right(t, c);
	for (size_t i = 0; i < slo->n; i++) {
		char name[160];

		snprintf(name, sizeof(name), "%s%s%s%s", slo->lim[i].text,
			 slo->lim[i].from ? " (" : "",
			 slo->lim[i].from ? slo->lim[i].from : "",
			 slo->lim[i].from ? ")" : "");
		counts_row(t, name, &r->per[i]);
	}
	if (slo->n > 1)
		counts_row(t, "all", &r->all);
	out_table_print(t, fp);
	out_table_free(t);
	fputs("agreement: the share of the confident verdicts (not near the "
	      "limit) where model and reference agree\n", fp);
	if (r->excluded)
		fprintf(fp, "left out: %ld pair%s of a limited metric "
			"(invalid, noisy reference or waived)\n", r->excluded,
			r->excluded == 1 ? "" : "s");
	if (r->nflips) {
		fprintf(fp, "\nverdict flips (%zu), the reference furthest "
			"across the limit first (margin: the fraction of the "
			"limit a value meets it by; < 0 misses):\n",
			r->nflips);
		keys_text(fp, slo, r->keys, r->nflips, top, 0, s);
	} else {
		fputs("\nno verdict flips\n", fp);
	}
	if (r->nnear) {
		fprintf(fp, "\nnear the limit (%zu): the limit lies within "
			"the reference's own spread (its stddev, or min..max):"
			" no confident verdict either way\n", r->nnear);
		keys_text(fp, slo, r->keys + r->nflips, r->nnear, top, 1,
			  s);
	}
	if (r->all.no_spread)
		fprintf(fp, "note: %ld of %ld verdicts rest on references "
			"that state no spread (no stddev, min or max): how "
			"near their limit they are is unknown (--pool repeated "
			"runs measures it)\n", r->all.no_spread, r->all.keys);
}

void corr_tails_json(struct strbuf *sb, const struct corr_tails *t,
		     size_t max)
{
	char lv[24];

	strbuf_addstr(sb, "{\"percentiles\":[");
	for (size_t i = 0; i < t->npct; i++) {
		const struct corr_tail_pct *p = &t->pct[i];

		strbuf_addstr(sb, i ? ",{\"metric\":" : "{\"metric\":");
		strbuf_add_json_str(sb, p->base);
		strbuf_addstr(sb, ",\"level\":");
		strbuf_add_json_str(sb, corr_tail_name(lv, sizeof(lv), p->u));
		strbuf_addstr(sb, ",\"pair_metric\":");
		strbuf_add_json_str(sb, p->metric);
		strbuf_addf(sb, ",\"n\":%ld,\"mape\":", p->sum.n);
		jnum(sb, p->sum.mape);
		strbuf_addstr(sb, ",\"bias\":");
		jnum(sb, p->sum.bias);
		strbuf_addstr(sb, ",\"median_abs_err\":");
		jnum(sb, p->sum.median_abs_err);
		strbuf_addstr(sb, ",\"max_abs_err\":");
		jnum(sb, p->sum.max_abs_err);
		strbuf_addch(sb, '}');
	}
	strbuf_addf(sb, "],\"keys\":%zu,\"with_distance\":%zu,\"excluded\":"
		    "%ld,\"distance\":\"w1_log\",\"worst\":[", t->nkeys, t->nw,
		    t->excluded);
	for (size_t i = 0; i < t->nkeys && (!max || i < max); i++) {
		const struct corr_tail_key *k = &t->keys[i];

		strbuf_addstr(sb, i ? ",{\"workload\":" : "{\"workload\":");
		strbuf_add_json_str(sb, k->workload);
		strbuf_addstr(sb, ",\"op\":");
		strbuf_add_json_str(sb, k->op);
		strbuf_addstr(sb, ",\"metric\":");
		strbuf_add_json_str(sb, k->base);
		strbuf_addstr(sb, ",\"w1_log\":");
		jnum(sb, k->w1);
		strbuf_addstr(sb, ",\"why\":");
		if (k->why)
			strbuf_add_json_str(sb, k->why);
		else
			strbuf_addstr(sb, "null");
		strbuf_addstr(sb, ",\"levels\":[");
		for (size_t j = 0; j < k->k; j++) {
			strbuf_addstr(sb, j ? ",{\"level\":" : "{\"level\":");
			strbuf_add_json_str(sb, corr_tail_name(lv, sizeof(lv),
							       k->u[j]));
			strbuf_addstr(sb, ",\"model\":");
			jnum(sb, k->model[j]);
			strbuf_addstr(sb, ",\"ref\":");
			jnum(sb, k->ref[j]);
			strbuf_addstr(sb, ",\"err\":");
			jnum(sb, k->ref[j] != 0 ? (k->model[j] - k->ref[j]) /
			     fabs(k->ref[j]) : NAN);
			strbuf_addch(sb, '}');
		}
		strbuf_addstr(sb, "]}");
	}
	strbuf_addstr(sb, "]}");
}

void corr_tails_text(FILE *fp, const struct corr_tails *t, size_t top)
{
	static const char *const ph[] = { "metric", "level", "n", "MAPE",
		"bias", "median|err|", "max|err|" };
	static const char *const kh[] = { "workload", "op", "metric",
		"levels", "W1(log)", "x", "err low", "err high", "note" };
	struct out_table *p = out_table_new(7, ph), *k;
	char lv[24], b[6][32];

	fputs("tails: the error at each stated percentile, over the keys "
	      "that state it\n", fp);
	for (int c = 2; c < 7; c++)
		out_table_right(p, c);
	for (size_t i = 0; i < t->npct; i++) {
		const struct corr_tail_pct *x = &t->pct[i];
		const char *row[7];

		snprintf(b[0], 32, "%ld", x->sum.n);
		row[0] = x->base;
		row[1] = corr_tail_name(lv, sizeof(lv), x->u);
		row[2] = b[0];
		row[3] = corrout_pct(b[1], 32, x->sum.mape);
		row[4] = corrout_pct(b[2], 32, x->sum.bias);
		row[5] = corrout_pct(b[3], 32, x->sum.median_abs_err);
		row[6] = corrout_pct(b[4], 32, x->sum.max_abs_err);
		out_table_add(p, row);
	}
	out_table_print(p, fp);
	out_table_free(p);
	if (!t->nkeys)
		return;
	fprintf(fp, "\ndistance between the distributions, per key (W1 of "
		"ln value over the percentiles both state, x = e^W1; %zu of "
		"%zu keys have one), largest first:\n", t->nw, t->nkeys);
	k = out_table_new(9, kh);
	for (int c = 4; c < 8; c++)
		out_table_right(k, c);
	for (size_t i = 0; i < t->nkeys && i < top; i++) {
		const struct corr_tail_key *x = &t->keys[i];
		struct strbuf lvls = STRBUF_INIT;
		const char *row[9];

		for (size_t j = 0; j < x->k; j++)
			strbuf_addf(&lvls, "%s%s", j ? "," : "",
				    corr_tail_name(lv, sizeof(lv), x->u[j]));
		snprintf(b[0], 32, isfinite(x->w1) ? "%.4f" : "-", x->w1);
		snprintf(b[1], 32, isfinite(x->w1) ? "%.3f" : "-",
			 exp(x->w1));
		row[0] = x->workload;
		row[1] = x->op;
		row[2] = x->base;
		row[3] = lvls.buf;
		row[4] = b[0];
		row[5] = b[1];
		row[6] = corrout_pct(b[2], 32, x->err_lo);
		row[7] = corrout_pct(b[3], 32, x->err_hi);
		row[8] = x->why ? x->why : "";
		out_table_add(k, row);
		strbuf_release(&lvls);
	}
	out_table_print(k, fp);
	out_table_free(k);
	if (t->nkeys > top)
		fprintf(fp, "... and %zu more (--format json lists every "
			"one)\n", t->nkeys - top);
}
