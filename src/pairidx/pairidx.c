/*
 * The pair index (see pairidx.h): the cache key, open from the pair
 * cache or build and store, free. What the views read afterwards
 * (points, orders, groups, annotations) is in pairidx_read.c; parts and
 * names in pairidx_parts.c (pairidx_int.h draws the four files).
 */
#include "src/pairidx/pairidx_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/annot.h"
#include "db/pairs.h"
#include "db/paircache.h"
#include "src/corr/annot.h"
#include "base/error.h"
#include "base/sha256.h"
#include "base/util.h"
#include "src/corr/corr_roof.h"

/* attach/build: only the summary (pidx_summary), beyond enum pidx_flags */
#define SUMMARY_ONLY (1u << 8)
/* attach: ignore the cache entry (it was damaged); build replaces it */
#define REBUILD (1u << 9)

static int open_parts(struct pidx *x, struct db *db,
		      const struct corr_query *q, unsigned flags);

static void side_key(struct strbuf *sb, const struct db_side *s)
{
	strbuf_addf(sb, "|%s|%s|%s|", s->source, s->kind ? s->kind : "",
		    s->version ? s->version : "");
	for (size_t i = 0; i < s->nruns; i++)
		strbuf_addf(sb, "%lld:%.17g,", (long long)s->runs[i],
			    s->clock_hz[i]);
}

/* The cache key: everything the pairing depends on. Runs are immutable
 * once imported and a deleted run clears the cache (see paircache.h). */
static int cache_key(char hex[65], struct db *db, const struct corr_query *q,
		     const struct db_side *ms, const struct db_side *rs,
		     int summary_only)
{
	struct strbuf sb = STRBUF_INIT;
	struct db_side *roof = NULL;
	size_t nroof = 0;
	struct sha256 h;
	int rc;

	strbuf_addf(&sb, "pidx%d/%zu/%zu/%zu/%zu", PIDX_FORMAT,
		    sizeof(struct pidx_key), sizeof(struct pidx_cold),
		    sizeof(struct stats_summary), sizeof(struct pidx_scatter));
	side_key(&sb, ms);
	side_key(&sb, rs);
	strbuf_addf(&sb, "|%d|%.17g|%s|%s|%s", q->pool, q->max_ref_cv,
		    q->metric ? q->metric : "\x01",
		    q->op_glob ? q->op_glob : "\x01",
		    q->workload_glob ? q->workload_glob : "\x01");
	for (const char *const *w = q->where; w && *w; w++)
		strbuf_addf(&sb, "|%s", *w);
	for (const char *const *w = q->workload_globs; w && *w; w++)
		strbuf_addf(&sb, "|w:%s", *w);
	strbuf_addf(&sb, "|p:%s|%s", q->model_platform ? q->model_platform :
		    "\x01", q->ref_platform ? q->ref_platform : "\x01");
	strbuf_addf(&sb, "|%lld:%lld%s", (long long)q->only[0],
		    (long long)q->only[1], summary_only ? "|summary" : "");
	/* the speed-of-light bound: its runs flag the points */
	if ((rc = corr_roof_sides(db, q, ms, rs, &roof, &nroof)) < 0) {
		strbuf_release(&sb);
		return rc;
	}
	strbuf_addf(&sb, "|roof:%s", q->roofline ? q->roofline : "\x01");
	/* the fingerprint fields allowed to differ (issue 37) */
	for (const char *const *a = q->allow_mismatch; a && *a; a++)
		strbuf_addf(&sb, "|allow:%s", *a);
	for (size_t i = 0; i < nroof; i++)
		side_key(&sb, &roof[i]);
	corr_roof_sides_free(roof, nroof);
	sha256_init(&h);
	sha256_update(&h, sb.buf, sb.len);
	sha256_final_hex(&h, hex);
	strbuf_release(&sb);
	return 0;
}

static void set_side(struct corr_side *out, const struct db_side *in)
{
	out->source = xstrdup(in->source);
	out->kind = in->kind ? xstrdup(in->kind) : NULL;
	out->version = in->version ? xstrdup(in->version) : NULL;
	out->runs = xmalloc((in->nruns ? in->nruns : 1) * sizeof(int64_t));
	memcpy(out->runs, in->runs, in->nruns * sizeof(int64_t));
	out->nruns = in->nruns;
}

static int resolve(struct db *db, const char *spec, struct db_side *out)
{
	char *src, *ver;
	int rc;

	corr_parse_side(spec, &src, &ver);
	rc = db_pairs_side(db, src, ver, out);
	free(src);
	free(ver);
	return rc;
}

static int read_meta(struct pidx *x)
{
	const unsigned char *p, *end;
	struct pidx_meta m;
	void *data;
	size_t len;
	int rc;

	if ((rc = pidx_load_part(x, "meta", &data, &len)) < 0)
		return rc;
	p = data;
	end = p + len;
	if (len < sizeof(m)) {
		free(data);
		return pc_error_set(PC_EINVALID, "pair cache: short meta" PIDX_DAMAGED);
	}
	memcpy(&m, p, sizeof(m));
	p += sizeof(m);
	if (pidx_get_sum(&p, end, &x->sum, &x->st->pool, &x->st->npool)) {
		free(data);
		return pc_error_set(PC_EINVALID, "pair cache: bad summary" PIDX_DAMAGED);
	}
	free(data);
	if (m.n > SIZE_MAX / sizeof(struct pidx_key))
		return pc_error_set(PC_EINVALID, "pair cache: bad meta"
				    PIDX_DAMAGED);
	x->n = (size_t)m.n;
	x->excluded_noisy = (long)m.excluded_noisy;
	x->sol_violations = (long)m.sol_violations;
	x->invalid = (long)m.invalid;
	x->not_comparable = (long)m.not_comparable;
	x->not_comparable_runs = (long)m.not_comparable_runs;
	x->unverified = (long)m.unverified;
	x->admitted_pairs = (long)m.admitted_pairs;
	for (size_t i = 0; i < FP_NFIELDS; i++)
		x->admitted[i] = (long)m.admitted[i];
	memcpy(x->not_comparable_field, m.not_comparable_field,
	       sizeof(x->not_comparable_field));
	x->not_comparable_field[sizeof(x->not_comparable_field) - 1] = '\0';
	memcpy(x->max_id, m.max_id, sizeof(x->max_id));
	return 0;
}

static int read_group_keys(struct pidx *x)
{
	char *data, *p;
	size_t len;
	int rc;

	if ((rc = pidx_load_part(x, "groupkeys", (void **)&data, &len)) < 0)
		return rc;
	for (p = data; p < data + len; p += strlen(p) + 1) {
		if (!memchr(p, 0, (size_t)(data + len - p)))
			break;
		x->group_keys = xrealloc(x->group_keys, (x->ngroup_keys + 1) *
					 sizeof(*x->group_keys));
		x->group_keys[x->ngroup_keys++] = xstrdup(p);
	}
	free(data);
	return 0;
}

/* The names of the ids the pairing uses, from the index (no dictionary
 * reads: a million workload keys would cost the first screen 0.5 s). */
/* "sim@2 vs hw@1", then what else the key holds (filters, summary-only):
 * entries with the same label differ only in runs or layout, and a new
 * one replaces them (db_pcache_put). */
static void make_label(struct strbuf *sb, const struct corr_set *set,
		       const struct corr_query *q, unsigned flags)
{
	strbuf_addf(sb, "%s@%s vs %s@%s", set->model.source,
		    set->model.version ? set->model.version : "",
		    set->ref.source, set->ref.version ? set->ref.version : "");
	if (q->metric)
		strbuf_addf(sb, " metric=%s", q->metric);
	if (q->op_glob)
		strbuf_addf(sb, " op=%s", q->op_glob);
	if (q->workload_glob)
		strbuf_addf(sb, " workload=%s", q->workload_glob);
	for (const char *const *w = q->workload_globs; w && *w; w++)
		strbuf_addf(sb, " workload=%s", *w);
	for (const char *const *w = q->where; w && *w; w++)
		strbuf_addf(sb, " %s", *w);
	if (q->only[0] > 0)
		strbuf_addf(sb, " key=%lld:%lld", (long long)q->only[0],
			    (long long)q->only[1]);
	if (q->pool)
		strbuf_addstr(sb, " pooled");
	if (q->max_ref_cv != 0.30)
		strbuf_addf(sb, " cv<=%g", q->max_ref_cv);
	if (flags & SUMMARY_ONLY)
		strbuf_addstr(sb, " (summary)");
}

/* Build from corr_load, keep the parts in memory, store them. */
static int build(struct pidx *x, struct db *db, const struct corr_query *q,
		 const char *key, unsigned flags)
{
	struct strbuf lb = STRBUF_INIT;
	struct corr_set *set;
	int rc;

	if ((rc = corr_load(&set, db, q)) < 0)
		return rc;
	rc = pidx_build(set, !(flags & SUMMARY_ONLY), &x->st->mem);
	make_label(&lb, set, q, flags);
	corr_set_free(set);
	if (rc < 0) {
		strbuf_release(&lb);
		return rc;
	}
	x->built = 1;
	if (!(flags & PIDX_NO_WRITE)) {
		struct pcache_part *p = xcalloc(x->st->mem.n, sizeof(*p));

		for (size_t i = 0; i < x->st->mem.n; i++)
			p[i] = (struct pcache_part){ x->st->mem.v[i].name,
				x->st->mem.v[i].data, x->st->mem.v[i].len };
		/* a read-only or busy database just stays uncached */
		if (db_pcache_put(db, key, strbuf_str(&lb), p, x->st->mem.n,
				  !!(flags & PIDX_NO_WAIT),
				  &x->st->cache_id) < 0) {
			x->st->cache_id = 0;
			pc_error_clear();
		}
		x->cached = x->st->cache_id != 0;
		memcpy(x->st->key, key, sizeof(x->st->key));
		free(p);
	}
	strbuf_release(&lb);
	return 0;
}

static int open_sides(struct db *db, const struct corr_query *q,
		      struct db_side *ms, struct db_side *rs)
{
	int rc;

	memset(ms, 0, sizeof(*ms));
	memset(rs, 0, sizeof(*rs));
	if (!q->model || !q->ref)
		return pc_error_set(PC_EUSAGE, "both a model and a reference "
				    "side are needed");
	if ((rc = resolve(db, q->model, ms)) < 0)
		return rc;
	return resolve(db, q->ref, rs);
}

/* Find or build; leaves x with meta read. */
static int attach(struct pidx *x, struct db *db, const struct corr_query *q,
		  unsigned flags)
{
	struct db_side ms, rs;
	char key[65];
	int rc;

	if ((rc = open_sides(db, q, &ms, &rs)) == 0) {
		set_side(&x->model, &ms);
		set_side(&x->ref, &rs);
		rc = cache_key(key, db, q, &ms, &rs, 0);
		if (rc == 0 && !(flags & REBUILD))
			rc = db_pcache_find(db, key, &x->st->cache_id);
		/* a summary is also in a summary-only entry */
		if (rc == 0 && !x->st->cache_id && (flags & SUMMARY_ONLY) &&
		    (rc = cache_key(key, db, q, &ms, &rs, 1)) == 0)
			rc = db_pcache_find(db, key, &x->st->cache_id);
		x->cached = x->st->cache_id != 0;
		if (x->cached)
			memcpy(x->st->key, key, sizeof(x->st->key));
	}
	db_side_release(&ms);
	db_side_release(&rs);
	if (rc == 0 && !x->st->cache_id)
		rc = build(x, db, q, key, flags);
	if (rc == 0)
		rc = read_meta(x);
	return rc;
}

static struct pidx *new_pidx(struct db *db)
{
	struct pidx *x = xcalloc(1, sizeof(*x));

	x->st = xcalloc(1, sizeof(*x->st));
	x->st->db = db;
	x->st->chunk_no = (size_t)-1;
	return x;
}

static const char *keep_str(struct pidx_store *st, const char *v)
{
	if (!v)
		return NULL;
	st->qmem = xrealloc(st->qmem, (st->nqmem + 1) * sizeof(*st->qmem));
	return st->qmem[st->nqmem++] = xstrdup(v);
}

static const char *const *keep_list(struct pidx_store *st,
				    const char *const *v)
{
	const char **c;
	size_t n = 0;

	if (!v)
		return NULL;
	while (v[n])
		n++;
	c = xcalloc(n + 1, sizeof(*c));
	for (size_t i = 0; i < n; i++)
		c[i] = keep_str(st, v[i]);
	st->qmem = xrealloc(st->qmem, (st->nqmem + 1) * sizeof(*st->qmem));
	st->qmem[st->nqmem++] = c;
	return c;
}

/* The query and flags of the open, for a grouping computed later. */
static void keep_query(struct pidx_store *st, const struct corr_query *q,
		       unsigned flags)
{
	st->q = *q;
	st->q.model = keep_str(st, q->model);
	st->q.ref = keep_str(st, q->ref);
	st->q.metric = keep_str(st, q->metric);
	st->q.op_glob = keep_str(st, q->op_glob);
	st->q.workload_glob = keep_str(st, q->workload_glob);
	st->q.where = keep_list(st, q->where);
	st->q.workload_globs = keep_list(st, q->workload_globs);
	st->q.allow_mismatch = keep_list(st, q->allow_mismatch);
	st->q.model_platform = keep_str(st, q->model_platform);
	st->q.ref_platform = keep_str(st, q->ref_platform);
	st->flags = flags;
}

int pidx_open(struct pidx **out, struct db *db, const struct corr_query *q,
	      unsigned flags)
{
	struct pidx *x = new_pidx(db);
	char *damage;
	int rc;

	if ((rc = open_parts(x, db, q, flags)) == PC_EINVALID && x->cached &&
	    !x->built) {
		/* a damaged cache entry: pair again and replace it */
		damage = xstrdup(pc_error_last());
		pidx_free(x);
		x = new_pidx(db);
		pc_error_clear();
		rc = open_parts(x, db, q, flags | REBUILD);
		x->repaired = damage;
	}
	if (rc < 0) {
		pidx_free(x);
		return rc;
	}
	keep_query(x->st, q, flags);
	*out = x;
	return 0;
}

static int open_parts(struct pidx *x, struct db *db,
		      const struct corr_query *q, unsigned flags)
{
	int rc;

	if ((rc = attach(x, db, q, flags)) == 0 &&
	    (rc = pidx_read_array(x, "keys", (void **)&x->keys,
			     sizeof(*x->keys))) == 0 &&
	    (rc = pidx_read_array(x, "vals", (void **)&x->vals,
			     sizeof(*x->vals))) == 0 &&
	    (rc = read_group_keys(x)) == 0 &&
	    (rc = pidx_load_names(x)) == 0 &&
	    (rc = pidx_check_keys(x)) == 0)
		rc = pidx_annotations(x, db);
	return rc;
}

int pidx_open_mem(struct pidx **out, struct pidx_parts *parts)
{
	struct pidx *x = new_pidx(NULL);
	int rc;

	x->st->mem = *parts;
	memset(parts, 0, sizeof(*parts));
	if ((rc = read_meta(x)) == 0 &&
	    (rc = pidx_read_array(x, "keys", (void **)&x->keys,
				  sizeof(*x->keys))) == 0 &&
	    (rc = pidx_read_array(x, "vals", (void **)&x->vals,
				  sizeof(*x->vals))) == 0 &&
	    (rc = read_group_keys(x)) == 0 &&
	    (rc = pidx_load_names(x)) == 0)
		rc = pidx_check_keys(x);
	if (rc < 0) {
		pidx_free(x);
		return rc;
	}
	/* no annotations: pidx_annotations' arrays, all clear */
	x->status = xcalloc(x->n ? x->n : 1, 1);
	x->category = xcalloc(x->n ? x->n : 1, 1);
	*out = x;
	return 0;
}

int pidx_cached(struct db *db, const struct corr_query *q)
{
	struct db_side ms, rs;
	char key[65];
	int64_t id = 0;

	if (open_sides(db, q, &ms, &rs) == 0) {
		if (cache_key(key, db, q, &ms, &rs, 0) < 0 ||
		    db_pcache_find(db, key, &id) < 0)
			id = 0;
	}
	db_side_release(&ms);
	db_side_release(&rs);
	pc_error_clear();
	return id != 0;
}

int pidx_summary(struct db *db, const struct corr_query *q,
		 struct stats_summary *out)
{
	struct pidx *x = new_pidx(db);
	/* the full index when it is cached; else pair and keep only the
	 * summary (a trend over ten versions must not store ten indexes) */
	int rc = attach(x, db, q, SUMMARY_ONLY);

	if (rc == 0) {
		*out = x->sum;
		/* the reasons are static strings in stats.c's table */
		for (int i = 0; i < STATS_NWHY; i++)
			out->why[i] = stats_why_static(out->why[i]);
	}
	pidx_free(x);
	return rc;
}

void pidx_free(struct pidx *x)
{
	struct pidx_store *st;

	if (!x)
		return;
	st = x->st;
	free(x->repaired);
	corr_side_release(&x->model);
	corr_side_release(&x->ref);
	free(x->keys);
	free(x->vals);
	free(x->status);
	free(x->category);
	for (size_t i = 0; i < x->ngroup_keys; i++)
		free(x->group_keys[i]);
	free(x->group_keys);
	pidx_parts_release(&st->mem);
	for (int d = 0; d < PIDX_NAME_PARTS; d++) {
		free(st->names[d]);
		free(st->lower[d]);
	}
	annot_index_free(st->annots);
	for (int c = 0; c < PIDX_NORDERS; c++) {
		free(st->perm[c]);
		free(st->starts[c]);
	}
	free(st->bykey);
	free(st->chunk);
	for (size_t i = 0; i < st->ngroups; i++) {
		free(st->groups[i].key);
		free(st->groups[i].g.values);
		free(st->groups[i].g.size);
		free(st->groups[i].g.stats);
	}
	free(st->groups);
	free(st->scatter);
	free(st->fl);
	free(st->keep);
	for (size_t i = 0; i < st->npool; i++)
		free(st->pool[i]);
	free(st->pool);
	for (size_t i = 0; i < st->nqmem; i++)
		free(st->qmem[i]);
	free(st->qmem);
	corr_set_free(st->set);
	free(st);
	free(x);
}
