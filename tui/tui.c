/*
 * Terminal setup, the main loop and the generic actions. Key -> action
 * (keys.c) -> the view's handle() -> the generic handler here; then one
 * redraw. Input comes from tui_read_key only (tui_input.c), so scripts
 * drive prompts and forms exactly as a person would.
 */
#include "tui/tui.h"

#include <curses.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

#include "src/corr/correlate.h"
#include "src/pairidx/pairidx.h"
#include "base/error.h"
#include "base/util.h"
#include "tui/draw.h"
#include "tui/keys.h"
#include "tui/record.h"
#include "tui/script.h"
#include "tui/status.h"
#include "tui/theme.h"
#include "tui/view.h"

#define VIEW_OPS_(x, id, kind, ops, key, name, help) [VIEW_##id] = &ops,
static const struct view_ops *const all_ops[VIEW_COUNT] = {
	VIEW_LIST(VIEW_OPS_, 0)
};

/* Top-level views (Tab cycles through them in this order); the others
 * are children that remember where they were opened from. */
#define VIEW_TOP_(x, id, kind, ops, key, name, help) \
	[VIEW_##id] = VIEW_IS_TOP_##kind,
static const unsigned char is_top[VIEW_COUNT] = {
	VIEW_LIST(VIEW_TOP_, 0)
};

static SCREEN *screen;
static FILE *null_out, *null_in;

static int env_on(const char *name)
{
	const char *v = getenv(name);

	return v && *v && strcmp(v, "0");
}

static int term_init(struct tui *t)
{
	const char *term = getenv("TERM");

	t->headless = env_on("PERFCORR_HEADLESS");
	if (t->headless) {
		null_out = fopen("/dev/null", "w");
		null_in = fopen("/dev/null", "r");
		if (!null_out || !null_in)
			return pc_error_set(PC_EIO, "cannot open '/dev/null'");
		screen = newterm(term && *term ? term : "dumb", null_out,
				 null_in);
		if (!screen)
			screen = newterm("dumb", null_out, null_in);
	} else {
		if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
			return pc_error_set(PC_EINVALID, "not a terminal (set "
					    "PERFCORR_HEADLESS=1 with "
					    "PERFCORR_SCRIPT to run without one)");
		screen = newterm(NULL, stdout, stdin);
	}
	if (!screen)
		return pc_error_set(PC_ERR, "cannot initialise the terminal "
				    "'%s'", term ? term : "");
	set_term(screen);
	cbreak();
	noecho();
	keypad(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	wtimeout(stdscr, 500);
	theme_init(!util_no_color());
	return 0;
}

static void term_done(void)
{
	if (!screen)
		return;
	endwin();
	delscreen(screen);
	screen = NULL;
	if (null_out)
		fclose(null_out);
	if (null_in)
		fclose(null_in);
	null_out = null_in = NULL;
}

static void reopen(struct view *v)
{
	if (v->ops->open(v) < 0)
		status_error("%s", pc_error_last());
	v->opened = 1;
	v->gen = v->tui->data.gen;
	v->ann_gen = v->tui->data.ann_gen;
}

/* Data reloaded, or annotations saved or undone since v read them. */
static int stale(const struct tui *t, const struct view *v)
{
	return v->gen != t->data.gen || (v->ops->annotated &&
					 v->ann_gen != t->data.ann_gen);
}

/* The detail view's point, found again by key after a reload. */
static void follow_detail(struct tui *t, const int64_t *key)
{
	long i = key && t->data.ix ? pidx_find(t->data.ix, key[0], key[1],
					       key[2]) : -1;

	t->detail_point = i >= 0 ? (size_t)i : (size_t)-1;
}

int tui_reload(struct tui *t)
{
	const struct pidx *x = t->data.ix;
	int64_t key[3];
	int have = x && t->detail_point < x->n, rc;

	if (have) {
		key[0] = x->keys[t->detail_point].w;
		key[1] = x->keys[t->detail_point].o;
		key[2] = x->keys[t->detail_point].m;
	}
	rc = data_load(&t->data);
	t->reload_pending = 0;
	if (rc < 0) {
		status_error("reload failed: %s", pc_error_last());
		return rc;
	}
	follow_detail(t, have ? key : NULL);
	reopen(t->cur);
	return 0;
}

int tui_show(struct tui *t, enum view_id id)
{
	struct view *v = t->views[id];

	if (!v->opened || stale(t, v) || id == VIEW_DETAIL ||
	    id == VIEW_REGRESS) {
		if (v->ops->open(v) < 0) {
			status_error("%s", pc_error_last());
			return PC_ERR;
		}
		v->opened = 1;
		v->gen = t->data.gen;
		v->ann_gen = t->data.ann_gen;
	}
	if (v == t->cur)
		return 0;
	if (is_top[id]) {
		/* a top-level view replaces the current one: switching views
		 * (digits, Tab) grows no history, so `q` needs one press */
		t->depth = 0;
		t->cur = v;
		return 0;
	}
	if (t->cur) {
		if (t->depth == (int)(sizeof(t->back) / sizeof(t->back[0]))) {
			memmove(t->back, t->back + 1, sizeof(t->back) -
				sizeof(t->back[0]));
			t->depth--;
		}
		t->back[t->depth++] = t->cur;
	}
	t->cur = v;
	return 0;
}

static const char *footer_label(const struct tui *t, int action)
{
	const char *name = keys_action_name(action);

	if (action == ACT_ENTER)
		return t->cur == t->views[VIEW_TREND] ? "regressions" :
		       t->cur == t->views[VIEW_SUMMARY] ? "list" : "detail";
	if (action == ACT_SCATTER_METRIC)
		return "metric";
	if (action == ACT_CYCLE_PAIR)
		return "pair";
	if (action == ACT_GROUP_BY)
		return "group";
	if (action == ACT_BACK)
		return t->depth || t->cur != t->views[VIEW_DISCREP] ? "back" :
		       "quit";
	if (!strncmp(name, "view-", 5))
		return name + 5;
	return name;
}

static void draw_footer(struct tui *t, int y, int w)
{
	const int *acts = t->cur->ops->footer;
	int x = 0;
	char keys[64];

	draw_fill(y, 0, w, TH_FOOTER);
	for (int i = 0; acts && acts[i] && x < w; i++) {
		char *comma;

		if (!keys_for_action(t->cur->ops->name, acts[i], keys,
				     sizeof(keys)))
			continue;
		if ((comma = strchr(keys, ',')))
			*comma = '\0';
		x += draw_text(y, x, w - x, keys, TH_FOOTER_KEY);
		x += draw_text(y, x, w - x, " ", TH_FOOTER);
		x += draw_text(y, x, w - x, footer_label(t, acts[i]), TH_FOOTER);
		x += draw_text(y, x, w - x, "  ", TH_FOOTER);
	}
}

static void paint(struct tui *t)
{
	struct view *v = t->cur;
	char info[256] = "";
	int x;

	erase();
	if (LINES < 8 || COLS < 40) {
		draw_text(0, 0, COLS, "terminal too small (need 40x8)", TH_ERROR);
		return;
	}
	if (v->opened && stale(t, v))
		reopen(v);
	draw_fill(0, 0, COLS, TH_TITLE);
	x = draw_text(0, 0, COLS, " perfcorr | ", TH_TITLE);
	x += draw_text(0, x, COLS - x, v->ops->title, TH_TITLE);
	if (v->ops->info)
		v->ops->info(v, info, sizeof(info));
	if (info[0]) {
		x += draw_text(0, x, COLS - x, " | ", TH_TITLE);
		draw_text(0, x, COLS - x, info, TH_TITLE);
	}
	v->height = LINES - 3;
	v->ops->draw(v, 1, LINES - 3, COLS);
	/* a message wider than the screen takes the footer's row too */
	if (status_rows(COLS) > 1) {
		status_draw_wrapped(LINES - 2, 2, COLS);
	} else {
		draw_footer(t, LINES - 2, COLS);
		status_draw(LINES - 1, COLS);
	}
}

void tui_redraw(struct tui *t)
{
	paint(t);
	if (t->overlay)
		t->overlay(t, t->overlay_arg);
	wnoutrefresh(stdscr);
	doupdate();
}

static int generic(struct tui *t, int action);

int tui_command(struct tui *t, const char *cmd)
{
	char word[64] = "", arg[512] = "";
	int action, c, r;

	while (*cmd == ' ')
		cmd++;
	sscanf(cmd, "%63s %511[^\n]", word, arg);
	if (!strcmp(word, "save-screen")) {
		if (!arg[0] || record_screen(arg) < 0) {
			status_error("save-screen: %s", arg[0] ? pc_error_last()
				     : "expected a file name");
			return TUI_HANDLED | TUI_REDRAW;
		}
		return TUI_HANDLED;
	}
	if (!strcmp(word, "resize")) {
		if (sscanf(arg, "%d %d", &c, &r) != 2 || c < 1 || r < 1) {
			status_error("resize: expected COLS ROWS");
			return TUI_HANDLED | TUI_REDRAW;
		}
		resizeterm(r, c);
		return TUI_HANDLED | TUI_REDRAW;
	}
	if (!strcmp(word, "q"))
		return TUI_QUIT;
	action = keys_action_by_name(word);
	if (action == ACT_NONE) {
		status_error("unknown command '%s'", word);
		return TUI_HANDLED | TUI_REDRAW;
	}
	if (t->cur->ops->handle && (r = t->cur->ops->handle(t->cur, action)))
		return r;
	return generic(t, action);
}

int tui_search(struct tui *t, const char *needle, int dir)
{
	struct view *v = t->cur;

	if (!v->ops->match || !v->nrows || !*needle)
		return 0;
	for (size_t step = 1; step <= v->nrows; step++) {
		size_t row = dir < 0 ?
			(v->cursor + v->nrows - step % v->nrows) % v->nrows :
			(v->cursor + step) % v->nrows;

		if (v->ops->match(v, row, needle)) {
			view_goto(v, row);
			return 1;
		}
	}
	return 0;
}

static int search(struct tui *t, int action)
{
	struct view *v = t->cur;
	char buf[sizeof(v->search)] = "";

	if (action == ACT_SEARCH) {
		if (!status_prompt(t, "/", buf, sizeof(buf), NULL, NULL) ||
		    !buf[0])
			return TUI_REDRAW;
		snprintf(v->search, sizeof(v->search), "%s", buf);
	}
	if (!v->search[0]) {
		status_report("no search yet: press / first");
		return TUI_HANDLED;
	}
	if (!tui_search(t, v->search, action == ACT_FIND_PREV ? -1 : 1))
		status_error("'%s' not found", v->search);
	return TUI_HANDLED | TUI_REDRAW;
}

/* The next (delta 1) or previous (-1) top-level view in the list's
 * order, from the current one (a child counts as the first). */
static int switch_view(struct tui *t, int delta)
{
	enum view_id tab[VIEW_COUNT];
	size_t n = 0, at = 0;

	for (int i = 0; i < VIEW_COUNT; i++)
		if (is_top[i]) {
			if (t->views[i] == t->cur)
				at = n;
			tab[n++] = (enum view_id)i;
		}
	tui_show(t, tab[(at + n + (size_t)(delta + (int)n)) % n]);
	return TUI_HANDLED | TUI_REDRAW;
}

static int generic(struct tui *t, int action)
{
	char buf[512] = "";
	int r;

	if ((r = view_move(t->cur, action)))
		return r;
	switch (action) {
#define VIEW_CASE_(x, id, kind, ops, key, name, help) \
	VIEW_IF_ACTION_##kind(case ACT_VIEW_##id: tui_show(t, VIEW_##id); \
			      break;)
	VIEW_LIST(VIEW_CASE_, 0)
	case ACT_VIEW_NEXT: return switch_view(t, 1);
	case ACT_VIEW_PREV: return switch_view(t, -1);
	case ACT_BACK:
		/* a child view (detail, help) goes back where it came from;
		 * another top-level view to the start view; the start quits */
		if (t->depth)
			t->cur = t->back[--t->depth];
		else if (t->cur != t->views[VIEW_DISCREP])
			tui_show(t, VIEW_DISCREP);
		else
			return TUI_QUIT;
		break;
	case ACT_QUIT:
		return TUI_QUIT;
	case ACT_SEARCH:
	case ACT_FIND_NEXT:
	case ACT_FIND_PREV:
		return search(t, action);
	case ACT_RELOAD:
		if (tui_reload(t) == 0)
			status_report("reloaded");
		break;
	case ACT_PROMPT:
		if (status_prompt(t, ":", buf, sizeof(buf), NULL, NULL) &&
		    buf[0])
			return tui_command(t, buf) | TUI_REDRAW;
		break;
	case ACT_REDRAW:
		clearok(curscr, TRUE);
		break;
	default:
		status_report("'%s' does nothing in this view (? for help)",
			      keys_action_name(action));
	}
	return TUI_HANDLED | TUI_REDRAW;
}

static int dispatch(struct tui *t, int key)
{
	struct view *v = t->cur;
	int action = key >= ACT_BASE ? key : keys_lookup(v->ops->name, key);
	int r = 0;
	char name[16];

	if (action == ACT_NONE) {
		status_report("key '%s' is not bound (? for help)",
			      keys_name(key, name, sizeof(name)));
		return TUI_REDRAW;
	}
	if (v->ops->handle)
		r = v->ops->handle(v, action);
	return r ? r : generic(t, action);
}

/* Before a long first pairing: on stderr before the screen starts
 * (interactive only), on the status line after. */
static void note(void *arg, const char *msg)
{
	struct tui *t = arg;

	if (!t->started) {
		if (isatty(2) && !getenv("PERFCORR_HEADLESS"))
			fprintf(stderr, "perfcorr tui: %s\n", msg);
		return;
	}
	status_report("%s", msg);
	tui_redraw(t);
}

static int start(struct tui *t, struct db *db, const struct tui_opts *o)
{
	const char *path;
	int rc;

	t->db = db;
	t->data.note = note;
	t->data.note_arg = t;
	t->data.roofline = o->roofline;
	t->data.allow_mismatch = o->allow_mismatch;
	t->data.slo = o->slo;
	if ((rc = data_open(&t->data, db, o->model, o->ref, o->policy)) < 0)
		return rc;
	if ((path = getenv("PERFCORR_SCRIPT")) && *path &&
	    (rc = script_open(&t->script, path)) < 0)
		return rc;
	if ((path = getenv("PERFCORR_TIMING")) && *path &&
	    !(t->rec.timing = fopen(path, "w")))
		return pc_error_set(PC_EIO, "cannot write '%s'", path);
	return 0;
}

static void finish(struct tui *t)
{
	for (int i = 0; i < VIEW_COUNT; i++) {
		if (!t->views[i])
			continue;
		if (t->views[i]->ops->done)
			t->views[i]->ops->done(t->views[i]);
		textbuf_clear(&t->views[i]->text);
		free(t->views[i]);
	}
	script_free(t->script);
	record_done(&t->rec);
	data_release(&t->data);
}

/* The loop's side of status_prompt (status.c never calls into tui.c). */
static void loop_redraw(void *arg)
{
	tui_redraw(arg);
}

static int loop_read_key(void *arg)
{
	return tui_read_key(arg);
}

static void loop_modal(void *arg, int delta)
{
	((struct tui *)arg)->in_modal += delta;
}

int tui_run(struct db *db, struct tui_opts *o)
{
	struct tui t;
	double t0 = tui_now_ms(), c0 = tui_cpu_ms();
	int rc, key;

	memset(&t, 0, sizeof(t));
	t.ascii = o->ascii;
	t.timed_key = -1;
	if ((rc = start(&t, db, o)) < 0 || (rc = term_init(&t)) < 0) {
		term_done();
		finish(&t);
		return rc;
	}
	t.started = 1;
	status_set_loop(&(struct status_loop){ .redraw = loop_redraw,
		.read_key = loop_read_key, .modal = loop_modal, .arg = &t });
	draw_set_ascii(o->ascii || !draw_locale_utf8());
	for (int i = 0; i < VIEW_COUNT; i++) {
		t.views[i] = xcalloc(1, sizeof(struct view));
		t.views[i]->ops = all_ops[i];
		t.views[i]->tui = &t;
	}
	tui_show(&t, VIEW_DISCREP);
	tui_redraw(&t);
	if (t.rec.timing)
		fprintf(t.rec.timing, "first_screen_ms %.3f cpu %.3f\n",
			tui_now_ms() - t0, tui_cpu_ms() - c0);
	while (!t.quit && (key = tui_read_key(&t)) >= 0) {
		int r;

		status_clear();
		r = dispatch(&t, key);
		if (r & TUI_QUIT)
			break;
		tui_redraw(&t);
	}
	term_done();
	status_set_loop(NULL);
	rc = t.failed ? pc_error_set(PC_EINVALID, "%s", status_text()) : 0;
	if (t.data.ix) {
		const struct pidx *x = t.data.ix;

		snprintf(o->model_out, sizeof(o->model_out), "%s@%s",
			 x->model.source, x->model.version ?
			 x->model.version : "");
		snprintf(o->ref_out, sizeof(o->ref_out), "%s@%s",
			 x->ref.source, x->ref.version ? x->ref.version : "");
	}
	finish(&t);
	return rc;
}
