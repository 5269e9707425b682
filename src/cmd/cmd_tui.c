/* perfcorr tui: the review TUI (tui/). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db/db.h"
#include "src/cmd/cli.h"
#include "src/cmd/cmd.h"
#include "src/base/error.h"
#include "src/base/strbuf.h"
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

/* s as one shell word: as is when plain, else in single quotes. */
static char *shell_word(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	if (*s && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			 "0123456789/._-+=:@,") == strlen(s))
		return xstrdup(s);
	strbuf_addch(&sb, '\'');
	for (; *s; s++)
		if (*s == '\'')
			strbuf_addstr(&sb, "'\\''");
		else
			strbuf_addch(&sb, *s);
	strbuf_addch(&sb, '\'');
	return strbuf_detach(&sb);
}

/* On closing: where the review is and what to run next (stderr). */
static void next_steps(const struct tui_opts *o)
{
	char *abs = realpath(cli_db_path(), NULL);
	char *q = shell_word(abs ? abs : cli_db_path());

	fputs("perfcorr tui: the review is in ", stderr);
	util_fputs_safe(abs ? abs : cli_db_path(), stderr);
	fputs("\nnext:\n", stderr);
	if (o->model_out[0]) {
		fputs("  perfcorr --db ", stderr);
		util_fputs_safe(q, stderr);
		fputs(" report --model ", stderr);
		util_fputs_safe(o->model_out, stderr);
		fputs(" --ref ", stderr);
		util_fputs_safe(o->ref_out, stderr);
		fputs(" -o review.html\n", stderr);
	}
	fputs("  perfcorr --db ", stderr);
	util_fputs_safe(q, stderr);
	fputs(" gate --policy ", stderr);
	util_fputs_safe(o->policy ? o->policy : "POLICY.json", stderr);
	if (o->model_out[0]) {
		fputs(" --model ", stderr);
		util_fputs_safe(o->model_out, stderr);
	}
	fputc('\n', stderr);
	free(q);
	free(abs);
}

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
	next_steps(&o);
	return CLI_OK;
}
