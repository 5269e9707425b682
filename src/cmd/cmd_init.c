/* perfcorr init: create (or migrate) the database. */
#include <stdio.h>

#include "db/db.h"
#include "src/cmd/cli.h"
#include "src/cmd/cmd.h"

static const struct cli_opt opts[] = { CLI_OPT_END };

static const struct cli_cmd cmd = {
	.name = "init", .usage = "", .opts = opts,
	.summary = "Create an empty perfcorr database (import also creates "
		   "one when absent). An existing database is upgraded to "
		   "this version's schema; one written by a newer perfcorr is "
		   "refused.",
	.min_args = 0, .max_args = 0,
};

int cmd_init(int argc, char **argv)
{
	struct cli_list pos;
	struct db *db;
	int rc;

	if ((rc = cli_parse(&cmd, argc, argv, &pos)))
		return rc == 1 ? CLI_OK : rc;
	cli_list_free(&pos);
	if ((rc = cli_open_db(&db, DB_CREATE)))
		return rc;
	fprintf(stderr, "database '%s' ready (schema %d)\n", cli_db_path(),
		DB_SCHEMA_VERSION);
	db_close(db);
	return CLI_OK;
}
