#ifndef PC_SRC_CMD_H
#define PC_SRC_CMD_H
/*
 * Every subcommand: int cmd_NAME(int argc, char **argv), argv[0] being
 * the command name. Returns the exit code (enum cli_exit). The table
 * that dispatches them is cmd_table in src/cmd/main.c; each lives in
 * src/cmd/cmd_NAME.c. The usage text, the man pages, `perfcorr help` and
 * the shell completions are all made from that table (src/cmd/meta.h),
 * so a new command needs only its row there.
 */

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

/* NULL-terminated, in the order usage and perfcorr(1) list them. */
extern const struct command cmd_table[];

int cmd_init(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_formats(int argc, char **argv);
int cmd_sources(int argc, char **argv);
int cmd_runs(int argc, char **argv);
int cmd_workloads(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_roofline(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_matrix(int argc, char **argv);
int cmd_trend(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_sensitivity(int argc, char **argv);
int cmd_tiers(int argc, char **argv);
int cmd_mark(int argc, char **argv);
int cmd_bundle(int argc, char **argv);
int cmd_annotate(int argc, char **argv);
int cmd_annotations(int argc, char **argv);
int cmd_gate(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_tui(int argc, char **argv);
int cmd_index(int argc, char **argv);
int cmd_watch(int argc, char **argv);
int cmd_db(int argc, char **argv);

#endif
