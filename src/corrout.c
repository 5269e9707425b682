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

/* ,"NAME_ci":[lo,hi] or null (not computed, undefined, one workload). */
static void json_ci(FILE *fp, const struct stats_summary *s,
		    const struct field *f)
{
	const struct stats_ci *ci = cival(s, f);

	fprintf(fp, ",\"%s_ci\":", f->name);
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
static void json_why(FILE *fp, const struct stats_summary *s)
{
	int first = 1;

	fputs(",\"why\":{", fp);
	for (size_t i = 0; i < NFIELDS; i++) {
		const struct field *f = &fields[i];
		const char *why = f->why >= 0 ?
			stats_why(s, (enum stats_field)f->why) : NULL;

		if (!why || (f->off != 0 && !isnan(dval(s, f))))
			continue;
		if (f->off == 0 && !isnan(s->fit.slope))
			continue;
		fprintf(fp, "%s\"%s\":", first ? "" : ",", f->name);
		out_json_str(fp, why);
		first = 0;
	}
	fputc('}', fp);
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
	json_why(fp, s);
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

				snprintf(name, sizeof(name), "fit.%s",
					 fit_fields[k].name);
				cell_of(buf, sizeof(buf), s, &fit_fields[k]);
				table_row(t, name, buf, k == 0 && !why &&
					  s->fit.weighted ? "weighted by "
					  "1/ref_sd^2" : why);
			}
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
