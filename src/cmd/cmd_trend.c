/* perfcorr trend: the statistics of every model version, release order. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/db.h"
#include "src/cmd/cli.h"
#include "src/cmd/cli_sel.h"
#include "src/cmd/cmd.h"
#include "src/corr/corrchange.h"
#include "src/corr/corrcpd.h"
#include "src/corr/corrout.h"
#include "src/corr/correlate.h"
#include "base/error.h"
#include "src/out/out.h"
#include "base/util.h"

/* The options, filled by cli_parse from the table in cmd_trend. */
struct cmd_trend_opts {
	struct cli_sel sel;
	const char *format;
	const char *over;	/* "model" (default) or "ref" */
	int skip_waived;
};

/* Whether the series runs over the reference's versions only; over
 * both sides' versions of one name (nightly runs of both). */
static int over_ref(const struct cmd_trend_opts *opt)
{
	return !strcmp(opt->over, "ref");
}

static int over_both(const struct cmd_trend_opts *opt)
{
	return !strcmp(opt->over, "both");
}

/* Whether the reference source (of opt's --ref) has version. */
static int ref_has(struct db *db, const struct cmd_trend_opts *opt,
		   const char *version, int *rc)
{
	char *src = xstrndup(opt->sel.ref, strcspn(opt->sel.ref, "@"));
	char **v = NULL;
	size_t n = 0;
	int found = 0;

	*rc = corr_versions(db, src, &v, &n);
	for (size_t i = 0; i < n; i++) {
		found |= !strcmp(v[i], version);
		free(v[i]);
	}
	free(v);
	free(src);
	return found;
}

static const struct cli_cmd trend_cmd = {
	.name = "trend",
	.usage = "--model SRC --ref SRC[@V] [options] | --over ref --model "
		 "SRC[@V] --ref SRC",
	.summary = "Summary statistics for every version of the model source "
		   "against one reference, in release order (first import).",
	.details = "A version that pairs nothing with the reference is listed "
		   "with n = 0.\nStatistics as in 'perfcorr compare' "
		   "(docs/statistics.md). With 4 or more versions\nthat pair, "
		   "the change points of the series (E-Divisive, a seeded\n"
		   "permutation test) say where the error stepped and whether "
		   "the model\nor the reference moved there. --over ref runs "
		   "over the reference's\nversions (nightly silicon runs) "
		   "against one model version; --over both\nover the model's "
		   "versions, each against the reference version of the\n"
		   "same name (nightly runs of both).",
	.min_args = 0, .max_args = 0,
};

struct row {
	char *version;
	struct corr_side side;	/* model side (runs) when matched */
	struct corr_side ref;
	struct stats_summary s;
	int matched;
	/* against the previous version that paired (has_change) */
	struct corr_change ch;
	int has_change;
	const char *prev;
};

/* Load and summarise one version; *keep takes the set when it paired
 * (the next version's change is measured against it). */
static int load_version(struct db *db, const struct cmd_trend_opts *opt,
			const char *version, struct row *r,
			struct corr_set **keep)
{
	struct corr_query q = CORR_QUERY_INIT;
	struct corr_set *s = NULL;
	char *spec = xasprintf("%s@%s", opt->sel.model, version);
	int rc;

	char *rspec = NULL;

	cli_sel_query(&opt->sel, &q);
	r->version = xstrdup(version);
	if (over_ref(opt) || over_both(opt)) {
		rspec = xasprintf("%.*s@%s", (int)strcspn(opt->sel.ref, "@"),
				  opt->sel.ref, version);
		q.ref = rspec;
	}
	if (!over_ref(opt))
		q.model = spec;
	if (over_both(opt) && !ref_has(db, opt, version, &rc)) {
		free(spec);	/* no reference of that version: n = 0 */
		free(rspec);
		stats_compute(&r->s, NULL, NULL, NULL, 0);
		return rc;
	}
	rc = corr_load(&s, db, &q);
	free(spec);
	free(rspec);
	if (rc == PC_ENOTFOUND && strstr(pc_error_last(), "nothing matched")) {
		stats_compute(&r->s, NULL, NULL, NULL, 0);
		return 0;
	}
	if (rc < 0)
		return rc;
	rc = corr_summary(&r->s, s, NULL, NULL, opt->skip_waived);
	r->matched = 1;
	r->side = s->model;
	r->ref = s->ref;
	memset(&s->model, 0, sizeof(s->model));
	memset(&s->ref, 0, sizeof(s->ref));
	*keep = s;
	return rc;
}

static void side_free(struct corr_side *s)
{
	free(s->source);
	free(s->kind);
	free(s->version);
	free(s->runs);
}

static const struct corr_side *some_ref(const struct row *r, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (r[i].matched)
			return &r[i].ref;
	return NULL;
}

static void print_json(const struct cmd_trend_opts *opt, const struct row *r,
		       size_t n, const struct corr_cpd *cpd,
		       const char *const *names)
{
	const struct corr_side *ref = some_ref(r, n);
	struct strbuf sb = STRBUF_INIT;

	fputs("{\"model\":{\"source\":", stdout);
	out_json_str(stdout, opt->sel.model);
	fputs("},\"over\":", stdout);
	out_json_str(stdout, opt->over);
	fputs(",\"ref\":", stdout);
	if (ref)
		corrout_side_json(stdout, ref);
	else
		fputs("null", stdout);
	fputs(",\"versions\":[", stdout);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ",{\"version\":" : "{\"version\":", stdout);
		out_json_str(stdout, r[i].version);
		fputs(",\"runs\":[", stdout);
		for (size_t k = 0; r[i].matched && k < r[i].side.nruns; k++)
			printf("%s%lld", k ? "," : "",
			       (long long)r[i].side.runs[k]);
		fputs("],\"summary\":{", stdout);
		corrout_stats_json(stdout, &r[i].s);
		fputs("},\"change\":", stdout);
		if (r[i].has_change) {
			fputs("{\"from\":", stdout);
			out_json_str(stdout, r[i].prev);
			fputs(",\"paired\":", stdout);
			corr_change_json(stdout, &r[i].ch);
			fputc('}', stdout);
		} else {
			fputs("null", stdout);
		}
		fputc('}', stdout);
	}
	fputs("],\"change_points\":", stdout);
	corr_cpd_json(&sb, cpd, names);
	fputs(strbuf_str(&sb), stdout);
	fputs("}\n", stdout);
	strbuf_release(&sb);
}

static void print_csv(const struct row *r, size_t n)
{
	fputs("version", stdout);
	corrout_stats_csv_header(stdout);
	fputc('\n', stdout);
	for (size_t i = 0; i < n; i++) {
		out_csv_field(stdout, r[i].version);
		corrout_stats_csv_row(stdout, &r[i].s);
		fputc('\n', stdout);
	}
}

/* The change points (only for a series long enough to search). */
static void print_cpd(const struct corr_cpd *cpd, const char *const *names)
{
	struct strbuf sb = STRBUF_INIT;

	if (cpd->npoints < CORR_CPD_MIN_VERSIONS)
		return;
	corr_cpd_text(&sb, cpd, names);
	fputc('\n', stdout);
	/* line by line: the safe writer escapes a newline (a version name
	 * cannot carry one onto the terminal) */
	for (char *l = sb.buf, *e; l && *l; l = e + 1) {
		e = strchr(l, '\n');
		if (e)
			*e = '\0';
		util_fputs_safe(l, stdout);
		fputc('\n', stdout);
		if (!e)
			break;
	}
	strbuf_release(&sb);
}

static void print_table(const struct cmd_trend_opts *opt, const struct row *r,
			size_t n)
{
	static const char *const head[] = { "version", "n", "MAPE", "change",
		"bias", "p90|err|", "geomean", "pearson", "kendall", "noisy",
		"sol", "common change" };
	struct out_table *t = out_table_new(12, head);
	const struct corr_side *ref = some_ref(r, n);
	char b[12][48];
	int any = 0;

	for (int c = 1; c < 12; c++)
		out_table_right(t, c);
	for (size_t i = 0; i < n; i++) {
		const struct stats_summary *s = &r[i].s;
		const char *row[12];
		double prev = i ? r[i - 1].s.mape : NAN;

		row[0] = r[i].version;
		snprintf(b[1], 48, "%ld", s->n);
		row[1] = b[1];
		row[2] = corrout_pct(b[2], 48, s->mape);
		row[3] = isfinite(prev) && isfinite(s->mape) ?
			 (snprintf(b[3], 48, "%+.2f pt", (s->mape - prev) * 100),
			  b[3]) : "";
		row[4] = corrout_pct(b[4], 48, s->bias);
		row[5] = corrout_pct(b[5], 48, s->p90_abs_err);
		row[6] = corrout_num(b[6], 48, s->geomean_ratio);
		row[7] = corrout_num(b[7], 48, s->pearson);
		row[8] = corrout_num(b[8], 48, s->kendall_tau_b);
		snprintf(b[9], 48, "%ld", s->excluded_noisy);
		row[9] = b[9];
		snprintf(b[10], 48, "%ld", s->sol_violations);
		row[10] = b[10];
		row[11] = r[i].has_change ? corr_change_cell(b[11], 48,
							     &r[i].ch) : "";
		any |= r[i].has_change;
		out_table_add(t, row);
	}
	fputs("model: ", stdout);
	util_fputs_safe(opt->sel.model, stdout);
	if (ref && (over_ref(opt) || over_both(opt))) {
		char *src = xstrndup(opt->sel.ref, strcspn(opt->sel.ref, "@"));

		fputs("  reference: ", stdout);
		util_fputs_safe(src, stdout);
		fputs(over_both(opt) ? " (the version of each row's name)" :
		      " (every version)", stdout);
		free(src);
	} else if (ref) {
		char *rs = corrout_side_text(ref);

		fputs("  reference: ", stdout);
		util_fputs_safe(rs, stdout);
		free(rs);
	}
	fputs(over_ref(opt) ? "\n(reference versions in release order; '-' "
	      "= undefined, e.g. fewer than 3 pairs; n = 0: nothing paired)\n" :
	      "\n(versions in release order; '-' = undefined, e.g. fewer "
	      "than 3 pairs; n = 0: nothing paired)\n", stdout);
	out_table_print(t, stdout);
	out_table_free(t);
	if (!any)
		return;
	fputs("\ncommon change: the MAPE change from the previous version on "
	      "the pairs both hold\n(* significant: p < 1 - level, the "
	      "release-change test over whole workloads\nand ops, "
	      "docs/statistics.md)\n",
	      stdout);
	for (size_t i = 0; i < n; i++) {
		if (!r[i].has_change)
			continue;
		util_fprintf_safe(stdout, "%s -> %s: ", r[i].prev,
				  r[i].version);
		corr_change_text(stdout, &r[i].ch);
	}
}

static int run(struct db *db, enum out_format fmt, void *ctx)
{
	const struct cmd_trend_opts *opt = ctx;
	char **v = NULL;
	size_t n = 0, i;
	struct row *rows = NULL;
	struct corr_set *prev = NULL;
	const char *prev_version = NULL;
	char *src = over_ref(opt) ? xstrndup(opt->sel.ref,
					     strcspn(opt->sel.ref, "@")) :
		    xstrdup(opt->sel.model);
	struct corr_cpd_series *series = corr_cpd_series_new(opt->skip_waived);
	struct corr_cpd cpd;
	int rc = corr_versions(db, src, &v, &n);

	memset(&cpd, 0, sizeof(cpd));
	if (rc == 0 && n == 0)
		rc = pc_error_set(PC_ENOTFOUND, "no source named '%s' (or it "
				  "has no runs)", src);
	free(src);
	if (rc < 0) {
		corr_cpd_series_free(series);
		return rc;
	}
	rows = xcalloc(n, sizeof(*rows));
	corr_cpd_series_expect(series, n);
	for (i = 0; i < n && !rc; i++) {
		struct corr_set *cur = NULL;

		rc = load_version(db, opt, v[i], &rows[i], &cur);
		corr_cpd_series_add(series, cur);
		if (!rc && cur && prev) {
			corr_change_compute(&rows[i].ch, prev, cur,
					    opt->skip_waived, 0);
			rows[i].has_change = 1;
			rows[i].prev = prev_version;
		}
		if (cur) {
			corr_set_free(prev);
			prev = cur;
			prev_version = rows[i].version;
		}
	}
	corr_set_free(prev);
	if (!rc && !some_ref(rows, n))
		rc = pc_error_set(PC_ENOTFOUND, "no version of '%s' pairs with "
				  "'%s'", over_ref(opt) ? opt->sel.ref :
				  opt->sel.model, over_ref(opt) ?
				  opt->sel.model : opt->sel.ref);
	if (!rc)
		corr_cpd_compute(&cpd, series, NULL);
	corr_cpd_series_free(series);
	if (!rc && fmt == OUT_JSON)
		print_json(opt, rows, n, &cpd, (const char *const *)v);
	else if (!rc && fmt == OUT_CSV)
		print_csv(rows, n);
	else if (!rc) {
		print_table(opt, rows, n);
		print_cpd(&cpd, (const char *const *)v);
	}
	corr_cpd_release(&cpd);
	for (i = 0; i < n; i++) {
		free(v[i]);
		free(rows[i].version);
		side_free(&rows[i].side);
		side_free(&rows[i].ref);
	}
	free(v);
	free(rows);
	return rc;
}

static const char *check_model(const void *ctx)
{
	const struct cmd_trend_opts *opt = ctx;

	if (strcmp(opt->over, "model") && strcmp(opt->over, "ref") &&
	    !over_both(opt))
		return "--over takes 'model', 'ref' or 'both'";
	if (!over_ref(opt) && strchr(opt->sel.model, '@'))
		return "--model takes a source without a version: trend covers "
		       "every version";
	if (!strcmp(opt->over, "model"))
		return NULL;
	return strchr(opt->sel.ref, '@') ? "--ref takes a source without a "
	       "version with --over ref or both: trend covers every version" :
	       NULL;
}

int cmd_trend(int argc, char **argv)
{
	struct cmd_trend_opts opt;
	const struct cli_opt opts[] = {
		{ CLI_STR, "model", 'm', &opt.sel.model, "SRC", "model source "
		  "(every version; SRC[@V] with --over ref)" },
		{ CLI_STR, "ref", 'r', &opt.sel.ref, "SRC[@V]", "reference "
		  "side (latest version when none given; every version with "
		  "--over ref)" },
		CLI_SEL_FILTER_OPTS(opt.sel),
		{ CLI_STR, "over", 0, &opt.over, "SIDE", "the versions of "
		  "'model' (default), of 'ref' (nightly silicon runs: "
		  "--model SRC[@V] is one version then, the latest when none "
		  "given) or 'both' (the model's versions, each against the "
		  "reference version of the same name)" },
		CLI_SEL_ROOF_OPT(opt.sel),
		{ CLI_FLAG, "skip-waived", 0, &opt.skip_waived, NULL, "leave "
		  "waived pairs out of the statistics" },
		{ CLI_STR, "format", 'f', &opt.format, "FMT", "table "
		  "(default), csv or json" },
		CLI_OPT_END
	};
	struct cli_cmd cmd = trend_cmd;
	int rc;

	cmd.opts = opts;
	memset(&opt, 0, sizeof(opt));
	cli_sel_init(&opt.sel);
	opt.format = "table";
	opt.over = "model";
	rc = cli_sel_main(&cmd, argc, argv, &opt.sel, &opt.format, 0, check_model,
			  run, &opt);
	cli_sel_release(&opt.sel);
	return rc;
}
