/*
 * perfcorr diff: which pairs moved between two model versions (A..B) or
 * two reference versions (X..Y), and whether the model or the reference
 * changed (an error jump that was really new hardware data).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "src/cmd/cli.h"
#include "src/cmd/cli_sel.h"
#include "src/cmd/cmd.h"
#include "src/corr/corrchange.h"
#include "src/corr/corrout.h"
#include "src/corr/correlate.h"
#include "src/corr/diff.h"
#include "base/error.h"
#include "src/out/out.h"
#include "base/util.h"

/* The options, filled by cli_parse from the table in cmd_diff. */
struct cmd_diff_opts {
	struct cli_sel sel;
	const char *format;
	int all;
	double min_delta, tol;
};

static const struct cli_cmd diff_cmd = {
	.name = "diff",
	.usage = "--model SRC@A..B --ref R | --model M --ref R@X..Y [options]",
	.summary = "Compare the pairing of two versions: which pairs moved, by "
		   "how much, and whether the model or the reference changed.",
	.details = "cause: 'model' (only the model value changed), 'reference' "
		   "(only the\nreference changed), 'both' or 'none'. "
		   "mape_model_only is the MAPE of the\nnew model against the "
		   "old reference, mape_ref_only the old model against\nthe new "
		   "reference: they split a MAPE jump between the two sides.",
	.min_args = 0, .max_args = 0,
};

/* "SRC@A..B" -> "SRC@A", "SRC@B"; no range: both = spec. */
static int split_range(const char *spec, char **from, char **to)
{
	const char *at = strchr(spec, '@'), *dots = strstr(spec, "..");

	if (!dots) {
		*from = xstrdup(spec);
		*to = xstrdup(spec);
		return 0;
	}
	if (!at || dots < at || dots == at + 1 || !dots[2])
		return pc_error_set(PC_EUSAGE, "bad range '%s' (expected "
				    "SRC@A..B)", spec);
	*from = xstrndup(spec, (size_t)(dots - spec));
	*to = xasprintf("%.*s%s", (int)(at + 1 - spec), spec, dots + 2);
	return 0;
}

static int load(struct db *db, const struct cmd_diff_opts *opt,
		struct corr_set **out, const char *model, const char *ref)
{
	struct corr_query q = CORR_QUERY_INIT;
	int rc;

	cli_sel_query(&opt->sel, &q);
	q.model = model;
	q.ref = ref;
	rc = corr_load(out, db, &q);
	if (rc < 0)
		pc_error_prefix("%s vs %s", model, ref);
	return rc;
}

static int listed(const struct cmd_diff_opts *opt, const struct diff_change *c)
{
	return opt->all || fabs(c->delta) >= opt->min_delta || isnan(c->delta);
}

static void side_range_json(const char *key, const struct corr_side *x,
			    const struct corr_side *y)
{
	printf("\"%s\":{\"source\":", key);
	out_json_str(stdout, x->source);
	fputs(",\"kind\":", stdout);
	out_json_str(stdout, x->kind);
	fputs(",\"from\":", stdout);
	out_json_str(stdout, x->version);
	fputs(",\"to\":", stdout);
	out_json_str(stdout, y->version);
	fputc('}', stdout);
}

/* ,"key":[{workload, op, metric, model, ref, err}...]: the pairs only
 * one version holds (issue 39: counted, and now named). */
static void one_sided_json(const char *key, const struct corr_point *const *v,
			   size_t n)
{
	printf(",\"%s\":[", key);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ",{\"workload\":" : "{\"workload\":", stdout);
		out_json_str(stdout, v[i]->workload);
		fputs(",\"op\":", stdout);
		out_json_str(stdout, v[i]->op);
		fputs(",\"metric\":", stdout);
		out_json_str(stdout, v[i]->metric);
		fputs(",\"model\":", stdout);
		out_json_num(stdout, v[i]->model);
		fputs(",\"ref\":", stdout);
		out_json_num(stdout, v[i]->ref);
		fputs(",\"err\":", stdout);
		out_json_num(stdout, v[i]->err);
		fputc('}', stdout);
	}
	fputc(']', stdout);
}

static void print_json(const struct diff *d,
			const struct cmd_diff_opts *opt)
{
	fputc('{', stdout);
	side_range_json("model", &d->before->model, &d->after->model);
	fputc(',', stdout);
	side_range_json("ref", &d->before->ref, &d->after->ref);
	fputs(",\"before\":{", stdout);
	corrout_stats_json(stdout, &d->sb);
	fputs("},\"after\":{", stdout);
	corrout_stats_json(stdout, &d->sa);
	fputs("},\"mape_model_only\":", stdout);
	out_json_num(stdout, d->model_only.mape);
	fputs(",\"mape_ref_only\":", stdout);
	out_json_num(stdout, d->ref_only.mape);

	printf(",\"common\":%zu,\"moved\":%zu,\"only_before\":%zu,"
	       "\"only_after\":%zu,\"causes\":{\"model\":%ld,\"reference\":%ld,"
	       "\"both\":%ld,\"none\":%ld},\"pairs\":[", d->n, d->moved,
	       d->only_before, d->only_after, d->causes[DIFF_MODEL],
	       d->causes[DIFF_REF], d->causes[DIFF_BOTH],
	       d->causes[DIFF_NONE]);
	for (size_t i = 0, k = 0; i < d->n; i++) {
		const struct diff_change *c = &d->ch[i];

		if (!listed(opt, c))
			continue;
		fputs(k++ ? ",{\"workload\":" : "{\"workload\":", stdout);
		out_json_str(stdout, c->a->workload);
		fputs(",\"op\":", stdout);
		out_json_str(stdout, c->a->op);
		fputs(",\"metric\":", stdout);
		out_json_str(stdout, c->a->metric);
		fputs(",\"model_before\":", stdout);
		out_json_num(stdout, c->b->model);
		fputs(",\"model_after\":", stdout);
		out_json_num(stdout, c->a->model);
		fputs(",\"ref_before\":", stdout);
		out_json_num(stdout, c->b->ref);
		fputs(",\"ref_after\":", stdout);
		out_json_num(stdout, c->a->ref);
		fputs(",\"err_before\":", stdout);
		out_json_num(stdout, c->b->err);
		fputs(",\"err_after\":", stdout);
		out_json_num(stdout, c->a->err);
		fputs(",\"delta\":", stdout);
		out_json_num(stdout, c->delta);
		printf(",\"cause\":\"%s\"}", diff_cause_names[c->cause]);
	}
	fputc(']', stdout);
	one_sided_json("only_before_pairs", d->gone, d->only_before);
	one_sided_json("only_after_pairs", d->added, d->only_after);
	fputs(",\"change\":", stdout);
	corr_change_json(stdout, &d->change);
	fputs("}\n", stdout);
}

static void print_csv(const struct diff *d,
			const struct cmd_diff_opts *opt)
{
	fputs("workload,op,metric,model_before,model_after,ref_before,"
	      "ref_after,err_before,err_after,delta,cause\n", stdout);
	for (size_t i = 0; i < d->n; i++) {
		const struct diff_change *c = &d->ch[i];
		double v[7] = { c->b->model, c->a->model, c->b->ref, c->a->ref,
				c->b->err, c->a->err, c->delta };

		if (!listed(opt, c))
			continue;
		out_csv_field(stdout, c->a->workload);
		fputc(',', stdout);
		out_csv_field(stdout, c->a->op);
		fputc(',', stdout);
		out_csv_field(stdout, c->a->metric);
		for (int k = 0; k < 7; k++) {
			fputc(',', stdout);
			if (isfinite(v[k]))
				printf("%.17g", v[k]);
		}
		printf(",%s\n", diff_cause_names[c->cause]);
	}
}

static const char *verdict(const struct diff *d)
{
	long m = d->causes[DIFF_MODEL], r = d->causes[DIFF_REF];
	long b = d->causes[DIFF_BOTH];

	/* a pair that appeared or vanished is a change too, never "none" */
	if (m + r + b == 0 && (d->only_before || d->only_after))
		return "no common value changed, but the coverage did (pairs "
		       "only before or only after)";
	if (m + r + b == 0)
		return "no value changed";
	if (r + b == 0)
		return "only the model changed";
	if (m + b == 0)
		return "only the reference changed: error moves come from new "
		       "reference data, not the model";
	return "both the model and the reference changed";
}

static void stat_rows(struct out_table *t, const struct diff *d)
{
	struct {
		const char *name;
		double b, a;
		int pct;
	} r[] = {
		{ "MAPE", d->sb.mape, d->sa.mape, 1 },
		{ "bias", d->sb.bias, d->sa.bias, 1 },
		{ "p90 |err|", d->sb.p90_abs_err, d->sa.p90_abs_err, 1 },
		{ "geomean ratio", d->sb.geomean_ratio, d->sa.geomean_ratio,
		  0 },
		{ "pearson", d->sb.pearson, d->sa.pearson, 0 },
		{ "kendall tau-b", d->sb.kendall_tau_b, d->sa.kendall_tau_b,
		  0 },
	};
	char x[48], y[48], n1[32], n2[32];
	const char *row[3] = { "n", n1, n2 };

	snprintf(n1, sizeof(n1), "%ld", d->sb.n);
	snprintf(n2, sizeof(n2), "%ld", d->sa.n);
	out_table_add(t, row);
	for (size_t i = 0; i < sizeof(r) / sizeof(r[0]); i++) {
		row[0] = r[i].name;
		row[1] = r[i].pct ? corrout_pct(x, 48, r[i].b) :
			 corrout_num(x, 48, r[i].b);
		row[2] = r[i].pct ? corrout_pct(y, 48, r[i].a) :
			 corrout_num(y, 48, r[i].a);
		out_table_add(t, row);
	}
}

static void print_changes(const struct diff *d,
			const struct cmd_diff_opts *opt)
{
	static const char *const head[] = { "workload", "op", "metric",
		"err before", "err after", "delta", "model", "ref", "cause" };
	struct out_table *t = out_table_new(9, head);
	char b[6][48];

	for (int c = 3; c < 8; c++)
		out_table_right(t, c);
	for (size_t i = 0; i < d->n; i++) {
		const struct diff_change *c = &d->ch[i];
		const char *row[9];

		if (!listed(opt, c))
			continue;
		row[0] = c->a->workload;
		row[1] = c->a->op;
		row[2] = c->a->metric;
		row[3] = corrout_pct(b[0], 48, c->b->err);
		row[4] = corrout_pct(b[1], 48, c->a->err);
		snprintf(b[2], 48, "%+.2f pt", c->delta * 100);
		row[5] = isfinite(c->delta) ? b[2] : "-";
		row[6] = corrout_pct(b[3], 48, c->b->model != 0 ?
				     c->a->model / c->b->model - 1 : NAN);
		row[7] = corrout_pct(b[4], 48, c->b->ref != 0 ?
				     c->a->ref / c->b->ref - 1 : NAN);
		row[8] = diff_cause_names[c->cause];
		out_table_add(t, row);
	}
	out_table_print(t, stdout);
	out_table_free(t);
}

/* The pairs only before or only after (--all): title, then a table. */
static void print_one_sided(const char *title,
			    const struct corr_point *const *v, size_t n)
{
	static const char *const head[] = { "workload", "op", "metric",
		"err", "model", "ref" };
	struct out_table *t;
	char b[3][48];

	if (!n)
		return;
	t = out_table_new(6, head);
	for (int c = 3; c < 6; c++)
		out_table_right(t, c);
	printf("\n%s (%zu):\n", title, n);
	for (size_t i = 0; i < n; i++) {
		const char *row[6] = { v[i]->workload, v[i]->op, v[i]->metric,
			corrout_pct(b[0], 48, v[i]->err),
			corrout_num(b[1], 48, v[i]->model),
			corrout_num(b[2], 48, v[i]->ref) };

		out_table_add(t, row);
	}
	out_table_print(t, stdout);
	out_table_free(t);
}

static void print_table(const struct diff *d,
			const struct cmd_diff_opts *opt)
{
	static const char *const head[] = { "", "before", "after" };
	struct out_table *t = out_table_new(3, head);
	const struct corr_side *m1 = &d->before->model, *m2 = &d->after->model;
	const struct corr_side *r1 = &d->before->ref, *r2 = &d->after->ref;
	char x[48], y[48];

	util_fprintf_safe(stdout, "model:     %s@%s -> %s (%s)\nreference: %s@%s -> %s (%s)\n\n",
	       m1->source, m1->version, m2->version, m1->kind, r1->source,
	       r1->version, r2->version, r1->kind);
	out_table_right(t, 1);
	out_table_right(t, 2);
	stat_rows(t, d);
	out_table_print(t, stdout);
	out_table_free(t);
	printf("\nMAPE of the new model vs the old reference: %s\n"
	       "MAPE of the old model vs the new reference: %s\n",
	       corrout_pct(x, 48, d->model_only.mape),
	       corrout_pct(y, 48, d->ref_only.mape));
	corr_change_text(stdout, &d->change);
	printf("pairs: %zu common, %zu moved by >= %.2f pt, %zu only before, "
	       "%zu only after\nvalues changed: model %ld, reference %ld, "
	       "both %ld, none %ld: %s\n", d->n, d->moved, d->min_delta * 100,
	       d->only_before, d->only_after, d->causes[DIFF_MODEL],
	       d->causes[DIFF_REF], d->causes[DIFF_BOTH],
	       d->causes[DIFF_NONE], verdict(d));
	if (d->moved || opt->all) {
		printf("\n%s, largest change first (model/ref: relative "
		       "change of the value):\n", opt->all ? "pairs" :
		       "moved pairs");
		print_changes(d, opt);
	}
	if (opt->all) {
		print_one_sided("pairs only before, gone in the later version",
				d->gone, d->only_before);
		print_one_sided("pairs only after, new in the later version",
				d->added, d->only_after);
	}
}

static int run(struct db *db, enum out_format fmt, void *ctx)
{
	const struct cmd_diff_opts *opt = ctx;
	struct diff d;
	struct corr_set *before = NULL, *after = NULL;
	char *m1 = NULL, *m2 = NULL, *r1 = NULL, *r2 = NULL;
	int rc;

	memset(&d, 0, sizeof(d));
	if ((rc = split_range(opt->sel.model, &m1, &m2)) < 0 ||
	    (rc = split_range(opt->sel.ref, &r1, &r2)) < 0)
		goto done;
	if (!strcmp(m1, m2) && !strcmp(r1, r2)) {
		rc = pc_error_set(PC_EUSAGE, "give a range: --model SRC@A..B "
				  "or --ref SRC@X..Y");
		goto done;
	}
	if ((rc = load(db, opt, &before, m1, r1)) < 0 ||
	    (rc = load(db, opt, &after, m2, r2)) < 0)
		goto done;
	rc = diff_build(&d, before, after, opt->tol, opt->min_delta);
	before = after = NULL;	/* d owns them */
	if (rc < 0)
		goto done;
	if (fmt == OUT_JSON)
		print_json(&d, opt);
	else if (fmt == OUT_CSV)
		print_csv(&d, opt);
	else
		print_table(&d, opt);
done:
	free(m1);
	free(m2);
	free(r1);
	free(r2);
	corr_set_free(before);
	corr_set_free(after);
	diff_release(&d);
	return rc;
}

int cmd_diff(int argc, char **argv)
{
	struct cmd_diff_opts opt;
	const struct cli_opt opts[] = {
		{ CLI_STR, "model", 'm', &opt.sel.model, "SRC[@A..B]", "model "
		  "side, or a range of two model versions" },
		{ CLI_STR, "ref", 'r', &opt.sel.ref, "SRC[@X..Y]", "reference "
		  "side, or a range of two reference versions" },
		CLI_SEL_FILTER_OPTS(opt.sel),
		CLI_SEL_ROOF_OPT(opt.sel),
		{ CLI_DOUBLE, "min-delta", 0, &opt.min_delta, "F", "a pair "
		  "moved when its error changed by at least F (default 0.01 = "
		  "1 point)" },
		{ CLI_DOUBLE, "tol", 0, &opt.tol, "F", "a value changed when "
		  "it moved by more than F relative (default 1e-9)" },
		{ CLI_FLAG, "all", 0, &opt.all, NULL, "list every common pair, "
		  "not only those that moved, and the pairs only before or only "
		  "after" },
		{ CLI_STR, "format", 'f', &opt.format, "FMT", "table "
		  "(default), csv or json" },
		CLI_OPT_END
	};
	struct cli_cmd cmd = diff_cmd;
	int rc;

	cmd.opts = opts;
	memset(&opt, 0, sizeof(opt));
	cli_sel_init(&opt.sel);
	opt.format = "table";
	opt.min_delta = 0.01;
	opt.tol = 1e-9;
	rc = cli_sel_main(&cmd, argc, argv, &opt.sel, &opt.format, 0, NULL, run,
			  &opt);
	cli_sel_release(&opt.sel);
	return rc;
}
