/* Current-annotation lookup (see annot.h). */
#include "src/corr/annot.h"

#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/hmap.h"
#include "base/strbuf.h"
#include "base/util.h"

struct annot_index {
	struct annot *rows;
	size_t n;
	struct hmap exact;	/* "w\x1fo\x1fm" -> newest row index */
	size_t *older;		/* chain to the next older row of that key */
	size_t *general;	/* other rows, by tier then newest first */
	size_t ngeneral;
};

#define NONE ((size_t)-1)

static void key_of(struct strbuf *sb, const char *w, const char *o,
		   const char *m)
{
	strbuf_reset(sb);
	strbuf_addstr(sb, w);
	strbuf_addch(sb, '\x1f');
	strbuf_addstr(sb, o);
	strbuf_addch(sb, '\x1f');
	strbuf_addstr(sb, m);
}

static int full_exact(const struct annot *a)
{
	return !a->is_pattern && a->workload && a->op && a->metric;
}

static const struct annot *sort_rows;

/* exact rows with NULL parts first, then patterns; newest first */
static int general_cmp(const void *pa, const void *pb)
{
	const struct annot *a = &sort_rows[*(const size_t *)pa];
	const struct annot *b = &sort_rows[*(const size_t *)pb];

	if (a->is_pattern != b->is_pattern)
		return a->is_pattern ? 1 : -1;
	return (a->id < b->id) - (a->id > b->id);
}

size_t annot_index_count(const struct annot_index *ix)
{
	return ix ? ix->n : 0;
}

struct annot_index *annot_index_new(struct annot *rows, size_t n)
{
	struct annot_index *ix = xcalloc(1, sizeof(*ix));
	struct strbuf sb = STRBUF_INIT;

	ix->rows = rows;
	ix->n = n;
	hmap_init(&ix->exact);
	ix->older = xcalloc(n ? n : 1, sizeof(*ix->older));
	ix->general = xcalloc(n ? n : 1, sizeof(*ix->general));
	for (size_t i = 0; i < n; i++) {
		int64_t prev;

		ix->older[i] = NONE;
		if (!full_exact(&rows[i])) {
			ix->general[ix->ngeneral++] = i;
			continue;
		}
		key_of(&sb, rows[i].workload, rows[i].op, rows[i].metric);
		if (hmap_get(&ix->exact, strbuf_str(&sb), &prev)) {
			/* rows come oldest first; keep the newest on top */
			if (rows[prev].id < rows[i].id) {
				ix->older[i] = (size_t)prev;
				hmap_put(&ix->exact, strbuf_str(&sb),
					 (int64_t)i);
			} else {
				size_t *pp = &ix->older[prev];

				while (*pp != NONE && rows[*pp].id > rows[i].id)
					pp = &ix->older[*pp];
				ix->older[i] = *pp;
				*pp = i;
			}
		} else {
			hmap_put(&ix->exact, strbuf_str(&sb), (int64_t)i);
		}
	}
	strbuf_release(&sb);
	sort_rows = rows;
	if (ix->ngeneral > 1)
		qsort(ix->general, ix->ngeneral, sizeof(*ix->general),
		      general_cmp);
	return ix;
}

int annot_index_load(struct annot_index **out, struct db *db)
{
	struct annot *rows = NULL;
	size_t n = 0;
	int rc = db_annot_all(db, &rows, &n);

	if (rc < 0)
		return rc;
	*out = annot_index_new(rows, n);
	return 0;
}

void annot_index_free(struct annot_index *ix)
{
	if (!ix)
		return;
	db_annot_free(ix->rows, ix->n);
	hmap_release(&ix->exact);
	free(ix->older);
	free(ix->general);
	free(ix);
}

static int part(const char *pat, const char *s, int glob)
{
	if (!pat)
		return 1;
	if (!s)
		return 0;
	return glob ? util_glob(pat, s) : !strcmp(pat, s);
}

static int sources_match(const struct annot *a, const char *ms,
			 const char *rs)
{
	return part(a->model_source, ms, a->is_pattern) &&
	       part(a->ref_source, rs, a->is_pattern);
}

int annot_is_undo_none(const struct annot *a)
{
	return a && a->status && !strcmp(a->status, "open") && a->note &&
	       !strcmp(a->note, ANNOT_UNDO_NONE_NOTE);
}

int annot_none(const struct annot *a)
{
	return !a || !a->status || !*a->status || annot_is_undo_none(a);
}

/* 0 exact rows naming workload, op and metric, 1 other exact rows,
 * 2 patterns */
static int row_tier(const struct annot *a)
{
	return a->is_pattern ? 2 : full_exact(a) ? 0 : 1;
}

const struct annot *annot_index_find(const struct annot_index *ix,
				     const char *workload, const char *op,
				     const char *metric,
				     const char *model_source,
				     const char *ref_source)
{
	struct strbuf sb = STRBUF_INIT;
	int64_t top;
	int found, blocked = 0;	/* tiers below this one said "none" */

	if (!ix || ix->n == 0)
		return NULL;
	key_of(&sb, workload, op, metric);
	found = hmap_get(&ix->exact, strbuf_str(&sb), &top);
	strbuf_release(&sb);
	for (size_t i = found ? (size_t)top : NONE; i != NONE;
	     i = ix->older[i])
		if (sources_match(&ix->rows[i], model_source, ref_source)) {
			if (!annot_is_undo_none(&ix->rows[i]))
				return &ix->rows[i];
			blocked = 1;
			break;
		}
	for (size_t g = 0; g < ix->ngeneral; g++) {
		const struct annot *a = &ix->rows[ix->general[g]];

		if (row_tier(a) < blocked)
			continue;
		if (part(a->workload, workload, a->is_pattern) &&
		    part(a->op, op, a->is_pattern) &&
		    part(a->metric, metric, a->is_pattern) &&
		    sources_match(a, model_source, ref_source)) {
			if (!annot_is_undo_none(a))
				return a;
			blocked = row_tier(a) + 1;
		}
	}
	return NULL;
}

unsigned annot_code(const char *const *list, const char *s)
{
	for (unsigned i = 0; s && list[i]; i++)
		if (!strcmp(list[i], s))
			return i + 1;
	return 0;
}

void annot_today(char *buf, size_t len)
{
	char now[32];

	util_now_iso(now, sizeof(now));
	snprintf(buf, len, "%.10s", now);
}

int annot_status_open(const char *status)
{
	return !status || !*status || !strcmp(status, "open") ||
	       !strcmp(status, "investigating");
}

const char *annot_state(const struct annot *a)
{
	return a && a->status && *a->status ? a->status : ANNOT_STATE_NONE;
}

int annot_waived(const struct annot *a, const char *today)
{
	char buf[16];

	if (!a || !a->status || strcmp(a->status, "accepted"))
		return 0;
	if (!a->expires || !*a->expires)
		return 1;
	if (!today) {
		annot_today(buf, sizeof(buf));
		today = buf;
	}
	return strncmp(a->expires, today, 10) >= 0;
}

/* Per name id of one part: does a's pattern (or exact text) match? */
static unsigned char *part_memo(const struct annot *a, const char *pat,
				const struct annot_targets *t, int p)
{
	unsigned char *m;

	if (!pat)
		return NULL;
	m = xcalloc((size_t)t->max_id[p] + 2, 1);
	for (int64_t id = 0; id <= t->max_id[p]; id++)
		m[id] = (unsigned char)part(pat, t->name(t->arg, p, id),
					    a->is_pattern);
	return m;
}

static int memo_ok(const unsigned char *m, int32_t id, int64_t max)
{
	return !m || (id >= 0 && id <= max && m[id]);
}

void annot_index_assign(const struct annot_index *ix,
			const struct annot_targets *t,
			const struct annot **out)
{
	unsigned char *blocked;	/* per point: tiers below said "none" */

	memset(out, 0, t->n * sizeof(*out));
	if (!ix || !ix->n || !t->n)
		return;
	blocked = xcalloc(t->n, 1);
	/* exact rows, newest first: the first to claim a point wins */
	for (size_t i = ix->n; i-- > 0;) {
		const struct annot *a = &ix->rows[i];
		int64_t ids[3];
		long k;

		if (!full_exact(a) ||
		    !sources_match(a, t->model_source, t->ref_source) ||
		    t->lookup(t->arg, a->workload, a->op, a->metric, ids) ||
		    (k = t->find(t->arg, ids)) < 0 || out[k] || blocked[k])
			continue;
		if (annot_is_undo_none(a))
			blocked[k] = 1;
		else
			out[k] = a;
	}
	/* the rest by tier, newest first, on points still unclaimed */
	for (size_t g = 0; g < ix->ngeneral; g++) {
		const struct annot *a = &ix->rows[ix->general[g]];
		int tier = row_tier(a), none = annot_is_undo_none(a);
		unsigned char *m[3];

		if (!sources_match(a, t->model_source, t->ref_source))
			continue;
		m[0] = part_memo(a, a->workload, t, 0);
		m[1] = part_memo(a, a->op, t, 1);
		m[2] = part_memo(a, a->metric, t, 2);
		for (size_t k = 0; k < t->n; k++) {
			const int32_t *id = t->ids + k * t->stride;

			if (!out[k] && tier >= blocked[k] &&
			    memo_ok(m[0], id[0], t->max_id[0]) &&
			    memo_ok(m[1], id[1], t->max_id[1]) &&
			    memo_ok(m[2], id[2], t->max_id[2])) {
				if (none)
					blocked[k] = (unsigned char)(tier + 1);
				else
					out[k] = a;
			}
		}
		for (int p = 0; p < 3; p++)
			free(m[p]);
	}
	free(blocked);
}
