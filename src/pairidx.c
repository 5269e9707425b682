/*
 * The pair index (see pairidx.h): open from the pair cache or build,
 * names by id, annotations per point, and the parts read on demand.
 */
#include "src/pairidx_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/annot.h"
#include "db/pairs.h"
#include "db/paircache.h"
#include "src/annot.h"
#include "src/error.h"
#include "src/sha256.h"
#include "src/util.h"

struct group_cache {
	char *key;
	struct corrgroup g;
};

struct pidx_store {
	struct db *db;
	int64_t cache_id;		/* 0: not in the cache */
	struct pidx_parts mem;		/* parts built by this open */
	struct db_name *dict[3];
	size_t ndict[3];
	const char **name[3];		/* by id: key/name; [3] op class */
	const char **op_class;
	struct annot_index *annots;
	uint32_t *perm[PIDX_NORDERS];
	unsigned char *starts[PIDX_NORDERS];
	uint32_t *bykey;
	struct pidx_cold *chunk;	/* the last detail chunk read */
	size_t chunk_no, chunk_len;
	struct group_cache *groups;
	size_t ngroups;
	struct pidx_scatter *scatter;
	double *scratch;		/* pidx_basic's, 2 x n */
	char **pool;			/* strings of cached summaries */
	size_t npool;
};

/* A part from this open's memory or the cache; caller frees. */
static int get_part(struct pidx *x, const char *name, void **data,
		    size_t *len)
{
	const struct pidx_part *p = pidx_parts_get(&x->st->mem, name);

	if (p) {
		*data = xmalloc(p->len ? p->len : 1);
		memcpy(*data, p->data, p->len);
		*len = p->len;
		return 0;
	}
	if (!x->st->cache_id)
		return pc_error_set(PC_ENOTFOUND, "pair index part '%s' is "
				    "missing", name);
	return db_pcache_read(x->st->db, x->st->cache_id, name, data, len);
}

/* Move a built part out of memory (the big arrays are taken, not
 * copied). */
static void *take_part(struct pidx *x, const char *name, size_t *len)
{
	struct pidx_parts *m = &x->st->mem;

	for (size_t i = 0; i < m->n; i++)
		if (!strcmp(m->v[i].name, name)) {
			void *d = m->v[i].data;

			*len = m->v[i].len;
			free(m->v[i].name);
			m->v[i] = m->v[--m->n];
			return d;
		}
	return NULL;
}

static int load_part(struct pidx *x, const char *name, void **data,
		     size_t *len)
{
	if ((*data = take_part(x, name, len)))
		return 0;
	return get_part(x, name, data, len);
}

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
static void cache_key(char hex[65], const struct corr_query *q,
		      const struct db_side *ms, const struct db_side *rs)
{
	struct strbuf sb = STRBUF_INIT;
	struct sha256 h;

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
	strbuf_addf(&sb, "|%lld:%lld", (long long)q->only[0],
		    (long long)q->only[1]);
	sha256_init(&h);
	sha256_update(&h, sb.buf, sb.len);
	sha256_final_hex(&h, hex);
	strbuf_release(&sb);
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

	if ((rc = load_part(x, "meta", &data, &len)) < 0)
		return rc;
	p = data;
	end = p + len;
	if (len < sizeof(m)) {
		free(data);
		return pc_error_set(PC_EINVALID, "pair cache: short meta");
	}
	memcpy(&m, p, sizeof(m));
	p += sizeof(m);
	if (pidx_get_sum(&p, end, &x->sum, &x->st->pool, &x->st->npool)) {
		free(data);
		return pc_error_set(PC_EINVALID, "pair cache: bad summary");
	}
	free(data);
	x->n = (size_t)m.n;
	x->excluded_noisy = (long)m.excluded_noisy;
	x->sol_violations = (long)m.sol_violations;
	x->invalid = (long)m.invalid;
	memcpy(x->max_id, m.max_id, sizeof(x->max_id));
	return 0;
}

static int read_array(struct pidx *x, const char *name, void **out,
		      size_t size)
{
	size_t len;
	int rc = load_part(x, name, out, &len);

	if (rc == 0 && len != x->n * size) {
		free(*out);
		*out = NULL;
		return pc_error_set(PC_EINVALID, "pair cache: part '%s' has "
				    "%zu bytes, expected %zu", name, len,
				    x->n * size);
	}
	return rc;
}

static int read_group_keys(struct pidx *x)
{
	char *data, *p;
	size_t len;
	int rc;

	if ((rc = load_part(x, "groupkeys", (void **)&data, &len)) < 0)
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

static int load_names(struct pidx *x)
{
	struct pidx_store *st = x->st;
	int rc = 0;

	for (int d = 0; d < 3 && !rc; d++) {
		rc = db_pairs_names(st->db, (enum db_dict)d, &st->dict[d],
				    &st->ndict[d]);
		if (rc)
			break;
		st->name[d] = xcalloc((size_t)x->max_id[d] + 2,
				      sizeof(*st->name[d]));
		if (d == DB_DICT_OPS)
			st->op_class = xcalloc((size_t)x->max_id[d] + 2,
					       sizeof(*st->op_class));
		for (size_t i = 0; i < st->ndict[d]; i++) {
			int64_t id = st->dict[d][i].id;

			if (id < 0 || id > x->max_id[d])
				continue;
			st->name[d][id] = st->dict[d][i].name;
			if (d == DB_DICT_OPS)
				st->op_class[id] = st->dict[d][i].extra;
		}
	}
	return rc;
}

static const char *name_of(const struct pidx *x, int d, int64_t id)
{
	const char *s = id >= 0 && id <= x->max_id[d] ? x->st->name[d][id] :
			NULL;

	return s ? s : "";
}

const char *pidx_workload(const struct pidx *x, int64_t id)
{
	return name_of(x, 0, id);
}

const char *pidx_op(const struct pidx *x, int64_t id)
{
	return name_of(x, 1, id);
}

const char *pidx_metric(const struct pidx *x, int64_t id)
{
	return name_of(x, 2, id);
}

const char *pidx_op_class(const struct pidx *x, int64_t id)
{
	const char *s = id >= 0 && id <= x->max_id[1] ? x->st->op_class[id] :
			NULL;

	return s ? s : "";
}

/* Build from corr_load, keep the parts in memory, store them. */
static int build(struct pidx *x, struct db *db, const struct corr_query *q,
		 const char *key, unsigned flags)
{
	struct corr_set *set;
	char label[256];
	int rc;

	if ((rc = corr_load(&set, db, q)) < 0)
		return rc;
	rc = pidx_build(set, &x->st->mem);
	snprintf(label, sizeof(label), "%s@%s vs %s@%s", set->model.source,
		 set->model.version ? set->model.version : "",
		 set->ref.source, set->ref.version ? set->ref.version : "");
	corr_set_free(set);
	if (rc < 0)
		return rc;
	x->built = 1;
	if (!(flags & PIDX_NO_WRITE)) {
		struct pcache_part *p = xcalloc(x->st->mem.n, sizeof(*p));

		for (size_t i = 0; i < x->st->mem.n; i++)
			p[i] = (struct pcache_part){ x->st->mem.v[i].name,
				x->st->mem.v[i].data, x->st->mem.v[i].len };
		/* a read-only or busy database just stays uncached */
		if (db_pcache_put(db, key, label, p, x->st->mem.n,
				  &x->st->cache_id) < 0) {
			x->st->cache_id = 0;
			pc_error_clear();
		}
		x->cached = x->st->cache_id != 0;
		free(p);
	}
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
		cache_key(key, q, &ms, &rs);
		rc = db_pcache_find(db, key, &x->st->cache_id);
		x->cached = x->st->cache_id != 0;
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

int pidx_open(struct pidx **out, struct db *db, const struct corr_query *q,
	      unsigned flags)
{
	struct pidx *x = new_pidx(db);
	int rc;

	if ((rc = attach(x, db, q, flags)) == 0 &&
	    (rc = read_array(x, "keys", (void **)&x->keys,
			     sizeof(*x->keys))) == 0 &&
	    (rc = read_array(x, "vals", (void **)&x->vals,
			     sizeof(*x->vals))) == 0 &&
	    (rc = read_group_keys(x)) == 0 &&
	    (rc = load_names(x)) == 0)
		rc = pidx_annotations(x, db);
	if (rc < 0) {
		pidx_free(x);
		return rc;
	}
	*out = x;
	return 0;
}

int pidx_cached(struct db *db, const struct corr_query *q)
{
	struct db_side ms, rs;
	char key[65];
	int64_t id = 0;

	if (open_sides(db, q, &ms, &rs) == 0) {
		cache_key(key, q, &ms, &rs);
		if (db_pcache_find(db, key, &id) < 0)
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
	int rc = attach(x, db, q, 0);

	if (rc == 0) {
		*out = x->sum;
		/* the reasons are static strings in stats.c's table */
		for (int i = 0; i < 32; i++)
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
	free(x->model.source);
	free(x->model.kind);
	free(x->model.version);
	free(x->model.runs);
	free(x->ref.source);
	free(x->ref.kind);
	free(x->ref.version);
	free(x->ref.runs);
	free(x->keys);
	free(x->vals);
	free(x->status);
	free(x->category);
	for (size_t i = 0; i < x->ngroup_keys; i++)
		free(x->group_keys[i]);
	free(x->group_keys);
	pidx_parts_release(&st->mem);
	for (int d = 0; d < 3; d++) {
		db_names_free(st->dict[d], st->ndict[d]);
		free(st->name[d]);
	}
	free(st->op_class);
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
	free(st->scratch);
	for (size_t i = 0; i < st->npool; i++)
		free(st->pool[i]);
	free(st->pool);
	free(st);
	free(x);
}

static const char *target_name(void *arg, int part, int64_t id)
{
	return name_of(arg, part, id);
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

static unsigned code_of(const char *const *names, const char *s)
{
	for (unsigned i = 0; s && names[i]; i++)
		if (!strcmp(names[i], s))
			return i + 1;
	return 0;
}

static void set_state(struct pidx *x, size_t i, const struct annot *a,
		      const char *today)
{
	x->status[i] = a ? (unsigned char)code_of(db_annot_statuses, a->status) : 0;
	x->category[i] = a ? (unsigned char)code_of(
		db_annot_categories, a->category) : 0;
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
	}
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
	if ((rc = get_part(x, name, &data, &len)) < 0)
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

	if (!x->st->bykey && read_array(x, "perm.key", (void **)&x->st->bykey,
					sizeof(uint32_t)) < 0)
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
		if ((rc = read_array(x, name, (void **)&st->perm[col],
				     sizeof(uint32_t))) < 0)
			return rc;
		snprintf(name, sizeof(name), "starts.%d", col);
		if ((rc = load_part(x, name, (void **)&st->starts[col],
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
	if ((rc = get_part(x, name, &data, &len)) < 0)
		return rc;
	st->groups = xrealloc(st->groups, (st->ngroups + 1) *
			      sizeof(*st->groups));
	gc = &st->groups[st->ngroups++];
	gc->key = xstrdup(key);
	rc = parse_groups(x, data, (const unsigned char *)data + len, &gc->g);
	free(data);
	if (rc) {
		gc->g.n = 0;
		return pc_error_set(PC_EINVALID, "pair cache: bad part '%s'",
				    name);
	}
	*out = &gc->g;
	return 0;
}

const struct pidx_scatter *pidx_scatter(struct pidx *x)
{
	void *data;
	size_t len;

	if (!x->st->scatter && get_part(x, "scatter", &data, &len) == 0) {
		if (len == sizeof(*x->st->scatter))
			x->st->scatter = data;
		else
			free(data);
	}
	return x->st->scatter;
}

int pidx_basic(struct pidx *x, const uint32_t *idx, size_t n,
	       struct stats_summary *out)
{
	double *m, *r;
	long noisy = 0, sol = 0;
	size_t k = 0;

	/* scratch kept for the next keystroke: no page faults each time */
	if (!x->st->scratch)
		x->st->scratch = xmalloc(2 * (x->n ? x->n : 1) *
					 sizeof(double));
	m = x->st->scratch;
	r = m + (x->n ? x->n : 1);
	n = n < x->n ? n : x->n;

	/* corr_summary's rules: invalid out, noisy out (counted), waived in */
	for (size_t j = 0; j < n; j++) {
		uint32_t i = idx[j];
		unsigned f = x->keys[i].flags;

		if (f & CORR_INVALID)
			continue;
		sol += (f & CORR_SOL_VIOLATION) != 0;
		if (f & CORR_NOISY_REF) {
			noisy++;
			continue;
		}
		m[k] = x->vals[i].model;
		r[k++] = x->vals[i].ref;
	}
	stats_basic(out, m, r, k);
	out->excluded_noisy = noisy;
	out->sol_violations = sol;
	return 0;
}
