/*
 * The statistics as CSV columns and as a table for people (see
 * corrout.h): errors in percent, undefined statistics as "-" with their
 * reason, intervals in the note; a side as text.
 */
#include "src/corr/corrout.h"

#include <math.h>
#include <stdlib.h>

#include "src/corr/corrout_int.h"
#include "src/out/out.h"
#include "base/strbuf.h"
#include "base/units.h"
#include "base/util.h"

void corrout_stats_csv_header(FILE *fp)
{
	for (size_t i = 0; i < corrout_ntab; i++) {
		if (corrout_tab[i].off == 0 && corrout_tab[i].why == SF_FIT) {
			for (size_t k = 0; k < 5; k++)
				fprintf(fp, ",fit_%s", corrout_fit[k].name);
			continue;
		}
		fprintf(fp, ",%s", corrout_tab[i].name);
	}
	for (size_t i = 0; i < corrout_nmore; i++) {
		const struct field *f = &corrout_more[i];

		if (f->off == 0 && f->why == SF_DEMING) {
			for (size_t k = 0; k < 3; k++)
				fprintf(fp, ",deming_%s",
					corrout_deming[k].name);
			fputs(",deming_p_identity", fp);
		} else if (f->off != 0) {
			fprintf(fp, ",%s", f->name);
		}
	}
	fputs(",few_pairs,ci_basis", fp);
}

static void csv_num(FILE *fp, double v)
{
	struct strbuf sb = STRBUF_INIT;

	fputc(',', fp);
	if (isfinite(v)) {
		strbuf_add_double(&sb, v);
		fputs(strbuf_str(&sb), fp);
	}
	strbuf_release(&sb);
}

void corrout_stats_csv_row(FILE *fp, const struct stats_summary *s)
{
	for (size_t i = 0; i < corrout_ntab; i++) {
		const struct field *f = &corrout_tab[i];

		if (f->off == 0 && f->why == SF_FIT)
			for (size_t k = 0; k < 5; k++)
				csv_num(fp, dval(s, &corrout_fit[k]));
		else if (f->kind == K_COUNT)
			fprintf(fp, ",%ld", lval(s, f));
		else
			csv_num(fp, dval(s, f));
	}
	for (size_t i = 0; i < corrout_nmore; i++) {
		const struct field *f = &corrout_more[i];

		if (f->off == 0 && f->why == SF_DEMING) {
			for (size_t k = 0; k < 3; k++)
				csv_num(fp, dval(s, &corrout_deming[k]));
			csv_num(fp, s->deming.p_identity);
		} else if (f->off != 0) {
			csv_num(fp, dval(s, f));
		}
	}
	fprintf(fp, ",%d,%s", stats_few_pairs(s), corrout_ci_basis(s));
}

const char *corrout_pct(char *buf, size_t len, double v)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.2f%%", v * 100);
	return buf;
}

const char *corrout_num(char *buf, size_t len, double v)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.4g", v);
	return buf;
}

static void table_row(struct out_table *t, const char *name,
		      const char *val, const char *note)
{
	const char *cells[3] = { name, val, note ? note : "" };

	out_table_add(t, cells);
}

/* A value of statistic f: a count, a percent, a value in the metric's
 * unit with its SI prefix (unit: "120.3 µs"; issue 35 item 8), or a
 * plain number. */
static void value_of(char *buf, size_t len, const struct field *f, double v,
		     const char *unit)
{
	if (f->kind == K_ERR)
		corrout_pct(buf, len, v);
	else if (f->unit == CORROUT_U_METRIC && unit && isfinite(v))
		units_fmt(buf, len, v, unit, 0);
	else
		corrout_num(buf, len, v);
}

static void cell_of(char *buf, size_t len, const struct stats_summary *s,
		    const struct field *f, const char *unit)
{
	if (f->kind == K_COUNT)
		snprintf(buf, len, "%ld", lval(s, f));
	else
		value_of(buf, len, f, dval(s, f), unit);
}

/* "CI [lo, hi]" of the interval ci (of statistic f of s), "CI unknown"
 * when s has too few workloads for one (stats_ci_unknown: the reason is
 * the "intervals" row's), or pre. */
static const char *ci_note(char *note, size_t len,
			   const struct stats_summary *s,
			   const struct stats_ci *ci, const struct field *f,
			   const char *unit, const char *pre)
{
	char lo[32], hi[32], why[8];

	if ((isnan(ci->lo) || isnan(ci->hi)) &&
	    stats_ci_unknown(s, why, sizeof(why))) {
		snprintf(note, len, "%s%sCI unknown", pre ? pre : "",
			 pre ? "; " : "");
		return note;
	}
	if (isnan(ci->lo) || isnan(ci->hi))
		return pre;
	value_of(lo, sizeof(lo), f, ci->lo, unit);
	value_of(hi, sizeof(hi), f, ci->hi, unit);
	snprintf(note, len, "%s%sCI [%s, %s]", pre ? pre : "", pre ? "; " : "",
		 lo, hi);
	return note;
}

/* The rows of the additions (corrout_more), after the others. */
static void table_more(struct out_table *t, const struct stats_summary *s,
		       const char *unit)
{
	char buf[64], note[160];

	for (size_t i = 0; i < corrout_nmore; i++) {
		const struct field *f = &corrout_more[i];
		const char *why = stats_why(s, (enum stats_field)f->why);

		if (f->off == 0 && f->why == SF_DEMING) {
			const char *pw = stats_why(s, SF_DEMING_P);

			snprintf(note, sizeof(note), "lambda %s from %s", 
				 corrout_num(buf, sizeof(buf),
					     s->deming.lambda),
				 s->deming.lambda_known ? "reference stddev" :
				 "nothing: assumed 1");
			value_of(buf, sizeof(buf), &corrout_deming[0],
				 s->deming.intercept, unit);
			table_row(t, "deming.intercept", buf, why);
			table_row(t, "deming.slope", corrout_num(buf,
				  sizeof(buf), s->deming.slope), why ? why :
				  note);
			table_row(t, "deming.p_identity", corrout_num(buf,
				  sizeof(buf), s->deming.p_identity), pw ? pw :
				  "joint test of slope 1, intercept 0");
			continue;
		}
		if (f->off == 0)
			continue;	/* an interval: in its statistic's note */
		cell_of(buf, sizeof(buf), s, f, unit);
		if (f->ci && !why)
			table_row(t, f->name, buf, ci_note(note, sizeof(note),
				  s, cival(s, f), f, unit, NULL));
		else if (f->why == SF_MAPE_NOISY && !why &&
			 s->excluded_noisy)
			table_row(t, f->name, buf, "MAPE with the noisy "
				  "references kept");
		else
			table_row(t, f->name, buf, why);
	}
}

void corrout_stats_table(FILE *fp, const struct stats_summary *s,
			 int roofline, const char *unit)
{
	static const char *const head[3] = { "statistic", "value", "note" };
	struct out_table *t = out_table_new(3, head);
	char buf[64], cnote[160];

	out_table_right(t, 1);
	for (size_t i = 0; i < corrout_ntab; i++) {
		const struct field *f = &corrout_tab[i];
		const char *why = f->why >= 0 ?
			stats_why(s, (enum stats_field)f->why) : NULL;

		if (f->off == 0 && f->why == SF_FIT) {
			for (size_t k = 0; k < 5; k++) {
				char name[32];
				const char *nt;
				char note[160];

				snprintf(name, sizeof(name), "fit.%s",
					 corrout_fit[k].name);
				cell_of(buf, sizeof(buf), s, &corrout_fit[k],
					unit);
				nt = k == 0 && !why && s->fit.weighted ?
				     "weighted by 1/(tau^2 + b^2 se^2)" : why;
				if (!why && k < 2)
					nt = ci_note(note, sizeof(note), s,
						     k == 0 ?
						     &s->fit_intercept_ci :
						     &s->fit_slope_ci,
						     &corrout_fit[k], unit, nt);
				table_row(t, name, buf, nt);
			}
			continue;
		}
		if (f->why == SF_LOA && !why) {
			char note[160];

			cell_of(buf, sizeof(buf), s, f, unit);
			table_row(t, f->name, buf, ci_note(note, sizeof(note),
				  s, f->off == offsetof(struct stats_summary,
						     loa_low) ?
				  &s->loa_low_ci : &s->loa_high_ci, f, unit,
				  NULL));
			continue;
		}
		if (f->why == SF_EFFICIENCY) {
			if (roofline)
				table_row(t, f->name, corrout_pct(buf,
					  sizeof(buf), s->efficiency), why ? why :
					  "fraction of speed of light reached");
			continue;
		}
		cell_of(buf, sizeof(buf), s, f, unit);
		if (f->ci && !why && (!isnan(cival(s, f)->lo) ||
				      stats_ci_unknown(s, cnote, 8))) {
			table_row(t, f->name, buf, ci_note(cnote, sizeof(cnote),
				  s, cival(s, f), f, unit, NULL));
			continue;
		}
		table_row(t, f->name, buf, why);
	}
	table_more(t, s, unit);
	table_row(t, "ci basis", corrout_ci_basis(s), s->ci_clustered == 2 ?
		  "intervals, Deming's and the proportional bias's p treat "
		  "workloads and ops (crossed) as independent" :
		  s->ci_clustered ? "intervals, Deming's and the proportional "
		  "bias's p treat workloads as independent" : "intervals and "
		  "tests count every pair as independent (Kendall's p "
		  "always)");
	/* issue 34: too few workloads for any interval to hold its level */
	if (stats_ci_unknown(s, cnote, sizeof(cnote)))
		table_row(t, "intervals", "unknown", cnote);
	if (stats_few_pairs(s)) {
		snprintf(buf, sizeof(buf), "%ld < %ld", s->n, s->min_pairs);
		table_row(t, "few pairs", buf, "fewer pairs than the policy "
			  "or --min-pairs asks for: read the intervals");
	}

	out_table_print(t, fp);
	out_table_free(t);
}

char *corrout_side_text(const struct corr_side *side)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s@%s (%s, run%s ", side->source, side->version,
		    side->kind, side->nruns == 1 ? "" : "s");
	for (size_t i = 0; i < side->nruns; i++)
		strbuf_addf(&sb, "%s%lld", i ? "," : "",
			    (long long)side->runs[i]);
	strbuf_addch(&sb, ')');
	return strbuf_detach(&sb);
}
