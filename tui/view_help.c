/* Help: generated from the action list and the key table. */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "tui/keyref.h"
#include "tui/keys.h"
#include "tui/theme.h"
#include "tui/tui.h"
#include "tui/view.h"

#define HELP_INDENT 37	/* where the help text starts */

/* Add "prefix text", wrapping text at word boundaries to the screen
 * width with continuation lines under the text column. */
static void add_wrapped(struct view *v, const char *prefix, const char *text)
{
	int width = COLS > HELP_INDENT + 20 ? COLS - 1 : HELP_INDENT + 20;
	int room = width - HELP_INDENT, first = 1;

	while (*text) {
		int len = (int)strlen(text), cut = len;

		if (len > room) {
			cut = room;
			while (cut > 0 && text[cut] != ' ')
				cut--;
			if (cut == 0)
				cut = room;
		}
		textbuf_add(&v->text, TH_NORMAL, "%-*s%.*s", HELP_INDENT,
			    first ? prefix : "", cut, text);
		text += cut;
		while (*text == ' ')
			text++;
		first = 0;
	}
}

/* A heading or row of the reference (keyref.h), wrapped to the screen. */
static void help_row(void *ctx, enum keyref_kind kind, const char *keys,
		     const char *name, const char *help)
{
	struct view *v = ctx;
	char prefix[160];

	if (kind == KR_HEADING) {
		textbuf_add(&v->text, TH_NORMAL, "%s", "");
		textbuf_add(&v->text, TH_HEADER, "%s", name);
		return;
	}
	snprintf(prefix, sizeof(prefix), "  %-14s %-19s", keys, name);
	add_wrapped(v, prefix, help);
}

static int help_open(struct view *v)
{
	textbuf_clear(&v->text);
	textbuf_add(&v->text, TH_HEADER, "Flags (the flag column) and marks "
		    "(before a row)");
	textbuf_add(&v->text, TH_NORMAL, "  N within the reference's noise   "
		    "X noisy reference, excluded");
	textbuf_add(&v->text, TH_NORMAL, "  S speed-of-light violation (the "
		    "model or reference beats the roofline)");
	textbuf_add(&v->text, TH_NORMAL, "  W waived (accepted, unexpired)   "
		    "I invalid, excluded");
	textbuf_add(&v->text, TH_NORMAL, "  ? unverified: a checked workload-"
		    "fingerprint field only one run states");
	textbuf_add(&v->text, TH_NORMAL, "  * marked   + new, ! changed since "
		    "the last recorded review");
	textbuf_add(&v->text, TH_NORMAL, "  ~ cut: the text goes on (a "
		    "name, a key or a note too long for its column)");
	textbuf_add(&v->text, TH_NORMAL, "  status: open (not annotated, or "
		    "annotated open), investigating,");
	textbuf_add(&v->text, TH_NORMAL, "          explained, accepted, "
		    "fixed, wontfix");
	textbuf_add(&v->text, TH_NORMAL, "%s", "");
	textbuf_add(&v->text, TH_HEADER, "Views and keys (from the view and "
		    "key tables)");
	keyref_each(help_row, v);
	textbuf_add(&v->text, TH_NORMAL, "%s", "");
	textbuf_add(&v->text, TH_HEADER, "Filter (f): terms are ANDed");
	textbuf_add(&v->text, TH_NORMAL, "  FIELD OP VALUE, fields workload "
		    "op class metric status category err |err| model ref "
		    "flag");
	textbuf_add(&v->text, TH_NORMAL, "  ops = != ~ (substring) !~ > >= < "
		    "<=; numbers may end in %%; a bare word matches workload, "
		    "op or metric");
	textbuf_add(&v->text, TH_NORMAL, "  e.g. metric=ttft op~gemm "
		    "status=open err>0.1   flag=sol   |err|>=15%%");
	textbuf_add(&v->text, TH_NORMAL, "%s", "");
	textbuf_add(&v->text, TH_HEADER, "Commands (:)");
	textbuf_add(&v->text, TH_NORMAL, "  save-screen FILE   resize COLS "
		    "ROWS   q   or any action name above");
	v->nrows = v->text.n;
	return 0;
}

static void help_draw(struct view *v, int y, int h, int w)
{
	view_draw_text(v, y, h, w, 0);
}

static const int help_footer[] = { ACT_BACK, ACT_SEARCH, ACT_VIEW_NEXT, 0 };

const struct view_ops help_ops = {
	.name = "help",
	.title = "Help",
	.footer = help_footer,
	.open = help_open,
	.draw = help_draw,
	.handle = view_text_scroll,	/* the cursor is the top line */
	.match = view_text_match,
};
