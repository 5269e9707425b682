#ifndef PC_TUI_SCRIPT_H
#define PC_TUI_SCRIPT_H
/*
 * Scripted input (tig's TIG_SCRIPT): a file of lines, each either
 * keys ("jjk", "fop~gemm<Enter>", see keys_parse), a :command
 * (":save-screen out.screen") or a # comment. The TUI reads keys from it
 * instead of the terminal; tests and the key-timing benchmark use it.
 */

struct script;

enum script_item { SCRIPT_END, SCRIPT_KEY, SCRIPT_CMD, SCRIPT_ERROR };

/* Read the whole file. PC_EIO when it cannot be read. */
int script_open(struct script **out, const char *path);
void script_free(struct script *s);

/* The next item: SCRIPT_KEY with *key, SCRIPT_CMD with *cmd (without
 * the ':', borrowed until the next call), SCRIPT_ERROR for an unknown
 * <Name> (message set, naming path:line), SCRIPT_END. */
enum script_item script_next(struct script *s, int *key, const char **cmd);

/* The line number of the last item (1-based). */
int script_line(const struct script *s);

#endif
