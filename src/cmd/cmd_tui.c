/* perfcorr tui: the review TUI (tui/). */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "db/db.h"
#include "src/cmd/cli.h"
#include "src/cmd/cmd.h"
#include "src/base/error.h"
#include "src/base/util.h"
#include "tui/tui.h"

static const char *model_s, *ref_s, *policy_s;
static int ascii_f;

static const struct cli_opt opts[] = {
	{ CLI_STR, "model", 'm', &model_s, "SRC[@V]", "model side (default: "
	  "chosen from the sources present, perfsim vs silicon first)" },
	{ CLI_STR, "ref", 'r', &ref_s, "SRC[@V]", "reference side" },
	{ CLI_STR, "policy", 'p', &policy_s, "FILE", "take the warn/fail "
	  "colour limits from a gate policy" },
	{ CLI_FLAG, "ascii", 0, &ascii_f, NULL, "ASCII plots and lines even "
	  "in a UTF-8 locale" },
	CLI_OPT_END
};

int cmd_tui(int argc, char **argv)
{
	static const struct cli_cmd cmd = {
		.name = "tui",
		.usage = "[--model SRC[@V]] [--ref SRC[@V]] [--policy FILE] "
			 "[--ascii]",
		.summary = "Review discrepancies in a terminal UI: browse, "
			   "search, filter, sort, open the detail and record "
			   "explanations.",
		.details = "Keys: ? shows them all. Views: 1 discrepancies, "
			   "2 summary, 3 trend, 4 runs; Enter detail; a "
			   "annotate; q back/quit. See docs/tui.md.\n"
			   "Environment: NO_COLOR (monochrome), "
			   "PERFCORR_HEADLESS=1 and PERFCORR_SCRIPT=FILE "
			   "(scripted, no terminal), PERFCORR_TIMING=FILE "
			   "(per-key latency).",
		.opts = opts, .min_args = 0, .max_args = 0,
	};
	struct cli_list pos;
	struct tui_opts o = { 0 };
	struct db *db;
	int rc;

	model_s = ref_s = policy_s = NULL;
	ascii_f = 0;
	if ((rc = cli_parse(&cmd, argc, argv, &pos)))
		return rc == 1 ? CLI_OK : rc;
	cli_list_free(&pos);
	/* a database we may not write is reviewed read-only (no
	 * annotations, no pair cache), as reading commands are */
	if (db_open(&db, cli_db_path(), 0) < 0) {
		char *why = xstrdup(pc_error_last());

		if (access(cli_db_path(), R_OK) != 0 ||
		    db_open(&db, cli_db_path(), DB_READONLY) < 0) {
			fputs("perfcorr: ", stderr);
			util_fputs_safe(why, stderr);
			fputc('\n', stderr);
			free(why);
			return CLI_FAIL;
		}
		fputs("perfcorr tui: ", stderr);
		util_fputs_safe(why, stderr);
		fputs(": opened read-only (annotations cannot be saved)\n",
		      stderr);
		free(why);
	}
	o.model = model_s;
	o.ref = ref_s;
	o.policy = policy_s;
	o.ascii = ascii_f;
	rc = tui_run(db, &o);
	db_close(db);
	if (rc < 0) {
		cli_error(cmd.name);
		return cli_exit_for(rc);
	}
	return CLI_OK;
}
