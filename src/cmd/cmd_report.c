/* perfcorr report: the weekly review report (md, html, csv, json). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db/db.h"
#include "src/cmd/cli.h"
#include "src/cmd/cmd.h"
#include "base/error.h"
#include "src/report/report.h"
#include "src/report/report_slo.h"
#include "base/util.h"

enum fmt { F_MD, F_HTML, F_CSV, F_JSON };

/* The options, filled by cli_parse from the table in cmd_report. */
struct cmd_report_opts {
	const char *model, *ref, *format, *output, *policy, *roofline;
	const char *slo;
	int top, since, record, no_trend, no_matrix;
	double limit, max_ref_cv;
	struct cli_list allow;	/* --allow-mismatch (issue 37) */
};

static const struct cli_cmd report_cmd = {
	.name = "report",
	.usage = "--model SRC[@V] --ref SRC[@V] [--format md|html|csv|json] "
		 "[-o FILE] [--top N] [--since-last-review] [--record] "
		 "[--policy FILE] [--slo SPEC] [--allow-mismatch FIELD]...",
	.summary = "Write the correlation review report, in the meeting's "
		   "order: the verdict, the open discrepancies with their "
		   "annotations, what is new or resolved since the last review, "
		   "regressions against the previous version, speed-of-light "
		   "violations, then figures, accuracy per metric and op class, "
		   "and the provenance last.",
	.details = "html is one self-contained file with inline SVG figures "
		   "(log-log scatter per metric,\nerror histogram, MAPE trend); "
		   "csv and json hold every pair with its flags and\n"
		   "annotation. Every number comes from the correlation core "
		   "('perfcorr compare').\nSee docs/report.md. Exit status: 0 "
		   "written, 1 error (nothing matched), 2 usage.",
	.min_args = 0, .max_args = 0,
};

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

static int pick_format(const struct cmd_report_opts *opt, enum fmt *out)
{
	static const char *const names[] = { "md", "html", "csv", "json" };
	const char *f = opt->format;

	if (!f && opt->output) {
		if (ends_with(opt->output, ".html") || ends_with(opt->output, ".htm"))
			f = "html";
		else if (ends_with(opt->output, ".csv"))
			f = "csv";
		else if (ends_with(opt->output, ".json"))
			f = "json";
	}
	if (!f)
		f = "md";
	if (!strcmp(f, "markdown"))
		f = "md";
	for (int i = 0; i < 4; i++)
		if (!strcmp(f, names[i])) {
			*out = (enum fmt)i;
			return 0;
		}
	return cli_usage_error("report", "unknown format '%s' (md, html, csv "
			       "or json)", f);
}

static int write_fmt(const struct report *r, enum fmt f, FILE *fp)
{
	switch (f) {
	case F_HTML: return report_write_html(r, fp);
	case F_CSV: return report_write_csv(r, fp);
	case F_JSON: return report_write_json(r, fp);
	default: return report_write_md(r, fp);
	}
}

/* Straight into path: devices, pipes (/dev/stdout, a fifo). */
static int write_direct(const struct report *r, enum fmt f, const char *path)
{
	FILE *fp = fopen(path, "w");
	int rc;

	if (!fp)
		return pc_error_set(PC_EIO, "cannot open '%s': %s", path,
				    strerror(errno));
	rc = write_fmt(r, f, fp);
	if (fclose(fp) != 0 && !rc)
		rc = pc_error_set(PC_EIO, "cannot write '%s'", path);
	return rc;
}

/* A regular file is written beside the target and renamed over it, so
 * a failed report never leaves half a file where the last good one was;
 * anything else that exists (a device, a fifo) is written in place. */
static int write_file(const struct report *r, enum fmt f, const char *path)
{
	struct stat st;
	mode_t mode;
	char *tmp;
	int fd, rc;
	FILE *fp;

	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return write_direct(r, f, path);
	if (stat(path, &st) == 0) {
		mode = st.st_mode & 0777;	/* keep the old file's mode */
	} else {
		mode = umask(022);
		umask(mode);
		mode = 0666 & ~mode;
	}
	tmp = xasprintf("%s.XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd >= 0)
		fchmod(fd, mode);

	if (fd < 0 || !(fp = fdopen(fd, "w"))) {
		rc = pc_error_set(PC_EIO, "cannot create '%s': %s", tmp,
				  strerror(errno));
		if (fd >= 0)
			close(fd);
		free(tmp);
		return rc;
	}
	rc = write_fmt(r, f, fp);
	if (fclose(fp) != 0 && !rc)
		rc = pc_error_set(PC_EIO, "cannot write '%s'", path);
	if (!rc && rename(tmp, path) != 0)
		rc = pc_error_set(PC_EIO, "cannot replace '%s': %s", path,
				  strerror(errno));
	if (rc)
		unlink(tmp);
	free(tmp);
	return rc;
}

static int check_args(const struct cmd_report_opts *opt)
{
	if (!opt->model || !opt->ref)
		return cli_usage_error("report", "--model and --ref are "
				       "required");
	if (opt->top < 1)
		return cli_usage_error("report", "--top must be at least 1");
	if (!(opt->limit > 0 && opt->limit < 100))
		return cli_usage_error("report", "--limit must be a fraction "
				       "such as 0.10");
	if (!(opt->max_ref_cv >= 0))
		return cli_usage_error("report", "--max-ref-cv must be a "
				       "fraction such as 0.30");
	return 0;
}

static int run(const struct cmd_report_opts *opt, enum fmt f)
{
	struct report_opts o = { 0 };
	struct report *r = NULL;
	struct db *db = NULL;
	int64_t id = 0;
	int rc;

	o.model = opt->model;
	o.ref = opt->ref;
	o.roofline = opt->roofline;
	o.allow_mismatch = opt->allow.n ? opt->allow.items : NULL;
	o.top = (size_t)opt->top;
	o.limit = opt->limit;
	o.max_ref_cv = opt->max_ref_cv;
	o.since_last_review = opt->since;
	o.trend = !opt->no_trend && f != F_CSV;
	o.matrix = !opt->no_matrix && (f == F_MD || f == F_HTML);
	o.points_only = f == F_CSV;	/* one row per pair, nothing else */
	/* what they print only */
	o.lean = f == F_MD ? REPORT_LEAN_MD : f == F_HTML ? REPORT_LEAN_HTML :
		 0;
	o.policy = opt->policy;
	o.slo = opt->slo;
	if ((rc = cli_open_db(&db, opt->record ? 0 : DB_READONLY)))
		return rc;
	rc = report_build(&r, db, &o);
	/* written with the section saying so; said here too (-o hides it) */
	if (!rc && opt->slo && report_slo_why(r))
		fprintf(stderr, "perfcorr report: --slo: %s\n",
			report_slo_why(r));
	if (!rc)
		rc = opt->output ? write_file(r, f, opt->output) :
		     write_fmt(r, f, stdout);
	if (!rc && !opt->output && fflush(stdout) != 0)
		rc = pc_error_set(PC_EIO, "cannot write the report");
	if (!rc && opt->record && !(rc = report_record(db, r, &id)))
		fprintf(stderr, "perfcorr report: recorded review #%lld "
			"(%ld discrepancies)\n", (long long)id,
			r->ndiscrepancies);
	if (rc)
		cli_error("report");
	report_free(r);
	db_close(db);
	return rc ? cli_exit_for(rc) : CLI_OK;
}

int cmd_report(int argc, char **argv)
{
	struct cmd_report_opts opt;
	const struct cli_opt opts[] = {
		{ CLI_STR, "model", 'm', &opt.model, "SRC[@V]", "model side "
		  "(required); latest version when none is given" },
		{ CLI_STR, "ref", 'r', &opt.ref, "SRC[@V]", "reference side "
		  "(required)" },
		{ CLI_STR, "roofline", 0, &opt.roofline, "SRC[@V]", "the "
		  "roofline that bounds both sides (default: a roofline side, "
		  "else every roofline source; needed when several hold a "
		  "key)" },
		{ CLI_STR, "format", 'f', &opt.format, "FMT", "md, html, csv "
		  "or json (default: from the -o file's extension, else md)" },
		{ CLI_STR, "output", 'o', &opt.output, "FILE", "write to FILE "
		  "(replaced only when the report is complete) instead of "
		  "stdout" },
		{ CLI_INT, "top", 'n', &opt.top, "N", "discrepancies listed "
		  "(default 20); csv and json always hold every pair" },
		{ CLI_DOUBLE, "limit", 0, &opt.limit, "FRAC", "|error| above "
		  "which a pair is a discrepancy (default 0.10 = 10%)" },
		{ CLI_DOUBLE, "max-ref-cv", 0, &opt.max_ref_cv, "FRAC",
		  "references noisier than this are excluded (default 0.30)" },
		{ CLI_FLAG, "since-last-review", 's', &opt.since, NULL, "list "
		  "what is new and what was resolved since the last recorded "
		  "review" },
		{ CLI_FLAG, "record", 0, &opt.record, NULL, "record this "
		  "review (its runs and discrepancies) for the next "
		  "--since-last-review" },
		{ CLI_STR, "policy", 'p', &opt.policy, "FILE", "add the gate "
		  "verdict of this policy (evaluated, not recorded)" },
		{ CLI_STR, "slo", 0, &opt.slo, "SPEC", "add the verdicts "
		  "against these limits (METRIC=VALUE[UNIT],... or "
		  "mlperf:BENCHMARK, as compare --slo)" },
		{ CLI_LIST, "allow-mismatch", 0, &opt.allow, "FIELD", "pair "
		  "runs whose workload fingerprints differ in FIELD; the report "
		  "says so and how many pairs it admitted (repeatable; else "
		  "the --policy's allow_mismatch)" },
		{ CLI_FLAG, "no-matrix", 0, &opt.no_matrix, NULL, "leave out "
		  "who disagrees with whom (it reads every source)" },
		{ CLI_FLAG, "no-trend", 0, &opt.no_trend, NULL, "leave out the "
		  "MAPE trend across model versions and the changes against "
		  "the previous version (faster on big databases)" },
		CLI_OPT_END
	};
	struct cli_cmd cmd = report_cmd;
	struct cli_list pos;
	enum fmt f = F_MD;
	int rc;

	cmd.opts = opts;
	memset(&opt, 0, sizeof(opt));
	opt.top = 20;
	opt.limit = 0.10;
	opt.max_ref_cv = 0.30;
	if ((rc = cli_parse(&cmd, argc, argv, &pos)))
		return cli_list_free(&opt.allow), rc == 1 ? CLI_OK : rc;
	cli_list_free(&pos);
	if (!(rc = check_args(&opt)) && !(rc = pick_format(&opt, &f))) {
		/* csv is one row per pair: nowhere to put the verdicts */
		if (opt.slo && f == F_CSV)
			rc = cli_usage_error("report", "--slo: the verdicts "
					     "are in the md, html and json "
					     "reports, not csv");
		else
			rc = run(&opt, f);
	}
	cli_list_free(&opt.allow);
	return rc;
}
