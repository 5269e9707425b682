/* A column of workload keys (see keycol.h). */
#include "tui/keycol.h"

#include "src/corr/wabbr.h"

int keycol_fit(const struct wabbr *a, int room, int widen, int *w_out)
{
	int need = a->fullw > 8 ? a->fullw : 8, level = 0;

	if (need > room && a->ncommon) {
		level = 1;
		need = a->abbrw > 8 ? a->abbrw : 8;
	}
	if (need > room && a->ngroups > 1 && a->abbrw2 < need) {
		level = 2;
		need = a->abbrw2 > 8 ? a->abbrw2 : 8;
	}
	/* the heading of shared parts is worth the spare columns */
	if (widen && level == 1 && a->templ &&
	    wabbr_width(a->templ) + 1 > need)
		need = wabbr_width(a->templ) + 1;
	*w_out = room > need ? need : room > 4 ? room : 4;
	return level;
}

const char *keycol_heading(const struct wabbr *a, int level)
{
	return level == 1 && a->templ ? a->templ : "workload";
}

const char *keycol_apply(const struct wabbr *a, int level, int w,
			 const char *name, char *buf, size_t len)
{
	const char *shown = level == 2 ? wabbr_apply2(a, name, w, buf, len) :
			    level ? wabbr_apply(a, name, buf, len) : name;

	/* the column is narrower than its widest key: leave out the
	 * KEY=VALUE parts that are the same in every key holding KEY too
	 * (decode/bs=32/seq=2048 -> decode/bs=32), before the cut in the
	 * middle hides the batch; in every row, so that two rows never
	 * seem to differ in a part only one of them shows */
	if (level == 1 && a->abbrw > w)
		shown = wabbr_apply_tight(a, name, buf, len);
	return shown;
}
