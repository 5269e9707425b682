/* perfcorr db copy: a whole study from one database into another, either
 * engine (issue 22; db/dbcopy.h, docs/server.md). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db/db.h"
#include "db/dbcopy.h"
#include "db/query.h"
#include "base/error.h"
#include "base/sha256.h"
#include "base/util.h"
#include "src/cmd/cli.h"
#include "src/cmd/cmd.h"
#include "src/out/out.h"

struct cmd_db_opts {
	const char *from, *to;
	int replace;
};

static ssize_t sha_write(void *cookie, const char *buf, size_t n)
{
	sha256_update(cookie, buf, n);
	return (ssize_t)n;
}

/* The sha256 of `export results` (CSV) as read on db's connection, in
 * the transaction open there. */
static int export_sha(struct db *db, char hex[65])
{
	cookie_io_functions_t io = { .write = sha_write };
	struct sha256 s;
	struct db_cursor *c;
	FILE *fp;
	long rows;

	sha256_init(&s);
	if (db_list_open_results(&c, db, NULL, 0) < 0)
		return PC_EDB;
	if (!(fp = fopencookie(&s, "w", io))) {
		db_cursor_close(c);
		return pc_error_set(PC_EIO, "cannot checksum the export");
	}
	rows = out_cursor(fp, c, OUT_CSV);
	db_cursor_close(c);
	fclose(fp);	/* flushes into s */
	if (rows < 0)
		return PC_EDB;
	sha256_final_hex(&s, hex);
	return 0;
}

/* A SQLite target this command created: removed again when the copy
 * fails (a failed copy leaves no half database behind). */
static void remove_new(const char *path)
{
	char side[4096];

	unlink(path);
	snprintf(side, sizeof(side), "%s-wal", path);
	unlink(side);
	snprintf(side, sizeof(side), "%s-shm", path);
	unlink(side);
	snprintf(side, sizeof(side), "%s-checked", path);
	unlink(side);
}

/* A new SQLite target is written as TO.copying-PID and takes its name
 * only once committed and closed: a copy killed midway leaves no TO (a
 * re-run then needs no --replace), only that temporary. link() refuses a
 * TO made meanwhile by someone else instead of replacing it. */
static int publish(const char *tmp, const char *to)
{
	struct stat sb;
	char side[4096];

	snprintf(side, sizeof(side), "%s-wal", tmp);
	if (stat(side, &sb) == 0 && sb.st_size > 0)
		return pc_error_set(PC_EDB, "--to '%s': the copy's log was not "
				    "checkpointed at close", tmp);
	unlink(side);
	snprintf(side, sizeof(side), "%s-shm", tmp);
	unlink(side);
	snprintf(side, sizeof(side), "%s-checked", tmp);
	unlink(side);	/* the damage-check stamp names the path */
	if (link(tmp, to) != 0)
		return pc_error_set(PC_EIO, "--to '%s': cannot create it: %s",
				    to, strerror(errno));
	unlink(tmp);
	return 0;
}

static int copy(const char *name, const struct cmd_db_opts *opt)
{
	struct dbcopy_count counts[DBCOPY_NTABLES];
	struct db *src = NULL, *dst = NULL;
	struct stat sb;
	char hs[65], hd[65];
	const char *held;
	int64_t rows;
	int rc, created = !db_is_server(opt->to) && stat(opt->to, &sb) != 0;
	char *tmp = created ? xasprintf("%s.copying-%ld", opt->to,
					(long)getpid()) : NULL;
	const char *to = tmp ? tmp : opt->to;
	char side_msg[4096];

	if (db_open(&src, opt->from, DB_READONLY) < 0) {
		pc_error_prefix("--from");
		cli_error(name);
		free(tmp);
		return CLI_FAIL;
	}
	if (tmp)
		remove_new(tmp);	/* a leftover of this pid's */
	if (db_open(&dst, to, DB_CREATE) < 0) {
		pc_error_prefix("--to");
		cli_error(name);
		db_close(src);
		if (created)
			remove_new(tmp);
		free(tmp);
		return CLI_FAIL;
	}
	rc = dbcopy_begin(src, dst, opt->replace, &held, &rows);
	if (rc == 1) {
		fprintf(stderr, "perfcorr %s: --to '%s' holds a study already "
			"(table %s: %lld rows): copy into a new database, or "
			"give --replace to delete what it holds first; nothing "
			"was changed\n", name, db_path(dst), held,
			(long long)rows);
		db_close(src);
		db_close(dst);
		return CLI_FAIL;
	}
	if (rc == 0)
		rc = dbcopy_tables(src, dst, counts);
	if (rc == 0 && ((rc = export_sha(src, hs)) < 0 ||
			(rc = export_sha(dst, hd)) < 0))
		pc_error_prefix("checksum of export results");
	if (rc == 0) {
		printf("%-20s %12s %12s\n", "table", "from", "to");
		for (size_t i = 0; i < DBCOPY_NTABLES; i++)
			printf("%-20s %12lld %12lld\n", counts[i].table,
			       (long long)counts[i].from,
			       (long long)counts[i].to);
		printf("export results sha256\n  from %s\n  to   %s\n", hs, hd);
		if (strcmp(hs, hd))
			rc = pc_error_set(PC_EDB, "the checksums of export "
					  "results differ between --from and "
					  "--to: the copy was rolled back");
	}
	if (rc < 0)	/* again after a failed begin: harmless */
		dbcopy_end(src, dst, rc);
	else if (rc == 0 && (rc = dbcopy_end(src, dst, 0)) < 0)
		pc_error_prefix("--to: committing");
	if (rc == 0)
		snprintf(side_msg, sizeof(side_msg), "%s", db_path(src));
	db_close(src);
	db_close(dst);
	if (rc == 0 && created)
		rc = publish(tmp, opt->to);
	if (rc == 0)
		fprintf(stderr, "perfcorr %s: copied '%s' into '%s'\n", name,
			side_msg, opt->to);
	if (rc < 0) {
		cli_error(name);
		if (created)
			remove_new(tmp);
		free(tmp);
		return CLI_FAIL;
	}
	free(tmp);
	return fflush(stdout) ? cli_fail(name, "cannot write output") :
				CLI_OK;
}

int cmd_db(int argc, char **argv)
{
	struct cmd_db_opts opt = { 0 };
	const struct cli_opt opts[] = {
		{ CLI_STR, "from", 0, &opt.from, "DB", "the database to copy: "
		  "a SQLite file or a postgresql:// URI (read in one "
		  "snapshot, never changed)" },
		{ CLI_STR, "to", 0, &opt.to, "DB", "the database to fill: a "
		  "SQLite file (created when absent) or a postgresql:// URI; "
		  "it must hold no study" },
		{ CLI_FLAG, "replace", 0, &opt.replace, NULL, "delete the "
		  "study --to holds first (in the same transaction: a failed "
		  "copy leaves it as it was)" },
		CLI_OPT_END
	};
	const struct cli_cmd cmd = {
		.name = "db", .usage = "copy --from DB --to DB [--replace]",
		.summary = "Copy a whole study from one database into another: "
			   "SQLite to PostgreSQL when a team grows, PostgreSQL "
			   "to SQLite to take a snapshot home.",
		.details = "Copies sources, runs (provenance, clocks), "
			   "workloads and their parameters, ops and raw names, "
			   "metrics, results, annotations, gate evaluations "
			   "and reviews, ids kept, in one transaction on --to; "
			   "the pair cache is rebuilt there, not copied. "
			   "Verified before the commit: rows per table on both "
			   "sides and the sha256 of 'export results' read from "
			   "each, printed; a difference rolls --to back (exit "
			   "1). --to must hold no study unless --replace.",
		.opts = opts, .min_args = 1, .max_args = 1,
	};
	struct cli_list pos;
	int rc;

	if ((rc = cli_parse(&cmd, argc, argv, &pos)))
		return rc == 1 ? CLI_OK : rc;
	if (strcmp(pos.items[0], "copy")) {
		rc = cli_usage_error(cmd.name, "unknown subcommand '%s' "
				     "(expected 'copy')", pos.items[0]);
		cli_list_free(&pos);
		return rc;
	}
	cli_list_free(&pos);
	if (!opt.from || !opt.to)
		return cli_usage_error(cmd.name, "copy needs --from DB and "
				       "--to DB");
	if (!strcmp(opt.from, opt.to))
		return cli_usage_error(cmd.name, "--from and --to are the same "
				       "database '%s'", opt.from);
	return copy("db copy", &opt);
}
