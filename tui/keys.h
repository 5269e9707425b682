#ifndef PC_TUI_KEYS_H
#define PC_TUI_KEYS_H
/*
 * Key bindings as data: one table of (keymap, key, action). A view's
 * keymap is searched first, then "generic". Also the names of keys
 * ("j", "Down", "^L") and of actions, for help, footer and scripts.
 * Every returned string is static.
 */
#include <stddef.h>

#include "tui/actions.h"

struct action_info {
	int action;		/* ACT_*, or 0 for a group heading */
	const char *name;	/* "move-down"; the heading for a group */
	const char *help;
};

/* The action bound to key in keymap (else generic), or ACT_NONE. */
int keys_lookup(const char *keymap, int key);

/* Every action and group heading, in ACTION_LIST order. */
const struct action_info *keys_actions(size_t *n);

/* ACT_* for "move-down", or ACT_NONE. */
int keys_action_by_name(const char *name);
const char *keys_action_name(int action);

/* "j", "Down", "^L", "Space", "F1" ... into buf; returns buf. */
const char *keys_name(int key, char *buf, size_t len);

/* The keys bound to action in keymap (view keys first, then generic
 * keys not shadowed by the view), joined by ", ", into buf. Returns the
 * number of keys found. */
int keys_for_action(const char *keymap, int action, char *buf, size_t len);

/* Every key bound to action in any keymap into keys_buf ("j, Down"),
 * and the keymaps other than generic that bind it into maps_buf
 * ("discrepancies, detail"; "" when only generic). Returns the count. */
int keys_describe(int action, char *keys_buf, size_t klen, char *maps_buf,
		  size_t mlen);

/* Parse one key from a script at *s: a character (UTF-8 bytes are given
 * one by one) or <Name> (<Enter> <Esc> <Tab> <S-Tab> <Space> <BS> <Up>
 * <Down> <Left> <Right> <PgUp> <PgDn> <Home> <End> <F1>..<F12> <C-x>
 * <lt>). Advances *s. Returns the key, or -1 for an unknown <Name>. */
int keys_parse(const char **s);

#endif
