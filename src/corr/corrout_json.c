/*
 * The statistics as JSON (see corrout.h): the keys of the compare
 * contract in the order of THE table (corrout_int.h), their intervals
 * and the reason of each null; a side, a point.
 */
#include "src/corr/corrout.h"

#include <math.h>
#include <stdlib.h>

#include "db/annot.h"
#include "src/corr/corrout_int.h"
#include "src/out/out.h"

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
	json_why_of(fp, s, corrout_tab, corrout_ntab, &first);
	json_why_of(fp, s, corrout_more, corrout_nmore, &first);
	fputc('}', fp);
}

/* "deming":{intercept, slope, lambda, lambda_from, p_identity} */
static void json_deming(FILE *fp, const struct stats_summary *s)
{
	fputs(",\"deming\":{", fp);
	for (size_t k = 0; k < 3; k++) {
		fprintf(fp, "%s\"%s\":", k ? "," : "", corrout_deming[k].name);
		out_json_num(fp, dval(s, &corrout_deming[k]));
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
	return s->ci_clustered == 2 ? "workload+op" :
	       s->ci_clustered ? "workload" : "pair-level";
}

const char *corrout_lambda_from(const struct stats_summary *s)
{
	return s->deming.lambda_known ? "reference stddev" :
	       "assumed 1 (no reference stddev)";
}

/* The additions after "workloads" (see corrout_more). */
static void json_more(FILE *fp, const struct stats_summary *s)
{
	for (size_t i = 0; i < corrout_nmore; i++) {
		const struct field *f = &corrout_more[i];

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
	/* issue 34: why every interval is null, with too few workloads */
	{
		char why[160];

		fputs(",\"ci_unknown\":", fp);
		if (stats_ci_unknown(s, why, sizeof(why)))
			out_json_str(fp, why);
		else
			fputs("null", fp);
	}
}

void corrout_stats_json(FILE *fp, const struct stats_summary *s)
{
	for (size_t i = 0; i < corrout_ntab; i++) {
		const struct field *f = &corrout_tab[i];

		fprintf(fp, "%s\"%s\":", i ? "," : "", f->name);
		if (f->off == 0 && f->why == SF_FIT) {
			fputc('{', fp);
			for (size_t k = 0; k < 5; k++) {
				fprintf(fp, "%s\"%s\":", k ? "," : "",
					corrout_fit[k].name);
				out_json_num(fp, dval(s, &corrout_fit[k]));
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
