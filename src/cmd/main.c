/*
 * perfcorr: correlate performance models (roofline, perfsim, RTL) with
 * silicon. This file is the command table; start reading here, then
 * db/schema.sql, one importer, src/correlate.c and one TUI view.
 */
#include <gsl/gsl_errno.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "src/cmd/cli.h"
#include "src/cmd/cmd.h"
#include "src/cmd/meta.h"
#include "base/util.h"

/* Usage, perfcorr(1), the per-command man pages and the shell completions
 * are generated from this table and the commands' option tables. */
const struct command cmd_table[] = {
	{ "init", cmd_init, "create an empty database" },
	{ "import", cmd_import, "import result files (any supported format)" },
	{ "formats", cmd_formats, "list the importers and what they read" },
	{ "sources", cmd_sources, "list sources (roofline/perfsim/rtl/emulation/silicon)" },
	{ "runs", cmd_runs, "list imported runs with their provenance" },
	{ "workloads", cmd_workloads, "list workloads and their parameters" },
	{ "export", cmd_export, "export stored results (csv, json)" },
	{ "roofline", cmd_roofline, "roofline of ops on a hardware spec (stored)" },
	{ "compare", cmd_compare, "error statistics: model vs reference" },
	{ "matrix", cmd_matrix, "who disagrees with whom: every source pair, "
	  "the odd one out" },
	{ "trend", cmd_trend, "statistics of every model version, in order" },
	{ "diff", cmd_diff, "what moved between two versions, and why" },
	{ "explain", cmd_explain, "regress the error on workload features" },
	{ "sensitivity", cmd_sensitivity, "does the model move with each knob as the reference does" },
	{ "tiers", cmd_tiers, "accuracy against cost per tier, the cheapest "
	  "that meets the limits" },
	{ "annotate", cmd_annotate, "explain or accept a discrepancy" },
	{ "bundle", cmd_bundle, "a pinned bundle: inputs, hashes, rules and "
	  "the commands that re-derive a table" },
	{ "mark", cmd_mark, "mark what a model was calibrated on (or held "
	  "out)" },
	{ "annotations", cmd_annotations, "list the annotation history" },
	{ "gate", cmd_gate, "judge a model release against a policy" },
	{ "report", cmd_report, "write the review report (md, html, csv, "
	  "json)" },
	{ "tui", cmd_tui, "review discrepancies in a terminal UI" },
	{ "index", cmd_index, "prepare the pair cache the TUI opens from" },
	{ "watch", cmd_watch, "ingest a drop directory continuously" },
	{ "db", cmd_db, "copy a whole study between databases (SQLite, "
	  "PostgreSQL)" },
	{ NULL, NULL, NULL },
};

static void usage(FILE *fp)
{
	fprintf(fp, "usage: perfcorr [--db PATH] COMMAND [options]\n\n"
		"Correlate performance models with RTL and silicon.\n"
		"The database is --db PATH, else $PERFCORR_DB, else "
		"./perfcorr.db.\n\ncommands:\n");
	for (const struct command *c = cmd_table; c->name; c++)
		fprintf(fp, "  %-12s %s\n", c->name, c->summary);
	fprintf(fp, "\n'perfcorr COMMAND --help' shows a command's options, "
		"'perfcorr help COMMAND'\nits manual page.\n");
}

/* "perfcorr: unknown command 'compar': did you mean 'compare'?", and
 * the same for the global options; then the usage. */
static int unknown(const char *what, const char *got)
{
	static const char *const opts[] = { "--db", "--help", "--version" };
	const char *names[sizeof(cmd_table) / sizeof(cmd_table[0]) + 3];
	const char *best;
	size_t n = 0;

	if (got[0] == '-') {
		for (size_t k = 0; k < 3; k++)
			names[n++] = opts[k];
	} else {
		for (const struct command *c = cmd_table; c->name; c++)
			names[n++] = c->name;
	}
	best = util_did_you_mean(got, names, n);
	fprintf(stderr, "perfcorr: unknown %s '%s'", what, got);
	if (best)
		fprintf(stderr, ": did you mean '%s'?", best);
	fputs("\n", stderr);
	usage(stderr);
	return CLI_USAGE;
}

int main(int argc, char **argv)
{
	int i = 1;

	setlocale(LC_CTYPE, "");
	gsl_set_error_handler_off();
	while (i < argc && argv[i][0] == '-') {
		if (!strcmp(argv[i], "--db") && i + 1 < argc) {
			cli_set_db_path(argv[i + 1]);
			i += 2;
		} else if (!strncmp(argv[i], "--db=", 5)) {
			cli_set_db_path(argv[i] + 5);
			i++;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			return CLI_OK;
		} else if (!strcmp(argv[i], "--version")) {
			meta_version(stdout);
			return CLI_OK;
		} else {
			return unknown("option", argv[i]);
		}
	}
	if (i >= argc) {
		usage(stderr);
		return CLI_USAGE;
	}
	if (!strcmp(argv[i], "help")) {
		if (i + 1 < argc)
			return meta_help(argv[i + 1]);
		usage(stdout);
		return CLI_OK;
	}
	/* Hidden: the generators behind the man pages and completions. */
	if (!strcmp(argv[i], "__man"))
		return manpage_main(argc - i, argv + i);
	if (!strcmp(argv[i], "__complete"))
		return complete_main(argc - i, argv + i);
	for (const struct command *c = cmd_table; c->name; c++)
		if (!strcmp(c->name, argv[i]))
			return c->fn(argc - i, argv + i);
	return unknown("command", argv[i]);
}
