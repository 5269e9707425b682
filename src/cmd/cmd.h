#ifndef PC_SRC_CMD_H
#define PC_SRC_CMD_H
/*
 * Every subcommand: int cmd_NAME(int argc, char **argv), argv[0] being
 * the command name. Returns the exit code (enum cli_exit). The table
 * that dispatches them is in src/main.c; each lives in src/cmd_NAME.c.
 */

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
int cmd_annotate(int argc, char **argv);
int cmd_annotations(int argc, char **argv);
int cmd_gate(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_tui(int argc, char **argv);
int cmd_index(int argc, char **argv);
int cmd_watch(int argc, char **argv);

#endif
