/* Every view and key, from the tables (see keyref.h). */
#include "tui/keyref.h"

#include <stdio.h>
#include <string.h>

#include "base/strbuf.h"
#include "tui/keys.h"
#include "tui/view.h"

void keyref_each(void (*fn)(void *ctx, enum keyref_kind kind,
			    const char *keys, const char *name,
			    const char *help), void *ctx)
{
#define VIEW_ROW_(x, id, kind, ops, key, name, help) \
	{ &ops, key, name, help },
	static const struct {
		const struct view_ops *ops;
		int key;
		const char *action, *help;
	} views[] = { VIEW_LIST(VIEW_ROW_, 0) };
	const struct action_info *a;
	size_t n;
	char keys[96], maps[96], text[320];

	fn(ctx, KR_HEADING, NULL, "The views (digits and Tab switch the "
	   "top-level ones; q goes back)", NULL);
	for (size_t i = 0; i < sizeof(views) / sizeof(views[0]); i++) {
		int act = views[i].action[0] ?
			  keys_action_by_name(views[i].action) : ACT_NONE;

		if (act != ACT_NONE)
			keys_describe(act, keys, sizeof(keys), maps,
				      sizeof(maps));
		else
			snprintf(keys, sizeof(keys), "Enter");
		fn(ctx, KR_ROW, keys, views[i].ops->title, views[i].help);
	}
	a = keys_actions(&n);
	for (size_t i = 0; i < n; i++) {
		if (!a[i].action) {
			fn(ctx, KR_HEADING, NULL, a[i].name, NULL);
			continue;
		}
		keys_describe(a[i].action, keys, sizeof(keys), maps,
			      sizeof(maps));
		snprintf(text, sizeof(text), "%s%s%s%s", a[i].help,
			 maps[0] ? " [" : "", maps, maps[0] ? "]" : "");
		fn(ctx, KR_ROW, keys[0] ? keys : "(:command)", a[i].name, text);
	}
}

/* "  KEYS           NAME                HELP", the help wrapped at 72
 * columns under its column. */
static void text_row(void *ctx, enum keyref_kind kind, const char *keys,
		     const char *name, const char *help)
{
	struct strbuf *sb = ctx;
	/* 72 columns: the man page indents the section by 7 */
	const int indent = 37, room = 72 - indent;
	int first = 1;

	if (kind == KR_HEADING) {
		strbuf_addf(sb, "%s%s:\n", sb->len ? "\n" : "", name);
		return;
	}
	strbuf_addf(sb, "  %-14s %-19s ", keys, name);
	if (strlen(keys) > 14 || strlen(name) > 19) {
		strbuf_addch(sb, '\n');
		first = 0;
	}
	while (*help) {
		int len = (int)strlen(help), cut = len;

		if (len > room) {
			cut = room;
			while (cut > 0 && help[cut] != ' ')
				cut--;
			if (cut == 0)
				cut = room;
		}
		strbuf_addf(sb, "%*s%.*s\n", first ? 0 : indent, "", cut, help);
		first = 0;
		help += cut;
		while (*help == ' ')
			help++;
	}
}

const char *keyref_text(void)
{
	static struct strbuf sb = STRBUF_INIT;

	if (!sb.len)
		keyref_each(text_row, &sb);
	return strbuf_str(&sb);
}
