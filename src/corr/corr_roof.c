/*
 * The roofline bound of a pairing (see corr_roof.h): resolve the
 * roofline sources, read their bounding values (times, cycles, rates)
 * whole (a roofline holds one value per key, a few per op: small
 * against the sides it bounds) and look keys up by binary search.
 */
#include "src/corr/corr_roof.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "db/query.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "src/corr/correlate_int.h"
#include "src/corr/correlate.h"

int corr_roof_beats(double v, double roof, int higher)
{
	if (!(roof > 0) || isnan(v))
		return 0;
	return higher ? v > roof * (1 + 1e-9) : v < roof * (1 - 1e-9);
}

double corr_roof_fraction(double v, double roof, int higher)
{
	if (!(v > 0) || !(roof > 0) || !isfinite(v) || !isfinite(roof))
		return NAN;
	return higher ? v / roof : roof / v;
}

double corr_roof_point_fraction(const struct corr_set *s,
				const struct corr_point *p)
{
	const struct db_name *mt = corr_dict_find(s->store, DB_DICT_METRICS,
						  p->metric_id, NULL);

	if (!mt || !corr_sol_metric(mt->extra))
		return NAN;
	return corr_roof_fraction(p->ref, p->model, mt->higher != 0);
}

void corr_roof_sides_free(struct db_side *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		db_side_release(&v[i]);
	free(v);
}

static int is_roofline(const struct db_side *s)
{
	return s->kind && !strcmp(s->kind, "roofline");
}

static int add_side(struct db *db, const char *source, const char *version,
		    struct db_side **out, size_t *n)
{
	struct db_side s;
	int rc;

	memset(&s, 0, sizeof(s));
	if ((rc = db_pairs_side(db, source, version, &s)) < 0)
		return rc;
	*out = xrealloc(*out, (*n + 1) * sizeof(**out));
	(*out)[(*n)++] = s;
	return 0;
}

/* Every source of kind roofline with runs, its latest version. */
static int every_roofline(struct db *db, struct db_side **out, size_t *n)
{
	struct db_cursor *c;
	int rc, cname = -1, ckind = -1, cruns = -1;

	if ((rc = db_list_open(&c, db, DB_LIST_SOURCES, NULL)) < 0)
		return rc;
	for (int i = 0; i < db_cursor_ncols(c); i++) {
		const char *nm = db_cursor_name(c, i);

		if (!strcmp(nm, "source"))
			cname = i;
		else if (!strcmp(nm, "kind"))
			ckind = i;
		else if (!strcmp(nm, "runs"))
			cruns = i;
	}
	while (cname >= 0 && ckind >= 0 && (rc = db_cursor_next(c)) > 0) {
		char *name;

		if (strcmp(db_cursor_text(c, ckind), "roofline") ||
		    (cruns >= 0 && db_cursor_int(c, cruns) == 0))
			continue;
		name = xstrdup(db_cursor_text(c, cname));
		rc = add_side(db, name, NULL, out, n);
		free(name);
		if (rc < 0)
			break;
	}
	db_cursor_close(c);
	return rc < 0 ? rc : 0;
}

int corr_roof_sides(struct db *db, const struct corr_query *q,
		    const struct db_side *ms, const struct db_side *rs,
		    struct db_side **out, size_t *nout)
{
	int rc = 0;

	*out = NULL;
	*nout = 0;
	if (q->no_roofline)
		return 0;
	if (q->roofline) {
		char *src = NULL, *ver = NULL;

		corr_parse_side(q->roofline, &src, &ver);
		rc = add_side(db, src, ver, out, nout);
		free(src);
		free(ver);
		if (rc == 0 && !is_roofline(&(*out)[0])) {
			rc = pc_error_set(PC_EUSAGE, "source '%s' is a %s, not "
					  "a roofline: the speed-of-light "
					  "bound must be a source of kind "
					  "roofline", (*out)[0].source,
					  (*out)[0].kind);
		}
	} else if (is_roofline(ms) || is_roofline(rs)) {
		const struct db_side *s = is_roofline(ms) ? ms : rs;

		rc = add_side(db, s->source, s->version, out, nout);
	} else {
		rc = every_roofline(db, out, nout);
	}
	if (rc < 0) {
		corr_roof_sides_free(*out, *nout);
		*out = NULL;
		*nout = 0;
	}
	return rc;
}

static int val_cmp(const void *x, const void *y)
{
	const struct corr_roof_val *a = x, *b = y;

	if (a->w != b->w)
		return a->w < b->w ? -1 : 1;
	if (a->o != b->o)
		return a->o < b->o ? -1 : 1;
	if (a->m != b->m)
		return a->m < b->m ? -1 : 1;
	return a->src < b->src ? -1 : a->src > b->src;
}

static double clock_of(const struct db_side *s, int64_t run)
{
	for (size_t i = 0; i < s->nruns; i++)
		if (s->runs[i] == run)
			return s->clock_hz[i];
	return NAN;
}

static const struct db_name *metric_of(const struct db_name *metrics,
				       size_t n, int64_t id)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (metrics[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && metrics[lo].id == id ? &metrics[lo] : NULL;
}

int corr_roof_load(struct corr_roof *out, struct db *db,
		   const struct corr_query *q, const struct db_side *ms,
		   const struct db_side *rs, const struct db_name *metrics,
		   size_t nmetrics)
{
	size_t cap = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = corr_roof_sides(db, q, ms, rs, &out->sides,
				  &out->nsides)) < 0)
		return rc;
	for (size_t s = 0; s < out->nsides && rc == 0; s++) {
		struct db_result *v = NULL;
		size_t n = 0;

		if ((rc = db_pairs_results(db, &out->sides[s], 0, q->only, &v,
					   &n)) < 0)
			break;
		for (size_t i = 0; i < n; i++) {
			const struct db_name *mt = metric_of(metrics, nmetrics,
							     v[i].metric_id);
			struct corr_roof_val *e;

			if (!mt || !mt->extra || !corr_sol_metric(mt->extra) ||
			    (v[i].flags & 3))
				continue;
			out->v = xgrow(out->v, &cap, out->n, sizeof(*out->v));
			e = &out->v[out->n++];
			e->w = v[i].workload_id;
			e->o = v[i].op_id;
			e->m = v[i].metric_id;
			e->v = v[i].value;
			e->hz = clock_of(&out->sides[s], v[i].run_id);
			e->src = (uint32_t)s;
		}
		free(v);
	}
	if (rc < 0) {
		corr_roof_free(out);
		return rc;
	}
	if (out->n > 1)
		qsort(out->v, out->n, sizeof(*out->v), val_cmp);
	return 0;
}

void corr_roof_free(struct corr_roof *r)
{
	corr_roof_sides_free(r->sides, r->nsides);
	free(r->v);
	memset(r, 0, sizeof(*r));
}

const struct corr_roof_val *corr_roof_find(const struct corr_roof *r,
					   int64_t w, int64_t o, int64_t m,
					   size_t *n)
{
	struct corr_roof_val k = { w, o, m, 0, 0, 0 };
	size_t lo = 0, hi = r->n, e;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (val_cmp(&r->v[mid], &k) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (e = lo; e < r->n && r->v[e].w == w && r->v[e].o == o &&
	     r->v[e].m == m; e++)
		;
	*n = e - lo;
	return e > lo ? &r->v[lo] : NULL;
}

void corr_sol_counts(const struct corr_set *s, long *model, long *ref)
{
	*model = *ref = 0;
	for (size_t i = 0; i < s->n; i++) {
		unsigned f = s->slim ? s->slim[i].flags : s->points[i].flags;

		*model += (f & CORR_SOL_MODEL) != 0;
		*ref += (f & CORR_SOL_REF) != 0;
	}
}

void corr_roof_note(struct corr_set *s, const struct corr_roof *r)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < r->nsides; i++)
		strbuf_addf(&sb, "%s%s@%s", i ? ", " : "", r->sides[i].source,
			    r->sides[i].version);
	free(s->roofline);
	s->roofline = xstrdup(strbuf_str(&sb));
	strbuf_release(&sb);
}
