#ifndef PC_TUI_TUI_H
#define PC_TUI_TUI_H
/*
 * The review TUI: terminal setup (interactive, or headless on /dev/null
 * with PERFCORR_HEADLESS=1 and LINES/COLUMNS from the environment), the
 * main loop (key -> action -> view -> generic), resize, scripted input
 * (PERFCORR_SCRIPT) and key timing (PERFCORR_TIMING). tui_run is the
 * only entry point for src/cmd_tui.c; the rest is for tui/ files.
 */
#include <stdio.h>

#include "tui/data.h"
#include "tui/record.h"
#include "tui/view.h"
#include "tui/views.h"

struct db;
struct view;
struct script;

struct tui_opts {
	const char *model, *ref;	/* SRC[@VERSION] or NULL */
	const char *policy;		/* policy file for limits, or NULL */
	const char *roofline;		/* the speed-of-light bound, or NULL */
	const char *slo;		/* --slo limits (the Verdicts view), or
					   NULL: the policy's */
	const char *const *allow_mismatch;	/* fingerprint fields whose
					   mismatch is meant, or NULL */
	int ascii;			/* no UTF-8 glyphs */
	/* out: the pair reviewed when the TUI closed, SRC@VERSION, or "" */
	char model_out[256], ref_out[256];
};

/* Run the TUI on db until the user quits. Returns 0, or <0 with a
 * message (the terminal is restored before returning). */
int tui_run(struct db *db, struct tui_opts *o);

#define VIEW_ENUM_(x, id, kind, ops, key, name, help) VIEW_##id,
enum view_id {
	VIEW_LIST(VIEW_ENUM_, 0)
	VIEW_COUNT
};

struct tui {
	struct db *db;
	struct tui_data data;
	struct view *views[VIEW_COUNT];
	struct view *cur;
	struct view *back[16];		/* view history for `back` */
	int depth;
	int ascii, headless, quit;
	int started;			/* the screen is up */
	int failed;			/* a script error (headless exit 1) */
	int in_modal;			/* a prompt or form is open */
	int reload_pending;
	/* drawn over the screen after the view (forms) */
	void (*overlay)(struct tui *t, void *arg);
	void *overlay_arg;
	size_t detail_point;		/* point shown by the detail view */
	/* what the regressions view compares (set by the trend view):
	 * model SRC@V before and after, the reference, and optionally a
	 * group (key "op"/"op_class", its value and metric) */
	char regress_from[256], regress_to[256], regress_ref[256];
	char regress_by[32], regress_group[256], regress_metric[128];
	struct script *script;
	struct record rec;		/* PERFCORR_TIMING (tui/record.h) */
	int timed_key;			/* key being processed, or -1 */
	double key_t0, key_c0;
};

/* The next key: from the script (running its :commands on the way),
 * else the terminal. Handles resize and notices database changes while
 * waiting. Returns a key or an ACT_* action, or -1 at the end of the
 * script in headless mode. */
int tui_read_key(struct tui *t);

/* Draw everything (title, current view, footer, status) and update the
 * terminal. */
void tui_redraw(struct tui *t);

/* Make view id current (opening it when needed); pushes the previous
 * view for `back`. Returns 0 or <0 (the message is on the status line). */
int tui_show(struct tui *t, enum view_id id);

/* Run one :command ("save-screen FILE", "resize COLS ROWS", an action
 * name ...). Returns TUI_* flags. */
int tui_command(struct tui *t, const char *cmd);

/* Search the current view with ops->match from the cursor in dir,
 * wrapping; moves the cursor. 1 when found. */
int tui_search(struct tui *t, const char *needle, int dir);

/* Monotonic and process-CPU milliseconds (for timing). */
double tui_now_ms(void);
double tui_cpu_ms(void);

/* Reload the data from the database, keeping each view's cursor. */
int tui_reload(struct tui *t);

#endif
