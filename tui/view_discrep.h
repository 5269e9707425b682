#ifndef PC_TUI_VIEW_DISCREP_H
#define PC_TUI_VIEW_DISCREP_H
/*
 * The discrepancy view's state, shared by view_discrep.c (loading and
 * keys) and view_discrep_draw.c (drawing). Owned by the view (priv).
 */
#include <stddef.h>
#include <stdint.h>

#include "src/stats/stats.h"
#include "tui/rows.h"
#include "src/corr/wabbr.h"

struct view;

struct mkey {
	int64_t w, o, m;
};

struct discrep {
	struct rows rows;
	struct filter filter;
	int have_rows;
	int sort_col, sort_desc;	/* survive reloads */
	unsigned char *marked;		/* per point */
	struct mkey *marks;		/* the same, by key (survives reloads) */
	size_t nmarks;
	struct mkey at;			/* the cursor's point */
	int have_at;
	struct stats_summary fsum;	/* summary of the filtered rows */
	int have_fsum;
	int opw, mw;			/* widest op and metric name */
	int vw;				/* a value with its unit, widest */
	int cw[RC_COUNT], have_cw;	/* the last draw's widths (0: left
					   out at that width) */
	int stw;			/* the widest state word, as of */
	unsigned stw_gen, stw_ann;	/* data and annotation generation */
	struct wabbr wa;		/* the workloads' shared parts */
	/* progress: discrepancies and the open ones, as of data generation
	 * and annotation generation (recounted when either moved) */
	size_t ndisc, nopen;
	unsigned prog_gen, prog_ann;
	int have_prog;
};

extern const char *const discrep_col_names[RC_COUNT];

/* The view's state, created on first use. */
struct discrep *discrep_priv(struct view *v);
/* Remember the cursor's point (by ids) to find it after a reload. */
void discrep_remember_cursor(struct view *v);
void discrep_draw(struct view *v, int y, int h, int w);
/* The header line (view_discrep_head.c): progress, summary, SoL,
 * filter, fingerprint check, intervals, as many as fit by priority. */
void discrep_header(struct view *v, int y, int w);
/* 1 when s's r is undefined because it spans several metrics. */
struct stats_summary;
int discrep_mixed_metrics(const struct stats_summary *s);
/* Count the discrepancies and the open ones when the data or the
 * annotations changed since the last count. */
void discrep_progress(struct view *v);
/* Move the cursor by dir rows (]/[ from the detail view) or to the next
 * open discrepancy after it (dir 0), wrapping; the point under it in
 * *point. 0, or -1 when there is none (a message on the status line). */
int discrep_step(struct view *v, int dir, uint32_t *point);
/* Space in the detail view: mark or unmark the list's row of point (as
 * Space in the list: the cursor then moves down; *next is the point
 * under it), saying how many rows are marked. 1 marked, 0 unmarked, -1
 * when the point is not in the list (a message on the status line). */
int discrep_mark(struct view *v, uint32_t point, uint32_t *next);
/* Undo the last annotation (data_undo), saying what happened; the list's
 * status order follows. */
void discrep_undo(struct view *v);

/* E: the rows shown to a CSV file named at a prompt (export.h). */
int discrep_export(struct view *v);
/* c: only the pairs new or changed since the last review (flag=new in
 * the filter), again: all. */
int discrep_toggle_new(struct view *v);

/* Filter the list by text (the filter syntax of `f`), as if typed and
 * kept with Enter; the cursor goes to the first row. 0, or <0 with the
 * parser's message. */
int discrep_set_filter(struct view *v, const char *text);

#endif
