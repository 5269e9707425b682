#ifndef PC_SRC_CMD_META_H
#define PC_SRC_CMD_META_H
/*
 * What perfcorr says about itself, all read from the command table
 * (cmd_table, main.c) and each command's option table, so that --help,
 * the man pages and the shell completions cannot disagree:
 *   meta.c      the tables (meta_spec), --version, `perfcorr help CMD`
 *   manpage.c   `perfcorr __man`: writes perfcorr(1) and perfcorr-CMD(1)
 *   complete.c  `perfcorr __complete WORD...`: the shell completion engine
 */
#include <stdio.h>

#include "src/cmd/cli.h"
#include "src/cmd/cmd.h"

/* The options main() takes before the command (--db, --version; -h is
 * implicit as everywhere). Documentation and completion only. */
extern const struct cli_opt meta_global_opts[];

const struct command *meta_find(const char *name);

/* The command's table, read by running it with --help while a help hook
 * is set (nothing printed, nothing opened). NULL when the command does
 * not parse through cli_parse. */
const struct cli_cmd *meta_spec(const struct command *c);

/* "perfcorr VERSION (git COMMIT)" and the library versions it runs with. */
void meta_version(FILE *fp);

/* `perfcorr help NAME`: the man page through man(1) when both exist,
 * else NAME --help. Returns the exit code (execs man on success). */
int meta_help(const char *name);

/* The directory the binary's own man pages are in (the build tree's
 * man/, or PREFIX/share/man next to an installed bin/), or NULL. */
const char *meta_mandir(void);

/* The hidden commands behind the generated files. */
int manpage_main(int argc, char **argv);
int complete_main(int argc, char **argv);

#endif
