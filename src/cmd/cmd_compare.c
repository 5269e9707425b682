/* perfcorr compare: error statistics of a model against a reference. */
#include <math.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/annot.h"
#include "db/db.h"
#include "src/cmd/cli.h"
#include "src/cmd/cli_sel.h"
#include "src/cmd/cmd.h"
#include "src/corr/corrgroup.h"
#include "src/corr/corrout.h"
#include "src/corr/corr_calib.h"
#include "src/corr/corr_disc.h"
#include "src/corr/corrout_fp.h"
#include "db/calib.h"
#include "src/corr/correlate.h"
#include "src/stats/stats_ci.h"
#include "base/error.h"
#include "base/units.h"
#include "src/out/out.h"
#include "base/util.h"
#include "src/corr/corr_roof.h"
#include "src/corr/corr_slo.h"
#include "src/corr/corr_slo_out.h"
#include "src/corr/corr_tail.h"
#include "base/strbuf.h"

/* The options, filled by cli_parse from the table in cmd_compare. */
struct cmd_compare_opts {
	struct cli_sel sel;
	const char *format;
	struct cli_list group_by;
	int points, skip_waived;
	double ci_level;	/* --ci */
	int resamples, no_ci;	/* --resamples, --no-ci */
	const char *cluster;	/* --cluster */
	int min_pairs;		/* --min-pairs */
	const char *slo;	/* --slo SPEC */
};

/* Rows of a verdict or tail list the table prints (json: every one). */
#define COMPARE_TOP 20

static const struct cli_cmd compare_cmd = {
	.name = "compare",
	.usage = "--model SRC[@V] --ref SRC[@V] [options]",
	.summary = "Pair a model with a reference on (workload, op, metric) "
		   "and report error statistics.",
	.details = "Errors are (model - ref) / ref: fractions in csv and json, "
		   "percent in the\ntable. Values (RMSE, intercepts, --points) "
		   "are SI numbers in csv and json,\nwith their unit and an SI "
		   "prefix in the table.\nUndefined statistics are null (json), "
		   "empty (csv) or '-' with the\nreason (table). Noisy "
		   "references are excluded and counted (excluded_noisy).\n"
		   "Every interval treats workloads (and ops, when they are "
		   "crossed with\nworkloads: --cluster) as the independent "
		   "units: a bootstrap of workloads\nor a jackknife "
		   "(seeded: the same data give the same interval; "
		   "mape_ci etc.\nand ci_basis in json; --no-ci leaves them "
		   "out).\n"
		   "Agreement beside association: Lin's concordance, Deming "
		   "regression with the\njoint test of slope 1 and intercept "
		   "0, Bland-Altman limits with their\nintervals, the "
		   "proportional bias, MAPE with the noisy references kept.\n"
		   "See docs/statistics.md for every definition.",
	.min_args = 0, .max_args = 0,
};

struct groups_ctx {
	struct corrgroup g;
	const char *const *by;
	struct corr_metric_sum *bm;	/* one summary per metric */
	size_t nbm;
	struct corr_slo slo;		/* --slo, resolved */
	struct corr_slo_result verdicts;
	char *slo_why;			/* --slo: nothing to assess, why */
	struct corr_tails tails;	/* npct 0: no stated percentile */
	struct corr_calib cal;		/* calibration vs held out */
	struct corr_disc disc;		/* the TUI's "N open of M" */
};

/* ,"slo":{...} with --slo; ,"tails":{...} when pairs state percentiles */
static void extra_json(const struct corr_set *s, const struct groups_ctx *gc)
{
	struct strbuf sb = STRBUF_INIT;

	if (gc->slo_why) {
		strbuf_addstr(&sb, ",\"slo\":{\"why\":");
		strbuf_add_json_str(&sb, gc->slo_why);
		strbuf_addch(&sb, '}');
	} else if (gc->slo.n) {
		strbuf_addstr(&sb, ",\"slo\":");
		corr_slo_json(&sb, &gc->slo, &gc->verdicts, s, 0);
	}
	if (gc->tails.npct) {
		strbuf_addstr(&sb, ",\"tails\":");
		corr_tails_json(&sb, &gc->tails, 0);
	}
	if (sb.len)
		fputs(sb.buf, stdout);
	strbuf_release(&sb);
}

/* ,"speed_of_light":{"roofline":"SRC@V"|null,"bounded":N,
 * "violations":N,"by_model":N,"by_ref":N} */
static void sol_json(const struct corr_set *s)
{
	long bm, br;

	corr_sol_counts(s, &bm, &br);
	fputs(",\"speed_of_light\":{\"roofline\":", stdout);
	if (s->roofline)
		out_json_str(stdout, s->roofline);
	else
		fputs("null", stdout);
	printf(",\"bounded\":%ld,\"violations\":%ld,\"by_model\":%ld,"
	       "\"by_ref\":%ld}", s->sol_keys, s->sol_violations, bm, br);
}

/* ,"discrepancies":{...}: corr_disc.h's count, as the TUI's header */
static void disc_json(const struct corr_disc *d)
{
	printf(",\"discrepancies\":{\"n\":%ld,\"open\":%ld,\"limit\":%.17g,"
	       "\"limit_from\":\"%s\",\"bound\":%s}", d->n, d->open, d->limit,
	       d->from_review ? "review" : "default",
	       d->bound ? "true" : "false");
}

static void print_json(const struct cmd_compare_opts *opt,
		       const struct corr_set *s,
		       const struct stats_summary *sum,
		       const struct groups_ctx *gc)
{
	fputs("{\"model\":", stdout);
	corrout_side_json(stdout, &s->model);
	fputs(",\"ref\":", stdout);
	corrout_side_json(stdout, &s->ref);
	if (s->ci)
		printf(",\"ci\":{\"method\":\"clustered: workload bootstrap "
		       "and jackknife\",\"cluster\":\"%s\",\"level\":%g,"
		       "\"resamples\":%u,\"seed\":%llu}", opt->cluster,
		       s->ci->level, s->ci->resamples,
		       (unsigned long long)s->ci->seed);
	else
		fputs(",\"ci\":null", stdout);
	fputs(",\"summary\":{", stdout);
	corrout_stats_json(stdout, sum);
	fputs("},\"groups\":[", stdout);
	for (size_t i = 0; i < gc->g.n; i++) {
		fputs(i ? ",{\"key\":{" : "{\"key\":{", stdout);
		for (size_t k = 0; k < gc->g.nby; k++) {
			if (k)
				fputc(',', stdout);
			out_json_str(stdout, gc->by[k]);
			fputc(':', stdout);
			out_json_str(stdout, gc->g.values[i * gc->g.nby + k]);
		}
		fputs("},", stdout);
		corrout_stats_json(stdout, &gc->g.stats[i]);
		fputc('}', stdout);
	}
	printf("],\"superseded\":%ld", s->superseded);
	sol_json(s);
	disc_json(&gc->disc);
	fputc(',', stdout);
	corrout_fp_json(stdout, s, opt->sel.allow_mismatch.items);
	fputs(",\"by_metric\":[", stdout);
	for (size_t i = 0; i < gc->nbm; i++) {
		fputs(i ? ",{\"metric\":" : "{\"metric\":", stdout);
		out_json_str(stdout, gc->bm[i].metric);
		fputc(',', stdout);
		corrout_stats_json(stdout, &gc->bm[i].sum);
		fputc('}', stdout);
	}
	fputc(']', stdout);
	if (opt->points) {
		fputs(",\"points\":[", stdout);
		for (size_t i = 0; i < s->n; i++) {
			if (i)
				fputc(',', stdout);
			corrout_point_json(stdout, &s->points[i]);
		}
		fputc(']', stdout);
	}
	extra_json(s, gc);
	corr_calib_json(stdout, &gc->cal);
	fputs("}\n", stdout);
}

static void print_csv(const struct stats_summary *sum,
		      const struct groups_ctx *gc)
{
	fputs("scope", stdout);
	for (size_t k = 0; k < gc->g.nby; k++) {
		fputc(',', stdout);
		out_csv_field(stdout, gc->by[k]);
	}
	corrout_stats_csv_header(stdout);
	fputs("\nall", stdout);
	for (size_t k = 0; k < gc->g.nby; k++)
		fputc(',', stdout);
	corrout_stats_csv_row(stdout, sum);
	fputc('\n', stdout);
	for (size_t i = 0; i < gc->g.n; i++) {
		fputs("group", stdout);
		for (size_t k = 0; k < gc->g.nby; k++) {
			fputc(',', stdout);
			out_csv_field(stdout, gc->g.values[i * gc->g.nby + k]);
		}
		corrout_stats_csv_row(stdout, &gc->g.stats[i]);
		fputc('\n', stdout);
	}
	corr_calib_csv(stdout, &gc->cal, gc->g.nby);
}

/* Footnote letters for the reasons of undefined cells in a table. */
struct notes {
	const char *why[8];
	int n;
};

static const char *cell(char *buf, size_t len, struct notes *nt,
			const struct stats_summary *s, enum stats_field f,
			double v, int pct)
{
	const char *why = stats_why(s, f);
	int i;

	if (isfinite(v) || !why)
		return pct ? corrout_pct(buf, len, v) : corrout_num(buf, len, v);
	for (i = 0; i < nt->n && strcmp(nt->why[i], why); i++)
		;
	if (i == nt->n && nt->n < 8)
		nt->why[nt->n++] = why;
	snprintf(buf, len, "-%c", i < 8 ? 'a' + i : '?');
	return buf;
}

static void print_groups(const struct groups_ctx *gc)
{
	static const char *const stat_head[] = { "n", "MAPE", "bias",
		"p90|err|", "max|err|", "geomean", "pearson", "kendall",
		"noisy", "sol", "note" };
	const size_t ns = sizeof(stat_head) / sizeof(stat_head[0]);
	size_t nc = gc->g.nby + ns;
	const char **head = xcalloc(nc, sizeof(*head));
	char (*buf)[48] = xcalloc(nc, sizeof(*buf));
	const char **row = xcalloc(nc, sizeof(*row));
	struct notes nt = { { NULL }, 0 };
	struct out_table *t;

	for (size_t k = 0; k < gc->g.nby; k++)
		head[k] = gc->by[k];
	memcpy(head + gc->g.nby, stat_head, sizeof(stat_head));
	t = out_table_new((int)nc, head);
	for (size_t c = gc->g.nby; c + 1 < nc; c++)
		out_table_right(t, (int)c);
	for (size_t i = 0; i < gc->g.n; i++) {
		const struct stats_summary *s = &gc->g.stats[i];
		size_t c = gc->g.nby;

		for (size_t k = 0; k < gc->g.nby; k++)
			row[k] = gc->g.values[i * gc->g.nby + k];
		snprintf(buf[c], 48, "%ld", s->n);
		row[c] = buf[c];
		c++;
		row[c] = cell(buf[c], 48, &nt, s, SF_MAPE, s->mape, 1), c++;
		row[c] = cell(buf[c], 48, &nt, s, SF_BIAS, s->bias, 1), c++;
		row[c] = cell(buf[c], 48, &nt, s, SF_ABS_ERR, s->p90_abs_err,
			      1), c++;
		row[c] = cell(buf[c], 48, &nt, s, SF_ABS_ERR, s->max_abs_err,
			      1), c++;
		row[c] = cell(buf[c], 48, &nt, s, SF_GEOMEAN,
			      s->geomean_ratio, 0), c++;
		row[c] = cell(buf[c], 48, &nt, s, SF_PEARSON, s->pearson, 0),
		c++;
		row[c] = cell(buf[c], 48, &nt, s, SF_KENDALL,
			      s->kendall_tau_b, 0), c++;
		snprintf(buf[c], 48, "%ld", s->excluded_noisy);
		row[c] = buf[c], c++;
		snprintf(buf[c], 48, "%ld", s->sol_violations);
		row[c] = buf[c], c++;
		row[c] = "";
		if (stats_few_pairs(s)) {
			char lo[24], hi[24];

			if (isnan(s->mape_ci.lo) &&
			    stats_ci_unknown(s, lo, sizeof(lo)))
				snprintf(buf[c], 48, "few pairs: MAPE CI "
					 "unknown (%ld workloads)",
					 s->workloads);
			else if (isnan(s->mape_ci.lo))
				snprintf(buf[c], 48, "few pairs");
			else
				snprintf(buf[c], 48, "few pairs: MAPE CI "
					 "[%s, %s]", corrout_pct(lo, sizeof(lo),
					 s->mape_ci.lo), corrout_pct(hi,
					 sizeof(hi), s->mape_ci.hi));
			row[c] = buf[c];
		}
		out_table_add(t, row);
	}
	out_table_print(t, stdout);
	for (int i = 0; i < nt.n; i++)
		printf("  -%c undefined: %s\n", 'a' + i, nt.why[i]);
	out_table_free(t);
	free(head);
	free(buf);
	free(row);
}

/* "speed of light: roofline@V bounds 48 of 51 pairs; 3 violations
 * (beaten by the model 0, by the reference 3)" */
static void sol_text(const struct corr_set *s)
{
	long bm, br;

	if (!s->roofline) {
		fputs("speed of light: no roofline source bounds these pairs"
		      "\n\n", stdout);
		return;
	}
	corr_sol_counts(s, &bm, &br);
	fputs("speed of light: ", stdout);
	util_fputs_safe(s->roofline, stdout);
	printf(" bounds %ld of %zu pairs; %ld violation%s (beaten by the "
	       "model %ld, by the reference %ld)\n\n", s->sol_keys, s->n,
	       s->sol_violations, s->sol_violations == 1 ? "" : "s", bm, br);
}

/* "discrepancies: 7 open of 9 (...)": the count of the TUI's header and
 * the report (src/corr/corr_disc.h), and what compare's outliers are */
static void disc_text(const struct corr_disc *d)
{
	if (d->bound) {
		fputs("discrepancies: none counted: the model is a roofline, a "
		      "bound (its pairs are no model's errors)\n\n", stdout);
		return;
	}
	printf("discrepancies: %ld open of %ld (|error| > %g%%, not within "
	       "the reference's noise, not excluded; %s; open: no annotation, "
	       "open or investigating; as the report and the TUI count)\n"
	       "outliers (below): pairs whose error is far from the median "
	       "error, whatever the limit (|e - median e| > 3 x 1.4826 x "
	       "MAD)\n\n", d->open, d->n, d->limit * 100,
	       d->from_review ? "the last recorded review's limit" :
	       "the default limit, no review recorded");
}

static void print_table(const struct cmd_compare_opts *opt,
			const struct corr_set *s,
			const struct stats_summary *sum,
			const struct groups_ctx *gc)
{
	char *ms = corrout_side_text(&s->model), *rs = corrout_side_text(&s->ref);

	fputs("model:     ", stdout);
	util_fputs_safe(ms, stdout);
	fputs("\nreference: ", stdout);
	util_fputs_safe(rs, stdout);
	printf("\npairs: %zu (in statistics: %ld; excluded: %ld noisy "
	       "reference%s (cv > %g), %ld invalid)\n\n", s->n, sum->n,
	       s->excluded_noisy, s->excluded_noisy == 1 ? "" : "s",
	       opt->sel.max_ref_cv, s->invalid);
	sol_text(s);
	disc_text(&gc->disc);
	corrout_fp_text(stdout, s, opt->sel.allow_mismatch.items);
	if (s->not_comparable || s->unverified || opt->sel.allow_mismatch.n)
		fputc('\n', stdout);
	if (s->ci)
		printf("intervals (CI): %g%%, clustered by %s (ci basis), %u "
		       "bootstrap resamples\n\n", s->ci->level * 100,
		       s->ci->cluster == STATS_CI_WORKLOAD ? "workload" :
		       s->ci->cluster == STATS_CI_WORKLOAD_OP ?
		       "workload and op" : "workload, and op where crossed",
		       s->ci->resamples);
	if (gc->nbm > 1)
		fputs("several metrics: this summary keeps only the "
		      "dimensionless statistics; each metric's own follows\n\n",
		      stdout);
	/* the statistics in the metric's unit print with it (RMSE, the
	 * intercepts: "120.3 µs"); a summary over several metrics keeps
	 * only the dimensionless ones */
	corrout_stats_table(stdout, sum, !strcmp(s->model.kind, "roofline"),
			    gc->nbm == 1 ? corr_metric_unit(s, gc->bm[0].metric)
			    : NULL);
	for (size_t i = 0; gc->nbm > 1 && i < gc->nbm; i++) {
		fputs("\nmetric ", stdout);
		util_fputs_safe(gc->bm[i].metric, stdout);
		fputs(":\n", stdout);
		corrout_stats_table(stdout, &gc->bm[i].sum,
				    !strcmp(s->model.kind, "roofline"),
				    corr_metric_unit(s, gc->bm[i].metric));
	}
	corr_calib_text(stdout, &gc->cal);
	if (gc->g.n) {
		fputs("\nby ", stdout);
		for (size_t k = 0; k < gc->g.nby; k++)
			printf("%s%s", k ? ", " : "", gc->by[k]);
		fputs(":\n", stdout);
		print_groups(gc);
	}
	if (gc->slo_why) {
		printf("\nverdicts against the limits: %s\n", gc->slo_why);
	} else if (gc->slo.n) {
		fputc('\n', stdout);
		corr_slo_text(stdout, &gc->slo, &gc->verdicts, s, COMPARE_TOP);
	}
	if (gc->tails.npct) {
		fputc('\n', stdout);
		corr_tails_text(stdout, &gc->tails, COMPARE_TOP);
	}
	if (opt->points) {
		fputs("\npairs, largest |error| first:\n", stdout);
		corrout_points_text(stdout, s);
	}
	if (s->superseded)
		printf("\nnote: %ld pair%s used the latest of several runs "
		       "holding the same key (older runs superseded): --pool "
		       "averages the runs, 'perfcorr runs' lists them\n",
		       s->superseded, s->superseded == 1 ? "" : "s");
	free(ms);
	free(rs);
}

/* enum stats_ci_cluster of --cluster's value, -1 when none. */
static int cluster_of(const char *name)
{
	static const char *const names[] = { "auto", "workload",
					     "workload+op" };

	for (int i = 0; name && i < 3; i++)
		if (!strcmp(name, names[i]))
			return i;
	return -1;
}

static const char *check_ci(const void *ctx)
{
	const struct cmd_compare_opts *opt = ctx;

	if (!(opt->ci_level > 0 && opt->ci_level < 1))
		return "--ci takes a level between 0 and 1 (0.95 for 95%)";
	if (opt->resamples < 1 || opt->resamples > 1000000)
		return "--resamples takes 1 to 1000000";
	if (opt->min_pairs < 0)
		return "--min-pairs takes a count (0 = no minimum)";
	if (cluster_of(opt->cluster) < 0)
		return "--cluster takes auto, workload or workload+op";
	if (opt->slo && opt->format && !strcmp(opt->format, "csv"))
		return "--slo: the verdicts are in the table and json formats, "
		       "not csv";
	return NULL;
}

static int run(struct db *db, enum out_format fmt, void *ctx)
{
	const struct cmd_compare_opts *opt = ctx;
	struct corr_query q = CORR_QUERY_INIT;
	struct corr_set *s = NULL;
	struct stats_summary sum;
	struct stats_paired_opts ci = { 0, 0, 0, STATS_CI_AUTO };
	struct groups_ctx gc;
	char *msrc = NULL, *mver = NULL;
	int rc, marks = 0;

	memset(&gc, 0, sizeof(gc));
#ifdef __GLIBC__
	/* compare's arrays (points, each summary's copies and scratch) are
	 * megabytes and short-lived: mapped and given back when freed, at
	 * a fixed threshold (glibc raises its own to the size of a freed
	 * block, up to 32 MiB, and a block on the heap below a live one
	 * stays in the peak: issue 21) */
	mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
	if (opt->slo && (rc = corr_slo_parse(&gc.slo, opt->slo, "--slo")) < 0) {
		corr_slo_release(&gc.slo);
		return rc;
	}
	cli_sel_query(&opt->sel, &q);
	/* calibration marks for this model: full points to split them */
	corr_parse_side(opt->sel.model, &msrc, &mver);
	rc = msrc ? db_calib_any(db, msrc, &marks) : 0;
	free(msrc);
	free(mver);
	if (rc < 0)
		return rc;
	/* no pair is printed, no verdict judged: slim points */
	q.slim = !opt->points && !opt->slo && !marks;
	gc.by = opt->group_by.items;
	/* the workload parameters: only for a param.NAME group key */
	q.no_params = 1;
	for (size_t i = 0; i < opt->group_by.n; i++)
		if (!strncmp(gc.by[i], "param.", 6))
			q.no_params = 0;
	ci.level = opt->ci_level;
	ci.resamples = (unsigned)opt->resamples;
	ci.seed = STATS_PAIRED_SEED;
	ci.cluster = cluster_of(opt->cluster);
	if ((rc = corr_load(&s, db, &q)) >= 0 && !opt->no_ci)
		s->ci = &ci;
	if (rc < 0 ||
	    (rc = corr_summary(&sum, s, NULL, NULL, opt->skip_waived)) < 0 ||
	    (rc = corr_by_metric_all(&gc.bm, &gc.nbm, s, &sum,
				     opt->skip_waived)) < 0 ||
	    (rc = corrgroup_build(&gc.g, s, gc.by, opt->group_by.n,
				  opt->skip_waived)) < 0 ||
	    (gc.slo.n && !(gc.slo_why = corr_slo_nothing(&gc.slo, s)) &&
	     ((rc = corr_slo_resolve(&gc.slo, s, "--slo")) < 0 ||
	      (rc = corr_slo_judge(&gc.verdicts, &gc.slo, s, NULL, NULL,
				   opt->skip_waived)) < 0)) ||
	    (rc = corr_tails_build(&gc.tails, s, opt->skip_waived)) < 0 ||
	    (marks && (rc = corr_calib_build(&gc.cal, s, db,
					     opt->skip_waived)) < 0)) {
		corrgroup_release(&gc.g);
		corr_slo_result_release(&gc.verdicts);
		corr_slo_release(&gc.slo);
		free(gc.slo_why);
		free(gc.bm);
		corr_set_free(s);
		return rc;
	}
	if (fmt != OUT_CSV) {
		double limit;
		int from_review;

		if ((rc = corr_disc_limit(db, s->model.source, s->ref.source,
					  &limit, &from_review)) < 0) {
			corrgroup_release(&gc.g);
			corr_slo_result_release(&gc.verdicts);
			corr_slo_release(&gc.slo);
			corr_tails_release(&gc.tails);
			free(gc.bm);
			corr_set_free(s);
			return rc;
		}
		corr_disc_count(&gc.disc, s, limit, from_review);
	}
	sum.min_pairs = opt->min_pairs;
	for (size_t i = 0; i < gc.nbm; i++)
		gc.bm[i].sum.min_pairs = opt->min_pairs;
	for (size_t i = 0; i < gc.g.n; i++)
		gc.g.stats[i].min_pairs = opt->min_pairs;
	if (fmt == OUT_JSON)
		print_json(opt, s, &sum, &gc);
	else if (fmt == OUT_CSV)
		print_csv(&sum, &gc);
	else
		print_table(opt, s, &sum, &gc);
	corrgroup_release(&gc.g);
	corr_slo_result_release(&gc.verdicts);
	corr_slo_release(&gc.slo);
	free(gc.slo_why);
	corr_tails_release(&gc.tails);
	free(gc.bm);
	corr_set_free(s);
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	struct cmd_compare_opts opt;
	const struct cli_opt opts[] = {
		{ CLI_STR, "model", 'm', &opt.sel.model, "SRC[@V]", "model "
		  "side (latest version when none given)" },
		{ CLI_STR, "ref", 'r', &opt.sel.ref, "SRC[@V]", "reference "
		  "side" },
		CLI_SEL_FILTER_OPTS(opt.sel),
		CLI_SEL_ROOF_OPT(opt.sel),
		{ CLI_LIST, "group-by", 'g', &opt.group_by, "KEY", "statistics "
		  "per op, op_class, metric, workload or param.NAME" },
		{ CLI_FLAG, "points", 0, &opt.points, NULL, "list every pair" },
		{ CLI_FLAG, "skip-waived", 0, &opt.skip_waived, NULL, "leave "
		  "pairs with an accepted, unexpired annotation out of the "
		  "statistics" },
		{ CLI_DOUBLE, "ci", 0, &opt.ci_level, "LEVEL", "confidence "
		  "level of the bootstrap intervals (default 0.95)" },
		{ CLI_INT, "resamples", 0, &opt.resamples, "N", "bootstrap "
		  "resamples (default 1000)" },
		{ CLI_FLAG, "no-ci", 0, &opt.no_ci, NULL, "no intervals "
		  "(faster)" },
		{ CLI_STR, "cluster", 0, &opt.cluster, "C", "what the "
		  "intervals treat as independent: auto (default: workloads, "
		  "and ops when crossed with them), workload or workload+op" },
		{ CLI_INT, "min-pairs", 0, &opt.min_pairs, "N", "mark a "
		  "summary or group with fewer pairs 'few pairs' (shown with "
		  "its interval)" },
		{ CLI_STR, "slo", 0, &opt.slo, "SPEC", "judge each key "
		  "against limits: METRIC=VALUE[UNIT],... (ttft_p99=2s,"
		  "tpot_p99=100ms; <= or >= to say which way) or "
		  "mlperf:BENCHMARK; does the model agree with the reference "
		  "on meets/misses?" },
		{ CLI_STR, "format", 'f', &opt.format, "FMT", "table "
		  "(default), csv or json" },
		CLI_OPT_END
	};
	struct cli_cmd cmd = compare_cmd;
	int rc;

	cmd.opts = opts;
	memset(&opt, 0, sizeof(opt));
	cli_sel_init(&opt.sel);
	opt.format = "table";
	opt.ci_level = STATS_PAIRED_LEVEL;
	opt.resamples = STATS_CI_RESAMPLES;
	opt.cluster = "auto";
	rc = cli_sel_main(&cmd, argc, argv, &opt.sel, &opt.format, 0, check_ci,
			  run, &opt);
	cli_sel_release(&opt.sel);
	cli_list_free(&opt.group_by);
	return rc;
}
