/*
 * The correlation core (see correlate.h and docs/statistics.md): load a
 * set (corr_pair.c pairs it), sort its points, summarise them. Point
 * strings point into the set's dictionaries (interned once).
 */
#include "src/corr/correlate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "db/pairs.h"
#include "db/wkey.h"
#include "src/corr/annot.h"
#include "base/error.h"
#include "base/hmap.h"
#include "src/corr/correlate_int.h"
#include "base/radix.h"
#include "src/stats/stats_ci.h"
#include "base/strbuf.h"
#include "base/util.h"

/* The dictionaries, the annotations and, unless the query needs none,
 * the workload parameters (issue 21: a 1M-result sweep has 690,000 of
 * them, 60 MB and 0.3 s that a plain compare never reads). */
static int load_store(struct corr_store *st, struct db *db,
		      const struct corr_query *q)
{
	int rc = 0;

	for (int d = 0; d < 3 && !rc; d++)
		rc = db_pairs_names(db, (enum db_dict)d, &st->dict[d],
				    &st->ndict[d]);
	if (!rc && (!q->no_params || (q->where && *q->where))) {
		rc = db_pairs_params(db, &st->params, &st->nparams);
		st->params_loaded = !rc;
	}
	if (!rc)
		rc = annot_index_load(&st->annots, db);
	return rc;
}

int corr_params_load(struct corr_set *s, struct db *db)
{
	struct corr_store *st = s->store;
	int rc;

	if (st->params_loaded)
		return 0;
	rc = db_pairs_params(db, &st->params, &st->nparams);
	st->params_loaded = !rc;
	return rc;
}

static void store_free(struct corr_store *st)
{
	if (!st)
		return;
	for (int d = 0; d < 3; d++)
		db_names_free(st->dict[d], st->ndict[d]);
	db_params_free(st->params, st->nparams);
	annot_index_free(st->annots);
	free(st->wl_selected);
	free(st);
}

static void side_take(struct corr_side *out, struct db_side *in)
{
	out->source = in->source;
	out->kind = in->kind;
	out->version = in->version;
	out->runs = xmalloc((in->nruns ? in->nruns : 1) * sizeof(int64_t));
	memcpy(out->runs, in->runs, in->nruns * sizeof(int64_t));
	out->nruns = in->nruns;
	in->source = in->kind = in->version = NULL;
}

/* Apply the permutation "position j takes the element at perm[j]" in
 * place, cycle by cycle (no second array: the peak holds one); a placed
 * j gets perm[j] = j. */
#define DEFINE_PERMUTE(name, T, I)					\
static void name(T *a, I *perm, size_t n)				\
{									\
	for (size_t i = 0; i < n; i++) {				\
		size_t j = i, k;					\
		T t;							\
									\
		if (perm[i] == i)					\
			continue;					\
		t = a[i];						\
		while ((k = (size_t)perm[j]) != i) {			\
			a[j] = a[k];					\
			perm[j] = (I)j;					\
			j = k;						\
		}							\
		a[j] = t;						\
		perm[j] = (I)j;						\
	}								\
}

DEFINE_PERMUTE(permute_points, struct corr_point, uint32_t)
DEFINE_PERMUTE(permute_points64, struct corr_point, uint64_t)

/* Slim points gathered into a new array in perm's order: independent
 * reads (the cycles above chain each read on the last: 3x the time for
 * 40-byte points), at the cost of a second array for the moment. */
_Static_assert(CORR_SOL_REF < 256, "corr_slim.flags holds the flags");
#define DEFINE_GATHER(name, I)						\
static void name(struct corr_set *s, const I *perm, size_t n)		\
{									\
	struct corr_slim *v = xmalloc(n * sizeof(*v));			\
									\
	for (size_t i = 0; i < n; i++)					\
		v[i] = s->slim[perm[i]];				\
	free(s->slim);							\
	s->slim = v;							\
}

DEFINE_GATHER(gather_slim, uint32_t)
DEFINE_GATHER(gather_slim64, uint64_t)

/* Largest |err| first, NaN last, ties in key order: a stable radix sort
 * of (key, index), then the permutation, kept in 4 bytes a point once
 * sorted (issue 21: the sort's 32 bytes a point are gone before the
 * points move), applied in place (points) or by a gather (slim). Either
 * layout: a slim point's err is stats_err(model, ref), as corr_point's
 * is. */
static void sort_points(struct corr_set *s)
{
	struct radix_kv *kv, *tmp;
	size_t n = s->n;

	if (n < 2)
		return;
	/* the pairing grew the array by doubling: give back the rest */
	if (s->slim)
		s->slim = xrealloc(s->slim, n * sizeof(*s->slim));
	else
		s->points = xrealloc(s->points, n * sizeof(*s->points));
	kv = xmalloc(2 * n * sizeof(*kv));
	tmp = kv + n;
	for (size_t i = 0; i < n; i++) {
		double e = s->slim ? fabs(stats_err(s->slim[i].model,
						    s->slim[i].ref)) :
			   fabs(s->points[i].err);

		kv[i].k = isnan(e) ? UINT64_MAX : ~radix_key(e);
		kv[i].v = i;
	}
	radix_sort_kv(kv, tmp, n);
	/* the permutation compacted in place (entry i is read before the
	 * write of slot i, 4 or 8 bytes, which lies within entries <= i),
	 * the rest of the block given back by a shrinking realloc (no
	 * free of a large block: glibc would raise its mmap threshold and
	 * keep the summaries' arrays on the heap) */
	if (n <= UINT32_MAX) {
		uint32_t *perm;

		for (size_t i = 0; i < n; i++) {
			uint32_t v = (uint32_t)kv[i].v;

			memcpy((char *)kv + i * sizeof(v), &v, sizeof(v));
		}
		perm = xrealloc(kv, n * sizeof(*perm));
		if (s->slim)
			gather_slim(s, perm, n);
		else
			permute_points(s->points, perm, n);
		free(perm);
	} else {
		uint64_t *perm;

		for (size_t i = 0; i < n; i++) {
			uint64_t v = kv[i].v;

			memcpy((char *)kv + i * sizeof(v), &v, sizeof(v));
		}
		perm = xrealloc(kv, n * sizeof(*perm));
		if (s->slim)
			gather_slim64(s, perm, n);
		else
			permute_points64(s->points, perm, n);
		free(perm);
	}
}

static void count_flags(struct corr_set *s)
{
	for (size_t i = 0; i < s->n; i++) {
		unsigned f = s->slim ? s->slim[i].flags : s->points[i].flags;

		if (f & CORR_INVALID)
			s->invalid++;
		else if (f & CORR_NOISY_REF)
			s->excluded_noisy++;
		if (f & CORR_SOL_VIOLATION)
			s->sol_violations++;
	}
}

int corr_load(struct corr_set **out, struct db *db, const struct corr_query *q)
{
	struct db_side ms, rs;
	struct corr_set *s = xcalloc(1, sizeof(*s));
	char *src = NULL, *ver = NULL;
	struct corr_query sq;
	int rc;

	memset(&ms, 0, sizeof(ms));
	memset(&rs, 0, sizeof(rs));
	if (!q->model || !q->ref) {
		free(s);
		return pc_error_set(PC_EUSAGE, "both a model and a reference "
				    "side are needed");
	}
	corr_parse_side(q->model, &src, &ver);
	rc = db_pairs_side(db, src, ver, &ms);
	free(src);
	free(ver);
	if (!rc) {
		corr_parse_side(q->ref, &src, &ver);
		rc = db_pairs_side(db, src, ver, &rs);
		free(src);
		free(ver);
	}
	s->store = xcalloc(1, sizeof(*s->store));
	/* a chosen platform keeps only that platform's runs of a side */
	if (!rc && q->model_platform)
		rc = db_side_restrict(&ms, q->model_platform);
	if (!rc && q->ref_platform)
		rc = db_side_restrict(&rs, q->ref_platform);
	if (!rc && !(rc = load_store(s->store, db, q))) {
		/* slim points index the dictionaries with 32, 16 and 8
		 * bits (struct corr_slim) */
		sq = *q;
		if (s->store->ndict[DB_DICT_WORKLOADS] > UINT32_MAX ||
		    s->store->ndict[DB_DICT_OPS] > (size_t)UINT16_MAX + 1 ||
		    s->store->ndict[DB_DICT_METRICS] > (size_t)UINT8_MAX + 1)
			sq.slim = 0;
		rc = corr_pair(s, db, &sq, &ms, &rs);
	}
	if (!rc) {
		side_take(&s->model, &ms);
		side_take(&s->ref, &rs);
		sort_points(s);
		count_flags(s);
		s->ci_draws = stats_ci_draws_new();
		*out = s;
	} else {
		corr_set_free(s);
	}
	db_side_release(&ms);
	db_side_release(&rs);
	return rc;
}

void corr_side_release(struct corr_side *side)
{
	free(side->source);
	free(side->kind);
	free(side->version);
	free(side->runs);
	memset(side, 0, sizeof(*side));
}

void corr_set_free(struct corr_set *s)
{
	if (!s)
		return;
	corr_side_release(&s->model);
	corr_side_release(&s->ref);
	free(s->points);
	free(s->slim);
	free(s->view);
	free(s->roofline);
	store_free(s->store);
	stats_ci_draws_free(s->ci_draws);
	free(s->not_comparable_why);
	free(s);
}

/* id -> dictionary index + 1 for the ids 0..max of dictionary d (0:
 * none), or NULL when its ids are too sparse for a table. */
static uint32_t *view_table(const struct corr_store *st, enum db_dict d,
			    size_t n, int64_t *max)
{
	uint32_t *t;

	*max = -1;
	for (size_t k = 0; k < st->ndict[d]; k++)
		*max = st->dict[d][k].id > *max ? st->dict[d][k].id : *max;
	if (st->ndict[d] >= UINT32_MAX || *max > (int64_t)(4 * n + 1024))
		return NULL;
	t = xcalloc((size_t)(*max + 2), sizeof(*t));
	for (size_t k = 0; k < st->ndict[d]; k++)
		if (st->dict[d][k].id >= 0)
			t[st->dict[d][k].id] = (uint32_t)k + 1;
	return t;
}

/* The dictionary index of id; 0 when the dictionary lacks it. */
static int view_index(const struct corr_store *st, enum db_dict d,
		      const uint32_t *t, int64_t max, int64_t id,
		      uint32_t *at)
{
	size_t k;

	if (t) {
		if (id < 0 || id > max || !t[id])
			return 0;
		*at = t[id] - 1;
		return 1;
	}
	if (!corr_dict_find(st, d, id, &k) || k > UINT32_MAX)
		return 0;
	*at = (uint32_t)k;
	return 1;
}

void corr_set_view(struct corr_set *s)
{
	static const enum db_dict ds[3] = { DB_DICT_WORKLOADS, DB_DICT_OPS,
					    DB_DICT_METRICS };
	struct corr_slim *v;
	uint32_t *t[3], at[3];
	int64_t max[3];
	size_t i = 0;

	if (s->view || s->slim || !s->points)
		return;
	/* the view's op and metric indices are 16 and 8 bits, as in
	 * corr_load's slim points: a set with more ops or metrics reads
	 * its points (a truncated index named another metric: its
	 * direction, so a wrong optimistic/pessimistic count) */
	if (s->store->ndict[DB_DICT_OPS] > (size_t)UINT16_MAX + 1 ||
	    s->store->ndict[DB_DICT_METRICS] > (size_t)UINT8_MAX + 1)
		return;
	for (int d = 0; d < 3; d++)
		t[d] = view_table(s->store, ds[d], s->n, &max[d]);
	v = xmalloc((s->n + 1) * sizeof(*v));
	for (; i < s->n; i++) {
		const struct corr_point *p = &s->points[i];
		const int64_t id[3] = { p->workload_id, p->op_id,
					p->metric_id };
		int d = 0;

		while (d < 3 && view_index(s->store, ds[d], t[d], max[d],
					   id[d], &at[d]))
			d++;
		if (d < 3)
			break;	/* an id the dictionary lacks: no view */
		v[i] = (struct corr_slim){ p->model, p->ref,
					   corr_ref_se(p->ref_sd, p->ref_n),
					   at[0], (uint16_t)at[1],
					   (uint8_t)at[2],
					   (uint8_t)p->flags };
	}
	for (int d = 0; d < 3; d++)
		free(t[d]);
	if (i < s->n)
		free(v);
	else
		s->view = v;
}

void corr_set_view_drop(struct corr_set *s)
{
	free(s->view);
	s->view = NULL;
}

void corr_point_ids(const struct corr_set *s, size_t i, int64_t *wid,
		    int64_t *oid, int64_t *mid)
{
	const struct corr_store *st = s->store;

	if (s->slim) {
		*wid = st->dict[DB_DICT_WORKLOADS][s->slim[i].w].id;
		*oid = st->dict[DB_DICT_OPS][s->slim[i].o].id;
		*mid = st->dict[DB_DICT_METRICS][s->slim[i].m].id;
	} else {
		*wid = s->points[i].workload_id;
		*oid = s->points[i].op_id;
		*mid = s->points[i].metric_id;
	}
}

/* A param.NAME key of a set loaded without parameters (no_params): a
 * caller's mistake, never an empty key. */
static int params_missing(const char *by)
{
	return pc_error_set(PC_EINVALID, "group key '%s': this set was "
			    "loaded without workload parameters "
			    "(corr_query.no_params)", by);
}

/* The value of group key by for a point: its names and workload id. */
static int group_key(const struct corr_set *s, const char *workload,
		     const char *op, const char *op_class, const char *metric,
		     int64_t wid, const char *by, char *key, size_t len)
{
	const char *v;

	if (!strcmp(by, "op"))
		v = op;
	else if (!strcmp(by, "op_class"))
		v = op_class;
	else if (!strcmp(by, "metric"))
		v = metric;
	else if (!strcmp(by, "workload"))
		v = workload;
	else if (!strncmp(by, "param.", 6) && by[6] &&
		 !s->store->params_loaded)
		return params_missing(by);
	else if (!strncmp(by, "param.", 6) && by[6])
		v = corr_param_of(s->store, wid, wkey_canon_name(by + 6));
	else
		return pc_error_set(PC_EINVALID, "unknown group key '%s' (op, "
				    "op_class, metric, workload or "
				    "param.NAME)", by);
	snprintf(key, len, "%s", v ? v : "");
	return 0;
}

int corr_group_key(const struct corr_set *s, const struct corr_point *p,
		   const char *by, char *key, size_t len)
{
	return group_key(s, p->workload, p->op, p->op_class, p->metric,
			 p->workload_id, by, key, len);
}

int corr_group_key_at(const struct corr_set *s, size_t i, const char *by,
		      char *key, size_t len)
{
	const struct corr_store *st = s->store;
	const struct db_name *w, *o;

	if (!s->slim)
		return corr_group_key(s, &s->points[i], by, key, len);
	w = &st->dict[DB_DICT_WORKLOADS][s->slim[i].w];
	o = &st->dict[DB_DICT_OPS][s->slim[i].o];
	return group_key(s, w->name, o->name, o->extra,
			 st->dict[DB_DICT_METRICS][s->slim[i].m].name, w->id,
			 by, key, len);
}

const char *corr_metric_unit(const struct corr_set *s, const char *metric)
{
	const struct db_name *n = NULL;
	int64_t id;

	if (s && s->store && metric &&
	    (id = corr_metric_id(s->store, metric)) >= 0)
		n = corr_dict_find(s->store, DB_DICT_METRICS, id, NULL);
	return n && n->extra ? n->extra : "";
}

static int name_cmp(const void *x, const void *y);

/* The parameter names of the workloads either side selected (the
 * store's wl_selected; the pairs' workloads when the set has none),
 * sorted. */
static void selected_param_names(const struct corr_set *s, char ***out,
				 size_t *n)
{
	const struct corr_store *st = s->store;
	struct hmap seen;
	char **v = NULL;
	size_t len = 0, k;
	int64_t dummy;

	if (!st->wl_selected) {
		corr_param_names(s, out, n);
		return;
	}
	hmap_init(&seen);
	for (size_t i = 0; i < st->nparams; i++) {
		const struct db_param *p = &st->params[i];

		if (!corr_dict_find(st, DB_DICT_WORKLOADS, p->workload_id, &k) ||
		    !st->wl_selected[k] || hmap_get(&seen, p->name, &dummy))
			continue;
		hmap_put(&seen, p->name, 1);
		v = xrealloc(v, (len + 1) * sizeof(*v));
		v[len++] = xstrdup(p->name);
	}
	if (len)	/* qsort(NULL, 0) is undefined */
		qsort(v, len, sizeof(*v), name_cmp);
	hmap_release(&seen);
	*out = v;
	*n = len;
}

/* A param.NAME key is known when a workload of either side past the
 * filters carries it (paired or not: a parameter only the reference's
 * workloads carry groups the pairs under ""); otherwise a misspelling
 * and an error naming the parameters there are (docs/statistics.md). */
int corr_check_key(const struct corr_set *s, const char *by)
{
	struct strbuf sb = STRBUF_INIT;
	const char *name;
	char **names = NULL;
	size_t n = 0, i;
	int rc = 0;

	if (strncmp(by, "param.", 6) || !by[6])
		return 0;
	if (!s->store->params_loaded)
		return params_missing(by);
	name = wkey_canon_name(by + 6);
	selected_param_names(s, &names, &n);
	for (i = 0; i < n && strcmp(names[i], name); i++)
		;
	if (i == n && s->n > 0) {
		for (i = 0; i < n; i++)
			strbuf_addf(&sb, "%s'%s'", i ? ", " : "", names[i]);
		rc = pc_error_set(PC_EINVALID, "'%s': no selected workload has "
				  "a parameter '%s' (their parameters: %s)",
				  by, name, n ? strbuf_str(&sb) : "none");
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	strbuf_release(&sb);
	return rc;
}

void corr_parse_side(const char *spec, char **source, char **version)
{
	const char *at = strchr(spec, '@');

	*source = at ? xstrndup(spec, (size_t)(at - spec)) : xstrdup(spec);
	*version = at && at[1] ? xstrdup(at + 1) : NULL;
}

int corr_versions(struct db *db, const char *source, char ***out, size_t *n)
{
	return db_pairs_versions(db, source, out, n);
}

static int name_cmp(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

void corr_param_names(const struct corr_set *s, char ***out, size_t *n)
{
	const struct corr_store *st = s->store;
	size_t nw = st->ndict[DB_DICT_WORKLOADS];
	const struct db_name *wd = st->dict[DB_DICT_WORKLOADS];
	/* dense ids (the usual case): marked by id, no search per point */
	int64_t maxid = nw ? wd[nw - 1].id : 0;
	int byid = !s->slim && maxid >= 0 && maxid <= (int64_t)(4 * nw + 1024);
	size_t nused = byid ? (size_t)maxid + 1 : nw;
	char *used = xcalloc(nused + 1, 1);
	struct hmap seen;
	char **v = NULL;
	size_t len = 0, k;

	hmap_init(&seen);
	for (size_t i = 0; i < s->n; i++) {
		if (s->slim)
			used[s->slim[i].w] = 1;
		else if (byid && s->points[i].workload_id >= 0 &&
			 s->points[i].workload_id <= maxid)
			used[s->points[i].workload_id] = 1;
		else if (!byid && corr_dict_find(st, DB_DICT_WORKLOADS,
						 s->points[i].workload_id, &k))
			used[k] = 1;
	}
	for (size_t i = 0; i < st->nparams; i++) {
		const struct db_param *p = &st->params[i];
		int64_t dummy;

		if (byid) {
			if (p->workload_id < 0 || p->workload_id > maxid ||
			    !used[p->workload_id])
				continue;
		} else if (!corr_dict_find(st, DB_DICT_WORKLOADS,
					   p->workload_id, &k) || !used[k]) {
			continue;
		}
		if (hmap_get(&seen, p->name, &dummy))
			continue;
		hmap_put(&seen, p->name, 1);
		v = xrealloc(v, (len + 1) * sizeof(*v));
		v[len++] = xstrdup(p->name);
	}
	if (len)	/* qsort(NULL, 0) is undefined */
		qsort(v, len, sizeof(*v), name_cmp);
	hmap_release(&seen);
	free(used);
	*out = v;
	*n = len;
}
