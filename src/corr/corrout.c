/* Printing correlation statistics (see corrout.h). */
#include "src/corr/corrout.h"

#include <math.h>
#include <stdlib.h>

#include "db/annot.h"
#include "src/out/out.h"
#include "base/strbuf.h"
#include "base/util.h"

enum kind { K_NUM, K_COUNT, K_ERR };

/*
 * THE table of statistics (issue 19): every statistic a summary has, in
 * the order of the JSON contract, with its JSON key (name), format and
 * unit behaviour (kind, unit), the reason index, its interval, where
 * people see it besides compare (views: the report's accuracy tables,
 * its per-op tables, the TUI's Summary view), the column labels and a
 * one-line description. compare's JSON, CSV and table, trend, diff, the
 * report (JSON, and the columns and "All statistics" of Markdown and
 * HTML), the gate's statistics and the TUI's Summary view iterate it;
 * docs/statistics.md's list is checked against it
 * (tests/unit/test_corrout.c). A new statistic: a field of struct
 * stats_summary, its function, and a row here.
 */
struct field {
	const char *name;
	enum kind kind;
	int why;		/* enum stats_field, or -1 */
	size_t off;
	size_t ci;		/* offset of its struct stats_ci, or 0 */
	enum corrout_unit unit;
	unsigned views;		/* CORROUT_V_* */
	const char *label, *abbr, *desc;
};

#define D(name, k, w, u, v, lab, ab, desc) { #name, k, w, \
	offsetof(struct stats_summary, name), 0, u, v, lab, ab, desc }
/* A statistic with a bootstrap interval: "NAME_ci":[lo,hi] follows it. */
#define DC(name, k, w, u, v, lab, ab, desc) { #name, k, w, \
	offsetof(struct stats_summary, name), \
	offsetof(struct stats_summary, name##_ci), u, v, lab, ab, desc }
#define UC CORROUT_U_COUNT
#define UE CORROUT_U_ERR
#define UR CORROUT_U_RATIO
#define UM CORROUT_U_METRIC
#define UL CORROUT_U_LOG
#define VR CORROUT_V_REPORT
#define VO CORROUT_V_OPS
#define VT CORROUT_V_TUI
static const struct field fields[] = {
	D(n, K_COUNT, -1, UC, 0, "n", "n", "pairs in the statistics"),
	DC(mape, K_ERR, SF_MAPE, UE, VR | VO | VT, "MAPE", "MAPE",
	   "mean |e|, e = (model - ref) / ref"),
	DC(bias, K_ERR, SF_BIAS, UE, VR | VO | VT, "bias", "bias",
	   "mean e (signed: > 0 the model over-predicts)"),
	DC(median_abs_err, K_ERR, SF_ABS_ERR, UE, 0, "median |err|", "med",
	   "median |e| (quantiles: linear interpolation)"),
	D(p90_abs_err, K_ERR, SF_ABS_ERR, UE, VT, "p90 |err|", "p90",
	  "90th percentile of |e|"),
	D(p95_abs_err, K_ERR, SF_ABS_ERR, UE, VR, "p95 |err|", "p95",
	  "95th percentile of |e|"),
	D(max_abs_err, K_ERR, SF_ABS_ERR, UE, VO | VT, "max |err|", "max",
	  "largest |e|"),
	DC(geomean_ratio, K_NUM, SF_GEOMEAN, UR, 0, "geomean ratio", "geo",
	   "exp(mean ln(model / ref))"),
	D(agg_err, K_ERR, SF_AGG_ERR, UE, VT, "aggregate error", "agg",
	  "sum |model - ref| / sum ref (Accel-Sim Agg_Err)"),
	D(rpd, K_ERR, SF_RPD, UE, 0, "RPD", "rpd",
	  "mean 2 |model - ref| / (model + ref)"),
	D(rmse, K_NUM, SF_RMSE, UM, 0, "RMSE", "rmse",
	  "sqrt(mean (model - ref)^2)"),
	D(nrmse, K_ERR, SF_NRMSE, UE, 0, "NRMSE", "nrmse",
	  "rmse / mean ref"),
	D(within_1pct, K_COUNT, -1, UC, 0, "within 1%", "1%",
	  "pairs with |e| <= 0.01"),
	D(within_5pct, K_COUNT, -1, UC, 0, "within 5%", "5%",
	  "pairs with |e| <= 0.05"),
	D(within_10pct, K_COUNT, -1, UC, 0, "within 10%", "10%",
	  "pairs with |e| <= 0.10"),
	D(under, K_COUNT, -1, UC, 0, "under", "under", "pairs with e < 0"),
	D(over, K_COUNT, -1, UC, 0, "over", "over", "pairs with e > 0"),
	DC(pearson, K_NUM, SF_PEARSON, UR, VR | VT, "Pearson", "r",
	   "Pearson r of (model, ref); workload bootstrap interval (ci_basis)"),
	DC(pearson_log, K_NUM, SF_PEARSON_LOG, UR, 0, "Pearson (log)",
	   "r log", "Pearson r of (ln model, ln ref); workload bootstrap interval"),
	DC(spearman, K_NUM, SF_SPEARMAN, UR, VR | VT, "Spearman", "rho",
	   "Spearman rank correlation; workload bootstrap interval"),
	D(kendall_tau_b, K_NUM, SF_KENDALL, UR, 0, "Kendall tau-b", "tau",
	  "Kendall's tau-b (ties handled)"),
	{ "fit", K_NUM, SF_FIT, 0, 0, UM, 0, "fit", "fit",
	  "least squares model = intercept + slope x ref (weighted by "
	  "1/(tau^2 + b^2 ref_se^2) when every reference has a stddev)" },
	D(loa_low, K_NUM, SF_LOA, UL, 0, "LoA low", "loa-",
	  "Bland-Altman lower limit of agreement of ln(model / ref)"),
	D(loa_high, K_NUM, SF_LOA, UL, 0, "LoA high", "loa+",
	  "Bland-Altman upper limit of agreement of ln(model / ref)"),
	D(outliers, K_COUNT, SF_OUTLIERS, UC, 0, "outliers", "out",
	  "pairs with |e - median e| > 3 x 1.4826 x MAD"),
	D(excluded_noisy, K_COUNT, -1, UC, VR, "noisy", "noisy",
	  "pairs left out: the reference's stddev / value > --max-ref-cv"),
	D(sol_violations, K_COUNT, -1, UC, VR, "SoL", "SoL", "speed-of-light violations: pairs "
	  "whose model or reference value beats the roofline of the key "
	  "(a time below it, a rate above it)"),
	/* additions to the contract (issue 15) */
	D(excluded_zero_ref, K_COUNT, -1, UC, 0, "excluded: zero reference",
	  "ref 0", "pairs left out for a zero reference"),
	D(optimistic, K_COUNT, -1, UC, 0, "optimistic", "opt",
	  "pairs the model predicts better than the reference"),
	D(pessimistic, K_COUNT, -1, UC, 0, "pessimistic", "pes",
	  "pairs the model predicts worse than the reference"),
	D(efficiency, K_ERR, SF_EFFICIENCY, UE, 0, "efficiency", "eff",
	  "roofline only: fraction of speed of light reached"),
};
#define NFIELDS (sizeof(fields) / sizeof(fields[0]))

/* "workloads" (after efficiency): not a statistic of the data but of
 * its resampling; listed so that the table names every key. */
static const struct field workloads_field = {
	"workloads", K_COUNT, -1, 0, 0, UC, 0, "workloads", "wl",
	"distinct workloads the bootstrap resampled (null with --no-ci)" };

/* Additions of issue 19, after "workloads" (every earlier key keeps its
 * place). "fit_intercept_ci" etc. are intervals only ("ci" = own
 * offset); "deming" expands to deming_fields. */
#define DI(name, w, u, lab, desc) { #name, K_NUM, w, 0, \
	offsetof(struct stats_summary, name), u, 0, lab, lab, desc }
static const struct field more_fields[] = {
	D(kendall_p, K_NUM, SF_KENDALL_P, UR, 0, "Kendall p", "p tau",
	  "two-sided p of tau-b (exact for n <= 50 without ties)"),
	DI(fit_intercept_ci, SF_FIT, UM, "fit intercept CI",
	   "workload bootstrap interval of the fit's intercept"),
	DI(fit_slope_ci, SF_FIT, UR, "fit slope CI",
	   "workload bootstrap interval of the fit's slope"),
	DI(loa_low_ci, SF_LOA, UL, "LoA low CI",
	   "workload bootstrap interval of the lower limit"),
	DI(loa_high_ci, SF_LOA, UL, "LoA high CI",
	   "workload bootstrap interval of the upper limit"),
	DC(ccc, K_NUM, SF_CCC, UR, 0, "Lin's CCC", "ccc",
	   "Lin's concordance correlation with y = x; bootstrap interval"),
	DC(ccc_log, K_NUM, SF_CCC_LOG, UR, 0, "Lin's CCC (log)", "ccc log",
	   "Lin's concordance on ln of the values; bootstrap interval"),
	{ "deming", K_NUM, SF_DEMING, 0, 0, UM, 0, "Deming", "deming",
	  "Deming regression model = intercept + slope x ref" },
	D(prop_bias_slope, K_NUM, SF_PROP_BIAS, UR, 0, "proportional bias",
	  "prop", "slope of ln(m/r) on the mean log (> 0: over-predicts "
	  "more for larger values)"),
	D(prop_bias_p, K_NUM, SF_PROP_BIAS_P, UR, 0, "proportional bias p",
	  "prop p", "two-sided p of that slope"),
	D(mape_with_noisy, K_ERR, SF_MAPE_NOISY, UE, 0, "MAPE with noisy",
	  "MAPE+n", "MAPE with the noisy references kept"),
};
#define NMORE (sizeof(more_fields) / sizeof(more_fields[0]))

#define DM(name, u, lab, desc) { #name, K_NUM, SF_DEMING, \
	offsetof(struct stats_summary, deming.name), 0, u, 0, lab, lab, desc }
static const struct field deming_fields[] = {
	DM(intercept, UM, "Deming intercept", "intercept"),
	DM(slope, UR, "Deming slope", "slope"),
	DM(lambda, UR, "Deming lambda", "error variance of model / of ref"),
	{ "p_identity", K_NUM, SF_DEMING_P, offsetof(struct stats_summary,
	  deming.p_identity), 0, UR, 0, "Deming p identity",
	  "Deming p identity", "joint test of slope 1 and intercept 0 "
	  "(workload bootstrap)" },
};

#define F(name, u, v, lab, ab, desc) { #name, K_NUM, SF_FIT, \
	offsetof(struct stats_summary, fit.name), 0, u, v, lab, ab, desc }
static const struct field fit_fields[] = {
	F(intercept, UM, 0, "fit intercept", "icpt", "intercept"),
	F(slope, UR, VR, "slope", "slope", "slope (< 1: the model "
	  "compresses the range)"),
	F(r2, UR, 0, "fit r2", "r2", "coefficient of determination"),
	F(se_intercept, UM, 0, "fit se intercept", "se icpt",
	  "standard error of the intercept"),
	F(se_slope, UR, 0, "fit se slope", "se slope",
	  "standard error of the slope"),
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

const char *corrout_ci_basis(const struct stats_summary *s)
{
	return s->ci_clustered ? "workload" : "pair-level";
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
	/* issue 34: what the intervals and the tests resampled */
	fprintf(fp, ",\"ci_basis\":\"%s\"", corrout_ci_basis(s));
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
	fprintf(fp, ",\"within_noise\":%s,\"sol_violation\":%s,",
		p->flags & CORR_WITHIN_NOISE ? "true" : "false",
		p->flags & CORR_SOL_VIOLATION ? "true" : "false");
	/* which side beats the roofline (only on a violation) */
	if (p->flags & CORR_SOL_VIOLATION)
		fprintf(fp, "\"sol_by\":\"%s\",",
			(p->flags & CORR_SOL_MODEL) && (p->flags & CORR_SOL_REF) ?
			"both" : p->flags & CORR_SOL_MODEL ? "model" : "ref");
	fputs("\"annotation\":", fp);
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
				     "weighted by 1/(tau^2 + b^2 se^2)" : why;
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
				-1, f->ci, 0, UC, 0, "", "", "" });
			cell_of(hi, sizeof(hi), s, &(struct field){ "", f->kind,
				-1, f->ci + sizeof(double), 0, UC, 0, "", "",
				"" });
			snprintf(note, sizeof(note), "CI [%s, %s]", lo, hi);
			table_row(t, f->name, buf, note);
			continue;
		}
		table_row(t, f->name, buf, why);
	}
	table_more(t, s);
	table_row(t, "ci basis", corrout_ci_basis(s), s->ci_clustered ?
		  "intervals, Deming's and the proportional bias's p resample "
		  "workloads" : "intervals and tests count every pair as "
		  "independent (Kendall's p always)");
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

/* ---- the table, flattened for the other writers (corrout.h) ---- */

static const struct field few_pairs_field = {
	"few_pairs", K_COUNT, -1, 0, 0, CORROUT_U_FLAG, 0, "below min pairs",
	"few", "n below --min-pairs or the policy's min_pairs" };

static struct corrout_stat rows[NFIELDS + NMORE + 16];
static char row_keys[16][32];
static size_t nrows;

static void add_row(const struct field *f, const char *parent)
{
	struct corrout_stat *r = &rows[nrows++];

	r->key = f->name;
	if (parent) {
		static size_t nk;
		char *k = row_keys[nk++];

		snprintf(k, sizeof(row_keys[0]), "%s.%s", parent, f->name);
		r->key = k;
	}
	r->label = f->label;
	r->abbr = f->abbr;
	r->desc = f->desc;
	r->unit = f->unit;
	r->views = f->views;
	r->pct = f->kind == K_ERR;
	r->count = f->kind == K_COUNT;
	r->interval = f->off == 0 && f->ci != 0;
	r->has_ci = f->off != 0 && f->ci != 0;
	r->priv = f;
}

static void build_rows(void)
{
	if (nrows)
		return;
	for (size_t i = 0; i < NFIELDS; i++) {
		if (fields[i].off == 0 && fields[i].why == SF_FIT) {
			for (size_t k = 0; k < 5; k++)
				add_row(&fit_fields[k], "fit");
			continue;
		}
		add_row(&fields[i], NULL);
	}
	add_row(&workloads_field, NULL);
	for (size_t i = 0; i < NMORE; i++) {
		if (more_fields[i].off == 0 && more_fields[i].why ==
		    SF_DEMING) {
			for (size_t k = 0; k < 4; k++)
				add_row(&deming_fields[k], "deming");
			continue;
		}
		add_row(&more_fields[i], NULL);
	}
	add_row(&few_pairs_field, NULL);
}

size_t corrout_stats_count(void)
{
	build_rows();
	return nrows;
}

const struct corrout_stat *corrout_stats_at(size_t i)
{
	build_rows();
	return i < nrows ? &rows[i] : NULL;
}

double corrout_stat_value(const struct corrout_stat *st,
			  const struct stats_summary *s)
{
	const struct field *f = st->priv;

	if (f == &few_pairs_field)
		return stats_few_pairs(s);
	if (f == &workloads_field)
		return (double)s->workloads;
	if (st->interval)
		return NAN;
	if (f->kind == K_COUNT)
		return (double)lval(s, f);
	return dval(s, f);
}

const char *corrout_stat_why(const struct corrout_stat *st,
			     const struct stats_summary *s)
{
	const struct field *f = st->priv;

	return f->why >= 0 ? stats_why(s, (enum stats_field)f->why) : NULL;
}

const struct stats_ci *corrout_stat_ci(const struct corrout_stat *st,
				       const struct stats_summary *s)
{
	const struct field *f = st->priv;

	return f->ci ? cival(s, f) : NULL;
}

const char *corrout_unit_text(enum corrout_unit u)
{
	switch (u) {
	case CORROUT_U_COUNT:
		return "count";
	case CORROUT_U_ERR:
		return "fraction of the reference (percent in tables)";
	case CORROUT_U_RATIO:
		return "dimensionless";
	case CORROUT_U_METRIC:
		return "the metric's SI unit";
	case CORROUT_U_LOG:
		return "natural log of model / ref";
	case CORROUT_U_FLAG:
		return "true / false";
	}
	return "?";
}

/* text with '|' escaped for a Markdown table cell */
static void md_text(FILE *fp, const char *t)
{
	for (; *t; t++) {
		if (*t == '|')
			fputc('\\', fp);
		fputc(*t, fp);
	}
}

void corrout_stats_doc(FILE *fp)
{
	build_rows();
	fputs("| key | name | unit | description |\n| --- | --- | --- | --- "
	      "|\n", fp);
	for (size_t i = 0; i < nrows; i++) {
		const struct corrout_stat *r = &rows[i];

		fprintf(fp, "| `%s`", r->key);
		if (r->has_ci)
			fprintf(fp, " (`%s_ci`)", r->key);
		fputs(" | ", fp);
		md_text(fp, r->label);
		fprintf(fp, " | %s | ", corrout_unit_text(r->unit));
		md_text(fp, r->desc);
		fputs(" |\n", fp);
	}
}
