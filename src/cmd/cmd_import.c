/* perfcorr import: files -> runs, one transaction per file. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db/db.h"
#include "src/pairidx/candidates.h"
#include "src/cmd/cli.h"
#include "src/cmd/cmd.h"
#include "base/error.h"
#include "src/import/import.h"
#include "src/pairidx/pairidx.h"
#include "base/strbuf.h"
#include "base/util.h"

/* The options, filled by cli_parse from the table in cmd_import. */
struct cmd_import_opts {
	const char *source, *kind, *version, *format, *platform, *workload;
	const char *map, *topology, *rules, *cost, *cost_unit;
	double clock_mhz;
	int strict_map, replace, quiet, index, calibration;
	struct cli_list params, opts, meta;
};

static const struct cli_cmd import_cmd = {
	.name = "import",
	.usage = "--source NAME [--kind KIND] [options] FILE...",
	.summary = "Import result files into the database ('-' reads stdin). "
		   "Each file is one run, stored in one transaction: on any "
		   "error nothing of that file is stored.",
	.details = "Values are normalised to SI units (cycles stay cycles, "
		   "with the run's clock).\nThe same bytes imported twice into "
		   "a source with the same --version, --workload, --param, "
		   "--platform and --clock-mhz are recognised (sha256) and "
		   "skipped; under other values they are another run.\nExit "
		   "status:"
		   " 0 all files imported or already present, 1 a file failed,"
		   " 2 usage.",
	.min_args = 1, .max_args = -1,
};

static void warn(void *ctx, const char *msg)
{
	(void)ctx;
	fputs("perfcorr import: warning: ", stderr);
	util_fputs_safe(msg, stderr);
	fputc('\n', stderr);
}

static void progress(void *ctx, const char *path, long long done,
		     long long total, long results)
{
	(void)ctx;
	if (total < (1 << 20))
		return;
	if (done >= total) {
		fputs("\r\033[K", stderr);
		return;
	}
	util_fprintf_safe(stderr, "\rimporting %s: %3d%% (%ld results)", path,
		(int)(100.0 * (double)done / (double)total), results);
}

static const char **build_opts(const struct cmd_import_opts *opt)
{
	const char **o = xcalloc(opt->opts.n + 3, sizeof(*o));
	size_t n = 0;

	for (size_t i = 0; i < opt->opts.n; i++)
		o[n++] = opt->opts.items[i];
	if (opt->topology)
		o[n++] = xasprintf("topology=%s", opt->topology);
	if (opt->rules)
		o[n++] = xasprintf("rules=%s", opt->rules);
	o[n] = NULL;
	return o;
}

static void tell_index(void *arg, const struct pidx *x, double seconds)
{
	const struct cmd_import_opts *opt = arg;

	if (!opt->quiet && x->built)
		util_fprintf_safe(stderr, "indexed %s@%s vs %s@%s: %zu pairs in %.2f s\n",
			x->model.source, x->model.version, x->ref.source,
			x->ref.version, x->n, seconds);
}

static void tell_index_fail(void *arg, const struct candidate *p,
			    const char *why)
{
	(void)arg;
	util_fprintf_safe(stderr, "perfcorr import: warning: not indexed: %s vs %s: ",
		p->model, p->ref);
	util_fputs_safe(why, stderr);
	fputc('\n', stderr);
}

/* --index: the pairs with the source on either side (the data is in:
 * a pair that cannot be paired is a warning, not a failed import). */
static int index_source(struct db *db, const struct cmd_import_opts *opt)
{
	int rc = candidates_index(db, opt->source, NULL, tell_index,
				  tell_index_fail, (void *)opt);

	if (rc >= 0)
		rc = candidates_index(db, NULL, opt->source, tell_index,
				      tell_index_fail, (void *)opt);
	if (rc < 0)
		cli_error(import_cmd.name);
	return rc < 0 ? rc : 0;
}

static void free_opts(const struct cmd_import_opts *opt, const char **o)
{
	for (size_t i = opt->opts.n; o[i]; i++)
		free((char *)o[i]);
	free(o);
}

/* The command after its defaults are set; cmd_import frees opt. */
static int import_run(const struct cli_cmd *cmd, struct cmd_import_opts *opt,
		      int argc, char **argv)
{
	struct cli_list pos;
	struct import_opts io;
	struct db *db;
	const char **iopts;
	int rc, failed = 0;

	if ((rc = cli_parse(cmd, argc, argv, &pos)))
		return rc == 1 ? CLI_OK : rc;
	if (!opt->source || !*opt->source) {
		cli_list_free(&pos);
		return cli_usage_error(cmd->name, "--source NAME is required");
	}
	if (!isnan(opt->clock_mhz) && !(opt->clock_mhz > 0)) {
		cli_list_free(&pos);
		return cli_usage_error(cmd->name, "--clock-mhz must be positive");
	}
	memset(&io, 0, sizeof(io));
	if (opt->cost_unit && !opt->cost) {
		cli_list_free(&pos);
		return cli_usage_error(cmd->name, "--cost-unit needs --cost");
	}
	if (opt->cost && import_cost_parse(opt->cost, opt->cost_unit,
					   &io.cost, &io.cost_unit) < 0) {
		cli_list_free(&pos);
		return cli_usage_error(cmd->name, "%s", pc_error_last());
	}
	if ((rc = cli_open_db(&db, DB_CREATE))) {
		cli_list_free(&pos);
		return rc;
	}
	if (opt->rules && !opt->format)
		opt->format = "regex-log";	/* a rules file names the format */
	iopts = build_opts(opt);
	io.source = opt->source;
	io.kind = opt->kind;
	io.version = opt->version;
	io.format = opt->format;
	io.platform = opt->platform;
	io.clock_hz = opt->clock_mhz * 1e6;
	io.workload = opt->workload;
	io.params = opt->params.items;
	io.meta = opt->meta.items;
	io.map_path = opt->map;
	io.strict_map = opt->strict_map;
	io.calibration = opt->calibration;
	io.replace = opt->replace;
	io.opts = iopts;
	io.warn = warn;
	io.progress = isatty(2) ? progress : NULL;
	for (size_t i = 0; i < pos.n; i++) {
		struct import_result res;
		const char *path = pos.items[i];

		rc = import_file(db, path, &io, &res);
		if (rc == PC_EEXISTS) {
			fprintf(stderr, "perfcorr import: ");
			util_fputs_safe(path, stderr);
			fputs(": ", stderr);
			util_fputs_safe(pc_error_last(), stderr);
			fputs("; nothing to do\n", stderr);
			continue;
		}
		if (rc < 0) {
			cli_error(cmd->name);
			if (rc == PC_EUSAGE) {
				failed = -1;
				break;
			}
			failed = 1;
			continue;
		}
		if (!opt->quiet) {
			fprintf(stderr, "imported ");
			util_fputs_safe(path, stderr);
			fprintf(stderr, " as run %lld (%s): %ld results",
				(long long)res.run_id, res.format, res.results);
			if (res.unmapped)
				fprintf(stderr, ", %ld raw names unmapped "
					"(kept as their own ops)", res.unmapped);
			if (res.derived)
				fprintf(stderr, ", %ld derived", res.derived);
			if (res.warnings)
				fprintf(stderr, ", %ld warnings", res.warnings);
			fputc('\n', stderr);
		}
	}
	if (opt->index && failed >= 0 && index_source(db, opt) < 0)
		failed = 1;
	free_opts(opt, iopts);
	cli_list_free(&pos);
	db_close(db);
	return failed < 0 ? CLI_USAGE : failed ? CLI_FAIL : CLI_OK;
}

int cmd_import(int argc, char **argv)
{
	struct cmd_import_opts opt;
	const struct cli_opt opts[] = {
		{ CLI_STR, "source", 's', &opt.source, "NAME", "source the "
		  "results come from (required), e.g. h100-lab, archsim" },
		{ CLI_STR, "kind", 'k', &opt.kind, "KIND", "roofline, perfsim, "
		  "rtl, emulation or silicon (required for a new source)" },
		{ CLI_STR, "version", 'V', &opt.version, "V", "version of the "
		  "source (model release, git hash); default: from the file, "
		  "else 'unversioned'" },
		{ CLI_STR, "format", 'F', &opt.format, "NAME", "importer "
		  "(default auto: detect from content; see 'perfcorr "
		  "formats')" },
		{ CLI_STR, "platform", 'p', &opt.platform, "P", "platform, "
		  "e.g. H100-SXM5-80GB" },
		{ CLI_DOUBLE, "clock-mhz", 0, &opt.clock_mhz, "F", "clock of "
		  "cycle counts in MHz (needed to pair cycles with time)" },
		{ CLI_STR, "cost", 0, &opt.cost, "AMOUNT", "what the run "
		  "cost: 3.5h, 90min, 120 (wall-clock, or in --cost-unit); "
		  "wins over the tool's own figure (gem5 hostSeconds, "
		  "Verilator walltime, GPGPU-Sim simulation time)" },
		{ CLI_STR, "cost-unit", 0, &opt.cost_unit, "UNIT", "s "
		  "(wall-clock, default), core-h, emu-h or gpu-h (hours of a "
		  "CPU core, an emulator, a GPU)" },
		{ CLI_STR, "workload", 'w', &opt.workload, "KEY", "workload "
		  "key, e.g. llama3-8b/decode/bs=32/seq=2048/bf16" },
		{ CLI_LIST, "param", 'P', &opt.params, "K=V", "workload "
		  "parameter" },
		{ CLI_STR, "map", 0, &opt.map, "FILE", "kernel-name mapping "
		  "rules (JSON) to turn raw names into ops" },
		{ CLI_FLAG, "strict-map", 0, &opt.strict_map, NULL, "an "
		  "unmapped raw name is an error" },
		{ CLI_STR, "topology", 0, &opt.topology, "FILE", "SCALE-Sim "
		  "topology CSV (layer names)" },
		{ CLI_STR, "rules", 0, &opt.rules, "FILE", "regex log rules "
		  "(format regex-log)" },
		{ CLI_LIST, "opt", 'o', &opt.opts, "K=V", "importer-specific "
		  "option" },
		{ CLI_LIST, "meta", 0, &opt.meta, "K=V", "run metadata the "
		  "file does not state, e.g. fp.ignore_eos=true (workload "
		  "fingerprint, docs/statistics.md); wins over the file's" },
		{ CLI_FLAG, "calibration", 0, &opt.calibration, NULL, "the "
		  "run was used to calibrate or train the models paired with "
		  "it: its pairs count as calibration, not held out (perfcorr "
		  "mark)" },
		{ CLI_FLAG, "replace", 0, &opt.replace, NULL, "replace an "
		  "earlier import of the same bytes" },
		{ CLI_FLAG, "index", 0, &opt.index, NULL, "then pair and cache "
		  "every source pair with this source (perfcorr index), so the "
		  "TUI opens them at once" },
		{ CLI_FLAG, "quiet", 'q', &opt.quiet, NULL, "no summary "
		  "lines" },
		CLI_OPT_END
	};
	struct cli_cmd cmd = import_cmd;
	int rc;

	cmd.opts = opts;
	memset(&opt, 0, sizeof(opt));
	opt.clock_mhz = NAN;
	rc = import_run(&cmd, &opt, argc, argv);
	cli_list_free(&opt.params);
	cli_list_free(&opt.opts);
	cli_list_free(&opt.meta);
	return rc;
}
