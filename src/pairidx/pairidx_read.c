/*
 * The pair index, what the views read (see pairidx.h): points, lookup by
 * key, cached orders, group statistics, the scatter grid, the filtered
 * header's figures, and the annotation state of every point.
 */
#include "src/pairidx/pairidx_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/annot.h"
#include "db/pairs.h"
#include "src/corr/annot.h"
#include "base/error.h"
#include "base/util.h"
#include "src/corr/wabbr.h"

static const char *target_name(void *arg, int part, int64_t id)
{
	return part == PIDX_NAME_WORKLOAD ? pidx_workload(arg, id) :
	       part == PIDX_NAME_OP ? pidx_op(arg, id) : pidx_metric(arg, id);
}

static int target_lookup(void *arg, const char *w, const char *o,
			 const char *m, int64_t ids[3])
{
	struct pidx *x = arg;

	return db_pairs_ids(x->st->db, w, o, m, ids) ? -1 : 0;
}

static long target_find(void *arg, const int64_t ids[3])
{
	return pidx_find(arg, ids[0], ids[1], ids[2]);
}

static void set_state(struct pidx *x, size_t i, const struct annot *a,
		      const char *today)
{
	x->status[i] = (unsigned char)(a ? annot_code(db_annot_statuses,
						      a->status) : 0);
	x->category[i] = (unsigned char)(a ? annot_code(db_annot_categories,
							a->category) : 0);
	if (a && annot_waived(a, today))
		x->keys[i].flags |= CORR_WAIVED;
	else
		x->keys[i].flags &= ~(unsigned)CORR_WAIVED;
}

int pidx_annotations(struct pidx *x, struct db *db)
{
	struct annot_targets t;
	const struct annot **ann;
	char today[16];
	int rc;

	annot_index_free(x->st->annots);
	x->st->annots = NULL;
	if ((rc = annot_index_load(&x->st->annots, db)) < 0)
		return rc;
	/* in place: views hold these arrays */
	if (!x->status) {
		x->status = xcalloc(x->n ? x->n : 1, 1);
		x->category = xcalloc(x->n ? x->n : 1, 1);
		/* and pidx_check_keys cleared every waived bit */
		x->st->stated = 0;
	}
	/* no annotation now and no point holding a state from an earlier
	 * assignment: every state is clear already (no 8 bytes a point to
	 * assign) */
	if (!annot_index_count(x->st->annots) && !x->st->stated)
		return 0;
	x->st->stated = annot_index_count(x->st->annots) > 0;
	memset(x->status, 0, x->n);
	memset(x->category, 0, x->n);
	ann = xmalloc((x->n ? x->n : 1) * sizeof(*ann));
	t = (struct annot_targets){ .n = x->n, .ids = &x->keys[0].w,
		.stride = sizeof(*x->keys) / sizeof(int32_t),
		.model_source = x->model.source, .ref_source = x->ref.source,
		.arg = x, .name = target_name, .lookup = target_lookup,
		.find = target_find };
	memcpy(t.max_id, x->max_id, sizeof(t.max_id));
	annot_index_assign(x->st->annots, &t, ann);
	annot_today(today, sizeof(today));
	for (size_t i = 0; i < x->n; i++)
		if (ann[i] || (x->keys[i].flags & CORR_WAIVED))
			set_state(x, i, ann[i], today);
	free(ann);
	return 0;
}

static int read_chunk(struct pidx *x, size_t c)
{
	struct pidx_store *st = x->st;
	char name[32];
	void *data;
	size_t len;
	int rc;

	if (st->chunk_no == c)
		return 0;
	snprintf(name, sizeof(name), "cold.%zu", c);
	if ((rc = pidx_get_part(x, name, &data, &len)) < 0)
		return rc;
	free(st->chunk);
	st->chunk = data;
	st->chunk_len = len / sizeof(*st->chunk);
	st->chunk_no = c;
	return 0;
}

int pidx_point(struct pidx *x, size_t i, struct corr_point *out, int full)
{
	const struct pidx_key *k;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (i >= x->n)
		return pc_error_set(PC_ENOTFOUND, "no point %zu", i);
	k = &x->keys[i];
	out->workload_id = k->w;
	out->op_id = k->o;
	out->metric_id = k->m;
	out->workload = pidx_workload(x, k->w);
	out->op = pidx_op(x, k->o);
	out->op_class = pidx_op_class(x, k->o);
	out->metric = pidx_metric(x, k->m);
	out->model = x->vals[i].model;
	out->ref = x->vals[i].ref;
	out->err = k->err;
	out->flags = k->flags;
	out->model_sd = out->ref_sd = out->ref_n = NAN;
	out->ref_min = out->ref_max = NAN;
	if (x->status[i] || (k->flags & CORR_WAIVED))
		out->ann = annot_index_find(x->st->annots, out->workload,
					    out->op, out->metric,
					    x->model.source, x->ref.source);
	if (full && (rc = read_chunk(x, i / PIDX_CHUNK)) == 0 &&
	    i % PIDX_CHUNK < x->st->chunk_len) {
		const struct pidx_cold *c = &x->st->chunk[i % PIDX_CHUNK];

		out->model_sd = c->model_sd;
		out->ref_sd = c->ref_sd;
		out->ref_n = c->ref_n;
		out->ref_min = c->ref_min;
		out->ref_max = c->ref_max;
		out->model_run = c->model_run;
		out->ref_run = c->ref_run;
	}
	return rc;
}

static int key_cmp(const struct pidx_key *k, int64_t w, int64_t o, int64_t m)
{
	if (k->w != w)
		return k->w < w ? -1 : 1;
	if (k->o != o)
		return k->o < o ? -1 : 1;
	return (k->m > m) - (k->m < m);
}

long pidx_find(struct pidx *x, int64_t w, int64_t o, int64_t m)
{
	size_t lo = 0, hi = x->n;

	if (!x->st->bykey && pidx_read_perm(x, "perm.key", &x->st->bykey) < 0)
		return -1;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (key_cmp(&x->keys[x->st->bykey[mid]], w, o, m) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < x->n && !key_cmp(&x->keys[x->st->bykey[lo]], w, o, m))
		return (long)x->st->bykey[lo];
	return -1;
}

int pidx_order(struct pidx *x, int col, const uint32_t **perm,
	       const unsigned char **starts)
{
	struct pidx_store *st = x->st;
	char name[32];
	size_t len;
	int rc;

	if (col < 0 || col >= PIDX_NORDERS)
		return PC_ENOTFOUND;
	if (!st->perm[col]) {
		snprintf(name, sizeof(name), "perm.%d", col);
		if ((rc = pidx_read_perm(x, name, &st->perm[col])) < 0)
			return rc;
		snprintf(name, sizeof(name), "starts.%d", col);
		if ((rc = pidx_load_part(x, name, (void **)&st->starts[col],
				    &len)) < 0 || len < x->n / 8 + 1) {
			free(st->perm[col]);
			free(st->starts[col]);
			st->perm[col] = NULL;
			st->starts[col] = NULL;
			return rc < 0 ? rc : PC_EINVALID;
		}
	}
	*perm = st->perm[col];
	*starts = st->starts[col];
	return 0;
}

static int parse_groups(struct pidx *x, const unsigned char *p,
			const unsigned char *end, struct corrgroup *g)
{
	uint64_t n, size;

	memset(g, 0, sizeof(*g));
	if ((size_t)(end - p) < sizeof(n))
		return -1;
	memcpy(&n, p, sizeof(n));
	p += sizeof(n);
	if (n > (uint64_t)(end - p))
		return -1;
	g->nby = 1;
	g->values = xcalloc(n + 1, sizeof(*g->values));
	g->size = xcalloc(n + 1, sizeof(*g->size));
	g->stats = xcalloc(n + 1, sizeof(*g->stats));
	for (g->n = 0; g->n < n; g->n++) {
		const unsigned char *z;

		if ((size_t)(end - p) < sizeof(size))
			return -1;
		memcpy(&size, p, sizeof(size));
		p += sizeof(size);
		if (!(z = memchr(p, 0, (size_t)(end - p))))
			return -1;
		x->st->pool = xrealloc(x->st->pool, (x->st->npool + 1) *
				       sizeof(*x->st->pool));
		g->values[g->n] = x->st->pool[x->st->npool++] =
			xstrdup((const char *)p);
		p = z + 1;
		g->size[g->n] = (size_t)size;
		if (pidx_get_sum(&p, end, &g->stats[g->n], &x->st->pool,
				 &x->st->npool))
			return -1;
	}
	return 0;
}

int pidx_groups(struct pidx *x, const char *key, const struct corrgroup **out)
{
	struct pidx_store *st = x->st;
	struct group_cache *gc;
	char name[300];
	void *data;
	size_t len;
	int rc;

	for (size_t i = 0; i < st->ngroups; i++)
		if (!strcmp(st->groups[i].key, key)) {
			*out = &st->groups[i].g;
			return 0;
		}
	snprintf(name, sizeof(name), "group.%s", key);
	if ((rc = pidx_get_part(x, name, &data, &len)) == PC_ENOTFOUND &&
	    x->st->q.model) {
		/* not grouped yet: group now (and cache it) */
		pc_error_clear();
		rc = pidx_group_part(x, key, &data, &len);
	}
	if (rc < 0)
		return rc;
	st->groups = xrealloc(st->groups, (st->ngroups + 1) *
			      sizeof(*st->groups));
	gc = &st->groups[st->ngroups++];
	gc->key = xstrdup(key);
	rc = parse_groups(x, data, (const unsigned char *)data + len, &gc->g);
	free(data);
	if (rc) {
		gc->g.n = 0;
		return pc_error_set(PC_EINVALID, "pair cache: bad part '%s'" PIDX_DAMAGED,
				    name);
	}
	*out = &gc->g;
	return 0;
}

const struct pidx_scatter *pidx_scatter(struct pidx *x)
{
	void *data;
	size_t len;

	if (!x->st->scatter && pidx_get_part(x, "scatter", &data, &len) == 0) {
		const struct pidx_scatter *g = data;

		/* the axis labels come from lo and hi */
		if (len == sizeof(*x->st->scatter) &&
		    (g->empty || (isfinite(g->lo) && isfinite(g->hi) &&
				  g->lo < g->hi)))
			x->st->scatter = data;
		else
			free(data);
	}
	return x->st->scatter;
}

void pidx_wabbr(struct pidx *x, struct wabbr *out)
{
	size_t nw = x->max_id[0] >= 0 ? (size_t)x->max_id[0] + 1 : 0, n = 0;
	unsigned char *used;
	const char **names;
	void *data;
	size_t len;

	if (pidx_get_part(x, "wabbr", &data, &len) == 0) {
		int rc = wabbr_get(out, data, len);

		free(data);
		if (rc == 0)
			return;
	}
	/* not in the entry, or damaged: what the build finds, from the
	 * points (the workload ids in use, in id order) */
	pc_error_clear();
	used = xcalloc(nw ? nw : 1, 1);
	for (size_t i = 0; i < x->n; i++)
		used[x->keys[i].w] = 1;
	names = xmalloc((nw ? nw : 1) * sizeof(*names));
	for (size_t id = 0; id < nw; id++)
		if (used[id])
			names[n++] = pidx_workload(x, (int64_t)id);
	wabbr_build(out, names, n);
	free(names);
	free(used);
}

int pidx_basic(struct pidx *x, const unsigned char *mask,
	       struct stats_summary *out)
{
	struct pidx_store *st = x->st;
	long noisy = 0, sol = 0, zero = 0;
	int32_t metric = -1;
	int mixed = 0;

	/* the flags corr_summary looks at, a byte a point (made with the
	 * annotation state): 1 MB to read per keystroke, not 24 */
	if (!st->keep)
		st->keep = xmalloc(x->n ? x->n : 1);
	/* corr_summary's rules: invalid out, noisy out (counted), a zero
	 * reference out (counted), waived in; in index order; Pearson null
	 * over several metrics */
	for (size_t i = 0; i < x->n; i++) {
		unsigned f = st->fl[i];
		unsigned in = (mask ? mask[i] != 0 : 1) & !(f & 1);

		unsigned z = in & !((f >> 1) & 1) & (x->vals[i].ref == 0);

		sol += in & (f >> 2);
		noisy += in & (f >> 1);
		zero += z;	/* a zero reference: out, counted */
		st->keep[i] = (unsigned char)(in & !((f >> 1) & 1) & !z);
		if (st->keep[i]) {
			if (metric < 0)
				metric = x->keys[i].m;
			mixed |= x->keys[i].m != metric;
		}
	}
	stats_basic(out, &x->vals[0].model, &x->vals[0].ref,
			 sizeof(*x->vals) / sizeof(double), st->keep, x->n);
	out->excluded_noisy = noisy;
	out->sol_violations = sol;
	out->excluded_zero_ref = zero;
	/* one summary never pools metrics: Pearson needs one */
	if (mixed) {
		out->pearson = NAN;
		out->why[SF_PEARSON] = STATS_WHY_METRICS;
	}
	return 0;
}
