/* Current-annotation matching (src/annot.c). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "src/corr/annot.h"
#include "base/util.h"

static char *dup(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static void row(struct annot *a, int64_t id, const char *w, const char *o,
		const char *m, const char *ms, int pat, const char *status,
		const char *expires)
{
	memset(a, 0, sizeof(*a));
	a->id = id;
	a->workload = dup(w);
	a->op = dup(o);
	a->metric = dup(m);
	a->model_source = dup(ms);
	a->is_pattern = pat;
	a->status = dup(status);
	a->category = dup("unknown");
	a->note = dup("n");
	a->expires = dup(expires);
}

TEST(match_order)
{
	struct annot *r = calloc(7, sizeof(*r));
	struct annot_index *ix;
	const struct annot *a;

	row(&r[0], 1, "w1", "gemm", "time", NULL, 0, "open", NULL);
	row(&r[1], 2, "w*", "*", NULL, NULL, 1, "explained", NULL);
	row(&r[2], 3, "w1", "gemm", "time", NULL, 0, "accepted", NULL);
	row(&r[3], 4, "w2", NULL, NULL, NULL, 0, "investigating", NULL);
	row(&r[4], 5, "w1", "attn", "time", "simB", 0, "fixed", NULL);
	row(&r[5], 6, "x*", "*", "*", NULL, 1, "open", NULL);
	row(&r[6], 7, "x*", "gemm", "*", NULL, 1, "wontfix", NULL);
	ix = annot_index_new(r, 7);
	/* newest row of the exact key wins */
	a = annot_index_find(ix, "w1", "gemm", "time", "simA", "lab");
	CHECK(a && a->id == 3);
	/* exact key with a source that does not match: falls to patterns */
	a = annot_index_find(ix, "w1", "attn", "time", "simA", "lab");
	CHECK(a && a->id == 2);
	a = annot_index_find(ix, "w1", "attn", "time", "simB", "lab");
	CHECK(a && a->id == 5);
	/* an exact row with NULL parts beats a pattern */
	a = annot_index_find(ix, "w2", "gemm", "power", "simA", "lab");
	CHECK(a && a->id == 4);
	/* among patterns the newest matching wins */
	a = annot_index_find(ix, "x9", "gemm", "time", "simA", "lab");
	CHECK(a && a->id == 7);
	a = annot_index_find(ix, "x9", "attn", "time", "simA", "lab");
	CHECK(a && a->id == 6);
	CHECK(annot_index_find(ix, "y", "gemm", "time", "s", "r") == NULL);
	annot_index_free(ix);
	ix = annot_index_new(NULL, 0);
	CHECK(annot_index_find(ix, "w", "o", "m", "a", "b") == NULL);
	annot_index_free(ix);
}

TEST(waived)
{
	struct annot a;

	row(&a, 1, "w", "o", "m", NULL, 0, "accepted", "2026-12-01");
	CHECK(annot_waived(&a, "2026-11-30"));
	CHECK(annot_waived(&a, "2026-12-01"));
	CHECK(!annot_waived(&a, "2026-12-02"));
	free(a.expires);
	a.expires = NULL;
	CHECK(annot_waived(&a, "2099-01-01"));
	CHECK(annot_waived(&a, NULL));
	free(a.status);
	a.status = dup("explained");
	CHECK(!annot_waived(&a, "2000-01-01"));
	CHECK(!annot_waived(NULL, NULL));
	free(a.workload);
	free(a.op);
	free(a.metric);
	free(a.status);
	free(a.category);
	free(a.note);
}

/* The row the TUI's undo appends for a key that had no annotation
 * (issue 35 QA): it hides the key's older rows of its tier and reads as
 * none, so the lower tiers apply again; find and assign agree. */
static const char *const nm[3][2] = { { "w1", "w2" }, { "gemm", "attn" },
				      { "time", "power" } };
static const int32_t pts[] = { 0, 0, 0,  0, 1, 0,  1, 0, 0,  1, 1, 1 };
#define NPTS 4

static const char *t_name(void *arg, int p, int64_t id)
{
	(void)arg;
	return nm[p][id];
}

static int t_lookup(void *arg, const char *w, const char *o, const char *m,
		    int64_t ids[3])
{
	const char *s[3] = { w, o, m };

	(void)arg;
	for (int p = 0; p < 3; p++) {
		ids[p] = -1;
		for (int i = 0; i < 2; i++)
			if (!strcmp(nm[p][i], s[p]))
				ids[p] = i;
		if (ids[p] < 0)
			return -1;
	}
	return 0;
}

static long t_find(void *arg, const int64_t ids[3])
{
	(void)arg;
	for (long k = 0; k < NPTS; k++)
		if (pts[k * 3] == ids[0] && pts[k * 3 + 1] == ids[1] &&
		    pts[k * 3 + 2] == ids[2])
			return k;
	return -1;
}

static void undo_row(struct annot *a, int64_t id, const char *w,
		     const char *o, const char *m, int pat)
{
	row(a, id, w, o, m, NULL, pat, "open", NULL);
	free(a->note);
	a->note = dup(ANNOT_UNDO_NONE_NOTE);
}

TEST(undo_none)
{
	struct annot *r = calloc(7, sizeof(*r));
	struct annot_index *ix;
	const struct annot *got[NPTS], *a;
	struct annot_targets t = { NPTS, pts, 3, { 1, 1, 1 }, "simA", "lab",
				   NULL, t_name, t_lookup, t_find };

	row(&r[0], 1, "w1", "gemm", "time", NULL, 0, "explained", NULL);
	undo_row(&r[1], 2, "w1", "gemm", "time", 0);
	row(&r[2], 3, "w1", "attn", "time", NULL, 0, "explained", NULL);
	undo_row(&r[3], 4, "w1", "attn", "time", 0);
	row(&r[4], 5, "w*", "attn", "*", NULL, 1, "investigating", NULL);
	row(&r[5], 6, "w2", "gemm", "time", NULL, 0, "fixed", NULL);
	undo_row(&r[6], 7, "w2", "gemm", NULL, 0);
	ix = annot_index_new(r, 7);
	/* undone with nothing below: none, not the older explained row */
	CHECK(annot_index_find(ix, "w1", "gemm", "time", "simA", "lab") ==
	      NULL);
	/* undone, a pattern below: the pattern applies */
	a = annot_index_find(ix, "w1", "attn", "time", "simA", "lab");
	CHECK(a && a->id == 5);
	/* a partial "none" row does not undo a full exact key */
	a = annot_index_find(ix, "w2", "gemm", "time", "simA", "lab");
	CHECK(a && a->id == 6);
	/* w2 attn power: the pattern (no exact row at all) */
	a = annot_index_find(ix, "w2", "attn", "power", "simA", "lab");
	CHECK(a && a->id == 5);
	annot_index_assign(ix, &t, got);
	for (long k = 0; k < NPTS; k++)
		CHECK(got[k] == annot_index_find(ix, nm[0][pts[k * 3]],
			nm[1][pts[k * 3 + 1]], nm[2][pts[k * 3 + 2]],
			"simA", "lab"));
	CHECK(annot_none(NULL) && annot_none(&r[1]) && !annot_none(&r[0]));
	CHECK(annot_is_undo_none(&r[3]) && !annot_is_undo_none(&r[4]));
	annot_index_free(ix);
}

TEST_MAIN(CASE(match_order), CASE(waived), CASE(undo_none))
