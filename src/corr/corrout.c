/*
 * Printing correlation statistics (see corrout.h). Here: THE table of
 * statistics and the table flattened for the other writers; its JSON
 * is corrout_json.c, its CSV and text table corrout_text.c
 * (corrout_int.h).
 */
#include "src/corr/corrout.h"

#include <math.h>
#include <stdlib.h>

#include "src/corr/corrout_int.h"

#define D(name, k, w, u, v, lab, ab, desc) { #name, k, w, \
	offsetof(struct stats_summary, name), 0, u, v, lab, ab, desc }
/* A statistic with an interval: "NAME_ci":[lo,hi] follows it. */
#define DC(name, k, w, u, v, lab, ab, desc) { #name, k, w, \
	offsetof(struct stats_summary, name), \
	offsetof(struct stats_summary, name##_ci), u, v, lab, ab, desc }
const struct field corrout_tab[] = {
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
	   "Pearson r of (model, ref); clustered interval (ci_basis)"),
	DC(pearson_log, K_NUM, SF_PEARSON_LOG, UR, 0, "Pearson (log)",
	   "r log", "Pearson r of (ln model, ln ref); clustered interval"),
	DC(spearman, K_NUM, SF_SPEARMAN, UR, VR | VT, "Spearman", "rho",
	   "Spearman rank correlation; clustered interval"),
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
#define NFIELDS (sizeof(corrout_tab) / sizeof(corrout_tab[0]))
const size_t corrout_ntab = NFIELDS;

/* "workloads" (after efficiency): not a statistic of the data but of
 * its resampling; listed so that the table names every key. */
static const struct field workloads_field = {
	"workloads", K_COUNT, -1, 0, 0, UC, 0, "workloads", "wl",
	"distinct workloads of the intervals (null with --no-ci)" };

/* Additions of issue 19, after "workloads" (every earlier key keeps its
 * place). "fit_intercept_ci" etc. are intervals only ("ci" = own
 * offset); "deming" expands to corrout_deming. */
#define DI(name, w, u, lab, desc) { #name, K_NUM, w, 0, \
	offsetof(struct stats_summary, name), u, 0, lab, lab, desc }
const struct field corrout_more[] = {
	D(kendall_p, K_NUM, SF_KENDALL_P, UR, 0, "Kendall p", "p tau",
	  "two-sided p of tau-b (exact for n <= 50 without ties)"),
	DI(fit_intercept_ci, SF_FIT, UM, "fit intercept CI",
	   "clustered interval of the fit's intercept"),
	DI(fit_slope_ci, SF_FIT, UR, "fit slope CI",
	   "clustered interval of the fit's slope"),
	DI(loa_low_ci, SF_LOA, UL, "LoA low CI",
	   "clustered interval of the lower limit"),
	DI(loa_high_ci, SF_LOA, UL, "LoA high CI",
	   "clustered interval of the upper limit"),
	DC(ccc, K_NUM, SF_CCC, UR, 0, "Lin's CCC", "ccc",
	   "Lin's concordance correlation with y = x; clustered interval"),
	DC(ccc_log, K_NUM, SF_CCC_LOG, UR, 0, "Lin's CCC (log)", "ccc log",
	   "Lin's concordance on ln of the values; clustered interval"),
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
#define NMORE (sizeof(corrout_more) / sizeof(corrout_more[0]))
const size_t corrout_nmore = NMORE;

#define DM(name, u, lab, desc) { #name, K_NUM, SF_DEMING, \
	offsetof(struct stats_summary, deming.name), 0, u, 0, lab, lab, desc }
const struct field corrout_deming[] = {
	DM(intercept, UM, "Deming intercept", "intercept"),
	DM(slope, UR, "Deming slope", "slope"),
	DM(lambda, UR, "Deming lambda", "error variance of model / of ref"),
	{ "p_identity", K_NUM, SF_DEMING_P, offsetof(struct stats_summary,
	  deming.p_identity), 0, UR, 0, "Deming p identity",
	  "Deming p identity", "joint test of slope 1 and intercept 0 "
	  "(clustered)" },
};

#define F(name, u, v, lab, ab, desc) { #name, K_NUM, SF_FIT, \
	offsetof(struct stats_summary, fit.name), 0, u, v, lab, ab, desc }
const struct field corrout_fit[] = {
	F(intercept, UM, 0, "fit intercept", "icpt", "intercept"),
	F(slope, UR, VR, "slope", "slope", "slope (< 1: the model "
	  "compresses the range)"),
	F(r2, UR, 0, "fit r2", "r2", "coefficient of determination"),
	F(se_intercept, UM, 0, "fit se intercept", "se icpt",
	  "standard error of the intercept"),
	F(se_slope, UR, 0, "fit se slope", "se slope",
	  "standard error of the slope"),
};

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
		if (corrout_tab[i].off == 0 && corrout_tab[i].why == SF_FIT) {
			for (size_t k = 0; k < 5; k++)
				add_row(&corrout_fit[k], "fit");
			continue;
		}
		add_row(&corrout_tab[i], NULL);
	}
	add_row(&workloads_field, NULL);
	for (size_t i = 0; i < NMORE; i++) {
		if (corrout_more[i].off == 0 && corrout_more[i].why ==
		    SF_DEMING) {
			for (size_t k = 0; k < 4; k++)
				add_row(&corrout_deming[k], "deming");
			continue;
		}
		add_row(&corrout_more[i], NULL);
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
