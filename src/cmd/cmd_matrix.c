/* perfcorr matrix: who disagrees with whom, and the odd one out per key. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/annot.h"
#include "db/db.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "src/cmd/cli.h"
#include "src/cmd/cli_sel.h"
#include "src/cmd/cmd.h"
#include "src/corr/corrout.h"
#include "src/matrix/matrix.h"
#include "src/out/out.h"

/* The options, filled by cli_parse from the table in cmd_matrix. */
struct matrix_cli {
	struct cli_sel sel;		/* filters only: model/ref unused */
	struct cli_list sources;
	const char *format, *pattern;
	double tolerance;
	int pairwise_keys, keys;
};

static const struct cli_cmd matrix_cmd = {
	.name = "matrix",
	.usage = "[--source SRC[@V]]... [options]",
	.summary = "Who disagrees with whom: every pair of sources on the "
		   "same keys, and the odd one out per key.",
	.details = "Sources: every source at its latest version unless "
		   "--source names them (SRC@V for a\nversion; roofline "
		   "included). Cells compare a model (row) with a reference\n"
		   "(column) on the keys every selected source holds "
		   "(--pairwise-keys: each pair's\nown common keys): n, MAPE, "
		   "bias, Lin's concordance on values and logs.\nEvery (workload, "
		   "op, metric) held by three or more non-roofline sources "
		   "is\nclassified: agree, odd:SRC, split:A+B|C, scattered "
		   "(no two agree) or ambiguous\n(agreement not transitive), "
		   "with the tolerance max(--tolerance, the key's spread)\nand "
		   "a suggested cause with the rule that produced it (nothing "
		   "is written).\nSee docs/statistics.md, \"The disagreement "
		   "matrix\".",
	.min_args = 0, .max_args = 0,
};

/* A percent cell, "-" when undefined. */
static const char *pct(char *buf, size_t len, double v)
{
	return corrout_pct(buf, len, v);
}

static void print_grid(const struct matrix *m, size_t mi, const char *title,
		       int what)
{
	size_t ns = m->nsrc;
	const char **head = xcalloc(ns + 1, sizeof(*head));
	const char **row = xcalloc(ns + 1, sizeof(*row));
	char (*buf)[32] = xcalloc(ns + 1, sizeof(*buf));
	struct out_table *t;

	head[0] = "model \\ ref";
	for (size_t j = 0; j < ns; j++)
		head[j + 1] = m->src[j].label;
	t = out_table_new((int)ns + 1, head);
	for (size_t j = 0; j < ns; j++)
		out_table_right(t, (int)j + 1);
	for (size_t i = 0; i < ns; i++) {
		row[0] = m->src[i].label;
		for (size_t j = 0; j < ns; j++) {
			const struct matrix_cell *c = matrix_cell(m, mi, i, j);

			if (i == j)
				row[j + 1] = "";
			else if (what == 0)
				snprintf(buf[j], 32, "%ld", c->s.n), row[j + 1] =
					buf[j];
			else if (what == 1)
				row[j + 1] = pct(buf[j], 32, c->s.mape);
			else if (what == 2)
				row[j + 1] = pct(buf[j], 32, c->s.bias);
			else
				row[j + 1] = corrout_num(buf[j], 32, c->ccc_log);
		}
		out_table_add(t, row);
	}
	printf("%s\n", title);
	out_table_print(t, stdout);
	out_table_free(t);
	free(head);
	free(row);
	free(buf);
}

static void print_matrix_table(const struct matrix *m)
{
	printf("sources:");
	for (size_t i = 0; i < m->nsrc; i++) {
		printf("%s ", i ? "," : "");
		util_fputs_safe(m->src[i].label, stdout);
		printf(" (%s", m->src[i].kind);
		if (!strchr(m->src[i].label, '@')) {
			fputs(" @", stdout);
			util_fputs_safe(m->src[i].version, stdout);
		}
		printf(", %zu keys)", m->src[i].nkeys);
	}
	fputc('\n', stdout);
	for (size_t i = 0; i < m->nleft; i++) {
		fputs("left out: ", stdout);
		util_fputs_safe(m->left_out[i], stdout);
		fputc('\n', stdout);
	}
	for (size_t mi = 0; mi < m->nmetrics; mi++) {
		const struct matrix_metric *mm = &m->metrics[mi];
		int noisy = 0, sol = 0;

		fputs("\nmetric ", stdout);
		util_fputs_safe(mm->metric, stdout);
		if (m->opts.pairwise_keys)
			printf(": each pair on its own common keys\n");
		else
			printf(": %zu key%s held by all %zu sources\n",
			       mm->ncommon, mm->ncommon == 1 ? "" : "s",
			       m->nsrc);
		print_grid(m, mi, "n (pairs in the statistics)", 0);
		print_grid(m, mi, "MAPE (row = model, column = reference)", 1);
		print_grid(m, mi, "bias", 2);
		print_grid(m, mi, "Lin's concordance on log values", 3);
		for (size_t i = 0; i < m->nsrc; i++)
			for (size_t j = 0; j < m->nsrc; j++) {
				if (i == j)
					continue;
				noisy += matrix_cell(m, mi, i, j)->s.excluded_noisy
					 > 0;
				sol += matrix_cell(m, mi, i, j)->s.sol_violations
				       > 0;
			}
		if (noisy)
			printf("(noisy references, stddev/value > %g, are "
			       "left out of their column's cells)\n",
			       m->opts.max_ref_cv);
		if (sol)
			for (size_t i = 0; i < m->nsrc; i++)
				for (size_t j = 0; j < m->nsrc; j++)
					if (i != j && matrix_cell(m, mi, i, j)->
					    s.sol_violations)
						printf("speed-of-light violations: "
						       "%s above %s on %ld keys\n",
						       m->src[i].label,
						       m->src[j].label,
						       matrix_cell(m, mi, i, j)->
						       s.sol_violations);
	}
	for (size_t i = 0; i < m->nskipped; i++) {
		fputs("\n", stdout);
		util_fputs_safe(m->skipped[i], stdout);
		fputc('\n', stdout);
	}
}

static void print_patterns_table(const struct matrix *m, const char *only)
{
	struct matrix_label *l = NULL;
	size_t nl = matrix_labels(m, &l), n = 0;
	size_t *ord = matrix_order(m, &n);
	static const char *const head[] = { "pattern", "workload", "op",
		"metric", "spread", "tol", "suggested", "rule", "roofline "
		"violated by", "annotation" };
	struct out_table *t = out_table_new(10, head);
	char sp[32], tol[64];

	printf("\nthe odd one out (keys held by 3 or more non-roofline sources; "
	       "tolerance max(%g%%, the key's spread)):\n  ",
	       m->opts.tolerance * 100);
	for (size_t i = 0; i < nl; i++) {
		if (i)
			fputs(", ", stdout);
		util_fputs_safe(l[i].label, stdout);
		printf(" %ld", l[i].count);
	}
	printf("%s\n\n", nl ? "" : "no key is held by 3 non-roofline sources");
	out_table_right(t, 4);
	out_table_right(t, 5);
	for (size_t x = 0; x < n; x++) {
		const struct matrix_key *k = &m->keys[ord[x]];
		const char *row[10];
		char *ann = k->ann ? xasprintf("%s/%s: %s", k->ann->status,
					       k->ann->category, k->ann->note) :
				     xstrdup("");

		if (only && strcmp(only, k->label) &&
		    strcmp(only, matrix_pattern_name(k->pattern))) {
			free(ann);
			continue;
		}
		row[0] = k->label;
		row[1] = k->workload;
		row[2] = k->op;
		row[3] = k->metric;
		row[4] = pct(sp, sizeof(sp), k->spread);
		if (k->tol_src >= 0)
			snprintf(tol, sizeof(tol), "%.1f%% (%s)", k->tol * 100,
				 m->src[k->tol_src].label);
		else
			snprintf(tol, sizeof(tol), "%.1f%%", k->tol * 100);
		row[5] = tol;
		row[6] = k->cause ? k->cause : "-";
		row[7] = k->rule;
		row[8] = k->sol ? k->sol : "";
		row[9] = ann;
		out_table_add(t, row);
		free(ann);
	}
	if (n)
		out_table_print(t, stdout);
	out_table_free(t);
	free(ord);
	free(l);
}

static void json_str_or_null(const char *s)
{
	if (s)
		out_json_str(stdout, s);
	else
		fputs("null", stdout);
}

static void json_cell(const struct matrix *m, size_t mi, size_t i, size_t j)
{
	const struct matrix_cell *c = matrix_cell(m, mi, i, j);

	fputs("{\"model\":", stdout);
	out_json_str(stdout, m->src[i].label);
	fputs(",\"ref\":", stdout);
	out_json_str(stdout, m->src[j].label);
	printf(",\"keys\":%ld,\"n\":%ld,\"excluded_noisy\":%ld,"
	       "\"sol_violations\":%ld,\"mape\":", c->keys, c->s.n,
	       c->s.excluded_noisy, c->s.sol_violations);
	out_json_num(stdout, c->s.mape);
	fputs(",\"bias\":", stdout);
	out_json_num(stdout, c->s.bias);
	fputs(",\"ccc\":", stdout);
	out_json_num(stdout, c->ccc);
	fputs(",\"ccc_log\":", stdout);
	out_json_num(stdout, c->ccc_log);
	fputs(",\"pearson_log\":", stdout);
	out_json_num(stdout, c->s.pearson_log);
	fputs(",\"why\":{\"mape\":", stdout);
	json_str_or_null(stats_why(&c->s, SF_MAPE));
	fputs(",\"bias\":", stdout);
	json_str_or_null(stats_why(&c->s, SF_BIAS));
	fputs(",\"ccc\":", stdout);
	json_str_or_null(c->ccc_why);
	fputs(",\"ccc_log\":", stdout);
	json_str_or_null(c->ccc_log_why);
	fputs(",\"pearson_log\":", stdout);
	json_str_or_null(stats_why(&c->s, SF_PEARSON_LOG));
	fputs("}}", stdout);
}

static void json_annotation(const struct annot *a)
{
	if (!a) {
		fputs("null", stdout);
		return;
	}
	printf("{\"id\":%lld,\"status\":", (long long)a->id);
	json_str_or_null(a->status);
	fputs(",\"category\":", stdout);
	json_str_or_null(a->category);
	fputs(",\"note\":", stdout);
	json_str_or_null(a->note);
	fputs(",\"model_source\":", stdout);
	json_str_or_null(a->model_source);
	fputs(",\"ref_source\":", stdout);
	json_str_or_null(a->ref_source);
	fputs(",\"author\":", stdout);
	json_str_or_null(a->author);
	fputs(",\"created_at\":", stdout);
	json_str_or_null(a->created_at);
	fputc('}', stdout);
}

static void json_key(const struct matrix *m, const struct matrix_key *k)
{
	int first = 1;

	fputs("{\"workload\":", stdout);
	out_json_str(stdout, k->workload);
	fputs(",\"op\":", stdout);
	out_json_str(stdout, k->op);
	fputs(",\"metric\":", stdout);
	out_json_str(stdout, k->metric);
	fputs(",\"pattern\":", stdout);
	out_json_str(stdout, matrix_pattern_name(k->pattern));
	fputs(",\"label\":", stdout);
	out_json_str(stdout, k->label);
	fputs(",\"groups\":[", stdout);
	for (size_t g = 0; g < k->ngroups; g++) {
		int f = 1;

		fputs(g ? ",[" : "[", stdout);
		for (size_t i = 0; i < m->nsrc; i++)
			if (k->group[i] == (int)g) {
				if (!f)
					fputc(',', stdout);
				out_json_str(stdout, m->src[i].label);
				f = 0;
			}
		fputc(']', stdout);
	}
	fputs("],\"odd\":", stdout);
	json_str_or_null(k->odd >= 0 ? m->src[k->odd].label : NULL);
	fputs(",\"tolerance\":", stdout);
	out_json_num(stdout, k->tol);
	fputs(",\"tolerance_from\":", stdout);
	json_str_or_null(k->tol_src >= 0 ? m->src[k->tol_src].label : NULL);
	fputs(",\"spread\":", stdout);
	out_json_num(stdout, k->spread);
	fputs(",\"values\":{", stdout);
	for (size_t i = 0; i < m->nsrc; i++) {
		if (k->vals[i].state == MV_ABSENT)
			continue;
		if (!first)
			fputc(',', stdout);
		first = 0;
		out_json_str(stdout, m->src[i].label);
		fputs(":{\"value\":", stdout);
		out_json_num(stdout, k->vals[i].v);
		fputs(",\"stddev\":", stdout);
		out_json_num(stdout, k->vals[i].sd);
		printf(",\"noisy\":%s,\"invalid\":%s,\"from_cycles\":%s}",
		       k->vals[i].noisy ? "true" : "false",
		       k->vals[i].state == MV_INVALID ? "true" : "false",
		       k->vals[i].converted ? "true" : "false");
	}
	fputs("},\"suggested\":{\"category\":", stdout);
	json_str_or_null(k->cause);
	fputs(",\"rule\":", stdout);
	json_str_or_null(k->rule);
	fputs("},\"sol_violations\":[", stdout);
	for (size_t i = 0, f = 1; k->sol_by && i < m->nsrc; i++)
		if (k->sol_by[i]) {
			if (!f)
				fputc(',', stdout);
			out_json_str(stdout, m->src[i].label);
			f = 0;
		}
	fputs("],\"annotation\":", stdout);
	json_annotation(k->ann);
	fputc('}', stdout);
}

static void print_json(const struct matrix *m)
{
	struct matrix_label *l = NULL;
	size_t nl = matrix_labels(m, &l), n = 0;
	size_t *ord = matrix_order(m, &n);

	fputs("{\"sources\":[", stdout);
	for (size_t i = 0; i < m->nsrc; i++) {
		fputs(i ? ",{\"label\":" : "{\"label\":", stdout);
		out_json_str(stdout, m->src[i].label);
		fputs(",\"source\":", stdout);
		out_json_str(stdout, m->src[i].source);
		fputs(",\"version\":", stdout);
		out_json_str(stdout, m->src[i].version);
		fputs(",\"kind\":", stdout);
		out_json_str(stdout, m->src[i].kind);
		printf(",\"keys\":%zu}", m->src[i].nkeys);
	}
	fputs("],\"left_out\":[", stdout);
	for (size_t i = 0; i < m->nleft; i++) {
		if (i)
			fputc(',', stdout);
		out_json_str(stdout, m->left_out[i]);
	}
	fputs("],\"keys_mode\":", stdout);
	out_json_str(stdout, m->opts.pairwise_keys ? "pairwise" : "common");
	fputs(",\"tolerance\":", stdout);
	out_json_num(stdout, m->opts.tolerance);
	fputs(",\"max_ref_cv\":", stdout);
	out_json_num(stdout, m->opts.max_ref_cv);
	fputs(",\"metrics\":[", stdout);
	for (size_t mi = 0; mi < m->nmetrics; mi++) {
		int f = 1;

		fputs(mi ? ",{\"metric\":" : "{\"metric\":", stdout);
		out_json_str(stdout, m->metrics[mi].metric);
		printf(",\"common_keys\":%zu,\"cells\":[",
		       m->metrics[mi].ncommon);
		for (size_t i = 0; i < m->nsrc; i++)
			for (size_t j = 0; j < m->nsrc; j++) {
				if (i == j)
					continue;
				if (!f)
					fputc(',', stdout);
				f = 0;
				json_cell(m, mi, i, j);
			}
		fputs("]}", stdout);
	}
	fputs("],\"skipped\":[", stdout);
	for (size_t i = 0; i < m->nskipped; i++) {
		if (i)
			fputc(',', stdout);
		out_json_str(stdout, m->skipped[i]);
	}
	fputs("],\"patterns\":[", stdout);
	for (size_t i = 0; i < nl; i++) {
		fputs(i ? ",{\"label\":" : "{\"label\":", stdout);
		out_json_str(stdout, l[i].label);
		fputs(",\"pattern\":", stdout);
		out_json_str(stdout, matrix_pattern_name(l[i].pattern));
		printf(",\"count\":%ld}", l[i].count);
	}
	fputs("],\"keys\":[", stdout);
	for (size_t x = 0; x < n; x++) {
		if (x)
			fputc(',', stdout);
		json_key(m, &m->keys[ord[x]]);
	}
	fputs("]}\n", stdout);
	free(ord);
	free(l);
}

static void csv_num(double v)
{
	if (isfinite(v))
		printf(",%.17g", v);
	else
		fputc(',', stdout);
}

static void print_csv_cells(const struct matrix *m)
{
	fputs("metric,model,ref,keys,n,excluded_noisy,sol_violations,mape,"
	      "bias,ccc,ccc_log,pearson_log\n", stdout);
	for (size_t mi = 0; mi < m->nmetrics; mi++)
		for (size_t i = 0; i < m->nsrc; i++)
			for (size_t j = 0; j < m->nsrc; j++) {
				const struct matrix_cell *c;

				if (i == j)
					continue;
				c = matrix_cell(m, mi, i, j);
				out_csv_field(stdout, m->metrics[mi].metric);
				fputc(',', stdout);
				out_csv_field(stdout, m->src[i].label);
				fputc(',', stdout);
				out_csv_field(stdout, m->src[j].label);
				printf(",%ld,%ld,%ld,%ld", c->keys, c->s.n,
				       c->s.excluded_noisy,
				       c->s.sol_violations);
				csv_num(c->s.mape);
				csv_num(c->s.bias);
				csv_num(c->ccc);
				csv_num(c->ccc_log);
				csv_num(c->s.pearson_log);
				fputc('\n', stdout);
			}
}

static void print_csv_keys(const struct matrix *m)
{
	size_t n = 0, *ord = matrix_order(m, &n);

	fputs("workload,op,metric,pattern,label,spread,tolerance,"
	      "tolerance_from,suggested,rule,sol_violations,annotation\n",
	      stdout);
	for (size_t x = 0; x < n; x++) {
		const struct matrix_key *k = &m->keys[ord[x]];
		const char *f[] = { k->workload, k->op, k->metric,
			matrix_pattern_name(k->pattern), k->label };

		for (size_t i = 0; i < 5; i++) {
			if (i)
				fputc(',', stdout);
			out_csv_field(stdout, f[i]);
		}
		csv_num(k->spread);
		csv_num(k->tol);
		fputc(',', stdout);
		out_csv_field(stdout, k->tol_src >= 0 ?
			      m->src[k->tol_src].label : "");
		fputc(',', stdout);
		out_csv_field(stdout, k->cause ? k->cause : "");
		fputc(',', stdout);
		out_csv_field(stdout, k->rule);
		fputc(',', stdout);
		out_csv_field(stdout, k->sol ? k->sol : "");
		fputc(',', stdout);
		out_csv_field(stdout, k->ann ? k->ann->category : "");
		fputc('\n', stdout);
	}
	free(ord);
}

static int run(struct db *db, enum out_format fmt, const struct matrix_cli *o)
{
	struct matrix_opts mo = MATRIX_OPTS_INIT;
	struct matrix *m = NULL;
	int rc;

	mo.sources = o->sources.items;
	mo.metric = o->sel.metric;
	mo.op_glob = o->sel.op;
	mo.workload_globs = o->sel.workload.items;
	mo.where = o->sel.where.items;
	mo.pool = o->sel.pool;
	mo.max_ref_cv = o->sel.max_ref_cv;
	mo.tolerance = o->tolerance;
	mo.pairwise_keys = o->pairwise_keys;
	if ((rc = matrix_build(&m, db, &mo)) < 0)
		return rc;
	if (fmt == OUT_JSON) {
		print_json(m);
	} else if (fmt == OUT_CSV) {
		if (o->keys)
			print_csv_keys(m);
		else
			print_csv_cells(m);
	} else {
		print_matrix_table(m);
		print_patterns_table(m, o->pattern);
	}
	matrix_free(m);
	return 0;
}

int cmd_matrix(int argc, char **argv)
{
	struct matrix_cli o;
	const struct cli_opt opts[] = {
		{ CLI_LIST, "source", 's', &o.sources, "SRC[@V]", "a source to "
		  "include (repeatable; default: every source, latest "
		  "version)" },
		CLI_SEL_FILTER_OPTS(o.sel),
		{ CLI_DOUBLE, "tolerance", 't', &o.tolerance, "F", "sources "
		  "agree within F (default 0.05; a key's spread widens it)" },
		{ CLI_FLAG, "pairwise-keys", 0, &o.pairwise_keys, NULL, "each "
		  "cell on its own pair's common keys, not the keys every "
		  "source holds" },
		{ CLI_STR, "pattern", 'p', &o.pattern, "P", "table: list only "
		  "keys of this pattern or label (odd, odd:SRC, split ...)" },
		{ CLI_FLAG, "keys", 0, &o.keys, NULL, "csv: one row per "
		  "classified key instead of one per cell" },
		{ CLI_STR, "format", 'f', &o.format, "FMT", "table (default), "
		  "csv or json" },
		CLI_OPT_END
	};
	struct cli_cmd cmd = matrix_cmd;
	struct cli_list pos;
	enum out_format fmt;
	struct db *db;
	int rc;

	memset(&o, 0, sizeof(o));
	cli_sel_init(&o.sel);
	o.format = "table";
	o.tolerance = 0.05;
	cmd.opts = opts;
	if ((rc = cli_parse(&cmd, argc, argv, &pos))) {
		rc = rc == 1 ? CLI_OK : rc;
		goto out;
	}
	cli_list_free(&pos);
	if (!(o.sel.max_ref_cv >= 0)) {
		rc = cli_usage_error(cmd.name, "--max-ref-cv must be >= 0");
		goto out;
	}
	if (!(o.tolerance >= 0) || !(o.tolerance < 10)) {
		rc = cli_usage_error(cmd.name, "--tolerance must be between 0 "
				     "and 10 (a fraction: 0.05 = 5%%)");
		goto out;
	}
	if (out_parse_format(o.format, &fmt)) {
		rc = cli_usage_error(cmd.name, "unknown format '%s'", o.format);
		goto out;
	}
	if ((rc = cli_open_db(&db, DB_READONLY)))
		goto out;
	if ((rc = run(db, fmt, &o)) < 0) {
		cli_error(cmd.name);
		rc = cli_exit_for(rc);
	}
	db_close(db);
	if (rc == CLI_OK && fflush(stdout) != 0)
		rc = cli_fail(cmd.name, "cannot write output");
out:
	cli_sel_release(&o.sel);
	cli_list_free(&o.sources);
	return rc;
}
