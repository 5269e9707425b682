/* perfcorr sensitivity: does the model move with each knob as the
 * reference does (src/corr/corr_sens.h)? */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"
#include "db/db.h"
#include "src/cmd/cli.h"
#include "src/cmd/cli_sel.h"
#include "src/cmd/cmd.h"
#include "src/corr/corr_sens.h"
#include "src/corr/corrout.h"
#include "src/corr/correlate.h"
#include "src/out/out.h"

struct cmd_sensitivity_opts {
	struct cli_sel sel;
	const char *format, *knob;
	int all;
};

static const struct cli_cmd sensitivity_cmd = {
	.name = "sensitivity",
	.usage = "--model SRC[@V] --ref SRC[@V] [--knob NAME] [options]",
	.summary = "Per knob (a workload parameter swept with the rest of the "
		   "key fixed): the model's elasticity d ln y / d ln x against "
		   "the reference's, blind and wrong-direction sweeps.",
	.details = "A sweep is one op and metric over >= 3 positive values of "
		   "one parameter, every\nother part of the workload key fixed. "
		   "Elasticities are least-squares slopes\nof ln(value) on "
		   "ln(knob); tau is Kendall's tau-b of model vs reference "
		   "along\nthe sweep. blind: the reference moves by >= 20% over "
		   "the sweep while the\nmodel's log range is under a quarter "
		   "of the reference's (or within twice its\nstated stddev); "
		   "wrong direction: both move, the slopes' signs differ.\n"
		   "Noisy and invalid pairs are left out. Exit 1 when there is "
		   "no sweep.",
	.min_args = 0, .max_args = 0,
};

static void json_arr(const double *v, size_t n)
{
	fputc('[', stdout);
	for (size_t i = 0; i < n; i++) {
		if (i)
			fputc(',', stdout);
		out_json_num(stdout, v[i]);
	}
	fputc(']', stdout);
}

static void json_sweep(const struct corr_sweep *w)
{
	fputs("{\"fixed\":", stdout);
	out_json_str(stdout, w->fixed);
	fputs(",\"flag\":", stdout);
	out_json_str(stdout, corr_sens_flag_name(w->flag));
	fputs(",\"e_model\":", stdout);
	out_json_num(stdout, w->e_model);
	fputs(",\"e_ref\":", stdout);
	out_json_num(stdout, w->e_ref);
	fputs(",\"tau\":", stdout);
	out_json_num(stdout, w->tau);
	fputs(",\"model_move\":", stdout);
	out_json_num(stdout, w->model_move);
	fputs(",\"ref_move\":", stdout);
	out_json_num(stdout, w->ref_move);
	fputs(",\"x\":", stdout);
	json_arr(w->x, w->n);
	fputs(",\"model\":", stdout);
	json_arr(w->model, w->n);
	fputs(",\"ref\":", stdout);
	json_arr(w->ref, w->n);
	fputc('}', stdout);
}

static void print_json(const struct corr_set *s, const struct corr_sens *c)
{
	fputs("{\"model\":", stdout);
	corrout_side_json(stdout, &s->model);
	fputs(",\"ref\":", stdout);
	corrout_side_json(stdout, &s->ref);
	printf(",\"sweeps\":%zu,\"blind\":%zu,\"wrong_direction\":%zu,"
	       "\"skipped\":%ld,\"thresholds\":{\"ref_moves\":%g,"
	       "\"flat_share\":%g},\"knobs\":[", c->sweeps, c->blind, c->wrong,
	       c->skipped, CORR_SENS_REF_MOVES, CORR_SENS_FLAT_SHARE);
	for (size_t i = 0; i < c->n; i++) {
		const struct corr_knob *k = &c->knobs[i];

		fputs(i ? ",{\"knob\":" : "{\"knob\":", stdout);
		out_json_str(stdout, k->knob);
		fputs(",\"op\":", stdout);
		out_json_str(stdout, k->op);
		fputs(",\"metric\":", stdout);
		out_json_str(stdout, k->metric);
		printf(",\"n_sweeps\":%zu,\"blind\":%zu,\"wrong_direction\":%zu,"
		       "\"e_model_median\":", k->nsweeps, k->blind, k->wrong);
		out_json_num(stdout, k->e_model_med);
		fputs(",\"e_ref_median\":", stdout);
		out_json_num(stdout, k->e_ref_med);
		fputs(",\"tau_mean\":", stdout);
		out_json_num(stdout, k->tau_mean);
		fputs(",\"sweeps\":[", stdout);
		for (size_t j = 0; j < k->nsweeps; j++) {
			if (j)
				fputc(',', stdout);
			json_sweep(&k->sweeps[j]);
		}
		fputs("]}", stdout);
	}
	fputs("]}\n", stdout);
}

static void print_sweeps(const struct corr_sens *c, int all)
{
	int head = 0;

	for (size_t i = 0; i < c->n; i++)
		for (size_t j = 0; j < c->knobs[i].nsweeps; j++) {
			const struct corr_knob *k = &c->knobs[i];
			const struct corr_sweep *w = &k->sweeps[j];
			char b[2][48];

			if (!all && w->flag == SENS_OK)
				continue;
			if (!head++)
				fputs(all ? "\nsweeps:\n" : "\nflagged sweeps "
				      "(--all lists every one):\n", stdout);
			printf("  %-15s ", corr_sens_flag_name(w->flag));
			util_fputs_safe(k->knob, stdout);
			fputs("  ", stdout);
			util_fputs_safe(k->op, stdout);
			fputc(' ', stdout);
			util_fputs_safe(k->metric, stdout);
			fputs("  ", stdout);
			util_fputs_safe(w->fixed, stdout);
			printf("  model %s ref %s (x %.4g..%.4g, %zu points)\n",
			       corrout_num(b[0], 48, w->e_model),
			       corrout_num(b[1], 48, w->e_ref), w->x[0],
			       w->x[w->n - 1], w->n);
		}
}

static void print_table(const struct corr_set *s, const struct corr_sens *c,
			int all)
{
	static const char *const head[] = { "knob", "op", "metric", "sweeps",
		"e_model", "e_ref", "tau", "blind", "wrong" };
	struct out_table *t = out_table_new(9, head);
	char *ms = corrout_side_text(&s->model), *rs = corrout_side_text(&s->ref);

	for (int col = 3; col < 9; col++)
		out_table_right(t, col);
	for (size_t i = 0; i < c->n; i++) {
		const struct corr_knob *k = &c->knobs[i];
		char b[6][48];
		const char *row[9];

		snprintf(b[0], 48, "%zu", k->nsweeps);
		snprintf(b[4], 48, "%zu", k->blind);
		snprintf(b[5], 48, "%zu", k->wrong);
		row[0] = k->knob;
		row[1] = k->op;
		row[2] = k->metric;
		row[3] = b[0];
		row[4] = corrout_num(b[1], 48, k->e_model_med);
		row[5] = corrout_num(b[2], 48, k->e_ref_med);
		row[6] = corrout_num(b[3], 48, k->tau_mean);
		row[7] = b[4];
		row[8] = b[5];
		out_table_add(t, row);
	}
	fputs("model:     ", stdout);
	util_fputs_safe(ms, stdout);
	fputs("\nreference: ", stdout);
	util_fputs_safe(rs, stdout);
	printf("\n%zu sweep%s: %zu blind, %zu wrong direction (%ld pair%s "
	       "left out: noisy, invalid or not positive)\n", c->sweeps,
	       c->sweeps == 1 ? "" : "s", c->blind, c->wrong, c->skipped,
	       c->skipped == 1 ? "" : "s");
	fputs("e_model, e_ref: median elasticity d ln y / d ln knob over the "
	      "sweeps; tau: mean Kendall tau-b\n\n", stdout);
	out_table_print(t, stdout);
	print_sweeps(c, all);
	out_table_free(t);
	free(ms);
	free(rs);
}

static int run(struct db *db, enum out_format fmt, void *ctx)
{
	const struct cmd_sensitivity_opts *opt = ctx;
	struct corr_query q = CORR_QUERY_INIT;
	struct corr_set *s = NULL;
	struct corr_sens c;
	int rc;

	cli_sel_query(&opt->sel, &q);
	if ((rc = corr_load(&s, db, &q)) < 0)
		return rc;
	rc = corr_sens_build(&c, s, opt->knob);
	if (!rc) {
		if (fmt == OUT_JSON)
			print_json(s, &c);
		else
			print_table(s, &c, opt->all);
		corr_sens_release(&c);
	}
	corr_set_free(s);
	return rc;
}

int cmd_sensitivity(int argc, char **argv)
{
	struct cmd_sensitivity_opts opt;
	const struct cli_opt opts[] = {
		{ CLI_STR, "model", 'm', &opt.sel.model, "SRC[@V]", "model "
		  "side" },
		{ CLI_STR, "ref", 'r', &opt.sel.ref, "SRC[@V]", "reference "
		  "side" },
		{ CLI_STR, "knob", 'k', &opt.knob, "NAME", "only sweeps of "
		  "this workload parameter (default: every numeric one)" },
		{ CLI_FLAG, "all", 'a', &opt.all, NULL, "list every sweep, not "
		  "only the flagged ones (table format)" },
		CLI_SEL_FILTER_OPTS(opt.sel),
		{ CLI_STR, "format", 'f', &opt.format, "FMT", "table (default) "
		  "or json" },
		CLI_OPT_END
	};
	struct cli_cmd cmd = sensitivity_cmd;
	int rc;

	cmd.opts = opts;
	memset(&opt, 0, sizeof(opt));
	cli_sel_init(&opt.sel);
	opt.format = "table";
	rc = cli_sel_main(&cmd, argc, argv, &opt.sel, &opt.format, 1, NULL, run,
			  &opt);
	cli_sel_release(&opt.sel);
	return rc;
}
