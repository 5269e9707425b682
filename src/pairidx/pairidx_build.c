/*
 * Building a pair index's parts from a corr_set (see pairidx_int.h for
 * the layout). This is the cold path: it runs once per pairing, after
 * corr_load, and its cost is dominated by the orders and the statistics
 * per group; everything here is O(n) or O(n log n).
 */
#include "src/pairidx/pairidx_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/radix.h"
#include "src/stats/stats_ci.h"
#include "src/corr/wabbr.h"
#include "base/util.h"

void pidx_parts_add(struct pidx_parts *p, const char *name, void *data,
		    size_t len)
{
	p->v = xrealloc(p->v, (p->n + 1) * sizeof(*p->v));
	p->v[p->n].name = xstrdup(name);
	p->v[p->n].data = data;
	p->v[p->n++].len = len;
}

const struct pidx_part *pidx_parts_get(const struct pidx_parts *p,
				       const char *name)
{
	for (size_t i = 0; p && i < p->n; i++)
		if (!strcmp(p->v[i].name, name))
			return &p->v[i];
	return NULL;
}

void pidx_parts_release(struct pidx_parts *p)
{
	for (size_t i = 0; i < p->n; i++) {
		free(p->v[i].name);
		free(p->v[i].data);
	}
	free(p->v);
	p->v = NULL;
	p->n = 0;
}

void pidx_put_sum(struct strbuf *sb, const struct stats_summary *s)
{
	struct stats_summary c = *s;

	memset(c.why, 0, sizeof(c.why));
	strbuf_add(sb, (const char *)&c, sizeof(c));
	for (int i = 0; i < STATS_NWHY; i++) {
		strbuf_addstr(sb, s->why[i] ? s->why[i] : "");
		strbuf_addch(sb, '\0');
	}
}

int pidx_get_sum(const unsigned char **p, const unsigned char *end,
		 struct stats_summary *s, char ***pool, size_t *npool)
{
	const unsigned char *q = *p;

	if ((size_t)(end - q) < sizeof(*s))
		return -1;
	memcpy(s, q, sizeof(*s));
	q += sizeof(*s);
	for (int i = 0; i < STATS_NWHY; i++) {
		const unsigned char *z = memchr(q, 0, (size_t)(end - q));

		if (!z)
			return -1;
		s->why[i] = NULL;
		if (z > q) {
			*pool = xrealloc(*pool, (*npool + 1) * sizeof(**pool));
			(*pool)[(*npool)++] = xstrdup((const char *)q);
			s->why[i] = (*pool)[*npool - 1];
		}
		q = z + 1;
	}
	*p = q;
	return 0;
}

static void *detach(struct strbuf *sb, size_t *len)
{
	*len = sb->len;
	return strbuf_detach(sb);
}

static uint64_t dkey(double v)
{
	return isnan(v) ? UINT64_MAX : radix_key(v == 0 ? 0 : v);
}

struct named {
	const char *s;
	int64_t id;
};

static int named_cmp(const void *a, const void *b)
{
	return strcmp(((const struct named *)a)->s,
		      ((const struct named *)b)->s);
}

/* Each point's key for a text column: the rank of its string among the
 * distinct values (found once per id; equal strings share a rank). */
static void text_keys(const struct corr_set *s, int col, int64_t max,
		      struct radix_kv *kv)
{
	const char **name = xcalloc((size_t)max + 2, sizeof(*name));
	uint64_t *rank = xcalloc((size_t)max + 2, sizeof(*rank));
	struct named *d;
	size_t nd = 0;

	for (size_t i = 0; i < s->n; i++) {
		const struct corr_point *p = &s->points[i];
		int64_t id = col == PIDX_WORKLOAD ? p->workload_id :
			     col == PIDX_OP ? p->op_id : p->metric_id;

		if (id >= 0 && id <= max && !name[id]) {
			name[id] = col == PIDX_WORKLOAD ? p->workload :
				   col == PIDX_OP ? p->op : p->metric;
			nd++;
		}
		kv[i].k = (uint64_t)id;
		kv[i].v = i;
	}
	d = xmalloc((nd ? nd : 1) * sizeof(*d));
	nd = 0;
	for (int64_t id = 0; id <= max; id++)
		if (name[id])
			d[nd++] = (struct named){ name[id], id };
	qsort(d, nd, sizeof(*d), named_cmp);
	for (size_t i = 0; i < nd; i++)
		rank[d[i].id] = i && !strcmp(d[i].s, d[i - 1].s) ?
				rank[d[i - 1].id] : i;
	for (size_t i = 0; i < s->n; i++)
		kv[i].k = kv[i].k <= (uint64_t)max ? rank[kv[i].k] : 0;
	free(d);
	free(name);
	free(rank);
}

static void add_order(struct pidx_parts *out, const char *suffix,
		      struct radix_kv *kv, size_t n, int starts)
{
	struct radix_kv *tmp = xmalloc((n ? n : 1) * sizeof(*tmp));
	uint32_t *perm = xmalloc((n ? n : 1) * sizeof(*perm));
	unsigned char *bits = xcalloc(n / 8 + 1, 1);
	char name[32];

	radix_sort_kv(kv, tmp, n);
	for (size_t i = 0; i < n; i++) {
		perm[i] = (uint32_t)kv[i].v;
		if (i == 0 || kv[i].k != kv[i - 1].k)
			bits[i / 8] |= (unsigned char)(1u << (i % 8));
	}
	free(tmp);
	snprintf(name, sizeof(name), "perm.%s", suffix);
	pidx_parts_add(out, name, perm, n * sizeof(*perm));
	if (starts) {
		snprintf(name, sizeof(name), "starts.%s", suffix);
		pidx_parts_add(out, name, bits, n / 8 + 1);
	} else {
		free(bits);
	}
}

static void build_orders(const struct corr_set *s, const int64_t *max,
			 struct pidx_parts *out)
{
	struct radix_kv *kv = xmalloc((s->n ? s->n : 1) * sizeof(*kv));
	struct radix_kv *tmp = xmalloc((s->n ? s->n : 1) * sizeof(*tmp));
	char suffix[8];

	for (int c = 0; c < PIDX_NORDERS; c++) {
		if (c <= PIDX_METRIC) {
			text_keys(s, c, max[c], kv);
		} else {
			for (size_t i = 0; i < s->n; i++) {
				const struct corr_point *p = &s->points[i];

				kv[i].v = i;
				kv[i].k = c == PIDX_MODEL ? dkey(p->model) :
					  c == PIDX_REF ? dkey(p->ref) :
					  dkey(fabs(p->err));
			}
		}
		snprintf(suffix, sizeof(suffix), "%d", c);
		add_order(out, suffix, kv, s->n, 1);
	}
	/* key order: stable passes by metric, op, then workload */
	for (size_t i = 0; i < s->n; i++)
		kv[i] = (struct radix_kv){ (uint64_t)s->points[i].metric_id, i };
	radix_sort_kv(kv, tmp, s->n);
	for (size_t i = 0; i < s->n; i++)
		kv[i].k = (uint64_t)s->points[kv[i].v].op_id;
	radix_sort_kv(kv, tmp, s->n);
	for (size_t i = 0; i < s->n; i++)
		kv[i].k = (uint64_t)s->points[kv[i].v].workload_id;
	add_order(out, "key", kv, s->n, 0);
	free(tmp);
	free(kv);
}

static void build_points(const struct corr_set *s, struct pidx_parts *out)
{
	struct pidx_key *k = xmalloc((s->n ? s->n : 1) * sizeof(*k));
	struct pidx_val *v = xmalloc((s->n ? s->n : 1) * sizeof(*v));
	char name[32];

	for (size_t i = 0; i < s->n; i++) {
		const struct corr_point *p = &s->points[i];

		k[i] = (struct pidx_key){ (int32_t)p->workload_id,
			(int32_t)p->op_id, (int32_t)p->metric_id,
			p->flags & ~(unsigned)CORR_WAIVED, p->err };
		v[i] = (struct pidx_val){ p->model, p->ref };
	}
	pidx_parts_add(out, "keys", k, s->n * sizeof(*k));
	pidx_parts_add(out, "vals", v, s->n * sizeof(*v));
	for (size_t c = 0; c * PIDX_CHUNK < s->n; c++) {
		size_t lo = c * PIDX_CHUNK, hi = lo + PIDX_CHUNK;
		struct pidx_cold *cold;

		hi = hi < s->n ? hi : s->n;
		cold = xmalloc((hi - lo) * sizeof(*cold));
		for (size_t i = lo; i < hi; i++) {
			const struct corr_point *p = &s->points[i];

			cold[i - lo] = (struct pidx_cold){ p->model_sd,
				p->ref_sd, p->ref_n, p->ref_min, p->ref_max,
				p->model_run, p->ref_run };
		}
		snprintf(name, sizeof(name), "cold.%zu", c);
		pidx_parts_add(out, name, cold, (hi - lo) * sizeof(*cold));
	}
}

/* Names by id for one dictionary (d: 0 workload key, 1 op, 2 metric,
 * 3 op class): u64 count (max id + 1), count + 1 u32 offsets, then the
 * NUL-terminated strings; an id no point uses is "". */
static void build_names(const struct corr_set *s, int d, int64_t max,
			struct pidx_parts *out)
{
	const char **name = xcalloc((size_t)max + 2, sizeof(*name));
	uint64_t count = (uint64_t)(max + 1);
	struct strbuf sb = STRBUF_INIT, chars = STRBUF_INIT;
	uint32_t off = 0;
	char pname[16];
	size_t len;

	for (size_t i = 0; i < s->n; i++) {
		const struct corr_point *p = &s->points[i];
		int64_t id = d == 0 ? p->workload_id : d == 2 ? p->metric_id :
			     p->op_id;

		if (id >= 0 && id <= max && !name[id])
			name[id] = d == 0 ? p->workload : d == 1 ? p->op :
				   d == 2 ? p->metric :
				   p->op_class ? p->op_class : "";
	}
	strbuf_add(&sb, (const char *)&count, sizeof(count));
	for (int64_t id = 0; id <= max + 1; id++) {
		strbuf_add(&sb, (const char *)&off, sizeof(off));
		if (id <= max) {
			const char *v = name[id] ? name[id] : "";

			strbuf_add(&chars, v, strlen(v) + 1);
			off += (uint32_t)strlen(v) + 1;
		}
	}
	strbuf_add(&sb, chars.buf ? chars.buf : "", chars.len);
	strbuf_release(&chars);
	free(name);
	snprintf(pname, sizeof(pname), "names.%d", d);
	pidx_parts_add(out, pname, detach(&sb, &len), 0);
	out->v[out->n - 1].len = len;
}

int pidx_build_group(const struct corr_set *s, const char *key, void **data,
		     size_t *len)
{
	struct strbuf sb = STRBUF_INIT;
	const char *by[1] = { key };
	struct corrgroup g;
	uint64_t u;
	int rc;

	if ((rc = corrgroup_build(&g, s, by, 1, 0)) < 0)
		return rc;
	u = g.n;
	strbuf_add(&sb, (const char *)&u, sizeof(u));
	for (size_t i = 0; i < g.n; i++) {
		u = g.size[i];
		strbuf_add(&sb, (const char *)&u, sizeof(u));
		strbuf_addstr(&sb, g.values[i]);
		strbuf_addch(&sb, '\0');
		pidx_put_sum(&sb, &g.stats[i]);
	}
	corrgroup_release(&g);
	*data = detach(&sb, len);
	return 0;
}

/* The group keys only: a grouping's statistics are computed when a view
 * first asks for them (pidx_groups), not for every key up front. */
static void build_group_keys(const struct corr_set *s, struct pidx_parts *out)
{
	static const char *const fixed[] = { "op_class", "op", "metric",
					     "workload" };
	struct strbuf keys = STRBUF_INIT;
	char **params = NULL;
	size_t np = 0, len;

	corr_param_names(s, &params, &np);
	for (size_t k = 0; k < 4 + np; k++) {
		if (k >= 4)
			strbuf_addstr(&keys, "param.");
		strbuf_addstr(&keys, k < 4 ? fixed[k] : params[k - 4]);
		strbuf_addch(&keys, '\0');
	}
	for (size_t i = 0; i < np; i++)
		free(params[i]);
	free(params);
	pidx_parts_add(out, "groupkeys", detach(&keys, &len), 0);
	out->v[out->n - 1].len = len;
}

static void build_scatter(const struct corr_set *s, struct pidx_parts *out)
{
	struct pidx_scatter *g = xcalloc(1, sizeof(*g));
	double lo = INFINITY, hi = -INFINITY, span;

	for (size_t i = 0; i < s->n; i++) {
		const struct corr_point *p = &s->points[i];

		if (p->model > 0 && p->ref > 0 && isfinite(p->model) &&
		    isfinite(p->ref)) {
			lo = fmin(lo, fmin(p->model, p->ref));
			hi = fmax(hi, fmax(p->model, p->ref));
		}
	}
	g->empty = !(lo < INFINITY);
	if (!g->empty) {
		g->lo = floor(log10(lo));
		g->hi = ceil(log10(hi));
		if (g->hi <= g->lo)
			g->hi = g->lo + 1;
		span = g->hi - g->lo;
		for (size_t i = 0; i < s->n; i++) {
			const struct corr_point *p = &s->points[i];
			int x, y;

			if (!(p->model > 0 && p->ref > 0 && isfinite(p->model) &&
			      isfinite(p->ref)))
				continue;
			x = (int)((log10(p->ref) - g->lo) / span *
				  (PIDX_GRID - 1) + 0.5);
			y = (int)((log10(p->model) - g->lo) / span *
				  (PIDX_GRID - 1) + 0.5);
			g->cell[y][x / 8] |= (unsigned char)(1u << (x % 8));
		}
	}
	pidx_parts_add(out, "scatter", g, sizeof(*g));
}

/* The workload column's abbreviation (src/wabbr.h) over the workload
 * keys the points use, in id order: what the TUI's list would find at
 * every open (a million parts compared on a sweep), found once here. */
static void build_wabbr(const struct corr_set *s, int64_t max,
			struct pidx_parts *out)
{
	const char **name = xcalloc((size_t)max + 2, sizeof(*name));
	struct strbuf sb = STRBUF_INIT;
	struct wabbr a;
	size_t n = 0, len;

	for (size_t i = 0; i < s->n; i++) {
		int64_t id = s->points[i].workload_id;

		if (id >= 0 && id <= max && !name[id])
			name[id] = s->points[i].workload;
	}
	for (int64_t id = 0; id <= max; id++)
		if (name[id])
			name[n++] = name[id];
	wabbr_build(&a, name, n);
	wabbr_put(&a, &sb);
	wabbr_release(&a);
	free(name);
	pidx_parts_add(out, "wabbr", detach(&sb, &len), 0);
	out->v[out->n - 1].len = len;
}

int pidx_build(const struct corr_set *s, int full, struct pidx_parts *out)
{
	struct pidx_meta *m = xcalloc(1, sizeof(*m));
	struct strbuf sb = STRBUF_INIT;
	struct stats_summary sum;
	size_t len;
	int rc;

	memset(out, 0, sizeof(*out));
	/* the summary the TUI header shows carries compare's default
	 * intervals (issue 19): the set as given, with them when it has
	 * none */
	{
		static const struct stats_paired_opts def = {
			STATS_CI_RESAMPLES, STATS_PAIRED_SEED,
			STATS_PAIRED_LEVEL, STATS_CI_AUTO };
		struct corr_set c = *s;

		if (!c.ci)
			c.ci = &def;
		rc = corr_summary(&sum, &c, NULL, NULL, 0);
	}
	if (rc < 0) {
		free(m);
		return rc;
	}
	m->n = s->n;
	m->excluded_noisy = s->excluded_noisy;
	m->sol_violations = s->sol_violations;
	m->invalid = s->invalid;
	m->not_comparable = s->not_comparable;
	m->not_comparable_runs = s->not_comparable_runs;
	m->unverified = s->unverified;
	m->admitted_pairs = s->admitted_pairs;
	for (size_t i = 0; i < FP_NFIELDS; i++)
		m->admitted[i] = s->admitted[i];
	memcpy(m->not_comparable_field, s->not_comparable_field,
	       sizeof(m->not_comparable_field));
	m->max_id[0] = m->max_id[1] = m->max_id[2] = -1;
	for (size_t i = 0; i < s->n; i++) {
		const struct corr_point *p = &s->points[i];

		m->max_id[0] = p->workload_id > m->max_id[0] ? p->workload_id :
			       m->max_id[0];
		m->max_id[1] = p->op_id > m->max_id[1] ? p->op_id : m->max_id[1];
		m->max_id[2] = p->metric_id > m->max_id[2] ? p->metric_id :
			       m->max_id[2];
	}
	strbuf_add(&sb, (const char *)m, sizeof(*m));
	pidx_put_sum(&sb, &sum);
	free(m);
	pidx_parts_add(out, "meta", detach(&sb, &len), 0);
	out->v[out->n - 1].len = len;
	if (!full)
		return 0;
	build_points(s, out);
	for (int d = 0; d < PIDX_NAME_PARTS; d++)
		build_names(s, d, ((const struct pidx_meta *)out->v[0].data)->
			    max_id[d == PIDX_NAME_OP_CLASS ? PIDX_NAME_OP : d],
			    out);
	build_orders(s, ((const struct pidx_meta *)out->v[0].data)->max_id,
		     out);
	build_scatter(s, out);
	build_group_keys(s, out);
	build_wabbr(s, ((const struct pidx_meta *)out->v[0].data)->max_id[0],
		    out);
	return 0;
}
