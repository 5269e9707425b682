/* Key bindings as data (tig keys.c, htop Action_setBindings). */
#include "tui/keys.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(ACT_BASE > KEY_MAX, "actions must not collide with keys");

#define CTRL_(c) ((c) & 0x1f)

struct binding {
	const char *keymap;
	int key;
	int action;
};

/* The default bindings. A view keymap wins over "generic". */
static const struct binding bindings[] = {
	{ "generic", 'j', ACT_MOVE_DOWN },
	{ "generic", KEY_DOWN, ACT_MOVE_DOWN },
	{ "generic", 'k', ACT_MOVE_UP },
	{ "generic", KEY_UP, ACT_MOVE_UP },
	{ "generic", KEY_NPAGE, ACT_PAGE_DOWN },
	{ "generic", CTRL_('f'), ACT_PAGE_DOWN },
	{ "generic", KEY_PPAGE, ACT_PAGE_UP },
	{ "generic", CTRL_('b'), ACT_PAGE_UP },
	{ "generic", 'g', ACT_MOVE_FIRST },
	{ "generic", KEY_HOME, ACT_MOVE_FIRST },
	{ "generic", 'G', ACT_MOVE_LAST },
	{ "generic", KEY_END, ACT_MOVE_LAST },
	{ "generic", 'h', ACT_COL_LEFT },
	{ "generic", KEY_LEFT, ACT_COL_LEFT },
	{ "generic", 'l', ACT_COL_RIGHT },
	{ "generic", KEY_RIGHT, ACT_COL_RIGHT },
	{ "generic", '\n', ACT_ENTER },
	{ "generic", KEY_ENTER, ACT_ENTER },
	{ "generic", '\r', ACT_ENTER },
#define VIEW_KEY_(x, id, kind, ops, key, name, help) \
	VIEW_IF_ACTION_##kind({ "generic", key, ACT_VIEW_##id },)
	VIEW_LIST(VIEW_KEY_, 0)
	{ "generic", KEY_F(1), ACT_VIEW_HELP },
	{ "generic", '\t', ACT_VIEW_NEXT },
	{ "generic", KEY_BTAB, ACT_VIEW_PREV },
	{ "generic", 'q', ACT_BACK },
	{ "generic", 'Q', ACT_QUIT },
	{ "generic", '/', ACT_SEARCH },
	{ "generic", 'n', ACT_FIND_NEXT },
	{ "generic", 'N', ACT_FIND_PREV },
	{ "generic", 'r', ACT_RELOAD },
	{ "generic", ':', ACT_PROMPT },
	{ "generic", CTRL_('l'), ACT_REDRAW },
	{ "discrepancies", 'f', ACT_FILTER },
	{ "discrepancies", 'F', ACT_FILTER_CLEAR },
	{ "discrepancies", 's', ACT_SORT },
	{ "discrepancies", 'p', ACT_CYCLE_PAIR },
	{ "discrepancies", ' ', ACT_MARK },
	{ "discrepancies", 'u', ACT_MARK_CLEAR },
	{ "discrepancies", 'a', ACT_ANNOTATE },
	{ "discrepancies", 'o', ACT_NEXT_OPEN },
	{ "discrepancies", 'U', ACT_UNDO },
	{ "discrepancies", 'E', ACT_EXPORT },
	{ "discrepancies", 'L', ACT_OPEN_LINK },
	{ "detail", 'L', ACT_OPEN_LINK },
	{ "detail", 'U', ACT_UNDO },
	{ "detail", ' ', ACT_MARK },
	{ "discrepancies", 'c', ACT_FILTER_NEW },
	{ "detail", 'o', ACT_NEXT_OPEN },
	{ "detail", ']', ACT_ROW_NEXT },
	{ "detail", '[', ACT_ROW_PREV },
	{ "detail", 'a', ACT_ANNOTATE },
	{ "disagreements", 'a', ACT_ANNOTATE },
	{ "summary", 'b', ACT_GROUP_BY },
	{ "summary", 'm', ACT_SCATTER_METRIC },
	{ "trend", 'b', ACT_GROUP_BY },
	{ "summary", 'p', ACT_CYCLE_PAIR },
	{ "trend", 'p', ACT_CYCLE_PAIR },
};

#define ACT_INFO_(id, name, help) { ACT_##id, name, help },
#define GROUP_INFO_(title) { 0, title, NULL },

static const struct action_info actions[] = {
	ACTION_LIST(ACT_INFO_, GROUP_INFO_)
};

static const struct {
	int key;
	const char *name;
} key_names[] = {
	{ '\n', "Enter" }, { KEY_ENTER, "Enter" }, { 27, "Esc" },
	{ '\t', "Tab" }, { KEY_BTAB, "S-Tab" }, { ' ', "Space" },
	{ KEY_BACKSPACE, "BS" }, { 127, "BS" }, { KEY_UP, "Up" },
	{ KEY_DOWN, "Down" }, { KEY_LEFT, "Left" }, { KEY_RIGHT, "Right" },
	{ KEY_PPAGE, "PgUp" }, { KEY_NPAGE, "PgDn" }, { KEY_HOME, "Home" },
	{ KEY_END, "End" }, { KEY_DC, "Del" }, { '<', "lt" },
};

int keys_lookup(const char *keymap, int key)
{
	int found = ACT_NONE;

	for (size_t i = 0; i < sizeof(bindings) / sizeof(bindings[0]); i++) {
		if (bindings[i].key != key)
			continue;
		if (keymap && !strcmp(bindings[i].keymap, keymap))
			return bindings[i].action;
		if (found == ACT_NONE && !strcmp(bindings[i].keymap, "generic"))
			found = bindings[i].action;
	}
	return found;
}

const struct action_info *keys_actions(size_t *n)
{
	*n = sizeof(actions) / sizeof(actions[0]);
	return actions;
}

int keys_action_by_name(const char *name)
{
	for (size_t i = 0; i < sizeof(actions) / sizeof(actions[0]); i++)
		if (actions[i].action && !strcmp(actions[i].name, name))
			return actions[i].action;
	return ACT_NONE;
}

const char *keys_action_name(int action)
{
	for (size_t i = 0; i < sizeof(actions) / sizeof(actions[0]); i++)
		if (actions[i].action == action)
			return actions[i].name;
	return "none";
}

const char *keys_name(int key, char *buf, size_t len)
{
	for (size_t i = 0; i < sizeof(key_names) / sizeof(key_names[0]); i++)
		if (key_names[i].key == key && key != '<') {
			snprintf(buf, len, "%s", key_names[i].name);
			return buf;
		}
	if (key >= KEY_F(1) && key <= KEY_F(12))
		snprintf(buf, len, "F%d", key - KEY_F(0));
	else if (key > 0 && key < 32)
		snprintf(buf, len, "^%c", key + '@');
	else if (key > 32 && key < 127)
		snprintf(buf, len, "%c", key);
	else
		snprintf(buf, len, "<%d>", key);
	return buf;
}

int keys_for_action(const char *keymap, int action, char *buf, size_t len)
{
	size_t used = 0;
	int count = 0;
	char name[16];

	buf[0] = '\0';
	for (int pass = 0; pass < 2; pass++) {
		const char *want = pass ? "generic" : keymap;

		for (size_t i = 0; want && i < sizeof(bindings) /
		     sizeof(bindings[0]); i++) {
			const struct binding *b = &bindings[i];

			if (b->action != action || strcmp(b->keymap, want) ||
			    keys_lookup(keymap, b->key) != action)
				continue;
			if ((b->key == KEY_ENTER || b->key == '\r') &&
			    action == ACT_ENTER)
				continue;	/* same label as '\n' */
			keys_name(b->key, name, sizeof(name));
			used += (size_t)snprintf(buf + used, used < len ?
				len - used : 0, "%s%s", count ? ", " : "", name);
			count++;
		}
		if (keymap && !strcmp(keymap, "generic"))
			break;
	}
	return count;
}

static void append(char *buf, size_t len, const char *s)
{
	size_t used = strlen(buf), n = strlen(s);

	for (const char *p = buf; (p = strstr(p, s)); p++)
		if ((p == buf || p[-1] == ' ') && (p[n] == ',' || !p[n]))
			return;	/* already listed */
	snprintf(buf + used, len > used ? len - used : 0, "%s%s",
		 used ? ", " : "", s);
}

int keys_describe(int action, char *keys_buf, size_t klen, char *maps_buf,
		  size_t mlen)
{
	char name[16];
	int count = 0;

	keys_buf[0] = maps_buf[0] = '\0';
	for (size_t i = 0; i < sizeof(bindings) / sizeof(bindings[0]); i++) {
		const struct binding *b = &bindings[i];

		if (b->action != action || ((b->key == KEY_ENTER ||
		    b->key == '\r') && action == ACT_ENTER))
			continue;
		keys_name(b->key, name, sizeof(name));
		append(keys_buf, klen, name);
		if (strcmp(b->keymap, "generic"))
			append(maps_buf, mlen, b->keymap);
		count++;
	}
	return count;
}

static int parse_name(const char *name, size_t n)
{
	char buf[16];

	if (n >= sizeof(buf))
		return -1;
	memcpy(buf, name, n);
	buf[n] = '\0';
	if (n == 3 && !strncmp(buf, "C-", 2))
		return CTRL_(buf[2]);
	if ((n == 2 || n == 3) && buf[0] == 'F' && buf[1] >= '1' &&
	    buf[1] <= '9') {
		int f = (int)strtol(buf + 1, NULL, 10);

		return f >= 1 && f <= 12 ? KEY_F(f) : -1;
	}
	for (size_t i = 0; i < sizeof(key_names) / sizeof(key_names[0]); i++)
		if (!strcmp(key_names[i].name, buf))
			return key_names[i].key == '<' ? '<' : key_names[i].key;
	if (!strcmp(buf, "PageDown"))
		return KEY_NPAGE;
	if (!strcmp(buf, "PageUp"))
		return KEY_PPAGE;
	if (!strcmp(buf, "Backspace"))
		return KEY_BACKSPACE;
	return -1;
}

int keys_parse(const char **s)
{
	const char *p = *s, *end;

	if (*p == '<' && (end = strchr(p + 1, '>')) && end > p + 1) {
		int key = parse_name(p + 1, (size_t)(end - p - 1));

		*s = end + 1;
		return key;
	}
	*s = p + 1;
	return (unsigned char)*p;
}
