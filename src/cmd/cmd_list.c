/* perfcorr sources | runs | workloads | export results: listings. */
#include <stdio.h>
#include <string.h>

#include "db/db.h"
#include "db/query.h"
#include "src/cmd/cli.h"
#include "src/cmd/cmd.h"
#include "base/error.h"
#include "src/cmd/runs_fp.h"
#include "src/out/out.h"

/* The options of the listings and of export, filled by cli_parse from
 * the tables in list(). */
struct cmd_list_opts {
	const char *format, *source;
	int run;
	int fingerprint;	/* runs --fingerprint (issue 37) */
};

static int list(const struct cli_cmd *spec, enum db_listing what,
		const char *deffmt, int argc, char **argv)
{
	struct cmd_list_opts opt = { .format = deffmt };
	/* --source filters something else in each listing: say what */
	const struct cli_opt sources_opts[] = {
		{ CLI_STR, "format", 'f', &opt.format, "FMT", "table "
		  "(default), csv or json" },
		{ CLI_STR, "source", 's', &opt.source, "NAME", "only this "
		  "source's row" },
		CLI_OPT_END
	};
	const struct cli_opt workloads_opts[] = {
		{ CLI_STR, "format", 'f', &opt.format, "FMT", "table "
		  "(default), csv or json" },
		{ CLI_STR, "source", 's', &opt.source, "NAME", "only the "
		  "workloads this source's runs hold results of, and results "
		  "counts only that source's" },
		CLI_OPT_END
	};
	const struct cli_opt runs_opts[] = {
		{ CLI_STR, "format", 'f', &opt.format, "FMT", "table "
		  "(default), csv or json" },
		{ CLI_STR, "source", 's', &opt.source, "NAME", "only this "
		  "source's runs" },
		{ CLI_FLAG, "fingerprint", 0, &opt.fingerprint, NULL, "each "
		  "run's workload fingerprint (the fp.FIELD metadata pairing "
		  "checks) instead of its provenance" },
		CLI_OPT_END
	};
	const struct cli_opt export_opts[] = {
		{ CLI_STR, "format", 'f', &opt.format, "FMT", "csv (default) "
		  "or json" },
		{ CLI_STR, "source", 's', &opt.source, "NAME", "only the "
		  "results of this source's runs" },
		{ CLI_INT, "run", 'r', &opt.run, "ID", "only this run (one file "
		  "that imports back as that run)" },
		CLI_OPT_END
	};
	struct cli_cmd c0 = *spec;
	const struct cli_cmd *cmd = &c0;
	struct cli_list pos;
	struct db *db;
	struct db_cursor *c;
	enum out_format fmt;
	long rows;
	int rc;

	c0.opts = what == DB_LIST_RESULTS ? export_opts :
		  what == DB_LIST_RUNS ? runs_opts :
		  what == DB_LIST_SOURCES ? sources_opts : workloads_opts;
	if ((rc = cli_parse(cmd, argc, argv, &pos)))
		return rc == 1 ? CLI_OK : rc;
	if (what == DB_LIST_RESULTS && strcmp(pos.items[0], "results")) {
		cli_list_free(&pos);
		return cli_usage_error(cmd->name, "unknown export '%s' "
				       "(expected 'results')", pos.items[0]);
	}
	cli_list_free(&pos);
	if (out_parse_format(opt.format, &fmt) ||
	    (what == DB_LIST_RESULTS && fmt == OUT_TABLE))
		return cli_usage_error(cmd->name, "unknown format '%s'",
				       opt.format);
	if ((rc = cli_open_db(&db, DB_READONLY)))
		return rc;
	if (opt.run < 0) {
		db_close(db);
		return cli_usage_error(cmd->name, "--run %d: expected a run id "
				       "('perfcorr runs')", opt.run);
	}
	if (opt.fingerprint) {
		rows = runs_fp_write(stdout, db, opt.source, fmt);
		db_close(db);
		if (rows < 0) {
			cli_error(cmd->name);
			return CLI_FAIL;
		}
		return fflush(stdout) ? cli_fail(cmd->name, "cannot write "
						 "output") : CLI_OK;
	}
	rc = what == DB_LIST_RESULTS ?
	     db_list_open_results(&c, db, opt.source, opt.run) :
	     db_list_open(&c, db, what, opt.source);
	if (rc < 0) {
		cli_error(cmd->name);
		db_close(db);
		return CLI_FAIL;
	}
	rows = out_cursor(stdout, c, fmt);
	db_cursor_close(c);
	db_close(db);
	if (rows < 0) {
		cli_error(cmd->name);
		return CLI_FAIL;
	}
	if (fflush(stdout) != 0)
		return cli_fail(cmd->name, "cannot write output");
	return CLI_OK;
}

int cmd_sources(int argc, char **argv)
{
	static const struct cli_cmd cmd = {
		.name = "sources", .usage = "[--source NAME] "
			 "[--format table|csv|json]",
		.summary = "List sources with their kind, runs, versions and "
			   "result counts.",
		.min_args = 0, .max_args = 0,
	};
	return list(&cmd, DB_LIST_SOURCES, "table", argc, argv);
}

int cmd_runs(int argc, char **argv)
{
	static const struct cli_cmd cmd = {
		.name = "runs", .usage = "[--source NAME] [--format FMT] "
			 "[--fingerprint]",
		.summary = "List imported runs with their provenance: source, "
			   "version, format, platform, clock, file and sha256; "
			   "with --fingerprint, each run's workload "
			   "fingerprint.",
		.min_args = 0, .max_args = 0,
	};
	return list(&cmd, DB_LIST_RUNS, "table", argc, argv);
}

int cmd_workloads(int argc, char **argv)
{
	static const struct cli_cmd cmd = {
		.name = "workloads", .usage = "[--source NAME] "
			 "[--format table|csv|json]",
		.summary = "List workloads: canonical key, name, parameters "
			   "and how many results refer to each.",
		.min_args = 0, .max_args = 0,
	};
	return list(&cmd, DB_LIST_WORKLOADS, "table", argc, argv);
}

int cmd_export(int argc, char **argv)
{
	static const struct cli_cmd cmd = {
		.name = "export",
		.usage = "results [--source NAME] [--run ID] [--format csv|json]",
		.summary = "Export every stored result, values in SI units, with "
			   "every statistic, the flags and the run's clock.",
		.details = "Columns, in this order (a contract scripts may rely "
			   "on; new columns are only ever appended):\n"
			   "  run_id,source,kind,version,platform,workload,op,"
			   "metric,value,unit,n,stddev,\n  raw_value,raw_unit,"
			   "file,mean,median,min,max,flags,clock_hz\nflags are "
			   "words: invalid, skipped, derived, capped (blank: a "
			   "valid result).\nAn export of one run (--run ID) "
			   "imports back with 'perfcorr import' (perfcorr-csv, "
			   "perfcorr-json) with every column restored.",
		.min_args = 1, .max_args = 1,
	};
	return list(&cmd, DB_LIST_RESULTS, "csv", argc, argv);
}
