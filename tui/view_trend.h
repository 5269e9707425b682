#ifndef PC_TUI_VIEW_TREND_H
#define PC_TUI_VIEW_TREND_H
/*
 * The trend view's state, shared by view_trend.c (the versions' table,
 * the release changes, the chart, keys) and view_trend_groups.c (`b`:
 * the MAPE of each op class or op per version). Owned by the view
 * (priv).
 */
#include <stddef.h>

#include "tui/trend_series.h"

struct stats_summary;
struct view;

struct trend {
	char **versions;
	size_t n;
	struct stats_summary *sum;
	int *ok;		/* 1 when the version paired anything */
	char *model, *ref;	/* source, ref spec */
	size_t by;		/* 0 overall, else trend_group_keys[by] */
	char **gnames;		/* groups of that key, worst last MAPE first */
	size_t ng;
	double *gmape;		/* [g * n + version], NaN = not there; a
				   bound's: the fraction of speed of light */
	struct trend_series ser;	/* release changes, change points
					   (overall only; ser.ch NULL: not
					   loaded) */
	char *ser_err;		/* why they could not be computed */
	int bound;		/* the model is a roofline (data_bound): the
				   fraction of speed of light, not MAPE */
};

/* The group keys `b` cycles through: overall (NULL), op class, op. */
#define TREND_NKEYS 3
extern const char *const trend_group_keys[TREND_NKEYS];

/* Free the groups (gnames, gmape). */
void trend_groups_free(struct trend *t);
/* The MAPE of every group of trend_group_keys[t->by] per version (a
 * bound's: the fraction of speed of light, the core's efficiency): each
 * version paired (corr_load) and grouped by the core, worst (by the
 * newest version's, highest) first; v->nrows the groups. 0 or <0. */
int trend_groups_load(struct view *v, struct trend *t);
/* One row per group: its MAPE in the newest versions that fit and a
 * sparkline over every version on its metric's scale. */
void trend_groups_draw(struct view *v, int y, int h, int w);

#endif
