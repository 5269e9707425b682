/*
 * Pairing (see correlate_int.h): both sides stream from db/pairs.c already
 * reduced to one result per (workload, op, metric) in key order, with
 * the --metric and --op selections applied in the SQL; a merge join on
 * (workload, op) advances the two streams together and pairs the
 * metrics of each common (workload, op), converting cycles to time
 * through the clocks. Neither side is held whole: one (workload, op)
 * group of each at a time.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "db/pairs.h"
#include "db/wkey.h"
#include "src/corr/annot.h"
#include "src/corr/corr_fp.h"
#include "base/error.h"
#include "base/hmap.h"
#include "src/corr/correlate_int.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "src/corr/corr_roof.h"


/* Pairing state for one corr_load. */
struct pairing {
	const struct corr_query *q;
	struct corr_set *set;
	struct corr_store *st;
	const struct db_side *ms, *rs;
	struct corr_fp *fp;	/* the runs' fingerprints (issue 37) */
	int64_t time_id, cycles_id, metric_id;	/* metric_id -1 = any */
	signed char *wl_ok, *op_ok;		/* per dict index: -1 unknown */
	unsigned char *wl_sel;			/* passed the globs */
	/* --where terms: canonical name, canonical value (NULL: "NAME="
	 * selects workloads without it), seen on a selected workload */
	size_t nwhere;
	char **wname, **wval;
	unsigned char *wseen;
	size_t cap;
	char today[16];
	struct corr_roof roof;	/* the speed-of-light bound */
	int roof_rc;		/* a key with several bounds (sticky) */
	/* the last id found in each dictionary (a (workload, op) group's
	 * metrics share the workload and op; the key order repeats the
	 * workload for many ops): its entry and index */
	int64_t last_id[3];
	const struct db_name *last[3];
	size_t last_at[3];
};

/* corr_dict_find through the one-entry cache of pr. */
static const struct db_name *dict_find(struct pairing *pr, enum db_dict d,
				       int64_t id, size_t *idx)
{
	if (!pr->last[d] || pr->last_id[d] != id) {
		size_t at = 0;
		const struct db_name *e = corr_dict_find(pr->st, d, id, &at);

		if (!e)
			return NULL;
		pr->last[d] = e;
		pr->last_id[d] = id;
		pr->last_at[d] = at;
	}
	if (idx)
		*idx = pr->last_at[d];
	return pr->last[d];
}

/* Every --where term holds for workload wid (aliases folded, values
 * normalised as at import; an empty value asks for the parameter's
 * absence). seen (may be NULL) marks the terms whose parameter wid has. */
static int where_ok(const struct pairing *pr, int64_t wid,
		    unsigned char *seen)
{
	int ok = 1;

	for (size_t i = 0; i < pr->nwhere; i++) {
		const char *v = corr_param_of(pr->st, wid, pr->wname[i]);

		if (v && seen)
			seen[i] = 1;
		if (pr->wval[i] ? !v || strcmp(v, pr->wval[i]) : v != NULL)
			ok = 0;
	}
	return ok;
}

long corr_where_bad(const char *const *where)
{
	for (const char *const *w = where; w && *w; w++) {
		const char *eq = strchr(*w, '=');
		const char *name = strncmp(*w, "param.", 6) ? *w : *w + 6;

		if (!eq || eq == name || eq < name)
			return (long)(w - where);
	}
	return -1;
}

static int check_where(struct pairing *pr)
{
	const char *const *where = pr->q->where;
	long bad = corr_where_bad(where);

	if (bad >= 0)
		return pc_error_set(PC_EINVALID, "bad parameter filter '%s' "
				    "(expected param.NAME=VALUE, or "
				    "param.NAME= for workloads without it)",
				    where[bad]);
	for (const char *const *w = where; w && *w; w++) {
		const char *eq = strchr(*w, '=');
		const char *name = strncmp(*w, "param.", 6) ? *w : *w + 6;
		char *raw;

		raw = xstrndup(name, (size_t)(eq - name));
		pr->wname = xrealloc(pr->wname, (pr->nwhere + 1) *
				     sizeof(*pr->wname));
		pr->wval = xrealloc(pr->wval, (pr->nwhere + 1) *
				    sizeof(*pr->wval));
		pr->wname[pr->nwhere] = xstrdup(wkey_canon_name(raw));
		pr->wval[pr->nwhere++] = eq[1] ? wkey_canon_value(raw, eq + 1) :
					 NULL;
		free(raw);
	}
	pr->wseen = xcalloc(pr->nwhere + 1, 1);
	return 0;
}

/* The --workload globs: one given matches (or none given), no "!GLOB"
 * matches. */
static int workload_globs_ok(const struct corr_query *q, const char *name)
{
	int any = 0, hit = 0;

	if (q->workload_glob && !util_glob(q->workload_glob, name))
		return 0;
	for (const char *const *g = q->workload_globs; g && *g; g++) {
		if (**g == '!') {
			if (util_glob(*g + 1, name))
				return 0;
			continue;
		}
		any = 1;
		hit |= util_glob(*g, name) != 0;
	}
	return !any || hit;
}

/* The workload filters for wid, cached per dictionary entry: -1 when
 * wid is not in the dictionary. Called for the workloads of both sides,
 * paired or not, so the --where terms and the group keys see the
 * parameters either side's workloads carry (issue 39). */
static int workload_ok(struct pairing *pr, int64_t wid)
{
	const struct db_name *w;
	size_t wi = 0;

	if (!(w = dict_find(pr, DB_DICT_WORKLOADS, wid, &wi)))
		return -1;
	if (pr->wl_ok[wi] < 0) {
		pr->wl_sel[wi] = (unsigned char)workload_globs_ok(pr->q,
								  w->name);
		pr->wl_ok[wi] = pr->wl_sel[wi] && where_ok(pr, wid, pr->wseen);
	}
	return pr->wl_ok[wi];
}

/* Workload and op filters, cached per dictionary entry. */
static int key_ok(struct pairing *pr, int64_t wid, int64_t oid)
{
	const struct corr_query *q = pr->q;
	const struct db_name *o;
	size_t oi = 0;
	int wok = workload_ok(pr, wid);

	o = dict_find(pr, DB_DICT_OPS, oid, &oi);
	if (wok < 0 || !o)
		return 0;
	if (pr->op_ok[oi] < 0)
		pr->op_ok[oi] = !q->op_glob || util_glob(q->op_glob, o->name);
	return wok && pr->op_ok[oi];
}

static int no_clock(const struct db_side *s, int64_t run)
{
	size_t i;

	for (i = 0; i < s->nruns && s->runs[i] != run; i++)
		;
	return pc_error_set(PC_EINVALID, "run %lld ('%s') of source '%s' has "
			    "no clock: its cycles cannot pair with time "
			    "(re-import it with --clock-mhz)", (long long)run,
			    i < s->nruns ? s->files[i] : "?", s->source);
}

static double clock_of(const struct db_side *s, int64_t run)
{
	for (size_t i = 0; i < s->nruns; i++)
		if (s->runs[i] == run)
			return s->clock_hz[i];
	return NAN;
}

/* Several roofline sources bound one key and none was chosen. */
static void roof_ambiguous(struct pairing *pr, const struct db_result *r,
			   const struct corr_roof_val *v, size_t n)
{
	const struct db_name *w = corr_dict_find(pr->st, DB_DICT_WORKLOADS,
						 r->workload_id, NULL);
	const struct db_name *o = corr_dict_find(pr->st, DB_DICT_OPS, r->op_id,
						 NULL);
	struct strbuf sb = STRBUF_INIT;

	if (pr->roof_rc)
		return;
	for (size_t i = 0; i < n; i++)
		strbuf_addf(&sb, "%s'%s@%s'", i ? ", " : "",
			    pr->roof.sides[v[i].src].source,
			    pr->roof.sides[v[i].src].version);
	pr->roof_rc = pc_error_set(PC_EINVALID, "several roofline sources "
				   "bound (%s, %s): %s; which one is the "
				   "speed of light is a choice",
				   w ? w->name : "?", o ? o->name : "?",
				   strbuf_str(&sb));
	pc_error_cause(PC_CAUSE_ROOFLINE);
	strbuf_release(&sb);
}

/* The speed-of-light flags of a pair: the model value (converted) and
 * the reference's against the roofline of the key in the reference's
 * metric (a roofline time bounds cycles through the reference run's
 * clock, roofline cycles bound a time through the roofline's). */
static unsigned sol_flags(struct pairing *pr, const struct db_result *r,
			  double model, int higher, const char *unit)
{
	const struct corr_roof_val *v;
	double roof, scale = 1;
	unsigned f = 0;
	size_t n = 0;

	if (!pr->roof.n || !unit || !corr_sol_metric(unit))
		return 0;
	v = corr_roof_find(&pr->roof, r->workload_id, r->op_id, r->metric_id,
			   &n);
	if (!v && r->metric_id == pr->cycles_id && pr->time_id >= 0 &&
	    (v = corr_roof_find(&pr->roof, r->workload_id, r->op_id,
				pr->time_id, &n)))
		scale = clock_of(pr->rs, r->run_id);
	else if (!v && r->metric_id == pr->time_id && pr->cycles_id >= 0 &&
		 (v = corr_roof_find(&pr->roof, r->workload_id, r->op_id,
				     pr->cycles_id, &n)))
		scale = 1 / v->hz;
	if (!v)
		return 0;
	if (n > 1) {
		roof_ambiguous(pr, r, v, n);
		return 0;
	}
	roof = v->v * scale;
	if (!(roof > 0))
		return 0;
	pr->set->sol_keys++;
	if (corr_roof_beats(model, roof, higher))
		f |= CORR_SOL_MODEL;
	if (corr_roof_beats(r->value, roof, higher))
		f |= CORR_SOL_REF;
	return CORR_SOL_BOUND | (f ? f | CORR_SOL_VIOLATION : 0);
}

/* The flags of a pair: model and ref after conversion, sd, min and max
 * the reference's spread, ann the pair's current annotation. */
static unsigned point_flags(struct pairing *pr, double model,
			    double ref, double ref_sd, double ref_min,
			    double ref_max, const struct annot *ann,
			    const struct db_result *m,
			    const struct db_result *r, int higher,
			    const char *unit)
{
	unsigned f = 0;

	if ((m->flags | r->flags) & 3)
		f |= CORR_INVALID;
	/* a zero reference with a spread is noise around zero */
	if (ref_sd > 0 && (ref == 0 || ref_sd / fabs(ref) > pr->q->max_ref_cv))
		f |= CORR_NOISY_REF;
	if (ref_sd >= 0 ? fabs(model - ref) <= ref_sd :
	    ref_min <= model && model <= ref_max)
		f |= CORR_WITHIN_NOISE;
	f |= sol_flags(pr, r, model, higher, unit);
	if (ann && annot_waived(ann, pr->today))
		f |= CORR_WAIVED;
	return f;
}

/* A slim pair (corr_query.slim): ids as dictionary indices, the values
 * and flags add_point would compute, nothing else. */
static void add_slim(struct pairing *pr, const struct db_result *m,
		     const struct db_result *r, double scale, unsigned xflags)
{
	struct corr_set *s = pr->set;
	const struct db_name *w, *o, *mt;
	const struct annot *ann;
	struct corr_slim *p;
	size_t wi = 0, oi = 0, mi = 0;
	double model = m->value * scale;

	if (s->n == pr->cap) {
		pr->cap = pr->cap ? pr->cap * 2 : 256;
		s->slim = xrealloc(s->slim, pr->cap * sizeof(*s->slim));
	}
	p = &s->slim[s->n++];
	w = dict_find(pr, DB_DICT_WORKLOADS, r->workload_id, &wi);
	o = dict_find(pr, DB_DICT_OPS, r->op_id, &oi);
	mt = dict_find(pr, DB_DICT_METRICS, r->metric_id, &mi);
	p->w = (uint32_t)wi;
	p->o = (uint16_t)oi;	/* corr_load checked the widths */
	p->m = (uint8_t)mi;
	p->model = model;
	p->ref = r->value;
	p->ref_se = corr_ref_se(r->stddev, r->n);
	ann = annot_index_find(pr->st->annots, w->name, o->name, mt->name,
			       pr->ms->source, pr->rs->source);
	p->flags = (uint8_t)(point_flags(pr, model, r->value, r->stddev,
					r->min, r->max, ann, m, r, mt->higher,
					mt->extra) | xflags);
	if (!pr->q->pool && (m->nruns > 1 || r->nruns > 1))
		s->superseded++;
}

/* Add the pair (m, r); scale converts the model's value to r's metric. */
static void add_point(struct pairing *pr, const struct db_result *m,
		      const struct db_result *r, double scale, unsigned xflags)
{
	struct corr_set *s = pr->set;
	const struct db_name *w, *o, *mt;
	struct corr_point *p;

	if (pr->q->slim) {
		add_slim(pr, m, r, scale, xflags);
		return;
	}
	if (s->n == pr->cap) {
		pr->cap = pr->cap ? pr->cap * 2 : 256;
		s->points = xrealloc(s->points, pr->cap * sizeof(*s->points));
	}
	p = &s->points[s->n++];
	w = dict_find(pr, DB_DICT_WORKLOADS, r->workload_id, NULL);
	o = dict_find(pr, DB_DICT_OPS, r->op_id, NULL);
	mt = dict_find(pr, DB_DICT_METRICS, r->metric_id, NULL);
	p->workload = w->name;
	p->op = o->name;
	p->op_class = o->extra;
	p->metric = mt->name;
	p->workload_id = r->workload_id;
	p->op_id = r->op_id;
	p->metric_id = r->metric_id;
	p->model = m->value * scale;
	p->ref = r->value;
	p->err = stats_err(p->model, p->ref);
	p->model_sd = m->stddev * scale;
	p->ref_sd = r->stddev;
	p->ref_n = r->n;
	p->ref_min = r->min;
	p->ref_max = r->max;
	p->model_run = m->run_id;
	p->ref_run = r->run_id;
	/* the sides move into the set only after pairing: use pr's */
	p->ann = annot_index_find(pr->st->annots, p->workload, p->op,
				  p->metric, pr->ms->source, pr->rs->source);
	p->flags = point_flags(pr, p->model, p->ref, p->ref_sd, p->ref_min,
			       p->ref_max, p->ann, m, r, mt->higher,
			       mt->extra) | xflags;
	/* the latest run won over older ones: say so (docs/statistics.md) */
	if (!pr->q->pool && (m->nruns > 1 || r->nruns > 1))
		s->superseded++;
}

static const struct db_result *find_metric(const struct db_result *v,
					   size_t n, int64_t metric)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].metric_id == metric)
			return &v[i];
	return NULL;
}

/* Pair the metrics of one (workload, op) group. */
static int pair_group(struct pairing *pr, const struct db_result *m,
		      size_t nm, const struct db_result *r, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		const struct db_result *x = find_metric(m, nm, r[i].metric_id);
		int64_t mid = r[i].metric_id;
		double scale = 1, hz;

		if (pr->metric_id >= 0 && mid != pr->metric_id)
			continue;
		if (!x && mid == pr->time_id &&
		    (x = find_metric(m, nm, pr->cycles_id))) {
			hz = clock_of(pr->ms, x->run_id);
			if (!(hz > 0))
				return no_clock(pr->ms, x->run_id);
			scale = 1 / hz;
		} else if (!x && mid == pr->cycles_id &&
			   (x = find_metric(m, nm, pr->time_id))) {
			hz = clock_of(pr->rs, r[i].run_id);
			if (!(hz > 0))
				return no_clock(pr->rs, r[i].run_id);
			scale = hz;
		}
		if (x) {
			/* the runs' fingerprints (issue 37): refused pairs
			 * are counted, never paired */
			int v = corr_fp_verdict(pr->fp, x->run_id,
						r[i].run_id, pr->set);

			if (v == CORR_FP_REFUSED) {
				pr->set->not_comparable++;
				continue;
			}
			if (v == CORR_FP_UNVERIFIED)
				pr->set->unverified++;
			add_point(pr, x, &r[i], scale, v == CORR_FP_UNVERIFIED ?
				  CORR_UNVERIFIED : 0);
		}
		if (pr->roof_rc)
			return pr->roof_rc;
	}
	return 0;
}

static int wo_cmp(const struct db_result *a, const struct db_result *b)
{
	if (a->workload_id != b->workload_id)
		return a->workload_id < b->workload_id ? -1 : 1;
	if (a->op_id != b->op_id)
		return a->op_id < b->op_id ? -1 : 1;
	return 0;
}

/* One side's stream, read a (workload, op) group at a time: v[0..n) is
 * the current group (n = 0 at the end), next the row after it. */
struct group {
	struct db_pairs_cur *c;
	const struct db_result *next;
	struct db_result *v;
	size_t n, cap;
};

static int group_open(struct group *g, struct db *db,
		      const struct db_side *side, const struct pairing *pr,
		      const struct db_pairs_filter *f)
{
	int rc;

	memset(g, 0, sizeof(*g));
	if ((rc = db_pairs_open(&g->c, db, side, pr->q->pool, pr->q->only,
				f)) < 0)
		return rc;
	rc = db_pairs_next(g->c, &g->next);
	if (rc == 0)
		g->next = NULL;
	return rc < 0 ? rc : 0;
}

static int group_fill(struct group *g)
{
	int rc;

	g->n = 0;
	while (g->next && (g->n == 0 || !wo_cmp(g->next, &g->v[0]))) {
		g->v = xgrow(g->v, &g->cap, g->n, sizeof(*g->v));
		g->v[g->n++] = *g->next;
		if ((rc = db_pairs_next(g->c, &g->next)) < 0)
			return rc;
		if (rc == 0)
			g->next = NULL;
	}
	return 0;
}

static void group_close(struct group *g)
{
	db_pairs_close(g->c);
	free(g->v);
}

/* The --metric and --op selections as id lists for the SQL: the model
 * side also reads the metric that converts (time <-> cycles). An op
 * glob matching most ops is left to key_ok (a long IN list costs more
 * than it skips). */
struct sel {
	int64_t metrics[2], *ops;
	struct db_pairs_filter model, ref;
};

static void sel_make(struct sel *sl, const struct pairing *pr)
{
	const struct corr_query *q = pr->q;
	size_t nops = pr->st->ndict[DB_DICT_OPS], k = 0;

	memset(sl, 0, sizeof(*sl));
	if (pr->metric_id >= 0) {
		sl->metrics[0] = pr->metric_id;
		sl->ref.metrics = sl->model.metrics = sl->metrics;
		sl->ref.nmetrics = sl->model.nmetrics = 1;
		if (pr->metric_id == pr->time_id && pr->cycles_id >= 0)
			sl->metrics[sl->model.nmetrics++] = pr->cycles_id;
		else if (pr->metric_id == pr->cycles_id && pr->time_id >= 0)
			sl->metrics[sl->model.nmetrics++] = pr->time_id;
	}
	if (!q->op_glob)
		return;
	sl->ops = xmalloc((nops + 1) * sizeof(*sl->ops));
	for (size_t i = 0; i < nops; i++)
		if (util_glob(q->op_glob, pr->st->dict[DB_DICT_OPS][i].name))
			sl->ops[k++] = pr->st->dict[DB_DICT_OPS][i].id;
	if (k == 0)	/* nothing: an id no result has */
		sl->ops[k++] = 0;
	if (k <= 256) {
		sl->model.ops = sl->ref.ops = sl->ops;
		sl->model.nops = sl->ref.nops = k;
		sl->model.nworkloads = sl->ref.nworkloads =
			pr->st->ndict[DB_DICT_WORKLOADS];
	}
}

/* Advance both streams together; pair each common (workload, op). Both
 * are read to their ends: an error of a side (a key on two platforms,
 * cycles that cannot pool) holds wherever the key lies. */
static int merge_join(struct pairing *pr, struct db *db)
{
	struct group m, r;
	struct sel sl;
	int rc;

	sel_make(&sl, pr);
	memset(&r, 0, sizeof(r));
	if ((rc = group_open(&m, db, pr->ms, pr, &sl.model)) < 0 ||
	    (rc = group_open(&r, db, pr->rs, pr, &sl.ref)) < 0 ||
	    (rc = group_fill(&m)) < 0 || (rc = group_fill(&r)) < 0)
		goto out;
	while (m.n || r.n) {
		int c = !m.n ? 1 : !r.n ? -1 : wo_cmp(&m.v[0], &r.v[0]);

		if (c == 0 && key_ok(pr, m.v[0].workload_id, m.v[0].op_id) &&
		    (rc = pair_group(pr, m.v, m.n, r.v, r.n)) < 0)
			break;
		if (c != 0)	/* one side only: its parameters count too */
			workload_ok(pr, (c < 0 ? m.v : r.v)[0].workload_id);
		if ((c <= 0 && (rc = group_fill(&m)) < 0) ||
		    (c >= 0 && (rc = group_fill(&r)) < 0))
			break;
	}
out:
	group_close(&m);
	group_close(&r);
	free(sl.ops);
	return rc;
}

/* "12 results: 3 workloads, 4 ops, metrics 'time', 'cycles'" */
static void describe(struct strbuf *sb, const struct corr_store *st,
		     const struct db_result *v, size_t n)
{
	size_t nw = 0, no = 0, nmet = 0;
	char *ops = xcalloc(st->ndict[DB_DICT_OPS] + 1, 1);
	char *mets = xcalloc(st->ndict[DB_DICT_METRICS] + 1, 1);

	for (size_t i = 0; i < n; i++) {
		size_t k;

		if (i == 0 || v[i].workload_id != v[i - 1].workload_id)
			nw++;
		if (corr_dict_find(st, DB_DICT_OPS, v[i].op_id, &k) && !ops[k]++)
			no++;
		if (corr_dict_find(st, DB_DICT_METRICS, v[i].metric_id, &k) &&
		    !mets[k]++)
			nmet++;
	}
	strbuf_addf(sb, "%zu results: %zu workloads, %zu ops, metrics ", n,
		    nw, no);
	for (size_t k = 0, i = 0; k < st->ndict[DB_DICT_METRICS]; k++)
		if (mets[k])
			strbuf_addf(sb, "%s'%s'", i++ ? ", " : "",
				    st->dict[DB_DICT_METRICS][k].name);
	if (nmet == 0)
		strbuf_addstr(sb, "none");
	free(ops);
	free(mets);
}

/* The model side's metric passes --metric (time and cycles convert). */
static int metric_pass(const struct pairing *pr, int64_t mid, int model)
{
	if (pr->metric_id < 0 || mid == pr->metric_id)
		return 1;
	return model && ((pr->metric_id == pr->time_id &&
			  mid == pr->cycles_id) ||
			 (pr->metric_id == pr->cycles_id &&
			  mid == pr->time_id));
}

/* Results of one side left after each filter in turn: [0] all, then
 * --metric, --op, --workload, --where. sel (per workload dictionary
 * index, may be NULL) marks the workloads past the globs. */
static void stage_counts(const struct pairing *pr, const struct db_result *v,
			 size_t n, int model, size_t c[5], unsigned char *sel)
{
	const struct corr_query *q = pr->q;

	memset(c, 0, 5 * sizeof(*c));
	for (size_t i = 0; i < n; i++) {
		const struct db_name *w, *o;
		size_t wi = 0;

		c[0]++;
		if (!metric_pass(pr, v[i].metric_id, model))
			continue;
		c[1]++;
		o = corr_dict_find(pr->st, DB_DICT_OPS, v[i].op_id, NULL);
		if (!o || (q->op_glob && !util_glob(q->op_glob, o->name)))
			continue;
		c[2]++;
		w = corr_dict_find(pr->st, DB_DICT_WORKLOADS, v[i].workload_id, &wi);
		if (!w || !workload_globs_ok(q, w->name))
			continue;
		c[3]++;
		if (sel)
			sel[wi] = 1;
		if (!where_ok(pr, v[i].workload_id, NULL))
			continue;
		c[4]++;
	}
}

static void describe_stages(struct strbuf *sb, const struct pairing *pr,
			    const size_t c[5])
{
	const struct corr_query *q = pr->q;
	const char *name[5] = { NULL, "metric", "op", "workload",
				"parameter" };
	int given[5] = { 0, q->metric != NULL, q->op_glob != NULL,
			 q->workload_glob || (q->workload_globs &&
					      *q->workload_globs),
			 pr->nwhere > 0 };
	int first = 1;

	for (int k = 1; k < 5; k++) {
		if (!given[k])
			continue;
		strbuf_addf(sb, "%s%s %zu", first ? " (left after each filter: " :
			    ", ", name[k], c[k]);
		first = 0;
	}
	if (!first)
		strbuf_addch(sb, ')');
}

/* "'1', '8'": the values parameter name takes on the workloads sel marks. */
static void param_values(struct strbuf *sb, const struct corr_store *st,
			 const unsigned char *sel, const char *name)
{
	struct hmap seen;
	size_t k, shown = 0;
	int64_t dummy;

	hmap_init(&seen);
	for (size_t i = 0; i < st->nparams; i++) {
		const struct db_param *p = &st->params[i];

		if (strcmp(p->name, name) ||
		    !corr_dict_find(st, DB_DICT_WORKLOADS, p->workload_id, &k) ||
		    !sel[k] || hmap_get(&seen, p->value, &dummy))
			continue;
		hmap_put(&seen, p->value, 1);
		if (shown++ == 12) {
			strbuf_addstr(sb, ", ...");
			break;
		}
		strbuf_addf(sb, "%s'%s'", shown > 1 ? ", " : "", p->value);
	}
	if (!shown)
		strbuf_addstr(sb, "none: no workload there has it");
	hmap_release(&seen);
}

/* "'bs', 'seq'": parameter names of the workloads sel marks, sorted. */
static void param_names_of(struct strbuf *sb, const struct corr_store *st,
			   const unsigned char *sel)
{
	char **v = NULL;
	size_t len = 0, k;
	struct hmap seen;
	int64_t dummy;

	hmap_init(&seen);
	for (size_t i = 0; i < st->nparams; i++) {
		const struct db_param *p = &st->params[i];

		if (!corr_dict_find(st, DB_DICT_WORKLOADS, p->workload_id, &k) ||
		    !sel[k] || hmap_get(&seen, p->name, &dummy))
			continue;
		hmap_put(&seen, p->name, 1);
		v = xrealloc(v, (len + 1) * sizeof(*v));
		v[len++] = p->name;
	}
	for (size_t i = 1; i < len; i++)	/* few: insertion sort */
		for (size_t j = i; j > 0 && strcmp(v[j - 1], v[j]) > 0; j--) {
			char *t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	for (size_t i = 0; i < len; i++)
		strbuf_addf(sb, "%s'%s'", i ? ", " : "", v[i]);
	if (!len)
		strbuf_addstr(sb, "none");
	free(v);
	hmap_release(&seen);
}

/* A --where parameter that no selected workload has: an error naming
 * the parameters they do have (a misspelt name is not "nothing"). */
static int where_unknown(const struct pairing *pr)
{
	size_t nw = pr->st->ndict[DB_DICT_WORKLOADS], any = 0;
	struct strbuf sb = STRBUF_INIT;
	int rc;

	for (size_t k = 0; k < nw; k++)
		any += pr->wl_sel[k];
	for (size_t i = 0; any && i < pr->nwhere; i++) {
		if (pr->wseen[i])
			continue;
		param_names_of(&sb, pr->st, pr->wl_sel);
		rc = pc_error_set(PC_EINVALID, "parameter filter: no selected "
				  "workload has a parameter '%s' (their "
				  "parameters: %s)",
				  pr->wname[i], strbuf_str(&sb));
		strbuf_release(&sb);
		return rc;
	}
	return 0;
}

static int nothing_matched(const struct pairing *pr,
			   const struct db_result *m, size_t nm,
			   const struct db_result *r, size_t nr)
{
	struct strbuf sb = STRBUF_INIT;
	const struct corr_query *q = pr->q;
	size_t cm[5], cr[5], nw = pr->st->ndict[DB_DICT_WORKLOADS];
	unsigned char *sel = xcalloc(nw + 1, 1);
	int rc;

	stage_counts(pr, m, nm, 1, cm, sel);
	stage_counts(pr, r, nr, 0, cr, sel);
	strbuf_addf(&sb, "nothing matched: model '%s@%s' has ",
		    pr->ms->source, pr->ms->version);
	describe(&sb, pr->st, m, nm);
	describe_stages(&sb, pr, cm);
	strbuf_addf(&sb, "; reference '%s@%s' has ", pr->rs->source,
		    pr->rs->version);
	describe(&sb, pr->st, r, nr);
	describe_stages(&sb, pr, cr);
	for (size_t i = 0; i < pr->nwhere && cm[3] + cr[3] > 0; i++) {
		strbuf_addf(&sb, "; parameter '%s' takes ", pr->wname[i]);
		param_values(&sb, pr->st, sel, pr->wname[i]);
	}
	if (cm[4] && cr[4])
		strbuf_addstr(&sb, "; the two sides share no (workload, op)");
	rc = pc_error_set(PC_ENOTFOUND, "%s", strbuf_str(&sb));
	strbuf_release(&sb);
	free(sel);
	if (q->metric || q->op_glob || q->workload_glob ||
	    (q->workload_globs && *q->workload_globs) || pr->nwhere)
		pc_error_cause(PC_CAUSE_FILTERS);
	return rc;
}

/* The platforms both sides hold, when each holds several (and none was
 * chosen): the pairing then goes platform by platform. */
static size_t common_platforms(const struct db_side *ms,
			       const struct db_side *rs, const char ***out)
{
	const char **a, **b;
	size_t na = db_side_platforms(ms, &a), nb = db_side_platforms(rs, &b);
	size_t n = 0;

	*out = NULL;
	if (na >= 2 && nb >= 2) {
		*out = xmalloc((na + 1) * sizeof(**out));
		for (size_t i = 0; i < na; i++)
			for (size_t j = 0; a[i] && j < nb; j++)
				if (b[j] && !strcmp(a[i], b[j]))
					(*out)[n++] = a[i];
	}
	free(a);
	free(b);
	return n;
}

/* Pair platform by platform: each side restricted to one platform. */
static int pair_platforms(struct pairing *pr, struct db *db,
			  const char *const *plat, size_t np)
{
	int rc = 0;

	for (size_t i = 0; i < np && !rc; i++) {
		struct db_side ms, rs;
		const struct db_side *oms = pr->ms, *ors = pr->rs;

		memset(&ms, 0, sizeof(ms));
		memset(&rs, 0, sizeof(rs));
		if (!(rc = db_pairs_side(db, oms->source, oms->version, &ms)) &&
		    !(rc = db_side_restrict(&ms, plat[i])) &&
		    !(rc = db_pairs_side(db, ors->source, ors->version, &rs)) &&
		    !(rc = db_side_restrict(&rs, plat[i]))) {
			pr->ms = &ms;
			pr->rs = &rs;
			rc = merge_join(pr, db);
			pr->ms = oms;
			pr->rs = ors;
		}
		db_side_release(&ms);
		db_side_release(&rs);
	}
	if (!rc && pr->set->n == 0 && !pr->set->not_comparable) {
		struct strbuf sb = STRBUF_INIT;

		for (size_t i = 0; i < np; i++)
			strbuf_addf(&sb, "%s'%s'", i ? ", " : "", plat[i]);
		rc = pc_error_set(PC_ENOTFOUND, "nothing matched: '%s@%s' and "
				  "'%s@%s' were paired platform by platform "
				  "(%s) and no platform pairs anything",
				  pr->ms->source, pr->ms->version,
				  pr->rs->source, pr->rs->version,
				  np ? strbuf_str(&sb) : "none in common");
		strbuf_release(&sb);
	}
	return rc;
}

static int pair_all(struct pairing *pr, struct db *db)
{
	struct db_result *m = NULL, *r = NULL;
	size_t nm = 0, nr = 0, np = 0;
	const char **plat = NULL;
	int rc = 0, by_platform;

	pr->wl_ok = xmalloc(pr->st->ndict[DB_DICT_WORKLOADS] + 1);
	pr->wl_sel = xcalloc(pr->st->ndict[DB_DICT_WORKLOADS] + 1, 1);
	pr->op_ok = xmalloc(pr->st->ndict[DB_DICT_OPS] + 1);
	memset(pr->wl_ok, -1, pr->st->ndict[DB_DICT_WORKLOADS] + 1);
	memset(pr->op_ok, -1, pr->st->ndict[DB_DICT_OPS] + 1);
	/* both sides on several platforms, none chosen: pair on platform */
	if (!pr->q->model_platform && !pr->q->ref_platform)
		np = common_platforms(pr->ms, pr->rs, &plat);
	by_platform = plat != NULL;
	if (by_platform) {
		rc = pair_platforms(pr, db, plat, np);
	} else {
		rc = merge_join(pr, db);
	}
	if (!rc && pr->set->n == 0 && pr->set->not_comparable)
		rc = pc_error_set(PC_EINVALID, "not comparable: all %ld pairs "
				  "of '%s@%s' and '%s@%s' were refused (%ld run "
				  "pairs): %s", pr->set->not_comparable,
				  pr->ms->source, pr->ms->version,
				  pr->rs->source, pr->rs->version,
				  pr->set->not_comparable_runs,
				  pr->set->not_comparable_why);
	if (!rc)
		rc = where_unknown(pr);
	if (!rc) {
		size_t nw = pr->st->ndict[DB_DICT_WORKLOADS];

		pr->st->wl_selected = xcalloc(nw + 1, 1);
		for (size_t k = 0; k < nw; k++)
			pr->st->wl_selected[k] = pr->wl_ok[k] > 0;
	}
	/* nothing paired: read both sides whole, unfiltered, to say what
	 * each filter left (only on this error path) */
	if (!rc && pr->set->n == 0 && !by_platform &&
	    (rc = db_pairs_results(db, pr->ms, pr->q->pool, pr->q->only, &m,
				   &nm)) == 0 &&
	    (rc = db_pairs_results(db, pr->rs, pr->q->pool, pr->q->only, &r,
				   &nr)) == 0)
		rc = nothing_matched(pr, m, nm, r, nr);
	free(plat);
	free(pr->wl_ok);
	free(pr->wl_sel);
	free(pr->op_ok);
	free(m);
	free(r);
	return rc;
}

static int prepare(struct pairing *pr)
{
	const struct corr_query *q = pr->q;

	pr->time_id = corr_metric_id(pr->st, "time");
	pr->cycles_id = corr_metric_id(pr->st, "cycles");
	pr->metric_id = -1;
	if (q->metric && (pr->metric_id = corr_metric_id(pr->st, q->metric)) < 0)
		return pc_error_set(PC_ENOTFOUND, "no metric named '%s'",
				    q->metric);
	annot_today(pr->today, sizeof(pr->today));
	return check_where(pr);
}

int corr_pair(struct corr_set *s, struct db *db, const struct corr_query *q,
	      const struct db_side *ms, const struct db_side *rs)
{
	struct pairing pr;
	int rc;

	memset(&pr, 0, sizeof(pr));
	pr = (struct pairing){ .q = q, .set = s, .st = s->store, .ms = ms,
			       .rs = rs };
	if (!(rc = prepare(&pr)) &&
	    !(rc = corr_fp_load(&pr.fp, db, ms, rs, q->allow_mismatch)) &&
	    !(rc = corr_roof_load(&pr.roof, db, q, ms, rs,
				  s->store->dict[DB_DICT_METRICS],
				  s->store->ndict[DB_DICT_METRICS])))
		rc = pair_all(&pr, db);
	if (!rc && pr.roof.nsides)
		corr_roof_note(s, &pr.roof);
	corr_roof_free(&pr.roof);
	corr_fp_free(pr.fp);
	for (size_t i = 0; i < pr.nwhere; i++) {
		free(pr.wname[i]);
		free(pr.wval[i]);
	}
	free(pr.wname);
	free(pr.wval);
	free(pr.wseen);
	return rc;
}
