/* perfcorr explain: which workload feature drives the error. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "src/cmd/cli.h"
#include "src/cmd/cli_sel.h"
#include "src/cmd/cmd.h"
#include "src/corr/corrout.h"
#include "src/corr/correlate.h"
#include "base/error.h"
#include "src/matrix/explain.h"
#include "src/out/out.h"
#include "base/util.h"

/* The options, filled by cli_parse from the table in cmd_explain. */
struct cmd_explain_opts {
	struct cli_sel sel;
	const char *format;
	struct cli_list features;
};

static const struct cli_cmd explain_cmd = {
	.name = "explain",
	.usage = "--model SRC[@V] --ref SRC[@V] [--features LIST] [options]",
	.summary = "Multiple regression of ln(model/ref) on workload features: "
		   "coefficients, standard errors, t and p-values, R^2.",
	.details = "Numeric features (every value a positive number) enter as "
		   "ln(value); others as\nindicators against their first level "
		   "(sorted). exp(estimate) is the factor a\nterm multiplies "
		   "model/ref by (per e-fold for numeric features). Noisy or\n"
		   "invalid pairs and pairs without a positive ratio are left "
		   "out (skipped).\nA column that the ones before it "
		   "determine (aliased: op_class given op) is\nleft out and "
		   "named under dropped with the combination it equals.",
	.min_args = 0, .max_args = 0,
};

/* --features values split at commas, or the defaults. */
static char **feature_list(const struct cmd_explain_opts *opt,
			   const struct corr_set *s, size_t *n)
{
	char **v = NULL, **names;
	size_t len = 0, nn;

	for (size_t i = 0; i < opt->features.n; i++) {
		char *copy = xstrdup(opt->features.items[i]), *save = NULL, *t;

		for (t = strtok_r(copy, ",", &save); t;
		     t = strtok_r(NULL, ",", &save)) {
			v = xrealloc(v, (len + 1) * sizeof(*v));
			v[len++] = xstrdup(util_trim(t));
		}
		free(copy);
	}
	if (len) {
		*n = len;
		return v;
	}
	corr_param_names(s, &names, &nn);
	v = xmalloc((nn + 1) * sizeof(*v));
	v[len++] = xstrdup("op");
	for (size_t i = 0; i < nn; i++) {
		v[len++] = xasprintf("param.%s", names[i]);
		free(names[i]);
	}
	free(names);
	*n = len;
	return v;
}

static const char *se_method(const struct explain_result *r)
{
	if (r->exact)
		return "none: exact fit (the residuals are round-off)";
	if (r->clusters < 2)
		return "none: one workload (no cluster-robust standard error)";
	return "cluster-robust by workload (CR1, t with clusters - 1 dof)";
}

static void print_json(const struct corr_set *s, const struct explain_result *r)
{
	fputs("{\"model\":", stdout);
	corrout_side_json(stdout, &s->model);
	fputs(",\"ref\":", stdout);
	corrout_side_json(stdout, &s->ref);
	printf(",\"n\":%zu,\"skipped\":%ld,\"r2\":", r->n, r->skipped);
	out_json_num(stdout, r->r2);
	fputs(",\"adj_r2\":", stdout);
	out_json_num(stdout, r->adj_r2);
	fputs(",\"residual_sd\":", stdout);
	out_json_num(stdout, r->sigma);
	fputs(",\"terms\":[", stdout);
	for (size_t i = 0; i < r->nterms; i++) {
		const struct explain_term *t = &r->terms[i];

		fputs(i ? ",{\"term\":" : "{\"term\":", stdout);
		out_json_str(stdout, t->name);
		fputs(",\"estimate\":", stdout);
		out_json_num(stdout, t->est);
		fputs(",\"se\":", stdout);
		out_json_num(stdout, t->se);
		fputs(",\"t\":", stdout);
		out_json_num(stdout, t->t);
		fputs(",\"p\":", stdout);
		out_json_num(stdout, t->p);
		fputs(",\"se_ols\":", stdout);
		out_json_num(stdout, t->se_ols);
		fputs(",\"t_ols\":", stdout);
		out_json_num(stdout, t->t_ols);
		fputs(",\"p_ols\":", stdout);
		out_json_num(stdout, t->p_ols);
		fputc('}', stdout);
	}
	fputs("],\"dropped\":[", stdout);
	for (size_t i = 0; i < r->ndropped; i++) {
		if (i)
			fputc(',', stdout);
		out_json_str(stdout, r->dropped[i]);
	}
	printf("],\"se_method\":\"%s\",\"clusters\":%zu}\n",
	       se_method(r), r->clusters);
}

static const char *stars(double p)
{
	return !isfinite(p) ? "" : p < 0.001 ? "***" : p < 0.01 ? "**" :
	       p < 0.05 ? "*" : "";
}

static void print_table(const struct corr_set *s,
			const struct explain_result *r)
{
	static const char *const head[] = { "term", "estimate", "factor",
		"se", "t", "p", "" };
	struct out_table *t = out_table_new(7, head);
	char *ms = corrout_side_text(&s->model), *rs = corrout_side_text(&s->ref);
	char b[5][48];

	for (int c = 1; c < 6; c++)
		out_table_right(t, c);
	for (size_t i = 0; i < r->nterms; i++) {
		const struct explain_term *x = &r->terms[i];
		const char *row[7];

		row[0] = x->name;
		row[1] = corrout_num(b[0], 48, x->est);
		snprintf(b[1], 48, "x%.4g", exp(x->est));
		row[2] = b[1];
		row[3] = corrout_num(b[2], 48, x->se);
		row[4] = corrout_num(b[3], 48, x->t);
		row[5] = corrout_num(b[4], 48, x->p);
		row[6] = stars(x->p);
		out_table_add(t, row);
	}
	fputs("model:     ", stdout);
	util_fputs_safe(ms, stdout);
	fputs("\nreference: ", stdout);
	util_fputs_safe(rs, stdout);
	printf("\nln(model/ref) on %zu pairs (%ld left out): R^2 %s, adjusted "
	       "%s, residual sd %s\n", r->n, r->skipped,
	       corrout_num(b[0], 48, r->r2), corrout_num(b[1], 48, r->adj_r2),
	       corrout_num(b[2], 48, r->sigma));
	printf("standard errors: %s", se_method(r));
	if (!r->exact && r->clusters >= 2)
		printf(", %zu workloads: the ops of one workload are not "
		       "independent (OLS se_ols in the JSON)", r->clusters);
	fputs("\n\n", stdout);
	out_table_print(t, stdout);
	fputs("(factor = exp(estimate): how the term scales model/ref; "
	      "* p<0.05 ** p<0.01 *** p<0.001)\n", stdout);
	for (size_t i = 0; i < r->ndropped; i++) {
		fputs("dropped: ", stdout);
		util_fputs_safe(r->dropped[i], stdout);
		fputc('\n', stdout);
	}
	out_table_free(t);
	free(ms);
	free(rs);
}

static int run(struct db *db, enum out_format fmt, void *ctx)
{
	const struct cmd_explain_opts *opt = ctx;
	struct corr_query q = CORR_QUERY_INIT;
	struct corr_set *s = NULL;
	struct explain_result r;
	char **f = NULL;
	size_t nf = 0;
	int rc;

	cli_sel_query(&opt->sel, &q);
	if ((rc = corr_load(&s, db, &q)) < 0)
		return rc;
	f = feature_list(opt, s, &nf);
	rc = explain_fit(&r, s, (const char *const *)f, nf);
	if (!rc) {
		if (fmt == OUT_JSON)
			print_json(s, &r);
		else
			print_table(s, &r);
		explain_release(&r);
	}
	for (size_t i = 0; i < nf; i++)
		free(f[i]);
	free(f);
	corr_set_free(s);
	return rc;
}

int cmd_explain(int argc, char **argv)
{
	struct cmd_explain_opts opt;
	const struct cli_opt opts[] = {
		{ CLI_STR, "model", 'm', &opt.sel.model, "SRC[@V]", "model "
		  "side" },
		{ CLI_STR, "ref", 'r', &opt.sel.ref, "SRC[@V]", "reference "
		  "side" },
		{ CLI_LIST, "features", 'F', &opt.features, "LIST",
		  "comma-separated features: param.NAME, op, op_class, metric, workload "
		  "(default: op and every parameter)" },
		CLI_SEL_FILTER_OPTS(opt.sel),
		CLI_SEL_ROOF_OPT(opt.sel),
		{ CLI_STR, "format", 'f', &opt.format, "FMT", "table (default) "
		  "or json" },
		CLI_OPT_END
	};
	struct cli_cmd cmd = explain_cmd;
	int rc;

	cmd.opts = opts;
	memset(&opt, 0, sizeof(opt));
	cli_sel_init(&opt.sel);
	opt.format = "table";
	rc = cli_sel_main(&cmd, argc, argv, &opt.sel, &opt.format, 1, NULL, run,
			  &opt);
	cli_sel_release(&opt.sel);
	cli_list_free(&opt.features);
	return rc;
}
