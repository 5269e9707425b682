/* perfcorr tui: the review TUI (tui/). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db/db.h"
#include "src/cmd/cli.h"
#include "src/cmd/cmd.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "tui/keyref.h"
#include "tui/tui.h"

/* The options, filled by cli_parse from the table in cmd_tui. */
struct cmd_tui_opts {
	const char *model, *ref, *policy, *roofline, *slo;
	struct cli_list allow;	/* --allow-mismatch (issue 37) */
	int ascii;
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
		for (const char *const *a = o->allow_mismatch; a && *a; a++) {
			char *w = shell_word(*a);

			fputs(" --allow-mismatch ", stderr);
			util_fputs_safe(w, stderr);
			free(w);
		}
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

static const struct cli_cmd tui_cmd = {
	.name = "tui",
	.usage = "[--model SRC[@V]] [--ref SRC[@V]] [--policy FILE] "
		 "[--allow-mismatch FIELD]... [--slo SPEC] [--ascii]",
	.summary = "Review discrepancies in a terminal UI: browse, "
		   "search, filter, sort, open the detail and record "
		   "explanations.",
	.details = "Every view and key is listed under KEYS below (from the "
		   "TUI's own tables, as ? shows them). See docs/tui.md.\n"
		   "Environment: NO_COLOR (monochrome), "
		   "PERFCORR_HEADLESS=1 and PERFCORR_SCRIPT=FILE "
		   "(scripted, no terminal), PERFCORR_TIMING=FILE "
		   "(per-key latency).",
	.extra_title = "KEYS",
	.min_args = 0, .max_args = 0,
};

int cmd_tui(int argc, char **argv)
{
	struct cmd_tui_opts opt = { 0 };
	const struct cli_opt opts[] = {
		{ CLI_STR, "model", 'm', &opt.model, "SRC[@V]", "model side "
		  "(default: chosen from the sources present, perfsim vs "
		  "silicon first)" },
		{ CLI_STR, "ref", 'r', &opt.ref, "SRC[@V]", "reference side" },
		{ CLI_STR, "roofline", 0, &opt.roofline, "SRC[@V]", "the "
		  "roofline that bounds both sides (default: a roofline side, "
		  "else every roofline source)" },
		{ CLI_STR, "policy", 'p', &opt.policy, "FILE", "take the "
		  "warn/fail colour limits from a gate policy" },
		{ CLI_LIST, "allow-mismatch", 0, &opt.allow, "FIELD", "pair "
		  "runs whose workload fingerprints differ in FIELD "
		  "(repeatable; over the policy's allow_mismatch)" },
		{ CLI_STR, "slo", 0, &opt.slo, "SPEC", "limits for the "
		  "Verdicts view (6): METRIC=VALUE[UNIT],... or "
		  "mlperf:BENCHMARK, as compare --slo (default: the "
		  "policy's slo)" },
		{ CLI_FLAG, "ascii", 0, &opt.ascii, NULL, "ASCII plots and "
		  "lines even in a UTF-8 locale" },
		CLI_OPT_END
	};
	struct cli_cmd cmd = tui_cmd;
	struct cli_list pos;
	struct tui_opts o = { 0 };
	struct db *db;
	int rc;

	cmd.opts = opts;
	cmd.extra = keyref_text();	/* generated, static */
	if ((rc = cli_parse(&cmd, argc, argv, &pos)))
		return cli_list_free(&opt.allow), rc == 1 ? CLI_OK : rc;
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
			cli_list_free(&opt.allow);
			return CLI_FAIL;
		}
		fputs("perfcorr tui: ", stderr);
		util_fputs_safe(why, stderr);
		fputs(": opened read-only (annotations cannot be saved)\n",
		      stderr);
		free(why);
	}
	o.model = opt.model;
	o.ref = opt.ref;
	o.policy = opt.policy;
	o.roofline = opt.roofline;
	o.slo = opt.slo;
	o.allow_mismatch = opt.allow.n ? opt.allow.items : NULL;
	o.ascii = opt.ascii;
	rc = tui_run(db, &o);
	db_close(db);
	if (rc < 0) {
		cli_list_free(&opt.allow);
		cli_error(cmd.name);
		return cli_exit_for(rc);
	}
	next_steps(&o);
	cli_list_free(&opt.allow);
	return CLI_OK;
}
