#ifndef PC_SRC_ERROR_H
#define PC_SRC_ERROR_H
/*
 * Error codes and the last-error message. Lower layers return an
 * enum pc_err (<0) and store detail text with pc_error_set(); only
 * cmd_*.c and the TUI status line print pc_error_last().
 */

enum pc_err {
	PC_OK = 0,
	PC_ERR = -1,		/* generic failure */
	PC_ENOTFOUND = -2,	/* a named thing does not exist */
	PC_EINVALID = -3,	/* bad input: file content, option, policy */
	PC_EIO = -4,		/* file system or read error */
	PC_EDB = -5,		/* SQLite error */
	PC_EEXISTS = -6,	/* already there (e.g. same bytes imported) */
	PC_EVERSION = -7,	/* database written by a newer perfcorr */
	PC_EUSAGE = -8,		/* command-line usage error */
};

/* Store a message (printf-style) and return code, so callers can write
 * `return pc_error_set(PC_EINVALID, "...")`. */
int pc_error_set(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Prefix the current message with text: "prefix: old message". */
void pc_error_prefix(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/* The last message, or "" when none; borrowed, valid until the next set. */
const char *pc_error_last(void);

void pc_error_clear(void);

/* Which setting of the request a refusal comes from, when one does.
 * Lower layers describe the condition in their own words and tag it;
 * the caller names the setting in its own terms (the command line adds
 * the flag: cli_error in src/cmd/cli.c). pc_error_set resets it. */
enum pc_cause {
	PC_CAUSE_NONE,
	PC_CAUSE_FILTERS,	/* the query's metric/op/workload/param filters */
	PC_CAUSE_STRICT_MAP,	/* an unmapped raw name was asked to be an error */
	PC_CAUSE_PLATFORM,	/* results on several platforms: choose one */
	PC_CAUSE_ROOFLINE,	/* several roofline sources bound a key */
};
void pc_error_cause(enum pc_cause cause);
/* The cause of the last message (PC_CAUSE_NONE when untagged). */
enum pc_cause pc_error_last_cause(void);

#endif
