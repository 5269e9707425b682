#ifndef PC_SRC_CLI_H
#define PC_SRC_CLI_H
/*
 * Command-line plumbing for src/main.c and src/cmd_*.c: one option table
 * per command drives both parsing and --help (libgit2 cli_opt style),
 * and the shared helpers every command uses (open the database, report
 * an error, exit codes). Only this layer prints.
 */
#include <stdio.h>

struct db;

enum cli_exit { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2, CLI_UNKNOWN = 3 };

enum cli_opt_type {
	CLI_FLAG,	/* int, set to 1 */
	CLI_STR,	/* const char * */
	CLI_INT,	/* int */
	CLI_DOUBLE,	/* double */
	CLI_LIST,	/* struct cli_list, repeatable */
};

struct cli_list {
	const char **items;	/* NULL-terminated; borrowed from argv */
	size_t n;
};

struct cli_opt {
	enum cli_opt_type type;
	const char *name;	/* long name without "--" */
	char shortname;		/* 0 = none */
	void *target;
	const char *metavar;	/* e.g. "FILE" */
	const char *help;
};

#define CLI_OPT_END { CLI_FLAG, NULL, 0, NULL, NULL, NULL }

struct cli_cmd {
	const char *name;
	const char *usage;	/* "[options] FILE..." */
	const char *summary;	/* one line */
	const char *details;	/* extra --help text, or NULL */
	const struct cli_opt *opts;
	/* a section after the options, or NULL: its title ("KEYS") and
	 * preformatted text (--help prints it; the man page makes it a
	 * section of its own, kept as laid out) */
	const char *extra_title, *extra;
	int min_args, max_args;	/* positional; max -1 = any */
};

/* Parse argv (argv[0] = command name) against cmd->opts. Positional
 * arguments go to pos (caller frees pos->items). Returns 0, 1 when --help
 * was printed (exit 0), or CLI_USAGE after printing the error. */
int cli_parse(const struct cli_cmd *cmd, int argc, char **argv,
	      struct cli_list *pos);
void cli_help(const struct cli_cmd *cmd, FILE *fp);
/* While a hook is set, --help hands the command's table to it instead of
 * printing (cli_parse still returns 1): how the man-page and completion
 * generators (src/cmd/meta.c) read every command's table without running
 * it. The hook copies what it keeps (tables may live on the caller's
 * stack). NULL restores printing. */
void cli_set_help_hook(void (*hook)(const struct cli_cmd *cmd, void *ctx),
		       void *ctx);
void cli_list_free(struct cli_list *l);

/* The database path: --db, else $PERFCORR_DB, else ./perfcorr.db. */
const char *cli_db_path(void);
void cli_set_db_path(const char *path);

/* Open the database; on failure print the error and return CLI_FAIL. */
int cli_open_db(struct db **out, int flags);

/* Print "perfcorr CMD: <pc_error_last()>" to stderr (safe text), then
 * the options behind it when the error is tagged with a cause. */
void cli_error(const char *cmd);
/* Print a formatted error and return CLI_USAGE / CLI_FAIL. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int cli_fail(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Map a pc_err code to an exit code (PC_EUSAGE -> 2, else 1). */
int cli_exit_for(int rc);

#endif
