#ifndef PC_TUI_ACTIONS_H
#define PC_TUI_ACTIONS_H
/*
 * Every action the TUI can perform, in one X-macro (tig's REQ_INFO):
 * ACT(ID, "name", "help text"), grouped by GROUP("heading"). From it come
 * enum action, the name lookup used by :commands and scripts, the help
 * view and the footer. Keys are bound to actions in keys.c, never here.
 * Values start above every curses key code (ACT_BASE > KEY_MAX, checked
 * in keys.c) so an action and a key can share an int.
 */

#include "tui/views.h"

#define ACT_BASE 0x10000

#define ACTION_LIST(ACT, GROUP) \
	GROUP("Cursor navigation") \
	ACT(MOVE_DOWN, "move-down", "Move the cursor down") \
	ACT(MOVE_UP, "move-up", "Move the cursor up") \
	ACT(PAGE_DOWN, "page-down", "Move down one page") \
	ACT(PAGE_UP, "page-up", "Move up one page") \
	ACT(MOVE_FIRST, "move-first", "Jump to the first row") \
	ACT(MOVE_LAST, "move-last", "Jump to the last row") \
	ACT(COL_LEFT, "column-left", \
	    "Move the column cursor left; scroll the wide views left") \
	ACT(COL_RIGHT, "column-right", \
	    "Move the column cursor right; scroll the wide views right "\
	    "(Disagreements, Runs)") \
	GROUP("Views") \
	ACT(ENTER, "enter", "Open the detail of the row under the cursor") \
	VIEW_LIST(VIEW_ACT_ROW_, ACT) \
	ACT(VIEW_NEXT, "view-next", "Switch to the next view") \
	ACT(VIEW_PREV, "view-prev", "Switch to the previous view") \
	ACT(BACK, "back", "Close the view; quit from the start view") \
	ACT(QUIT, "quit", "Quit") \
	GROUP("Search, filter and sort") \
	ACT(SEARCH, "search", "Search workload, op and metric") \
	ACT(FIND_NEXT, "find-next", "Jump to the next match") \
	ACT(FIND_PREV, "find-prev", "Jump to the previous match") \
	ACT(FILTER, "filter", \
	    "Filter as you type, e.g. metric=ttft op~gemm status=open err>0.1") \
	ACT(FILTER_CLEAR, "filter-clear", "Clear the filter") \
	ACT(SORT, "sort", \
	    "Sort by the column under the cursor (again to reverse)") \
	GROUP("Review") \
	ACT(CYCLE_PAIR, "cycle-pair", \
	    "Next model/reference source pair (perfsim vs silicon ...)") \
	ACT(MARK, "mark", "Mark or unmark the row for a bulk annotation") \
	ACT(MARK_CLEAR, "mark-clear", "Unmark every row") \
	ACT(ANNOTATE, "annotate", "Annotate the row, or every marked row") \
	ACT(OPEN_LINK, "open-link", \
	    "Open the annotation's link (xdg-open with a display, else print it)") \
	ACT(EXPORT, "export", \
	    "Write the rows shown (filter and order) to a CSV file") \
	ACT(UNDO, "undo-annotation", \
	    "Undo the last annotation saved here (a compensating row)") \
	ACT(NEXT_OPEN, "next-open", \
	    "Jump to the next open discrepancy (not explained or accepted)") \
	ACT(ROW_NEXT, "row-next", "Detail: show the next row of the list") \
	ACT(ROW_PREV, "row-prev", "Detail: show the previous row of the list") \
	ACT(FILTER_NEW, "filter-new", \
	    "Show only the pairs new or changed since the last review (again: all)") \
	ACT(GROUP_BY, "group-by", "Summary: group by op class, op, metric ...") \
	ACT(SCATTER_METRIC, "scatter-metric", \
	    "Summary: the scatter's metric (one metric a plot, never pooled)") \
	GROUP("General") \
	ACT(RELOAD, "reload", "Reload from the database") \
	ACT(PROMPT, "prompt", "Type a command (:save-screen FILE, :quit ...)") \
	ACT(REDRAW, "redraw", "Redraw the screen")

#define ACT_ENUM_(id, name, help) ACT_##id,
#define ACT_NOGROUP_(title)

enum action {
	ACT_NONE = ACT_BASE,
	ACTION_LIST(ACT_ENUM_, ACT_NOGROUP_)
	ACT_END
};

#endif
