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

TEST_MAIN(CASE(match_order), CASE(waived))
