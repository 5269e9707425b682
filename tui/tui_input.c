/*
 * Reading keys for the main loop, prompts and forms (tui.h:
 * tui_read_key): from the script (PERFCORR_SCRIPT, running its
 * :commands on the way) or the terminal, noticing database changes
 * while waiting, and timing each key for PERFCORR_TIMING (split from
 * tui.c, the functions unchanged).
 */
#include "tui/tui.h"

#include <curses.h>
#include <time.h>

#include "base/error.h"
#include "tui/keys.h"
#include "tui/record.h"
#include "tui/script.h"
#include "tui/status.h"


double tui_cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

double tui_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void poll_db(struct tui *t)
{
	if (!data_changed(&t->data) && !t->reload_pending)
		return;
	if (t->in_modal) {
		t->reload_pending = 1;
		return;
	}
	if (tui_reload(t) == 0)
		status_report("the database changed: reloaded");
	tui_redraw(t);
}

static int script_key(struct tui *t)
{
	const char *cmd;
	int key = 0, r;

	for (;;) {
		switch (script_next(t->script, &key, &cmd)) {
		case SCRIPT_KEY:
			return key;
		case SCRIPT_CMD:
			if ((r = keys_action_by_name(cmd)) != ACT_NONE)
				return r;
			r = tui_command(t, cmd);
			if (r & TUI_QUIT)
				return ACT_QUIT;
			if (r & TUI_REDRAW)
				tui_redraw(t);
			break;
		case SCRIPT_ERROR:
			status_error("%s", pc_error_last());
			if (t->headless) {
				t->failed = 1;
				return -1;
			}
			break;
		case SCRIPT_END:
			script_free(t->script);
			t->script = NULL;
			return -1;
		}
	}
}

/* Every key is timed from the moment it is handed out until the next
 * read (its action and the redraw), whether the main loop, a prompt or
 * a form asked for it. */
static int timed(struct tui *t, int key)
{
	if (t->rec.timing && key >= 0) {
		t->timed_key = key;
		t->key_t0 = tui_now_ms();
		t->key_c0 = tui_cpu_ms();
	}
	return key;
}

int tui_read_key(struct tui *t)
{
	if (t->rec.timing && t->timed_key >= 0)
		record_key(&t->rec, t->timed_key, tui_now_ms() - t->key_t0,
			   tui_cpu_ms() - t->key_c0);
	t->timed_key = -1;
	for (;;) {
		int key;

		poll_db(t);
		if (t->script) {
			if ((key = script_key(t)) >= 0 || t->headless)
				return timed(t, key);
			continue;
		}
		if (t->headless)
			return -1;
		key = getch();
		if (key == ERR)
			continue;
		if (key == KEY_RESIZE) {
			tui_redraw(t);
			continue;
		}
		return timed(t, key);
	}
}
