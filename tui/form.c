/* The modal form (see form.h). */
#include "tui/form.h"

#include <ctype.h>
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "tui/actions.h"
#include "tui/draw.h"
#include "tui/tui.h"

#define NOTE_ROWS 4
#define CTRL_(c) ((c) & 0x1f)

static int field_rows(const struct form_field *ff)
{
	return ff->kind == FORM_NOTE ? NOTE_ROWS : 1;
}

/* Characters (not bytes) of s[0..len). */
static int chars(const char *s, size_t len)
{
	int n = 0;

	for (size_t i = 0; i < len; i++)
		n += ((unsigned char)s[i] & 0xc0) != 0x80;
	return n;
}

/* The line under edit scrolls: when it does not fit in w columns with
 * the cursor after it, its tail is shown behind a "~" (the cursor is
 * always at the end of the text). Returns the columns up to the cursor. */
static int draw_edit_line(int y, int x, int w, const char *line, size_t len)
{
	char buf[512];
	size_t off = 0;

	if (chars(line, len) + 1 > w && w > 2) {
		while (off < len && chars(line + off, len - off) + 2 > w)
			off++;
		while (off < len && ((unsigned char)line[off] & 0xc0) == 0x80)
			off++;
		draw_text(y, x, 1, "~", TH_FORM_FIELD);
		snprintf(buf, sizeof(buf), "%.*s", (int)(len - off), line + off);
		return 1 + draw_text(y, x + 1, w - 1, buf, TH_FORM_FIELD);
	}
	snprintf(buf, sizeof(buf), "%.*s", (int)len, line);
	return draw_text(y, x, w, buf, TH_FORM_FIELD);
}

/* One row of a wrapped note: text[start .. start + len). */
struct nrow {
	size_t start, len;
};

/*
 * The note as the rows it takes in w columns: each of its lines, and
 * a line longer than w wrapped at a blank (or cut hard in a word longer
 * than w), so a long sentence reads as a paragraph, not one line that
 * scrolls. The last `max` rows go to out (top first); returns how many.
 * A last row that is full leaves the cursor on an empty row after it.
 */
static int note_rows(const char *text, int w, struct nrow *out, int max)
{
	struct nrow ring[NOTE_ROWS + 1];
	size_t at = 0, len = strlen(text);
	long total = 0;
	int n;

	if (w < 2)
		w = 2;
	for (;;) {
		size_t end = at, blank = 0;
		int cols = 0;

		while (end < len && text[end] != '\n' && cols < w) {
			end++;
			while (end < len && ((unsigned char)text[end] & 0xc0) ==
			       0x80)
				end++;
			cols++;
			if (text[end - 1] == ' ' && cols > w / 4)
				blank = end;
		}
		/* a full row with more of the line after it: break at the
		 * last blank, the blank staying at the row's end */
		if (cols == w && end < len && text[end] != '\n' && blank)
			end = blank;
		ring[total % (NOTE_ROWS + 1)] = (struct nrow){ at, end - at };
		total++;
		if (end < len && text[end] == '\n')
			at = end + 1;
		else if (end < len || cols == w)
			at = end;	/* wrapped: the line goes on */
		else
			break;
		if (at >= len && (text[len - 1] == '\n' || cols == w)) {
			ring[total % (NOTE_ROWS + 1)] = (struct nrow){ len, 0 };
			total++;
			break;
		}
	}
	n = total < max ? (int)total : max;
	for (int r = 0; r < n; r++)
		out[r] = ring[(total - n + r) % (NOTE_ROWS + 1)];
	return n;
}

/* Draws field i; *cy, *cx get the cursor's place when it has focus. */
static void draw_field(struct form *f, int i, int y, int x, int w, int *cy,
		       int *cx)
{
	struct form_field *ff = &f->fields[i];
	enum theme_role lrole = i == f->cur ? TH_COLSEL : TH_FORM;
	char buf[512];

	draw_text(y, x + 1, 10, ff->label, lrole);
	x += 12;
	w -= 13;
	if (ff->kind == FORM_CHOICE) {
		snprintf(buf, sizeof(buf), "< %s >", ff->choices[ff->choice]);
		draw_text(y, x, w, buf, TH_FORM_FIELD);
		if (i == f->cur) {
			*cy = y;
			*cx = x + 2;
		}
		return;
	}
	if (ff->kind == FORM_NOTE) {
		struct nrow rows[NOTE_ROWS];
		const char *text = strbuf_str(&ff->text);
		int n = note_rows(text, w - 1, rows, NOTE_ROWS), used = 0;

		for (int r = 0; r < NOTE_ROWS; r++) {
			draw_fill(y + r, x, w, TH_FORM_FIELD);
			if (r >= n)
				continue;
			snprintf(buf, sizeof(buf), "%.*s", (int)rows[r].len,
				 text + rows[r].start);
			used = draw_text(y + r, x, w, buf, TH_FORM_FIELD);
		}
		if (i == f->cur) {	/* the cursor: the end of the text */
			*cy = y + (n ? n - 1 : 0);
			*cx = x + used;
		}
		return;
	}
	draw_fill(y, x, w, TH_FORM_FIELD);
	if (i == f->cur) {
		const char *line = strbuf_str(&ff->text);

		*cy = y;
		*cx = x + draw_edit_line(y, x, w, line, strlen(line));
	} else {
		draw_text_cut(y, x, w, strbuf_str(&ff->text), TH_FORM_FIELD);
	}
}

/* The keys, as much as fits in w columns. */
static const char *const form_keys[] = {
	"Tab next  Left/Right choose  Enter save, in the note a new line  "
	"^D save  Esc cancel",
	"Tab next  Left/Right choose  Enter save (note: new line)  ^D save  "
	"Esc cancel",
	"Tab next  </> choose  Enter save (note: new line)  ^D save  Esc cancel",
	"Tab next  </> choose  ^D save  Esc cancel",
	"Tab  ^D save  Esc cancel",
};

static void form_draw(struct tui *t, void *arg)
{
	struct form *f = arg;
	int rows = 6, w = COLS - 2 > 102 ? 102 : COLS - 2, x, y;
	int cy = -1, cx = -1;
	const char *keys = form_keys[0];

	(void)t;
	for (int i = 0; i < f->n; i++)
		rows += field_rows(&f->fields[i]);
	x = (COLS - w) / 2;
	y = (LINES - rows) / 2 > 0 ? (LINES - rows) / 2 : 0;
	for (int r = 0; r < rows; r++)
		draw_fill(y + r, x, w, TH_FORM);
	/* a border in glyphs, not colour: it shows under NO_COLOR too */
	draw_box(y, x, rows, w, TH_FORM);
	draw_text(y, x + 2, w - 4, " ", TH_TITLE);
	draw_text_cut(y, x + 3, w - 6, f->title, TH_TITLE);
	draw_text(y, x + 3 + (draw_width(f->title) < w - 6 ?
			      draw_width(f->title) : w - 6), 1, " ", TH_TITLE);
	x++;
	w -= 2;
	for (int i = 0, yy = y + 2; i < f->n; i++) {
		draw_field(f, i, yy, x, w, &cy, &cx);
		yy += field_rows(&f->fields[i]);
	}
	if (!f->error[0] && f->advice)
		draw_text_cut(y + rows - 3, x + 1, w - 2, f->advice, TH_FORM);
	else
		draw_text_cut(y + rows - 3, x + 1, w - 2, f->error, TH_ERROR);
	for (size_t k = 0; k < sizeof(form_keys) / sizeof(form_keys[0]); k++)
		if (draw_width(keys = form_keys[k]) <= w - 2)
			break;
	draw_text(y + rows - 2, x + 1, w - 2, keys, TH_FORM);
	if (cy >= 0)
		move(cy, cx);	/* the terminal's cursor in the field */
}

static void choose(struct form *f, struct form_field *ff, int key)
{
	int n = 0, hits = 0, hit = -1;

	while (ff->choices[n])
		n++;
	if (key == KEY_LEFT || key == KEY_RIGHT ||
	    (key == ' ' && !f->typing)) {
		ff->choice = (ff->choice + (key == KEY_LEFT ? n - 1 : 1)) % n;
		f->picked = f->typing = 0;
		return;
	}
	if (key < 32 || key >= 127)
		return;
	if (f->typing) {
		f->hint = 1;	/* keep saying why the keys do nothing */
		return;
	}
	for (int c = 0; c < n; c++)
		if (tolower((unsigned char)ff->choices[c][0]) == tolower(key)) {
			hits++;
			hit = c;
		}
	if (hits == 1 && !f->picked) {
		f->before = ff->choice;
		ff->choice = hit;
		f->picked = 1;
		return;
	}
	/* a second letter (a word typed into the chooser, not a choice) or
	 * one that picks nothing: ignore letters until focus moves */
	f->hint = 1;
	f->typing = 1;
	if (f->picked) {
		ff->choice = f->before;
		f->picked = 0;
		snprintf(f->error, sizeof(f->error), "%s is a choice, not text: "
			 "typing ignored; Tab moves on", ff->label);
	} else if (hits) {
		snprintf(f->error, sizeof(f->error), "'%c' is ambiguous for %s: "
			 "Left/Right choose; Tab moves on", key, ff->label);
	} else {
		snprintf(f->error, sizeof(f->error), "no %s starts with '%c': "
			 "Left/Right choose; Tab moves on", ff->label, key);
	}
}

static void edit(struct form_field *ff, int key)
{
	struct strbuf *sb = &ff->text;

	if (key == KEY_BACKSPACE || key == 127 || key == 8) {
		while (sb->len > 0 &&
		       ((unsigned char)sb->buf[sb->len - 1] & 0xc0) == 0x80)
			sb->len--;
		if (sb->len > 0)
			sb->len--;
		if (sb->buf)
			sb->buf[sb->len] = '\0';
	} else if (key == CTRL_('u')) {
		strbuf_reset(sb);
	} else if ((key == '\n' || key == '\r') && ff->kind == FORM_NOTE) {
		strbuf_addch(sb, '\n');
	} else if (key >= 32 && key < 256 && key != 127) {
		strbuf_addch(sb, (char)key);
	}
}

/* 1 save, 0 cancel, -1 keep going. */
static int form_key(struct form *f, int key)
{
	struct form_field *ff = &f->fields[f->cur];
	int note = ff->kind == FORM_NOTE;

	if (key < 0 || key == 27 || key == CTRL_('g'))
		return 0;
	if (key == CTRL_('d') || key == KEY_F(2) ||
	    (!note && (key == '\n' || key == '\r' || key == KEY_ENTER)))
		return !f->validate || f->validate(f) == 0 ? 1 : -1;
	if (key == '\t' || (!note && key == KEY_DOWN))
		f->cur = (f->cur + 1) % f->n;
	else if (key == KEY_BTAB || (!note && key == KEY_UP))
		f->cur = (f->cur + f->n - 1) % f->n;
	else if (key >= ACT_BASE)
		return -1;	/* actions from a script mean nothing here */
	else if (ff->kind == FORM_CHOICE)
		choose(f, ff, key);
	else
		edit(ff, key);
	if (&f->fields[f->cur] != ff)
		f->picked = f->typing = 0;	/* focus moved */
	return -1;
}

int form_run(struct tui *t, struct form *f)
{
	int result = -1;

	t->in_modal++;
	curs_set(1);
	t->overlay = form_draw;
	t->overlay_arg = f;
	while (result < 0) {
		tui_redraw(t);
		f->hint = 0;
		result = form_key(f, tui_read_key(t));
		if (result < 0 && f->error[0] && !f->hint &&
		    (!f->validate || f->validate(f) == 0))
			f->error[0] = '\0';
	}
	curs_set(0);
	t->overlay = NULL;
	t->overlay_arg = NULL;
	t->in_modal--;
	return result;
}

void form_release(struct form *f)
{
	for (int i = 0; i < f->n; i++)
		strbuf_release(&f->fields[i].text);
}
