/* perfcorr import: files -> runs, one transaction per file. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db/db.h"
#include "src/candidates.h"
#include "src/cmd/cli.h"
#include "src/cmd/cmd.h"
#include "src/base/error.h"
#include "src/import.h"
#include "src/pairidx.h"
#include "src/base/strbuf.h"
#include "src/base/util.h"

static struct {
	const char *source, *kind, *version, *format, *platform, *workload;
	const char *map, *topology, *rules;
	double clock_mhz;
	int strict_map, replace, quiet, index;
	struct cli_list params, opts;
} a;

static const struct cli_opt opts[] = {
	{ CLI_STR, "source", 's', &a.source, "NAME", "source the results come "
	  "from (required), e.g. h100-lab, archsim" },
	{ CLI_STR, "kind", 'k', &a.kind, "KIND", "roofline, perfsim, rtl or "
	  "silicon (required for a new source)" },
	{ CLI_STR, "version", 'V', &a.version, "V", "version of the source "
	  "(model release, git hash); default: from the file, else "
	  "'unversioned'" },
	{ CLI_STR, "format", 'F', &a.format, "NAME", "importer (default auto: "
	  "detect from content; see 'perfcorr formats')" },
	{ CLI_STR, "platform", 'p', &a.platform, "P", "platform, e.g. "
	  "H100-SXM5-80GB" },
	{ CLI_DOUBLE, "clock-mhz", 0, &a.clock_mhz, "F", "clock of cycle "
	  "counts in MHz (needed to pair cycles with time)" },
	{ CLI_STR, "workload", 'w', &a.workload, "KEY", "workload key, e.g. "
	  "llama3-8b/decode/bs=32/seq=2048/bf16" },
	{ CLI_LIST, "param", 'P', &a.params, "K=V", "workload parameter" },
	{ CLI_STR, "map", 0, &a.map, "FILE", "kernel-name mapping rules (JSON)"
	  " to turn raw names into ops" },
	{ CLI_FLAG, "strict-map", 0, &a.strict_map, NULL, "an unmapped raw "
	  "name is an error" },
	{ CLI_STR, "topology", 0, &a.topology, "FILE", "SCALE-Sim topology CSV "
	  "(layer names)" },
	{ CLI_STR, "rules", 0, &a.rules, "FILE", "regex log rules (format "
	  "regex-log)" },
	{ CLI_LIST, "opt", 'o', &a.opts, "K=V", "importer-specific option" },
	{ CLI_FLAG, "replace", 0, &a.replace, NULL, "replace an earlier import "
	  "of the same bytes" },
	{ CLI_FLAG, "index", 0, &a.index, NULL, "then pair and cache every "
	  "source pair with this source (perfcorr index), so the TUI opens "
	  "them at once" },
	{ CLI_FLAG, "quiet", 'q', &a.quiet, NULL, "no summary lines" },
	CLI_OPT_END
};

static const struct cli_cmd cmd = {
	.name = "import",
	.usage = "--source NAME [--kind KIND] [options] FILE...",
	.summary = "Import result files into the database ('-' reads stdin). "
		   "Each file is one run, stored in one transaction: on any "
		   "error nothing of that file is stored.",
	.details = "Values are normalised to SI units (cycles stay cycles, "
		   "with the run's clock).\nThe same bytes imported twice into "
		   "a source are recognised (sha256) and skipped.\nExit status:"
		   " 0 all files imported or already present, 1 a file failed,"
		   " 2 usage.",
	.opts = opts, .min_args = 1, .max_args = -1,
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
	fprintf(stderr, "\rimporting %s: %3d%% (%ld results)", path,
		(int)(100.0 * (double)done / (double)total), results);
}

static const char **build_opts(void)
{
	const char **o = xcalloc(a.opts.n + 3, sizeof(*o));
	size_t n = 0;

	for (size_t i = 0; i < a.opts.n; i++)
		o[n++] = a.opts.items[i];
	if (a.topology)
		o[n++] = xasprintf("topology=%s", a.topology);
	if (a.rules)
		o[n++] = xasprintf("rules=%s", a.rules);
	o[n] = NULL;
	return o;
}

static void tell_index(void *arg, const struct pidx *x, double seconds)
{
	(void)arg;
	if (!a.quiet && x->built)
		fprintf(stderr, "indexed %s@%s vs %s@%s: %zu pairs in %.2f s\n",
			x->model.source, x->model.version, x->ref.source,
			x->ref.version, x->n, seconds);
}

static void tell_index_fail(void *arg, const struct corr_pair *p,
			    const char *why)
{
	(void)arg;
	fprintf(stderr, "perfcorr import: warning: not indexed: %s vs %s: ",
		p->model, p->ref);
	util_fputs_safe(why, stderr);
	fputc('\n', stderr);
}

/* --index: the pairs with the source on either side (the data is in:
 * a pair that cannot be paired is a warning, not a failed import). */
static int index_source(struct db *db)
{
	int rc = corr_candidates_index(db, a.source, NULL, tell_index,
				       tell_index_fail, NULL);

	if (rc >= 0)
		rc = corr_candidates_index(db, NULL, a.source, tell_index,
					   tell_index_fail, NULL);
	if (rc < 0)
		cli_error(cmd.name);
	return rc < 0 ? rc : 0;
}

static void free_opts(const char **o)
{
	for (size_t i = a.opts.n; o[i]; i++)
		free((char *)o[i]);
	free(o);
}

int cmd_import(int argc, char **argv)
{
	struct cli_list pos;
	struct import_opts io;
	struct db *db;
	const char **iopts;
	int rc, failed = 0;

	memset(&a, 0, sizeof(a));
	a.clock_mhz = NAN;
	if ((rc = cli_parse(&cmd, argc, argv, &pos)))
		return rc == 1 ? CLI_OK : rc;
	if (!a.source || !*a.source) {
		cli_list_free(&pos);
		return cli_usage_error(cmd.name, "--source NAME is required");
	}
	if (!isnan(a.clock_mhz) && !(a.clock_mhz > 0)) {
		cli_list_free(&pos);
		return cli_usage_error(cmd.name, "--clock-mhz must be positive");
	}
	if ((rc = cli_open_db(&db, DB_CREATE))) {
		cli_list_free(&pos);
		return rc;
	}
	if (a.rules && !a.format)
		a.format = "regex-log";	/* a rules file names the format */
	iopts = build_opts();
	memset(&io, 0, sizeof(io));
	io.source = a.source;
	io.kind = a.kind;
	io.version = a.version;
	io.format = a.format;
	io.platform = a.platform;
	io.clock_hz = a.clock_mhz * 1e6;
	io.workload = a.workload;
	io.params = a.params.items;
	io.map_path = a.map;
	io.strict_map = a.strict_map;
	io.replace = a.replace;
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
			cli_error(cmd.name);
			if (rc == PC_EUSAGE) {
				failed = -1;
				break;
			}
			failed = 1;
			continue;
		}
		if (!a.quiet) {
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
	if (a.index && failed >= 0 && index_source(db) < 0)
		failed = 1;
	free_opts(iopts);
	cli_list_free(&pos);
	cli_list_free(&a.params);
	cli_list_free(&a.opts);
	db_close(db);
	return failed < 0 ? CLI_USAGE : failed ? CLI_FAIL : CLI_OK;
}
