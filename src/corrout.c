/* Printing correlation statistics (see corrout.h). */
#include "src/corrout.h"

#include <math.h>
#include <stdlib.h>

#include "db/annot.h"
#include "src/out.h"
#include "src/base/strbuf.h"
#include "src/base/util.h"

enum kind { K_NUM, K_COUNT, K_ERR };

struct field {
	const char *name;
	enum kind kind;
	int why;		/* enum stats_field, or -1 */
	size_t off;
	size_t ci;		/* offset of its struct stats_ci, or 0 */
};

#define D(name, k, w) { #name, k, w, offsetof(struct stats_summary, name), 0 }
/* A statistic with a bootstrap interval: "NAME_ci":[lo,hi] follows it. */
#define DC(name, k, w) { #name, k, w, offsetof(struct stats_summary, name), \
	offsetof(struct stats_summary, name##_ci) }
static const struct field fields[] = {
	D(n, K_COUNT, -1),
	DC(mape, K_ERR, SF_MAPE),
	DC(bias, K_ERR, SF_BIAS),
	DC(median_abs_err, K_ERR, SF_ABS_ERR),
	D(p90_abs_err, K_ERR, SF_ABS_ERR),
	D(p95_abs_err, K_ERR, SF_ABS_ERR),
	D(max_abs_err, K_ERR, SF_ABS_ERR),
	DC(geomean_ratio, K_NUM, SF_GEOMEAN),
	D(agg_err, K_ERR, SF_AGG_ERR),
	D(rpd, K_ERR, SF_RPD),
	D(rmse, K_NUM, SF_RMSE),
	D(nrmse, K_ERR, SF_NRMSE),
	D(within_1pct, K_COUNT, -1),
	D(within_5pct, K_COUNT, -1),
	D(within_10pct, K_COUNT, -1),
	D(under, K_COUNT, -1),
	D(over, K_COUNT, -1),
	DC(pearson, K_NUM, SF_PEARSON),
	DC(pearson_log, K_NUM, SF_PEARSON_LOG),
	DC(spearman, K_NUM, SF_SPEARMAN),
	D(kendall_tau_b, K_NUM, SF_KENDALL),
	{ "fit", K_NUM, SF_FIT, 0, 0 },	/* expands to the fit fields */
	D(loa_low, K_NUM, SF_LOA),
	D(loa_high, K_NUM, SF_LOA),
	D(outliers, K_COUNT, SF_OUTLIERS),
	D(excluded_noisy, K_COUNT, -1),
	D(sol_violations, K_COUNT, -1),
	/* additions to the contract (issue 15) */
	D(excluded_zero_ref, K_COUNT, -1),
	D(optimistic, K_COUNT, -1),
	D(pessimistic, K_COUNT, -1),
	D(efficiency, K_ERR, SF_EFFICIENCY),
};
#define NFIELDS (sizeof(fields) / sizeof(fields[0]))

/* Additions of issue 19, after "workloads" (every earlier key keeps its
 * place). "fit_intercept_ci" etc. are intervals only ("ci" = own
 * offset); "deming" expands to deming_fields. */
#define DI(name, w) { #name, K_NUM, w, 0, offsetof(struct stats_summary, \
	name) }
static const struct field more_fields[] = {
	D(kendall_p, K_NUM, SF_KENDALL_P),
	DI(fit_intercept_ci, SF_FIT),
	DI(fit_slope_ci, SF_FIT),
	DI(loa_low_ci, SF_LOA),
	DI(loa_high_ci, SF_LOA),
	DC(ccc, K_NUM, SF_CCC),
	DC(ccc_log, K_NUM, SF_CCC_LOG),
	{ "deming", K_NUM, SF_DEMING, 0, 0 },
	D(prop_bias_slope, K_NUM, SF_PROP_BIAS),
	D(prop_bias_p, K_NUM, SF_PROP_BIAS_P),
	D(mape_with_noisy, K_ERR, SF_MAPE_NOISY),
};
#define NMORE (sizeof(more_fields) / sizeof(more_fields[0]))

#define DM(name) { #name, K_NUM, SF_DEMING, offsetof(struct stats_summary, \
	deming.name), 0 }
static const struct field deming_fields[] = {
	DM(intercept), DM(slope), DM(lambda),
};

#define F(name) { #name, K_NUM, SF_FIT, offsetof(struct stats_summary, \
	fit.name), 0 }
static const struct field fit_fields[] = {
	F(intercept), F(slope), F(r2), F(se_intercept), F(se_slope),
};

static double dval(const struct stats_summary *s, const struct field *f)
{
	return *(const double *)((const char *)s + f->off);
}

static long lval(const struct stats_summary *s, const struct field *f)
{
	return *(const long *)((const char *)s + f->off);
}

static const struct stats_ci *cival(const struct stats_summary *s,
				    const struct field *f)
{
	return (const struct stats_ci *)(const void *)((const char *)s +
						       f->ci);
}

static void json_ci_val(FILE *fp, const struct stats_ci *ci);

/* ,"NAME_ci":[lo,hi] or null (not computed, undefined, one workload). */
static void json_ci(FILE *fp, const struct stats_summary *s,
		    const struct field *f)
{
	fprintf(fp, ",\"%s_ci\":", f->name);
	json_ci_val(fp, cival(s, f));
}

static void json_ci_val(FILE *fp, const struct stats_ci *ci)
{
	if (isnan(ci->lo) || isnan(ci->hi)) {
		fputs("null", fp);
		return;
	}
	fputc('[', fp);
	out_json_num(fp, ci->lo);
	fputc(',', fp);
	out_json_num(fp, ci->hi);
	fputc(']', fp);
}

/* "why":{"pearson":"several metrics",...}: the reason of each null
 * statistic (the fit's under "fit"). */
static void json_why_of(FILE *fp, const struct stats_summary *s,
			const struct field *fs, size_t nf, int *first)
{
	for (size_t i = 0; i < nf; i++) {
		const struct field *f = &fs[i];
		const char *why = f->why >= 0 ?
			stats_why(s, (enum stats_field)f->why) : NULL;

		if (!why || (f->off != 0 && !isnan(dval(s, f))))
			continue;
		if (f->off == 0 && f->ci)	/* an interval: its statistic's */
			continue;
		if (f->off == 0 && f->why == SF_FIT && !isnan(s->fit.slope))
			continue;
		if (f->off == 0 && f->why == SF_DEMING &&
		    !isnan(s->deming.slope))
			continue;
		fprintf(fp, "%s\"%s\":", *first ? "" : ",", f->name);
		out_json_str(fp, why);
		*first = 0;
	}
}

static void json_why(FILE *fp, const struct stats_summary *s)
{
	int first = 1;

	fputs(",\"why\":{", fp);
	json_why_of(fp, s, fields, NFIELDS, &first);
	json_why_of(fp, s, more_fields, NMORE, &first);
	fputc('}', fp);
}

/* "deming":{intercept, slope, lambda, lambda_from, p_identity} */
static void json_deming(FILE *fp, const struct stats_summary *s)
{
	fputs(",\"deming\":{", fp);
	for (size_t k = 0; k < 3; k++) {
		fprintf(fp, "%s\"%s\":", k ? "," : "", deming_fields[k].name);
		out_json_num(fp, dval(s, &deming_fields[k]));
	}
	fputs(",\"lambda_from\":", fp);
	if (isnan(s->deming.slope))
		fputs("null", fp);
	else
		out_json_str(fp, corrout_lambda_from(s));
	fputs(",\"p_identity\":", fp);
	out_json_num(fp, s->deming.p_identity);
	fputc('}', fp);
}

const char *corrout_lambda_from(const struct stats_summary *s)
{
	return s->deming.lambda_known ? "reference stddev" :
	       "assumed 1 (no reference stddev)";
}

/* The additions after "workloads" (see more_fields). */
static void json_more(FILE *fp, const struct stats_summary *s)
{
	for (size_t i = 0; i < NMORE; i++) {
		const struct field *f = &more_fields[i];

		if (f->why == SF_DEMING && f->off == 0) {
			json_deming(fp, s);
			continue;
		}
		fprintf(fp, ",\"%s\":", f->name);
		if (f->off == 0) {
			json_ci_val(fp, cival(s, f));
			continue;
		}
		out_json_num(fp, dval(s, f));
		if (f->ci)
			json_ci(fp, s, f);
	}
	fprintf(fp, ",\"few_pairs\":%s", stats_few_pairs(s) ? "true" :
		"false");
}

void corrout_stats_json(FILE *fp, const struct stats_summary *s)
{
	for (size_t i = 0; i < NFIELDS; i++) {
		const struct field *f = &fields[i];

		fprintf(fp, "%s\"%s\":", i ? "," : "", f->name);
		if (f->off == 0 && f->why == SF_FIT) {
			fputc('{', fp);
			for (size_t k = 0; k < 5; k++) {
				fprintf(fp, "%s\"%s\":", k ? "," : "",
					fit_fields[k].name);
				out_json_num(fp, dval(s, &fit_fields[k]));
			}
			fprintf(fp, ",\"weighted\":%s}", s->fit.weighted ?
				"true" : "false");
		} else if (f->kind == K_COUNT) {
			fprintf(fp, "%ld", lval(s, f));
		} else {
			out_json_num(fp, dval(s, f));
		}
		if (f->ci)
			json_ci(fp, s, f);
	}
	if (s->workloads || !s->n)
		fprintf(fp, ",\"workloads\":%ld", s->workloads);
	else
		fputs(",\"workloads\":null", fp);
	json_more(fp, s);
	json_why(fp, s);
}

char *corrout_stats_json_str(const struct stats_summary *s)
{
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);

	if (!fp)
		abort();	/* out of memory, as xmalloc */
	fputc('{', fp);
	corrout_stats_json(fp, s);
	fputc('}', fp);
	if (fclose(fp) != 0)
		abort();
	return text;
}

void corrout_side_json(FILE *fp, const struct corr_side *side)
{
	fputs("{\"source\":", fp);
	out_json_str(fp, side->source);
	fputs(",\"version\":", fp);
	out_json_str(fp, side->version);
	fputs(",\"kind\":", fp);
	out_json_str(fp, side->kind);
	fputc('}', fp);
}

static void json_opt_str(FILE *fp, const char *key, const char *v, int first)
{
	fprintf(fp, "%s\"%s\":", first ? "" : ",", key);
	if (v)
		out_json_str(fp, v);
	else
		fputs("null", fp);
}

void corrout_point_json(FILE *fp, const struct corr_point *p)
{
	const struct annot *a = p->ann;

	fputc('{', fp);
	json_opt_str(fp, "workload", p->workload, 1);
	json_opt_str(fp, "op", p->op, 0);
	json_opt_str(fp, "metric", p->metric, 0);
	fputs(",\"model\":", fp);
	out_json_num(fp, p->model);
	fputs(",\"ref\":", fp);
	out_json_num(fp, p->ref);
	fputs(",\"err\":", fp);
	out_json_num(fp, p->err);
	fputs(",\"ref_stddev\":", fp);
	out_json_num(fp, p->ref_sd);
	fprintf(fp, ",\"within_noise\":%s,\"sol_violation\":%s,"
		"\"annotation\":", p->flags & CORR_WITHIN_NOISE ? "true" :
		"false", p->flags & CORR_SOL_VIOLATION ? "true" : "false");
	if (!a) {
		fputs("null}", fp);
		return;
	}
	fprintf(fp, "{\"id\":%lld", (long long)a->id);
	json_opt_str(fp, "status", a->status, 0);
	json_opt_str(fp, "category", a->category, 0);
	json_opt_str(fp, "note", a->note, 0);
	json_opt_str(fp, "link", a->link, 0);
	json_opt_str(fp, "expires", a->expires, 0);
	json_opt_str(fp, "author", a->author, 0);
	json_opt_str(fp, "created_at", a->created_at, 0);
	fprintf(fp, ",\"waived\":%s}}", p->flags & CORR_WAIVED ? "true" :
		"false");
}

void corrout_stats_csv_header(FILE *fp)
{
	for (size_t i = 0; i < NFIELDS; i++) {
		if (fields[i].off == 0 && fields[i].why == SF_FIT) {
			for (size_t k = 0; k < 5; k++)
				fprintf(fp, ",fit_%s", fit_fields[k].name);
			continue;
		}
		fprintf(fp, ",%s", fields[i].name);
	}
	for (size_t i = 0; i < NMORE; i++) {
		const struct field *f = &more_fields[i];

		if (f->off == 0 && f->why == SF_DEMING) {
			for (size_t k = 0; k < 3; k++)
				fprintf(fp, ",deming_%s",
					deming_fields[k].name);
			fputs(",deming_p_identity", fp);
		} else if (f->off != 0) {
			fprintf(fp, ",%s", f->name);
		}
	}
	fputs(",few_pairs", fp);
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
	for (size_t i = 0; i < NFIELDS; i++) {
		const struct field *f = &fields[i];

		if (f->off == 0 && f->why == SF_FIT)
			for (size_t k = 0; k < 5; k++)
				csv_num(fp, dval(s, &fit_fields[k]));
		else if (f->kind == K_COUNT)
			fprintf(fp, ",%ld", lval(s, f));
		else
			csv_num(fp, dval(s, f));
	}
	for (size_t i = 0; i < NMORE; i++) {
		const struct field *f = &more_fields[i];

		if (f->off == 0 && f->why == SF_DEMING) {
			for (size_t k = 0; k < 3; k++)
				csv_num(fp, dval(s, &deming_fields[k]));
			csv_num(fp, s->deming.p_identity);
		} else if (f->off != 0) {
			csv_num(fp, dval(s, f));
		}
	}
	fprintf(fp, ",%d", stats_few_pairs(s));
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

static void cell_of(char *buf, size_t len, const struct stats_summary *s,
		    const struct field *f)
{
	if (f->kind == K_COUNT)
		snprintf(buf, len, "%ld", lval(s, f));
	else if (f->kind == K_ERR)
		corrout_pct(buf, len, dval(s, f));
	else
		corrout_num(buf, len, dval(s, f));
}

/* "CI [lo, hi]" of the interval ci (kind of its statistic), or NULL. */
static const char *ci_note(char *note, size_t len, const struct stats_ci *ci,
			   enum kind kind, const char *pre)
{
	char lo[32], hi[32];

	if (isnan(ci->lo) || isnan(ci->hi))
		return pre;
	if (kind == K_ERR) {
		corrout_pct(lo, sizeof(lo), ci->lo);
		corrout_pct(hi, sizeof(hi), ci->hi);
	} else {
		corrout_num(lo, sizeof(lo), ci->lo);
		corrout_num(hi, sizeof(hi), ci->hi);
	}
	snprintf(note, len, "%s%sCI [%s, %s]", pre ? pre : "", pre ? "; " : "",
		 lo, hi);
	return note;
}

/* The rows of the additions (more_fields), after the others. */
static void table_more(struct out_table *t, const struct stats_summary *s)
{
	char buf[64], note[160];

	for (size_t i = 0; i < NMORE; i++) {
		const struct field *f = &more_fields[i];
		const char *why = stats_why(s, (enum stats_field)f->why);

		if (f->off == 0 && f->why == SF_DEMING) {
			const char *pw = stats_why(s, SF_DEMING_P);

			snprintf(note, sizeof(note), "lambda %s from %s", 
				 corrout_num(buf, sizeof(buf),
					     s->deming.lambda),
				 s->deming.lambda_known ? "reference stddev" :
				 "nothing: assumed 1");
			table_row(t, "deming.intercept", corrout_num(buf,
				  sizeof(buf), s->deming.intercept), why);
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
		cell_of(buf, sizeof(buf), s, f);
		if (f->ci && !why)
			table_row(t, f->name, buf, ci_note(note, sizeof(note),
				  cival(s, f), f->kind, NULL));
		else if (f->why == SF_MAPE_NOISY && !why &&
			 s->excluded_noisy)
			table_row(t, f->name, buf, "MAPE with the noisy "
				  "references kept");
		else
			table_row(t, f->name, buf, why);
	}
}

void corrout_stats_table(FILE *fp, const struct stats_summary *s,
			 int roofline)
{
	static const char *const head[3] = { "statistic", "value", "note" };
	struct out_table *t = out_table_new(3, head);
	char buf[64];

	out_table_right(t, 1);
	for (size_t i = 0; i < NFIELDS; i++) {
		const struct field *f = &fields[i];
		const char *why = f->why >= 0 ?
			stats_why(s, (enum stats_field)f->why) : NULL;

		if (f->off == 0 && f->why == SF_FIT) {
			for (size_t k = 0; k < 5; k++) {
				char name[32];
				const char *nt;
				char note[160];

				snprintf(name, sizeof(name), "fit.%s",
					 fit_fields[k].name);
				cell_of(buf, sizeof(buf), s, &fit_fields[k]);
				nt = k == 0 && !why && s->fit.weighted ?
				     "weighted by 1/ref_sd^2" : why;
				if (!why && k < 2)
					nt = ci_note(note, sizeof(note), k == 0 ?
						     &s->fit_intercept_ci :
						     &s->fit_slope_ci, K_NUM, nt);
				table_row(t, name, buf, nt);
			}
			continue;
		}
		if (f->why == SF_LOA && !why) {
			char note[160];

			cell_of(buf, sizeof(buf), s, f);
			table_row(t, f->name, buf, ci_note(note, sizeof(note),
				  f->off == offsetof(struct stats_summary,
						     loa_low) ?
				  &s->loa_low_ci : &s->loa_high_ci, K_NUM,
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
		cell_of(buf, sizeof(buf), s, f);
		if (f->ci && !why && !isnan(cival(s, f)->lo)) {
			char lo[32], hi[32], note[80];

			cell_of(lo, sizeof(lo), s, &(struct field){ "", f->kind,
				-1, f->ci, 0 });
			cell_of(hi, sizeof(hi), s, &(struct field){ "", f->kind,
				-1, f->ci + sizeof(double), 0 });
			snprintf(note, sizeof(note), "CI [%s, %s]", lo, hi);
			table_row(t, f->name, buf, note);
			continue;
		}
		table_row(t, f->name, buf, why);
	}
	table_more(t, s);
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
