/* Shared pair-selection options (see cli_sel.h). */
#include "src/cmd/cli_sel.h"

#include <stdio.h>
#include <string.h>

#include "db/db.h"

void cli_sel_init(struct cli_sel *s)
{
	memset(s, 0, sizeof(*s));
	s->max_ref_cv = 0.30;
}

const char *cli_sel_check(const struct cli_sel *s)
{
	if (!s->model || !s->ref)
		return "--model and --ref are required";
	if (!(s->max_ref_cv >= 0))
		return "--max-ref-cv must be >= 0";
	return NULL;
}

void cli_sel_query(const struct cli_sel *s, struct corr_query *q)
{
	q->model = s->model;
	q->ref = s->ref;
	q->metric = s->metric;
	q->op_glob = s->op;
	q->workload_globs = s->workload.items;
	q->model_platform = s->model_platform ? s->model_platform : s->platform;
	q->ref_platform = s->ref_platform ? s->ref_platform : s->platform;
	q->where = s->where.items;
	q->allow_mismatch = s->allow_mismatch.items;
	q->pool = s->pool;
	q->max_ref_cv = s->max_ref_cv;
	q->roofline = s->roofline;
}

void cli_sel_release(struct cli_sel *s)
{
	cli_list_free(&s->where);
	cli_list_free(&s->workload);
	cli_list_free(&s->allow_mismatch);
}

int cli_sel_run(const char *cmd, int (*run)(struct db *db,
		enum out_format fmt, void *ctx), enum out_format fmt,
		void *ctx)
{
	struct db *db;
	int rc;

	if ((rc = cli_open_db(&db, DB_READONLY)))
		return rc;
	if ((rc = run(db, fmt, ctx)) < 0) {
		cli_error(cmd);
		rc = cli_exit_for(rc);
	}
	db_close(db);
	if (rc == CLI_OK && fflush(stdout) != 0)
		return cli_fail(cmd, "cannot write output");
	return rc;
}

int cli_sel_main(const struct cli_cmd *cmd, int argc, char **argv,
		 const struct cli_sel *sel, const char *const *format,
		 int no_csv, const char *(*check)(const void *ctx),
		 int (*run)(struct db *db, enum out_format fmt, void *ctx),
		 void *ctx)
{
	struct cli_list pos;
	enum out_format fmt;
	const char *bad;
	long i;
	int rc;

	if ((rc = cli_parse(cmd, argc, argv, &pos)))
		return rc == 1 ? CLI_OK : rc;
	cli_list_free(&pos);
	if ((bad = cli_sel_check(sel)) || (check && (bad = check(ctx))))
		return cli_usage_error(cmd->name, "%s", bad);
	if ((i = corr_where_bad(sel->where.items)) >= 0)
		return cli_fail(cmd->name, "bad --where '%s' (expected "
				"param.NAME=VALUE, or param.NAME= for workloads "
				"without it)", sel->where.items[i]);
	if (out_parse_format(*format, &fmt) || (no_csv && fmt == OUT_CSV))
		return cli_usage_error(cmd->name, "unknown format '%s'",
				       *format);
	return cli_sel_run(cmd->name, run, fmt, ctx);
}
