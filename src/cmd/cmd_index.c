/* perfcorr index: prepare (or list, or drop) the pair cache. */
#include <stdio.h>

#include "db/db.h"
#include "db/paircache.h"
#include "src/pairidx/candidates.h"
#include "src/cmd/cli.h"
#include "src/cmd/cmd.h"
#include "base/error.h"
#include "src/pairidx/pairidx.h"
#include "base/util.h"

/* The options, filled by cli_parse from the table in cmd_index, and
 * what the callbacks count. */
struct cmd_index_opts {
	const char *model, *ref;
	int list, clear, quiet;
	int failed_pairs;
};

static const struct cli_cmd index_cmd = {
	.name = "index",
	.usage = "[--model SRC[@V]] [--ref SRC[@V]] [--list] [--clear]",
	.summary = "Pair and cache every source pair the TUI offers (perfsim "
		   "vs silicon, roofline vs silicon, rtl vs silicon ...), so "
		   "the TUI opens a million pairs in milliseconds.",
	.details = "The TUI builds a pair's index on its first open and "
		   "stores it in the database (table pair_cache); this "
		   "command does that ahead of time, e.g. after a nightly "
		   "import. Entries follow the runs they came from: a new "
		   "run makes a new entry, a deleted or replaced run drops "
		   "them all; the newest 8 are kept. See docs/tui.md.\nExit "
		   "status: 0 every pair indexed (or pairing nothing), 1 a "
		   "pair could not be paired (named on stderr, the others "
		   "are indexed) or a database error, 2 usage.",
	.min_args = 0, .max_args = 0,
};

static void print_entry(void *arg, int64_t id, const char *label,
			const char *created_at, int64_t bytes)
{
	(void)arg;
	util_fprintf_safe(stdout, "%lld\t%s\t%s\t%.1f MB\n", (long long)id, label, created_at,
	       (double)bytes / 1e6);
}

static void tell(void *arg, const struct pidx *x, double seconds)
{
	const struct cmd_index_opts *opt = arg;

	if (x->repaired)
		util_fprintf_safe(stderr, "perfcorr index: %s: paired again and "
				  "replaced\n", x->repaired);
	if (opt->quiet)
		return;
	util_fprintf_safe(stderr, "%s@%s vs %s@%s: %zu pairs, %s in %.2f s\n",
		x->model.source, x->model.version, x->ref.source,
		x->ref.version, x->n, !x->built ? "already cached" :
		x->cached ? "indexed" : "paired (not cached: read-only?)",
		seconds);
}

static void tell_fail(void *arg, const struct candidate *p, const char *why)
{
	struct cmd_index_opts *opt = arg;

	util_fprintf_safe(stderr, "perfcorr index: %s vs %s: ", p->model, p->ref);
	util_fputs_safe(why, stderr);
	fputs(" (skipped)\n", stderr);
	opt->failed_pairs++;
}

static int index_all(struct db *db, struct cmd_index_opts *opt)
{
	int rc = candidates_index(db, opt->model, opt->ref, tell, tell_fail,
				  opt);

	if (rc == 0)
		rc = pc_error_set(PC_ENOTFOUND, "no model/reference pair "
				  "matches anything");
	return rc < 0 ? rc : 0;
}

int cmd_index(int argc, char **argv)
{
	struct cmd_index_opts opt = { 0 };
	const struct cli_opt opts[] = {
		{ CLI_STR, "model", 'm', &opt.model, "SRC[@V]", "only pairs "
		  "with this model side" },
		{ CLI_STR, "ref", 'r', &opt.ref, "SRC[@V]", "only pairs with "
		  "this reference side" },
		{ CLI_FLAG, "list", 'l', &opt.list, NULL, "list what is "
		  "cached" },
		{ CLI_FLAG, "clear", 0, &opt.clear, NULL, "drop the whole "
		  "cache" },
		{ CLI_FLAG, "quiet", 'q', &opt.quiet, NULL, "no line per pair" },
		CLI_OPT_END
	};
	struct cli_cmd cmd = index_cmd;
	struct cli_list pos;
	struct db *db;
	int rc;

	cmd.opts = opts;
	if ((rc = cli_parse(&cmd, argc, argv, &pos)))
		return rc == 1 ? CLI_OK : rc;
	cli_list_free(&pos);
	if ((rc = cli_open_db(&db, 0)))
		return rc;
	if (opt.clear)
		rc = db_pcache_clear(db);
	else if (opt.list)
		rc = db_pcache_list(db, print_entry, NULL);
	else
		rc = index_all(db, &opt);
	db_close(db);
	if (rc < 0) {
		cli_error(cmd.name);
		return cli_exit_for(rc);
	}
	return opt.failed_pairs ? CLI_FAIL : CLI_OK;
}
