/* Discrepancies and the open ones (see corr_disc.h). */
#include "src/corr/corr_disc.h"

#include <math.h>
#include <string.h>

#include "base/error.h"
#include "db/review.h"
#include "src/corr/annot.h"
#include "src/corr/correlate_int.h"
#include "src/stats/stats.h"

#define EXCLUDED (CORR_NOISY_REF | CORR_INVALID | CORR_WITHIN_NOISE)

int corr_is_discrepancy(double err, unsigned flags, double limit)
{
	return isfinite(err) && fabs(err) > limit && !(flags & EXCLUDED);
}

int corr_disc_limit(struct db *db, const char *model_source,
		    const char *ref_source, double *limit, int *from_review)
{
	struct review rv;
	struct review_item *items = NULL;
	size_t n = 0;
	int rc;

	*limit = CORR_DISC_LIMIT;
	if (from_review)
		*from_review = 0;
	memset(&rv, 0, sizeof(rv));
	rc = db_review_last(db, model_source, ref_source, &rv, &items, &n);
	if (rc == PC_ENOTFOUND) {
		pc_error_clear();
		return 0;
	}
	if (rc < 0)
		return rc;
	if (!isnan(rv.limit) && rv.limit > 0) {
		*limit = rv.limit;
		if (from_review)
			*from_review = 1;
	}
	db_review_release(&rv);
	db_review_items_free(items, n);
	return 0;
}

/* The current annotation of slim point i (full points carry theirs). */
static const struct annot *slim_ann(const struct corr_set *s, size_t i)
{
	const struct corr_store *st = s->store;
	const struct corr_slim *v = &s->slim[i];

	return annot_index_find(st->annots,
				st->dict[DB_DICT_WORKLOADS][v->w].name,
				st->dict[DB_DICT_OPS][v->o].name,
				st->dict[DB_DICT_METRICS][v->m].name,
				s->model.source, s->ref.source);
}

void corr_disc_count(struct corr_disc *out, const struct corr_set *s,
		     double limit, int from_review)
{
	memset(out, 0, sizeof(*out));
	out->limit = limit;
	out->from_review = from_review;
	if (s->model.kind && !strcmp(s->model.kind, "roofline")) {
		out->bound = 1;
		return;
	}
	for (size_t i = 0; i < s->n; i++) {
		const struct annot *a;
		double err;
		unsigned flags;

		if (s->slim) {
			err = stats_err(s->slim[i].model, s->slim[i].ref);
			flags = s->slim[i].flags;
		} else {
			err = s->points[i].err;
			flags = s->points[i].flags;
		}
		if (!corr_is_discrepancy(err, flags, limit))
			continue;
		out->n++;
		a = s->slim ? slim_ann(s, i) : s->points[i].ann;
		out->open += annot_status_open(a ? a->status : NULL);
	}
}
