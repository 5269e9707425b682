/* perfcorr roofline: the built-in roofline calculator, stored as a run. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "db/db.h"
#include "src/cmd/cli.h"
#include "src/cmd/cmd.h"
#include "base/error.h"
#include "src/out/out.h"
#include "src/import/import.h"
#include "src/import/roofline.h"
#include "base/util.h"

/* The options, filled by cli_parse from the table in cmd_roofline. */
struct cmd_roofline_opts {
	const char *hw, *ops, *source, *workload, *platform, *precision;
	const char *format, *cost, *cost_unit;
	int replace, quiet, no_store;
	double cost_v;		/* --cost parsed (import_cost_parse) */
	const char *cost_u;	/* NULL: no --cost */
};

static const struct cli_cmd roofline_cmd = {
	.name = "roofline",
	.usage = "--hw SPEC.json --ops OPS.csv [--source NAME] [options]",
	.summary = "Compute a roofline for a list of ops on a hardware spec "
		   "and store it as a roofline run (version = the spec's hash).",
	.details = "Per op: time = max(flops / peak(precision), bytes / "
		   "bandwidth) + overhead_s;\nlimiter = compute when the "
		   "compute time is the larger, else memory;\narithmetic "
		   "intensity = flops / bytes. GEMM rows (m, n, k): flops = "
		   "2mnk,\nbytes = (mk + kn + mn) x element size. Stored "
		   "metrics: time, compute_time,\nmemory_time, flops, bytes, "
		   "arithmetic_intensity, limiter (1 compute, 0 memory).\n"
		   "See docs/importers-models.md.",
	.min_args = 0, .max_args = 0,
};

static void print(const struct cmd_roofline_opts *opt,
		  const struct roofline_hw *hw, const struct roofline_op *ops,
		  long n, int csv)
{
	static const char *const hdr[] = { "op", "workload", "precision",
		"flops", "bytes", "intensity", "compute_s", "memory_s",
		"time_s", "limiter" };
	struct out_table *t = out_table_new(10, hdr);
	char num[7][32];
	const char *cells[10];

	for (int c = 3; c < 9; c++)
		out_table_right(t, c);
	for (int c = 0; csv && c < 10; c++)
		printf("%s%s", hdr[c], c < 9 ? "," : "\n");
	for (long i = 0; i < n; i++) {
		struct roofline_result r = { 0 };

		roofline_eval(hw, &ops[i], opt->ops, &r);
		snprintf(num[0], 32, "%.6g", ops[i].flops);
		snprintf(num[1], 32, "%.6g", ops[i].bytes);
		snprintf(num[2], 32, "%.4g", r.intensity);
		snprintf(num[3], 32, "%.6g", r.compute_s);
		snprintf(num[4], 32, "%.6g", r.memory_s);
		snprintf(num[5], 32, "%.6g", r.time_s);
		cells[0] = ops[i].name;
		cells[1] = ops[i].workload ? ops[i].workload :
			   opt->workload ? opt->workload : "";
		cells[2] = roofline_prec_name(ops[i].prec);
		for (int c = 0; c < 6; c++)
			cells[3 + c] = num[c];
		cells[9] = r.compute_bound ? "compute" : "memory";
		if (csv) {
			for (int c = 0; c < 10; c++) {
				if (c)
					fputc(',', stdout);
				out_csv_field(stdout, cells[c]);
			}
			fputc('\n', stdout);
		} else {
			out_table_add(t, cells);
		}
	}
	if (csv) {
		out_table_free(t);
		return;
	}
	out_table_print(t, stdout);
	out_table_free(t);
}

static int check_ops(const struct cmd_roofline_opts *opt,
		     const struct roofline_hw *hw,
		     const struct roofline_op *ops, long n)
{
	struct roofline_result r = { 0 };

	for (long i = 0; i < n; i++)
		if (roofline_eval(hw, &ops[i], opt->ops, &r) < 0)
			return PC_EINVALID;
	return 0;
}

/* Store the run; PC_EEXISTS (already stored) is reported, not failed. */
static int store(const struct cmd_roofline_opts *opt,
		 const struct roofline_hw *hw, const struct roofline_op *ops,
		 long n)
{
	struct roofline_store_opts so;
	struct db *db;
	int64_t run_id = 0;
	long results = 0;
	int rc;

	memset(&so, 0, sizeof(so));
	so.source = opt->source;
	so.workload = opt->workload;
	so.precision = opt->precision;
	so.platform = opt->platform;
	so.hw_path = opt->hw;
	so.ops_path = opt->ops;
	so.replace = opt->replace;
	so.cost = opt->cost_v;
	so.cost_unit = opt->cost_u;
	if (cli_open_db(&db, DB_CREATE) != 0)
		return PC_EIO;	/* already reported */
	rc = roofline_store(db, hw, ops, n, &so, &run_id, &results);
	db_close(db);
	if (rc == PC_EEXISTS) {
		fprintf(stderr, "perfcorr roofline: ");
		util_fputs_safe(pc_error_last(), stderr);
		fputs("; nothing to do\n", stderr);
		return 0;
	}
	if (rc < 0) {
		cli_error(roofline_cmd.name);
		return rc;
	}
	if (!opt->quiet)
		fprintf(stderr, "stored roofline run %lld (%s, version %.12s): %ld "
			"results\n", (long long)run_id, opt->source ? opt->source :
			"roofline", hw->sha256, results);
	return 0;
}

int cmd_roofline(int argc, char **argv)
{
	struct cmd_roofline_opts opt;
	const struct cli_opt opts[] = {
		{ CLI_STR, "hw", 0, &opt.hw, "SPEC.json", "hardware spec: "
		  "platform, peak_flops per precision (FLOP/s), "
		  "memory_bandwidth (B/s), optional clock_mhz and overhead_s "
		  "(required)" },
		{ CLI_STR, "ops", 0, &opt.ops, "OPS.csv", "ops: columns op, "
		  "precision, flops and bytes, or m, n, k (GEMM); optional "
		  "workload (required)" },
		{ CLI_STR, "source", 's', &opt.source, "NAME", "source to "
		  "store the run in (default 'roofline')" },
		{ CLI_STR, "workload", 'w', &opt.workload, "KEY", "workload "
		  "for rows without one (default 'gemm' with the row's m, n, "
		  "k)" },
		{ CLI_STR, "platform", 'p', &opt.platform, "P", "platform "
		  "(default: the spec's)" },
		{ CLI_STR, "precision", 0, &opt.precision, "P", "precision of "
		  "rows that name none" },
		{ CLI_STR, "format", 'f', &opt.format, "FMT", "table (default) "
		  "or csv for the printed results" },
		{ CLI_STR, "cost", 0, &opt.cost, "AMOUNT", "what computing "
		  "it cost: 2s, 0.5min (wall-clock, or in --cost-unit), as "
		  "import --cost" },
		{ CLI_STR, "cost-unit", 0, &opt.cost_unit, "UNIT", "s "
		  "(default), core-h, emu-h or gpu-h" },
		{ CLI_FLAG, "no-store", 'n', &opt.no_store, NULL, "print only; "
		  "store nothing" },
		{ CLI_FLAG, "replace", 0, &opt.replace, NULL, "replace an "
		  "earlier run of the same spec and ops" },
		{ CLI_FLAG, "quiet", 'q', &opt.quiet, NULL, "no table and no "
		  "summary line (errors still go to stderr)" },
		CLI_OPT_END
	};
	struct cli_cmd cmd = roofline_cmd;
	struct cli_list pos;
	struct roofline_hw hw;
	struct roofline_op *ops = NULL;
	long n = 0;
	int rc;

	cmd.opts = opts;
	memset(&opt, 0, sizeof(opt));
	opt.format = "table";
	if ((rc = cli_parse(&cmd, argc, argv, &pos)))
		return rc == 1 ? CLI_OK : rc;
	cli_list_free(&pos);
	if (!opt.hw || !opt.ops)
		return cli_usage_error(cmd.name, "--hw SPEC.json and --ops "
				       "OPS.csv are required");
	if (strcmp(opt.format, "table") && strcmp(opt.format, "csv"))
		return cli_usage_error(cmd.name, "unknown format '%s' (table "
				       "or csv)", opt.format);
	if (opt.precision && roofline_prec_parse(opt.precision) < 0)
		return cli_usage_error(cmd.name, "unknown precision '%s'",
				       opt.precision);
	if (opt.cost_unit && !opt.cost)
		return cli_usage_error(cmd.name, "--cost-unit needs --cost");
	if (opt.cost && import_cost_parse(opt.cost, opt.cost_unit, &opt.cost_v,
					  &opt.cost_u) < 0)
		return cli_usage_error(cmd.name, "%s", pc_error_last());
	rc = roofline_hw_load(&hw, opt.hw);
	if (rc == 0)
		rc = roofline_ops_load(&ops, &n, opt.ops, opt.precision);
	if (rc == 0)
		rc = check_ops(&opt, &hw, ops, n);
	if (rc < 0)
		cli_error(cmd.name);
	else if (!opt.no_store)
		rc = store(&opt, &hw, ops, n);
	if (rc == 0 && !opt.quiet)
		print(&opt, &hw, ops, n, !strcmp(opt.format, "csv"));
	roofline_ops_free(ops, n);
	roofline_hw_release(&hw);
	return rc == 0 ? CLI_OK : CLI_FAIL;
}
