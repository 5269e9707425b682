#ifndef PC_TUI_VIEWS_H
#define PC_TUI_VIEWS_H
/*
 * Every view, in one X-macro (tig's VIEW_INFO): a view is one file
 * (tui/view_<name>.c, ending with its ops table) and one row here. From
 * the rows come enum view_id (tui.h), the ops table and the Tab order
 * (tui.c), the switch from an action to its view (tui.c), the
 * `view-NAME` actions with their help (actions.h, so the help view and
 * :commands know them) and their key bindings (keys.c).
 *
 * VIEW(X, ID, KIND, ops, key, "action-name", "help"), X being the second
 * argument of VIEW_LIST passed through (ACTION_LIST hands its ACT).
 *   KIND  TOP    a top-level view: action, key, in the Tab order;
 *                switching to it grows no history
 *         CHILD  remembers the view it was opened from (q goes back)
 *                and has no action of its own (Enter opens it)
 *         KEYED  a child with an action and a key (help)
 *   key   the key bound in the generic keymap (0 for CHILD)
 *   help  what the view shows (a CHILD's says how it opens): the help
 *         view, `tui --help` and the man page's KEYS list it
 * The row order is the enum's and the Tab order.
 */

#define VIEW_LIST(VIEW, X) \
	VIEW(X, DISCREP, TOP, discrep_ops, '1', "view-discrepancies", \
	     "Show the discrepancies (start view)") \
	VIEW(X, DETAIL, CHILD, detail_ops, 0, "", \
	     "One workload + op across every source (Enter on a list row)") \
	VIEW(X, SUMMARY, TOP, summary_ops, '2', "view-summary", \
	     "Show statistics per group, scatter plot and histogram") \
	VIEW(X, TREND, TOP, trend_ops, '3', "view-trend", \
	     "Show error statistics per model version") \
	VIEW(X, RUNS, TOP, runs_ops, '4', "view-runs", \
	     "Show the imported runs") \
	VIEW(X, DISAGREE, TOP, disagree_ops, '5', "view-disagreements", \
	     "Who disagrees with whom: the matrix, the odd one out per key") \
	VIEW(X, REGRESS, CHILD, regress_ops, 0, "", \
	     "What moved since the version before (Enter on a Trend row)") \
	VIEW(X, VERDICTS, KEYED, verdicts_ops, '6', "view-verdicts", \
	     "Verdicts against the limits (--slo) and the tails") \
	VIEW(X, SENS, KEYED, sens_ops, '7', "view-sensitivity", \
	     "Sensitivity: the model's elasticity along each knob sweep") \
	VIEW(X, TIERS, KEYED, tiers_ops, '8', "view-tiers", \
	     "Tiers: accuracy against cost per tier below the reference") \
	VIEW(X, HELP, KEYED, help_ops, '?', "view-help", "Show this help")

/* Per-KIND helpers: VIEW_IF_ACTION_<KIND>(x) is x for views with an
 * action, nothing for the others; VIEW_IS_TOP_<KIND> is 1 or 0. */
#define VIEW_IF_ACTION_TOP(...) __VA_ARGS__
#define VIEW_IF_ACTION_KEYED(...) __VA_ARGS__
#define VIEW_IF_ACTION_CHILD(...)
#define VIEW_IS_TOP_TOP 1
#define VIEW_IS_TOP_KEYED 0
#define VIEW_IS_TOP_CHILD 0

/* One action per view that has one, for ACTION_LIST (actions.h). */
#define VIEW_ACT_ROW_(ACT, id, kind, ops, key, name, help) \
	VIEW_IF_ACTION_##kind(ACT(VIEW_##id, name, help))

#endif
