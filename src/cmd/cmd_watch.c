/* perfcorr watch: the drop-directory ingester (docs/service.md). */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "db/db.h"
#include "src/pairidx/candidates.h"
#include "src/cmd/cli.h"
#include "src/cmd/cmd.h"
#include "base/error.h"
#include "src/pairidx/pairidx.h"
#include "base/util.h"
#include "src/watch/watch.h"

/* The options, filled by cli_parse from the table in cmd_watch. */
struct cmd_watch_opts {
	double interval;
	int once, index;
	struct cli_list allow;
};

static volatile sig_atomic_t stop_flag;

static const struct cli_cmd watch_cmd = {
	.name = "watch",
	.usage = "[--interval S] [--once] [--index] [--allow DIR]... DIR",
	.summary = "Ingest a drop directory: each data file NAME with a "
		   "manifest NAME.perfcorr.json is imported once both stop "
		   "changing, then moved to DIR/imported/ (or DIR/failed/ with "
		   "NAME.error).",
	.details = "The manifest is a JSON object with source (required), "
		   "kind, version, format, platform, clock_mhz, workload, "
		   "params {}, opts {}, map, size, sha256; see "
		   "docs/service.md. Files a manifest names (map, opts rules "
		   "and topology) must lie inside DIR or an --allow folder; "
		   "symbolic links, FIFOs and devices are refused.\nOne log "
		   "line per file on stdout. SIGTERM or SIGINT stops after "
		   "the current file. Re-delivered bytes are recognised by "
		   "hash and not imported twice.\nExit status: 0 stopped "
		   "cleanly, 1 the directory or database is unusable (with "
		   "--once also: a delivery had to be left for a retry, e.g. "
		   "the disk is full), 2 usage.",
	.min_args = 1, .max_args = 1,
};

static void on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

static void log_line(void *ctx, enum watch_event ev, const char *name,
		     const char *text)
{
	static const char *const what[] = {
		[WATCH_IMPORTED] = "imported", [WATCH_DUPLICATE] = "duplicate",
		[WATCH_FAILED] = "failed", [WATCH_RETRY] = "retry",
		[WATCH_WAITING] = "waiting",
	};
	char ts[32];

	((long *)ctx)[ev]++;	/* the counts of each event */
	util_now_iso(ts, sizeof(ts));
	printf("%s %s ", ts, what[ev]);
	util_fputs_safe(name, stdout);
	fputs(": ", stdout);
	util_fputs_safe(text, stdout);
	putchar('\n');
	fflush(stdout);
}

static void log_index(void *ctx, const struct pidx *x, double seconds)
{
	char ts[32];

	(void)ctx;
	if (!x->built)
		return;
	util_now_iso(ts, sizeof(ts));
	util_fprintf_safe(stdout, "%s indexed %s@%s vs %s@%s: %zu pairs in %.2f s\n", ts,
	       x->model.source, x->model.version, x->ref.source,
	       x->ref.version, x->n, seconds);
	fflush(stdout);
}

static void log_index_fail(void *ctx, const struct candidate *p,
			   const char *why)
{
	char ts[32];

	(void)ctx;
	util_now_iso(ts, sizeof(ts));
	util_fprintf_safe(stdout, "%s not-indexed %s vs %s: ", ts, p->model,
			  p->ref);
	util_fputs_safe(why, stdout);
	putchar('\n');
	fflush(stdout);
}

static void nap(double seconds)
{
	struct timespec ts;

	ts.tv_sec = (time_t)seconds;
	ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
	/* a signal interrupts the sleep (no SA_RESTART) */
	nanosleep(&ts, NULL);
}

static void catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
}

int cmd_watch(int argc, char **argv)
{
	struct cmd_watch_opts opt;
	const struct cli_opt opts[] = {
		{ CLI_DOUBLE, "interval", 'i', &opt.interval, "S", "seconds "
		  "between scans (default 2); a delivery is imported once it "
		  "is unchanged over one interval" },
		{ CLI_FLAG, "once", 0, &opt.once, NULL, "scan twice (one "
		  "interval apart), import what is complete, then exit" },
		{ CLI_FLAG, "index", 0, &opt.index, NULL, "after a scan that "
		  "imported something, pair and cache every source pair "
		  "(perfcorr index), so the TUI opens them at once" },
		{ CLI_LIST, "allow", 0, &opt.allow, "DIR", "a folder outside "
		  "DIR whose files manifests may name (map, rules, topology; "
		  "repeatable); without it they must lie inside DIR" },
		CLI_OPT_END
	};
	struct cli_cmd cmd = watch_cmd;
	struct cli_list pos;
	struct db *db;
	struct watch *w;
	long counts[WATCH_WAITING + 1] = { 0 }, indexed = 0;
	int rc, ret = CLI_OK;

	cmd.opts = opts;
	memset(&opt, 0, sizeof(opt));
	opt.interval = 2;
	if ((rc = cli_parse(&cmd, argc, argv, &pos)))
		return rc == 1 ? CLI_OK : rc;
	if (!(opt.interval > 0) || opt.interval > 86400) {
		cli_list_free(&pos);
		cli_list_free(&opt.allow);
		return cli_usage_error(cmd.name, "--interval must be between 0 "
				       "and 86400 seconds");
	}
	if ((rc = cli_open_db(&db, DB_CREATE))) {
		cli_list_free(&pos);
		cli_list_free(&opt.allow);
		return rc;
	}
	if (watch_new(&w, db, pos.items[0], opt.allow.items, log_line,
		      counts) < 0) {
		cli_error(cmd.name);
		cli_list_free(&pos);
		cli_list_free(&opt.allow);
		db_close(db);
		return CLI_FAIL;
	}
	stop_flag = 0;
	catch_signals();
	fputs("perfcorr watch: watching '", stderr);
	util_fputs_safe(pos.items[0], stderr);
	fprintf(stderr, "' every %g s\n", opt.interval);
	for (int scans = 0; !stop_flag; scans++) {
		counts[WATCH_RETRY] = 0;	/* what the last scan left */
		if (watch_scan(w, &stop_flag) < 0) {
			cli_error(cmd.name);
			ret = CLI_FAIL;
			break;
		}
		/* a failed index is logged, not fatal: the data is in */
		if (opt.index && counts[WATCH_IMPORTED] > indexed &&
		    !stop_flag) {
			indexed = counts[WATCH_IMPORTED];
			if (candidates_index(db, NULL, NULL, log_index,
					     log_index_fail, NULL) < 0)
				cli_error(cmd.name);
		}
		if (opt.once && scans == 1)
			break;
		if (!stop_flag)
			nap(opt.interval);
	}
	if (stop_flag)
		fprintf(stderr, "perfcorr watch: stopping on signal\n");
	/* --once (cron): a delivery the database could not take (a full
	 * disk, a lock held for minutes) is not done; say so in the status */
	if (opt.once && ret == CLI_OK && counts[WATCH_RETRY] > 0) {
		fprintf(stderr, "perfcorr watch: %ld deliver%s could not be "
			"stored (the 'retry' lines say why); left in '",
			counts[WATCH_RETRY], counts[WATCH_RETRY] == 1 ? "y" :
			"ies");
		util_fputs_safe(pos.items[0], stderr);
		fputs("' for the next run\n", stderr);
		ret = CLI_FAIL;
	}
	watch_free(w);
	cli_list_free(&pos);
	cli_list_free(&opt.allow);
	db_close(db);
	return ret;
}
