/* perfcorr matrix's JSON and CSV (see matrix.h): the contract of
 * `perfcorr matrix --format json|csv`, written to a stream. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/annot.h"
#include "src/matrix/matrix.h"
#include "src/out/out.h"

static void json_str_or_null(FILE *fp, const char *s)
{
	if (s)
		out_json_str(fp, s);
	else
		fputs("null", fp);
}

/* A roofline cell's fraction of speed of light, or null. */
static void json_sol(FILE *fp, const struct matrix_sol *s)
{
	if (s->kind == MSOL_NONE) {
		fputs("null", fp);
		return;
	}
	fprintf(fp, "{\"n\":%ld,\"violations\":%ld,\"fraction\":", s->n,
		s->violations);
	out_json_num(fp, s->frac);
	fputs(",\"min\":", fp);
	out_json_num(fp, s->lo);
	fputs(",\"max\":", fp);
	out_json_num(fp, s->hi);
	fputs(",\"why\":", fp);
	json_str_or_null(fp, s->why);
	fputc('}', fp);
}

static void json_cell(FILE *fp, const struct matrix *m, size_t mi, size_t i,
		      size_t j)
{
	const struct matrix_cell *c = matrix_cell(m, mi, i, j);

	fputs("{\"model\":", fp);
	out_json_str(fp, m->src[i].label);
	fputs(",\"ref\":", fp);
	out_json_str(fp, m->src[j].label);
	fprintf(fp, ",\"keys\":%ld,\"n\":%ld,\"excluded_noisy\":%ld,"
		    "\"sol_violations\":%ld,\"mape\":", c->keys, c->s.n,
		    c->s.excluded_noisy, c->s.sol_violations);
	out_json_num(fp, c->s.mape);
	fputs(",\"bias\":", fp);
	out_json_num(fp, c->s.bias);
	fputs(",\"ccc\":", fp);
	out_json_num(fp, c->ccc);
	fputs(",\"ccc_log\":", fp);
	out_json_num(fp, c->ccc_log);
	fputs(",\"pearson_log\":", fp);
	out_json_num(fp, c->s.pearson_log);
	fputs(",\"sol\":", fp);
	json_sol(fp, &c->sol);
	fprintf(fp, ",\"not_comparable\":%ld,\"unverified\":%ld", c->refused,
		c->unverified);
	fputs(",\"why\":{\"mape\":", fp);
	json_str_or_null(fp, stats_why(&c->s, SF_MAPE));
	fputs(",\"bias\":", fp);
	json_str_or_null(fp, stats_why(&c->s, SF_BIAS));
	fputs(",\"ccc\":", fp);
	json_str_or_null(fp, c->ccc_why);
	fputs(",\"ccc_log\":", fp);
	json_str_or_null(fp, c->ccc_log_why);
	fputs(",\"pearson_log\":", fp);
	json_str_or_null(fp, stats_why(&c->s, SF_PEARSON_LOG));
	fputs("}}", fp);
}

static void json_annotation(FILE *fp, const struct annot *a)
{
	if (!a) {
		fputs("null", fp);
		return;
	}
	fprintf(fp, "{\"id\":%lld,\"status\":", (long long)a->id);
	json_str_or_null(fp, a->status);
	fputs(",\"category\":", fp);
	json_str_or_null(fp, a->category);
	fputs(",\"note\":", fp);
	json_str_or_null(fp, a->note);
	fputs(",\"model_source\":", fp);
	json_str_or_null(fp, a->model_source);
	fputs(",\"ref_source\":", fp);
	json_str_or_null(fp, a->ref_source);
	fputs(",\"author\":", fp);
	json_str_or_null(fp, a->author);
	fputs(",\"created_at\":", fp);
	json_str_or_null(fp, a->created_at);
	fputc('}', fp);
}

static void json_key(FILE *fp, const struct matrix *m,
		     const struct matrix_key *k)
{
	int first = 1;

	fputs("{\"workload\":", fp);
	out_json_str(fp, k->workload);
	fputs(",\"op\":", fp);
	out_json_str(fp, k->op);
	fputs(",\"metric\":", fp);
	out_json_str(fp, k->metric);
	fputs(",\"pattern\":", fp);
	out_json_str(fp, matrix_pattern_name(k->pattern));
	fputs(",\"label\":", fp);
	out_json_str(fp, k->label);
	fputs(",\"groups\":[", fp);
	for (size_t g = 0; g < k->ngroups; g++) {
		int f = 1;

		fputs(g ? ",[" : "[", fp);
		for (size_t i = 0; i < m->nsrc; i++)
			if (k->group[i] == (int)g) {
				if (!f)
					fputc(',', fp);
				out_json_str(fp, m->src[i].label);
				f = 0;
			}
		fputc(']', fp);
	}
	fputs("],\"odd\":", fp);
	json_str_or_null(fp, k->odd >= 0 ? m->src[k->odd].label : NULL);
	fputs(",\"tolerance\":", fp);
	out_json_num(fp, k->tol);
	fputs(",\"tolerance_from\":", fp);
	json_str_or_null(fp, k->tol_src >= 0 ? m->src[k->tol_src].label : NULL);
	fputs(",\"spread\":", fp);
	out_json_num(fp, k->spread);
	fputs(",\"values\":{", fp);
	for (size_t i = 0; i < m->nsrc; i++) {
		if (k->vals[i].state == MV_ABSENT)
			continue;
		if (!first)
			fputc(',', fp);
		first = 0;
		out_json_str(fp, m->src[i].label);
		fputs(":{\"value\":", fp);
		out_json_num(fp, k->vals[i].v);
		fputs(",\"stddev\":", fp);
		out_json_num(fp, k->vals[i].sd);
		fprintf(fp, ",\"noisy\":%s,\"invalid\":%s,\"from_cycles\":%s}",
			    k->vals[i].noisy ? "true" : "false",
			    k->vals[i].state == MV_INVALID ? "true" : "false",
			    k->vals[i].converted ? "true" : "false");
	}
	fputs("},\"suggested\":{\"category\":", fp);
	json_str_or_null(fp, k->cause);
	fputs(",\"rule\":", fp);
	json_str_or_null(fp, k->rule);
	fputs("},\"sol_violations\":[", fp);
	for (size_t i = 0, f = 1; k->sol_by && i < m->nsrc; i++)
		if (k->sol_by[i]) {
			if (!f)
				fputc(',', fp);
			out_json_str(fp, m->src[i].label);
			f = 0;
		}
	fputs("],\"annotation\":", fp);
	json_annotation(fp, k->ann);
	fputs(",\"left_out_of_vote\":", fp);	/* issue 37 */
	json_str_or_null(fp, k->vote_why);
	fputc('}', fp);
}

/* The fingerprint check over the cells (issue 37). */
static void json_fp(FILE *fp, const struct matrix *m)
{
	fprintf(fp, ",\"fingerprint\":{\"not_comparable\":%ld,\"why\":",
		m->not_comparable);
	json_str_or_null(fp, m->not_comparable_why);
	fprintf(fp, ",\"unverified\":%ld,\"allow_mismatch\":[",
		m->unverified);
	for (const char *const *a = m->opts.allow_mismatch; a && *a; a++) {
		if (a != m->opts.allow_mismatch)
			fputc(',', fp);
		out_json_str(fp, *a);
	}
	fprintf(fp, "],\"mismatch_admitted\":%ld,\"unclassified_keys\":%ld,"
		"\"vote_left_out_keys\":%ld,\"unclassified\":[",
		m->admitted, m->unclassified, m->vote_left);
	for (size_t x = 0, f = 1; x < m->nkeys; x++) {
		const struct matrix_key *k = &m->keys[x];

		if (!k->fp_unclassified)
			continue;
		fputs(f ? "{\"workload\":" : ",{\"workload\":", fp);
		out_json_str(fp, k->workload);
		fputs(",\"op\":", fp);
		out_json_str(fp, k->op);
		fputs(",\"metric\":", fp);
		out_json_str(fp, k->metric);
		fputs(",\"why\":", fp);
		json_str_or_null(fp, k->vote_why);
		fputc('}', fp);
		f = 0;
	}
	fputs("]}", fp);
}

/* A metric's grid: its sources, and those left out with why. */
static void json_grid(FILE *fp, const struct matrix *m, size_t mi)
{
	int f = 1;

	fputs(",\"sources\":[", fp);
	for (size_t i = 0; i < m->nsrc; i++)
		if (matrix_in_grid(m, mi, i)) {
			if (!f)
				fputc(',', fp);
			out_json_str(fp, m->src[i].label);
			f = 0;
		}
	fputs("],\"left_out\":[", fp);
	f = 1;
	for (size_t i = 0; i < m->nsrc; i++) {
		char *why = matrix_absent_text(m, mi, i);

		if (!why)
			continue;
		if (!f)
			fputc(',', fp);
		out_json_str(fp, why);
		f = 0;
		free(why);
	}
	fputc(']', fp);
}

void matrix_write_json(const struct matrix *m, FILE *fp)
{
	struct matrix_label *l = NULL;
	size_t nl = matrix_labels(m, &l), n = 0;
	size_t *ord = matrix_order(m, &n);

	fputs("{\"sources\":[", fp);
	for (size_t i = 0; i < m->nsrc; i++) {
		fputs(i ? ",{\"label\":" : "{\"label\":", fp);
		out_json_str(fp, m->src[i].label);
		fputs(",\"source\":", fp);
		out_json_str(fp, m->src[i].source);
		fputs(",\"version\":", fp);
		out_json_str(fp, m->src[i].version);
		fputs(",\"kind\":", fp);
		out_json_str(fp, m->src[i].kind);
		fprintf(fp, ",\"keys\":%zu}", m->src[i].nkeys);
	}
	fputs("],\"left_out\":[", fp);
	for (size_t i = 0; i < m->nleft; i++) {
		if (i)
			fputc(',', fp);
		out_json_str(fp, m->left_out[i]);
	}
	fputs("],\"keys_mode\":", fp);
	out_json_str(fp, m->opts.pairwise_keys ? "pairwise" : "common");
	fputs(",\"tolerance\":", fp);
	out_json_num(fp, m->opts.tolerance);
	fputs(",\"max_ref_cv\":", fp);
	out_json_num(fp, m->opts.max_ref_cv);
	json_fp(fp, m);
	fputs(",\"metrics\":[", fp);
	for (size_t mi = 0; mi < m->nmetrics; mi++) {
		int f = 1;

		fputs(mi ? ",{\"metric\":" : "{\"metric\":", fp);
		out_json_str(fp, m->metrics[mi].metric);
		fprintf(fp, ",\"common_keys\":%zu", m->metrics[mi].ncommon);
		json_grid(fp, m, mi);
		fputs(",\"cells\":[", fp);
		for (size_t i = 0; i < m->nsrc; i++)
			for (size_t j = 0; j < m->nsrc; j++) {
				if (i == j || !matrix_in_grid(m, mi, i) ||
				    !matrix_in_grid(m, mi, j))
					continue;
				if (!f)
					fputc(',', fp);
				f = 0;
				json_cell(fp, m, mi, i, j);
			}
		fputs("]}", fp);
	}
	fputs("],\"skipped\":[", fp);
	for (size_t i = 0; i < m->nskipped; i++) {
		if (i)
			fputc(',', fp);
		out_json_str(fp, m->skipped[i]);
	}
	fputs("],\"patterns\":[", fp);
	for (size_t i = 0; i < nl; i++) {
		fputs(i ? ",{\"label\":" : "{\"label\":", fp);
		out_json_str(fp, l[i].label);
		fputs(",\"pattern\":", fp);
		out_json_str(fp, matrix_pattern_name(l[i].pattern));
		fprintf(fp, ",\"count\":%ld}", l[i].count);
	}
	fputs("],\"keys\":[", fp);
	for (size_t x = 0; x < n; x++) {
		if (x)
			fputc(',', fp);
		json_key(fp, m, &m->keys[ord[x]]);
	}
	fputs("]}\n", fp);
	free(ord);
	free(l);
}

static void csv_num(FILE *fp, double v)
{
	if (isfinite(v))
		fprintf(fp, ",%.17g", v);
	else
		fputc(',', fp);
}

void matrix_write_csv_cells(const struct matrix *m, FILE *fp)
{
	fputs("metric,model,ref,keys,n,excluded_noisy,sol_violations,mape,"
	      "bias,ccc,ccc_log,pearson_log,sol_n,sol_fraction,sol_min,"
	      "sol_max,not_comparable,unverified\n", fp);
	for (size_t mi = 0; mi < m->nmetrics; mi++)
		for (size_t i = 0; i < m->nsrc; i++)
			for (size_t j = 0; j < m->nsrc; j++) {
				const struct matrix_cell *c;

				if (i == j || !matrix_in_grid(m, mi, i) ||
				    !matrix_in_grid(m, mi, j))
					continue;
				c = matrix_cell(m, mi, i, j);
				out_csv_field(fp, m->metrics[mi].metric);
				fputc(',', fp);
				out_csv_field(fp, m->src[i].label);
				fputc(',', fp);
				out_csv_field(fp, m->src[j].label);
				fprintf(fp, ",%ld,%ld,%ld,%ld", c->keys, c->s.n,
					    c->s.excluded_noisy,
					    c->s.sol_violations);
				csv_num(fp, c->s.mape);
				csv_num(fp, c->s.bias);
				csv_num(fp, c->ccc);
				csv_num(fp, c->ccc_log);
				csv_num(fp, c->s.pearson_log);
				if (c->sol.kind != MSOL_NONE)
					fprintf(fp, ",%ld", c->sol.n);
				else
					fputc(',', fp);
				csv_num(fp, c->sol.frac);
				csv_num(fp, c->sol.lo);
				csv_num(fp, c->sol.hi);
				fprintf(fp, ",%ld,%ld\n", c->refused,
					c->unverified);
			}
}

void matrix_write_csv_keys(const struct matrix *m, FILE *fp)
{
	size_t n = 0, *ord = matrix_order(m, &n);

	fputs("workload,op,metric,pattern,label,spread,tolerance,"
	      "tolerance_from,suggested,rule,sol_violations,annotation,"
	      "left_out_of_vote\n", fp);
	for (size_t x = 0; x < n; x++) {
		const struct matrix_key *k = &m->keys[ord[x]];
		const char *f[] = { k->workload, k->op, k->metric,
			matrix_pattern_name(k->pattern), k->label };

		for (size_t i = 0; i < 5; i++) {
			if (i)
				fputc(',', fp);
			out_csv_field(fp, f[i]);
		}
		csv_num(fp, k->spread);
		csv_num(fp, k->tol);
		fputc(',', fp);
		out_csv_field(fp, k->tol_src >= 0 ?
			      m->src[k->tol_src].label : "");
		fputc(',', fp);
		out_csv_field(fp, k->cause ? k->cause : "");
		fputc(',', fp);
		out_csv_field(fp, k->rule);
		fputc(',', fp);
		out_csv_field(fp, k->sol ? k->sol : "");
		fputc(',', fp);
		out_csv_field(fp, k->ann ? k->ann->category : "");
		fputc(',', fp);
		out_csv_field(fp, k->vote_why ? k->vote_why : "");
		fputc('\n', fp);
	}
	free(ord);
}
