#ifndef PC_TUI_FORM_H
#define PC_TUI_FORM_H
/*
 * A small modal form drawn over the current view: choice fields (cycle
 * with Left/Right/Space, or a first letter that only one choice has),
 * one-line text fields and a multi-line note. Focus starts on the first
 * field. Typing in a chooser never changes it by accident: a letter no
 * choice or several choices start with changes nothing and says so, and
 * one that follows a letter that picked a choice (a word typed into the
 * wrong field) puts the value back; either way further letters (and
 * Space) are ignored until focus moves or Left/Right. Tab/S-Tab (or Up/Down outside the note) move between
 * fields; Enter saves (in the note it starts a new line); ^D or F2 save
 * from anywhere; Esc cancels. Keys come from tui_read_key, so
 * scripts fill forms too. Fields own their text (release the form).
 */
#include "base/strbuf.h"

struct tui;

enum form_kind { FORM_CHOICE, FORM_TEXT, FORM_NOTE };

struct form_field {
	const char *label;
	enum form_kind kind;
	const char *const *choices;	/* NULL-terminated, FORM_CHOICE */
	int choice;
	struct strbuf text;		/* FORM_TEXT, FORM_NOTE */
};

struct form {
	const char *title;
	struct form_field *fields;
	int n, cur;
	char error[256];		/* shown in the form */
	/* 0 when the form may be saved, else -1 with f->error set */
	int (*validate)(struct form *f);
	const char *advice;	/* shown where errors go while there is none
				   (may be NULL) */
	/* private: typing into a chooser */
	int picked, before, typing, hint;
};

/* Run until saved (1) or cancelled (0). */
int form_run(struct tui *t, struct form *f);
void form_release(struct form *f);

#endif
