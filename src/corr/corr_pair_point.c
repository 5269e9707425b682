/*
 * The pairs of one (workload, op) group (see corr_pair_int.h): the
 * filters a key must pass (--workload, --where, --op, cached per
 * dictionary entry), the conversion of cycles to time through the runs'
 * clocks, each pair's flags (invalid, noisy, within noise, speed of
 * light, waived, unverified) and its point, full or slim.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "db/pairs.h"
#include "db/wkey.h"
#include "src/corr/annot.h"
#include "src/corr/corr_fp.h"
#include "base/error.h"
#include "src/corr/correlate_int.h"
#include "src/corr/corr_pair_int.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "src/corr/corr_roof.h"

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
int corr_pair_where_ok(const struct pairing *pr, int64_t wid,
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

int corr_pair_check_where(struct pairing *pr)
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
int corr_pair_workload_globs_ok(const struct corr_query *q, const char *name)
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
int corr_pair_workload_ok(struct pairing *pr, int64_t wid)
{
	const struct db_name *w;
	size_t wi = 0;

	if (!(w = dict_find(pr, DB_DICT_WORKLOADS, wid, &wi)))
		return -1;
	if (pr->wl_ok[wi] < 0) {
		pr->wl_sel[wi] = (unsigned char)
			corr_pair_workload_globs_ok(pr->q, w->name);
		pr->wl_ok[wi] = pr->wl_sel[wi] &&
				corr_pair_where_ok(pr, wid, pr->wseen);
	}
	return pr->wl_ok[wi];
}

/* Workload and op filters, cached per dictionary entry. */
int corr_pair_key_ok(struct pairing *pr, int64_t wid, int64_t oid)
{
	const struct corr_query *q = pr->q;
	const struct db_name *o;
	size_t oi = 0;
	int wok = corr_pair_workload_ok(pr, wid);

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
int corr_pair_group(struct pairing *pr, const struct db_result *m,
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
