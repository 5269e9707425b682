/* The review's progress and what is new since the last recorded review
 * (see data.h): the report's definitions over the pair index. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/annot.h"
#include "src/corr/annot.h"
#include "db/review.h"
#include "base/error.h"
#include "base/hmap.h"
#include "base/util.h"
#include "src/corr/corr_disc.h"
#include "src/corr/correlate.h"
#include "src/pairidx/pairidx.h"
#include "tui/data.h"


/* Here, not in data.c: data_review.c never calls into data.c. */
int data_bound(const struct tui_data *d)
{
	return d->ix && d->ix->model.kind &&
	       !strcmp(d->ix->model.kind, "roofline");
}

/* data_is_discrepancy of a pairing that is no bound: the loops over
 * every point ask data_bound (a strcmp) once, not per point */
static int discrepancy_at(const struct tui_data *d, size_t i)
{
	/* the core's flags only (the low byte; the TUI's own above it) */
	return corr_is_discrepancy(d->ix->keys[i].err,
				   d->ix->keys[i].flags & 0xff, d->limit);
}

int data_is_discrepancy(const struct tui_data *d, size_t i)
{
	/* a bound's pairs are no model's errors (issue 35) */
	return !data_bound(d) && discrepancy_at(d, i);
}

/* Here, beside data_status_open, so that data_review.c never calls into
 * data.c (data.c calls data_review_load; issue 33). */
const char *data_status_name(unsigned code)
{
	return code ? db_annot_statuses[code - 1] : "";
}

const char *data_status_word(unsigned code)
{
	return code ? db_annot_statuses[code - 1] : ANNOT_STATE_NONE;
}

int data_status_open(unsigned code)
{
	return annot_status_open(data_status_name(code));
}

int data_is_open(const struct tui_data *d, size_t i)
{
	return data_is_discrepancy(d, i) &&
	       data_status_open(d->src.status ? d->src.status[i] : 0);
}

void data_progress(const struct tui_data *d, size_t *ndisc, size_t *nopen)
{
	const struct pidx_key *k = d->ix ? d->ix->keys : NULL;
	size_t n = d->ix ? d->ix->n : 0;

	*ndisc = *nopen = 0;
	if (data_bound(d))
		return;
	/* |err| descending, NaN last (pidx_check_keys refuses an index in
	 * another order): a discrepancy has |err| > limit, so none comes
	 * after the first point that has not */
	for (size_t i = 0; i < n && fabs(k[i].err) > d->limit; i++)
		if (discrepancy_at(d, i)) {
			++*ndisc;
			*nopen += data_status_open(d->src.status ?
						   d->src.status[i] : 0);
		}
}

/* name -> id over ids 0..max of one part, for the review's keys */
static void index_names(struct hmap *m, const struct pidx *x, int part)
{
	hmap_init(m);
	for (int64_t id = 0; id <= x->max_id[part]; id++) {
		const char *n = part == 0 ? pidx_workload(x, id) : part == 1 ?
				pidx_op(x, id) : pidx_metric(x, id);

		if (*n)
			hmap_put(m, n, id);
	}
}

/* The stored values and today's differ (the review stores the doubles
 * it listed: a value from the same run is the same double). */
static int differs(double then, double now)
{
	if (isnan(then) || isnan(now))
		return isnan(then) != isnan(now);
	return fabs(then - now) > 1e-12 * fmax(fabs(then), fabs(now));
}

int data_review_load(struct tui_data *d)
{
	struct pidx *x = d->ix;
	struct review rv;
	struct review_item *items = NULL;
	size_t n = 0;
	unsigned char *listed;
	struct hmap names[3];
	int rc, bound;

	/* the points this function flagged on this index before (a fresh
	 * index has none: pidx_check_keys keeps only the core's flags, and
	 * free_set zeroes the counts) */
	for (size_t i = 0; x && (d->nnew || d->nchanged) && i < x->n; i++)
		x->keys[i].flags &= ~ROWS_FLAG_NEW;
	d->limit = CORR_DISC_LIMIT;	/* corr_disc_limit's rule */
	d->have_review = 0;
	d->nnew = d->nchanged = 0;
	free(d->since);
	d->since = NULL;
	if (!x)
		return 0;
	memset(&rv, 0, sizeof(rv));
	rc = db_review_last(d->db, x->model.source, x->ref.source, &rv, &items,
			    &n);
	if (rc == PC_ENOTFOUND) {
		pc_error_clear();
		return 0;
	}
	if (rc < 0)
		return rc;
	d->have_review = 1;
	if (!isnan(rv.limit) && rv.limit > 0)
		d->limit = rv.limit;
	snprintf(d->review_at, sizeof(d->review_at), "%.10s",
		 rv.created_at ? rv.created_at : "");
	d->since = xcalloc(x->n ? x->n : 1, 1);
	listed = xcalloc(x->n ? x->n : 1, 1);
	for (int part = 0; part < 3; part++)
		index_names(&names[part], x, part);
	for (size_t j = 0; j < n; j++) {
		int64_t w, o, m;
		long i;

		if (!hmap_get(&names[0], items[j].workload, &w) ||
		    !hmap_get(&names[1], items[j].op, &o) ||
		    !hmap_get(&names[2], items[j].metric, &m) ||
		    (i = pidx_find(x, w, o, m)) < 0)
			continue;	/* no longer paired: resolved */
		listed[i] = 1;
		if (differs(items[j].model, x->vals[i].model) ||
		    differs(items[j].ref, x->vals[i].ref))
			d->since[i] = DATA_CHANGED;
	}
	bound = data_bound(d);
	for (size_t i = 0; i < x->n; i++) {
		if (!listed[i] && !bound && discrepancy_at(d, i))
			d->since[i] = DATA_NEW;
		if (d->since[i]) {
			x->keys[i].flags |= ROWS_FLAG_NEW;
			d->nnew += d->since[i] == DATA_NEW;
			d->nchanged += d->since[i] == DATA_CHANGED;
		}
	}
	for (int part = 0; part < 3; part++)
		hmap_release(&names[part]);
	free(listed);
	db_review_release(&rv);
	db_review_items_free(items, n);
	return 0;
}
